#version 330
// Crowd variant of skin.fs: the colour was lit per vertex in
// skin_crowd.vs; each pixel only takes the interpolated colour.
in vec4 litColor;

out vec4 finalColor;

void main() {
    finalColor = litColor;
}
