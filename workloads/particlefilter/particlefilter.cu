// Particle-filter likelihood (shaped like Rodinia particlefilter's likelihood_kernel and
// normalize_weights_kernel): each particle moves by its (precomputed) noise, then gathers
// the frame's pixels at the object's disk offsets around its rounded position
// (data-dependent, scattered u8 loads), scores them against foreground/background
// intensities and weights itself by expf of the mean score. A shared-memory tree reduces
// each CTA's weights to one partial sum; pf_normalize sums the partials and divides.
#define PF_BLOCK 256

extern "C" __global__ void pf_likelihood(float* __restrict__ array_x, float* __restrict__ array_y,
                                         const float* __restrict__ noise_x, const float* __restrict__ noise_y,
                                         const int* __restrict__ objxy, int count_ones,
                                         const unsigned char* __restrict__ frame, int isz_x, int isz_y,
                                         float* __restrict__ weights, float* __restrict__ partial_sums,
                                         int nparticles) {
  __shared__ float buffer[PF_BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float w = 0.f;
  if (i < nparticles) {
    float x = array_x[i] + 1.0f + 5.0f * noise_x[i];
    float y = array_y[i] - 2.0f + 2.0f * noise_y[i];
    array_x[i] = x;
    array_y[i] = y;
    int rx = __float2int_rd(x + 0.5f), ry = __float2int_rd(y + 0.5f);
    int max_size = isz_x * isz_y;
    float sum = 0.f;
    for (int k = 0; k < count_ones; ++k) {
      int ind_x = rx + objxy[k * 2 + 1];
      int ind_y = ry + objxy[k * 2];
      int ind = abs(ind_x * isz_y + ind_y);
      if (ind >= max_size) ind = 0;
      float v = frame[ind];
      sum += ((v - 100.f) * (v - 100.f) - (v - 140.f) * (v - 140.f)) / 50.f;
    }
    float likelihood = sum / count_ones;
    w = (1.0f / nparticles) * expf(likelihood);
    weights[i] = w;
  }
  buffer[threadIdx.x] = w;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buffer[threadIdx.x] += buffer[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial_sums[blockIdx.x] = buffer[0];
}

extern "C" __global__ void pf_normalize(float* __restrict__ weights, const float* __restrict__ partial_sums,
                                        int nblocks, int nparticles) {
  __shared__ float sum_weights;
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int b = 0; b < nblocks; ++b) s += partial_sums[b];
    sum_weights = s;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nparticles) weights[i] = weights[i] / sum_weights;
}
