"""Fixtures for the study engine's tests: the platform executable, a tiny study, and a runner for the scripts.

The executable comes from $SSDTLM_BIN_DIR (default build/bin, which scripts/test.sh builds). Every point is a tiny
run (2000 I/Os on a 4-die drive without preconditioning), a few milliseconds each.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
sys.path.insert(0, str(SCRIPTS))

def load_script(name, module=None):
    """scripts/<name>.py imported as a module (its functions called directly, without running its main)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(module or name + "_script", SCRIPTS / (name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


TINY = {
    "workload.io_count": 2000, "precondition.fill": False, "precondition.drive_writes": 0,
    "geometry.channels": 2, "geometry.dies_per_channel": 2, "geometry.blocks_per_plane": 64,
    "geometry.pages_per_block": 64, "host.queues": 1, "workload.block_bytes": 4096,
}


def tiny_study(**changes):
    """4 points: host.queue_depth (1, 8) x size (small: the base block size; large: 64 KiB)."""
    doc = {
        "name": "tiny",
        "platform": "generic",
        "set": dict(TINY),
        "sweep": {"host.queue_depth": [1, 8],
                  "size": {"small": {}, "large": {"workload.block_bytes": 65536}}},
        "figures": [{"name": "iops", "x": "host.queue_depth", "lines": "size",
                     "y": ["host.iops", "host.latency_us.write.p99"]}],
    }
    for k, v in changes.items():
        doc[k] = v
    return doc


@pytest.fixture(scope="session")
def bin_dir():
    d = Path(os.environ.get("SSDTLM_BIN_DIR") or ROOT / "build" / "bin").resolve()
    if not (d / "ssdtlm-generic").is_file():
        pytest.fail("%s/ssdtlm-generic not found: build first (bash scripts/build.sh) or set SSDTLM_BIN_DIR" % d,
                    pytrace=False)
    return d


class Runner:
    def __init__(self, bin_dir):
        self.bin_dir = bin_dir

    def write(self, path, doc):
        path = Path(path)
        path.write_text(json.dumps(doc, indent=2))
        return path

    def study(self, *args, timeout=240):
        return self.script("study.py", *args, timeout=timeout)

    def script(self, name, *args, timeout=240):
        env = dict(os.environ, SSDTLM_BIN_DIR=str(self.bin_dir))
        env.pop("SSDTLM_CACHE", None)
        cmd = [sys.executable, str(SCRIPTS / name)] + [str(a) for a in args]
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                              timeout=timeout, cwd=ROOT)


@pytest.fixture(scope="session")
def runner(bin_dir):
    return Runner(bin_dir)
