// Register map of the gputlm GPU device (command processor), for host drivers and
// platform code: offsets in the device's register window, bit fields, commands and error
// codes. docs/platforms/soc.md describes the semantics; this header has no dependencies.
//
// Every register is 32 bits wide and is accessed with aligned 4-byte reads and writes.
#pragma once

#include <cstdint>

namespace gputlm::regs {

inline constexpr uint64_t kWindowBytes = 0x100;  // size of the register window

// Offsets. RO: writes are refused (ERR_READ_ONLY); RW: read back what was written (only
// the defined bits); W1C: writing 1 clears a bit; WO: reads as 0.
inline constexpr uint64_t ID = 0x00;                // RO  kIdValue
inline constexpr uint64_t VERSION = 0x04;           // RO  kVersionValue
inline constexpr uint64_t STATUS = 0x08;            // RO  STATUS_* bits
inline constexpr uint64_t ERROR = 0x0C;             // RO  ERR_* of the last error (0: none)
inline constexpr uint64_t INT_ENABLE = 0x10;        // RW  INT_* bits
inline constexpr uint64_t INT_STATUS = 0x14;        // W1C INT_* bits; the irq line is INT_STATUS & INT_ENABLE
inline constexpr uint64_t COMMAND = 0x18;           // WO  doorbell: CMD_*
inline constexpr uint64_t MODULE_ADDR_LO = 0x20;    // RW  host address of the PTX text (bits 31..0)
inline constexpr uint64_t MODULE_ADDR_HI = 0x24;    // RW  (bits 63..32)
inline constexpr uint64_t MODULE_SIZE = 0x28;       // RW  bytes of PTX text
inline constexpr uint64_t MODULE_HANDLE = 0x2C;     // RO  handle of the last module loaded (>= 1)
inline constexpr uint64_t KERNEL_MODULE = 0x30;     // RW  handle of the module to launch from
inline constexpr uint64_t KERNEL_NAME_ADDR_LO = 0x34;  // RW  host address of the entry name
inline constexpr uint64_t KERNEL_NAME_ADDR_HI = 0x38;  // RW
inline constexpr uint64_t KERNEL_NAME_SIZE = 0x3C;  // RW  bytes of the name (no terminator)
inline constexpr uint64_t GRID_X = 0x40;            // RW  grid dimensions in CTAs
inline constexpr uint64_t GRID_Y = 0x44;
inline constexpr uint64_t GRID_Z = 0x48;
inline constexpr uint64_t BLOCK_X = 0x4C;           // RW  CTA dimensions in threads
inline constexpr uint64_t BLOCK_Y = 0x50;
inline constexpr uint64_t BLOCK_Z = 0x54;
inline constexpr uint64_t SHARED_BYTES = 0x58;      // RW  dynamic shared memory per CTA
inline constexpr uint64_t PARAM_ADDR_LO = 0x5C;     // RW  host address of the parameter buffer
inline constexpr uint64_t PARAM_ADDR_HI = 0x60;     // RW
inline constexpr uint64_t PARAM_SIZE = 0x64;        // RW  bytes; must equal the entry's parameter bytes
inline constexpr uint64_t REGS_PER_THREAD = 0x68;   // RW  registers per thread (ptxas), 0: unknown
inline constexpr uint64_t KERNELS_DONE = 0x6C;      // RO  kernels completed since reset
inline constexpr uint64_t LAST_CYCLES_LO = 0x70;    // RO  core cycles of the last kernel (bits 31..0)
inline constexpr uint64_t LAST_CYCLES_HI = 0x74;    // RO  (bits 63..32)

inline constexpr uint32_t kIdValue = 0x47505554;  // "GPUT"
inline constexpr uint32_t kVersionValue = 1;

// STATUS
inline constexpr uint32_t STATUS_BUSY = 1u << 0;   // a command is being carried out
inline constexpr uint32_t STATUS_ERROR = 1u << 1;  // ERROR != 0

// INT_ENABLE / INT_STATUS
inline constexpr uint32_t INT_DONE = 1u << 0;   // a command completed (module loaded, kernel finished)
inline constexpr uint32_t INT_ERROR = 1u << 1;  // an error was recorded in ERROR; clearing it clears ERROR
inline constexpr uint32_t INT_MASK = INT_DONE | INT_ERROR;

// COMMAND
inline constexpr uint32_t CMD_LOAD_MODULE = 1;  // read MODULE_ADDR/SIZE, parse, set MODULE_HANDLE
inline constexpr uint32_t CMD_LAUNCH = 2;       // read the kernel descriptor and run the kernel

// ERROR codes
inline constexpr uint32_t ERR_NONE = 0;
inline constexpr uint32_t ERR_MISALIGNED = 1;      // register offset not a multiple of 4
inline constexpr uint32_t ERR_ACCESS_SIZE = 2;     // register access not 4 bytes
inline constexpr uint32_t ERR_READ_ONLY = 3;       // write to a read-only register
inline constexpr uint32_t ERR_NO_REGISTER = 4;     // write to an offset with no register
inline constexpr uint32_t ERR_BUSY = 5;            // command while STATUS_BUSY
inline constexpr uint32_t ERR_BAD_COMMAND = 6;     // unknown COMMAND value
inline constexpr uint32_t ERR_HOST_MEMORY = 7;     // reading the module, name or parameters from host memory failed
inline constexpr uint32_t ERR_MODULE_SIZE = 8;     // MODULE_SIZE or KERNEL_NAME_SIZE 0 or above the device's limit
inline constexpr uint32_t ERR_MODULE_PARSE = 9;    // the PTX does not parse or load
inline constexpr uint32_t ERR_MODULE_LIMIT = 10;   // no room for another module
inline constexpr uint32_t ERR_UNKNOWN_MODULE = 11; // KERNEL_MODULE is not a loaded module's handle
inline constexpr uint32_t ERR_UNKNOWN_ENTRY = 12;  // the name is no (or no unique) .entry of the module
inline constexpr uint32_t ERR_PARAM_SIZE = 13;     // PARAM_SIZE differs from the entry's parameter bytes
inline constexpr uint32_t ERR_BAD_GRID = 14;       // zero or too large grid/block, or a CTA that fits no SM

// A short name of an error code ("busy"), "unknown" for others.
inline const char* error_name(uint32_t code) {
  static const char* const names[] = {"none",           "misaligned",    "access_size",   "read_only",
                                      "no_register",    "busy",          "bad_command",   "host_memory",
                                      "module_size",    "module_parse",  "module_limit",  "unknown_module",
                                      "unknown_entry",  "param_size",    "bad_grid"};
  return code < sizeof names / sizeof names[0] ? names[code] : "unknown";
}

}  // namespace gputlm::regs
