// The warp-issue order of one scheduler as synthesizable RTL: GTO (greedy then oldest) and
// LRR (loose round robin) with their state, the same function as the C++ policies
// (sm/scheduler/policies/age_based.cpp, round_robin.cpp) on pins.
//   * Ages live in an age matrix: older_q[i][j] is set when warp i became resident before
//     warp j. `add` makes a warp resident as the youngest.
//   * Events are applied at the clock edge; the order outputs are combinational from the
//     state, so they are valid after the edge (the transactor reads them then).
//   * order[p*W +: W] is the p-th warp by priority, for p < order_count (the resident warps).
//   * GTO: the greedy warp (the last that issued, until `forget` of its slot) first when
//     resident, then the others oldest first. LRR: resident warps from the one after the
//     last that issued, wrapping; ascending before anything issued.
module gputlm_warp_order #(
    parameter int N = 32,  // warps of the scheduler (a power of two)
    localparam int W = $clog2(N)
) (
    input  logic         clk,
    input  logic         rst_n,
    input  logic         cfg_gto,       // 1: GTO, 0: LRR
    input  logic         add_valid,     // warp add_idx becomes resident (youngest)
    input  logic [W-1:0] add_idx,
    input  logic         drop_valid,    // warp drop_idx leaves the resident set
    input  logic [W-1:0] drop_idx,
    input  logic         forget_valid,  // slot forget_idx was freed: GTO forgets it as greedy
    input  logic [W-1:0] forget_idx,
    input  logic         issued_valid,  // warp issued_idx issued an instruction
    input  logic [W-1:0] issued_idx,
    output logic [N*W-1:0] order,
    output logic [W:0]   order_count
);
  logic [N-1:0] resident_q;
  logic [N-1:0] older_q[N];
  logic greedy_v, last_v;
  logic [W-1:0] greedy_q, last_q;

  // ---- the order ----
  logic [W-1:0] pos[N];
  logic greedy_first;
  always_comb begin
    greedy_first = cfg_gto && greedy_v && resident_q[greedy_q];
    for (int i = 0; i < N; i++) begin
      pos[i] = '0;
      for (int j = 0; j < N; j++) begin
        if (cfg_gto) begin
          // j precedes i: j older, neither is the greedy warp placed first
          if (resident_q[j] && j != i && older_q[j][i] && !(greedy_first && W'(j) == greedy_q)) pos[i] = pos[i] + 1'b1;
        end else begin
          // rotation after the last issued warp: j precedes i when it comes first from last + 1
`ifdef GPUTLM_RTL_INJECT_BUG
          if (resident_q[j] && (last_v ? W'(j) - last_q : W'(j)) < (last_v ? W'(i) - last_q : W'(i)))  // test-only bug
`else
          if (resident_q[j] && (last_v ? W'(j) - last_q - 1'b1 : W'(j)) < (last_v ? W'(i) - last_q - 1'b1 : W'(i)))
`endif
            pos[i] = pos[i] + 1'b1;
        end
      end
      if (greedy_first) pos[i] = W'(i) == greedy_q ? '0 : pos[i] + 1'b1;
    end
    order = '0;
    order_count = '0;
    for (int i = 0; i < N; i++)
      if (resident_q[i]) begin
        order[pos[i]*W+:W] = W'(i);
        order_count = order_count + 1'b1;
      end
  end

  // ---- the state ----
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      resident_q <= '0;
      greedy_v <= 1'b0;
      last_v <= 1'b0;
      greedy_q <= '0;
      last_q <= '0;
      for (int i = 0; i < N; i++) older_q[i] <= '0;
    end else begin
      if (drop_valid) resident_q[drop_idx] <= 1'b0;
      if (add_valid) begin
        resident_q[add_idx] <= 1'b1;
        // Every warp resident now is older than the newcomer; the newcomer older than none.
        for (int j = 0; j < N; j++) older_q[j][add_idx] <= resident_q[j] && W'(j) != add_idx;
        older_q[add_idx] <= '0;
      end
      if (forget_valid && greedy_v && greedy_q == forget_idx) greedy_v <= 1'b0;
      if (issued_valid) begin
        greedy_v <= 1'b1;
        greedy_q <= issued_idx;
        last_v <= 1'b1;
        last_q <= issued_idx;
      end
    end
  end
endmodule
