// The Fermi GTX480 config and its variants: every file parses and validates, the key
// figures match docs/platforms/fermi.md, overrides and bad keys behave.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "platforms/gpu_platform.h"
#include "platforms/platform_registry.h"

using namespace gputlm;

namespace {
gpu::GpuConfig load(const std::string& path) {
  return platforms::read_gpu_config(config::ConfigSource::from_file(path));
}
}  // namespace

TEST_CASE("fermi config gtx480 has the GTX480 parameters", "[gpu][fermi]") {
  const gpu::GpuConfig c = load("configs/fermi_gtx480.json");
  CHECK(c.sms == 15);
  CHECK(c.sm.warp_size == 32);
  CHECK(c.sm.max_warps == 48);
  CHECK(c.sm.max_ctas == 8);
  CHECK(c.sm.max_threads == 1536);
  CHECK(c.sm.registers == 32768);
  CHECK(c.sm.shared_bytes == 48 * 1024);
  CHECK(c.sm.scheduler.count == 2);
  CHECK(c.sm.l1d.size_bytes() == 16 * 1024);
  CHECK(c.sm.l1i.size_bytes() == 2 * 1024);
  CHECK(c.l2_bytes() == 768 * 1024);
  CHECK(c.partitions == 6);
  CHECK(c.interconnect.sm_ports == 15);
  CHECK(c.interconnect.mem_ports == 6);
  CHECK(c.l2.dram.scheduler == "frfcfs");
  CHECK(std::abs(c.dram_bandwidth_gbs() - 177.4) < 0.05);
  CHECK(c.clocks.core_mhz == 700.0);
  // GPGPU-Sim 4.2 SM2_GTX480 (docs/platforms/fermi.md, "Parameters").
  CHECK(c.l2.sub_partitions == 2);                                        // -gpgpu_n_sub_partition_per_mchannel 2
  CHECK(c.l2.bank.size_bytes() == 64 * 1024);                             // dl2 S:64:128:8 per slice
  CHECK(c.l2.bank.mshr.entries == 256);                                   // dl2 A:256:4
  CHECK(c.l2.bank.input_queue == 64);                                     // -gpgpu_dram_partition_queues 64:64:64:64
  CHECK(c.l2.dram_queue == 64);
  CHECK(c.l2.dram.queue_size == 64);                                      // -gpgpu_frfcfs_dram_sched_queue_size 64
  CHECK(c.sm.l1d.hit_latency == 35);                                      // -gpgpu_l1_latency 35
  CHECK(c.sm.l1d.mshr.entries == 64);                                     // dl1 S:64:8
  CHECK(c.sm.l1t.size_bytes() == 12 * 1024);                              // tex N:4:128:24
  CHECK(c.interconnect.channel_bytes == 40);                              // flit_size = 40
  CHECK(c.cta_scheduler.ctas_per_cycle == 15);                            // one CTA per cluster per cycle
  CHECK(c.sm.exec.pipeline_registers == 3);                               // ID_OC, OC_EX, EX_WB registers
  CHECK(c.sm.operand_collector.issue_width_sp == 2);                      // -gpgpu_pipeline_widths 2,0,0,1,1
  CHECK(c.sm.operand_collector.issue_width_sfu == 1);
  CHECK(c.sm.operand_collector.issue_width_mem == 1);
  CHECK(c.sm.lsu.atomics_bypass_l1d);                                     // atom: CACHE_GLOBAL skips the L1D
  CHECK(c.l2.bank.sectors == 4);                                          // dl2 S: sector cache, 32 B sectors
  CHECK(c.l2.bank.write_allocate == "lazy_fetch_on_read");                // dl2 L:B:m:L: lazy fetch-on-read
}

