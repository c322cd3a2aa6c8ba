// Decoded-function listing (listing.h).
#include "isa/listing.h"

#include <cstdio>
#include <sstream>

namespace gputlm::isa {
namespace {

std::string reg_list(const Function& f, const uint32_t* regs, uint32_t n, bool preds) {
  std::string s;
  for (uint32_t i = 0; i < n; ++i) {
    if (!s.empty()) s += ',';
    s += preds ? f.preds[regs[i]].name : f.regs[regs[i]].name;
  }
  return s;
}

}  // namespace

std::string format_listing(const Module& m, const Function& f,
                           const analysis::ElfProgramPoints* elf) {
  std::ostringstream os;
  os << (f.is_entry ? ".entry " : ".func ") << f.name;
  std::string dm = demangle(f.name);
  if (dm != f.name) os << "  // " << dm;
  os << "\n  registers " << f.regs.size() << ", predicates " << f.preds.size() << ", local frame "
     << f.local_bytes << " B, call params " << f.call_param_bytes << " B";
  if (f.is_entry) os << ", static shared " << f.shared_end << " B";
  os << ", pc base 0x" << std::hex << f.pc_base << std::dec << "\n";
  for (const Param& p : f.params)
    os << "  param " << p.name << " ." << type_name(p.type) << " size " << p.size << " align "
       << p.align << " offset " << p.offset << "\n";
  for (const Param& p : f.returns)
    os << "  return " << p.name << " ." << type_name(p.type) << " size " << p.size << " offset "
       << p.offset << "\n";
  if (f.is_declaration) {
    os << "  (declaration only)\n";
    return os.str();
  }
  char buf[96];
  for (uint32_t i = 0; i < f.code.size(); ++i) {
    const Instruction& ins = f.code[i];
    std::snprintf(buf, sizeof buf, "  %06llx %4u %-11s %-9s", static_cast<unsigned long long>(f.pc_of(i)), i,
                  op_class_name(ins.cls), latency_class_name(ins.lat));
    os << buf;
    std::string rd = reg_list(f, ins.src_regs.data(), ins.n_src_regs, false);
    std::string pr = reg_list(f, ins.src_preds.data(), ins.n_src_preds, true);
    std::string wr = reg_list(f, ins.dst_regs.data(), ins.n_dst_regs, false);
    std::string pw = reg_list(f, ins.dst_preds.data(), ins.n_dst_preds, true);
    os << " r[" << rd << (pr.empty() || rd.empty() ? "" : ",") << pr << "] w[" << wr
       << (pw.empty() || wr.empty() ? "" : ",") << pw << "]";
    if (ins.is_load || ins.is_store)
      os << " " << (ins.is_load && ins.is_store ? "rmw" : ins.is_load ? "ld" : "st") << " "
         << unsigned{ins.access_count} << "x" << unsigned{ins.access_bytes} << "B";
    if (ins.op == Opcode::Bra) {
      os << " -> " << ins.target;
      if (ins.reconv != kNone) os << " reconv " << ins.reconv;
      else os << " reconv exit";
    }
    if (ins.op == Opcode::Call && ins.callee != kNone) os << " -> " << m.functions[ins.callee].name;
    if (elf) os << " elf " << elf->priority_at(i);
    os << " | " << f.text[i] << "\n";
  }
  if (elf) {
    os << "  ELF program points (" << elf->table().size() << ", " << elf->points_before_merge()
       << " before merging, MAX_SCORE " << elf->max_score() << "):\n";
    for (const analysis::ProgramPoint& p : elf->table())
      os << "    " << (p.is_branch ? "branch" : "load  ") << " @" << p.index << " score " << p.score << "\n";
  }
  return os.str();
}

}  // namespace gputlm::isa
