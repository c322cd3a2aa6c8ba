// Shared pieces of the fuzz targets (docs/testing.md, "Fuzzing"): a scratch folder per
// process holding copies of the committed configs (so `extends` and study `config` paths
// resolve as they do in the source tree), and the split of one input into the parts a
// target writes to files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace gputlm::fuzz {

// The process's scratch folder (created on first use, removed at exit) with `configs/`
// copied from the source tree and an empty `experiments/` (where study files live).
const std::string& scratch();
// Writes `bytes` to scratch()/name (name may have folders that exist) and returns the path.
std::string write_scratch(const std::string& name, std::string_view bytes);
// The input up to the first "\n%%\n" and the rest (empty when there is no separator).
std::pair<std::string_view, std::string_view> split_input(const uint8_t* data, std::size_t size);
// The text of a file of the source tree (path relative to its root); empty when unreadable.
std::string read_source(const std::string& relative);
// Reports an exception that is not the loader's error type and aborts (a finding).
[[noreturn]] void unexpected(const char* target, const char* what);

}  // namespace gputlm::fuzz
