"""studylib's parts without Dask: study files, points, cache keys, the executable's build id, tables."""
import subprocess

import pytest

from conftest import tiny_study
from studylib import cache, spec, table, task

SCHEMA = spec.Schema.parse("""| key | type | default | range / choices | unit | meaning |
|---|---|---|---|---|---|
| `geometry.over_provisioning` | real | `0.25` | 0.001 .. 4 | ratio | physical/logical - 1 |
| `host.queue_depth` | int | `64` | 1 .. 65536 |  | outstanding commands per queue |
| `workload.distribution` | string | `"random"` |  |  | fio spelling: random, zipf:THETA |
| `precondition.fill` | bool | `true` |  |  | fill first |
| `sim.seed` | int | `1` | 0 .. 9.0072e+15 |  | random seed of the run |
""")


def test_schema_from_help_config(bin_dir):
    schema = spec.Schema.from_executable(bin_dir / "ssdtlm-generic")
    assert schema.keys["geometry.over_provisioning"]["type"] == "real"
    assert schema.unit("geometry.over_provisioning") == "ratio"
    assert schema.keys["workload.io_count"]["type"] == "int"
    assert len(schema.keys) > 40


def test_points_are_the_cartesian_product_first_axis_slowest():
    doc = {"platform": "generic", "set": {"host.queue_depth": 4},
           "sweep": {"geometry.over_provisioning": [0.07, 0.25],
                     "mix": {"rand": {}, "zipf": {"workload.distribution": "zipf:1.2", "host.queue_depth": 1}}},
           "repeat": 2}
    points = spec.Study(doc).points()
    assert len(points) == 8
    assert [(p.coords["geometry.over_provisioning"], p.coords["mix"], p.seed) for p in points[:4]] == [
        (0.07, "rand", 1), (0.07, "rand", 2), (0.07, "zipf", 1), (0.07, "zipf", 2)]
    assert points[0].settings == {"host.queue_depth": 4, "geometry.over_provisioning": 0.07}
    assert points[2].settings["host.queue_depth"] == 1  # the axis overrides the base
    argv = points[2].argv("/bin/x", SCHEMA)
    assert argv == ["/bin/x", "--quiet", "--set", "host.queue_depth=1", "--set", "geometry.over_provisioning=0.07",
                    "--set", "workload.distribution=zipf:1.2", "--seed", "1"]


def test_repeat_seeds_start_at_the_configured_seed():
    doc = {"set": {"sim.seed": 10}, "sweep": {"host.queue_depth": [1]}, "repeat": 3}
    assert [p.seed for p in spec.Study(doc).points()] == [10, 11, 12]
    doc = {"sweep": {"host.queue_depth": [1]}, "repeat": [5, 9]}
    assert [p.seed for p in spec.Study(doc).points()] == [5, 9]
    assert [p.seed for p in spec.Study({"sweep": {"sim.seed": [3, 4]}}).points()] == [3, 4]
    assert [p.seed for p in spec.Study({}).points(default_seed=7)] == [7]


@pytest.mark.parametrize("doc, message", [
    ({"sweep": []}, "sweep: expected an object"),
    ({"sweep": {"host.queue_depth": 3}}, "expected a list of values"),
    ({"sweep": {"mix": {"a": 1}}}, "sweep.mix.a: expected an object"),
    ({"set": {"bad key": 1}}, "is not a configuration key"),
    ({"repeat": 0}, "repeat: expected at least 1"),
    ({"repeat": [1, 1]}, "a seed appears twice"),
    ({"swep": {}}, "unknown field(s) swep"),
    ({"figures": [{"x": "a"}]}, "needs \"x\""),
    ({"figures": [{"x": "a", "y": "b", "colour": 1}]}, "unknown field(s) colour"),
    ({"figures": [{"x": "a", "y": "b", "name": "f"}, {"x": "a", "y": "c", "name": "f"}]}, "name f used twice"),
    ({"platform": "../x"}, "platform: expected a platform name"),
    ({"config": ["/no/such/file.json"]}, "no such file"),
])
def test_bad_study_files_name_the_field(doc, message):
    with pytest.raises(spec.StudyError) as e:
        spec.Study(doc).points()
    assert message in str(e.value)


def test_cache_key_follows_the_effective_configuration():
    def key(settings, build="gnu:1", seed=1):
        doc = {"set": settings}
        (p,) = spec.Study(doc).points(default_seed=seed)
        return cache.cache_key(build, "generic", p.request(SCHEMA, []))

    base = key({"geometry.over_provisioning": 0.07, "host.queue_depth": 8})
    # the same configuration spelt differently (as sweep.py's text, in another order) is the same point
    assert key({"host.queue_depth": "8", "geometry.over_provisioning": "0.07"}) == base
    assert key({"host.queue_depth": 8.0, "geometry.over_provisioning": 0.07}) == base
    # a changed value, another seed or another build is another point
    assert key({"geometry.over_provisioning": 0.125, "host.queue_depth": 8}) != base
    assert key({"geometry.over_provisioning": 0.07, "host.queue_depth": 8}, seed=2) != base
    assert key({"geometry.over_provisioning": 0.07, "host.queue_depth": 8}, build="gnu:2") != base


def test_config_files_are_part_of_the_request(tmp_path):
    f = tmp_path / "c.json"
    f.write_text('{"geometry": {"over_provisioning": 0.5}, "sim": {"seed": 4}}')
    study = spec.Study({"config": [str(f)], "set": {"host.queue_depth": 2}})
    (p,) = study.points()
    assert p.seed == 4  # the file's seed, not the default
    assert p.request(SCHEMA, study.config_documents()) == {
        "geometry.over_provisioning": 0.5, "host.queue_depth": 2, "sim.seed": 4}
    assert p.argv("x", SCHEMA)[:4] == ["x", "--quiet", "--config", str(f)]


