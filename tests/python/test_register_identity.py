"""scripts/register_identity.py: the register path's summaries of two builds compared. A build against itself is
identical; a summary that differs is reported (exit 1, the field listed); a bad argument exits 2."""
import json
import subprocess
import sys

from conftest import ROOT, SCRIPTS

SCRIPT = str(SCRIPTS / "register_identity.py")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True, text=True, cwd=ROOT)


def test_a_build_against_itself_is_identical(bin_dir):
    p = run("--bin", str(bin_dir), "--base", str(bin_dir), "--only", "^page-greedy$", "--modes", "at,lt")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "2 of 2 summaries identical" in p.stdout


def test_a_differing_summary_is_reported(bin_dir, tmp_path):
    # The base's summary taken from a cache with one field changed: the comparison must see it.
    cache = tmp_path / "cache"
    p = run("--bin", str(bin_dir), "--base", str(bin_dir), "--base-cache", str(cache), "--only", "^page-greedy$",
            "--modes", "at")
    assert p.returncode == 0, p.stdout + p.stderr
    path = cache / "page-greedy.at.json"
    summary = json.loads(path.read_text())
    summary["host.iops"] = summary["host.iops"] * 2
    path.write_text(json.dumps(summary))
    p = run("--bin", str(bin_dir), "--base", str(bin_dir), "--base-cache", str(cache), "--only", "^page-greedy$",
            "--modes", "at")
    assert p.returncode == 1, p.stdout + p.stderr
    assert "DIFF page-greedy at" in p.stdout and "host.iops" in p.stdout


def test_bad_arguments_exit_2(bin_dir, tmp_path):
    assert run("--bin", str(bin_dir), "--base", str(bin_dir), "--only", "no-such-config").returncode == 2
    assert run("--bin", str(bin_dir), "--base", str(bin_dir), "--modes", "at,nope").returncode == 2
    assert run("--bin", str(tmp_path), "--base", str(bin_dir)).returncode == 2
