// Load-miss latency on an idle GPU: one warp loads one word that misses in L1D and L2.
// The time from the L1D's primary miss to its fill must be exactly the sum of the
// configured latencies on the path plus one hand-over cycle per pipeline register between
// blocks, each named below with the doc that states it (the budget table is in
// docs/platforms/fermi.md, "Load-miss path"), plus, on the crossbar, the reply's
// serialization (its flits - 1: a packet is delivered with its last flit). Two
// configurations: a fixed-latency
// interconnect with three more GPUs that each add DELTA to one hop (the sum must move by
// exactly DELTA per traversal), and the Fermi crossbar with the L1D miss latency, the
// L2<->DRAM queue latency, the L2 fill latency and the ROP stage changed as well.
#include <catch2/catch.hpp>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "gpu/gpu.h"
#include "platforms/gpu_platform.h"
#include "runtime/runtime.h"

using namespace gputlm;

namespace {

// Hand-over cycles: a block sees a transaction sent in cycle N at its edge N + 1
// (docs/architecture.md §3). One per pipeline register on the miss path:
// docs/blocks/sm.md (memory port): the arbiter forwards a request from the cycle after it arrives.
constexpr uint64_t kMemPortArbiter = 1;
// docs/blocks/interconnect.md: a request crosses the switch at the first edge after it is accepted.
constexpr uint64_t kIcntRequestInput = 1;
// docs/blocks/l2.md (ROP stage): a request accepted at s reaches the bank at s + 1 + rop_latency.
constexpr uint64_t kRopInput = 1;  // only when l2.rop_latency > 0
// docs/blocks/cache.md (stall mode): the L2 bank evaluates a request at the first edge after arrival.
constexpr uint64_t kL2BankInput = 1;
// docs/blocks/l2.md (L2<->DRAM queues): 1 + queue_latency cycles each way.
constexpr uint64_t kL2ToDramQueueInput = 1;
// docs/blocks/dram.md: a BEGIN_REQ is taken at the first edge after it arrives.
constexpr uint64_t kDramAccept = 1;
constexpr uint64_t kDramToL2QueueInput = 1;  // docs/blocks/l2.md, as kL2ToDramQueueInput
// docs/blocks/cache.md: a fill is processed at the first edge after the lower level's BEGIN_RESP.
constexpr uint64_t kL2BankFill = 1;
// docs/blocks/interconnect.md: a reply crosses the switch at the first edge after it is accepted.
constexpr uint64_t kIcntReplyInput = 1;
// docs/blocks/sm.md: responses pass the memory-port arbiter without delay.
constexpr uint64_t kMemPortArbiterReply = 0;
constexpr uint64_t kL1dFill = 1;  // docs/blocks/cache.md, as kL2BankFill

constexpr uint32_t kDelta = 37;

gpu::GpuConfig fermi_config(std::initializer_list<const char*> overrides) {
  auto src = config::ConfigSource::from_file("configs/fermi_gtx480.json");
  // One clock for every domain (DRAM cycles = core cycles) and a DRAM whose minimum
  // latency dominates its timing, so that every hop has one configured latency.
  for (const char* o : {"clocks.dram_mhz=700", "l2.dram.min_latency=100"}) src.apply_override(o);
  for (const char* o : overrides) src.apply_override(o);
  return platforms::read_gpu_config(src);
}

// Unloaded DRAM access of one line to a precharged bank (docs/blocks/dram.md, row miss).
uint64_t dram_row_miss_latency(const DramConfig& d, uint32_t line_bytes) {
  const uint64_t atoms = (line_bytes + d.atom_bytes() - 1) / d.atom_bytes();
  return d.timing.tRCD + (atoms - 1) * d.timing.tCCD + d.timing.tCL + d.burst_cycles();
}

// Sum of the configured latencies from the L1D's primary miss to its fill.
uint64_t configured_latency(const gpu::GpuConfig& c) {
  // docs/blocks/dram.md: with a latency queue the request waits min_latency before the
  // scheduler and its access (the first fetch unit: a sector of a sectored L2) follows whole;
  // without one min_latency is a floor on the access.
  const uint64_t unit = c.l2.bank.sectors > 1 ? c.l2.bank.line_size / c.l2.bank.sectors : c.sm.l1d.line_size;
  const uint64_t dram = c.l2.dram.latency_queue > 0
                            ? c.l2.dram.min_latency + dram_row_miss_latency(c.l2.dram, static_cast<uint32_t>(unit))
                            : std::max<uint64_t>(c.l2.dram.min_latency, dram_row_miss_latency(c.l2.dram, c.sm.l1d.line_size));
  return c.sm.l1d.miss_latency + c.interconnect.latency + c.l2.rop_latency + c.l2.bank.miss_latency +
         c.l2.queue_latency + dram + c.l2.queue_latency + c.l2.bank.fill_latency + c.interconnect.latency;
}

// docs/blocks/interconnect.md: the crossbar delivers a packet with its last flit, flits - 1
// cycles after its head; the fixed-latency pipe delivers it whole. The read reply carries
// the header and one fill unit of the L1D (a line, or a sector of a sectored L1D).
uint64_t packet_flits(const InterconnectConfig& icnt, uint64_t bytes) {
  return (bytes + icnt.channel_bytes - 1) / icnt.channel_bytes;
}
// A sectored L2 answers the line in one packet per sector (MemExtension::reply_parts).
uint64_t reply_serialization(const gpu::GpuConfig& c) {
  if (c.interconnect.topology != "crossbar") return 0;
  const uint64_t unit = c.sm.l1d.line_size / c.sm.l1d.sectors;
  const uint64_t parts = c.l2.bank.sectors > 1 ? unit / (c.l2.bank.line_size / c.l2.bank.sectors) : 1;
  return parts * packet_flits(c.interconnect, c.interconnect.header_bytes + unit / parts) - 1;
}
// The read request is a header only: one flit, no serialization term.
void require_single_flit_request(const gpu::GpuConfig& c) {
  REQUIRE(packet_flits(c.interconnect, c.interconnect.header_bytes) == 1);
}

// docs/blocks/l2.md (sector splitter): a sectored L2 bank gets the L1D's line as one
// request per sector, each a DRAM atom of its own; the DRAM streams them one per
// max(tCCD, burst) cycles (the first as the line would be: the minimum latency dominates)
// and the line is filled with the last sector's reply.
uint64_t sector_split_cycles(const gpu::GpuConfig& c) {
  const uint32_t sectors = c.l2.bank.sectors;
  if (sectors <= 1) return 0;
  const DramConfig& d = c.l2.dram;
  return (sectors - 1) * std::max<uint64_t>({1, d.timing.tCCD, d.burst_cycles()});
}

uint64_t handover_cycles(const gpu::GpuConfig& c) {
  return kMemPortArbiter + kIcntRequestInput + (c.l2.rop_latency > 0 ? kRopInput : 0) + kL2BankInput +
         kL2ToDramQueueInput + kDramAccept + kDramToL2QueueInput + kL2BankFill + kIcntReplyInput +
         kMemPortArbiterReply + kL1dFill;
}

struct Probe {
  uint64_t miss_cycle = 0, fill_cycle = 0, block = 0;
  bool missed = false, filled = false;
  void attach(mem::Cache& l1d) {
    l1d.set_access_hook([this](const mem::AccessRecord& r) {
      if (!missed && r.outcome == mem::AccessOutcome::PrimaryMiss) {
        missed = true;
        miss_cycle = r.cycle;
        block = r.block;
      }
    });
    l1d.set_fill_hook([this](uint64_t cycle, uint64_t b, int32_t) {
      if (missed && !filled && b == block) {
        filled = true;
        fill_cycle = cycle;
      }
    });
  }
  uint64_t latency() const { return fill_cycle - miss_cycle; }
};

// Runs vecadd with one thread (its loads miss everywhere) on one GPU per config, side by
// side, and returns each L1D miss-to-fill latency.
std::vector<uint64_t> measure(const std::vector<gpu::GpuConfig>& cfgs) {
  runtime::Runtime rt;  // device memory and the module; the GPUs below run the kernel
  const auto m = rt.load_module("workloads/vecadd/vecadd.ptx");
  const auto a = rt.malloc(4096), b = rt.malloc(4096), c = rt.malloc(4096);
  const isa::LoadedModule& lm = rt.module(m);
  isa::LaunchParams p = isa::make_launch(lm, "vecadd", {1, 1, 1}, {32, 1, 1});
  const int32_t n = 1;
  const uint64_t pa = a.addr, pb = b.addr, pc = c.addr;
  isa::set_kernel_param(p, lm, 0, &n, 4);
  isa::set_kernel_param(p, lm, 1, &pa, 8);
  isa::set_kernel_param(p, lm, 2, &pb, 8);
  isa::set_kernel_param(p, lm, 3, &pc, 8);

  std::vector<std::unique_ptr<gpu::Gpu>> gpus;
  std::vector<Probe> probes(cfgs.size());
  for (std::size_t i = 0; i < cfgs.size(); ++i) {
    gpus.push_back(std::make_unique<gpu::Gpu>(("gpu" + std::to_string(i)).c_str(), cfgs[i]));
    probes[i].attach(gpus[i]->sm(0).l1d());
    gpus[i]->launch(lm, p, {});
  }
  for (auto& g : gpus) g->run();
  std::vector<uint64_t> latencies;
  for (const Probe& pr : probes) {
    REQUIRE(pr.missed);
    REQUIRE(pr.filled);
    latencies.push_back(pr.latency());
  }
  return latencies;
}

void require_min_latency_dominates(const gpu::GpuConfig& c) {
  // Without a latency queue, otherwise the DRAM term is the row access, which the sum also
  // covers, but the DELTA on min_latency would not move the result.
  if (c.l2.dram.latency_queue == 0)
    REQUIRE(c.l2.dram.min_latency > dram_row_miss_latency(c.l2.dram, c.sm.l1d.line_size));
}

}  // namespace

