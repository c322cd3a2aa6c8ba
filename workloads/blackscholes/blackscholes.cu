// Black-Scholes option pricing (shaped like the CUDA SDK's BlackScholes): every option is
// priced independently with fp32 logf/expf/sqrtf, divisions and the Abramowitz-Stegun
// polynomial approximation of the cumulative normal distribution; a grid-stride loop
// covers more options than threads. 3 streamed loads and 2 stores per option.
__device__ __forceinline__ float bs_cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
              A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267794f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float cnd = RSQRT2PI * expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  if (d > 0) cnd = 1.0f - cnd;
  return cnd;
}

extern "C" __global__ void black_scholes(float* __restrict__ call, float* __restrict__ put,
                                         const float* __restrict__ price, const float* __restrict__ strike,
                                         const float* __restrict__ years, float riskfree, float volatility,
                                         int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float s = price[i], x = strike[i], t = years[i];
    float sqrt_t = sqrtf(t);
    float d1 = (logf(s / x) + (riskfree + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
    float d2 = d1 - volatility * sqrt_t;
    float cnd1 = bs_cnd(d1), cnd2 = bs_cnd(d2);
    float exp_rt = expf(-riskfree * t);
    call[i] = s * cnd1 - x * exp_rt * cnd2;
    put[i] = x * exp_rt * (1.0f - cnd2) - s * (1.0f - cnd1);
  }
}
