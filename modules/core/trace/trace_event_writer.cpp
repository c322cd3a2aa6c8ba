#include "core/trace/trace_event_writer.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gputlm::trace {

namespace {

// Whole numbers exactly, fractions to 1/10000 of a unit (cycles of other clock domains).
void put_number(std::FILE* f, double v) {
  if (!std::isfinite(v)) v = 0;  // JSON has no NaN or infinity
  if (v == std::floor(v) && std::fabs(v) < 9e15) std::fprintf(f, "%lld", static_cast<long long>(v));
  else std::fprintf(f, "%.4f", v);
}

}  // namespace

TraceEventWriter::TraceEventWriter(const std::string& path, Window window, const std::string& display_time_unit)
    : path_(path), window_(window) {
  if (display_time_unit != "ns" && display_time_unit != "ms")
    throw std::invalid_argument("timeline: displayTimeUnit must be \"ns\" or \"ms\"");
  f_ = std::fopen(path.c_str(), "w");
  if (f_ == nullptr)
    throw std::runtime_error("timeline '" + path + "': cannot create it (" + std::strerror(errno) + ")");
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
  // Exactly this spelling, no spaces: Perfetto looks for the literal text.
  std::fprintf(f_, "{\"displayTimeUnit\":\"%s\",\"traceEvents\":[", display_time_unit.c_str());
}

TraceEventWriter::~TraceEventWriter() {
  // Not closed (an exception on the way): still end the JSON, so the file loads.
  if (f_) {
    std::fputs("\n]}\n", f_);
    std::fclose(f_);
  }
}

std::string TraceEventWriter::escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", static_cast<unsigned>(c));
      o += b;
    } else {
      o += c;
    }
  }
  return o;
}

bool TraceEventWriter::clip(double& b, double& e) const {
  if (e < window_.begin || b > window_.end) return false;
  b = std::max(b, window_.begin);
  e = std::min(e, window_.end);
  return true;
}

void TraceEventWriter::begin_event() {
  std::fputs(events_++ ? ",\n" : "\n", f_);
}

void TraceEventWriter::process_name(uint32_t pid, const std::string& name, int sort_index) {
  begin_event();
  std::fprintf(f_, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":0,\"args\":{\"name\":\"%s\"}}", pid,
               escape(name).c_str());
  begin_event();
  std::fprintf(f_, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,\"tid\":0,\"args\":{\"sort_index\":%d}}",
               pid, sort_index);
}

void TraceEventWriter::thread_name(uint32_t pid, uint32_t tid, const std::string& name, int sort_index) {
  begin_event();
  std::fprintf(f_, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"%s\"}}", pid,
               tid, escape(name).c_str());
  begin_event();
  std::fprintf(f_,
               "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%u,\"tid\":%u,\"args\":{\"sort_index\":%d}}",
               pid, tid, sort_index);
}

void TraceEventWriter::complete(uint32_t pid, uint32_t tid, const char* name, double ts, double dur,
                                const char* args) {
  double b = ts, e = ts + dur;
  if (!clip(b, e)) return;
  begin_event();
  std::fprintf(f_, "{\"ph\":\"X\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":", name, pid, tid);
  put_number(f_, b);
  std::fputs(",\"dur\":", f_);
  put_number(f_, e - b);
  if (args) std::fprintf(f_, ",\"args\":%s", args);
  std::fputc('}', f_);
}

void TraceEventWriter::async_slice(uint32_t pid, const char* cat, const char* name, uint64_t id, double begin,
                                   double end, const char* args) {
  double b = begin, e = end;
  if (!clip(b, e)) return;
  for (int i = 0; i < 2; ++i) {
    begin_event();
    std::fprintf(f_, "{\"ph\":\"%c\",\"cat\":\"%s\",\"name\":\"%s\",\"id\":\"0x%llx\",\"pid\":%u,\"tid\":0,\"ts\":",
                 i == 0 ? 'b' : 'e', cat, name, static_cast<unsigned long long>(id), pid);
    put_number(f_, i == 0 ? b : e);
    if (i == 0 && args) std::fprintf(f_, ",\"args\":%s", args);
    std::fputc('}', f_);
  }
}

void TraceEventWriter::counter(uint32_t pid, const char* name, double ts, const char* const* keys,
                               const double* values, std::size_t n) {
  if (!window_.contains(ts)) return;
  begin_event();
  std::fprintf(f_, "{\"ph\":\"C\",\"name\":\"%s\",\"pid\":%u,\"tid\":0,\"ts\":", name, pid);
  put_number(f_, ts);
  std::fputs(",\"args\":{", f_);
  for (std::size_t i = 0; i < n; ++i) {
    std::fprintf(f_, "%s\"%s\":", i ? "," : "", keys[i]);
    put_number(f_, values[i]);
  }
  std::fputs("}}", f_);
}

void TraceEventWriter::close(const nlohmann::json& other_data) {
  if (f_ == nullptr) return;
  std::fprintf(f_, "\n],\n\"otherData\":%s\n}\n", other_data.dump().c_str());
  const bool bad = std::ferror(f_) != 0;
  const bool closed = std::fclose(f_) == 0;
  f_ = nullptr;
  if (bad || !closed) throw std::runtime_error("timeline '" + path_ + "': write failed");
}

}  // namespace gputlm::trace
