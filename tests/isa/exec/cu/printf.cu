// Device printf and assert for the executor tests.
#include <cassert>
#include <cstdio>

extern "C" __global__ void hello(int base, float f, const char* unused) {
  int t = threadIdx.x;
  if (t < 3) printf("t=%d v=%lld f=%.2f hex=%x %s|\n", t, (long long)base * t, f * t, 255 + t, t == 1 ? "one" : "other");
}

extern "C" __global__ void check(const int* v) {
  assert(v[threadIdx.x] >= 0);
}

// Device heap: each thread allocates, fills and frees a small array.
extern "C" __global__ void heap(int* out) {
  int t = threadIdx.x;
  int* p = (int*)malloc((t + 1) * sizeof(int));
  for (int i = 0; i <= t; ++i) p[i] = i * t;
  int s = 0;
  for (int i = 0; i <= t; ++i) s += p[i];
  out[t] = s;
  free(p);
}
