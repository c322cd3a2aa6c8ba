// Speckle-reducing anisotropic diffusion (shaped like Rodinia SRAD v2): 16x16 CTAs.
// srad_1 stages the CTA's tile of J and the neighbouring rows/columns (clamped at the
// image border) in shared memory, forms the four directional derivatives, the
// normalised gradient and Laplacian, and the diffusion coefficient (clamped to [0, 1]);
// it writes the derivatives and the coefficient. srad_2 reads the coefficient tile plus
// the south and east neighbours and updates J in place. The specs iterate the pair.
// q0sqr (the speckle scale) is a launch argument, fixed for all iterations.
#define SR_BS 16

extern "C" __global__ void srad_1(float* __restrict__ e_c, float* __restrict__ w_c, float* __restrict__ n_c,
                                  float* __restrict__ s_c, const float* __restrict__ j, float* __restrict__ c,
                                  int cols, int rows, float q0sqr) {
  __shared__ float temp[SR_BS][SR_BS];
  __shared__ float north[SR_BS], south[SR_BS], west[SR_BS], east[SR_BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * SR_BS + ty, col = blockIdx.x * SR_BS + tx;
  int index = row * cols + col;
  temp[ty][tx] = j[index];
  if (ty == 0) north[tx] = j[max(row - 1, 0) * cols + col];
  if (ty == SR_BS - 1) south[tx] = j[min(row + 1, rows - 1) * cols + col];
  if (tx == 0) west[ty] = j[row * cols + max(col - 1, 0)];
  if (tx == SR_BS - 1) east[ty] = j[row * cols + min(col + 1, cols - 1)];
  __syncthreads();
  float jc = temp[ty][tx];
  float n = (ty == 0 ? north[tx] : temp[ty - 1][tx]) - jc;
  float s = (ty == SR_BS - 1 ? south[tx] : temp[ty + 1][tx]) - jc;
  float w = (tx == 0 ? west[ty] : temp[ty][tx - 1]) - jc;
  float e = (tx == SR_BS - 1 ? east[ty] : temp[ty][tx + 1]) - jc;
  float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  float l = (n + s + w + e) / jc;
  float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
  float den = 1.0f + 0.25f * l;
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float coef = 1.0f / (1.0f + den);
  if (coef < 0.f) coef = 0.f;
  else if (coef > 1.f) coef = 1.f;
  c[index] = coef;
  n_c[index] = n;
  s_c[index] = s;
  w_c[index] = w;
  e_c[index] = e;
}

extern "C" __global__ void srad_2(const float* __restrict__ e_c, const float* __restrict__ w_c,
                                  const float* __restrict__ n_c, const float* __restrict__ s_c, float* j,
                                  const float* __restrict__ c, int cols, int rows, float lambda) {
  __shared__ float c_tile[SR_BS][SR_BS];
  __shared__ float south_c[SR_BS], east_c[SR_BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * SR_BS + ty, col = blockIdx.x * SR_BS + tx;
  int index = row * cols + col;
  c_tile[ty][tx] = c[index];
  if (ty == SR_BS - 1) south_c[tx] = c[min(row + 1, rows - 1) * cols + col];
  if (tx == SR_BS - 1) east_c[ty] = c[row * cols + min(col + 1, cols - 1)];
  __syncthreads();
  float cc = c_tile[ty][tx];
  float cs = ty == SR_BS - 1 ? south_c[tx] : c_tile[ty + 1][tx];
  float ce = tx == SR_BS - 1 ? east_c[ty] : c_tile[ty][tx + 1];
  float d_sum = cc * n_c[index] + cs * s_c[index] + cc * w_c[index] + ce * e_c[index];
  j[index] = j[index] + 0.25f * lambda * d_sum;
}
