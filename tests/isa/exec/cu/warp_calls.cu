// Warp collectives, device-function calls and double precision for the executor tests.

// Warp-sum with __shfl_down_sync, butterfly max with __shfl_xor_sync, inclusive scan with
// __shfl_up_sync, ballot/any/all under a partial mask, match.any.
extern "C" __global__ void warp_ops(const int* in, int* sum, int* mx, int* scan, unsigned* ballots,
                                    int* votes, unsigned* match) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = in[t];
  int s = v;
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) sum[t / 32] = s;
  int m = v;
  for (int o = 16; o > 0; o >>= 1) m = max(m, __shfl_xor_sync(0xffffffffu, m, o));
  mx[t] = m;
  int x = v;
  for (int o = 1; o < 32; o <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  scan[t] = x;
  ballots[t] = __ballot_sync(0xffffffffu, v & 1);
  if (lane < 20) {  // only lanes 0..19 take part
    unsigned part = 0x000fffffu;
    int any = __any_sync(part, v > 90);
    int all = __all_sync(part, v >= 0);
    unsigned b = __ballot_sync(part, v % 3 == 0);
    votes[t] = any * 2 + all;
    ballots[t] ^= b;
  } else {
    votes[t] = -1;
  }
  match[t] = __match_any_sync(0xffffffffu, v % 4);
}

__device__ __noinline__ int collatz_steps(long long x) {
  int s = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++s;
  }
  return s;
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ float weighted(const float* w, int k, float x) {
  float local[8];
  for (int i = 0; i < 8; ++i) local[i] = w[(i + k) % 8] * x;
  float s = 0;
  for (int i = 0; i < 8; ++i) s += local[(i * 3 + k) % 8];
  return s;
}

// Non-inlined calls (uniform and divergent), recursion, a callee with a local array.
extern "C" __global__ void calls(const float* w, int* steps, int* fibs, float* ws) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  steps[t] = collatz_steps(t + 1);
  fibs[t] = (t % 3 == 0) ? fib(t % 15) : -1;
  ws[t] = weighted(w, t % 8, (float)t);
}

// Double precision: fma, division, sqrt, conversions.
extern "C" __global__ void dp(const double* a, const double* b, double* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  double x = a[t], y = b[t];
  double r = fma(x, y, 1.0) / (y + 3.0) + sqrt(fabs(x)) - (double)(long long)(x * 10.0);
  out[t] = r;
}
