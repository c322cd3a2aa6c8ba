// LBM-like D2Q9 collide-and-stream step on a periodic nx*ny lattice: every thread reads
// nine distributions (structure-of-arrays, so each load is coalesced) and writes nine,
// the many-loads-per-thread streaming pattern of lbm.
__constant__ float kWeight[9] = {4.f / 9, 1.f / 9, 1.f / 9, 1.f / 9, 1.f / 9,
                                 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};
__constant__ int kDx[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
__constant__ int kDy[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};

__global__ void lbm_step(int nx, int ny, float omega, const float* __restrict__ src,
                         float* __restrict__ dst) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x >= nx || y >= ny) return;
  int cells = nx * ny;
  int c = y * nx + x;
  float f[9];
  float rho = 0.f, ux = 0.f, uy = 0.f;
#pragma unroll
  for (int q = 0; q < 9; ++q) {
    f[q] = src[q * cells + c];
    rho += f[q];
    ux += f[q] * kDx[q];
    uy += f[q] * kDy[q];
  }
  ux /= rho;
  uy /= rho;
  float usq = 1.5f * (ux * ux + uy * uy);
#pragma unroll
  for (int q = 0; q < 9; ++q) {
    float cu = 3.f * (kDx[q] * ux + kDy[q] * uy);
    float feq = kWeight[q] * rho * (1.f + cu + 0.5f * cu * cu - usq);
    float out = f[q] + omega * (feq - f[q]);
    int tx = (x + kDx[q] + nx) % nx;
    int ty = (y + kDy[q] + ny) % ny;
    dst[q * cells + ty * nx + tx] = out;
  }
}
