#!/usr/bin/env python3
"""Turns the bench results into PNG charts, one pair per GPU.

    python3 bench/plot.py [--gpu h100|h200] [--results bench/results] [--out bench/results/plots]

Reads bench/results/h100-{stream,reduce,scan,transfer,launch,tiles}.txt (the prefix is historical:
the files hold runs of several GPUs). Each file is a log, newest run first; a run starts at a comment
line (#) that follows any other line, a blank one included, and its header is its comment lines
before the first other line. The header's first mention of a GPU (H100, H200, ...) names the run's
GPU; a run whose header names none is skipped. For each GPU a chart takes, from each file, the newest
run on that GPU whose table the bench's parser reads (runs below "## Earlier" too, where no newer
one has a table), and leaves the bench out when there is none.
Without --gpu, it draws every GPU found.

Two charts per GPU:
  <gpu>-ratio.png      acc / reference per benchmark and size (1.0 = as fast as the reference;
                       a ratio of times, e.g. launch or tiles, is inverted so higher is better
                       everywhere)
  <gpu>-bandwidth.png  GB/s of acc and of its reference as a fraction of the measured peak (the
                       highest GB/s any kernel reached in the same run: stream's nstream, the
                       pinned cudaMemcpy for transfers)

Each bench prints its own table; the parsers below read the tables as the benches print them and
skip anything else, so a run may carry notes.
"""
import argparse
import collections
import os
import re
import sys

NUM = r"[-+]?\d+(?:\.\d+)?"
PREFIX = "h100"  # the results files were named when every run was on an H100

# A GPU model named in a header: "NVIDIA H200", "(H100 80GB HBM3)", the machine "nvidia-h100-x1";
# not a results file such as h100-architecture.txt, which a note may cite.
GPU = re.compile(r"(?<![A-Za-z0-9])(h\d{3})(?!\d)(?![\w-]*\.txt)", re.I)
COMMIT = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b")
DATE = re.compile(r"\b\d{4}-\d\d-\d\d(?:/\d\d)?")

Run = collections.namedtuple("Run", "line header table")


def runs(path):
    """The runs of a results file, newest first: their first line number, header and table lines."""
    line_no, header, table, in_header = 1, [], [], False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.lstrip().startswith("#"):
                if not in_header:
                    if header or table:
                        yield Run(line_no, header, table)
                    line_no, header, table, in_header = n, [], [], True
                header.append(line)
                continue
            in_header = False
            if line.strip():
                table.append(line)
    if header or table:
        yield Run(line_no, header, table)


def gpu_of(header):
    """The GPU a header names first (lower case, e.g. "h200"), or None."""
    for line in header:
        m = GPU.search(line)
        if m:
            return m.group(1).lower()
    return None


def parse_stream(lines):
    """kernel size variant acc cuda thrust acc/cuda"""
    rows = []
    pat = re.compile(rf"^(\w+)\s+(2\^\d+)\s+(.+?)\s+({NUM})\s+({NUM})\s+({NUM}|-)\s+({NUM})\s*$")
    for line in lines:
        m = pat.match(line)
        if m:
            kernel, size, variant, acc, ref, _, ratio = m.groups()
            label = f"{kernel} {size}" + ("" if variant == "acc" else " " + variant.replace("acc ", ""))
            rows.append(dict(bench="stream", label=label, acc=float(acc), ref=float(ref),
                             ratio=float(ratio), refname="CUDA", gbs=True))
    return rows


def parse_reduce(lines):
    """type size acc cub thrust acc/cub; then Xu's positions: case acc hand acc/hand"""
    rows = []
    whole = re.compile(rf"^(\w+)\s+(2\^\d+)\s+({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s*$")
    xu = re.compile(rf"^(\w+)\s+({NUM})\s+({NUM})\s+({NUM})\s*$")
    seen = set()
    for line in lines:
        m = whole.match(line)
        if m:
            typ, size, acc, ref, _, ratio = m.groups()
            label = f"{typ} {size}"
            if label in seen:  # the bench runs the first type again to show the spread
                continue
            seen.add(label)
            rows.append(dict(bench="reduce", label=label, acc=float(acc), ref=float(ref),
                             ratio=float(ratio), refname="CUB", gbs=True))
            continue
        m = xu.match(line)
        if m:
            case, acc, ref, ratio = m.groups()
            rows.append(dict(bench="reduce", label=f"Xu {case}", acc=float(acc), ref=float(ref),
                             ratio=float(ratio), refname="hand CUDA", gbs=True))
    return rows


