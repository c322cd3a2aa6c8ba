// Load bandwidth: 16-byte loads (ld.global.v4.u32), so a warp reads a 512 B chunk (4 lines)
// per load and adds cost 4 instructions per 4 lines: the LSU, not issue, bounds the loop.
// Chunk c of CTA b starts at uint4 32 c of r = a + base + b * cta_chunks * 32. Warp w reads
// the chunks first + k * step, first = w * warp_first, k = 0 .. n-1 (n even), `warm`
// untimed passes and then `reps` timed passes. One 1024-thread CTA per SM.
//   L1:   every warp reads the same 8 KB (first 0, step 1): the timed passes hit the L1.
//   L2:   the warps split a warmed 32 KB per CTA (first w, step 32): L1 misses, L2 hits.
//   DRAM: the warps split a cold 128 KB per CTA.
// With `sink` the timed loads are not added (L1: otherwise instruction issue, not the L1,
// bounds the loop); the few loads still in flight when the clock stops are negligible
// against the L1 hit latency. sums[slot][b][t] = the thread's sum of the warm-up passes and,
// without `sink`, of the timed ones (checked); timing[slot][b] = {start, end} cycle.
extern "C" __global__ void stream(const uint4* a, int base, int cta_chunks, int warp_first, int step, int n,
                                  int warm, int reps, int sink, int slot, unsigned* sums, unsigned* timing) {
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const uint4* r = a + base + (size_t)blockIdx.x * cta_chunks * 32 + warp * warp_first * 32 + lane;
  unsigned sum = 0;
  for (int p = 0; p < warm; ++p)
#pragma unroll 1
    for (int k = 0; k < n; ++k) {
      const uint4 v = r[32 * k * step];
      sum += v.x + v.y + v.z + v.w;
    }
  __syncthreads();  // every warp has added its last warm-up load
  unsigned t0 = clock();
  if (sink) {  // loads feed an empty asm: kept, never waited for, no adds to issue
    for (int p = 0; p < reps; ++p)
#pragma unroll 1
      for (int k = 0; k < n; k += 2) {
        const uint4 v = r[32 * k * step], u = r[32 * (k + 1) * step];
        asm volatile("" ::"r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "r"(u.x), "r"(u.y), "r"(u.z), "r"(u.w));
      }
  } else {
    for (int p = 0; p < reps; ++p)
#pragma unroll 1  // few registers: a 1024-thread CTA must fit 32768 registers
      for (int k = 0; k < n; k += 2) {
        const uint4 v = r[32 * k * step], u = r[32 * (k + 1) * step];
        sum += v.x + v.y + v.z + v.w + u.x + u.y + u.z + u.w;
      }
  }
  __syncthreads();  // every warp has added its last timed load
  unsigned t1 = clock();
  const unsigned cta = slot * gridDim.x + blockIdx.x;
  sums[cta * blockDim.x + threadIdx.x] = sum;
  if (threadIdx.x == 0) {
    timing[2 * cta] = t0;
    timing[2 * cta + 1] = t1;
  }
}
