"""Fuzzing the four input classes (issue 30): command-line values, configuration JSON, fio job files and traces of
every format, generated from a fixed seed by mutating valid inputs (so some are valid and run, most are refused).

Every input must end with exit 0 or 2 — never a signal, exit 3 or an uncaught exception — within a bounded time and
address space, and every exit 2 must name what it refuses: a configuration key, an option, or file:line.
Runs are tiny (SMALL is applied last), two at a time; the whole test takes about half a minute on 2 cores.
"""
import concurrent.futures
import os
import random
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("SSDTLM_BIN_DIR", ROOT / "build" / "bin")) / "ssdtlm-generic"
ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
SEED = 20261124

def sanitized():
    """An ASan build (-DSSDTLM_SANITIZE=ON) reserves terabytes of shadow address space and runs slower."""
    try:
        return b"libasan" in subprocess.run(["ldd", str(BIN)], capture_output=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False


SANITIZED = sanitized()
PER_INPUT_S = 30 if SANITIZED else 10  # CPU-time bound per input (ulimit -t: a machine's load cannot fail it)
HANG_S = 600  # wall-time guard against a hang only (a run past its CPU bound is killed by the kernel long before)


def limits():
    """The shell's limits for one input: CPU seconds always, the address space unless sanitized (ASan maps more)."""
    cpu = "ulimit -t %d" % PER_INPUT_S
    return cpu if SANITIZED else "%s && ulimit -v %d" % (cpu, ADDRESS_SPACE >> 10)
ADDRESS_SPACE = 4 << 30  # bytes: an input that makes the model grow without bound fails instead of swapping
# Applied after every input: a small drive and a short run, whatever the input asked for.
SMALL = ["--set", "workload.io_count=300", "--set", "workload.io_bytes=0", "--set", "workload.runtime_ms=0",
         "--set", "precondition.fill=false", "--set", "precondition.drive_writes=0", "--set", "geometry.channels=1",
         "--set", "geometry.dies_per_channel=2", "--set", "geometry.blocks_per_plane=64",
         "--set", "geometry.pages_per_block=64", "--set", "buffer.bytes=1M", "--set", "sim.max_memory_bytes=1G"]
OPTIONS = ("--config", "--fio", "--set", "--seed", "--out", "--vcd", "--fst", "--vcd-window", "--output-format",
           "unknown option")
FILE_LINE = re.compile(r"[^\s:'\"]+:\d+:")

NUMBERS = ["0", "-1", "1", "2", "7", "1.5", "1e-400", "-1e-400", "1e400", "0x10", "0X1F", "1e308", "4.9e-324",
           "18446744073709551615", "18446744073709551616", "-9223372036854775809", "nan", "inf", "-inf", "1_000",
           "64k", "4KiB", "1GiB", "0.7ms", "25%", "200%", "1e6", " 12 ", "12abc", "+3", "--3", ".5", "5.", "00012"]
STRINGS = ["", " ", "a\nb", "a\x01b", "\t", "x" * 5000, "caf\u00e9", "true", "false", "null", "[]", "{}", "auto",
           "page", "hexa", "fifo", "superblock", "block", "random", "sequential", "trace", "app", "greedy", "none"]


def schema():
    out = subprocess.run([str(BIN), "--help-config"], capture_output=True, text=True, env=ENV, check=True).stdout
    keys = []
    for line in out.splitlines():
        m = re.match(r"\| `([a-z_0-9.]+)` \| (\w+) \| `(.*?)` \| (.*?) \|", line)
        if m:
            keys.append({"key": m.group(1), "type": m.group(2), "range": m.group(4).strip()})
    return keys


def value(rng, entry):
    choices = [c.strip() for c in entry["range"].split(",")] if "," in entry["range"] else []
    pool = NUMBERS + STRINGS + choices * 3
    return rng.choice(pool)


# ------------------------------------------------------------------------------------------------------------
# The four classes. Each case: (arguments, files to write {name: bytes}).

def cmdline_cases(rng, keys, n):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.75:
            k = rng.choice(keys)
            args = ["--set", "%s=%s" % (k["key"], value(rng, k))]
            if rng.random() < 0.3:
                k2 = rng.choice(keys)
                args += ["--set", "%s=%s" % (k2["key"], value(rng, k2))]
        elif r < 0.85:
            args = ["--seed", rng.choice(["", "0", "-1", "abc", "1e400", "0x10", "18446744073709551616", "7", " 3"])]
        elif r < 0.93:
            args = ["--vcd", "w.vcd", "--vcd-window", rng.choice(["", ":", "1:", ":2", "2:1", "a:b", "1e400:", "-1:2",
                                                                  "0:0.000001", "1:2:3"])]
        else:
            args = [rng.choice(["--output-format", "--bogus", "-x", "--set", "--set=", "--config="])] + \
                   rng.choice([[], ["json"], ["xml"], ["=1"]])
        out.append((args, {}))
    return out


BASE_DOCS = [
    {"host": {"queues": 2, "queue_depth": 8}, "workload": {"read_fraction": 0.3}},
    {"ftl": {"gc_free_blocks": 3}, "buffer": {"policy": "fifo"}},
    {"jobs": [{"name": "a", "read_fraction": 0.5}, {"name": "b", "pattern": "sequential"}]},
    {"fault": {"power_loss_at_ms": "1,2"}, "power": {"protected_bytes": 65536}},
    {"streams": {"count": 1, "assign": "manual"}, "timing": {"t_read_us": 50}},
]


def mutate_json(rng, keys, doc):
    import json
    kind = rng.randrange(9)
    if kind == 0:  # deep nesting, objects or arrays
        depth = rng.choice([10, 63, 64, 65, 1000, 50000])
        return ('{"a":' * depth + "1" + "}" * depth) if rng.random() < 0.5 else \
            '{"host":{"queues":' + "[" * depth + "]" * depth + "}}"
    if kind == 1:  # duplicate keys, flat and nested spellings
        k = rng.choice(keys)["key"]
        sec, _, rest = k.partition(".")
        return rng.choice(['{"%s":{"%s":1},"%s":{"%s":2}}' % (sec, rest, sec, rest),
                           '{"%s":1,"%s":{"%s":2}}' % (k, sec, rest), '{"%s":{},"%s":{}}' % (sec, sec),
                           '{"%sx":{}}' % sec])
    if kind == 2:  # a random key with a random value, typed or as text
        k = rng.choice(keys)
        v = value(rng, k)
        lit = v if re.match(r"^-?[0-9.]+(e-?[0-9]+)?$", v.strip()) and rng.random() < 0.6 else json.dumps(v)
        sec, _, rest = k["key"].partition(".")
        return '{"%s":{"%s":%s}}' % (sec, rest, lit)
    text = json.dumps(doc)
    if kind == 3:  # cut short
        return text[:rng.randrange(len(text))]
    if kind == 4:  # a byte changed
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(['"', "{", "}", "[", ",", ":", "\\", "\x00", "\n", "9", "e", "-"]) + text[i + 1:]
    if kind == 5:  # escapes and control characters in keys and strings
        return '{"ho\\u0000st":1}' if rng.random() < 0.5 else '{"workload":{"trace_path":"a\\nb\\u0001"}}'
    if kind == 6:
        return rng.choice(["", "[]", "null", "1", '"x"', "\ufeff{}", "{}" * 2, "{} x", '{"jobs":{}}'])
    if kind == 7:  # numbers at the edges
        return '{"workload":{"read_fraction":%s}}' % rng.choice(["1e-400", "-0", "0e999", "1E+2", "0x1", "01", ".5",
                                                                 "1e-320", "2.2250738585072014e-308"])
    return text


def config_cases(rng, keys, n):
    out = []
    for i in range(n):
        name = "c%d.json" % i
        out.append((["--config", name], {name: mutate_json(rng, keys, rng.choice(BASE_DOCS)).encode("utf-8", "replace")}))
    return out


FIO_OPTIONS = ["rw", "bs", "bsrange", "bssplit", "blockalign", "size", "offset", "iodepth", "numjobs", "rwmixread",
               "runtime", "io_size", "number_ios", "randseed", "thinktime", "rate", "rate_iops", "offset_increment",
               "random_distribution", "ioengine", "direct", "time_based", "stonewall", "kb_base", "loops", "filesize"]
FIO_VALUES = ["4k", "64k-4k", "4k-64k", "4k,,,", ",,", "3", "0", "-1", "4k/50:8k/50", "(4k*2)", "((((1k))))",
              "(" * 300 + "4k" + ")" * 300, "(1/0)", "(2^2^2^2^2)", "(-----4k)", "50%", "200%", "1e400", "0x1000",
              "randwrite", "randrw", "read", "write", "zipf:1.2", "pareto:0.5", "${NOPE}", "${HOME}", "1m", "10s",
              "1,2,3,4", "", "libaio", "1", "yes", "1024", "99999999999999999999", "4k:8k", "1k\x01"]
FIO_BASE = "[global]\nrw=randwrite\nbs=4k\nsize=8m\n[job1]\niodepth=4\n"


def fio_cases(rng, n, tmp):
    out = []
    for i in range(n):
        name = "f%d.fio" % i
        lines = FIO_BASE.splitlines()
        for _ in range(rng.randrange(1, 4)):
            r = rng.random()
            if r < 0.7:
                line = "%s=%s" % (rng.choice(FIO_OPTIONS), rng.choice(FIO_VALUES))
            elif r < 0.8:
                line = rng.choice(["[ ]", "[]", "[job2", "[job2]", "[global]", "[a b]", "[\t]"])
            elif r < 0.9:
                line = "include " + rng.choice([str(tmp), "/dev/zero", "nope.fio", "", "inc.fio", "f0.fio"])
            else:
                line = rng.choice(["=", "novalue", "bs", "; comment", "# comment", "x" * 3000, "rw=read # c"])
            lines.insert(rng.randrange(1, len(lines) + 1), line)
        out.append((["--fio", name], {name: ("\n".join(lines) + "\n").encode("utf-8", "replace"),
                                      "inc.fio": b"bs=8k\n"}))
    return out


def trace_line(rng, fmt, i, bad):
    off = rng.choice([i * 4096, 0, 2 ** 64 - 4096, 2 ** 63, 2 ** 64 - 1, 2 ** 55 * 512 - 512]) if bad else i * 4096
    size = rng.choice([4096, 0, 1, 2 ** 32, 512]) if bad else 4096
    op = rng.choice(["W", "R"])
    if fmt == "csv":
        return "%d,%s,%d,%d" % (i * 1000, rng.choice([op, "ZZ", "T", ""]) if bad else op, off, size)
    if fmt in ("disksim", "disksim_ns", "mqsim"):
        t = ("%d.5" % i) if fmt == "disksim" else str(i * 1000)
        typ = rng.choice(["0", "1", "7", "2", "-1", "x"]) if bad else rng.choice(["0", "1"])
        return "%s 0 %d %d %s" % (t, off // 512, max(size // 512, 0), typ)
    if fmt == "msr":
        return "%d,hm,0,%s,%d,%d,100" % (128166372003061629 + i * 10000, rng.choice(["Read", "Write", "Erase"]) if bad
                                        else ("Read" if op == "R" else "Write"), off, size)
    if fmt == "blkparse":
        rwbs = rng.choice(["ZZ", "W", "RS", "FWFS", "", "D", "N"]) if bad else op
        return "  8,0 0 %d %d.000000000 1 Q %s %d + %d [a]" % (i + 1, i, rwbs, off // 512, size // 512)
    if fmt == "fio_iolog":
        return "f %s %d %d" % (rng.choice(["write", "read", "trim", "frob"]) if bad else "write", off, size)
    raise ValueError(fmt)


TRACE_FORMATS = ["csv", "disksim", "disksim_ns", "mqsim", "msr", "blkparse", "fio_iolog"]


def trace_cases(rng, n):
    out = []
    for i in range(n):
        fmt = TRACE_FORMATS[i % len(TRACE_FORMATS)]
        name = "t%d.%s" % (i, "trace")
        lines = ["fio version 2 iolog", "f add", "f open"] if fmt == "fio_iolog" else []
        count = rng.randrange(1, 8)
        bad_at = rng.randrange(count + 1)
        for j in range(count):
            lines.append(trace_line(rng, fmt, j, j == bad_at))
        if fmt == "fio_iolog":
            lines.append("f close")
        extra = rng.random()
        text = "\n".join(lines) + "\n"
        if extra < 0.1:
            text = text.replace("\n", "\r\n")
        elif extra < 0.2:
            text = text[: rng.randrange(len(text))]
        elif extra < 0.25:
            text += "\x00" * 10 + "\n"
        elif extra < 0.3:
            text = "\ufeff" + text
        args = ["--set", "workload.pattern=trace", "--set", "workload.trace_format=" + fmt,
                "--set", "workload.trace_path=" + name,
                "--set", "workload.trace_timing=" + rng.choice(["closed", "open"]),
                "--set", "workload.trace_fit=" + rng.choice(["auto", "error", "wrap", "scale", "shift"])]
        out.append((args, {name: text.encode("utf-8", "replace")}))
    return out


# ------------------------------------------------------------------------------------------------------------

def run_case(case, tmp, idx):
    args, files = case
    d = tmp / ("case%d" % idx)
    d.mkdir()
    for name, data in files.items():
        (d / name).write_bytes(data)
    try:
        # ulimit -v in a shell rather than preexec_fn, which is not safe with threads
        p = subprocess.run(["sh", "-c", limits() + ' && exec "$@"', "sh", str(BIN), "--quiet",
                            "--out", "out"] + args + SMALL, cwd=d, capture_output=True, env=ENV, timeout=HANG_S)
    except subprocess.TimeoutExpired:
        return args, None, "TIMEOUT after %d s (a hang)" % HANG_S
    return args, p.returncode, p.stderr.decode("utf-8", "replace")


def names_something(text, keys, args):
    if FILE_LINE.search(text) or re.search(r"keys? '", text):
        return True
    if any(o in text for o in OPTIONS):
        return True
    if any(k in text for k in keys):
        return True
    return any(a in text for a in args if len(a) > 2 and not a.startswith("--"))


def test_fuzz_inputs_exit_0_or_2_naming_what_they_refuse(tmp_path):
    rng = random.Random(SEED)
    entries = schema()
    keys = [e["key"] for e in entries]
    cases = (cmdline_cases(rng, entries, 110) + config_cases(rng, entries, 110) + fio_cases(rng, 90, tmp_path) +
             trace_cases(rng, 105))
    assert len(cases) >= 400
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda ic: run_case(ic[1], tmp_path, ic[0]), enumerate(cases)))
    failures, codes = [], {}
    for args, code, err in results:
        codes[code] = codes.get(code, 0) + 1
        shown = " ".join(a if len(a) < 80 else a[:80] + "..." for a in args)
        if code == -24:  # SIGXCPU: past its CPU-time bound (ulimit -t)
            failures.append("%s -> more than %d s of CPU" % (shown, PER_INPUT_S))
        elif code not in (0, 2):
            failures.append("%s -> exit %s: %s" % (shown, code, err.strip()[-300:]))
        elif code == 2 and not names_something(err, keys, args):
            failures.append("%s -> exit 2 naming neither a key, an option nor file:line: %s" % (shown, err.strip()[:300]))
        elif "terminate called" in err or "Segmentation" in err or "AddressSanitizer" in err or "runtime error" in err:
            failures.append("%s -> %s" % (shown, err.strip()[:300]))
    assert codes.get(0, 0) >= 20 and codes.get(2, 0) >= 200, codes  # both valid and refused inputs were fuzzed
    assert not failures, "%d of %d inputs:\n" % (len(failures), len(cases)) + "\n".join(failures[:40])