TEST_CASE("fermi config gpgpusim3 variant has the GPGPU-Sim 3.x GTX480 values the seed papers ran", "[gpu][fermi]") {
  const gpu::GpuConfig c = load("configs/variants/gpgpusim3_gtx480.json");
  CHECK(c.l2_bytes() == 768 * 1024);
  CHECK(c.l2.sub_partitions == 2);
  CHECK(c.l2.bank.mshr.entries == 32);  // dl2 64:128:8,...,A:32:4
  CHECK(c.l2.bank.input_queue == 8);    // -gpgpu_dram_partition_queues default 8:8:8:8
  CHECK(c.l2.dram_queue == 8);
  CHECK(c.l2.dram.queue_size == 16);
  CHECK(c.sm.l1d.hit_latency == 1);     // no L1 latency queue in 3.x
  CHECK(c.sm.l1d.mshr.entries == 32);   // dl1 A:32:8
  CHECK(c.interconnect.channel_bytes == 32);
  for (const char* paper : {"elf_table1", "mascar_table1", "thesis_table2_1", "thesis_table5_1"}) {
    INFO(paper);
    const gpu::GpuConfig v = load(std::string("configs/variants/") + paper + ".json");
    CHECK(v.l2.sub_partitions == 1);  // the papers count one L2 bank per memory controller
    CHECK(v.sm.l1d.hit_latency == 1);
    CHECK(v.interconnect.channel_bytes == 32);
  }
}

TEST_CASE("fermi config variants load and differ where their papers say", "[gpu][fermi]") {
  const gpu::GpuConfig l1d48 = load("configs/variants/fermi_l1d_48k.json");
  CHECK(l1d48.sm.l1d.size_bytes() == 48 * 1024);
  CHECK(l1d48.sm.shared_bytes == 16 * 1024);

  const gpu::GpuConfig elf = load("configs/variants/elf_table1.json");
  CHECK(elf.l2.bank.ways == 16);
  CHECK(elf.l2_bytes() == 768 * 1024);

  const gpu::GpuConfig mascar = load("configs/variants/mascar_table1.json");
  CHECK(mascar.sm.l1d.size_bytes() == 32 * 1024);
  CHECK(mascar.sm.l1d.sets == 64);
  CHECK(mascar.sm.l1d.mshr.entries == 64);
  CHECK(mascar.l2.bank.mshr.entries == 64);
  // Table I's 200-cycle L2 latency is GPGPU-Sim's ROP delay in front of the bank (a request
  // takes a bank MSHR only after it), with room for a request per cycle.
  CHECK(mascar.l2.rop_latency == 200);
  CHECK(mascar.l2.rop_queue >= mascar.l2.rop_latency + 1);
  CHECK(mascar.l2.bank.hit_latency == 1);
  CHECK(mascar.l2.bank.miss_latency == 1);
  // The other reading: the bank's own hit and miss latency, held in the MSHR's lifetime.
  const gpu::GpuConfig bank = load("configs/variants/mascar_table1_bank_latency.json");
  CHECK(bank.l2.rop_latency == 0);
  CHECK(bank.l2.bank.hit_latency == 200);
  CHECK(bank.l2.bank.miss_latency == 200);
  CHECK(bank.l2.bank.mshr.entries == 64);

  const gpu::GpuConfig t21 = load("configs/variants/thesis_table2_1.json");
  CHECK(t21.sms == 30);
  CHECK(t21.partitions == 8);
  CHECK(t21.sm.max_threads == 1024);
  CHECK(t21.l2_bytes() == 1024 * 1024);
  CHECK(t21.interconnect.sm_ports == 30);

  const gpu::GpuConfig t51 = load("configs/variants/thesis_table5_1.json");
  CHECK(t51.sms == 15);
  CHECK(t51.sm.l1d.allocation == "on_fill");
  CHECK(t51.l2.bank.allocation == "on_fill");
  CHECK(t51.l2_bytes() == 768 * 1024);
}

