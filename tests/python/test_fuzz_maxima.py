"""The fuzz of issue 44: every numeric key at the top and the bottom of its range, and drives sized near the memory
limit. Each value is written as --help-config shows the range (with its unit), on the small, short run of
test_fuzz_inputs (its SMALL settings, except the key under test, and at most 1 ms of simulated issue time so that a
run-length key at its maximum still ends). Every input must end with exit 0 or 2 within the time and address-space
bounds, never a signal, a stall (exit 3) or an uncaught exception, and an exit 2 must name what it refuses.
"""
import concurrent.futures
import re

import test_fuzz_inputs as fz

# Keys the short run must keep whatever is under test (the run length), each with the value it keeps.
KEEP = {"workload.runtime_ms": "1"}


def bounds(entry):
    m = re.match(r"^(.+?) \.\. (.+)$", entry["range"])
    return (m.group(1).strip(), m.group(2).strip()) if m and entry["type"] in ("int", "real") else None


def small_without(key):
    out = []
    for flag, kv in zip(fz.SMALL[::2], fz.SMALL[1::2]):
        if kv.split("=", 1)[0] != key:
            out += [flag, kv]
    return out


def extreme_cases(entries):
    cases = []
    for e in entries:
        b = bounds(e)
        if not b:
            continue
        for v in b:
            keep = [x for k, val in KEEP.items() if k != e["key"] for x in ("--set", "%s=%s" % (k, val))]
            cases.append(["--set", "%s=%s" % (e["key"], v)] + keep)
    return cases


# Drives near the memory limit (sim.max_memory_bytes=1G of SMALL): the estimate just below it runs (the arrays are
# allocated, the run is short), just above it is refused naming the key; a drive past the 32-bit address space too.
DRIVES = [
    ["--set", "geometry.channels=16", "--set", "geometry.dies_per_channel=16", "--set", "geometry.blocks_per_plane=%d" % b,
     "--set", "geometry.pages_per_block=256"] for b in (256, 512, 1024, 4096, 65536)
] + [["--set", "buffer.bytes=%s" % s] for s in ("512M", "1G", "1T")]


def test_range_extremes_and_big_drives_exit_0_or_2(tmp_path):
    entries = fz.schema()
    keys = [e["key"] for e in entries]
    cases = extreme_cases(entries)
    assert len(cases) >= 200
    cases += [d + ["--set", "workload.runtime_ms=1"] for d in DRIVES]
    failures, codes, results = [], {}, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for i, args in enumerate(cases):
            key = args[1].split("=", 1)[0]  # the key under test replaces SMALL's setting of it
            results.append(pool.submit(run_small, args, key, tmp_path, i))
        results = [r.result() for r in results]
    for args, code, err in results:
        codes[code] = codes.get(code, 0) + 1
        shown = " ".join(args)
        if code == -24:  # SIGXCPU: past its CPU-time bound (ulimit -t)
            failures.append("%s -> more than %d s of CPU" % (shown, fz.PER_INPUT_S))
        elif code not in (0, 2):
            failures.append("%s -> exit %s: %s" % (shown, code, err.strip()[-300:]))
        elif code == 2 and not fz.names_something(err, keys, args):
            failures.append("%s -> exit 2 naming neither a key nor an option: %s" % (shown, err.strip()[:300]))
    assert codes.get(0, 0) >= 50 and codes.get(2, 0) >= 20, codes
    assert not failures, "%d of %d inputs:\n" % (len(failures), len(cases)) + "\n".join(failures[:40])


def run_small(args, key, tmp, idx):
    d = tmp / ("x%d" % idx)
    d.mkdir()
    cmd = ["sh", "-c", fz.limits() + ' && exec "$@"', "sh", str(fz.BIN), "--quiet", "--out", "out"] + small_without(key) + args
    try:
        p = fz.subprocess.run(cmd, cwd=d, capture_output=True, env=fz.ENV, timeout=fz.HANG_S)
    except fz.subprocess.TimeoutExpired:
        return args, None, "TIMEOUT after %d s (a hang)" % fz.HANG_S
    return args, p.returncode, p.stderr.decode("utf-8", "replace")
