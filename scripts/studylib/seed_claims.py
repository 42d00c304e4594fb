"""The claims of seeds 000-003 (issue 43): each claim's paper effect (from the seed's text, fixed here before the
spread studies ran) and our effect on each seed, read from the compact spread tables in docs/figures/ that
`scripts/verdicts.py --collect` writes from studies/seedNNN_spread.json. The rule: studylib/verdict.py.

Each function returns (claims, settings): settings are the columns of the table, the platform's default first.
"""
from .claims import Claim, load, per_seed, percentile_from_cdf

DEFAULT = "default"

# ---- seed 000: HEXA against FIFO, platform hexa_femu (studies/seed000_spread.json) --------------------------------
SEED000_KEYS = ["workload", "policy", "map.protected_ratio"]
SEED000_METRICS = {"iops": "host.iops", "waf": "waf.total", "md": "waf.md", "gmd": "waf.gmd", "ud": "waf.ud",
                   "host_bytes": "host.bytes_written", "flushed_units": "ftl.flushed_units",
                   "absorbed": "ftl.buffer_absorbed_writes"}


def seed000_claims(path):
    t = load(path, SEED000_KEYS)

    def rel(workload, ratio, metric, policy="H"):
        return per_seed(t, lambda row, s: row(workload, policy, ratio)[metric] / row(workload, "F", ratio)[metric] - 1)

    low = "seed 000: 1 GiB buffer, mean over 1, 2 and 5 %% protected: %s (ours: 1 %% protected)"
    claims = [
        Claim("RAND, 1 % protected, 1 GiB: HEXA lowers WAF", "seed 000: WAF 2.3 -> 1.5", 1.5 / 2.3 - 1, "rel",
              {DEFAULT: rel("RAND", 0.01, "waf")}),
        Claim("RAND, 1 % protected, 1 GiB: HEXA raises IOPS", "seed 000: +42.7 %", 0.427, "rel",
              {DEFAULT: rel("RAND", 0.01, "iops")}),
        Claim("JESD, low protection, 1 GiB: HEXA raises IOPS (less than on RAND)", low % "+10 %", 0.10, "rel",
              {DEFAULT: rel("JESD", 0.01, "iops")}),
        Claim("JESD, low protection, 1 GiB: HEXA lowers WAF", low % "-11.3 %", -0.113, "rel",
              {DEFAULT: rel("JESD", 0.01, "waf")}),
        Claim("TPC-C, low protection, 1 GiB: HEXA raises IOPS (least)", low % "+5.6 %", 0.056, "rel",
              {DEFAULT: rel("TPC-C", 0.01, "iops")}),
        Claim("TPC-C, low protection, 1 GiB: HEXA lowers WAF", low % "-3 %", -0.03, "rel",
              {DEFAULT: rel("TPC-C", 0.01, "waf")}),
        Claim("TPC-C under FIFO: map writes are a small share of the traffic (1 % protected, 1 GiB)",
              "seed 000: about 5 %", 0.05, "share",
              {DEFAULT: per_seed(t, lambda row, s: (row("TPC-C", "F", 0.01)["md"] + row("TPC-C", "F", 0.01)["gmd"])
                                 / row("TPC-C", "F", 0.01)["waf"])}),
    ]
    for w in ("RAND", "JESD", "TPC-C"):
        claims.append(Claim("%s, 100 %% protected, 1 GiB: HEXA (reordering at every ratio, hexa_always) has slightly "
                            "lower IOPS than FIFO" % w, "seed 000: slightly lower IOPS at >= 50 %", -1, "rel",
                            {DEFAULT: rel(w, 1.0, "iops", "HA")}, sized=False))
    return claims, [DEFAULT]


# ---- seed 001: PTSD against DFTL and OPT, platform ptsd_board (studies/seed001_spread.json) ------------------------
SEED001_KEYS = ["scheme"]
SEED001_METRICS = {
    "run_iops": "host.iops", "write_iops": "jobs.0.iops",
    "read_mean": "jobs.1.latency_us.read.mean", "read_p50": "jobs.1.latency_us.read.p50",
    "read_p99": "jobs.1.latency_us.read.p99",
    "map_read_us": "jobs.1.read_paths.map_read.mean_us", "map_write_us": "jobs.1.read_paths.map_write.mean_us",
    "gc_wait_us": "jobs.1.read_paths.gc_wait.mean_us",
}


def seed001_per_run(run_dir):
    """p80 of the reads: not in summary.json, read off the run's latency histogram (the read job holds all reads)."""
    return {"read_p80": percentile_from_cdf(run_dir, "read", 0.80)}


