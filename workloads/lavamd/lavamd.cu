// Particle interactions over neighbouring boxes (shaped like Rodinia lavaMD's
// kernel_gpu_cuda): space is boxes1d^3 boxes of par particles each; one CTA per home box.
// The CTA stages its home box's particles in shared memory, then for the home box and
// each of its up to 26 neighbours stages that box's positions and charges in shared
// memory, and every thread (one home particle; a CTA of fewer threads than particles
// loops) adds the pair potential and force of every particle of the box: a dot product,
// expf and a dozen multiply-adds per pair, all operands from shared memory, the
// accumulator in fA (global, read once per box). Compute-bound.
// Rodinia's fp is double; here float, because the GTX480 runs FP64 at 1/8 rate on its SFU
// and the small input must stay short. Each thread sums in a fixed order (boxes, then
// particles), so the result does not depend on the interleaving.
#define LV_MAX_PAR 100

struct FourVector {
  float v, x, y, z;
};

extern "C" __global__ void lavamd_forces(const int* __restrict__ box_offset, const int* __restrict__ box_nn,
                                         const int* __restrict__ box_nei, const FourVector* __restrict__ rv,
                                         const float* __restrict__ qv, FourVector* __restrict__ fv, int par,
                                         float alpha) {
  __shared__ FourVector rA_shared[LV_MAX_PAR];
  __shared__ FourVector rB_shared[LV_MAX_PAR];
  __shared__ float qB_shared[LV_MAX_PAR];
  int bx = blockIdx.x, tx = threadIdx.x, nthreads = blockDim.x;
  float a2 = 2.0f * alpha * alpha;
  int first_i = box_offset[bx];
  const FourVector* rA = rv + first_i;
  FourVector* fA = fv + first_i;
  for (int w = tx; w < par; w += nthreads) rA_shared[w] = rA[w];
  __syncthreads();

  int nn = box_nn[bx];
  for (int k = 0; k < 1 + nn; ++k) {
    int pointer = k == 0 ? bx : box_nei[bx * 26 + k - 1];  // home box first, then neighbours
    int first_j = box_offset[pointer];
    for (int w = tx; w < par; w += nthreads) {
      rB_shared[w] = rv[first_j + w];
      qB_shared[w] = qv[first_j + w];
    }
    __syncthreads();
    for (int w = tx; w < par; w += nthreads) {
      FourVector a = rA_shared[w];
      FourVector acc = fA[w];
      for (int j = 0; j < par; ++j) {
        FourVector b = rB_shared[j];
        float r2 = a.v + b.v - (a.x * b.x + a.y * b.y + a.z * b.z);
        float u2 = a2 * r2;
        float vij = expf(-u2);
        float fs = 2.0f * vij;
        float fxij = fs * (a.x - b.x), fyij = fs * (a.y - b.y), fzij = fs * (a.z - b.z);
        float q = qB_shared[j];
        acc.v += q * vij;
        acc.x += q * fxij;
        acc.y += q * fyij;
        acc.z += q * fzij;
      }
      fA[w] = acc;
    }
    __syncthreads();  // before the next box overwrites rB_shared
  }
}
