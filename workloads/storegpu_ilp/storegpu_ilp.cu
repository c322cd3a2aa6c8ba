// storegpu with 004 Table 2's STO shape (issue 16 point 6): CTAs of 128 threads, each
// hashing a 128-byte chunk (32 words) staged with its CTA's 127 others in 128 x 32 x 4 =
// 16 KiB of shared memory, so one CTA fits a 16 KB SM. The kernel is workloads/storegpu's
// with SG_THREADS 128 and SG_WORDS 32: coalesced copy into shared memory, then each thread
// mixes its own chunk (MurmurHash3-style) out of shared memory.
#define SG_THREADS 128
#define SG_WORDS 32

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
