#!/usr/bin/env python3
"""The experiments behind the real drives' misses (issue 40: "every row outside these bounds names its cause, with
the experiment that tests it").

usage: drive_experiments.py [--bin-dir build/bin] [--run] [--only ID,..] [--write] [--check] [--jobs N]
                            [--declared docs/results/drives/experiments/declared.json]
                            [--results docs/results/drives/experiments/results.json]

docs/results/drives/experiments/declared.json declares each experiment BEFORE it is run: the drive, the validation rows it
concerns, the hypothesis (the cause of the miss), the one change the experiment makes (--override KEY=VALUE of
scripts/validate_drives.py: a run setting, never the platform's config.json) and the prediction the hypothesis
makes, from which the outcome is computed:
  within     with the change every row is within its bound (the hypothesis claims the whole miss);
  halves     with the change every row's |error| is at most half of what it is without it (the main cause);
  outside    with the change every row stays outside its bound (a control: the hypothesis says this is not it);
  unchanged  every row's value moves by at most 5 % (the hypothesis says this mechanism does not bound it).
The outcome is "not refuted" when the prediction holds for every row, else "refuted".

--run measures each chosen experiment's rows twice with validate_drives.py's measurement (measure_drive): as
configured and with the change, at the same scale and I/O count, and stores the numbers in the results file (merged
with what it holds). --write puts each drive's table (row | hypothesis | experiment | result | outcome) into
docs/results/drives/<drive>.md between the markers below; --check exits 1 when a page's table is not what --write
would write (the pages' tables come from this script, never typed by hand).
"""
import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import validate_drives as vd  # noqa: E402

ROOT = vd.ROOT
DECLARED = vd.DECL / "experiments" / "declared.json"
RESULTS = vd.DECL / "experiments" / "results.json"
BEGIN = "<!-- drive_experiments:begin (written by scripts/drive_experiments.py --write; do not edit) -->"
END = "<!-- drive_experiments:end -->"
PREDICTIONS = ("within", "halves", "outside", "unchanged")
UNCHANGED = 0.05


def fail(msg):
    print("drive_experiments.py: " + msg, file=sys.stderr)
    sys.exit(2)


def load_declared(path):
    with open(path) as f:
        exps = json.load(f)["experiments"]
    seen = set()
    for e in exps:
        for key in ("id", "drive", "rows", "hypothesis", "override", "predicts"):
            if key not in e:
                fail("%s: experiment %s lacks %r" % (path, e.get("id", "?"), key))
        if e["id"] in seen:
            fail("%s: experiment id %s twice" % (path, e["id"]))
        seen.add(e["id"])
        if e["predicts"] not in PREDICTIONS:
            fail("%s: %s predicts %r, expected one of %s" % (path, e["id"], e["predicts"], PREDICTIONS))
        decl, _ = vd.load_drive(e["drive"])
        ids = {m["id"] for k in ("calibration", "validation") for m in decl.get(k, [])}
        for r in e["rows"]:
            if r not in ids:
                fail("%s: %s names row %s, not declared for %s" % (path, e["id"], r, e["drive"]))
        for kv in e["override"]:
            if "=" not in kv:
                fail("%s: %s: override %r is not KEY=VALUE" % (path, e["id"], kv))
    return exps


def measure(e, override, bin_dir, out, jobs):
    """{row id: (value, published, kind)} of the experiment's rows, measured with validate_drives.measure_drive."""
    a = argparse.Namespace(bin_dir=bin_dir, scale=e.get("scale", 0), kind="all", ci=False, only=",".join(e["rows"]),
                           io_scale=e.get("io_scale", 1.0), out=out, jobs=jobs, override=list(override))
    rows, failed, _, _ = vd.measure_drive(e["drive"], a)
    if failed:
        raise RuntimeError("; ".join(failed))
    return {r["id"]: {"value": r["ssdtlm"], "published": r["published"], "kind": r["kind"], "unit": r["unit"]}
            for r in rows}


def error(v):
    return (v["value"] - v["published"]) / v["published"]


def outcome(predicts, base, exp):
    """"not refuted" when the prediction holds for every row, else "refuted"; "no result" when a value is missing."""
    held = []
    for rid, x in exp.items():
        b = base[rid]
        if math.isnan(x["value"]) or (predicts in ("halves", "unchanged") and math.isnan(b["value"])):
            return "no result"
        bound = vd.BOUNDS[x["kind"]]
        if predicts == "within":
            held.append(abs(error(x)) <= bound)
        elif predicts == "outside":
            held.append(abs(error(x)) > bound)
        elif predicts == "halves":
            held.append(abs(error(x)) <= abs(error(b)) / 2)
        else:
            held.append(abs(x["value"] / b["value"] - 1) <= UNCHANGED)
    return "not refuted" if held and all(held) else "refuted"


