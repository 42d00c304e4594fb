"""Runs a study: points -> cache look-up -> Dask (LocalCluster or an existing scheduler) -> tables and figures."""
import datetime
import json
import logging
import os
import shlex
import sys
import threading
import time
import types
from pathlib import Path

from . import cache as cache_mod
from . import snapshots as snapshots_mod
from . import plot, table, task
from .spec import Schema, StudyError

ROOT = Path(__file__).resolve().parent.parent.parent


def default_bin_dir():
    return Path(os.environ.get("SSDTLM_BIN_DIR") or ROOT / "build" / "bin")


def default_cache_dir():
    return Path(os.environ.get("SSDTLM_CACHE") or ROOT / "out" / "cache")


def default_workers():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


class Options:
    def __init__(self, out=None, workers=None, scheduler=None, dry_run=False, bin_dir=None, worker_bin_dir=None,
                 cache=None, rerun=False, timeout=None, figures=True, figure_dir=None, snapshots=None,
                 keep_snapshots=False, dashboard=None):
        self.out = out
        self.workers = workers
        self.scheduler = scheduler
        self.dry_run = dry_run
        self.bin_dir = bin_dir
        self.worker_bin_dir = worker_bin_dir
        self.cache = cache
        self.rerun = rerun
        self.timeout = timeout
        self.figures = figures
        self.figure_dir = figure_dir  # default: OUT/figures
        # Preconditioned-drive snapshots shared by the points (precondition.snapshot_dir): a directory, "off", or
        # None for OUT/snapshots, removed at the end unless keep_snapshots.
        self.snapshots = snapshots
        self.keep_snapshots = keep_snapshots
        # Dask's dashboard: None = none (nothing said about it), else the address a LocalCluster serves it on
        # (":8787", ":0" for any free port); with a scheduler, its own dashboard's address is reported.
        self.dashboard = dashboard


class Log:
    """Progress and reports on stderr: one rewritten line on a terminal, plain lines otherwise."""

    def __init__(self, name, stream=None):
        self.prefix = "[study %s]" % name
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.status_shown = False
        self.lock = threading.Lock()

    def say(self, text):
        with self.lock:
            self._clear()
            for line in text.splitlines() or [""]:
                self.stream.write("%s %s\n" % (self.prefix, line) if line else "\n")
            self.stream.flush()

    def block(self, text):
        """Lines without the prefix (command lines, stderr tails)."""
        with self.lock:
            self._clear()
            self.stream.write(text.rstrip("\n") + "\n")
            self.stream.flush()

    def status(self, text):
        with self.lock:
            if self.tty:
                self.stream.write("\r\033[K%s %s" % (self.prefix, text))
                self.status_shown = True
            else:
                self.stream.write("%s %s\n" % (self.prefix, text))
            self.stream.flush()

    def _clear(self):
        if self.tty and self.status_shown:
            self.stream.write("\r\033[K")
            self.status_shown = False

    def done(self):
        with self.lock:
            if self.tty and self.status_shown:
                self.stream.write("\n")
                self.status_shown = False
            self.stream.flush()


def fmt_duration(seconds):
    if seconds is None:
        return "?"
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return "%d:%02d:%02d" % (h, m, s) if h else "%d:%02d" % (m, s)


class Progress:
    """Counts for the progress line: finished (reused, failed), running, queued, elapsed and ETA."""

    def __init__(self, log, total, reused, to_run, interval):
        self.log = log
        self.total, self.reused, self.to_run = total, reused, to_run
        self.ok = self.failed = 0
        self.started = set()   # cache keys that a worker has started
        self.finished = set()  # cache keys that came back
        self.t0 = time.time()
        self.interval = interval
        self.last = 0.0
        self.lock = threading.Lock()

    def on_start_event(self, event):
        try:
            _, msg = event
            with self.lock:
                self.started.add(msg["key"])
        except Exception:
            pass

    def running(self, keys_in_flight):
        with self.lock:
            return len([k for k in self.started if k not in self.finished and k in keys_in_flight])

    def line(self, running):
        ran = self.ok + self.failed
        elapsed = time.time() - self.t0
        left = self.to_run - ran
        eta = elapsed / ran * left if ran else None
        queued = max(0, left - running)
        return ("%d/%d finished (%d reused, %d failed), %d running, %d queued | %s elapsed, ETA %s"
                % (self.reused + ran, self.total, self.reused, self.failed, running, queued, fmt_duration(elapsed),
                   fmt_duration(eta) if left else "0:00"))

    def maybe_show(self, running, force=False):
        now = time.time()
        if force or now - self.last >= self.interval:
            self.last = now
            self.log.status(self.line(running))


