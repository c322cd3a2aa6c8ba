// Intermediate representation of a parsed PTX module. Everything here is decoded once at
// load time (ptx_parser.h) so the executor and the timing model never look at text again.
//
// Conventions (see docs/isa.md):
//  * Instruction i of function f has byte PC  f.pc_base + 8*i  (kInstrBytes). Function
//    bases are laid out in module order, each aligned to kFunctionAlign bytes.
//  * Registers are dense per function: Operand::index of a Reg operand indexes
//    Function::regs; of a Pred operand indexes Function::preds. A register is a register,
//    whatever its width (b16/b32/b64...).
//  * Operands appear in PTX textual order in Instruction::ops; the optional second
//    destination of "d|p" (setp, shfl, ...) is Instruction::dst2.
//  * Branch targets, reconvergence points and call targets are indices, not PCs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gputlm::isa {

inline constexpr uint32_t kInstrBytes = 8;
inline constexpr uint64_t kFunctionAlign = 128;
inline constexpr uint32_t kNone = 0xffffffffu;  // "no index" for registers, targets, symbols

// ---------------------------------------------------------------------------------------
// Types and spaces
// ---------------------------------------------------------------------------------------
enum class ScalarType : uint8_t {
  None,
  Pred,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, F32, F64,
};
uint32_t type_bytes(ScalarType t);  // Pred -> 1 (stored as a byte), None -> 0
bool is_float(ScalarType t);        // F16..F64 incl. packed
bool is_signed_int(ScalarType t);   // S8..S64
bool is_unsigned_int(ScalarType t); // U8..U64
bool is_bits(ScalarType t);         // B8..B128
const char* type_name(ScalarType t);  // "f32", "pred", ...

enum class StateSpace : uint8_t { None, Reg, Param, Global, Shared, Local, Const, Generic, Texture };
const char* space_name(StateSpace s);

// ---------------------------------------------------------------------------------------
// Opcodes and modifiers
// ---------------------------------------------------------------------------------------
enum class Opcode : uint8_t {
  // integer / float arithmetic
  Add, Sub, Mul, Mad, Mul24, Mad24, Sad, Div, Rem, Abs, Neg, Min, Max, Fma,
  Addc, Subc, Madc,  // use the carry produced by a ".cc" instruction
  // bit manipulation
  And, Or, Xor, Not, Cnot, Shl, Shr, Shf, Popc, Clz, Brev, Bfe, Bfi, Bfind, Prmt, Lop3,
  Dp4a, Dp2a,
  // floating point special
  Copysign, Sqrt, Rsqrt, Rcp, Sin, Cos, Lg2, Ex2, Tanh, Testp,
  // compare / select
  Setp, Set, Selp, Slct,
  // data movement / conversion
  Mov, Cvt, Cvta, Isspacep,
  Ld, Ldu, St, Prefetch, Prefetchu, Discard,
  Atom, Red,
  // synchronisation
  Bar,          // bar.sync / barrier.sync / bar.arrive / bar.red (see BarKind)
  BarWarpSync,  // bar.warp.sync mask (__syncwarp)
  Membar, Fence,
  // control
  Bra, Call, Ret, Exit, Trap, Brkpt, Nanosleep,
  // warp collectives
  Shfl, Vote, Activemask, Match,
  Count_
};
const char* opcode_name(Opcode op);

enum class Rounding : uint8_t { None, Rn, Rz, Rm, Rp, Rna, Rni, Rzi, Rmi, Rpi };
enum class CmpOp : uint8_t {
  None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan
};
enum class BoolOp : uint8_t { None, And, Or, Xor, Popc };  // Popc only for bar.red
enum class MulMode : uint8_t { None, Lo, Hi, Wide };
enum class AtomOp : uint8_t { None, Add, Min, Max, Inc, Dec, Cas, Exch, And, Or, Xor };
enum class ShflMode : uint8_t { None, Up, Down, Bfly, Idx };
enum class VoteMode : uint8_t { None, All, Any, Uni, Ballot };
enum class MatchMode : uint8_t { None, Any, All };
enum class PrmtMode : uint8_t { None, F4e, B4e, Rc8, Ecl, Ecr, Rc16 };
enum class ShfMode : uint8_t { None, LeftWrap, LeftClamp, RightWrap, RightClamp };
enum class TestpOp : uint8_t { None, Finite, Infinite, Number, NotANumber, Normal, Subnormal };
enum class CacheOp : uint8_t { None, Ca, Cg, Cs, Lu, Cv, Wb, Wt };
enum class MemSem : uint8_t { None, Weak, Relaxed, Acquire, Release, AcqRel, Sc, Volatile };
enum class Scope : uint8_t { None, Cta, Gpu, Sys, Cluster };
enum class BarKind : uint8_t { None, Sync, Arrive, Red };
enum class MembarLevel : uint8_t { None, Cta, Gl, Sys };

