#!/usr/bin/env python3
"""Seed 002 (PCStream: program-context stream assignment, Kim et al. FAST'19) on platform pm963_streams.

usage: python3 scripts/seed002_pcstream.py [--workers N] [--out DIR] [--figures DIR] [--bin-dir DIR] [--plot-only]

Steps:
  1. run the studies, all in the platform's default device state (aged by file-system churn, no TRIM, spread
     allocation, the free space written before, 2 drive writes of application warm-up; docs/results/pcstream.md) unless said:
     studies/seed002_pcstream.json (40 points: 5 application models x 4 stream assignments x internal streams
     off/on), studies/seed002_discard.json (20 points: the discard reading, TRIM on delete, best-fit allocation;
     internal streams off), studies/seed002_pctable.json (8 points: gcc with PCStream and PC-stream tables of 0 to
     16 KiB, and 16 KiB emptied at every build, the seed's "no table") and studies/seed002_spare.json (12 points:
     over-provisioning 14.5/10/8 % x gcc, sqlite x Baseline, PCStream)
     with scripts/study.py --workers N (default 2) into DIR/studies/ (DIR default out/seed002), with the executable
     copied to DIR/bin first.
  2. draw the seed's figures into --figures (default DIR):
     seed002_iops_waf.png/.svg   normalized IOPS and WAF per workload and assignment (the seed's IOPS and WAF figures;
                                 internal streams off, as an unmodified PM963), and seed002_iops_waf_discard for the
                                 discard reading;
     seed002_internal.png/.svg   WAF without and with internal streams per assignment and workload;
     seed002_pctable.png/.svg    gcc: share of writes to stream 0 and WAF against the PC-stream table size;
     seed002_lifetimes.png/.svg  mixed1: per-stream data lifetime quartiles (box = p25..p75, line = median) for
                                 manual, autostream and pcstream;
     seed002_spare.png/.svg      WAF (whole run and its steady last third) against over-provisioning per workload;
     and write DIR/seed002_table.csv and DIR/seed002_spare.csv (one row per point), print our averages beside the
     seed's and the claim table (claim | paper | ours | verdict) docs/results/pcstream.md carries.
"""
import csv
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from studylib import seedrun  # noqa: E402

plt = seedrun.pyplot()
from studylib.plot import save_figure  # noqa: E402

MAIN = ROOT / "studies" / "seed002_pcstream.json"
DISCARD = ROOT / "studies" / "seed002_discard.json"
TABLE = ROOT / "studies" / "seed002_pctable.json"
SPARE = ROOT / "studies" / "seed002_spare.json"
APPS = ["lsm", "sqlite", "gcc", "mixed1", "mixed2"]
POLICIES = ["single", "manual", "autostream", "pcstream"]
STATE_TITLE = {"aged": "aged by churn, no TRIM, warmed up", "discard": "aged by churn, TRIM on delete, warmed up"}
LABEL = {"single": "Baseline", "manual": "Manual", "autostream": "AutoStream", "pcstream": "PCStream"}
# What the seed reports (its text; the figures' bars are not given as numbers).
PAPER = {
    "waf_pcstream_vs_baseline": -0.63, "waf_pcstream_vs_autostream": -0.49,
    "iops_pcstream_vs_baseline": 0.45, "iops_pcstream_vs_autostream": 0.28,
    # the seed's "without table" is its table thrown away after every run: our point per_build
    "gcc_stream0_share": {"per_build": 0.16, "4096": 0.12, "12288": 0.10, "16384": 0.10},
    "gcc_waf_no_table": 1.96, "gcc_waf_table": 1.54,
}


def load(study_out):
    """(results row with the axis values, the run's summary.json) for every point that finished."""
    dirs = seedrun.run_dirs(study_out)
    points = []
    for r in seedrun.ok_rows(study_out / "results.csv"):
        with open(dirs[r["point"]] / "summary.json") as s:
            r["run_dir"] = dirs[r["point"]]
            points.append((r, json.load(s)))
    return points


