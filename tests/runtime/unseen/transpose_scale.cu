// The acceptance kernel of issue 4, never seen by the workload suite: a tiled transpose
// through padded shared memory with a per-column affine map:
//   out[x * rows + y] = in[y * cols + x] * scale + bias[x]
#define TILE 32
#define ROWS_PER_PASS 8
extern "C" __global__ void transpose_scale(int rows, int cols, float scale,
                                           const float* __restrict__ in,
                                           const float* __restrict__ bias, float* out) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y0 = blockIdx.y * TILE;
  for (int j = threadIdx.y; j < TILE; j += ROWS_PER_PASS) {
    int y = y0 + j;
    if (x < cols && y < rows) tile[j][threadIdx.x] = in[y * cols + x] * scale + bias[x];
  }
  __syncthreads();
  int ox = y0 + threadIdx.x;  // output column = input row
  for (int j = threadIdx.y; j < TILE; j += ROWS_PER_PASS) {
    int oy = blockIdx.x * TILE + j;  // output row = input column
    if (ox < rows && oy < cols) out[oy * rows + ox] = tile[threadIdx.x][j];
  }
}
