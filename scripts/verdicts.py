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
from studylib import verdict  # noqa: E402
from studylib.seed004_paper import PAPER as SEED004  # noqa: E402

FIGURES = ROOT / "docs" / "figures"


def mid(lo, hi):
    return (lo + hi) / 2


class Claim:
    """One claim: its text, the paper's effect, and per setting our per-seed effects."""

    def __init__(self, text, source, paper, unit, ours_by_setting):
        self.text, self.source, self.paper, self.unit = text, source, paper, unit
        self.ours = ours_by_setting  # setting -> [effect per seed]


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


def fmt(v, unit):
    return ("%+.0f" % v) if unit == "IOPS" else ("%+.3f" % v)


def render(claims, settings, conditional):
    """The claims table and, per setting, how many are in size."""
    header = ["claim", "source", "paper"]
    for g in settings:
        header += ["ours (%s%s, mean ± spread over %d seeds)" % (
            g, ": conditional" if g in conditional else ": default", len(claims[0].ours[g])), "verdict (%s)" % g]
    rows, in_size = [], {g: 0 for g in settings}
    for c in claims:
        row = [c.text, c.source, fmt(c.paper, c.unit)]
        for g in settings:
            effects = c.ours[g]
            m, s = statistics.mean(effects), verdict.spread(effects)
            v = verdict.judge(c.paper, m, s, conditional.get(g))
            in_size[g] += v.startswith(verdict.IN_SIZE)
            row += ["%s ± %s" % (fmt(m, c.unit), fmt(s, c.unit).lstrip("+")), v]
        rows.append(row)
    return verdict.markdown(header, rows), in_size


def shown(path):
    """A doc's path as the messages name it: relative to the repository when inside it."""
    try:
        return path.relative_to(ROOT)
    except ValueError:
        return path


RESULT_SETS = {
    "seed004": {
        "doc": ROOT / "docs" / "results" / "hotcold.md",
        "claims": lambda: seed004_claims(FIGURES / "seed004_spread.csv"),
        "conditional": {"forced": "ftl.gc_free_blocks=4"},
    },
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail when a doc's table differs (the default)")
    mode.add_argument("--write", action="store_true", help="write the computed tables into the docs")
    ap.add_argument("--only", help="one result set (%s)" % ", ".join(RESULT_SETS))
    a = ap.parse_args()
    names = [a.only] if a.only else list(RESULT_SETS)
    bad = []
    for name in names:
        if name not in RESULT_SETS:
            ap.error("unknown result set '%s' (%s)" % (name, ", ".join(RESULT_SETS)))
        rs = RESULT_SETS[name]
        claims, settings = rs["claims"]()
        table, in_size = render(claims, settings, rs["conditional"])
        default = settings[0]
        headline = "%d of %d claims in size on the defaults (%s)%s" % (
            in_size[default], len(claims), default,
            "".join("; %d of %d with %s, conditional (%s)" % (in_size[g], len(claims), g, rs["conditional"][g])
                    for g in settings if g in rs["conditional"]))
        print("%s: %s" % (name, headline))
        text = rs["doc"].read_text()
        new = verdict.replace_block(text, name, table + "\n**Headline:** " + headline + ".\n")
        if new == text:
            continue
        if a.write:
            rs["doc"].write_text(new)
            print("%s: wrote its table into %s" % (name, shown(rs["doc"])))
        else:
            bad.append(name)
            print("%s: the table in %s differs from the computed one (run scripts/verdicts.py --write)" % (
                name, shown(rs["doc"])), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
