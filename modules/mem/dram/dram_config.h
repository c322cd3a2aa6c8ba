// Parameters of one DRAM channel and its controller. Timing values are in DRAM
// command-clock cycles, with GPGPU-Sim's semantics (-gpgpu_dram_timing_opt); the
// defaults are GPGPU-Sim's GTX480 values, which 001 Table 2.1 / 5.1 quote (GDDR5,
// 16 banks per MC, tCL=12 tRP=12 tRC=40 tRAS=28 tRCD=12 tRRD=6), at 924 MHz
// (-gpgpu_clock_domains ...:924.0, the command clock).
#pragma once

#include <cstdint>
#include <string>

#include "core/config/params.h"

namespace gputlm {

struct DramTimingConfig {
  uint32_t tCCD = 2;    // column command to column command (any bank)
  uint32_t tRRD = 6;    // ACT to ACT, different banks
  uint32_t tRCD = 12;   // ACT to RD, same bank
  uint32_t tRAS = 28;   // ACT to PRE, same bank
  uint32_t tRP = 12;    // PRE to ACT, same bank
  uint32_t tRC = 40;    // ACT to ACT, same bank
  uint32_t tCL = 12;    // RD to first data
  uint32_t tWL = 4;     // WR to first data
  uint32_t tCDLR = 5;   // end of write data to RD (write-to-read turnaround)
  uint32_t tWR = 12;    // end of write data to PRE (write recovery)
  uint32_t tRTP = 2;    // RD to PRE, same bank

  template <class V>
  void visit(V& v) {
    v.param("tCCD", tCCD, "column-to-column command delay, any bank (DRAM cycles)", config::at_least(1));
    v.param("tRRD", tRRD, "activate-to-activate delay between different banks", config::at_least(1));
    v.param("tRCD", tRCD, "activate-to-read delay, same bank (writes: tRCD - (tWL + 1), as GPGPU-Sim)",
            config::at_least(1));
    v.param("tRAS", tRAS, "activate-to-precharge delay, same bank", config::at_least(1));
    v.param("tRP", tRP, "precharge-to-activate delay, same bank", config::at_least(1));
    v.param("tRC", tRC, "activate-to-activate delay, same bank", config::at_least(1));
    v.param("tCL", tCL, "read command to first data (CAS latency)", config::at_least(1));
    v.param("tWL", tWL, "write command to first data (write latency)", config::at_least(0));
    v.param("tCDLR", tCDLR, "last write data to read command (write-to-read turnaround)", config::at_least(0));
    v.param("tWR", tWR, "last write data to precharge (write recovery)", config::at_least(0));
    v.param("tRTP", tRTP, "read command to precharge, same bank", config::at_least(0));
  }
};

struct DramConfig {
  uint32_t banks = 16;                // 001: 16 banks per MC (nbk=16)
  uint32_t burst_length = 8;          // -gpgpu_dram_burst_length 8
  uint32_t bus_width_bytes = 4;       // -gpgpu_dram_buswidth 4 (per chip)
  uint32_t chips_per_channel = 2;     // -gpgpu_n_mem_per_ctrlr 2: a 64-bit channel
  uint32_t data_command_ratio = 4;    // -dram_data_command_freq_ratio 4 (GDDR5: 4 data beats per command cycle)
  uint32_t queue_size = 16;           // -gpgpu_frfcfs_dram_sched_queue_size 16 (001 quotes 32)
  uint32_t return_queue_size = 32;
  std::string scheduler = "frfcfs";   // -gpgpu_dram_scheduler 1 (FR-FCFS)
  // GPGPU-Sim SM2_GTX480 -gpgpu_mem_addr_mapping of the channel-local address (its
  // addrdec.cc applies the pattern to the address with the channel removed: for 6
  // channels, (addr >> 8) / 6 << 8 | addr & 0xff): row | bank | column | burst offset.
  std::string address_mapping = "RRRRRRRRRRRR.BBBCCCCB.CCSSSSSS";
  uint32_t min_latency = 0;           // 001 ch.5: 100/200/400 core cycles (convert to DRAM cycles)
  uint32_t latency_queue = 0;         // 0: min_latency is a floor; N: GPGPU-Sim's dram_latency queue
  bool timing_checker = false;
  DramTimingConfig timing;

  template <class V>
  void visit(V& v) {
    v.param("banks", banks, "banks per channel", config::at_least(1));
    v.param("burst_length", burst_length, "data beats per column command", config::at_least(1));
    v.param("bus_width_bytes", bus_width_bytes, "data bus width of one chip in bytes", config::at_least(1));
    v.param("chips_per_channel", chips_per_channel, "chips side by side on the channel (bus width multiplier)",
            config::at_least(1));
    v.param("data_command_ratio", data_command_ratio,
            "data beats per command-clock cycle (GDDR5: 4); a burst occupies the data bus "
            "burst_length / data_command_ratio cycles",
            config::at_least(1));
    v.param("queue_size", queue_size, "requests the scheduler holds (full: END_REQ withheld)", config::at_least(1));
    v.param("return_queue_size", return_queue_size,
            "completed requests waiting to be answered (full: no new read/write data is started)", config::at_least(1));
    v.param("scheduler", scheduler, "request scheduling policy: frfcfs (row hits first, then oldest) or fifo",
            config::one_of({"frfcfs", "fifo"}));
    v.param("address_mapping", address_mapping,
            "bit pattern of the channel-local address, most significant bit first: R row, B bank, C column, "
            "S byte within a burst (ignored), 0 unused; dots are separators; bits above the pattern go to the row",
            config::any());
    v.param("min_latency", min_latency,
            "minimum cycles (DRAM clock) from accepting a request to answering it (001 ch.5 knob)", config::at_least(0));
    v.param("latency_queue", latency_queue,
            "how min_latency combines with the access: 0 = a floor, the response at max(accept + min_latency, "
            "access done); N > 0 = GPGPU-Sim's dram_latency queue: a request waits min_latency cycles in an "
            "N-entry FIFO (END_REQ withheld when full) before it enters the scheduler queue, then the whole access "
            "follows",
            config::at_least(0));
    v.param("timing_checker", timing_checker,
            "check every command against every timing constraint (throws on a violation)", config::any());
    v.group("timing", timing, "GDDR timing parameters in DRAM command-clock cycles");
  }
  // Cross-field checks (throws config::ConfigError naming the key).
  void validate(const std::string& key = "dram") const;
  // Bytes moved by one column command: burst_length * bus_width_bytes * chips_per_channel.
  uint32_t atom_bytes() const { return burst_length * bus_width_bytes * chips_per_channel; }
  // Cycles a burst occupies the data bus.
  uint32_t burst_cycles() const { return burst_length / data_command_ratio; }
};

// Constraints derived from the parameters, with GPGPU-Sim's formulas (gpu-sim.cc).
struct DramDerivedTiming {
  uint32_t burst;   // data-bus cycles per column command
  uint32_t tRCDWR;  // ACT to WR: tRCD - (tWL + 1), at least 1
  uint32_t tRTW;    // RD to WR: tCL + burst + 2 - tWL
  uint32_t tWTR;    // WR to RD: tWL + burst + tCDLR
  uint32_t tWTP;    // WR to PRE: tWL + burst + tWR
  static DramDerivedTiming from(const DramConfig& cfg);
};

}  // namespace gputlm
