// Atomics, local arrays, constant memory and module globals for the executor tests.

__constant__ float c_coeffs[8] = {1.0f, 0.5f, 0.25f, 0.125f, 2.0f, 4.0f, 8.0f, 16.0f};
__device__ int g_counter = 7;
__device__ unsigned long long g_table[4] = {10ull, 20ull, 30ull, 40ull};

// Global-memory histogram with heavy contention, plus a shared-memory version.
extern "C" __global__ void histogram(const unsigned* in, int n, unsigned* hist_global, unsigned* hist_shared) {
  __shared__ unsigned sh[16];
  if (threadIdx.x < 16) sh[threadIdx.x] = 0;
  __syncthreads();
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    unsigned b = in[i] % 16;
    atomicAdd(&hist_global[b], 1u);
    atomicAdd(&sh[b], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&hist_shared[threadIdx.x], sh[threadIdx.x]);
}

// 64-bit atomics: add, min, max, CAS loop (double max), exch; 32-bit inc/dec wrap.
extern "C" __global__ void atomics64(const long long* in, int n, unsigned long long* sum, long long* mn,
                                     long long* mx, double* dmax, unsigned* inc, unsigned* dec,
                                     float* fsum, double* dsum) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  long long v = in[t];
  atomicAdd(sum, (unsigned long long)v);
  atomicMin(mn, v);
  atomicMax(mx, v);
  double d = (double)v * 0.5;
  unsigned long long* addr = (unsigned long long*)dmax;
  unsigned long long old = *addr, assumed;
  do {
    assumed = old;
    if (__longlong_as_double(assumed) >= d) break;
    old = atomicCAS(addr, assumed, (unsigned long long)__double_as_longlong(d));
  } while (old != assumed);
  atomicInc(inc, 9u);
  atomicDec(dec, 5u);
  atomicAdd(fsum, 0.5f);
  atomicAdd(dsum, (double)v);
}

// A per-thread local array indexed dynamically (forces .local memory).
extern "C" __global__ void local_array(const int* idx, int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int a[24];
  for (int i = 0; i < 24; ++i) a[i] = i * t + 1;
  int s = 0;
  for (int k = 0; k < 6; ++k) s += a[idx[(t + k) % 64] % 24];
  out[t] = s;
}

// Constant memory and module-scope globals with initialisers.
extern "C" __global__ void constants(const float* in, float* out, long long* gout) {
  int t = threadIdx.x;
  out[t] = in[t] * c_coeffs[t % 8] + c_coeffs[(t + 3) % 8];
  if (t == 0) {
    gout[0] = g_counter;
    gout[1] = (long long)(g_table[0] + g_table[1] + g_table[2] + g_table[3]);
    g_counter = 99;
  }
}
