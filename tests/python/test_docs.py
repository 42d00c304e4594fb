"""The documentation as a reader follows it: every relative link of README.md, docs/ and the folders' README.md files
leads to a file that exists (and a #fragment to a heading of it), and docs/reference/config.md is what
scripts/config_reference.py makes from the executable's --help-config today."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN_DIR = Path(os.environ.get("SSDTLM_BIN_DIR") or ROOT / "build" / "bin")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def markdown_files():
    tracked = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    files = [ROOT / f for f in tracked] if tracked else list(ROOT.glob("docs/**/*.md")) + [ROOT / "README.md"]
    return [f for f in files if f.is_file()]


def anchors(md):
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    out = set()
    for line in md.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^#+\s+(.*)", line)
        if m:
            text = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower())
            out.add(text.replace(" ", "-"))
    return out


def test_every_relative_link_resolves():
    broken = []
    for md in markdown_files():
        in_code = False
        for n, line in enumerate(md.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                in_code = not in_code
            if in_code:
                continue
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                    continue
                path, _, fragment = target.partition("#")
                dest = (md.parent / path).resolve()
                if not dest.exists():
                    broken.append("%s:%d: %s (no such file)" % (md.relative_to(ROOT), n, target))
                elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
                    broken.append("%s:%d: %s (no such heading)" % (md.relative_to(ROOT), n, target))
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_readme_is_a_guide_of_at_most_250_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    text = "\n".join(lines)
    # The two quick-start commands come first, before any other command.
    first_block = text.split("```sh", 1)[1].split("```", 1)[0]
    assert "bash scripts/quickstart.sh" in first_block and "bash scripts/test.sh" in first_block


def test_config_reference_is_up_to_date():
    generic = BIN_DIR / "ssdtlm-generic"
    if not generic.exists():
        pytest.skip("%s not built" % generic)
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "config_reference.py"), "--bin", str(generic),
                           "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
