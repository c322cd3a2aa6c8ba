// Shared (static and dynamic), constant with initialisers, local arrays, atomics.
__constant__ float kCoef[8] = {0.5f, 1.0f, 1.5f, 2.0f, -1.0f, -2.5f, 3.25f, 100.0f};
__constant__ int kTable[3][2] = {{1, 2}, {3, 4}, {5, 6}};
__constant__ double kScale = 1.25;
__device__ unsigned long long g_counter = 7;
__device__ int g_array[4] = {10, -20, 30, -40};
extern __shared__ float dyn_smem[];

__global__ void reduce(const float* in, float* out, int n) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = (i < n ? in[i] : 0.0f) * kCoef[t & 7] * (float)kScale;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = tile[0];
}

__global__ void dynamic_shared(const float* in, float* out, int n) {
  int t = threadIdx.x;
  dyn_smem[t] = in[t % n];
  __syncthreads();
  out[t] = dyn_smem[blockDim.x - 1 - t] + kTable[t % 3][t & 1];
}

__global__ void local_array(const int* in, int* out, int n) {
  int buf[16];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 16; ++k) buf[k] = in[(t + k) % n];
  int s = 0;
  for (int k = 0; k < 16; ++k) s += buf[(k * 7 + t) & 15];
  out[t] = s;
}

__global__ void atomics(int* ip, unsigned* up, unsigned long long* ullp, float* fp, double* dp,
                        long long* llp) {
  int t = threadIdx.x;
  atomicAdd(ip, t);
  atomicSub(ip + 1, 1);
  atomicMin(ip + 2, -t);
  atomicMax(ip + 3, t);
  atomicInc(up, 100u);
  atomicDec(up + 1, 50u);
  atomicCAS(up + 2, (unsigned)t, (unsigned)t + 1);
  atomicExch(up + 3, (unsigned)t);
  atomicAnd(up + 4, ~(1u << (t & 31)));
  atomicOr(up + 5, 1u << (t & 31));
  atomicXor(up + 6, (unsigned)t);
  atomicAdd(ullp, 1ull);
  atomicCAS(ullp + 1, 0ull, (unsigned long long)t);
  atomicMin(llp, (long long)-t);
  atomicMax((unsigned long long*)(llp + 1), (unsigned long long)t);
  atomicAdd(fp, 0.5f);
  atomicAdd(dp, 0.25);
  atomicAdd(&g_counter, 1ull);
  atomicAdd(&g_array[t & 3], 1);
  __shared__ int sh_count;
  if (t == 0) sh_count = 0;
  __syncthreads();
  atomicAdd(&sh_count, 1);
  __syncthreads();
  if (t == 0) ip[4] = sh_count;
  int old = atomicAdd(ip + 5, 1);  // result used
  ip[6 + (old & 1)] = old;
}

__global__ void vector_access(const float4* in, float4* out, const double2* din, double2* dout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = in[i];
    v.x += v.w;
    out[i] = v;
    double2 d = din[i];
    d.y *= d.x;
    dout[i] = d;
  }
}
