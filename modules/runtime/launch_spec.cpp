#include "runtime/launch_spec.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

namespace gputlm::runtime {

namespace fs = std::filesystem;
using nlohmann::json;

// Stream ids of a spec: any small non-negative integer names a stream (CUDA streams are
// handles; a spec only needs to tell them apart).
constexpr uint64_t kMaxStream = 1023;

SpecError::SpecError(const std::string& file, const std::string& key_path, const std::string& message)
    : std::runtime_error(file + ": " + (key_path.empty() ? std::string("(top level)") : key_path) +
                         ": " + message),
      file_(file),
      key_path_(key_path) {}

const BufferSpec* LaunchSpec::find_buffer(const std::string& name) const {
  for (const auto& b : buffers)
    if (b.name == name) return &b;
  return nullptr;
}

namespace {

const char* json_kind(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::binary: return "binary";
    case json::value_t::discarded: return "discarded";
    default: return "a number";
  }
}

// Walks one spec, carrying the file name for errors.
class Parser {
 public:
  Parser(std::string path, std::string dir) : path_(std::move(path)), dir_(std::move(dir)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& msg) const {
    throw SpecError(path_, key, msg);
  }

  static std::string join(const std::string& base, const std::string& key) {
    return base.empty() ? key : base + "." + key;
  }
  static std::string index(const std::string& base, std::size_t i) {
    return base + "[" + std::to_string(i) + "]";
  }

