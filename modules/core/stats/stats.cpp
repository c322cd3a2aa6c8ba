#include "core/stats/stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gputlm::stats {

Stat::Stat(Group& parent, std::string name, std::string description)
    : parent_(&parent), name_(std::move(name)), description_(std::move(description)) {
  parent.stats_.push_back(this);
}

Stat::~Stat() {
  if (!parent_) return;  // its group went first (see ~Group)
  auto& v = parent_->stats_;
  v.erase(std::remove(v.begin(), v.end(), this), v.end());
}

std::string Stat::path() const { return parent_->path() + "." + name_; }

Group::Group(std::string name) : name_(std::move(name)) {}

Group::Group(Group& parent, std::string name) : parent_(&parent), name_(std::move(name)) {
  parent.groups_.push_back(this);
}

Group::~Group() {
  // Members of a module may outlive the group they registered in (a module destroyed after
  // its parent's stats group): detach them so their destructors do not touch this one.
  for (Stat* s : stats_) s->parent_ = nullptr;
  for (Group* g : groups_) g->parent_ = nullptr;
  if (parent_) {
    auto& v = parent_->groups_;
    v.erase(std::remove(v.begin(), v.end(), this), v.end());
  }
}

std::string Group::path() const { return parent_ ? parent_->path() + "." + name_ : name_; }

nlohmann::json Group::to_json(View view) const {
  nlohmann::json j = nlohmann::json::object();
  for (const Stat* s : stats_) j[s->name()] = s->to_json(view);
  for (const Group* g : groups_) j[g->name()] = g->to_json(view);
  return j;
}

void Group::end_epoch() {
  for (Stat* s : stats_) s->end_epoch();
  for (Group* g : groups_) g->end_epoch();
}

void Group::reset() {
  for (Stat* s : stats_) s->reset();
  for (Group* g : groups_) g->reset();
}

const Stat* Group::find(const std::string& rel) const {
  auto dot = rel.find('.');
  if (dot == std::string::npos) {
    for (const Stat* s : stats_)
      if (s->name() == rel) return s;
    return nullptr;
  }
  const std::string head = rel.substr(0, dot);
  for (const Group* g : groups_)
    if (g->name() == head) return g->find(rel.substr(dot + 1));
  return nullptr;
}

void Average::sample(double v, uint64_t weight) {
  cur_.sum += v * static_cast<double>(weight);
  cur_.n += weight;
  cur_.min = std::min(cur_.min, v);
  cur_.max = std::max(cur_.max, v);
}

Average::Acc Average::combined(View v) const {
  if (v == View::Epoch) return cur_;
  Acc a = total_;
  a.sum += cur_.sum;
  a.n += cur_.n;
  a.min = std::min(a.min, cur_.min);
  a.max = std::max(a.max, cur_.max);
  return a;
}

double Average::mean(View v) const {
  Acc a = combined(v);
  return a.n ? a.sum / static_cast<double>(a.n) : 0.0;
}

nlohmann::json Average::to_json(View v) const {
  Acc a = combined(v);
  return {{"mean", a.n ? a.sum / static_cast<double>(a.n) : 0.0},
          {"count", a.n},
          {"min", a.n ? a.min : 0.0},
          {"max", a.n ? a.max : 0.0}};
}

void Average::end_epoch() {
  total_ = combined(View::Total);
  cur_ = Acc{};
}

Distribution::Distribution(Group& parent, std::string name, std::string description, double min,
                           double max, uint32_t buckets)
    : Stat(parent, std::move(name), std::move(description)), min_(min), max_(max) {
  if (!(max > min) || buckets == 0)
    throw std::invalid_argument("distribution " + path() + ": needs max > min and buckets > 0");
  width_ = (max - min) / buckets;
  cur_.assign(buckets + 2, 0);
  total_.assign(buckets + 2, 0);
}

void Distribution::sample(double v, uint64_t weight) {
  std::size_t i;
  if (v < min_) i = 0;
  else if (v >= max_) i = cur_.size() - 1;
  else i = 1 + std::min<std::size_t>(cur_.size() - 3, static_cast<std::size_t>((v - min_) / width_));
  cur_[i] += weight;
  cur_sum_ += v * static_cast<double>(weight);
}

uint64_t Distribution::bucket(uint32_t i, View v) const {
  return cur_.at(i + 1) + (v == View::Total ? total_.at(i + 1) : 0);
}

uint64_t Distribution::count(View v) const {
  uint64_t n = 0;
  for (std::size_t i = 0; i < cur_.size(); ++i) n += cur_[i] + (v == View::Total ? total_[i] : 0);
  return n;
}

double Distribution::mean(View v) const {
  const uint64_t n = count(v);
  const double s = cur_sum_ + (v == View::Total ? total_sum_ : 0);
  return n ? s / static_cast<double>(n) : 0.0;
}

nlohmann::json Distribution::to_json(View v) const {
  nlohmann::json buckets = nlohmann::json::array();
  for (std::size_t i = 1; i + 1 < cur_.size(); ++i)
    buckets.push_back(cur_[i] + (v == View::Total ? total_[i] : 0));
  return {{"min", min_},
          {"max", max_},
          {"bucket_width", width_},
          {"underflow", cur_.front() + (v == View::Total ? total_.front() : 0)},
          {"overflow", cur_.back() + (v == View::Total ? total_.back() : 0)},
          {"buckets", buckets},
          {"count", count(v)},
          {"mean", mean(v)}};
}

