// A kernel whose parameters cover the launch-argument conversions: u8, s16, int, unsigned
// long long, float, double and a pointer. It stores them so tests can read them back.
extern "C" __global__ void store_params(unsigned char a, short b, int c, unsigned long long d,
                                        float e, double f, unsigned long long* out) {
  if (threadIdx.x != 0) return;
  out[0] = a;
  out[1] = (unsigned long long)(long long)b;
  out[2] = (unsigned long long)(long long)c;
  out[3] = d;
  out[4] = __float_as_uint(e);
  out[5] = __double_as_longlong(f);
}

__constant__ int kTable[4];
__device__ int gCounter;

// Adds the constant table to `out` and counts calls in a __device__ variable.
extern "C" __global__ void use_symbols(int* out) {
  int i = threadIdx.x;
  if (i < 4) out[i] += kTable[i];
  if (i == 0) atomicAdd(&gCounter, 1);
}