  void check_keys(const json& obj, const std::string& key, std::initializer_list<const char*> allowed) const {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      const std::string& k = it.key();
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; })) {
        std::string list;
        for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
        fail(join(key, k), "unknown key (allowed here: " + list + ")");
      }
    }
  }

  const json& object(const json& j, const std::string& key) const {
    if (!j.is_object()) fail(key, std::string("expected an object, got ") + json_kind(j));
    return j;
  }

  std::string string(const json& j, const std::string& key) const {
    if (!j.is_string()) fail(key, std::string("expected a string, got ") + json_kind(j));
    return j.get<std::string>();
  }

  Number number(const json& j, const std::string& key) const {
    if (j.is_number_unsigned()) return Number::of_unsigned(j.get<uint64_t>());
    if (j.is_number_integer()) return Number::of_signed(j.get<int64_t>());
    if (j.is_number_float()) return Number::of_real(j.get<double>());
    fail(key, std::string("expected a number, got ") + json_kind(j));
  }

  uint64_t unsigned_int(const json& j, const std::string& key, uint64_t lo, uint64_t hi) const {
    Number n = number(j, key);
    uint64_t v = 0;
    if (n.kind == Number::Kind::Unsigned) v = n.u;
    else if (n.kind == Number::Kind::Signed && n.i >= 0) v = static_cast<uint64_t>(n.i);
    // An integral real (1e6) counts as an integer, as it does for kernel arguments.
    else if (n.kind == Number::Kind::Real && n.d >= 0 && n.d < 18446744073709551616.0 && std::trunc(n.d) == n.d)
      v = static_cast<uint64_t>(n.d);
    else fail(key, "expected a non-negative integer, got " + n.str());
    if (v < lo || v > hi)
      fail(key, std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
  }

  std::string resolve(const std::string& rel) const {
    fs::path p(rel);
    return (p.is_absolute() ? p : fs::path(dir_) / p).lexically_normal().string();
  }

  std::string existing_file(const json& j, const std::string& key) const {
    std::string rel = string(j, key);
    std::string p = resolve(rel);
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) fail(key, "file '" + rel + "' not found (looked for " + p + ")");
    return p;
  }

  std::array<uint32_t, 3> dims(const json& j, const std::string& key, bool is_grid) const {
    if (!j.is_array() || j.empty() || j.size() > 3)
      fail(key, "expected an array of 1 to 3 positive integers");
    std::array<uint32_t, 3> d{1, 1, 1};
    const uint64_t grid_max[3] = {2147483647u, 65535u, 65535u};
    const uint64_t block_max[3] = {1024u, 1024u, 64u};
    for (std::size_t i = 0; i < j.size(); ++i)
      d[i] = static_cast<uint32_t>(
          unsigned_int(j[i], index(key, i), 1, is_grid ? grid_max[i] : block_max[i]));
    if (!is_grid && uint64_t{d[0]} * d[1] * d[2] > 1024)
      fail(key, "a block has at most 1024 threads, this one has " +
                    std::to_string(uint64_t{d[0]} * d[1] * d[2]));
    return d;
  }

  InitSpec init(const json& j, const std::string& key) const {
    object(j, key);
    if (j.size() != 1) fail(key, "expected exactly one of file, fill, iota, random");
    InitSpec in;
    auto [k, v] = *j.items().begin();
    std::string sub = join(key, k);
    if (k == "file") {
      in.kind = InitSpec::Kind::File;
      in.file = existing_file(v, sub);
    } else if (k == "fill") {
      in.kind = InitSpec::Kind::Fill;
      in.value = number(v, sub);
    } else if (k == "iota") {
      in.kind = InitSpec::Kind::Iota;
      object(v, sub);
      check_keys(v, sub, {"start", "step"});
      if (v.contains("start")) in.start = number(v["start"], join(sub, "start"));
      if (v.contains("step")) in.step = number(v["step"], join(sub, "step"));
    } else if (k == "random") {
      in.kind = InitSpec::Kind::Random;
      object(v, sub);
      check_keys(v, sub, {"seed", "min", "max"});
      for (const char* req : {"seed", "min", "max"})
        if (!v.contains(req)) fail(join(sub, req), "missing");
      in.seed = unsigned_int(v["seed"], join(sub, "seed"), 0, ~uint64_t{0});
      in.min = number(v["min"], join(sub, "min"));
      in.max = number(v["max"], join(sub, "max"));
      if (in.min.as_double() > in.max.as_double()) fail(sub, "min is greater than max");
    } else {
      fail(sub, "unknown init kind (expected file, fill, iota or random)");
    }
    return in;
  }

  BufferSpec buffer(const std::string& name, const json& j, const std::string& key) const {
    object(j, key);
    check_keys(j, key, {"type", "count", "init"});
    BufferSpec b;
    b.name = name;
    b.key_path = key;
    if (!j.contains("type")) fail(join(key, "type"), "missing");
    std::string tname = string(j["type"], join(key, "type"));
    auto t = parse_elem_type(tname);
    if (!t) fail(join(key, "type"), "unknown type '" + tname + "' (expected u8, u16, u32, u64, s8, s16, s32, s64, f32, f64)");
    b.type = *t;
    if (!j.contains("init")) fail(join(key, "init"), "missing (give file, fill, iota or random)");
    b.init = init(j["init"], join(key, "init"));
    std::size_t esize = elem_bytes(b.type);
    if (j.contains("count")) {
      b.count = unsigned_int(j["count"], join(key, "count"), 1, (uint64_t{1} << 40) / esize);
      b.count_given = true;
    }
    if (b.init.kind == InitSpec::Kind::File) {
      uint64_t size = fs::file_size(b.init.file);
      std::string fkey = join(key, "init.file");
      if (b.count_given && size != b.count * esize)
        fail(fkey, "file '" + b.init.file + "' has " + std::to_string(size) + " bytes, but count " +
                       std::to_string(b.count) + " x " + elem_name(b.type) + " needs " +
                       std::to_string(b.count * esize));
      if (!b.count_given) {
        if (size == 0 || size % esize != 0)
          fail(fkey, "file '" + b.init.file + "' has " + std::to_string(size) +
                         " bytes, not a positive multiple of " + std::to_string(esize) + " (" +
                         elem_name(b.type) + ")");
        b.count = size / esize;
      }
    } else if (!b.count_given) {
      fail(join(key, "count"), "missing (only a file init may leave it out)");
    }
    return b;
  }

  std::vector<ArgSpec> args(const json& j, const std::string& key, const LaunchSpec& spec) const {
    if (!j.is_array()) fail(key, std::string("expected an array, got ") + json_kind(j));
    std::vector<ArgSpec> out;
    for (std::size_t i = 0; i < j.size(); ++i) {
      ArgSpec a;
      a.key_path = index(key, i);
      if (j[i].is_string()) {
        a.is_buffer = true;
        a.buffer = j[i].get<std::string>();
        if (!spec.find_buffer(a.buffer)) fail(a.key_path, "no buffer named '" + a.buffer + "'");
      } else if (j[i].is_number()) {
        a.number = number(j[i], a.key_path);
      } else {
        fail(a.key_path, std::string("expected a number or a buffer name, got ") + json_kind(j[i]));
      }
      out.push_back(std::move(a));
    }
    return out;
  }

  // Fills the keys of `e` present in `j` (a launch object or the top level).
  void launch_fields(const json& j, const std::string& base, const LaunchSpec& spec, LaunchEntry& e,
                     uint8_t& present) const {
    if (j.contains("kernel")) { e.kernel = string(j["kernel"], join(base, "kernel")); present |= 1; }
    if (j.contains("grid")) { e.grid = dims(j["grid"], join(base, "grid"), true); present |= 2; }
    if (j.contains("block")) { e.block = dims(j["block"], join(base, "block"), false); present |= 4; }
    if (j.contains("shared_bytes"))
      e.shared_bytes = static_cast<uint32_t>(unsigned_int(j["shared_bytes"], join(base, "shared_bytes"), 0, 1u << 20));
    if (j.contains("args")) e.args = args(j["args"], join(base, "args"), spec);
    if (j.contains("registers"))
      e.registers = static_cast<uint32_t>(unsigned_int(j["registers"], join(base, "registers"), 1, 255));
    if (j.contains("shared_static_bytes"))
      e.shared_static_bytes =
          static_cast<uint32_t>(unsigned_int(j["shared_static_bytes"], join(base, "shared_static_bytes"), 0, 1u << 20));
    if (j.contains("stream"))
      e.stream = static_cast<uint32_t>(unsigned_int(j["stream"], join(base, "stream"), 0, kMaxStream));
  }

  void require_launch(uint8_t present, const std::string& base) const {
    const char* names[3] = {"kernel", "grid", "block"};
    for (int b = 0; b < 3; ++b)
      if (!(present & (1 << b)))
        fail(join(base, names[b]), base.empty() ? "missing" : "missing (and no top-level default)");
  }

  LaunchSpec parse(const json& root) const {
    LaunchSpec spec;
    spec.path = path_;
    spec.dir = dir_;
    object(root, "");
    check_keys(root, "", {"description", "ptx", "kernel", "grid", "block", "shared_bytes", "buffers",
                          "symbols", "args", "outputs", "launches", "registers", "shared_static_bytes",
                          "stream"});
    if (root.contains("description")) string(root["description"], "description");
    if (!root.contains("ptx")) fail("ptx", "missing");
    spec.ptx = existing_file(root["ptx"], "ptx");
    for (const char* section : {"buffers", "symbols"}) {
      if (!root.contains(section)) continue;
      const json& obj = object(root[section], section);
      auto& list = std::string(section) == "buffers" ? spec.buffers : spec.symbols;
      for (const auto& [name, b] : obj.items()) {
        std::string key = join(section, name);
        if (name.empty()) fail(key, "empty name");
        list.push_back(buffer(name, b, key));
      }
    }
    LaunchEntry defaults;
    uint8_t top_present = 0;
    launch_fields(root, "", spec, defaults, top_present);
    if (root.contains("launches")) {
      const json& l = root["launches"];
      if (!l.is_array() || l.empty()) fail("launches", "expected a non-empty array of launch objects");
      for (std::size_t i = 0; i < l.size(); ++i) {
        std::string key = index("launches", i);
        object(l[i], key);
        check_keys(l[i], key,
                   {"kernel", "grid", "block", "shared_bytes", "args", "registers", "shared_static_bytes", "stream"});
        LaunchEntry e = defaults;
        uint8_t present = top_present;
        e.key_path = key;
        launch_fields(l[i], key, spec, e, present);
        require_launch(present, key);
        spec.launches.push_back(std::move(e));
      }
    } else {
      require_launch(top_present, "");
      spec.launches.push_back(defaults);
    }
    if (root.contains("outputs")) {
      for (const auto& [name, o] : object(root["outputs"], "outputs").items()) {
        std::string key = join("outputs", name);
        if (!spec.find_buffer(name)) fail(key, "no buffer named '" + name + "'");
        object(o, key);
        check_keys(o, key, {"file", "expect"});
        OutputSpec out;
        out.buffer = name;
        out.key_path = key;
        if (o.contains("file")) out.file = resolve(string(o["file"], join(key, "file")));
        if (o.contains("expect")) {
          std::string ek = join(key, "expect");
          const json& e = object(o["expect"], ek);
          check_keys(e, ek, {"file", "rtol", "atol"});
          if (!e.contains("file")) fail(join(ek, "file"), "missing");
          out.has_expect = true;
          out.expect_file = existing_file(e["file"], join(ek, "file"));
          const BufferSpec& b = *spec.find_buffer(name);
          uint64_t size = fs::file_size(out.expect_file), want = b.count * elem_bytes(b.type);
          if (size != want)
            fail(join(ek, "file"), "file '" + out.expect_file + "' has " + std::to_string(size) +
                                       " bytes, but buffer '" + name + "' has " + std::to_string(want));
          for (const char* t : {"rtol", "atol"}) {
            if (!e.contains(t)) continue;
            double v = number(e[t], join(ek, t)).as_double();
            if (!(v >= 0)) fail(join(ek, t), "must be a non-negative number");
            (std::string(t) == "rtol" ? out.rtol : out.atol) = v;
            out.tolerance_given = true;
          }
        }
        if (out.file.empty() && !out.has_expect) fail(key, "give file, expect or both");
        spec.outputs.push_back(std::move(out));
      }
    }
    return spec;
  }

 private:
  std::string path_, dir_;
};

}  // namespace

LaunchSpec parse_launch_spec_text(const std::string& text, const std::string& path) {
  std::string dir = fs::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann reports a byte offset; turn it into line:column.
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') { ++line; col = 1; } else { ++col; }
    }
    throw SpecError(path + ":" + std::to_string(line) + ":" + std::to_string(col), "",
                    std::string("invalid JSON: ") + e.what());
  } catch (const json::exception& e) {  // found by fuzzing: a number out of range (1e999)
    throw SpecError(path, "", std::string("invalid JSON: ") + e.what());
  }
  return Parser(path, dir).parse(root);
}

std::string read_spec_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw SpecError(path, "", "cannot open the spec file");
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

LaunchSpec parse_launch_spec(const std::string& path) { return parse_launch_spec_text(read_spec_text(path), path); }

}  // namespace gputlm::runtime
