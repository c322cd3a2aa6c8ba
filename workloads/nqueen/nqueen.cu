// Branch-heavy, low TLP, heavy shared memory per CTA: n-queens. Thread t fixes the queens
// of the first three rows from the base-n digits of t and counts the completions with an
// iterative bitmask backtracking search whose per-level stack lives in shared memory
// (16 KiB per CTA of 64 threads).
#ifndef NQ_BLOCK  // a variant may set it first (workloads/*_ilp)
#define NQ_BLOCK 64
#endif
#ifndef NQ_MAXD  // a variant may set it first (workloads/*_ilp)
#define NQ_MAXD 16
#endif

__device__ bool place(unsigned all, unsigned col, unsigned& cols, unsigned& ld,
                      unsigned& rd) {
  unsigned bit = 1u << col;
  if ((cols | ld | rd) & bit) return false;
  cols |= bit;
  ld = ((ld | bit) << 1) & all;
  rd = (rd | bit) >> 1;
  return true;
}

extern "C" __global__ void nqueen(int n, int nprefix, unsigned* counts) {
  __shared__ unsigned st_cols[NQ_MAXD][NQ_BLOCK];
  __shared__ unsigned st_ld[NQ_MAXD][NQ_BLOCK];
  __shared__ unsigned st_rd[NQ_MAXD][NQ_BLOCK];
  __shared__ unsigned st_av[NQ_MAXD][NQ_BLOCK];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nprefix) return;
  int me = threadIdx.x;
  unsigned all = (1u << n) - 1;
  unsigned cols = 0, ld = 0, rd = 0;
  int digits = t;
  bool ok = true;
  for (int r = 0; r < 3 && ok; ++r) {
    ok = place(all, digits % n, cols, ld, rd);
    digits /= n;
  }
  unsigned count = 0;
  int remaining = n - 3;
  if (ok) {
    int d = 0;
    st_cols[0][me] = cols;
    st_ld[0][me] = ld;
    st_rd[0][me] = rd;
    st_av[0][me] = all & ~(cols | ld | rd);
    while (d >= 0) {
      unsigned av = st_av[d][me];
      if (av == 0) {
        --d;
        continue;
      }
      unsigned bit = av & (0u - av);
      st_av[d][me] = av ^ bit;
      if (d + 1 == remaining) {
        ++count;
        continue;
      }
      unsigned nc = st_cols[d][me] | bit;
      unsigned nl = ((st_ld[d][me] | bit) << 1) & all;
      unsigned nr = (st_rd[d][me] | bit) >> 1;
      ++d;
      st_cols[d][me] = nc;
      st_ld[d][me] = nl;
      st_rd[d][me] = nr;
      st_av[d][me] = all & ~(nc | nl | nr);
    }
  }
  counts[t] = count;
}
