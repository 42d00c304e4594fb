#!/usr/bin/env python3
"""Results identity of the register-level NVMe path between two builds (AT, LT, coalescing and WRR).

usage: register_identity.py --bin DIR --base DIR [--base-cache DIR] [--only REGEX] [--modes at,lt,coalesce] [--jobs N]

scripts/golden_summaries.py checks the default interface (nvme.interface=command). A change to the register path (the
endpoint, the driver, the block layer, host memory, the PCIe link) must leave that path's results as they were too:
this runs a selection of the golden configurations (CONFIGS, each a different mechanism) with nvme.interface=register
approximately timed ("at"), loosely timed at the default quantum ("lt"), and approximately timed with interrupt
coalescing (threshold 4, 100 us) and weighted round robin with an arbitration burst of 2 ("coalesce"), on both builds,
and compares every field of summary.json as golden_summaries.py does (wall times, memory apart). Exit 0 when every
summary is identical, 1 when one differs (each difference listed), 2 on a usage error. --base-cache keeps the base
build's summaries (one JSON file per configuration and mode) and reuses them: the base does not change between runs.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from golden_summaries import MATRIX, command, flatten  # noqa: E402

# One configuration per mechanism family: reads and writes mixed, writes only, large sequential transfers (split by
# MDTS, PRP lists), skew, a trace, trims (Dataset Management), demand mapping, power loss, zones (Zone Management,
# zone write locking), FDP directives, the SLC cache, read retries.
CONFIGS = ["page-greedy", "page-writes-only", "sequential", "zipf", "trace-disksim", "trim", "dftl", "power-loss",
           "zns", "fdp", "slc-dynamic", "read-reclaim"]
MODES = {
    "at": {"nvme.interface": "register"},
    "lt": {"nvme.interface": "register", "sim.timing": "lt"},
    "coalesce": {"nvme.interface": "register", "host.coalesce_threshold": 4, "host.coalesce_time_us": 100,
                 "nvme.arbitration": "wrr", "nvme.arbitration_burst": 2},
}


def run(bin_dir, name, mode, cache=None):
    path = Path(cache) / ("%s.%s.json" % (name, mode)) if cache else None
    if path and path.exists():
        return json.loads(path.read_text()), None
    got, err = run_once(bin_dir, name, mode)
    if path and not err:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(got, sort_keys=True))
    return got, err


def run_once(bin_dir, name, mode):
    args = command(bin_dir, name, MODES[mode])
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        p = subprocess.run(args + ["--out", out], capture_output=True, text=True, env=env)
        if p.returncode != 0:
            return None, "exit %d: %s" % (p.returncode, p.stderr.strip()[-400:])
        with open(os.path.join(out, "summary.json")) as f:
            return flatten(json.load(f)), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="the build under test (its bin directory)")
    ap.add_argument("--base", required=True, help="the reference build (its bin directory)")
    ap.add_argument("--base-cache", default="", help="a directory keeping the base build's summaries")
    ap.add_argument("--only", default="")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    modes = a.modes.split(",")
    names = [n for n in CONFIGS if re.search(a.only, n)]
    if not names or any(m not in MODES for m in modes):
        print("register_identity: no configuration matches --only %r, or a mode is not one of %s" %
              (a.only, ",".join(MODES)), file=sys.stderr)
        return 2
    for d in (a.bin, a.base):
        if not (Path(d) / "ssdtlm-generic").is_file():
            print("register_identity: %s has no ssdtlm-generic" % d, file=sys.stderr)
            return 2
    assert all(n in MATRIX for n in names)
    tasks = [(n, m, side) for n in names for m in modes for side in ("bin", "base")]  # only the base's are cached
    with ThreadPoolExecutor(a.jobs) as pool:
        got = dict(zip(tasks, pool.map(
            lambda t: run(a.bin, t[0], t[1]) if t[2] == "bin" else run(a.base, t[0], t[1], a.base_cache or None),
            tasks)))
    bad = 0
    for n in names:
        for m in modes:
            (new, err_new), (old, err_old) = got[(n, m, "bin")], got[(n, m, "base")]
            if err_new or err_old:
                if err_new == err_old:
                    print("ok   %s %s (both fail alike: %s)" % (n, m, err_new[:80]))
                    continue
                bad += 1
                print("FAIL %s %s: build %s; base %s" % (n, m, err_new, err_old))
                continue
            diffs = ["  %s: base %r, now %r" % (k, old.get(k, "<absent>"), new.get(k, "<absent>"))
                     for k in sorted(set(old) | set(new)) if old.get(k, "<absent>") != new.get(k, "<absent>")]
            if diffs:
                bad += 1
                print("DIFF %s %s (%d fields)" % (n, m, len(diffs)))
                print("\n".join(diffs[:15]))
            else:
                print("ok   %s %s" % (n, m))
    print("register_identity: %d of %d summaries identical" % (len(names) * len(modes) - bad, len(names) * len(modes)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
