// A pass-through that writes one line per TLM call to a stream: time, direction,
// phase sent and returned, command, address, length and the gputlm extension's
// identity fields. Inserted on any socket when a run asks for a transaction trace.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>

#include "core/tlm/pass_through.h"

namespace gputlm {

class TransactionRecorder : public TlmPassThrough {
 public:
  // Writes to `out` (not owned).
  TransactionRecorder(sc_core::sc_module_name name, std::ostream& out);
  // Writes to the file `path` (an error names it when it cannot be created).
  TransactionRecorder(sc_core::sc_module_name name, const std::string& path);

  uint64_t recorded() const { return recorded_; }

 protected:
  void after_fw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent, const tlm::tlm_phase& phase,
                tlm::tlm_sync_enum ret) override;
  void after_bw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent, const tlm::tlm_phase& phase,
                tlm::tlm_sync_enum ret) override;
  void after_b(tlm::tlm_generic_payload& gp, const sc_core::sc_time& t) override;

 private:
  void record(const char* dir, tlm::tlm_generic_payload& gp, const std::string& what);
  std::unique_ptr<std::ofstream> file_;
  std::ostream* out_;
  uint64_t recorded_ = 0;
};

}  // namespace gputlm
