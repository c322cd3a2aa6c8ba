// A small ResNet-like stack (shaped like Tango's ResNet): fp32, one image, channel-major
// activations act[c][y][x]. Four kernels launched many times with different arguments:
//   resnet_conv3x3    3x3 convolution, stride 1, zero padding 1, one thread per output
//                     (co, y, x): bias + fma over ci, ky, kx (taps outside the image
//                     skipped), optional ReLU; weights[w_off + ((co*cin + ci)*3 + ky)*3 + kx],
//                     bias[b_off + co] (all layers in one weight and one bias buffer);
//   resnet_add_relu   the residual add out = max(a + b, 0);
//   resnet_maxpool2x2 2x2 max pooling, stride 2;
//   resnet_fc         fully connected layer: one CTA of 64 threads per output, thread t
//                     sums in[f] * w[o*k + f] for f = t, t + 64, ... (fma), a shared-memory
//                     tree adds [t + h] into [t], then bias (+ ReLU).
#define RN_FC_THREADS 64

extern "C" __global__ void resnet_conv3x3(const float* in, const float* weights, const float* bias,
                                          float* out, int cin, int cout, int h, int w, int w_off,
                                          int b_off, int relu) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  const int hw = h * w;
  if (idx >= cout * hw) return;
  const int co = idx / hw, y = (idx % hw) / w, x = idx % w;
  float acc = bias[b_off + co];
  for (int ci = 0; ci < cin; ++ci) {
    const float* ip = in + ci * hw;
    const float* wp = weights + w_off + (co * cin + ci) * 9;
#pragma unroll
    for (int ky = 0; ky < 3; ++ky) {
      const int yy = y + ky - 1;
      if (yy < 0 || yy >= h) continue;
#pragma unroll
      for (int kx = 0; kx < 3; ++kx) {
        const int xx = x + kx - 1;
        if (xx < 0 || xx >= w) continue;
        acc = fmaf(wp[ky * 3 + kx], ip[yy * w + xx], acc);
      }
    }
  }
  out[idx] = relu ? fmaxf(acc, 0.f) : acc;
}

extern "C" __global__ void resnet_add_relu(const float* a, const float* b, float* out, int n) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) out[idx] = fmaxf(a[idx] + b[idx], 0.f);
}

extern "C" __global__ void resnet_maxpool2x2(const float* in, float* out, int c, int h, int w) {
  const int oh = h / 2, ow = w / 2;
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= c * oh * ow) return;
  const int ch = idx / (oh * ow), y = (idx % (oh * ow)) / ow, x = idx % ow;
  const float* ip = in + ch * h * w + (2 * y) * w + 2 * x;
  out[idx] = fmaxf(fmaxf(ip[0], ip[1]), fmaxf(ip[w], ip[w + 1]));
}

extern "C" __global__ void resnet_fc(const float* in, const float* weights, const float* bias,
                                     float* out, int k, int w_off, int b_off, int relu) {
  __shared__ float partial[RN_FC_THREADS];
  const int o = blockIdx.x, t = threadIdx.x;
  const float* wp = weights + w_off + o * k;
  float sum = 0.f;
  for (int f = t; f < k; f += RN_FC_THREADS) sum = fmaf(in[f], wp[f], sum);
  partial[t] = sum;
  __syncthreads();
  for (int half = RN_FC_THREADS / 2; half > 0; half /= 2) {
    if (t < half) partial[t] += partial[t + half];
    __syncthreads();
  }
  if (t == 0) {
    const float v = partial[0] + bias[b_off + o];
    out[o] = relu ? fmaxf(v, 0.f) : v;
  }
}
