// 3-D convolution (shaped like Polybench-GPU's 3DConvolution): one launch per interior
// i-plane (ni - 2 launches), each a 2-D grid of 32 x 8 CTAs over (k, j), one thread per
// output B[i][j][k] = the 15-term sum of Polybench's GPU kernel with its fixed
// coefficients c11..c33 (11 distinct neighbours in planes i-1, i and i+1; the terms
// are summed left to right, nvcc contracting each `+ c * a` to an fma).
extern "C" __global__ void conv3d_plane(int ni, int nj, int nk, const float* A, float* B, int i) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const float c11 = +2, c21 = +5, c31 = -8;
  const float c12 = -3, c22 = +6, c32 = -9;
  const float c13 = +4, c23 = +7, c33 = +10;
  if (i < ni - 1 && j < nj - 1 && k < nk - 1 && i > 0 && j > 0 && k > 0) {
    const int p = nk * nj;
    B[i * p + j * nk + k] =
        c11 * A[(i - 1) * p + (j - 1) * nk + (k - 1)] + c13 * A[(i + 1) * p + (j - 1) * nk + (k - 1)] +
        c21 * A[(i - 1) * p + (j - 1) * nk + (k - 1)] + c23 * A[(i + 1) * p + (j - 1) * nk + (k - 1)] +
        c31 * A[(i - 1) * p + (j - 1) * nk + (k - 1)] + c33 * A[(i + 1) * p + (j - 1) * nk + (k - 1)] +
        c12 * A[(i + 0) * p + (j - 1) * nk + (k + 0)] + c22 * A[(i + 0) * p + (j + 0) * nk + (k + 0)] +
        c32 * A[(i + 0) * p + (j + 1) * nk + (k + 0)] + c11 * A[(i - 1) * p + (j - 1) * nk + (k + 1)] +
        c13 * A[(i + 1) * p + (j - 1) * nk + (k + 1)] + c21 * A[(i - 1) * p + (j + 0) * nk + (k + 1)] +
        c23 * A[(i + 1) * p + (j + 0) * nk + (k + 1)] + c31 * A[(i - 1) * p + (j + 1) * nk + (k + 1)] +
        c33 * A[(i + 1) * p + (j + 1) * nk + (k + 1)];
  }
}