def run(study, opts, stream=None):
    """Runs (or with dry_run, lists) the study; returns the process exit status (0 ok, 1 a point failed)."""
    log = Log(study.name, stream)
    bin_dir = Path(opts.bin_dir or default_bin_dir()).resolve()
    executable = bin_dir / ("ssdtlm-" + study.platform)
    if not executable.is_file():
        raise StudyError("%s not found: build first (bash scripts/build.sh), or give --bin-dir / SSDTLM_BIN_DIR"
                         % executable)
    worker_executable = (Path(opts.worker_bin_dir) / executable.name) if opts.worker_bin_dir else executable
    out = Path(opts.out or ROOT / "out" / "studies" / study.name).resolve()
    store = cache_mod.Cache(opts.cache or default_cache_dir())
    build = task.build_id(str(executable))
    schema = Schema.from_executable(executable)
    config_docs = study.config_documents()
    points = study.points(default_seed=_default_seed(schema))

    unknown = sorted({k for p in points for k in p.settings if k not in schema.keys})
    for k in unknown:
        log.say("warning: %r is not a configuration key of %s: the points that set it will fail" % (k, executable.name))

    plan = []  # (point, request, key, argv for the record, argv for the worker)
    cwd = os.getcwd()  # the points run here (relative paths in the configuration, e.g. traces, as by hand)
    hashed = {}
    for p in points:
        request = p.request(schema, config_docs)
        key = cache_mod.cache_key(build, study.platform, request, cache_mod.input_files(request, cwd, hashed))
        plan.append((p, request, key, p.argv(executable, schema), p.argv(worker_executable, schema)))
    keys = list(dict.fromkeys(k for _, _, k, _, _ in plan))
    cached = {k for k in keys if store.has(k)} if not opts.rerun else set()
    to_run = [k for k in keys if k not in cached]
    reused_points = sum(1 for _, _, k, _, _ in plan if k in cached)
    shape = [str(len(a)) for a in study.axes] + (["%d seeds" % len(study.seeds)] if len(study.seeds) > 1 else [])
    log.say("%d points (%s), %s build %s; %d in the cache %s, %d to run"
            % (len(points), " x ".join(shape) or "no axes", executable.name, build[:20], reused_points, store.root,
               len(to_run)))
    if len(keys) < len(points):
        log.say("note: %d points share a configuration with another point (run once)" % (len(points) - len(keys)))

    if opts.dry_run:
        for p, request, key, argv, _ in plan:
            state = "cached" if key in cached else "to run"
            log.block("%s  %-6s  %s\n      %s" % (p.name, state, p.label(), shlex.join(argv + ["--out", str(
                out / "rerun" / p.name)])))
        return 0

    out.mkdir(parents=True, exist_ok=True)
    _write_study_files(study, out, plan, executable, build)

    results = {}  # key -> task result (executed this time)
    t_start = time.time()
    if to_run:
        by_key = {}
        for p, request, key, argv, wargv in plan:
            by_key.setdefault(key, (p, request, argv, wargv, argv + ["--out", str(out / "rerun" / p.name)]))
        snapshots = snapshots_mod.shared_dir(opts, out, schema)
        if snapshots:
            log.say("preconditioned drives shared through %s (points whose preconditioning reads the same keys "
                    "load the first one's snapshot)" % snapshots)
            for _, _, _, wargv, _ in by_key.values():  # the workers' command only: results do not depend on it
                wargv += ["--set", "precondition.snapshot_dir=%s" % snapshots]
        results = _execute(study, opts, log, by_key, to_run, reused_points, len(points), build, store, executable)
        if snapshots:
            snapshots_mod.report(log, snapshots, results, remove=opts.snapshots is None and not opts.keep_snapshots)
    elapsed = time.time() - t_start

    outcomes, run_rows, failed_points = _outcomes(plan, results, cached, store, out)

    rows, order, columns = table.build_results(study, points, outcomes, schema)
    _write_csv(out / "results.csv", rows, order)
    _write_csv(out / "runs.csv", run_rows, list(run_rows[0]) if run_rows else ["point"])
    (out / "columns.json").write_text(json.dumps(columns, indent=2, ensure_ascii=False) + "\n")

    return _report(study, opts, log, out, rows, (len(points), len(to_run), reused_points, failed_points), results,
                   elapsed)


