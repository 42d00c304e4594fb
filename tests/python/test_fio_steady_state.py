"""Issue 27: fio's steady-state options (ss, ss_dur, ss_ramp, ss_interval) stop a time-based job when its IOPS
settle, as fio does, and the report says so as fio's does (fio.json's "steadystate"); with group_reporting the
jobs of a group are measured and stopped together; a criterion never met leaves the job to its runtime."""
import json
import subprocess

from small_drive import SMALL


JOB = """[global]
direct=1
rw=randwrite
bs=4k
iodepth=16
time_based
runtime=5s
ss_dur=100ms
ss_interval=10ms
ss_ramp=50ms
{extra}
[a]
ss={ss}
"""


def run(bin_dir, tmp_path, ss, extra=""):
    (tmp_path / "job.fio").write_text(JOB.format(ss=ss, extra=extra))
    p = subprocess.run([str(bin_dir / "ssdtlm-generic"), "--fio", "job.fio", "--out", "out", *SMALL],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    out = tmp_path / "out"
    return p.stdout, json.loads((out / "summary.json").read_text()), json.loads((out / "fio.json").read_text())


def test_a_job_stops_at_steady_state_and_says_so(bin_dir, tmp_path):
    text, summary, report = run(bin_dir, tmp_path, "iops_slope:1%")
    ss = report["jobs"][0]["steadystate"]
    assert ss["ss"] == "iops_slope:1.000000%"
    assert ss["attained"] == 1
    assert abs(float(ss["criterion"].rstrip("%"))) < 1.0
    assert len(ss["data"]["iops"]) == len(ss["data"]["bw"]) == 10  # ss_dur / ss_interval
    assert ss["data"]["iops_mean"] == sum(ss["data"]["iops"]) // 10
    # the job ran until then (intervals recorded from the one ending at ss_ramp + 10 ms: 10 of them end at 150 ms
    # at the earliest), not its 5 s runtime
    assert 0.15 <= ss["attained_s"] < 5.0
    assert report["jobs"][0]["job_runtime"] < 5000
    assert abs(report["jobs"][0]["job_runtime"] / 1e3 - ss["attained_s"]) < 0.01
    # decided on fio's timer: at an interval's end (10 ms steps from the job's start), where the job stops issuing;
    # what it has in flight then completes within a few ms
    assert abs(ss["attained_s"] * 100 - round(ss["attained_s"] * 100)) < 1e-6
    assert 0 <= report["jobs"][0]["job_runtime"] - ss["attained_s"] * 1e3 < 5
    assert summary["steadystate"][0]["attained"] == 1
    assert "steady      a iops_slope:1.000000%: attained" in text


def test_a_criterion_never_met_runs_to_the_runtime(bin_dir, tmp_path):
    _, _, report = run(bin_dir, tmp_path, "iops:0")  # a deviation below 0 IOPS: never
    job = report["jobs"][0]
    assert job["steadystate"]["attained"] == 0
    assert 5000 <= job["job_runtime"] <= 5010  # the last commands in flight complete after the runtime


def test_group_reporting_jobs_reach_steady_state_together(bin_dir, tmp_path):
    _, summary, report = run(bin_dir, tmp_path, "iops_slope:1%", extra="numjobs=2\ngroup_reporting")
    assert len(report["jobs"]) == 1 and report["jobs"][0]["steadystate"]["attained"] == 1
    states = summary["steadystate"]
    assert len(states) == 2 and states[0] == {**states[1], "job": states[0]["job"]}  # one shared measurement
    spans = [j["start_s"] + j["span_s"] for j in summary["jobs"]]
    assert abs(spans[0] - spans[1]) < 0.005  # both stopped at the group's steady state
