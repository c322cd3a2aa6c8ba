// Every parameter of a config struct is listed (gputlm params) with a type, a default
// and a description: the check each block testbench makes on its own config.
#pragma once

#include <catch2/catch.hpp>

#include "core/config/params.h"

namespace gputlm::tb {

template <class Config>
void require_documented_parameters(const Config& cfg) {
  const auto params = config::list(cfg);
  REQUIRE(!params.empty());
  for (const auto& p : params) {
    INFO(p.path);
    REQUIRE(!p.type.empty());
    REQUIRE(!p.default_value.empty());
    REQUIRE(p.description.size() > 10);
  }
}

}  // namespace gputlm::tb
