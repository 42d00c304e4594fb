"""Issue 27: fio's latency-target depth search (latency_target, latency_window, latency_percentile) finds the
largest queue depth whose window meets the target, runs one more window there from fresh statistics and ends,
reported as fio does (latency_depth, ...); a target missed at depth 1 ends the job with fio's error 110."""
import json
import subprocess

from small_drive import SMALL


JOB = """[j]
rw=randread
bs=4k
iodepth=64
size=64m
time_based
runtime=2s
latency_target={target}
latency_window=20ms
latency_percentile=99
"""


def run(bin_dir, tmp_path, target):
    (tmp_path / "job.fio").write_text(JOB.format(target=target))
    p = subprocess.run([str(bin_dir / "ssdtlm-generic"), "--fio", "job.fio", "--out", "out", "--quiet", *SMALL],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads((tmp_path / "out" / "fio.json").read_text())["jobs"][0]


def test_the_search_settles_on_a_depth_that_meets_the_target(bin_dir, tmp_path):
    job = run(bin_dir, tmp_path, "300us")
    assert job["error"] == 0
    assert (job["latency_target"], job["latency_percentile"], job["latency_window"]) == (300000, 99.0, 20000)
    assert 2 <= job["latency_depth"] < 64  # 4 dies: deeper queues wait behind busy dies
    # the statistics are the final window's, at the depth found: within the target at the 99th percentile
    assert job["read"]["clat_ns"]["percentile"]["99.000000"] <= 300000 * 1.01
    assert 20 <= job["job_runtime"] < 40
    assert job["iodepth_level"][">=64"] == 0


def test_a_target_missed_at_depth_1_is_fios_error(bin_dir, tmp_path):
    job = run(bin_dir, tmp_path, "1us")
    assert job["error"] == 110 and job["latency_depth"] == 1
    assert job["job_runtime"] < 2000
