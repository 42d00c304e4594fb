"""What the seed scripts share: a snapshot of the platform executable and a run of a study through study.py."""
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent
ROOT = SCRIPTS.parent


def snapshot_binary(out, platform):
    """Copies build/bin/ssdtlm-<platform> to OUT/bin/ so that a rebuild during the study (others work in the same
    tree) cannot fail its points; the run cache is keyed by the build id, not the path, so the runs are those of
    that build wherever it lies."""
    src = ROOT / "build" / "bin" / ("ssdtlm-" + platform)
    if not src.is_file():
        sys.exit("%s missing: run bash scripts/build.sh" % src)
    dst_dir = Path(out) / "bin"
    dst_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst_dir / src.name)
    return dst_dir


def run_study(study, out_dir, workers, bin_dir=None):
    """Runs scripts/study.py on the study file (with build/bin's executables unless bin_dir names others);
    returns (exit status, wall seconds)."""
    argv = [sys.executable, str(SCRIPTS / "study.py"), str(study), "--workers", str(workers), "--out", str(out_dir)]
    if bin_dir:
        argv += ["--bin-dir", str(bin_dir)]
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    print("+ " + " ".join(argv), flush=True)
    t0 = time.time()
    rc = subprocess.run(argv, cwd=str(ROOT), env=env).returncode
    return rc, time.time() - t0
