// Radix sort of (key, value) pairs, 4 bits per pass (shaped like the CUDA SDK's
// radixSort: radixSortBlocks, findRadixOffsets, a scan of the counters, reorderData).
// Per pass, four launches:
//   rs_sort_blocks   each CTA of 256 sorts its 256 pairs by the pass's digit with four
//                    stable 1-bit splits, each an exclusive Hillis-Steele scan in shared
//                    memory;
//   rs_find_offsets  each CTA finds where each of the 16 digits starts in its sorted
//                    block and writes the digit counts digit-major (counters[d*nblocks+b]);
//   rs_scan          one CTA scans the counters (serial chunks + a shared-memory scan);
//   rs_reorder       every pair goes to scanned[d*nblocks+b] + (rank within its digit).
#define RS_BLOCK 256
#define RS_RADIX 16

__device__ __forceinline__ unsigned rs_block_scan(unsigned* s, unsigned v) {
  // Inclusive Hillis-Steele scan of v over the CTA, in place in s (RS_BLOCK entries).
  int t = threadIdx.x;
  s[t] = v;
  __syncthreads();
  for (int off = 1; off < RS_BLOCK; off <<= 1) {
    unsigned add = t >= off ? s[t - off] : 0u;
    __syncthreads();
    s[t] += add;
    __syncthreads();
  }
  return s[t];
}

extern "C" __global__ void rs_sort_blocks(const unsigned* __restrict__ keys_in, const unsigned* __restrict__ vals_in,
                                          unsigned* __restrict__ keys_tmp, unsigned* __restrict__ vals_tmp,
                                          int shift) {
  __shared__ unsigned s_scan[RS_BLOCK];
  __shared__ unsigned s_key[RS_BLOCK];
  __shared__ unsigned s_val[RS_BLOCK];
  int t = threadIdx.x;
  int g = blockIdx.x * RS_BLOCK + t;
  unsigned key = keys_in[g], val = vals_in[g];
  for (int b = 0; b < 4; ++b) {
    unsigned zero = ((key >> (shift + b)) & 1u) ^ 1u;
    unsigned incl = rs_block_scan(s_scan, zero);
    unsigned total_zeros = s_scan[RS_BLOCK - 1];
    unsigned rank = incl - zero;
    unsigned dst = zero ? rank : total_zeros + (t - rank);
    s_key[dst] = key;
    s_val[dst] = val;
    __syncthreads();
    key = s_key[t];
    val = s_val[t];
    __syncthreads();
  }
  keys_tmp[g] = key;
  vals_tmp[g] = val;
}

extern "C" __global__ void rs_find_offsets(const unsigned* __restrict__ keys_tmp, unsigned* __restrict__ counters,
                                           unsigned* __restrict__ block_offsets, int shift) {
  __shared__ unsigned s_digit[RS_BLOCK];
  __shared__ unsigned s_start[RS_RADIX];
  int t = threadIdx.x;
  int nblocks = gridDim.x;
  unsigned d = (keys_tmp[blockIdx.x * RS_BLOCK + t] >> shift) & (RS_RADIX - 1);
  s_digit[t] = d;
  if (t < RS_RADIX) s_start[t] = RS_BLOCK;  // a digit that does not occur
  __syncthreads();
  if (t == 0 || s_digit[t - 1] != d) s_start[d] = t;
  __syncthreads();
  if (t < RS_RADIX) {
    unsigned start = s_start[t];
    unsigned end = RS_BLOCK;
    for (int e = t + 1; e < RS_RADIX; ++e)
      if (s_start[e] != RS_BLOCK) { end = s_start[e]; break; }
    unsigned count = start == RS_BLOCK ? 0u : end - start;
    counters[t * nblocks + blockIdx.x] = count;
    block_offsets[blockIdx.x * RS_RADIX + t] = start;
  }
}

extern "C" __global__ void rs_scan(const unsigned* __restrict__ counters, unsigned* __restrict__ scanned, int n) {
  __shared__ unsigned s[RS_BLOCK];
  int t = threadIdx.x;
  int chunk = (n + RS_BLOCK - 1) / RS_BLOCK;
  int begin = t * chunk, end = min(begin + chunk, n);
  unsigned local = 0;
  for (int i = begin; i < end; ++i) local += counters[i];
  unsigned incl = rs_block_scan(s, local);
  unsigned run = incl - local;
  for (int i = begin; i < end; ++i) {
    unsigned c = counters[i];
    scanned[i] = run;
    run += c;
  }
}

extern "C" __global__ void rs_reorder(const unsigned* __restrict__ keys_tmp, const unsigned* __restrict__ vals_tmp,
                                      const unsigned* __restrict__ scanned, const unsigned* __restrict__ block_offsets,
                                      unsigned* __restrict__ keys_out, unsigned* __restrict__ vals_out, int shift) {
  int t = threadIdx.x;
  int g = blockIdx.x * RS_BLOCK + t;
  unsigned key = keys_tmp[g];
  unsigned d = (key >> shift) & (RS_RADIX - 1);
  unsigned dst = scanned[d * gridDim.x + blockIdx.x] + (t - block_offsets[blockIdx.x * RS_RADIX + d]);
  keys_out[dst] = key;
  vals_out[dst] = vals_tmp[g];
}
