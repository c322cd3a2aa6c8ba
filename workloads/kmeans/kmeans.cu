// Cache-sensitive, intra-warp locality: kmeans assignment step. Points are stored
// point-major (features of one point are contiguous), so a warp's loads of feature f are
// strided by nfeat floats (memory divergence) while each thread reuses its own lines
// across the feature loop (intra-warp locality).
extern "C" __global__ void kmeans_assign(int npoints, int nfeat, int nclusters,
                                         const float* __restrict__ points,
                                         const float* __restrict__ centroids,
                                         int* membership) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints) return;
  int best = 0;
  float best_dist = 3.4e38f;
  for (int c = 0; c < nclusters; ++c) {
    float d = 0.f;
    for (int f = 0; f < nfeat; ++f) {
      float diff = points[p * nfeat + f] - centroids[c * nfeat + f];
      d += diff * diff;
    }
    if (d < best_dist) {
      best_dist = d;
      best = c;
    }
  }
  membership[p] = best;
}
