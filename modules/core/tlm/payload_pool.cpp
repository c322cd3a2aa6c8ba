#include "core/tlm/payload_pool.h"

#include <stdexcept>

namespace gputlm {

// A pooled payload owns its data buffer; deriving lets free() find it again.
struct PayloadPool::Entry : tlm::tlm_generic_payload {
  std::vector<unsigned char> data;
  Entry(tlm::tlm_mm_interface* mm, std::size_t bytes) : tlm::tlm_generic_payload(mm), data(bytes, 0) {
    set_extension(new MemExtension);  // owned by the payload, deleted with it
  }
};

PayloadPool::PayloadPool(std::size_t data_bytes, std::string name)
    : data_bytes_(data_bytes), name_(std::move(name)) {
  if (data_bytes_ == 0) throw std::invalid_argument(name_ + ": data_bytes must be positive");
}

PayloadPool::~PayloadPool() = default;

tlm::tlm_generic_payload* PayloadPool::allocate() {
  Entry* gp;
  if (free_.empty()) {
    all_.push_back(std::make_unique<Entry>(this, data_bytes_));
    gp = all_.back().get();
  } else {
    gp = static_cast<Entry*>(free_.back());
    free_.pop_back();
  }
  gp->set_data_ptr(gp->data.data());
  gp->set_command(tlm::TLM_READ_COMMAND);
  gp->set_address(0);
  gp->set_data_length(static_cast<unsigned>(data_bytes_));
  gp->set_streaming_width(static_cast<unsigned>(data_bytes_));
  gp->set_byte_enable_ptr(nullptr);
  gp->set_byte_enable_length(0);
  gp->set_dmi_allowed(false);
  gp->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  MemExtension& ext = mem_ext(*gp);
  ext.reset();
  ext.id = next_id_++;
  return gp;
}

void PayloadPool::free(tlm::tlm_generic_payload* gp) {
  // Keep the extension (it is reused); tlm_generic_payload::free_all_extensions would
  // delete it, so do not call reset() here.
  free_.push_back(gp);
}

}  // namespace gputlm
