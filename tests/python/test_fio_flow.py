"""Issue 27: fio's flow control from a job file (flow, flow_id, flow_sleep: fio's flow.c) keeps the jobs of one
flow_id at the ratio of their weights in I/Os issued; jobs in another flow_id are not held by it. Direct I/O: flow counts the commands the host issues, and a buffered writer's
cached writes are none."""
import json
import subprocess

from small_drive import FRESH

JOB = """[global]
bs=4k
direct=1
iodepth=16
time_based
runtime=20ms
{sleep}
[light]
rw=randread
flow=1
[heavy]
rw=write
flow=3
flow_id={heavy_id}
"""


def ios(bin_dir, tmp_path, sleep="", heavy_id=0):
    (tmp_path / "job.fio").write_text(JOB.format(sleep=sleep, heavy_id=heavy_id))
    p = subprocess.run([str(bin_dir / "ssdtlm-generic"), "--fio", "job.fio", "--out", "out", "--quiet", *FRESH],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    jobs = json.loads((tmp_path / "out" / "fio.json").read_text())["jobs"]
    return [j["read"]["total_ios"] + j["write"]["total_ios"] for j in jobs]


def test_flow_1_and_3_issue_1_to_3(bin_dir, tmp_path):
    light, heavy = ios(bin_dir, tmp_path)
    assert light > 100
    assert abs(heavy / light - 3) < 0.1


def test_flow_sleep_keeps_the_ratio(bin_dir, tmp_path):
    light, heavy = ios(bin_dir, tmp_path, sleep="flow_sleep=200")
    assert light > 20
    assert abs(heavy / light - 3) < 0.15


def test_other_flow_ids_do_not_hold_each_other(bin_dir, tmp_path):
    light, heavy = ios(bin_dir, tmp_path, heavy_id=1)
    assert abs(heavy / light - 3) > 0.5  # reads and writes at their own speeds
