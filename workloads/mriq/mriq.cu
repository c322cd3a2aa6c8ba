// Compute-bound: MRI-Q-like. For every voxel, sum over k-space samples of
// phi * (cos, sin)(2*pi*(k . x)). Uses the SFU (__sinf/__cosf).
extern "C" __global__ void mriq(int nvox, int nk, const float* __restrict__ kx,
                                const float* __restrict__ ky, const float* __restrict__ kz,
                                const float* __restrict__ phi, const float* __restrict__ x,
                                const float* __restrict__ y, const float* __restrict__ z,
                                float* qr, float* qi) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nvox) return;
  float px = x[v], py = y[v], pz = z[v];
  float sr = 0.f, si = 0.f;
  for (int k = 0; k < nk; ++k) {
    float arg = 6.2831853f * (kx[k] * px + ky[k] * py + kz[k] * pz);
    sr += phi[k] * __cosf(arg);
    si += phi[k] * __sinf(arg);
  }
  qr[v] = sr;
  qi[v] = si;
}
