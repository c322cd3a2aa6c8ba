// Monte Carlo pricing of European call options (shaped like the CUDA SDK's MonteCarlo,
// one block per option). Every option reads the same array of pre-generated standard
// normal samples in the same order, so CTAs on an SM re-read the lines other CTAs
// brought into the L1D. Each thread strides over the paths, pricing
// max(S * exp((r - v^2/2) T + v sqrt(T) z) - X, 0) and accumulating the sum and the sum
// of squares; a shared-memory tree reduces them and thread 0 writes the discounted
// expected value and the 95 % confidence half-width.
#define MC_THREADS 256

extern "C" __global__ void montecarlo(float* __restrict__ value, float* __restrict__ confidence,
                                      const float* __restrict__ opt_s, const float* __restrict__ opt_x,
                                      const float* __restrict__ opt_t, const float* __restrict__ opt_r,
                                      const float* __restrict__ opt_v, const float* __restrict__ samples,
                                      int paths) {
  __shared__ float s_sum[MC_THREADS];
  __shared__ float s_sum2[MC_THREADS];
  const int opt = blockIdx.x;
  const float s = opt_s[opt], x = opt_x[opt], t = opt_t[opt], r = opt_r[opt], v = opt_v[opt];
  const float drift = (r - 0.5f * v * v) * t;
  const float vol = v * sqrtf(t);
  float sum = 0.f, sum2 = 0.f;
  for (int i = threadIdx.x; i < paths; i += blockDim.x) {
    float z = samples[i];
    float payoff = fmaxf(s * expf(drift + vol * z) - x, 0.f);
    sum += payoff;
    sum2 += payoff * payoff;
  }
  s_sum[threadIdx.x] = sum;
  s_sum2[threadIdx.x] = sum2;
  __syncthreads();
  for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
    if (threadIdx.x < h) {
      s_sum[threadIdx.x] += s_sum[threadIdx.x + h];
      s_sum2[threadIdx.x] += s_sum2[threadIdx.x + h];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    float n = (float)paths;
    float total = s_sum[0], total2 = s_sum2[0];
    float mean = total / n;
    float var = fmaxf((total2 - total * mean) / (n - 1.f), 0.f);
    float disc = expf(-r * t);
    value[opt] = disc * mean;
    confidence[opt] = disc * 1.96f * sqrtf(var / n);
  }
}