def parse_scan(lines):
    """scan type size acc cub thrust acc/cub [(note)]"""
    rows = []
    pat = re.compile(rf"^(\w+)\s+(\w+)\s+(2\^\d+)\s+({NUM})\s+({NUM})\s+({NUM}|-)\s+({NUM})\s*(\((.*?)[;)].*)?$")
    seen = set()
    for line in lines:
        m = pat.match(line)
        if m:
            scan, typ, size, acc, ref, _, ratio, _, note = m.groups()
            label = f"{scan} {typ} {size}" + (f" ({note})" if note else "")
            if label in seen:
                continue
            seen.add(label)
            rows.append(dict(bench="scan", label=label, acc=float(acc), ref=float(ref),
                             ratio=float(ratio), refname="CUB", gbs=True))
    return rows


def parse_transfer(lines):
    """MiB | h2d pin, update, ratio, staged, ratio | d2h the same | enter ms, pin ms, ratio
    [, pin old ms, ratio] (GB/s; the ratios are the lowest of the runs, the enter ratios the highest;
    the first pinned copy is of memory written just before the enter, the optional second of memory
    written long before; older files: MiB | h2d pin, page, acc, ratio | d2h pin, page, acc, ratio | enter ms)"""
    rows = []
    seen = set()
    new = re.compile(rf"^\s*(\d+)\s*\|\s*({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s*\|"
                     rf"\s*({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s*\|"
                     rf"\s*({NUM})\s+({NUM})\s+({NUM})(?:\s+({NUM})\s+({NUM}))?\s*$")
    old = re.compile(rf"^\s*(\d+)\s*\|\s*({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s*\|"
                     rf"\s*({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s*\|")

    def add(label, acc, ref, ratio, gbs=True, refname="pinned cudaMemcpy"):
        if label not in seen:  # a section may list an earlier run's table after its own
            seen.add(label)
            rows.append(dict(bench="transfer", label=label, acc=acc, ref=ref, ratio=ratio, refname=refname,
                             gbs=gbs))

    for line in lines:
        m = new.match(line)
        if m:
            mib = m.group(1)
            h_pin, h_up, h_ratio, _, _, d_pin, d_up, d_ratio, _, _, enter, pin, enter_ratio = map(float, m.groups()[1:14])
            add(f"h2d update {mib} MiB", h_up, h_pin, h_ratio)
            add(f"d2h update {mib} MiB", d_up, d_pin, d_ratio)
            add(f"first enter {mib} MiB", enter, pin, 1.0 / enter_ratio, gbs=False,
                refname="pinned cudaMemcpy (ms)")
            if m.group(15):
                add(f"first enter, old pin {mib} MiB", enter, float(m.group(15)), 1.0 / float(m.group(16)),
                    gbs=False, refname="pinned cudaMemcpy (ms)")
            continue
        m = old.match(line)
        if m:
            mib = m.group(1)
            h_pin, _, h_acc, h_ratio, d_pin, _, d_acc, d_ratio = map(float, m.groups()[1:])
            add(f"h2d {mib} MiB", h_acc, h_pin, h_ratio)
            add(f"d2h {mib} MiB", d_acc, d_pin, d_ratio)
    return rows


