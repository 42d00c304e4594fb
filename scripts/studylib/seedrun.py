"""What the seed scripts share: their common options and output directories, a snapshot of the platform executable,
a run of a study through study.py, pyplot set up for files, and CSV tables written from dicts."""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import venv

SCRIPTS = Path(__file__).resolve().parent.parent
ROOT = SCRIPTS.parent


def snapshot_binary(out, platform):
    """Copies build/bin/ssdtlm-<platform> to OUT/bin/ so that a rebuild during the study (others work in the same
    tree) cannot fail its points; the run cache is keyed by the build id, not the path, so the runs are those of
    that build wherever it lies."""
    src = ROOT / "build" / "bin" / ("ssdtlm-" + platform)
    if not src.is_file():
        sys.exit("%s missing: run bash scripts/build.sh" % src)
    dst_dir = Path(out) / "bin"
    dst_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst_dir / src.name)
    return dst_dir


def run_study(study, out_dir, workers, bin_dir=None):
    """Runs scripts/study.py on the study file (with build/bin's executables unless bin_dir names others);
    returns (exit status, wall seconds)."""
    argv = [sys.executable, str(SCRIPTS / "study.py"), str(study), "--workers", str(workers), "--out", str(out_dir)]
    if bin_dir:
        argv += ["--bin-dir", str(bin_dir)]
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    print("+ " + " ".join(argv), flush=True)
    t0 = time.time()
    rc = subprocess.run(argv, cwd=str(ROOT), env=env).returncode
    return rc, time.time() - t0


def pyplot(modules=("matplotlib",)):
    """matplotlib.pyplot drawing to files (the Agg backend), after venv.ensure(modules) has made sure the running
    Python has them (it re-executes the script with .venv/bin/python when not)."""
    venv.ensure(modules)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def argument_parser(doc, out_default, workers_help=None, bin_dir_help=None, plot_only_help=None,
                    figures_help="where the figures go (default: --out)"):
    """The options every seed script has: --out (default out_default), --figures, --workers (default 2; only with
    workers_help), --bin-dir and --plot-only. The script adds its own."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=out_default, help="output directory (default %s)" % out_default)
    ap.add_argument("--figures", help=figures_help)
    if workers_help:
        ap.add_argument("--workers", type=int, default=2, help=workers_help)
    ap.add_argument("--bin-dir", help=bin_dir_help)
    ap.add_argument("--plot-only", action="store_true", help=plot_only_help)
    return ap


def output_dirs(a):
    """(output directory, figure directory) of parsed arguments; a relative path is relative to the repository."""
    out = Path(a.out) if Path(a.out).is_absolute() else ROOT / a.out
    figs = Path(a.figures) if a.figures else out
    return out, (figs if figs.is_absolute() else ROOT / figs)


def study_bin_dir(a, out, platform):
    """--bin-dir when given, else a snapshot of build/bin's executable in OUT/bin (snapshot_binary)."""
    return Path(a.bin_dir) if a.bin_dir else snapshot_binary(out, platform)


def write_csv(rows, path, columns=None, float_format=None):
    """One row per dict. columns: these (keys outside them are left out, missing ones are empty), or every key
    of the rows in the order first seen. float_format ("%.4f"): how floats are written (default: Python's)."""
    if columns is None:
        columns = []
        for r in rows:
            columns += [k for k in r if k not in columns]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: (float_format % v if float_format and isinstance(v, float) else v) for k, v in r.items()})


def ok_rows(results_csv):
    """The rows of a study's results.csv whose point finished (status ok), in file order."""
    with open(results_csv, newline="") as f:
        return [r for r in csv.DictReader(f) if r["status"] == "ok"]


def run_dirs(study_out):
    """point -> its run directory (a Path), from the runs.csv in a study's output directory."""
    with open(Path(study_out) / "runs.csv", newline="") as f:
        return {r["point"]: Path(r["run_dir"]) for r in csv.DictReader(f)}
