package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// readmeMost (bytes) is the README's size at most: a front door that
// fits a screen or two, the reference in docs/ (it was 91 KB).
const readmeMost = 25 << 10

// TestDocsLinks: README.md is at most readmeMost, and every link and
// image in it and in docs/*.md that names a file of the checkout
// resolves: the file exists, and an anchor (#...) is a heading of it, by
// the slug a Markdown renderer makes of the heading (lower case, spaces
// to hyphens, punctuation dropped). Links to the web are not followed.
func TestDocsLinks(t *testing.T) {
	if st, err := os.Stat("README.md"); err != nil || st.Size() > readmeMost {
		t.Errorf("README.md: %v, %d bytes (at most %d)", err, st.Size(), readmeMost)
	}
	pages, _ := filepath.Glob(filepath.Join("docs", "*.md"))
	pages = append(pages, "README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			checked++
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %q: %v", page, target, err)
				continue
			}
			if anchor != "" && !hasHeading(t, path, anchor) {
				t.Errorf("%s: link %q: %s has no heading %q", page, target, path, anchor)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d links checked", checked)
	}
}

// hasHeading reports whether the Markdown file at path has a heading
// whose slug is anchor (outside indented code).
func hasHeading(t *testing.T, path, anchor string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") && slug(h) == anchor {
			return true
		}
	}
	return false
}

// slug is a heading's anchor as Markdown renderers make it: lower case,
// letters, digits, hyphens and underscores kept, spaces to hyphens.
func slug(h string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			sb.WriteRune('-')
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			sb.WriteRune(r)
		}
	}
	return sb.String()
}
