#!/usr/bin/env python3
"""Seeds 002 and 000 on real programs' captures beside the app models (issue 41).

usage: python3 scripts/real_apps.py --captures DIR DIR DIR [--bin-dir DIR] [--out DIR] [--age F] [--doc FILE]
                                    [--part seed002|seed002_discard|seed000|contexts|all] [--hexa-age F] [--tpcc-ios N]
                                    [--apps rocksdb|sqlite|gcc ...]
       python3 scripts/real_apps.py --check [--part ...]   (the doc's tables against the cached outputs)

--captures: one folder per run of the programs (scripts/apps/capture_<app>.sh with SEED=41, 42, 43), each holding
<app>.cap; point i (sim.seed i) replays the i-th folder's capture, so the real side's spread is the programs' own
run-to-run spread. With fewer than three folders the real side is shown but not judged.

Seed 002 (--part seed002): for every application with a capture DIR/<app>.cap (scripts/apps/capture_<app>.sh:
rocksdb, sqlite, gcc), runs ssdtlm-pm963_streams (seed 002's drive, scaled to 2 GiB: geometry.channels=1,
dies_per_channel=2) with streams.assign = single (Baseline), manual (the write-life hints), autostream, pcstream:
  real program: workload.pattern=trace, workload.trace_format=capture, the capture; the file system aged with
                workload.capture_age_fraction=F (default 0.6) of long-lived files before the capture, no discard
                (workload.capture_discard=false, as the platform's workload.app.trim=false);
  app model:    workload.pattern=app, workload.app = lsm / sqlite / gcc (the model of that program), the platform's
                seed-002 state (aged by churn, warm-up, no TRIM) with workload.app.age_fraction=F (the 2 GiB drive
                cannot hold the lsm model at the seed's 90 %).
  --apps APP...: only those apps run (their captures in the folders); the others' rows come from the cached outputs.
Seed 002 with discard (--part seed002_discard): rocksdb's three captures replayed as above but with
workload.capture_discard=true (each deleted file's extents trimmed), Baseline, AutoStream and PCStream.
Seed 000 (--part seed000): FIFO against HEXA on platform hexa_femu (1 % of the map protected, one job at QD 32) on
DIR/pgbench.cap (scripts/apps/capture_pgbench.sh at its defaults) on the drive scaled to 2 GiB and used
(HEXA_REAL_DRIVE) with the buffers scaled with it (8 MiB and 128 MiB: HEXA_REAL_SCALE), the file system aged to
--hexa-age, beside the TPC-C model (workload.app=tpcc on 75 % of the seed's 16 GiB drive, --tpcc-ios timed I/Os)
with the seed's 64 MiB and 1 GiB buffers.
Contexts (--part contexts): the first folder's rocksdb, sqlite, gcc and pgbench captures (format version 2, with call
sites) replayed with PCStream, sim.seed 1 (rocksdb, sqlite, gcc as in seed 002; pgbench on seed 000's drive), each page's context taken from its own last writer
(workload.capture_pc_scope=page) and from its file's last write (inode): the write call sites against the contexts
PCStream received (issue 41's criterion; "met" when it received at least as many).
Every point runs with sim.seed 1, 2 and 3; each claim's effect is the mean over the seeds and its verdict comes from
scripts/studylib/verdict.py (the rule of every results table, docs/results/README.md) with the seeds' spread. With
--doc, the tables replace the text between <!-- real_apps table --> / <!-- /real_apps table --> and
<!-- real_apps hexa table --> / <!-- /real_apps hexa table --> of FILE.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from studylib import verdict  # noqa: E402
APPS = {"rocksdb": "lsm", "sqlite": "sqlite", "gcc": "gcc"}
POLICIES = ["single", "manual", "autostream", "pcstream"]
DRIVE = ["geometry.channels=1", "geometry.dies_per_channel=2"]
# Seed 002's text (docs/results/pcstream.md): PCStream's WAF vs Baseline and vs AutoStream.
CLAIMS = [("PCStream lowers WAF vs Baseline", "pcstream", "single", -0.63),
          ("PCStream lowers WAF vs AutoStream", "pcstream", "autostream", -0.49)]
SEEDS = [1, 2, 3]  # sim.seed of each point: the spread the verdict rule needs


def run(bin_dir, out, sets, platform="pm963_streams"):
    cmd = [str(bin_dir / f"ssdtlm-{platform}"), "--quiet", "--out", str(out)]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True)
    return json.loads((out / "summary.json").read_text())


def measure(args, app, model):
    """{side: {policy: [WAF per seed]}} for side model (the app model) and real (the capture), and the capture's
    program contexts and bytes."""
    waf = {"model": {p: [] for p in POLICIES}, "real": {p: [] for p in POLICIES}}
    extra = {}
    for pol in POLICIES:
        for i, seed in enumerate(SEEDS):
            real = replay(args, app, pol, i, seed, discard=False)
            waf["real"][pol].append(real["waf"]["total"])
            if pol == "pcstream":
                extra = {"distinct_pcs": real["capture"]["distinct_pcs"],
                         "distinct_pcs_issued": real["capture"]["distinct_pcs_issued"],
                         "host_bytes": real["host"]["bytes_written"],
                         "runs": len({capture(args, k, app).resolve() for k in range(len(SEEDS))})}
            m = run(args.bin_dir, args.out / f"{app}_model_{pol}_{seed}",
                    DRIVE + [f"streams.assign={pol}", f"workload.app={model}", f"workload.app.age_fraction={args.age}",
                             f"sim.seed={seed}"])
            waf["model"][pol].append(m["waf"]["total"])
    return waf, extra


def replay(args, app, pol, i, seed, discard, scope=None, extra=(), tag_extra=""):
    """summary.json of the i-th capture of app replayed with stream policy pol at sim.seed seed; discard: the
    capture's deletes reach the drive as trims (workload.capture_discard); scope: workload.capture_pc_scope (None:
    the default); extra: more settings, tag_extra naming their output folder."""
    tag = ("real_discard" if discard else "real") + (f"_{scope}" if scope else "") + tag_extra
    s = run(args.bin_dir, args.out / f"{app}_{tag}_{pol}_{seed}",
            DRIVE + [f"streams.assign={pol}", "workload.pattern=trace", "workload.trace_format=capture",
                     f"workload.trace_path={capture(args, i, app).resolve()}",
                     f"workload.capture_age_fraction={args.age}", f"workload.capture_discard={str(discard).lower()}",
                     f"sim.seed={seed}"] + ([f"workload.capture_pc_scope={scope}"] if scope else []) + list(extra))
    if s["integrity"]["errors"]:
        sys.exit(f"{app} {pol} seed {seed}: integrity errors in the replay")
    return s


# RocksDB's real run replayed with its deletes reaching the drive (docs/results/real_apps.md, the hypothesis that
# PCStream raises RocksDB's WAF because deleted SST files die on the drive only when their LBAs are reused).
DISCARD_APP = "rocksdb"
DISCARD_POLICIES = ["single", "autostream", "pcstream"]


def measure_discard(args):
    """{policy: [WAF per seed]} of the rocksdb captures replayed with workload.capture_discard=true."""
    for i in range(len(SEEDS)):
        if not capture(args, i, DISCARD_APP).exists():
            sys.exit(f"no {capture(args, i, DISCARD_APP)} (scripts/apps/capture_rocksdb.sh, NUM=1000000)")
    return {pol: [replay(args, DISCARD_APP, pol, i, seed, discard=True)["waf"]["total"]
                  for i, seed in enumerate(SEEDS)] for pol in DISCARD_POLICIES}


def discard_table(res):
    """policy | WAF (mean of seeds) | against Baseline (mean relative change and its spread)."""
    rows = []
    for pol in DISCARD_POLICIES:
        m, sd = effect(res[pol], res["single"])
        rows.append([pol, f"{mean(res[pol]):.3f}", "—" if pol == "single" else f"{m:+.2%} ± {sd:.2%}"])
    return verdict.markdown(["rocksdb, deletes as trims: policy", "WAF (mean of seeds)", "against Baseline"], rows)


# Issue 41: "PCStream on a real capture uses at least as many distinct program contexts as the program has write
# call sites that the capture saw". For each app's first capture (format version 2, which has the call sites),
# PCStream on seed 002's replay (sim.seed 1), with each page's own last writer's context (page, the default) and
# with its file's last write's (inode, where PCStream's kernel keeps it); and the experiment that tests why contexts
# are lost (docs/results/real_apps.md): the page scope with every dirty page written back at once (no dirty expiry,
# the flusher every millisecond), so no page dies in the page cache before the drive sees it.
CONTEXT_SCOPES = {"page": [], "inode": [],
                  "page, written back at once": ["workload.capture_dirty_expire_ms=0", "workload.capture_writeback_ms=1"]}


def contexts_point(args, app, variant):
    """summary.json of app's first capture replayed with PCStream at sim.seed 1 in one of CONTEXT_SCOPES' variants:
    on seed 002's drive (rocksdb, sqlite, gcc) or, for pgbench, on seed 000's (the same drive as its HEXA points,
    with seed 002's 8 streams and the FIFO buffer: HEXA's does not keep streams apart)."""
    scope, extra = variant.split(",")[0], CONTEXT_SCOPES[variant]
    tag = "_at_once" if extra else ""
    if app != "pgbench":
        return replay(args, app, "pcstream", 0, SEEDS[0], discard=False, scope=scope, extra=extra, tag_extra=tag)
    sets = hexa_sets("real", capture(args, 0, app), args.hexa_age, 0)
    return run(args.bin_dir, args.out / f"pgbench_real_{scope}{tag}_pcstream_{SEEDS[0]}",
               sets + ["buffer.policy=fifo", "streams.assign=pcstream", "streams.count=8",
                       f"workload.capture_pc_scope={scope}",
                       f"sim.seed={SEEDS[0]}"] + extra, platform="hexa_femu")


def measure_contexts(args):
    """{app: {scope: the capture's and PCStream's context counts}} for every app with a capture in the first folder."""
    out = {}
    for app in [*APPS, "pgbench"]:
        if not capture(args, 0, app).exists():
            continue
        out[app] = {}
        for scope in CONTEXT_SCOPES:
            s = contexts_point(args, app, scope)
            c, pc = s["capture"], s["streams"]["pcstream"]
            if c["write_call_sites"] is None:
                sys.exit(f"{capture(args, 0, app)}: a version 1 capture has no call sites (capture it again)")
            if s["integrity"]["errors"]:
                sys.exit(f"{app} contexts ({scope}): integrity errors in the replay")
            out[app][scope] = {"call_sites": c["write_call_sites"], "sites_issued": c["write_call_sites_issued"],
                               "contexts": c["distinct_pcs"],
                               "issued": c["distinct_pcs_issued"], "seen": pc["pcs_seen"], "known": pc["pcs_known"],
                               "lost": c["pcs_not_issued"], "waf": s["waf"]["total"]}
    if not out:
        sys.exit(f"no capture of {', '.join([*APPS, 'pgbench'])} in {args.captures[0]}")
    return out


def contexts_table(res):
    """app | scope | call sites (all / whose data reached the drive) | contexts | lost | WAF | the criterion against
    all call sites and against those whose data reached the drive."""
    rows = []
    for app, scopes in res.items():
        for scope, r in scopes.items():
            lost = r["lost"]
            rows.append([app, scope, f"{r['call_sites']:,} / {r['sites_issued']:,}",
                         f"{r['contexts']:,} / {r['issued']:,} / {r['seen']:,} / {r['known']:,}",
                         f"{lost['contexts']:,}: {lost['writes']:,} writes, {lost['write_bytes'] / 1e6:,.1f} MB",
                         f"{r['waf']:.3f}", "met" if r["seen"] >= r["call_sites"] else "not met",
                         "met" if r["seen"] >= r["sites_issued"] else "not met"])
    return verdict.markdown(["capture", "scope", "write call sites: all / whose data reached the drive",
                             "contexts: capture / on the drive / PCStream received / estimated",
                             "contexts no drive write carried: writes, bytes", "WAF",
                             "PCStream received >= all call sites", "... >= call sites whose data reached the drive"],
                            rows)


def capture(args, i, app):
    """Point i's capture of app: the i-th run's folder (the first when fewer were given: then not judged)."""
    return args.captures[i if i < len(args.captures) else 0] / f"{app}.cap"


def judged(side, runs):
    """Why a side is not judged, or None: the real side needs three runs of the program."""
    return "not judged: one run of the program" if side == "real" and runs < len(SEEDS) else None


def effect(per_seed_x, per_seed_y):
    """Mean relative change X/Y - 1 over the seeds and its spread (studylib.verdict.spread)."""
    e = [x / y - 1 for x, y in zip(per_seed_x, per_seed_y)]
    return sum(e) / len(e), verdict.spread(e)


def mean(xs):
    return sum(xs) / len(xs)


def table(results):
    """claim | paper | app model | real program, each side judged by studylib.verdict's rule."""
    rows = []
    for app, (waf, extra) in results.items():
        for name, x, y, p in CLAIMS:
            cells = [app, name, f"{p:+.0%}"]
            for side in ("model", "real"):
                if min(waf[side][x] + waf[side][y]) == 0:  # no NAND program: no WAF to compare
                    cells += ["n/a", "not judged: the drive programmed nothing"]
                    continue
                m, sd = effect(waf[side][x], waf[side][y])
                cells += [f"{m:+.1%} ± {sd:.1%}", judged(side, extra["runs"]) or verdict.judge(p, m, sd)]
            rows.append(cells)
    text = verdict.markdown(["app", "claim (seed 002)", "paper", "app model", "verdict (model)", "real program",
                             "verdict (real)"], rows)
    wafs = []
    for app, (waf, extra) in results.items():
        f = lambda d: " / ".join(f"{mean(d[p]):.3f}" for p in POLICIES)  # noqa: E731
        wafs.append([app, f(waf["model"]), f(waf["real"]), f"{extra['distinct_pcs']} / {extra['distinct_pcs_issued']}",
                     f"{extra['host_bytes'] / 1e9:.2f}"])
    return text + "\n" + verdict.markdown(
        ["app", "WAF Baseline / Manual / AutoStream / PCStream: app model", "real program",
         "real: program contexts (capture / reaching the drive)", "real: host GB written (the third run)"], wafs)