def parse_launch(lines):
    """mode launches acc raw acc/raw [| acc raw acc/raw ...] (one triple per run; microseconds)"""
    rows = []
    head = re.compile(r"^(sync|async)\s+\d+\s+(.*)$")
    run = re.compile(rf"({NUM})\s+({NUM})\s+({NUM})")
    for line in lines:
        m = head.match(line)
        if not m:
            continue
        runs = [run.fullmatch(part.strip()) for part in m.group(2).split("|")]
        runs = [r for r in runs if r]
        for k, r in enumerate(runs):
            acc, ref, _ = r.groups()
            label = f"{m.group(1)} launch" + (f" (run {k + 1})" if len(runs) > 1 else "")
            rows.append(dict(bench="launch", label=label, acc=float(acc), ref=float(ref),
                             ratio=float(ref) / float(acc), refname="raw <<<>>>", gbs=False))
    return rows


def parse_tiles(lines):
    """program size... untiled tiled hand speedup tiled/hand ... (milliseconds)"""
    rows = []
    pat = re.compile(rf"^(\w+)\s+(.+?)\s+({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s+ok\b")
    for line in lines:
        m = pat.match(line)
        if m:
            prog, size, _, tiled, hand, _, _ = m.groups()
            rows.append(dict(bench="tiles", label=f"{prog} {size}", acc=float(tiled), ref=float(hand),
                             ratio=float(hand) / float(tiled), refname="hand CUDA", gbs=False))
    return rows


PARSERS = {"stream": parse_stream, "reduce": parse_reduce, "scan": parse_scan,
           "transfer": parse_transfer, "launch": parse_launch, "tiles": parse_tiles}
COLORS = {"stream": "tab:blue", "reduce": "tab:orange", "scan": "tab:green",
          "transfer": "tab:red", "launch": "tab:purple", "tiles": "tab:brown"}


def results_path(results, bench):
    return os.path.join(results, f"{PREFIX}-{bench}.txt")


def newest_run(path, parse, gpu):
    """The newest run on gpu whose table parse reads, and its rows; (None, []) if there is none."""
    for run in runs(path):
        if gpu_of(run.header) == gpu:
            rows = parse(run.table)
            if rows:
                return run, rows
    return None, []


def load_runs(results, gpu):
    """{bench: (run, rows)} of the newest run on gpu in each results file."""
    out = {}
    for name, parse in PARSERS.items():
        path = results_path(results, name)
        if not os.path.exists(path):
            continue
        run, rows = newest_run(path, parse, gpu)
        if rows:
            out[name] = (run, rows)
        else:
            print(f"plot.py: no {gpu} run with a table in {path}; {name} left out", file=sys.stderr)
    return out


def load(results, gpu):
    """{bench: rows} of the newest run on gpu in each results file."""
    return {name: rows for name, (_, rows) in load_runs(results, gpu).items()}


def gpus(results):
    """The GPUs that some results file has a run with a table on."""
    found = set()
    for name, parse in PARSERS.items():
        path = results_path(results, name)
        if os.path.exists(path):
            found.update(gpu_of(r.header) for r in runs(path) if gpu_of(r.header) and parse(r.table))
    return sorted(found)


def gpu_name(gpu, headers):
    """The longest name of gpu in the headers, e.g. "NVIDIA H100 80GB HBM3" (the machine name
    nvidia-h100-x1 is no name of it)."""
    pat = re.compile(rf"(?:NVIDIA )?{gpu.upper()}(?: [0-9A-Z]\w*)*")
    names = [m.group(0) for line in headers for m in pat.finditer(line)]
    name = max(names, key=len, default=gpu.upper())
    return name if name.startswith("NVIDIA ") else "NVIDIA " + name


def run_tag(run):
    """A run's commit and date as its header gives them, e.g. "295679c, 2026-12-03"."""
    text = " ".join(run.header)
    return ", ".join(m.group(0) for m in (COMMIT.search(text), DATE.search(text)) if m)


def runs_caption(tags, names):
    """Which run each of the benches names took, three benches a line."""
    parts = [f"{name} {tags[name]}".strip() for name in names]
    return "\n".join("; ".join(parts[i:i + 3]) for i in range(0, len(parts), 3))


def titled(fig, ax, title, tags, names):
    fig.suptitle(title, fontsize=10)
    ax.set_title("runs (commit, date): " + runs_caption(tags, names), fontsize=7)


