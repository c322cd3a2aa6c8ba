// A pooled TLM memory manager: payloads (each with a MemExtension and a data buffer
// of the configured size attached once) are recycled, so steady-state traffic
// allocates nothing. Reference counting follows TLM-2.0: acquire() on send,
// release() by whoever is done with it; the last release returns it to the pool.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <tlm>
#include <vector>

#include "core/tlm/mem_extension.h"

namespace gputlm {

class PayloadPool : public tlm::tlm_mm_interface {
 public:
  // data_bytes: the data buffer each payload carries (a cache line). Timing-only
  // traffic still points at it so every payload obeys the base protocol's data rules.
  explicit PayloadPool(std::size_t data_bytes = 128, std::string name = "payload_pool");
  ~PayloadPool() override;
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;

  // A payload with reference count 0, its extension reset and its attributes set to
  // defaults (read, address 0, data length = data_bytes, streaming width = length,
  // byte enables off, response TLM_INCOMPLETE_RESPONSE). Call acquire() on it.
  tlm::tlm_generic_payload* allocate();
  void free(tlm::tlm_generic_payload* gp) override;

  std::size_t created() const { return all_.size(); }   // payloads ever made
  std::size_t in_use() const { return all_.size() - free_.size(); }
  std::size_t data_bytes() const { return data_bytes_; }

 private:
  struct Entry;
  std::size_t data_bytes_;
  std::string name_;
  std::vector<std::unique_ptr<Entry>> all_;
  std::vector<tlm::tlm_generic_payload*> free_;
  uint64_t next_id_ = 1;
};

}  // namespace gputlm
