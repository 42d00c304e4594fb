"""Figures drawn from results.csv alone (and columns.json's units when it is there): PNG, SVG and PDF.

A figure: one or more metrics ("y") against a column ("x"), one line per value of "lines", one column of panels
per value of "facets", a row of panels per metric. Rows that share x, line and facet (repeats, or axes the figure
does not show) are averaged; bars show their range (min..max), or the standard deviation with "errorbars": "std".
"where" keeps only some rows: {"column": value or [values]}. Axis labels are words with their unit ("99th-percentile
read latency (µs)", "over-provisioning (fraction)"), from HUMAN or, for other columns, from the dotted name. A point
that failed is drawn as a red cross at the bottom of its panel (its x, its line's colour is not known): a missing
point is never silent. Linear axes of values that are never negative start at zero.

save_figure(fig, path) is the one way every plotting script writes a figure: PNG, PDF and SVG with one basename,
fonts embedded in the PDF as TrueType (editable in a paper's tools, no Type 3), then the figure closed.
"""
import re
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import table  # noqa: E402


class FigureError(Exception):
    pass


FORMATS = (".png", ".pdf", ".svg")
# Fonts a publisher's tools accept: TrueType (Type 42) in PDF and PostScript rather than matplotlib's default Type 3;
# SVG text drawn as paths (looks the same without the fonts); no creation date, so a figure redrawn from the same
# data is the same file.
PAPER_RC = {"pdf.fonttype": 42, "ps.fonttype": 42, "svg.fonttype": "path", "svg.hashsalt": "ssdtlm"}
METADATA = {".pdf": {"CreationDate": None}, ".svg": {"Date": None}, ".png": {}}


def save_figure(fig, path, dpi=110, tight=False):
    """Writes fig as STEM.png (at dpi), STEM.pdf and STEM.svg, where path is STEM or STEM with one of those
    extensions; makes the folder; closes the figure. Returns the three paths, the PNG's first."""
    path = Path(path)
    stem = path.with_suffix("") if path.suffix.lower() in FORMATS else path
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [Path(str(stem) + ext) for ext in FORMATS]
    try:
        with matplotlib.rc_context(PAPER_RC):
            for p in paths:
                fig.savefig(p, dpi=dpi, bbox_inches="tight" if tight else None, metadata=METADATA[p.suffix])
    finally:
        plt.close(fig)
    return paths


def load_units(out_dir):
    path = Path(out_dir) / "columns.json"
    if path.is_file():
        return {k: v.get("unit", "") for k, v in json.loads(path.read_text()).items()}
    return {}


# Words for the columns studies plot most; others are made from their dotted names (human_name).
HUMAN = {
    "host.iops": "throughput", "host.read_iops": "read throughput", "host.write_iops": "write throughput",
    "host.mbps": "data rate", "host.read_mbps": "read data rate", "host.write_mbps": "write data rate",
    "waf.total": "write amplification", "waf.ud": "write amplification, user data",
    "waf.md": "write amplification, map", "waf.gud": "write amplification, GC of user data",
    "waf.gmd": "write amplification, GC of map pages", "ftl.alpha": "physical / logical space (α)",
    "geometry.over_provisioning": "over-provisioning", "host.queue_depth": "queue depth",
    "host.queues": "queue pairs", "workload.read_fraction": "read fraction", "buffer.bytes": "write buffer",
    "map.cache_bytes": "map cache", "map.segment_bytes": "map segment", "map.hit_ratio": "map cache hit ratio",
    "workload.block_bytes": "block size", "geometry.channels": "channels", "geometry.dies_per_channel":
    "dies per channel", "nand.erases": "block erases", "sim_time_s": "simulated time",
    "power.avg_w": "average power", "power.energy_j": "energy", "seed": "seed",
}
PERCENTILES = {"p50": "median", "p90": "90th-percentile", "p95": "95th-percentile", "p99": "99th-percentile",
               "p999": "99.9th-percentile", "p9999": "99.99th-percentile", "mean": "mean", "max": "maximum",
               "min": "minimum"}


