#!/usr/bin/env python3
"""Tables and plots of worksteal runs (apps/worksteal, docs/worksteal.md), in the style of the MGWS
thesis's Fig. 17-21.

    plot_worksteal.py worksteal.csv [more.csv ...] --out DIR

Reads the rows `worksteal --csv` appends (a later row for the same workload, input, variant, PE
count, worker count and termination replaces an earlier one) and writes:
  DIR/worksteal_table.md     every row: median time and rate, steals, each PE's share (also printed)
  DIR/worksteal_rates.png    one panel per workload input: rate per variant, a bar per GPU count
  DIR/worksteal_workers.png  rate against workers per PE (contains: ws and static), a line per
                             variant and GPU count
Plots need matplotlib; without it only the table is written.
"""
import argparse
import csv
import os
import sys
from collections import OrderedDict

KEY = ("workload", "input", "variant", "participants", "workers_per_pe", "termination")


def read_rows(paths):
    rows = OrderedDict()
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if any(k not in row for k in KEY + ("rate_per_s",)):
                    sys.exit(f"plot_worksteal: {path} is not a worksteal CSV")
                rows[tuple(row[k] for k in KEY)] = row
    return list(rows.values())


def table(rows):
    lines = ["| workload | input | variant | GPUs | workers/PE | termination | median ms | rate /s | steals won (gpu/node) | PE shares |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| {workload} | {input} | {variant} | {participants} | {workers_per_pe} | {termination} | {ms:.3f} | {rate:.3g} | "
                     "{sg}/{sn} | {pe_shares} |".format(ms=float(r["median_s"]) * 1e3, rate=float(r["rate_per_s"]),
                                                       sg=r["steals_succeeded_gpu"], sn=r["steals_succeeded_node"], **r))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rows = read_rows(a.csv)
    os.makedirs(a.out, exist_ok=True)
    text = table(rows)
    with open(os.path.join(a.out, "worksteal_table.md"), "w") as f:
        f.write(text)
    print(text)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_worksteal: no matplotlib, table only")
        return
    # Rates at the default worker count (the most workers seen per input) and counter termination.
    full = {}
    for r in rows:
        k = (r["workload"], r["input"])
        full[k] = max(full.get(k, 0), int(r["workers_per_pe"]) if r["variant"] != "cpu" else 0)
    inputs = list(full)
    fig, axes = plt.subplots(1, len(inputs), figsize=(4 * len(inputs), 3.6), squeeze=False)
    for ax, k in zip(axes[0], inputs):
        sel = [r for r in rows if (r["workload"], r["input"]) == k and r["termination"] == "counter" and r["variant"] != "cpu"
               and int(r["workers_per_pe"]) == full[k]]
        variants = sorted({r["variant"] for r in sel})
        gpus = sorted({int(r["participants"]) for r in sel})
        width = 0.8 / max(1, len(gpus))
        for j, g in enumerate(gpus):
            ys = [next((float(r["rate_per_s"]) for r in sel if r["variant"] == v and int(r["participants"]) == g), 0) for v in variants]
            ax.bar([i + j * width for i in range(len(variants))], ys, width, label=f"{g} GPU" + ("s" if g > 1 else ""))
        ax.set_xticks([i + width * (len(gpus) - 1) / 2 for i in range(len(variants))])
        ax.set_xticklabels(variants, rotation=30)
        ax.set_title(f"{k[0]} {k[1]}")
        ax.set_ylabel("items / s")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "worksteal_rates.png"), dpi=120)
    sweep = [r for r in rows if r["workload"] == "contains" and r["variant"] in ("ws", "static")]
    if sweep:
        fig, ax = plt.subplots(figsize=(5.5, 3.8))
        for (v, g) in sorted({(r["variant"], int(r["participants"])) for r in sweep}):
            pts = sorted((int(r["workers_per_pe"]), float(r["rate_per_s"])) for r in sweep
                         if r["variant"] == v and int(r["participants"]) == g)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=f"{v}, {g} GPU" + ("s" if g > 1 else ""))
        ax.set_xlabel("workers per PE")
        ax.set_ylabel("documents / s")
        ax.set_title("contains: rate against workers")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(a.out, "worksteal_workers.png"), dpi=120)


if __name__ == "__main__":
    main()
