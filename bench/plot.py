#!/usr/bin/env python3
"""Turns the bench results of one device (bench/results/<device>-*.txt) into PNG charts.

    python3 bench/plot.py [--device h100] [--results bench/results] [--out bench/results/plots]

Two charts:
  <device>-ratio.png      acc / reference per benchmark and size (1.0 = as fast as the reference;
                          a ratio of times, e.g. launch or tiles, is inverted so higher is better
                          everywhere)
  <device>-bandwidth.png  GB/s of acc and of its reference as a fraction of the measured peak (the
                          highest GB/s any kernel reached in the same file: stream's nstream, the
                          pinned cudaMemcpy for transfers)

Each bench prints its own table; the parsers below read the tables as the benches print them and
skip comment lines (#) and anything else, so a results file may carry notes.
"""
import argparse
import os
import re
import sys

NUM = r"[-+]?\d+(?:\.\d+)?"


def data_lines(path):
    """The table lines of a results file's newest section: older runs follow "## Earlier"."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## Earlier"):
                return
            if line.strip() and not line.lstrip().startswith("#"):
                yield line


def parse_stream(path):
    """kernel size variant acc cuda thrust acc/cuda"""
    rows = []
    pat = re.compile(rf"^(\w+)\s+(2\^\d+)\s+(.+?)\s+({NUM})\s+({NUM})\s+({NUM}|-)\s+({NUM})\s*$")
    for line in data_lines(path):
        m = pat.match(line)
        if m:
            kernel, size, variant, acc, ref, _, ratio = m.groups()
            label = f"{kernel} {size}" + ("" if variant == "acc" else " " + variant.replace("acc ", ""))
            rows.append(dict(bench="stream", label=label, acc=float(acc), ref=float(ref),
                             ratio=float(ratio), refname="CUDA", gbs=True))
    return rows


def parse_reduce(path):
    """type size acc cub thrust acc/cub; then Xu's positions: case acc hand acc/hand"""
    rows = []
    whole = re.compile(rf"^(\w+)\s+(2\^\d+)\s+({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s*$")
    xu = re.compile(rf"^(\w+)\s+({NUM})\s+({NUM})\s+({NUM})\s*$")
    seen = set()
    for line in data_lines(path):
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


def parse_scan(path):
    """scan type size acc cub thrust acc/cub [(note)]"""
    rows = []
    pat = re.compile(rf"^(\w+)\s+(\w+)\s+(2\^\d+)\s+({NUM})\s+({NUM})\s+({NUM}|-)\s+({NUM})\s*(\((.*?)[;)].*)?$")
    seen = set()
    for line in data_lines(path):
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


def parse_transfer(path):
    """MiB | h2d pin, update, ratio, staged, ratio | d2h the same | enter ms, pin ms, ratio
    (GB/s; the ratios are the lowest of the runs, the enter ratio the highest; older files:
    MiB | h2d pin, page, acc, ratio | d2h pin, page, acc, ratio | enter ms)"""
    rows = []
    seen = set()
    new = re.compile(rf"^\s*(\d+)\s*\|\s*({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s*\|"
                     rf"\s*({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s*\|"
                     rf"\s*({NUM})\s+({NUM})\s+({NUM})\s*$")
    old = re.compile(rf"^\s*(\d+)\s*\|\s*({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s*\|"
                     rf"\s*({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s*\|")

    def add(label, acc, ref, ratio, gbs=True, refname="pinned cudaMemcpy"):
        if label not in seen:  # a section may list an earlier run's table after its own
            seen.add(label)
            rows.append(dict(bench="transfer", label=label, acc=acc, ref=ref, ratio=ratio, refname=refname,
                             gbs=gbs))

    for line in data_lines(path):
        m = new.match(line)
        if m:
            mib = m.group(1)
            h_pin, h_up, h_ratio, _, _, d_pin, d_up, d_ratio, _, _, enter, pin, enter_ratio = map(float, m.groups()[1:])
            add(f"h2d update {mib} MiB", h_up, h_pin, h_ratio)
            add(f"d2h update {mib} MiB", d_up, d_pin, d_ratio)
            add(f"first enter {mib} MiB", enter, pin, 1.0 / enter_ratio, gbs=False,
                refname="pinned cudaMemcpy (ms)")
            continue
        m = old.match(line)
        if m:
            mib = m.group(1)
            h_pin, _, h_acc, h_ratio, d_pin, _, d_acc, d_ratio = map(float, m.groups()[1:])
            add(f"h2d {mib} MiB", h_acc, h_pin, h_ratio)
            add(f"d2h {mib} MiB", d_acc, d_pin, d_ratio)
    return rows


def parse_launch(path):
    """mode launches acc raw acc/raw [| acc raw acc/raw ...] (one triple per run; microseconds)"""
    rows = []
    head = re.compile(r"^(sync|async)\s+\d+\s+(.*)$")
    run = re.compile(rf"({NUM})\s+({NUM})\s+({NUM})")
    for line in data_lines(path):
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


def parse_tiles(path):
    """program size... untiled tiled hand speedup tiled/hand ... (milliseconds)"""
    rows = []
    pat = re.compile(rf"^(\w+)\s+(.+?)\s+({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s+({NUM})\s+ok\b")
    for line in data_lines(path):
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


def load(results, device):
    out = {}
    for name, parse in PARSERS.items():
        path = os.path.join(results, f"{device}-{name}.txt")
        if os.path.exists(path):
            rows = parse(path)
            if rows:
                out[name] = rows
            else:
                print(f"plot.py: no table found in {path}", file=sys.stderr)
    return out


def device_name(results, device):
    for name in PARSERS:
        path = os.path.join(results, f"{device}-{name}.txt")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                m = re.search(r"NVIDIA [^,(]*?(?=\s*[,(])", f.readline())
                if m:
                    return m.group(0).strip()
    return device


def plot_ratio(plt, benches, title, path):
    rows = [r for name in benches for r in benches[name]]
    fig, ax = plt.subplots(figsize=(9, 0.22 * len(rows) + 1.6))
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
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_bandwidth(plt, benches, title, path):
    groups = [(name, rows) for name, rows in benches.items() if rows[0]["gbs"]]
    n = sum(len(rows) for _, rows in groups)
    fig, ax = plt.subplots(figsize=(9, 0.26 * n + 1.6))
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
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="h100", help="results file prefix (default h100)")
    ap.add_argument("--results", default=os.path.join(here, "results"))
    ap.add_argument("--out", default=os.path.join(here, "results", "plots"))
    args = ap.parse_args()

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    benches = load(args.results, args.device)
    if not benches:
        sys.exit(f"plot.py: no {args.device}-*.txt results in {args.results}")
    os.makedirs(args.out, exist_ok=True)
    dev = device_name(args.results, args.device)
    ratio_png = os.path.join(args.out, f"{args.device}-ratio.png")
    bw_png = os.path.join(args.out, f"{args.device}-bandwidth.png")
    plot_ratio(plt, benches, f"acc against its reference, {dev}", ratio_png)
    plot_bandwidth(plt, benches, f"Bandwidth against the measured peak, {dev}", bw_png)
    for name, rows in benches.items():
        print(f"{name}: {len(rows)} rows")
    print(ratio_png)
    print(bw_png)


if __name__ == "__main__":
    main()