TEST_CASE("fermi config Mascar motivation variants change only what Mascar II-D says", "[gpu][fermi]") {
  // Mascar (002 §II-D, digest §H3) normalises to a stock GTX480 (Table I) with (a) every MSHR
  // and queue at 10240 entries, (b) fully associative L1 and L2, (c) DRAM +20 %, (d) all three.
  const gpu::GpuConfig base = load("configs/variants/mascar_table1.json");
  const gpu::GpuConfig q = load("configs/variants/mascar_motivation_queues.json");
  const gpu::GpuConfig a = load("configs/variants/mascar_motivation_assoc.json");
  const gpu::GpuConfig d = load("configs/variants/mascar_motivation_dram.json");
  const gpu::GpuConfig all = load("configs/variants/mascar_motivation_all.json");
  for (const gpu::GpuConfig* c : {&q, &all}) {
    for (const mem::CacheConfig* l1 : {&c->sm.l1d, &c->sm.l1i, &c->sm.l1c, &c->sm.l1t}) {
      CHECK(l1->mshr.entries == 10240);
      CHECK(l1->miss_queue == 10240);
      CHECK(l1->response_queue == 10240);
      CHECK(l1->fill_queue == 10240);
      CHECK(l1->input_queue == 10240);
    }
    CHECK(c->sm.lsu.max_inflight == 10240);
    CHECK(c->sm.lsu.max_outstanding == 10240);
    CHECK(c->sm.mem_port_queue == 10240);
    CHECK(c->interconnect.input_buffer == 10240);
    CHECK(c->interconnect.output_buffer == 10240);
    CHECK(c->l2.bank.mshr.entries == 10240);
    CHECK(c->l2.bank.miss_queue == 10240);
    CHECK(c->l2.bank.input_queue == 10240);
    CHECK(c->l2.bank.response_queue == 10240);
    CHECK(c->l2.bank.fill_queue == 10240);
    CHECK(c->l2.rop_queue == 10240);
    CHECK(c->l2.split_requests == 10240);
    CHECK(c->l2.dram_queue == 10240);
    CHECK(c->l2.dram.queue_size == 10240);
    CHECK(c->l2.dram.return_queue_size == 10240);
    CHECK(c->sm.l1d.mshr.fields == base.sm.l1d.mshr.fields);  // entries grow, merging per entry does not
  }
  for (const gpu::GpuConfig* c : {&a, &all}) {
    CHECK(c->sm.l1d.sets == 1);
    CHECK(c->sm.l1d.ways == 256);
    CHECK(c->sm.l1d.size_bytes() == base.sm.l1d.size_bytes());
    CHECK(c->l2.bank.sets == 1);
    CHECK(c->l2.bank.ways == 1024);
    CHECK(c->l2_bytes() == base.l2_bytes());
  }
  for (const gpu::GpuConfig* c : {&d, &all}) {
    CHECK(c->clocks.dram_mhz == Approx(base.clocks.dram_mhz * 1.2));
    CHECK(c->dram_bandwidth_gbs() == Approx(base.dram_bandwidth_gbs() * 1.2));
    CHECK(c->l2.dram.timing.tRCD == base.l2.dram.timing.tRCD);  // timings stay in DRAM cycles
  }
  // Each single variant leaves the other two knobs at Table I.
  CHECK(q.sm.l1d.sets == base.sm.l1d.sets);
  CHECK(q.clocks.dram_mhz == base.clocks.dram_mhz);
  CHECK(a.sm.l1d.mshr.entries == base.sm.l1d.mshr.entries);
  CHECK(a.clocks.dram_mhz == base.clocks.dram_mhz);
  CHECK(d.sm.l1d.ways == base.sm.l1d.ways);
  CHECK(d.l2.dram.queue_size == base.l2.dram.queue_size);
}