def _report(study, opts, log, out, rows, counts, results, elapsed):
    """The run's last lines and its figures; the exit status (0 ok, 1 a point failed or a figure could not be drawn).
    counts: (points, executed, reused, failed)."""
    total, executed, reused_points, failed_points = counts
    busy = sum(r.get("seconds") or 0.0 for r in results.values())
    cpu = sum(r.get("cpu_seconds") or 0.0 for r in results.values())
    log.say("%d points: %d run, %d reused from the cache, %d failed, in %s (%.1f s) wall%s"
            % (total, executed, reused_points, failed_points, fmt_duration(elapsed), elapsed,
               "; the runs took %.1f s on the workers (%.1f s of CPU), %.2f at a time on average"
               % (busy, cpu, busy / elapsed)
               if executed and elapsed > 0 else ""))
    if opts.figures and study.figures:
        if rows and any(r["status"] == "ok" for r in rows):
            try:
                paths = plot.draw_all(study, out, opts.figure_dir)
                log.say("figures: %s" % ", ".join(_shown_path(pth, out) for pth in paths if pth.suffix == ".png"))
            except plot.FigureError as e:
                log.say("figure not drawn: %s" % e)
                log.done()
                return 1
        else:
            log.say("no figures: no point finished")
    log.say("results: %s (%d rows), runs: %s" % (out / "results.csv", len(rows), out / "runs.csv"))
    log.done()
    return 1 if failed_points else 0


def _outcomes(plan, results, cached, store, out):
    """Each point's outcome (status, config, summary, request), its runs.csv row, and the number of failed points."""
    outcomes, run_rows = {}, []
    failed_points = 0
    for p, request, key, argv, _ in plan:
        res = results.get(key)
        ok = store.has(key) and (key in cached or (res is not None and res.get("stored")))
        record = store.record(key) if ok else None
        if ok:
            outcomes[p.index] = {"status": "ok", "config": store.config(key), "summary": store.summary(key),
                                 "request": request}
        else:
            failed_points += 1
            outcomes[p.index] = {"status": "failed", "config": None, "summary": None, "request": request}
        by_hand = argv + ["--out", str(out / "rerun" / p.name)]
        machine = table.numeric_metrics(outcomes[p.index]["summary"])[1] if ok else {}
        src = record if ok else (res or {})
        run_rows.append({
            "point": p.index, "label": p.label(), "status": outcomes[p.index]["status"], "key": key,
            "reused": key in cached,
            "exit_code": src.get("exit_code", ""), "error": _error_text(res) if not ok else "",
            "worker": src.get("worker", ""), "seconds": round(src["seconds"], 3) if src.get("seconds") else "",
            "cpu_seconds": round(src["cpu_seconds"], 3) if src.get("cpu_seconds") else "",
            "finished": src.get("finished", ""),
            "wall_time_s": machine.get("wall_time_s", ""),
            "precondition.wall_time_s": machine.get("precondition.wall_time_s", ""),
            "memory.peak_rss_bytes": machine.get("memory.peak_rss_bytes", ""),
            "precondition.threads": machine.get("precondition.threads", ""),
            "run_dir": str(store.path(key)) if ok else "", "command": shlex.join(by_hand)})
    return outcomes, run_rows, failed_points


def _default_seed(schema):
    try:
        return int(float(schema.keys["sim.seed"]["default"]))
    except (KeyError, ValueError):
        return 1


def _shown_path(path, out):
    try:
        return str(path.relative_to(out))
    except ValueError:
        return str(path)


