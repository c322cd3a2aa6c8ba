#include <catch2/catch.hpp>

#include "core/config/config_source.h"
#include "core/config/params.h"

using namespace gputlm::config;
using Catch::Contains;

namespace {
struct Inner {
  uint32_t ways = 4;
  std::string policy = "lru";
  template <class V>
  void visit(V& v) {
    v.param("ways", ways, "associativity", at_least(1));
    v.param("policy", policy, "replacement policy", one_of({"lru", "fifo"}));
  }
};
struct Outer {
  uint32_t sets = 64;
  double mhz = 700.0;
  bool enabled = false;
  int32_t offset = -3;
  std::vector<uint32_t> latencies{50, 100};
  Inner inner;
  template <class V>
  void visit(V& v) {
    v.param("sets", sets, "number of sets", power_of_two());
    v.param("mhz", mhz, "clock", in_range(1, 5000));
    v.param("enabled", enabled, "switch");
    v.param("offset", offset, "signed value");
    v.param("latencies", latencies, "a list", at_least(1));
    v.group("inner", inner, "nested group");
  }
};

std::string read_error(const nlohmann::json& j) {
  ConfigSource src = ConfigSource::from_json(j, "test.json");
  Outer o;
  try {
    read(src, o);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("config reads typed values and keeps defaults", "[config]") {
  ConfigSource src = ConfigSource::from_json(
      {{"sets", 128}, {"enabled", true}, {"offset", -7}, {"latencies", {1, 2, 3}}, {"inner", {{"policy", "fifo"}}}});
  Outer o;
  read(src, o);
  CHECK(o.sets == 128);
  CHECK(o.mhz == 700.0);
  CHECK(o.enabled);
  CHECK(o.offset == -7);
  CHECK(o.latencies == std::vector<uint32_t>{1, 2, 3});
  CHECK(o.inner.ways == 4);
  CHECK(o.inner.policy == "fifo");
  CHECK(to_json(o)["inner"]["policy"] == "fifo");
}

TEST_CASE("config errors name the file, the key path and the cause", "[config]") {
  CHECK(read_error({{"inner", {{"wayz", 2}}}}) == "test.json: key 'inner.wayz': unknown key (did you mean 'ways'?)");
  CHECK(read_error({{"bogus", 2}}) == "test.json: key 'bogus': unknown key");
  CHECK(read_error({{"sets", "many"}}) == "test.json: key 'sets': expected an unsigned integer, got \"many\"");
  CHECK(read_error({{"sets", -4}}) == "test.json: key 'sets': value -4 does not fit a unsigned integer");
  CHECK(read_error({{"sets", 48}}) == "test.json: key 'sets': value 48 is not a power of two");
  CHECK(read_error({{"sets", 2.5}}) == "test.json: key 'sets': expected an unsigned integer, got 2.5");
  CHECK(read_error({{"mhz", 9000}}) == "test.json: key 'mhz': value 9000 out of range (in [1, 5000])");
  CHECK(read_error({{"enabled", 1}}) == "test.json: key 'enabled': expected a bool, got 1");
  CHECK(read_error({{"inner", {{"policy", "random"}}}}) ==
        "test.json: key 'inner.policy': value \"random\" is not one of lru, fifo");
  CHECK(read_error({{"inner", 3}}) == "test.json: key 'inner': expected a group (JSON object), got 3");
  CHECK(read_error({{"latencies", {1, 0}}}) == "test.json: key 'latencies[1]': value 0 out of range (>= 1)");
}

TEST_CASE("config files extend a base and -p overrides win", "[config]") {
  ConfigSource src = ConfigSource::from_file("tests/core/data/variant.json");
  CHECK(src.root()["a"]["x"] == 1);
  CHECK(src.root()["a"]["y"] == 20);
  CHECK(src.root()["b"] == true);
  CHECK(src.origin_of("a.x") == "tests/core/data/base.json");
  CHECK(src.origin_of("a.y") == "tests/core/data/variant.json");
  src.apply_override("a.x=5");
  src.apply_override("c.d=hello");
  src.apply_override("b=false");
  CHECK(src.root()["a"]["x"] == 5);
  CHECK(src.root()["c"]["d"] == "hello");
  CHECK(src.root()["b"] == false);
  CHECK(src.origin_of("a.x") == "command line (-p a.x=5)");
  CHECK_THROWS_WITH(src.apply_override("novalue"), Contains("expected KEY=VALUE"));
  CHECK_THROWS_WITH(src.apply_override("a.x.z=1"), Contains("key 'a.x' is a value, not a group"));
}

TEST_CASE("config override of an unknown key is an error naming the option", "[config]") {
  ConfigSource src = ConfigSource::from_json(nlohmann::json::object(), "base.json");
  src.apply_override("inner.ways=8");
  src.apply_override("inner.colour=red");
  Outer o;
  CHECK_THROWS_WITH(read(src, o), "command line (-p inner.colour=red): key 'inner.colour': unknown key");
}

TEST_CASE("config missing and malformed files are errors naming the file", "[config]") {
  CHECK_THROWS_WITH(ConfigSource::from_file("tests/core/data/none.json"),
                    "tests/core/data/none.json: cannot open config file");
  CHECK_THROWS_WITH(ConfigSource::from_file("tests/core/CMakeLists.txt"),
                    Contains("tests/core/CMakeLists.txt: malformed JSON"));
}

TEST_CASE("config listing shows every parameter with default and description", "[config]") {
  auto rows = list(Outer{});
  REQUIRE(rows.size() == 7);
  CHECK(rows[0].path == "sets");
  CHECK(rows[0].type == "unsigned integer");
  CHECK(rows[0].default_value == "64");
  CHECK(rows[0].description == "number of sets");
  CHECK(rows[0].constraint == "power of two, >= 1");
  CHECK(rows[4].type == "list of unsigned integer");
  CHECK(rows[4].default_value == "[50,100]");
  CHECK(rows[6].path == "inner.policy");
  CHECK(rows[6].default_value == "\"lru\"");
  CHECK(rows[6].constraint == "one of lru, fifo");
  const std::string table = format_listing(rows);
  CHECK_THAT(table, Contains("inner.ways"));
  CHECK_THAT(table, Contains("associativity [>= 1]"));
}
