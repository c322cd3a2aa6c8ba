// A test double of the SM as the CTA scheduler sees it (SmCtaIF): resource accounting
// with configurable limits, and CTAs that finish a given number of cycles after their
// launch. Tests only; the real SM is modules/sm.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/stats/stats.h"
#include "gpu/cta_scheduler/cta_scheduler.h"
#include "sm/sm_cta_if.h"

namespace gputlm::test {

struct FakeSmLimits {
  uint32_t ctas = 8, threads = 1536, warps = 48, registers = 32768, shared_bytes = 48 * 1024;
};

struct FakeLaunch {
  uint32_t sm = 0;
  uint32_t kernel = 0;
  uint64_t cta = 0;
  uint64_t cycle = 0;
};

class FakeSm : public sc_core::sc_module, public sm::SmCtaIF {
 public:
  // duration(kernel id, cta) = cycles from launch to completion.
  using Duration = std::function<uint64_t(uint32_t kernel, uint64_t cta)>;

  FakeSm(sc_core::sc_module_name name, uint32_t id, const ClockDomain& core, FakeSmLimits limits, Duration d,
         std::vector<FakeLaunch>& log)
      : sc_core::sc_module(name), id_(id), core_(core), limits_(limits), duration_(std::move(d)), log_(log),
        process_("tick", core, [this](uint64_t c) { return tick(c); }) {}

  uint32_t sm_id() const override { return id_; }
  bool can_accept_cta(const sm::KernelInstance& k) const override {
    const auto& d = k.demand;
    return resident_.size() + 1 <= limits_.ctas && threads_ + d.threads <= limits_.threads &&
           warps_ + d.warps <= limits_.warps && registers_ + d.registers <= limits_.registers &&
           shared_ + d.shared_bytes <= limits_.shared_bytes;
  }
  void launch_cta(sm::KernelInstance& k, uint64_t cta) override {
    if (!can_accept_cta(k)) throw std::logic_error("FakeSm: launch_cta without room");
    const uint64_t now = core_.now();
    resident_.push_back({&k, cta, now, now + duration_(k.id, cta)});
    threads_ += k.demand.threads;
    warps_ += k.demand.warps;
    registers_ += k.demand.registers;
    shared_ += k.demand.shared_bytes;
    peak_ = std::max<uint32_t>(peak_, static_cast<uint32_t>(resident_.size()));
    log_.push_back({id_, k.id, cta, now});
    process_.wake_at(resident_.back().finish);
  }
  void set_completion_callback(std::function<void(const sm::CtaCompletion&)> cb) override { cb_ = std::move(cb); }
  uint32_t resident_ctas() const override { return static_cast<uint32_t>(resident_.size()); }
  uint32_t max_resident_ctas(const sm::KernelInstance& k) const override {
    const auto& d = k.demand;
    uint32_t n = limits_.ctas;
    if (d.threads) n = std::min(n, limits_.threads / d.threads);
    if (d.warps) n = std::min(n, limits_.warps / d.warps);
    if (d.registers) n = std::min(n, limits_.registers / d.registers);
    if (d.shared_bytes) n = std::min(n, limits_.shared_bytes / d.shared_bytes);
    return n;
  }
  void invalidate_l1s(uint8_t which) override {
    invalidations_.push_back(core_.now());
    invalidated_caches_.push_back(which);
  }
  std::string state_dump() const override {
    std::string s = "fake SM " + std::to_string(id_) + ": " + std::to_string(resident_.size()) + " CTAs\n";
    for (const auto& r : resident_)
      s += "  kernel " + std::to_string(r.k->id) + " CTA " + std::to_string(r.cta) + " finishes at " +
           std::to_string(r.finish) + "\n";
    return s;
  }
  uint32_t peak() const { return peak_; }
  // Core cycles at which the scheduler invalidated this SM's L1s.
  const std::vector<uint64_t>& invalidations() const { return invalidations_; }
  // The L1Cache bits of each of those invalidations.
  const std::vector<uint8_t>& invalidated_caches() const { return invalidated_caches_; }

 private:
  struct Resident {
    sm::KernelInstance* k;
    uint64_t cta, start, finish;
  };
  bool tick(uint64_t cycle) {
    uint64_t next = ~uint64_t{0};
    for (std::size_t i = 0; i < resident_.size();) {
      Resident r = resident_[i];
      if (r.finish <= cycle) {
        resident_.erase(resident_.begin() + static_cast<std::ptrdiff_t>(i));
        threads_ -= r.k->demand.threads;
        warps_ -= r.k->demand.warps;
        registers_ -= r.k->demand.registers;
        shared_ -= r.k->demand.shared_bytes;
        cb_(sm::CtaCompletion{r.k->id, r.cta, id_, r.start, cycle});
      } else {
        next = std::min(next, r.finish);
        ++i;
      }
    }
    if (next != ~uint64_t{0}) process_.wake_at(next);
    return false;
  }

  uint32_t id_;
  const ClockDomain& core_;
  FakeSmLimits limits_;
  Duration duration_;
  std::vector<FakeLaunch>& log_;
  std::vector<Resident> resident_;
  std::vector<uint64_t> invalidations_;
  std::vector<uint8_t> invalidated_caches_;
  uint32_t threads_ = 0, warps_ = 0, registers_ = 0, shared_ = 0, peak_ = 0;
  std::function<void(const sm::CtaCompletion&)> cb_;
  ClockedProcess process_;
};

// A CTA scheduler driving `n` fake SMs of the given kinds (all "sm" by default), with the
// log of every CTA launch.
struct FakeGpu {
  ClockDomain core = ClockDomain::from_mhz("core", 700);
  stats::Group root{"gpu"};
  std::vector<FakeLaunch> log;
  std::unique_ptr<gpu::CtaScheduler> sched;
  std::vector<std::unique_ptr<FakeSm>> sms;

  FakeGpu(uint32_t n, FakeSmLimits limits, FakeSm::Duration d, gpu::CtaSchedulerConfig cfg = {},
          std::vector<std::string> kinds = {}) {
    sched = std::make_unique<gpu::CtaScheduler>("cta_scheduler", cfg, core, root);
    for (uint32_t i = 0; i < n; ++i) {
      sms.push_back(std::make_unique<FakeSm>(("sm" + std::to_string(i)).c_str(), i, core, limits, d, log));
      sched->add_sm(*sms.back(), kinds.empty() ? "sm" : kinds[i]);
    }
  }
  void run() { sc_core::sc_start(); }
  std::vector<FakeLaunch> launches_of(uint32_t kernel) const {
    std::vector<FakeLaunch> out;
    for (const auto& l : log)
      if (l.kernel == kernel) out.push_back(l);
    return out;
  }
  // The SMs (ascending, each once) that ran CTAs of `kernel`.
  std::vector<uint32_t> sms_of(uint32_t kernel) const {
    std::vector<uint32_t> out;
    for (const auto& l : log)
      if (l.kernel == kernel) out.push_back(l.sm);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }
  double stat(const char* path) const { return root.find(path)->scalar(stats::View::Total); }
};

}  // namespace gputlm::test
