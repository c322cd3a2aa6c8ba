// The gputlm extension carried by every memory transaction (architecture §4): who
// asked (SM, warp, CTA, PC), what (space, kind, sector and byte masks), the per-level
// MSHR index TSMA needs, Mascar's owner flag, the issue cycle, and the outcome status
// a target reports (ok, reservation fail with its cause, NACK).
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <tlm>

namespace gputlm {

enum class MemSpace : uint8_t { Global, Local, Shared, Const, Texture, Instruction, Param };
enum class AccessKind : uint8_t { Load, Store, Atomic, Prefetch, InstFetch };
enum class MemStatus : uint8_t { Ok, ReservationFail, Nack };
enum class ReservationFail : uint8_t {
  None,
  MshrEntriesFull,  // primary miss with no free MSHR entry
  MshrFieldsFull,   // secondary miss whose entry has no free field
  MissQueueFull,    // no room in the queue towards the next level
  SetLocked,        // every way of the set reserved (allocate-on-miss) or shared (TSMA)
};

const char* to_string(MemSpace s);
const char* to_string(AccessKind k);
const char* to_string(MemStatus s);
const char* to_string(ReservationFail f);

// Levels that may hold an MSHR index for a transaction (L1, L2).
inline constexpr int kMshrLevels = 2;
inline constexpr int16_t kNoMshrIndex = -1;

struct MemExtension : tlm::tlm_extension<MemExtension> {
  int32_t sm = -1;
  int32_t warp = -1;  // warp slot within the SM
  int32_t cta = -1;
  uint64_t pc = 0;
  MemSpace space = MemSpace::Global;
  AccessKind kind = AccessKind::Load;
  uint32_t sector_mask = 0;   // 32 B sectors of the line touched
  // Bytes of the (128-byte) line touched. A store with neither mask set writes all its
  // bytes; with a sector mask and no byte, none (a sector request split off a store).
  std::bitset<128> byte_mask;
  // The reply travels as this many packets (an L2 that split the request into sector
  // requests answers each sector on its own, GPGPU-Sim's sector replies).
  uint8_t reply_parts = 1;
  std::array<int16_t, kMshrLevels> mshr_index{kNoMshrIndex, kNoMshrIndex};
  bool owner = false;  // Mascar: request from the owner warp
  uint64_t issue_cycle = 0;  // the cycle the requester first sent it (retries of a refused request keep it)
  MemStatus status = MemStatus::Ok;
  ReservationFail fail_cause = ReservationFail::None;
  uint64_t id = 0;  // unique per transaction, for tracing and golden-model matching

  void reset() { *this = MemExtension{}; }

  tlm::tlm_extension_base* clone() const override { return new MemExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const MemExtension&>(other);
  }
};

// The extension of a payload created by PayloadPool (always present there).
inline MemExtension& mem_ext(tlm::tlm_generic_payload& gp) {
  return *gp.get_extension<MemExtension>();
}

}  // namespace gputlm