# Seed 000 (HEXA against FIFO, docs/results/hexa.md) on the captured PostgreSQL run beside the TPC-C model: platform
# hexa_femu (the seed's drive), the four systems of the seed's figure at 1 % of the map protected, one job at QD 32.
# The paper's TPC-C effects with the 1 GiB buffer (scripts/seed000_hexa.py PAPER): IOPS +5.6 %, WAF -3.0 %.
# The seed's buffers (policy, bytes); the claims are the larger buffer's.
HEXA_BUFFERS = [("fifo", 64 << 20), ("hexa", 64 << 20), ("fifo", 1 << 30), ("hexa", 1 << 30)]
HEXA_CLAIMS = [("HEXA raises IOPS (1 GiB buffer; 128 MiB on pgbench's scaled drive)", "iops", 0.056),
               ("HEXA lowers WAF (1 GiB buffer; 128 MiB on pgbench's scaled drive)", "waf", -0.030)]
HEXA_COMMON = ["jobs=[]", "host.queues=1", "host.queue_depth=32", "map.protected_ratio=0.01"]
# The pgbench side's drive, scaled so that what the buffer flushes exceeds the spare several times (GC must run for the
# claims to be tested): hexa_femu's geometry with the most of its 8 channels (2 GiB namespace and 0.5 GiB spare each)
# for which the program's writes are at least 4.4 times the spare: the earlier 10.1 GB runs' buffer flushed 0.45 of
# what the program wrote with FIFO and 1 GiB (4.56 GB), so flushes of twice the spare need writes of 4.4 times it.
# The 2.6 GB runs of capture_pgbench.sh's defaults (scale 30, 4 x 12,000 transactions): 2.4 times the spare of 2
# channels, 4.9 times that of 1, so 1 channel (2 GiB namespace, 0.5 GiB spare; the buffers scaled with it). The whole
# namespace is written first (a used drive), then the file system aged to --hexa-age (0.3: with pgbench's files,
# 0.96 GB at their largest, 45 % of the namespace, about 75 % in use, TPC-C's share). The TPC-C model keeps the seed's
# drive (16 GiB, its database 75 % of it). Set before any HEXA result of these runs was seen.
HEXA_REAL_CHANNELS = 1
HEXA_REAL_DRIVE = [f"geometry.channels={HEXA_REAL_CHANNELS}", "precondition.fill=true"]
# The pgbench side's buffers are scaled with its drive, as the drive was scaled: by the seed's namespace (hexa_femu's,
# the TPC-C side's) over the pgbench side's, the ratio of their channel counts (8 / 1: 16 GiB / 2 GiB), so 64 MiB and
# 1 GiB become 8 MiB and 128 MiB; the TPC-C side keeps the seed's. Why: with the seed's absolute 1 GiB, half of the
# 2 GiB namespace, pgbench's files (0.96 GB at their largest) fit in the buffer, which flushed nothing in any run, so
# the 1 GiB claims were not tested (the degenerate run of docs/results/real_apps.md's previous seed-000 table). Set
# before any point of the scaled buffers was run.
HEXA_SEED_CHANNELS = json.loads((ROOT / "platforms" / "hexa_femu" / "config.json").read_text())["geometry"]["channels"]
HEXA_REAL_SCALE = HEXA_SEED_CHANNELS // HEXA_REAL_CHANNELS


