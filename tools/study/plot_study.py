#!/usr/bin/env python3
"""Plots of a gputlm study report (`gputlm study report` runs this).

usage: plot_study.py REPORT.json OUT_DIR

For each plot of the study and each size it writes OUT_DIR/<kind>_<metric>_<size>.png and
.svg, and <kind>_<metric>_<size>.data.json: the values read back from the drawn bars and
lines, so a test can check that the picture shows the report's numbers.
  bars:  the metric normalised to the baseline, one group of bars per workload (one bar
         per variant) and one group per aggregate (geomean or mean per class and overall),
         in the style of the seeds' normalised-IPC figures.
  sweep: the aggregate normalised metric against the swept parameter, one line per class,
         thin lines per workload; one figure per sweep (sweep<k>_... when there are several).
Runs whose statistics carry a "time_series" (gputlm run --sample-every N) also get
OUT_DIR/timeseries/<workload>_<size>_<variant>.png: IPC, hit rates, DRAM traffic and
stall classes over time (AerialVision's most-used views).
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Byte-identical plots run to run, so a regenerated committed report shows only real changes:
# a fixed SVG id salt and no creation date in the files.
matplotlib.rcParams["svg.hashsalt"] = "gputlm"
METADATA = {"svg": {"Date": None}, "png": {}}


def save(fig, out_dir, base, data):
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out_dir, base + "." + ext), dpi=110, metadata=METADATA[ext])
    plt.close(fig)
    with open(os.path.join(out_dir, base + ".data.json"), "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)


def bars(report, metric, size, out_dir):
    rows = [r for r in report["rows"] if r["size"] == size]
    variants = [v["name"] for v in report["variants"]]
    workloads = []
    for r in rows:
        if r["workload"] not in workloads:
            workloads.append(r["workload"])
    agg_label = {"geomean": "GM", "mean": "mean"}[report["aggregate"]]
    groups = workloads + ["%s(%s)" % (agg_label, c) for c in report["classes"]]
    value = {}
    for r in rows:
        if metric in r["norm"]:
            value[(r["workload"], r["variant"])] = r["norm"][metric]
    for a in report["aggregates"]:
        if a["size"] == size and a["metric"] == metric:
            value[("%s(%s)" % (agg_label, a["class"]), a["variant"])] = a["value"]
    fig, ax = plt.subplots(figsize=(min(16.0, max(6.0, 0.55 * len(groups) + 2)), 4.2))
    width = 0.8 / max(1, len(variants))
    drawn = {}
    for i, v in enumerate(variants):
        xs, hs, labels = [], [], []
        for g, name in enumerate(groups):
            if (name, v) in value:
                xs.append(g - 0.4 + width * (i + 0.5))
                hs.append(value[(name, v)])
                labels.append(name)
        container = ax.bar(xs, hs, width, label=v)
        drawn[v] = {lab: float(p.get_height()) for lab, p in zip(labels, container.patches)}
    ax.axhline(1.0, color="black", linewidth=0.6)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("%s normalised to %s" % (metric, report["baseline"]))
    ax.set_title("%s: %s (%s inputs)" % (report["study"], metric, size))
    ax.legend(fontsize=7, ncol=min(4, len(variants)))
    base = "bars_%s_%s" % (metric, size)
    save(fig, out_dir, base, {"kind": "bars", "metric": metric, "size": size, "series": drawn})


def sweeps(report):
    """(parameter, [(value, variant)], name or None) per sweep: report.json has one "sweep"
    (its variants carry "sweep_value") or, for several, a "sweeps" list."""
    if "sweeps" in report:
        return [(s["parameter"], list(zip(s["values"], s["variants"])), s["name"]) for s in report["sweeps"]]
    points = [(v["sweep_value"], v["name"]) for v in report["variants"] if v.get("sweep_value")]
    return [(report.get("sweep", {}).get("parameter", "variant"), points, None)]


def sweep(report, metric, size, out_dir):
    """One figure per sweep: sweep_<metric>_<size> for a study's only sweep, else
    sweep<k>_<metric>_<size> for its k-th (from 1)."""
    all_sweeps = sweeps(report)
    for k, (parameter, points, name) in enumerate(all_sweeps):
        base = "sweep_%s_%s" % (metric, size) if len(all_sweeps) == 1 else "sweep%d_%s_%s" % (k + 1, metric, size)
        sweep_figure(report, metric, size, out_dir, parameter, points, name, base)


def sweep_figure(report, metric, size, out_dir, parameter, points, sweep_name, base):
    try:
        xs = [float(p[0]) for p in points]
    except ValueError:
        xs = list(range(len(points)))
    fig, ax = plt.subplots(figsize=(6, 3.8))
    drawn = {}
    for w in sorted({r["workload"] for r in report["rows"] if r["size"] == size}):
        ys = []
        for _, name in points:
            m = [r["norm"].get(metric) for r in report["rows"]
                 if r["size"] == size and r["workload"] == w and r["variant"] == name]
            ys.append(m[0] if m and m[0] is not None else float("nan"))
        line, = ax.plot(xs, ys, color="0.75", linewidth=0.8)
        drawn[w] = [float(y) for y in line.get_ydata()]
    for c in report["classes"]:
        ys = []
        for _, name in points:
            a = [x["value"] for x in report["aggregates"]
                 if x["size"] == size and x["metric"] == metric and x["class"] == c and x["variant"] == name]
            ys.append(a[0] if a else float("nan"))
        line, = ax.plot(xs, ys, marker="o", linewidth=2 if c == "all" else 1.2, label="%s (%s)" % (report["aggregate"], c))
        drawn["%s(%s)" % (report["aggregate"], c)] = [float(y) for y in line.get_ydata()]
    ax.set_xlabel(parameter)
    ax.set_ylabel("%s normalised to %s" % (metric, report["baseline"]))
    ax.set_title("%s: %s sweep%s (%s inputs)" % (report["study"], metric, " " + sweep_name if sweep_name else "", size))
    ax.legend(fontsize=7)
    data = {"kind": "sweep", "metric": metric, "size": size, "x": xs, "series": drawn}
    if sweep_name:  # several sweeps: which one, and its variants in x order
        data["sweep"] = sweep_name
        data["variants"] = [p[1] for p in points]
    save(fig, out_dir, base, data)


def timeseries(row, out_dir):
    try:
        with open(row["stats"]) as f:
            ts = json.load(f).get("time_series")
    except (OSError, ValueError):
        return
    if not ts or not ts.get("cycle"):
        return
    cyc, series = ts["cycle"], ts["series"]
    panels = [
        ("IPC", [k for k in series if k == "ipc" or k.startswith("ipc.")]),
        ("hit rate", [k for k in series if k.endswith("hit_rate")]),
        ("DRAM bytes/cycle", [k for k in series if k.startswith("dram")]),
        ("stalls", [k for k in series if k.startswith("stall.")]),
    ]
    panels = [p for p in panels if p[1]]
    if not panels:
        return
    fig, axes = plt.subplots(len(panels), 1, figsize=(7, 2.0 * len(panels)), sharex=True, squeeze=False)
    for ax, (title, keys) in zip(axes[:, 0], panels):
        if title == "stalls":
            ax.stackplot(cyc, [series[k] for k in keys], labels=[k[6:] for k in keys])
        else:
            for k in keys:
                ax.plot(cyc, series[k], label=k, linewidth=0.9)
        ax.set_ylabel(title, fontsize=8)
        ax.legend(fontsize=6, ncol=4, loc="upper right")
    axes[-1, 0].set_xlabel("core cycle")
    fig.suptitle("%s %s %s" % (row["workload"], row["size"], row["variant"]), fontsize=9)
    os.makedirs(os.path.join(out_dir, "timeseries"), exist_ok=True)
    base = os.path.join("timeseries", "%s_%s_%s" % (row["workload"], row["size"], row["variant"]))
    save(fig, out_dir, base, {"kind": "timeseries", "cycle": cyc, "series": {k: series[k] for p in panels for k in p[1]}})


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1]) as f:
        report = json.load(f)
    out_dir = argv[2]
    os.makedirs(out_dir, exist_ok=True)
    for size in report["sizes"]:
        for p in report["plots"]:
            (bars if p["kind"] == "bars" else sweep)(report, p["metric"], size, out_dir)
    for row in report["rows"]:
        if row.get("time_series") and row.get("stats"):
            timeseries(row, out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
