// Uncoalesced access: thread i reads element (i * stride) mod n, so consecutive lanes
// touch different cache lines (memory divergence), then writes coalesced.
extern "C" __global__ void strided_gather(int n, int stride, const unsigned* __restrict__ in,
                                          unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long j = ((long long)i * stride) % n;
  unsigned v = in[j];
  out[i] = v * 2654435761u + (unsigned)i;
}
