// Quasirandom numbers (shaped like the CUDA SDK's quasirandomGenerator): qrng_generate
// writes points of a 3-dimensional Niederreiter base-2 sequence, one dimension per
// threadIdx.y: point index `seed + pos` XORs the direction numbers (the __constant__
// table, spec "symbols") of its set bits, then int -> float in (0, 1]. Launch k writes
// points [seed, seed + n) of every dimension into out[dim * stride + seed + pos].
// qrng_inverse_cnd maps uniform samples to standard normals with Moro's inverse CND
// (rational function in the body, __logf-based Chebyshev series in the tails), over
// [offset, offset + path_n), grid-stride.
#define QRNG_DIMENSIONS 3
#define QRNG_RESOLUTION 31
#define INT_SCALE (1.0f / (float)0x80000001U)

__constant__ unsigned int qrng_table[QRNG_DIMENSIONS][QRNG_RESOLUTION];

extern "C" __global__ void qrng_generate(float* out, unsigned int seed, unsigned int n,
                                         unsigned int stride) {
  const unsigned int* dim_base = &qrng_table[threadIdx.y][0];
  const unsigned int tid = __umul24(blockDim.x, blockIdx.x) + threadIdx.x;
  const unsigned int thread_n = __umul24(blockDim.x, gridDim.x);
  float* dim_out = out + threadIdx.y * stride + seed;
  for (unsigned int pos = tid; pos < n; pos += thread_n) {
    unsigned int result = 0;
    unsigned int data = seed + pos;
    for (int bit = 0; bit < QRNG_RESOLUTION; ++bit, data >>= 1)
      if (data & 1) result ^= dim_base[bit];
    dim_out[pos] = (float)(result + 1) * INT_SCALE;
  }
}

__device__ inline float moro_inv_cnd(float p) {
  const float a1 = 2.50662823884f, a2 = -18.61500062529f, a3 = 41.39119773534f,
              a4 = -25.44106049637f;
  const float b1 = -8.4735109309f, b2 = 23.08336743743f, b3 = -21.06224101826f,
              b4 = 3.13082909833f;
  const float c1 = 0.337475482272615f, c2 = 0.976169019091719f, c3 = 0.160797971491821f,
              c4 = 2.76438810333863E-02f, c5 = 3.8405729373609E-03f, c6 = 3.951896511919E-04f,
              c7 = 3.21767881768E-05f, c8 = 2.888167364E-07f, c9 = 3.960315187E-07f;
  float y = p - 0.5f, z;
  if (fabsf(y) < 0.42f) {
    z = y * y;
    z = y * (((a4 * z + a3) * z + a2) * z + a1) / ((((b4 * z + b3) * z + b2) * z + b1) * z + 1.0f);
  } else {
    if (y > 0)
      z = __logf(-__logf(1.0f - p));
    else
      z = __logf(-__logf(p));
    z = c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * (c6 + z * (c7 + z * (c8 + z * c9)))))));
    if (y < 0) z = -z;
  }
  return z;
}

extern "C" __global__ void qrng_inverse_cnd(float* out, const float* in, unsigned int offset,
                                            unsigned int path_n) {
  const unsigned int tid = __umul24(blockDim.x, blockIdx.x) + threadIdx.x;
  const unsigned int thread_n = __umul24(blockDim.x, gridDim.x);
  for (unsigned int pos = tid; pos < path_n; pos += thread_n)
    out[offset + pos] = moro_inv_cnd(in[offset + pos]);
}
