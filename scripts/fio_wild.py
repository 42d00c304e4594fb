#!/usr/bin/env python3
"""fio job files from the wild (issue 45), measured: each file run through `ssdtlm-generic --fio` and classed.

The job files are other people's (SPDK, kbench, kubestr, fio-plot, zonedstorage.io, Azure's docs); the repository
keeps only where they are (scripts/fio_wild_sources.json: repository, path, commit, lines) and what fio does with
each, written from the file and fio's documentation (not from ssdtlm's output):

  "fio": "runs"                    fio runs the file as it is (unset ${VAR}s read as empty, as fio reads them);
  "fio": "refuses", "reason": S    fio (or the file as written) cannot run it; S is a substring the true reason has;
  "limit": S                       a file fio runs that ssdtlm may refuse for a thing it does not model: the refusal
                                   is true when it names S;
  "drive": NAME                    the drive the file is written for (DRIVES: the default, a zoned or a larger one);
  "why": ...                       the reading behind the entry.

  python3 scripts/fio_wild.py collect DIR [--mirrors /work/.mirror]   # the files, from git mirrors of the repositories
  python3 scripts/fio_wild.py run DIR [--bin build/bin] [--json OUT]  # run, class, print the table (markdown)

The rule for "ran correctly" (written before measuring, and the same for every file): the run exits 0, no command
failed (summary.json host.failed_commands), the integrity checker found no error, and against an independent
reading of the file (`expected_jobs`: sections, [global]s, include, numjobs):
  * the run has one ssdtlm job per fio job clone, in order;
  * each has the pattern fio's `rw` names (random for rand*, else sequential), the read share (rw and rwmixread),
    the block size when one is given (`bs`/`blocksize`, its first value as fio cuts it), and the depth (`iodepth`,
    default 1);
  * the directions that moved data (fio.json, or summary.json's page_cache for buffered jobs) are the ones the job
    uses; some data moved;
  * a buffered job (direct=0 through the kernel's files) went through the page cache, a direct one did not;
  * every log file fio would write (write_bw_log, write_iops_log, write_lat_log: NAME_bw.N.log, ...) exists where
    fio writes it (relative to the run's output folder).
The classes: ran correctly / ran but wrong (which check failed) / refused with the true reason / refused with a
wrong reason / reported success while commands failed (exit 0 with failed commands or a fio.json error).
Every run uses a fresh drive (precondition.fill=false, drive_writes=0) and caps each job at 2 simulated ms
(`--set workload.runtime_ms=2`), as tests/python/test_fio_corpus.py does for fio's own examples.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "scripts" / "fio_wild_sources.json"
BASE = ["--set", "precondition.fill=false", "--set", "precondition.drive_writes=0",
        "--set", "workload.runtime_ms=2"]
DRIVES = {
    "default": [],
    "128g": ["geometry.blocks_per_plane=1280"],
    "zns": ["zns.enabled=true", "zns.max_open=32", "zns.max_active=32", "geometry.blocks_per_plane=1600"],
}
KERNEL_FILE_ENGINES = {"sync", "psync", "vsync", "pvsync", "pvsync2", "libaio", "io_uring", "posixaio", "mmap",
                       "splice", "solarisaio", "windowsaio"}
LOGS = {"write_bw_log": ["bw"], "write_iops_log": ["iops"], "write_lat_log": ["lat", "clat", "slat"]}


def collect(dest, mirrors):
    """Write every listed file into DEST from the git mirrors (`git show COMMIT:PATH`, cut to its lines)."""
    dest.mkdir(parents=True, exist_ok=True)
    missing = []
    for s in json.loads(SOURCES.read_text())["files"]:
        git = Path(mirrors) / s["repo"].replace("/", "+") / "repo"
        p = subprocess.run(["git", "-C", str(git), "show", "%s:%s" % (s["commit"], s["path"])],
                           capture_output=True, text=True)
        if p.returncode != 0:
            missing.append("%s (%s %s at %s)" % (s["file"], s["repo"], s["path"], s["commit"]))
            continue
        text = p.stdout
        if "lines" in s:
            first, last = s["lines"]
            text = "".join(text.splitlines(keepends=True)[first - 1:last])
        if "start_at" in s:  # a job file inside a string of code: from its first section on
            text = text[text.index(s["start_at"]):]
        (dest / s["file"]).write_text(text)
    for m in missing:
        print("not in the mirrors, write it by hand from its lines:", m, file=sys.stderr)
    return 1 if missing else 0


# ---- the independent reading of a job file (the oracle) ----

def read_sections(path, env=None):
    """[(name, {option: value})] in fio's order: [global] sections merge into the defaults of the jobs after them."""
    env = os.environ if env is None else env
    jobs, defaults, current, name = [], {}, None, None

    def lines_of(p):
        for raw in Path(p).read_text().splitlines():
            line = re.split(r"[;#]", raw, 1)[0].strip()
            if line.startswith("include "):
                inc = line.split(None, 1)[1].strip()
                yield from lines_of(inc if Path(inc).is_file() else Path(p).parent / inc)
            elif line:
                yield line

    for line in lines_of(path):
        if line.startswith("[") and line.endswith("]"):
            if name is not None and not name.startswith("global"):
                jobs.append((name, current))
            name = line[1:-1]
            current = defaults if name.startswith("global") else dict(defaults)
            continue
        key, _, value = line.partition("=")
        value = re.sub(r"\$\{(\w+)\}", lambda m: env.get(m.group(1), ""), value.strip())
        current[key.strip()] = value
    if name is not None and not name.startswith("global"):
        jobs.append((name, current))
    return jobs


