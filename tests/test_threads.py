"""Python threads calling numcu at once: every result is NumPy's.

Specification:
- 8 threads each run 10^4 mixed operations (elementwise with and without `out=`, overlapping
  `out=`, reductions, scans, casts, where, item assignment, uploads and downloads) on integer
  data, checked exactly against a NumPy mirror of the same steps (gpu);
- each thread switches at random between a stream of its own (``with stream:``) and the legacy
  default stream that all threads share, so arrays move between streams all the time;
- every thread also reads one device array they all share, which must stay as it was;
- the CPU backend takes the same mix from 8 threads (smaller, so it runs everywhere).
"""

from __future__ import annotations

import contextlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import numcu

THREADS = 8
# Values stay below 2^31 (remainders by a prime after every step that grows them), so int64
# products and float64 round trips are exact and NumPy's values are exact too.
PRIME = 1_000_003


class Mirror:
    """One thread's arrays: numcu's (`x`, `y` on `device`) and NumPy's (`hx`, `hy`)."""

    def __init__(self, rng, n, shared, hshared, device):
        self.rng, self.device = rng, device
        self.hx = rng.integers(-PRIME, PRIME, n)
        self.hy = rng.integers(1, 1000, n)
        self.x, self.y = self.put(self.hx), self.put(self.hy)
        self.shared, self.hshared = shared, hshared
        self.pending = []  # (numcu reduction result, NumPy's value), checked at checkpoints

    def put(self, host):
        return numcu.asarray(host) if self.device is None else host.copy()

    def get(self, a):
        return a.get() if isinstance(a, numcu.ndarray) else np.asarray(a)

    def kw(self):
        return {} if self.device is None else {"device": self.device}

    def step(self, k):
        """One of the mix's operations, on numcu and on NumPy; returns the numcu calls made."""
        x, y, kw = self.x, self.y, self.kw()
        if k == 0:  # in place, then bounded
            numcu.add(x, y, out=x, **kw)
            numcu.remainder(x, PRIME, out=x, **kw)
            self.hx = (self.hx + self.hy) % PRIME
            return 2
        if k == 1:  # new arrays
            self.x = numcu.remainder(numcu.multiply(x, 3, **kw), PRIME, **kw)
            self.hx = self.hx * 3 % PRIME
            return 2
        if k == 2:  # overlapping out: the shifted difference of x with itself
            numcu.subtract(x[1:], x[:-1], out=x[1:], **kw)
            numcu.remainder(x, PRIME, out=x, **kw)
            np.subtract(self.hx[1:], self.hx[:-1], out=self.hx[1:])
            self.hx %= PRIME
            return 2
        if k == 3:  # reductions, checked later
            self.pending.append((numcu.sum(x, **kw), self.hx.sum()))
            self.pending.append((numcu.max(x[::3], **kw), self.hx[::3].max()))
            return 2
        if k == 4:  # scan into a strided out, then bounded
            numcu.cumsum(y, out=x[::-1], **kw)
            numcu.remainder(x, PRIME, out=x, **kw)
            self.hx = np.cumsum(self.hy)[::-1] % PRIME
            return 2
        if k == 5:  # casts there and back
            f = numcu.astype(x, np.float64)
            self.x = numcu.astype(numcu.multiply(f, 2.0, **kw), np.int64)
            numcu.remainder(self.x, PRIME, out=self.x, **kw)
            self.hx = self.hx * 2 % PRIME
            return 4
        if k == 6:  # where, with the shared array
            self.x = numcu.where(numcu.greater(x, self.shared, **kw), x, self.shared, **kw)
            self.hx = np.where(self.hx > self.hshared, self.hx, self.hshared)
            return 2
        if k == 7:  # item assignment between views
            x[::2] = y[1::2] if self.hy.size % 2 == 0 else y[::2]
            self.hx[::2] = self.hy[1::2] if self.hy.size % 2 == 0 else self.hy[::2]
            return 1
        # fresh data up
        self.hy = self.rng.integers(1, 1000, self.hy.size)
        self.y = self.put(self.hy)
        return 1

    def check(self):
        np.testing.assert_array_equal(self.get(self.x), self.hx)
        for got, want in self.pending:
            assert self.get(got) == want
        self.pending.clear()


def run_thread(index, operations, shared, hshared, device):
    rng = np.random.default_rng(1000 + index)
    own = numcu.cuda.Stream(non_blocking=True) if device is None else None
    m = Mirror(rng, 997 + 64 * index, shared, hshared, device)
    done = 0
    while done < operations:
        on_own = own is not None and rng.random() < 0.5
        with own if on_own else contextlib.nullcontext():
            done += m.step(int(rng.integers(0, 9)))
            if rng.random() < 1 / 32:
                m.check()
    m.check()
    return done


def run_threads(operations, device):
    rng = np.random.default_rng(7)
    n = max(997 + 64 * i for i in range(THREADS))
    hshared = rng.integers(-PRIME, PRIME, n)
    shared = numcu.asarray(hshared) if device is None else hshared.copy()
    with ThreadPoolExecutor(THREADS) as pool:
        futures = [
            pool.submit(
                run_thread,
                i,
                operations,
                shared[: 997 + 64 * i],
                hshared[: 997 + 64 * i],
                device,
            )
            for i in range(THREADS)
        ]
        counts = [f.result() for f in futures]  # re-raises a thread's failure
    assert all(c >= operations for c in counts)
    after = shared.get() if device is None else shared
    np.testing.assert_array_equal(after, hshared, err_msg="the shared array changed")


@pytest.mark.gpu
def test_threads_on_own_and_default_streams():
    run_threads(10_000, None)


def test_threads_on_the_cpu_backend():
    run_threads(2000, "cpu")
