// Storage shared by the MSHR organisations: entries x fields, allocated once, with the
// availability bit vector and priority encoder of the TSMA index generator (001 §5.1,
// Fig. 5.2): the free entry with the lowest index is the next one handed out, so
// allocation order is deterministic.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "mem/mshr/mshr_if.h"

namespace gputlm::mem {

class MshrTable {
 public:
  MshrTable(uint32_t entries, uint32_t fields);

  uint32_t entries() const { return entries_; }
  uint32_t fields() const { return fields_; }
  uint32_t occupied() const { return occupied_; }
  bool valid(uint32_t e) const { return valid_[e] != 0; }
  bool empty() const { return occupied_ == 0; }
  uint64_t block(uint32_t e) const { return block_[e]; }
  uint32_t count(uint32_t e) const { return count_[e]; }
  bool has_free_field(uint32_t e) const { return count_[e] < fields_; }
  bool reserved_line(uint32_t e) const { return reserved_line_[e] != 0; }
  const MshrField& field(uint32_t e, uint32_t i) const { return fields_store_[e * fields_ + i]; }

  // Lowest free entry in [first, first + n), or -1.
  int32_t next_free(uint32_t first, uint32_t n) const;
  int32_t next_free() const { return next_free(0, entries_); }
  // Valid entry holding `block` in [first, first + n), or -1 (a tag compare per entry).
  int32_t search(uint64_t block, uint32_t first, uint32_t n) const;

  void allocate(uint32_t e, uint64_t block, bool reserved_line, const MshrField& f);
  void merge(uint32_t e, const MshrField& f);
  void release(uint32_t e);

 private:
  static constexpr uint64_t kNoBlock = ~uint64_t{0};  // tag of a free entry: never matches
  uint32_t entries_, fields_, occupied_ = 0;
  std::vector<uint8_t> valid_, reserved_line_;
  std::vector<uint64_t> block_;
  std::vector<uint64_t> free_bits_;  // the index generator's availability vector (1 = free)
  // One past the highest valid entry: entries above it are free (kNoBlock), so a search
  // need not compare them (a simulator shortcut; the statistics still count a full CAM
  // search). Keeps 10240-entry arrays (Mascar §II-D) cheap.
  uint32_t used_end_ = 0;
  // Block -> entry, open addressing with linear probing (slot value = entry + 1, 0 = empty):
  // a simulator shortcut for search(), which would otherwise compare up to every entry
  // (256 per L2 bank on Fermi, 3072 on Pascal). Valid only while no block is in two
  // entries (no organisation allocates one twice; if one did, search() falls back to the
  // scan for good). Tables of fewer than kIndexFrom entries are scanned.
  static constexpr uint32_t kIndexFrom = 16;
  std::vector<uint32_t> index_;
  uint32_t index_shift_ = 64;
  bool indexed_ = false;
  uint32_t index_slot(uint64_t block) const {
    return static_cast<uint32_t>((block * 0x9E3779B97F4A7C15ull) >> index_shift_);
  }
  int32_t index_find(uint64_t block) const;
  void index_insert(uint32_t e);
  void index_erase(uint32_t e);
  std::vector<uint32_t> count_;
  std::vector<MshrField> fields_store_;
};

// Counters every organisation keeps (group "mshr").
struct MshrStats {
  explicit MshrStats(stats::Group& parent);
  stats::Group group;
  stats::Counter tag_compares;  // 001 Fig. 5.11: comparisons per search, incl. failed ones
  stats::Counter allocations;   // primary misses given an entry
  stats::Counter merges;        // secondary misses given a field
  stats::Counter releases;
  stats::CounterVector fails;   // plan() failures by cause
  void count_fail(ReservationFail cause);
};

}  // namespace gputlm::mem

namespace gputlm::mem {

// Base of the organisations that keep one MshrTable (conventional, set_assoc, tsma).
class TableMshr : public MshrIF {
 public:
  TableMshr(const MshrConfig& cfg, stats::Group& parent)
      : table_(cfg.entries, cfg.fields), stats_(parent), margin_(cfg.almost_full_margin) {}

  void commit(const MshrPlan& p, uint64_t block, const MshrField& f) override;
  void release(int32_t entry) override;
  bool in_use(int32_t entry) const override {
    return entry >= 0 && static_cast<uint32_t>(entry) < table_.entries() && table_.valid(static_cast<uint32_t>(entry));
  }
  uint32_t field_count(int32_t entry) const override { return table_.count(checked(entry)); }
  const MshrField& field(int32_t entry, uint32_t i) const override { return table_.field(checked(entry), i); }
  uint64_t block_of(int32_t entry) const override { return table_.block(checked(entry)); }
  bool line_reserved(int32_t entry) const override { return table_.reserved_line(checked(entry)); }
  uint32_t occupied() const override { return table_.occupied(); }
  uint32_t capacity() const override { return table_.entries(); }
  bool almost_full() const override { return capacity() - occupied() <= margin_; }
  void expose_storage_bits(uint64_t bits) override {
    storage_bits_ = std::make_unique<stats::Constant>(
        stats_.group, "storage_bits", "storage of this MSHR organisation in bits (mshr_storage.h; 001 §1.2, §5.1-5.2)",
        bits);
  }

 protected:
  uint32_t checked(int32_t entry) const;
  MshrPlan fail(ReservationFail cause) {
    stats_.count_fail(cause);
    MshrPlan p;
    p.cause = cause;
    return p;
  }
  MshrPlan merge_or_fail(int32_t entry, MshrStructure s = MshrStructure::Main);
  static MshrPlan allocate(int32_t entry, bool reserve_line, MshrStructure s = MshrStructure::Main) {
    MshrPlan p;
    p.action = MshrAction::Allocate;
    p.entry = entry;
    p.reserve_line = reserve_line;
    p.structure = s;
    return p;
  }

  MshrTable table_;
  MshrStats stats_;
  uint32_t margin_;
  std::unique_ptr<stats::Constant> storage_bits_;
};

}  // namespace gputlm::mem
