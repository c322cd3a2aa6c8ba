// Configuration of one SM (all SMs of a GPU share it). Defaults are Fermi GTX480
// (seed-mechanisms §P1, ELF Table 1): 48 warps, 8 CTAs, 1536 threads, 32768 registers,
// 48 KB shared memory, 2 schedulers, 2-entry I-buffers, fetch 2 instructions of one warp
// per cycle, L1I 2 KB 4-way 128 B with 8 MSHRs, L1D 16 KB 4-way 128 B with 32 MSHRs,
// constant 8 KB 2-way 64 B, texture 16 KB 8-way 128 B.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config/params.h"
#include "mem/cache/cache_config.h"
#include "mem/cache/prefetch/data_prefetch_config.h"
#include "sm/branch/branch_config.h"
#include "sm/exec/exec_config.h"
#include "sm/lsu/lsu_config.h"
#include "sm/operand_collector/operand_collector_config.h"
#include "sm/scoreboard/scoreboard_config.h"

namespace gputlm::sm {

// Names accepted by SchedulerConfig::policy (the policy registry's keys, in order).
const std::vector<std::string>& scheduler_policy_names();

// ELF (digest §B1): the program-point pass the launcher runs per kernel and the warp
// priority table's update rule. Readings of the open points: docs/blocks/scheduler.md.
struct ElfSchedulerConfig {
  uint32_t max_pp = 32;
  uint32_t score_bits = 8;
  bool local_loads = true;
  bool generic_loads = true;
  std::string recalc_on = "not_taken";

  template <class V>
  void visit(V& v) {
    v.param("max_pp", max_pp, "program-point table slots (MAX_PP; 000 Table 3: 32)", config::in_range(1, 1024));
    v.param("score_bits", score_bits,
            "width of a PP score and of a warp priority table entry; MAX_SCORE = 2^score_bits - 1 (000: 8)",
            config::in_range(1, 16));
    v.param("local_loads", local_loads, "ld.local are program points (off-chip like global; 000 §3.1 is silent)",
            config::any());
    v.param("generic_loads", generic_loads,
            "loads without a state space are program points (they may address global memory)", config::any());
    v.param("recalc_on", recalc_on,
            "which outcome of a branch whose recalc bit is set reruns the priority calculator (a clear bit: "
            "the other outcome): not_taken (decrement-only updates are exact along the path the priority "
            "assumed; digest §Z1) or taken (000 §3.2 as written)",
            config::one_of({"not_taken", "taken"}));
  }
};

// CCWS (digest §A9; Rogers et al., MICRO 2012): victim tag arrays per warp beside the
// L1D, lost-locality scores and the cutoff that keeps low-score warps from issuing loads.
// The seeds leave every constant open; the defaults are our reading of Rogers' paper and
// public simulator (docs/blocks/scheduler.md, "CCWS").
struct CcwsSchedulerConfig {
  uint32_t vta_entries = 16;
  uint32_t vta_ways = 8;
  std::string vta_replacement = "fifo";
  uint32_t base_score = 100;
  uint32_t k_throttle = 8;
  uint32_t score_on_hit = 0;
  uint32_t score_cap_k = 8;
  uint32_t decay_per_cycle = 1;
  uint32_t cutoff_per_warp = 0;
  std::string throttle = "loads";

