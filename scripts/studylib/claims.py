"""A claim of a results table and the compact study outputs it is judged on (issue 43).

A spread study (studies/seedNNN_spread.json) runs each point of a seed's claims on at least three seeds. `collect`
copies the few columns the claims need from the study's results.csv (and, where asked, from each run's outputs)
into docs/figures/seedNNN_spread.csv, which is committed: the test suite judges every table on it without running
the studies. `load` reads it back.
"""
import csv
import statistics
from pathlib import Path


class Claim:
    """One claim: its text, its source, the paper's effect, and per setting our effect on each seed.

    unit: how effects are shown: "rel" (a relative change, shown in %), "share" (a fraction, shown in %), "us",
    "iops", "waf", "x" (a plain ratio). sized: False when the paper gives only the direction (paper is then +1 or
    -1, judged by verdict.judge_sign)."""

    def __init__(self, text, source, paper, unit, ours_by_setting, sized=True):
        self.text, self.source, self.paper, self.unit, self.sized = text, source, paper, unit, sized
        self.ours = ours_by_setting  # setting -> [effect per seed]


def fmt(v, unit):
    if unit in ("rel", "share"):
        return "%+.1f %%" % (100 * v) if unit == "rel" else "%.2f %%" % (100 * v)
    if unit in ("iops", "IOPS", "us"):
        return ("%+.0f" % v) + (" µs" if unit == "us" else "")
    if unit == "x":
        return "%.2f" % v
    return "%+.3f" % v


def fmt_paper(c):
    if not c.sized:
        return "%s (no number)" % ("higher" if c.paper > 0 else "lower")
    return fmt(c.paper, c.unit)


def fmt_spread(v, unit):
    return fmt(v, unit).lstrip("+")


def mean(values):
    return statistics.mean(values)


def collect(study_out, out_csv, keys, metrics, per_run=None):
    """docs/figures' compact copy of a spread study: for each finished point, the key columns (axes and seed), the
    metrics (name -> results.csv column) and, with per_run(run_dir) -> {name: value}, values read from the run's
    own outputs. Refuses a study with failed points: a claim judged on a part of its seeds would be judged wrongly."""
    study_out = Path(study_out)
    with open(study_out / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    bad = [r["point"] for r in rows if r["status"] != "ok"]
    if bad:
        raise ValueError("%s: points %s failed; rerun the study before collecting" % (study_out, ", ".join(bad)))
    run_dirs = {}
    if per_run:
        with open(study_out / "runs.csv", newline="") as f:
            run_dirs = {r["point"]: Path(r["run_dir"]) for r in csv.DictReader(f)}
    out = []
    for r in rows:
        row = {k: r[k] for k in keys}
        for name, col in metrics.items():
            if col not in r:
                raise ValueError("%s: no column '%s' in results.csv" % (study_out, col))
            row[name] = r[col]
        if per_run:
            row.update(per_run(run_dirs[r["point"]]))
        out.append(row)
    Path(out_csv).parent.mkdir(parents=True, exist_ok=True)
    with open(out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(out[0]))
        w.writeheader()
        w.writerows(out)
    return len(out)


def load(path, keys):
    """{(key values..., seed): {metric: float}} from a compact spread table; keys are its non-metric columns."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    table = {}
    for r in rows:
        k = tuple(r[c] for c in keys) + (int(r["seed"]),)
        table[k] = {c: float(v) for c, v in r.items() if c not in keys and c != "seed" and v != ""}
    return table


def seeds_of(table):
    return sorted({k[-1] for k in table})


def per_seed(table, effect):
    """[effect(seed) for each seed of the table]: effect reads the table's rows of one seed."""
    return [effect(lambda *k: table[tuple(str(x) for x in k) + (s,)], s) for s in seeds_of(table)]


def percentile_from_cdf(run_dir, op, q):
    """The latency (µs) at cumulative fraction q of op's histogram in the run's latency_cdf.csv: the first bucket
    reaching q."""
    with open(Path(run_dir) / "latency_cdf.csv", newline="") as f:
        for r in csv.DictReader(f):
            if r["op"] == op and float(r["cumulative_fraction"]) >= q:
                return float(r["latency_us"])
    raise ValueError("%s: no %s latency reaches %.3f in latency_cdf.csv" % (run_dir, op, q))
