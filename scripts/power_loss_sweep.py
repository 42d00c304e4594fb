#!/usr/bin/python3
"""Power loss and recovery on platform `generic` (16 GiB, 64 dies): recovery time and lost writes against buffer
protection, the protected share of the map, the mapping scheme, the buffer size and the capacitor energy.
Prints the markdown table of docs/reference/power_loss.md.

usage: python3 scripts/power_loss_sweep.py [--bin build/bin/ssdtlm-generic] [--ios N] [--losses N]
"""
import argparse
import json
import os
import subprocess
import tempfile

BASE = ["--set", "workload.read_fraction=0.5", "--set", "host.queues=8", "--set", "host.queue_depth=8",
        "--set", "precondition.drive_writes=1"]
DFTL = ["--set", "ftl.mapping=dftl", "--set", "map.cache_bytes=%d" % (16 * 2**20 // 5)]  # 20 % of the map cached
ROWS = [
    ("page, ratio 1, buffer protected", []),
    ("page, ratio 1, buffer unprotected", ["--set", "buffer.power_protected=false"]),
    ("page, ratio 0.5", ["--set", "map.protected_ratio=0.5"]),
    ("page, ratio 0.1", ["--set", "map.protected_ratio=0.1"]),
    ("page, ratio 0.03", ["--set", "map.protected_ratio=0.03"]),
    ("page, ratio 0.01", ["--set", "map.protected_ratio=0.01"]),
    ("page, ratio 0.01, hexa", ["--set", "map.protected_ratio=0.01", "--set", "buffer.policy=hexa"]),
    ("page, ratio 0.01, 2 MiB saved", ["--set", "map.protected_ratio=0.01", "--set", "buffer.power_protected=false",
                                       "--set", "power.protected_bytes=2M"]),
    ("page, ratio 0.01, 64 KiB saved", ["--set", "map.protected_ratio=0.01", "--set", "buffer.power_protected=false",
                                        "--set", "power.protected_bytes=64k"]),
    ("page, ratio 1, 16 MiB buffer", ["--set", "buffer.bytes=16M"]),
    ("page, ratio 1, 256 MiB buffer", ["--set", "buffer.bytes=256M"]),
    ("dftl (20 % cached), ratio 1", DFTL),
    ("dftl (20 % cached), ratio 0.01", DFTL + ["--set", "map.protected_ratio=0.01"]),
    ("dftl (20 % cached), buffer unprotected", DFTL + ["--set", "buffer.power_protected=false"]),
]


def run(binary, args, ios, losses, window_ms):
    with tempfile.TemporaryDirectory() as out:
        cmd = [binary, "--quiet", "--out", out] + BASE + args + [
            "--set", "workload.io_count=%d" % ios, "--set", "fault.power_loss_count=%d" % losses,
            "--set", "fault.power_loss_window_ms=%g" % window_ms]
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "summary.json")) as f:
            return json.load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "build", "bin", "ssdtlm-generic"))
    ap.add_argument("--ios", type=int, default=300000)
    ap.add_argument("--losses", type=int, default=10)
    ap.add_argument("--window-ms", type=float, default=1000)
    a = ap.parse_args()
    print("| configuration | losses | recovery ms (mean / max) | dump KiB (mean) | dump ms (mean) | pages scanned (mean) "
          "| segments read (mean) | units replayed | lost acknowledged | buffered at loss | integrity errors |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, args in ROWS:
        s = run(a.bin, args, a.ios, a.losses, a.window_ms)
        r = s["recovery"]
        n = max(1, r["power_losses"])
        ev = r["events"]
        print("| %s | %d | %.2f / %.2f | %.0f | %.2f | %.0f | %.0f | %d | %d | %d | %d |" % (
            name, r["power_losses"], r["time_ms"] / n, r["max_time_ms"],
            sum(e["dump_bytes"] for e in ev) / n / 1024, r["dump_ms"] / n, r["pages_scanned"] / n,
            r["segments_read"] / n, r["units_replayed"], r["lost_acknowledged_writes"], r["buffer_units"],
            s["integrity"]["errors"]), flush=True)


if __name__ == "__main__":
    main()
