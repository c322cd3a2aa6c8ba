// DXT1 (BC1) compression shaped like 004 Table 2's DT (issue 16 point 6): CTAs of 128
// threads, one thread per 4x4 block of an RGBA8 image (row-major, width a multiple of 4).
// The thread reads its 16 texels, takes the bounding box of their colours as the two
// RGB565 endpoints (c0 = max, c1 = min, so c0 >= c1: four-colour mode), builds the palette
// {c0, c1, (2 c0 + c1) / 3, (c0 + 2 c1) / 3} in 8-bit channels and gives each texel the
// nearest entry (squared RGB distance, the lowest index on a tie). Output per block: word
// 0 = c0 | c1 << 16, word 1 = the 2-bit indices, texel i at bits 2i. Integer only.
__device__ unsigned expand565(unsigned c, int channel) {
  if (channel == 0) { unsigned v = (c >> 11) & 31u; return (v << 3) | (v >> 2); }
  if (channel == 1) { unsigned v = (c >> 5) & 63u; return (v << 2) | (v >> 4); }
  unsigned v = c & 31u;
  return (v << 3) | (v >> 2);
}

extern "C" __global__ void dxt1_compress(int width_blocks, int nblocks, const unsigned* __restrict__ rgba,
                                         uint2* out) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= nblocks) return;
  const int bx = b % width_blocks, by = b / width_blocks;
  const int width = width_blocks * 4;
  unsigned texel[16];
  unsigned lo[3] = {255u, 255u, 255u}, hi[3] = {0u, 0u, 0u};
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    unsigned p = rgba[(by * 4 + (i >> 2)) * width + bx * 4 + (i & 3)];
    texel[i] = p;
#pragma unroll
    for (int ch = 0; ch < 3; ++ch) {
      unsigned v = (p >> (8 * ch)) & 255u;
      lo[ch] = min(lo[ch], v);
      hi[ch] = max(hi[ch], v);
    }
  }
  // Channel 0 is red (bits 0-7 of the texel), stored in the endpoint's top 5 bits.
  const unsigned c0 = ((hi[0] >> 3) << 11) | ((hi[1] >> 2) << 5) | (hi[2] >> 3);
  const unsigned c1 = ((lo[0] >> 3) << 11) | ((lo[1] >> 2) << 5) | (lo[2] >> 3);
  int pal[4][3];
#pragma unroll
  for (int ch = 0; ch < 3; ++ch) {
    int e0 = (int)expand565(c0, ch), e1 = (int)expand565(c1, ch);
    pal[0][ch] = e0;
    pal[1][ch] = e1;
    pal[2][ch] = (2 * e0 + e1) / 3;
    pal[3][ch] = (e0 + 2 * e1) / 3;
  }
  unsigned indices = 0;
  if (c0 != c1) {
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      int best = 0, best_d = 0x7fffffff;
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        int d = 0;
#pragma unroll
        for (int ch = 0; ch < 3; ++ch) {
          int e = (int)((texel[i] >> (8 * ch)) & 255u) - pal[k][ch];
          d += e * e;
        }
        if (d < best_d) {
          best_d = d;
          best = k;
        }
      }
      indices |= (unsigned)best << (2 * i);
    }
  }
  out[b] = make_uint2(c0 | (c1 << 16), indices);
}
