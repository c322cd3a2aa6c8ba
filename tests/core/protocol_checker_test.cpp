// The protocol checker must catch deliberately wrong initiators and targets.
#include <catch2/catch.hpp>
#include <functional>
#include <systemc>
#include <tlm>

#include "core/tlm/payload_pool.h"
#include "core/tlm/protocol_checker.h"

using namespace gputlm;
using Catch::Contains;

namespace {

using Script = std::function<void(struct Harness&)>;

// A target whose forward-path behaviour each test scripts.
struct ScriptedTarget : sc_core::sc_module, tlm::tlm_fw_transport_if<> {
  tlm::tlm_target_socket<> in{"in"};
  std::function<tlm::tlm_sync_enum(tlm::tlm_generic_payload&, tlm::tlm_phase&)> on_fw =
      [](tlm::tlm_generic_payload&, tlm::tlm_phase&) { return tlm::TLM_ACCEPTED; };
  std::function<void(tlm::tlm_generic_payload&)> on_b = [](tlm::tlm_generic_payload& gp) {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  };
  explicit ScriptedTarget(sc_core::sc_module_name n) : sc_module(n) { in.bind(*this); }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) override {
    return on_fw(gp, ph);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) override { on_b(gp); }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
  tlm::tlm_sync_enum send_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase ph) {
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    return in->nb_transport_bw(gp, ph, t);
  }
};

