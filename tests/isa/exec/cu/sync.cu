// Barrier and shared-memory kernels for the functional executor tests.

// Threads >= live exit before the barriers; the rest reduce through shared memory.
// Exited threads no longer count at __syncthreads (warps 2 and 3 of a 128-thread CTA
// exit completely, warp 1 half).
extern "C" __global__ void barrier_with_exited(const int* in, int* out, int live) {
  __shared__ int buf[128];
  int t = threadIdx.x;
  if (t >= live) return;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  if (t == 0) {
    int s = 0;
    for (int i = 0; i < live; ++i) s += buf[i];
    out[blockIdx.x] = s;
  }
  __syncthreads();
  buf[t] = 0;
}

// Tree reduction in dynamic shared memory.
extern "C" __global__ void shared_reduce(const float* in, float* out, int n) {
  extern __shared__ float sdata[];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float v = 0.0f;
  if (i < n) v += in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[t] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sdata[0];
}

// __syncthreads_count / _and / _or (bar.red).
extern "C" __global__ void barrier_reductions(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  int cnt = __syncthreads_count(v > 10);
  int all = __syncthreads_and(v >= 0);
  int any = __syncthreads_or(v == 42);
  if (t == 0) {
    out[blockIdx.x * 3 + 0] = cnt;
    out[blockIdx.x * 3 + 1] = all;
    out[blockIdx.x * 3 + 2] = any;
  }
}

// Warp 0 and warp 1 wait at different named barriers that each expect two warps.
extern "C" __global__ void barrier_deadlock(int* out) {
  if (threadIdx.x < 32) {
    asm volatile("bar.sync 1, 64;");
  } else {
    asm volatile("bar.sync 2, 64;");
  }
  out[threadIdx.x] = 1;
}
