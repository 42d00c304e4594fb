"""scripts/study.py end to end: Dask LocalCluster and a separate scheduler, the run cache, failures, figures."""
import json
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from conftest import tiny_study
from studylib import table

AXES = ["host.queue_depth", "size"]
METRICS = ["waf.total", "host.iops", "host.latency_us.write.p99", "host.latency_us.read.p99", "nand.programs.ud"]


def counts(stderr):
    """(run, reused, failed) from the study's closing line."""
    m = re.search(r"(\d+) points: (\d+) run, (\d+) reused from the cache, (\d+) failed", stderr)
    assert m, stderr
    return int(m.group(2)), int(m.group(3)), int(m.group(4))


@pytest.fixture(scope="module")
def first(runner, tmp_path_factory):
    """The 4-point study, run once on a LocalCluster of 2 workers into a fresh cache."""
    d = tmp_path_factory.mktemp("study")
    study = runner.write(d / "tiny.json", tiny_study())
    done = runner.study(study, "--workers", 2, "--out", d / "out", "--cache", d / "cache")
    return {"dir": d, "study": study, "cache": d / "cache", "out": d / "out", "done": done}


def test_four_points_on_two_local_workers(first):
    done = first["done"]
    assert done.returncode == 0, done.stderr
    assert "LocalCluster tcp://127.0.0.1:" in done.stderr and "2 single-threaded worker processes" in done.stderr
    assert counts(done.stderr) == (4, 0, 0)
    df = pd.read_csv(first["out"] / "results.csv")
    assert len(df) == 4
    assert list(df.columns[:6]) == ["point", "host.queue_depth", "size", "workload.block_bytes", "seed", "status"]
    for col in METRICS:
        assert col in df.columns
    assert not [c for c in df.columns if "wall_time" in c or "peak_rss" in c]  # machine measurements: runs.csv
    assert df["status"].tolist() == ["ok"] * 4
    assert df["host.queue_depth"].tolist() == [1, 1, 8, 8]
    assert df["size"].tolist() == ["small", "large", "small", "large"]
    assert df["workload.block_bytes"].tolist() == [4096, 65536, 4096, 65536]
    assert df["seed"].tolist() == [1, 1, 1, 1]
    assert (df["host.ios"] == 2000).all()
    assert df["host.iops"].gt(0).all() and df["waf.total"].notna().all()
    # the large requests move 16 times the bytes of the small ones
    small, large = df[df["size"] == "small"], df[df["size"] == "large"]
    assert (large["host.bytes_written"].values == 16 * small["host.bytes_written"].values).all()


def test_figure_written(first):
    for ext, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")):
        path = first["out"] / "figures" / ("iops" + ext)
        assert path.is_file() and path.stat().st_size > 1000
        assert path.read_bytes()[:5].startswith(magic)
    svg = (first["out"] / "figures" / "iops.svg").read_text()
    assert "queue depth" in svg and "throughput (IOPS)" in svg  # axes labelled in words, with units


def test_runs_csv_and_command_line_reproduce_a_point(first, tmp_path):
    runs = pd.read_csv(first["out"] / "runs.csv")
    assert len(runs) == 4 and (runs["status"] == "ok").all() and not runs["reused"].any()
    assert runs["wall_time_s"].notna().all()
    # the recorded command line, re-run by hand into another directory, gives the same results
    argv = shlex.split(runs.loc[1, "command"])
    argv[argv.index("--out") + 1] = str(tmp_path / "again")
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    again = json.loads((tmp_path / "again" / "summary.json").read_text())
    cached = json.loads((Path(runs.loc[1, "run_dir"]) / "summary.json").read_text())
    assert table.numeric_metrics(again)[0] == table.numeric_metrics(cached)[0]  # all but the machine's measurements
    assert (Path(runs.loc[1, "run_dir"]) / "run.json").is_file()
    assert "--set workload.block_bytes=65536" in (first["out"] / "commands.sh").read_text()


def test_rerun_executes_no_point(first, runner):
    before = (first["out"] / "results.csv").read_bytes()
    done = runner.study(first["study"], "--workers", 2, "--out", first["out"], "--cache", first["cache"])
    assert done.returncode == 0, done.stderr
    assert counts(done.stderr) == (0, 4, 0)
    assert "LocalCluster" not in done.stderr  # nothing to run: no cluster started
    assert (first["out"] / "results.csv").read_bytes() == before


