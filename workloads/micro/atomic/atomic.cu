// Global atomic throughput: every thread does `iters` atomicAdd(w, 1) to
//   mode 0: one word for the whole grid; 1: one word per warp; 2: its own word.
// The returned values are summed (each atomic's result is waited for before the clock
// stops); their total is order-independent and checked (total[slot]), as are the words.
// timing[slot][b] = {start, end} cycle of CTA b (thread 0, between barriers).
extern "C" __global__ void atom(int mode, int iters, int slot, unsigned* words, unsigned* total,
                                unsigned* timing) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned* w = mode == 0 ? words : mode == 1 ? words + (tid >> 5) : words + tid;
  unsigned sum = 0;
  __syncthreads();
  unsigned t0 = clock();
  for (int i = 0; i < iters; ++i) sum += atomicAdd(w, 1u);
  __syncthreads();
  unsigned t1 = clock();
  atomicAdd(&total[slot], sum);
  if (threadIdx.x == 0) {
    timing[2 * (slot * gridDim.x + blockIdx.x)] = t0;
    timing[2 * (slot * gridDim.x + blockIdx.x) + 1] = t1;
  }
}
