#!/usr/bin/env python3
"""Stacked WAF bars: user data (UD), map data (MD), GC of user data (GUD), GC of map data (GMD), one bar per run.

usage: python3 scripts/plot_waf.py OUT INPUT [INPUT ...] [--labels A,B,...] [--label COL[,COL...]]
                                   [--group COL] [--where COL=VALUE]... [--title TEXT]

OUT is the file name without extension (or ending in .png/.pdf/.svg): OUT.png, OUT.pdf and OUT.svg are written.
Each INPUT is a run directory (its summary.json: waf.{ud,md,gud,gmd}, as written by ssdtlm-* --out DIR or kept in
the study cache), or a study's results.csv (one bar per row with status ok; columns waf.ud, waf.md, waf.gud,
waf.gmd). Bars are labelled by --labels (one per bar), else by the run directory's name, else for results.csv rows
by the columns named in --label (default: the sweep axes of the study, those columns of results.csv that vary
between its rows and are not metrics). --group COL draws the rows of a results.csv in groups, one group per value
of COL (e.g. map.protected_ratio), with the group's value under it. --where keeps only the rows whose COL equals
VALUE (numbers compared as numbers). The total WAF is written above each bar.

The drawing is also a function, stacked_waf(ax, labels, parts, ...), used by scripts/seed000_hexa.py.
"""
import argparse
import csv
import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from studylib import venv  # noqa: E402

venv.ensure(("matplotlib",))
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from studylib.plot import save_figure  # noqa: E402

KINDS = ("ud", "md", "gud", "gmd", "fold")  # every kind summary.json counts in waf.total
REQUIRED = KINDS[:4]  # waf.fold is written only with an SLC cache (slc.*): 0 when absent
NAMES = {"ud": "UD (user data)", "md": "MD (map data)", "gud": "GUD (GC of user data)",
         "gmd": "GMD (GC of map data)", "fold": "FOLD (SLC cache folded into TLC/QLC)"}
COLORS = {"ud": "#4c72b0", "md": "#dd8452", "gud": "#55a868", "gmd": "#c44e52", "fold": "#8172b3"}


def stacked_waf(ax, labels, parts, positions=None, width=0.8, hatches=None, edgecolor="black", totals=True,
                legend=True, fontsize=7, alphas=None):
    """Draws one stacked bar per run on ax. parts: list of dicts {ud, md, gud, gmd} (missing = 0).
    positions: x of each bar (default 0..n-1); labels: tick labels (None: no ticks set here).
    hatches, alphas: optional lists, one per bar (e.g. to tell policies and sizes apart). Returns the bars."""
    n = len(parts)
    xs = list(range(n)) if positions is None else list(positions)
    bottom = [0.0] * n
    handles = []
    for kind in KINDS:
        vals = [_finite(p.get(kind)) for p in parts]
        if kind not in REQUIRED and not any(vals):
            continue  # no SLC cache in any run: no fold bar, no legend entry
        bars = ax.bar(xs, vals, width, bottom=bottom, color=COLORS[kind], edgecolor=edgecolor, linewidth=0.4,
                      label=NAMES[kind])
        if hatches:
            for b, h in zip(bars, hatches):
                if h:
                    b.set_hatch(h)
        if alphas:
            for b, a in zip(bars, alphas):
                b.set_alpha(a)
        handles.append(bars)
        bottom = [b + v for b, v in zip(bottom, vals)]
    missing = [all(not math.isfinite(_num(p.get(k)) if _num(p.get(k)) is not None else float("nan")) for k in REQUIRED)
               for p in parts]
    if totals:
        for x, t, gone in zip(xs, bottom, missing):
            if gone:
                continue
            ax.text(x, t, "%.2f" % t, ha="center", va="bottom", fontsize=fontsize, rotation=90 if n > 12 else 0)
    if labels is not None:
        ax.set_xticks(xs)
        ax.set_xticklabels(labels, rotation=30 if n > 4 else 0, ha="right" if n > 4 else "center")
    ax.set_ylabel("WAF (NAND bytes programmed / host bytes written)")
    if legend:
        ax.legend(fontsize=8)
    ax.set_ylim(0, max(bottom + [0.1]) * 1.15)
    return handles


def _finite(v):
    f = _num(v)
    return f if f is not None and math.isfinite(f) else 0.0


def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _same(a, b):
    fa, fb = _num(a), _num(b)
    if fa is not None and fb is not None:
        return fa == fb
    return str(a) == str(b)


def _text(v):
    f = _num(v)
    if f is not None and f.is_integer():
        return "%d" % f
    return str(v)


def read_run(run_dir):
    s = json.loads((Path(run_dir) / "summary.json").read_text())
    return {k: s["waf"].get(k, 0.0) for k in KINDS}


def read_results(path, where):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("status", "ok") == "ok"]
    for col, val in where:
        if rows and col not in rows[0]:
            sys.exit("plot_waf.py: %s has no column %r" % (path, col))
        rows = [r for r in rows if _same(r[col], val)]
    return rows


