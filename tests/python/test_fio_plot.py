"""Issue 45: fio-plot (PyPI package fio-plot, pinned in requirements.txt) draws its graphs from a bench-fio run made
with ssdtlm's fio front end. bench-fio (fio-plot's benchmark driver) writes a job file per (mode, iodepth, numjobs)
with a [FIOJOB] section, log paths with folders (DIR/NAME/MODE-iodepth-D-numjobs-N) and runs
`fio --output-format=json --output=DIR/MODE-D-N.json`; here each job file runs through ssdtlm-generic, its stdout
(fio's JSON) saved under bench-fio's name and its logs in its --out. fio-plot then draws the 2D bar chart over the
queue depths (-l), the 3D chart (-L), the latency histogram (-H) from the JSON files, and the log graph (-g) from
the logs. Skipped only when fio_plot cannot be imported."""
import configparser
import subprocess
import sys

import pytest

from small_drive import FRESH as SMALL

pytest.importorskip("fio_plot")

DEPTHS = (1, 4)


def bench_fio_job(path, bench_dir, depth):
    """The job file bench-fio's generatefio.py writes with its defaults (libaio, direct=1, invalidate=1, loops=1),
    --runtime 1 and --loginterval 100, for a randread of 4k at this depth on /dev/nvme0n1."""
    config = configparser.ConfigParser()
    log = f"{bench_dir}/randread-iodepth-{depth}-numjobs-1"
    config["FIOJOB"] = {"ioengine": "libaio", "rw": "randread", "bs": "4k", "iodepth": str(depth), "numjobs": "1",
                        "runtime": "1", "loops": "1", "direct": "1", "log_avg_msec": "100", "invalidate": "1",
                        "filename": "/dev/nvme0n1", "write_bw_log": log, "write_lat_log": log, "write_iops_log": log}
    with open(path, "w") as f:
        config.write(f, space_around_delimiters=False)


def fio_plot(cwd, *args):
    code = "import sys, fio_plot; sys.argv = ['fio-plot'] + sys.argv[1:]; sys.exit(fio_plot.main())"
    p = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True, timeout=600,
                       env={"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin", "HOME": str(cwd)})
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def test_fio_plot_draws_a_bench_fio_run(bin_dir, tmp_path):
    bench = tmp_path / "benchmarks" / "nvme0n1" / "4k"
    bench.mkdir(parents=True)
    for d in DEPTHS:
        job = tmp_path / f"nvme0n1-{d}.fio"
        bench_fio_job(job, bench, d)
        p = subprocess.run([str(bin_dir / "ssdtlm-generic"), "--fio", str(job), "--output-format", "json", "--quiet",
                            "--out", f"runs/{d}", *SMALL], cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        (bench / f"randread-{d}-1.json").write_text(p.stdout)
        for kind in ("bw", "iops", "lat", "clat", "slat"):  # the logs, under bench-fio's names
            log = tmp_path / "runs" / str(d) / f"randread-iodepth-{d}-numjobs-1_{kind}.1.log"
            assert len(log.read_text().splitlines()) >= 3, log  # 100 ms windows (fio-plot needs two)
    graphs = {
        "qd.png": ["-l", "-r", "randread", "-n", "1"],
        "3d.png": ["-L", "-r", "randread", "-t", "iops"],
        "histogram.png": ["-H", "-r", "randread", "-d", "4", "-n", "1"],
    }
    for name, args in graphs.items():
        out = fio_plot(tmp_path, "-i", str(bench), "-T", "ssdtlm", "-o", name, *args)
        assert "Saving to file" in out
        assert (tmp_path / name).stat().st_size > 10000, name
    for d in DEPTHS:
        name = f"log-{d}.png"
        fio_plot(tmp_path, "-i", f"runs/{d}", "-T", "ssdtlm", "-g", "-t", "iops", "lat", "bw", "-r", "randread",
                 "-d", str(d), "-n", "1", "-o", name)
        assert (tmp_path / name).stat().st_size > 10000, name
