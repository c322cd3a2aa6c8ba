#include "runtime/concurrent_spec.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

namespace gputlm::runtime {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr uint64_t kMaxStream = 1023;  // as a launch spec's "stream"

// A non-negative integer in [lo, hi] at `key` (an integral real such as 2.0 counts).
uint32_t small_uint(const ConcurrentSpec& spec, const json& j, const std::string& key, uint64_t lo, uint64_t hi) {
  uint64_t v = 0;
  if (j.is_number_unsigned()) v = j.get<uint64_t>();
  else if (j.is_number_integer() && j.get<int64_t>() >= 0) v = static_cast<uint64_t>(j.get<int64_t>());
  else if (j.is_number_float() && j.get<double>() >= 0 && j.get<double>() < 1e18 &&
           static_cast<double>(static_cast<uint64_t>(j.get<double>())) == j.get<double>())
    v = static_cast<uint64_t>(j.get<double>());
  else throw spec.error(key, "expected a non-negative integer, got " + j.dump());
  if (v < lo || v > hi)
    throw spec.error(key, std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<uint32_t>(v);
}

// The loops of 004 §V's pairs: whenever a stream drains, its component has finished the
// runs issued so far; a looping component whose peers are short of their repeats runs
// again (`relaunch(k)`). Done when no component loops or every one has its repeats.
void run_loops(const ConcurrentSpec& spec, Runtime& rt, const std::function<void(std::size_t)>& relaunch) {
  const std::size_t n = spec.components.size();
  if (std::none_of(spec.components.begin(), spec.components.end(), [](const auto& c) { return c.loop; })) return;
  std::vector<uint32_t> issued(n), finished(n, 0);
  for (std::size_t k = 0; k < n; ++k) issued[k] = spec.components[k].repeat;
  auto short_of_repeats = [&](std::size_t k) {
    for (std::size_t j = 0; j < n; ++j)
      if (j != k && finished[j] < spec.components[j].repeat) return true;
    return false;
  };
  while (true) {
    const std::vector<uint32_t> drained = rt.synchronize_any_stream();
    if (drained.empty()) return;
    for (std::size_t k = 0; k < n; ++k)
      if (std::binary_search(drained.begin(), drained.end(), spec.components[k].stream)) finished[k] = issued[k];
    for (std::size_t k = 0; k < n; ++k) {
      const ConcurrentComponent& c = spec.components[k];
      if (!c.loop || finished[k] != issued[k] || !short_of_repeats(k)) continue;
      if (issued[k] >= kMaxSpecRepeat)
        throw spec.error(c.key_path + ".loop", "the component has run " + std::to_string(issued[k]) +
                                                   " times and another is still short of its repeats (at most " +
                                                   std::to_string(kMaxSpecRepeat) + " runs)");
      relaunch(k);
      ++issued[k];
    }
  }
}

}  // namespace

bool is_concurrent_spec_text(const std::string& text) {
  const json root = json::parse(text, nullptr, false);
  return !root.is_discarded() && root.is_object() && root.contains("concurrent");
}

ConcurrentSpec parse_concurrent_spec_text(const std::string& text, const std::string& path) {
  ConcurrentSpec spec;
  spec.path = path;
  spec.dir = fs::path(path).parent_path().string();
  if (spec.dir.empty()) spec.dir = ".";
  const json root = json::parse(text, nullptr, false);
  if (root.is_discarded() || !root.is_object()) throw spec.error("", "not a JSON object");
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it.key() != "concurrent" && it.key() != "description")
      throw spec.error(it.key(), "unknown key (allowed in a concurrent spec: concurrent, description)");
  if (!root.contains("concurrent")) throw spec.error("concurrent", "missing");
  const json& list = root["concurrent"];
  if (!list.is_array() || list.empty())
    throw spec.error("concurrent", "expected a non-empty array of {\"spec\", \"stream\", \"repeat\"?}");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string key = "concurrent[" + std::to_string(i) + "]";
    const json& c = list[i];
    if (!c.is_object()) throw spec.error(key, "expected an object {\"spec\", \"stream\", \"repeat\"?}");
    for (auto it = c.begin(); it != c.end(); ++it)
      if (it.key() != "spec" && it.key() != "stream" && it.key() != "repeat" && it.key() != "loop")
        throw spec.error(key + "." + it.key(), "unknown key (allowed here: spec, stream, repeat, loop)");
    ConcurrentComponent comp;
    comp.key_path = key;
    if (!c.contains("spec") || !c["spec"].is_string())
      throw spec.error(key + ".spec", c.contains("spec") ? "expected a string (a launch spec's path)" : "missing");
    if (!c.contains("stream")) throw spec.error(key + ".stream", "missing (each component runs on a stream of its own)");
    comp.stream = small_uint(spec, c["stream"], key + ".stream", 0, kMaxStream);
    for (const ConcurrentComponent& o : spec.components)
      if (o.stream == comp.stream)
        throw spec.error(key + ".stream", "stream " + std::to_string(comp.stream) + " is " + o.key_path +
                                              "'s too (each component needs a stream of its own)");
    if (c.contains("repeat")) comp.repeat = small_uint(spec, c["repeat"], key + ".repeat", 1, kMaxSpecRepeat);
    if (c.contains("loop")) {
      if (!c["loop"].is_boolean()) throw spec.error(key + ".loop", "expected true or false, got " + c["loop"].dump());
      comp.loop = c["loop"].get<bool>();
    }
    const std::string rel = c["spec"].get<std::string>();
    const fs::path p(rel);
    const std::string file = (p.is_absolute() ? p : fs::path(spec.dir) / p).lexically_normal().string();
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
      throw spec.error(key + ".spec", "file '" + rel + "' not found (looked for " + file + ")");
    const std::string text_k = read_spec_text(file);
    if (is_concurrent_spec_text(text_k))
      throw spec.error(key + ".spec", "'" + rel + "' is itself a concurrent spec (they do not nest)");
    try {
      comp.spec = parse_launch_spec_text(text_k, file);
    } catch (const SpecError& e) {
      throw spec.error(key + ".spec", e.what());
    }
    spec.components.push_back(std::move(comp));
  }
  return spec;
}

