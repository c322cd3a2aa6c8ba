#include "mem/l2/sector_splitter.h"

#include <stdexcept>
#include <string>

#include "core/tlm/mem_extension.h"

namespace gputlm {

struct SectorSplitter::Child : tlm::tlm_extension<Child> {
  const SectorSplitter* owner = nullptr;
  int32_t split = -1;
  tlm::tlm_extension_base* clone() const override { return new Child(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const Child&>(o); }
};

namespace {
constexpr uint32_t kMaskLine = 128;  // MemExtension::byte_mask covers a 128-byte line
}

SectorSplitter::SectorSplitter(sc_core::sc_module_name name, uint32_t line_size, uint32_t sectors,
                               uint32_t max_split, const ClockDomain& domain, stats::Group& parent)
    : sc_core::sc_module(name),
      in("in"),
      out("out"),
      line_size_(line_size),
      sector_size_(line_size / sectors),
      all_sectors_(sectors >= 32 ? ~0u : (1u << sectors) - 1),
      domain_(domain),
      pool_(line_size / sectors, std::string(this->name()) + ".pool"),
      splits_(max_split),
      stats_(parent, basename()),
      split_requests_(stats_, "split_requests", "requests split into sector requests"),
      sector_requests_(stats_, "sector_requests", "sector requests sent to the bank for split requests"),
      full_waits_(stats_, "full_waits", "requests that arrived while max_split split requests awaited replies"),
      process_("tick", domain, [this](uint64_t c) { return tick(c); }) {
  if (sectors < 2 || max_split == 0)
    throw std::invalid_argument(std::string(this->name()) + ": needs at least 2 sectors and max_split >= 1");
  for (uint32_t b = 0; b < sector_size_ && b < kMaskLine; ++b) sector_bytes_.set(b);
  free_.reserve(max_split);
  for (int32_t i = static_cast<int32_t>(max_split) - 1; i >= 0; --i) free_.push_back(i);
  in.bind(*this);
  out.bind(*this);
}

SectorSplitter::~SectorSplitter() = default;

std::size_t SectorSplitter::held() const {
  return splits_.size() - free_.size() + (passing_ ? 1 : 0) + (waiting_ ? 1 : 0);
}

uint32_t SectorSplitter::split_mask(const tlm::tlm_generic_payload& gp) const {
  const uint64_t a = gp.get_address();
  const uint32_t len = gp.get_data_length();
  const uint32_t first = static_cast<uint32_t>(a % line_size_) / sector_size_;
  if (len == 0 || a % sector_size_ + len <= sector_size_) return 0;  // inside one sector
  if (a % line_size_ == 0 && len == line_size_) return all_sectors_;
  const uint32_t last = static_cast<uint32_t>((a % line_size_ + len - 1) / sector_size_);
  uint32_t overlap = 0;
  for (uint32_t s = first; s <= last && s < 32; ++s) overlap |= 1u << s;
  const MemExtension* ext = gp.get_extension<MemExtension>();
  const uint32_t m = ext ? ext->sector_mask & overlap : 0;
  return m ? m : overlap;
}

tlm::tlm_sync_enum SectorSplitter::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                   sc_core::sc_time& t) {
  if (phase == tlm::END_RESP) {
    if (&gp == answering_parent_) {  // the reply to a split request: END_RESP of its last sector
      tlm::tlm_generic_payload* child = answering_;
      answering_ = answering_parent_ = nullptr;
      tlm::tlm_phase ph = tlm::END_RESP;
      out->nb_transport_fw(*child, ph, t);
      child->release();
      return tlm::TLM_COMPLETED;
    }
    return out->nb_transport_fw(gp, phase, t);
  }
  if (phase != tlm::BEGIN_REQ) return out->nb_transport_fw(gp, phase, t);
  if (current_ >= 0 || passing_ || waiting_)
    throw std::runtime_error(std::string(name()) + ": BEGIN_REQ before END_REQ of the previous request");
  const uint32_t mask = split_mask(gp);
  if (mask == 0) {  // passes unchanged
    passing_ = &gp;
    const tlm::tlm_sync_enum r = out->nb_transport_fw(gp, phase, t);
    if (r != tlm::TLM_ACCEPTED) passing_ = nullptr;
    return r;
  }
  if (free_.empty()) {
    ++full_waits_;
    waiting_ = &gp;
    waiting_since_ = domain_.now();
    process_.wake();
    return tlm::TLM_ACCEPTED;
  }
  in_request_call_ = true;
  const bool done = start(gp, mask);
  in_request_call_ = false;
  if (!done) return tlm::TLM_ACCEPTED;
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

bool SectorSplitter::start(tlm::tlm_generic_payload& parent, uint32_t mask) {
  const int32_t i = free_.back();
  free_.pop_back();
  const auto n = static_cast<uint32_t>(__builtin_popcount(mask));
  splits_[static_cast<std::size_t>(i)] = Split{&parent, mask, n, 0};
  current_ = i;
  ++split_requests_;
  return send_next();
}

bool SectorSplitter::send_next() {
  Split& s = splits_[static_cast<std::size_t>(current_)];
  const uint32_t bit = s.remaining & (~s.remaining + 1);
  s.remaining &= ~bit;
  const auto sector = static_cast<uint32_t>(__builtin_ctz(bit));
  tlm::tlm_generic_payload* c = pool_.allocate();
  c->acquire();
  const tlm::tlm_generic_payload& p = *s.parent;
  const uint64_t address = p.get_address() / line_size_ * line_size_ + static_cast<uint64_t>(sector) * sector_size_;
  c->set_command(p.get_command());
  c->set_address(address);
  c->set_data_length(sector_size_);
  c->set_streaming_width(sector_size_);
  MemExtension& ext = mem_ext(*c);
  const uint64_t id = ext.id;
  if (const MemExtension* pe = p.get_extension<MemExtension>()) ext = *pe;
  ext.id = id;
  ext.sector_mask = bit;
  // This sector's bytes of the request's byte mask (an empty slice stays empty: with the
  // sector mask set, the bank reads it as "no byte written", as GPGPU-Sim does).
  const uint32_t from = static_cast<uint32_t>(address % kMaskLine);
  ext.byte_mask &= sector_bytes_ << from;  // bits past the mask's 128 fall off
  ext.reply_parts = 1;
  Child* link = c->get_extension<Child>();
  if (!link) {
    link = new Child;
    c->set_extension(link);
  }
  link->owner = this;
  link->split = current_;
  ++sector_requests_;
  sending_ = c;
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum r = out->nb_transport_fw(*c, ph, t);
  if (r == tlm::TLM_UPDATED && ph == tlm::END_REQ) {
    sending_ = nullptr;
    return child_accepted();
  }
  if (r != tlm::TLM_ACCEPTED)
    throw std::runtime_error(std::string(name()) + ": the L2 bank answered a sector request's BEGIN_REQ with "
                             "neither TLM_ACCEPTED nor END_REQ");
  return false;
}

bool SectorSplitter::child_accepted() {
  if (splits_[static_cast<std::size_t>(current_)].remaining != 0) {
    next_send_ = domain_.now() + 1;
    process_.wake();
    return false;
  }
  tlm::tlm_generic_payload* parent = splits_[static_cast<std::size_t>(current_)].parent;
  current_ = -1;
  process_.wake();  // a waiting request may start
  if (in_request_call_) return true;
  tlm::tlm_phase ph = tlm::END_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  in->nb_transport_bw(*parent, ph, t);
  return true;
}

tlm::tlm_sync_enum SectorSplitter::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                   sc_core::sc_time& t) {
  const Child* link = gp.get_extension<Child>();
  if (!link || link->owner != this) {  // an unsplit request
    if (&gp == passing_ && (phase == tlm::END_REQ || phase == tlm::BEGIN_RESP)) passing_ = nullptr;
    return in->nb_transport_bw(gp, phase, t);
  }
  if (&gp == sending_ && (phase == tlm::END_REQ || phase == tlm::BEGIN_RESP)) {
    sending_ = nullptr;
    child_accepted();
  }
  if (phase == tlm::END_REQ) return tlm::TLM_ACCEPTED;
  if (phase != tlm::BEGIN_RESP)
    throw std::runtime_error(std::string(name()) + ": unexpected phase " + phase.get_name() +
                             " from the bank for a sector request");
  return child_reply(gp, phase, t);
}

tlm::tlm_sync_enum SectorSplitter::child_reply(tlm::tlm_generic_payload& child, tlm::tlm_phase& phase,
                                               sc_core::sc_time& t) {
  const int32_t i = child.get_extension<Child>()->split;
  Split& s = splits_[static_cast<std::size_t>(i)];
  tlm::tlm_generic_payload& parent = *s.parent;
  if (child.get_response_status() != tlm::TLM_OK_RESPONSE) parent.set_response_status(child.get_response_status());
  if (++s.answered < s.children) {
    child.release();
    return tlm::TLM_COMPLETED;
  }
  // The last sector's reply is the request's reply; the split is free from now on.
  if (parent.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) parent.set_response_status(tlm::TLM_OK_RESPONSE);
  if (MemExtension* pe = parent.get_extension<MemExtension>()) pe->reply_parts = static_cast<uint8_t>(s.children);
  s = Split{};
  free_.push_back(i);
  if (waiting_) process_.wake();
  answering_ = &child;
  answering_parent_ = &parent;
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  const tlm::tlm_sync_enum r = in->nb_transport_bw(parent, ph, t);
  if (r == tlm::TLM_ACCEPTED) return tlm::TLM_ACCEPTED;  // END_RESP comes through nb_transport_fw
  if (r == tlm::TLM_UPDATED && ph != tlm::END_RESP)
    throw std::runtime_error(std::string(name()) + ": BEGIN_RESP answered with phase " + ph.get_name());
  answering_ = answering_parent_ = nullptr;
  child.release();
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

bool SectorSplitter::tick(uint64_t cycle) {
  bool work = false;
  if (current_ >= 0 && !sending_ && cycle >= next_send_) {
    send_next();
    work = true;
  }
  if (waiting_ && current_ < 0 && cycle > waiting_since_) {
    if (free_.empty()) return false;  // woken when a split frees
    tlm::tlm_generic_payload* gp = waiting_;
    waiting_ = nullptr;
    start(*gp, split_mask(*gp));  // END_REQ goes upstream when its last sector request is taken
    work = true;
  }
  return work || (current_ >= 0 && !sending_) || (waiting_ && current_ < 0);
}

}  // namespace gputlm
