// Kernels for the deferred global-memory log tests (simt_global_memory_log_test.cpp): every
// load/store width incl. signed sub-word loads, vector accesses, atomics with and without
// return values, generic accesses (global only, and mixed shared/global within a warp), and
// warps that read what other warps and CTAs stored earlier in the same run.

// 1/2/4/8-byte loads (signed and unsigned) and stores.
extern "C" __global__ void widths(const signed char* s8, const unsigned char* u8, const short* s16,
                                  const unsigned short* u16, const int* s32, const long long* s64, long long* out,
                                  signed char* o8, short* o16, int* o32) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  long long a = s8[t], b = u8[t], c = s16[t], d = u16[t], e = s32[t], f = s64[t];
  out[t] = a * 3 + b * 5 + c * 7 + d * 11 + e * 13 + f;
  o8[t] = (signed char)(a - b);
  o16[t] = (short)(c - d);
  o32[t] = (int)(e ^ (int)f);
}

// Vector loads and stores: v4.f32, v2.f64, v4.u8, v2.s32.
extern "C" __global__ void vectors(const float4* a, const double2* b, const uchar4* c, const int2* d, float4* oa,
                                   double2* ob, uchar4* oc, int2* od) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float4 x = a[t];
  oa[t] = make_float4(x.w, x.z + 1.0f, x.y * 2.0f, x.x);
  double2 y = b[t];
  ob[t] = make_double2(y.y, y.x - 1.0);
  uchar4 z = c[t];
  oc[t] = make_uchar4(z.w, z.z, (unsigned char)(z.y + 1), z.x);
  int2 v = d[t];
  od[t] = make_int2(v.y, -v.x);
}

// Atomics whose results are used (the ticket order depends on the interleaving), CAS, exch,
// min/max with return, and reductions whose results are unused (red).
extern "C" __global__ void atomics_ret(int* counter, int* tickets, int* order, int* cas_word, int* cas_seen,
                                       unsigned long long* exch_word, unsigned long long* exch_seen, int* mn,
                                       int* mx, int* minmax_seen, unsigned* red_sum, unsigned long long* red64,
                                       float* fred) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int ticket = atomicAdd(counter, 1);
  tickets[t] = ticket;
  order[ticket] = t;
  cas_seen[t] = atomicCAS(cas_word, t - 1, t);  // succeeds only when the previous thread's did
  exch_seen[t] = atomicExch(exch_word, (unsigned long long)t * 3 + 1);
  int m = atomicMin(mn, (t * 37) % 101 - 50);
  int M = atomicMax(mx, (t * 53) % 97 - 40);
  minmax_seen[t] = m * 1000 + M;
  atomicAdd(red_sum, (unsigned)t);
  atomicAdd(red64, (unsigned long long)t << 33);
  atomicAdd(fred, 0.25f);
}

// Generic accesses: a pointer loaded from memory (global through a generic address), then
// a pointer that is shared for odd lanes and global for even lanes (mixed spaces).
extern "C" __global__ void generic_access(int* const* table, int* out) {
  __shared__ int sh[128];
  int t = threadIdx.x;
  int* region = table[blockIdx.x];
  int v = region[t];
  sh[t] = v + 1;
  __syncthreads();
  int* p = (t & 1) ? &sh[t ^ 1] : &region[t ^ 1];
  int w = *p;
  *p = w * 2 + t;
  int old = atomicAdd(p, 3);
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = w * 100000 + old * 10 + sh[t];
}

// Warps read what other warps (and CTAs) stored without waiting: the values seen depend on
// the interleaving, which both modes of the test share.
extern "C" __global__ void store_then_load(volatile int* data, int* out, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  data[g] = g * 3 + 1;
  int v = data[(g + 32) % n];
  data[(g + 64) % n] = v + 7;
  int w = data[(g + 96) % n];
  out[g] = v * 1000 + w;
}
