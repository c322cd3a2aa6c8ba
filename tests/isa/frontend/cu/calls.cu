// Non-inlined device functions, struct parameters, recursion.
struct Params {
  int n;
  float scale;
  double offset;
  int coeffs[4];
};
struct Pair {
  float a, b;
};
__device__ __noinline__ float blend(float x, float y, int mode) {
  if (mode & 1) return x * 0.25f + y;
  return x - y * 0.5f;
}
__device__ __noinline__ Pair make_pair(float x) { return Pair{x, x * 2.0f}; }
__device__ __noinline__ int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }
__device__ __noinline__ void store_twice(float* p, float v) {
  p[0] = v;
  p[1] = v;
}
__global__ void with_calls(Params p, const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  float v = blend(in[i], p.scale, p.coeffs[i & 3]);
  Pair q = make_pair(v);
  float r = q.a + q.b + (float)p.offset + (float)fib(i & 7);
  store_twice(out + 2 * i, r);
}
