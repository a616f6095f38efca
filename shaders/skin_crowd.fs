#version 330
// Crowd variant of skin.fs: the light was worked out per vertex in
// skin_crowd.vs; each pixel only multiplies in the texture (1x1 white for
// a mesh without one) and adds the highlight.
in vec2 fragTexCoord;
in vec4 lightMul;
in float lightAdd;

uniform sampler2D texture0;

out vec4 finalColor;

void main() {
    vec4 t = texture(texture0, fragTexCoord);
    finalColor = vec4(t.rgb * lightMul.rgb + lightAdd, t.a * lightMul.a);
}
