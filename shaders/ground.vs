#version 330
// Ground plane: passes the world position through. raylib's immediate-mode
// batch (DrawPlane) already transforms vertices to world space on the CPU.
in vec3 vertexPosition;
uniform mat4 mvp;
out vec3 worldPos;
void main() {
    worldPos = vertexPosition;
    gl_Position = mvp * vec4(vertexPosition, 1.0);
}
