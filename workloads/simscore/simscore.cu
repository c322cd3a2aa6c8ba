// Cosine similarity of document pairs, shaped like MARS' Similarity Score (the LAWS
// thesis' type-II: hits mostly intra-warp). Documents are dense feature vectors stored
// document-major (document d's nfeat features contiguous). Thread t = k * ndocs + i
// scores document i against the query document j = k * query_stride (one of nqueries
// documents spread over the collection). A warp's lanes hold 32 consecutive documents i:
// each feature load of i touches a different line per lane (rows nfeat * 4 bytes apart:
// divergent, uncoalesced), and each lane re-reads its own line for 32 consecutive
// features (intra-warp locality); the query row is the same for the whole warp (one
// line per load, shared with the other warps of that query).
// sim = dot(i, j) / (|i| |j|), the three sums accumulated in feature order.
extern "C" __global__ void simscore(const float* __restrict__ docs, int ndocs, int nfeat, int nqueries,
                                    int query_stride, float* __restrict__ sim) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= ndocs * nqueries) return;
  int k = t / ndocs;
  int i = t - k * ndocs;
  int j = k * query_stride;
  const float* a = docs + static_cast<size_t>(i) * nfeat;
  const float* b = docs + static_cast<size_t>(j) * nfeat;
  float dot = 0.f, na = 0.f, nb = 0.f;
  // Unrolled 4x explicitly: nvcc's own unrolling leaves ptxas at 50 registers (2 CTAs of
  // 256 per Fermi SM); this form needs 27 (4 CTAs, the SM's 1024 threads).
#pragma unroll 4
  for (int f = 0; f < nfeat; ++f) {
    float x = a[f], y = b[f];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  sim[t] = dot / (sqrtf(na) * sqrtf(nb));
}
