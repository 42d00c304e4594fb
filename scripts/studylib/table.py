"""The study's tables: results.csv (the model's results), runs.csv (how each run went), columns.json (units).

results.csv has one row per point, in point order: `point`, the sweep axes, every other configuration key whose
value differs between points, `seed`, `status` (ok / failed), then every numeric summary.json value flattened with
dotted names (`waf.total`, `host.latency_us.read.p99`, ...). The summary values that measure the machine rather than
the model (wall-clock times, peak memory, worker threads) go to runs.csv instead, so that results.csv depends only on
the executable and the configurations: the same study gives the same file on a laptop or on a cluster.
"""
import json
import math
import re

# summary.json values that depend on the machine that ran the point, not on the model: runs.csv, not results.csv
MACHINE_METRICS = re.compile(r"(^|\.)wall_time_s$|^memory\.peak_rss_bytes$|^precondition\.threads$|^precondition\.snapshot\.")

METRIC_UNITS = [  # (pattern on the dotted name, unit), first match wins
    (r"latency_us\..*\.count$", "I/Os"),
    (r"latency_us", "us"),
    (r"(^|\.|_)iops$", "IOPS"),
    (r"mbps$", "MB/s"),
    (r"^waf\.", "ratio"),
    (r"^ftl\.alpha$", "ratio"),
    (r"^utilization\.", "fraction"),
    (r"bytes_per_logical_page$", "bytes per page"),
    (r"(_|^)bytes(_|$)|\.bytes_", "bytes"),
    (r"^nand\.(programs|reads)\.", "pages"),
    (r"^nand\.(erases|gc_victims)$", "blocks"),
    (r"free_blocks$", "blocks"),
    (r"(^|\.)(ios|read_ios|write_ios|trims|folded_requests)$", "I/Os"),
    (r"(units|_units_moved|units_written)$", "4 KiB units"),
    (r"activations_per_io$", "per I/O"),
    (r"_time_s$|^sim_time_s$", "s"),
]

UNIT_TEXT = {"us": "µs"}


def flatten(doc, prefix=""):
    """Nested JSON -> {dotted.name: value}; list items get their index (jobs.0.host.iops)."""
    out = {}
    if isinstance(doc, dict):
        items = doc.items()
    elif isinstance(doc, list):
        items = ((str(i), v) for i, v in enumerate(doc))
    else:
        return {prefix[:-1]: doc} if prefix else {}
    for k, v in items:
        if isinstance(v, (dict, list)) and v:
            out.update(flatten(v, prefix + str(k) + "."))
        else:
            out[prefix + str(k)] = v
    return out


def numeric_metrics(summary):
    """(results metrics, machine metrics): the numeric leaves of summary.json (not booleans or text)."""
    model, machine = {}, {}
    for k, v in flatten(summary).items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        (machine if MACHINE_METRICS.search(k) else model)[k] = v
    return model, machine


def metric_unit(name):
    bare = name[len("summary."):] if name.startswith("summary.") else name
    bare = re.sub(r"^jobs\.[^.]+\.", "", bare)
    for pattern, unit in METRIC_UNITS:
        if re.search(pattern, bare):
            return unit
    return ""


def config_cell(v):
    """A configuration value as a table cell: arrays and objects as compact JSON."""
    if isinstance(v, (dict, list)):
        return json.dumps(v, separators=(",", ":"))
    return v


def build_results(study, points, outcomes, schema):
    """Rows of results.csv, its column order, and columns.json's entries.

    outcomes: point index -> {"status": "ok"|"failed", "config": effective config (ok) or None,
                              "summary": summary.json (ok) or None, "request": {key: value}}
    """
    ok = [p for p in points if outcomes[p.index]["status"] == "ok"]
    configs = {p.index: flatten_config_doc(outcomes[p.index]["config"]) for p in ok}

    def config_value(p, key):
        o = outcomes[p.index]
        if o["status"] == "ok":
            return configs[p.index].get(key)
        if key in o["request"]:
            return o["request"][key]
        d = schema.keys.get(key)
        return _default_value(d) if d else None

    columns = {}  # name -> description, in order
    axis_keys = []
    for axis in study.axes:
        if axis.named:
            columns[axis.name] = {"kind": "axis", "unit": "", "meaning": "sweep axis: " + ", ".join(
                "%s = %s" % (lab, json.dumps(s, separators=(",", ":"))) for lab, s in zip(axis.labels, axis.settings))}
        else:
            columns[axis.name] = _config_column(axis.name, schema, "axis")
            axis_keys.append(axis.name)
    # every other configuration key that differs between points (from the effective configurations)
    all_keys = []
    for p in ok:
        for k in configs[p.index]:
            if k not in all_keys:
                all_keys.append(k)
    for p in points:
        for k in outcomes[p.index]["request"]:
            if k not in all_keys and k in schema.keys:
                all_keys.append(k)
    varying = []
    for k in all_keys:
        if k in columns or k == "sim.seed":
            continue
        seen = {json.dumps(config_value(p, k), sort_keys=True) for p in points}
        if len(seen) > 1:
            varying.append(k)
    for k in sorted(varying):
        columns[k] = _config_column(k, schema, "config")
    columns["seed"] = {"kind": "config", "unit": "", "meaning": "sim.seed: random seed of the run"}
    columns["status"] = {"kind": "run", "unit": "", "meaning": "ok, or failed (see runs.csv and the study's stderr)"}

    metric_names = []
    metrics = {}
    for p in ok:
        model, _ = numeric_metrics(outcomes[p.index]["summary"])
        metrics[p.index] = model
        for k in model:
            if k not in metric_names:
                metric_names.append(k)
    metric_columns = {}
    for k in metric_names:
        name = k if k not in columns else "summary." + k
        metric_columns[k] = name
        columns[name] = {"kind": "metric", "unit": metric_unit(k), "meaning": "summary.json: " + k}

    rows = []
    for p in points:
        o = outcomes[p.index]
        row = {"point": p.index}
        for axis in study.axes:
            row[axis.name] = config_cell(config_value(p, axis.name)) if not axis.named else p.coords[axis.name]
        for k in varying:
            row[k] = config_cell(config_value(p, k))
        row["seed"] = config_value(p, "sim.seed")
        row["status"] = o["status"]
        for k in metric_names:
            row[metric_columns[k]] = metrics.get(p.index, {}).get(k, math.nan)
        rows.append(row)
    order = ["point"] + list(columns)
    columns = dict([("point", {"kind": "run", "unit": "", "meaning": "point number (runs.csv, commands.sh)"})]
                   + list(columns.items()))
    return rows, order, columns


def flatten_config_doc(cfg):
    """An effective config.json -> {key: value}; arrays (jobs) stay whole."""
    out = {}

    def walk(d, prefix):
        for k, v in d.items():
            if isinstance(v, dict):
                walk(v, prefix + k + ".")
            else:
                out[prefix + k] = v

    if isinstance(cfg, dict):
        walk(cfg, "")
    return out


def _config_column(key, schema, kind):
    d = schema.keys.get(key)
    return {"kind": kind, "unit": d["unit"] if d else "", "meaning": d["meaning"] if d else ""}


def _default_value(d):
    try:
        return json.loads(d["default"])
    except ValueError:
        return d["default"]
