// B+tree search (shaped like Rodinia b+tree's findK): one CTA per query key, one thread
// per key slot of a node (order 64). Nodes are stored as an array of records of
// 2*(ORDER+1) ints: keys[0..ORDER] (unused slots INT_MAX) then child/record indices.
// Each level the CTA stages the current node's keys in shared memory; the thread whose
// key range [keys[t], keys[t+1]) holds the query publishes the child index, and the
// whole CTA follows it (data-dependent loads, a barrier per level). At the leaf, the
// thread holding an equal key fetches the record. Queries that miss leave ans at -1.
#define BT_ORDER 64
#define BT_NODE_INTS (2 * (BT_ORDER + 1))

extern "C" __global__ void btree_findk(int height, const int* __restrict__ knodes, int knodes_elem,
                                       const int* __restrict__ records, const int* __restrict__ keys,
                                       int* __restrict__ ans) {
  __shared__ int s_keys[BT_ORDER + 1];
  __shared__ int s_next;
  int thid = threadIdx.x, bid = blockIdx.x;
  int key = keys[bid];
  int cur = 0;  // the root
  for (int level = 0; level < height; ++level) {
    const int* node = knodes + cur * BT_NODE_INTS;
    s_keys[thid] = node[thid];
    if (thid == 0) s_keys[BT_ORDER] = node[BT_ORDER];
    __syncthreads();
    if (s_keys[thid] <= key && s_keys[thid + 1] > key) {
      int child = node[BT_ORDER + 1 + thid];
      if (child < knodes_elem) s_next = child;
    }
    __syncthreads();
    cur = s_next;
    __syncthreads();
  }
  const int* leaf = knodes + cur * BT_NODE_INTS;
  if (leaf[thid] == key) ans[bid] = records[leaf[BT_ORDER + 1 + thid]];
}
