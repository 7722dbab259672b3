#!/usr/bin/env python3
"""Tables and plots of spts runs (apps/spts, docs/spts.md), in the style of the GIO paper's Fig. 10-11.

    plot_spts.py spts.csv [more.csv ...] --out DIR [--push packed]

Reads the CSV rows `spts --csv` appends (one per variant and run; a later row for the same matrix,
variant, push mode and PE count replaces an earlier one) and writes:
  DIR/spts_table.md    per matrix: rows, nnz, levels, and the median solve time of every variant
                       and PE count, with gio's speedup over single and vendor (also printed)
  DIR/spts_time.png    Fig. 10: one panel per matrix, gio's solve time against the number of PEs
                       (a line per push mode), single and vendor as horizontal lines
  DIR/spts_speedup.png Fig. 11: gio's speedup over single (and over vendor) per matrix, a bar per
                       PE count, for the push mode given by --push
Plots need matplotlib; without it only the table is written.
"""
import argparse
import csv
import os
import sys
from collections import OrderedDict

KEY = ("matrix", "variant", "push", "pes")
MATRIX_ORDER = ["wiki_talk", "asic_320ks", "nlpkkt160", "road_usa", "road_central"]  # Table 1's order


def read_rows(paths):
    rows = OrderedDict()
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                missing = [k for k in KEY + ("median_ms",) if k not in row]
                if missing:
                    sys.exit(f"plot_spts: {path} is not an spts CSV (no column {missing[0]})")
                row["pes"] = int(row["pes"])
                row["median_ms"] = float(row["median_ms"])
                rows[tuple(row[k] for k in KEY)] = row
    return list(rows.values())


def matrix_order(name):
    base = name.split(":")[0]
    return (MATRIX_ORDER.index(base) if base in MATRIX_ORDER else len(MATRIX_ORDER), name)


def by_matrix(rows):
    matrices = OrderedDict()
    for row in sorted(rows, key=lambda r: matrix_order(r["matrix"])):
        matrices.setdefault(row["matrix"], []).append(row)
    return matrices


def baseline(rows, variant):
    """The baseline's median time (single and vendor run on one GPU, whatever the job's PE count)."""
    times = [r["median_ms"] for r in rows if r["variant"] == variant]
    return min(times) if times else None


def table(matrices):
    lines = []
    for matrix, rows in matrices.items():
        first = rows[0]
        lines.append(f"### {matrix}: {int(first['rows']):,} rows, {int(first['nnz']):,} nnz(L), "
                     f"{int(first['levels']):,} levels, parallelism {float(first['parallelism']):,.1f}\n")
        lines.append("| variant | push | PEs | GPUs | median ms | GFLOP/s | vs single | vs vendor |")
        lines.append("|---|---|---:|---:|---:|---:|---:|---:|")
        single, vendor = baseline(rows, "single"), baseline(rows, "vendor")
        order = {"cpu": 0, "vendor": 1, "single": 2, "gio": 3}
        for r in sorted(rows, key=lambda r: (order.get(r["variant"], 9), r["push"], r["pes"])):
            t = r["median_ms"]
            vs_single = f"{single / t:.2f}x" if single and r["variant"] != "single" else ""
            vs_vendor = f"{vendor / t:.2f}x" if vendor and r["variant"] != "vendor" else ""
            lines.append(f"| {r['variant']} | {r['push']} | {r['pes']} | {r['gpus']} | {t:.4f} | "
                         f"{float(r['gflops']):.2f} | {vs_single} | {vs_vendor} |")
        lines.append("")
    return "\n".join(lines)


def plot(matrices, out, push):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_spts: matplotlib not found; only the table was written", file=sys.stderr)
        return
    names = list(matrices)
    columns = min(len(names), 3)
    panels = (len(names) + columns - 1) // columns
    fig, axes = plt.subplots(panels, columns, figsize=(4.2 * columns, 3.4 * panels), squeeze=False)
    for ax, matrix in zip(axes.flat, names):
        rows = matrices[matrix]
        for mode in sorted({r["push"] for r in rows if r["variant"] == "gio"}):
            points = sorted((r["pes"], r["median_ms"]) for r in rows if r["variant"] == "gio" and r["push"] == mode)
            ax.plot([p for p, _ in points], [t for _, t in points], marker="o", label=f"gio ({mode})")
        for variant, style in (("single", "--"), ("vendor", ":")):
            t = baseline(rows, variant)
            if t:
                ax.axhline(t, linestyle=style, color="gray" if variant == "single" else "black", label=variant)
        pes = sorted({r["pes"] for r in rows if r["variant"] == "gio"})
        if pes:
            ax.set_xticks(pes)
        ax.set_title(matrix)
        ax.set_xlabel("PEs")
        ax.set_ylabel("solve time (ms)")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(names):]:
        ax.set_visible(False)
    fig.suptitle("SpTS solve time (cf. GIO paper Fig. 10)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "spts_time.png"), dpi=150)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(12, 4), squeeze=False)
    pes_counts = sorted({r["pes"] for rows in matrices.values() for r in rows
                         if r["variant"] == "gio" and r["push"] == push})
    width = 0.8 / max(len(pes_counts), 1)
    for ax, reference in zip(axes.flat, ("single", "vendor")):
        for i, pes in enumerate(pes_counts):
            speedups = []
            for matrix in names:
                rows = matrices[matrix]
                base = baseline(rows, reference)
                gio = [r["median_ms"] for r in rows if r["variant"] == "gio" and r["push"] == push and r["pes"] == pes]
                speedups.append(base / gio[0] if base and gio else 0.0)
            ax.bar([x + i * width for x in range(len(names))], speedups, width, label=f"{pes} PE{'s' if pes > 1 else ''}")
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks([x + width * (len(pes_counts) - 1) / 2 for x in range(len(names))])
        ax.set_xticklabels(names, rotation=20, fontsize=8)
        ax.set_ylabel(f"speedup over {reference}")
        ax.set_title(f"gio ({push}) over {reference} (cf. GIO paper Fig. 11)")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "spts_speedup.png"), dpi=150)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", help="CSV files written by spts --csv")
    parser.add_argument("--out", required=True, help="folder for spts_table.md and the plots")
    parser.add_argument("--push", default="packed", help="push mode of the speedup plot (default packed)")
    args = parser.parse_args()
    rows = read_rows(args.csv)
    if not rows:
        sys.exit("plot_spts: the CSV files hold no rows")
    os.makedirs(args.out, exist_ok=True)
    matrices = by_matrix(rows)
    text = table(matrices)
    print(text)
    with open(os.path.join(args.out, "spts_table.md"), "w") as f:
        f.write(text + "\n")
    plot(matrices, args.out, args.push)


if __name__ == "__main__":
    main()
