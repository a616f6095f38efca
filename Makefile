# kinelab: `make run` opens the app, `make test` runs everything CI runs.
# Both first make sure the system packages are installed (.ci/deps).

GO          ?= go
# raylib is built for X11 only (no Wayland headers needed). -trimpath:
# compiled packages do not depend on the folder of the checkout, so a
# clean clone (CI's) reuses the build cache of the last one instead of
# compiling every package of kinelab again (50 s of CPU).
export GOFLAGS := -tags=x11 -trimpath
# Without raylib's own F12 capture, which writes screenshot000.png into
# the folder kinelab was started in (over a file of that name) beside
# kinelab's own F12 screenshot. raylib's config.h takes the setting from
# the compiler; Go's default flags (-O2 -g) are kept.
export CGO_CFLAGS := $(if $(CGO_CFLAGS),$(CGO_CFLAGS),-O2 -g) -DSUPPORT_SCREEN_CAPTURE=0
TOOLS       := $(CURDIR)/.tools
STATICCHECK := $(TOOLS)/staticcheck
# staticcheck 2026.1, the first release that reads Go 1.26.
STATICCHECK_VERSION := v0.7.0
# A screen as large as the largest size the fit test renders (3840x2160);
# the screenshot test's window past 2^24 pixels (4800x3600) is larger than
# the screen, which X allows. -noreset: an X server resets when its last
# client disconnects and refuses connections while it does; the render
# tests open and close a window each, and every command a test runs is a
# client, so on a busy machine a test's window met a resetting server
# ("X11: Failed to open display", 3 runs of 3 under eight CPU hogs).
XVFB        := xvfb-run -a -s "-screen 0 3840x2160x24 -noreset"
ARGS        ?=
# simd added to any experiments GOEXPERIMENT already names.
comma       := ,
SIMDEXP     := $(if $(GOEXPERIMENT),$(GOEXPERIMENT)$(comma))simd

.PHONY: run test build build-simd build-scalar deps vet lint fmt-check gotest bench icount verify networks screenshots clean

run: build
	./bin/kinelab $(ARGS)

# The AVX2 build (GOEXPERIMENT=simd: animsys's lane types eight joints to
# a register, the portable build's bits) where .ci/simdprobe builds and
# runs, that is where this Go has the experiment and the CPU has AVX2;
# else the portable build. Should the AVX2 build still fail (an
# experiment's API changes), the portable one is built instead.
build: deps
	@if GOEXPERIMENT=$(SIMDEXP) $(GO) run ./.ci/simdprobe >/dev/null 2>&1; then \
	  echo "make: building the AVX2 lanes (GOEXPERIMENT=simd) into bin/kinelab"; \
	  GOEXPERIMENT=$(SIMDEXP) $(GO) build -o bin/kinelab . || { \
	    echo "make: the AVX2 build failed; building the portable one into bin/kinelab"; \
	    $(GO) build -o bin/kinelab .; }; \
	else \
	  echo "make: building the portable lanes into bin/kinelab (no GOEXPERIMENT=simd in this Go, or no AVX2)"; \
	  $(GO) build -o bin/kinelab .; \
	fi

deps:
	@./.ci/deps

$(STATICCHECK):
	GOBIN=$(TOOLS) GOFLAGS= $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

test: deps $(STATICCHECK) fmt-check vet lint gotest

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

lint: $(STATICCHECK)
	$(STATICCHECK) -tags x11 ./...

# Each test binary's limit, set here rather than left to go test's 10
# minutes: every package takes under 2 CPU-minutes, so this is far above
# what a machine busy with five times its cores of other work needs, and
# still ends a hung test with its stacks.
TESTTIMEOUT := 20m
GOTEST      := $(GO) test -count=1 -timeout $(TESTTIMEOUT)

