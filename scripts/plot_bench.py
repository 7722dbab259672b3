#!/usr/bin/env python3
"""Merge the CSVs of one benchmark run (gio-bench, gio-bench-nvshmem) into a markdown table and plots.

    plot_bench.py gio.csv nvshmem.csv --out results/

Prints the table and writes it to DIR/table.md: a summary of the headline figures (gio beside
NVSHMEM, with the goals), then one table per benchmark and scope. Plots, for what the CSVs hold:
DIR/latency.png (ping-pong latency against message size, one line per system and scope),
DIR/multi_wg.png (the GIO paper's Fig. 5b sweep), DIR/bandwidth.png, DIR/put_signal.png,
DIR/collectives.png, DIR/sync_amo.png (barriers and AMO latency) and DIR/amo_rate.png.
Rows are `system,benchmark,scope,size_bytes,workgroups,threads,value,unit` as the benchmarks
print them. Plots need matplotlib; without it only the table is written.
"""
import argparse
import csv
import os
import sys
from collections import OrderedDict

FIELDS = ["system", "benchmark", "scope", "size_bytes", "workgroups", "threads", "value", "unit"]
# gio-rdc, gio-library: gio-bench-rdc and gio-bench-device-library, gio built as relocatable device
# code, without and with gio::device_library (bench/CMakeLists.txt).
GPU_SYSTEMS = ["gio", "gio-rdc", "gio-library", "nvshmem"]
LINE_STYLE = {"gio": "-", "gio-rdc": "-.", "gio-library": ":", "nvshmem": "--"}
# Host-MPI baselines, measured once (scope "host") and shown beside every scope of their benchmark.
BASELINES = ["inter-k", "inter-k-empty"]
LOWER_IS_BETTER = {"us", "ms", "MiB"}
SCOPE_ORDER = {"thread": 0, "wave": 1, "wg": 2, "host": 3}
COLLECTIVES = ["reduce_int64_sum", "reduce_double_sum", "broadcast", "fcollect", "alltoall"]
AMO_LATENCY = ["amo_fetch_add", "amo_compare_swap", "amo_fetch"]
AMO_RATE = ["amo_rate_fetch_add", "amo_rate_add", "amo_rate_fetch_add_spread", "amo_rate_add_spread"]
SYNCS = ["barrier_all", "sync_all"]
BENCHMARK_ORDER = (["init_time", "init_time_reported", "gpu_memory", "gpu_memory_reported", "pingpong_p",
                    "pingpong_put", "pingpong_put_signal", "pingpong_multi_wg", "put_bw_uni", "put_bw_bi"]
                   + AMO_LATENCY + AMO_RATE + SYNCS + COLLECTIVES)
# Benchmarks whose rows differ by launch shape (BxT) rather than by size.
BY_SHAPE = ["put_bw_uni", "put_bw_bi"] + AMO_RATE
# The summary at the top of the table: (benchmark, scope, size_bytes or None for any, goal or None).
# Goals are the issues' targets for gio (one-way or per-call us).
HEADLINES = [
    ("pingpong_p", "thread", 8, 0.85),
    ("pingpong_put", "wg", 8, None),
    ("pingpong_put_signal", "thread", 8, None),
    ("pingpong_put_signal", "wg", 8, 1.7),
    ("pingpong_put_signal", "wg", 1 << 20, None),
    ("amo_fetch_add", "thread", None, None),
    ("amo_compare_swap", "thread", None, None),
    ("amo_fetch", "thread", None, None),
    ("barrier_all", "thread", None, None),
    ("barrier_all", "wg", None, 1.5),
    ("sync_all", "wg", None, None),
] + [(c, "wg", size, None) for c in COLLECTIVES for size in (8, 1 << 20)]


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


def ratio(rows_by_system, unit, ours="gio", theirs="nvshmem"):
    mine, other = rows_by_system.get(ours), rows_by_system.get(theirs)
    if mine is None or other is None or other == 0:
        return "–"
    better = "lower" if unit in LOWER_IS_BETTER else "higher"
    return f"{mine / other:.2f}x" + (" ✓" if (mine <= other) == (better == "lower") else "")


# The ratio columns a table gets, for the systems it holds: (ours, theirs).
RATIOS = [("gio", "nvshmem"), ("gio-rdc", "gio"), ("gio-library", "gio")]