// Boolean modifiers, Instruction::flags.
enum InstrFlag : uint32_t {
  kFtz = 1u << 0,
  kSat = 1u << 1,
  kApprox = 1u << 2,
  kFull = 1u << 3,
  kUni = 1u << 4,        // bra.uni / call.uni / ret.uni
  kNc = 1u << 5,         // ld.global.nc
  kCarryOut = 1u << 6,   // ".cc": writes the carry flag
  kAligned = 1u << 7,    // barrier.sync.aligned (informational)
  kShiftAmt = 1u << 8,   // bfind.shiftamt
  kCvtaTo = 1u << 9,     // cvta.to.<space> (generic -> space); otherwise space -> generic
  kSync = 1u << 10,      // shfl.sync / vote.sync / match.sync / barrier.sync form
  kNoFtz = 1u << 11,     // atom .noftz
  kRelu = 1u << 12,      // cvt .relu / min/max .relu
  kNaN = 1u << 13,       // min/max .NaN
  kCacheHint = 1u << 14, // some L1::/L2:: eviction hint was given (ignored semantically)
  kBarrierExplicitCount = 1u << 15,  // bar.sync a, b: thread count operand present
  kElfRecalc = 1u << 16, // ELF: recalc bit of a branch (set by analysis/elf.h)
  kBackwardBranch = 1u << 17,
};

// ---------------------------------------------------------------------------------------
// Operands
// ---------------------------------------------------------------------------------------
enum class OperandKind : uint8_t {
  None,
  Reg,      // index -> Function::regs
  Pred,     // index -> Function::preds; neg = "!p"
  Imm,      // bits, already converted to `type` (f32 literal stored as f32 bits, etc.)
  Special,  // sreg + component
  SymAddr,  // the address of a symbol (+offset) used as a value: "mov.u64 %rd, sym"
  Mem,      // memory reference [base + symbol + offset]: index = base reg or kNone,
            // symbol = symbol or kNone, offset = immediate displacement
  Vector,   // braces list: elements are Function::operand_pool[first .. first+count)
  Label,    // target instruction index in `index` (branches)
  Func,     // function index in `index` (call target)
  Sink,     // "_"
};

enum class SpecialReg : uint8_t {
  None, Tid, Ntid, Ctaid, Nctaid, Laneid, Warpid, Nwarpid, Smid, Nsmid, Gridid,
  Clock, Clock64, Globaltimer, GlobaltimerLo, GlobaltimerHi,
  LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt,
  Envreg, DynamicSmemSize, TotalSmemSize, Pm,
};
const char* special_reg_name(SpecialReg r);

struct Operand {
  OperandKind kind = OperandKind::None;
  ScalarType type = ScalarType::None;  // register's declared type, or the type an Imm was encoded as
  SpecialReg sreg = SpecialReg::None;
  uint8_t component = 0;  // .x/.y/.z = 0/1/2 for Special (or %envreg N)
  bool neg = false;       // "!%p"
  uint32_t index = kNone; // register / predicate / base register / label / function index
  uint32_t symbol = kNone;  // Module::symbols index (SymAddr, Mem)
  uint32_t first = 0;     // Vector: first element in Function::operand_pool
  uint32_t count = 0;     // Vector: number of elements
  int64_t offset = 0;     // Mem / SymAddr displacement in bytes
  uint64_t bits = 0;      // Imm value bits (zero-extended)
};

// ---------------------------------------------------------------------------------------
// Decoded facts for the timing model
// ---------------------------------------------------------------------------------------
enum class OpClass : uint8_t {
  IntAlu, IntMul, IntDiv, Fp32, Fp64, Fp16, Sfu, Conv,
  MemGlobal, MemLocal, MemShared, MemConst, MemParam, MemTexture, MemGeneric,
  Atomic, Branch, Barrier, Membar, Call, Ret, Exit, Nop,
};
const char* op_class_name(OpClass c);

// Latency classes; a config maps each to cycles. Memory latency comes from the memory
// system, so every memory access is one class here.
enum class LatencyClass : uint8_t {
  IntAlu, IntMul, IntDiv, Fp32, Fp32Div, Fp64, Fp64Div, Fp16, Sfu, Conv,
  Memory, Control, Barrier, Nop,
};
const char* latency_class_name(LatencyClass c);

inline constexpr uint32_t kMaxSrcRegs = 10;
inline constexpr uint32_t kMaxDstRegs = 4;
inline constexpr uint32_t kMaxOps = 6;