void Distribution::end_epoch() {
  for (std::size_t i = 0; i < cur_.size(); ++i) {
    total_[i] += cur_[i];
    cur_[i] = 0;
  }
  total_sum_ += cur_sum_;
  cur_sum_ = 0;
}

void Distribution::reset() {
  std::fill(cur_.begin(), cur_.end(), 0);
  std::fill(total_.begin(), total_.end(), 0);
  cur_sum_ = total_sum_ = 0;
}

Ratio::Ratio(Group& parent, std::string name, std::string description, const Stat& numerator,
             const Stat& denominator)
    : Stat(parent, std::move(name), std::move(description)), num_(numerator), den_(denominator) {}

double Ratio::value(View v) const {
  const double d = den_.scalar(v);
  return d == 0 ? 0.0 : num_.scalar(v) / d;
}

CounterRef::CounterRef(Group& parent, std::string name, std::string description, const uint64_t& source)
    : Stat(parent, std::move(name), std::move(description)), source_(&source), epoch_base_(source) {}

CounterVector::CounterVector(Group& parent, std::string name, std::string description,
                             std::vector<std::string> labels)
    : Stat(parent, std::move(name), std::move(description)),
      labels_(std::move(labels)),
      cur_(labels_.size(), 0),
      total_(labels_.size(), 0) {}

uint64_t CounterVector::sum(View v) const {
  uint64_t s = 0;
  for (std::size_t i = 0; i < cur_.size(); ++i) s += value(i, v);
  return s;
}

nlohmann::json CounterVector::to_json(View v) const {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < labels_.size(); ++i) j[labels_[i]] = value(i, v);
  return j;
}

void CounterVector::end_epoch() {
  for (std::size_t i = 0; i < cur_.size(); ++i) {
    total_[i] += cur_[i];
    cur_[i] = 0;
  }
}

void CounterVector::reset() {
  std::fill(cur_.begin(), cur_.end(), 0);
  std::fill(total_.begin(), total_.end(), 0);
}

Sampler::Sampler(const Group& root, uint64_t period_cycles, const std::vector<std::string>& paths)
    : period_(period_cycles), paths_(paths) {
  if (period_ == 0) throw std::invalid_argument("stats sampler: period must be positive");
  for (const auto& p : paths) {
    const Stat* s = root.find(p);
    if (!s) throw std::invalid_argument("stats sampler: no statistic '" + p + "' under " + root.path());
    stats_.push_back(s);
  }
}

void Sampler::add_probe(std::string name, std::function<double()> probe) {
  if (rows_) throw std::logic_error("stats sampler: probe '" + name + "' added after the first sample");
  paths_.push_back(std::move(name));
  probes_.push_back(std::move(probe));
}

void Sampler::record(uint64_t cycle) {
  if (!rows_) {
    rows_ = std::make_unique<RowLog>(paths_.size());
    row_.resize(paths_.size());
  }
  for (std::size_t i = 0; i < stats_.size(); ++i) row_[i] = stats_[i]->scalar(View::Total);
  for (std::size_t i = 0; i < probes_.size(); ++i) row_[stats_.size() + i] = probes_[i]();
  rows_->append(cycle, row_.data());
  next_ = (cycle / period_ + 1) * period_;
}

void Sampler::sample(uint64_t cycle) {
  if (cycle < next_) return;
  record(cycle);
}

void Sampler::sample_now(uint64_t cycle) {
  if (size() && rows_->cycle(size() - 1) == cycle) return;
  record(cycle);
}

const RowLog& Sampler::rows() const {
  static const RowLog empty(0);
  return rows_ ? *rows_ : empty;
}

std::vector<uint64_t> Sampler::cycles() const {
  std::vector<uint64_t> c;
  for (std::size_t i = 0; i < size(); ++i) c.push_back(rows_->cycle(i));
  return c;
}

std::vector<double> Sampler::values(std::size_t i) const {
  if (i >= paths_.size()) throw std::out_of_range("stats sampler: no series " + std::to_string(i));
  std::vector<double> v;
  for (std::size_t r = 0; r < size(); ++r) v.push_back(rows_->value(r, i));
  return v;
}

nlohmann::json Sampler::to_json() const {
  nlohmann::json j = {{"period_cycles", period_}, {"cycles", cycles()}};
  for (std::size_t i = 0; i < paths_.size(); ++i) j["series"][paths_[i]] = values(i);
  return j;
}

void EpochReport::end_kernel(const std::string& name, nlohmann::json extra) {
  nlohmann::json k = {{"name", name}};
  for (auto it = extra.begin(); it != extra.end(); ++it) k[it.key()] = *it;
  k["stats"] = root_.to_json(View::Epoch);
  kernels_.push_back(std::move(k));
  root_.end_epoch();
}

nlohmann::json EpochReport::to_json() const {
  return {{"kernels", kernels_}, {"total", root_.to_json(View::Total)}};
}

}  // namespace gputlm::stats
