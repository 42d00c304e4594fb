#!/usr/bin/env python3
"""Runs a study (a parameter sweep described in a JSON file) on Dask, caches every run, writes one table and figures.

usage: .venv/bin/python scripts/study.py STUDY.json [--out DIR] [--workers N] [--scheduler ADDRESS] [--dry-run]
           [--plot-only] [--rerun] [--cache DIR] [--bin-dir DIR] [--worker-bin-dir DIR] [--timeout SECONDS]
           [--snapshots DIR|off] [--keep-snapshots] [--dashboard [ADDRESS] | --no-dashboard]

Each point is one run of build/bin/ssdtlm-<platform> with --config/--set; the points run on a Dask LocalCluster with
one single-threaded worker process per core (--workers N), or on any running Dask scheduler (--scheduler
tcp://host:8786, or the path of a scheduler file). Finished runs are cached by the hash of their configuration and the
executable's build id, so a re-run executes only the points that are new or changed. Points whose preconditioning
reads the same keys share one preconditioned drive: the first saves a snapshot (precondition.snapshot_dir, under
--snapshots), the others load it (results identical; docs/history/performance.md, "Snapshots"). Writes to DIR (default
out/studies/<name>/): results.csv (one row per point), runs.csv (command lines, workers, times, cache entries),
columns.json (units), commands.sh, study.json and figures/<name>.png/.pdf/.svg. Exit status: 0 when every point
finished, 1 when one failed (the others still run and are tabled), 2 for a study file or option that is wrong.
--dashboard serves Dask's dashboard (bokeh, in requirements.txt) while the study runs and prints its link;
--no-dashboard (the default) serves none and says nothing about one.
See docs/guides/studies.md.
"""
import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("study", help="study file (JSON), e.g. studies/op_qd_rf.json")
    ap.add_argument("--out", help="output directory (default: out/studies/<name>)")
    ap.add_argument("--workers", type=int, help="LocalCluster worker processes, one thread each (default: one per core)")
    ap.add_argument("--scheduler", help="use a running Dask scheduler: tcp://host:8786 or a scheduler file")
    ap.add_argument("--dry-run", action="store_true", help="list the points, whether each is cached, and their "
                                                           "command lines; run nothing")
    ap.add_argument("--plot-only", action="store_true", help="redraw the figures from DIR/results.csv; run nothing")
    ap.add_argument("--rerun", action="store_true", help="run every point again, even those in the cache")
    ap.add_argument("--cache", help="cache directory (default: $SSDTLM_CACHE or out/cache)")
    ap.add_argument("--bin-dir", help="where ssdtlm-<platform> is (default: $SSDTLM_BIN_DIR or build/bin)")
    ap.add_argument("--worker-bin-dir", help="where the workers find the same executable, if elsewhere")
    ap.add_argument("--timeout", type=float, help="seconds after which a point is stopped and counted failed")
    ap.add_argument("--snapshots", help="directory where the points share preconditioned-drive snapshots "
                    "(precondition.snapshot_dir), or 'off' (default: OUT/snapshots, removed at the end)")
    ap.add_argument("--keep-snapshots", action="store_true", help="keep OUT/snapshots after the study")
    ap.add_argument("--dashboard", nargs="?", const=":8787", default=None, metavar="ADDRESS",
                    help="serve Dask's dashboard while the study runs (default address :8787; ':0' for any free "
                         "port) and print its link; with --scheduler, print the scheduler's dashboard link")
    ap.add_argument("--no-dashboard", dest="dashboard", action="store_const", const=None,
                    help="no dashboard, and nothing said about one (the default)")
    a = ap.parse_args(argv)
    if a.workers is not None and a.workers < 1:
        ap.error("--workers: at least 1")
    if a.workers and a.scheduler:
        ap.error("--workers sizes the LocalCluster; with --scheduler the scheduler's workers are used")

    sys.path.insert(0, str(HERE))
    from studylib import venv

    venv.ensure()
    from studylib import engine, plot
    from studylib.spec import StudyError, load

    try:
        study = load(a.study)
        if a.plot_only:
            out = Path(a.out or engine.ROOT / "out" / "studies" / study.name)
            if not study.figures:
                raise StudyError("%s has no figures" % a.study)
            for path in plot.draw_all(study, out):
                print(path)
            return 0
        opts = engine.Options(out=a.out, workers=a.workers, scheduler=a.scheduler, dry_run=a.dry_run,
                              bin_dir=a.bin_dir, worker_bin_dir=a.worker_bin_dir, cache=a.cache, rerun=a.rerun,
                              timeout=a.timeout, snapshots=a.snapshots, keep_snapshots=a.keep_snapshots,
                              dashboard=a.dashboard)
        return engine.run(study, opts)
    except (StudyError, plot.FigureError) as e:
        print("%s: %s" % (Path(a.study).name, e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted: finished points are in the cache; run the study again to go on", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
