// Low TLP, heavy shared memory: storeGPU-like content hashing. A CTA of 64 threads copies
// its 64 chunks of 512 bytes (32 KiB) into shared memory with coalesced loads, then each
// thread hashes its own chunk (MurmurHash3-style mixing) out of shared memory.
#ifndef SG_THREADS  // a variant may set it first (workloads/*_ilp)
#define SG_THREADS 64
#endif
#ifndef SG_WORDS  // a variant may set it first (workloads/*_ilp)
#define SG_WORDS 128
#endif

__device__ unsigned rotl32(unsigned x, int r) { return (x << r) | (x >> (32 - r)); }

extern "C" __global__ void storegpu_hash(int nchunks, unsigned seed,
                                         const unsigned* __restrict__ data,
                                         unsigned* digests) {
  __shared__ unsigned chunk[SG_THREADS * SG_WORDS];
  int first = blockIdx.x * SG_THREADS;
  int words = min(SG_THREADS, nchunks - first) * SG_WORDS;
  for (int i = threadIdx.x; i < words; i += blockDim.x)
    chunk[i] = data[(long)first * SG_WORDS + i];
  __syncthreads();
  int c = first + threadIdx.x;
  if (c >= nchunks) return;
  unsigned h = seed ^ (unsigned)c;
  for (int w = 0; w < SG_WORDS; ++w) {
    unsigned k = chunk[threadIdx.x * SG_WORDS + w];
    k *= 0xcc9e2d51u;
    k = rotl32(k, 15);
    k *= 0x1b873593u;
    h ^= k;
    h = rotl32(h, 13);
    h = h * 5u + 0xe6546b64u;
  }
  h ^= SG_WORDS * 4u;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  digests[c] = h;
}
