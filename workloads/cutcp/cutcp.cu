// Compute-bound, constant memory: coulombic potential on a 2D lattice slice. Atoms
// (x, y, z, q) live in __constant__ memory, read uniformly by all threads of a warp.
#define MAX_ATOMS 1000
__constant__ float4 atoms[MAX_ATOMS];

extern "C" __global__ void cutcp_potential(int nx, int ny, int natoms, float spacing, float z,
                                           float* energy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  float gx = x * spacing, gy = y * spacing;
  float e = 0.f;
  for (int a = 0; a < natoms; ++a) {
    float dx = gx - atoms[a].x, dy = gy - atoms[a].y, dz = z - atoms[a].z;
    e += atoms[a].w * rsqrtf(dx * dx + dy * dy + dz * dz);
  }
  energy[y * nx + x] = e;
}