struct Harness : sc_core::sc_module, tlm::tlm_bw_transport_if<> {
  tlm::tlm_initiator_socket<> out{"out"};
  ProtocolChecker checker;
  ScriptedTarget target;
  PayloadPool pool{64};
  Script script;
  SC_HAS_PROCESS(Harness);
  Harness(sc_core::sc_module_name n, Script s, bool throwing = false)
      : sc_module(n), checker("checker", throwing), target("target"), script(std::move(s)) {
    out.bind(*this);
    out.bind(checker.in);
    checker.out.bind(target.in);
    SC_THREAD(run);
  }
  void run() { script(*this); }
  tlm::tlm_generic_payload* payload() {
    auto* gp = pool.allocate();
    gp->acquire();
    return gp;
  }
  tlm::tlm_sync_enum send(tlm::tlm_generic_payload& gp, tlm::tlm_phase ph) {
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    return out->nb_transport_fw(gp, ph, t);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) override {
    return tlm::TLM_ACCEPTED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

std::vector<std::string> run_script(Script s) {
  Harness h("h", std::move(s));
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  h.checker.check_quiescent();
  return h.checker.violations();
}

bool any_contains(const std::vector<std::string>& v, const std::string& what) {
  for (const auto& s : v)
    if (s.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("protocol_checker passes a correct AT exchange", "[protocol]") {
  auto v = run_script([](Harness& h) {
    for (int i = 0; i < 3; ++i) {
      auto* gp = h.payload();
      REQUIRE(h.send(*gp, tlm::BEGIN_REQ) == tlm::TLM_ACCEPTED);
      sc_core::wait(1, sc_core::SC_NS);
      h.target.send_bw(*gp, tlm::END_REQ);
      gp->set_response_status(tlm::TLM_OK_RESPONSE);
      h.target.send_bw(*gp, tlm::BEGIN_RESP);
      sc_core::wait(1, sc_core::SC_NS);
      h.send(*gp, tlm::END_RESP);
      gp->release();
    }
    // A reservation fail the gputlm way: completed at once with the status in the extension.
    h.target.on_fw = [](tlm::tlm_generic_payload& gp, tlm::tlm_phase&) {
      gp.set_response_status(tlm::TLM_OK_RESPONSE);
      mem_ext(gp).status = MemStatus::ReservationFail;
      return tlm::TLM_COMPLETED;
    };
    auto* gp = h.payload();
    REQUIRE(h.send(*gp, tlm::BEGIN_REQ) == tlm::TLM_COMPLETED);
    gp->release();
  });
  CHECK(v.empty());
}

TEST_CASE("protocol_checker catches BEGIN_REQ before END_REQ", "[protocol]") {
  auto v = run_script([](Harness& h) {
    auto* a = h.payload();
    auto* b = h.payload();
    h.send(*a, tlm::BEGIN_REQ);
    h.send(*b, tlm::BEGIN_REQ);  // the target never sent END_REQ for a
  });
  CHECK(any_contains(v, "BEGIN_REQ before END_REQ of the previous request"));
  CHECK(any_contains(v, "transaction never finished"));
}

TEST_CASE("protocol_checker catches an initiator that sets the response status", "[protocol]") {
  auto v = run_script([](Harness& h) {
    auto* gp = h.payload();
    gp->set_response_status(tlm::TLM_OK_RESPONSE);
    h.target.on_fw = [](tlm::tlm_generic_payload&, tlm::tlm_phase&) { return tlm::TLM_COMPLETED; };
    h.send(*gp, tlm::BEGIN_REQ);
  });
  CHECK(any_contains(v, "response status must be TLM_INCOMPLETE_RESPONSE when a request is sent"));
}

TEST_CASE("protocol_checker catches END_RESP without a response and wrong-path phases", "[protocol]") {
  auto v = run_script([](Harness& h) {
    auto* gp = h.payload();
    h.send(*gp, tlm::END_RESP);
    h.send(*gp, tlm::END_REQ);  // END_REQ travels on the backward path only
  });
  CHECK(any_contains(v, "END_RESP for a transaction with no response in progress"));
  CHECK(any_contains(v, "phase END_REQ sent on the forward path"));
}

TEST_CASE("protocol_checker catches a target responding without a status", "[protocol]") {
  auto v = run_script([](Harness& h) {
    auto* gp = h.payload();
    h.send(*gp, tlm::BEGIN_REQ);
    h.target.send_bw(*gp, tlm::BEGIN_RESP);  // status still incomplete
  });
  CHECK(any_contains(v, "BEGIN_RESP with response status still TLM_INCOMPLETE_RESPONSE"));
}

TEST_CASE("protocol_checker catches BEGIN_RESP before END_RESP of the previous response", "[protocol]") {
  auto v = run_script([](Harness& h) {
    auto* a = h.payload();
    auto* b = h.payload();
    h.send(*a, tlm::BEGIN_REQ);
    h.target.send_bw(*a, tlm::END_REQ);
    h.send(*b, tlm::BEGIN_REQ);
    h.target.send_bw(*b, tlm::END_REQ);
    a->set_response_status(tlm::TLM_OK_RESPONSE);
    b->set_response_status(tlm::TLM_OK_RESPONSE);
    h.target.send_bw(*a, tlm::BEGIN_RESP);
    h.target.send_bw(*b, tlm::BEGIN_RESP);  // a's response is still in progress
  });
  CHECK(any_contains(v, "BEGIN_RESP before END_RESP of the previous response"));
}

TEST_CASE("protocol_checker catches a target completing without a status", "[protocol]") {
  auto v = run_script([](Harness& h) {
    h.target.on_fw = [](tlm::tlm_generic_payload&, tlm::tlm_phase&) { return tlm::TLM_COMPLETED; };
    auto* gp = h.payload();
    h.send(*gp, tlm::BEGIN_REQ);
  });
  CHECK(any_contains(v, "target completed the transaction without setting a response status"));
}

TEST_CASE("protocol_checker catches END_REQ for a request already accepted", "[protocol]") {
  auto v = run_script([](Harness& h) {
    auto* gp = h.payload();
    h.send(*gp, tlm::BEGIN_REQ);
    h.target.send_bw(*gp, tlm::END_REQ);
    h.target.send_bw(*gp, tlm::END_REQ);
  });
  CHECK(any_contains(v, "END_REQ for a transaction that is not in its request phase"));
}

TEST_CASE("protocol_checker checks b_transport and payloads without a memory manager", "[protocol]") {
  auto v = run_script([](Harness& h) {
    h.target.on_b = [](tlm::tlm_generic_payload&) {};  // forgets the response status
    auto* gp = h.payload();
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    h.out->b_transport(*gp, t);
    tlm::tlm_generic_payload plain;  // no memory manager, no data
    h.target.on_fw = [](tlm::tlm_generic_payload& p, tlm::tlm_phase&) {
      p.set_response_status(tlm::TLM_OK_RESPONSE);
      return tlm::TLM_COMPLETED;
    };
    h.send(plain, tlm::BEGIN_REQ);
  });
  CHECK(any_contains(v, "b_transport returned with response status TLM_INCOMPLETE_RESPONSE"));
  CHECK(any_contains(v, "nb_transport with a payload that has no memory manager"));
  CHECK(any_contains(v, "data pointer is null"));
}

TEST_CASE("protocol_checker reports through SystemC and stops the simulation", "[protocol]") {
  Harness h("h", [](Harness& hh) {
    auto* gp = hh.payload();
    hh.send(*gp, tlm::END_RESP);
  }, /*throwing=*/true);
  CHECK_THROWS_WITH(sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US)),
                    Contains("END_RESP for a transaction with no response in progress"));
}
