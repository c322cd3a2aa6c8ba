// 2-D convolution shaped like 004 Table 2's Con (the SDK's convolution; issue 16 point 6):
// a direct 5x5 filter over a width x height float image, CTAs of 16 x 16 with one output
// per thread. The CTA stages its 20 x 20 input tile (tile + 2-texel halo, clamped at the
// image border) in shared memory, then each thread sums the 25 taps row by row, left to
// right, as an fma chain. The taps are the binomial filter (1 4 6 4 1)^T (1 4 6 4 1) / 256,
// exact in float and folded into the code.
#define CV_TILE 16
#define CV_R 2
#define CV_W (CV_TILE + 2 * CV_R)

extern "C" __global__ void conv2d_5x5(int width, int height, const float* __restrict__ in, float* out) {
  __shared__ float tile[CV_W][CV_W];
  const int x0 = blockIdx.x * CV_TILE - CV_R, y0 = blockIdx.y * CV_TILE - CV_R;
  for (int i = threadIdx.y * CV_TILE + threadIdx.x; i < CV_W * CV_W; i += CV_TILE * CV_TILE) {
    int ty = i / CV_W, tx = i % CV_W;
    int gx = min(max(x0 + tx, 0), width - 1), gy = min(max(y0 + ty, 0), height - 1);
    tile[ty][tx] = in[gy * width + gx];
  }
  __syncthreads();
  const int x = blockIdx.x * CV_TILE + threadIdx.x, y = blockIdx.y * CV_TILE + threadIdx.y;
  if (x >= width || y >= height) return;
  const float row[5] = {1.0f / 16, 4.0f / 16, 6.0f / 16, 4.0f / 16, 1.0f / 16};
  float acc = 0.0f;
#pragma unroll
  for (int dy = 0; dy < 5; ++dy)
#pragma unroll
    for (int dx = 0; dx < 5; ++dx) acc = fmaf(tile[threadIdx.y + dy][threadIdx.x + dx], row[dy] * row[dx], acc);
  out[y * width + x] = acc;
}
