// MUMmer-like exact matching of short reads against a reference (shaped like Rodinia's
// mummergpu kernel): the reference's suffix tree is an array of 32-byte nodes
// (child[A,C,G,T], edge start and length into the reference string, the suffix a leaf
// ends, padding); one thread takes one read and, for every start position that leaves at
// least min_match characters, walks the tree from the root as far as the read matches.
// Each step is a dependent load of a child pointer in a node far from the last one, then
// the edge's characters from the reference: pointer chasing, divergent (every lane walks
// its own path and stops at its own depth) and memory-bound. mummergpu continues from the
// previous start through suffix links; this walk restarts at the root, so every position
// repeats the chase. It writes per position the matched length and the node reached.
#define MM_NODE_INTS 8
#define MM_START 4
#define MM_LEN 5

extern "C" __global__ void mummer_match(const int* __restrict__ nodes, const unsigned char* __restrict__ ref,
                                        const unsigned char* __restrict__ reads, int nreads, int read_len,
                                        int min_match, int* __restrict__ match_len,
                                        int* __restrict__ match_node) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nreads) return;
  const unsigned char* read = reads + (long)r * read_len;
  int npos = read_len - min_match + 1;
  for (int qs = 0; qs < npos; ++qs) {
    int node = 0, matched = 0;
    while (qs + matched < read_len) {
      int child = nodes[node * MM_NODE_INTS + read[qs + matched]];
      if (child < 0) break;
      int start = nodes[child * MM_NODE_INTS + MM_START];
      int len = nodes[child * MM_NODE_INTS + MM_LEN];
      // The edge's first character is the one the child was chosen by.
      int k = 1;
      while (k < len && qs + matched + k < read_len && ref[start + k] == read[qs + matched + k]) ++k;
      matched += k;
      node = child;
      if (k < len) break;  // a mismatch (or the read's end) inside the edge
    }
    match_len[r * npos + qs] = matched;
    match_node[r * npos + qs] = node;
  }
}