def size_bytes(text):
    m = re.match(r"^(\d+)([kmgt]?)(i?b)?", text.strip().lower())
    if not m:
        return None
    return int(m.group(1)) * 1024 ** " kmgt".index(m.group(2) or " ")


def directions(rw):
    rw = rw.split(":")[0]
    return {"read": {"read"}, "randread": {"read"}, "write": {"write"}, "randwrite": {"write"},
            "trim": {"trim"}, "randtrim": {"trim"}, "rw": {"read", "write"}, "readwrite": {"read", "write"},
            "randrw": {"read", "write"}}.get(rw, {"read"})


def expected_jobs(path):
    out = []
    for name, o in read_sections(path):
        rw = o.get("rw", o.get("readwrite", "read")) or "read"
        dirs = directions(rw)
        mix = o.get("rwmixread") or (str(100 - int(o["rwmixwrite"])) if o.get("rwmixwrite") else "50")
        read_fraction = 1.0 if dirs == {"read"} else 0.0 if "read" not in dirs else int(mix) / 100.0
        if dirs == {"read", "write"} and read_fraction == 1.0:
            dirs = {"read"}
        verifying = o.get("verify", "0") not in ("0", "") and o.get("do_verify", "1") != "0" and "write" in dirs
        if verifying:
            dirs = dirs | {"read"}  # the read-back
        if o.get("verify_only", "0") not in ("0", "false") and "write" in dirs:
            dirs = {"read"} if verifying else set()  # fio's dry run: phantom writes, then the read-back
        bs = o.get("bs", o.get("blocksize"))
        block = size_bytes(re.split(r"[,:\-/]", bs)[0]) if bs and "bsrange" not in o and "blocksize_range" not in o else None
        engine = o.get("ioengine", "psync") or "psync"
        buffered = (o.get("direct", "0") in ("0", "false") and o.get("buffered", "1") not in ("0", "false")
                    and engine in KERNEL_FILE_ENGINES and o.get("zonemode") != "zbd")
        n = int(o.get("numjobs", "1") or 1)
        for k in range(n):
            out.append({"section": name, "name": o.get("name", name) + (".%d" % k if n > 1 else ""),
                        "pattern": "random" if rw.startswith("rand") else "sequential",
                        "read_fraction": read_fraction, "block_bytes": block,
                        "queue_depth": int(o.get("iodepth", "1") or 1), "dirs": dirs, "buffered": buffered,
                        "logs": {k2: o[k2] or o.get("name", name) for k2 in LOGS if k2 in o},
                        "per_job_logs": o.get("per_job_logs", "1") not in ("0", "false"), "index": k,
                        "ramp": o.get("ramp_time", "0") not in ("0", "0s", "")})
    return out


# ---- running and classing ----

def run_one(binary, folder, entry, outroot):
    job = folder / entry["file"]
    out = outroot / entry["file"].rsplit(".", 1)[0]
    sets = [a for s in DRIVES[entry.get("drive", "default")] for a in ("--set", s)]
    env = {k: v for k, v in os.environ.items() if not re.match(r"^(FIO_|FTL_|IOENGINE|BLK_SIZE|RW|MIX|IODEPTH|RUNTIME)", k)}
    try:
        p = subprocess.run([str(binary), "--fio", str(job), "--out", str(out), *BASE, *sets],
                           capture_output=True, text=True, timeout=300, env=env, cwd=str(outroot))
    except subprocess.TimeoutExpired:
        return "ran but wrong", "no end within 300 s of wall time"
    return classify(entry, job, p, out)


def classify(entry, job, p, out):
    if p.returncode == 2:
        error = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "(no message)"
        want = entry.get("reason") if entry["fio"] == "refuses" else entry.get("limit")
        text = p.stderr.lower()
        if want and all(w.lower() in text for w in ([want] if isinstance(want, str) else want)):
            return "refused, true reason", error
        return "refused, wrong reason", error
    if p.returncode not in (0, 1) or not (out / "summary.json").exists():
        return "ran but wrong", "exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])
    summary = json.loads((out / "summary.json").read_text())
    report = json.loads((out / "fio.json").read_text())
    failed = summary["host"].get("failed_commands", 0) + sum(1 for j in report["jobs"] if j.get("error"))
    if p.returncode == 0 and failed:
        return "success while commands failed", "%d failed commands, exit 0" % failed
    if entry["fio"] == "refuses":
        return "ran but wrong", "fio refuses it: " + entry["why"]
    problem = check_run(job, out, summary, report)
    return ("ran but wrong", problem) if problem else ("ran correctly", "")


