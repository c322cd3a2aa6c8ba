// The LSU's memory coalescer as synthesizable RTL: the same function as the C++ model
// (sm/lsu/coalescer.h, GPGPU-Sim memory_coalescing_arch_13 and its atomic variant) on
// pins. Timing contract (docs/blocks/coalescer_rtl.md), checked cycle by cycle by
// testbenches/sm/coalescer_rtl:
//   * ACCEPT: one chunk per cycle. A chunk is a piece's bytes up to the next unit (line;
//     atomics: atomic segment) boundary. in_ready is high while no split piece is pending,
//     so a piece crossing a boundary holds the input one extra cycle.
//   * After the chunk of the piece flagged in_last, EMIT: requests in (warp part, segment
//     address, creation) order, one per cycle while out_ready; out_last marks the final one.
//   * The cycle after the final request (or after in_last when no byte was touched) `done`
//     is high for one cycle; the cycle after that, in_ready is high again.
// The configuration pins are sampled every cycle and must be stable while an access is in
// flight.
module gputlm_coalescer #(
    parameter int MAX_REQS = 64  // requests one warp access may produce (32 lanes x 2 chunks)
) (
    input  logic         clk,
    input  logic         rst_n,
    input  logic [  2:0] cfg_line_log2,        // line bytes = 1 << x (4 .. 128)
    input  logic [  2:0] cfg_sector_log2,      // sector bytes = 1 << x
    input  logic [  2:0] cfg_unit_log2,        // grouping unit: the line, or the atomic segment
    input  logic [  2:0] cfg_part_lanes_log2,  // lanes per warp part = 1 << x
    input  logic         cfg_atomic,           // a piece overlapping a request's bytes opens a new one
    input  logic         in_valid,
    output logic         in_ready,
    input  logic [ 63:0] in_addr,
    input  logic [  7:0] in_bytes,
    input  logic [  4:0] in_lane,
    input  logic         in_last,
    output logic         out_valid,
    input  logic         out_ready,
    output logic [ 63:0] out_line_addr,
    output logic [ 63:0] out_seg_addr,
    output logic [ 31:0] out_sector_mask,
    output logic [127:0] out_byte_mask,
    output logic [ 31:0] out_lane_mask,
    output logic         out_last,
    output logic         done,
    output logic         overflow  // sticky until reset: an access needed more than MAX_REQS requests
);
  localparam int IW = $clog2(MAX_REQS);

  typedef enum logic [0:0] {
    ACCEPT,
    EMIT
  } state_t;
  state_t state;

  // The request table.
  logic [MAX_REQS-1:0] valid_q, sent_q;
  logic [63:0] seg_q[MAX_REQS];
  logic [4:0] part_q[MAX_REQS];
  logic [31:0] sect_q[MAX_REQS];
  logic [31:0] lanes_q[MAX_REQS];
  logic [127:0] bytes_q[MAX_REQS];
  logic [IW:0] count_q;

  // The rest of a piece that crossed a unit boundary.
  logic rem_valid;
  logic [63:0] rem_addr;
  logic [8:0] rem_left;
  logic [4:0] rem_lane;
  logic rem_last;

  // ---- the chunk handled this cycle ----
  logic src_valid, take_in;
  logic [63:0] src_addr;
  logic [8:0] src_left;
  logic [4:0] src_lane, src_part;
  logic src_last;
  logic [63:0] line_mask, unit_mask, base, segm;
  logic [8:0] off, to_end, len;
  logic [127:0] chunk_bytes;
  logic [31:0] chunk_sect;
  logic hit;
  logic [IW-1:0] hit_idx;

  assign in_ready = state == ACCEPT && !rem_valid;
  assign take_in = in_valid && in_ready;
  assign src_valid = rem_valid || take_in;

  always_comb begin
    src_addr = rem_valid ? rem_addr : in_addr;
    src_left = rem_valid ? rem_left : {1'b0, in_bytes};
    src_lane = rem_valid ? rem_lane : in_lane;
    src_last = rem_valid ? rem_last : in_last;
    src_part = src_lane >> cfg_part_lanes_log2;
    line_mask = (64'd1 << cfg_line_log2) - 64'd1;
    unit_mask = (64'd1 << cfg_unit_log2) - 64'd1;
    base = src_addr & ~line_mask;
    segm = src_addr & ~unit_mask;
    off = {2'b0, src_addr[6:0] & line_mask[6:0]};
    to_end = 9'((64'd1 << cfg_unit_log2) - (src_addr & unit_mask));
    len = src_left < to_end ? src_left : to_end;
    for (int b = 0; b < 128; b++) chunk_bytes[b] = 9'(b) >= off && 9'(b) < off + len;
    for (int s = 0; s < 32; s++)
      chunk_sect[s] = (16'(s) << cfg_sector_log2) < {7'b0, 9'(off + len)} && (16'(s + 1) << cfg_sector_log2) > {7'b0, off};
    // The first request of this part and segment whose bytes the chunk may join.
    hit = 1'b0;
    hit_idx = '0;
    for (int k = MAX_REQS - 1; k >= 0; k--)
      if (valid_q[k] && part_q[k] == src_part && seg_q[k] == segm &&
          (!cfg_atomic || (bytes_q[k] & chunk_bytes) == 128'd0)) begin
        hit = 1'b1;
        hit_idx = IW'(k);
      end
  end

  // ---- the request to emit: lowest (part, segment address), then lowest index ----
  logic any_unsent, best_found;
  logic [IW-1:0] best;
  logic [IW:0] unsent;
  always_comb begin
    best_found = 1'b0;
    best = '0;
    unsent = '0;
    for (int k = 0; k < MAX_REQS; k++)
      if (valid_q[k] && !sent_q[k]) begin
        unsent = unsent + 1'b1;
        if (!best_found || part_q[k] < part_q[best] || (part_q[k] == part_q[best] && seg_q[k] < seg_q[best])) begin
          best_found = 1'b1;
          best = IW'(k);
        end
      end
    any_unsent = best_found;
  end

  assign out_valid = state == EMIT && any_unsent;
  assign out_seg_addr = seg_q[best];
  assign out_line_addr = seg_q[best] & ~line_mask;
  assign out_sector_mask = sect_q[best];
  assign out_byte_mask = bytes_q[best];
  assign out_lane_mask = lanes_q[best];
  assign out_last = unsent == 1;
  assign done = state == EMIT && !any_unsent;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state <= ACCEPT;
      valid_q <= '0;
      sent_q <= '0;
      count_q <= '0;
      rem_valid <= 1'b0;
      overflow <= 1'b0;
    end else if (state == ACCEPT) begin
      if (src_valid) begin
        if (src_left != 0) begin
          if (hit) begin
            bytes_q[hit_idx] <= bytes_q[hit_idx] | chunk_bytes;
`ifdef GPUTLM_RTL_INJECT_BUG
            lanes_q[hit_idx] <= 32'd1 << src_lane;  // test-only bug: forgets the lanes merged before
`else
            lanes_q[hit_idx] <= lanes_q[hit_idx] | (32'd1 << src_lane);
`endif
            sect_q[hit_idx] <= sect_q[hit_idx] | chunk_sect;
          end else if (count_q < (IW + 1)'(MAX_REQS)) begin
            valid_q[count_q[IW-1:0]] <= 1'b1;
            seg_q[count_q[IW-1:0]] <= segm;
            part_q[count_q[IW-1:0]] <= src_part;
            bytes_q[count_q[IW-1:0]] <= chunk_bytes;
            lanes_q[count_q[IW-1:0]] <= 32'd1 << src_lane;
            sect_q[count_q[IW-1:0]] <= chunk_sect;
            count_q <= count_q + 1'b1;
          end else begin
            overflow <= 1'b1;
          end
        end
        if (src_left > len) begin
          rem_valid <= 1'b1;
          rem_addr <= src_addr + 64'(len);
          rem_left <= src_left - len;
          rem_lane <= src_lane;
          rem_last <= src_last;
        end else begin
          rem_valid <= 1'b0;
          if (src_last) state <= EMIT;
        end
      end
    end else begin  // EMIT
      if (out_valid && out_ready) sent_q[best] <= 1'b1;
      if (!any_unsent) begin
        state <= ACCEPT;
        valid_q <= '0;
        sent_q <= '0;
        count_q <= '0;
      end
    end
  end
endmodule
