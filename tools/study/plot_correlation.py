#!/usr/bin/env python3
"""Log-log scatter of gputlm cycles against reference cycles with the y = x line
(Accel-Sim's correlator style). usage: plot_correlation.py CORRELATION.json OUT_BASE
Writes OUT_BASE.png, OUT_BASE.svg and OUT_BASE.data.json (the plotted points, read back)."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Byte-identical plots run to run, so a regenerated committed report shows only real changes:
# a fixed SVG id salt and no creation date in the files.
matplotlib.rcParams["svg.hashsalt"] = "gputlm"
METADATA = {"svg": {"Date": None}, "png": {}}


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    j = json.load(open(argv[1]))
    pts = [(r["reference"]["cycles"], r["gputlm"].get("cycles"), r["workload"] + ("/" + r["kernel"] if r["kernel"] else ""))
           for r in j["rows"] if r["gputlm"].get("cycles")]
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    sc = ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=18)
    for x, y, name in pts:
        ax.annotate(name, (x, y), fontsize=6, xytext=(3, 3), textcoords="offset points")
    lo = min(min(p[0] for p in pts), min(p[1] for p in pts)) / 1.5
    hi = max(max(p[0] for p in pts), max(p[1] for p in pts)) * 1.5
    ax.plot([lo, hi], [lo, hi], color="black", linewidth=0.8, label="y = x")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("reference cycles")
    ax.set_ylabel("gputlm cycles")
    s = j.get("summary", {}).get("cycles")
    if s:
        ax.set_title("n %d, r %.3f, mean |err| %.1f%%, median %.1f%%" %
                     (s["n"], s["pearson_r"], 100 * s["mean_abs_error"], 100 * s["median_abs_error"]), fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(argv[2] + "." + ext, dpi=110, metadata=METADATA[ext])
    json.dump({"points": [[float(a), float(b)] for a, b in sc.get_offsets().tolist()]}, open(argv[2] + ".data.json", "w"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