def check_run(job, out, summary, report):
    want = expected_jobs(job)
    got = json.loads((out / "config.json").read_text())["jobs"]
    if len(got) != len(want):
        return "%d jobs, fio runs %d" % (len(got), len(want))
    if summary["host"].get("failed_commands", 0):
        return "%d commands failed" % summary["host"]["failed_commands"]
    integrity = summary.get("integrity", {})
    if integrity.get("errors", 0):
        return "%d integrity errors" % integrity["errors"]
    for w, g in zip(want, got):
        for key in ("pattern", "queue_depth", "block_bytes"):
            if w[key] is not None and g[key] != w[key]:
                return "job %s: %s %r, fio %r" % (g["name"], key, g[key], w[key])
        if abs(g["read_fraction"] - w["read_fraction"]) > 1e-9 and not g.get("verify"):
            return "job %s: read share %g, fio %g" % (g["name"], g["read_fraction"], w["read_fraction"])
        if bool(g.get("buffered")) != w["buffered"]:
            return "job %s: buffered %s, fio %s" % (g["name"], g.get("buffered"), w["buffered"])
    moved = {d for d in ("read", "write", "trim") if any(j[d]["io_bytes"] > 0 for j in report["jobs"])}
    cache = summary.get("page_cache")
    for c in (cache.get("jobs", [cache]) if cache else []):
        moved |= {d for d, key in (("read", "read_bytes"), ("write", "write_bytes")) if c[key] > 0}
        moved |= {"trim"} if c["trims"] > 0 else set()
    uses = set().union(*(w["dirs"] for w in want))
    # fio.json counts after ramp_time, as fio (should_account): a job whose I/O ended inside its ramp reports none
    # there, and then the drive's own count (summary.json ftl.buffer_steps: every command) shows it ran.
    if not moved and all(w["ramp"] for w in want) and summary["ftl"].get("buffer_steps", 0) > 0:
        return ""
    if not moved or not moved <= uses:
        return "moved %s, the jobs use %s" % (sorted(moved), sorted(uses))
    for w in want:
        for option, kinds in LOGS.items():
            if option in w["logs"]:
                for kind in kinds:
                    name = "%s_%s%s.log" % (w["logs"][option], kind, ".%d" % (w["index"] + 1) if w["per_job_logs"] else "")
                    if not (out / name).exists():
                        return "no log %s" % name
    return ""


def run(folder, bin_dir, json_out, sources=SOURCES):
    entries = [e for e in json.loads(Path(sources).read_text())["files"] if not e.get("support")]
    outroot = Path(folder).resolve() / "_runs"
    outroot.mkdir(exist_ok=True)
    binary = Path(bin_dir).resolve() / "ssdtlm-generic"
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda e: run_one(binary, Path(folder).resolve(), e, outroot), entries))
    rows = [(e["file"], e["fio"], c, why) for e, (c, why) in zip(entries, results)]
    print_table(rows)
    if json_out:
        Path(json_out).write_text(json.dumps([dict(zip(("file", "fio", "class", "why"), r)) for r in rows], indent=1))
    return 0


def print_table(rows):
    runs = [r for r in rows if r[1] == "runs"]
    refusals = [r for r in rows if r[2].startswith("refused")]
    ok = sum(1 for r in runs if r[2] == "ran correctly")
    true = sum(1 for r in refusals if r[2] == "refused, true reason")
    lying = sum(1 for r in rows if r[2] == "success while commands failed")
    print("files %d; fio runs %d, of which ran correctly %d (%.0f %%); refusals %d, true reason %d (%.0f %%); "
          "success while commands failed %d" % (len(rows), len(runs), ok, 100.0 * ok / max(1, len(runs)),
                                                len(refusals), true, 100.0 * true / max(1, len(refusals)), lying))
    classes = {}
    for r in rows:
        classes[r[2]] = classes.get(r[2], 0) + 1
    print("\n| class | files |\n|---|---:|")
    for c, n in sorted(classes.items()):
        print("| %s | %d |" % (c, n))
    print("\n| file | fio | class | reason |\n|---|---|---|---|")
    for f, fio, c, why in rows:
        if c != "ran correctly":
            print("| `%s` | %s | %s | %s |" % (f, fio, c, why.replace("|", "\\|")[:200]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("dest")
    c.add_argument("--mirrors", default="/work/.mirror")
    r = sub.add_parser("run")
    r.add_argument("folder")
    r.add_argument("--bin", default=str(ROOT / "build" / "bin"))
    r.add_argument("--json")
    r.add_argument("--sources", default=str(SOURCES))
    a = ap.parse_args()
    if a.cmd == "collect":
        return collect(Path(a.dest), a.mirrors)
    return run(a.folder, a.bin, a.json, a.sources)


if __name__ == "__main__":
    sys.exit(main())
