"""Issue 45: scripts/fio_wild.py, the measurement on job files from the wild. The files themselves are other
people's and stay out of the repository (scripts/fio_wild_sources.json lists where they are); these tests check the
list and the classing rule on job files written here, each made to fall in one class."""
import json
import re
import subprocess
import sys

import fio_wild

SOURCES = json.loads(fio_wild.SOURCES.read_text())["files"]


def test_the_sources_list_every_file_where_it_is_and_what_fio_does():
    measured = [s for s in SOURCES if not s.get("support")]
    assert len(measured) >= 45
    assert len({s["file"] for s in SOURCES}) == len(SOURCES)
    for s in SOURCES:
        assert re.fullmatch(r"[0-9a-f]{40}", s["commit"]) and "/" in s["repo"] and s["path"], s
        if not s.get("support"):
            assert s["fio"] in ("runs", "refuses") and s["why"], s
            assert s["fio"] == "runs" or s["reason"], s
            assert s.get("drive", "default") in fio_wild.DRIVES, s
    assert len({s["repo"] for s in measured}) >= 5  # not one project's files


def test_the_independent_reading_of_a_job_file(tmp_path):
    (tmp_path / "inc.fio").write_text("bs=64k\niodepth=8\n")
    (tmp_path / "j.fio").write_text("[global]\nrw=randrw\nrwmixread=70\n[a]\ninclude inc.fio\nnumjobs=2\n"
                                    "[b]\nrw=write\nverify=md5\nbs=${UNSET_BS}\nblocksize=4k-512k\n")
    jobs = fio_wild.expected_jobs(tmp_path / "j.fio")
    assert [j["name"] for j in jobs] == ["a.0", "a.1", "b"]
    assert jobs[0]["pattern"] == "random" and jobs[0]["read_fraction"] == 0.7 and jobs[0]["block_bytes"] == 65536
    assert jobs[0]["queue_depth"] == 8 and jobs[0]["buffered"]  # psync, direct=0: through the page cache
    assert jobs[2]["dirs"] == {"write", "read"}  # the verify read-back
    assert jobs[2]["block_bytes"] is None  # bs= empty (unset variable): no check


def entries(tmp_path, files):
    for name, (text, entry) in files.items():
        (tmp_path / name).write_text(text)
    path = tmp_path / "sources.json"
    path.write_text(json.dumps({"files": [dict(e, file=n, why="test") for n, (t, e) in files.items()]}))
    return path


def test_each_class_from_a_run(bin_dir, tmp_path):
    files = {
        "good.fio": ("[j]\nrw=randwrite\nbs=8k\niodepth=4\ndirect=1\nsize=16m\nwrite_bw_log=bw/j\n", {"fio": "runs"}),
        # a file fio runs, declared here as one fio refuses: running it is "ran but wrong"
        "wrongly_declared.fio": ("[j]\nrw=read\ndirect=1\nsize=8m\n", {"fio": "refuses", "reason": "whatever"}),
        "true_refusal.fio": ("[global]\nrw=write\n", {"fio": "refuses", "reason": "no job"}),
        "wrong_refusal.fio": ("[j]\nioengine=null\n", {"fio": "refuses", "reason": "a reason it does not give"}),
        "limit.fio": ("[j]\nrw=write\nbs_is_seq_rand=1\n", {"fio": "runs", "limit": "bs_is_seq_rand"}),
    }
    sources = entries(tmp_path, files)
    out = tmp_path / "classes.json"
    p = subprocess.run([sys.executable, str(fio_wild.ROOT / "scripts" / "fio_wild.py"), "run", str(tmp_path),
                        "--bin", str(bin_dir), "--json", str(out), "--sources", str(sources)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    got = {r["file"]: r["class"] for r in json.loads(out.read_text())}
    assert got == {"good.fio": "ran correctly", "wrongly_declared.fio": "ran but wrong",
                   "true_refusal.fio": "refused, true reason", "wrong_refusal.fio": "refused, wrong reason",
                   "limit.fio": "refused, true reason"}
    assert "fio runs 2, of which ran correctly 1 (50 %)" in p.stdout
    assert "refusals 3, true reason 2 (67 %)" in p.stdout


class Done:
    def __init__(self, rc, stderr=""):
        self.returncode, self.stderr = rc, stderr


def test_success_while_commands_failed_is_its_own_class(tmp_path):
    (tmp_path / "summary.json").write_text(json.dumps({"host": {"failed_commands": 3}}))
    (tmp_path / "fio.json").write_text(json.dumps({"jobs": [{"error": 0}]}))
    job = tmp_path / "j.fio"
    job.write_text("[j]\nrw=write\n")
    entry = {"fio": "runs", "why": "test"}
    assert fio_wild.classify(entry, job, Done(0), tmp_path)[0] == "success while commands failed"
    (tmp_path / "fio.json").write_text(json.dumps({"jobs": [{"error": 5}]}))  # a job stopped at a failed command
    (tmp_path / "summary.json").write_text(json.dumps({"host": {}}))
    assert fio_wild.classify(entry, job, Done(0), tmp_path)[0] == "success while commands failed"
