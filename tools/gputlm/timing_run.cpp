#include "timing_run.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/tlm/sqlite_transaction_sink.h"
#include "gpu/observe/socket_taps.h"
#include "gpu/observe/time_series.h"
#include "gpu/observe/timeline.h"
#include "gpu/run_summary.h"
#include "gpu/timing_backend.h"
#include "isa/ir.h"
#include "platforms/gpu_platform.h"
#include "runtime/concurrent_spec.h"
#include "runtime/launch_spec.h"
#include "runtime/runtime.h"
#include "runtime/spec_runner.h"

namespace gputlm::cli {

namespace {

std::string short_name(const std::string& mangled) {
  std::string d = isa::demangle(mangled);
  return d.substr(0, d.find('('));
}

double rate(double n, double seconds) { return seconds > 0 ? n / seconds : 0.0; }

// Forwards to the timing backend and adds up the host time of its synchronisations, where
// the GPU simulates. Per-launch host seconds (admission to completion) overlap when
// launches on different streams do, so their sum would count that time twice.
class SynchronizeTimer : public runtime::ExecutionBackend {
 public:
  explicit SynchronizeTimer(std::unique_ptr<runtime::ExecutionBackend> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  void launch(const runtime::LaunchRequest& request) override { inner_->launch(request); }
  std::vector<runtime::LaunchResult> synchronize() override {
    return timed([&] { return inner_->synchronize(); });
  }
  std::vector<runtime::LaunchResult> synchronize_stream(std::optional<uint32_t> stream) override {
    return timed([&] { return inner_->synchronize_stream(stream); });
  }
  double seconds() const { return seconds_; }

 private:
  template <class Sync>
  std::vector<runtime::LaunchResult> timed(Sync sync) {
    const auto begin = std::chrono::steady_clock::now();
    std::vector<runtime::LaunchResult> out = sync();
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return out;
  }

  std::unique_ptr<runtime::ExecutionBackend> inner_;
  double seconds_ = 0;
};

// "[=====>    ] 412/1024 CTAs  cycle 123456" on stderr, rewritten in place.
class ProgressBar {
 public:
  explicit ProgressBar(gpu::Gpu& g) : gpu_(g) {}
  void update(uint64_t cycle) {
    uint64_t done = 0, total = 0;
    for (const gpu::KernelRecord* r : gpu_.cta_scheduler().running()) {
      done += r->ctas_completed;
      total += r->cta_count;
    }
    const int width = 30;
    const int filled = total ? static_cast<int>(width * done / total) : 0;
    std::string bar(static_cast<std::size_t>(filled), '=');
    bar.resize(width, ' ');
    std::fprintf(stderr, "\r[%s] %llu/%llu CTAs  core cycle %llu ", bar.c_str(), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total), static_cast<unsigned long long>(cycle));
    std::fflush(stderr);
    shown_ = true;
  }
  void finish() {
    if (shown_) std::fprintf(stderr, "\r%60s\r", "");
  }

 private:
  gpu::Gpu& gpu_;
  bool shown_ = false;
};

nlohmann::json outputs_json(const runtime::SpecReport& rep) {
  nlohmann::json out = nlohmann::json::array();
  for (const runtime::OutputReport& o : rep.outputs) {
    nlohmann::json e;
    e["buffer"] = o.buffer;
    e["checked"] = o.checked;
    if (o.checked) {
      e["ok"] = o.compare.ok();
      e["mismatches"] = o.compare.mismatches;
      e["message"] = o.message();
    }
    out.push_back(e);
  }
  return out;
}

// What a run observes besides its statistics: the files are created (and their errors
// reported) before anything is simulated; the sinks outlive the GPU that reports to them.
struct Observation {
  std::unique_ptr<gpu::Timeline> timeline;
  std::unique_ptr<SqliteTransactionSink> database;
  gpu::SocketTaps taps;

