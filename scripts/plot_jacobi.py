#!/usr/bin/env python3
"""Tables and plots of jacobi2d runs (apps/jacobi2d, docs/jacobi2d.md) from their --csv files.

    plot_jacobi.py jacobi.csv [more.csv ...] --out results/

Writes DIR/table.md (also printed): the time per iteration of every variant by points per GPU
and GPU count, the weak-scaling efficiency, the breakdown, and the goals of the issue checked
against the measurements (gio faster than inter-k by >= 1.5x at 1K^2 per GPU, 1.35x at 2K^2,
1.15x at 4K^2; gio no slower than nvshmem; efficiency >= 95% from 1 GPU to each GPU count at 4K^2). With
matplotlib, also the GIO paper's figures:
  DIR/weak_scaling.png  Fig. 6: time per iteration against GPUs, one panel per size per GPU
  DIR/breakdown.png     Fig. 7: compute / communication / overhead per variant, normalised to
                        Inter-K's total, at the most GPUs measured
  DIR/sizes.png         Fig. 8: time per iteration of each variant by size per GPU, at the most
                        GPUs measured, relative to Inter-K
Rows are jacobi2d's CSV rows; of repeated configurations the last row counts. Runs with more PEs
than GPUs (e.g. 4 PEs on 2 GPUs) are shown as their own series ("... 2 PEs/GPU").
"""
import argparse
import csv
import os
import sys
from collections import OrderedDict

VARIANT_ORDER = ["gio", "gio (p)", "gio (early)", "nvshmem", "nvshmem (p)", "inter-k-overlap", "inter-k", "cpu"]
PARTS = ["all", "no-comm", "no-compute", "none"]
# (points per GPU, minimum speedup of gio over inter-k at the most GPUs measured)
SPEEDUP_GOALS = [(1024 * 1024, 1.5), (2048 * 2048, 1.35), (4096 * 4096, 1.15)]
EFFICIENCY_GOAL = (4096 * 4096, 0.95)


def size_label(points):
    side = int(round(points ** 0.5))
    if side * side == points and side % 1024 == 0:
        return "%dK^2" % (side // 1024)
    return "%d pts" % points


def series_name(row):
    name = row["variant"]
    if row["halo"] in ("p", "early"):
        name += " (%s)" % row["halo"]
    pes, devices = int(row["pes"]), int(row["devices"])
    if row["variant"] != "cpu" and pes > devices:
        name += " %d PEs/GPU" % (pes // devices)
    return name


def series_key(name):
    base = name.split(" ")[0] + next((" " + h for h in ("(p)", "(early)") if h in name), "")
    order = VARIANT_ORDER.index(base) if base in VARIANT_ORDER else len(VARIANT_ORDER)
    return (order, name)


def load(paths):
    """{(series, points per device, devices, parts): row}, the last row of each configuration."""
    rows = OrderedDict()
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                key = (series_name(row), int(row["points_per_device"]), int(row["devices"]), row["parts"])
                rows[key] = row
    return rows


def us(rows, series, points, devices, parts="all"):
    row = rows.get((series, points, devices, parts))
    return float(row["us_per_iteration"]) if row else None


def dimensions(rows):
    series = sorted({k[0] for k in rows}, key=series_key)
    sizes = sorted({k[1] for k in rows})
    devices = sorted({k[2] for k in rows})
    return series, sizes, devices


def breakdown(rows, series, points, devices):
    """compute, comm, overhead, hidden, total from the four runs of --breakdown, or None."""
    t = [us(rows, series, points, devices, p) for p in PARTS]
    if None in t:
        return None
    total, no_comm, no_compute, neither = t
    compute, comm = no_comm - neither, no_compute - neither
    return {"compute": compute, "comm": comm, "overhead": neither, "hidden": compute + comm + neither - total,
            "total": total}


def fmt(value, digits=2):
    return "-" if value is None else "%.*f" % (digits, value)


def table(rows):
    series, sizes, devices = dimensions(rows)
    most = max(devices)
    lines = ["# jacobi2d", ""]
    lines += ["## Goals (at %d GPU%s)" % (most, "s" if most > 1 else ""), "",
              "| goal | measured | met |", "|---|---|---|"]
    for points, goal in SPEEDUP_GOALS:
        gio, interk = us(rows, "gio", points, most), us(rows, "inter-k", points, most)
        ratio = interk / gio if gio and interk else None
        lines.append("| gio >= %.2fx faster than inter-k at %s per GPU | %s | %s |" % (
            goal, size_label(points), fmt(ratio) + "x" if ratio else "-", "-" if ratio is None else
            ("yes" if ratio >= goal else "no")))
    for points in sizes:
        gio, nvshmem = us(rows, "gio", points, most), us(rows, "nvshmem", points, most)
        if gio and nvshmem:
            lines.append("| gio no slower than nvshmem at %s per GPU | %s vs %s us | %s |" % (
                size_label(points), fmt(gio), fmt(nvshmem), "yes" if gio <= nvshmem else "no"))
    points, goal = EFFICIENCY_GOAL
    for d in [d for d in devices if d > 1] or [2]:
        one, many = us(rows, "gio", points, 1), us(rows, "gio", points, d)
        efficiency = one / many if one and many else None
        lines.append("| gio weak-scaling efficiency 1 -> %d GPUs >= %.0f%% at %s per GPU | %s | %s |" % (
            d, 100 * goal, size_label(points), fmt(100 * efficiency, 1) + "%" if efficiency else "-",
            "-" if efficiency is None else ("yes" if efficiency >= goal else "no")))

    lines += ["", "## Time per iteration (us; weak-scaling efficiency against 1 GPU)", ""]
    header = "| variant | " + " | ".join("%s, %d GPU%s" % (size_label(p), d, "s" if d > 1 else "")
                                         for p in sizes for d in devices) + " |"
    lines += [header, "|---|" + "---|" * (len(sizes) * len(devices))]
    for s in series:
        cells = []
        for p in sizes:
            base = us(rows, s.split(" ")[0] + (" (p)" if "(p)" in s else ""), p, 1)
            for d in devices:
                t = us(rows, s, p, d)
                cell = fmt(t)
                if t and base and d > 1:
                    cell += " (%.0f%%)" % (100 * base / t)
                cells.append(cell)
        lines.append("| %s | %s |" % (s, " | ".join(cells)))

    lines += ["", "## Breakdown at %d GPU%s (us per iteration; --breakdown)" % (most, "s" if most > 1 else ""), "",
              "| variant | size per GPU | compute | communication | overhead | hidden by overlap | total |",
              "|---|---|---|---|---|---|---|"]
    for s in series:
        for p in sizes:
            b = breakdown(rows, s, p, most)
            if b:
                lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                    s, size_label(p), fmt(b["compute"]), fmt(b["comm"]), fmt(b["overhead"]), fmt(b["hidden"]),
                    fmt(b["total"])))
    return "\n".join(lines) + "\n"


