// scan with 004 Table 2's Scan shape (issue 16 point 6): CTAs of 128 threads (workloads/
// scan's kernels assume 256). Multi-CTA inclusive prefix sum of u32 in three launches:
// scan_block (per-CTA Hillis-Steele scan of blockDim.x elements in double-buffered shared
// memory, writing each CTA's total), scan_block over the CTA totals (one CTA of up to
// SC_MAX threads), then scan_add. blockDim.x is a power of two <= SC_MAX.
#define SC_MAX 256
extern "C" __global__ void scan_block(int n, const unsigned* __restrict__ in,
                                      unsigned* out, unsigned* block_sums) {
  __shared__ unsigned buf[2][SC_MAX];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int cur = 0;
  buf[0][threadIdx.x] = i < n ? in[i] : 0u;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    unsigned v = buf[cur][threadIdx.x];
    if (threadIdx.x >= off) v += buf[cur][threadIdx.x - off];
    buf[cur ^ 1][threadIdx.x] = v;
    cur ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = buf[cur][threadIdx.x];
  if (block_sums != nullptr && threadIdx.x == blockDim.x - 1)
    block_sums[blockIdx.x] = buf[cur][threadIdx.x];
}

extern "C" __global__ void scan_add(int n, unsigned* out, const unsigned* __restrict__ scanned_sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0 || i >= n) return;
  out[i] += scanned_sums[blockIdx.x - 1];
}
