#!/usr/bin/env python3
"""Merge the CSVs of one benchmark run (gio-bench, gio-bench-nvshmem) into a markdown table and plots.

    plot_bench.py gio.csv nvshmem.csv --out results/

Prints the table and writes it to DIR/table.md, plus DIR/latency.png (ping-pong latency against
message size, one line per system and scope), DIR/multi_wg.png (the GIO paper's Fig. 5b sweep)
and DIR/bandwidth.png. Rows are `system,benchmark,scope,size_bytes,workgroups,threads,value,unit`
as the benchmarks print them. Plots need matplotlib; without it only the table is written.
"""
import argparse
import csv
import os
import sys
from collections import OrderedDict

FIELDS = ["system", "benchmark", "scope", "size_bytes", "workgroups", "threads", "value", "unit"]
GPU_SYSTEMS = ["gio", "nvshmem"]
# Host-MPI baselines, measured once (scope "host") and shown beside every scope of their benchmark.
BASELINES = ["inter-k", "inter-k-empty"]
LOWER_IS_BETTER = {"us", "ms", "MiB"}
SCOPE_ORDER = {"thread": 0, "wave": 1, "wg": 2, "host": 3}
BENCHMARK_ORDER = ["init_time", "init_time_reported", "gpu_memory", "gpu_memory_reported", "pingpong_p",
                   "pingpong_put", "pingpong_multi_wg", "put_bw_uni", "put_bw_bi"]


def group_order(group):
    benchmark, scope = group
    known = BENCHMARK_ORDER.index(benchmark) if benchmark in BENCHMARK_ORDER else len(BENCHMARK_ORDER)
    return (known, benchmark, SCOPE_ORDER.get(scope, 9))


def read_rows(paths):
    """Rows keyed by everything but the value; a later file wins over an earlier one."""
    rows = OrderedDict()
    for path in paths:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames != FIELDS:
                sys.exit(f"{path}: expected the header {','.join(FIELDS)}, got {reader.fieldnames}")
            for r in reader:
                row = dict(r)
                for key in ("size_bytes", "workgroups", "threads"):
                    row[key] = int(row[key])
                row["value"] = float(row["value"])
                key = tuple(row[k] for k in FIELDS if k != "value")
                rows[key] = row
    return list(rows.values())


def human_size(n):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def fmt(value):
    if value is None:
        return "–"
    return f"{value:.3f}" if value < 100 else f"{value:.1f}"


def ratio(rows_by_system, unit):
    gio, nvshmem = rows_by_system.get("gio"), rows_by_system.get("nvshmem")
    if gio is None or nvshmem is None or nvshmem == 0:
        return "–"
    better = "lower" if unit in LOWER_IS_BETTER else "higher"
    return f"{gio / nvshmem:.2f}x" + (" ✓" if (gio <= nvshmem) == (better == "lower") else "")


def row_label(benchmark, row):
    if benchmark.startswith("put_bw"):
        return f"{row['workgroups']}x{row['threads']}"
    if benchmark == "pingpong_multi_wg":
        return f"{human_size(row['size_bytes'])}, {row['workgroups']} wg"
    if benchmark in ("init_time", "gpu_memory") or benchmark.endswith("_reported"):
        return f"heap {human_size(row['size_bytes'])}" if row["size_bytes"] else "heap ?"
    return human_size(row["size_bytes"])


def sort_key(benchmark, row):
    if benchmark == "pingpong_multi_wg":
        return (row["size_bytes"], row["workgroups"], row["threads"])
    return (row["workgroups"] if benchmark.startswith("put_bw") else 0, row["threads"], row["size_bytes"])


def markdown_tables(rows):
    """One table per (benchmark, scope): a line per configuration, a column per system."""
    groups = OrderedDict()
    for r in rows:
        if r["system"] in BASELINES:
            continue
        groups.setdefault((r["benchmark"], r["scope"]), []).append(r)
    baselines = {}
    for r in rows:
        if r["system"] in BASELINES:
            baselines[(r["system"], r["benchmark"], r["size_bytes"])] = r["value"]
    # Baselines of a benchmark no GPU system ran get a table of their own.
    for r in rows:
        if r["system"] in BASELINES and not any(b == r["benchmark"] for b, _ in groups):
            groups.setdefault((r["benchmark"], r["scope"]), []).append(r)

    out = []
    for (benchmark, scope), members in sorted(groups.items(), key=lambda g: group_order(g[0])):
        unit = members[0]["unit"]
        systems = [s for s in GPU_SYSTEMS + BASELINES if any(m["system"] == s for m in members)]
        shown_baselines = [b for b in BASELINES if b not in systems and any(k[0] == b and k[1] == benchmark for k in baselines)]
        better = "lower" if unit in LOWER_IS_BETTER else "higher"
        out.append(f"### {benchmark} — scope {scope} ({unit}, {better} is better)\n")
        header = ["configuration"] + systems + (["gio/nvshmem"] if {"gio", "nvshmem"} <= set(systems) else []) + shown_baselines
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(header))
        configs = OrderedDict()
        for m in sorted(members, key=lambda m: sort_key(benchmark, m)):
            configs.setdefault((m["size_bytes"], m["workgroups"], m["threads"]), {"row": m, "by_system": {}})
            configs[(m["size_bytes"], m["workgroups"], m["threads"])]["by_system"][m["system"]] = m["value"]
        for (size, _, _), c in configs.items():
            cells = [row_label(benchmark, c["row"])] + [fmt(c["by_system"].get(s)) for s in systems]
            if {"gio", "nvshmem"} <= set(systems):
                cells.append(ratio(c["by_system"], unit))
            cells += [fmt(baselines.get((b, benchmark, size))) for b in shown_baselines]
            out.append("| " + " | ".join(cells) + " |")
        if benchmark.startswith("put_bw"):
            for s in systems:
                best = max((m for m in members if m["system"] == s), key=lambda m: m["value"])
                out.append(f"\nbest {s}: {fmt(best['value'])} {unit} at {row_label(benchmark, best)}")
        out.append("")
    return "\n".join(out)


