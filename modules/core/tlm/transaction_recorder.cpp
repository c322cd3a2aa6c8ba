#include "core/tlm/transaction_recorder.h"

#include <stdexcept>

#include "core/tlm/mem_extension.h"

namespace gputlm {

namespace {
const char* sync_name(tlm::tlm_sync_enum r) {
  switch (r) {
    case tlm::TLM_ACCEPTED: return "ACCEPTED";
    case tlm::TLM_UPDATED: return "UPDATED";
    case tlm::TLM_COMPLETED: return "COMPLETED";
  }
  return "?";
}
}  // namespace

TransactionRecorder::TransactionRecorder(sc_core::sc_module_name name, std::ostream& out)
    : TlmPassThrough(name), out_(&out) {}

TransactionRecorder::TransactionRecorder(sc_core::sc_module_name name, const std::string& path)
    : TlmPassThrough(name), file_(std::make_unique<std::ofstream>(path)), out_(file_.get()) {
  if (!*file_) throw std::runtime_error("transaction recorder: cannot create '" + path + "'");
}

void TransactionRecorder::record(const char* dir, tlm::tlm_generic_payload& gp, const std::string& what) {
  ++recorded_;
  std::ostream& o = *out_;
  o << sc_core::sc_time_stamp().value() << " " << name() << " " << dir << " " << what << " "
    << (gp.is_read() ? "read" : gp.is_write() ? "write" : "ignore") << " 0x" << std::hex << gp.get_address()
    << std::dec << " len " << gp.get_data_length();
  if (const auto* e = gp.get_extension<MemExtension>()) {
    o << " id " << e->id << " sm " << e->sm << " warp " << e->warp << " " << to_string(e->space) << " "
      << to_string(e->kind);
    if (e->status != MemStatus::Ok) o << " " << to_string(e->status) << " " << to_string(e->fail_cause);
  }
  o << "\n";
}

void TransactionRecorder::after_fw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent,
                                   const tlm::tlm_phase& phase, tlm::tlm_sync_enum ret) {
  record("fw", gp, std::string(sent.get_name()) + "->" + sync_name(ret) +
                       (ret == tlm::TLM_UPDATED ? std::string(":") + phase.get_name() : ""));
}

void TransactionRecorder::after_bw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent,
                                   const tlm::tlm_phase& phase, tlm::tlm_sync_enum ret) {
  record("bw", gp, std::string(sent.get_name()) + "->" + sync_name(ret) +
                       (ret == tlm::TLM_UPDATED ? std::string(":") + phase.get_name() : ""));
}

void TransactionRecorder::after_b(tlm::tlm_generic_payload& gp, const sc_core::sc_time& t) {
  record("b", gp, "b_transport+" + t.to_string());
}

}  // namespace gputlm
