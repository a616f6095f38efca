#version 330
// Soft studio lighting for the skinned body: a warm key light from above
// and in front (+z is the default character's front), a cool back light
// from above and behind, a soft fill from the viewer so every side reads,
// a rim that outlines the silhouette, a sky/ground hemisphere ambient, a
// small highlight, and a fake contact shadow darkening the body near the
// floor (y = groundY), measured in body heights so it works in any unit.
// The base colour is the mesh's own (texture times vertex colour; both
// white for a mesh without) times the tint mixed in by tintMix, and the
// tint's alpha fades the whole body (ghosts).
in vec3 worldPos;
in vec3 worldNormal;
in vec2 fragTexCoord; // (0, 0) at the image's top left, its first row
in vec4 fragColor;

uniform sampler2D texture0; // the mesh's texture, or 1x1 white
uniform vec4 tint;          // tint colour; its alpha fades the body
uniform float tintMix;      // 1: the tint replaces white; 0: no tint
uniform vec3 viewPos;       // camera position (world)
uniform float groundY;      // floor height (world)
uniform float bodyHeight;   // rest height of the body (world units)

out vec4 finalColor;

void main() {
    vec3 n = normalize(worldNormal);
    vec3 v = normalize(viewPos - worldPos);
    vec4 own = texture(texture0, fragTexCoord) * fragColor;
    vec3 base = own.rgb * mix(vec3(1.0), tint.rgb, tintMix);

    const vec3 keyDir = normalize(vec3(0.35, 0.9, 0.6));
    const vec3 backDir = normalize(vec3(-0.4, 0.5, -0.75));
    float key = max(dot(n, keyDir), 0.0);
    float back = max(dot(n, backDir), 0.0);
    float fill = clamp((dot(n, v) + 0.3) / 1.3, 0.0, 1.0);
    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0);
    vec3 ambient = mix(vec3(0.13, 0.12, 0.12), vec3(0.30, 0.33, 0.38), 0.5 + 0.5 * n.y);

    float h = (worldPos.y - groundY) / max(bodyHeight, 1e-6);
    float contact = mix(0.55, 1.0, smoothstep(0.0, 0.25, h));

    vec3 hv = normalize(keyDir + v);
    float spec = pow(max(dot(n, hv), 0.0), 40.0) * 0.16 * step(0.0, dot(n, keyDir));

    vec3 light = ambient + key * vec3(0.74, 0.70, 0.64) + back * vec3(0.20, 0.23, 0.30)
               + fill * vec3(0.26, 0.27, 0.30);
    vec3 col = base * light * contact + spec + rim * 0.3 * mix(base, vec3(1.0), 0.5);
    finalColor = vec4(col, own.a * tint.a);
}