def seed001_claims(path):
    t = load(path, SEED001_KEYS)

    def rel(a, b, metric):
        return per_seed(t, lambda row, s: row(a)[metric] / row(b)[metric] - 1)

    def level(scheme, metric):
        return per_seed(t, lambda row, s: row(scheme)[metric])

    others = ["DFTL", "PART", "PART-SCHED", "WRITEOPT"]
    claims = [
        Claim("Fig 4: a DFTL read that only reads a map page takes about 0.8 ms (mean of such reads)",
              "seed 001 Fig 4: ~0.8 ms", 800, "us", {DEFAULT: level("DFTL", "map_read_us")}),
        Claim("Fig 4: a DFTL read that waits for a map write takes 0.8-10 ms (mean of such reads)",
              "seed 001 Fig 4: 0.8-10 ms (the middle taken)", 5400, "us", {DEFAULT: level("DFTL", "map_write_us")}),
        Claim("Fig 4: a DFTL read delayed by GC takes more than 10 ms (mean of such reads)",
              "seed 001 Fig 4: > 10 ms (the bound taken)", 10000, "us", {DEFAULT: level("DFTL", "gc_wait_us")}),
        Claim("Fig 9: PART pulls DFTL's read latencies forward (read mean)", "seed 001 Fig 9: 'a lot'", -1, "rel",
              {DEFAULT: rel("PART", "DFTL", "read_mean")}, sized=False),
        Claim("Fig 9: up to p90 PART pays one read more than OPT, > 140 µs (p50 difference)",
              "seed 001 Fig 9: > 140 µs (the bound taken)", 140, "us",
              {DEFAULT: per_seed(t, lambda row, s: row("PART")["read_p50"] - row("OPT")["read_p50"])}),
        Claim("Fig 9: PART barely changes DFTL's tail (read p99)", "seed 001 Fig 9: almost no effect", 0, "rel",
              {DEFAULT: rel("PART", "DFTL", "read_p99")}),
        Claim("Fig 10a: PART-SCHED's read mean slightly below PART's", "seed 001 Fig 10a: slightly", -1, "rel",
              {DEFAULT: rel("PART-SCHED", "PART", "read_mean")}, sized=False),
        Claim("Fig 10b: from p80 PART-SCHED's read latency clearly below PART's (p80)", "seed 001 Fig 10b: clearly",
              -1, "rel", {DEFAULT: rel("PART-SCHED", "PART", "read_p80")}, sized=False),
        Claim("Fig 11: the read-latency distribution moves forward with PTSD (PART-SCHED against DFTL, p50)",
              "seed 001 Fig 11", -1, "rel", {DEFAULT: rel("PART-SCHED", "DFTL", "read_p50")}, sized=False),
        Claim("Fig 12: OPT is fastest (whole run, against the fastest other scheme)", "seed 001 Fig 12", 1, "rel",
              {DEFAULT: per_seed(t, lambda row, s: row("OPT")["run_iops"] / max(row(o)["run_iops"] for o in others)
                                 - 1)}, sized=False),
        Claim("Fig 12: PART-SCHED a little slower than PART (whole run)", "seed 001 Fig 12: a little", -1, "rel",
              {DEFAULT: rel("PART-SCHED", "PART", "run_iops")}, sized=False),
        Claim("Fig 12: WRITEOPT about 10 % above PART-SCHED (whole run)", "seed 001 Fig 12: ~+10 %", 0.10, "rel",
              {DEFAULT: rel("WRITEOPT", "PART-SCHED", "run_iops")}),
        Claim("Fig 12: the non-OPT schemes are close (fastest / slowest - 1, whole run)",
              "seed 001 Fig 12: close (no difference taken)", 0, "rel",
              {DEFAULT: per_seed(t, lambda row, s: max(row(o)["run_iops"] for o in others)
                                 / min(row(o)["run_iops"] for o in others) - 1)}),
        Claim("Conclusion: PTSD about 1.15x DFTL, if PTSD is WRITEOPT (whole run)", "seed 001: 1.15x", 0.15, "rel",
              {DEFAULT: rel("WRITEOPT", "DFTL", "run_iops")}),
        Claim("Conclusion: PTSD about 1.15x DFTL, if PTSD is PART-SCHED (whole run)", "seed 001: 1.15x", 0.15, "rel",
              {DEFAULT: rel("PART-SCHED", "DFTL", "run_iops")}),
    ]
    return claims, [DEFAULT]


# ---- seed 002: PCStream, platform pm963_streams (studies/seed002_spread.json) --------------------------------------
SEED002_KEYS = ["run"]
SEED002_METRICS = {"iops": "host.iops", "waf": "waf.total", "stream0_share": "streams.default_fraction"}
SEED002_APPS = ["lsm", "sqlite", "gcc", "mixed1", "mixed2"]


