// Inter-warp locality: 7-point 3D Laplace (Jacobi) step; neighbouring warps read the same
// planes and rows. Each thread walks z through the whole column.
__global__ void laplace3d(int nx, int ny, int nz, const float* __restrict__ u,
                          float* __restrict__ v) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  long plane = (long)nx * ny;
  for (int z = 0; z < nz; ++z) {
    long i = z * plane + (long)y * nx + x;
    if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
      v[i] = u[i];
    } else {
      v[i] = (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx] + u[i - plane] + u[i + plane]) *
             (1.0f / 6.0f);
    }
  }
}
