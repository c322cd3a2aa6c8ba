// Irregular: one BFS level over a CSR graph. Launched once per level (the spec's
// "launches" list); a vertex on the frontier (level == cur) visits its neighbours and
// labels unvisited ones cur+1. Races between writers store the same value, so the
// result is deterministic.
extern "C" __global__ void bfs_level(int n, int cur, const int* __restrict__ row_ptr,
                                     const int* __restrict__ cols, int* level,
                                     int* changed) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || level[v] != cur) return;
  for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
    int u = cols[e];
    if (level[u] < 0) {
      level[u] = cur + 1;
      changed[cur] = 1;
    }
  }
}