TEST_CASE("fermi config rejects unknown keys and applies overrides", "[gpu][fermi]") {
  auto src = config::ConfigSource::from_file("configs/fermi_gtx480.json");
  src.apply_override("sm.l1d.mshr.entries=64");
  src.apply_override("sms=4");
  const gpu::GpuConfig c = platforms::read_gpu_config(src);
  CHECK(c.sm.l1d.mshr.entries == 64);
  CHECK(c.interconnect.sm_ports == 4);

  auto bad = config::ConfigSource::from_file("configs/fermi_gtx480.json");
  bad.apply_override("sm.l1d.sizes=3");
  CHECK_THROWS_WITH(platforms::read_gpu_config(bad), Catch::Contains("sm.l1d.sizes"));

  auto demo = config::ConfigSource::from_file("configs/demo.json");
  CHECK_THROWS_WITH(platforms::read_gpu_config(demo), Catch::Contains("not a GPU platform"));
  CHECK(platforms::find("fermi").list_params().size() > 50);
}

TEST_CASE("fermi config checks the CTA scheduler's steering and L1 invalidation keys", "[gpu][fermi][steering]") {
  auto with = [](std::vector<std::string> overrides) {
    auto src = config::ConfigSource::from_file("configs/fermi_gtx480.json");
    for (const auto& o : overrides) src.apply_override(o);
    return platforms::read_gpu_config(src);
  };
  CHECK(with({}).cta_scheduler.l1_invalidation == "on_idle");
  const gpu::GpuConfig split = with({"cta_scheduler.steering=split", "cta_scheduler.split.parts=3",
                                     "cta_scheduler.split.when_full=share"});
  CHECK(split.cta_scheduler.split.parts == 3);
  CHECK(split.cta_scheduler.split.when_full == "share");
  const gpu::GpuConfig kinds = with({"cta_scheduler.steering=by_kind", R"(cta_scheduler.by_kind.kernels=["saxpy=sm"])"});
  CHECK(kinds.cta_scheduler.by_kind.kernels == std::vector<std::string>{"saxpy=sm"});
  CHECK_THROWS_WITH(with({"cta_scheduler.l1_invalidation=always"}), Catch::Contains("cta_scheduler.l1_invalidation"));
  CHECK_THROWS_WITH(with({"cta_scheduler.steering=spread"}),
                    Catch::Contains("cta_scheduler.steering") && Catch::Contains("all, by_kind, ilp_tlp, split"));
  CHECK_THROWS_WITH(with({"cta_scheduler.steering=split", "cta_scheduler.split.parts=16"}),
                    Catch::Contains("cta_scheduler.split.parts") && Catch::Contains("the GPU has 15"));
  CHECK_THROWS_WITH(with({"cta_scheduler.split.when_full=queue"}), Catch::Contains("cta_scheduler.split.when_full"));
  CHECK_THROWS_WITH(with({"cta_scheduler.steering=by_kind", R"(cta_scheduler.by_kind.kernels=["saxpy"])"}),
                    Catch::Contains("cta_scheduler.by_kind.kernels[0]"));
  CHECK_THROWS_WITH(with({"cta_scheduler.steering=by_kind", "cta_scheduler.by_kind.default_kind=ilp"}),
                    Catch::Contains("cta_scheduler.by_kind.default_kind") && Catch::Contains("'ilp'"));
  // The GTX480 has no ILP SMs: the heterogeneous GPU's rule cannot apply.
  CHECK_THROWS_WITH(with({"cta_scheduler.steering=ilp_tlp"}), Catch::Contains("cta_scheduler.ilp_tlp.ilp_kind"));
  CHECK_THROWS_WITH(with({"cta_scheduler.ilp_tlp.when_busy=never"}), Catch::Contains("cta_scheduler.ilp_tlp.when_busy"));
}

TEST_CASE("fermi config rejects a malformed parameter of a steering policy not in use", "[gpu][fermi][steering]") {
  auto src = config::ConfigSource::from_file("configs/fermi_gtx480.json");
  src.apply_override(R"(cta_scheduler.by_kind.kernels=["a=b", "a=c"])");
  CHECK_THROWS_WITH(platforms::read_gpu_config(src), Catch::Contains("cta_scheduler.by_kind.kernels[1]"));
}
