"""scripts/real_apps.py (issue 41): the seed 002 and seed 000 tables on real programs' captures judge every claim by
the one verdict rule (scripts/studylib/verdict.py) over three seeds, and --check fails on a table typed by hand."""
import json

import pytest

from conftest import load_script


@pytest.fixture(scope="module")
def real_apps():
    return load_script("real_apps")


def seed002_results():
    # The app model cuts WAF by about 60 % with PCStream; the real program's runs are equal to the third digit.
    model = {"single": [3.0, 3.1, 2.9], "manual": [2.0, 2.1, 1.9], "autostream": [2.5, 2.4, 2.6],
             "pcstream": [1.2, 1.25, 1.15]}
    real = {p: [1.002, 1.003, 1.001] for p in model}
    return {"rocksdb": ({"model": model, "real": real}, {"distinct_pcs": 53, "distinct_pcs_issued": 34,
                                                           "host_bytes": 392e6, "runs": 3})}


def test_seed002_verdicts_come_from_the_rule(real_apps):
    text = real_apps.table(seed002_results())
    rows = [r for r in text.splitlines() if r.startswith("| rocksdb | PCStream lowers WAF vs Baseline")]
    assert len(rows) == 1
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    assert cells[3].startswith("-60.0%") and cells[4] == "in size"  # the model: -60 % against the paper's -63 %
    assert cells[5].startswith("+0.0%") and cells[6] == "no"        # the real runs: no effect


def hexa_runs(iops, waf, flushed=5e8):
    return [{"iops": i, "waf": w, "gc_waf": 0.1, "host_bytes": 1e9, "flushed_bytes": flushed}
            for i, w in zip(iops, waf)]


def hexa_side(small, large, flushed=5e8):
    """A side's four systems under the names the table uses: the seed's sizes, or the pgbench drive's scaled ones."""
    return {"F-" + small: hexa_runs([10, 10, 10], [2, 2, 2]), "H-" + small: hexa_runs([10, 10, 10], [2, 2, 2]),
            "F-" + large: hexa_runs([100, 101, 99], [1.0, 1.0, 1.0], flushed),
            "H-" + large: hexa_runs([110, 111, 108], [0.9, 0.98, 1.05], flushed)}


def test_seed000_verdicts_come_from_the_rule(real_apps):
    text = real_apps.hexa_table({"model": hexa_side("64M", "1G"), "real": hexa_side("8M", "128M"), "runs": 3})
    iops = next(r for r in text.splitlines() if "HEXA raises IOPS" in r)
    waf = next(r for r in text.splitlines() if "HEXA lowers WAF" in r)
    assert iops.count("| in size") == 2  # +9.7 % against +5.6 %, above the spread
    assert waf.count("| no") == 2        # -2.3 % inside a spread of 7.5 %


def test_seed000_the_pgbench_buffers_are_the_seeds_scaled_with_the_drive(real_apps):
    # hexa_femu's 8 channels (16 GiB) against the pgbench side's 1 (2 GiB): 64 MiB -> 8 MiB, 1 GiB -> 128 MiB.
    assert [(n, b) for n, _, b in real_apps.hexa_systems("real")] == [
        ("F-8M", 8 << 20), ("H-8M", 8 << 20), ("F-128M", 128 << 20), ("H-128M", 128 << 20)]
    assert [(n, b) for n, _, b in real_apps.hexa_systems("model")] == [
        ("F-64M", 64 << 20), ("H-64M", 64 << 20), ("F-1G", 1 << 30), ("H-1G", 1 << 30)]


def test_seed000_a_buffer_that_flushed_nothing_is_not_judged(real_apps):
    # The working set fits in the buffer: the drive programs a few map pages (WAF above 0) but the buffer never
    # flushed a page, so the policies never chose anything; no verdict on that side, the other side still judged.
    real = hexa_side("8M", "128M", flushed=0)
    for name in ("F-128M", "H-128M"):
        for r in real[name]:
            r["waf"] = 1.3e-5
    text = real_apps.hexa_table({"model": hexa_side("64M", "1G"), "real": real, "runs": 3})
    claims = [r for r in text.splitlines() if r.startswith("| HEXA ")]
    assert len(claims) == 2
    assert all(r.count("not judged: the buffer flushed nothing") == 1 for r in claims)
    assert "| in size |" in claims[0]  # the TPC-C side's IOPS claim is judged as before
    one_flushed = hexa_side("8M", "128M", flushed=0)
    one_flushed["F-128M"][2]["flushed_bytes"] = 4096  # one run of one system flushed a page: judged
    text = real_apps.hexa_table({"model": hexa_side("64M", "1G"), "real": one_flushed, "runs": 3})
    assert "not judged: the buffer flushed nothing" not in text


