#!/usr/bin/env python3
"""Checks a study report's plots: every PNG decodes, every SVG parses, every value drawn
(the .data.json beside each plot, read back from the bars and lines) equals the report's
CSV, and every sweep of report.json has its sweep plots. usage: check_plots.py REPORT_DIR;
exits 1 naming the first difference."""
import csv
import glob
import json
import math
import os
import sys
import xml.etree.ElementTree as ET

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def sweep_variants(report, d, data_file):
    """The drawn sweep's variants in value order, from report.json: its only sweep (the
    variants with a sweep_value), or the one of its "sweeps" the plot names."""
    if "sweeps" not in report:
        return [v["name"] for v in report["variants"] if v.get("sweep_value")]
    s = next((s for s in report["sweeps"] if s["name"] == d.get("sweep")), None)
    if s is None or d.get("variants") != s["variants"]:
        raise SystemExit("%s: sweep %r with variants %r is not a sweep of report.json"
                         % (data_file, d.get("sweep"), d.get("variants")))
    return s["variants"]


def check_sweep(d, rows, aggs, report, data_file):
    """Each workload's line is its normalised metric over the sweep's variants, in value
    order; each aggregate line the class aggregate."""
    metric, size = d["metric"], d["size"]
    variants = sweep_variants(report, d, data_file)
    if len(d["x"]) != len(variants):
        raise SystemExit("%s: %d x values for %d variants" % (data_file, len(d["x"]), len(variants)))
    n = 0
    for name, ys in d["series"].items():
        if "(" in name:
            agg, cls = name[:-1].split("(")
            want = [next((float(a["value"]) for a in aggs if a["size"] == size and a["metric"] == metric
                          and a["class"] == cls and a["variant"] == v), float("nan")) for v in variants]
        else:
            want = [next((float(r[metric + "_norm"]) for r in rows if r["size"] == size and r["workload"] == name
                          and r["variant"] == v and r[metric + "_norm"] != ""), float("nan")) for v in variants]
        if len(want) != len(ys) or not all(close(a, b) or (math.isnan(a) and math.isnan(b)) for a, b in zip(ys, want)):
            raise SystemExit("%s: line %s is %r, the CSV says %r" % (data_file, name, ys, want))
        n += len(ys)
    return n


def main(report_dir):
    rows = list(csv.DictReader(open(os.path.join(report_dir, "report.csv"))))
    aggs = list(csv.DictReader(open(os.path.join(report_dir, "aggregates.csv"))))
    report = json.load(open(os.path.join(report_dir, "report.json")))
    plots = glob.glob(os.path.join(report_dir, "plots", "*.data.json"))
    if not plots:
        print("no plots in", report_dir)
        return 1
    checked = 0
    drawn_sweeps = set()
    for data_file in plots:
        base = data_file[: -len(".data.json")]
        img = mpimg.imread(base + ".png")
        if img.shape[0] < 100 or img.shape[1] < 100:
            print("PNG too small:", base + ".png", img.shape)
            return 1
        root = ET.parse(base + ".svg").getroot()
        if not root.tag.endswith("svg"):
            print("not an SVG:", base + ".svg")
            return 1
        d = json.load(open(data_file))
        if d["kind"] == "sweep":
            checked += check_sweep(d, rows, aggs, report, data_file)
            drawn_sweeps.add((d["metric"], d["size"], d.get("sweep")))
            continue
        if d["kind"] != "bars":
            continue
        metric, size = d["metric"], d["size"]
        expected = {}
        for r in rows:
            if r["size"] == size and r[metric + "_norm"] != "":
                expected[(r["variant"], r["workload"])] = float(r[metric + "_norm"])
        for a in aggs:
            if a["size"] == size and a["metric"] == metric:
                label = {"geomean": "GM", "mean": "mean"}[a["aggregation"]] + "(" + a["class"] + ")"
                expected[(a["variant"], label)] = float(a["value"])
        drawn = {(v, label): h for v, series in d["series"].items() for label, h in series.items()}
        if set(drawn) != set(expected):
            print("%s: drawn bars %s differ from the CSV's %s" % (data_file, sorted(set(drawn) ^ set(expected)), ""))
            return 1
        for k, h in drawn.items():
            if not close(h, expected[k]):
                print("%s: bar %s is %r, the CSV says %r" % (data_file, k, h, expected[k]))
                return 1
            checked += 1
    # Every sweep plot of the study is drawn for every sweep and size.
    names = [s["name"] for s in report["sweeps"]] if "sweeps" in report else [None]
    want = {(p["metric"], size, n) for p in report["plots"] if p["kind"] == "sweep" for size in report["sizes"] for n in names}
    if want - drawn_sweeps:
        print("sweep plots not drawn (metric, size, sweep):", sorted(want - drawn_sweeps, key=str))
        return 1
    print("checked %d bars in %d plots" % (checked, len(plots)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