def seed002_claims(path):
    t = load(path, SEED002_KEYS)

    def mean_rel(a, b, metric):
        return per_seed(t, lambda row, s: sum(row("%s %s" % (app, a))[metric] / row("%s %s" % (app, b))[metric] - 1
                                              for app in SEED002_APPS) / len(SEED002_APPS))

    mean5 = "seed 002: %s, mean of its 5 workloads"
    claims = [
        Claim("PCStream lowers WAF against Baseline (mean of 5 workloads)", mean5 % "-63 %", -0.63, "rel",
              {DEFAULT: mean_rel("pcstream", "single", "waf")}),
        Claim("PCStream lowers WAF against AutoStream (mean of 5 workloads)", mean5 % "-49 %", -0.49, "rel",
              {DEFAULT: mean_rel("pcstream", "autostream", "waf")}),
        Claim("PCStream raises IOPS against Baseline (mean of 5 workloads)", mean5 % "+45 %", 0.45, "rel",
              {DEFAULT: mean_rel("pcstream", "single", "iops")}),
        Claim("PCStream raises IOPS against AutoStream (mean of 5 workloads)", mean5 % "+28 %", 0.28, "rel",
              {DEFAULT: mean_rel("pcstream", "autostream", "iops")}),
        Claim("gcc, PC-stream table emptied per build: share of writes to stream 0",
              "seed 002: 16 % without the table", 0.16, "share",
              {DEFAULT: per_seed(t, lambda row, s: row("gcc pctable per_build")["stream0_share"])}),
        Claim("gcc: keeping the 16 KiB PC-stream table lowers WAF (internal streams on)",
              "seed 002: 1.96 -> 1.54", 1.54 / 1.96 - 1, "rel",
              {DEFAULT: per_seed(t, lambda row, s: row("gcc pctable 16384")["waf"]
                                 / row("gcc pctable per_build")["waf"] - 1)}),
    ]
    return claims, [DEFAULT]


# ---- seed 003: map cache and segment size, platform mapcache_iozone (studies/seed003_spread.json) ------------------
SEED003_KEYS = ["map.entry_bytes", "map.segment_bytes", "map.cache_bytes"]
SEED003_METRICS = {"hit": "map.hit_ratio", "iops": "host.iops", "gtd": "map.gtd_bytes"}
SEED003_SETTINGS = {"4-byte entries": 4, "2-byte entries": 2}


def seed003_claims(path):
    t = load(path, SEED003_KEYS)

    def ours(effect):
        return {g: per_seed(t, lambda row, s: effect(lambda seg, cache: row(e, seg, cache))) for g, e in
                SEED003_SETTINGS.items()}

    hit = "seed 003: %s hit at %s cache, 2 KiB segment"
    claims = [
        Claim("hit rate at 8 KiB cache (2 KiB segment)", hit % ("1.6 %", "8 KiB"), 0.016, "share",
              ours(lambda row: row(2048, 8192)["hit"])),
        Claim("hit rate at 256 KiB cache (2 KiB segment)", hit % ("50.1 %", "256 KiB"), 0.501, "share",
              ours(lambda row: row(2048, 262144)["hit"])),
        Claim("hit rate at 512 KiB cache: the whole map fits (2 KiB segment)", hit % ("100 %", "512 KiB"), 1.0,
              "share", ours(lambda row: row(2048, 524288)["hit"])),
        Claim("random-read IOPS at 8 KiB cache (2 KiB segment, QD 1)", "seed 003: 5,822", 5822, "iops",
              ours(lambda row: row(2048, 8192)["iops"])),
        Claim("at 8 KiB cache 1 KiB segments give more IOPS than 8 KiB segments", "seed 003: 5,904 against 4,803",
              5904 / 4803 - 1, "rel", ours(lambda row: row(1024, 8192)["iops"] / row(8192, 8192)["iops"] - 1)),
        Claim("IOPS rise steeply when the whole map fits (512 KiB against 256 KiB, 2 KiB segment)",
              "seed 003: 7,547 -> 10,860", 10860 / 7547 - 1, "rel",
              ours(lambda row: row(2048, 524288)["iops"] / row(2048, 262144)["iops"] - 1)),
        Claim("GTD halves with each doubling of the segment (GTD at 1 KiB / at 8 KiB)",
              "seed 003: 60,960 / 7,620 B", 60960 / 7620, "x",
              ours(lambda row: row(1024, 8192)["gtd"] / row(8192, 8192)["gtd"])),
    ]
    return claims, list(SEED003_SETTINGS)
