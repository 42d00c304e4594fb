"""Issue 27: fio's log files read as fio's own tools read them. tools/fiologparser.py averages a bandwidth log
over time (each entry holds from the previous entry's time to its own), tools/hist/fiologparser_hist.py (with
--noweight) adds the histogram entries' bins and takes percentiles from fio's bin values; both must give what
the run's own reports say. (The tools are fio's; this test parses as they do.)"""
import json
import subprocess

from small_drive import FRESH as SMALL

JOB = """[global]
direct=1
bs=4k
iodepth=16
size=64m
number_ios=40000
write_bw_log
write_iops_log
write_lat_log=lat
write_hist_log=hist
log_avg_msec=5
log_hist_msec=5
[writes]
rw=randwrite
[reads]
stonewall
rw=randread
"""


def run(bin_dir, tmp_path):
    (tmp_path / "job.fio").write_text(JOB)
    p = subprocess.run([str(bin_dir / "ssdtlm-generic"), "--fio", "job.fio", "--out", "out", "--quiet", *SMALL],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return tmp_path / "out"


def rows(path):
    return [[int(f) for f in line.split(",")] for line in path.read_text().splitlines() if line.strip()]


def time_weighted_mean(path):
    """fiologparser.py -a over the whole run: each sample spans (previous sample's time, its time]."""
    total = 0.0
    prev = 0
    for r in rows(path):
        total += r[1] * (r[0] - prev)
        prev = r[0]
    return total / prev


def plat_value(idx, bits=6):
    """fiologparser_hist.py's _plat_idx_to_val (edge 0.5): the middle of fio's bin idx, in ns."""
    if idx < (2 << bits):
        return idx
    error_bits = (idx >> bits) - 1
    return (1 << (error_bits + bits)) + (idx % (1 << bits) + 0.5) * (1 << error_bits)


def hist_percentile(path, q):
    counts = None
    for r in rows(path):
        counts = r[3:] if counts is None else [a + b for a, b in zip(counts, r[3:])]
    total = sum(counts)
    seen = 0
    for idx, c in enumerate(counts):
        seen += c
        if seen >= q / 100.0 * total:
            return plat_value(idx), total
    raise AssertionError("empty histogram")


def test_fio_logs_give_the_reported_bandwidth_and_percentiles(bin_dir, tmp_path):
    out = run(bin_dir, tmp_path)
    names = sorted(p.name for p in out.iterdir())
    for n in ("writes_bw.1.log", "reads_bw.2.log", "writes_iops.1.log", "lat_clat.1.log", "lat_slat.2.log",
              "lat_lat.2.log", "hist_clat_hist.1.log", "hist_clat_hist.2.log"):
        assert n in names, names
    report = json.loads((out / "fio.json").read_text())
    jobs = {j["jobname"]: j for j in report["jobs"]}
    for name, number, ddir in (("writes", 1, "write"), ("reads", 2, "read")):
        job = jobs[name][ddir]
        # bandwidth (KiB/s) and IOPS: the logs integrate to what fio.json reports
        bw = time_weighted_mean(out / f"{name}_bw.{number}.log")
        assert abs(bw - job["bw"]) <= 0.01 * job["bw"], (name, bw, job["bw"])
        iops = time_weighted_mean(out / f"{name}_iops.{number}.log")
        assert abs(iops - job["iops"]) <= 0.01 * job["iops"], (name, iops, job["iops"])
        # the histogram log: fio's bins give fio.json's percentiles within a bin's width (1/64 of a power of two)
        for q in (50.0, 99.0):
            value, samples = hist_percentile(out / f"hist_clat_hist.{number}.log", q)
            reported = job["clat_ns"]["percentile"][f"{q:.6f}"]
            assert abs(value - reported) <= reported / 64 + 2, (name, q, value, reported)
            assert samples <= job["total_ios"]
            assert samples >= 0.95 * job["total_ios"]  # only the last open window is left out, as fio does
        # every I/O in the per-direction latency logs' windows, in ns
        for line in rows(out / f"lat_clat.{number}.log"):
            assert line[2] == (0 if ddir == "read" else 1)
            assert job["clat_ns"]["min"] <= line[1] <= job["clat_ns"]["max"]
