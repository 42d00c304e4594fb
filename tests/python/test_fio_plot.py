"""Issue 45: fio-plot (PyPI package fio-plot, pinned in requirements.txt) draws its graphs from a bench-fio run made
with ssdtlm's fio front end, in bench-fio's own layout. bench-fio (fio-plot's benchmark driver) makes the folder
OUTPUT/DEVICE/BS, writes a job file per (mode, iodepth, numjobs) with a [FIOJOB] section whose logs are
OUTPUT/DEVICE/BS/MODE-iodepth-D-numjobs-N (relative to where it runs fio) and runs
`fio --output-format=json --output=OUTPUT/DEVICE/BS/MODE-D-N.json`. Here each job file runs through ssdtlm-generic
with --out as fio's working folder: its logs land in that folder under bench-fio's names, and its stdout (fio's
JSON) is saved beside them. fio-plot then draws the 2D bar chart over the queue depths (-l), the 3D chart (-L), the
latency histogram (-H) and the log graph (-g), all from that one folder, as after a real bench-fio run. Skipped
only when fio_plot cannot be imported."""
import configparser
import subprocess
import sys

import pytest

from small_drive import FRESH as SMALL

pytest.importorskip("fio_plot")

DEPTHS = (1, 4)


def bench_fio_job(path, bench_dir, depth):
    """The job file bench-fio's generatefio.py writes with its defaults (libaio, direct=1, invalidate=1, loops=1),
    --runtime 1 and --loginterval 100, for a randread of 4k at this depth on /dev/nvme0n1; bench_dir as bench-fio
    names it (relative: `bench-fio --output benchmarks`)."""
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
    run = tmp_path / "run"  # fio's working folder: ssdtlm's --out
    rel = "benchmarks/nvme0n1/4k"
    bench = run / rel
    bench.mkdir(parents=True)  # bench-fio's make_directory, before it runs fio
    for d in DEPTHS:
        job = tmp_path / f"nvme0n1-{d}.fio"
        bench_fio_job(job, rel, d)
        p = subprocess.run([str(bin_dir / "ssdtlm-generic"), "--fio", str(job), "--output-format", "json", "--quiet",
                            "--out", str(run), *SMALL], cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        (bench / f"randread-{d}-1.json").write_text(p.stdout)
        for kind in ("bw", "iops", "lat", "clat", "slat"):  # the logs, where fio writes them
            log = bench / f"randread-iodepth-{d}-numjobs-1_{kind}.1.log"
            assert len(log.read_text().splitlines()) >= 3, log  # 100 ms windows (fio-plot needs two)
    # bench-fio's folder holds its files only: the run's own outputs are in --out's top.
    assert not any(p.name in ("fio.json", "summary.json") for p in bench.iterdir())
    # the first run's logs stay when the second run replaces the set (other names)
    assert (bench / "randread-iodepth-1-numjobs-1_bw.1.log").exists()
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
        fio_plot(tmp_path, "-i", str(bench), "-T", "ssdtlm", "-g", "-t", "iops", "lat", "bw", "-r", "randread",
                 "-d", str(d), "-n", "1", "-o", name)
        assert (tmp_path / name).stat().st_size > 10000, name
