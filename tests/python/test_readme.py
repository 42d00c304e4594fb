"""The README's five first tasks, run as a newcomer runs them: every command of their ```sh blocks, copied as it is,
in a directory laid out like a fresh clone after `bash scripts/quickstart.sh` (build/bin, .venv, scripts/, studies/,
examples/). Sizes made small where a command would take minutes: the study file op_qd_rf.json in that directory is the
repository's with fewer I/Os and points. `gtkwave FILE LAYOUT` opens a window; here the files it would open are
checked instead. Commands ending in `&` (the cluster's scheduler and worker) run in the background and are stopped at
the end."""
import json
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def task_blocks():
    """{task heading: [command, ...]} of the README's "Five first tasks" section, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Five first tasks", 1)[1].split("\n## ", 1)[0]
    tasks = {}
    for part in re.split(r"\n### ", section)[1:]:
        heading = part.splitlines()[0].strip()
        commands = []
        for block in re.findall(r"```sh\n(.*?)```", part, re.S):
            commands += [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]
        tasks[heading] = commands
    return tasks


def test_the_readme_has_five_tasks_each_with_a_command():
    tasks = task_blocks()
    assert len(tasks) == 5, list(tasks)
    for heading, commands in tasks.items():
        assert commands, heading


@pytest.fixture(scope="module")
def clone(bin_dir, tmp_path_factory):
    """A directory laid out as a fresh clone after the quick start, the scripts and examples its own copies."""
    import sys

    d = tmp_path_factory.mktemp("clone")
    (d / "build").mkdir()
    (d / "build" / "bin").symlink_to(bin_dir)
    (d / ".venv").symlink_to(Path(sys.prefix))
    for folder in ("scripts", "examples", "studies"):
        shutil.copytree(ROOT / folder, d / folder, ignore=shutil.ignore_patterns("__pycache__"))
    study = json.loads((d / "studies" / "op_qd_rf.json").read_text())
    study["set"].update({"workload.io_count": 3000, "precondition.drive_writes": 0.1})
    study["sweep"] = {"geometry.over_provisioning": [0.07, 0.25], "host.queue_depth": [1, 32],
                      "workload.read_fraction": [0.0, 0.5]}
    (d / "studies" / "op_qd_rf.json").write_text(json.dumps(study, indent=2))
    return d


def run_task(clone, commands, timeout=600):
    env = {k: v for k, v in os.environ.items() if k not in ("SSDTLM_BIN_DIR", "SSDTLM_CACHE")}
    background, checked = [], []
    try:
        for command in commands:
            if command.startswith("gtkwave "):
                checked += command.split()[1:]
                continue
            if command.endswith("&"):
                background.append(subprocess.Popen(command[:-1], shell=True, cwd=clone, env=env,
                                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                                   start_new_session=True, text=True))
                continue
            for f in re.findall(r"--scheduler (\S+)", command):  # the scheduler has written its file by now
                deadline = time.time() + 60
                while not (clone / f).exists() and time.time() < deadline:
                    time.sleep(0.2)
            done = subprocess.run(command, shell=True, cwd=clone, env=env, capture_output=True, text=True,
                                  timeout=timeout)
            assert done.returncode == 0, "%s\nexit %d\n%s" % (command, done.returncode, done.stderr[-3000:])
    finally:
        for p in background:
            os.killpg(p.pid, signal.SIGTERM)
            p.wait(timeout=30)
    for f in checked:
        assert (clone / f).stat().st_size > 0, f


def outputs(clone, *paths):
    for p in paths:
        assert (clone / p).is_file() and (clone / p).stat().st_size > 0, p


def command_list(number):
    return [c for h, c in task_blocks().items() if h.startswith("%d." % number)][0]


def test_task_1_run_a_fio_job(clone):
    run_task(clone, command_list(1))
    outputs(clone, "out/fio/fio.json", "out/fio/summary.json")
    jobs = json.loads((clone / "out/fio/fio.json").read_text())["jobs"]
    assert sum(j["read"]["total_ios"] + j["write"]["total_ios"] for j in jobs) == 400000


def test_task_2_change_the_drive(clone):
    run_task(clone, command_list(2))
    summary = json.loads((clone / "out/tlc/summary.json").read_text())
    config = json.loads((clone / "out/tlc/config.json").read_text())
    assert config["geometry"]["channels"] == 4 and config["flash"]["cell"] == "tlc"
    assert summary["host"]["ios"] == 200000 and summary["integrity"]["errors"] == 0


def test_task_3_compare_two_architectures(clone):
    run_task(clone, command_list(3))
    outputs(clone, "out/arch/compare.png", "out/arch/compare.pdf", "out/arch/compare.svg",
            "out/arch/page-map/summary.json", "out/arch/dftl-1M/summary.json")
    dftl = json.loads((clone / "out/arch/dftl-1M/summary.json").read_text())
    assert dftl["map"]["misses"] > 0  # the cached map did miss


def test_task_4_view_a_waveform(clone):
    run_task(clone, command_list(4))
    outputs(clone, "out/wave.vcd", "out/wave.vcd.gtkw", "out/wave/summary.json")


def test_task_5_run_a_study_locally_and_on_a_cluster(clone):
    commands = command_list(5)
    local = [c for c in commands if "--scheduler" not in c and not c.endswith("&")]
    run_task(clone, local)
    outputs(clone, "out/studies/op_qd_rf/results.csv")
    first = (clone / "out/studies/op_qd_rf/results.csv").read_text()
    shutil.rmtree(clone / "out" / "cache")  # the cluster runs the points again
    run_task(clone, [c for c in commands if c not in local])
    assert (clone / "out/studies/op_qd_rf/results.csv").read_text() == first


def test_example_trace_commands(clone):
    """The commands of examples/traces/README.md (the README's trace example among them) replay both traces."""
    text = (ROOT / "examples" / "traces" / "README.md").read_text(encoding="utf-8")
    commands = [line.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)
                for line in block.splitlines() if line.strip()]
    assert len(commands) == 2
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert commands[0] in readme  # the README names the first one, wrapped over lines
    run_task(clone, commands)
    for name, requests in (("tpcc", 6999), ("wsrch", 24783)):
        summary = json.loads((clone / "out" / name / "summary.json").read_text())
        assert summary["host"]["trace"]["requests"] == requests
