#include "gpu/observe/time_series.h"

#include <map>

namespace gputlm::gpu {

namespace {

const char* const kElfNames[] = {"mem_conflict", "mem_dep", "fetch", "other"};
const char* const kKawsNames[] = {"idle", "scoreboard", "pipeline"};

// The sum of one statistic over a set of groups ("sm0".."sm14" + ".l1d.loads").
double sum_of(const std::vector<const stats::Stat*>& stats) {
  double s = 0;
  for (const stats::Stat* st : stats) s += st->scalar(stats::View::Total);
  return s;
}

}  // namespace

TimeSeries::TimeSeries(Gpu& gpu, uint64_t period)
    : gpu_(gpu),
      schedulers_([&gpu] {
        uint64_t n = 0;  // kinds may differ in schedulers per SM
        for (uint32_t i = 0; i < gpu.config().sms; ++i) n += gpu.config().sm_config(i).scheduler.count;
        return n;
      }()),
      sampler_(gpu.stats(), period, {}),
      elf_(sm::kElfStalls),
      kaws_(sm::kKawsStalls) {
  const GpuConfig& cfg = gpu.config();
  auto collect = [&](const std::string& prefix, uint32_t n, const std::string& stat) {
    std::vector<const stats::Stat*> v;
    for (uint32_t i = 0; i < n; ++i) {
      const std::string path = prefix + std::to_string(i) + "." + stat;
      const stats::Stat* s = gpu.stats().find(path);
      if (s == nullptr) throw std::logic_error("time series: no statistic '" + path + "' (renamed?)");
      v.push_back(s);
    }
    return v;
  };
  auto add_sum = [&](const std::string& name, std::vector<const stats::Stat*> v) {
    sampler_.add_probe(name, [v = std::move(v)] { return sum_of(v); });
  };
  add_sum("thread_instructions", collect("sm", cfg.sms, "thread_instructions"));
  add_sum("l1d_loads", collect("sm", cfg.sms, "l1d.loads"));
  add_sum("l1d_load_hits", collect("sm", cfg.sms, "l1d.load_hits"));
  auto banks = [&](const std::string& stat) {  // every sub-partition's bank
    std::vector<const stats::Stat*> v;
    for (uint32_t k = 0; k < cfg.l2.sub_partitions; ++k)
      for (const stats::Stat* s : collect("l2p", cfg.partitions, "sub" + std::to_string(k) + ".bank." + stat))
        v.push_back(s);
    return v;
  };
  add_sum("l2_loads", banks("loads"));
  add_sum("l2_load_hits", banks("load_hits"));
  std::vector<const stats::Stat*> dram = collect("l2p", cfg.partitions, "dram.reads");
  for (const stats::Stat* s : collect("l2p", cfg.partitions, "dram.writes")) dram.push_back(s);
  add_sum("dram_requests", std::move(dram));
  // Stall classes of every SM, with the cycles sleeping SMs have not accounted yet: one
  // pass over the SMs per sample (the elf probe), read by the others.
  for (int c = 0; c < sm::kElfStalls; ++c)
    sampler_.add_probe(std::string("stall.") + kElfNames[c], [this, c] {
      if (c == 0) {
        std::fill(elf_.begin(), elf_.end(), 0);
        std::fill(kaws_.begin(), kaws_.end(), 0);
        uint64_t e[sm::kElfStalls], k[sm::kKawsStalls];
        for (uint32_t i = 0; i < gpu_.config().sms; ++i) {
          gpu_.sm(i).core().stall_cycles(stall_cycle_, e, k);
          for (int j = 0; j < sm::kElfStalls; ++j) elf_[j] += e[j];
          for (int j = 0; j < sm::kKawsStalls; ++j) kaws_[j] += k[j];
        }
      }
      return static_cast<double>(elf_[c]);
    });
  for (int c = 0; c < sm::kKawsStalls; ++c)
    sampler_.add_probe(std::string("stall_kaws.") + kKawsNames[c], [this, c] { return static_cast<double>(kaws_[c]); });
  // DYNCTA: the mean CTA limit n over the SMs at each sample (a level, not a rate).
  if (gpu.cta_scheduler().limits_ctas())
    sampler_.add_probe("dyncta_n", [this] {
      const CtaScheduler& cs = gpu_.cta_scheduler();
      double sum = 0;
      for (uint32_t i = 0; i < cs.sm_count(); ++i) sum += cs.cta_limit(i);
      return cs.sm_count() ? sum / cs.sm_count() : 0.0;
    });
  sample(gpu.simulated_to(), true);
  gpu.add_run_observer(*this);
}

void TimeSeries::sample(uint64_t cycle, bool forced) {
  stall_cycle_ = cycle;
  const std::size_t before = sampler_.cycles().size();
  if (forced) sampler_.sample_now(cycle);
  else sampler_.sample(cycle);
  if (sampler_.cycles().size() == before) return;
  std::vector<uint64_t> k;
  for (uint32_t id = 0; id < gpu_.kernel_runs().size(); ++id) k.push_back(gpu_.kernel_thread_instructions(id));
  kernel_instructions_.push_back(std::move(k));
}

void TimeSeries::at(uint64_t cycle) { sample(cycle, false); }

void TimeSeries::finish() { sample(gpu_.simulated_to(), true); }

nlohmann::json TimeSeries::to_json() const {
  const std::vector<uint64_t>& cyc = sampler_.cycles();
  const std::vector<std::string>& names = sampler_.names();
  auto column = [&](const std::string& name) -> const std::vector<double>& {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return sampler_.values(i);
    throw std::logic_error("time series: no column " + name);
  };
  auto delta = [](const std::vector<double>& v, std::size_t i) { return v[i] - v[i - 1]; };
  auto ratio = [](double n, double d) { return d > 0 ? n / d : 0.0; };

  nlohmann::json series = nlohmann::json::object();
  nlohmann::json cycles = nlohmann::json::array();
  std::vector<double> len;
  for (std::size_t i = 1; i < cyc.size(); ++i) {
    cycles.push_back(cyc[i]);
    len.push_back(static_cast<double>(cyc[i] - cyc[i - 1]));
  }
  auto per_interval = [&](const std::string& key, auto value) {
    nlohmann::json a = nlohmann::json::array();
    for (std::size_t i = 1; i < cyc.size(); ++i) a.push_back(value(i, len[i - 1]));
    series[key] = std::move(a);
  };
  const auto& thread = column("thread_instructions");
  per_interval("ipc", [&](std::size_t i, double l) { return ratio(delta(thread, i), l); });
  // Per launch: a launch's instructions before it existed count as 0. Labels repeat only
  // in hand-made specs; then the launch id tells them apart.
  const std::deque<KernelRun>& runs = gpu_.kernel_runs();
  std::map<std::string, int> uses;
  for (const KernelRun& r : runs) ++uses[r.label];
  for (uint32_t id = 0; id < runs.size(); ++id) {
    const std::string& label = runs[id].label;
    const std::string key = "ipc." + (label.empty() ? "k" + std::to_string(id)
                                      : uses[label] > 1 ? label + "#" + std::to_string(id) : label);
    auto at = [&](std::size_t i) {
      const std::vector<uint64_t>& k = kernel_instructions_[i];
      return id < k.size() ? static_cast<double>(k[id]) : 0.0;
    };
    per_interval(key, [&](std::size_t i, double l) { return ratio(at(i) - at(i - 1), l); });
  }
  const auto &l1_loads = column("l1d_loads"), &l1_hits = column("l1d_load_hits");
  per_interval("l1d_hit_rate", [&](std::size_t i, double) { return ratio(delta(l1_hits, i), delta(l1_loads, i)); });
  const auto &l2_loads = column("l2_loads"), &l2_hits = column("l2_load_hits");
  per_interval("l2_hit_rate", [&](std::size_t i, double) { return ratio(delta(l2_hits, i), delta(l2_loads, i)); });
  const auto& dram = column("dram_requests");
  const double line = gpu_.config().l2.bank.line_size;  // each DRAM request moves one L2 line
  per_interval("dram_bytes_per_cycle", [&](std::size_t i, double l) { return ratio(delta(dram, i) * line, l); });
  // Stall classes: the share of the interval's scheduler-cycles (all SMs) in that class.
  const double scheds = static_cast<double>(schedulers_);
  for (const char* c : kElfNames) {
    const auto& v = column(std::string("stall.") + c);
    per_interval(std::string("stall.") + c, [&](std::size_t i, double l) { return ratio(delta(v, i), l * scheds); });
  }
  for (const char* c : kKawsNames) {
    const auto& v = column(std::string("stall_kaws.") + c);
    per_interval(std::string("stall_kaws.") + c,
                 [&](std::size_t i, double l) { return ratio(delta(v, i), l * scheds); });
  }
  if (gpu_.cta_scheduler().limits_ctas()) {
    const auto& n = column("dyncta_n");
    per_interval("dyncta_n", [&](std::size_t i, double) { return n[i]; });
  }
  return {{"period", sampler_.period()}, {"cycle", cycles}, {"series", series}};
}

}  // namespace gputlm::gpu
