#!/usr/bin/python3
"""CPU seconds of the request phase, side by side: per variant, the process CPU of a run minus that of the same run
with 1 I/O (the same preconditioning), variants alternated round by round (the order reversed every other round),
the median over the rounds. On a shared machine CPU seconds are steadier than wall time. The drive is bench.py's
(platform generic, 25 % spare, greedy) unless the settings say otherwise.

usage: /usr/bin/python3 bench/request_cpu.py ROUNDS IOS NAME=BINARY[:key=value,key=value...] ...
e.g.   bench/request_cpu.py 3 1000000 base=old/ssdtlm-generic:check.integrity=true new=build/bin/ssdtlm-generic:check.integrity=true
Prints each run, then per variant its median request-phase CPU seconds and the ratio to the first variant.
"""
import os, resource, subprocess, sys, tempfile, json
BASE = ["--set", "geometry.over_provisioning=0.25", "--set", "ftl.gc_victim=greedy"]
def run(binary, args, ios):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([binary, "--quiet", "--out", out] + BASE + args + ["--set", "workload.io_count=%d" % ios],
                       check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
        s = json.load(open(os.path.join(out, "summary.json")))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, s
rep, ios = int(sys.argv[1]), int(sys.argv[2])
variants = []
for v in sys.argv[3:]:
    name, rest = v.split("=", 1)
    binary, _, extra = rest.partition(":")
    args = []
    for kv in filter(None, extra.split(",")):
        args += ["--set", kv]
    variants.append((name, binary, args))
res = {n: [] for n, _, _ in variants}
for i in range(rep):
    order = variants if i % 2 == 0 else variants[::-1]
    for n, b, a in order:
        full, s = run(b, a, ios)
        pre, _ = run(b, a, 1)
        res[n].append((full - pre, full, s["wall_time_s"]))
        print(n, "timed cpu %.3f full cpu %.3f wall %.3f" % res[n][-1], flush=True)
med = lambda xs: sorted(xs)[len(xs) // 2]
ref = None
for n, _, _ in variants:
    t = med([x[0] for x in res[n]])
    ref = ref or t
    print("%-20s timed-phase cpu %.3f s  (x%.3f of first)  %.0f host I/Os per cpu s" % (n, t, t / ref, ios / t))