  template <class V>
  void visit(V& v) {
    v.param("vta_entries", vta_entries,
            "victim tags per warp (seeds: 16 tags of 40 bits per warp; Rogers MICRO'12: 16)",
            config::in_range(1, 4096));
    v.param("vta_ways", vta_ways,
            "associativity of a warp's victim tag array; must divide vta_entries (Rogers' simulator: 8, "
            "i.e. 2 sets of 8 at 16 entries)",
            config::in_range(1, 4096));
    v.param("vta_replacement", vta_replacement,
            "victim tag replacement within a set: fifo (Rogers' simulator) or lru (a VTA hit refreshes the tag)",
            config::one_of({"fifo", "lru"}));
    v.param("base_score", base_score,
            "lost-locality score (LLS) of a warp without lost locality; scores decay to it (Rogers: 100)",
            config::in_range(1, 1000000));
    v.param("k_throttle", k_throttle,
            "KThrottle: a VTA hit adds LLDS = VTA hits / instructions issued (of the resident warps) x "
            "k_throttle x cutoff to the warp's LLS (Rogers MICRO'12 eq. 1; his simulator: 8)",
            config::in_range(0, 1000000));
    v.param("score_on_hit", score_on_hit,
            "a constant added to the LLS on every VTA hit, besides LLDS (Rogers' simulator: 0)",
            config::in_range(0, 100000000));
    v.param("score_cap_k", score_cap_k,
            "k > 0: an LLS is capped at VTA hits / instructions x k x cutoff, never below base_score (Rogers' "
            "public simulator, which the seed sources ran: k = 8); 0: no cap (the paper's formula alone)",
            config::in_range(0, 1000000));
    v.param("decay_per_cycle", decay_per_cycle,
            "points every LLS above base_score loses per core cycle (Rogers: 1); at least 1, or a throttled "
            "warp waiting at a barrier for throttled warps would never be released",
            config::in_range(1, 1000000));
    v.param("cutoff_per_warp", cutoff_per_warp,
            "the cumulative-LLS cutoff is resident warps x this; 0 = base_score (Rogers: active warps x base "
            "score)",
            config::in_range(0, 100000000));
    v.param("throttle", throttle,
            "what a warp above the cutoff may not issue: loads (global/local/generic loads; the rest of its "
            "instructions issue; Rogers) or warps (it is left out of the issue order altogether)",
            config::one_of({"loads", "warps"}));
  }
};

// Mascar memory-aware scheduling (digest §B5; Sethia et al., HPCA'15): EP/MP modes from
// the L1 saturation flag, one owner warp per SM in MP mode. Readings of the open points
// (digest §Z30-34): docs/blocks/scheduler.md, "Mascar".
struct MascarSchedulerConfig {
  std::string memory_instructions = "l1";
  bool stranded_hits = true;

  template <class V>
  void visit(V& v) {
    v.param("memory_instructions", memory_instructions,
            "which instructions are memory instructions (the WST is_mem bit, what only the owner may issue in MP "
            "mode): l1 (those the LSU sends to an L1 cache: global, local, generic, constant and texture "
            "accesses and atomics; not kernel-parameter loads) or lsu (every instruction of the LSU: shared "
            "memory, parameter loads and membar included)",
            config::one_of({"l1", "lsu"}));
    v.param("stranded_hits", stranded_hits,
            "count sm<i>.mascar.stranded_hit_cycles (002 Fig. 5): in cycles without issue while the LSU is "
            "stalled by saturation, the next global load of every warp is probed in the L1D (host time)",
            config::any());
  }
};

// LAWS (digest §B3; 001 §2.5): the locality score switching GTO / GTLR, and LAWS-TH's
// throttling unit (§B4; 001 §3.3). Readings of the open points (digest §Z11, §Z14, §Z16,
// §Z18): docs/blocks/scheduler.md, "LAWS".
struct LawsSchedulerConfig {
  uint32_t miss_cnt_max = 31;
  std::string scope = "sm";
  uint32_t min_limit = 2;
  uint32_t divergence_loads = 8;
  uint64_t hold_cycles = 1000;
  uint32_t stable_periods = 8;
  std::string stable_rule = "neither";
  std::string release = "on_full_event";
  int32_t initial_score = 0;

