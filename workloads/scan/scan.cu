// Scan with barriers: multi-CTA inclusive prefix sum of u32 in three launches:
// scan_block (per-CTA Hillis-Steele scan in double-buffered shared memory, writing each
// CTA's total), scan_block again over the CTA totals, then scan_add.
#define SC_THREADS 256
extern "C" __global__ void scan_block(int n, const unsigned* __restrict__ in,
                                      unsigned* out, unsigned* block_sums) {
  __shared__ unsigned buf[2][SC_THREADS];
  int i = blockIdx.x * SC_THREADS + threadIdx.x;
  int cur = 0;
  buf[0][threadIdx.x] = i < n ? in[i] : 0u;
  __syncthreads();
  for (int off = 1; off < SC_THREADS; off <<= 1) {
    unsigned v = buf[cur][threadIdx.x];
    if (threadIdx.x >= off) v += buf[cur][threadIdx.x - off];
    buf[cur ^ 1][threadIdx.x] = v;
    cur ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = buf[cur][threadIdx.x];
  if (block_sums != nullptr && threadIdx.x == SC_THREADS - 1)
    block_sums[blockIdx.x] = buf[cur][threadIdx.x];
}

extern "C" __global__ void scan_add(int n, unsigned* out, const unsigned* __restrict__ scanned_sums) {
  int i = blockIdx.x * SC_THREADS + threadIdx.x;
  if (blockIdx.x == 0 || i >= n) return;
  out[i] += scanned_sums[blockIdx.x - 1];
}
