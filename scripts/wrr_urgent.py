#!/usr/bin/env python3
"""Weighted round robin with urgent priority class against round robin (issue 42): does the urgent queue keep its
p99 read latency within 10 % of its solo p99 beside a saturating low-priority tenant?

usage: python3 scripts/wrr_urgent.py [--workers N] [--out DIR] [--figures DIR] [--bin-dir DIR] [--plot-only]
                                     [--check | --write]

Steps:
  1. run studies/wrr_urgent.json (regime x tenants x nvme.max_commands x 3 seeds, nvme.interface=register) with
     scripts/study.py --workers N (default 2) into DIR/studies/wrr_urgent (DIR default out/wrr_urgent), with the
     executable copied to DIR/bin first;
  2. write docs/figures/wrr_urgent.csv: per point, the urgent and low tenants' IOPS and read latency (from each
     run's summary.json);
  3. draw docs/figures/wrr_urgent.png/.svg/.pdf (or into --figures): the urgent queue's p99 over its solo p99
     against the controller's command slots, per arbitration, one panel per regime, the 1.10 bound drawn;
  4. print the claims table (claim | source | ours | verdict).

--check (no study run): the table computed from the committed docs/figures/wrr_urgent.csv must equal the one in
docs/results/nvme_arbitration.md (between its verdicts:wrr_urgent markers); exit 1 when not. --write puts it there.

The verdict, computed, never typed: for each arbitration, regime and slot count, ours = the mean over the seeds of
(urgent p99 beside the low tenant) / (urgent p99 alone, same seed and slots); "holds" when ours <= 1.10, else
"fails". The low tenant saturates by construction: it keeps 256 commands outstanding, more than any slot count
admits, so entries always wait in its queues (with no slot limit it saturates the dies or the link).
"""
import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from studylib import seedrun, verdict  # noqa: E402

STUDY = ROOT / "studies" / "wrr_urgent.json"
CSV = ROOT / "docs" / "figures" / "wrr_urgent.csv"
DOC = ROOT / "docs" / "results" / "nvme_arbitration.md"
BEGIN = "<!-- verdicts:wrr_urgent begin (scripts/wrr_urgent.py writes this table; do not edit by hand) -->\n"
END = "<!-- verdicts:wrr_urgent end -->\n"
BOUND = 1.10        # the claim: within 10 % of the solo p99
REGIMES = [("flash", "low tenant bound by the flash (reads of written data)"),
           ("interface", "low tenant bound by the host interface (reads of deallocated blocks)")]
ARBS = [("wrr", "weighted round robin, urgent class", "tab:green", "o"), ("rr", "round robin", "tab:red", "s")]
SOURCE = {"wrr": "issue 42 (NVMe Base 2.0 §3.4.4.2)", "rr": "issue 42: round robin should fail it (§3.4.4.1)"}
COLUMNS = ["regime", "arbitration", "max_commands", "seed", "urgent_iops", "urgent_p99_us", "urgent_mean_us",
           "low_iops", "low_p99_us"]


def collect(study_out):
    """The compact table: one row per point, from each run's summary.json (jobs found by name)."""
    dirs = seedrun.run_dirs(study_out)
    rows = []
    for r in seedrun.ok_rows(Path(study_out) / "results.csv"):
        with open(dirs[r["point"]] / "summary.json") as f:
            s = json.load(f)
        # one job: the summary's host section is the job's
        jobs = {j["name"]: j for j in s["jobs"]} if "jobs" in s else {"urgent": s["host"]}
        regime, arb = r["case"].split("-")
        u = jobs["urgent"]
        low = jobs.get("low")
        rows.append({"regime": regime, "arbitration": arb, "max_commands": int(r["nvme.max_commands"]),
                     "seed": int(r["seed"]), "urgent_iops": u["iops"], "urgent_p99_us": u["latency_us"]["read"]["p99"],
                     "urgent_mean_us": u["latency_us"]["read"]["mean"],
                     "low_iops": low["iops"] if low else "", "low_p99_us": low["latency_us"]["read"]["p99"] if low else ""})
    return rows


def load(path):
    import csv
    with open(path, newline="") as f:
        out = []
        for r in csv.DictReader(f):
            out.append({k: (r[k] if k in ("regime", "arbitration") else (float(r[k]) if r[k] != "" else None))
                        for k in COLUMNS})
    return out


def ratios(rows):
    """{(regime, arbitration, slots): [loaded p99 / solo p99 per seed]}, and the low tenant's IOPS per key."""
    solo = {(r["regime"], r["max_commands"], r["seed"]): r["urgent_p99_us"] for r in rows if r["arbitration"] == "solo"}
    out, low = {}, {}
    for r in rows:
        if r["arbitration"] == "solo":
            continue
        k = (r["regime"], r["arbitration"], r["max_commands"])
        out.setdefault(k, []).append(r["urgent_p99_us"] / solo[(r["regime"], r["max_commands"], r["seed"])])
        low.setdefault(k, []).append(r["low_iops"])
    return out, low