  template <class V>
  void visit(V& v) {
    v.param("miss_cnt_max", miss_cnt_max,
            "saturation value of Miss_CNT, the primary misses since the last inter-warp hit (001 §2.7.3.2: "
            "15-63 work, 31 used; 5 bits)",
            config::in_range(1, 32767));
    v.param("scope", scope,
            "which warps one locality score serves (digest §Z18, unspecified): sm (one score per SM, fed by "
            "every L1D load) or scheduler (one per warp scheduler, fed by its warps' loads)",
            config::one_of({"sm", "scheduler"}));
    v.param("min_limit", min_limit, "laws_th / laws_nmd: the smallest warp limit (001 §3.3: 2)",
            config::in_range(1, 64));
    v.param("divergence_loads", divergence_loads,
            "laws_th: memory-divergence throttling when fewer than this many warps own the full L1D MSHRs "
            "(Load_CNT; 001 §3.3.2: 8)",
            config::in_range(1, 64));
    v.param("hold_cycles", hold_cycles,
            "laws_th / laws_nmd: a warp limit holds at least this many core cycles; the next MSHR-full event "
            "after it re-decides (001 §3.3: 1K)",
            config::in_range(1, 1000000000));
    v.param("stable_periods", stable_periods,
            "laws_th / laws_nmd: throttling decisions without a Min_CNT / Max_CNT update after which the limit "
            "is (Min_CNT + Max_CNT) / 2 rounded up (001 §3.3.1: 8; 6-24 are stable)",
            config::in_range(1, 1000000));
    v.param("stable_rule", stable_rule,
            "which counters must stay unchanged for a stable period (digest §Z16): neither (neither Min_CNT "
            "nor Max_CNT changed; the likely intent) or either (one of them did not change; the literal text)",
            config::one_of({"neither", "either"}));
    v.param("release", release,
            "laws_th / laws_nmd: what ends a warp limit (001 §3.3 names none, digest §Z17): on_full_event (only "
            "the next decision, at an MSHR-full event after the hold; the thesis text, so a limit stays while "
            "the MSHRs never fill again) or hold_expiry (also lifted once the hold has expired and hold_cycles "
            "passed without an MSHR-full event)",
            config::one_of({"on_full_event", "hold_expiry"}));
    v.param("initial_score", initial_score,
            "the locality score (and so the mode) an SM starts a kernel with: 0 (the thesis, 001 §2.5: the "
            "score is 0 at kernel launch, so GTO until the first inter-warp hit); a negative value starts in "
            "GTLR (an experiment knob: how much the GTO prologue costs)",
            config::in_range(-32768, 32767));
  }
};

// OWL (digest §A7; Jog et al., ASPLOS 2013, §4.1-4.3) without its memory-side prefetcher
// (Mascar 002 §IV-C models it so): CTA groups, the priority among them, and the BLP-aware
// pairing across SMs. The seeds leave group size, rotation and pairing open; the defaults
// are our reading of the paper (docs/blocks/scheduler.md, "OWL").
struct OwlSchedulerConfig {
  std::string scheme = "blp";
  uint32_t group_warps = 8;
  std::string inner_policy = "lrr";
  uint32_t blp_groups = 2;

  template <class V>
  void visit(V& v) {
    v.param("scheme", scheme,
            "which of OWL's scheduling components run (Jog ASPLOS'13 §4): cta_aware (CTA-aware two-level: the "
            "active CTA group first, the next group in round-robin order when none of its warps can issue; "
            "§4.1), locality (CTA-aware-locality: the oldest CTA group always first, so it keeps priority until it "
            "finishes and regains it as soon as one of its warps is ready; §4.2) or blp (locality, with the "
            "groups of odd and even SMs prioritised out of step so that neighbouring SMs favour non-consecutive "
            "CTAs; §4.3; the memory-side prefetch of §4.4 is not modelled)",
            config::one_of({"cta_aware", "locality", "blp"}));
    v.param("group_warps", group_warps,
            "smallest number of warps a CTA group holds: a CTA placed on the SM joins the youngest group while "
            "that group (of the same kernel) has fewer warps, else it opens a new group; with CTAs of at least "
            "this many warps every group is one CTA (default 8: the fetch-group size of two-level scheduling, "
            "001 §2.3, that OWL's groups must at least fill; at most sm.max_warps)",
            config::in_range(1, 64));
    v.param("inner_policy", inner_policy,
            "order of the warps inside a group (OWL builds on round-robin two-level scheduling: lrr)",
            config::one_of({"lrr", "gto", "oldest", "gtrr", "gtlr"}));
    v.param("blp_groups", blp_groups,
            "blp: groups are taken in blocks of this many consecutive groups of a kernel (in placement order on "
            "the SM); SM i serves block members starting at member i mod blp_groups, so SMs next to each other "
            "(which the CTA scheduler gives consecutive CTAs) prioritise different groups; 1 = as locality "
            "(default 2: odd and even SMs, the two-core pairing of §4.3; at most sm.max_ctas)",
            config::in_range(1, 64));
  }
};

// KAWS (seed 003 §3, digest §B6-B7): kernel-aware order and warp sharing.
struct KawsSchedulerConfig {
  bool greedy = false;

