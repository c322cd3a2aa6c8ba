#include "core/tlm/mem_extension.h"

namespace gputlm {

const char* to_string(MemSpace s) {
  switch (s) {
    case MemSpace::Global: return "global";
    case MemSpace::Local: return "local";
    case MemSpace::Shared: return "shared";
    case MemSpace::Const: return "const";
    case MemSpace::Texture: return "texture";
    case MemSpace::Instruction: return "instruction";
    case MemSpace::Param: return "param";
  }
  return "?";
}

const char* to_string(AccessKind k) {
  switch (k) {
    case AccessKind::Load: return "load";
    case AccessKind::Store: return "store";
    case AccessKind::Atomic: return "atomic";
    case AccessKind::Prefetch: return "prefetch";
    case AccessKind::InstFetch: return "ifetch";
  }
  return "?";
}

const char* to_string(MemStatus s) {
  switch (s) {
    case MemStatus::Ok: return "ok";
    case MemStatus::ReservationFail: return "reservation_fail";
    case MemStatus::Nack: return "nack";
  }
  return "?";
}

const char* to_string(ReservationFail f) {
  switch (f) {
    case ReservationFail::None: return "none";
    case ReservationFail::MshrEntriesFull: return "mshr_entries_full";
    case ReservationFail::MshrFieldsFull: return "mshr_fields_full";
    case ReservationFail::MissQueueFull: return "miss_queue_full";
    case ReservationFail::SetLocked: return "set_locked";
  }
  return "?";
}

}  // namespace gputlm