def human_name(column):
    """A column in words: HUMAN's, a latency percentile spelled out, else the dotted name's last parts."""
    if column in HUMAN:
        return HUMAN[column]
    m = re.match(r"^(?:jobs\.([^.]+)\.)?host\.latency_us\.(read|write|trim)\.(\w+)$", column)
    if m and m.group(3) in PERCENTILES:
        return "%s%s %s latency" % ("job %s: " % m.group(1) if m.group(1) else "", PERCENTILES[m.group(3)],
                                    m.group(2))
    parts = column.split(".")
    words = " ".join(parts[-2:]) if len(parts) > 1 and parts[-2] not in ("host", "summary") else parts[-1]
    return re.sub(r"_(bytes|us|ms|s|w|j|mbps)$", "", words).replace("_", " ")


def label(column, units):
    unit = units.get(column)
    if unit is None:
        unit = table.metric_unit(column)
    unit = table.UNIT_TEXT.get(unit, unit)
    if not unit and column.endswith(("_fraction", "over_provisioning")):
        unit = "fraction"
    return "%s (%s)" % (human_name(column), unit) if unit else human_name(column)


def _ordered(series):
    """Distinct values: ascending for numbers, else in the order of the table (the study's order of the axis)."""
    import pandas as pd  # here, not at the top: a script that only saves figures needs matplotlib alone
    distinct = list(dict.fromkeys(series.tolist()))
    if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
        return sorted(distinct)
    return distinct


def _text(v):
    if isinstance(v, float) and v.is_integer():
        return "%d" % v
    return str(v)


def draw(spec, results_csv, out_dir, study_name="", units=None):
    """Draws one figure; returns the paths written (PNG, PDF, SVG)."""
    import pandas as pd
    df = pd.read_csv(results_csv)
    if units is None:
        units = load_units(Path(results_csv).parent)
    name = spec["name"]
    failed = df[df["status"] != "ok"] if "status" in df else df.iloc[0:0]
    if "status" in df:
        df = df[df["status"] == "ok"]
    x, lines, facets, ys = spec["x"], spec.get("lines"), spec.get("facets"), list(spec["y"])
    for col in [x, lines, facets] + ys + list(spec.get("where", {})):
        if col and col not in df.columns:
            raise FigureError("figure %s: no column %r in %s (columns: %s)" % (name, col, results_csv,
                                                                                ", ".join(df.columns)))
    for col, want in spec.get("where", {}).items():
        want = want if isinstance(want, list) else [want]
        df = df[df[col].isin(want)]
    if df.empty:
        raise FigureError("figure %s: no finished point to draw (%d failed)" % (name, len(failed)))

    shown = [c for c in (x, lines, facets) if c]
    groups = df.groupby(shown, dropna=False)
    averaged = [c for c in _varying_inputs(df) if c not in shown and (groups[c].nunique(dropna=False) > 1).any()]
    facet_values = _ordered(df[facets]) if facets else [None]
    line_values = _ordered(df[lines]) if lines else [None]
    numeric_x = pd.api.types.is_numeric_dtype(df[x]) and not pd.api.types.is_bool_dtype(df[x])
    x_values = _ordered(df[x])
    errorbars = spec.get("errorbars", "range")

    ncols, nrows = len(facet_values), len(ys)
    fig, axes = plt.subplots(nrows, ncols, figsize=(1.6 + 4.0 * ncols, 0.9 + 3.0 * nrows), squeeze=False,
                             sharex=True, sharey="row")
    for r, y in enumerate(ys):
        for c, fv in enumerate(facet_values):
            ax = axes[r][c]
            sub = df if facets is None else df[df[facets] == fv]
            drawn = _draw_lines(ax, sub, spec, y, lines, line_values, numeric_x, x_values)
            if not drawn and not _mark_failed(ax, failed, x, facets, fv, numeric_x, x_values):
                ax.text(0.5, 0.5, "no values > 0" if spec.get("yscale") == "log" else "no values",
                        transform=ax.transAxes, ha="center", va="center", color="grey")
            if facets is not None and r == 0:
                ax.set_title("%s = %s" % (human_name(facets), _text(fv)), fontsize=10)
            if r == nrows - 1:
                ax.set_xlabel(spec.get("xlabel") or label(x, units))
            if c == 0:
                ax.set_ylabel(spec.get("ylabel") if spec.get("ylabel") and nrows == 1 else label(y, units))
            if spec.get("xscale") == "log":
                ax.set_xscale("log")
            if drawn:
                _mark_failed(ax, failed, x, facets, fv, numeric_x, x_values)
            if spec.get("yscale") == "log" and drawn:
                ax.set_yscale("log")
            elif drawn and (df[y] >= 0).all():
                ax.set_ylim(bottom=0)
            if spec.get("yscale") != "log":
                ax.ticklabel_format(axis="y", useOffset=False, style="plain")
            if not numeric_x:
                ax.set_xticks(range(len(x_values)))
                ax.set_xticklabels([_text(v) for v in x_values])
            ax.grid(True, alpha=0.3)
    title = spec.get("title") or ("%s: %s" % (study_name, name) if study_name else name)
    notes = []
    if averaged:
        bars = {"range": "bars: min..max", "std": "bars: ±1 std", "none": "no bars"}[errorbars]
        notes.append("mean over %s (%s)" % (", ".join(human_name(c) for c in averaged), bars))
    if len(failed):
        notes.append("%d failed point%s: red crosses" % (len(failed), "s" if len(failed) > 1 else ""))
    fig.suptitle(title + ("\n" + "; ".join(notes) if notes else ""), fontsize=11)
    if lines is not None:
        handles, labels_ = axes[0][0].get_legend_handles_labels()
        if handles:
            fig.legend(handles, labels_, title=label(lines, units), loc="center left", bbox_to_anchor=(1.0, 0.5),
                       fontsize=9, title_fontsize=9)
    fig.tight_layout()
    return save_figure(fig, Path(out_dir) / name, dpi=120, tight=True)


