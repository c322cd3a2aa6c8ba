#include "gpu/observe/timeline.h"

#include <cinttypes>
#include <cstdio>
#include <stdexcept>

#include "isa/ir.h"
#include "sm/warp_instruction.h"

namespace gputlm::gpu {

namespace {

bool parse_cycle(const std::string& s, uint64_t& v) {
  if (s.empty() || s.size() > 19) return false;
  v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  return true;
}

// The number after `prefix` in a block name ("gpu.sm3.lsu", "sm" -> 3); 0 when absent.
uint32_t unit_of(const std::string& name, const std::string& prefix) {
  const std::string key = "." + prefix;
  for (std::size_t at = name.find(key); at != std::string::npos; at = name.find(key, at + 1)) {
    std::size_t i = at + key.size(), j = i;
    while (j < name.size() && name[j] >= '0' && name[j] <= '9') ++j;
    if (j > i && (j == name.size() || name[j] == '.')) return static_cast<uint32_t>(std::stoul(name.substr(i, j - i)));
  }
  return 0;
}

}  // namespace

trace::Window parse_cycle_window(const std::string& text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos)
    throw std::invalid_argument("'" + text + "' is not a cycle window: expected A:B (core cycles A to B-1, A < B) or A:");
  uint64_t a = 0, b = 0;
  const std::string as = text.substr(0, colon), bs = text.substr(colon + 1);
  if (!parse_cycle(as, a))
    throw std::invalid_argument("'" + text + "': the window's start '" + as + "' is not a core cycle number");
  trace::Window w;
  w.begin = static_cast<double>(a);
  if (bs.empty()) return w;
  if (!parse_cycle(bs, b))
    throw std::invalid_argument("'" + text + "': the window's end '" + bs + "' is not a core cycle number");
  if (b <= a)
    throw std::invalid_argument("'" + text + "': the window ends (" + bs + ") before it starts (" + as +
                                "); expected A:B with A < B");
  w.end = static_cast<double>(b);
  return w;
}

Timeline::Timeline(const std::string& path, trace::Window window, uint64_t counter_period)
    : out_(path, window),
      counter_period_(counter_period),
      begin_(static_cast<uint64_t>(window.begin)),
      end_(window.end == trace::Window{}.end ? kNever : static_cast<uint64_t>(window.end)) {
  if (counter_period_ == 0) throw std::invalid_argument("timeline: the counter period must be positive");
}

uint32_t Timeline::attach(const TransactionRecorder& r) {
  const TransactionRecorder::SocketInfo& i = r.info();
  Socket s;
  s.kind = i.kind;
  const bool memory_side = i.kind == "l2" || i.kind == "dram";
  s.pid = memory_side ? partition_pid(unit_of(i.target, "l2p")) : sm_pid(unit_of(i.initiator, "sm"));
  sockets_.push_back(s);
  return static_cast<uint32_t>(sockets_.size() - 1);
}

void Timeline::observe(Gpu& gpu) {
  gpu_ = &gpu;
  core_period_ps_ = gpu.core_clock().period().to_seconds() * 1e12;
  const GpuConfig& cfg = gpu.config();
  out_.process_name(1, "GPU (kernels by stream)", 0);
  for (uint32_t i = 0; i < cfg.sms; ++i) {
    out_.process_name(sm_pid(i), "SM " + std::to_string(i), static_cast<int>(sm_pid(i)));
    for (uint32_t k = 0; k < cfg.sm_config(i).scheduler.count; ++k)
      out_.thread_name(sm_pid(i), k + 1, "scheduler " + std::to_string(k), static_cast<int>(k));
  }
  for (uint32_t p = 0; p < cfg.partitions; ++p)
    out_.process_name(partition_pid(p), "partition " + std::to_string(p) + " (L2 bank, DRAM channel)",
                      static_cast<int>(partition_pid(p)));
  elf_.assign(std::size_t{cfg.sms} * sm::kElfStalls, 0);
  kaws_.assign(std::size_t{cfg.sms} * sm::kKawsStalls, 0);
  gpu.cta_scheduler().add_listener(*this);
  gpu.add_run_observer(*this);
  if (gpu.simulated_to() >= begin_) at(gpu.simulated_to());
}