def default_label_columns(path, rows):
    """The study's sweep axes (from study.json beside results.csv), else the non-metric columns that vary."""
    study = Path(path).parent / "study.json"
    cols = []
    if study.is_file():
        try:
            cols = list(json.loads(study.read_text()).get("sweep", {}).keys())
        except (ValueError, AttributeError):
            cols = []
    if rows:
        cols = [c for c in cols if c in rows[0]]
        if not cols:
            skip = {"point", "status"}
            first_metric = next((i for i, c in enumerate(rows[0]) if c.startswith(("host.", "waf.", "nand."))),
                                len(rows[0]))
            cols = [c for c in list(rows[0])[:first_metric] if c not in skip]
        cols = [c for c in cols if len({r[c] for r in rows}) > 1]
    return cols


def read_bars(a, where):
    """(labels, parts, groups) of the bars: one per run directory, one per results.csv row (--where kept)."""
    labels, parts, groups = [], [], []
    for inp in a.inputs:
        p = Path(inp)
        if p.is_dir():
            if not (p / "summary.json").is_file():
                sys.exit("plot_waf.py: %s has no summary.json" % p)
            labels.append(p.name)
            parts.append(read_run(p))
            groups.append(None)
        elif p.is_file() and p.suffix == ".csv":
            rows = read_results(p, where)
            cols = a.label.split(",") if a.label else default_label_columns(p, rows)
            if a.group:
                cols = [c for c in cols if c != a.group]
            for r in rows:
                missing = [k for k in ("waf." + k for k in REQUIRED) if k not in r]
                if missing:
                    sys.exit("plot_waf.py: %s lacks column(s) %s" % (p, ", ".join(missing)))
                if len(cols) == 1:
                    labels.append(_text(r[cols[0]]))
                else:
                    labels.append(" ".join("%s=%s" % (c.split(".")[-1], _text(r[c])) for c in cols) or r.get("point", ""))
                parts.append({k: _num(r.get("waf." + k)) or 0.0 for k in KINDS})
                groups.append(r[a.group] if a.group else None)
        else:
            sys.exit("plot_waf.py: %s is neither a run directory nor a results.csv" % inp)
    return labels, parts, groups


def arrange_groups(group, labels, parts, groups):
    """With --group, the bars sorted into their groups (numeric groups in numeric order) and spaced between groups:
    (labels, parts, x positions, [lo, hi, group] per group); without it, in input order."""
    positions = list(range(len(parts)))
    group_ticks = []
    if group:
        order = list(dict.fromkeys(groups))
        nums = [_num(g) for g in order]
        if all(v is not None for v in nums):
            order = [g for _, g in sorted(zip(nums, order))]
        idx = sorted(range(len(parts)), key=lambda i: (order.index(groups[i]), i))
        labels = [labels[i] for i in idx]
        parts = [parts[i] for i in idx]
        groups = [groups[i] for i in idx]
        positions, x, prev = [], -1.0, object()
        for g in groups:
            x += 1.0 if g == prev else (1.6 if positions else 1.0)
            positions.append(x)
            if g != prev:
                group_ticks.append([x, x, g])
            else:
                group_ticks[-1][1] = x
            prev = g
    return labels, parts, positions, group_ticks


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--labels", help="comma-separated bar labels, one per bar")
    ap.add_argument("--label", help="results.csv: comma-separated columns that make a bar's label")
    ap.add_argument("--group", help="results.csv: draw bars in groups, one per value of this column")
    ap.add_argument("--where", action="append", default=[], help="results.csv: keep rows with COL=VALUE")
    ap.add_argument("--title", default="")
    a = ap.parse_args(argv)
    where = []
    for w in a.where:
        if "=" not in w:
            sys.exit("plot_waf.py: --where expects COL=VALUE, got %r" % w)
        where.append(tuple(w.split("=", 1)))

    labels, parts, groups = read_bars(a, where)
    if a.labels:
        given = a.labels.split(",")
        if len(given) != len(parts):
            sys.exit("plot_waf.py: --labels has %d labels for %d bars" % (len(given), len(parts)))
        labels = given
    if not parts:
        sys.exit("plot_waf.py: no runs to draw")

    labels, parts, positions, group_ticks = arrange_groups(a.group, labels, parts, groups)
    fig, ax = plt.subplots(figsize=(max(5.0, 0.45 * len(parts) + 2.5), 4.8))
    stacked_waf(ax, labels, parts, positions=positions)
    if group_ticks:
        top = ax.secondary_xaxis("top")
        top.set_xticks([(lo + hi) / 2 for lo, hi, _ in group_ticks])
        top.set_xticklabels([_text(g) for _, _, g in group_ticks], fontsize=8)
        top.set_xlabel(a.group, fontsize=8)
        for lo, hi, _ in group_ticks[1:]:
            ax.axvline(lo - 0.8, color="0.8", linewidth=0.6)
    if a.title:
        ax.set_title(a.title)
    fig.tight_layout()
    out = save_figure(fig, a.out, dpi=120)[0].with_suffix("")
    for lab, p in zip(labels, parts):
        print("%-40s WAF %.3f  (UD %.3f MD %.3f GUD %.3f GMD %.3f FOLD %.3f)" % (
            lab, sum(p.values()), p["ud"], p["md"], p["gud"], p["gmd"], p.get("fold", 0.0)))
    print("wrote %s.png, %s.svg, %s.pdf" % (out, out, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
