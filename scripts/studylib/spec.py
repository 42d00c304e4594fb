"""Study files: loading, checking, and expanding them into points (one platform run each).

A study file is JSON:

    {
      "name": "op_qd_rf",                          optional; default: the file's name without .json
      "description": "...",                        optional
      "platform": "generic",                       runs build/bin/ssdtlm-<platform>
      "config": ["base.json"],                     optional --config files, relative to the study file
      "set": {"workload.io_count": 200000},        base values: the same keys as --set
      "sweep": {                                   axes; the points are their cartesian product (first axis slowest)
        "geometry.over_provisioning": [0.07, 0.25],            a key and its values
        "mix": {"read": {"workload.read_fraction": 1},          a named axis: label -> values of several keys
                "write": {"workload.read_fraction": 0, "workload.block_bytes": 8192}}
      },
      "repeat": 3,                                 optional: seeds sim.seed, +1, +2 (or a list of seeds: [1, 7, 9])
      "figures": [{"name": "waf", "y": ["waf.total"], "x": "geometry.over_provisioning",
                   "lines": "mix", "facets": "host.queue_depth"}]
    }

Later values win: config files, then "set", then the axes in order, then the seed. Fields whose names start with
"_" are ignored (comments; study.json's "_resolved").
"""
import copy
import itertools
import json
import re
import subprocess
from pathlib import Path

KNOWN_FIELDS = {"name", "description", "platform", "config", "set", "sweep", "repeat", "figures"}
FIGURE_FIELDS = {"name", "title", "y", "x", "lines", "facets", "where", "xscale", "yscale", "xlabel", "ylabel",
                 "errorbars"}


class StudyError(Exception):
    """A study file that cannot be run; the message names the field."""


class Axis:
    """One sweep axis: a config key with values, or a named axis whose values are labelled groups of keys."""

    def __init__(self, name, values, labels, settings):
        self.name = name          # the config key, or the axis's own name
        self.values = values      # what goes in the axis's results.csv column, per value
        self.labels = labels      # text for legends and point names
        self.settings = settings  # per value: {config key: value}
        self.named = not all(list(s) == [name] for s in settings)

    def __len__(self):
        return len(self.values)