def test_normalize_by_type():
    assert SCHEMA.normalize("geometry.over_provisioning", "1") == 1.0
    assert SCHEMA.normalize("host.queue_depth", "16") == 16
    assert SCHEMA.normalize("precondition.fill", "false") is False
    assert SCHEMA.normalize("workload.distribution", "zipf:1.2") == "zipf:1.2"
    assert SCHEMA.normalize("no.such_key", "x") == "x"
    assert spec.format_value(False) == "false" and spec.format_value(0.07) == "0.07"


def test_build_id(bin_dir, tmp_path):
    bid = task.build_id(str(bin_dir / "ssdtlm-generic"))
    notes = subprocess.run(["readelf", "-n", str(bin_dir / "ssdtlm-generic")], stdout=subprocess.PIPE, text=True)
    if "Build ID:" in notes.stdout:
        assert bid == "gnu:" + notes.stdout.split("Build ID:")[1].split()[0]
    else:
        assert bid.startswith("sha256:")
    other = tmp_path / "script"
    other.write_bytes(b"#!/bin/sh\n")
    assert task.build_id(str(other)) == "sha256:" + __import__("hashlib").sha256(b"#!/bin/sh\n").hexdigest()


def test_run_point_reports_a_missing_executable():
    r = task.run_point({"point": 0, "key": "k", "argv": ["/no/such/ssdtlm"], "build_id": None})
    assert r["exit_code"] is None and "cannot read the executable" in r["error"]


def test_flatten_and_metrics():
    summary = {"host": {"iops": 5.0, "latency_us": {"read": {"p99": 7}}}, "waf": {"total": 1.5},
               "integrity": {"enabled": True, "first_error": ""}, "wall_time_s": 2.0,
               "memory": {"peak_rss_bytes": 1, "model_bytes": 2}, "jobs": [{"name": "a", "iops": 3}]}
    model, machine = table.numeric_metrics(summary)
    assert model == {"host.iops": 5.0, "host.latency_us.read.p99": 7, "waf.total": 1.5, "memory.model_bytes": 2,
                     "jobs.0.iops": 3}
    assert machine == {"wall_time_s": 2.0, "memory.peak_rss_bytes": 1}


@pytest.mark.parametrize("name, unit", [
    ("host.latency_us.read.p99", "us"), ("host.latency_us.read.count", "I/Os"), ("host.iops", "IOPS"),
    ("host.read_iops", "IOPS"), ("host.mbps", "MB/s"), ("waf.total", "ratio"), ("nand.programs.ud", "pages"),
    ("nand.erases", "blocks"), ("host.bytes_written", "bytes"), ("sim_time_s", "s"), ("jobs.0.iops", "IOPS"),
    ("utilization.die_array", "fraction"), ("ftl.alpha", "ratio"), ("geometry.dies", ""),
])
def test_metric_units(name, unit):
    assert table.metric_unit(name) == unit


def test_tiny_study_is_valid():
    study = spec.Study(tiny_study())
    assert [p.label() for p in study.points()] == [
        "host.queue_depth=1 size=small", "host.queue_depth=1 size=large",
        "host.queue_depth=8 size=small", "host.queue_depth=8 size=large"]


def test_cache_entries_are_whole(tmp_path):
    store = cache.Cache(tmp_path / "c")
    files = {"summary.json": b'{"waf": {"total": 2.0}}', "config.json": b"{}", "timeseries.csv": b"t\n"}
    path = store.store("k1", files, {"key": "k1"})
    assert store.has("k1") and store.summary("k1") == {"waf": {"total": 2.0}} and store.record("k1") == {"key": "k1"}
    assert sorted(p.name for p in path.iterdir()) == ["config.json", "run.json", "summary.json", "timeseries.csv"]
    store.store("k1", dict(files, **{"summary.json": b'{"waf": {"total": 3.0}}'}), {"key": "k1"})  # replaced
    assert store.summary("k1")["waf"]["total"] == 3.0
    assert [p.name for p in (tmp_path / "c").iterdir()] == ["k1"]  # no temporary directory left
    (path / "summary.json").write_text("{trunc")
    assert not store.has("k1") and not store.has("k2")  # unreadable or absent: the point runs again


def test_comment_fields_are_ignored():
    assert spec.Study({"_comment": "why this study", "sweep": {"host.queue_depth": [1]}}).points()


def test_files_named_by_the_configuration_are_part_of_the_key(tmp_path):
    trace = tmp_path / "t.trace"
    trace.write_text("0 0 8 1\n")
    request = {"workload.trace_path": "t.trace", "jobs": [{"trace_path": str(trace)}], "workload.pattern": "trace"}
    inputs = cache.input_files(request, str(tmp_path))
    digest = __import__("hashlib").sha256(b"0 0 8 1\n").hexdigest()
    assert inputs == {"t.trace": digest, str(trace): digest}
    before = cache.cache_key("gnu:1", "generic", request, inputs)
    trace.write_text("0 0 8 0\n")  # same path, other contents: another key
    assert cache.cache_key("gnu:1", "generic", request, cache.input_files(request, str(tmp_path))) != before
    assert cache.input_files({"workload.trace_path": "missing.trace"}, str(tmp_path)) == {}
    assert cache.cache_key("gnu:1", "generic", {"a": 1}) == cache.cache_key("gnu:1", "generic", {"a": 1}, {})
