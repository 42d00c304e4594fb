"""scripts/seed004_span.py's readings of a write-count CDF, on hand-made counts: the LPNs written only, the never-written
below the largest written LPN at 0, and every LPN of the 768 MiB after a fill (its writes + 1)."""
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import seed004_span as span  # noqa: E402

UNIFORM = "uniform"  # the seed's points: (1, 0.05), (18, 0.9), (36, 1.0)


def test_written_counts_lists_the_written_lpns_and_the_never_written_below_the_largest(tmp_path):
    (tmp_path / "lpn_writes.csv").write_text("lpn,writes\n5,2\n6,1\n9,3\n")
    counts, zeros = span.written_counts(tmp_path)
    assert counts == [1, 2, 3]
    assert zeros == 7  # LPNs 0-4, 7 and 8


def test_the_three_readings_of_one_run():
    counts = [1, 1, 3, 20]
    written = span.cdf_points(counts, UNIFORM)
    assert written == [0.5, 0.75, 1.0]
    with_zeros = span.cdf_points(counts, UNIFORM, zeros=4)
    assert with_zeros == [6 / 8, 7 / 8, 1.0]
    # After a fill every LPN is listed one higher: the never-written sit at 1, a count of 20 at 21 > 18.
    filled = span.cdf_points_fill(counts, UNIFORM)
    unwritten = span.LPNS - len(counts)
    assert filled == [unwritten / span.LPNS, (unwritten + 3) / span.LPNS, 1.0]


def test_distance_is_the_largest_gap_at_the_seeds_points():
    assert abs(span.distance([0.5, 0.75, 1.0], UNIFORM) - 0.45) < 1e-12
    assert span.distance([0.05, 0.9, 1.0], UNIFORM) == 0.0