SpecFile parse_spec_file(const std::string& path) {
  const std::string text = read_spec_text(path);
  if (is_concurrent_spec_text(text)) return parse_concurrent_spec_text(text, path);
  return parse_launch_spec_text(text, path);
}

SpecReport run_concurrent_spec(const ConcurrentSpec& spec, Runtime& rt) {
  SpecReport report;
  report.spec_path = spec.path;
  report.backend = rt.backend().name();
  struct Prepared {
    ModuleId module = 0;
    std::vector<std::map<std::string, DevicePtr>> buffers;  // per run
  };
  std::vector<Prepared> prepared;
  // Everything is allocated and initialised before the first launch: a copy to the device
  // synchronises the runtime, which would serialise the components.
  for (const ConcurrentComponent& c : spec.components) {
    Prepared p;
    try {
      p.module = load_spec_module(c.spec, rt);
      for (uint32_t r = 0; r < c.repeat; ++r) p.buffers.push_back(allocate_spec_buffers(c.spec, rt));
      init_spec_symbols(c.spec, rt, p.module);
    } catch (const SpecError& e) {
      throw spec.error(c.key_path + ".spec", e.what());
    }
    prepared.push_back(std::move(p));
  }
  auto prefix = [](std::size_t k, std::size_t r) { return "c" + std::to_string(k) + ".r" + std::to_string(r) + "."; };
  auto issue = [&](std::size_t k, std::size_t r) {
    const ConcurrentComponent& c = spec.components[k];
    try {
      issue_spec_launches(c.spec, rt, prepared[k].module, prepared[k].buffers[r], {c.stream, prefix(k, r)});
    } catch (const SpecError& e) {
      throw spec.error(c.key_path + ".spec", e.what());
    }
  };

  // Round r issues every component's r-th repetition, so no component's launches are all
  // older than another's (the CTA scheduler may prefer older kernels).
  const std::size_t first_result = rt.results().size();
  uint32_t rounds = 0;
  for (const ConcurrentComponent& c : spec.components) rounds = std::max(rounds, c.repeat);
  for (uint32_t r = 0; r < rounds; ++r)
    for (std::size_t k = 0; k < spec.components.size(); ++k)
      if (r < spec.components[k].repeat) issue(k, r);
  run_loops(spec, rt, [&](std::size_t k) {
    const ConcurrentComponent& c = spec.components[k];
    try {
      prepared[k].buffers.push_back(allocate_spec_buffers(c.spec, rt, c.stream));
    } catch (const SpecError& e) {
      throw spec.error(c.key_path + ".spec", e.what());
    }
    issue(k, prepared[k].buffers.size() - 1);
  });
  rt.synchronize();
  report.launches.assign(rt.results().begin() + static_cast<std::ptrdiff_t>(first_result), rt.results().end());
  for (std::size_t k = 0; k < spec.components.size(); ++k)
    for (std::size_t r = 0; r < prepared[k].buffers.size(); ++r)
      for (const auto& [name, ptr] : prepared[k].buffers[r]) report.buffers[prefix(k, r) + name] = ptr;
  // A component's output files are its own runs' (its spec's folder): two jobs running the
  // same workload alone and in a pair must not write them at once.
  for (std::size_t k = 0; k < spec.components.size(); ++k)
    for (std::size_t r = 0; r < prepared[k].buffers.size(); ++r) {
      std::vector<OutputReport> o =
          check_spec_outputs(spec.components[k].spec, rt, prepared[k].buffers[r], prefix(k, r), false);
      report.outputs.insert(report.outputs.end(), o.begin(), o.end());
    }
  return report;
}

SpecReport run_spec_file(const SpecFile& spec, Runtime& rt) {
  if (const auto* c = std::get_if<ConcurrentSpec>(&spec)) return run_concurrent_spec(*c, rt);
  return run_launch_spec(std::get<LaunchSpec>(spec), rt);
}

const std::string& spec_file_path(const SpecFile& spec) {
  if (const auto* c = std::get_if<ConcurrentSpec>(&spec)) return c->path;
  return std::get<LaunchSpec>(spec).path;
}

}  // namespace gputlm::runtime
