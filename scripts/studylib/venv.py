"""Makes a script run with the project's virtual environment (.venv/, made by scripts/setup.sh).

A script calls ensure() before importing dask, pandas or matplotlib: when the running Python lacks one of them and
.venv/bin/python exists, the script is executed again with it, so `python3 scripts/X.py` and `/usr/bin/python3
scripts/X.py` keep working; without .venv it says how to make it.
"""
import importlib.util
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
VENV = ROOT / ".venv"
STUDY_MODULES = ("dask.distributed", "pandas", "matplotlib")  # what the study engine and its figures import


def ensure(modules=STUDY_MODULES):
    missing = [m for m in modules if not _importable(m)]
    if not missing:
        return
    python = VENV / "bin" / "python"
    script = Path(sys.argv[0]).resolve()
    if python.exists() and Path(sys.prefix).resolve() != VENV.resolve():
        os.execv(str(python), [str(python), str(script)] + sys.argv[1:])
    sys.exit("%s: Python package(s) %s missing: run `bash scripts/setup.sh` (it installs requirements.txt into "
             ".venv/), then `.venv/bin/python scripts/%s ...`" % (script.name, ", ".join(missing), script.name))


def _importable(name):
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False
