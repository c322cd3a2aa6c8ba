// Leukocyte detection and tracking (shaped like Rodinia leukocyte's three kernels).
//
// leuko_gicov: one CTA per interior image row, one thread per interior column (Rodinia's
//   GICOV_kernel). For each of ncircles radii the thread samples npoints points of a
//   circle around its pixel (offsets and angles in __constant__ memory, the same for every
//   lane), projects the gradient (grad_x, grad_y: global loads, Rodinia's textures) on
//   the circle's normal, keeps a running mean and M2 (Welford, one division per point)
//   and scores mean^2 / variance; it writes the best score over the radii.
// leuko_dilate: one thread per pixel (Rodinia's dilate_kernel): the maximum of the GICOV
//   image over a disk structuring element (a (2r+1)^2 float mask in global memory):
//   a load per mask element, reused only through the L1.
// leuko_imgvf: one CTA of 320 threads per cell (Rodinia's IMGVF_kernel): the cell's
//   motion gradient vector field lives in shared memory; each iteration every element
//   moves towards its eight neighbours weighted by regularised Heaviside steps
//   (atanf), is pulled back to the cell image I (global loads, L1 hits), and a
//   fixed-order tree reduction of the total change decides convergence. Compute-bound.
//   Cells larger than the 320 threads are covered in virtual blocks of 320 elements; an
//   element's neighbours lie at most n + 1 <= 82 elements away, so within the previous,
//   its own or the next virtual block.
#define LK_MAX_POINTS 150
#define LK_MAX_CIRCLES 7
#define LK_IMGVF_THREADS 320
#define LK_IMGVF_POW2 256  // the largest power of two <= LK_IMGVF_THREADS
#define LK_MAX_CELL_ELEMS (41 * 81)
#define LK_ONE_OVER_PI 0.318309886183790671538f
#define LK_MU 0.5f
#define LK_LAMBDA (8.0f * LK_MU + 1.0f)

__constant__ float c_sin_angle[LK_MAX_POINTS];
__constant__ float c_cos_angle[LK_MAX_POINTS];
__constant__ int c_tX[LK_MAX_CIRCLES * LK_MAX_POINTS];
__constant__ int c_tY[LK_MAX_CIRCLES * LK_MAX_POINTS];

extern "C" __global__ void leuko_gicov(const float* __restrict__ grad_x, const float* __restrict__ grad_y,
                                       float* __restrict__ gicov, int width, int border, int ncircles,
                                       int npoints) {
  int i = blockIdx.x + border;   // row
  int j = threadIdx.x + border;  // column
  float max_gicov = 0.0f;
  for (int k = 0; k < ncircles; ++k) {
    float sum = 0.0f, m2 = 0.0f, mean = 0.0f;
    for (int n = 0; n < npoints; ++n) {
      int y = i + c_tY[k * LK_MAX_POINTS + n];
      int x = j + c_tX[k * LK_MAX_POINTS + n];
      int addr = y * width + x;
      float p = grad_x[addr] * c_cos_angle[n] + grad_y[addr] * c_sin_angle[n];
      sum += p;
      float delta = p - mean;
      mean = mean + delta / (float)(n + 1);
      m2 = m2 + delta * (p - mean);
    }
    mean = sum / (float)npoints;
    float var = m2 / (float)(npoints - 1);
    float score = mean * mean / var;
    if (score > max_gicov) max_gicov = score;
  }
  gicov[i * width + j] = max_gicov;
}

extern "C" __global__ void leuko_dilate(const float* __restrict__ img, const float* __restrict__ strel,
                                        float* __restrict__ dilated, int width, int height, int radius) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= width * height) return;
  int i = t / width, j = t - (t / width) * width;
  int size = 2 * radius + 1;
  float best = 0.0f;
  for (int ei = 0; ei < size; ++ei) {
    int y = i - radius + ei;
    if (y < 0 || y >= height) continue;
    for (int ej = 0; ej < size; ++ej) {
      int x = j - radius + ej;
      if (x >= 0 && x < width && strel[ei * size + ej] != 0.0f) {
        float v = img[y * width + x];
        if (v > best) best = v;
      }
    }
  }
  dilated[t] = best;
}

// Regularised Heaviside step, as Rodinia: atan(x) / pi + 1/2.
__device__ float lk_heaviside(float x) { return atanf(x) * LK_ONE_OVER_PI + 0.5f; }