uint64_t Timeline::next_stop() const {
  if (closed_) return kNever;
  if (!active_) return begin_;
  return std::min(next_counter_, end_);
}

void Timeline::at(uint64_t cycle) {
  if (closed_) return;
  if (!active_) open_window(cycle);
  if (cycle >= end_) {
    close_window(cycle);
    return;
  }
  if (cycle >= next_counter_) sample_counters(cycle);
}

void Timeline::open_window(uint64_t cycle) {
  active_ = true;
  gpu_->serialize_edges();  // the tracer records every SM's issues in one sequence
  for (uint32_t i = 0; i < gpu_->config().sms; ++i) gpu_->sm(i).core().set_issue_tracer(this);
  // Counters start from the state at the window's opening: a snapshot, no event.
  last_counter_ = cycle;
  next_counter_ = (cycle / counter_period_ + 1) * counter_period_;
  uint64_t e[sm::kElfStalls], k[sm::kKawsStalls];
  for (uint32_t i = 0; i < gpu_->config().sms; ++i) {
    gpu_->sm(i).core().stall_cycles(cycle, e, k);
    std::copy(e, e + sm::kElfStalls, elf_.begin() + i * sm::kElfStalls);
    std::copy(k, k + sm::kKawsStalls, kaws_.begin() + i * sm::kKawsStalls);
  }
}

void Timeline::close_window(uint64_t cycle) {
  if (cycle > last_counter_) sample_counters(cycle);
  for (uint32_t i = 0; i < gpu_->config().sms; ++i) gpu_->sm(i).core().set_issue_tracer(nullptr);
  active_ = false;
  closed_ = true;
}

// One counter event per SM at the start of the interval [last_counter_, cycle), so that
// the viewer shows each value over the cycles it describes.
void Timeline::sample_counters(uint64_t cycle) {
  const GpuConfig& cfg = gpu_->config();
  uint64_t e[sm::kElfStalls], k[sm::kKawsStalls];
  double ev[sm::kElfStalls], kv[sm::kKawsStalls];
  for (uint32_t i = 0; i < cfg.sms; ++i) {
    const double slots = static_cast<double>(cycle - last_counter_) * cfg.sm_config(i).scheduler.count;
    gpu_->sm(i).core().stall_cycles(cycle, e, k);
    for (int c = 0; c < sm::kElfStalls; ++c) {
      uint64_t& prev = elf_[i * sm::kElfStalls + c];
      ev[c] = slots > 0 ? static_cast<double>(e[c] - prev) / slots : 0;
      prev = e[c];
    }
    for (int c = 0; c < sm::kKawsStalls; ++c) {
      uint64_t& prev = kaws_[i * sm::kKawsStalls + c];
      kv[c] = slots > 0 ? static_cast<double>(k[c] - prev) / slots : 0;
      prev = k[c];
    }
    const auto ts = static_cast<double>(last_counter_);
    out_.counter(sm_pid(i), "stall_elf", ts, sm::kElfStallNames, ev, sm::kElfStalls);
    out_.counter(sm_pid(i), "stall_kaws", ts, sm::kKawsStallNames, kv, sm::kKawsStalls);
  }
  last_counter_ = cycle;
  next_counter_ = (cycle / counter_period_ + 1) * counter_period_;
}

void Timeline::issued(const sm::WarpInstruction& wi) {
  char args[160];
  std::snprintf(args, sizeof args, "{\"warp\":%u,\"pc\":%" PRIu64 ",\"cta\":%d,\"kernel\":%u}", wi.warp, wi.pc,
                wi.cta_global, wi.kernel_id);
  // A second instruction in the same cycle (dual issue) gets the same one-cycle slice,
  // which viewers nest under the first: whole cycles, as Perfetto reads ts as whole ns.
  out_.complete(sm_pid(wi.sm), wi.issue_scheduler + 1, isa::opcode_name(wi.instr->op),
                static_cast<double>(wi.issue_cycle), 1.0, args);
}