def run(exps, only, bin_dir, out, jobs, results):
    base_cache = {}
    for e in exps:
        if only and e["id"] not in only:
            continue
        key = (e["drive"], tuple(sorted(e["rows"])), e.get("scale", 0), e.get("io_scale", 1.0))
        if key not in base_cache:
            base_cache[key] = measure(e, [], bin_dir, str(Path(out) / e["id"] / "base"), jobs)
        exp = measure(e, e["override"], bin_dir, str(Path(out) / e["id"] / "exp"), jobs)
        results[e["id"]] = {"override": e["override"], "scale": e.get("scale", 0), "io_scale": e.get("io_scale", 1.0),
                            "base": base_cache[key], "exp": exp}
        print("%-32s %s" % (e["id"], outcome(e["predicts"], base_cache[key], exp)))
    return results


def fmt_value(v):
    if math.isnan(v["value"]):
        return "no result"
    return "%s %s (%+.1f %%)" % (vd.fmt(v["value"], v["unit"]), v["unit"], 100 * error(v))


def command(e):
    opts = " ".join("--override %s" % kv for kv in e["override"])
    extra = (" --scale %d" % e["scale"] if e.get("scale") else "") + (
        " --io-scale %g" % e["io_scale"] if e.get("io_scale", 1.0) != 1.0 else "")
    return "`validate_drives.py --drives %s --only %s%s %s`" % (e["drive"], ",".join(e["rows"]), extra, opts)


def table(drive, exps, results):
    lines = [BEGIN, "", "| row | hypothesis | experiment | result (as configured -> with the change) | outcome |",
             "|---|---|---|---|---|"]
    for e in exps:
        if e["drive"] != drive:
            continue
        res = results.get(e["id"])
        if res is None or res["override"] != e["override"]:
            result, verdict = "not run", "not run"
        else:
            result = "; ".join("%s: %s -> %s" % (rid, fmt_value(res["base"][rid]), fmt_value(res["exp"][rid]))
                               for rid in e["rows"])
            verdict = outcome(e["predicts"], res["base"], res["exp"])
        hyp = "**%s** %s Predicts: %s (%s)." % (e["id"], e["hypothesis"], e["predicts"], e.get("refuted_if", ""))
        lines.append("| %s | %s | %s | %s | %s |" % (", ".join(e["rows"]), hyp.replace("|", "/"), command(e), result,
                                                     verdict))
    lines += ["", END]
    return "\n".join(lines)


def page_with_table(text, block):
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        return head + block + rest.split(END, 1)[1]
    return text.rstrip("\n") + "\n\n## Experiments (generated)\n\n" + block + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin-dir", default=str(ROOT / "build" / "bin"))
    ap.add_argument("--declared", default=str(DECLARED))
    ap.add_argument("--results", default=str(RESULTS))
    ap.add_argument("--pages", default=str(vd.DECL), help="the folder of the drives' <drive>.md pages")
    ap.add_argument("--out", default=str(ROOT / "out" / "drive_experiments"))
    ap.add_argument("--only", default="", help="only these experiment ids (comma-separated)")
    ap.add_argument("--run", action="store_true")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    exps = load_declared(a.declared)
    only = {i for i in a.only.split(",") if i}
    unknown = only - {e["id"] for e in exps}
    if unknown:
        fail("--only: no experiment %s" % ", ".join(sorted(unknown)))
    results = {}
    if Path(a.results).exists():
        with open(a.results) as f:
            results = json.load(f)
    if a.run:
        try:
            run(exps, only, a.bin_dir, a.out, a.jobs, results)
        finally:
            with open(a.results, "w") as f:
                json.dump(results, f, indent=1, sort_keys=True)
    stale = []
    for drive in sorted({e["drive"] for e in exps}):
        page = Path(a.pages) / (drive + ".md")
        if not page.exists():
            continue
        text = page.read_text()
        new = page_with_table(text, table(drive, exps, results))
        if a.write and new != text:
            page.write_text(new)
        elif a.check and new != text:
            stale.append(str(page))
    if stale:
        print("drive_experiments.py: tables not as written by --write: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