def hexa_systems(side):
    """[(name, policy, buffer bytes)] of a side: the seed's buffers, divided by HEXA_REAL_SCALE on the pgbench side
    (the names say the size the side runs: F-64M ... H-1G on the TPC-C side, F-8M ... H-128M on pgbench's)."""
    scale = HEXA_REAL_SCALE if side == "real" else 1
    return [(f"{policy[0].upper()}-{size_name(size // scale)}", policy, size // scale) for policy, size in HEXA_BUFFERS]


def size_name(size):
    return f"{size >> 30}G" if size >= 1 << 30 else f"{size >> 20}M"


def hexa_sets(kind, capture, age, ios):
    """The settings of one side: the pgbench capture replayed on a file system aged to `age`, or the TPC-C model."""
    if kind == "real":
        return HEXA_COMMON + HEXA_REAL_DRIVE + ["workload.pattern=trace", "workload.trace_format=capture",
                              f"workload.trace_path={capture.resolve()}", f"workload.capture_age_fraction={age}",
                              "precondition.drive_writes=0"]
    return HEXA_COMMON + ["precondition.fill=false", "workload.pattern=app", "workload.app=tpcc", "workload.app.tpcc_db_fraction=0.75",
                          "workload.app.age_fraction=0", f"workload.io_count={ios}", "precondition.drive_writes=1"]


def measure_hexa(args):
    """{side: {system: [summary per seed]}} for side real (pgbench) and model (TPC-C), and "runs": the pgbench runs."""
    out = {"runs": len({capture(args, k, "pgbench").resolve() for k in range(len(SEEDS))})}
    for side in ("real", "model"):
        out[side] = {}
        for name, policy, size in hexa_systems(side):
            out[side][name] = []
            for i, seed in enumerate(SEEDS):
                s = run(args.bin_dir, args.out / f"hexa_{side}_{name}_{seed}",
                        hexa_sets(side, capture(args, i, "pgbench"), args.hexa_age, args.tpcc_ios) +
                        [f"buffer.policy={policy}", f"buffer.bytes={size}", f"sim.seed={seed}"],
                        platform="hexa_femu")
                if s["integrity"]["errors"]:
                    sys.exit(f"seed 000 {side} {name} seed {seed}: integrity errors")
                out[side][name].append({"iops": s["host"]["iops"], "waf": s["waf"]["total"],
                                        "gc_waf": s["waf"]["gud"] + s["waf"]["gmd"],
                                        "host_bytes": s["host"]["bytes_written"],
                                        "flushed_bytes": s["ftl"]["flushed_units"] * 4096})  # 4 KiB units
    return out


def hexa_table(res):
    """claim | paper | TPC-C model | pgbench | verdicts (studylib.verdict's rule over the seeds' spread)."""
    rows = []
    for claim, key, paper in HEXA_CLAIMS:
        cells = [claim, f"{paper:+.1%}"]
        for side in ("model", "real"):
            (f_name, _, _), (h_name, _, _) = hexa_systems(side)[2:]  # the larger buffer's FIFO and HEXA
            h, f = [r[key] for r in res[side][h_name]], [r[key] for r in res[side][f_name]]
            flushed = [r["flushed_bytes"] for r in res[side][h_name] + res[side][f_name]]
            if max(flushed) == 0:  # every page stayed in the buffer: the policies never chose what to flush
                cells += ["n/a", "not judged: the buffer flushed nothing"]
                continue
            if min(h + f) == 0:  # WAF without a NAND program: nothing to compare
                cells += ["n/a", "not judged: the drive programmed nothing"]
                continue
            m, sd = effect(h, f)
            cells += [f"{m:+.1%} ± {sd:.1%}", judged(side, res["runs"]) or verdict.judge(paper, m, sd)]
        rows.append(cells)
    text = verdict.markdown(["claim (seed 000, TPC-C)", "paper", "TPC-C model", "verdict (model)", "pgbench capture",
                             "verdict (pgbench)"], rows)
    sysrows = []
    for side, label in (("model", "TPC-C model"), ("real", "pgbench capture")):
        for name, _, _ in hexa_systems(side):
            avg = lambda k: mean([r[k] for r in res[side][name]])  # noqa: E731
            sysrows.append([label, name, f"{avg('iops') / 1e3:.1f}", f"{avg('waf'):.3f}", f"{avg('gc_waf'):.3f}",
                            f"{avg('host_bytes') / 1e9:.2f}", f"{avg('flushed_bytes') / 1e9:.2f}"])
    return text + "\n" + verdict.markdown(["workload", "system", "IOPS (k, mean of seeds)", "WAF",
                                           "of it GC copies (WAF gud + gmd)", "host GB written",
                                           "GB the buffer flushed"], sysrows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--captures", type=Path, nargs="+",
                    help="one folder per run of the programs, three for a verdict (required unless --check)")
    ap.add_argument("--bin-dir", type=Path, default=ROOT / "build" / "bin")
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "real_apps")
    # 0.6: the 1 M-key RocksDB capture (capture_rocksdb.sh NUM=1000000) needs more than the 410 MiB an aging of 0.8
    # leaves on the 2 GiB drive (its replay stops: "the file layer needs 18 MiB more"); set before any WAF was seen.
    ap.add_argument("--age", type=float, default=0.6)
    ap.add_argument("--doc", type=Path)
    ap.add_argument("--part", choices=["seed002", "seed002_discard", "seed000", "contexts", "all"], default="all",
                    help="seed002: the stream assignments on rocksdb/sqlite/gcc; seed002_discard: rocksdb's captures "
                         "with their deletes as trims; seed000: HEXA on pgbench; contexts: PCStream's contexts "
                         "against the write call sites of the first folder's captures")
    ap.add_argument("--hexa-age", type=float, default=0.3,
                    help="seed000: the file system aged to this share before the pgbench capture (with pgbench's "
                         "files about TPC-C's 75 %% of the scaled drive, HEXA_REAL_DRIVE)")
    ap.add_argument("--tpcc-ios", type=int, default=3000000, help="seed000: timed I/Os of the TPC-C model")
    ap.add_argument("--apps", nargs="+", choices=sorted(APPS),
                    help="seed002: run only these apps; the other apps' rows are kept from the cached outputs")
    ap.add_argument("--check", action="store_true",
                    help="recompute the tables from the cached outputs (docs/figures/real_apps_*.json) and fail "
                         "when the doc's differ (a verdict typed by hand); runs nothing")
    args = ap.parse_args()
    doc = args.doc or DOC
    parts = [(name, part) for name, part in PARTS.items() if args.part in (name, "all")]
    if args.check:
        bad = 0
        for name, part in parts:
            if part["markers"][0] not in doc.read_text():
                continue
            if not part["cache"].exists():
                print(f"{doc}: the {name} table has no cached outputs ({part['cache']}): run the points")
                bad += 1
            elif block_of(doc, part["markers"]) != part["table"](json.loads(part["cache"].read_text())).strip("\n"):
                print(f"{doc}: the {name} table differs from the one computed from {part['cache']}")
                bad += 1
        return 1 if bad else 0
    if not args.captures:
        ap.error("--captures DIR is required to run the points")
    args.out.mkdir(parents=True, exist_ok=True)
    for name, part in parts:
        res = part["measure"](args)
        part["cache"].write_text(json.dumps(res, indent=1) + "\n")
        text = part["table"](res)
        print(text)
        if args.doc:
            write_block(doc, part["markers"], text)
    return 0


def measure_seed002(args):
    """{app: (waf, extra)} for every app with a capture in the first folder; with --apps only those apps are run and
    the other apps' rows are taken unchanged from the cached outputs (docs/figures/real_apps_seed002.json)."""
    apps = {app: model for app, model in APPS.items() if (args.captures[0] / f"{app}.cap").exists()
            and (not args.apps or app in args.apps)}
    missing = [str(capture(args, i, app)) for app in apps for i in range(len(SEEDS)) if not capture(args, i, app).exists()]
    if missing:
        sys.exit("missing captures: " + ", ".join(missing))
    if not apps:
        sys.exit(f"no capture of {args.apps or 'any app'} in {args.captures[0]} (scripts/apps/capture_<app>.sh)")
    cached = json.loads(PARTS["seed002"]["cache"].read_text()) if args.apps else {}
    return {app: measure(args, app, APPS[app]) if app in apps else cached[app] for app in APPS
            if app in apps or app in cached}


def measure_seed000(args):
    for i in range(len(SEEDS)):
        if not capture(args, i, "pgbench").exists():
            sys.exit(f"no {capture(args, i, 'pgbench')} (scripts/apps/capture_pgbench.sh)")
    return measure_hexa(args)


DOC = ROOT / "docs" / "results" / "real_apps.md"
PARTS = {
    "seed002": {"measure": measure_seed002, "table": table,
                "cache": ROOT / "docs" / "figures" / "real_apps_seed002.json",
                "markers": ("<!-- real_apps table -->", "<!-- /real_apps table -->")},
    "seed002_discard": {"measure": measure_discard, "table": discard_table,
                        "cache": ROOT / "docs" / "figures" / "real_apps_seed002_discard.json",
                        "markers": ("<!-- real_apps discard table -->", "<!-- /real_apps discard table -->")},
    "seed000": {"measure": measure_seed000, "table": hexa_table,
                "cache": ROOT / "docs" / "figures" / "real_apps_seed000.json",
                "markers": ("<!-- real_apps hexa table -->", "<!-- /real_apps hexa table -->")},
    "contexts": {"measure": measure_contexts, "table": contexts_table,
                 "cache": ROOT / "docs" / "figures" / "real_apps_contexts.json",
                 "markers": ("<!-- real_apps contexts table -->", "<!-- /real_apps contexts table -->")},
}


def block_of(doc_path, markers):
    doc = doc_path.read_text()
    i, j = doc.index(markers[0]) + len(markers[0]), doc.index(markers[1])
    return doc[i:j].strip("\n")


def write_block(doc_path, markers, text):
    """Replaces the text between the markers of doc_path."""
    doc = doc_path.read_text()
    i, j = doc.index(markers[0]) + len(markers[0]), doc.index(markers[1])
    doc_path.write_text(doc[:i] + "\n" + text + "\n" + doc[j:])


if __name__ == "__main__":
    sys.exit(main())