const std::string& Timeline::label(uint32_t kernel_id) const { return gpu_->kernel_run(kernel_id).label; }

void Timeline::cta_completed(const KernelRecord& r, const sm::CtaCompletion& c) {
  if (static_cast<double>(c.finish_cycle) < out_.window().begin || static_cast<double>(c.start_cycle) > out_.window().end)
    return;
  const std::string args = "{\"kernel\":\"" + trace::TraceEventWriter::escape(label(r.kernel->id)) +
                           "\",\"cta\":" + std::to_string(c.cta_linear_id) + "}";
  out_.async_slice(sm_pid(c.sm), "cta", "CTA", next_id_++, static_cast<double>(c.start_cycle),
                   static_cast<double>(c.finish_cycle), args.c_str());
}

void Timeline::finished(uint32_t socket, const TransactionRecord& t) {
  const double b = static_cast<double>(t.begin()) / core_period_ps_, e = static_cast<double>(t.end()) / core_period_ps_;
  const trace::Window& w = out_.window();
  if (e < w.begin || b > w.end) return;
  const Socket& s = sockets_[socket];
  const bool refused = t.completed_at_request && t.has_extension && t.ext.status != MemStatus::Ok;
  char name[64], args[256];
  std::snprintf(name, sizeof name, "%s %s%s", s.kind.c_str(),
                t.has_extension ? to_string(t.ext.kind) : (t.write ? "write" : "read"), refused ? " (refused)" : "");
  if (t.has_extension)
    std::snprintf(args, sizeof args,
                  "{\"address\":\"0x%" PRIx64 "\",\"size\":%u,\"sm\":%d,\"warp\":%d,\"status\":\"%s\",\"id\":%" PRIu64 "}",
                  t.address, t.size, t.ext.sm, t.ext.warp, to_string(t.ext.status), t.ext.id);
  else
    std::snprintf(args, sizeof args, "{\"address\":\"0x%" PRIx64 "\",\"size\":%u}", t.address, t.size);
  out_.async_slice(s.pid, s.kind.c_str(), name, next_id_++, b, e, args);
}

void Timeline::finish() {
  if (gpu_ == nullptr) throw std::logic_error("timeline: finish() before observe()");
  if (active_) close_window(gpu_->simulated_to());
  std::vector<bool> stream_named;
  for (const KernelRun& k : gpu_->kernel_runs()) {
    if (!k.done) continue;
    if (stream_named.size() <= k.stream) stream_named.resize(k.stream + 1, false);
    if (!stream_named[k.stream]) {
      out_.thread_name(1, k.stream + 1, "stream " + std::to_string(k.stream), static_cast<int>(k.stream));
      stream_named[k.stream] = true;
    }
    const std::string args = "{\"kernel\":\"" + trace::TraceEventWriter::escape(k.kernel) +
                             "\",\"ctas\":" + std::to_string(k.ctas) + ",\"warp_instructions\":" +
                             std::to_string(k.warp_instructions) + "}";
    const std::string name = trace::TraceEventWriter::escape(k.label.empty() ? k.kernel : k.label);
    out_.complete(1, k.stream + 1, name.c_str(), static_cast<double>(k.start_cycle),
                  static_cast<double>(k.end_cycle - k.start_cycle), args.c_str());
  }
  nlohmann::json other = {{"ts_unit", "core cycle (ui.perfetto.dev shows it as 1 ns, chrome://tracing as 1 us)"},
                          {"core_mhz", gpu_->config().clocks.core_mhz},
                          {"window_begin", begin_},
                          {"counter_period", counter_period_},
                          {"platform", gpu_->config().name}};
  if (end_ != kNever) other["window_end"] = end_;
  out_.close(other);
}

}  // namespace gputlm::gpu
