// Templates, half precision, __ldg, printf/assert (extern device functions), cooperative
// groups barriers, 64-bit loop counters, switch tables.
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cassert>
#include <cstdio>
namespace cg = cooperative_groups;

template <typename T, int N>
__global__ void scale(T* data, T factor, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    T v = __ldg(&data[i]);
#pragma unroll
    for (int k = 0; k < N; ++k) v = v * factor + (T)k;
    data[i] = v;
  }
}
template __global__ void scale<float, 3>(float*, float, long long);
template __global__ void scale<double, 2>(double*, double, long long);
template __global__ void scale<int, 4>(int*, int, long long);

__global__ void halves(const __half* a, const __half* b, __half* c, __half2* c2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half x = __hadd(a[i], b[i]);
    x = __hmul(x, __float2half(0.5f));
    c[i] = __hgt(x, a[i]) ? x : __hneg(x);
    __half2 p = __halves2half2(a[i], b[i]);
    c2[i] = __hfma2(p, p, __float2half2_rn(1.0f));
  }
}

__global__ void with_printf(int* out, int n) {
  int i = threadIdx.x;
  assert(i < 1024);
  if (i == 0) printf("n=%d first=%d\n", n, out[0]);
  cg::thread_block tb = cg::this_thread_block();
  out[i] = i;
  tb.sync();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(tb);
  int s = cg::reduce(warp, out[(i + 1) % n], cg::plus<int>());
  warp.sync();
  out[i] += s;
}
