#include "gpu/observe/socket_taps.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::gpu {

const std::vector<std::string>& socket_kinds() {
  static const std::vector<std::string> kinds{"l1i", "l1d", "l1c", "l1t", "icnt", "l2", "dram"};
  return kinds;
}

std::vector<std::string> parse_socket_kinds(const std::string& list) {
  const std::vector<std::string>& known = socket_kinds();
  std::string names;
  for (const std::string& k : known) names += (names.empty() ? "" : ", ") + k;
  if (list == "all") return known;
  std::vector<std::string> out;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = list.find(',', from);
    const std::string k = list.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    if (k.empty()) throw std::invalid_argument("empty socket name in '" + list + "' (known: " + names + ", all)");
    if (std::find(known.begin(), known.end(), k) == known.end())
      throw std::invalid_argument("unknown socket '" + k + "' (known: " + names + ", all)");
    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

void SocketTaps::observe(const std::vector<std::string>& kinds, TransactionSink& sink) {
  for (const std::string& k : kinds) sinks_[k].push_back(&sink);
}

std::unique_ptr<TlmPassThrough> SocketTaps::tap(const char* kind, const std::string& initiator,
                                                const std::string& target, const ClockDomain& clock) {
  auto it = sinks_.find(kind);
  if (it == sinks_.end()) return nullptr;
  TransactionRecorder::SocketInfo info;
  info.kind = kind;
  info.initiator = initiator;
  info.target = target;
  info.clock = clock.name();
  info.period_ps = static_cast<uint64_t>(clock.period().to_seconds() * 1e12 + 0.5);
  // A recorder is created inside the block that binds the socket ("gpu.sm3.l1d_recorder");
  // the GPU binds every SM's crossbar port, so those are named after their SM
  // ("gpu.sm3_icnt_recorder").
  std::string name = std::string(kind) + "_recorder";
  if (name == "icnt_recorder") {
    const std::size_t last = initiator.rfind('.');
    const std::size_t before = last == std::string::npos ? std::string::npos : initiator.rfind('.', last - 1);
    if (last != std::string::npos) name = initiator.substr(before + 1, last - before - 1) + "_" + name;
  }
  auto r = std::make_unique<TransactionRecorder>(name.c_str(), info);
  for (TransactionSink* s : it->second) r->add_sink(*s);
  recorders_.push_back(r.get());
  return r;
}

std::size_t SocketTaps::open_transactions() const {
  std::size_t n = 0;
  for (const TransactionRecorder* r : recorders_) n += r->open();
  return n;
}

}  // namespace gputlm::gpu

namespace gputlm::gpu {

void SocketTaps::report_unfinished() {
  for (TransactionRecorder* r : recorders_) r->report_unfinished();
}

}  // namespace gputlm::gpu
