// Workloads of the thesis' MSHR chapter (001 Table 5.2, issue 17 point 4) that the suite
// lacked: fwt (SDK fastWalshTransform, Table 5.2's FWT) and sortnet (SDK sortingNetworks,
// Table 5.2's SN). Both references repeat the kernels' operations in the kernels' order (a
// butterfly is one add and one subtract, a compare-exchange only moves values), so outputs
// are exact; each generator also checks its reference against the algorithm's definition.
// Compiled with -ffp-contract=off (workloads/CMakeLists.txt).
#include <algorithm>
#include <cmath>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

// --- fwt: dyadic convolution by three Walsh-Hadamard transforms ----------------------------
constexpr std::size_t kFwtChunk = 1024;  // fwt.cu CHUNK: the stages done in shared memory

// The in-place WHT as fwt.cu runs it: half-sizes from n/2 down to 1 (fwt_global's pairs of
// stages, then fwt_shared's ten), each butterfly (a + b, a - b).
void fwt_reference(std::vector<float>& d) {
  const std::size_t n = d.size();
  for (std::size_t half = n / 2; half >= 1; half /= 2)
    for (std::size_t j = 0; j < n / 2; ++j) {
      const std::size_t lo = j & (half - 1), p = ((j - lo) << 1) + lo;
      const float a = d[p], b = d[p + half];
      d[p] = a + b;
      d[p + half] = a - b;
    }
}

void gen_fwt(Size size, const OutDir& out) {
  // Table 5.2: 1024 CTAs of 256 = 2^20 elements at four per thread; medium keeps 2^18 (256
  // CTAs per launch) for the host-time budget of the MSHR study.
  const std::size_t n = std::size_t{1} << by_size(size, 14, 18);
  // fwt_global takes the stages above the chunk two at a time: their count must be even.
  if ((static_cast<int>(std::log2(static_cast<double>(n / kFwtChunk))) & 1) != 0)
    throw GenerateError("fwt: log2(n / 1024) must be even (fwt_global does two stages per launch)");
  const auto data = random_f32(7501, n, -1, 1), kern = random_f32(7502, n, -1, 1);
  std::vector<float> d = data, k = kern;
  fwt_reference(d);
  fwt_reference(k);
  const float scale = 1.0f / static_cast<float>(n);  // fwt_modulate's argument (exact)
  for (std::size_t i = 0; i < n; ++i) d[i] = d[i] * k[i] * scale;
  fwt_reference(d);
  // The definition: (data (*) kern)[i] = sum_j data[j] * kern[i xor j], checked on a few i.
  for (std::size_t i = 0; i < n; i += n / 16 + 1) {
    double direct = 0, mag = 0;
    for (std::size_t j = 0; j < n; ++j) {
      direct += static_cast<double>(data[j]) * kern[i ^ j];
      mag += std::fabs(static_cast<double>(data[j]) * kern[i ^ j]);
    }
    if (std::fabs(direct - d[i]) > 1e-4 * mag + 1e-6)
      throw GenerateError("fwt: reference convolution differs from the direct sum at " + std::to_string(i));
  }
  out.write("data.bin", data);
  out.write("kern.bin", kern);
  out.write("data_ref.bin", d);
  out.write("kern_ref.bin", k);
}

// --- sortnet: bitonic sorting network on (key, value) pairs ---------------------------------
constexpr std::size_t kSnChunk = 1024;  // sortnet.cu CHUNK

void cmp_swap(std::vector<uint32_t>& k, std::vector<uint32_t>& v, std::size_t a, std::size_t b, bool up) {
  if ((k[a] > k[b]) == up) {
    std::swap(k[a], k[b]);
    std::swap(v[a], v[b]);
  }
}

// The stages of sizes 2 .. max_size over [first, first + len), directions by position
// relative to `origin`, each stage's compare-exchanges disjoint (their order is free).
void bitonic(std::vector<uint32_t>& k, std::vector<uint32_t>& v, std::size_t first, std::size_t len,
             std::size_t origin) {
  for (std::size_t size = 2; size <= len; size <<= 1)
    for (std::size_t stride = size / 2; stride > 0; stride /= 2)
      for (std::size_t i = 0; i < len / 2; ++i) {
        const std::size_t p = first + 2 * i - (i & (stride - 1));
        cmp_swap(k, v, p, p + stride, ((p - origin) & size) == 0);
      }
}

void gen_sortnet(Size size, const OutDir& out) {
  // Table 5.2: 256 CTAs of 512 = 2^18 pairs, 1024 pairs per CTA; medium keeps 2^16 (64 CTAs,
  // 29 launches) for the host-time budget of the MSHR study.
  const std::size_t n = std::size_t{1} << by_size(size, 12, 16);
  auto keys = random_u32(7601, n);
  for (uint32_t& key : keys) key &= 0xFFFFFu;  // 20-bit keys: some equal keys
  std::vector<uint32_t> vals(n);
  for (std::size_t i = 0; i < n; ++i) vals[i] = static_cast<uint32_t>(i);
  // sn_sort_shared: each chunk ascending on its own.
  std::vector<uint32_t> bk = keys, bv = vals;
  for (std::size_t c = 0; c < n; c += kSnChunk) bitonic(bk, bv, c, kSnChunk, c);
  // sn_sort_chunks + sn_merge_global + sn_merge_shared: the whole network, in place.
  std::vector<uint32_t> sk = keys, sv = vals;
  bitonic(sk, sv, 0, n, 0);
  // Checks: sorted, and each (key, value) an input pair (values are the input positions).
  auto check = [&](const std::vector<uint32_t>& k, const std::vector<uint32_t>& v, std::size_t run, const char* what) {
    std::vector<bool> seen(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      if (i % run != 0 && k[i - 1] > k[i]) throw GenerateError(std::string("sortnet: ") + what + " not sorted");
      if (v[i] >= n || seen[v[i]] || keys[v[i]] != k[i])
        throw GenerateError(std::string("sortnet: ") + what + " is not a permutation of the input pairs");
      seen[v[i]] = true;
    }
  };
  check(bk, bv, kSnChunk, "batch");
  check(sk, sv, n, "sort");
  out.write("keys.bin", keys);
  out.write("vals.bin", vals);
  out.write("batch_keys_ref.bin", bk);
  out.write("batch_vals_ref.bin", bv);
  out.write("keys_ref.bin", sk);
  out.write("vals_ref.bin", sv);
}

}  // namespace

GPUTLM_WORKLOAD("fwt", "SDK fastWalshTransform (001 Table 5.2 FWT): dyadic convolution by three WHTs", gen_fwt);
GPUTLM_WORKLOAD("sortnet", "SDK sortingNetworks (001 Table 5.2 SN): bitonic sort of (key, value) pairs", gen_sortnet);

}  // namespace gputlm::workloads
