"""Issue 27: fio's normal and terse output formats from the command line, read as fio's own test scripts read
them (t/latency_percentiles.py: a terse v3 line is found by its leading "3;" and its clat percentile fields
17..33 and 58..74 equal floor(JSON percentile / 1000)); per stonewall group figures in the text summary,
summary.json and plot_run.py; disable_lat / disable_clat / disable_slat dropping their logs."""
import json
import subprocess
import sys
from pathlib import Path

from small_drive import FRESH, SMALL

ROOT = Path(__file__).resolve().parents[2]

JOB = """[global]
direct=1
bs=4k
iodepth=8
size=32m
[writes]
rw=randwrite
number_ios=3000
[reads]
stonewall
rw=randread
number_ios=2000
"""


def run(bin_dir, tmp_path, *args, job=JOB, drive=FRESH):
    (tmp_path / "job.fio").write_text(job)
    return subprocess.run([str(bin_dir / "ssdtlm-generic"), "--fio", "job.fio", "--out", "out", *drive, *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)


def terse_lines(text, version="3"):
    """fio's t/latency_percentiles.py get_terse: the lines starting with the version."""
    return [line.split(";") for line in text.splitlines() if line.startswith(version + ";")]


def check_terse(terse, jsondata):
    """fio's t/latency_percentiles.py check_terse: each 'P%=usec' field is floor(json[P] / 1000)."""
    for lat in terse:
        pct, value = lat.split("%")
        assert int(value[1:]) == jsondata[pct] // 1000, (pct, value, jsondata[pct])


def test_terse_v3_fields_match_fio_json(bin_dir, tmp_path):
    p = run(bin_dir, tmp_path, "--output-format", "terse", "--quiet")
    assert p.returncode == 0, p.stderr
    fio = json.loads((tmp_path / "out" / "fio.json").read_text())
    lines = terse_lines(p.stdout)
    assert len(lines) == 2 and len(p.stdout.splitlines()) == 2  # nothing but the two jobs' lines
    writes, reads = lines
    assert [len(writes), len(reads)] == [130, 130]
    assert writes[2] == "writes" and reads[2] == "reads"
    assert [writes[3], reads[3]] == ["0", "1"]  # the stonewall starts group 1
    w = fio["jobs"][0]["write"]
    r = fio["jobs"][1]["read"]
    check_terse(writes[58:75], w["clat_ns"]["percentile"])
    check_terse(reads[17:34], r["clat_ns"]["percentile"])
    assert int(writes[46]) == w["io_kbytes"] and int(writes[49]) == w["runtime"]
    assert int(reads[5]) == r["io_kbytes"] and int(reads[8]) == r["runtime"]
    assert int(writes[48]) == 1000 * w["total_ios"] // w["runtime"]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert abs(int(writes[48]) - summary["jobs"][0]["iops"]) <= 0.01 * summary["jobs"][0]["iops"] + 1


def test_terse_versions_and_bad_requests(bin_dir, tmp_path):
    p = run(bin_dir, tmp_path, "--output-format=terse", "--terse-version", "5", "--quiet")
    assert p.returncode == 0, p.stderr
    assert [len(x) for x in terse_lines(p.stdout, "5")] == [189, 189]
    bad = run(bin_dir, tmp_path, "--output-format", "terse", "--terse-version", "7")
    assert bad.returncode == 2 and "--terse-version" in bad.stderr
    mixed = run(bin_dir, tmp_path, "--output-format", "text,json")
    assert mixed.returncode == 2 and "stand alone" in mixed.stderr
    unknown = run(bin_dir, tmp_path, "--output-format", "normal,xml")
    assert unknown.returncode == 2 and "--output-format" in unknown.stderr


def test_normal_and_json_as_fio_prints_them(bin_dir, tmp_path):
    p = run(bin_dir, tmp_path, "--output-format", "normal,json", "--quiet")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    # Before the run: the job lines, the version, "Starting"; then fio's order: json, then the normal report.
    head = out.splitlines()[:4]
    assert head[0] == "writes: (g=0): rw=randwrite, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, " \
                      "ioengine=psync, iodepth=8"
    assert head[1].startswith("reads: (g=1): rw=randread")
    assert head[2].startswith("ssdtlm-")
    assert head[3] == "Starting 2 processes"
    start = out.index("{")
    doc, end = json.JSONDecoder().raw_decode(out, start)
    assert [j["jobname"] for j in doc["jobs"]] == ["writes", "reads"]
    normal = out[end:]
    assert "writes: (groupid=0, jobs=1): err= 0: pid=" in normal
    assert "reads: (groupid=1, jobs=1): err= 0: pid=" in normal
    w = doc["jobs"][0]["write"]
    assert "  write: IOPS=" in normal and "/%dmsec)\n" % w["runtime"] in normal
    assert "    clat percentiles (" in normal
    assert "\nRun status group 0 (all jobs):\n  WRITE: bw=" in normal
    assert "\nRun status group 1 (all jobs):\n   READ: bw=" in normal
    assert "run=%d-%dmsec" % (w["runtime"], w["runtime"]) in normal
    assert "\nDisk stats (read/write):\n  ssdtlm: ios=%d/%d," % (doc["disk_util"][0]["read_ios"],
                                                                 doc["disk_util"][0]["write_ios"]) in normal


FILL_THEN_RANDOM = """[global]
direct=1
bs=4k
iodepth=16
[fill]
rw=write
size=24m
[random]
stonewall
rw=randwrite
io_size=64m
"""


def test_text_summary_and_plots_per_stonewall_group(bin_dir, tmp_path):
    p = run(bin_dir, tmp_path, job=FILL_THEN_RANDOM, drive=SMALL + ["--set", "precondition.drive_writes=0",
                                                                    "--set", "stats.interval_ms=1ms"])
    assert p.returncode == 0, p.stderr
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    groups = summary["groups"]
    assert [g["jobs"] for g in groups] == [["fill"], ["random"]]
    assert groups[0]["waf"]["total"] < groups[1]["waf"]["total"]  # the random phase pays the GC
    assert sum(g["device"]["host_bytes_written"] for g in groups) == summary["host"]["bytes_written"]
    lines = p.stdout.splitlines()
    g0 = [line for line in lines if line.startswith("group 0")]
    g1 = [line for line in lines if line.startswith("group 1")]
    assert len(g0) == 1 and "(fill)" in g0[0] and "WAF %.3f" % groups[0]["waf"]["total"] in g0[0]
    assert len(g1) == 1 and "(random)" in g1[0] and "WAF %.3f" % groups[1]["waf"]["total"] in g1[0]
    venv = ROOT / ".venv" / "bin" / "python"
    if not venv.exists():
        return
    plot = subprocess.run([str(venv), str(ROOT / "scripts" / "plot_run.py"), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300)
    if "matplotlib" in plot.stderr and plot.returncode != 0:
        return
    assert plot.returncode == 0, plot.stderr
    assert "groups: g0 fill: " in plot.stdout and "; g1 random: " in plot.stdout
    assert (tmp_path / "out" / "timeseries.png").stat().st_size > 10000
    for name in ("timeseries", "latency_cdf"):
        for ext in (".pdf", ".svg"):
            assert (tmp_path / "out" / (name + ext)).stat().st_size > 1000, name + ext


LOGGED = """[global]
direct=1
bs=4k
iodepth=4
number_ios=500
write_lat_log=l
write_hist_log=h
log_hist_msec=1
[j]
rw=randwrite
%s
"""


def test_disable_latencies_drop_their_logs_and_json(bin_dir, tmp_path):
    p = run(bin_dir, tmp_path, "--quiet", job=LOGGED % "disable_lat=1\ndisable_slat=1")
    assert p.returncode == 0, p.stderr
    names = sorted(f.name for f in (tmp_path / "out").glob("*.log"))
    assert names == ["h_clat_hist.1.log", "l_clat.1.log"]
    w = json.loads((tmp_path / "out" / "fio.json").read_text())["jobs"][0]["write"]
    assert w["lat_ns"]["N"] == 0 and w["clat_ns"]["N"] == 500
    assert (tmp_path / "out" / "h_clat_hist.1.log").read_text()  # clat kept: its histogram too

    other = tmp_path / "gtod"
    other.mkdir()
    p = run(bin_dir, other, "--quiet", "--output-format", "terse", job=LOGGED % "gtod_reduce=1")
    assert p.returncode == 0, p.stderr
    names = sorted(f.name for f in (other / "out").glob("*.log"))
    assert names == ["h_clat_hist.1.log"]  # fio makes the file; without clat it stays empty
    assert (other / "out" / "h_clat_hist.1.log").read_text() == ""
    job = json.loads((other / "out" / "fio.json").read_text())["jobs"][0]
    assert job["write"]["clat_ns"]["N"] == 0 and "percentile" not in job["write"]["clat_ns"]
    assert sum(job["latency_us"].values()) == 0
    t = terse_lines(p.stdout)[0]
    assert t[58:78] == ["0%=0"] * 20  # fio: no clat, no percentiles


def test_zbd_zone_resets_as_fio_reports_them(bin_dir, tmp_path):
    """fio (zbd.c, stat.c zbd_write_status): a zonemode=zbd job that writes has "zone_resets" in its JSON and
    "; N zone resets" on its direction lines."""
    job = "[global]\ndirect=1\nrw=write\nzonemode=zbd\nbs=64k\niodepth=4\nio_size=300m\n[z]\n"
    drive = ["--set", "geometry.channels=2", "--set", "geometry.dies_per_channel=2", "--set",
             "geometry.blocks_per_plane=256", "--set", "geometry.pages_per_block=32", "--set", "buffer.bytes=1M",
             "--set", "precondition.drive_writes=0", "--set", "precondition.fill=false", "--set", "zns.enabled=true"]
    p = run(bin_dir, tmp_path, "--output-format", "normal", "--quiet", job=job, drive=drive)
    assert p.returncode == 0, p.stderr
    resets = json.loads((tmp_path / "out" / "fio.json").read_text())["jobs"][0]["zone_resets"]
    assert resets > 0  # 300 MiB through a ~200 MiB namespace: the zones written again are reset first
    assert "write: IOPS=" in p.stdout and "msec); %d zone resets\n" % resets in p.stdout
