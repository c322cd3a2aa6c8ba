#include "gpu/observe/time_series.h"

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>

namespace gputlm::gpu {

namespace {

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
    sampler_.add_probe(std::string("stall.") + sm::kElfStallNames[c], [this, c] {
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
    sampler_.add_probe(std::string("stall_kaws.") + sm::kKawsStallNames[c], [this, c] { return static_cast<double>(kaws_[c]); });
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
  const std::size_t before = sampler_.size();
  if (forced) sampler_.sample_now(cycle);
  else sampler_.sample(cycle);
  if (sampler_.size() == before) return;
  // Launches' instruction counts, recorded when they changed (a launch's count is 0 before
  // its first record and stays at its last one after it); launches below settled_ are done
  // and recorded for good.
  const std::size_t at = sampler_.size() - 1;
  const std::deque<KernelRun>& runs = gpu_.kernel_runs();
  launches_.resize(runs.size());
  for (uint32_t id = settled_; id < runs.size(); ++id) {
    LaunchTrace& t = launches_[id];
    const uint64_t n = gpu_.kernel_thread_instructions(id);
    if (n != t.last_value) {
      if (t.records == 0) t.first_record = launch_log_.size();
      const double row[2] = {static_cast<double>(id), static_cast<double>(n)};
      launch_log_.append(at, row);
      t.last_value = n;
      ++t.records;
    }
    if (id == settled_ && runs[id].done) ++settled_;
  }
}

void TimeSeries::at(uint64_t cycle) { sample(cycle, false); }

void TimeSeries::finish() { sample(gpu_.simulated_to(), true); }

namespace {

// JSON arrays written value by value (nlohmann's number format), so that a long series
// never exists as a JSON tree.
class ArrayWriter {
 public:
  explicit ArrayWriter(std::ostream& out) : out_(out) { out_ << '['; }
  ~ArrayWriter() { out_ << ']'; }
  void add(double v) {
    out_ << (first_ ? "" : ",") << nlohmann::json(v).dump();
    first_ = false;
  }
  void add(uint64_t v) {
    out_ << (first_ ? "" : ",") << v;
    first_ = false;
  }

 private:
  std::ostream& out_;
  bool first_ = true;
};

}  // namespace

void TimeSeries::write_json(std::ostream& out) const {
  const stats::RowLog& rows = sampler_.rows();
  const std::vector<std::string>& names = sampler_.names();
  const std::size_t n = rows.size();
  auto column_of = [&](const std::string& name) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return i;
    throw std::logic_error("time series: no column " + name);
  };
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  // One pass over the samples per output series: value(interval i, its length, row i-1, row i).
  std::vector<double> prev(rows.columns()), cur(rows.columns());
  // Every series by its key, written in key order (as a JSON object dumps).
  std::vector<std::pair<std::string, std::function<void()>>> all;
  auto series = [&](const std::string& key, auto value) {
    all.emplace_back(key, [&, value] {
      ArrayWriter a(out);
      uint64_t prev_cycle = 0, cycle = 0;
      for (std::size_t i = 0; i < n; ++i) {
        rows.read(i, cycle, cur.data());
        if (i > 0) a.add(value(static_cast<double>(cycle - prev_cycle), prev, cur));
        prev_cycle = cycle;
        std::swap(prev, cur);
      }
    });
  };

  const std::size_t thread = column_of("thread_instructions");
  series("ipc", [&](double len, const auto& p, const auto& c) { return ratio(c[thread] - p[thread], len); });
  // Per launch: 0 before its first record and after its last change. Labels repeat only in
  // hand-made specs; then the launch id tells them apart.
  const std::deque<KernelRun>& runs = gpu_.kernel_runs();
  std::map<std::string, int> uses;
  for (const KernelRun& r : runs) ++uses[r.label];
  for (uint32_t id = 0; id < runs.size(); ++id) {
    const std::string& label = runs[id].label;
    const std::string key = "ipc." + (label.empty() ? "k" + std::to_string(id)
                                      : uses[label] > 1 ? label + "#" + std::to_string(id) : label);
    all.emplace_back(key, [&, id] {
      ArrayWriter a(out);
      const LaunchTrace t = id < launches_.size() ? launches_[id] : LaunchTrace{};
      // Walk the launch log from the launch's first record: records are in sample order.
      std::size_t next = t.first_record, seen = 0;
      double count = 0, before = 0;
      for (std::size_t i = 0; i < n; ++i) {
        while (seen < t.records) {
          uint64_t sample;
          double rec[2];
          launch_log_.read(next, sample, rec);
          if (sample > i) break;
          ++next;
          if (static_cast<uint32_t>(rec[0]) != id) continue;
          count = rec[1];
          ++seen;
        }
        if (i > 0) a.add(ratio(count - before, static_cast<double>(rows.cycle(i) - rows.cycle(i - 1))));
        before = count;
      }
    });
  }
  const std::size_t l1_loads = column_of("l1d_loads"), l1_hits = column_of("l1d_load_hits");
  series("l1d_hit_rate", [&](double, const auto& p, const auto& c) {
    return ratio(c[l1_hits] - p[l1_hits], c[l1_loads] - p[l1_loads]);
  });
  const std::size_t l2_loads = column_of("l2_loads"), l2_hits = column_of("l2_load_hits");
  series("l2_hit_rate", [&](double, const auto& p, const auto& c) {
    return ratio(c[l2_hits] - p[l2_hits], c[l2_loads] - p[l2_loads]);
  });
  const std::size_t dram = column_of("dram_requests");
  const double line = gpu_.config().l2.bank.line_size;  // each DRAM request moves one L2 line
  series("dram_bytes_per_cycle",
         [&](double len, const auto& p, const auto& c) { return ratio((c[dram] - p[dram]) * line, len); });
  // Stall classes: the share of the interval's scheduler-cycles (all SMs) in that class.
  const double scheds = static_cast<double>(schedulers_);
  auto stall = [&](const std::string& key) {
    const std::size_t k = column_of(key);
    series(key, [&, k](double len, const auto& p, const auto& c) { return ratio(c[k] - p[k], len * scheds); });
  };
  for (const char* c : sm::kElfStallNames) stall(std::string("stall.") + c);
  for (const char* c : sm::kKawsStallNames) stall(std::string("stall_kaws.") + c);
  if (gpu_.cta_scheduler().limits_ctas()) {
    const std::size_t k = column_of("dyncta_n");
    series("dyncta_n", [k](double, const auto&, const auto& c) { return c[k]; });
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  out << "{\"cycle\": ";
  {
    ArrayWriter a(out);
    for (std::size_t i = 1; i < n; ++i) a.add(rows.cycle(i));
  }
  out << ", \"period\": " << sampler_.period() << ", \"series\": {";
  for (std::size_t k = 0; k < all.size(); ++k) {
    out << (k ? ",\n  " : "\n  ") << nlohmann::json(all[k].first).dump() << ": ";
    all[k].second();
  }
  out << "\n}}";
}

nlohmann::json TimeSeries::to_json() const {
  std::ostringstream s;
  write_json(s);
  return nlohmann::json::parse(s.str());
}

}  // namespace gputlm::gpu
