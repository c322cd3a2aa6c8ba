// CUDA math library functions (libdevice code inlined by nvcc: polynomials, range
// reduction incl. the Payne-Hanek slow path with carry chains) for the executor tests.
extern "C" __global__ void math_f64(const double* x, double* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  double v = x[t];
  out[6 * t + 0] = sin(v);
  out[6 * t + 1] = cos(v);
  out[6 * t + 2] = exp(v * 1e-3);
  out[6 * t + 3] = log(fabs(v) + 1.0);
  out[6 * t + 4] = pow(fabs(v) * 1e-3 + 0.5, 1.7);
  out[6 * t + 5] = sqrt(fabs(v)) + cbrt(v);
}

extern "C" __global__ void math_f32(const float* x, float* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float v = x[t];
  out[6 * t + 0] = sinf(v);
  out[6 * t + 1] = cosf(v);
  out[6 * t + 2] = expf(v * 1e-3f);
  out[6 * t + 3] = logf(fabsf(v) + 1.0f);
  out[6 * t + 4] = powf(fabsf(v) * 1e-3f + 0.5f, 1.7f);
  out[6 * t + 5] = tanhf(v * 1e-2f) + atan2f(v, 3.0f);
}
