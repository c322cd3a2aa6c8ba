// Counts global operator new calls, so a test can show that a block allocates nothing
// per transaction in steady state. Linked only into testbench executables.
#pragma once

#include <cstddef>

namespace gputlm::tb {
std::size_t allocations();
}
