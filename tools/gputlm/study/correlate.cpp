#include "study/correlate.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "isa/ir.h"
#include "study/study_spec.h"

namespace gputlm::study {

namespace {

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cur += '"', ++i;
      else if (c == '"') quoted = false;
      else cur += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// Our names of the quantities a reference may carry, by their column names.
const std::map<std::string, std::string>& quantity_of_column() {
  static const std::map<std::string, std::string> m = {
      {"cycles", "cycles"}, {"ref_cycles", "cycles"},
      {"warp_instructions", "warp_instructions"}, {"ref_warp_insn", "warp_instructions"},
      {"thread_instructions", "thread_instructions"}};
  return m;
}

std::string short_name(const std::string& mangled) {
  const std::string d = isa::demangle(mangled);
  return d.substr(0, d.find('('));
}

}  // namespace

std::vector<RefRow> read_reference_csv(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw StudyError(path + ": cannot open the reference CSV");
  std::string line;
  if (!std::getline(f, line)) throw StudyError(path + ": empty file (a header line is needed)");
  const std::vector<std::string> head = split_csv(line);
  int wcol = -1, kcol = -1, check_col = -1;
  std::map<std::string, int> qcol;  // quantity -> column (ref_* wins over the plain name)
  for (int i = 0; i < static_cast<int>(head.size()); ++i) {
    if (head[i] == "workload") wcol = i;
    else if (head[i] == "kernel") kcol = i;
    else if (head[i] == "ref_check") check_col = i;
    auto q = quantity_of_column().find(head[i]);
    if (q != quantity_of_column().end() && (!qcol.count(q->second) || head[i].rfind("ref_", 0) == 0)) qcol[q->second] = i;
  }
  if (wcol < 0) throw StudyError(path + ": line 1: no 'workload' column");
  if (!qcol.count("cycles")) throw StudyError(path + ": line 1: no 'cycles' or 'ref_cycles' column");
  std::vector<RefRow> rows;
  for (int n = 2; std::getline(f, line); ++n) {
    if (line.find_first_not_of(" \r") == std::string::npos) continue;
    const std::vector<std::string> c = split_csv(line);
    if (c.size() != head.size())
      throw StudyError(path + ": line " + std::to_string(n) + ": " + std::to_string(c.size()) + " fields, the header has " +
                       std::to_string(head.size()));
    RefRow r;
    r.workload = c[static_cast<std::size_t>(wcol)];
    if (kcol >= 0) r.kernel = c[static_cast<std::size_t>(kcol)];
    for (const auto& [q, col] : qcol) {
      const std::string& v = c[static_cast<std::size_t>(col)];
      if (v.empty()) {
        if (q != "cycles") continue;
        const std::string check = check_col >= 0 ? c[static_cast<std::size_t>(check_col)] : "";
        if (check.empty() || check == "PASS")
          throw StudyError(path + ": line " + std::to_string(n) + ": no reference cycles");
        r.reference_failed = true;  // e.g. ref_check FAIL: GPGPU-Sim could not run it
        continue;
      }
      char* end = nullptr;
      const double d = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(d >= 0))
        throw StudyError(path + ": line " + std::to_string(n) + ": " + head[static_cast<std::size_t>(col)] + " '" + v +
                         "' is not a non-negative number");
      r.values[q] = d;
    }
    rows.push_back(r);
  }
  if (rows.empty()) throw StudyError(path + ": no data rows");
  if (std::all_of(rows.begin(), rows.end(), [](const RefRow& r) { return r.reference_failed; }))
    throw StudyError(path + ": every reference run failed (no reference cycles)");
  return rows;
}

std::optional<CorrRow> match(const RefRow& ref, const nlohmann::json& stats) {
  if (!stats.contains("launches")) return std::nullopt;
  CorrRow row{ref.workload, ref.kernel, ref.values, {}};
  bool any = false;
  for (const auto& l : stats["launches"]) {
    const std::string k = l.value("kernel", "");
    if (!ref.kernel.empty() && ref.kernel != k && ref.kernel != short_name(k) && ref.kernel != l.value("label", ""))
      continue;
    any = true;
    for (const auto& [q, v] : ref.values) {
      (void)v;
      if (l.contains(q) && l[q].is_number()) row.ours[q] += l[q].get<double>();
    }
  }
  if (!any) return std::nullopt;
  return row;
}

CorrStats correlation(const std::vector<CorrRow>& rows, const std::string& q) {
  std::vector<double> x, y, err;
  for (const CorrRow& r : rows)
    if (r.ref.count(q) && r.ours.count(q) && r.ref.at(q) > 0) {
      x.push_back(r.ref.at(q));
      y.push_back(r.ours.at(q));
      err.push_back(std::fabs(r.ours.at(q) - r.ref.at(q)) / r.ref.at(q));
    }
  CorrStats s;
  s.n = x.size();
  if (s.n == 0) return s;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < s.n; ++i) mx += x[i], my += y[i];
  mx /= static_cast<double>(s.n);
  my /= static_cast<double>(s.n);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < s.n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  s.pearson_r = sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0;
  for (double e : err) s.mean_abs_error += e;
  s.mean_abs_error /= static_cast<double>(s.n);
  std::sort(err.begin(), err.end());
  s.median_abs_error = s.n % 2 ? err[s.n / 2] : (err[s.n / 2 - 1] + err[s.n / 2]) / 2;
  return s;
}

}  // namespace gputlm::study
