#!/usr/bin/env python3
"""Checks a study report's plots: every PNG decodes, every SVG parses, and every value
drawn (the .data.json beside each plot, read back from the bars and lines) equals the
report's CSV. usage: check_plots.py REPORT_DIR; exits 1 naming the first difference."""
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


def check_sweep(d, rows, aggs, data_file):
    """Each workload's line is its normalised metric over the swept variants, in order;
    each aggregate line the class aggregate."""
    metric, size = d["metric"], d["size"]
    variants = []
    for r in rows:
        if r["variant"] not in variants:
            variants.append(r["variant"])
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
    plots = glob.glob(os.path.join(report_dir, "plots", "*.data.json"))
    if not plots:
        print("no plots in", report_dir)
        return 1
    checked = 0
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
            checked += check_sweep(d, rows, aggs, data_file)
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
    print("checked %d bars in %d plots" % (checked, len(plots)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
