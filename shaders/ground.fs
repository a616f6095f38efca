#version 330
// Ground plane: a checkerboard of cell-sized squares (colorA/colorB; 1 m
// for a human-sized view), box-filtered with fwidth so distant cells fade
// to their average instead of aliasing, then blended into the background
// colour beyond fadeStart..fadeEnd metres from the focus point.
in vec3 worldPos;
uniform vec4 colorA;
uniform vec4 colorB;
uniform vec4 background;
uniform vec3 focus;
uniform float cell;
uniform float fadeStart;
uniform float fadeEnd;
out vec4 finalColor;

// Integral of a square wave of period 2: the filtered checker primitive.
vec2 tri(vec2 p) {
    vec2 h = fract(p * 0.5) - 0.5;
    return 1.0 - 2.0 * abs(h);
}

void main() {
    vec2 p = worldPos.xz / max(cell, 1e-6);
    vec2 w = max(fwidth(p), vec2(1e-4));
    // Box-filtered checker in [0,1]: 0 on colorA cells, 1 on colorB cells.
    vec2 i = (tri(p + 0.5 * w) - tri(p - 0.5 * w)) / w;
    float c = 0.5 - 0.5 * i.x * i.y;
    vec4 col = mix(colorA, colorB, c);
    float d = length(worldPos.xz - focus.xz);
    float f = smoothstep(fadeStart, fadeEnd, d);
    finalColor = vec4(mix(col.rgb, background.rgb, f), 1.0);
}