def test_changed_base_value_reruns_only_the_affected_points(first, runner):
    # the base block size matters only to the "small" points: "large" sets its own
    doc = tiny_study()
    doc["set"]["workload.block_bytes"] = 8192
    study = runner.write(first["dir"] / "tiny8k.json", doc)
    out = first["dir"] / "out8k"
    done = runner.study(study, "--workers", 2, "--out", out, "--cache", first["cache"])
    assert done.returncode == 0, done.stderr
    assert counts(done.stderr) == (2, 2, 0)
    runs = pd.read_csv(out / "runs.csv")
    assert runs["reused"].tolist() == [False, True, False, True]  # small, large, small, large
    df = pd.read_csv(out / "results.csv")
    assert df["workload.block_bytes"].tolist() == [8192, 65536, 8192, 65536]


def test_failed_point_is_reported_and_the_others_finish(runner, tmp_path):
    doc = tiny_study()
    doc["sweep"]["size"]["bad"] = {"workload.no_such_key": 1}  # 6 points, 2 of them exit 2
    study = runner.write(tmp_path / "bad.json", doc)
    done = runner.study(study, "--workers", 2, "--out", tmp_path / "out", "--cache", tmp_path / "cache")
    assert done.returncode == 1
    assert counts(done.stderr) == (6, 0, 2)
    assert "FAILED p002 (host.queue_depth=1 size=bad): exit status 2" in done.stderr
    assert "FAILED p005 (host.queue_depth=8 size=bad): exit status 2" in done.stderr
    assert "--set workload.no_such_key=1" in done.stderr  # the command line
    assert "unknown key 'workload.no_such_key'" in done.stderr  # the last lines of its stderr
    df = pd.read_csv(tmp_path / "out" / "results.csv")
    assert df["status"].tolist() == ["ok", "ok", "failed", "ok", "ok", "failed"]
    assert df.loc[df["status"] == "ok", "host.iops"].gt(0).all()
    assert df.loc[df["status"] == "failed", "host.iops"].isna().all()
    runs = pd.read_csv(tmp_path / "out" / "runs.csv")
    assert runs.loc[2, "exit_code"] == 2 and "unknown key" in runs.loc[2, "error"]
    assert (tmp_path / "out" / "figures" / "iops.png").is_file()  # drawn from the points that finished
    # the failed points are not cached: the next run tries them again, and only them
    again = runner.study(study, "--workers", 1, "--out", tmp_path / "out", "--cache", tmp_path / "cache")
    assert counts(again.stderr) == (2, 4, 2)


def test_plot_only_redraws_from_results_csv(first, runner, tmp_path):
    out = tmp_path / "copy"
    out.mkdir()
    (out / "results.csv").write_bytes((first["out"] / "results.csv").read_bytes())  # results.csv alone
    doc = tiny_study(figures=[{"name": "waf", "x": "size", "facets": "host.queue_depth",
                               "y": ["waf.total", "nand.programs.ud"]}])
    study = runner.write(tmp_path / "fig.json", doc)
    done = runner.study(study, "--plot-only", "--out", out)
    assert done.returncode == 0, done.stderr
    assert (out / "figures" / "waf.png").is_file() and (out / "figures" / "waf.svg").is_file()
    assert not (out / "runs.csv").exists()


def test_dry_run_lists_points_and_runs_nothing(first, runner, tmp_path):
    doc = tiny_study(repeat=2)
    study = runner.write(tmp_path / "rep.json", doc)
    done = runner.study(study, "--dry-run", "--out", tmp_path / "out", "--cache", first["cache"])
    assert done.returncode == 0, done.stderr
    assert "8 points (2 x 2 x 2 seeds)" in done.stderr and "4 in the cache" in done.stderr
    states = re.findall(r"^(p\d{3})  (cached|to run)  (.*)$", done.stderr, re.M)
    # seed 1 (the seed every point of the first run had) is in the cache, seed 2 is not
    assert [(s, lab.endswith("seed=1")) for _, s, lab in states] == [("cached", True), ("to run", False)] * 4
    assert done.stderr.count("--seed 2 --out") == 4
    assert not (tmp_path / "out").exists()


def test_bad_study_file_exits_2(runner, tmp_path):
    study = runner.write(tmp_path / "x.json", {"platform": "generic", "sweep": {"host.queue_depth": []}})
    done = runner.study(study)
    assert done.returncode == 2 and "sweep.host.queue_depth: no values" in done.stderr