def labels(row, axes):
    return {a: row[a] for a in axes}


def tail_waf(run_dir):
    """Mean of the interval WAF over the last third of timeseries.csv's rows (the steady part of a long run)."""
    with open(Path(run_dir) / "timeseries.csv", newline="") as f:
        rows = [float(r["waf"]) for r in csv.DictReader(f)]
    tail = rows[len(rows) * 2 // 3:] or rows
    return sum(tail) / len(tail) if tail else float("nan")


def metrics(s, run_dir):
    st = s["streams"]
    pc = st.get("pcstream", {})
    return {
        "iops": s["host"]["iops"], "waf": s["waf"]["total"], "waf_last_third": tail_waf(run_dir),
        "stream0_share": st["default_fraction"],
        "written_gib": s["host"]["bytes_written"] / 2**30,
        "gc_units": sum(st["gc_writes"]), "table_entries": pc.get("table_entries", ""),
        "table_hits": pc.get("table_hits", ""), "table_misses": pc.get("table_misses", ""),
        "not_estimated_units": pc.get("not_estimated_units", ""),
    }


def by_key(points, axes):
    out = {}
    for row, s in points:
        out[tuple(row[a] for a in axes)] = s
    return out


def bars(ax, values, title, ylabel, ref=None):
    width = 0.8 / len(POLICIES)
    for i, pol in enumerate(POLICIES):
        xs = [k + (i - 1.5) * width for k in range(len(APPS))]
        ax.bar(xs, [values.get((app, pol), 0) for app in APPS], width, label=LABEL[pol])
    if ref is not None:
        ax.axhline(ref, color="grey", lw=0.8)
    ax.set_xticks(range(len(APPS)))
    ax.set_xticklabels(APPS)
    ax.set_title(title)
    ax.set_ylabel(ylabel)


def fig_iops_waf(main, path, state):
    runs = by_key(main, ("app", "policy", "internal"))
    iops, waf = {}, {}
    for app in APPS:
        base = runs.get((app, "single", "off"))
        for pol in POLICIES:
            s = runs.get((app, pol, "off"))
            if s and base:
                iops[(app, pol)] = s["host"]["iops"] / base["host"]["iops"]
                waf[(app, pol)] = s["waf"]["total"]
    fig, axs = plt.subplots(1, 2, figsize=(12, 4))
    bars(axs[0], iops, "IOPS normalized to Baseline", "normalized IOPS", 1.0)
    bars(axs[1], waf, "WAF", "WAF", 1.0)
    axs[1].legend(fontsize=8)
    fig.suptitle("Seed 002 on pm963_streams: stream assignment on application models (%s; internal streams off)" % state)
    fig.tight_layout()
    save_figure(fig, path)
    return iops, waf


def fig_internal(main, path, state):
    runs = by_key(main, ("app", "policy", "internal"))
    fig, axs = plt.subplots(1, len(APPS), figsize=(15, 3.6), sharey=True)
    for ax, app in zip(axs, APPS):
        xs = range(len(POLICIES))
        for j, (internal, name) in enumerate((("off", "without internal"), ("on", "with internal"))):
            ys = [runs[(app, p, internal)]["waf"]["total"] if (app, p, internal) in runs else 0 for p in POLICIES]
            ax.bar([x + (j - 0.5) * 0.38 for x in xs], ys, 0.38, label=name)
        ax.set_xticks(list(xs))
        ax.set_xticklabels([LABEL[p] for p in POLICIES], rotation=30, fontsize=8)
        ax.set_title(app)
    axs[0].set_ylabel("WAF")
    axs[-1].legend(fontsize=8)
    fig.suptitle("Seed 002: WAF without and with internal (GC) streams (%s)" % state)
    fig.tight_layout()
    save_figure(fig, path)


def table_label(point):
    """The x label of a table point: its size, or the seed's no-table experiment (16 KiB emptied every build)."""
    if not point.isdigit():
        return "16 KiB,\nemptied\nper build"
    b = int(point)
    return str(b // 1024) + " KiB" if b >= 1024 else str(b) + " B"


def fig_pctable(table, path, state):
    # the per-build point first (the seed's "without table"), then by size
    rows = sorted(((r["table"], s) for r, s in table), key=lambda t: int(t[0]) if t[0].isdigit() else -1)
    if not rows:
        return []
    fig, axs = plt.subplots(1, 2, figsize=(11, 3.8))
    xs = [table_label(p) for p, _ in rows]
    axs[0].bar(xs, [100 * s["streams"]["default_fraction"] for _, s in rows], label="ssdtlm")
    paper = PAPER["gcc_stream0_share"]
    axs[0].plot([xs[i] for i, (p, _) in enumerate(rows) if p in paper], [100 * paper[p] for p, _ in rows if p in paper],
                "o", color="black", label="seed (no table = emptied per run, 4/12/16 KiB)")
    axs[0].set_ylabel("writes to stream 0 (%)")
    axs[0].set_xlabel("PC-stream table")
    axs[0].legend(fontsize=8)
    axs[1].bar(xs, [s["waf"]["total"] for _, s in rows], label="ssdtlm")
    seed_waf = {"per_build": PAPER["gcc_waf_no_table"], "16384": PAPER["gcc_waf_table"]}
    axs[1].plot([xs[i] for i, (p, _) in enumerate(rows) if p in seed_waf], [seed_waf[p] for p, _ in rows if p in seed_waf],
                "o", color="black", label="seed (no table 1.96, table 1.54)")
    axs[1].legend(fontsize=8)
    axs[1].set_ylabel("WAF")
    axs[1].set_xlabel("PC-stream table")
    for ax in axs:
        ax.tick_params(axis="x", labelsize=8)
    fig.suptitle("Seed 002: gcc with PCStream, PC-stream table size (32 B per PC; %s)" % state)
    fig.tight_layout()
    save_figure(fig, path)
    return rows


def fig_lifetimes(main, path, state):
    runs = by_key(main, ("app", "policy", "internal"))
    pols = ["manual", "autostream", "pcstream"]
    fig, axs = plt.subplots(1, len(pols), figsize=(14, 3.8), sharey=True)
    for ax, pol in zip(axs, pols):
        s = runs.get(("mixed1", pol, "off"))
        if not s:
            continue
        stats, names = [], []
        for i, lt in enumerate(s["streams"]["lifetime"]):
            w = lt["host_writes"]
            if w["count"] == 0:
                continue
            # Lifetimes in host writes (4 KiB units written drive-wide in between), in GiB.
            g = 4096 / 2**30
            stats.append({"med": w["p50"] * g, "q1": w["p25"] * g, "q3": w["p75"] * g, "whislo": w["p25"] * g,
                          "whishi": w["p75"] * g, "fliers": [], "label": str(i)})
            names.append(str(i))
        if stats:
            ax.bxp(stats, showfliers=False)
        ax.set_yscale("log")
        ax.set_title(LABEL[pol])
        ax.set_xlabel("stream")
    axs[0].set_ylabel("lifetime (GiB host-written)")
    fig.suptitle("Seed 002: mixed1, per-stream data lifetime quartiles (completed lifetimes, sampled 1 unit in 8; %s)" % state)
    fig.tight_layout()
    save_figure(fig, path)


def fig_spare(spare, path):
    """WAF against over-provisioning, one panel per workload, one line per assignment (dashed: last third).
    spare: (results row, metrics) per point."""
    rows = {(r["app"], r["op"], r["policy"]): (m["waf"], m["waf_last_third"]) for r, m in spare}
    if not rows:
        return
    apps = sorted({a for a, _, _ in rows}, key=lambda a: (a.startswith("gcc"), a))
    ops = sorted({o for _, o, _ in rows}, key=lambda o: -float(o.rstrip("%")))
    fig, axs = plt.subplots(1, len(apps), figsize=(4 * len(apps), 3.6), squeeze=False)
    for ax, app in zip(axs[0], apps):
        for pol in POLICIES:
            pts = [(o, rows[(app, o, pol)]) for o in ops if (app, o, pol) in rows]
            line, = ax.plot([o for o, _ in pts], [w for _, (w, _) in pts], "o-", label=LABEL[pol])
            ax.plot([o for o, _ in pts], [t for _, (_, t) in pts], "--", color=line.get_color(), lw=0.8)
        ax.axhline(1.0, color="grey", lw=0.6)
        ax.set_title(app)
        ax.set_xlabel("over-provisioning")
    axs[0][0].set_ylabel("WAF (dashed: last third of the run)")
    axs[0][-1].legend(fontsize=8)
    fig.suptitle("Seed 002: WAF against the drive's over-provisioning (default device state, internal streams off)")
    fig.tight_layout()
    save_figure(fig, path)
    for app in apps:
        for o in ops:
            w = {pol: rows.get((app, o, pol), (float("nan"),) * 2) for pol in POLICIES}
            print("spare %-9s OP %-5s WAF %s | last third %s | PCStream vs Baseline %+.0f%% (last third %+.0f%%)" % (
                app, o, " ".join("%s %.3f" % (LABEL[p], w[p][0]) for p in POLICIES),
                " ".join("%.3f" % w[p][1] for p in POLICIES),
                100 * (w["pcstream"][0] / w["single"][0] - 1), 100 * (w["pcstream"][1] / w["single"][1] - 1)))


def write_csv(lines, path):
    """One row per dict, floats with 4 decimals."""
    seedrun.write_csv(lines, path, float_format="%.4f")


def table_csv(main, discard, table, path):
    lines = []
    for state, pts in (("aged", main), ("discard", discard)):
        for row, s in pts:
            lines.append(dict(state=state, internal=row.get("internal", "off"), **labels(row, ("app", "policy")),
                              table="", **metrics(s, row["run_dir"])))
    for row, s in table:
        lines.append(dict(state="aged", app="gcc", policy="pcstream", internal="on", table=row["table"],
                          **metrics(s, row["run_dir"])))
    write_csv(lines, path)


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs) if xs else float("nan")


def averages(iops, waf):
    rel = lambda a, b: mean(waf[(app, a)] / waf[(app, b)] - 1 for app in APPS if (app, a) in waf and (app, b) in waf)
    reli = lambda a, b: mean(iops[(app, a)] / iops[(app, b)] - 1 for app in APPS if (app, a) in iops and (app, b) in iops)
    return {"waf_vs_base": rel("pcstream", "single"), "waf_vs_auto": rel("pcstream", "autostream"),
            "iops_vs_base": reli("pcstream", "single"), "iops_vs_auto": reli("pcstream", "autostream")}


def report(iops, waf, rows):
    print("%-8s" % "workload" + "".join(" %12s" % ("WAF " + LABEL[p]) for p in POLICIES) +
          "".join(" %11s" % ("IOPS " + LABEL[p][:6]) for p in POLICIES))
    for app in APPS:
        print("%-8s" % app + "".join(" %12.3f" % waf.get((app, p), float("nan")) for p in POLICIES) +
              "".join(" %11.3f" % iops.get((app, p), float("nan")) for p in POLICIES))
    a = averages(iops, waf)
    print("PCStream WAF vs Baseline %+.0f%% (seed %+.0f%%), vs AutoStream %+.0f%% (seed %+.0f%%)" % (
        100 * a["waf_vs_base"], 100 * PAPER["waf_pcstream_vs_baseline"],
        100 * a["waf_vs_auto"], 100 * PAPER["waf_pcstream_vs_autostream"]))
    print("PCStream IOPS vs Baseline %+.0f%% (seed %+.0f%%), vs AutoStream %+.0f%% (seed %+.0f%%)" % (
        100 * a["iops_vs_base"], 100 * PAPER["iops_pcstream_vs_baseline"],
        100 * a["iops_vs_auto"], 100 * PAPER["iops_pcstream_vs_autostream"]))
    for p, s in rows:
        paper = PAPER["gcc_stream0_share"].get(p)
        print("gcc PC-stream table %-22s: stream 0 share %5.1f%%%s, WAF %.3f" % (
            table_label(p).replace("\n", " "), 100 * s["streams"]["default_fraction"],
            " (seed %.0f%%)" % (100 * paper) if paper is not None else "", s["waf"]["total"]))


def verdict(ok, near=False):
    return "reproduced" if ok else ("partly" if near else "not reproduced")


def claims(iops, waf, internal_waf, rows):
    """The claim table of docs/results/pcstream.md: (claim, paper, ours, verdict) rows, default device state."""
    a = averages(iops, waf)
    out = []
    base = [waf[(app, "single")] for app in APPS if (app, "single") in waf]
    out.append(("Baseline WAF on a 90 %-full PM963 (implied: PCStream -63 % with PCStream near 1)", "about 2.7",
                "%.2f-%.2f (mean %.2f)" % (min(base), max(base), mean(base)) if base else "-",
                verdict(bool(base) and min(base) >= 2.0 and abs(mean(base) / 2.7 - 1) <= 0.2,
                        bool(base) and min(base) >= 2.0)))
    out.append(("PCStream WAF vs Baseline, mean of 5 workloads", "-63 %", "%+.1f %%" % (100 * a["waf_vs_base"]),
                verdict(a["waf_vs_base"] <= -0.55, a["waf_vs_base"] <= -0.31)))
    out.append(("PCStream WAF vs AutoStream, mean", "-49 %", "%+.0f %%" % (100 * a["waf_vs_auto"]),
                verdict(a["waf_vs_auto"] <= -0.40, a["waf_vs_auto"] <= -0.245)))
    out.append(("PCStream IOPS vs Baseline, mean", "+45 %", "%+.0f %%" % (100 * a["iops_vs_base"]),
                verdict(a["iops_vs_base"] >= 0.35, a["iops_vs_base"] >= 0.225)))
    out.append(("PCStream IOPS vs AutoStream, mean", "+28 %", "%+.0f %%" % (100 * a["iops_vs_auto"]),
                verdict(a["iops_vs_auto"] >= 0.20, a["iops_vs_auto"] >= 0.14)))
    beats = [app for app in ("gcc", "mixed1", "mixed2") if (app, "pcstream") in waf and (app, "manual") in waf
             and waf[(app, "pcstream")] < waf[(app, "manual")]]
    out.append(("PCStream beats Manual on GCC, Mixed 1, Mixed 2", "all three", ", ".join(beats) or "none",
                verdict(len(beats) == 3, len(beats) > 0)))
    worst = [app for app in APPS if (app, "single") in waf and all(waf[(app, "single")] >= waf.get((app, p), 0)
                                                                   for p in POLICIES)]
    out.append(("Baseline has the highest WAF", "every workload", "%d of 5" % len(worst), verdict(len(worst) == 5,
                                                                                             len(worst) >= 3)))
    helped = [(app, p) for app in APPS for p in POLICIES if (app, p, "on") in internal_waf and (app, p, "off") in internal_waf
              and internal_waf[(app, p, "on")] < internal_waf[(app, p, "off")]]
    out.append(("Internal streams lower every technique's WAF", "all", "%d of %d" % (
        len(helped), len([k for k in internal_waf if k[2] == "on"])), verdict(len(helped) == 20, len(helped) >= 10)))
    share = {p: s["streams"]["default_fraction"] for p, s in rows}
    wafs = {p: s["waf"]["total"] for p, s in rows}
    if "per_build" in share and "4096" in share:
        out.append(("gcc stream-0 share: no table (emptied per run) -> 4 KiB -> 12 KiB", "16 % -> 12 % -> < 10 %",
                    "%.1f %% -> %.1f %% -> %.1f %% (0 B: %.1f %%)" % (100 * share["per_build"], 100 * share["4096"],
                                                                   100 * share.get("12288", float("nan")),
                                                                   100 * share.get("0", float("nan"))),
                    verdict(share["per_build"] >= 0.08 and share["per_build"] > share["4096"] >= share.get("12288", 0),
                            share["per_build"] > share["4096"])))
    if "per_build" in wafs and "16384" in wafs:
        out.append(("gcc WAF without -> with the table", "1.96 -> 1.54 (-21 %)", "%.2f -> %.2f (%+.0f %%); 0 B: %.2f" % (
            wafs["per_build"], wafs["16384"], 100 * (wafs["16384"] / wafs["per_build"] - 1), wafs.get("0", float("nan"))),
                    verdict(wafs["16384"] / wafs["per_build"] - 1 <= -0.15, wafs["16384"] < wafs["per_build"])))
    print("\n| claim | paper | ours | verdict |\n|---|---|---|---|")
    for c in out:
        print("| %s | %s | %s | %s |" % c)
    return out


def main():
    a = seedrun.argument_parser(
        __doc__, "out/seed002", workers_help="study workers (default 2)",
        bin_dir_help="run the ssdtlm-pm963_streams found here (default: a copy of build/bin's in DIR/bin)",
        plot_only_help="redraw from DIR/studies/").parse_args()
    out, figs = seedrun.output_dirs(a)
    rc = 0
    if not a.plot_only:
        bin_dir = seedrun.study_bin_dir(a, out, "pm963_streams")
        for study in (MAIN, DISCARD, TABLE, SPARE):
            r, wall = seedrun.run_study(study, out / "studies" / study.stem, a.workers, bin_dir)
            print("%s: wall time %.1f s with --workers %d" % (study.stem, wall, a.workers))
            rc = rc or r
    main_pts = load(out / "studies" / MAIN.stem)
    discard_pts = load(out / "studies" / DISCARD.stem) if (out / "studies" / DISCARD.stem / "results.csv").is_file() else []
    table_pts = load(out / "studies" / TABLE.stem)
    print("== device state: default (%s)" % STATE_TITLE["aged"])
    iops, waf = fig_iops_waf(main_pts, figs / "seed002_iops_waf", STATE_TITLE["aged"])
    fig_internal(main_pts, figs / "seed002_internal", STATE_TITLE["aged"])
    rows = fig_pctable(table_pts, figs / "seed002_pctable", STATE_TITLE["aged"])
    fig_lifetimes(main_pts, figs / "seed002_lifetimes", STATE_TITLE["aged"])
    report(iops, waf, rows)
    internal_waf = {k: s["waf"]["total"] for k, s in by_key(main_pts, ("app", "policy", "internal")).items()}
    claims(iops, waf, internal_waf, rows)
    if discard_pts:
        print("== device state: discard reading (%s)" % STATE_TITLE["discard"])
        for r, _ in discard_pts:
            r.setdefault("internal", "off")
        d_iops, d_waf = fig_iops_waf(discard_pts, figs / "seed002_iops_waf_discard", STATE_TITLE["discard"])
        report(d_iops, d_waf, [])
    table_csv(main_pts, discard_pts, table_pts, out / "seed002_table.csv")
    if (out / "studies" / SPARE.stem / "results.csv").is_file():
        spare = [(r, metrics(s, r["run_dir"])) for r, s in load(out / "studies" / SPARE.stem)]
        print("== over-provisioning (default device state, internal streams off)")
        fig_spare(spare, figs / "seed002_spare")
        write_csv([dict(labels(r, ("op", "app", "policy")), **m) for r, m in spare], out / "seed002_spare.csv")
    print("wrote %s/seed002_*.png|pdf|svg and %s/seed002_table.csv, seed002_spare.csv" % (figs, out))
    return rc


if __name__ == "__main__":
    sys.exit(main())
