// Testbench of L2 sub-partitions (issue 10 item 1): the address -> slice map against
// GPGPU-Sim's addrdec.cc for the GTX480, slice-local set indexing, and a memory system
// whose channels have two slices sharing one DRAM, under random traffic with protocol
// and DRAM timing checkers.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <set>
#include <systemc>

#include "core/config/config_source.h"
#include "core/random/splitmix64.h"
#include "core/stats/stats.h"
#include "core/tlm/protocol_checker.h"
#include "mem/dram/dram_address_mapping.h"
#include "mem/l2/l2_partition.h"
#include "mem/l2/memory_system.h"
#include "mem/l2/sub_partition_map.h"
#include "scripted_initiator.h"

using namespace gputlm;

namespace {

// GPGPU-Sim 4.2 addrdec.cc, linear_to_raw_address_translation::addrdec_tlx and
// partition_address for a non-power-of-two channel count ("gap" mode) with
// -gpgpu_mem_addr_mapping dramid@8;...BBBCCCCB.CCSSSSSS, written out independently.
struct GpgpuSimAddrdec {
  uint32_t channels, subs;
  uint64_t bank_mask;
  static uint64_t pext(uint64_t v, uint64_t mask) {
    uint64_t out = 0;
    int k = 0;
    for (int b = 0; b < 64; ++b)
      if (mask >> b & 1) out |= (v >> b & 1) << k++;
    return out;
  }
  uint64_t rest(uint64_t addr) const { return ((addr >> 8) / channels) << 8 | (addr & 0xff); }
  uint32_t sub_partition(uint64_t addr) const {
    const uint32_t chip = static_cast<uint32_t>((addr >> 8) % channels);
    const uint64_t bk = pext(rest(addr), bank_mask);
    return chip * subs + static_cast<uint32_t>(bk & (subs - 1));
  }
  uint64_t partition_address(uint64_t addr) const {
    // Remove the lowest log2(subs) bank bits (sub_partition_id_mask).
    uint64_t mask = 0, m = bank_mask;
    for (uint32_t n = subs; n > 1; n >>= 1, m &= m - 1) mask |= m & (~m + 1);
    uint64_t a = rest(addr), out = 0;
    int k = 0;
    for (int b = 0; b < 64; ++b)
      if (!(mask >> b & 1)) out |= (a >> b & 1) << k++;
    return out;
  }
};

std::unique_ptr<PartitionMapIF> gtx480_channels() {
  PartitionMapConfig c;  // linear, 256 B chunks: GPGPU-Sim's dramid@8 over 6 channels
  return make_partition_map(c, 6);
}

}  // namespace

TEST_CASE("l2: the sub-partition of an address follows GPGPU-Sim's addrdec for the GTX480", "[l2]") {
  const DramConfig dram;  // the default mapping is SM2_GTX480's
  const DramAddressMapping mapping(dram.address_mapping, "m");
  REQUIRE(mapping.bank_mask() == 0xE100);  // bank bits 15..13 and 8, as BBBCCCCB.CCSSSSSS
  const auto channels = gtx480_channels();
  const uint64_t select = SubPartitionMap::select_mask(mapping.bank_mask(), 2, "l2.sub_partitions");
  REQUIRE(select == 0x100);
  const SubPartitionMap map(*channels, 2, select);
  const GpgpuSimAddrdec golden{6, 2, mapping.bank_mask()};
  REQUIRE(map.partitions() == 12);
  uint64_t seed = 11;
  for (int i = 0; i < 100000; ++i) {
    const uint64_t a = SplitMix64::step(seed) & ((uint64_t{1} << 34) - 1);
    REQUIRE(map.partition_of(a) == golden.sub_partition(a));
    REQUIRE(map.local_address(a) == golden.partition_address(a));
    REQUIRE(map.channel_of_partition(map.partition_of(a)) == channels->partition_of(a));
  }
  // Consecutive 256 B chunks: channel 0 slice 0, channel 1 slice 0, ..., channel 5 slice
  // 0, then channel 0 slice 1, ...: 12 chunks cover the 12 slices once.
  std::set<uint32_t> slices;
  for (uint64_t c = 0; c < 12; ++c) slices.insert(map.partition_of(c * 256));
  REQUIRE(slices.size() == 12);
  REQUIRE(map.partition_of(0) == 0);
  REQUIRE(map.partition_of(256) == 2);
  REQUIRE(map.partition_of(6 * 256) == 1);
}