# Every Go test, with an X server so the render tests really render:
# KINELAB_REQUIRE_DISPLAY turns their "no display" skip into a failure;
# where Node is installed, KINELAB_REQUIRE_VALIDATOR does the same for
# the tests that run the glTF validator .ci/deps installs.
REQUIRE_VALIDATOR := $(if $(shell command -v node),KINELAB_REQUIRE_VALIDATOR=1)
gotest:
	KINELAB_REQUIRE_DISPLAY=1 $(REQUIRE_VALIDATOR) $(XVFB) $(GOTEST) ./...
	# animsys without its one assembly file (the crowd's prefetch): the
	# pure-Go build other architectures get. Only animsys has files the
	# tag changes; the crowd calls the prefetch.
	GOFLAGS="-tags=x11,purego -trimpath" $(GO) vet ./animsys/
	GOFLAGS="-tags=x11,purego -trimpath" $(GOTEST) ./animsys/ ./animsys/crowd/
	# The AVX2 build (GOEXPERIMENT=simd: mathx's lane types on Go's
	# experimental simd/archsimd), where .ci/simdprobe says this Go and CPU
	# have it. Only animsys/mathx holds files the experiment changes, and
	# the two builds give the same bits for every pose operation
	# (animsys/internal/lanebits, compared below), so the packages that only
	# call the ops run their tests once, above, bar the golden files,
	# verify, the crowd and the allocation tests.
	@if GOEXPERIMENT=$(SIMDEXP) $(GO) run ./.ci/simdprobe >/dev/null 2>&1; then \
	  set -ex; \
	  GOEXPERIMENT=simd $(GO) vet ./animsys/ ./animsys/mathx/; \
	  GOEXPERIMENT=simd $(STATICCHECK) -tags x11 ./animsys/ ./animsys/mathx/; \
	  GOEXPERIMENT=simd $(GOTEST) ./animsys/ ./animsys/mathx/ ./animsys/crowd/ ./animsys/golden/ ./animsys/verify/; \
	  GOEXPERIMENT=simd $(GOTEST) -run Alloc ./animsys/matching/ ./animsys/export/; \
	  p=$$($(GO) run ./animsys/internal/lanebits); s=$$(GOEXPERIMENT=simd $(GO) run ./animsys/internal/lanebits); \
	  echo "lanebits: $$p"; echo "lanebits: $$s"; \
	  [ "$${p%% *}" = "$${s%% *}" ] || { echo "the AVX2 and portable builds' bits differ"; exit 1; }; \
	else echo "SKIPPED: the AVX2 build's tests (no GOEXPERIMENT=simd in this Go, or no AVX2 in this CPU)"; fi

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./animsys/...
	./bin/kinelab bench

# Instructions a bench-spec tick, in both builds (valgrind's callgrind):
# docs/speed.md's counts.
icount: deps
	./.ci/icount

# Each build by name, whatever the machine: the AVX2 one refuses to start
# on a CPU without AVX2, saying so.
build-simd: deps
	GOEXPERIMENT=$(SIMDEXP) $(GO) build -o bin/kinelab-simd .

build-scalar: deps
	$(GO) build -o bin/kinelab-scalar .

verify: build
	./bin/kinelab verify

# Train the learned controller's networks for the embedded set again (30
# minutes on a 2-core machine; the AVX2 build's kernels): needed when the
# embedded set changes (TestShippedNetworksFit says so). --fresh: not
# from an old checkpoint of another set.
networks: build
	./bin/kinelab matching train --fresh --minutes 30 --width 256 --out assets/locomotion.lmm

# Regenerate the README's and docs/'s screenshots with the app's own headless mode.
screenshots: build
	$(XVFB) ./bin/kinelab --lab velocities --frames 200 --do 90:teleport,140:additive --screenshot docs/velocities.png
	$(XVFB) ./bin/kinelab --lab tracking --frames 240 --screenshot docs/tracking.png
	$(XVFB) ./bin/kinelab --lab scalar --frames 240 --screenshot docs/scalar.png
	$(XVFB) ./bin/kinelab --lab cost --frames 240 --screenshot docs/cost.png
	$(XVFB) ./bin/kinelab --lab springs --frames 240 --screenshot docs/springs.png
	$(XVFB) ./bin/kinelab --lab crowd --frames 290 --screenshot docs/crowd.png
	$(XVFB) ./bin/kinelab --lab matching --path zigzag --frames 600 --screenshot docs/matching.png
	$(XVFB) ./bin/kinelab --lab matching --controller learned --path zigzag --frames 360 --width 1024 --height 600 --screenshot docs/matching-learned.png
	mkdir -p docs/sizes
	$(XVFB) ./bin/kinelab --lab velocities --frames 200 --do 90:teleport --width 1024 --height 600 --screenshot docs/sizes/velocities-1024x600.png
	$(XVFB) ./bin/kinelab --lab cost --frames 120 --do 1:help --width 1024 --height 600 --screenshot docs/sizes/cost-help-1024x600.png
	$(XVFB) ./bin/kinelab --lab scalar --frames 240 --width 1920 --height 1080 --screenshot docs/sizes/scalar-1920x1080.png
	$(XVFB) ./bin/kinelab --lab springs --frames 240 --width 3840 --height 2160 --screenshot docs/sizes/springs-3840x2160.png
	# The glTF screenshots need ../shared/gltf (never copied here).
	if [ -f ../shared/gltf/robot.glb ]; then \
	  $(XVFB) ./bin/kinelab --lab velocities --frames 150 --screenshot docs/gltf.png ../shared/gltf/robot.glb && \
	  $(XVFB) ./bin/kinelab --lab crowd --frames 90 --screenshot docs/gltf-crowd.png ../shared/gltf/greenman.glb && \
	  $(XVFB) ./bin/kinelab --lab velocities --frames 120 --width 1024 --height 600 --screenshot docs/retarget.png \
	    --onto ../shared/gltf/robot.glb ../shared/mocap/06_root_offset_in_channels_walk_24fps.bvh; \
	else echo "no ../shared/gltf: docs/gltf*.png left as they are"; fi

clean:
	rm -rf bin $(TOOLS)
