// Inverted-index build, shaped like MARS "Inverted Index" (LAWS thesis Table 2.2, type II:
// L1D hits come mostly from a warp re-reading its own lines). Written for this project.
//
// invindex_map: one thread per document scans the document byte by byte (u8 loads). The
// lanes of a warp walk different documents (about a line or more apart), so one warp load
// touches up to 32 lines, and each lane then re-reads its own line for up to 127 bytes. Every link
// `<a href="urlNNN">` found is written as a (url, doc) pair into the thread's own slot
// region pairs[doc * cap .. doc * cap + cap - 1]; counts[doc] is the number of links.
// invindex_count: one thread per slot adds 1 to url_count[url] for every written pair
// (global atomicAdd: the result is exact in any order).

// The link prefix. '<' occurs only at its start, so on a mismatch the matcher restarts
// at state 1 if the byte is '<' and at 0 otherwise.
__constant__ unsigned char kLinkPrefix[12] = {'<', 'a', ' ', 'h', 'r', 'e',
                                              'f', '=', '"', 'u', 'r', 'l'};
constexpr int kPrefixLen = 12;

extern "C" __global__ void invindex_map(int ndocs, int cap, const unsigned* __restrict__ doc_start,
                                        const unsigned char* __restrict__ text, int2* pairs,
                                        int* counts) {
  int doc = blockIdx.x * blockDim.x + threadIdx.x;
  if (doc >= ndocs) return;
  unsigned begin = doc_start[doc], end = doc_start[doc + 1];
  int2* out = pairs + static_cast<long long>(doc) * cap;
  int state = 0;      // prefix characters matched; kPrefixLen = reading the url number
  int digits = 0;     // digits of the url number read so far
  unsigned url = 0;
  int found = 0;
  for (unsigned i = begin; i < end; ++i) {
    unsigned c = text[i];
    if (state < kPrefixLen) {
      state = c == kLinkPrefix[state] ? state + 1 : (c == '<' ? 1 : 0);
    } else if (c - '0' <= 9u) {
      url = url * 10 + (c - '0');
      ++digits;
    } else {
      if (c == '"' && digits > 0) {
        if (found < cap) out[found] = make_int2(static_cast<int>(url), doc);
        ++found;
      }
      state = c == '<' ? 1 : 0;
      digits = 0;
      url = 0;
    }
  }
  counts[doc] = found;
}

extern "C" __global__ void invindex_count(int ndocs, int cap, const int2* __restrict__ pairs,
                                          const int* __restrict__ counts, int* url_count) {
  int slot = blockIdx.x * blockDim.x + threadIdx.x;
  if (slot >= ndocs * cap) return;
  int doc = slot / cap;
  if (slot - doc * cap < counts[doc]) atomicAdd(&url_count[pairs[slot].x], 1);
}
