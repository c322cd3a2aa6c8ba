#!/usr/bin/env python3
"""Every small workload gives the same statistics whatever the number of host threads ticking
the SMs of a clock edge (`gputlm run --threads N`, issue 20 point 2): the groups of an edge
tick concurrently and their effects on the rest of the GPU (wake-ups, routing, CTA
completions, global memory) are applied at the edge's end in SM order. The whole statistics
JSON is compared but its `host` parts and the `threads` key of the echoed config.

usage: thread_count_independence.py GPUTLM WORKLOADS_DIR TMP_DIR CONFIG..."""
import sys

from suite_variants import run_variants, strip

THREADS = (1, 2, 4)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    errors, results = run_variants(*sys.argv[1:4], sys.argv[4:], THREADS, lambda n: ["--threads", str(n)],
                                   "--threads")
    parallel = 0
    for (tag, w), raw in results.items():
        stats = [strip(r, ("threads",)) for r in raw]
        if not all(s == stats[0] for s in stats[1:]):
            errors.append(f"{tag} {w}: statistics depend on the thread count {THREADS}")
        parallel += sum(r.get("host", {}).get("parallel_edges", 0) > 0 for r in raw[1:])
    print(f"{len(results)} workload runs compared across --threads {THREADS}; "
          f"{parallel} multi-threaded runs ticked edges in parallel", flush=True)
    if results and parallel == 0:
        errors.append("no multi-threaded run ticked an edge in parallel: the test compares nothing")
    if errors:
        sys.exit("\n".join(errors))


if __name__ == "__main__":
    main()