TEST_CASE("l2: slice-local addresses are dense and unique in every slice", "[l2]") {
  const DramAddressMapping mapping(DramConfig{}.address_mapping, "m");
  const auto channels = gtx480_channels();
  for (uint32_t subs : {1u, 2u, 4u}) {
    const SubPartitionMap map(*channels, subs, SubPartitionMap::select_mask(mapping.bank_mask(), subs, "s"));
    const uint64_t lines = 12 * 64 * subs;  // whole 256 B chunks, evenly over the slices
    std::map<uint32_t, std::set<uint64_t>> local;
    for (uint64_t l = 0; l < lines; ++l) {
      const uint64_t a = l * 128;
      REQUIRE(local[map.partition_of(a)].insert(map.local_address(a) / 128).second);
    }
    REQUIRE(local.size() == 6 * subs);
    for (const auto& [slice, set] : local) {
      REQUIRE(set.size() == lines / (6 * subs));
      REQUIRE(*set.rbegin() == set.size() - 1);  // 0, 1, 2, ... without holes
    }
  }
}

TEST_CASE("l2: sub_partitions must be a power of two with enough DRAM bank bits", "[l2]") {
  L2PartitionConfig c;
  c.sub_partitions = 3;
  REQUIRE_THROWS_WITH(c.validate("gpu.l2"), Catch::Contains("gpu.l2.sub_partitions") && Catch::Contains("power of two"));
  c.sub_partitions = 32;  // 5 select bits, the mapping has 4 bank bits
  REQUIRE_THROWS_WITH(c.validate("gpu.l2"), Catch::Contains("gpu.l2.sub_partitions") && Catch::Contains("bank bits"));
  c.sub_partitions = 16;
  REQUIRE_NOTHROW(c.validate("gpu.l2"));
}

namespace {

struct SystemBench {
  ClockDomain core = ClockDomain::from_mhz("core", 700.0);
  ClockDomain dramclk = ClockDomain::from_mhz("dram", 924.0);
  stats::Group root{"gpu"};
  std::unique_ptr<MemorySystem> ms;
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> sms;
  std::vector<std::unique_ptr<ProtocolChecker>> chk;

  SystemBench(const MemorySystemConfig& mc, const std::vector<std::vector<tb::ScriptedRequest>>& scripts,
              uint32_t outstanding) {
    ms = std::make_unique<MemorySystem>("memory", mc, core, core, dramclk, root);
    for (std::size_t i = 0; i < scripts.size(); ++i) {
      tb::InitiatorOptions o;
      o.max_outstanding = outstanding;
      o.sm = static_cast<int32_t>(i);
      o.end_resp_delay_max = 4;
      o.end_resp_delay_probability = 0.2;
      o.seed = 7 + i;
      sms.push_back(std::make_unique<tb::ScriptedInitiator>(("sm" + std::to_string(i)).c_str(), core, scripts[i], o));
      chk.push_back(std::make_unique<ProtocolChecker>(("chk" + std::to_string(i)).c_str()));
      sms[i]->out.bind(chk[i]->in);
      chk[i]->out.bind(ms->sm_side());
    }
  }
  bool done() const {
    for (const auto& s : sms)
      if (!s->done()) return false;
    return true;
  }
  void run() {
    while (!done() && core.now() < 5'000'000) sc_core::sc_start(core.period() * 1000);
    sc_core::sc_start(core.period() * 300);
    REQUIRE(done());
    REQUIRE(ms->idle());
    ms->update_stats();
    for (auto& c : chk) {
      c->check_quiescent();
      REQUIRE(c->violations().empty());
    }
    for (uint32_t p = 0; p < ms->partitions(); ++p)
      for (ProtocolChecker* c : ms->partition(p).checkers()) {
        c->check_quiescent();
        REQUIRE(c->violations().empty());
      }
  }
  double stat(const std::string& path) const {
    const stats::Stat* s = root.find(path);
    REQUIRE(s != nullptr);
    return s->scalar(stats::View::Total);
  }
};

MemorySystemConfig six_channels(uint32_t subs) {
  MemorySystemConfig mc;
  mc.icnt.sm_ports = 1;
  mc.icnt.mem_ports = 6;
  mc.l2.sub_partitions = subs;
  mc.l2.bank.sets = 16 / subs;  // 2 KB per channel whatever the split: 6 x 2 KB = 96 lines
  mc.l2.bank.ways = 2;
  mc.l2.protocol_checkers = true;
  mc.l2.dram.timing_checker = true;
  return mc;
}

}  // namespace

