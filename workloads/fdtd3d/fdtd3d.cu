// 3D finite differences (shaped like the CUDA SDK's FDTD3d FiniteDifferences kernel): a
// radius-4 star stencil on a volume padded by 4 on every side. Each thread owns one
// (x, y) column and marches through z keeping the 4 planes behind and the 4 in front in
// registers; each plane's x-y tile (32x8 plus a 4-wide halo) is staged in shared memory.
// The z loop is unrolled 9 times: a long straight-line body (instruction-fetch heavy).
// Coefficients are in __constant__ memory (spec "symbols").
#define FD_RADIUS 4
#define FD_BX 32
#define FD_BY 8
__constant__ float stencil[FD_RADIUS + 1];

extern "C" __global__ void fdtd3d_step(float* __restrict__ output, const float* __restrict__ input,
                                       int dimx, int dimy, int dimz) {
  __shared__ float tile[FD_BY + 2 * FD_RADIUS][FD_BX + 2 * FD_RADIUS];
  const int gtidx = blockIdx.x * FD_BX + threadIdx.x;
  const int gtidy = blockIdx.y * FD_BY + threadIdx.y;
  const int ltidx = threadIdx.x, ltidy = threadIdx.y;
  const int stride_y = dimx + 2 * FD_RADIUS;
  const int stride_z = stride_y * (dimy + 2 * FD_RADIUS);
  int input_index = (gtidy + FD_RADIUS) * stride_y + gtidx + FD_RADIUS;  // plane z = -4
  int output_index;
  float infront[FD_RADIUS], behind[FD_RADIUS], current;
  const int tx = ltidx + FD_RADIUS, ty = ltidy + FD_RADIUS;
  // Before the loop: planes z = -4 .. -2 behind, z = -1 current, z = 0 .. 3 in front;
  // each iteration shifts one plane and loads z = iz + 4.
  for (int i = FD_RADIUS - 2; i >= 0; --i) {
    behind[i] = input[input_index];
    input_index += stride_z;
  }
  current = input[input_index];
  output_index = input_index;
  input_index += stride_z;
  for (int i = 0; i < FD_RADIUS; ++i) {
    infront[i] = input[input_index];
    input_index += stride_z;
  }
#pragma unroll 9
  for (int iz = 0; iz < dimz; ++iz) {
    for (int i = FD_RADIUS - 1; i > 0; --i) behind[i] = behind[i - 1];
    behind[0] = current;
    current = infront[0];
    for (int i = 0; i < FD_RADIUS - 1; ++i) infront[i] = infront[i + 1];
    infront[FD_RADIUS - 1] = input[input_index];
    input_index += stride_z;
    output_index += stride_z;
    __syncthreads();
    if (ltidy < FD_RADIUS) {
      tile[ltidy][tx] = input[output_index - FD_RADIUS * stride_y];
      tile[ltidy + FD_BY + FD_RADIUS][tx] = input[output_index + FD_BY * stride_y];
    }
    if (ltidx < FD_RADIUS) {
      tile[ty][ltidx] = input[output_index - FD_RADIUS];
      tile[ty][ltidx + FD_BX + FD_RADIUS] = input[output_index + FD_BX];
    }
    tile[ty][tx] = current;
    __syncthreads();
    float value = stencil[0] * current;
#pragma unroll
    for (int i = 1; i <= FD_RADIUS; ++i)
      value += stencil[i] * (infront[i - 1] + behind[i - 1] + tile[ty - i][tx] + tile[ty + i][tx] +
                             tile[ty][tx - i] + tile[ty][tx + i]);
    output[output_index] = value;
  }
}
