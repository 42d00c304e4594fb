"""Issue 27: fio's own example job files (fio 3.42's examples/*.fio, copied unchanged into tests/data/fio_examples/)
run unchanged and give the I/O fio would issue, or are refused naming the true reason; none runs as something else.

tests/data/fio_examples/expected.json declares, for every file, what fio would do with it, written from the file and
fio's documentation (not from our output):
  {"runs": {"drive": ..., "jobs": [...], "moved": [...]}}: the job objects ssdtlm makes (config.json's "jobs": the
      shape of the I/O: pattern, read share, block sizes, depth, region, pacing keys), one per fio job clone, in
      order, and the directions that moved data in a short run (fio.json); "common" holds the keys every job shares;
      "device" as an address_range is the whole drive from the job's offset;
  {"refused": "substring"}: the run exits 2 before simulating, and its error names that reason (on "drive" if given).
The writes of a job with verify are read back after them, which the runtime cap cuts: such jobs move writes only.
The command line may only choose the drive (its size, zns.enabled, fdp.enabled, a fresh state) and cap the runtime,
never the workload. The whole corpus runs in well under two minutes.
"""
import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "fio_examples"
EXPECTED = json.loads((DATA / "expected.json").read_text())

# Every run: a fresh drive (no preconditioning: the state is the drive's, not the workload's) and every job's
# runtime capped at 2 simulated ms (the corpus checks what is issued, not for how long).
BASE = ["--set", "precondition.fill=false", "--set", "precondition.drive_writes=0",
        "--set", "workload.runtime_ms=2"]
# The drives the files need: only keys of the drive (size, zoned, FDP).
DRIVES = {name: [a for s in sets for a in ("--set", s)] for name, sets in EXPECTED["drives"].items()}
ALLOWED = ("geometry.", "zns.", "fdp.", "precondition.", "buffer.")


def test_the_corpus_is_fios_examples_every_one_declared():
    files = sorted(p.name for p in DATA.glob("*.fio"))
    assert len(files) == 107  # fio 3.42's examples/*.fio
    assert sorted(EXPECTED["files"]) == files
    for sets in EXPECTED["drives"].values():  # the drive, never the workload
        assert all(s.startswith(ALLOWED) for s in sets), sets


def run(bin_dir, tmp_path, name):
    entry = EXPECTED["files"][name]
    drive = entry.get("drive") or (entry.get("runs") or {}).get("drive", "default")
    out = tmp_path / name.replace(".fio", "")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FIO_", "GPU_"))}  # the files' ${VAR}s unset
    p = subprocess.run([str(bin_dir / "ssdtlm-generic"), "--fio", str(DATA / name), "--out", str(out), *BASE,
                        *DRIVES[drive]], capture_output=True, text=True, timeout=120, env=env)
    return p, out


def check(name, p, out):
    entry = EXPECTED["files"][name]
    if "refused" in entry:
        assert p.returncode == 2, "%s: expected a refusal, exit %d\n%s" % (name, p.returncode, p.stderr[-2000:])
        assert entry["refused"] in p.stderr, "%s: the refusal does not name %r:\n%s" % (name, entry["refused"], p.stderr)
        assert not (out / "summary.json").exists()  # refused before simulating
        return "refused"
    assert p.returncode == 0, "%s: exit %d\n%s" % (name, p.returncode, p.stderr[-3000:])
    want = entry["runs"]
    jobs = json.loads((out / "config.json").read_text())["jobs"]
    device = json.loads((out / "summary.json").read_text())["geometry"]["logical_bytes"]
    assert len(jobs) == len(want["jobs"]), "%s: %d jobs, expected %d" % (name, len(jobs), len(want["jobs"]))
    for k, (got, exp) in enumerate(zip(jobs, want["jobs"])):
        exp = {**want.get("common", {}), **exp}
        if exp.get("address_range") == "device":
            exp["address_range"] = device - exp.get("address_offset", 0)
        for key, value in exp.items():
            assert key in got, "%s: job %d has no %s" % (name, k, key)
            ok = abs(got[key] - value) <= 1e-9 * max(1.0, abs(value)) if isinstance(value, float) else got[key] == value
            assert ok, "%s: job %d (%s): %s = %r, expected %r" % (name, k, got.get("name"), key, got[key], value)
    report = json.loads((out / "fio.json").read_text())
    moved = {d for d in ("read", "write", "trim") if any(j[d]["io_bytes"] > 0 for j in report["jobs"])}
    # A buffered job (direct=0) moves its data through the page cache: its calls are in summary.json's page_cache
    # (fio.json counts what the cache sent the drive, and writes that stay dirty in the 2 ms cap send nothing).
    cache = json.loads((out / "summary.json").read_text()).get("page_cache")
    for c in (cache.get("jobs", [cache]) if cache else []):
        moved |= {d for d, key in (("read", "read_bytes"), ("write", "write_bytes")) if c[key] > 0}
        moved |= {"trim"} if c["trims"] > 0 else set()
    assert moved == set(want["moved"]), "%s: moved %s, expected %s" % (name, sorted(moved), want["moved"])
    return "runs"


def test_every_example_runs_as_fio_would_or_is_refused_for_its_true_reason(bin_dir, tmp_path):
    names = sorted(EXPECTED["files"])
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda n: (n, *run(bin_dir, tmp_path, n)), names))
    failures, outcome = [], {}
    for name, p, out in results:
        try:
            outcome[name] = check(name, p, out)
        except AssertionError as e:
            failures.append(str(e))
    assert not failures, "\n\n".join(failures)
    # docs/guides/fio.md's table: how many run, how many are refused
    assert sum(v == "runs" for v in outcome.values()) == EXPECTED["summary"]["runs"]
    assert sum(v == "refused" for v in outcome.values()) == EXPECTED["summary"]["refused"]
