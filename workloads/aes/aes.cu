// AES-128 encryption in ECB mode with T-table lookups, shaped like the LAWS thesis'
// type-I ("little locality") AES. Each thread encrypts `blocks_per_thread` consecutive
// 16-byte blocks of its own chunk of the plaintext, so a warp's lanes are
// blocks_per_thread * 16 bytes apart (4 blocks: 64 B, 16 lines per warp load). The
// plaintext and ciphertext streams are uncoalesced; a thread comes back to its line for
// its next block, but with the SM's warps holding more lines than the L1D the line is
// mostly gone by then (little locality left at the baseline). Rounds 1-9
// look up four 256-entry u32 T-tables with data-dependent indices, the last round the
// u8 S-box. The 44 round-key words (expanded on the host) are in constant memory: every
// lane reads the same word.
//
// Two entries, same parameters: aes128_ecb_encrypt looks the tables up in global memory
// (through the L1D, where their 40 hot lines then take almost all the hits);
// aes128_ecb_encrypt_shared (the specs' kernel) first copies them into shared memory, as
// GPGPU-Sim's AES keeps its T-boxes, so the L1D sees only the streams.
//
// State words are big-endian (FIPS-197 column c = bytes 4c..4c+3, the first byte most
// significant); the blocks are loaded as little-endian u32 and byte-swapped.
#include <cstdint>

__constant__ uint32_t aes_rk[44];

__device__ __forceinline__ uint32_t bswap32(uint32_t x) { return __byte_perm(x, 0, 0x0123); }

// Encrypts this thread's blocks with the tables at te0..te3 / sbox (global or shared).
__device__ __forceinline__ void encrypt_chunk(const uint4* __restrict__ in, uint4* __restrict__ out,
                                              const uint32_t* __restrict__ te0,
                                              const uint32_t* __restrict__ te1,
                                              const uint32_t* __restrict__ te2,
                                              const uint32_t* __restrict__ te3,
                                              const uint8_t* __restrict__ sbox, int t,
                                              int blocks_per_thread) {
  const size_t first = static_cast<size_t>(t) * blocks_per_thread;
  for (int b = 0; b < blocks_per_thread; ++b) {
    uint4 v = in[first + b];
    uint32_t s0 = bswap32(v.x) ^ aes_rk[0];
    uint32_t s1 = bswap32(v.y) ^ aes_rk[1];
    uint32_t s2 = bswap32(v.z) ^ aes_rk[2];
    uint32_t s3 = bswap32(v.w) ^ aes_rk[3];
    // Not unrolled: nine unrolled rounds are ~5 KB of code, more than a Fermi L1I (2 KB),
    // and the kernel would be bound by instruction fetch instead of its data.
#pragma unroll 1
    for (int r = 1; r < 10; ++r) {
      uint32_t t0 = te0[s0 >> 24] ^ te1[(s1 >> 16) & 0xff] ^ te2[(s2 >> 8) & 0xff] ^ te3[s3 & 0xff] ^
                    aes_rk[4 * r];
      uint32_t t1 = te0[s1 >> 24] ^ te1[(s2 >> 16) & 0xff] ^ te2[(s3 >> 8) & 0xff] ^ te3[s0 & 0xff] ^
                    aes_rk[4 * r + 1];
      uint32_t t2 = te0[s2 >> 24] ^ te1[(s3 >> 16) & 0xff] ^ te2[(s0 >> 8) & 0xff] ^ te3[s1 & 0xff] ^
                    aes_rk[4 * r + 2];
      uint32_t t3 = te0[s3 >> 24] ^ te1[(s0 >> 16) & 0xff] ^ te2[(s1 >> 8) & 0xff] ^ te3[s2 & 0xff] ^
                    aes_rk[4 * r + 3];
      s0 = t0;
      s1 = t1;
      s2 = t2;
      s3 = t3;
    }
    // Last round: SubBytes and ShiftRows, no MixColumns.
    uint32_t c0 = (static_cast<uint32_t>(sbox[s0 >> 24]) << 24) ^
                  (static_cast<uint32_t>(sbox[(s1 >> 16) & 0xff]) << 16) ^
                  (static_cast<uint32_t>(sbox[(s2 >> 8) & 0xff]) << 8) ^ sbox[s3 & 0xff] ^ aes_rk[40];
    uint32_t c1 = (static_cast<uint32_t>(sbox[s1 >> 24]) << 24) ^
                  (static_cast<uint32_t>(sbox[(s2 >> 16) & 0xff]) << 16) ^
                  (static_cast<uint32_t>(sbox[(s3 >> 8) & 0xff]) << 8) ^ sbox[s0 & 0xff] ^ aes_rk[41];
    uint32_t c2 = (static_cast<uint32_t>(sbox[s2 >> 24]) << 24) ^
                  (static_cast<uint32_t>(sbox[(s3 >> 16) & 0xff]) << 16) ^
                  (static_cast<uint32_t>(sbox[(s0 >> 8) & 0xff]) << 8) ^ sbox[s1 & 0xff] ^ aes_rk[42];
    uint32_t c3 = (static_cast<uint32_t>(sbox[s3 >> 24]) << 24) ^
                  (static_cast<uint32_t>(sbox[(s0 >> 16) & 0xff]) << 16) ^
                  (static_cast<uint32_t>(sbox[(s1 >> 8) & 0xff]) << 8) ^ sbox[s2 & 0xff] ^ aes_rk[43];
    out[first + b] = make_uint4(bswap32(c0), bswap32(c1), bswap32(c2), bswap32(c3));
  }
}

// T-tables and S-box looked up in global memory (through the L1D).
extern "C" __global__ void aes128_ecb_encrypt(const uint4* __restrict__ in, uint4* __restrict__ out,
                                              const uint32_t* __restrict__ te0,
                                              const uint32_t* __restrict__ te1,
                                              const uint32_t* __restrict__ te2,
                                              const uint32_t* __restrict__ te3,
                                              const uint8_t* __restrict__ sbox, int nthreads,
                                              int blocks_per_thread) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nthreads) return;
  encrypt_chunk(in, out, te0, te1, te2, te3, sbox, t, blocks_per_thread);
}

// The same with each CTA's own copy of the tables in shared memory (as GPGPU-Sim's AES
// keeps its T-boxes), so only the plaintext/ciphertext streams and the one coalesced
// staging of the tables per CTA reach the L1D.
extern "C" __global__ void aes128_ecb_encrypt_shared(const uint4* __restrict__ in,
                                                     uint4* __restrict__ out,
                                                     const uint32_t* __restrict__ te0,
                                                     const uint32_t* __restrict__ te1,
                                                     const uint32_t* __restrict__ te2,
                                                     const uint32_t* __restrict__ te3,
                                                     const uint8_t* __restrict__ sbox, int nthreads,
                                                     int blocks_per_thread) {
  __shared__ uint32_t s_te[4][256];
  __shared__ uint8_t s_sbox[256];
  for (int k = threadIdx.x; k < 256; k += blockDim.x) {
    s_te[0][k] = te0[k];
    s_te[1][k] = te1[k];
    s_te[2][k] = te2[k];
    s_te[3][k] = te3[k];
    s_sbox[k] = sbox[k];
  }
  __syncthreads();
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nthreads) return;
  encrypt_chunk(in, out, s_te[0], s_te[1], s_te[2], s_te[3], s_sbox, t, blocks_per_thread);
}
