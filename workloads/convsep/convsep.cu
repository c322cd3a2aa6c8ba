// The CUDA SDK's convolutionSeparable shape (001 Table 4.4's Conv, Table 5.2's CS): a 17-tap
// filter (radius 8, taps in __constant__) applied along rows, then along columns, each pass a
// kernel that stages its tile and a one-step halo in shared memory (zero outside the image).
// Rows: CTAs of 16 x 4, each thread 8 outputs 16 apart; columns: CTAs of 16 x 8, each thread 8
// outputs 8 rows apart. At 512 x 512 the grids are 001's (4, 128) and (32, 8). Each output is
// an fma chain over the taps in a fixed order, repeated exactly by the CPU reference.
#define KERNEL_RADIUS 8
#define ROWS_X 16
#define ROWS_Y 4
#define ROWS_STEPS 8
#define COLS_X 16
#define COLS_Y 8
#define COLS_STEPS 8
#define HALO 1

__constant__ float c_taps[2 * KERNEL_RADIUS + 1] = {
    0.0025f, 0.005f, 0.0125f, 0.025f, 0.04f, 0.06f, 0.08f, 0.1f, 0.125f,
    0.1f, 0.08f, 0.06f, 0.04f, 0.025f, 0.0125f, 0.005f, 0.0025f};

extern "C" __global__ void convsep_rows(float* dst, const float* __restrict__ src, int width, int height) {
  __shared__ float tile[ROWS_Y][(ROWS_STEPS + 2 * HALO) * ROWS_X];
  const int base_x = (blockIdx.x * ROWS_STEPS - HALO) * ROWS_X + threadIdx.x;
  const int y = blockIdx.y * ROWS_Y + threadIdx.y;
  src += y * width + base_x;
  dst += y * width + base_x;
  for (int i = HALO; i < HALO + ROWS_STEPS; ++i) tile[threadIdx.y][threadIdx.x + i * ROWS_X] = src[i * ROWS_X];
  for (int i = 0; i < HALO; ++i)
    tile[threadIdx.y][threadIdx.x + i * ROWS_X] = base_x >= -i * ROWS_X ? src[i * ROWS_X] : 0.0f;
  for (int i = HALO + ROWS_STEPS; i < 2 * HALO + ROWS_STEPS; ++i)
    tile[threadIdx.y][threadIdx.x + i * ROWS_X] = width - base_x > i * ROWS_X ? src[i * ROWS_X] : 0.0f;
  __syncthreads();
  for (int i = HALO; i < HALO + ROWS_STEPS; ++i) {
    float sum = 0.0f;
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; ++j)
      sum += c_taps[KERNEL_RADIUS - j] * tile[threadIdx.y][threadIdx.x + i * ROWS_X + j];
    dst[i * ROWS_X] = sum;
  }
}

extern "C" __global__ void convsep_cols(float* dst, const float* __restrict__ src, int width, int height) {
  __shared__ float tile[COLS_X][(COLS_STEPS + 2 * HALO) * COLS_Y + 1];
  const int x = blockIdx.x * COLS_X + threadIdx.x;
  const int base_y = (blockIdx.y * COLS_STEPS - HALO) * COLS_Y + threadIdx.y;
  src += base_y * width + x;
  dst += base_y * width + x;
  for (int i = HALO; i < HALO + COLS_STEPS; ++i)
    tile[threadIdx.x][threadIdx.y + i * COLS_Y] = src[i * COLS_Y * width];
  for (int i = 0; i < HALO; ++i)
    tile[threadIdx.x][threadIdx.y + i * COLS_Y] = base_y >= -i * COLS_Y ? src[i * COLS_Y * width] : 0.0f;
  for (int i = HALO + COLS_STEPS; i < 2 * HALO + COLS_STEPS; ++i)
    tile[threadIdx.x][threadIdx.y + i * COLS_Y] = height - base_y > i * COLS_Y ? src[i * COLS_Y * width] : 0.0f;
  __syncthreads();
  for (int i = HALO; i < HALO + COLS_STEPS; ++i) {
    float sum = 0.0f;
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; ++j)
      sum += c_taps[KERNEL_RADIUS - j] * tile[threadIdx.x][threadIdx.y + i * COLS_Y + j];
    dst[i * COLS_Y * width] = sum;
  }
}