extern "C" __global__ void leuko_imgvf(float* __restrict__ imgvf_all, const float* __restrict__ i_all,
                                       const int* __restrict__ offsets, const int* __restrict__ m_array,
                                       const int* __restrict__ n_array, float vx, float vy, float e,
                                       int max_iterations, float cutoff) {
  __shared__ float imgvf[LK_MAX_CELL_ELEMS];
  // New values of the virtual block in flight (so every update reads the old field), then
  // the partial sums of the convergence reduction.
  __shared__ float buffer[LK_IMGVF_THREADS];
  __shared__ int cell_converged;
  int cell = blockIdx.x;
  float* imgvf_global = imgvf_all + offsets[cell];
  const float* img = i_all + offsets[cell];
  int m = m_array[cell], n = n_array[cell];
  int tid = threadIdx.x;
  int nblocks = (m * n + LK_IMGVF_THREADS - 1) / LK_IMGVF_THREADS;  // virtual thread blocks
  for (int idx = tid; idx < m * n; idx += LK_IMGVF_THREADS) imgvf[idx] = imgvf_global[idx];
  if (tid == 0) cell_converged = 0;
  __syncthreads();

  float one_over_e = 1.0f / e;
  int iterations = 0;
  while (!cell_converged && iterations < max_iterations) {
    float total_diff = 0.0f;
    int old_idx = -1;
    for (int vb = 0; vb < nblocks; ++vb) {
      int idx = vb * LK_IMGVF_THREADS + tid;
      float new_val = 0.0f, old_val = 0.0f;
      if (idx < m * n) {
        int i = idx / n, j = idx - (idx / n) * n;
        int row_u = i == 0 ? 0 : i - 1, row_d = i == m - 1 ? m - 1 : i + 1;
        int col_l = j == 0 ? 0 : j - 1, col_r = j == n - 1 ? n - 1 : j + 1;
        old_val = imgvf[idx];
        float U = imgvf[row_u * n + j] - old_val, D = imgvf[row_d * n + j] - old_val;
        float L = imgvf[i * n + col_l] - old_val, R = imgvf[i * n + col_r] - old_val;
        float UR = imgvf[row_u * n + col_r] - old_val, DR = imgvf[row_d * n + col_r] - old_val;
        float UL = imgvf[row_u * n + col_l] - old_val, DL = imgvf[row_d * n + col_l] - old_val;
        float UHe = lk_heaviside((U * -vy) * one_over_e), DHe = lk_heaviside((D * vy) * one_over_e);
        float LHe = lk_heaviside((L * -vx) * one_over_e), RHe = lk_heaviside((R * vx) * one_over_e);
        float URHe = lk_heaviside((UR * (vx - vy)) * one_over_e);
        float DRHe = lk_heaviside((DR * (vx + vy)) * one_over_e);
        float ULHe = lk_heaviside((UL * (-vx - vy)) * one_over_e);
        float DLHe = lk_heaviside((DL * (-vx + vy)) * one_over_e);
        new_val = old_val + (LK_MU / LK_LAMBDA) * (UHe * U + DHe * D + LHe * L + RHe * R + URHe * UR +
                                                   DRHe * DR + ULHe * UL + DLHe * DL);
        float vI = img[idx];
        new_val -= (1.0f / LK_LAMBDA) * vI * (new_val - vI);
      }
      // Every thread has read its neighbours (some in the previous virtual block) before
      // that block's new values go in, so each iteration is a pure Jacobi step under any
      // interleaving. (Rodinia has no barrier here: a race on the block boundary.)
      __syncthreads();
      if (vb > 0 && old_idx < m * n) imgvf[old_idx] = buffer[tid];
      if (vb < nblocks - 1) buffer[tid] = new_val;
      else if (idx < m * n) imgvf[idx] = new_val;
      total_diff += fabsf(new_val - old_val);
      old_idx = idx;
      __syncthreads();
    }
    buffer[tid] = total_diff;
    __syncthreads();
    if (tid >= LK_IMGVF_POW2) buffer[tid - LK_IMGVF_POW2] += buffer[tid];
    __syncthreads();
    for (int th = LK_IMGVF_POW2 / 2; th > 0; th /= 2) {
      if (tid < th) buffer[tid] += buffer[tid + th];
      __syncthreads();
    }
    if (tid == 0 && buffer[0] / (float)(m * n) < cutoff) cell_converged = 1;
    __syncthreads();
    ++iterations;
  }
  for (int idx = tid; idx < m * n; idx += LK_IMGVF_THREADS) imgvf_global[idx] = imgvf[idx];
}
