"""Issue 30: a run interrupted by SIGINT, SIGTERM or SIGHUP leaves the previous output set whole and no
staging folder (nor waveform partial file) behind; an --out whose staging folder vanishes mid-run is an
I/O error (exit 2 naming --out), not a model error."""
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from small_drive import FRESH as SMALL


def run(bin_dir, cwd, *args, **kw):
    return subprocess.run([str(bin_dir / "ssdtlm-generic"), "--out", "out", "--quiet", *SMALL, *args],
                          cwd=cwd, capture_output=True, text=True, timeout=120, **kw)


def default_signals():
    """The child starts with the three signals at their default action (a shell without job control may
    have SIGINT ignored in background jobs, and the run keeps a signal ignored as it finds it)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def start_long(bin_dir, cwd):
    """A run of many minutes writing fio logs, started; returns once its staging folder exists (the simulation
    under way)."""
    p = subprocess.Popen([str(bin_dir / "ssdtlm-generic"), "--out", "out", "--quiet", "--vcd", "out/run.vcd",
                          *SMALL, "--set", "workload.io_count=200000000",
                          # fio's logs, written into the staging folder as the run goes: removed too
                          "--set", "workload.log_bw=b", "--set", "workload.log_lat=l"],
                         cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=default_signals)
    staging = Path(cwd) / "out" / (".ssdtlm-staging-%d" % p.pid)
    deadline = time.time() + 30
    while not staging.is_dir():
        assert p.poll() is None, p.communicate()
        assert time.time() < deadline, "no staging folder after 30 s"
        time.sleep(0.02)
    time.sleep(0.3)  # well into the simulation
    assert p.poll() is None
    return p, staging


def snapshot(out):
    return {f.name: f.read_bytes() for f in sorted(Path(out).iterdir()) if f.is_file()}


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_signal_leaves_previous_set_whole(bin_dir, tmp_path, sig):
    first = run(bin_dir, tmp_path, "--set", "workload.io_count=2000", "--vcd", "out/run.vcd")
    assert first.returncode == 0, first.stderr
    before = snapshot(tmp_path / "out")
    assert {"config.json", "summary.json", "timeseries.csv", "latency_cdf.csv", "run.vcd"} <= set(before)
    p, staging = start_long(bin_dir, tmp_path)
    p.send_signal(sig)
    try:
        p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == -sig  # the signal's own default course, after the cleanup
    assert not staging.exists()
    assert snapshot(tmp_path / "out") == before
    left = [f.name for f in (tmp_path / "out").iterdir() if "staging" in f.name or "partial" in f.name]
    assert left == []


def test_staging_folder_gone_mid_run_is_an_output_error(bin_dir, tmp_path):
    first = run(bin_dir, tmp_path, "--set", "workload.io_count=2000")
    assert first.returncode == 0, first.stderr
    before = snapshot(tmp_path / "out")
    p = subprocess.Popen([str(bin_dir / "ssdtlm-generic"), "--out", "out", "--quiet", *SMALL,
                          "--set", "workload.io_count=300000"],
                         cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    staging = tmp_path / "out" / (".ssdtlm-staging-%d" % p.pid)
    deadline = time.time() + 30
    while not staging.is_dir():
        assert p.poll() is None and time.time() < deadline
        time.sleep(0.02)
    os.rmdir(staging)
    staging.write_text("a file where the staging folder was")  # the outputs cannot be written there
    _, err = p.communicate(timeout=300)
    assert p.returncode == 2, err
    assert "option --out out: cannot write config.json" in err
    assert "previous outputs are left as they were" in err
    assert "model error" not in err
    assert not staging.exists()
    assert snapshot(tmp_path / "out") == before


def test_waveform_rename_failing_is_an_output_error(bin_dir, tmp_path):
    """A folder put where the waveform goes while the run simulates: exit 2 naming the waveform, not a model
    error, no partial file left, and the output set not replaced (the run failed before writing it)."""
    first = run(bin_dir, tmp_path, "--set", "workload.io_count=2000")
    assert first.returncode == 0, first.stderr
    before = snapshot(tmp_path / "out")
    p = subprocess.Popen([str(bin_dir / "ssdtlm-generic"), "--out", "out", "--quiet", "--vcd", "w/run.vcd", *SMALL,
                          "--set", "workload.io_count=300000"],
                         cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    staging = tmp_path / "out" / (".ssdtlm-staging-%d" % p.pid)
    deadline = time.time() + 30
    while not staging.is_dir():
        assert p.poll() is None and time.time() < deadline
        time.sleep(0.02)
    (tmp_path / "w" / "run.vcd" / "in_the_way").mkdir(parents=True)
    _, err = p.communicate(timeout=300)
    assert p.returncode == 2, err
    assert "waveform w/run.vcd: cannot move" in err and "model error" not in err
    assert [f.name for f in (tmp_path / "w").iterdir()] == ["run.vcd"]
    assert snapshot(tmp_path / "out") == before
    assert not staging.exists()
