// SIMT control-flow kernels for the functional executor tests: nested divergence that
// must reconverge, threads exiting early, loops with break/continue.

// out[t] = a value that depends on the path taken; mask[t] = __activemask() after every
// branch has reconverged (must be the full set of live lanes).
extern "C" __global__ void nested_divergence(int* out, unsigned* mask) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int x;
  if (t & 1) {
    if ((t & 3) == 1) {
      x = t * 3;
    } else {
      x = t * 5;
      if (t % 7 == 0) x += 100;
    }
  } else {
    if (t % 3 == 0) {
      x = -t;
    } else {
      x = t + 1000;
    }
  }
  mask[t] = __activemask();
  out[t] = x;
}

// Threads >= n leave at once; some others leave in the middle of a loop.
extern "C" __global__ void early_exit(int* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int s = 0;
  for (int i = 0; i < 10; ++i) {
    s += i * t;
    if (t % 5 == 0 && i == 3) {
      out[t] = -s;
      return;
    }
  }
  out[t] = s;
}

// Loops with per-thread trip counts, continue and break; the loop exit reconverges.
extern "C" __global__ void loop_break_continue(int* out, unsigned* mask) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  for (int i = 0; i < t; ++i) {
    if (i % 3 == 0) continue;
    if (s > 50) break;
    s += i;
    int j = 0;
    while (true) {
      if (j * j > i) break;
      ++j;
    }
    s += j;
  }
  mask[t] = __activemask();
  out[t] = s;
}

// Spins until a flag that nobody sets: the instruction limit must stop it.
extern "C" __global__ void spin_forever(volatile int* flag) {
  while (*flag == 0) {
  }
}

// Writes far past the end of its buffer.
extern "C" __global__ void out_of_bounds(int* p, int n) {
  int t = threadIdx.x;
  if (t == 5) p[n + 4096] = 1;
  else p[t] = t;
}

// CTA 0 waits for a flag that CTA 1 sets: needs both CTAs resident at once.
extern "C" __global__ void cta_handshake(volatile int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    while (*flag == 0) {
    }
    out[0] = *flag + 1;
  } else {
    *flag = 41;
  }
}
