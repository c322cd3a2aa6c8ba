// Rows of a fixed number of doubles, each with a cycle, appended while a run goes on and
// read back when it ends (a time series). The newest rows stay in memory; full blocks of
// older ones go to an anonymous temporary file, so a run ten times longer holds the same
// memory (issue 18 point 3). Reading rows in increasing order reads the file once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace gputlm::stats {

class RowLog {
 public:
  // block_rows: rows kept in memory before they go to the file (and read back at once).
  explicit RowLog(std::size_t columns, std::size_t block_rows = 1024);
  ~RowLog();
  RowLog(const RowLog&) = delete;
  RowLog& operator=(const RowLog&) = delete;

  std::size_t columns() const { return columns_; }
  std::size_t size() const { return size_; }
  // Appends a row of columns() values. Throws std::runtime_error when the temporary file
  // cannot be created or written.
  void append(uint64_t cycle, const double* values);
  // Row i < size(): its cycle, and its values into `values` (columns() of them).
  void read(std::size_t i, uint64_t& cycle, double* values) const;
  uint64_t cycle(std::size_t i) const;
  double value(std::size_t i, std::size_t column) const;
  // Rows written to the file (for tests).
  std::size_t spilled_rows() const { return spilled_; }

 private:
  const double* row(std::size_t i) const;  // cycle bits first, then the values

  std::size_t columns_, block_rows_, width_;  // width_: doubles per row (1 + columns_)
  std::size_t size_ = 0, spilled_ = 0;        // rows in all, rows in the file
  std::vector<double> tail_;                  // rows [spilled_, size_)
  std::FILE* file_ = nullptr;
  mutable std::vector<double> cache_;         // one block read back from the file
  mutable std::size_t cached_block_ = SIZE_MAX;
};

}  // namespace gputlm::stats
