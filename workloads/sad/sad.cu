// Sum of absolute differences for motion estimation (shaped like Parboil SAD's
// mb_sad_calc and larger_sad_calc_8). Frames are 16-bit pixels in 16x16 macroblocks; the
// search window is +-16 pixels (33 x 33 = 1089 positions, rows padded to 1096).
//
// sad_calc_4: one CTA of 61 threads per 4x4 block of the current frame (Parboil's
// THREADS_W = THREADS_H = 1). The block's 16 pixels are staged in shared memory; thread t
// takes positions 18t .. 18t+17, three at a time, reading 6 reference pixels per row with
// the coordinates clamped to the frame (Parboil reads them through a clamped texture;
// here they are L1-cached global loads). The SADs collect in shared memory and the CTA
// copies its 1096-entry row out with 32-bit stores. Compute-bound: neighbouring
// positions and blocks reuse the same reference lines.
//
// sad_calc_8: one CTA of 32x4 threads per macroblock. Thread row y (0..3) is one 8x8
// block; it adds the four 4x4 SADs of its block two positions at a time (two u16 in a
// u32: no carry can cross, 4 x 16 x 255 < 2^16) into the 4x8, 8x4 and 8x8 SADs: four
// loads and five stores per pair of positions, nothing reused: memory-bound.
#define SAD_RANGE 16
#define SAD_DIM 33
#define SAD_MAX_POS 1089
#define SAD_POS_PADDED 1096
#define SAD_POS_PER_THREAD 18
#define SAD_ROW_WORDS (SAD_POS_PADDED / 2)

__device__ __forceinline__ int sad_clamp(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

extern "C" __global__ void sad_calc_4(unsigned short* __restrict__ sad4,
                                      const unsigned short* __restrict__ frame,
                                      const unsigned short* __restrict__ ref, int mb_width, int mb_height) {
  __shared__ unsigned short frame_loc[16];
  __shared__ unsigned int sad_words[SAD_ROW_WORDS];
  unsigned short* sad_loc = reinterpret_cast<unsigned short*>(sad_words);
  int lidx = threadIdx.x;
  int img_w = mb_width * 16, img_h = mb_height * 16;
  int frame_x = blockIdx.x * 4, frame_y = blockIdx.y * 4;  // this 4x4 block's origin
  if (lidx < 16) frame_loc[lidx] = frame[(frame_y + (lidx >> 2)) * img_w + frame_x + (lidx & 3)];
  if (lidx < SAD_POS_PADDED - SAD_MAX_POS) sad_loc[SAD_MAX_POS + lidx] = 0;  // padding: defined bytes
  __syncthreads();

  int ref_x = frame_x - SAD_RANGE, ref_y = frame_y - SAD_RANGE;
  int pos_base = lidx * SAD_POS_PER_THREAD;
  int pos_end = min(pos_base + SAD_POS_PER_THREAD, SAD_MAX_POS);
  int row = pos_base / SAD_DIM;
  int off_x = pos_base - row * SAD_DIM;  // groups of 3 never straddle a row (33 = 3 x 11)
  int off_y = ref_y + row;
  for (int pos = pos_base; pos < pos_end; pos += 3) {
    unsigned sad1 = 0, sad2 = 0, sad3 = 0;
    int sx = ref_x + off_x;
    for (int y = 0; y < 4; ++y) {
      const unsigned short* line = ref + sad_clamp(off_y + y, img_h - 1) * img_w;
      int t0 = line[sad_clamp(sx, img_w - 1)], t1 = line[sad_clamp(sx + 1, img_w - 1)];
      int t2 = line[sad_clamp(sx + 2, img_w - 1)], t3 = line[sad_clamp(sx + 3, img_w - 1)];
      int t4 = line[sad_clamp(sx + 4, img_w - 1)], t5 = line[sad_clamp(sx + 5, img_w - 1)];
      int f0 = frame_loc[y * 4], f1 = frame_loc[y * 4 + 1];
      int f2 = frame_loc[y * 4 + 2], f3 = frame_loc[y * 4 + 3];
      sad1 += abs(t0 - f0) + abs(t1 - f1) + abs(t2 - f2) + abs(t3 - f3);
      sad2 += abs(t1 - f0) + abs(t2 - f1) + abs(t3 - f2) + abs(t4 - f3);
      sad3 += abs(t2 - f0) + abs(t3 - f1) + abs(t4 - f2) + abs(t5 - f3);
    }
    sad_loc[pos] = (unsigned short)sad1;
    sad_loc[pos + 1] = (unsigned short)sad2;
    sad_loc[pos + 2] = (unsigned short)sad3;
    off_x += 3;
    if (off_x >= SAD_DIM) {
      off_x -= SAD_DIM;
      ++off_y;
    }
  }
  __syncthreads();

  // Row of this 4x4 block: macroblock-major, then the block's index 4 * by + bx within it.
  int mb = (frame_y >> 4) * mb_width + (frame_x >> 4);
  int blk = ((frame_y >> 2) & 3) * 4 + ((frame_x >> 2) & 3);
  unsigned* out = reinterpret_cast<unsigned*>(sad4 + (long)(mb * 16 + blk) * SAD_POS_PADDED);
  for (int i = lidx; i < SAD_ROW_WORDS; i += blockDim.x) out[i] = sad_words[i];
}

extern "C" __global__ void sad_calc_8(const unsigned short* __restrict__ sad4,
                                      unsigned short* __restrict__ sad8x8,
                                      unsigned short* __restrict__ sad8x4,
                                      unsigned short* __restrict__ sad4x8, int mb_width) {
  int tx = threadIdx.y & 1, ty = threadIdx.y >> 1;  // this thread row's 8x8 block
  long mb = blockIdx.y * mb_width + blockIdx.x;
  // Its top-left 4x4 block; the others are +1 (right), +4 (below), +5.
  const unsigned* bi = reinterpret_cast<const unsigned*>(sad4 + (mb * 16 + ty * 8 + tx * 2) * SAD_POS_PADDED);
  unsigned* b48 = reinterpret_cast<unsigned*>(sad4x8 + (mb * 8 + ty * 4 + tx * 2) * SAD_POS_PADDED);
  unsigned* b84 = reinterpret_cast<unsigned*>(sad8x4 + (mb * 8 + ty * 4 + tx) * SAD_POS_PADDED);
  unsigned* b88 = reinterpret_cast<unsigned*>(sad8x8 + (mb * 4 + ty * 2 + tx) * SAD_POS_PADDED);
  for (int p = threadIdx.x; p < (SAD_MAX_POS + 1) / 2; p += 32) {
    unsigned i00 = bi[p], i01 = bi[p + SAD_ROW_WORDS];
    unsigned i10 = bi[p + 4 * SAD_ROW_WORDS], i11 = bi[p + 5 * SAD_ROW_WORDS];
    b48[p] = i00 + i10;  // 4 wide, 8 tall: left column, then right
    b48[p + SAD_ROW_WORDS] = i01 + i11;
    b84[p] = i00 + i01;  // 8 wide, 4 tall: top row, then bottom (two rows on)
    b84[p + 2 * SAD_ROW_WORDS] = i10 + i11;
    b88[p] = (i00 + i01) + (i10 + i11);
  }
}
