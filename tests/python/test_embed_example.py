"""examples/embed: the ssdtlm::Ssd component in a small SystemC platform (bus, host memory, the driver model).

The example built with the project (bin/ssdtlm-embed-example) must bring the drive up, complete every command with
success status and have every read checked by the integrity checker without an error; its figures must agree
with each other and with the PCIe link's arithmetic (docs/reference/pcie_nvme.md). The same example is then
built out of tree against an installed copy of the library (cmake --install + find_package(ssdtlm)).
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
PHASE = re.compile(r"^(write|read-back|read)\s+(\d+) x 4 KiB completed, (\d+) failed, (\d+) IOPS, ([\d.]+) MB/s, "
                   r"latency mean ([\d.]+) us, p50 ([\d.]+) us, p99 ([\d.]+) us, max ([\d.]+) us$", re.M)
SSD = re.compile(r"^ssd:  (\d+) commands \((\d+) admin\), (\d+) reads, (\d+) writes, (\d+) completions with error "
                 r"status, (\d+) doorbell errors; (\d+) MSI-X interrupts", re.M)
INTEGRITY = re.compile(r"^integrity: (\d+) reads checked, (\d+) errors$", re.M)


def example(bin_dir):
    exe = bin_dir / "ssdtlm-embed-example"
    if not exe.is_file():
        pytest.fail("%s not found: the example is built with the project (cmake/ssd_component.cmake)" % exe)
    return exe


def run(exe, *args, cwd=None):
    return subprocess.run([str(exe)] + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=ENV, timeout=300, cwd=cwd)


def check_output(r, ios, queues):
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert re.search(r"^bring-up: controller ready, Identify done, %d I/O queue pairs created" % queues, out, re.M), out
    phases = {m.group(1): m for m in PHASE.finditer(out)}
    assert set(phases) == {"write", "read-back", "read"}, out
    for name, m in phases.items():
        done, failed, iops = int(m.group(2)), int(m.group(3)), int(m.group(4))
        mean, p50, p99, top = (float(m.group(i)) for i in range(6, 10))
        assert done == ios and failed == 0, m.group(0)
        assert iops > 0 and 0 < p50 <= p99 <= top and mean <= top, m.group(0)
        assert float(m.group(5)) == pytest.approx(iops * 4096 / 1e6, rel=0.01), m.group(0)
    s = SSD.search(out)
    assert s, out
    commands, admin, reads, writes, errors, db_errors, interrupts = (int(x) for x in s.groups())
    assert (reads, writes, errors, db_errors) == (2 * ios, ios, 0, 0), s.group(0)
    # Identify controller, namespace and its descriptor list, Number of Queues, a CQ and an SQ per queue pair; then
    # the I/O.
    assert admin == 4 + 2 * queues and commands == admin + reads + writes, s.group(0)
    assert interrupts >= reads + writes, s.group(0)  # no coalescing configured: one MSI-X per completion
    i = INTEGRITY.search(out)
    assert i and (int(i.group(1)), int(i.group(2))) == (2 * ios, 0), out
    assert re.search(r"^result: PASS", out, re.M), out
    return phases


def test_example_completes_every_command_and_checks_every_read(bin_dir):
    phases = check_output(run(example(bin_dir)), 4096, 4)
    # A 4 KiB read costs 4,584 bytes upstream at MPS 256 (16 data TLPs, entry, MSI-X, requests, DLLPs):
    # Gen3 x4 carries 3938.5 MB/s, so no read phase can beat 859 K IOPS (docs/reference/pcie_nvme.md).
    bound = 3938.46e6 / 4584
    for name in ("read-back", "read"):
        assert int(phases[name].group(4)) <= bound * 1.005, phases[name].group(0)


def test_example_options_reach_the_drive(bin_dir):
    # Gen4 doubles the link: the read-back from the write buffer (link bound at Gen3) gets faster.
    gen3 = check_output(run(example(bin_dir), "--ios", 1500, "--queues", 2, "--depth", 64), 1500, 2)
    gen4 = check_output(run(example(bin_dir), "--ios", 1500, "--queues", 2, "--depth", 64,
                            "--set", "pcie.generation=4"), 1500, 2)
    assert int(gen4["read-back"].group(4)) > 1.3 * int(gen3["read-back"].group(4))


def test_example_loosely_timed_completes_every_command_near_approximately_timed(bin_dir):
    # sim.timing=lt in the component (docs/reference/timing_modes.md): entries through DMI, MSI-X with their delay;
    # the example's driver handles each interrupt at its annotated time. Same work, IOPS within 2 %.
    at = check_output(run(example(bin_dir), "--ios", 1500), 1500, 4)
    lt = check_output(run(example(bin_dir), "--ios", 1500, "--set", "sim.timing=lt"), 1500, 4)
    for name in ("write", "read-back", "read"):
        assert int(lt[name].group(4)) == pytest.approx(int(at[name].group(4)), rel=0.02), (lt[name].group(0),
                                                                                          at[name].group(0))


@pytest.mark.parametrize("args, key", [
    (["--set", "nvme.interface=command"], "nvme.interface"),
    (["--set", "geometry.channels=0"], "geometry.channels"),
    (["--set", "no.such_key=1"], "no.such_key"),
    (["--config", "/nonexistent/ssd.json"], "/nonexistent/ssd.json"),
])
def test_example_refuses_bad_configuration(bin_dir, args, key):
    r = run(example(bin_dir), *args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert key in r.stderr and "bring-up" not in r.stdout, r.stderr


def test_example_builds_out_of_tree_against_an_installed_library(bin_dir, tmp_path):
    build = bin_dir.parent
    if not (build / "CMakeCache.txt").is_file():
        pytest.fail("%s is not a CMake build folder" % build)
    prefix, out = tmp_path / "prefix", tmp_path / "build-embed"
    r = subprocess.run(["cmake", "--install", str(build), "--prefix", str(prefix)], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=300)
    assert r.returncode == 0, r.stdout
    assert (prefix / "include" / "ssdtlm" / "ssd.h").is_file()
    targets = "".join(p.read_text() for p in prefix.rglob("ssdtlmTargets*.cmake"))
    assert "ssdtlm::ssd" in targets and str(ROOT) not in targets  # nothing points back into the source tree
    # Only the installed copy: the example's folder is copied away from the source tree first.
    src = tmp_path / "embed"
    shutil.copytree(ROOT / "examples" / "embed", src)
    configure = ["cmake", "-S", str(src), "-B", str(out), "-DCMAKE_PREFIX_PATH=%s" % prefix]
    if shutil.which("ccache"):
        configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
    for cmd in (configure, ["cmake", "--build", str(out), "-j2"]):
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
        assert r.returncode == 0, r.stdout
    check_output(run(out / "ssdtlm-embed-example", "--ios", 1000), 1000, 4)
