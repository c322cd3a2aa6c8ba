// Two-point angular correlation (shaped like Parboil TPACF's gen_hists): points are unit
// vectors on the sphere. CTA (bx, by) pairs point tile bx (one point per thread, in
// registers) with point tile by (staged in shared memory); tiles below the diagonal
// exit at once. For each pair j > i the thread takes the dot product (the cosine of the
// angular distance), binary-searches the descending bin boundaries held in __constant__
// memory (divergent constant loads) and increments a shared-memory histogram with an
// atomic; the CTA then adds its histogram to the global one with global atomics.
#define TP_BLOCK_MAX 256
#define TP_NBINS 32
__constant__ float binb[TP_NBINS + 1];

extern "C" __global__ void tpacf_hists(const float* __restrict__ px, const float* __restrict__ py,
                                       const float* __restrict__ pz, unsigned* __restrict__ hist) {
  __shared__ float sx[TP_BLOCK_MAX], sy[TP_BLOCK_MAX], sz[TP_BLOCK_MAX];
  __shared__ unsigned s_hist[TP_NBINS];
  if (blockIdx.y < blockIdx.x) return;
  int t = threadIdx.x, bs = blockDim.x;
  int i = blockIdx.x * bs + t;
  int j0 = blockIdx.y * bs;
  sx[t] = px[j0 + t];
  sy[t] = py[j0 + t];
  sz[t] = pz[j0 + t];
  if (t < TP_NBINS) s_hist[t] = 0;
  float xi = px[i], yi = py[i], zi = pz[i];
  __syncthreads();
  for (int k = 0; k < bs; ++k) {
    if (j0 + k <= i) continue;
    float dot = xi * sx[k] + yi * sy[k] + zi * sz[k];
    int lo = 0, hi = TP_NBINS;
    while (hi > lo + 1) {
      int mid = (lo + hi) / 2;
      if (dot >= binb[mid]) hi = mid;
      else lo = mid;
    }
    atomicAdd(&s_hist[lo], 1u);
  }
  __syncthreads();
  if (t < TP_NBINS && s_hist[t] != 0) atomicAdd(&hist[t], s_hist[t]);
}
