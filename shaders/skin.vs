#version 330
// Linear blend skinning: each vertex is moved by the weighted sum of up to
// four bone matrices (world(joint) * inverse bind(joint)), so a vertex in
// the bind pose lands where its joints carry it. Indices arrive as floats
// in a vec4 (raylib binds vertexBoneIndices to location 7) and are cast.
// Texture coordinates and colour pass through to skin.fs; a mesh without
// them reads the attribute defaults (colour white).
#define MAX_BONES 128

layout(location = 0) in vec3 vertexPosition;
layout(location = 1) in vec2 vertexTexCoord;
layout(location = 2) in vec3 vertexNormal;
layout(location = 3) in vec4 vertexColor;
layout(location = 7) in vec4 vertexBoneIndices;
layout(location = 8) in vec4 vertexBoneWeights;

uniform mat4 mvp;
uniform mat4 boneMatrices[MAX_BONES];

out vec3 worldPos;
out vec3 worldNormal;
out vec2 fragTexCoord;
out vec4 fragColor;

void main() {
    ivec4 id = ivec4(vertexBoneIndices + 0.5);
    vec4 w = vertexBoneWeights;
    mat4 skin = w.x * boneMatrices[id.x] + w.y * boneMatrices[id.y]
              + w.z * boneMatrices[id.z] + w.w * boneMatrices[id.w];
    vec4 p = skin * vec4(vertexPosition, 1.0);
    worldPos = p.xyz;
    // The blended matrix is a rotation times a near-uniform scale, so its
    // upper 3x3 turns normals well enough once renormalised.
    worldNormal = mat3(skin) * vertexNormal;
    gl_Position = mvp * p;
    fragTexCoord = vertexTexCoord;
    fragColor = vertexColor;
}
