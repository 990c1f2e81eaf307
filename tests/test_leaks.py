"""Repeated allocate/compute/free cycles leave memory where it was.

Specification:
- 10^5 cycles of uploads, new device arrays, elementwise work (overlapping `out=` among it, so
  scratch copies are made and freed), reductions, scans, casts, views, downloads and
  short-lived streams leave the device pool's used bytes exactly as they were, its reserved
  bytes and the process's resident memory (RSS) within a few megabytes (gpu); every cycle's
  result is checked now and then;
- the CPU backend's cycles (fewer) leave the RSS where it was too.
"""

from __future__ import annotations

import gc
import os

import numpy as np
import pytest

import numcu

MB = 1 << 20
# A leak of a hundred bytes a cycle grows the RSS by 10 MB over 10^5 cycles.
RSS_SLACK = 8 * MB
RESERVED_SLACK = 32 * MB


def rss_bytes():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        pytest.skip("no /proc/self/statm: the resident set size is not readable here")


def settled():
    """Collect garbage and wait for the GPU, so that every free has reached the pool."""
    gc.collect()
    if numcu.cuda.is_available():
        numcu.cuda.synchronize()


class Cycles:
    """One cycle: allocate, compute, free; `check` compares the result with NumPy's."""

    def __init__(self, device):
        self.device = device  # None: device arrays; "cpu": host data on the CPU backend
        rng = np.random.default_rng(5)
        # Several sizes, so the pool hands out and takes back blocks of several classes, up to
        # ones bigger than the frees that are batched (64 KiB).
        self.hosts = [rng.integers(-100, 100, n).astype(np.int32) for n in (7, 1000, 40_000)]
        self.stream = None

    def run(self, i, check=False):
        host = self.hosts[i % len(self.hosts)]
        kw = {} if self.device is None else {"device": self.device}
        if self.device is None and i % 100 == 0:
            self.stream = numcu.cuda.Stream(non_blocking=True) if i % 200 == 0 else None
        if self.stream is not None:
            with self.stream:
                result = self.compute(host, kw)
        else:
            result = self.compute(host, kw)
        if check:
            expected = self.compute_numpy(host)
            for got, want in zip(result, expected):
                got = got.get() if isinstance(got, numcu.ndarray) else np.asarray(got)
                np.testing.assert_array_equal(got, want)

    def compute(self, host, kw):
        x = numcu.asarray(host) if self.device is None else host.copy()
        y = numcu.multiply(x, 3, **kw)
        numcu.add(y[1:], y[:-1], out=y[1:], **kw)  # overlapping: a scratch copy of y[:-1]
        z = numcu.astype(y, np.float64)
        s = numcu.sum(z[::2], **kw)
        c = numcu.cumsum(x, **kw)
        m = numcu.maximum(c[::-1], y, **kw)
        return y, s, m

    @staticmethod
    def compute_numpy(host):
        y = host * 3
        np.add(y[1:], y[:-1], out=y[1:])
        z = y.astype(np.float64)
        c = np.cumsum(host)
        return y, z[::2].sum(), np.maximum(c[::-1], y)


def run_cycles(cycles, count, start):
    for i in range(start, start + count):
        cycles.run(i, check=i % 1000 == 0)


@pytest.mark.gpu
def test_device_cycles_leave_memory_where_it_was():
    cycles = Cycles(None)
    run_cycles(cycles, 3000, 0)  # warm-up: the pool, CUDA's and NumPy's caches
    settled()
    pool_before = numcu.cuda.memory_info()
    rss_before = rss_bytes()

    run_cycles(cycles, 100_000, 3000)
    cycles.stream = None
    settled()

    pool_after = numcu.cuda.memory_info()
    rss_after = rss_bytes()
    assert pool_after["used_bytes"] == pool_before["used_bytes"], (pool_before, pool_after)
    assert pool_after["reserved_bytes"] <= pool_before["reserved_bytes"] + RESERVED_SLACK, (
        pool_before,
        pool_after,
    )
    assert rss_after - rss_before < RSS_SLACK, f"RSS grew by {(rss_after - rss_before) / MB} MB"


def test_cpu_cycles_leave_rss_where_it_was():
    cycles = Cycles("cpu")
    run_cycles(cycles, 1000, 0)
    settled()
    rss_before = rss_bytes()
    run_cycles(cycles, 10_000, 1000)
    settled()
    growth = rss_bytes() - rss_before
    assert growth < RSS_SLACK, f"RSS grew by {growth / MB} MB"
