"""scripts/wrr_urgent.py (issue 42): the claims table in docs/results/nvme_arbitration.md is the one computed from the
committed docs/figures/wrr_urgent.csv, and a verdict changed by hand fails the check."""
import subprocess
import sys

from conftest import ROOT, SCRIPTS, load_script


def wrr_urgent():
    return load_script("wrr_urgent")


def test_the_doc_table_is_the_computed_one():
    r = subprocess.run([sys.executable, str(SCRIPTS / "wrr_urgent.py"), "--check"], capture_output=True, text=True,
                       cwd=str(ROOT), timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "| holds |" in r.stdout and "| fails |" in r.stdout  # the check can fail: round robin does


def test_a_verdict_typed_by_hand_fails(tmp_path, monkeypatch):
    mod = wrr_urgent()
    text = mod.DOC.read_text()
    forged = tmp_path / mod.DOC.name
    forged.write_text(text.replace("| fails |", "| holds |", 1))
    monkeypatch.setattr(mod, "DOC", forged)
    monkeypatch.setattr(sys, "argv", ["wrr_urgent.py", "--check"])
    assert mod.main() == 1


def test_the_rule_uses_the_bound():
    mod = wrr_urgent()
    rows = []
    for seed in (1, 2, 3):
        rows.append({"regime": "flash", "arbitration": "solo", "max_commands": 8, "seed": seed, "urgent_p99_us": 100.0,
                     "low_iops": None})
        rows.append({"regime": "flash", "arbitration": "wrr", "max_commands": 8, "seed": seed, "urgent_p99_us": 110.0,
                     "low_iops": 1.0})
        rows.append({"regime": "flash", "arbitration": "rr", "max_commands": 8, "seed": seed, "urgent_p99_us": 111.0,
                     "low_iops": 1.0})
    monkeypatch_regimes = [("flash", "flash")]
    mod.REGIMES = monkeypatch_regimes
    t = mod.table(rows)
    assert "weighted round robin, urgent class; flash bound; 8 command slots" in t
    lines = [l for l in t.splitlines() if "command slots" in l]
    assert lines[0].endswith("| holds |")  # 1.10: on the bound
    assert lines[1].endswith("| fails |")  # 1.11
