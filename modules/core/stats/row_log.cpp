#include "core/stats/row_log.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace gputlm::stats {

RowLog::RowLog(std::size_t columns, std::size_t block_rows)
    : columns_(columns), block_rows_(block_rows), width_(columns + 1) {
  if (block_rows_ == 0) throw std::invalid_argument("row log: block_rows must be positive");
  tail_.reserve(block_rows_ * width_);
}

RowLog::~RowLog() {
  if (file_) std::fclose(file_);
}

void RowLog::append(uint64_t cycle, const double* values) {
  if (tail_.size() == block_rows_ * width_) {
    if (!file_ && !(file_ = std::tmpfile()))
      throw std::runtime_error("time series: cannot create a temporary file for older samples");
    if (std::fseek(file_, 0, SEEK_END) != 0 ||
        std::fwrite(tail_.data(), sizeof(double), tail_.size(), file_) != tail_.size())
      throw std::runtime_error("time series: cannot write older samples to the temporary file");
    spilled_ += block_rows_;
    tail_.clear();
  }
  double bits;
  static_assert(sizeof bits == sizeof cycle);
  std::memcpy(&bits, &cycle, sizeof bits);
  tail_.push_back(bits);
  tail_.insert(tail_.end(), values, values + columns_);
  ++size_;
}

const double* RowLog::row(std::size_t i) const {
  if (i >= size_) throw std::out_of_range("row log: row " + std::to_string(i) + " of " + std::to_string(size_));
  if (i >= spilled_) return tail_.data() + (i - spilled_) * width_;
  const std::size_t block = i / block_rows_;
  if (block != cached_block_) {
    cache_.resize(block_rows_ * width_);
    const long at = static_cast<long>(block * block_rows_ * width_ * sizeof(double));
    if (std::fflush(file_) != 0 || std::fseek(file_, at, SEEK_SET) != 0 ||
        std::fread(cache_.data(), sizeof(double), cache_.size(), file_) != cache_.size())
      throw std::runtime_error("time series: cannot read older samples back from the temporary file");
    cached_block_ = block;
  }
  return cache_.data() + (i % block_rows_) * width_;
}

void RowLog::read(std::size_t i, uint64_t& cycle, double* values) const {
  const double* r = row(i);
  std::memcpy(&cycle, r, sizeof cycle);
  std::memcpy(values, r + 1, columns_ * sizeof(double));
}

uint64_t RowLog::cycle(std::size_t i) const {
  uint64_t c;
  std::memcpy(&c, row(i), sizeof c);
  return c;
}

double RowLog::value(std::size_t i, std::size_t column) const {
  if (column >= columns_) throw std::out_of_range("row log: column " + std::to_string(column));
  return row(i)[1 + column];
}

}  // namespace gputlm::stats