def _error_text(res):
    if res is None:
        return "did not run"
    if res.get("error"):
        return res["error"]
    lines = (res.get("stderr_tail") or "").strip().splitlines()
    return lines[-1] if lines else "exit status %s" % res.get("exit_code")


def _write_csv(path, rows, order):
    import pandas as pd

    df = pd.DataFrame(rows, columns=order)
    for col in order:  # integers stay integers next to the empty cells of failed points
        values = [r.get(col) for r in rows]
        present = [v for v in values if not _missing(v)]
        if present and len(present) < len(values) and all(isinstance(v, int) and not isinstance(v, bool)
                                                           for v in present):
            df[col] = pd.array([None if _missing(v) else v for v in values], dtype="Int64")
    df.to_csv(path, index=False)


def _missing(v):
    return v is None or (isinstance(v, float) and v != v)


def _write_study_files(study, out, plan, executable, build):
    """study.json (the study as run), commands.sh (every point's command line, to re-run one by hand)."""
    doc = dict(study.doc)
    doc["name"] = study.name
    doc["_resolved"] = {"study_file": str(study.path) if study.path else None, "executable": str(executable),
                        "build_id": build, "config": study.configs, "cwd": os.getcwd()}
    (out / "study.json").write_text(json.dumps(doc, indent=2) + "\n")
    lines = ["#!/bin/sh",
             "# Study %s: each point's platform command line. Outputs go to %s/rerun/<point>;" % (study.name, out),
             "# the study's own copies are in the cache (runs.csv, column run_dir). Relative paths are from here:",
             "cd %s" % shlex.quote(os.getcwd()),
             "export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1"]
    for p, _, key, argv, _ in plan:
        lines.append("# %s  %s  (cache key %s)" % (p.name, p.label(), key))
        lines.append(shlex.join(argv + ["--out", str(out / "rerun" / p.name)]))
    (out / "commands.sh").write_text("\n".join(lines) + "\n")


def _connect(opts, log):
    """A Dask client: to --scheduler (an address or a scheduler file), else to a new LocalCluster."""
    from dask.distributed import Client, LocalCluster

    if opts.scheduler:
        try:
            if os.path.isfile(opts.scheduler):
                client = Client(scheduler_file=opts.scheduler, timeout="30s")
            else:
                client = Client(opts.scheduler, timeout="30s")
        except (OSError, ValueError) as e:  # TimeoutError is an OSError
            raise StudyError("cannot reach the Dask scheduler %s: %s" % (opts.scheduler, e))
        n = len(client.scheduler_info(n_workers=-1).get("workers", {})) if _accepts_n_workers() else \
            len(client.scheduler_info().get("workers", {}))
        log.say("scheduler %s, %d workers%s" % (client.scheduler.address, n,
                                                 "" if n else " yet: the points wait for workers to join"))
        if opts.dashboard is not None:
            link = client.dashboard_link if _has_dashboard(client) else None
            log.say("dashboard: %s" % (link or "none (the scheduler was started with --no-dashboard)"))
        return client, None
    workers = opts.workers or default_workers()
    if opts.dashboard is not None:
        _check_bokeh()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=opts.dashboard, silence_logs=logging.ERROR)
    client = Client(cluster)
    log.say("LocalCluster %s, %d single-threaded worker process%s" % (cluster.scheduler_address, workers,
                                                                      "es" if workers > 1 else ""))
    if opts.dashboard is not None:
        log.say("dashboard: %s (open it in a browser; it closes with the study)" % client.dashboard_link)
    return client, cluster


def _check_bokeh():
    """Dask serves its dashboard with bokeh (pinned in requirements.txt); without it, say how to get it."""
    import importlib.util

    if importlib.util.find_spec("bokeh") is None:
        raise StudyError("--dashboard needs the Python package bokeh (requirements.txt): run bash scripts/setup.sh")


def _has_dashboard(client):
    try:
        return "dashboard" in client.scheduler_info().get("services", {})
    except Exception:  # an older scheduler that does not say
        return True


def _accepts_n_workers():
    import inspect

    from dask.distributed import Client

    return "n_workers" in inspect.signature(Client.scheduler_info).parameters


