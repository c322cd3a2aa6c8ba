#include "core/tlm/text_transaction_sink.h"

#include <stdexcept>

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

TextTransactionSink::TextTransactionSink(std::ostream& out) : out_(&out) {}

TextTransactionSink::TextTransactionSink(const std::string& path)
    : file_(std::make_unique<std::ofstream>(path)), out_(file_.get()) {
  if (!*file_) throw std::runtime_error("transaction recorder: cannot create '" + path + "'");
}

uint32_t TextTransactionSink::attach(const TransactionRecorder& r) {
  names_.push_back(r.name());
  return static_cast<uint32_t>(names_.size() - 1);
}

void TextTransactionSink::call(uint32_t socket, const TlmCall& c) {
  std::ostream& o = *out_;
  const tlm::tlm_generic_payload& gp = *c.gp;
  o << c.time_ps << " " << names_[socket] << " " << c.dir << " ";
  if (c.dir[0] == 'b' && c.dir[1] == '\0') {
    o << "b_transport+" << sc_core::sc_time(static_cast<double>(c.b_delay_ps), sc_core::SC_PS).to_string();
  } else {
    o << c.sent.get_name() << "->" << sync_name(c.ret);
    if (c.ret == tlm::TLM_UPDATED) o << ":" << c.returned.get_name();
  }
  o << " " << (gp.is_read() ? "read" : gp.is_write() ? "write" : "ignore") << " 0x" << std::hex << gp.get_address()
    << std::dec << " len " << gp.get_data_length();
  if (const auto* e = gp.get_extension<MemExtension>()) {
    o << " id " << e->id << " sm " << e->sm << " warp " << e->warp << " " << to_string(e->space) << " "
      << to_string(e->kind);
    if (e->status != MemStatus::Ok) o << " " << to_string(e->status) << " " << to_string(e->fail_cause);
  }
  o << "\n";
}

}  // namespace gputlm
