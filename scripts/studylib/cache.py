"""The run cache: one directory per finished run, named by the hash of what determines its results.

A run's results are fixed by the executable (its build id: the schema defaults, the platform's config.json and the
model are all inside it), by the configuration the run adds on top of those defaults (its --config files'
contents, its --set values and its seed, normalised by the keys' types), and by the files that configuration names
(trace files: the contents of every existing file named by a *_path key). The key hashes exactly that, so a point
whose effective configuration, input file or executable changed gets a new key and runs again; anything else is
reused.

Layout: CACHE/<key>/ holds the platform's outputs (summary.json, config.json, timeseries.csv, latency_cdf.csv, ...)
and run.json (command line, build id, request, worker, seconds, stderr tail). Entries are written whole (a temporary
directory renamed into place), so an interrupted study leaves no half entry; only successful runs are stored.
"""
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

KEY_FORMAT = 1  # bump when what goes into a key changes: every old entry then misses


def cache_key(build_id, platform, request, inputs=None):
    """inputs: {path: sha256} of the files the configuration names (traces), so that a changed file is a change."""
    material = {"format": KEY_FORMAT, "build_id": build_id, "platform": platform, "config": request}
    if inputs:
        material["inputs"] = inputs
    blob = json.dumps(material, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def input_files(request, cwd, memo=None):
    """{path: sha256 of its contents} for every value of a key ending in "_path" (at any depth, e.g. in jobs) that
    names an existing file, relative paths taken from cwd."""
    memo = {} if memo is None else memo
    found = {}

    def walk(key, value):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(str(k), v)
        elif isinstance(value, list):
            for v in value:
                walk(key, v)
        elif isinstance(value, str) and value and key.split(".")[-1].endswith("_path"):
            path = os.path.join(cwd, value)
            if os.path.isfile(path):
                if path not in memo:
                    h = hashlib.sha256()
                    with open(path, "rb") as f:
                        for block in iter(lambda: f.read(1 << 20), b""):
                            h.update(block)
                    memo[path] = h.hexdigest()
                found[value] = memo[path]

    for k, v in request.items():
        walk(k, v)
    return found


class Cache:
    def __init__(self, root):
        self.root = Path(root).resolve()

    def path(self, key):
        return self.root / key

    def has(self, key):
        """True for a complete entry (one that cannot be read counts as missing: the point runs again)."""
        d = self.path(key)
        try:
            for name in ("run.json", "summary.json", "config.json"):
                json.loads((d / name).read_text())
        except (OSError, ValueError):
            return False
        return True

    def record(self, key):
        return json.loads((self.path(key) / "run.json").read_text())

    def summary(self, key):
        return json.loads((self.path(key) / "summary.json").read_text())

    def config(self, key):
        return json.loads((self.path(key) / "config.json").read_text())

    def store(self, key, files, record):
        """Writes one finished run (files: {name: bytes}) and its record; replaces an older entry of the same key."""
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".tmp-%s-" % key, dir=self.root))
        try:
            for name, data in files.items():
                if os.path.basename(name) != name or name in ("", ".", ".."):
                    continue
                (tmp / name).write_bytes(data)
            (tmp / "run.json").write_text(json.dumps(record, indent=2) + "\n")
            final = self.path(key)
            if final.exists():
                old = self.root / (".old-%s-%d" % (key, os.getpid()))
                final.rename(old)
                shutil.rmtree(old, ignore_errors=True)
            tmp.rename(final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return self.path(key)