def _execute(study, opts, log, by_key, to_run, reused, total, build, store, executable):
    """Runs the points of to_run (cache keys) on Dask; stores each success in the cache as it arrives."""
    import cloudpickle

    cloudpickle.register_pickle_by_value(task)  # the scheduler and workers need no copy of this repository
    run_point = _by_value(task.run_point)
    progress = Progress(log, total, reused, len(to_run), interval=1.0 if log.tty else 15.0)
    client, cluster = _connect(opts, log)
    results = {}
    futures = {}
    try:
        try:
            client.register_plugin(task.EndRunsOnClose(), name=task.EndRunsOnClose.name)
        except Exception as e:  # an old scheduler: runs still work, Ctrl-C just leaves them to finish
            log.say("note: worker plugin not registered (%s)" % e)
        try:
            client.subscribe_topic(task.START_TOPIC, progress.on_start_event)
        except Exception:
            pass
        progress.t0 = time.time()
        for key in to_run:
            p, request, argv, wargv, _ = by_key[key]
            t = {"point": p.index, "key": key, "argv": wargv, "build_id": build, "timeout": opts.timeout,
                 "cwd": os.getcwd()}
            futures[key] = client.submit(run_point, t, key="ssdtlm-%s-%s" % (p.name, key), pure=False,
                                         retries=0)
        pending = set(futures)
        progress.maybe_show(0, force=True)
        while pending:
            finished = [k for k in pending if futures[k].done()]
            for key in finished:
                pending.discard(key)
                res = _collect(futures[key], key)
                futures[key].release()
                with progress.lock:
                    progress.finished.add(key)
                p, request, argv, _, by_hand = by_key[key]
                if res.get("exit_code") == 0 and not res.get("error") and "summary.json" in res["files"]:
                    res["summary_json"] = res["files"]["summary.json"].decode("utf-8", "replace")
                    record = {"key": key, "point": p.index, "label": p.label(), "platform": study.platform,
                              "build_id": build, "request": request,
                              "command": shlex.join(argv + ["--out", str(store.path(key))]),
                              "exit_code": 0, "worker": res["worker"], "seconds": res["seconds"],
                              "cpu_seconds": res.get("cpu_seconds"),
                              "finished": datetime.datetime.now().isoformat(timespec="seconds"),
                              "stderr_tail": res["stderr_tail"], "study": study.name}
                    store.store(key, res["files"], record)
                    res["stored"] = True
                    res["files"] = None
                    res["finished"] = record["finished"]
                    progress.ok += 1
                else:
                    progress.failed += 1
                    _report_failure(log, p, by_hand, res)
                results[key] = res
            progress.maybe_show(progress.running(pending), force=bool(finished))
            if pending:
                time.sleep(0.2)
    finally:
        for f in futures.values():
            if not f.done():
                f.cancel()
        client.close()
        if cluster is not None:
            cluster.close()
        log.done()
    return results


def _by_value(fn):
    """A copy of fn that plain pickle cannot find by name. distributed pickles a task graph with pickle first, which
    would send studylib.task.run_point by reference (the scheduler and workers would have to import studylib);
    failing that, it uses cloudpickle, which ships the function and the rest of studylib.task by value."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = fn.__qualname__ + ".by_value"
    copy.__module__ = fn.__module__
    copy.__doc__ = fn.__doc__
    return copy


def _collect(future, key):
    try:
        return future.result()
    except Exception as e:  # the task itself failed (a worker died, the executable is missing on a worker, ...)
        return {"key": key, "exit_code": None, "error": "%s: %s" % (type(e).__name__, e), "stderr_tail": "",
                "files": {}, "seconds": 0.0, "worker": ""}


def _report_failure(log, p, by_hand, res):
    why = res.get("error") or "exit status %s" % res.get("exit_code")
    if res.get("exit_code") == 0 and not res.get("error"):
        why = "exit status 0 but no summary.json"
    log.say("FAILED %s (%s): %s" % (p.name, p.label(), why))
    log.block("    command: " + shlex.join(by_hand))
    if res.get("stderr_tail"):
        log.block("    stderr (last lines):\n" + "\n".join("      " + ln for ln in res["stderr_tail"].splitlines()))
