// Less common intrinsics: dp4a, funnel shifts, half2 atomics, address-space queries and
// conversions, __syncwarp with a mask, double shuffles, in-kernel malloc.
#include <cuda_fp16.h>
__global__ void intrinsics(int* out, unsigned* u, __half2* h2, double* d, int n) {
  __shared__ int sh[64];
  int t = threadIdx.x;
  sh[t & 63] = t;
  out[t] = __dp4a(t, n, 7) + __dp2a_lo(t, n, 3);
  u[t] = __funnelshift_r(u[t], u[t + 1], t) ^ __funnelshift_lc(u[t], u[t + 1], 40);
  atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
  int* p = (t & 1) ? out : sh;
  out[t + n] = __isGlobal(p) + __isShared(p) + (int)__cvta_generic_to_shared(sh);
  __syncwarp(0x0000ffffu);
  double v = __shfl_down_sync(0xffffffffu, d[t], 2);
  d[t] = v + __hiloint2double(t, n);
  int* buf = (int*)malloc(16);
  if (buf) {
    buf[0] = t;
    out[t] += buf[0];
    free(buf);
  }
  __brkpt();
}