TEST_CASE("gpu_top load-miss latency on an idle GPU follows the configured path latencies", "[gpu][latency]") {
  // Without the shipped ROP stage (l2.rop_latency 120): the crossbar case below has one.
  const gpu::GpuConfig base = fermi_config({"interconnect.topology=\"fixed_latency\"", "interconnect.latency=20",
                                            "l2.bank.miss_latency=30", "l2.rop_latency=0",
                                            "sm.l1d.miss_latency=1"});
  require_min_latency_dominates(base);
  require_single_flit_request(base);
  std::vector<gpu::GpuConfig> cfgs(4, base);
  cfgs[1].interconnect.latency += kDelta;
  cfgs[2].l2.bank.miss_latency += kDelta;
  cfgs[3].l2.dram.min_latency += kDelta;  // DRAM clock = core clock here

  const std::vector<uint64_t> lat = measure(cfgs);
  CHECK(lat[1] == lat[0] + 2 * kDelta);  // request and reply each cross the interconnect
  CHECK(lat[2] == lat[0] + kDelta);
  CHECK(lat[3] == lat[0] + kDelta);
  // 1 + 20 + 30 + 1 + (100 + 26) + 1 + 0 + 20 = 199 configured (the DRAM's latency queue,
  // then a 32 B sector's row miss: tRCD 12 + tCL 12 + burst 2), 9 hand-over cycles, 6 for the
  // other three sectors; the fixed-latency pipe delivers the reply whole (no serialization).
  CHECK(configured_latency(base) == 199);
  CHECK(sector_split_cycles(base) == 6);
  CHECK(handover_cycles(base) == 9);
  CHECK(reply_serialization(base) == 0);
  CHECK(lat[0] == configured_latency(base) + handover_cycles(base) + reply_serialization(base) + sector_split_cycles(base));
  for (std::size_t i = 1; i < cfgs.size(); ++i)
    CHECK(lat[i] == configured_latency(cfgs[i]) + handover_cycles(cfgs[i]) + reply_serialization(cfgs[i]) +
              sector_split_cycles(cfgs[i]));
}