  explicit Observation(const TimingRunOptions& o) {
    if (!o.timeline_window.empty() && o.timeline_path.empty())
      throw std::invalid_argument("--timeline-window needs --timeline FILE");
    if (!o.transactions_on.empty() && o.timeline_path.empty() && o.transactions_path.empty())
      throw std::invalid_argument("--transactions-on needs --transactions FILE or --timeline FILE");
    std::vector<std::string> kinds;
    try {
      kinds = gpu::parse_socket_kinds(o.transactions_on.empty() ? "l1d,l2,dram" : o.transactions_on);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--transactions-on: ") + e.what());
    }
    trace::Window window;
    if (!o.timeline_window.empty()) {
      try {
        window = gpu::parse_cycle_window(o.timeline_window);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("--timeline-window: ") + e.what());
      }
    }
    if (!o.timeline_path.empty()) {
      timeline = std::make_unique<gpu::Timeline>(o.timeline_path, window, o.timeline_counter_period);
      taps.observe(kinds, *timeline);
    }
    if (!o.transactions_path.empty()) {
      database = std::make_unique<SqliteTransactionSink>(o.transactions_path);
      taps.observe(kinds, *database);
    }
  }

  // The run's facts, what was still in flight (nothing, unless the run failed), commit.
  void close_database(const TimingRunOptions& o, const gpu::GpuConfig& cfg) {
    if (!database) return;
    database->set_info("spec", o.spec_path);
    database->set_info("config", o.config_path);
    database->set_info("platform", cfg.name);
    database->set_info("core_mhz", std::to_string(cfg.clocks.core_mhz));
    database->set_info("unfinished_transactions", std::to_string(taps.open_transactions()));
    taps.report_unfinished();
    database->close();
  }
};

uint64_t parse_count(const std::string& option, const std::string& text) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || text[0] == '-')
    throw std::invalid_argument(option + ": '" + text + "' is not a number of core cycles");
  return v;
}

// With sm_groups: each SM kind's SMs and share of the instructions (IPC over the run's cycles).
nlohmann::json kinds_json(const gpu::RunSummary& s) {
  nlohmann::json out = nlohmann::json::object();
  for (const gpu::KindTotals& k : s.kinds)
    out[k.kind] = {{"first_sm", k.first_sm},
                   {"sms", k.sms},
                   {"warp_instructions", k.warp_instructions},
                   {"thread_instructions", k.thread_instructions},
                   {"ipc", s.cycles ? static_cast<double>(k.thread_instructions) / static_cast<double>(s.cycles) : 0.0}};
  return out;
}

// Per stream: its launches' instructions, first start and last end cycle, and its IPC over
// `cycles`, from the run's first cycle to the stream's last end: every stream's first launch
// was submitted then (a spec's launches are all issued before the GPU runs), so the time a
// launch waited for SMs held by another stream counts against its stream, as it does
// against a kernel sharing the GPU. What a concurrent run's weighted speedup divides
// (docs/launch-spec.md, "Per-stream statistics"). Ordered by stream.
struct StreamTotals {
  uint32_t stream = 0;
  uint32_t launches = 0;
  uint64_t warp_instructions = 0, thread_instructions = 0;
  uint64_t start_cycle = 0, end_cycle = 0;
  uint64_t cycles = 0;       // end_cycle - the run's first start cycle
  uint64_t busy_cycles = 0;  // the union of its launches' [start, end)
  double ipc() const { return cycles ? static_cast<double>(thread_instructions) / static_cast<double>(cycles) : 0.0; }
};

std::vector<StreamTotals> stream_totals(const std::deque<gpu::KernelRun>& runs) {
  std::map<uint32_t, StreamTotals> by_stream;
  std::map<uint32_t, std::vector<gpu::LaunchInterval>> intervals;
  uint64_t run_start = ~uint64_t{0};
  for (const gpu::KernelRun& k : runs) {
    StreamTotals& t = by_stream[k.stream];
    if (t.launches == 0) {
      t.stream = k.stream;
      t.start_cycle = k.start_cycle;
      t.end_cycle = k.end_cycle;
    }
    ++t.launches;
    t.warp_instructions += k.warp_instructions;
    t.thread_instructions += k.thread_instructions;
    t.start_cycle = std::min(t.start_cycle, k.start_cycle);
    t.end_cycle = std::max(t.end_cycle, k.end_cycle);
    run_start = std::min(run_start, k.start_cycle);
    intervals[k.stream].push_back({k.start_cycle, k.end_cycle});
  }
  std::vector<StreamTotals> out;
  for (auto& [stream, t] : by_stream) {
    t.busy_cycles = gpu::busy_cycles(intervals[stream]);
    t.cycles = t.end_cycle - run_start;
    out.push_back(t);
  }
  return out;
}

