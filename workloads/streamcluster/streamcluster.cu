// Streamcluster gain evaluation (shaped like Rodinia streamcluster's pgain kernel): for a
// candidate centre x, one thread per point computes the weighted squared distance from
// its point to x (coordinates stored coordinate-major, coord[d * npoints + p], so the
// point loads coalesce, while every thread reads the same candidate coordinates), and
// compares it with the point's current cost. A point that would switch sets its flag and
// adds the saving to its own row of work_mem at column k; otherwise the loss is added at
// the column of its current centre (center_table[assign[p]]). One launch per candidate:
// the points are re-read by every launch, and work_mem rows accumulate over launches.
// The specs launch CTAs of 512 threads (Rodinia's THREADS_PER_BLOCK); __maxnreg__ keeps
// ptxas (sm_75, which would take 60) at 32 registers, so two such CTAs fit the 32768
// registers of a Fermi SM.
extern "C" __global__ void __maxnreg__(32) sc_pgain(const float* __restrict__ coord, const float* __restrict__ weight,
                                    const float* __restrict__ cost, const int* __restrict__ assign,
                                    const int* __restrict__ center_table, float* __restrict__ work_mem,
                                    unsigned char* __restrict__ switch_flags, int npoints, int dim,
                                    int x, int cand, int k) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints) return;
  float dist = 0.f;
  for (int d = 0; d < dim; ++d) {
    float diff = coord[d * npoints + p] - coord[d * npoints + x];
    dist += diff * diff;
  }
  float x_cost = dist * weight[p];
  float current = cost[p];
  float* lower = work_mem + (size_t)p * (k + 1);
  if (x_cost < current) {
    switch_flags[(size_t)cand * npoints + p] = 1;
    lower[k] += x_cost - current;
  } else {
    lower[center_table[assign[p]]] += current - x_cost;
  }
}
