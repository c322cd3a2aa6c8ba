// Global atomics under contention (issue 10 item 3), one launch per pattern:
//   cas_one  every thread increments counters[0] with an atomicCAS retry loop (all
//            threads of the grid contend for one word; retries depend on timing)
//   add_one  every thread atomicAdd(&counters[1], 1): one word
//   add_warp each warp's 32 lanes add 1 to the warp's own word
//   add_hist atomicAdd into 256 bins chosen by the data (skewed: a hot bin)
//   add_own  uncontended: each thread adds its index to its own word
// Every result is exact whatever the order of the atomics.
extern "C" __global__ void cas_one(int n, int* counters) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  int old = counters[0], assumed;
  do {
    assumed = old;
    old = atomicCAS(&counters[0], assumed, assumed + 1);
  } while (old != assumed);
}

extern "C" __global__ void add_one(int n, int* counters) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) atomicAdd(&counters[1], 1);
}

extern "C" __global__ void add_warp(int n, int* warps) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) atomicAdd(&warps[tid >> 5], 1);
}

extern "C" __global__ void add_hist(int n, const unsigned* __restrict__ in, int* bins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[in[i] & 255u], 1);
}

extern "C" __global__ void add_own(int n, int* own) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) atomicAdd(&own[tid], tid);
}