def test_check_fails_on_a_table_typed_by_hand(real_apps, tmp_path, monkeypatch):
    cache = tmp_path / "seed002.json"
    cache.write_text(json.dumps(seed002_results()))
    doc = tmp_path / "real_apps.md"
    computed = real_apps.table(seed002_results())
    doc.write_text("<!-- real_apps table -->\n" + computed + "\n<!-- /real_apps table -->\n")
    monkeypatch.setitem(real_apps.PARTS["seed002"], "cache", cache)
    monkeypatch.setattr("sys.argv", ["real_apps.py", "--check", "--part", "seed002", "--doc", str(doc)])
    assert real_apps.main() == 0
    doc.write_text(doc.read_text().replace("| no |", "| in size |", 1))
    assert real_apps.main() == 1


def test_the_docs_tables_are_the_computed_ones(real_apps, monkeypatch):
    monkeypatch.setattr("sys.argv", ["real_apps.py", "--check"])
    assert real_apps.main() == 0


def test_a_run_the_drive_never_programmed_is_not_judged(real_apps):
    # GCC's small build stays in the drive's write buffer: WAF 0 on every policy; no verdict, and no crash.
    waf, extra = seed002_results()["rocksdb"]
    waf = {"model": waf["model"], "real": {p: [0.0, 0.0, 0.0] for p in waf["real"]}}
    text = real_apps.table({"gcc": (waf, extra)})
    assert text.count("not judged: the drive programmed nothing") == 2


def test_one_run_of_the_program_is_shown_but_not_judged(real_apps):
    # A single capture replayed with three simulator seeds has no run-to-run spread of the program: no verdict.
    waf, extra = seed002_results()["rocksdb"]
    text = real_apps.table({"rocksdb": (waf, dict(extra, runs=1))})
    assert text.count("not judged: one run of the program") == 2
    assert text.count("| in size") == 2  # the app model's two claims are still judged


def test_apps_reruns_only_those_apps_and_keeps_the_others_cached(real_apps, tmp_path, monkeypatch):
    # --apps gcc: gcc's points run again; rocksdb's row comes from the cached outputs, unchanged.
    cache = tmp_path / "seed002.json"
    cache.write_text(json.dumps(seed002_results()))
    monkeypatch.setitem(real_apps.PARTS["seed002"], "cache", cache)
    caps = []
    for k in range(3):
        d = tmp_path / f"run{k}"
        d.mkdir()
        (d / "gcc.cap").write_bytes(b"")
        (d / "rocksdb.cap").write_bytes(b"")  # present, but not asked for: must not run
        caps.append(str(d))
    ran = []
    gcc_waf, gcc_extra = seed002_results()["rocksdb"]

    def fake_measure(args, app, model):
        ran.append(app)
        return gcc_waf, dict(gcc_extra, distinct_pcs=99)
    monkeypatch.setattr(real_apps, "measure", fake_measure)
    doc = tmp_path / "real_apps.md"
    doc.write_text("<!-- real_apps table -->\n<!-- /real_apps table -->\n")
    monkeypatch.setattr("sys.argv", ["real_apps.py", "--part", "seed002", "--apps", "gcc", "--out", str(tmp_path / "o"),
                                     "--doc", str(doc), "--captures"] + caps)
    assert real_apps.main() == 0
    assert ran == ["gcc"]
    res = json.loads(cache.read_text())
    assert list(res) == ["rocksdb", "gcc"]
    assert res["rocksdb"] == json.loads(json.dumps(seed002_results()))["rocksdb"]
    assert res["gcc"][1]["distinct_pcs"] == 99
    assert "| gcc | PCStream lowers WAF vs Baseline" in doc.read_text()


def test_contexts_criterion_is_computed_against_all_call_sites_and_those_on_the_drive(real_apps):
    lost = {"contexts": 11, "writes": 96392, "write_bytes": 2.0e9}
    res = {"gcc": {"page": {"call_sites": 11, "sites_issued": 3, "contexts": 15, "issued": 4, "seen": 4, "known": 4,
                            "lost": lost, "waf": 0.99}},
           "sqlite": {"page": {"call_sites": 1, "sites_issued": 1, "contexts": 12, "issued": 11, "seen": 11,
                               "known": 9, "lost": lost, "waf": 0.45}}}
    text = real_apps.contexts_table(res)
    gcc = [c.strip() for c in next(r for r in text.splitlines() if r.startswith("| gcc")).strip("|").split("|")]
    sqlite = [c.strip() for c in next(r for r in text.splitlines() if r.startswith("| sqlite")).strip("|").split("|")]
    assert gcc[2] == "11 / 3" and gcc[-2:] == ["not met", "met"]  # 4 received: fewer than 11 sites, more than 3
    assert sqlite[-2:] == ["met", "met"]
