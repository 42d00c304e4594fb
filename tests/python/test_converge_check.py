"""scripts/converge_check.py (issue 48, time to answer): the cell rule (joint 95 % half-width, no interval = no
agreement), the 90 % and 1/3 verdicts, and --check, on two small studies' outputs written here."""
import csv
import subprocess
import sys

from conftest import SCRIPTS

AXES = ["geometry.over_provisioning", "host.queue_depth", "workload.read_fraction"]


def write_study(folder, cells, cpu):
    """cells: {(op, qd, rf): {metric: (value, half_width, batches)}}; cpu: seconds per point."""
    folder.mkdir(parents=True)
    metric_cols = sorted({"convergence.metrics.%s.%s" % (m, f) for c in cells.values() for m in c
                          for f in ("value", "half_width", "batches")})
    with open(folder / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, AXES + ["convergence.measured_ios"] + metric_cols)
        w.writeheader()
        for point, metrics in cells.items():
            row = dict(zip(AXES, point), **{"convergence.measured_ios": 1000})
            for m, (v, hw, b) in metrics.items():
                row.update({"convergence.metrics.%s.value" % m: v, "convergence.metrics.%s.half_width" % m: hw,
                            "convergence.metrics.%s.batches" % m: b})
            w.writerow(row)
    with open(folder / "runs.csv", "w", newline="") as f:
        w = csv.DictWriter(f, ["point", "cpu_seconds"])
        w.writeheader()
        for i, _ in enumerate(cells):
            w.writerow({"point": i, "cpu_seconds": cpu})


def run(tmp_path, full, conv, full_cpu, conv_cpu, *extra):
    write_study(tmp_path / "full", full, full_cpu)
    write_study(tmp_path / "conv", conv, conv_cpu)
    doc = tmp_path / "convergence.md"
    done = subprocess.run([sys.executable, str(SCRIPTS / "converge_check.py"), "--pair", str(tmp_path / "full"),
                           str(tmp_path / "conv"), "--doc", str(doc), *extra], capture_output=True, text=True)
    return done, doc


def test_cells_agree_within_the_joint_interval_and_verdicts_follow(tmp_path):
    p = ("0.07", "1", "0.0")
    full = {p: {"host.iops": (100.0, 3.0, 30), "waf.total": (4.0, 0.03, 30), "host.latency_us.write.mean": (50, 1, 30)}}
    # iops: |104 - 100| = 4 <= hypot(3, 4) = 5 agrees; waf: 0.1 > hypot(0.03, 0.04) = 0.05 does not;
    # latency: the converged run has no interval (0 batches), so no agreement whatever its value.
    conv = {p: {"host.iops": (104.0, 4.0, 25), "waf.total": (4.1, 0.04, 25), "host.latency_us.write.mean": (50, 0, 0)}}
    done, doc = run(tmp_path, full, conv, 30.0, 9.0)
    assert done.returncode == 0, done.stderr
    text = doc.read_text()
    assert "| 1 of 3 cells agree (33.3 %) | no |" in text
    assert "9.0 s of CPU against 30.0 s (0.30)" in text and text.count("| yes |") == 2  # time claim, iops cell
    assert "| 0.07 / 1 / 0.0 | waf.total | 4 ± 0.03 | 4.1 ± 0.04 | +0.1 | 0.05 | **no** |" in text
    check = subprocess.run([sys.executable, str(SCRIPTS / "converge_check.py"), "--pair", str(tmp_path / "full"),
                            str(tmp_path / "conv"), "--doc", str(doc), "--check"])
    assert check.returncode == 0
    doc.write_text(text.replace("| no |", "| yes |"))  # a verdict typed by hand
    check = subprocess.run([sys.executable, str(SCRIPTS / "converge_check.py"), "--pair", str(tmp_path / "full"),
                            str(tmp_path / "conv"), "--doc", str(doc), "--check"])
    assert check.returncode == 1


def test_the_table_is_reproduced_at_ninety_percent(tmp_path):
    points = [("0.07", "1", str(i)) for i in range(10)]
    full = {p: {"host.iops": (100.0, 1.0, 30)} for p in points}
    conv = {p: {"host.iops": (100.5 if i else 103.0, 1.0, 30)} for i, p in enumerate(points)}  # 9 of 10 agree
    done, doc = run(tmp_path, full, conv, 30.0, 12.0)
    assert done.returncode == 0, done.stderr
    text = doc.read_text()
    assert "| 9 of 10 cells agree (90.0 %) | yes |" in text
    assert "(0.40)" in text and "| no |" in text  # 12 s is more than a third of 30 s