def _draw_lines(ax, sub, spec, y, lines, line_values, numeric_x, x_values):
    """One panel's lines (one per value of `lines`): the mean of y over each x, with the figure's error bars;
    returns how many lines were drawn."""
    drawn = 0
    x, errorbars = spec["x"], spec.get("errorbars", "range")
    for lv in line_values:
        part = sub if lines is None else sub[sub[lines] == lv]
        if spec.get("yscale") == "log":
            part = part[part[y] > 0]  # nothing to show of zeros (e.g. the read latency of a write-only run)
        if part.empty:
            continue
        drawn += 1
        g = part.groupby(x, sort=True)[y].agg(["mean", "min", "max", "std", "count"])
        if numeric_x:
            xs = list(g.index)
        else:
            xs = [x_values.index(v) for v in g.index]
        kwargs = {"marker": "o", "markersize": 4, "label": _text(lv) if lines else None}
        if errorbars != "none" and (g["count"] > 1).any():
            if errorbars == "std":
                err = [g["std"].fillna(0), g["std"].fillna(0)]
            else:
                err = [g["mean"] - g["min"], g["max"] - g["mean"]]
            ax.errorbar(xs, g["mean"], yerr=err, capsize=3, **kwargs)
        else:
            ax.plot(xs, g["mean"], **kwargs)
    return drawn


def _mark_failed(ax, failed, x, facets, fv, numeric_x, x_values):
    """Red crosses at the bottom of the panel at the x of each failed point of this facet; True if any."""
    if failed.empty or x not in failed:
        return False
    part = failed if facets is None or facets not in failed else failed[failed[facets] == fv]
    xs = []
    for v in part[x].tolist():
        if numeric_x:
            try:
                xs.append(float(v))
            except (TypeError, ValueError):
                continue
        elif v in x_values:
            xs.append(x_values.index(v))
    if not xs:
        return False
    ax.plot(xs, [0.03] * len(xs), "x", color="red", markersize=8, mew=2, transform=ax.get_xaxis_transform(),
            label="failed", clip_on=False)
    return True


def _varying_inputs(df):
    """The input columns (axes, configuration keys, seed) of a results table: those before 'status'."""
    cols = list(df.columns)
    end = cols.index("status") if "status" in cols else 0
    return [c for c in cols[:end] if c != "point"]


def draw_all(study, out_dir, figure_dir=None):
    """Draws every figure of the study from OUT/results.csv into OUT/figures/; returns the paths written."""
    out = Path(out_dir)
    results = out / "results.csv"
    if not results.is_file():
        raise FigureError("%s: no results.csv (run the study first)" % out)
    units = load_units(out)
    paths = []
    for spec in study.figures:
        paths += draw(spec, results, Path(figure_dir) if figure_dir else out / "figures", study.name, units)
    return paths
