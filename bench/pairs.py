"""Alternating pairs of runs of two builds, the way every bench row compares A with B."""


def alternate(run_a, run_b, repeat, wall, cpu):
    """`repeat` pairs, the first in the order A B, the next B A, and so on (run_a() and run_b() each return one run's
    summary). Returns the median-wall run of each, the median of the pairs' speed ratios A/B (wall time of B over
    wall time of A) and the same for CPU (`wall`, `cpu`: a run's seconds)."""
    a, b = [], []
    for i in range(repeat):
        if i % 2 == 0:
            a.append(run_a())
            b.append(run_b())
        else:
            b.append(run_b())
            a.append(run_a())
    med = lambda xs: sorted(xs)[len(xs) // 2]
    ratio = med([wall(y) / wall(x) for x, y in zip(a, b)])
    cpu_ratio = med([cpu(y) / cpu(x) for x, y in zip(a, b)])
    by_wall = lambda runs: sorted(runs, key=wall)[len(runs) // 2]
    return by_wall(a), by_wall(b), ratio, cpu_ratio
