// Constant memory: 9-tap 1D convolution whose coefficients are an initialised
// __constant__ array (uniform across the warp), with clamped borders.
__constant__ float kTaps[9] = {0.0125f, 0.05f, 0.1f, 0.2f, 0.275f, 0.2f, 0.1f, 0.05f, 0.0125f};

extern "C" __global__ void conv1d(int n, float gain, const float* __restrict__ in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
#pragma unroll
  for (int k = 0; k < 9; ++k) {
    int j = min(max(i + k - 4, 0), n - 1);
    acc += kTaps[k] * in[j];
  }
  out[i] = gain * acc;
}
