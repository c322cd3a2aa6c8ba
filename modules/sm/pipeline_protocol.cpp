#include "sm/pipeline_protocol.h"

#include <cstdio>

namespace gputlm::sm {

PipelineOutSocket::PipelineOutSocket(const char* name)
    : tlm::tlm_initiator_socket<kPipelineBusWidth, PipelineProtocol, 1, sc_core::SC_ONE_OR_MORE_BOUND>(name) {
  bind(static_cast<tlm::tlm_bw_transport_if<PipelineProtocol>&>(*this));
}

void PipelineOutSocket::send(WarpInstruction& wi) {
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum r = (*this)->nb_transport_fw(wi, phase, t);
  if (r != tlm::TLM_COMPLETED)
    throw PipelineError(std::string(name()) + ": receiver did not take warp " + std::to_string(wi.warp) +
                        " pc 0x" + [&] {
                          char buf[32];
                          std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(wi.pc));
                          return std::string(buf);
                        }() + " (pipeline rule 1: check the status interface before sending)");
}

tlm::tlm_sync_enum PipelineOutSocket::nb_transport_bw(WarpInstruction& wi, tlm::tlm_phase&, sc_core::sc_time&) {
  throw PipelineError(std::string(name()) + ": pipeline links have no backward path (warp " +
                      std::to_string(wi.warp) + ")");
}

PipelineInSocket::PipelineInSocket(const char* name)
    : tlm::tlm_target_socket<kPipelineBusWidth, PipelineProtocol, 0, sc_core::SC_ZERO_OR_MORE_BOUND>(name) {
  bind(static_cast<tlm::tlm_fw_transport_if<PipelineProtocol>&>(*this));
}

tlm::tlm_sync_enum PipelineInSocket::nb_transport_fw(WarpInstruction& wi, tlm::tlm_phase& phase,
                                                     sc_core::sc_time&) {
  if (phase != tlm::BEGIN_REQ)
    throw PipelineError(std::string(name()) + ": pipeline links carry BEGIN_REQ only");
  if (!receiver_) throw PipelineError(std::string(name()) + ": no receiver registered");
  receiver_(wi);
  return tlm::TLM_COMPLETED;
}

void PipelineInSocket::b_transport(WarpInstruction& wi, sc_core::sc_time&) {
  throw PipelineError(std::string(name()) + ": pipeline links are non-blocking only (warp " +
                      std::to_string(wi.warp) + ")");
}

}  // namespace gputlm::sm
