// Three matrix multiplications (shaped like Polybench-GPU's 3MM): E = A * B
// (mm3_kernel1), F = C * D (mm3_kernel2), G = E * F (mm3_kernel3), one launch each, every
// one a plain row-major multiply with one output element per thread of a 32 x 8 CTA and
// no tiling: the thread zeroes its element and then adds a[i][k] * b[k][j] into it in
// memory for k = 0 .. inner - 1 (the pointers may alias, so every partial sum is
// stored; nvcc contracts the update to an fma).
__device__ __forceinline__ void mm3_multiply(int rows, int cols, int inner, const float* a,
                                             const float* b, float* c) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < rows && j < cols) {
    c[i * cols + j] = 0;
    for (int k = 0; k < inner; ++k) c[i * cols + j] += a[i * inner + k] * b[k * cols + j];
  }
}

// E (ni x nj) = A (ni x nk) * B (nk x nj)
extern "C" __global__ void mm3_kernel1(int ni, int nj, int nk, const float* a, const float* b,
                                       float* e) {
  mm3_multiply(ni, nj, nk, a, b, e);
}
// F (nj x nl) = C (nj x nm) * D (nm x nl)
extern "C" __global__ void mm3_kernel2(int nj, int nl, int nm, const float* c, const float* d,
                                       float* f) {
  mm3_multiply(nj, nl, nm, c, d, f);
}
// G (ni x nl) = E (ni x nj) * F (nj x nl)
extern "C" __global__ void mm3_kernel3(int ni, int nl, int nj, const float* e, const float* f,
                                       float* g) {
  mm3_multiply(ni, nl, nj, e, f, g);
}