struct Instruction {
  Opcode op = Opcode::Count_;
  ScalarType type = ScalarType::None;   // main type (destination for cvt / set / slct)
  ScalarType type2 = ScalarType::None;  // second type: cvt/set/slct source, cvta unused
  StateSpace space = StateSpace::None;  // ld/st/atom/red/cvta/prefetch space (None = generic)
  uint8_t vec = 1;                      // .v2/.v4 -> 2/4
  Rounding rnd = Rounding::None;
  CmpOp cmp = CmpOp::None;
  BoolOp boolop = BoolOp::None;         // setp/set combiner, bar.red op
  MulMode mul = MulMode::None;
  AtomOp atom = AtomOp::None;
  ShflMode shfl = ShflMode::None;
  VoteMode vote = VoteMode::None;
  MatchMode match = MatchMode::None;
  PrmtMode prmt = PrmtMode::None;
  ShfMode shf = ShfMode::None;
  TestpOp testp = TestpOp::None;
  CacheOp cache = CacheOp::None;
  MemSem sem = MemSem::None;
  Scope scope = Scope::None;
  BarKind bar = BarKind::None;
  MembarLevel membar = MembarLevel::None;
  uint32_t flags = 0;                   // InstrFlag bits

  // Guard predicate: @p / @!p. guard == kNone: always executes.
  uint32_t guard = kNone;
  bool guard_neg = false;

  uint8_t nops = 0;
  std::array<Operand, kMaxOps> ops{};
  Operand dst2{};  // second destination of "d|p"

  // Control flow (instruction indices within the same function).
  uint32_t target = kNone;   // bra: taken target
  uint32_t reconv = kNone;   // bra: immediate post-dominator; kNone = reconverge only at exit
  uint32_t callee = kNone;   // call: Module::functions index
  // call: "(ret...)" and "(args...)" lists live in Function::operand_pool.
  uint32_t call_ret_first = 0, call_ret_count = 0;
  uint32_t call_arg_first = 0, call_arg_count = 0;

  // Timing facts.
  OpClass cls = OpClass::Nop;
  LatencyClass lat = LatencyClass::Nop;
  bool is_load = false;
  bool is_store = false;
  uint8_t access_bytes = 0;  // bytes per element per thread (memory instructions)
  uint8_t access_count = 0;  // elements per thread (vector width) for memory instructions
  uint8_t n_src_regs = 0, n_dst_regs = 0, n_src_preds = 0, n_dst_preds = 0;
  std::array<uint32_t, kMaxSrcRegs> src_regs{};  // registers read (incl. address bases)
  std::array<uint32_t, kMaxDstRegs> dst_regs{};  // registers written
  std::array<uint32_t, 3> src_preds{};           // predicates read (incl. guard)
  std::array<uint32_t, 2> dst_preds{};           // predicates written

  uint32_t line = 0, column = 0;  // source position of the opcode token
};

// ---------------------------------------------------------------------------------------
// Symbols, parameters, functions, module
// ---------------------------------------------------------------------------------------
enum class SymbolKind : uint8_t {
  Global,        // .global at module scope; offset in Module::global_bytes segment
  Const,         // .const; offset in Module::const_bytes segment (bank 0)
  Shared,        // static .shared; offset in the CTA's shared window
  ExternShared,  // extern .shared x[]: offset = Module::dynamic_shared_offset
  Local,         // .local in a function; offset in that function's per-thread frame
  KernelParam,   // .entry parameter; offset in the kernel parameter buffer
  FuncParam,     // .func parameter; offset in the callee's incoming parameter area
  FuncReturn,    // .func return parameter; offset in the callee's return area
  CallParam,     // .param declared in a function body (call sequence argument/return
                 // slot); offset in the caller's call-parameter area
  Function,      // a .func / .entry name
};
const char* symbol_kind_name(SymbolKind k);

enum class Linkage : uint8_t { None, Visible, Extern, Weak, Common };

// An initialiser element that holds an address: `.global .u64 p = generic(x)+4;`. The
// loader writes (address of `symbol`) + addend, `bytes` wide, at `offset` in the init bytes
// (which hold zeros there). `symbol` is a module-scope .global or .const variable; with
// `generic` set the address is its generic address, otherwise its address in its space.
struct Relocation {
  uint64_t offset = 0;
  uint32_t symbol = kNone;
  int64_t addend = 0;
  uint8_t bytes = 8;
  bool generic = false;
};

