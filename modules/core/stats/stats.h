// The statistics tree (architecture §7): groups named like gpu.sm3.l1d hold counters,
// averages, distributions, ratios and labelled counter vectors. Each statistic keeps
// the current epoch (a kernel) and the total over all epochs; end_epoch() folds one
// into the other at a kernel boundary, so the JSON output has per-kernel and total
// values without any copying of the tree.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/stats/row_log.h"

namespace gputlm::stats {

enum class View { Epoch, Total };

class Group;

class Stat {
 public:
  Stat(Group& parent, std::string name, std::string description);
  virtual ~Stat();
  Stat(const Stat&) = delete;
  Stat& operator=(const Stat&) = delete;

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  std::string path() const;
  virtual nlohmann::json to_json(View view) const = 0;
  // A single number for time series and ratios (count, mean, ...).
  virtual double scalar(View view) const = 0;
  virtual void end_epoch() = 0;
  virtual void reset() = 0;

 private:
  friend class Group;
  Group* parent_;  // nullptr once the group is destroyed first
  std::string name_, description_;
};

class Group {
 public:
  explicit Group(std::string name);  // a root
  Group(Group& parent, std::string name);
  ~Group();
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;

  const std::string& name() const { return name_; }
  std::string path() const;
  nlohmann::json to_json(View view = View::Total) const;
  void end_epoch();
  void reset();
  // Finds a statistic by path relative to this group ("sm0.l1d.hits"), or nullptr.
  const Stat* find(const std::string& relative_path) const;
  const std::vector<Group*>& groups() const { return groups_; }
  const std::vector<Stat*>& stats() const { return stats_; }

 private:
  friend class Stat;
  Group* parent_ = nullptr;
  std::string name_;
  std::vector<Group*> groups_;  // in creation order: output order is deterministic
  std::vector<Stat*> stats_;
};

class Counter : public Stat {
 public:
  using Stat::Stat;
  void operator++() { ++cur_; }
  void add(uint64_t n) { cur_ += n; }
  uint64_t value(View v = View::Epoch) const { return v == View::Epoch ? cur_ : total_ + cur_; }
  nlohmann::json to_json(View v) const override { return value(v); }
  double scalar(View v) const override { return static_cast<double>(value(v)); }
  void end_epoch() override { total_ += cur_; cur_ = 0; }
  void reset() override { cur_ = total_ = 0; }

 private:
  uint64_t cur_ = 0, total_ = 0;
};

// A fixed property of the modelled hardware (a structure's storage in bits): the same
// value in every epoch and in the total, untouched by reset.
class Constant : public Stat {
 public:
  Constant(Group& parent, std::string name, std::string description, uint64_t value)
      : Stat(parent, std::move(name), std::move(description)), value_(value) {}
  uint64_t value() const { return value_; }
  nlohmann::json to_json(View) const override { return value_; }
  double scalar(View) const override { return static_cast<double>(value_); }
  void end_epoch() override {}
  void reset() override {}

 private:
  uint64_t value_;
};

// A counter whose running count is a plain integer the owner keeps in its own hot data
// (a count a block bumps every cycle: one cache line fewer per increment than a Counter
// object of its own). The owner only ever increases `source`; the tree reads it, with the
// same epochs, JSON and reset as a Counter.
class CounterRef : public Stat {
 public:
  CounterRef(Group& parent, std::string name, std::string description, const uint64_t& source);
  uint64_t value(View v = View::Epoch) const {
    const uint64_t cur = *source_ - epoch_base_;
    return v == View::Epoch ? cur : total_ + cur;
  }
  nlohmann::json to_json(View v) const override { return value(v); }
  double scalar(View v) const override { return static_cast<double>(value(v)); }
  void end_epoch() override {
    total_ += *source_ - epoch_base_;
    epoch_base_ = *source_;
  }
  void reset() override {
    total_ = 0;
    epoch_base_ = *source_;
  }

 private:
  const uint64_t* source_;
  uint64_t epoch_base_, total_ = 0;
};

// Mean, minimum and maximum of sampled values.
class Average : public Stat {
 public:
  using Stat::Stat;
  void sample(double v, uint64_t weight = 1);
  double mean(View v = View::Epoch) const;
  uint64_t count(View v = View::Epoch) const { return v == View::Epoch ? cur_.n : cur_.n + total_.n; }
  nlohmann::json to_json(View v) const override;
  double scalar(View v) const override { return mean(v); }
  void end_epoch() override;
  void reset() override { cur_ = total_ = Acc{}; }