def plot(rows, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_jacobi.py: matplotlib not found: table only", file=sys.stderr)
        return []
    series, sizes, devices = dimensions(rows)
    most = max(devices)
    written = []

    # Fig. 6: weak scaling.
    fig, axes = plt.subplots(1, len(sizes), figsize=(4.5 * len(sizes), 3.8), squeeze=False)
    for ax, p in zip(axes[0], sizes):
        for s in series:
            points = [(d, us(rows, s, p, d)) for d in devices if us(rows, s, p, d) is not None]
            if points:
                ax.plot([d for d, _ in points], [t for _, t in points], marker="o", label=s)
        ax.set_title("%s points per GPU" % size_label(p))
        ax.set_xlabel("GPUs")
        ax.set_xticks(devices)
        ax.set_ylabel("us per iteration (log scale)")
        ax.set_yscale("log")  # the time-sliced 2-PEs-per-GPU and CPU rows are 10-100x the others
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(out, "weak_scaling.png")
    fig.savefig(path, dpi=120)
    written.append(path)
    plt.close(fig)

    # Fig. 7: breakdown, normalised to Inter-K's total at each size.
    with_breakdown = [(s, p) for p in sizes for s in series if breakdown(rows, s, p, most)]
    if with_breakdown:
        fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(with_breakdown)), 4))
        labels, bottoms = [], []
        parts = [("compute", "tab:blue"), ("comm", "tab:orange"), ("overhead", "tab:gray")]
        for i, (s, p) in enumerate(with_breakdown):
            b = breakdown(rows, s, p, most)
            reference = breakdown(rows, "inter-k", p, most)
            scale = reference["total"] if reference else b["total"]
            bottom = 0.0
            for name, color in parts:
                height = max(b[name], 0.0) / scale
                ax.bar(i, height, bottom=bottom, color=color, label=name if i == 0 else None)
                bottom += height
            ax.plot(i, b["total"] / scale, "k_", markersize=18, label="total" if i == 0 else None)
            labels.append("%s\n%s" % (s, size_label(p)))
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("time relative to Inter-K's total")
        ax.set_title("Breakdown at %d GPU%s (bars: parts; mark: measured total)" % (most, "s" if most > 1 else ""))
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = os.path.join(out, "breakdown.png")
        fig.savefig(path, dpi=120)
        written.append(path)
        plt.close(fig)

    # Fig. 8: sizes, relative to Inter-K (lower is faster).
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / max(1, len(series))
    for j, s in enumerate(series):
        xs, ys = [], []
        for i, p in enumerate(sizes):
            t, reference = us(rows, s, p, most), us(rows, "inter-k", p, most)
            if t and reference:
                xs.append(i + (j - (len(series) - 1) / 2) * width)
                ys.append(t / reference)
        if xs:
            ax.bar(xs, ys, width=width, label=s)
    ax.axhline(1.0, color="k", linewidth=0.8)
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels(["%s per GPU" % size_label(p) for p in sizes])
    ax.set_ylabel("time per iteration / Inter-K's")
    ax.set_title("Variants by size at %d GPU%s" % (most, "s" if most > 1 else ""))
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(out, "sizes.png")
    fig.savefig(path, dpi=120)
    written.append(path)
    plt.close(fig)
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", help="jacobi2d --csv files")
    parser.add_argument("--out", default=".", help="folder for table.md and the plots (default: .)")
    args = parser.parse_args()
    rows = load(args.csv)
    if not rows:
        sys.exit("plot_jacobi.py: no rows in " + ", ".join(args.csv))
    os.makedirs(args.out, exist_ok=True)
    text = table(rows)
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(text)
    print(text)
    for path in plot(rows, args.out):
        print("wrote " + path)


if __name__ == "__main__":
    main()
