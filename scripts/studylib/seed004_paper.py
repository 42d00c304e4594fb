"""Seed 004's own numbers, read off its text (scripts/seed004_hotcold.py draws them, scripts/verdicts.py judges
the claims on them)."""
# The seed's write-count CDFs, read off its text: (count, CDF) points, the last one its largest count.
PAPER_CDF = {"normal": [(1, 0.35), (30, 0.9), (51, 1.0)], "pareto": [(1, 0.3), (20, 0.7), (57, 1.0)],
             "zipf0.8": [(1, 0.3), (10, 0.7), (50, 0.95), (14590, 1.0)],
             "zipf1.2": [(1, 0.5), (6, 0.9), (50, 0.99), (112023, 1.0)],
             "uniform": [(1, 0.05), (18, 0.9), (36, 1.0)]}
# The seed's steady ranges (IOPS low, high, WAF low, high) per distribution and threshold, read off its text.
PAPER = {
    ("normal", 0): (18000, 18200, 3.0, 3.1), ("normal", 1): (18200, 19300, 2.7, 3.0),
    ("normal", 5): (18000, 19000, 2.75, 3.05), ("normal", 10): (18000, 19000, 2.7, 3.1),
    ("pareto", 0): (18000, 18500, 3.0, 3.1), ("pareto", 1): (18500, 19000, 2.7, 2.9),
    ("pareto", 8): (18300, 19000, 2.8, 3.1), ("pareto", 18): (18300, 18900, 2.8, 3.0),
    ("zipf0.8", 0): (15000, 16000, 3.7, 3.8), ("zipf0.8", 10): (18000, 19400, 2.6, 3.2),
    ("zipf0.8", 30): (17500, 18500, 2.6, 3.0), ("zipf0.8", 50): (17300, 18700, 2.6, 3.1),
    ("zipf1.2", 0): (15000, 15000, 4.8, 5.0), ("zipf1.2", 6): (19000, 21000, 2.0, 2.9),
    ("zipf1.2", 20): (19000, 21000, 1.9, 3.0), ("zipf1.2", 50): (19500, 21000, 1.9, 3.2),
    ("uniform", 0): (18600, 19100, 2.76, 2.9), ("uniform", 5): (18900, 19800, 2.47, 2.9),
    ("uniform", 13): (18900, 19600, 2.51, 2.9), ("uniform", 18): (18800, 20000, 2.45, 2.9),
}
