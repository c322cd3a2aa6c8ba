// ptx_parser resources: the ptxas -v JSON written by tools/regen-ptx.sh and its loader.
#include <catch2/catch.hpp>

#include "isa/ptx_parser.h"
#include "isa/resources.h"

using namespace gputlm::isa;

TEST_CASE("ptx_parser resources JSON of committed kernels", "[ptx_parser]") {
  ResourceTable t = load_resources(resources_path_for("tests/isa/frontend/cu/memory.ptx"));
  const KernelResources* r = t.find("_Z6reducePKfPfi");
  REQUIRE(r != nullptr);
  CHECK(r->shared_bytes == 1024);
  CHECK(r->registers > 0);
  CHECK(r->const_bytes == 64);
  CHECK(t.find("_Z7atomicsPiPjPyPfPdPx")->shared_bytes == 16);
  CHECK(t.find("nope") == nullptr);
  // Every kernel of the module has an entry.
  Module m = parse_ptx_file("tests/isa/frontend/cu/memory.ptx");
  for (const Function& f : m.functions)
    if (f.is_entry) CHECK(t.find(f.name) != nullptr);
  ResourceTable c = load_resources("tests/isa/frontend/cu/calls.resources.json");
  CHECK(c.find("_Z10with_calls6ParamsPKfPf")->local_bytes == 32);
  CHECK(resources_path_for("a/b.ptx") == "a/b.resources.json");
}

TEST_CASE("ptx_parser resources loader errors name the file and key", "[ptx_parser]") {
  auto err = [](const std::string& text) {
    try {
      parse_resources(text, "r.json");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(err("{").find("r.json: malformed resources JSON") == 0);
  CHECK(err("{\"kernels\": {}, \"x\": 1}").find("unknown key 'x'") != std::string::npos);
  CHECK(err("{}").find("missing object 'kernels'") != std::string::npos);
  std::string ok = "\"registers\": 10, \"shared_bytes\": 0, \"local_bytes\": 0, \"const_bytes\": 0";
  CHECK(err("{\"kernels\": {\"k\": {" + ok + "}}}") == "no error");
  CHECK(err("{\"kernels\": {\"k\": {\"registers\": 10}}}").find("r.json: kernels.k: missing key 'shared_bytes'") == 0);
  CHECK(err("{\"kernels\": {\"k\": {" + ok + ", \"regs\": 1}}}").find("kernels.k: unknown key 'regs'") != std::string::npos);
  CHECK(err("{\"kernels\": {\"k\": {\"registers\": -1, \"shared_bytes\": 0, \"local_bytes\": 0, \"const_bytes\": 0}}}")
            .find("kernels.k.registers: must be a non-negative integer") != std::string::npos);
  CHECK(err("{\"kernels\": {\"k\": {\"registers\": 0, \"shared_bytes\": 0, \"local_bytes\": 0, \"const_bytes\": 0}}}")
            .find("kernels.k.registers: must be in 1..255") != std::string::npos);
  CHECK(err("{\"kernels\": {\"k\": {\"registers\": \"8\", \"shared_bytes\": 0, \"local_bytes\": 0, \"const_bytes\": 0}}}")
            .find("kernels.k.registers") != std::string::npos);
  CHECK_THROWS_WITH(load_resources("no/such.resources.json"),
                    Catch::Contains("no/such.resources.json: cannot open"));
}
