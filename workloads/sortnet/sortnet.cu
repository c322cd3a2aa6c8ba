// Bitonic sorting network on (key, value) pairs, shaped like the CUDA SDK's sortingNetworks
// sample (001 Table 5.2's SN, an MSHR-sensitive type-II workload: 4 kernels, CTAs of 512).
// Written for this project from the algorithm: the standard bitonic network over N = 2^k
// u32 keys, where the compare-exchange of stage (size, stride) on the pair (p, p + stride)
// puts the smaller key first when (p & size) == 0 and the larger first otherwise; chunks of
// 1024 pairs (512 threads, one pair of positions each) fit one CTA's shared memory:
//   sn_sort_shared  sorts each 1024-pair chunk ascending on its own: a batch of short arrays
//                   (the SDK's bitonicSortShared), from src into dst;
//   sn_sort_chunks  the network's stages up to size 1024 in place, chunk by chunk (odd
//                   chunks end descending, so pairs of chunks are bitonic: bitonicSortShared1);
//   sn_merge_global one stage of a wider size with stride >= 1024, in global memory;
//   sn_merge_shared a wider size's stages with stride 512 .. 1 in shared memory.
// A compare-exchange only moves values, and the reference runs the same network: exact.
#define CHUNK 1024

__device__ __forceinline__ void cmp_swap(unsigned& ka, unsigned& va, unsigned& kb, unsigned& vb, bool up) {
  if ((ka > kb) == up) {
    unsigned t = ka; ka = kb; kb = t;
    t = va; va = vb; vb = t;
  }
}

// The network's stages of sizes 2 .. CHUNK on the chunk in shared memory; `offset` is the
// chunk's first position in the array whose directions apply (0: the chunk on its own).
__device__ void sort_chunk(unsigned* sk, unsigned* sv, unsigned offset) {
  for (unsigned size = 2; size <= CHUNK; size <<= 1) {
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      __syncthreads();
      const unsigned p = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      cmp_swap(sk[p], sv[p], sk[p + stride], sv[p + stride], ((offset + p) & size) == 0);
    }
  }
  __syncthreads();
}

extern "C" __global__ void __maxnreg__(32) sn_sort_shared(unsigned* dst_k, unsigned* dst_v, const unsigned* __restrict__ src_k,
                                          const unsigned* __restrict__ src_v) {
  __shared__ unsigned sk[CHUNK], sv[CHUNK];
  const unsigned base = blockIdx.x * CHUNK;
  for (unsigned t = threadIdx.x; t < CHUNK; t += blockDim.x) {
    sk[t] = src_k[base + t];
    sv[t] = src_v[base + t];
  }
  sort_chunk(sk, sv, 0);
  for (unsigned t = threadIdx.x; t < CHUNK; t += blockDim.x) {
    dst_k[base + t] = sk[t];
    dst_v[base + t] = sv[t];
  }
}

extern "C" __global__ void __maxnreg__(32) sn_sort_chunks(unsigned* k, unsigned* v) {
  __shared__ unsigned sk[CHUNK], sv[CHUNK];
  const unsigned base = blockIdx.x * CHUNK;
  for (unsigned t = threadIdx.x; t < CHUNK; t += blockDim.x) {
    sk[t] = k[base + t];
    sv[t] = v[base + t];
  }
  sort_chunk(sk, sv, base);
  for (unsigned t = threadIdx.x; t < CHUNK; t += blockDim.x) {
    k[base + t] = sk[t];
    v[base + t] = sv[t];
  }
}

extern "C" __global__ void sn_merge_global(unsigned* k, unsigned* v, unsigned size, unsigned stride) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;  // N/2 threads
  const unsigned p = 2 * i - (i & (stride - 1));
  unsigned ka = k[p], va = v[p], kb = k[p + stride], vb = v[p + stride];
  cmp_swap(ka, va, kb, vb, (p & size) == 0);
  k[p] = ka;
  v[p] = va;
  k[p + stride] = kb;
  v[p + stride] = vb;
}

extern "C" __global__ void sn_merge_shared(unsigned* k, unsigned* v, unsigned size) {
  __shared__ unsigned sk[CHUNK], sv[CHUNK];
  const unsigned base = blockIdx.x * CHUNK;
  for (unsigned t = threadIdx.x; t < CHUNK; t += blockDim.x) {
    sk[t] = k[base + t];
    sv[t] = v[base + t];
  }
  const bool up = (base & size) == 0;  // size > CHUNK: one direction per chunk
  for (unsigned stride = CHUNK / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    const unsigned p = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    cmp_swap(sk[p], sv[p], sk[p + stride], sv[p + stride], up);
  }
  __syncthreads();
  for (unsigned t = threadIdx.x; t < CHUNK; t += blockDim.x) {
    k[base + t] = sk[t];
    v[base + t] = sv[t];
  }
}
