// The warp-order transactor: SchedulerPolicyIF calls to event pulses on the Verilated RTL
// (warp_order.sv) and its order pins back to warp slots. The RTL orders local indices
// (slot / schedulers); the transactor keeps the slot of each and mirrors the resident set
// and ages it last told the RTL, so it can send only the changes.
#include <algorithm>
#include <array>
#include <atomic>
#include <string>

#include "Vgputlm_warp_order.h"
#include "Vgputlm_warp_order_bug.h"
#include "sm/scheduler/rtl/warp_order_rtl.h"
#include "verilated.h"

namespace gputlm::sm {

namespace {

std::atomic<uint64_t> g_warp_order_rtl_cycles{0};
constexpr uint32_t kN = kRtlWarpOrderWarps;
constexpr uint32_t kW = 5;  // log2(kN): bits per order entry
constexpr uint32_t kNoSlot = 0xffffffffu;

template <class Model>
class WarpOrderTransactor final : public SchedulerPolicyIF {
 public:
  explicit WarpOrderTransactor(bool gto)
      : gto_(gto), ctx_(std::make_unique<VerilatedContext>()), m_(std::make_unique<Model>(ctx_.get(), "warp_order")) {
    slot_.fill(kNoSlot);
    local_of_slot_.fill(kNoSlot);
    m_->cfg_gto = gto;
    m_->clk = 0;
    m_->rst_n = 0;
    m_->eval();
    m_->rst_n = 1;
    m_->eval();
  }
  ~WarpOrderTransactor() override { m_->final(); }

  const char* name() const override { return gto_ ? "gto" : "lrr"; }

  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    sync(warps);
    const uint32_t count = m_->order_count;
    for (uint32_t p = 0; p < count; ++p) {
      uint32_t local = 0;
      for (uint32_t b = 0; b < kW; ++b) {
        const uint32_t bit = p * kW + b;
        local |= ((m_->order[bit / 32] >> (bit % 32)) & 1u) << b;
      }
      if (!resident_[local])
        throw WarpOrderRtlError("RTL warp order: position " + std::to_string(p) + " names warp " +
                                std::to_string(local) + ", which is not resident");
      out.push_back(slot_[local]);
    }
  }

  void issued(uint32_t slot, const isa::Instruction&) override {
    const uint32_t local = slot < local_of_slot_.size() ? local_of_slot_[slot] : kNoSlot;
    if (local == kNoSlot)
      throw WarpOrderRtlError("RTL warp order: warp slot " + std::to_string(slot) +
                              " issued but was never among the scheduler's warps");
    m_->issued_valid = 1;
    m_->issued_idx = local;
    tick();
    m_->issued_valid = 0;
  }

  void warp_removed(uint32_t slot) override {
    const uint32_t local = slot < local_of_slot_.size() ? local_of_slot_[slot] : kNoSlot;
    if (local == kNoSlot) return;  // never seen: it cannot be the greedy warp
    m_->forget_valid = 1;
    m_->forget_idx = local;
    tick();
    m_->forget_valid = 0;
  }

 private:
  void tick() {
    m_->clk = 1;
    m_->eval();
    m_->clk = 0;
    m_->eval();
    g_warp_order_rtl_cycles.fetch_add(1, std::memory_order_relaxed);
  }

  // Tells the RTL which warps left and which arrived (youngest last) since the last call.
  void sync(const std::vector<WarpView>& warps) {
    std::array<bool, kN> present{};
    std::array<uint64_t, kN> age{};
    for (const WarpView& w : warps) {
      if (w.local >= kN || w.slot >= local_of_slot_.size())
        throw WarpOrderRtlError("RTL warp order: warp slot " + std::to_string(w.slot) + " (local index " +
                                std::to_string(w.local) + ") is beyond the " + std::to_string(kN) +
                                " warps per scheduler the RTL holds (sm.scheduler.impl=rtl)");
      present[w.local] = true;
      age[w.local] = w.age;
      slot_[w.local] = w.slot;
      local_of_slot_[w.slot] = w.local;
    }
    uint64_t youngest_kept = 0;
    bool any_kept = false;
    for (uint32_t l = 0; l < kN; ++l) {
      if (!resident_[l]) continue;
      if (present[l] && age[l] == age_[l]) {
        youngest_kept = std::max(youngest_kept, age_[l]);
        any_kept = true;
        continue;
      }
      m_->drop_valid = 1;
      m_->drop_idx = l;
      tick();
      m_->drop_valid = 0;
      resident_[l] = false;
    }
    arrivals_.clear();
    for (uint32_t l = 0; l < kN; ++l)
      if (present[l] && !resident_[l]) arrivals_.push_back({age[l], l});
    std::sort(arrivals_.begin(), arrivals_.end());
    for (const auto& [a, l] : arrivals_) {
      if (any_kept && a < youngest_kept)
        throw WarpOrderRtlError("RTL warp order: warp " + std::to_string(l) + " became resident with age " +
                                std::to_string(a) + ", older than a resident warp; the RTL's age matrix takes "
                                "arrivals youngest-last only");
      m_->add_valid = 1;
      m_->add_idx = l;
      tick();
      m_->add_valid = 0;
      resident_[l] = true;
      age_[l] = a;
    }
  }

  bool gto_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> m_;
  std::array<bool, kN> resident_{};
  std::array<uint64_t, kN> age_{};
  std::array<uint32_t, kN> slot_{};
  std::array<uint32_t, 256> local_of_slot_{};
  std::vector<std::pair<uint64_t, uint32_t>> arrivals_;
};

}  // namespace

std::unique_ptr<SchedulerPolicyIF> make_rtl_warp_order(bool gto, bool injected_bug) {
  if (injected_bug) return std::make_unique<WarpOrderTransactor<Vgputlm_warp_order_bug>>(gto);
  return std::make_unique<WarpOrderTransactor<Vgputlm_warp_order>>(gto);
}

uint64_t rtl_warp_order_cycles() { return g_warp_order_rtl_cycles.load(std::memory_order_relaxed); }

}  // namespace gputlm::sm