def test_separate_scheduler_gives_the_identical_results_csv(first, runner, tmp_path):
    """`dask scheduler` + 2 `dask worker` processes (loopback only), as a cluster would be: same results.csv."""
    dask = Path(sys.executable).parent / "dask"
    sched_file = tmp_path / "scheduler.json"
    env_cwd = {"cwd": tmp_path, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}  # no repo on sys.path
    procs = [subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(sched_file)], **env_cwd)]
    try:
        deadline = time.time() + 60
        while not sched_file.exists() and time.time() < deadline:
            time.sleep(0.2)
        assert sched_file.exists(), "dask scheduler did not start"
        for _ in range(2):
            procs.append(subprocess.Popen([str(dask), "worker", "--scheduler-file", str(sched_file), "--nthreads", "1",
                                           "--host", "127.0.0.1", "--no-dashboard"], **env_cwd))
        done = runner.study(first["study"], "--scheduler", sched_file, "--out", tmp_path / "out",
                            "--cache", tmp_path / "cache")
        assert done.returncode == 0, done.stderr
        assert counts(done.stderr) == (4, 0, 0)
        assert (tmp_path / "out" / "results.csv").read_bytes() == (first["out"] / "results.csv").read_bytes()
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_sweep_front_end(runner, tmp_path):
    sets = sum((["--set", "%s=%s" % (k, json.dumps(v) if not isinstance(v, str) else v)]
                for k, v in tiny_study()["set"].items()), [])
    done = runner.script("sweep.py", "--sweep", "host.queue_depth=1,4,16", *sets, "--metric", "host.iops",
                         "--metric", "host.latency_us.write.mean", "--out", tmp_path / "sw", "--cache",
                         tmp_path / "cache", "--workers", 2)
    assert done.returncode == 0, done.stderr
    df = pd.read_csv(tmp_path / "sw" / "sweep.csv")
    assert list(df.columns) == ["host.queue_depth", "host.iops", "host.latency_us.write.mean"]
    assert df["host.queue_depth"].tolist() == [1, 4, 16]
    assert df["host.latency_us.write.mean"].is_monotonic_increasing
    assert all((tmp_path / "sw" / ("sweep" + ext)).is_file() for ext in (".png", ".pdf", ".svg"))
    assert "host.queue_depth=16  host.iops=" in done.stdout


def test_no_dashboard_is_silent(first, runner, tmp_path):
    """Without --dashboard (the default) and with --no-dashboard, nothing is served and nothing said about one."""
    assert "dashboard" not in first["done"].stderr.lower()
    study = runner.write(tmp_path / "tiny.json", tiny_study())
    done = runner.study(study, "--workers", 1, "--no-dashboard", "--out", tmp_path / "out", "--cache", tmp_path / "c")
    assert done.returncode == 0, done.stderr
    assert "dashboard" not in (done.stderr + done.stdout).replace(str(tmp_path), "TMP").lower()
    assert counts(done.stderr) == (4, 0, 0)


def test_dashboard_is_served_while_the_study_runs(runner, tmp_path):
    """--dashboard :0 prints the dashboard's link, and the link answers (bokeh, pinned in requirements.txt)."""
    import os
    import urllib.request

    doc = tiny_study()
    doc["set"]["workload.io_count"] = 400000  # points of a second or so: time to ask the dashboard
    study = runner.write(tmp_path / "slow.json", doc)
    env = dict(os.environ, SSDTLM_BIN_DIR=str(runner.bin_dir))
    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve().parents[2] / "scripts" / "study.py"),
                             str(study), "--workers", "1", "--dashboard", "127.0.0.1:0", "--out", str(tmp_path / "out"),
                             "--cache", str(tmp_path / "cache")], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True, env=env)
    link, status, lines = None, None, []
    try:
        for line in proc.stderr:
            lines.append(line)
            m = re.search(r"dashboard: (http://\S+)", line)
            if m:
                link = m.group(1)
                with urllib.request.urlopen(link, timeout=20) as r:
                    status = r.status
                break
        lines += proc.stderr.readlines()
    finally:
        proc.wait(timeout=240)
    assert link, "".join(lines)
    assert status == 200
    assert proc.returncode == 0, "".join(lines)