def series(rows, **match):
    return [r for r in rows if all(r[k] == v for k, v in match.items())]


def plot_latency(plt, rows, path):
    fig, ax = plt.subplots(figsize=(8, 5))
    scope_colors = {"thread": "C0", "wave": "C1", "wg": "C2"}
    for system in GPU_SYSTEMS:
        style = "-" if system == "gio" else "--"
        for scope, color in scope_colors.items():
            pts = sorted(series(rows, system=system, benchmark="pingpong_put", scope=scope), key=lambda r: r["size_bytes"])
            if pts:
                ax.plot([p["size_bytes"] for p in pts], [p["value"] for p in pts], marker="o", ms=3, color=color,
                        linestyle=style, label=f"{system} put {scope}")
        for p in series(rows, system=system, benchmark="pingpong_p"):
            ax.plot([p["size_bytes"]], [p["value"]], marker="*" if system == "gio" else "x", ms=9, color="C3",
                    linestyle="none", label=f"{system} p (thread)")
    for system, color in zip(BASELINES, ("gray", "black")):
        pts = sorted(series(rows, system=system, benchmark="pingpong_put"), key=lambda r: r["size_bytes"])
        if pts:
            ax.plot([p["size_bytes"] for p in pts], [p["value"] for p in pts], linestyle=":", color=color, label=system)
    sizes = sorted({r["size_bytes"] for r in rows if r["benchmark"] in ("pingpong_put", "pingpong_p")})
    ax.set(xscale="log", yscale="log", xlabel="message size", ylabel="one-way latency (us)", title="Ping-pong latency")
    ax.set_xticks(sizes[::3])
    ax.set_xticklabels([human_size(s) for s in sizes[::3]], fontsize=8)
    ax.minorticks_off()
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def plot_multi_wg(plt, rows, path):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for system in GPU_SYSTEMS:
        members = series(rows, system=system, benchmark="pingpong_multi_wg")
        for size in sorted({m["size_bytes"] for m in members}):
            pts = sorted((m for m in members if m["size_bytes"] == size), key=lambda m: m["workgroups"])
            ax.plot([p["workgroups"] for p in pts], [p["value"] for p in pts], marker="o", ms=3,
                    linestyle="-" if system == "gio" else "--", label=f"{system} {human_size(size)}")
    ax.set(xscale="log", xlabel="workgroups (one wave each)", ylabel="one-way latency per workgroup (us)",
           title="Multi-workgroup ping-pong (GIO Fig. 5b)")
    ax.set_xscale("log", base=2)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def plot_bandwidth(plt, rows, path):
    kinds = [b for b in ("put_bw_uni", "put_bw_bi") if series(rows, benchmark=b)]
    fig, axes = plt.subplots(1, len(kinds), figsize=(6 * len(kinds), 4.5), squeeze=False)
    for ax, benchmark in zip(axes[0], kinds):
        members = series(rows, benchmark=benchmark)
        shapes = sorted({(m["workgroups"], m["threads"]) for m in members})
        systems = [s for s in GPU_SYSTEMS if any(m["system"] == s for m in members)]
        width = 0.8 / max(len(systems), 1)
        for i, system in enumerate(systems):
            values = {(m["workgroups"], m["threads"]): m["value"] for m in members if m["system"] == system}
            xs = [k + i * width for k in range(len(shapes))]
            ax.bar(xs, [values.get(s, 0) for s in shapes], width=width, label=system)
        ax.set_xticks([k + width * (len(systems) - 1) / 2 for k in range(len(shapes))])
        ax.set_xticklabels([f"{b}x{t}" for b, t in shapes], rotation=30, fontsize=8)
        ax.set(ylabel="GB/s", title=benchmark)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", help="CSV files written by gio-bench / gio-bench-nvshmem --csv")
    parser.add_argument("--out", required=True, help="folder for table.md and the PNG plots")
    args = parser.parse_args()

    rows = read_rows(args.csv)
    os.makedirs(args.out, exist_ok=True)
    table = "## Benchmark results\n\n" + markdown_tables(rows)
    print(table)
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(table + "\n")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_bench.py: matplotlib not installed; wrote the table only", file=sys.stderr)
        return
    if series(rows, benchmark="pingpong_put") or series(rows, benchmark="pingpong_p"):
        plot_latency(plt, rows, os.path.join(args.out, "latency.png"))
    if series(rows, benchmark="pingpong_multi_wg"):
        plot_multi_wg(plt, rows, os.path.join(args.out, "multi_wg.png"))
    if series(rows, benchmark="put_bw_uni") or series(rows, benchmark="put_bw_bi"):
        plot_bandwidth(plt, rows, os.path.join(args.out, "bandwidth.png"))


if __name__ == "__main__":
    main()