// 96 consecutive lines fill the 6 x 2 KB L2 exactly when every set of every bank is used.
// Indexed by the global address, the channel-select bits (constant in a channel) pick
// the sets, half of each bank's sets stay empty and the second pass misses.
void check_full_capacity(uint32_t subs) {
  std::vector<tb::ScriptedRequest> s;
  for (int pass = 0; pass < 2; ++pass)
    for (uint64_t l = 0; l < 96; ++l) s.push_back({l * 128, false, 128, pass * uint64_t{20000}});
  SystemBench b(six_channels(subs), {s}, 8);
  REQUIRE(b.ms->interconnect().config().mem_ports == 6 * subs);
  b.run();
  double hits = 0, misses = 0;
  for (uint32_t p = 0; p < 6; ++p)
    for (uint32_t k = 0; k < subs; ++k) {
      const std::string bank = "memory.l2p" + std::to_string(p) + ".sub" + std::to_string(k) + ".bank.";
      REQUIRE(b.stat(bank + "loads") == 2 * 96 / (6 * subs));  // every slice gets its share
      hits += b.stat(bank + "load_hits");
      misses += b.stat(bank + "load_primary_misses");
    }
  REQUIRE(misses == 96);
  REQUIRE(hits == 96);
}

TEST_CASE("l2: an L2 as large as the data holds all of it (sets indexed by the channel-local address)", "[l2]") {
  check_full_capacity(1);
}

TEST_CASE("l2: an L2 of two slices per channel as large as the data holds all of it (slice-local set index)",
          "[l2]") {
  check_full_capacity(2);
}

TEST_CASE("l2: two sub-partitions per channel share its DRAM under random reads and writes", "[l2]") {
  MemorySystemConfig mc = six_channels(2);
  mc.icnt.sm_ports = 3;
  std::vector<std::vector<tb::ScriptedRequest>> scripts(3);
  uint64_t seed = 21;
  for (auto& s : scripts)
    for (int k = 0; k < 600; ++k) s.push_back({(SplitMix64::step(seed) % 1024) * 128, SplitMix64::step(seed) % 4 == 0, 128, 0});
  SystemBench b(mc, scripts, 12);
  b.run();
  for (uint32_t p = 0; p < 6; ++p) {
    const std::string ch = "memory.l2p" + std::to_string(p);
    REQUIRE(b.ms->partition(p).dram().checker()->commands_checked() > 0);
    double fills = 0, writebacks = 0;
    for (uint32_t k = 0; k < 2; ++k) {
      const std::string bank = ch + ".sub" + std::to_string(k) + ".bank.";
      REQUIRE(b.stat(bank + "accesses") > 0);
      fills += b.stat(bank + "fills");
      writebacks += b.stat(bank + "writebacks");
    }
    // Every line fetch and write-back of both slices went to the channel's one DRAM.
    REQUIRE(b.stat(ch + ".dram.reads") == fills);
    REQUIRE(b.stat(ch + ".dram.writes") == writebacks);
    REQUIRE(b.stat(ch + ".dram_queues.requests") == fills + writebacks);
  }
}
