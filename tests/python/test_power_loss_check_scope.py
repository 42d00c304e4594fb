"""The recovery check after each power loss compares only the LPNs that changed since the last loss (and the buffered
ones) by default (fault.power_loss_check=changed); fault.power_loss_check=all compares every LPN. Both must give the
same run, field for field, with 20 losses over map schemes, buffer policies and protection: the LPNs left out are
those whose map entry, durable copy and acknowledged version the previous loss (or the preconditioning) left
verified."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "scripts"))
from golden_summaries import flatten  # noqa: E402  (the results-identity field filter)

DRIVE = ["geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
         "geometry.pages_per_block=64", "geometry.page_bytes=4096", "buffer.bytes=1M", "workload.io_count=60000",
         "workload.read_fraction=0.3", "map.segment_bytes=4k", "fault.power_loss_count=20",
         "fault.power_loss_window_ms=4000"]
CASES = {
    "page-fifo-protected": [],
    "page-hexa-unprotected": ["buffer.policy=hexa", "buffer.power_protected=false"],
    "page-map-1pc-protected": ["map.protected_ratio=0.01"],
    "dftl-fifo": ["ftl.mapping=dftl", "map.cache_bytes=16k"],
    "ptsd-hexa-unprotected": ["ftl.mapping=ptsd", "map.cache_bytes=16k", "buffer.policy=hexa",
                              "buffer.power_protected=false"],
}


def run(bin_dir, out, sets):
    args = [str(bin_dir / "ssdtlm-generic"), "--quiet", "--out", str(out)]
    for s in sets:
        args += ["--set", s]
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads((out / "summary.json").read_text())


@pytest.mark.parametrize("case", sorted(CASES))
def test_changed_lpns_check_gives_the_whole_space_check_result(bin_dir, tmp_path, case):
    sets = DRIVE + CASES[case]
    changed = run(bin_dir, tmp_path / "changed", sets)
    whole = run(bin_dir, tmp_path / "all", sets + ["fault.power_loss_check=all"])
    assert changed["recovery"]["power_losses"] == 20
    assert changed["integrity"]["errors"] == 0, changed["integrity"]["first_error"]
    assert changed["recovery"]["mismatches"] == 0
    a, b = flatten(changed), flatten(whole)
    differ = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    assert differ == [], differ[:10]
