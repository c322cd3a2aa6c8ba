// CCWS tests (tests/sm/ccws_scheduler_test.cpp): every warp walks its own `lines`
// 128-byte lines (one int per lane per line) `reps` times: intra-warp reuse that a small
// L1D shared by many warps loses. out[tid] = sum over reps and lines of (in[...] ^ rep).
// Regenerate the PTX with
//   /usr/local/cuda/bin/nvcc -ptx -arch=compute_75 -O3 ccws_reuse.cu -o ccws_reuse.ptx
extern "C" __global__ void ccws_reuse(const int* in, int* out, int lines, int reps) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int* base = in + warp * lines * 32 + lane;
  int s = 0;
  for (int r = 0; r < reps; ++r)
    for (int i = 0; i < lines; ++i) s += base[i * 32] ^ r;
  out[tid] = s;
}