struct Symbol {
  std::string name;
  SymbolKind kind = SymbolKind::Global;
  StateSpace space = StateSpace::None;
  ScalarType type = ScalarType::None;  // element type as declared
  uint32_t align = 1;
  uint64_t size = 0;        // bytes (0 for extern dynamic arrays)
  uint64_t offset = 0;      // see SymbolKind
  uint32_t function = kNone;  // owning function (for Local, params, CallParam, scoped Shared)
  Linkage linkage = Linkage::None;
  std::vector<uint8_t> init;  // initialiser bytes (little-endian), empty = none (zero)
  std::vector<Relocation> relocations;  // address-valued initialiser elements (patch init)
  uint32_t line = 0, column = 0;
};

struct Param {
  std::string name;
  ScalarType type = ScalarType::None;
  uint32_t size = 0;       // bytes (arrays: element size * count)
  uint32_t align = 1;
  uint32_t offset = 0;     // byte offset in the parameter buffer
  uint32_t array_count = 0;  // 0 = scalar
  StateSpace ptr_space = StateSpace::None;  // .ptr.global etc. (kernel params), informational
  uint32_t ptr_align = 0;
  uint32_t symbol = kNone;  // Module::symbols index
};

struct RegisterInfo {
  std::string name;  // "%r12"
  ScalarType type = ScalarType::None;
  uint8_t bytes = 0;
};

struct Function {
  std::string name;
  bool is_entry = false;
  bool is_declaration = false;  // ".extern .func f(...);" without body
  Linkage linkage = Linkage::None;
  uint32_t line = 0, column = 0;

  std::vector<Param> params;    // in declaration order with buffer offsets
  std::vector<Param> returns;   // .func return parameters
  uint32_t param_bytes = 0;     // parameter buffer size
  uint32_t return_bytes = 0;

  std::vector<RegisterInfo> regs;   // dense general registers
  std::vector<RegisterInfo> preds;  // dense predicate registers
  std::vector<Instruction> code;
  std::vector<Operand> operand_pool;  // vector elements, call argument/return lists
  std::vector<std::string> text;      // source text of each instruction (for messages)

  std::vector<uint32_t> local_symbols;   // Module::symbols indices
  uint32_t local_bytes = 0;              // per-thread frame size (all .local of this function)
  std::vector<uint32_t> call_param_symbols;
  uint32_t call_param_bytes = 0;         // caller-side call sequence parameter area
  std::vector<uint32_t> shared_symbols;  // shared declared in this function's body
  uint32_t shared_end = 0;  // entry: end of the kernel's static shared window (module
                            // shared + its own), i.e. bytes of static shared needed.
                            // Shared symbol offsets are relative to the CTA's window.

  uint64_t pc_base = 0;  // PC of instruction 0

  // Performance directives (0 = not given).
  std::array<uint32_t, 3> maxntid{}, reqntid{};
  uint32_t minnctapersm = 0, maxnreg = 0;

  uint64_t pc_of(uint32_t index) const { return pc_base + uint64_t{kInstrBytes} * index; }
  // Index of the instruction at `pc`, or kNone if pc is outside this function.
  uint32_t index_of(uint64_t pc) const;
};

struct Module {
  std::string file;  // source name used in messages
  std::string version;  // "9.0"
  std::string target;   // "sm_75"
  uint32_t address_size = 64;

  std::vector<Function> functions;
  std::vector<Symbol> symbols;

  uint64_t global_bytes = 0;           // module .global segment size
  uint64_t const_bytes = 0;            // module .const segment size (bank 0)
  uint32_t module_shared_bytes = 0;    // module-scope static shared (start of every window)
  uint32_t dynamic_shared_offset = 0;  // where extern .shared arrays start in every window
  uint32_t dynamic_shared_align = 1;

  // Exact name, demangled name, or a unique prefix of either; throws std::runtime_error
  // (listing candidates) when unknown or ambiguous. Returns the Function (is_entry).
  const Function& find_kernel(const std::string& name) const;
  uint32_t find_kernel_index(const std::string& name) const;
  // Exact mangled name lookup of any function; kNone if absent.
  uint32_t find_function(const std::string& name) const;
  // Exact symbol name lookup among module-scope symbols; kNone if absent.
  uint32_t find_symbol(const std::string& name) const;
  // Function whose PC range contains pc, or kNone.
  uint32_t function_at(uint64_t pc) const;
  // Bytes of shared memory one CTA of `kernel` needs (its static window, plus the
  // dynamic area at dynamic_shared_offset when dynamic_bytes > 0).
  uint32_t shared_window_bytes(const Function& kernel, uint32_t dynamic_bytes) const {
    return dynamic_bytes == 0 ? kernel.shared_end : dynamic_shared_offset + dynamic_bytes;
  }
};

// Demangled C++ name ("saxpy(int, float, float*)") or the input if not mangled.
std::string demangle(const std::string& mangled);

}  // namespace gputlm::isa
