"""What runs on a Dask worker: one platform run in a private temporary directory.

Standard library and distributed only: this module is shipped to the workers by value (cloudpickle), so a worker
needs Python, dask.distributed and the platform executable, not this repository.
"""
import hashlib
import os
import resource
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time

try:
    from distributed.diagnostics.plugin import WorkerPlugin as _PluginBase
except ImportError:  # build_id() and run_point() work without Dask
    _PluginBase = object

STDERR_TAIL_LINES = 20
START_TOPIC = "ssdtlm-study-start"


def build_id(path):
    """The executable's GNU build id ("gnu:<hex>", from its .note.gnu.build-id), else "sha256:<hex>" of its bytes."""
    with open(path, "rb") as f:
        data = f.read()
    gnu = _elf_gnu_build_id(data)
    if gnu:
        return "gnu:" + gnu
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _elf_gnu_build_id(data):
    """Reads the NT_GNU_BUILD_ID note from an ELF image's PT_NOTE segments; None if there is none."""
    if len(data) < 64 or data[:4] != b"\x7fELF":
        return None
    is64 = data[4] == 2
    end = "<" if data[5] == 1 else ">"
    try:
        if is64:
            phoff, = struct.unpack_from(end + "Q", data, 0x20)
            phentsize, phnum = struct.unpack_from(end + "HH", data, 0x36)
        else:
            phoff, = struct.unpack_from(end + "I", data, 0x1C)
            phentsize, phnum = struct.unpack_from(end + "HH", data, 0x2A)
        for i in range(phnum):
            at = phoff + i * phentsize
            p_type, = struct.unpack_from(end + "I", data, at)
            if p_type != 4:  # PT_NOTE
                continue
            if is64:
                offset, = struct.unpack_from(end + "Q", data, at + 8)
                size, = struct.unpack_from(end + "Q", data, at + 32)
            else:
                offset, = struct.unpack_from(end + "I", data, at + 4)
                size, = struct.unpack_from(end + "I", data, at + 16)
            pos, stop = offset, offset + size
            while pos + 12 <= stop:
                namesz, descsz, ntype = struct.unpack_from(end + "III", data, pos)
                name_at = pos + 12
                desc_at = name_at + ((namesz + 3) & ~3)
                if ntype == 3 and data[name_at:name_at + namesz].rstrip(b"\0") == b"GNU":  # NT_GNU_BUILD_ID
                    return data[desc_at:desc_at + descsz].hex()
                pos = desc_at + ((descsz + 3) & ~3)
    except struct.error:
        return None
    return None


def tail(text, lines=STDERR_TAIL_LINES):
    return "\n".join(text.rstrip("\n").splitlines()[-lines:])


def run_point(task):
    """Runs one point and returns its outcome; never raises for a run that fails, only reports it.

    task: {"point": int, "key": str, "argv": [executable, ...args without --out], "build_id": str,
           "timeout": seconds or None, "cwd": the client's working directory (used where it exists)}
    returns: {"point", "key", "exit_code" (None: did not run), "error" (str or None), "stderr_tail", "files"
              ({name: bytes} of the run's output directory), "seconds", "worker", "started", "build_id"}
    """
    started = time.time()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = {"point": task["point"], "key": task["key"], "exit_code": None, "error": None, "stderr_tail": "",
              "files": {}, "seconds": 0.0, "worker": socket.gethostname(), "started": started, "build_id": None}
    _announce_start(task)
    argv = list(task["argv"])
    executable = argv[0]
    try:
        result["build_id"] = build_id(executable)
    except OSError as e:
        result["error"] = "cannot read the executable on worker %s: %s" % (result["worker"], e)
        return result
    if task.get("build_id") and result["build_id"] != task["build_id"]:
        result["error"] = ("executable %s on worker %s is build %s, the study expects %s (rebuild or point "
                           "--worker-bin-dir at the same build)" % (executable, result["worker"], result["build_id"],
                                                                     task["build_id"]))
        return result
    tmp = tempfile.mkdtemp(prefix="ssdtlm-study-")
    try:
        out = os.path.join(tmp, "out")
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        cwd = task.get("cwd")  # the client's working directory, where it exists here (a shared file system)
        proc = subprocess.Popen(argv + ["--out", out], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, env=env, cwd=cwd if cwd and os.path.isdir(cwd) else None)
        plugin = _worker_plugin()
        if plugin:
            plugin.add(proc)
        try:
            _, err = proc.communicate(timeout=task.get("timeout"))
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
            result["error"] = "timed out after %g s" % task["timeout"]
        finally:
            if plugin:
                plugin.discard(proc)
        result["exit_code"] = proc.returncode
        result["stderr_tail"] = tail(err.decode("utf-8", "replace"))
        if proc.returncode == 0 and result["error"] is None and os.path.isdir(out):
            for name in sorted(os.listdir(out)):
                path = os.path.join(out, name)
                if os.path.isfile(path):
                    with open(path, "rb") as f:
                        result["files"][name] = f.read()
    except OSError as e:
        result["error"] = "cannot run %s on worker %s: %s" % (executable, result["worker"], e)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        result["seconds"] = time.time() - started
        cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)  # the run's process (a worker runs one at a time)
        result["cpu_seconds"] = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    return result


def _announce_start(task):
    """Tells the client that this point started (for the progress line's running count); best effort."""
    try:
        from distributed import get_worker

        get_worker().log_event(START_TOPIC, {"point": task["point"], "key": task["key"]})
    except Exception:  # not on a worker (tests call run_point directly), or an older distributed
        pass


def _worker_plugin():
    try:
        from distributed import get_worker

        return get_worker().plugins.get(EndRunsOnClose.name)
    except Exception:
        return None


class EndRunsOnClose(_PluginBase):
    """Dask worker plugin: a worker that closes (e.g. Ctrl-C on the study) ends the platform processes it started."""

    name = "ssdtlm-study-end-runs"

    def setup(self, worker):
        self._running = set()
        self._lock = threading.Lock()

    def add(self, proc):
        with self._lock:
            self._running.add(proc)

    def discard(self, proc):
        with self._lock:
            self._running.discard(proc)

    def teardown(self, worker):
        with self._lock:
            procs = list(self._running)
        for p in procs:
            try:
                p.send_signal(signal.SIGTERM)
            except OSError:
                pass
        for p in procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