def slots_text(m):
    return "no limit" if m == 0 else "%d" % m


def table(rows):
    rat, low = ratios(rows)
    solo = {}
    for r in rows:
        if r["arbitration"] == "solo":
            solo.setdefault((r["regime"], r["max_commands"]), []).append(r["urgent_p99_us"])
    lines = []
    for g, gtext in REGIMES:
        for m in sorted({k[2] for k in rat if k[0] == g}, key=lambda m: (m == 0, m)):
            for a, atext, _, _ in ARBS:
                v = rat[(g, a, m)]
                mean, sd = statistics.mean(v), verdict.spread(v)
                loaded = [r["urgent_p99_us"] for r in rows if (r["regime"], r["arbitration"], r["max_commands"]) == (g, a, m)]
                lines.append([
                    "urgent p99 within 10 %% of solo: %s; %s bound; %s command slots" % (atext, g, slots_text(m)),
                    SOURCE[a],
                    "%.3f +- %.3f (p99 %.1f us, solo %.1f us; low tenant %.0f kIOPS)" % (
                        mean, sd, statistics.mean(loaded), statistics.mean(solo[(g, m)]),
                        statistics.mean(low[(g, a, m)]) / 1000),
                    "holds" if mean <= BOUND else "fails"])
    return verdict.markdown(["claim", "source", "ours (p99 / solo p99, mean +- sd over 3 seeds)", "verdict"], lines)


def figure(rows, path):
    plt = seedrun.pyplot()
    from studylib.plot import save_figure
    rat, _ = ratios(rows)
    fig, axs = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, (g, gtext) in zip(axs, REGIMES):
        slots = sorted({k[2] for k in rat if k[0] == g}, key=lambda m: (m == 0, m))
        xs = list(range(len(slots)))
        for a, atext, color, marker in ARBS:
            vals = [rat[(g, a, m)] for m in slots]
            ax.errorbar(xs, [statistics.mean(v) for v in vals], yerr=[statistics.stdev(v) for v in vals],
                        color=color, marker=marker, capsize=3, label=atext)
        ax.axhline(BOUND, color="black", ls="--", lw=1, label="bound: 1.10 x solo p99")
        ax.axhline(1.0, color="gray", lw=0.5)
        ax.set_xticks(xs)
        ax.set_xticklabels([slots_text(m) for m in slots])
        ax.set_xlabel("controller command slots (nvme.max_commands)")
        ax.set_title(gtext, fontsize=9)
        ax.set_yscale("log")
        ax.set_ylim(0.8, 30)
    axs[0].set_ylabel("urgent p99 read latency / solo p99 (ratio, log scale)")
    axs[0].legend(fontsize=8)
    fig.suptitle("Urgent queue (QD 1, 4 KiB reads) beside a low-priority tenant (16 x QD 16), 3 seeds "
                 "(studies/wrr_urgent.json)", fontsize=10)
    fig.tight_layout()
    return save_figure(fig, path)


def main():
    a = seedrun.argument_parser(
        __doc__, "out/wrr_urgent", workers_help="study workers (default 2)",
        bin_dir_help="run the ssdtlm-generic found here (default: a copy of build/bin's in DIR/bin)",
        plot_only_help="redraw from DIR/studies/ (no run)")
    a.add_argument("--check", action="store_true", help="compare the doc's table with the committed CSV's; no run")
    a.add_argument("--write", action="store_true", help="write the table into docs/results/nvme_arbitration.md")
    a = a.parse_args()
    if a.check:
        want = table(load(CSV))
        text = DOC.read_text()
        i, j = text.find(BEGIN), text.find(END)
        have = text[i + len(BEGIN):j] if 0 <= i < j else None
        print(want, end="")
        if have != want:
            print("%s: the wrr_urgent table differs from the one computed from %s" % (DOC, CSV), file=sys.stderr)
            return 1
        return 0
    out, figs = seedrun.output_dirs(a)
    if a.figures is None:
        figs = ROOT / "docs" / "figures"
    rc = 0
    if not a.plot_only:
        r, wall = seedrun.run_study(STUDY, out / "studies" / STUDY.stem, a.workers, seedrun.study_bin_dir(a, out, "generic"))
        print("%s: wall time %.1f s with --workers %d" % (STUDY.stem, wall, a.workers))
        rc = r
    rows = collect(out / "studies" / STUDY.stem)
    seedrun.write_csv(rows, CSV, COLUMNS, float_format="%.4f")
    rows = load(CSV)
    figure(rows, figs / "wrr_urgent")
    t = table(rows)
    print(t, end="")
    if a.write:
        text = DOC.read_text()
        i, j = text.find(BEGIN), text.find(END)
        if not 0 <= i < j:
            sys.exit("%s: no wrr_urgent markers (%s ... %s)" % (DOC, BEGIN.strip(), END.strip()))
        DOC.write_text(text[:i + len(BEGIN)] + t + text[j:])
        print("wrote the table into %s" % DOC)
    return rc


if __name__ == "__main__":
    sys.exit(main())