class Study:
    def __init__(self, doc, path=None):
        if not isinstance(doc, dict):
            raise StudyError("a study file holds a JSON object")
        unknown = {k for k in doc if k not in KNOWN_FIELDS and not str(k).startswith("_")}  # "_comment": ignored
        if unknown:
            raise StudyError("unknown field(s) %s; a study has %s" % (", ".join(sorted(unknown)),
                                                                     ", ".join(sorted(KNOWN_FIELDS))))
        self.path = Path(path).resolve() if path else None
        self.doc = doc
        self.name = str(doc.get("name") or (self.path.stem if self.path else "study"))
        if not re.fullmatch(r"[A-Za-z0-9_.+-]+", self.name):
            raise StudyError("name %r: use letters, digits and _ . + -" % self.name)
        self.description = str(doc.get("description", ""))
        self.platform = doc.get("platform", "generic")
        if not isinstance(self.platform, str) or not re.fullmatch(r"[A-Za-z0-9_-]+", self.platform):
            raise StudyError("platform: expected a platform name such as \"generic\", got %r" % (self.platform,))
        configs = doc.get("config", [])
        if isinstance(configs, str):
            configs = [configs]
        if not isinstance(configs, list) or not all(isinstance(c, str) for c in configs):
            raise StudyError("config: expected a list of configuration file paths")
        base_dir = self.path.parent if self.path else Path.cwd()
        self.configs = [str((base_dir / c).resolve()) for c in configs]
        for c in self.configs:
            if not Path(c).is_file():
                raise StudyError("config: %s: no such file" % c)
        self.base = doc.get("set", {})
        if not isinstance(self.base, dict):
            raise StudyError("set: expected an object {\"key.path\": value}")
        for k in self.base:
            _check_key(k, "set")
        self.axes = self._axes(doc.get("sweep", {}))
        self.seeds = self._seeds(doc.get("repeat"))
        self.figures = [_figure(f, i) for i, f in enumerate(doc.get("figures", []))]
        names = [f["name"] for f in self.figures]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise StudyError("figures: name %s used twice" % ", ".join(sorted(dup)))

    @staticmethod
    def _axes(sweep):
        if not isinstance(sweep, dict):
            raise StudyError("sweep: expected an object {\"key.path\": [values...]} or {\"axis\": {label: {...}}}")
        axes = []
        for name, values in sweep.items():
            where = "sweep.%s" % name
            if isinstance(values, list):
                _check_key(name, where)
                if not values:
                    raise StudyError("%s: no values" % where)
                axes.append(Axis(name, list(values), [text(v) for v in values], [{name: v} for v in values]))
            elif isinstance(values, dict):
                if not values:
                    raise StudyError("%s: no values" % where)
                settings = []
                for label, group in values.items():
                    if not isinstance(group, dict):
                        raise StudyError("%s.%s: expected an object {\"key.path\": value}" % (where, label))
                    for k in group:
                        _check_key(k, "%s.%s" % (where, label))
                    settings.append(dict(group))
                axes.append(Axis(name, list(values), list(values), settings))
            else:
                raise StudyError("%s: expected a list of values or an object {label: {\"key.path\": value}}" % where)
        names = [a.name for a in axes]
        if len(set(names)) != len(names):
            raise StudyError("sweep: an axis appears twice")
        return axes

    @staticmethod
    def _seeds(repeat):
        """[None] (one run per point), [+0, +1, ...] for a count (offsets from the point's seed), or seeds."""
        if repeat is None:
            return [None]
        if isinstance(repeat, int) and not isinstance(repeat, bool):
            if repeat < 1:
                raise StudyError("repeat: expected at least 1")
            return [("+", i) for i in range(repeat)]
        if isinstance(repeat, list) and repeat and all(isinstance(s, int) and not isinstance(s, bool) for s in repeat):
            if len(set(repeat)) != len(repeat):
                raise StudyError("repeat: a seed appears twice")
            return list(repeat)
        raise StudyError("repeat: expected a count or a list of integer seeds")

    def points(self, default_seed=1):
        """The runs, in order: the cartesian product of the axes (first axis slowest), then the seeds.

        Every point gets an explicit seed (--seed): its "repeat" seed, else its sim.seed from "set", the axes or the
        config files, else default_seed (the executable's default).
        """
        file_seed = None
        for doc in self.config_documents():
            file_seed = flatten_config(doc).get("sim.seed", file_seed)
        out = []
        for combo in itertools.product(*[range(len(a)) for a in self.axes]):
            for seed in self.seeds:
                settings = dict(self.base)
                coords = {}
                for axis, i in zip(self.axes, combo):
                    settings.update(axis.settings[i])
                    coords[axis.name] = axis.values[i]
                own = settings.pop("sim.seed", file_seed if file_seed is not None else default_seed)
                try:
                    own = int(own)
                except (TypeError, ValueError):
                    raise StudyError("sim.seed: expected an integer, got %r" % (own,))
                if seed is None:
                    seed = own
                elif isinstance(seed, tuple):
                    seed = own + seed[1]
                out.append(Point(len(out), coords, settings, seed, self))
        return out

    def config_documents(self):
        """The --config files' contents, parsed (they are part of each point's cache key)."""
        docs = []
        for c in self.configs:
            try:
                docs.append(json.loads(Path(c).read_text()))
            except ValueError as e:
                raise StudyError("config: %s: not valid JSON: %s" % (c, e))
        return docs


class Point:
    def __init__(self, index, coords, settings, seed, study):
        self.index = index
        self.coords = coords      # axis name -> value (the axis's results.csv column)
        self.settings = settings  # config key -> value, from "set" and the axes (not the config files)
        self.seed = seed          # --seed: from "repeat", else the configuration's sim.seed
        self.study = study

    @property
    def name(self):
        return "p%03d" % self.index

    def label(self):
        parts = ["%s=%s" % (k, text(v)) for k, v in self.coords.items()]
        if self.study.seeds != [None]:
            parts.append("seed=%d" % self.seed)
        return " ".join(parts) or "(base)"

    def argv(self, executable, schema):
        """The platform command line, without --out."""
        argv = [str(executable), "--quiet"]
        for c in self.study.configs:
            argv += ["--config", c]
        for k, v in self.settings.items():
            argv += ["--set", "%s=%s" % (k, format_value(schema.normalize(k, v)))]
        argv += ["--seed", str(self.seed)]
        return argv

    def request(self, schema, config_docs):
        """Everything this point asks of the executable on top of its built-in defaults, normalised by type."""
        merged = {}
        for doc in config_docs:
            for k, v in flatten_config(doc).items():
                merged[k] = schema.normalize(k, v)
        for k, v in self.settings.items():
            merged[k] = schema.normalize(k, v)
        merged["sim.seed"] = int(self.seed)
        return dict(sorted(merged.items()))