  template <class V>
  void visit(V& v) {
    v.param("greedy", greedy,
            "kaws: in normal mode (before the kernel's last CTA is issued) the warp this scheduler issued last "
            "goes first, then the oldest (GTO); false: oldest first, GTO without its greedy part (003 §4.1; "
            "§3 says only age-based: digest §Z35)",
            config::any());
  }
};

struct SchedulerConfig {
  uint32_t count = 2;
  std::string policy = "gto";
  bool dual_issue = false;
  uint32_t fetch_group_size = 8;
  std::string inner_policy = "lrr";
  std::string outer_policy = "lrr";
  uint32_t warp_limit = 48;
  std::string warp_limit_scope = "scheduler";
  std::string impl = "tlm";
  bool verify_repeats = false;
  bool warp_sharing = false;
  ElfSchedulerConfig elf;
  CcwsSchedulerConfig ccws;
  MascarSchedulerConfig mascar;
  OwlSchedulerConfig owl;
  LawsSchedulerConfig laws;
  KawsSchedulerConfig kaws;

  template <class V>
  void visit(V& v) {
    v.param("impl", impl,
            "implementation of the policy: tlm (the C++ policy), rtl (the Verilated RTL of "
            "modules/sm/scheduler/rtl/warp_order.sv behind its transactor; policies gto and lrr), compare (both "
            "each cycle; a difference is an error naming the cycle's two orders)",
            config::one_of({"tlm", "rtl", "compare"}));
    v.param("count", count, "warp schedulers per SM; scheduler i owns warp slots w with w mod count == i",
            config::in_range(1, 8));
    v.param("policy", policy,
            "issue policy: lrr (loose round robin), gto (greedy then oldest), oldest (oldest first), "
            "gtrr (greedy then round robin), gtlr (greedy, round robin after a load), sfp (fixed "
            "priority by warp id), elf (lowest ELF warp priority first, ties oldest first), two_level "
            "(fetch groups: inner_policy inside the active group, outer_policy between groups), swl (GTO over the warp_limit oldest warps; B-SWL), "
            "ccws (GTO; warps whose stacked lost-locality score is above the cutoff may not issue loads; "
            "Rogers MICRO'12), mascar (002: EP mode memory-ready warps first, GTO within; MP mode, while an L1 "
            "is almost full, compute-ready warps first, oldest within, and only the owner warp issues memory "
            "instructions), owl (CTA groups: the prioritised group's warps first, in inner order; Jog "
            "ASPLOS'13 without the memory-side prefetch; sm.scheduler.owl.*), laws (001 §2.5: GTO while the L1D "
            "locality score is >= 0, GTLR while it is negative), laws_th (LAWS with the throttling unit of 001 "
            "§3.3: on L1D MSHR-full events in GTO mode, a warp limit from intra-warp hits or memory divergence), "
            "laws_nmd (laws_th without the memory-divergence rule), kaws (003 §3: oldest first until the kernel's "
            "last CTA is issued to the GPU, then the warps of the CTAs with the fewest warp instructions issued "
            "first, oldest within; sm.scheduler.kaws.*)",
            config::one_of(scheduler_policy_names()));
    v.param("dual_issue", dual_issue,
            "a scheduler may issue a second instruction of the same warp in the same cycle (its "
            "next I-buffer entry) when that is ready and goes to a different unit type (GPGPU-Sim "
            "Fermi dual issue)",
            config::any());
    v.param("fetch_group_size", fetch_group_size, "two_level: warps per fetch group (001 §2.3: 8)",
            config::at_least(1));
    v.param("inner_policy", inner_policy, "two_level: policy inside the active group",
            config::one_of({"lrr", "gto", "gtrr", "gtlr", "oldest"}));
    v.param("outer_policy", outer_policy,
            "two_level: order of the other groups: lrr (next group after the active one) or gto "
            "(oldest group first)",
            config::one_of({"lrr", "gto"}));
    v.param("warp_limit", warp_limit,
            "swl: warps that may issue (the oldest ones in GTO age order, not counting warps waiting at a "
            "barrier, which are never held)",
            config::at_least(1));
    v.param("warp_limit_scope", warp_limit_scope,
            "swl: what warp_limit counts: scheduler (each scheduler's warps; GPGPU-Sim's swl) or sm (the SM's "
            "warps, as LAWS-TH's limit: 001 §3.2's B-SWL searches 1..48 per SM)",
            config::one_of({"scheduler", "sm"}));
    v.param("verify_repeats", verify_repeats,
            "check every cycle in which a scheduler repeats its last decision (nothing it was decided "
            "from changed) against a full evaluation of its warps; a difference is an error naming the "
            "scheduler, the cycle and the warps (for tests: slower)",
            config::any());
    v.param("warp_sharing", warp_sharing,
            "KAWS' warp-sharing unit (003 §3, digest §B7), under any policy: a scheduler that issues none of its "
            "own warps in a cycle issues, on its own collector and unit, the oldest warp of another scheduler "
            "whose next instruction waits for that scheduler's busy collector of its unit type while this "
            "scheduler's is free (needs sm.operand_collector.per_scheduler)",
            config::any());
    v.group("elf", elf, "elf: program points and warp priority table (000 §3.1-3.2)");
    v.group("ccws", ccws, "ccws: victim tag arrays and lost-locality scoring (digest §A9, Rogers MICRO'12)");
    v.group("mascar", mascar, "mascar: memory-aware scheduling (digest §B5, 002 §III-A/B)");
    v.group("owl", owl, "owl: CTA groups, their priority and the BLP-aware pairing (digest §A7, Jog ASPLOS'13 §4)");
    v.group("laws", laws, "laws, laws_th, laws_nmd: locality score and throttling unit (digest §B3-B4, 001 §2.5, §3.3)");
    v.group("kaws", kaws, "kaws: kernel-aware warp order (digest §B6, 003 §3)");
  }
};

struct FetchConfig {
  uint32_t width = 2;
  uint32_t per_cycle = 1;
  uint32_t ibuffer_entries = 2;
  std::string eligible = "room_for_width";
  std::string policy = "round_robin";
  uint64_t code_base = 0x0000400000000000ull;
  std::string prefetch = "none";
  uint32_t prefetch_mshr_threshold = 16;