TEST_CASE("gpu_top load-miss latency on the Fermi crossbar equals the configured latencies plus the hand-over "
          "cycles plus the reply serialization",
          "[gpu][latency]") {
  // The real Fermi interconnect (crossbar, 40 B flits, 15 SM x 12 L2 sub-partition ports) and every other
  // latency on the path changed from its default, the ROP stage included.
  const gpu::GpuConfig base =
      fermi_config({"interconnect.topology=\"crossbar\"", "interconnect.latency=6", "sm.l1d.miss_latency=3",
                    "l2.bank.miss_latency=45", "l2.bank.fill_latency=2", "l2.queue_latency=4", "l2.rop_latency=11"});
  REQUIRE(base.interconnect.sm_ports == 15);
  REQUIRE(base.interconnect.mem_ports == 6);
  require_min_latency_dominates(base);
  require_single_flit_request(base);
  std::vector<gpu::GpuConfig> cfgs(4, base);
  cfgs[1].sm.l1d.miss_latency += kDelta;
  cfgs[2].l2.queue_latency += kDelta;
  cfgs[3].l2.rop_latency = 0;  // no ROP stage: its latency and its hand-over cycle go

  const std::vector<uint64_t> lat = measure(cfgs);
  CHECK(lat[1] == lat[0] + kDelta);
  CHECK(lat[2] == lat[0] + 2 * kDelta);  // the L2->DRAM and DRAM->L2 queues
  CHECK(lat[3] + base.l2.rop_latency + kRopInput == lat[0]);
  // 3 + 6 + 11 + 45 + 4 + (100 + 26) + 4 + 2 + 6 = 207 configured, 10 hand-over cycles, and
  // the read reply is 4 sector packets of 8 + 32 B = 4 flits of 40 B: delivered 3 cycles
  // after its head.
  CHECK(configured_latency(base) == 207);
  CHECK(handover_cycles(base) == 10);
  CHECK(reply_serialization(base) == 3);
  for (std::size_t i = 0; i < cfgs.size(); ++i) {
    INFO("configuration " << i);
    CHECK(lat[i] == configured_latency(cfgs[i]) + handover_cycles(cfgs[i]) + reply_serialization(cfgs[i]) +
              sector_split_cycles(cfgs[i]));
  }
}
