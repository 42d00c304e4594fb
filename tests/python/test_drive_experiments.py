"""scripts/drive_experiments.py (issue 40): every declared experiment names declared rows and a prediction; the
outcome is the prediction applied to the numbers (recomputed here); the pages' tables are what --write writes
(--check); and one real experiment (QD1 random write acknowledged only once on flash) runs through
validate_drives.py's measurement and is refuted by the numbers it produces."""
import json
import math
import os
import subprocess
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import drive_experiments as de  # noqa: E402

BIN = os.environ.get("SSDTLM_BIN_DIR", str(ROOT / "build" / "bin"))


def _row(value, published, kind="throughput", unit="IOPS"):
    return {"value": value, "published": published, "kind": kind, "unit": unit}


def test_the_outcome_is_the_prediction_applied_to_the_numbers():
    base = {"r": _row(300.0, 100.0)}  # +200 %
    assert de.outcome("within", base, {"r": _row(105.0, 100.0)}) == "not refuted"
    assert de.outcome("within", base, {"r": _row(120.0, 100.0)}) == "refuted"
    assert de.outcome("outside", base, {"r": _row(120.0, 100.0)}) == "not refuted"
    assert de.outcome("halves", base, {"r": _row(200.0, 100.0)}) == "not refuted"  # +100 % <= 200 / 2
    assert de.outcome("halves", base, {"r": _row(201.0, 100.0)}) == "refuted"
    assert de.outcome("unchanged", base, {"r": _row(310.0, 100.0)}) == "not refuted"  # +3.3 %
    assert de.outcome("unchanged", base, {"r": _row(330.0, 100.0)}) == "refuted"
    # Latency rows use their own bound (20 %); every row must hold.
    lat = {"a": _row(60.0, 50.0, "mean_latency", "us"), "b": _row(100.0, 100.0)}
    assert de.outcome("within", lat, lat) == "not refuted"
    lat["b"] = _row(150.0, 100.0)
    assert de.outcome("within", lat, lat) == "refuted"
    # No value with the change: no result; no value as configured only matters for a relative prediction.
    nan = {"r": _row(float("nan"), 100.0)}
    assert de.outcome("within", base, nan) == "no result"
    assert de.outcome("within", nan, {"r": _row(100.0, 100.0)}) == "not refuted"
    assert de.outcome("halves", nan, {"r": _row(100.0, 100.0)}) == "no result"


def test_every_declared_experiment_names_declared_rows_and_a_prediction():
    exps = de.load_declared(de.DECLARED)
    assert len(exps) >= 20
    assert {e["drive"] for e in exps} == set(de.vd.drives_declared())
    for e in exps:
        assert e["predicts"] in de.PREDICTIONS and e["override"] and e["hypothesis"]
        assert all(not kv.startswith("geometry.planes_per_die") for kv in e["override"])


def test_the_pages_tables_are_what_write_writes(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "drive_experiments.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # A page whose table was edited by hand fails the check.
    exps = de.load_declared(de.DECLARED)
    drive = exps[0]["drive"]
    page = (de.vd.DECL / (drive + ".md")).read_text()
    assert de.BEGIN in page and de.END in page
    (tmp_path / (drive + ".md")).write_text(page.replace("| refuted |", "| not refuted |", 1))
    for other in {e["drive"] for e in exps} - {drive}:
        (tmp_path / (other + ".md")).write_text((de.vd.DECL / (other + ".md")).read_text())
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "drive_experiments.py"), "--check",
                        "--pages", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 1 and drive in r.stderr


def test_a_write_through_qd1_write_runs_and_is_refuted_by_its_numbers(tmp_path):
    declared = {"experiments": [{
        "id": "t_write_through", "drive": "samsung_980pro_1tb", "rows": ["ds_rand_write_qd1"], "io_scale": 0.05,
        "hypothesis": "acknowledged once on flash", "predicts": "within",
        "override": ["buffer.power_protected=false", "workload.write_fua=true"]}]}
    (tmp_path / "declared.json").write_text(json.dumps(declared))
    results = tmp_path / "results.json"
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "drive_experiments.py"), "--bin-dir", BIN, "--run",
                        "--declared", str(tmp_path / "declared.json"), "--results", str(results),
                        "--out", str(tmp_path / "runs"), "--pages", str(tmp_path / "no_pages")],
                       capture_output=True, text=True)
    assert "t_write_through" in r.stdout, r.stderr
    res = json.loads(results.read_text())["t_write_through"]
    base, exp = res["base"]["ds_rand_write_qd1"], res["exp"]["ds_rand_write_qd1"]
    # Acknowledged from DRAM the QD1 write is far faster than once an SLC program (210 us) is waited for.
    assert base["value"] > 5 * exp["value"] > 0
    assert not math.isnan(exp["value"]) and exp["value"] < 6000
    assert de.outcome("within", res["base"], res["exp"]) == "refuted"