  template <class V>
  void visit(V& v) {
    v.param("width", width, "instructions fetched for one warp per cycle (ELF: 2)", config::in_range(1, 8));
    v.param("per_cycle", per_cycle,
            "warps that may fetch in one cycle, each one L1I read (GPGPU-Sim -gpgpu_inst_fetch_throughput; 1 on "
            "Fermi, 8 on its Pascal TITAN X). The L1I queues them (input_queue) and looks up port_width per "
            "cycle",
            config::in_range(1, 64));
    v.param("ibuffer_entries", ibuffer_entries, "decoded instructions buffered per warp",
            config::in_range(1, 16));
    v.param("eligible", eligible,
            "when a warp without a fetch outstanding may fetch: room_for_width (min(width, ibuffer_entries) "
            "free I-buffer entries; GPGPU-Sim) or not_full (any free entry, 000 §3.3 / digest §B2 rule 3; "
            "it fetches as many as fit, up to width)",
            config::one_of({"room_for_width", "not_full"}));
    v.param("policy", policy,
            "which warp fetches: round_robin (next eligible warp after the last one fetched) or "
            "scheduler_priority (ELF 000 §3.3: the schedulers' priority lists interleaved, S0's "
            "best, S1's best, S0's second, ...)",
            config::one_of({"round_robin", "scheduler_priority"}));
    v.param("code_base", code_base,
            "address of PC 0 in the memory system (instruction fetches go to code_base + PC); a "
            "region no data allocation uses",
            config::any());
    v.param("prefetch", prefetch,
            "L1I prefetcher: none, or next_line (ELF 000 §3.5: on a demand miss to line X, prefetch "
            "X+1 if L1I + L1D MSHRs occupied < prefetch_mshr_threshold)",
            config::one_of({"none", "next_line"}));
    v.param("prefetch_mshr_threshold", prefetch_mshr_threshold,
            "next_line: prefetch only while occupied L1I + L1D MSHRs are below this (ELF T = 16; 0 "
            "disables)",
            config::at_least(0));
  }
};

struct SmConfig {
  uint32_t warp_size = 32;
  uint32_t max_warps = 48;
  uint32_t max_ctas = 8;
  uint32_t max_threads = 1536;
  uint32_t registers = 32768;
  uint32_t shared_bytes = 48 * 1024;
  SchedulerConfig scheduler;
  ScoreboardConfig scoreboard;
  BranchConfig branch;
  FetchConfig fetch;
  mem::CacheConfig l1i = default_l1i();
  mem::CacheConfig l1d = default_l1d();
  mem::CacheConfig l1c = default_l1c();
  mem::CacheConfig l1t = default_l1t();
  OperandCollectorConfig operand_collector;
  ExecConfig exec;
  LsuConfig lsu;
  mem::DataPrefetchConfig l1d_prefetch;
  uint32_t mem_port_queue = 4;

