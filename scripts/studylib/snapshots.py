"""Preconditioned-drive snapshots shared by a study's points (precondition.snapshot_dir; docs/history/performance.md).

Every point's worker command gets --set precondition.snapshot_dir=DIR (not its cache key nor its by-hand command: the
results do not depend on it); the first point whose preconditioning reads a given set of keys saves a snapshot there
and the others load it. The platform serialises the points of one key (a lock file) and writes files whole.
"""
import json
from pathlib import Path


def shared_dir(opts, out, schema):
    """Where the points share their preconditioned drives, or None (off, or a build without snapshots)."""
    if opts.snapshots == "off" or "precondition.snapshot_dir" not in schema.keys:
        return None
    path = Path(opts.snapshots).resolve() if opts.snapshots else out / "snapshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def report(log, path, results, remove):
    """How many points loaded a snapshot and how many made one; the snapshots removed if they are the study's own."""
    actions = {}
    for res in results.values():
        try:
            snap = json.loads(res.get("summary_json") or "{}").get("precondition", {}).get("snapshot", {})
        except ValueError:
            snap = {}
        if snap:
            actions[snap.get("action")] = actions.get(snap.get("action"), 0) + 1
    files = list(path.glob("*.ssnap"))
    size = sum(f.stat().st_size for f in files)
    log.say("snapshots: %s; %d files, %.1f MiB%s" % (
        ", ".join("%d %s" % (n, a) for a, n in sorted(actions.items())) or "none used", len(files), size / 2**20,
        " (removed)" if remove else " kept in %s" % path))
    if remove:
        for f in path.iterdir():
            if f.suffix in (".ssnap", ".unsupported", ".lock") or ".ssnap.tmp" in f.name:
                f.unlink()
        try:
            path.rmdir()
        except OSError:
            pass
