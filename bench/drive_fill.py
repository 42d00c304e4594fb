"""The whole-drive fill of a named 1 TB drive at full scale, timed on one core (issue 40: "a whole-drive fill of a
1-2 TB drive finishes in under 10 minutes on one core (bench row)").

A row `drive-fill-<drive>` runs the drive platform's executable (`ssdtlm-<drive>`, beside bench.py's --bin; under
--compare beside the other executable) with the settings scripts/validate_drives.py gives the drive's declared
whole-drive-fill run (TechPowerUp's: 1 MiB sequential writes at QD1 over the drive's whole logical capacity, the
platform's SLC cache, folding and direct-to-TLC as its config.json has them), at capacity scale 1 instead of the
drive's declared 1/16 (--drive-fill-scale N: another divisor, validate_drives.py's rule). The process is pinned to
one core (`taskset -c 0`). The row prints the process's wall and CPU seconds and its peak RSS (getrusage of that
child alone, os.wait4), host I/Os and NAND operations per wall second, whether it finished in under 10 minutes of
wall time, and the fill's curve metrics (validate_drives.py's: burst rate, SLC cache size, rate past the cache,
average) to set beside errors.md's 1/16-scale values. Opt-in: `bench.py --drive-fill` adds the table, `--only
REGEX` runs the rows whose name matches (`--only drive-fill`: both drives).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import validate_drives  # noqa: E402  (the drives' declarations and the run settings of their measurements)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pairs  # noqa: E402  (alternating pairs of runs, as bench.py's rows)

DRIVES = ("samsung_980_1tb", "samsung_980pro_1tb")
ROW_PREFIX = "drive-fill-"
LIMIT_S = 600.0  # the 10 minutes
PIN = ["taskset", "-c", "0"]
CURVE = ("burst_mbps", "cache_gb", "after_mbps", "fill_mbps")


class FillError(Exception):
    pass


def row_names():
    return [ROW_PREFIX + d for d in DRIVES]


def selected(only, opt_in):
    """The rows to run: all with --drive-fill, else those whose name --only matches (none by default)."""
    return [n for n in row_names() if opt_in or (only and re.search(only, n))]


def fill_run(decl):
    """The name of the drive's whole-drive-fill run: the one run its curve measurements read."""
    runs = {m["run"] for kind in ("calibration", "validation") for m in decl.get(kind, [])
            if m["metric"].startswith("curve:")}
    if len(runs) != 1:
        raise FillError("expected one whole-drive-fill run (read by the curve: measurements), found %s" % sorted(runs))
    return runs.pop()


def fill_settings(drive, scale):
    """validate_drives.py's --set values of the drive's fill run at this capacity scale (1: the whole drive)."""
    decl, cfg = validate_drives.load_drive(drive)
    return validate_drives.run_settings(decl, cfg, fill_run(decl), scale, 1.0, 500)


def fill_command(binary, drive, scale, out):
    cmd = PIN + [binary, "--quiet", "--out", out]
    for k, v in fill_settings(drive, scale).items():
        cmd += ["--set", "%s=%s" % (k, json.dumps(v) if isinstance(v, bool) else v)]
    return cmd


def run_fill(binary, drive, scale):
    """One pinned fill: the summary with the process's wall s, CPU s and peak RSS, and the curve metrics."""
    if not os.path.exists(binary):
        raise FillError("no executable %s (build the platform: --target ssdtlm-%s)" % (binary, drive))
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        start = time.monotonic()
        with subprocess.Popen(fill_command(binary, drive, scale, out), env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) as p:
            err = p.stderr.read()
            _, status, usage = os.wait4(p.pid, 0)  # this child's own rusage (RUSAGE_CHILDREN's maxrss is of all)
            p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - start
        if p.returncode != 0:
            raise FillError("%s exit %d: %s" % (os.path.basename(binary), p.returncode,
                                                (err.strip().splitlines() or ["?"])[-1][:160]))
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)
        rows = validate_drives.curve(out)
        s["bench_fill"] = {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "rss_bytes": usage.ru_maxrss * 1024,
                           "curve": {m: validate_drives.curve_metric(m, rows, scale) for m in CURVE}}
        return s


def nand_ops(s):
    n = s["nand"]
    return sum(n["programs"].values()) + sum(n["reads"].values()) + n["erases"]


def describe(s):
    f = s["bench_fill"]
    c = f["curve"]
    return "%10d %8.1f %8.1f %8.1f %8.2f %11.0f %12.0f %6s  %7.0f %8.1f %7.0f %7.0f" % (
        s["host"]["ios"], s["sim_time_s"], f["wall_s"], f["cpu_s"], f["rss_bytes"] / 2**30, s["host"]["ios"] / f["wall_s"],
        nand_ops(s) / f["wall_s"], "yes" if f["wall_s"] < LIMIT_S else "NO", c["burst_mbps"], c["cache_gb"],
        c["after_mbps"], c["fill_mbps"])


HEADER = "%-30s %10s %8s %8s %8s %8s %11s %12s %6s  %7s %8s %7s %7s" % (
    "row", "host I/Os", "sim s", "wall s", "cpu s", "RSS GiB", "I/Os/wall s",
    "NAND/wall s", "<10min", "burst", "cache GB", "after", "avg")
COMPARE_HEADER = "%-30s %8s %8s %7s %7s %9s %9s %7s %9s" % ("row", "A wall s", "B wall s", "A/B", "cpu A/B",
                                                            "A RSS GiB", "B RSS GiB", "A<10min", "results")


def table(names, binary, other, scale, repeat, results_label):
    """The drive-fill table: one row per name (one run each, or under --compare `repeat` alternating pairs: the
    median pair's ratios, wall and CPU, B over A as bench.py's rows)."""
    if not names:
        return
    print("\nwhole-drive fill at 1/%d scale, 1 MiB sequential QD1, pinned to one core (%s); wall, CPU and peak RSS of "
          "the process; load average %.2f %.2f %.2f" % (scale, " ".join(PIN), *os.getloadavg()))
    print(COMPARE_HEADER if other else HEADER)
    for name in names:
        drive = name[len(ROW_PREFIX):]
        mine = os.path.join(os.path.dirname(binary), "ssdtlm-" + drive)
        try:
            if not other:
                print("%-30s %s" % (name, describe(run_fill(mine, drive, scale))), flush=True)
                continue
            theirs = os.path.join(os.path.dirname(other), "ssdtlm-" + drive)
            f = lambda s, k: s["bench_fill"][k]
            x, y, wall_ratio, cpu_ratio = pairs.alternate(
                lambda: run_fill(mine, drive, scale), lambda: run_fill(theirs, drive, scale), repeat,
                lambda s: f(s, "wall_s"), lambda s: f(s, "cpu_s"))
        except FillError as e:
            print("%-30s %s" % (name, e), flush=True)
            continue
        strip = lambda s: {k: v for k, v in s.items() if k != "bench_fill"}
        print("%-30s %8.1f %8.1f %7.3f %7.3f %9.2f %9.2f %7s %9s" % (
            name, f(x, "wall_s"), f(y, "wall_s"), wall_ratio, cpu_ratio, f(x, "rss_bytes") / 2**30,
            f(y, "rss_bytes") / 2**30, "yes" if f(x, "wall_s") < LIMIT_S else "NO", results_label(strip(x), strip(y))),
              flush=True)
