"""The verdict rule (scripts/studylib/verdict.py) and the results docs' claims tables (scripts/verdicts.py, issue 43):
every branch of the rule, and every table in the docs equal to the one computed from the committed study outputs,
so that a verdict typed by hand fails here."""
import subprocess
import sys

import pytest

from conftest import ROOT, SCRIPTS, load_script
from studylib import verdict


@pytest.mark.parametrize("paper,ours,spread,expected", [
    (-1.0, -0.8, 0.1, "in size"),      # within 2x
    (-1.0, -0.5, 0.1, "in size"),      # exactly half
    (-1.0, -2.0, 0.1, "in size"),      # exactly twice
    (-1.0, -0.4, 0.1, "direction"),    # same sign, below half
    (-1.0, -2.5, 0.1, "direction"),    # same sign, above twice
    (-1.0, 0.3, 0.1, "no"),            # the other sign
    (-1.0, -0.8, 0.9, "no"),           # inside the run-to-run spread
    (2.83, 2.72, 0.01, "in size"),     # a level
    (2.83, 8.0, 0.01, "direction"),    # a level outside 2x
    (0.0, 0.05, 0.1, "in size"),       # "no effect", and none measured
    (0.0, 0.5, 0.1, "no"),             # "no effect", but one measured
])
def test_the_rule(paper, ours, spread, expected):
    assert verdict.judge(paper, ours, spread) == expected


def test_a_setting_chosen_by_matching_is_named():
    assert verdict.judge(-1.0, -0.9, 0.1, "x=4") == "in size (conditional: x=4)"


def test_a_spread_needs_three_seeds():
    with pytest.raises(ValueError):
        verdict.spread([1.0, 2.0])
    assert verdict.spread([1.0, 2.0, 3.0]) == pytest.approx(1.0)


def test_a_claim_without_numbers_is_refused():
    with pytest.raises(ValueError):
        verdict.judge(float("nan"), 1.0, 0.1)


def test_missing_markers_are_named():
    with pytest.raises(ValueError, match="no verdict block 'x'"):
        verdict.replace_block("text", "x", "table")


def test_the_docs_tables_are_the_computed_ones():
    r = subprocess.run([sys.executable, str(SCRIPTS / "verdicts.py"), "--check"], capture_output=True, text=True,
                       cwd=str(ROOT), timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "claims in size on the defaults" in r.stdout


def test_a_verdict_typed_by_hand_fails(tmp_path, monkeypatch):
    # A copy of the docs with one verdict changed by hand: --check must fail on it.
    mod = load_script("verdicts")
    for name, rs in mod.RESULT_SETS.items():
        text = rs["doc"].read_text()
        begin = text.index(verdict.begin_marker(name))
        end = text.index(verdict.end_marker(name))
        block = text[begin:end]
        for word in ("| direction", "| no", "| in size"):
            if word in block:
                forged = block.replace(word, "| in size" if word != "| in size" else "| no", 1)
                break
        copy = tmp_path / rs["doc"].name
        copy.write_text(text[:begin] + forged + text[end:])
        monkeypatch.setitem(rs, "doc", copy)
    monkeypatch.setattr(sys, "argv", ["verdicts.py", "--check"])
    assert mod.main() == 1


@pytest.mark.parametrize("sign,ours,spread,expected", [
    (-1, -0.2, 0.05, "direction"),     # a direction without a number is never "in size"
    (-1, -0.003, 0.01, "no"),          # inside the spread
    (-1, 0.2, 0.05, "no"),             # the other sign
    (1, 0.2, 0.05, "direction"),
])
def test_a_direction_without_a_number(sign, ours, spread, expected):
    assert verdict.judge_sign(sign, ours, spread) == expected


def test_a_direction_is_a_sign():
    with pytest.raises(ValueError):
        verdict.judge_sign(0, 1.0, 0.1)


def _study_out(tmp_path, statuses):
    import csv
    out = tmp_path / "study"
    out.mkdir()
    with open(out / "results.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["point", "run", "seed", "status", "host.iops", "waf.total"])
        for i, st in enumerate(statuses):
            w.writerow(["p%03d" % i, "a" if i % 2 == 0 else "b", 1 + i // 2, st, 100 + i, 2.0 + i / 10])
    return out


def test_collect_copies_the_columns_the_claims_need(tmp_path):
    from studylib import claims
    out = _study_out(tmp_path, ["ok"] * 6)
    n = claims.collect(out, tmp_path / "spread.csv", ["run", "seed"], {"iops": "host.iops", "waf": "waf.total"})
    assert n == 6
    table = claims.load(tmp_path / "spread.csv", ["run"])
    assert table[("b", 3)] == {"iops": 105.0, "waf": 2.5}
    effects = claims.per_seed(table, lambda row, s: row("b")["iops"] - row("a")["iops"])
    assert effects == [1.0, 1.0, 1.0]


def test_collect_refuses_a_study_with_failed_points(tmp_path):
    from studylib import claims
    out = _study_out(tmp_path, ["ok", "failed", "ok", "ok", "ok", "ok"])
    with pytest.raises(ValueError, match="p001 failed"):
        claims.collect(out, tmp_path / "spread.csv", ["run", "seed"], {"iops": "host.iops"})


def test_collect_names_a_missing_column(tmp_path):
    from studylib import claims
    out = _study_out(tmp_path, ["ok"] * 2)
    with pytest.raises(ValueError, match="no column 'map.hit_ratio'"):
        claims.collect(out, tmp_path / "spread.csv", ["run", "seed"], {"hit": "map.hit_ratio"})


def test_a_percentile_from_the_latency_histogram(tmp_path):
    from studylib import claims
    (tmp_path / "latency_cdf.csv").write_text(
        "op,latency_us,cumulative_fraction\nread,100,0.5\nread,200,0.79\nread,300,0.8\nread,400,1.0\n"
        "write,50,1.0\n")
    assert claims.percentile_from_cdf(tmp_path, "read", 0.8) == 300
    with pytest.raises(ValueError):
        claims.percentile_from_cdf(tmp_path, "trim", 0.8)


def test_seed000_recount_runs_on_the_committed_outputs():
    # hexa.md's counting experiment: both recounts printed for every point, FIFO/HEXA for each workload and ratio.
    r = subprocess.run([sys.executable, str(SCRIPTS / "seed000_recount.py")], capture_output=True, text=True,
                       cwd=str(ROOT), timeout=60)
    assert r.returncode == 0, r.stderr
    assert "| RAND | 1 % | F |" in r.stdout and "FIFO / HEXA" in r.stdout


def test_seed000_recount_refuses_impossible_counts():
    mod = load_script("seed000_recount", "recount")
    row = {"waf": 1.0, "host_bytes": 4096 * 10, "absorbed": 6, "flushed_units": 4}
    assert mod.recount(row)["left"] == 0
    with pytest.raises(ValueError):
        mod.recount(dict(row, absorbed=7))
