"""Fuzzing the command line with bad input (issue 15): generated bad configuration values, unknown keys, bad JSON
files and bad trace lines, a fixed seed and a bounded count (at least 200 cases). Every case must exit 2 with a
message naming the key (or the file and line); none may crash (signal, exit 3, uncaught exception) or run.

The keys, their types and ranges come from the executable's own --help-config table, so a new key is fuzzed too.
"""
import os
import random
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("SSDTLM_BIN_DIR", ROOT / "build" / "bin")) / "ssdtlm-generic"
ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
SMALL = ["--set", "workload.io_count=100", "--set", "precondition.fill=false", "--set", "precondition.drive_writes=0",
         "--set", "geometry.channels=1", "--set", "geometry.dies_per_channel=2", "--set", "geometry.blocks_per_plane=64",
         "--set", "geometry.pages_per_block=64"]
SEED = 20261122


def schema():
    out = subprocess.run([str(BIN), "--help-config"], capture_output=True, text=True, env=ENV, check=True).stdout
    keys = []
    for line in out.splitlines():
        m = re.match(r"\| `([a-z_0-9.]+)` \| (\w+) \| `(.*?)` \| (.*?) \|", line)
        if m:
            keys.append({"key": m.group(1), "type": m.group(2), "default": m.group(3), "range": m.group(4).strip()})
    return keys


def numeric_range(r):
    """(low, high) of an 'a .. b' range whose bounds are plain numbers, else None."""
    m = re.match(r"^(-?[0-9.e+]+) \.\. (-?[0-9.e+]+)$", r)
    return (float(m.group(1)), float(m.group(2))) if m else None


def bad_values(entry, rng):
    """Values that must be refused for this key, each with what the message must name."""
    k, t = entry["key"], entry["type"]
    vals = []
    if t in ("int", "real"):
        vals += ["abc", "1e400", "[1]", "true"]
        rg = numeric_range(entry["range"])
        if rg:
            lo, hi = rg
            vals.append(repr(hi * 10 + 10) if hi > 0 else "1e30")
            if lo > -1e300:
                vals.append(repr(lo - 1 - abs(lo)))
        if t == "int":
            vals.append("1.5")
    elif t == "bool":
        vals += ["maybe", "2", "yes please"]
    elif t == "string":
        choices = [c.strip() for c in entry["range"].split(",")] if "," in entry["range"] else []
        if choices:
            vals += ["no_such_" + rng.choice(choices), "", "42"]
    return [(k, v) for v in vals]


def run(args, tmp):
    p = subprocess.run([str(BIN), "--quiet", "--out", str(tmp / "out")] + SMALL + args, capture_output=True, text=True,
                       env=ENV, timeout=60)
    return p.returncode, p.stderr + p.stdout


def cases(tmp):
    rng = random.Random(SEED)
    entries = schema()
    assert len(entries) > 100, "the --help-config table was not parsed"
    out = []
    for e in entries:
        for k, v in bad_values(e, rng):
            out.append((["--set", "%s=%s" % (k, v)], k))
    # unknown keys: misspellings of real ones
    for e in rng.sample(entries, 25):
        k = e["key"]
        i = rng.randrange(len(k))
        typo = k[:i] + rng.choice("xqz") + k[i + 1:]
        if typo != k and typo not in {x["key"] for x in entries}:  # a typo may spell another key (tlc -> qlc)
            out.append((["--set", "%s=1" % typo], typo))
    # bad JSON configuration files
    for n, text in enumerate(['{"geometry": {"channels": "eight"}}', '{"geometry": {"channelz": 8}}',
                              '{"workload": {"read_fraction": 1e400}}', '{"timing": [1, 2]}', '{"ftl": {"mapping": 3}}',
                              '{"geometry": {"channels": 8,}}', '{"buffer": {"bytes": -4096}}', '{"host": {"queue_depth": 0}}']):
        f = tmp / ("bad%d.json" % n)
        f.write_text(text)
        out.append((["--config", str(f)], f.name))
    # bad CSV trace lines: time_ns,op,offset_bytes,bytes[,stream[,pc]]
    bad_lines = ["x,W,0,4096", "0,Q,0,4096", "0,W,-4096,4096", "0,W,0,abc", "0,W,0", "0,W,0,4096,notastream",
                 "1e30,W,0,4096", "0,W,0,0", "0;W;0;4096", "0,W,0x10,4096"]
    for n in range(60):
        lines = ["%d,W,%d,4096" % (i * 1000, i * 4096) for i in range(rng.randrange(1, 6))]
        at = rng.randrange(len(lines) + 1)
        lines.insert(at, rng.choice(bad_lines))
        f = tmp / ("bad%d.csv" % n)
        f.write_text("\n".join(lines) + "\n")
        out.append((["--set", "workload.pattern=trace", "--set", "workload.trace_format=csv", "--set",
                     "workload.trace_path=%s" % f, "--set", "workload.trace_timing=open"], "%s:%d" % (f.name, at + 1)))
    return out


def test_fuzz_bad_input_exits_2_naming_the_key_or_line(tmp_path):
    found = cases(tmp_path)
    assert len(found) >= 200
    failures = []
    for args, must_name in found:
        code, text = run(args, tmp_path)
        if code != 2 or must_name not in text or "terminate called" in text or "Segmentation" in text:
            failures.append("%s -> exit %d: %s" % (" ".join(args), code, text.strip()[:300]))
    assert not failures, "%d of %d cases:\n" % (len(failures), len(found)) + "\n".join(failures[:40])