def _check_key(key, where):
    if not isinstance(key, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*", key):
        raise StudyError("%s: %r is not a configuration key (key.path)" % (where, key))


def _figure(f, i):
    where = "figures[%d]" % i
    if not isinstance(f, dict):
        raise StudyError("%s: expected an object" % where)
    unknown = set(f) - FIGURE_FIELDS
    if unknown:
        raise StudyError("%s: unknown field(s) %s; a figure has %s" % (where, ", ".join(sorted(unknown)),
                                                                    ", ".join(sorted(FIGURE_FIELDS))))
    f = copy.deepcopy(f)
    if "x" not in f or "y" not in f:
        raise StudyError("%s: needs \"x\" (a column, usually an axis) and \"y\" (a metric or a list)" % where)
    if isinstance(f["y"], str):
        f["y"] = [f["y"]]
    if not isinstance(f["y"], list) or not f["y"] or not all(isinstance(y, str) for y in f["y"]):
        raise StudyError("%s.y: expected a metric name or a list of them" % where)
    f.setdefault("name", "fig%d" % (i + 1))
    if not re.fullmatch(r"[A-Za-z0-9_.+-]+", str(f["name"])):
        raise StudyError("%s.name: use letters, digits and _ . + -" % where)
    for k in ("xscale", "yscale"):
        if f.get(k, "linear") not in ("linear", "log"):
            raise StudyError("%s.%s: linear or log" % (where, k))
    if f.get("errorbars", "range") not in ("range", "std", "none"):
        raise StudyError("%s.errorbars: range, std or none" % where)
    if not isinstance(f.get("where", {}), dict):
        raise StudyError("%s.where: expected an object {column: value or [values]}" % where)
    return f


def text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dict, list)):
        return json.dumps(v, separators=(",", ":"))
    return str(v)


def format_value(v):
    """A value as --set text: strings as they are, everything else as JSON."""
    if isinstance(v, str):
        return v
    return json.dumps(v, separators=(",", ":"))


def flatten_config(doc, prefix=""):
    """{"geometry": {"channels": 4}} -> {"geometry.channels": 4}; arrays (e.g. jobs) stay whole."""
    out = {}
    if not isinstance(doc, dict):
        return out
    for k, v in doc.items():
        path = prefix + k
        if isinstance(v, dict):
            out.update(flatten_config(v, path + "."))
        else:
            out[path] = v
    return out


class Schema:
    """The executable's configuration keys (from --help-config): type, default and unit of each."""

    def __init__(self, keys):
        self.keys = keys  # key -> {"type", "default", "unit", "meaning"}

    @classmethod
    def from_executable(cls, executable):
        try:
            done = subprocess.run([str(executable), "--help-config"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, timeout=60)
        except OSError as e:
            raise StudyError("cannot run %s: %s" % (executable, e))
        if done.returncode != 0:
            raise StudyError("%s --help-config failed: %s" % (executable, done.stderr.strip()))
        return cls.parse(done.stdout)

    @classmethod
    def parse(cls, table):
        keys = {}
        for line in table.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 6 or not cells[0].startswith("`"):
                continue
            key = cells[0].strip("`")
            keys[key] = {"type": cells[1], "default": cells[2].strip("`"), "unit": cells[4],
                         "meaning": "|".join(cells[5:]).strip()}
        return cls(keys)

    def unit(self, key):
        k = self.keys.get(key)
        return k["unit"] if k else ""

    def normalize(self, key, value):
        """The value as the executable reads it for this key's type; unknown keys and odd values pass unchanged."""
        k = self.keys.get(key)
        if k is None:
            return value
        t = k["type"]
        if t == "string":
            return value if isinstance(value, str) else format_value(value)
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                return value
        if t == "real" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if t == "int" and isinstance(value, float) and value.is_integer():
            return int(value)
        return value


def load(path):
    """Reads and checks a study file."""
    p = Path(path)
    try:
        doc = json.loads(p.read_text())
    except OSError as e:
        raise StudyError("cannot read: %s" % e)
    except ValueError as e:
        raise StudyError("not valid JSON: %s" % e)
    return Study(doc, p)