def row_label(benchmark, row):
    if benchmark in BY_SHAPE:
        return f"{row['workgroups']}x{row['threads']}"
    if benchmark in SYNCS:
        return f"1 wg, {row['threads']} thread{'s' if row['threads'] > 1 else ''}"
    if benchmark in AMO_LATENCY:
        return "uint64, dependent calls"
    if benchmark == "pingpong_multi_wg":
        return f"{human_size(row['size_bytes'])}, {row['workgroups']} wg"
    if benchmark in ("init_time", "gpu_memory") or benchmark.endswith("_reported"):
        return f"heap {human_size(row['size_bytes'])}" if row["size_bytes"] else "heap ?"
    return human_size(row["size_bytes"])


def sort_key(benchmark, row):
    if benchmark == "pingpong_multi_wg":
        return (row["size_bytes"], row["workgroups"], row["threads"])
    return (row["workgroups"] if benchmark in BY_SHAPE else 0, row["threads"], row["size_bytes"])


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
        ratios = [(a, b) for a, b in RATIOS if {a, b} <= set(systems)]
        header = ["configuration"] + systems + [f"{a}/{b}" for a, b in ratios] + shown_baselines
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(header))
        configs = OrderedDict()
        for m in sorted(members, key=lambda m: sort_key(benchmark, m)):
            configs.setdefault((m["size_bytes"], m["workgroups"], m["threads"]), {"row": m, "by_system": {}})
            configs[(m["size_bytes"], m["workgroups"], m["threads"])]["by_system"][m["system"]] = m["value"]
        for (size, _, _), c in configs.items():
            cells = [row_label(benchmark, c["row"])] + [fmt(c["by_system"].get(s)) for s in systems]
            cells += [ratio(c["by_system"], unit, a, b) for a, b in ratios]
            cells += [fmt(baselines.get((b, benchmark, size))) for b in shown_baselines]
            out.append("| " + " | ".join(cells) + " |")
        if benchmark in BY_SHAPE:
            for s in systems:
                best = max((m for m in members if m["system"] == s), key=lambda m: m["value"])
                out.append(f"\nbest {s}: {fmt(best['value'])} {unit} at {row_label(benchmark, best)}")
        out.append("")
    return "\n".join(out)


def headline_table(rows):
    """The HEADLINES rows that the CSVs hold: gio, NVSHMEM, their ratio and the goal."""
    def value(system, benchmark, scope, size):
        found = [r["value"] for r in rows if r["system"] == system and r["benchmark"] == benchmark
                 and r["scope"] == scope and (size is None or r["size_bytes"] == size)]
        return found[0] if found else None

    lines = []
    for benchmark, scope, size, goal in HEADLINES:
        by_system = {s: value(s, benchmark, scope, size) for s in GPU_SYSTEMS}
        if by_system["gio"] is None and by_system["nvshmem"] is None:
            continue
        what = f"{benchmark} ({scope}{', ' + human_size(size) if size is not None else ''})"
        met = "–" if goal is None or by_system["gio"] is None else ("yes" if by_system["gio"] <= goal else "no")
        lines.append(f"| {what} | {fmt(by_system['gio'])} | {fmt(by_system['nvshmem'])} | "
                     f"{ratio({k: v for k, v in by_system.items() if v is not None}, 'us')} | "
                     f"{'≤ ' + fmt(goal) if goal is not None else '–'} | {met} |")
    if not lines:
        return ""
    header = ["### Summary (us: one way for ping-pongs, per call otherwise; lower is better)\n",
              "| benchmark | gio | nvshmem | gio/nvshmem | goal (gio) | met |", "|---|---|---|---|---|---|"]
    return "\n".join(header + lines) + "\n\n"


def series(rows, **match):
    return [r for r in rows if all(r[k] == v for k, v in match.items())]