  template <class V>
  void visit(V& v) {
    v.param("warp_size", warp_size, "threads per warp (SIMT width; the functional model is 32-wide)",
            config::in_range(32, 32));
    v.param("max_warps", max_warps, "warp slots per SM", config::in_range(1, 64));
    v.param("max_ctas", max_ctas, "CTA slots per SM", config::in_range(1, 64));
    v.param("max_threads", max_threads, "resident threads per SM", config::at_least(1));
    v.param("registers", registers, "32-bit registers per SM", config::at_least(1));
    v.param("shared_bytes", shared_bytes, "shared memory per SM in bytes", config::at_least(0));
    v.group("scheduler", scheduler, "warp schedulers");
    v.group("scoreboard", scoreboard, "register hazards checked at issue");
    v.group("branch", branch, "branch prediction and the control hazard at issue (004 section 4.3)");
    v.group("fetch", fetch, "fetch unit and instruction buffers");
    v.group("l1i", l1i, "L1 instruction cache (read_only, reject mode)");
    v.group("l1d", l1d, "L1 data cache (reject mode)");
    v.group("l1c", l1c, "L1 constant cache (read_only, reject mode)");
    v.group("l1t", l1t, "L1 texture cache (read_only, reject mode)");
    v.group("operand_collector", operand_collector, "operand collectors and register-file banks");
    v.group("exec", exec, "execution units and writeback");
    v.group("lsu", lsu, "load/store unit");
    v.group("l1d_prefetch", l1d_prefetch,
            "L1D data prefetcher fed by the LSU's global loads; the L1D is the prefetch cache (001 ch. 4)");
    v.param("mem_port_queue", mem_port_queue,
            "requests the SM's memory port arbiter (L1I/L1D/L1C/L1T misses -> interconnect) holds per cache",
            config::at_least(1));
  }

  // Cross-field checks (config::ConfigError naming key_prefix.key).
  void validate(const std::string& key_prefix) const;

  static mem::CacheConfig default_l1i();
  static mem::CacheConfig default_l1d();
  static mem::CacheConfig default_l1c();
  static mem::CacheConfig default_l1t();
};

}  // namespace gputlm::sm