nlohmann::json streams_json(const std::vector<StreamTotals>& streams) {
  nlohmann::json out = nlohmann::json::array();
  for (const StreamTotals& t : streams)
    out.push_back({{"stream", t.stream},
                   {"launches", t.launches},
                   {"warp_instructions", t.warp_instructions},
                   {"thread_instructions", t.thread_instructions},
                   {"start_cycle", t.start_cycle},
                   {"end_cycle", t.end_cycle},
                   {"cycles", t.cycles},
                   {"busy_cycles", t.busy_cycles},
                   {"ipc", t.ipc()}});
  return out;
}

// The launches of the statistics file, each written out when its kernel completes (so a
// run of many launches does not hold every launch's statistics tree, issue 18 point 3) and
// put back in launch order when the file is written.
class LaunchEntries {
 public:
  // No file: entries are dropped (the run writes no statistics).
  explicit LaunchEntries(const std::string& stats_path) {
    if (stats_path.empty()) return;
    path_ = stats_path + ".launches.part";
    file_.open(path_, std::ios::in | std::ios::out | std::ios::binary | std::ios::trunc);
    if (!file_) throw std::runtime_error("cannot open '" + path_ + "' for writing (beside the --stats file)");
  }
  ~LaunchEntries() {
    if (path_.empty()) return;
    file_.close();
    std::remove(path_.c_str());
  }
  LaunchEntries(const LaunchEntries&) = delete;
  LaunchEntries& operator=(const LaunchEntries&) = delete;

  bool wanted() const { return !path_.empty(); }
  void add(uint32_t id, const nlohmann::json& entry) {
    const std::string text = entry.dump(1);
    file_.seekp(0, std::ios::end);
    const auto at = static_cast<uint64_t>(file_.tellp());
    file_.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!file_) throw std::runtime_error("failed writing '" + path_ + "'");
    if (spans_.size() <= id) spans_.resize(id + 1);
    spans_[id] = {at, text.size()};
  }
  // "[entry 0, entry 1, ...]" in launch order.
  void write_array(std::ostream& out) {
    out << "[";
    file_.flush();
    std::string text;
    for (std::size_t i = 0; i < spans_.size(); ++i) {
      text.resize(spans_[i].second);
      file_.seekg(static_cast<std::streamoff>(spans_[i].first));
      file_.read(text.data(), static_cast<std::streamsize>(text.size()));
      if (!file_) throw std::runtime_error("failed reading '" + path_ + "'");
      out << (i ? ",\n" : "\n") << text;
    }
    out << "\n]";
  }

 private:
  std::string path_;
  std::fstream file_;
  std::vector<std::pair<uint64_t, std::size_t>> spans_;  // per launch id: offset and length
};

// A launch's entry of the statistics file (its statistics epoch included).
nlohmann::json launch_entry(const gpu::KernelRun& k, nlohmann::json&& stats, const gpu::GpuConfig& cfg) {
  const gpu::RunSummary s = gpu::summarize(stats, cfg, k.cycles);
  nlohmann::json e;
  e["label"] = k.label;
  e["kernel"] = k.kernel;
  e["stream"] = k.stream;
  e["grid"] = {k.grid.x, k.grid.y, k.grid.z};
  e["block"] = {k.block.x, k.block.y, k.block.z};
  e["registers_per_thread"] = k.registers_per_thread;
  e["ctas"] = k.ctas;
  e["start_cycle"] = k.start_cycle;
  e["end_cycle"] = k.end_cycle;
  e["cycles"] = k.cycles;
  e["last_cta_time"] = k.last_cta_time;
  if (cfg.sm_with_scheduler("elf"))
    e["elf_program_points"] = {{"before_merge", k.elf_points_before_merge}, {"after_merge", k.elf_points}};
  e["warp_instructions"] = k.warp_instructions;
  e["thread_instructions"] = k.thread_instructions;
  e["ipc"] = s.ipc();
  if (!s.kinds.empty()) e["sm_kinds"] = kinds_json(s);
  e["stats"] = std::move(stats);
  return e;
}

}  // namespace

