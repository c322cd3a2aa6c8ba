// Math library functions: approximate and IEEE variants (single and double precision).
__global__ void math_f32(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  out[i] = sqrtf(x) + expf(x) + sinf(x) + cosf(x) + logf(x) + __fdividef(x, 3.0f) + rsqrtf(x) +
           tanhf(x) + __expf(x) + __sinf(x) + __cosf(x) + __logf(x) + exp2f(x) + log2f(x) + powf(x, 1.7f) +
           __powf(x, 0.5f) + 1.0f / x + atan2f(x, 1.0f) + erff(x);
}
__global__ void math_f64(const double* in, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = in[i];
  out[i] = sqrt(x) + exp(x) + sin(x) + log(x) + 1.0 / x + rsqrt(x) + pow(x, 2.5);
}
