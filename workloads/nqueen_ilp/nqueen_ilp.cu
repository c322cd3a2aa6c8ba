// nqueen with 004 Table 2's NQU shape (issue 16 point 6): CTAs of 96 threads whose
// per-level stack takes 4 x 10 x 96 x 4 = 15360 B of shared memory ("15.4kB"), so one CTA
// fits a 16 KB SM, as in the paper. The kernel is workloads/nqueen's with NQ_BLOCK 96 and
// NQ_MAXD 10 (depth 10 holds n <= 14). Thread t fixes the queens of the first three rows
// from the base-n digits of t and counts the completions with an iterative bitmask
// backtracking search; threads t >= n^3 return at once, so the first CTAs hold all the
// work (004: "TB0 ... dominates the performance").
#define NQ_BLOCK 96
#define NQ_MAXD 10
#include "../nqueen/nqueen.cu"
