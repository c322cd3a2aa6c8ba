// Collector units, banked register file with per-bank arbitration, dispatch to the
// execution units; see operand_collector.h.
#include "sm/operand_collector/operand_collector.h"

#include <algorithm>
#include <sstream>

#include "core/config/config_source.h"

namespace gputlm::sm {

void OperandCollectorConfig::validate(const std::string& key_prefix) const {
  const std::string p = key_prefix.empty() ? "" : key_prefix + ".";
  auto positive = [&](uint32_t v, const char* key) {
    if (v == 0) throw config::ConfigError("key '" + p + key + "': must be at least 1");
  };
  positive(register_banks, "register_banks");
  positive(schedulers, "schedulers");
  positive(collectors_sp, "collectors_sp");
  positive(collectors_sfu, "collectors_sfu");
  positive(collectors_dp, "collectors_dp");
  positive(collectors_int, "collectors_int");
  positive(collectors_mem, "collectors_mem");
}

std::vector<UnitType> dispatch_ports(const ExecConfig& exec) {
  std::vector<UnitType> p;
  p.insert(p.end(), exec.sp_units, UnitType::Sp);
  p.insert(p.end(), exec.sfu_units, UnitType::Sfu);
  p.insert(p.end(), exec.dp_units, UnitType::Dp);
  p.insert(p.end(), exec.int_units, UnitType::Int);
  p.push_back(UnitType::Mem);
  return p;
}

void validate_unit_binding(const OperandCollectorConfig& cfg, const ExecConfig& exec, const std::string& key_prefix) {
  if (!cfg.units_per_scheduler) return;
  if (!cfg.per_scheduler)
    throw config::ConfigError("key '" + key_prefix + "operand_collector.units_per_scheduler': needs "
                              "operand_collector.per_scheduler = true");
  const std::pair<const char*, uint32_t> counts[] = {
      {"sp_units", exec.sp_units}, {"sfu_units", exec.sfu_units}, {"dp_units", exec.dp_units}, {"int_units", exec.int_units}};
  for (const auto& [key, n] : counts)
    if (n % cfg.schedulers != 0)
      throw config::ConfigError("key '" + key_prefix + "exec." + key + "': " + std::to_string(n) +
                                " units cannot be split evenly over " + std::to_string(cfg.schedulers) +
                                " schedulers (operand_collector.units_per_scheduler = true)");
}

namespace {
const std::vector<std::string> kUnitLabels{"sp", "sfu", "dp", "int", "mem"};
// busy_cycles' labels: per unit type, or per (scheduler, unit type) with per_scheduler.
std::vector<std::string> busy_labels(const OperandCollectorConfig& cfg) {
  if (!cfg.per_scheduler) return kUnitLabels;
  std::vector<std::string> l;
  for (uint32_t s = 0; s < cfg.schedulers; ++s)
    for (const auto& u : kUnitLabels) l.push_back("s" + std::to_string(s) + "." + u);
  return l;
}
}

OperandCollector::OperandCollector(sc_core::sc_module_name name, const OperandCollectorConfig& cfg,
                                   const ExecConfig& exec, const ClockDomain& domain, stats::Group& parent)
    : sc_core::sc_module(name),
      issue_in("issue_in"),
      issue_status_export("issue_status_export"),
      dispatch("dispatch"),
      unit_status("unit_status"),
      cfg_(cfg),
      has_dp_(exec.dp_units > 0),
      has_int_(exec.int_units > 0),
      divide_on_sfu_(exec.divide_on_sfu),
      domain_(domain),
      ports_(dispatch_ports(exec)),
      stats_(parent, basename()),
      instructions_(stats_, "instructions", "warp instructions placed in a collector unit"),
      operand_reads_(stats_, "operand_reads", "register operands read from the banks"),
      bank_conflict_cycles_(stats_, "bank_conflict_cycles",
                            "bank-cycles in which a bank had more eligible reads than it could serve"),
      dispatch_stall_cycles_(stats_, "dispatch_stall_cycles",
                             "cycles with a collector ready to dispatch whose units could not accept"),
      dispatched_(stats_, "dispatched", "instructions dispatched per unit type", kUnitLabels),
      busy_cycles_(stats_, "busy_cycles",
                   "collector-cycles the collector units held an instruction (from issue to the cycle after "
                   "dispatch), per unit type, per (scheduler, unit type) with per_scheduler (KAWS' OCU busy time)",
                   busy_labels(cfg)) {
  cfg_.validate("operand_collector");
  exec.validate("exec");
  validate_unit_binding(cfg_, exec, "");
  // The scheduler each dispatch port serves (kAnyScheduler: all).
  std::array<uint32_t, 5> rank{};
  for (UnitType u : ports_) {
    const uint32_t k = rank[static_cast<std::size_t>(u)]++;
    port_scheduler_.push_back(cfg_.units_per_scheduler && u != UnitType::Mem ? k % cfg_.schedulers : kAnyScheduler);
  }
  dispatch.init(ports_.size());
  unit_status.init(ports_.size());
  issue_status_export.bind(*this);
  issue_in.register_receiver([this](WarpInstruction& wi) { receive(wi); });

  const uint32_t groups = cfg_.per_scheduler ? cfg_.schedulers : 1;
  ranges_.resize(static_cast<std::size_t>(groups) * kUnitTypes);
  for (uint32_t s = 0; s < groups; ++s) {
    for (UnitType u : {UnitType::Sp, UnitType::Sfu, UnitType::Dp, UnitType::Int, UnitType::Mem}) {
      if ((u == UnitType::Dp && !has_dp_) || (u == UnitType::Int && !has_int_)) continue;
      Range& r = ranges_[s * kUnitTypes + static_cast<uint32_t>(u)];
      r.first = static_cast<uint32_t>(collectors_.size());
      for (uint32_t k = 0; k < cfg_.collectors(u); ++k) {
        Collector c;
        c.type = u;
        c.scheduler = s;
        collectors_.push_back(c);
      }
      r.end = static_cast<uint32_t>(collectors_.size());
    }
  }
  tried_.assign(collectors_.size(), 0);
  complete_.assign((collectors_.size() + 63) / 64, 0);
  banks_.resize(cfg_.register_banks);
  for (auto& b : banks_) b.reserve(collectors_.size() * kMaxReadKeys);
}

UnitType OperandCollector::unit_for(const isa::Instruction& in) const { return default_unit_for(in, has_dp_, has_int_, divide_on_sfu_); }

int32_t OperandCollector::find_free(uint32_t scheduler, UnitType unit, uint64_t now) const {
  const std::size_t group = cfg_.per_scheduler ? scheduler : 0;
  if (group * kUnitTypes >= ranges_.size()) return -1;
  const Range& r = ranges_[group * kUnitTypes + static_cast<uint32_t>(unit)];
  for (uint32_t i = r.first; i < r.end; ++i) {
    const Collector& c = collectors_[i];
    if (!c.wi && c.free_from <= now) return static_cast<int32_t>(i);
  }
  return -1;
}

bool OperandCollector::can_accept(uint32_t scheduler, UnitType unit) const {
  const uint64_t now = domain_.now();
  const uint32_t width = cfg_.issue_width(unit);
  if (width > 0 && issued_cycle_ == now && issued_[static_cast<std::size_t>(unit)] >= width) return false;
  return find_free(scheduler, unit, now) >= 0;
}

void OperandCollector::receive(WarpInstruction& wi) {
  const uint64_t now = domain_.now();
  const int32_t idx = find_free(wi.issue_scheduler, wi.unit, now);
  if (idx < 0)
    throw PipelineError(std::string(name()) + ": no free " + to_string(wi.unit) + " collector for scheduler " +
                        std::to_string(wi.issue_scheduler) + " in cycle " + std::to_string(now) + " (warp " +
                        std::to_string(wi.warp) + " seq " + std::to_string(wi.seq) + ", pipeline rule 1)");
  if (issued_cycle_ != now) {
    issued_cycle_ = now;
    issued_.fill(0);
  }
  const uint32_t width = cfg_.issue_width(wi.unit);
  if (++issued_[static_cast<std::size_t>(wi.unit)] == width) width_free_from_ = now + 1;
  if (width > 0 && issued_[static_cast<std::size_t>(wi.unit)] > width)
    throw PipelineError(std::string(name()) + ": " + std::to_string(issued_[static_cast<std::size_t>(wi.unit)]) + " " +
                        to_string(wi.unit) + " instructions issued in cycle " + std::to_string(now) +
                        ", issue_width " + std::to_string(width) + " (pipeline rule 1)");
  Collector& c = collectors_[static_cast<std::size_t>(idx)];
  c.wi = &wi;
  c.seq = wi.seq;
  c.allocated = now;
  c.pending = 0;
  c.ready = now + 2;  // no operands: allocated in now+1, dispatch from now+2
  ++occupied_;
  ++collector_events_;
  ++instructions_;
  // Distinct general registers (predicates are not in the banked register file).
  for (uint8_t i = 0; i < wi.n_reads; ++i) {
    const uint32_t reg = wi.reads[i];
    if (reg >= kPredicateKeyBase) continue;
    bool dup = false;
    for (uint8_t j = 0; j < i; ++j) dup = dup || wi.reads[j] == reg;
    if (dup) continue;
    banks_[bank_of(reg, wi.warp)].push_back(ReadRequest{order_++, now + 1, static_cast<uint32_t>(idx)});
    ++queued_reads_;
    ++c.pending;
  }
  if (c.pending == 0) set_complete(static_cast<std::size_t>(idx));
  wake_owner();
}

void OperandCollector::dispatch_ready(uint64_t cycle) {
  uint64_t any_complete = 0;
  for (uint64_t w : complete_) any_complete |= w;
  if (any_complete == 0) return;  // (every collector still reading operands)
  bool stalled = false;
  std::fill(tried_.begin(), tried_.end(), 0);
  for (;;) {
    // Oldest ready instruction first.
    std::size_t best = collectors_.size();
    for (std::size_t w = 0; w < complete_.size(); ++w) {
      for (uint64_t m = complete_[w]; m != 0; m &= m - 1) {
        const std::size_t i = w * 64 + static_cast<std::size_t>(__builtin_ctzll(m));
        const Collector& c = collectors_[i];
        if (c.ready > cycle || tried_[i]) continue;
        if (best == collectors_.size() || c.seq < collectors_[best].seq) best = i;
      }
    }
    if (best == collectors_.size()) break;
    Collector& c = collectors_[best];
    bool sent = false;
    for (std::size_t p = 0; p < ports_.size() && !sent; ++p) {
      if (ports_[p] != c.type || (port_scheduler_[p] != kAnyScheduler && port_scheduler_[p] != c.scheduler) ||
          !unit_if_[p]->can_accept())
        continue;
      WarpInstruction* wi = c.wi;
      wi->dispatch_cycle = cycle;
      c.wi = nullptr;
      clear_complete(best);
      c.free_from = cycle + 1;
      last_free_from_ = c.free_from;
      ++collector_events_;
      --occupied_;
      dispatched_.add(static_cast<std::size_t>(c.type));
      busy_cycles_.add((cfg_.per_scheduler ? c.scheduler * kUnitTypes : 0) + static_cast<std::size_t>(c.type),
                       c.free_from - c.allocated);
      dispatch[p].send(*wi);
      sent = true;
    }
    if (!sent) {
      // Its units are full this cycle; it keeps its instruction. So do the others of its
      // type and scheduler: they wait for the same ports, and dispatching frees none.
      stalled = true;
      const Range& r = ranges_[c.scheduler * kUnitTypes + static_cast<uint32_t>(c.type)];
      for (uint32_t i = r.first; i < r.end; ++i) tried_[i] = 1;
    }
  }
  if (stalled) ++dispatch_stall_cycles_;
}

void OperandCollector::read_banks(uint64_t cycle) {
  if (queued_reads_ == 0) return;  // (collectors waiting only for their units)
  for (auto& bank : banks_) {
    std::size_t best = bank.size();
    uint32_t eligible = 0;
    for (std::size_t i = 0; i < bank.size(); ++i) {
      const ReadRequest& r = bank[i];
      if (r.eligible > cycle) continue;
      const Collector& c = collectors_[r.collector];
      if (cfg_.reads_per_collector > 0 && c.read_cycle == cycle && c.reads_in_cycle >= cfg_.reads_per_collector)
        continue;
      ++eligible;
      if (best == bank.size() || r.order < bank[best].order) best = i;
    }
    if (best == bank.size()) continue;
    if (eligible > 1) ++bank_conflict_cycles_;
    const uint32_t ci = bank[best].collector;
    Collector& c = collectors_[ci];
    bank.erase(bank.begin() + static_cast<std::ptrdiff_t>(best));
    --queued_reads_;
    if (c.read_cycle != cycle) {
      c.read_cycle = cycle;
      c.reads_in_cycle = 0;
    }
    ++c.reads_in_cycle;
    ++operand_reads_;
    if (--c.pending == 0) {
      c.ready = cycle + 1;
      set_complete(ci);
    }
  }
}

bool OperandCollector::tick(uint64_t cycle) {
  if (occupied_ == 0) return false;
  if (unit_if_.empty())  // bound by now (one dense array: the ports are objects of their own)
    for (std::size_t p = 0; p < unit_status.size(); ++p) unit_if_.push_back(unit_status[p].operator->());
  dispatch_ready(cycle);
  read_banks(cycle);
  return occupied_ > 0;
}

std::string OperandCollector::state_dump() const {
  if (occupied_ == 0) return {};
  std::ostringstream os;
  os << name() << ":";
  for (const Collector& c : collectors_)
    if (c.wi)
      os << " [" << to_string(c.type) << " warp " << c.wi->warp << " seq " << c.wi->seq << " operands pending "
         << c.pending << "]";
  return os.str();
}

}  // namespace gputlm::sm
