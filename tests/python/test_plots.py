"""Figures a researcher can put in a paper: words and units on the axes, failed points shown as failed, repeats as
error bars, axes that start at zero (no 16383-16384 autoscale), PDF and SVG beside every PNG."""
import importlib.util
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from studylib import plot  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def results(tmp_path, rows):
    path = tmp_path / "results.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def test_labels_are_words_with_units():
    assert plot.label("host.latency_us.read.p99", {}) == "99th-percentile read latency (µs)"
    assert plot.label("host.iops", {}) == "throughput (IOPS)"
    assert plot.label("waf.total", {}) == "write amplification (ratio)"
    assert plot.label("geometry.over_provisioning", {}) == "over-provisioning (fraction)"
    assert plot.label("host.queue_depth", {}) == "queue depth"
    assert plot.label("buffer.bytes", {"buffer.bytes": "bytes"}) == "write buffer (bytes)"


def test_failed_points_are_drawn_and_counted(tmp_path, monkeypatch):
    rows = [{"point": i, "host.queue_depth": qd, "seed": s, "status": st, "host.iops": v}
            for i, (qd, s, st, v) in enumerate([(1, 1, "ok", 100), (1, 2, "ok", 120), (8, 1, "ok", 400),
                                                 (8, 2, "ok", 440), (32, 1, "failed", None), (32, 2, "failed", None)])]
    drawn = {}
    real_plot = plot.plt.Axes.plot

    def spy(ax, *args, **kwargs):
        if kwargs.get("label") == "failed":
            drawn["failed_x"] = list(args[0])
        return real_plot(ax, *args, **kwargs)

    monkeypatch.setattr(plot.plt.Axes, "plot", spy)
    captured = {}
    real_suptitle = plot.plt.Figure.suptitle
    monkeypatch.setattr(plot.plt.Figure, "suptitle",
                        lambda fig, t, **k: captured.setdefault("title", t) and real_suptitle(fig, t, **k))
    paths = plot.draw({"name": "iops", "x": "host.queue_depth", "y": ["host.iops"]}, results(tmp_path, rows),
                      tmp_path / "fig")
    assert sorted(p.suffix for p in paths) == [".pdf", ".png", ".svg"]
    for p in paths:
        assert p.stat().st_size > 1000
    assert drawn["failed_x"] == [32.0, 32.0]
    assert "2 failed points" in captured["title"]
    assert "mean over seed (bars: min..max)" in captured["title"]  # the repeats, as error bars


def test_a_nearly_constant_panel_starts_at_zero():
    spec = importlib.util.spec_from_file_location("plot_run", ROOT / "scripts" / "plot_run.py")
    plot_run = importlib.util.module_from_spec(spec)
    saved = sys.argv
    try:
        spec.loader.exec_module(plot_run)
    finally:
        sys.argv = saved
    fig, ax = plt.subplots()
    values = [16383.0, 16384.0, 16384.0]
    ax.plot([0, 1, 2], values)
    plot_run.zero_based(ax, values)
    low, high = ax.get_ylim()
    assert low == 0 and high >= 16384
    plt.close(fig)


def test_save_figure_writes_png_pdf_svg_with_embedded_fonts_and_closes(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("data written (GB)")
    paths = plot.save_figure(fig, tmp_path / "sub" / "fig.png")  # an extension is replaced, the folder made
    assert paths == [tmp_path / "sub" / ("fig" + ext) for ext in (".png", ".pdf", ".svg")]
    assert not plt.fignum_exists(fig.number)  # closed: a script drawing many figures does not keep them
    for p, magic in zip(paths, (b"\x89PNG", b"%PDF", b"<?xml")):
        assert p.read_bytes().startswith(magic), p
    pdf = paths[1].read_bytes()
    assert b"/FontFile2" in pdf and b"/Type3" not in pdf  # TrueType (Type 42) embedded, not Type 3
    assert b"/CreationDate" not in pdf
    # without an extension: the same three files; the same figure saved again gives the same PDF and SVG bytes
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("data written (GB)")
    again = plot.save_figure(fig, tmp_path / "sub" / "fig2")
    assert [p.name for p in again] == ["fig2.png", "fig2.pdf", "fig2.svg"]
    assert again[1].read_bytes() == pdf and again[2].read_bytes() == paths[2].read_bytes()
    assert matplotlib.rcParams["pdf.fonttype"] == 3  # the paper settings do not leak into other figures


def test_every_plotting_script_saves_through_save_figure():
    """One saver: no script calls savefig itself (the PNG alone would be written, or fonts as Type 3)."""
    callers = [p.name for p in (ROOT / "scripts").rglob("*.py") if p.name != "plot.py" and ".savefig(" in p.read_text()]
    assert callers == []
