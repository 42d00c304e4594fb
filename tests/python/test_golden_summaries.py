"""Results identity: the fixed configuration matrix of scripts/golden_summaries.py gives the summaries stored in
tests/data/golden/ (made by the build before the one-engine refactor). A change meant to move results regenerates
them with `golden_summaries.py --update` and says so in its commit."""
import subprocess
import sys

from conftest import ROOT, SCRIPTS


def test_summaries_identical_to_golden(bin_dir):
    p = subprocess.run([sys.executable, str(SCRIPTS / "golden_summaries.py"), "--bin", str(bin_dir)],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
