#!/usr/bin/env python3
"""Every small workload on the Fermi GTX480 and the Pascal TITAN X gives the same statistics
when the blocks due at a clock edge tick in a shuffled order (`gputlm run --tick-order-seed`):
the clocked-process pattern promises that a block's tick never depends on the order of the
ticks of its edge (docs/performance.md, issue 20). KNOWN_ORDER_DEPENDENT lists the workloads
where it does not hold yet; each is a model bug to find, and this test fails when one of them
becomes independent, so the list can only shrink.

usage: tick_order_independence.py GPUTLM WORKLOADS_DIR TMP_DIR CONFIG..."""
import sys

from suite_variants import run_variants, strip

# bfs (Fermi; seeds 2, 3, 7): its kernels race on purpose (threads of different CTAs write
# the same frontier flags), and the functional model executes a warp's load or store when it
# issues, so two SMs issuing a racing load and store at one edge see each other's effect in
# tick order. Creation order (SM index) makes it deterministic. Parallel edges (--threads)
# apply global memory at the edge's end in SM order and so do not depend on the thread count
# (thread_count_independence.py); a shuffled order ticks serially, executing at issue.
KNOWN_ORDER_DEPENDENT = {("fermi_gtx480", "bfs")}
SEEDS = (0, 7)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    errors, results = run_variants(*sys.argv[1:4], sys.argv[4:], SEEDS, lambda s: ["--tick-order-seed", str(s)],
                                   "seed")
    for (tag, w), raw in results.items():
        stats = [strip(r) for r in raw]
        same = all(s == stats[0] for s in stats[1:])
        known = (tag, w) in KNOWN_ORDER_DEPENDENT
        if not same and not known:
            errors.append(f"{tag} {w}: statistics depend on the tick order (seeds {SEEDS})")
        if same and known:
            errors.append(f"{tag} {w}: now independent of the tick order: remove it from KNOWN_ORDER_DEPENDENT")
    print(f"{len(results)} workload runs compared across seeds {SEEDS}", flush=True)
    if errors:
        sys.exit("\n".join(errors))


if __name__ == "__main__":
    main()