TimingRunResult run_timing(const TimingRunOptions& opts) {
  config::ConfigSource source = config::ConfigSource::from_file(opts.config_path);
  for (const std::string& o : opts.overrides) source.apply_override(o);
  if (!opts.sample_every.empty())
    source.apply_override("sample_period=" + std::to_string(parse_count("--sample-every", opts.sample_every)));
  const gpu::GpuConfig cfg = platforms::read_gpu_config(source);
  const runtime::SpecFile spec = runtime::parse_spec_file(opts.spec_path);
  Observation observe(opts);

  auto backend = std::make_unique<gpu::TimingBackend>(cfg, isa::ExecOptions{},
                                                      observe.taps.empty() ? nullptr : &observe.taps);
  gpu::TimingBackend& timing = *backend;
  LaunchEntries entries(opts.stats_path);
  timing.gpu().set_kernel_stats_sink([&entries, &cfg](const gpu::KernelRun& k, nlohmann::json&& stats) {
    if (entries.wanted()) entries.add(k.id, launch_entry(k, std::move(stats), cfg));
  });
  if (observe.timeline) observe.timeline->observe(timing.gpu());
  std::unique_ptr<gpu::TimeSeries> series;
  if (cfg.sample_period > 0) series = std::make_unique<gpu::TimeSeries>(timing.gpu(), cfg.sample_period);
  auto timer = std::make_unique<SynchronizeTimer>(std::move(backend));
  const SynchronizeTimer& sync_time = *timer;
  runtime::Runtime rt(std::move(timer));
  ProgressBar bar(timing.gpu());
  if (opts.progress || isatty(STDERR_FILENO))
    timing.gpu().set_progress_callback([&bar](uint64_t c) { bar.update(c); }, 50000);
  runtime::SpecReport rep;
  try {
    rep = runtime::run_spec_file(spec, rt);
  } catch (...) {
    bar.finish();
    // A run that failed (a deadlock, an execution error) still leaves a timeline that
    // loads, up to where it stopped, and the database holds what was in flight: often
    // the views one wants of it.
    try {
      if (observe.timeline) observe.timeline->finish();
      observe.close_database(opts, cfg);
    } catch (const std::exception&) {
      // the run's own error is the one to report
    }
    throw;
  }
  bar.finish();

  TimingRunResult res;
  res.ok = rep.ok();
  nlohmann::json j;
  j["spec"] = opts.spec_path;
  j["config"] = opts.config_path;
  j["platform"] = cfg.name;
  j["ok"] = rep.ok();
  nlohmann::json host;
  host["launches"] = nlohmann::json::array();
  const std::deque<gpu::KernelRun>& runs = timing.kernel_runs();
  std::vector<gpu::LaunchInterval> intervals;
  uint64_t launch_cycles = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const gpu::KernelRun& k = runs[i];
    host["launches"].push_back({{"label", k.label},
                                {"host_seconds", k.host_seconds},
                                {"warp_instructions_per_second", rate(static_cast<double>(k.warp_instructions), k.host_seconds)},
                                {"cycles_per_second", rate(static_cast<double>(k.cycles), k.host_seconds)}});
    intervals.push_back({k.start_cycle, k.end_cycle});
    launch_cycles += k.cycles;
    res.warp_instructions += k.warp_instructions;
    res.thread_instructions += k.thread_instructions;
  }
  res.cycles = gpu::busy_cycles(intervals);
  // Only a run on several streams has them: a one-stream run's statistics keep their keys.
  const std::vector<StreamTotals> streams = stream_totals(runs);
  if (streams.size() > 1) j["streams"] = streams_json(streams);
  res.host_seconds = sync_time.seconds();
  timing.gpu().update_stats();
  j["total"] = timing.gpu().stats().to_json(stats::View::Total);
  if (!cfg.sm_groups.empty()) j["sm_kinds"] = kinds_json(gpu::summarize(j["total"], cfg, res.cycles));
  j["cycles"] = res.cycles;
  j["launch_cycles"] = launch_cycles;
  j["outputs"] = outputs_json(rep);
  host["seconds"] = res.host_seconds;
  host["warp_instructions_per_second"] = rate(static_cast<double>(res.warp_instructions), res.host_seconds);
  host["cycles_per_second"] = rate(static_cast<double>(res.cycles), res.host_seconds);
  host["threads"] = timing.gpu().host_threads();
  host["parallel_edges"] = timing.gpu().parallel_edges();
  host["serial_edges"] = timing.gpu().serial_edges();
  j["host"] = host;  // the only part of the JSON that differs between identical runs
  // Written into the file below, as it is read back from the samples.
  const std::string series_placeholder = "@time_series of gputlm@";
  if (series) {
    series->finish();
    j["time_series"] = series_placeholder;
  }
  if (observe.timeline) observe.timeline->finish();
  observe.close_database(opts, cfg);

  if (entries.wanted()) {
    // The launches go where their key sorts, read back from the file they were written to.
    // The launches (and the time series) go where their keys sort, read back from where
    // they were kept.
    const std::string placeholder = "@launches of gputlm@";
    j["launches"] = placeholder;
    const std::string text = j.dump(1);
    std::vector<std::pair<std::size_t, const std::string*>> holes = {{text.find("\"" + placeholder + "\""), &placeholder}};
    if (series) holes.emplace_back(text.find("\"" + series_placeholder + "\""), &series_placeholder);
    std::sort(holes.begin(), holes.end());
    std::ofstream f(opts.stats_path);
    if (!f) throw std::runtime_error("cannot open stats file '" + opts.stats_path + "' for writing");
    std::size_t from = 0;
    for (const auto& [at, name] : holes) {
      f << text.substr(from, at - from);
      if (name == &placeholder) entries.write_array(f);
      else series->write_json(f);
      from = at + name->size() + 2;
    }
    f << text.substr(from) << "\n";
    if (!f) throw std::runtime_error("failed writing stats file '" + opts.stats_path + "'");
  }

  if (!opts.quiet) {
    std::printf("%s on %s (timing, %s)\n", opts.spec_path.c_str(), cfg.name.c_str(), opts.config_path.c_str());
    std::printf("  %-14s %6s %-24s %10s %10s %10s %8s %14s %12s\n", "launch", "stream", "kernel", "start", "end",
                "cycles", "IPC", "warp instr", "last CTA");
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const gpu::KernelRun& k = runs[i];
      const double ipc = k.cycles ? static_cast<double>(k.thread_instructions) / static_cast<double>(k.cycles) : 0;
      std::printf("  %-14s %6u %-24s %10llu %10llu %10llu %8.2f %14llu %12llu\n", k.label.c_str(), k.stream,
                  short_name(k.kernel).c_str(), static_cast<unsigned long long>(k.start_cycle),
                  static_cast<unsigned long long>(k.end_cycle), static_cast<unsigned long long>(k.cycles), ipc,
                  static_cast<unsigned long long>(k.warp_instructions), static_cast<unsigned long long>(k.last_cta_time));
    }
    if (streams.size() > 1) {
      std::printf("  %-6s %8s %10s %10s %10s %10s %8s %16s\n", "stream", "launches", "start", "end", "cycles", "busy",
                  "IPC", "thread instr");
      for (const StreamTotals& t : streams)
        std::printf("  %-6u %8u %10llu %10llu %10llu %10llu %8.2f %16llu\n", t.stream, t.launches,
                    static_cast<unsigned long long>(t.start_cycle), static_cast<unsigned long long>(t.end_cycle),
                    static_cast<unsigned long long>(t.cycles), static_cast<unsigned long long>(t.busy_cycles), t.ipc(),
                    static_cast<unsigned long long>(t.thread_instructions));
    }
    gpu::RunSummary total = gpu::summarize(j["total"], cfg, res.cycles);
    total.launch_cycles = launch_cycles;
    std::printf("%s", gpu::format_summary(total).c_str());
    std::printf("  simulation speed     %.0f warp instr/s, %.0f cycles/s (%.2f s host)\n",
                rate(static_cast<double>(res.warp_instructions), res.host_seconds),
                rate(static_cast<double>(res.cycles), res.host_seconds), res.host_seconds);
  }
  // Occupancy counts registers from ptxas (the resources JSON); without it a kernel is
  // not register-limited. Say so rather than assume silently.
  for (const runtime::LaunchResult& l : rep.launches)
    if (!l.resources)
      std::fprintf(stderr, "  note: %s (%s): no ptxas resources for this kernel; its CTAs were not limited by "
                           "registers\n", l.label.c_str(), short_name(l.kernel).c_str());
  for (const runtime::OutputReport& o : rep.outputs) {
    const bool bad = o.checked && !o.compare.ok();
    if (opts.quiet && !bad) continue;
    std::fprintf(bad ? stderr : stdout, "  output %-12s %s\n", o.buffer.c_str(), o.message().c_str());
  }
  if (!opts.quiet) std::printf("%s\n", rep.ok() ? "PASS" : "FAIL");
  return res;
}

int run_timing_command(const TimingRunOptions& opts) { return run_timing(opts).ok ? 0 : 3; }

}  // namespace gputlm::cli