def plot_latency(plt, rows, path):
    fig, ax = plt.subplots(figsize=(8, 5))
    scope_colors = {"thread": "C0", "wave": "C1", "wg": "C2"}
    for system in GPU_SYSTEMS:
        style = LINE_STYLE[system]
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
                    linestyle=LINE_STYLE[system], label=f"{system} {human_size(size)}")
    ax.set(xscale="log", xlabel="workgroups (one wave each)", ylabel="one-way latency per workgroup (us)",
           title="Multi-workgroup ping-pong (GIO Fig. 5b)")
    ax.set_xscale("log", base=2)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def plot_by_shape(plt, rows, benchmarks, ylabel, path, log=False):
    """Bars per launch shape, one bar per system, one panel per benchmark (log: a log y axis)."""
    kinds = [b for b in benchmarks if series(rows, benchmark=b)]
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
        ax.set(ylabel=ylabel, title=benchmark, yscale="log" if log else "linear")
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def plot_sizes(ax, rows, benchmark, scopes, title):
    """Latency against size on `ax`: a line per system and scope (LINE_STYLE)."""
    scope_colors = {"thread": "C0", "wave": "C1", "wg": "C2"}
    sizes = set()
    for system in GPU_SYSTEMS:
        for scope in scopes:
            pts = sorted(series(rows, system=system, benchmark=benchmark, scope=scope), key=lambda r: r["size_bytes"])
            if pts:
                sizes.update(p["size_bytes"] for p in pts)
                ax.plot([p["size_bytes"] for p in pts], [p["value"] for p in pts], marker="o", ms=3,
                        color=scope_colors[scope], linestyle=LINE_STYLE[system],
                        label=f"{system} {scope}" if len(scopes) > 1 else system)
    sizes = sorted(sizes)
    ax.set(xscale="log", yscale="log", xlabel="size", ylabel="us", title=title)
    ax.set_xticks(sizes[::3])
    ax.set_xticklabels([human_size(s) for s in sizes[::3]], fontsize=7)
    ax.minorticks_off()
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7)


def plot_put_signal(plt, rows, path):
    fig, ax = plt.subplots(figsize=(8, 5))
    plot_sizes(ax, rows, "pingpong_put_signal", ["thread", "wave", "wg"], "put_signal ping-pong, one way")
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def plot_collectives(plt, rows, path):
    kinds = [c for c in COLLECTIVES if series(rows, benchmark=c)]
    columns = min(3, len(kinds))
    lines = (len(kinds) + columns - 1) // columns
    fig, axes = plt.subplots(lines, columns, figsize=(4.8 * columns, 3.8 * lines), squeeze=False)
    for ax in axes.flat[len(kinds):]:
        ax.set_visible(False)
    for ax, kind in zip(axes.flat, kinds):
        plot_sizes(ax, rows, kind, ["wg"], f"{kind} (wg, per call)")
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def plot_sync_amo(plt, rows, path):
    """Bars of per-call latency: barriers by scope, then the AMO chains."""
    labels = [(b, s) for b in SYNCS for s in ("thread", "wave", "wg") if series(rows, benchmark=b, scope=s)]
    labels += [(b, "thread") for b in AMO_LATENCY if series(rows, benchmark=b)]
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(labels)), 4.5))
    systems = [s for s in GPU_SYSTEMS if series(rows, system=s)]
    width = 0.8 / max(len(systems), 1)
    for i, system in enumerate(systems):
        values = [next((r["value"] for r in series(rows, system=system, benchmark=b, scope=s)), 0) for b, s in labels]
        ax.bar([k + i * width for k in range(len(labels))], values, width=width, label=system)
    ax.set_xticks([k + width * (len(systems) - 1) / 2 for k in range(len(labels))])
    ax.set_xticklabels([f"{b}\n{s}" for b, s in labels], fontsize=7)
    ax.set(ylabel="us per call", title="Device barriers and remote AMO latency")
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
    table = "## Benchmark results\n\n" + headline_table(rows) + markdown_tables(rows)
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
        plot_by_shape(plt, rows, ["put_bw_uni", "put_bw_bi"], "GB/s", os.path.join(args.out, "bandwidth.png"))
    if series(rows, benchmark="pingpong_put_signal"):
        plot_put_signal(plt, rows, os.path.join(args.out, "put_signal.png"))
    if any(series(rows, benchmark=c) for c in COLLECTIVES):
        plot_collectives(plt, rows, os.path.join(args.out, "collectives.png"))
    if any(series(rows, benchmark=b) for b in SYNCS + AMO_LATENCY):
        plot_sync_amo(plt, rows, os.path.join(args.out, "sync_amo.png"))
    if any(series(rows, benchmark=b) for b in AMO_RATE):
        plot_by_shape(plt, rows, AMO_RATE, "Mops/s", os.path.join(args.out, "amo_rate.png"), log=True)


if __name__ == "__main__":
    main()
