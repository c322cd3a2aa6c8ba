#include "mem/cache/set_index.h"

#include <functional>
#include <utility>

#include "core/config/config_source.h"

namespace gputlm::mem {

namespace {

uint32_t log2_exact(uint32_t v) {
  uint32_t l = 0;
  while ((1u << l) < v) ++l;
  return l;
}
bool is_pow2(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

class LinearSetIndex : public SetIndexIF {
 public:
  explicit LinearSetIndex(uint32_t sets) : sets_(sets) {}
  const char* name() const override { return "linear"; }
  uint32_t set_of(uint64_t block) const override { return static_cast<uint32_t>(block % sets_); }

 private:
  uint32_t sets_;
};

class XorSetIndex : public SetIndexIF {
 public:
  explicit XorSetIndex(uint32_t sets) : bits_(log2_exact(sets)), mask_(sets - 1) {}
  const char* name() const override { return "xor"; }
  uint32_t set_of(uint64_t block) const override {
    if (bits_ == 0) return 0;
    uint64_t x = 0;
    for (uint64_t b = block; b != 0; b >>= bits_) x ^= b & mask_;
    return static_cast<uint32_t>(x);
  }

 private:
  uint32_t bits_;
  uint64_t mask_;
};

// GPGPU-Sim's FERMI_HASH_SET_FUNCTION: the five block-index bits XORed with address
// bits 13, 14, 15, 17, 19; with 64 sets, address bit 12 is prepended.
class FermiHashSetIndex : public SetIndexIF {
 public:
  FermiHashSetIndex(uint32_t sets, uint32_t line_size) : sets_(sets), line_log2_(log2_exact(line_size)) {}
  const char* name() const override { return "fermi_hash"; }
  uint32_t set_of(uint64_t block) const override {
    const uint64_t addr = block << line_log2_;
    const uint64_t lower = block & 0x1F;
    uint64_t upper = (addr & 0xE000) >> 13;
    upper |= (addr & 0x20000) >> 14;
    upper |= (addr & 0x80000) >> 15;
    uint64_t set = lower ^ upper;
    if (sets_ == 64) set |= (addr & 0x1000) >> 7;
    return static_cast<uint32_t>(set);
  }

 private:
  uint32_t sets_, line_log2_;
};

}  // namespace

const std::vector<std::string>& set_index_functions() {
  static const std::vector<std::string> n = {"linear", "xor", "fermi_hash"};
  return n;
}

std::unique_ptr<SetIndexIF> make_set_index(const std::string& name, uint32_t sets, uint32_t line_size,
                                           const std::string& key) {
  auto fail = [&](const std::string& what) { throw config::ConfigError("key '" + key + "': " + what); };
  if (name == "linear") return std::make_unique<LinearSetIndex>(sets);
  if (name == "xor") {
    if (!is_pow2(sets)) fail("the xor set index needs a power-of-two number of sets, not " + std::to_string(sets));
    return std::make_unique<XorSetIndex>(sets);
  }
  if (name == "fermi_hash") {
    if (sets != 32 && sets != 64) fail("fermi_hash is defined for 32 or 64 sets, not " + std::to_string(sets));
    if (!is_pow2(line_size)) fail("fermi_hash needs a power-of-two line size");
    return std::make_unique<FermiHashSetIndex>(sets, line_size);
  }
  fail("unknown set index function \"" + name + "\"");
  return nullptr;
}

}  // namespace gputlm::mem
