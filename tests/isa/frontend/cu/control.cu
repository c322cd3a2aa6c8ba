// Divergent branches, nested divergence, loops with break/continue, early exit.
__global__ void nested(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;  // early exit
  int v = in[i];
  int acc = 0;
  if (v & 1) {
    if (v & 2) acc = v * 3;
    else acc = v - 7;
  } else {
    if (v & 4) {
      for (int k = 0; k < (v & 15); ++k) {
        if (k == 5) break;
        if (k & 1) continue;
        acc += k * v;
      }
    } else {
      acc = -v;
    }
  }
  int j = 0;
  while (acc > 100 && j < 32) {
    acc -= 17;
    ++j;
    if (in[(i + j) % n] == 0) break;
  }
  switch (v % 4) {
    case 0: acc += 1; break;
    case 1: acc *= 2; break;
    case 2: acc ^= 0x55; break;
    default: acc = acc / 3; break;
  }
  out[i] = acc;
}

__global__ void loop_exit(int* out, int n) {
  int i = threadIdx.x;
  for (int k = 0;; ++k) {
    if (k * i > n) {
      out[i] = k;
      return;
    }
    if (k > 1000) break;
  }
  out[i] = -1;
}
