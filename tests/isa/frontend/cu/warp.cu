// Warp shuffles, votes, activemask, match, __syncwarp.
__global__ void warp_ops(const int* in, int* out, unsigned* masks) {
  int t = threadIdx.x;
  int v = in[t];
  int s = v;
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  int u = __shfl_up_sync(0xffffffffu, v, 1);
  int x = __shfl_xor_sync(0xffffffffu, v, 3);
  int b = __shfl_sync(0xffffffffu, v, 0);
  float fv = __shfl_sync(0x0000ffffu, (float)v, t & 7, 8);
  unsigned ballot = __ballot_sync(0xffffffffu, v > 10);
  int all = __all_sync(0xffffffffu, v >= 0);
  int any = __any_sync(0xffffffffu, v == 42);
  unsigned am = 0;
  if (v & 1) am = __activemask();
  __syncwarp();
  unsigned mm = __match_any_sync(0xffffffffu, v & 3);
  int pred;
  unsigned ma = __match_all_sync(0xffffffffu, v & 1, &pred);
  out[t] = s + u + x + b + (int)fv + all + any + pred;
  masks[t] = ballot ^ am ^ mm ^ ma;
}
