#version 330
// Crowd variant of skin.vs: linear blend skinning by the first two of the
// four influences (the crowd's bodies sort them heaviest first), and the studio
// lighting of skin.fs (key, back, fill, rim, hemisphere ambient, highlight,
// contact shadow) is evaluated once per vertex rather than per pixel
// (Gouraud shading). A crowd body covers far more pixels than it has
// vertices, and on a software renderer (llvmpipe) the per-pixel lighting
// was the larger part of drawing a crowd.
//
// The mesh's own colour (texture times vertex colour) varies per pixel, so
// the lighting goes to skin_crowd.fs as a factor and a term,
//     col = base * lightMul.rgb + lightAdd,
// which is skin.fs's formula with base taken out (its rim term
// rim * 0.3 * mix(base, 1, 0.5) splits into base * 0.15 * rim + 0.15 * rim).
// The per-vertex part of base (vertex colour, tint) is folded into
// lightMul; the fragment shader multiplies in the texture.
#define MAX_BONES 128

layout(location = 0) in vec3 vertexPosition;
layout(location = 1) in vec2 vertexTexCoord;
layout(location = 2) in vec3 vertexNormal;
layout(location = 3) in vec4 vertexColor;
layout(location = 7) in vec4 vertexBoneIndices;
layout(location = 8) in vec4 vertexBoneWeights;

uniform mat4 mvp;
uniform mat4 boneMatrices[MAX_BONES];
uniform vec4 tint;        // tint colour; its alpha fades the body
uniform float tintMix;    // 1: the tint replaces white; 0: no tint
uniform vec3 viewPos;     // camera position (world)
uniform float groundY;    // floor height (world)
uniform float bodyHeight; // rest height of the body (world units)

out vec2 fragTexCoord;
out vec4 lightMul;  // rgb: base but the texture, times the light; a: alpha
out float lightAdd; // the highlight and the rim's white half

void main() {
    // Two influences: the crowd's bodies keep each vertex's two heaviest
    // bones first (weights renormalised), and reading bone matrices is
    // the costly part of skinning on a software renderer.
    ivec2 id = ivec2(vertexBoneIndices.xy + 0.5);
    vec2 w = vertexBoneWeights.xy;
    mat4 skin = w.x * boneMatrices[id.x] + w.y * boneMatrices[id.y];
    vec4 p = skin * vec4(vertexPosition, 1.0);
    gl_Position = mvp * p;

    vec3 n = normalize(mat3(skin) * vertexNormal);
    vec3 v = normalize(viewPos - p.xyz);
    vec3 base = vertexColor.rgb * mix(vec3(1.0), tint.rgb, tintMix);

    const vec3 keyDir = normalize(vec3(0.35, 0.9, 0.6));
    const vec3 backDir = normalize(vec3(-0.4, 0.5, -0.75));
    float key = max(dot(n, keyDir), 0.0);
    float back = max(dot(n, backDir), 0.0);
    float nv = dot(n, v);
    float fill = clamp((nv + 0.3) / 1.3, 0.0, 1.0);
    float r = 1.0 - max(nv, 0.0);
    float rim = r * r * r;
    vec3 ambient = mix(vec3(0.13, 0.12, 0.12), vec3(0.30, 0.33, 0.38), 0.5 + 0.5 * n.y);

    float h = (p.y - groundY) / max(bodyHeight, 1e-6);
    float contact = mix(0.55, 1.0, smoothstep(0.0, 0.25, h));

    vec3 hv = normalize(keyDir + v);
    float spec = pow(max(dot(n, hv), 0.0), 40.0) * 0.16 * step(0.0, dot(n, keyDir));

    vec3 light = ambient + key * vec3(0.74, 0.70, 0.64) + back * vec3(0.20, 0.23, 0.30)
               + fill * vec3(0.26, 0.27, 0.30);
    lightMul = vec4(base * (light * contact + 0.15 * rim), vertexColor.a * tint.a);
    lightAdd = spec + 0.15 * rim;
    fragTexCoord = vertexTexCoord;
}
