// SHOC's Triad (Table 5.2's TR, an MSHR-sensitive type-I kernel: every load misses in L1
// and L2): c[i] = a[i] + s * b[i], one element per thread, CTAs of 128. nvcc contracts the
// expression to fmaf(s, b[i], a[i]); the CPU reference computes the same fma.
extern "C" __global__ void triad(const float* __restrict__ a, const float* __restrict__ b, float* c, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + s * b[i];
}
