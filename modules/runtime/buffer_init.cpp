#include "runtime/buffer_init.h"

#include <cmath>
#include <cstring>
#include <fstream>

#include "core/random/splitmix64.h"

namespace gputlm::runtime {

std::vector<uint8_t> read_binary_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) throw std::runtime_error("cannot open '" + path + "' for reading");
  std::streamsize size = f.tellg();
  std::vector<uint8_t> data(static_cast<std::size_t>(size));
  f.seekg(0);
  if (!f.read(reinterpret_cast<char*>(data.data()), size))
    throw std::runtime_error("failed reading '" + path + "'");
  return data;
}

void write_binary_file(const std::string& path, const void* data, std::size_t bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error("cannot open '" + path + "' for writing");
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  if (!f) throw std::runtime_error("failed writing '" + path + "'");
}

std::vector<uint8_t> initial_bytes(const LaunchSpec& spec, const BufferSpec& b) {
  const std::size_t esize = elem_bytes(b.type);
  const InitSpec& in = b.init;
  std::vector<uint8_t> data;
  auto put = [&](uint64_t i, const Number& n, const char* what) {
    std::string err = encode_number(n, b.type, data.data() + i * esize);
    if (!err.empty())
      throw spec.error(b.key_path + ".init." + what, "element " + std::to_string(i) + ": " + err);
  };
  switch (in.kind) {
    case InitSpec::Kind::File: {
      data = read_binary_file(in.file);
      if (data.size() != b.count * esize)
        throw spec.error(b.key_path + ".init.file", "file '" + in.file + "' changed size to " +
                                                       std::to_string(data.size()) + " bytes");
      return data;
    }
    case InitSpec::Kind::Fill: {
      data.resize(b.count * esize);
      put(0, in.value, "fill");
      for (uint64_t i = 1; i < b.count; ++i) std::memcpy(data.data() + i * esize, data.data(), esize);
      return data;
    }
    case InitSpec::Kind::Iota: {
      data.resize(b.count * esize);
      bool integral = !elem_is_float(b.type) && in.start.kind != Number::Kind::Real &&
                      in.step.kind != Number::Kind::Real;
      if (!elem_is_float(b.type) && !integral)
        throw spec.error(b.key_path + ".init.iota", "start and step must be integers for " +
                                                       std::string(elem_name(b.type)));
      for (uint64_t i = 0; i < b.count; ++i) {
        Number v;
        if (integral) {
          // Exact 64-bit arithmetic; each element must fit the type (range-checked by put).
          auto as_i = [](const Number& n) { return n.kind == Number::Kind::Unsigned ? static_cast<int64_t>(n.u) : n.i; };
          int64_t s = as_i(in.start), d = as_i(in.step);
          v = Number::of_signed(static_cast<int64_t>(static_cast<uint64_t>(s) + static_cast<uint64_t>(d) * i));
          if (in.start.kind == Number::Kind::Unsigned && d >= 0)
            v = Number::of_unsigned(in.start.u + static_cast<uint64_t>(d) * i);
        } else {
          v = Number::of_real(in.start.as_double() + static_cast<double>(i) * in.step.as_double());
        }
        put(i, v, "iota");
      }
      return data;
    }
    case InitSpec::Kind::Random: {
      data.resize(b.count * esize);
      SplitMix64 rng(in.seed);
      if (elem_is_float(b.type)) {
        double lo = in.min.as_double(), hi = in.max.as_double();
        for (uint64_t i = 0; i < b.count; ++i) put(i, Number::of_real(rng.uniform(lo, hi)), "random");
      } else {
        if (in.min.kind == Number::Kind::Real || in.max.kind == Number::Kind::Real)
          throw spec.error(b.key_path + ".init.random", "min and max must be integers for " +
                                                           std::string(elem_name(b.type)));
        // Range-check min and max once, then draw in [min, max].
        std::vector<uint8_t> probe(esize);
        for (const auto& [n, key] : {std::pair{in.min, "min"}, {in.max, "max"}}) {
          std::string err = encode_number(n, b.type, probe.data());
          if (!err.empty()) throw spec.error(b.key_path + ".init.random." + key, err);
        }
        if (in.max.kind == Number::Kind::Unsigned && in.max.u > static_cast<uint64_t>(INT64_MAX)) {
          // u64 ranges above INT64_MAX: draw raw 64-bit values into [min, max].
          uint64_t lo = in.min.kind == Number::Kind::Unsigned ? in.min.u : static_cast<uint64_t>(in.min.i);
          uint64_t span = in.max.u - lo + 1;
          for (uint64_t i = 0; i < b.count; ++i) {
            uint64_t r = rng.next();
            put(i, Number::of_unsigned(span == 0 ? r : lo + r % span), "random");
          }
        } else {
          auto as_i = [](const Number& n) { return n.kind == Number::Kind::Unsigned ? static_cast<int64_t>(n.u) : n.i; };
          int64_t lo = as_i(in.min), hi = as_i(in.max);
          for (uint64_t i = 0; i < b.count; ++i) put(i, Number::of_signed(rng.uniform_int(lo, hi)), "random");
        }
      }
      return data;
    }
  }
  return data;
}

CompareResult compare_elements(const void* actual, const void* expected, ElemType type, uint64_t count,
                               double rtol, double atol, bool tolerance_given) {
  CompareResult r;
  r.count = count;
  const std::size_t esize = elem_bytes(type);
  const bool exact = !elem_is_float(type) && !tolerance_given;
  const auto* a = static_cast<const uint8_t*>(actual);
  const auto* e = static_cast<const uint8_t*>(expected);
  for (uint64_t i = 0; i < count; ++i) {
    bool ok;
    if (exact) {
      ok = std::memcmp(a + i * esize, e + i * esize, esize) == 0;
    } else {
      double av = element_as_double(actual, type, i), ev = element_as_double(expected, type, i);
      if (std::isnan(av) || std::isnan(ev)) {
        ok = std::isnan(av) && std::isnan(ev);
      } else if (std::isinf(ev) || std::isinf(av)) {
        ok = av == ev;
      } else {
        double err = std::fabs(av - ev);
        ok = err <= atol + rtol * std::fabs(ev);
        if (err > r.max_abs_error) r.max_abs_error = err;
      }
    }
    if (!ok) {
      if (r.mismatches == 0) {
        r.first_bad = i;
        r.expected_value = element_str(expected, type, i);
        r.actual_value = element_str(actual, type, i);
      }
      ++r.mismatches;
    }
  }
  return r;
}

}  // namespace gputlm::runtime
