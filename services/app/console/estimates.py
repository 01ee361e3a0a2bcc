"""Estimates the console makes from the per-day rollups: the people of a period from the
days' HyperLogLog registers (256 registers: ±6.5 %, exact-ish for a few hundred people by
linear counting), and latency percentiles from the days' histograms (to one bucket, 15 %)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from repositories.fact_rollup import LATENCY_BASE_MS, LATENCY_STEP

REGISTERS = 256


def people_estimate(registers: Mapping[str, int]) -> int:
    """HyperLogLog (Flajolet et al. 2007) with the small-range correction."""
    if not registers:
        return 0
    m = REGISTERS
    alpha = 0.7213 / (1 + 1.079 / m)
    values = [int(registers.get(f"{i:02x}", 0)) for i in range(m)]
    estimate = alpha * m * m / sum(2.0**-v for v in values)
    zeros = values.count(0)
    if estimate <= 2.5 * m and zeros:
        estimate = m * math.log(m / zeros)
    return round(estimate)


def bucket_bound(bucket: int) -> int:
    """The upper bound (ms) of a latency histogram bucket."""
    return round(LATENCY_BASE_MS * LATENCY_STEP**bucket)


def percentile(histogram: Mapping[int, int], fraction: float) -> int | None:
    """The bucket bound below which `fraction` of the answers fall (None: no answers)."""
    total = sum(histogram.values())
    if not total:
        return None
    seen = 0
    for bucket in sorted(histogram):
        seen += histogram[bucket]
        if seen >= fraction * total:
            return bucket_bound(bucket)
    return bucket_bound(max(histogram))
