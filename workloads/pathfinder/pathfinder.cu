// Dynamic programming over the rows of a grid (shaped like Rodinia PathFinder's
// dynproc_kernel): each row's cost is the row's wall value plus the cheapest of the three
// neighbours above it (columns clamped at the edges). One launch advances `iteration`
// rows (the pyramid height): a CTA of 256 threads loads 256 columns of the source row into
// shared memory and then shrinks by one column per side and row (the halo), so after
// `iteration` rows its 256 - 2 * iteration inner columns are exact; barriers separate the
// rows. CTAs overlap by 2 * border columns; border = pyramid height * halo.
#define PF_BLOCK 256
#define PF_HALO 1

extern "C" __global__ void pathfinder_dynproc(int iteration, const int* wall, const int* src,
                                              int* dst, int cols, int rows, int start_step,
                                              int border) {
  __shared__ int prev[PF_BLOCK];
  __shared__ int result[PF_BLOCK];
  const int tx = threadIdx.x;
  // This CTA's inner (exact after `iteration` rows) columns start at small_cols * bx; its
  // loaded window starts `border` columns to the left.
  const int small_cols = PF_BLOCK - iteration * PF_HALO * 2;
  const int blk_x = small_cols * blockIdx.x - border;
  const int blk_x_max = blk_x + PF_BLOCK - 1;
  const int xidx = blk_x + tx;
  // The window's columns inside the grid.
  const int valid_min = blk_x < 0 ? -blk_x : 0;
  const int valid_max = blk_x_max > cols - 1 ? PF_BLOCK - 1 - (blk_x_max - cols + 1) : PF_BLOCK - 1;
  const int w = tx - 1 < valid_min ? valid_min : tx - 1;
  const int e = tx + 1 > valid_max ? valid_max : tx + 1;
  const bool is_valid = tx >= valid_min && tx <= valid_max;

  if (xidx >= 0 && xidx <= cols - 1) prev[tx] = src[xidx];
  __syncthreads();
  bool computed = false;
  for (int i = 0; i < iteration; ++i) {
    computed = false;
    if (tx >= i + 1 && tx <= PF_BLOCK - i - 2 && is_valid) {
      computed = true;
      int left = prev[w], up = prev[tx], right = prev[e];
      int shortest = min(min(left, up), right);
      result[tx] = shortest + wall[cols * (start_step + i) + xidx];
    }
    __syncthreads();
    if (i == iteration - 1) break;
    if (computed) prev[tx] = result[tx];
    __syncthreads();
  }
  if (computed) dst[xidx] = result[tx];
}
