// The kernels of tests/sm/cu/pipeline.cu on an SM test bench: CPU references, runs that
// check every output element against them (Catch2 CHECKs), and the issue records of
// alu_chain's dependent chain.
#pragma once

#include <cstdint>
#include <vector>

#include "support/sm/sm_test_bench.h"

namespace gputlm::sm::test_support {

// Relative to the source tree, the tests' working directory.
inline constexpr const char* kPipelinePtx = "tests/sm/cu/pipeline.ptx";

int alu_chain_ref(int thread, int a);
int barrier_diverge_ref(int thread, int block_threads, int n);
int loop_sum_ref(int thread, int n);

// One launch of the kernel with `ctas` CTAs of `threads` threads on tb (run to
// completion); every output element is checked; returns the outputs.
std::vector<int> run_alu_chain(SmTestBench& tb, uint32_t threads, int a);  // one CTA
std::vector<int> run_barrier_diverge(SmTestBench& tb, uint32_t ctas, uint32_t threads, int n);
std::vector<int> run_loop_sum(SmTestBench& tb, uint32_t ctas, uint32_t threads, int n);

// alu_chain's eight dependent instructions (mul.lo.s32 ... xor.b32) of `warp`, in issue
// order (fewer if the warp did not issue them all).
std::vector<IssueRecord> alu_chain_issues(const std::vector<IssueRecord>& all, uint32_t warp);
// Warps 0 and 1 ran alu_chain on one scheduler: checks that both issued the whole chain
// and that they interleave (warp 1's k-th chain instruction issues the cycle after warp
// 0's). Returns warp 0's chain.
std::vector<IssueRecord> check_alu_chains_interleave(const std::vector<IssueRecord>& all);

}  // namespace gputlm::sm::test_support