 private:
  struct Acc {
    double sum = 0;
    uint64_t n = 0;
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
  };
  Acc combined(View v) const;
  Acc cur_, total_;
};

// A histogram of `buckets` equal buckets over [min, max), with underflow and overflow.
class Distribution : public Stat {
 public:
  Distribution(Group& parent, std::string name, std::string description, double min, double max,
               uint32_t buckets);
  void sample(double v, uint64_t weight = 1);
  uint64_t bucket(uint32_t i, View v = View::Epoch) const;
  uint64_t count(View v = View::Epoch) const;
  double mean(View v = View::Epoch) const;
  nlohmann::json to_json(View v) const override;
  double scalar(View v) const override { return mean(v); }
  void end_epoch() override;
  void reset() override;

 private:
  double min_, max_, width_;
  // [0] underflow, [1..n] buckets, [n+1] overflow
  std::vector<uint64_t> cur_, total_;
  double cur_sum_ = 0, total_sum_ = 0;
};

// numerator / denominator of two other statistics; 0 when the denominator is 0.
class Ratio : public Stat {
 public:
  Ratio(Group& parent, std::string name, std::string description, const Stat& numerator,
        const Stat& denominator);
  double value(View v = View::Epoch) const;
  nlohmann::json to_json(View v) const override { return value(v); }
  double scalar(View v) const override { return value(v); }
  void end_epoch() override {}
  void reset() override {}

 private:
  const Stat& num_;
  const Stat& den_;
};

// Counters indexed by a fixed set of labels (stall classes, access outcomes).
class CounterVector : public Stat {
 public:
  CounterVector(Group& parent, std::string name, std::string description,
                std::vector<std::string> labels);
  void add(std::size_t index, uint64_t n = 1) { cur_[index] += n; }
  uint64_t value(std::size_t index, View v = View::Epoch) const {
    return v == View::Epoch ? cur_[index] : cur_[index] + total_[index];
  }
  uint64_t sum(View v = View::Epoch) const;
  const std::vector<std::string>& labels() const { return labels_; }
  nlohmann::json to_json(View v) const override;
  double scalar(View v) const override { return static_cast<double>(sum(v)); }
  void end_epoch() override;
  void reset() override;

 private:
  std::vector<std::string> labels_;
  std::vector<uint64_t> cur_, total_;
};

// Periodic samples of chosen statistics (time series). Passive: whoever owns the run
// loop calls sample(cycle); values are recorded when a period boundary has passed.
// Besides statistics found by path, a series may come from a probe: a function giving a
// cumulative value that is not one statistic (a sum over SMs, a count that includes
// cycles a sleeping block has not accounted yet). Samples are kept in a RowLog: the
// newest in memory, older ones in a temporary file, so memory does not grow with the run.
class Sampler {
 public:
  Sampler(const Group& root, uint64_t period_cycles, const std::vector<std::string>& paths);
  // Adds a series read by `probe` at every sample; before the first sample.
  void add_probe(std::string name, std::function<double()> probe);
  void sample(uint64_t cycle);
  // Records `cycle` whether or not it is a boundary (the end of a run), unless it is the
  // last cycle recorded already.
  void sample_now(uint64_t cycle);
  // The first cycle at which sample() records again.
  uint64_t next_sample() const { return next_; }
  uint64_t period() const { return period_; }
  std::size_t size() const { return rows_ ? rows_->size() : 0; }
  const std::vector<std::string>& names() const { return paths_; }
  // The samples: row i holds the cycle and every series' value (in names() order). Empty
  // (columns 0) before the first sample.
  const RowLog& rows() const;
  // Copies of every sample's cycle and of series i's values (small series: tests, demo).
  std::vector<uint64_t> cycles() const;
  std::vector<double> values(std::size_t i) const;
  nlohmann::json to_json() const;

 private:
  void record(uint64_t cycle);
  uint64_t period_, next_ = 0;
  std::vector<std::string> paths_;
  std::vector<const Stat*> stats_;
  std::vector<std::function<double()>> probes_;  // after stats_, in paths_ order
  std::unique_ptr<RowLog> rows_;                 // created at the first sample (probes fixed)
  std::vector<double> row_;                      // the sample being recorded
};

// Per-kernel and total statistics of a run: end_kernel() records the tree's current
// epoch under the kernel's name and folds it into the totals.
class EpochReport {
 public:
  explicit EpochReport(Group& root) : root_(root) {}
  void end_kernel(const std::string& name, nlohmann::json extra = nlohmann::json::object());
  // {"kernels": [{"name": ..., <extra>, "stats": {...}}, ...], "total": {...}}
  nlohmann::json to_json() const;

 private:
  Group& root_;
  nlohmann::json kernels_ = nlohmann::json::array();
};

}  // namespace gputlm::stats