def plot_ratio(plt, benches, title, tags, path):
    rows = [r for name in benches for r in benches[name]]
    fig, ax = plt.subplots(figsize=(9, 0.22 * len(rows) + 1.9), layout="constrained")
    ys = range(len(rows))[::-1]
    ax.barh(list(ys), [r["ratio"] for r in rows], color=[COLORS[r["bench"]] for r in rows])
    ax.set_yticks(list(ys))
    ax.set_yticklabels([f"{r['bench']}: {r['label']} (vs {r['refname']})" for r in rows], fontsize=7)
    ax.axvline(1.0, color="black", lw=0.8)
    ax.axvline(0.9, color="grey", lw=0.6, ls="--")
    for y, r in zip(ys, rows):
        ax.text(r["ratio"] + 0.01, y, f"{r['ratio']:.3f}", va="center", fontsize=6)
    hi = max(r["ratio"] for r in rows)
    ax.set_xlim(0, max(1.15, hi + 0.12))
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel("acc / reference (speed; > 1: acc is faster; dashed: 0.9)")
    titled(fig, ax, title, tags, list(benches))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_bandwidth(plt, benches, title, tags, path):
    # only rows in GB/s: a transfer run also has first-enter rows in milliseconds
    groups = [(name, [r for r in rows if r["gbs"]]) for name, rows in benches.items()]
    groups = [(name, rows) for name, rows in groups if rows]
    n = sum(len(rows) for _, rows in groups)
    fig, ax = plt.subplots(figsize=(9, 0.26 * n + 1.9), layout="constrained")
    y = n
    ticks, labels = [], []
    for name, rows in groups:
        peak = max(max(r["acc"], r["ref"]) for r in rows)
        for r in rows:
            y -= 1
            ax.barh(y + 0.2, r["acc"] / peak, height=0.4, color=COLORS[name])
            ax.barh(y - 0.2, r["ref"] / peak, height=0.4, color="lightgrey")
            ticks.append(y)
            labels.append(f"{name}: {r['label']} (peak {peak:.0f} GB/s)")
    ax.set_yticks(ticks)
    ax.set_yticklabels(labels, fontsize=7)
    ax.set_xlim(0, 1.05)
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_xlabel("fraction of the measured peak (coloured: acc; grey: its reference)")
    titled(fig, ax, title, tags, [name for name, _ in groups])
    fig.savefig(path, dpi=110)
    plt.close(fig)


def chart(plt, results, out, gpu):
    """Draws gpu's two charts; returns their paths, or [] when no results file has a run on gpu."""
    loaded = load_runs(results, gpu)
    if not loaded:
        print(f"plot.py: no {gpu} runs in {results}", file=sys.stderr)
        return []
    for name, (run, rows) in loaded.items():
        print(f"{gpu} {name}: {len(rows)} rows from {results_path(results, name)}:{run.line}: {run.header[0]}")
    benches = {name: rows for name, (_, rows) in loaded.items()}
    dev = gpu_name(gpu, [line for run, _ in loaded.values() for line in run.header])
    tags = {name: run_tag(run) for name, (run, _) in loaded.items()}
    paths = [os.path.join(out, f"{gpu}-ratio.png"), os.path.join(out, f"{gpu}-bandwidth.png")]
    plot_ratio(plt, benches, f"acc against its reference, {dev}", tags, paths[0])
    plot_bandwidth(plt, benches, f"Bandwidth against the measured peak, {dev}", tags, paths[1])
    return paths


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu", action="append", type=str.lower,
                    help="h100, h200, ... (repeatable; default: every GPU the results have runs on)")
    ap.add_argument("--results", default=os.path.join(here, "results"))
    ap.add_argument("--out", default=os.path.join(here, "results", "plots"))
    args = ap.parse_args()

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    wanted = args.gpu or gpus(args.results)
    os.makedirs(args.out, exist_ok=True)
    paths = [p for gpu in wanted for p in chart(plt, args.results, args.out, gpu)]
    if not paths:
        sys.exit(f"plot.py: no runs to chart in {args.results}")
    print("\n".join(paths))


if __name__ == "__main__":
    main()
