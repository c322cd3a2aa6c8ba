#include "support/sm/pipeline_kernels.h"

#include <catch2/catch.hpp>

#include <string>

#include "support/sm/ptx_kernel.h"

namespace gputlm::sm::test_support {

int alu_chain_ref(int thread, int a) {
  int x = thread;
  x = x * a; x = x ^ a; x = x + 7; x = x * a; x = x ^ 12345; x = x + a; x = x * a; x = x ^ a;
  return x;
}

int barrier_diverge_ref(int thread, int block_threads, int n) {
  const int v = (thread + 1) % block_threads;
  return (thread & 1) ? v * 3 : v + n;
}

int loop_sum_ref(int thread, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += i ^ thread;
  return s;
}

namespace {
// out[blockIdx.x * blockDim.x + threadIdx.x] = ref(threadIdx.x) for kernel(out, n).
template <class Ref>
std::vector<int> run_checked(SmTestBench& tb, const char* kernel, uint32_t ctas, uint32_t threads, int n,
                             Ref ref) {
  PtxKernel k(kPipelinePtx, kernel, {ctas, 1, 1}, {threads, 1, 1});
  const uint64_t out = k.upload(std::vector<int>(ctas * threads, 0));
  k.set_param<uint64_t>(0, out);
  k.set_param<int>(1, n);
  tb.run(k.instance());
  const auto r = k.download<int>(out, ctas * threads);
  for (uint32_t b = 0; b < ctas; ++b)
    for (uint32_t t = 0; t < threads; ++t) {
      INFO(kernel << " CTA " << b << " thread " << t);
      CHECK(r[b * threads + t] == ref(static_cast<int>(t)));
    }
  return r;
}
}  // namespace

std::vector<int> run_alu_chain(SmTestBench& tb, uint32_t threads, int a) {
  return run_checked(tb, "alu_chain", 1, threads, a, [a](int t) { return alu_chain_ref(t, a); });
}

std::vector<int> run_barrier_diverge(SmTestBench& tb, uint32_t ctas, uint32_t threads, int n) {
  return run_checked(tb, "barrier_diverge", ctas, threads, n,
                     [threads, n](int t) { return barrier_diverge_ref(t, static_cast<int>(threads), n); });
}

std::vector<int> run_loop_sum(SmTestBench& tb, uint32_t ctas, uint32_t threads, int n) {
  return run_checked(tb, "loop_sum", ctas, threads, n, [n](int t) { return loop_sum_ref(t, n); });
}

std::vector<IssueRecord> alu_chain_issues(const std::vector<IssueRecord>& all, uint32_t warp) {
  std::vector<IssueRecord> out;
  for (const auto& r : all) {
    if (r.warp != warp) continue;
    if (out.empty() && r.text.rfind("mul.lo.s32", 0) != 0) continue;
    out.push_back(r);
    if (out.size() == 8) break;
  }
  return out;
}

std::vector<IssueRecord> check_alu_chains_interleave(const std::vector<IssueRecord>& all) {
  const auto c0 = alu_chain_issues(all, 0), c1 = alu_chain_issues(all, 1);
  REQUIRE(c0.size() == 8);
  REQUIRE(c1.size() == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    INFO(c0[i].text);
    CHECK(c1[i].cycle == c0[i].cycle + 1);
  }
  return c0;
}

}  // namespace gputlm::sm::test_support
