// Lists of groups in configs (config::Reader/Lister/Writer::group_list): each element read
// on top of a prototype, errors naming "name[i].key", listing and writing, and -p overrides
// of one element by index or by its kind.
#include <catch2/catch.hpp>

#include "core/config/config_source.h"
#include "core/config/params.h"

using namespace gputlm::config;
using Catch::Contains;

namespace {
struct Core {
  uint32_t lanes = 32;
  std::string order = "lrr";
  template <class V>
  void visit(V& v) {
    v.param("lanes", lanes, "lanes", power_of_two());
    v.param("order", order, "issue order", one_of({"lrr", "gto"}));
  }
};
struct Cluster {
  std::string kind;
  uint32_t count = 0;
  Core core;
  template <class V>
  void visit(V& v) {
    v.param("kind", kind, "kind", any());
    v.param("count", count, "cores", in_range(1, 64));
    v.group("core", core, "this kind's core, on top of the top-level core");
  }
};
struct Chip {
  Core core;
  std::vector<Cluster> clusters;
  template <class V>
  void visit(V& v) {
    v.group("core", core, "every core");
    v.group_list("clusters", clusters, "clusters of cores", Cluster{"", 0, core});
  }
};

Chip read_chip(ConfigSource src, const std::vector<std::string>& overrides = {}) {
  for (const auto& o : overrides) src.apply_override(o);
  Chip c;
  read(src, c);
  return c;
}

const nlohmann::json kTwoKinds = {
    {"core", {{"lanes", 16}}},
    {"clusters",
     {{{"kind", "big"}, {"count", 2}, {"core", {{"order", "gto"}}}},
      {{"kind", "small"}, {"count", 3}, {"core", {{"lanes", 8}}}}}}};

std::string error_of(const nlohmann::json& j, const std::vector<std::string>& overrides = {}) {
  try {
    read_chip(ConfigSource::from_json(j, "chip.json"), overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("config group_list reads each element on top of the prototype", "[config]") {
  const Chip c = read_chip(ConfigSource::from_json(kTwoKinds, "chip.json"));
  REQUIRE(c.clusters.size() == 2);
  CHECK(c.clusters[0].kind == "big");
  CHECK(c.clusters[0].count == 2);
  CHECK(c.clusters[0].core.lanes == 16);  // the top-level core's value
  CHECK(c.clusters[0].core.order == "gto");  // its own
  CHECK(c.clusters[1].core.lanes == 8);   // its own wins over the top level
  CHECK(c.clusters[1].core.order == "lrr");  // default: neither sets it
  // A top-level override reaches every element that does not set the key itself.
  const Chip o = read_chip(ConfigSource::from_json(kTwoKinds, "chip.json"), {"core.order=gto", "core.lanes=4"});
  CHECK(o.clusters[0].core.lanes == 4);
  CHECK(o.clusters[1].core.lanes == 8);
  CHECK(o.clusters[1].core.order == "gto");
  // No list: empty.
  CHECK(read_chip(ConfigSource::from_json({{"core", {{"lanes", 8}}}}, "c.json")).clusters.empty());
}

TEST_CASE("config group_list errors name the element's key and the file", "[config]") {
  nlohmann::json j = kTwoKinds;
  j["clusters"][1]["core"]["lane"] = 4;
  CHECK_THAT(error_of(j), Contains("chip.json: key 'clusters[1].core.lane': unknown key (did you mean 'lanes'?)"));
  j = kTwoKinds;
  j["clusters"][0]["count"] = 0;
  CHECK_THAT(error_of(j), Contains("key 'clusters[0].count': value 0 out of range"));
  j = kTwoKinds;
  j["clusters"][1]["core"]["lanes"] = 6;
  CHECK_THAT(error_of(j), Contains("key 'clusters[1].core.lanes': value 6 is not a power of two"));
  j = kTwoKinds;
  j["clusters"] = {{"kind", "big"}};
  CHECK_THAT(error_of(j), Contains("key 'clusters': expected a list of groups"));
  j = kTwoKinds;
  j["clusters"][0] = 3;
  CHECK_THAT(error_of(j), Contains("key 'clusters[0]': expected a group"));
}

TEST_CASE("config override of a group_list element by index or by kind", "[config]") {
  const auto src = ConfigSource::from_json(kTwoKinds, "chip.json");
  CHECK(read_chip(src, {"clusters.small.core.lanes=4"}).clusters[1].core.lanes == 4);
  CHECK(read_chip(src, {"clusters[1].core.lanes=2"}).clusters[1].core.lanes == 2);
  CHECK(read_chip(src, {"clusters.0.count=5"}).clusters[0].count == 5);
  CHECK(read_chip(src, {"clusters[0]={\"kind\":\"x\",\"count\":1}"}).clusters[0].kind == "x");
  // A whole list from the command line.
  CHECK(read_chip(src, {"clusters=[{\"kind\":\"only\",\"count\":7}]"}).clusters.at(0).count == 7);
  // Errors name the -p option; a reader error names the element by index.
  CHECK_THAT(error_of(kTwoKinds, {"clusters.medium.count=1"}),
             Contains("-p clusters.medium.count=1): key 'clusters' has no element 'medium' (elements: big, small)"));
  CHECK_THAT(error_of(kTwoKinds, {"clusters[2].count=1"}), Contains("key 'clusters' has 2 elements, no element 2"));
  CHECK_THAT(error_of(kTwoKinds, {"clusters[x].count=1"}), Contains("malformed index"));
  CHECK_THAT(error_of(kTwoKinds, {"core[0].lanes=1"}), Contains("key 'core' is not a list"));
  CHECK_THAT(error_of(kTwoKinds, {"clusters.small.core.lane=4"}),
             Contains("command line (-p clusters.small.core.lane=4): key 'clusters[1].core.lane': unknown key"));
}

TEST_CASE("config group_list is listed per element and written back", "[config]") {
  Chip c = read_chip(ConfigSource::from_json(kTwoKinds, "chip.json"));
  const std::vector<ParamInfo> rows = list(c);
  auto row = [&](const std::string& path) -> const ParamInfo* {
    for (const ParamInfo& r : rows)
      if (r.path == path) return &r;
    return nullptr;
  };
  REQUIRE(row("clusters[1].core.lanes") != nullptr);
  CHECK(row("clusters[1].core.lanes")->default_value == "8");
  CHECK(row("clusters[0].kind")->default_value == "\"big\"");
  // Without elements: the list and what an element may set, its groups as one row each.
  const std::vector<ParamInfo> empty = list(Chip{});
  bool list_row = false, kind_row = false, core_row = false, deep = false;
  for (const ParamInfo& r : empty) {
    list_row = list_row || (r.path == "clusters" && r.type == "list of groups");
    kind_row = kind_row || r.path == "clusters[i].kind";
    core_row = core_row || (r.path == "clusters[i].core" && r.type == "group");
    deep = deep || r.path == "clusters[i].core.lanes";
  }
  CHECK(list_row);
  CHECK(kind_row);
  CHECK(core_row);
  CHECK_FALSE(deep);
  // Written: every element in full; read back, the same values.
  const nlohmann::json w = to_json(c);
  REQUIRE(w["clusters"].is_array());
  CHECK(w["clusters"][1]["core"]["lanes"] == 8);
  CHECK(w["clusters"][0]["core"]["lanes"] == 16);
  const Chip back = read_chip(ConfigSource::from_json(w, "written.json"));
  CHECK(to_json(back) == w);
  CHECK(to_json(Chip{})["clusters"] == nlohmann::json::array());
}
