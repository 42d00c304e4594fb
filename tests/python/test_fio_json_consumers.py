"""Issue 27: fio's output read as fio's own tools read it. json+ carries the clat bins that
tools/fio_jsonplus_clat2csv turns into per-latency counts and percentiles; the percentiles those bins give equal
the ones in the same report and in summary.json; bw_*/iops_* come from windows of bwavgtime/iopsavgtime; the
iodepth distribution and elapsed are filled. (The tool itself is fio's; this test parses as it does.)"""
import json
import math
import subprocess

from small_drive import FRESH as SMALL

JOB = """[global]
direct=1
bwavgtime=5
iopsavgtime=5
[mix]
rw=randrw
rwmixread=70
bs=4k
iodepth=16
size=64m
number_ios=30000
"""


def run(bin_dir, tmp_path, fmt):
    (tmp_path / "job.fio").write_text(JOB)
    p = subprocess.run([str(bin_dir / "ssdtlm-generic"), "--fio", "job.fio", "--out", "out", "--quiet",
                        "--output-format", fmt, *SMALL],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p


def percentile_from_bins(bins, q):
    """As fio_jsonplus_clat2csv: bins sorted by their ns value, cumulative counts; the first value whose
    cumulative share reaches q."""
    items = sorted((int(k), v) for k, v in bins.items())
    total = sum(v for _, v in items)
    seen = 0
    for ns, count in items:
        seen += count
        if seen >= q / 100.0 * total - 1e-9:
            return ns
    return items[-1][0]


def test_json_plus_bins_give_the_reported_percentiles(bin_dir, tmp_path):
    report = json.loads(run(bin_dir, tmp_path, "json+").stdout)
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    job = report["jobs"][0]
    for ddir in ("read", "write"):
        clat = job[ddir]["clat_ns"]
        assert "bins" in clat and clat["bins"], ddir
        assert sum(clat["bins"].values()) == clat["N"] == job[ddir]["total_ios"]
        for key, value in clat["percentile"].items():
            assert percentile_from_bins(clat["bins"], float(key)) == value, (ddir, key)
        # summary.json's percentiles (us) are the same histogram's
        lat = summary["host"]["latency_us"][ddir]
        assert abs(percentile_from_bins(clat["bins"], 99.0) / 1e3 - lat["p99"]) <= 1e-3 * lat["p99"] + 1e-3
    # the file in --out is the same layout (json+ asked)
    assert "bins" in json.loads((tmp_path / "out" / "fio.json").read_text())["jobs"][0]["read"]["clat_ns"]


def test_json_from_a_job_file_is_fios_layout_and_has_the_sampled_fields(bin_dir, tmp_path):
    report = json.loads(run(bin_dir, tmp_path, "json").stdout)
    job = report["jobs"][0]
    assert "bins" not in job["read"]["clat_ns"]
    for ddir in ("read", "write"):
        d = job[ddir]
        assert d["bw_samples"] > 3 and d["iops_samples"] > 3
        assert d["bw_min"] <= d["bw_mean"] <= d["bw_max"]
        assert d["iops_min"] <= d["iops_mean"] <= d["iops_max"]
        # the mean of the 5 ms samples is close to the job's bandwidth (the last partial window is not sampled)
        assert math.isclose(d["bw_mean"], d["bw"], rel_tol=0.1)
        assert math.isclose(d["iops_mean"], d["iops"], rel_tol=0.1)
        assert 0 < d["bw_agg"] <= 100
    assert math.isclose(sum(job["iodepth_level"].values()), 100.0)
    assert job["iodepth_level"][">=64"] == 0 and job["iodepth_level"]["16"] > 50  # iodepth=16 kept full
    assert job["elapsed"] >= 1  # whole seconds, rounded up as fio does


def test_summary_json_is_still_available(bin_dir, tmp_path):
    out = json.loads(run(bin_dir, tmp_path, "summary-json").stdout)
    assert "host" in out and "waf" in out


REPORT_JOB = """[j]
direct=1
rw=randrw
bs=4k
iodepth=8
size=32m
number_ios=5000
percentile_list=50:99.5
lat_percentiles=1
unified_rw_reporting={unified}
"""


def test_report_options_shape_fio_json_as_fio(bin_dir, tmp_path):
    """percentile_list, lat_percentiles, clat_percentiles and unified_rw_reporting change the report as in fio."""
    reports = {}
    for unified in ("none", "mixed", "both"):
        d = tmp_path / unified
        d.mkdir()
        (d / "job.fio").write_text(REPORT_JOB.format(unified=unified))
        p = subprocess.run([str(bin_dir / "ssdtlm-generic"), "--fio", "job.fio", "--out", "out", "--quiet",
                            "--output-format", "json", *SMALL], cwd=d, capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        reports[unified] = json.loads(p.stdout)["jobs"][0]
    none, mixed, both = reports["none"], reports["mixed"], reports["both"]
    assert "mixed" not in none and {"read", "write", "trim"} <= set(none)
    assert "read" not in mixed and "write" not in mixed and "mixed" in mixed
    assert {"read", "write", "trim", "mixed"} <= set(both)
    for ddir in ("read", "write"):
        assert list(none[ddir]["clat_ns"]["percentile"]) == ["50.000000", "99.500000"]
        assert none[ddir]["lat_ns"]["percentile"] == none[ddir]["clat_ns"]["percentile"]  # lat = clat here
    m = both["mixed"]
    assert m["total_ios"] == both["read"]["total_ios"] + both["write"]["total_ios"] == 5000
    assert m["io_bytes"] == both["read"]["io_bytes"] + both["write"]["io_bytes"]
    assert m["clat_ns"]["N"] == 5000
    assert m["clat_ns"]["min"] == min(both["read"]["clat_ns"]["min"], both["write"]["clat_ns"]["min"])
    assert mixed["mixed"] == m  # the same numbers, only the other directions dropped
