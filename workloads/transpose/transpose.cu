// The CUDA SDK's transpose sample (001 Table 5.2's TP, an MSHR-sensitive type-III workload):
// the same matrix copied and transposed by successively better kernels, each into its own
// output. Tiles of 32 x 32 handled by CTAs of 32 x 8 (each thread 4 elements 8 rows apart):
//   copy             coalesced read and write (the bandwidth reference),
//   transpose_naive  coalesced read, column-strided (uncoalesced) write,
//   transpose_coalesced  through a shared tile: both coalesced, 32-way bank conflicts on read-out,
//   transpose_no_conflicts  the tile padded to 33 columns,
//   transpose_diagonal  padded tile with diagonal CTA order (spreads partitions).
// Data movement only: outputs exact.
#define TILE 32
#define ROWS 8

extern "C" __global__ void copy(float* out, const float* __restrict__ in, int width, int height) {
  const int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int i = 0; i < TILE; i += ROWS) out[(y + i) * width + x] = in[(y + i) * width + x];
}

extern "C" __global__ void transpose_naive(float* out, const float* __restrict__ in, int width, int height) {
  const int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int i = 0; i < TILE; i += ROWS) out[x * height + (y + i)] = in[(y + i) * width + x];
}

extern "C" __global__ void transpose_coalesced(float* out, const float* __restrict__ in, int width, int height) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int i = 0; i < TILE; i += ROWS) tile[threadIdx.y + i][threadIdx.x] = in[(y + i) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int i = 0; i < TILE; i += ROWS) out[(y + i) * height + x] = tile[threadIdx.x][threadIdx.y + i];
}

extern "C" __global__ void transpose_no_conflicts(float* out, const float* __restrict__ in, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int i = 0; i < TILE; i += ROWS) tile[threadIdx.y + i][threadIdx.x] = in[(y + i) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int i = 0; i < TILE; i += ROWS) out[(y + i) * height + x] = tile[threadIdx.x][threadIdx.y + i];
}

// Square matrices (width == height), as the SDK's diagonal kernel for this case.
extern "C" __global__ void transpose_diagonal(float* out, const float* __restrict__ in, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  const int block_y = blockIdx.x, block_x = (blockIdx.x + blockIdx.y) % gridDim.x;
  int x = block_x * TILE + threadIdx.x, y = block_y * TILE + threadIdx.y;
  for (int i = 0; i < TILE; i += ROWS) tile[threadIdx.y + i][threadIdx.x] = in[(y + i) * width + x];
  __syncthreads();
  x = block_y * TILE + threadIdx.x;
  y = block_x * TILE + threadIdx.y;
  for (int i = 0; i < TILE; i += ROWS) out[(y + i) * height + x] = tile[threadIdx.x][threadIdx.y + i];
}
