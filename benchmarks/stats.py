"""Small statistics shared by the benchmark scripts."""

import statistics


def pct(values, q):
    """The ``q`` quantile (0..1) of ``values`` by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summary(values):
    """``(median, p95)`` of ``values``."""
    return statistics.median(values), pct(values, 0.95)
