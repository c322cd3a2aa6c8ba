#include "gpu/run_summary.h"

#include <algorithm>
#include <cstdio>

namespace gputlm::gpu {

namespace {

uint64_t number(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<uint64_t>() : 0;
}

void add_vector(std::map<std::string, uint64_t>& into, const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_object()) return;
  for (auto e = it->begin(); e != it->end(); ++e)
    if (e->is_number()) into[e.key()] += e->get<uint64_t>();
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

uint64_t busy_cycles(std::vector<LaunchInterval> launches) {
  std::sort(launches.begin(), launches.end(), [](const LaunchInterval& a, const LaunchInterval& b) {
    return a.start < b.start || (a.start == b.start && a.end < b.end);
  });
  uint64_t busy = 0, covered_to = 0;  // every cycle below covered_to is already counted
  for (const LaunchInterval& l : launches) {
    const uint64_t from = std::max(l.start, covered_to);
    if (l.end > from) {
      busy += l.end - from;
      covered_to = l.end;
    }
  }
  return busy;
}

RunSummary summarize(const nlohmann::json& stats, const GpuConfig& cfg, uint64_t cycles) {
  RunSummary s;
  s.cycles = cycles;
  s.launch_cycles = cycles;
  uint32_t first = 0;
  for (const SmGroupConfig& g : cfg.sm_groups) {
    s.kinds.push_back({g.kind, first, g.count, 0, 0});
    first += g.count;
  }
  for (auto it = stats.begin(); it != stats.end(); ++it) {
    const std::string& name = it.key();
    const nlohmann::json& g = *it;
    if (!g.is_object()) continue;
    if (starts_with(name, "sm")) {
      s.warp_instructions += number(g, "warp_instructions");
      s.thread_instructions += number(g, "thread_instructions");
      if (!s.kinds.empty() && name.size() > 2 && name.find_first_not_of("0123456789", 2) == std::string::npos) {
        const auto id = static_cast<uint32_t>(std::stoul(name.substr(2)));
        for (KindTotals& k : s.kinds)
          if (id >= k.first_sm && id < k.first_sm + k.sms) {
            k.warp_instructions += number(g, "warp_instructions");
            k.thread_instructions += number(g, "thread_instructions");
          }
      }
      add_vector(s.stall_elf, g, "stall_elf");
      add_vector(s.stall_kaws, g, "stall_kaws");
      if (g.contains("l1d")) {
        s.l1d_loads += number(g["l1d"], "loads");
        s.l1d_load_hits += number(g["l1d"], "load_hits");
      }
    } else if (starts_with(name, "l2p")) {
      for (auto sub = g.begin(); sub != g.end(); ++sub)  // the L2 sub-partitions: sub0, sub1, ...
        if (starts_with(sub.key(), "sub") && sub->is_object() && sub->contains("bank")) {
          s.l2_loads += number((*sub)["bank"], "loads");
          s.l2_load_hits += number((*sub)["bank"], "load_hits");
        }
      if (g.contains("dram")) {
        s.dram_reads += number(g["dram"], "reads");
        s.dram_writes += number(g["dram"], "writes");
        s.dram_atoms += number(g["dram"], "read_commands") + number(g["dram"], "write_commands");
      }
    }
  }
  // Each RD / WR command moves one atom (burst x bus width x chips); a request of a
  // sectored L2 is one sector, not one line.
  const double bytes = static_cast<double>(s.dram_atoms) * cfg.l2.dram.atom_bytes();
  const double seconds = static_cast<double>(cycles) / (cfg.clocks.core_mhz * 1e6);
  s.dram_gbs = seconds > 0 ? bytes / seconds / 1e9 : 0;
  s.dram_peak_gbs = cfg.dram_bandwidth_gbs();
  return s;
}

std::string format_summary(const RunSummary& s, const std::string& in) {
  std::string out;
  char line[256];
  auto put = [&](const char* fmt, auto... args) {
    std::snprintf(line, sizeof line, fmt, args...);
    out += in + line + "\n";
  };
  if (s.launch_cycles > s.cycles)
    put("cycles               %llu (launches overlapped: their own cycles sum to %llu)",
        static_cast<unsigned long long>(s.cycles), static_cast<unsigned long long>(s.launch_cycles));
  else
    put("cycles               %llu", static_cast<unsigned long long>(s.cycles));
  put("IPC                  %.3f thread instr/cycle (%.3f warp instr/cycle)", s.ipc(), s.warp_ipc());
  put("warp instructions    %llu (%llu thread instructions)", static_cast<unsigned long long>(s.warp_instructions),
      static_cast<unsigned long long>(s.thread_instructions));
  for (const KindTotals& k : s.kinds)
    put("  kind %-14s %u SMs (sm%u-sm%u): IPC %.3f, %llu warp instructions", k.kind.c_str(), k.sms, k.first_sm,
        k.first_sm + k.sms - 1, s.cycles ? static_cast<double>(k.thread_instructions) / static_cast<double>(s.cycles) : 0.0,
        static_cast<unsigned long long>(k.warp_instructions));
  auto breakdown = [&](const char* title, const std::map<std::string, uint64_t>& m) {
    uint64_t total = 0;
    for (const auto& kv : m) total += kv.second;
    std::string parts;
    for (const auto& kv : m) {
      char b[64];
      std::snprintf(b, sizeof b, "%s%s %.1f%%", parts.empty() ? "" : ", ", kv.first.c_str(),
                    total ? 100.0 * static_cast<double>(kv.second) / static_cast<double>(total) : 0.0);
      parts += b;
    }
    put("%-20s %s (%llu scheduler-cycles without issue)", title, parts.empty() ? "-" : parts.c_str(),
        static_cast<unsigned long long>(total));
  };
  breakdown("stalls (ELF)", s.stall_elf);
  breakdown("stalls (KAWS)", s.stall_kaws);
  put("L1D load hit rate    %.3f (%llu loads)", s.l1d_hit_rate(), static_cast<unsigned long long>(s.l1d_loads));
  put("L2 load hit rate     %.3f (%llu loads)", s.l2_hit_rate(), static_cast<unsigned long long>(s.l2_loads));
  put("DRAM bandwidth       %.2f GB/s of %.1f GB/s peak (%llu reads, %llu writes)", s.dram_gbs, s.dram_peak_gbs,
      static_cast<unsigned long long>(s.dram_reads), static_cast<unsigned long long>(s.dram_writes));
  return out;
}

}  // namespace gputlm::gpu
