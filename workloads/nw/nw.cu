// Needleman-Wunsch global alignment (wavefront dynamic programming), tiled as Rodinia's
// NW is: the (n+1)x(n+1) score matrix is cut into 16x16 tiles, and one launch computes
// every tile of one tile anti-diagonal (nw_upper for the upper-left triangle of tiles,
// nw_lower for the rest). A CTA of 16 threads loads its tile's substitution scores and
// the scores above and left of it into shared memory, then sweeps the tile's own
// anti-diagonals; thread tx owns column tx+1 and reads temp[y-1][x]-style neighbours.
// The indexing temp[m - tx + 1][tx + 1] makes nvcc form `temp - 64*tx` in a 32-bit
// register and add a positive offset: a 32-bit shared address that wraps modulo 2^32.
#define NW_TILE 16

__device__ __forceinline__ int nw_max3(int a, int b, int c) {
  int m = a > b ? a : b;
  return m > c ? m : c;
}

// Computes one tile whose top-left score cell (row 1, column 1 of the tile) is at
// score[base]; `cols` is the score matrix's row length (n + 1).
__device__ void nw_tile(const int* __restrict__ reference, int* score, int cols, int penalty, int base) {
  __shared__ int temp[NW_TILE + 1][NW_TILE + 1];
  __shared__ int ref[NW_TILE][NW_TILE];
  int tx = threadIdx.x;
  if (tx == 0) temp[0][0] = score[base - cols - 1];
  for (int ty = 0; ty < NW_TILE; ++ty) ref[ty][tx] = reference[base + ty * cols + tx];
  __syncthreads();
  temp[tx + 1][0] = score[base + tx * cols - 1];
  temp[0][tx + 1] = score[base - cols + tx];
  __syncthreads();
  // Anti-diagonals of the tile's upper-left triangle: diagonal m has m + 1 cells.
  for (int m = 0; m < NW_TILE; ++m) {
    if (tx <= m) {
      int x = tx + 1, y = m - tx + 1;
      temp[y][x] = nw_max3(temp[y - 1][x - 1] + ref[y - 1][x - 1], temp[y][x - 1] - penalty,
                           temp[y - 1][x] - penalty);
    }
    __syncthreads();
  }
  // The lower-right triangle: diagonal m has m + 1 cells.
  for (int m = NW_TILE - 2; m >= 0; --m) {
    if (tx <= m) {
      int x = tx + NW_TILE - m, y = NW_TILE - tx;
      temp[y][x] = nw_max3(temp[y - 1][x - 1] + ref[y - 1][x - 1], temp[y][x - 1] - penalty,
                           temp[y - 1][x] - penalty);
    }
    __syncthreads();
  }
  for (int ty = 0; ty < NW_TILE; ++ty) score[base + ty * cols + tx] = temp[ty + 1][tx + 1];
}

// Tile anti-diagonal `diag` (1-based) of the upper-left triangle: tile (row diag-1-bx,
// column bx) for each CTA bx < diag.
extern "C" __global__ void nw_upper(const int* __restrict__ reference, int* score, int cols, int penalty,
                                    int diag) {
  int tile_x = blockIdx.x, tile_y = diag - 1 - blockIdx.x;
  nw_tile(reference, score, cols, penalty, (tile_y * NW_TILE + 1) * cols + tile_x * NW_TILE + 1);
}

// Tile anti-diagonal `diag` (counting down from tiles-1 to 1) of the lower-right
// triangle of a `tiles` x `tiles` tile grid.
extern "C" __global__ void nw_lower(const int* __restrict__ reference, int* score, int cols, int penalty,
                                    int diag, int tiles) {
  int tile_x = blockIdx.x + tiles - diag, tile_y = tiles - 1 - blockIdx.x;
  nw_tile(reference, score, cols, penalty, (tile_y * NW_TILE + 1) * cols + tile_x * NW_TILE + 1);
}
