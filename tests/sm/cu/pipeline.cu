// Tiny kernels for the SM pipeline tests (tests/sm). Regenerate the PTX with
//   /usr/local/cuda/bin/nvcc -ptx -arch=compute_75 -O3 pipeline.cu -o pipeline.ptx

// A chain of dependent integer ALU operations: each needs the previous result.
extern "C" __global__ void alu_chain(int* out, int a) {
  int x = threadIdx.x;
  x = x * a;
  x = x ^ a;
  x = x + 7;
  x = x * a;
  x = x ^ 12345;
  x = x + a;
  x = x * a;
  x = x ^ a;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// Every thread adds its id to a slot after a barrier; divergent branch on the lane.
extern "C" __global__ void barrier_diverge(int* out, int n) {
  __shared__ int buf[256];
  int t = threadIdx.x;
  buf[t] = t;
  __syncthreads();
  int v = buf[(t + 1) % blockDim.x];
  if (t & 1) v = v * 3;
  else v = v + n;
  out[blockIdx.x * blockDim.x + t] = v;
}

// A loop: taken backward branches refetch from the loop head.
extern "C" __global__ void loop_sum(int* out, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += i ^ threadIdx.x;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Independent SP and SFU work interleaved (dual-issue candidates: an SFU op next to an
// independent integer op).
extern "C" __global__ void dual_issue(float* fout, int* iout, float a, int b) {
  int t = threadIdx.x;
  float x = a * t;
  float s = __sinf(x);
  int i = b ^ t;
  float c = __cosf(x);
  int j = i + b;
  fout[t] = s + c;
  iout[t] = j;
}
