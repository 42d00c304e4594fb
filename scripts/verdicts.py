#!/usr/bin/env python3
"""Every verdict of the results docs, computed from study outputs by one rule (issue 43; the rule:
scripts/studylib/verdict.py, docs/results/README.md).

usage: python3 scripts/verdicts.py [--check | --write] [--only NAME]

Each result set reads its study's compact outputs committed under docs/figures/ (written by the seed's script from
its study runs), judges each claim, and renders the claims table that sits in its results doc between
`<!-- verdicts:NAME begin ... -->` and `<!-- verdicts:NAME end -->`. --write replaces those tables; --check (the
default; the test suite runs it) exits 1 when a doc's table differs from the computed one, so a verdict cannot be
typed by hand. Both print the headline count: per seed, the claims "in size" on the platform's defaults, and the
conditional ones named.
"""
import argparse
import csv
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from studylib import verdict, seed_claims as sc  # noqa: E402
from studylib.claims import Claim, collect, fmt, fmt_paper, fmt_spread  # noqa: E402
from studylib.seed004_paper import PAPER as SEED004  # noqa: E402

FIGURES = ROOT / "docs" / "figures"


def mid(lo, hi):
    return (lo + hi) / 2


def seed004_claims(spread_csv):
    """Seed 004 (hot/cold separation on FEMU's bbssd): per distribution, the WAF change from threshold 0 to the
    threshold at which the seed reports its lowest WAF (fixed from the seed's numbers, before any run); zipf:1.2's
    IOPS change at that threshold; the uniform baseline's WAF (a level)."""
    with open(spread_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    at = {}
    for r in rows:
        at.setdefault((r["gc"], r["distribution"], int(r["threshold"])), {})[int(r["seed"])] = (
            float(r["iops"]), float(r["waf"]))
    settings = sorted({r["gc"] for r in rows}, key=lambda g: g != "stock")

    def per_seed(gc, dist, t, metric, minus_t0=True):
        cur, base = at[(gc, dist, t)], at[(gc, dist, 0)]
        seeds = sorted(cur)
        if seeds != sorted(base):
            raise ValueError("seed004: %s %s t%d and t0 ran different seeds" % (gc, dist, t))
        return [cur[s][metric] - (base[s][metric] if minus_t0 else 0) for s in seeds]

    claims = []
    names = {"normal": "normal", "pareto": "pareto", "zipf0.8": "zipf:0.8", "zipf1.2": "zipf:1.2", "uniform": "uniform"}
    for dist in ["zipf1.2", "zipf0.8", "normal", "pareto", "uniform"]:
        ts = sorted(t for (d, t) in SEED004 if d == dist and t > 0)
        best = min(ts, key=lambda t: mid(*SEED004[(dist, t)][2:]))
        paper = mid(*SEED004[(dist, best)][2:]) - mid(*SEED004[(dist, 0)][2:])
        claims.append(Claim("%s: hot/cold separation at threshold %d lowers WAF" % (names[dist], best),
                            "seed 004: WAF %.2f-%.2f at threshold 0, %.2f-%.2f at %d" % (
                                SEED004[(dist, 0)][2:] + SEED004[(dist, best)][2:] + (best,)),
                            paper, "WAF", {g: per_seed(g, dist, best, 1) for g in settings}))
        if dist == "zipf1.2":
            p_iops = mid(*SEED004[(dist, best)][:2]) - mid(*SEED004[(dist, 0)][:2])
            claims.append(Claim("zipf:1.2: separation at threshold %d raises IOPS" % best,
                                "seed 004: %d-%d IOPS at threshold 0, %d-%d at %d" % (
                                    SEED004[(dist, 0)][:2] + SEED004[(dist, best)][:2] + (best,)),
                                p_iops, "IOPS", {g: per_seed(g, dist, best, 0) for g in settings}))
    claims.append(Claim("uniform baseline WAF with FEMU's GC (threshold 0)",
                        "seed 004: %.2f-%.2f" % SEED004[("uniform", 0)][2:], mid(*SEED004[("uniform", 0)][2:]),
                        "WAF", {g: per_seed(g, "uniform", 0, 1, minus_t0=False) for g in settings}))
    return claims, settings


def render(claims, settings, conditional):
    """The claims table and, per setting, how many are in size."""
    header = ["claim", "source", "paper"]
    for g in settings:
        n = len(claims[0].ours[g])
        if len(settings) == 1 and not conditional:
            header += ["ours (mean ± spread over %d seeds)" % n, "verdict"]
            continue
        header += ["ours (%s%s, mean ± spread over %d seeds)" % (
            g, ": conditional" if g in conditional else ": default", n), "verdict (%s)" % g]
    rows, in_size = [], {g: 0 for g in settings}
    for c in claims:
        row = [c.text, c.source, fmt_paper(c)]
        for g in settings:
            effects = c.ours[g]
            m, s = statistics.mean(effects), verdict.spread(effects)
            judge = verdict.judge if c.sized else verdict.judge_sign
            v = judge(c.paper, m, s, conditional.get(g))
            in_size[g] += v.startswith(verdict.IN_SIZE)
            row += ["%s ± %s" % (fmt(m, c.unit), fmt_spread(s, c.unit)), v]
        rows.append(row)
    return verdict.markdown(header, rows), in_size


def shown(path):
    """A doc's path as the messages name it: relative to the repository when inside it."""
    try:
        return path.relative_to(ROOT)
    except ValueError:
        return path


def spread_set(seed, doc, claims, keys, metrics, conditional=None, per_run=None):
    """A result set judged on docs/figures/seedNNN_spread.csv, collected from studies/seedNNN_spread.json."""
    csv_path = FIGURES / ("seed%s_spread.csv" % seed)
    return {
        "doc": ROOT / "docs" / "results" / doc,
        "claims": lambda: claims(csv_path),
        "conditional": conditional or {},
        "study": ROOT / "studies" / ("seed%s_spread.json" % seed),
        "collect": lambda study_out: collect(study_out, csv_path, keys + ["seed"], metrics, per_run),
    }


RESULT_SETS = {
    "seed000": spread_set("000", "hexa.md", sc.seed000_claims, sc.SEED000_KEYS, sc.SEED000_METRICS),
    "seed001": spread_set("001", "ptsd.md", sc.seed001_claims, sc.SEED001_KEYS, sc.SEED001_METRICS,
                          per_run=sc.seed001_per_run),
    "seed002": spread_set("002", "pcstream.md", sc.seed002_claims, sc.SEED002_KEYS, sc.SEED002_METRICS),
    "seed003": spread_set("003", "map_cache.md", sc.seed003_claims, sc.SEED003_KEYS, sc.SEED003_METRICS,
                          conditional={"2-byte entries": "map.entry_bytes=2"}),
    "seed004": {
        "doc": ROOT / "docs" / "results" / "hotcold.md",
        "claims": lambda: seed004_claims(FIGURES / "seed004_spread.csv"),
        "conditional": {"forced": "ftl.gc_free_blocks=4"},
    },
}


README = ROOT / "docs" / "results" / "README.md"


def judge_set(rs):
    """(the doc's block: table and headline, the headline) of one result set."""
    claims, settings = rs["claims"]()
    table, in_size = render(claims, settings, rs["conditional"])
    default = settings[0]
    headline = "%d of %d claims in size on the defaults%s%s" % (
        in_size[default], len(claims), " (%s)" % default if len(settings) > 1 else "",
        "".join("; %d of %d with %s, conditional (%s)" % (in_size[g], len(claims), g, rs["conditional"][g])
                for g in settings if g in rs["conditional"]))
    return table + "\n**Headline:** " + headline + ".\n", headline, (in_size[default], len(claims))


def sync(doc, name, block, write):
    """True when the doc's block is the computed one (after writing it, with write)."""
    text = doc.read_text()
    new = verdict.replace_block(text, name, block)
    if new == text:
        return True
    if write:
        doc.write_text(new)
        print("%s: wrote its table into %s" % (name, shown(doc)))
        return True
    print("%s: the table in %s differs from the computed one (run scripts/verdicts.py --write)" % (
        name, shown(doc)), file=sys.stderr)
    return False


def collect_sets(names, study_out):
    for name in names:
        rs = RESULT_SETS[name]
        if "collect" not in rs:
            print("%s: collected by its seed's script, not here" % name)
            continue
        out = Path(study_out) if study_out else ROOT / "out" / "studies" / rs["study"].stem
        n = rs["collect"](out)
        print("%s: %d points of %s collected" % (name, n, shown(out)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail when a doc's table differs (the default)")
    mode.add_argument("--write", action="store_true", help="write the computed tables into the docs")
    mode.add_argument("--collect", action="store_true",
                      help="copy the spread studies' outputs the claims need into docs/figures/seedNNN_spread.csv")
    ap.add_argument("--only", help="one result set (%s)" % ", ".join(RESULT_SETS))
    ap.add_argument("--study-out", help="with --collect --only: the study's output directory "
                                        "(default out/studies/<the study's name>)")
    a = ap.parse_args()
    if a.only and a.only not in RESULT_SETS:
        ap.error("unknown result set '%s' (%s)" % (a.only, ", ".join(RESULT_SETS)))
    if a.study_out and not (a.collect and a.only):
        ap.error("--study-out goes with --collect --only NAME")
    names = [a.only] if a.only else list(RESULT_SETS)
    if a.collect:
        collect_sets(names, a.study_out)
        return 0
    ok, headlines, total = True, [], [0, 0]
    for name in names:
        rs = RESULT_SETS[name]
        block, headline, (n_in_size, n_claims) = judge_set(rs)
        total = [total[0] + n_in_size, total[1] + n_claims]
        print("%s: %s" % (name, headline))
        headlines.append("| %s | [%s](%s) | %s |" % (name, rs["doc"].name, rs["doc"].name, headline))
        ok = sync(rs["doc"], name, block, a.write) and ok
    if not a.only:
        headlines.append("| all | | %d of %d claims in size on the defaults |" % tuple(total))
        block = "| seed | doc | headline |\n|---|---|---|\n" + "\n".join(headlines) + "\n"
        ok = sync(README, "headline", block, a.write) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
