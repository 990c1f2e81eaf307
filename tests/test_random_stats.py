"""numcu.random's values follow their distributions (fixed seeds, one test per distribution and
backend).

Specification, on the CPU backend and on the GPU (gpu):
- continuous distributions pass a one-sample Kolmogorov-Smirnov test against the exact
  distribution function where it is elementary (uniform, normal, log-normal, exponential) and
  a chi-square test over 100 bins elsewhere (gamma, beta, chi-square);
- discrete distributions (Poisson, binomial, geometric, integers) pass a chi-square test of
  their probability mass function (bins with fewer than 5 expected merged into their
  neighbours) and z-tests of their mean and variance;
- normal tails hold as many values as they should (n = 10^7).
Each distribution's first parameters are drawn n = N = 10^6 times per backend; its other
parameters, which reach the algorithm's other branches (gamma's shape below 1, Poisson's and the
binomial's inversion and rejection, ...), N_BRANCH = 2 * 10^5 times each.

False-alarm rate: every test statistic rejects at a p-value below ALPHA = 1e-6 (z beyond 5 for
the moments). The seeds are fixed (each drawn from the call's method and parameters, so that
different parameters draw from unrelated streams), so each outcome is deterministic; were the
seeds drawn at random, a correct generator would fail any one statistic with probability about
1e-6, and this file's ~230 statistics (both backends) together with probability below 3e-4.

The distribution functions are computed here (no SciPy): the regularized incomplete gamma and
beta functions by their series and continued fractions, to about 1e-13, at the chi-square bins'
100 edges; the normal distribution function on the KS test's million values by linear
interpolation in a table of math.erfc (within 1e-9, a thousandth of the statistic's resolution).
"""

from __future__ import annotations

import functools
import math
import zlib

import numpy as np
import pytest
from conftest import gpu_param

import numcu
import numcu.random as nr

ALPHA = 1e-6
Z_LIMIT = 5.0
N = 10**6
N_BRANCH = 2 * 10**5
DEVICES = ("cpu", gpu_param("cuda"))


def seed_of(name, kwargs):
    return zlib.crc32(repr((name, sorted(kwargs.items(), key=str))).encode())


def sample(name, device, count, seed=None, **kwargs):
    """`count` values of the method on `device`, seeded from the call (its name and parameters):
    draws of different parameters come from unrelated streams, each backend's from the same."""
    g = nr.Generator(np.random.Philox(seed_of(name, kwargs) if seed is None else seed))
    x = getattr(g, name)(size=count, device=device, **kwargs)
    return x.get() if isinstance(x, numcu.ndarray) else np.asarray(x)


def grid(params):
    """(count, parameters): the first at N, the others at N_BRANCH."""
    return [(N if i == 0 else N_BRANCH, p) for i, p in enumerate(params)]


# ------------------------------------------------------------------------------------------------
# Distribution functions


def gammainc_lower(a, x):
    """P(a, x), the regularized lower incomplete gamma function."""
    if x <= 0:
        return 0.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        k = a
        for _ in range(10_000):
            k += 1
            term *= x / k
            total += term
            if term < total * 1e-16:
                break
        return total * math.exp(log_front)
    # Lentz's continued fraction for Q(a, x).
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return 1.0 - math.exp(log_front) * h


def betainc(a, b, x):
    """I_x(a, b), the regularized incomplete beta function."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1.0 - betainc(b, a, 1 - x)
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (tiny if abs(d) < tiny else d)
    h = d
    for m in range(1, 10_000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (tiny if abs(d) < tiny else d)
            c = 1 + numerator / c
            c = tiny if abs(c) < tiny else c
            h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return math.exp(log_front) * h / a


# Phi on [-12, 12] in steps of h = 24 / 2^17: linear interpolation is within h^2 / 8 * max|Phi''|
# = 1.0e-9 of Phi; beyond, Phi is within 2e-33 of 0 or 1 (np.interp holds the end values).
@functools.cache
def _normal_table():
    x = np.linspace(-12.0, 12.0, 2**17 + 1)
    return x, np.array([0.5 * math.erfc(-t / math.sqrt(2)) for t in x.tolist()])


def normal_cdf(x):
    return np.interp(np.asarray(x, dtype=np.float64), *_normal_table())


def test_the_normal_table_is_the_normal_distribution_function():
    t = np.random.default_rng(1).uniform(-13, 13, 2000)
    exact = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in t])
    np.testing.assert_allclose(normal_cdf(t), exact, rtol=0, atol=2e-9)


def report(line):
    """A statistic's value, printed: `pytest -rP tests/test_random_stats.py` lists every test's."""
    print(line)


def ks_pvalue(x, cdf):
    """The asymptotic p-value of the Kolmogorov-Smirnov statistic of `x` against `cdf` (one
    sorted copy, the distribution function evaluated once, vectorised)."""
    f = cdf(np.sort(np.asarray(x, dtype=np.float64)))
    n = f.size
    steps = np.arange(n + 1, dtype=np.float64) / n
    d = max(float(np.max(steps[1:] - f)), float(np.max(f - steps[:-1])))
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    p = min(1.0, 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101)))
    report(f"KS n={n}: D={d:.3g}, p={p:.3g}")
    return p


def chisquare_pvalue(observed, expected, fitted=0):
    """P(chi-square > statistic), bins of fewer than 5 expected merged into their neighbours."""
    observed, expected = _merge(np.asarray(observed, float), np.asarray(expected, float))
    stat = float(np.sum((observed - expected) ** 2 / expected))
    dof = observed.size - 1 - fitted
    p = 1.0 - gammainc_lower(dof / 2, stat / 2)
    report(f"chi-square n={int(observed.sum())}: {stat:.4g} on {dof} dof, p={p:.3g}")
    return p


def _merge(observed, expected):
    obs, exp = [], []
    o = e = 0.0
    for oi, ei in zip(observed.tolist(), expected.tolist()):
        o += oi
        e += ei
        if e >= 5:
            obs.append(o)
            exp.append(e)
            o = e = 0.0
    if e > 0:
        obs[-1] += o
        exp[-1] += e
    return np.array(obs), np.array(exp)


def binned_pvalue(x, cdf, pilot):
    """Chi-square over 100 bins whose edges are quantiles of an independent `pilot` sample (the
    expected counts come from `cdf` at the edges, so the pilot's size only shapes the bins)."""
    edges = np.unique(np.quantile(pilot, np.linspace(0, 1, 101)[1:-1]))
    probs = np.diff([0.0, *[cdf(e) for e in edges], 1.0])
    counts = np.bincount(np.searchsorted(edges, x, side="right"), minlength=edges.size + 1)
    return chisquare_pvalue(counts, probs * x.size)


def pilot(name, kwargs):
    """10^5 of NumPy's values of the distribution, from a seed of its own: bin edges independent
    of numcu's values and of the order tests run in."""
    return getattr(np.random.default_rng(seed_of("pilot-" + name, kwargs)), name)(
        size=10**5, **kwargs
    )


def moments_ok(x, mean, var):
    """z-tests of the sample mean and variance (the latter through the fourth moment)."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    centered = x - mean
    z_mean = float(np.mean(centered)) / math.sqrt(var / n)
    squares = centered * centered
    m4 = float(np.dot(squares, squares)) / n
    z_var = (float(np.mean(squares)) - var) / math.sqrt(max(m4 - var * var, 1e-300) / n)
    report(f"moments n={n}: z of the mean {z_mean:.3g}, of the variance {z_var:.3g}")
    return abs(z_mean) < Z_LIMIT and abs(z_var) < Z_LIMIT, (z_mean, z_var)


# ------------------------------------------------------------------------------------------------
# Continuous distributions


@pytest.mark.parametrize("device", DEVICES)
def test_random_and_uniform_are_uniform(device):
    for dtype in (np.float64, np.float32):
        x = sample("random", device, N, dtype=dtype)
        assert x.min() >= 0 and x.max() < 1, dtype
        assert ks_pvalue(x, lambda t: t) > ALPHA, dtype

    x = sample("uniform", device, N, low=-2.0, high=3.0)
    assert x.min() >= -2.0 and x.max() < 3.0
    assert ks_pvalue(x, lambda t: (t + 2.0) / 5.0) > ALPHA


@pytest.mark.parametrize("device", DEVICES)
def test_normal_and_lognormal_are_normal(device):
    for dtype in (np.float64, np.float32):
        x = sample("standard_normal", device, N, dtype=dtype)
        assert ks_pvalue(x, normal_cdf) > ALPHA, dtype
        ok, z = moments_ok(x, 0.0, 1.0)
        assert ok, (dtype, z)

    x = sample("normal", device, N, loc=1.5, scale=2.5)
    assert ks_pvalue(x, lambda t: normal_cdf((t - 1.5) / 2.5)) > ALPHA

    x = sample("lognormal", device, N, mean=0.3, sigma=0.7)
    assert x.min() > 0
    assert ks_pvalue(np.log(x), lambda t: normal_cdf((t - 0.3) / 0.7)) > ALPHA


@pytest.mark.parametrize("device", DEVICES)
def test_normal_tails_hold_their_share(device):
    size = 10**7
    for dtype in (np.float64, np.float32):
        x = np.abs(sample("standard_normal", device, size, seed=77, dtype=dtype))

        for t in (3.0, 4.0, 4.5):
            expected = size * math.erfc(t / math.sqrt(2))
            got = int(np.count_nonzero(x > t))
            assert abs(got - expected) < Z_LIMIT * math.sqrt(expected), (dtype, t, got, expected)


@pytest.mark.parametrize("device", DEVICES)
def test_exponential_is_exponential(device):
    for dtype in (np.float64, np.float32):
        x = sample("standard_exponential", device, N, dtype=dtype)
        assert x.min() >= 0, dtype
        assert ks_pvalue(x, lambda t: -np.expm1(-t)) > ALPHA, dtype

    x = sample("exponential", device, N, scale=2.0)
    assert ks_pvalue(x, lambda t: -np.expm1(-t / 2.0)) > ALPHA


@pytest.mark.parametrize("device", DEVICES)
def test_gamma_is_gamma(device):
    # Marsaglia and Tsang's method above shape 1, its boost below; float32 apart.
    shapes = [(2.5, "f8"), (0.05, "f8"), (0.3, "f8"), (1.0, "f8"), (30.0, "f8"), (2.5, "f4")]
    for count, (shape, dtype) in grid(shapes + [(0.5, "f4")]):
        x = sample("standard_gamma", device, count, shape=shape, dtype=dtype).astype(np.float64)
        assert x.min() >= 0, shape
        cdf = lambda t, shape=shape: gammainc_lower(shape, t)  # noqa: E731
        p = binned_pvalue(x, cdf, pilot("standard_gamma", {"shape": shape}))
        assert p > ALPHA, (shape, dtype, p)
        ok, z = moments_ok(x, shape, shape)
        assert ok, (shape, dtype, z)

    x = sample("gamma", device, N_BRANCH, shape=4.0, scale=0.5)
    cdf = lambda t: gammainc_lower(4.0, t / 0.5)  # noqa: E731
    assert binned_pvalue(x, cdf, pilot("gamma", {"shape": 4.0, "scale": 0.5})) > ALPHA


@pytest.mark.parametrize("device", DEVICES)
def test_beta_is_beta(device):
    for count, (a, b) in grid([(2.0, 5.0), (0.5, 0.5), (0.1, 0.2), (40.0, 3.0)]):
        x = sample("beta", device, count, a=a, b=b)
        assert x.min() >= 0 and x.max() <= 1, (a, b)
        cdf = lambda t, a=a, b=b: betainc(a, b, t)  # noqa: E731
        p = binned_pvalue(x, cdf, pilot("beta", {"a": a, "b": b}))
        assert p > ALPHA, (a, b, p)
        ok, z = moments_ok(x, a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1)))
        assert ok, (a, b, z)


@pytest.mark.parametrize("device", DEVICES)
def test_chisquare_is_chisquare(device):
    for count, df in grid([3.0, 0.5, 50.0]):
        x = sample("chisquare", device, count, df=df)
        cdf = lambda t, df=df: gammainc_lower(df / 2, t / 2)  # noqa: E731
        assert binned_pvalue(x, cdf, pilot("chisquare", {"df": df})) > ALPHA, df


# ------------------------------------------------------------------------------------------------
# Discrete distributions


def pmf_pvalue(x, log_pmf, low, high, floor=0):
    """Chi-square of the counts of low .. high, and of the two tails beyond, against the pmf
    (whose support starts at `floor`)."""
    x = np.asarray(x, dtype=np.int64)
    counts = np.bincount(np.clip(x - low + 1, 0, high - low + 2), minlength=high - low + 3)
    probs = np.exp(log_pmf(np.arange(low, high + 1, dtype=np.float64)))
    below = float(np.sum(np.exp(log_pmf(np.arange(max(floor, low - 200), low, dtype=float)))))
    probs = np.concatenate([[below], probs, [max(0.0, 1.0 - below - probs.sum())]])
    return chisquare_pvalue(counts, probs * x.size)


def log_factorial(k):
    return np.array([math.lgamma(v + 1) for v in np.asarray(k).tolist()])


def window(mean, sd, floor=0, ceiling=None):
    low = max(floor, int(mean - 12 * sd))
    high = int(mean + 12 * sd + 15)
    return low, high if ceiling is None else min(ceiling, high)


@pytest.mark.parametrize("device", DEVICES)
def test_poisson_is_poisson(device):
    # Inversion below lam = 10, PTRS from 10 on.
    for count, lam in grid([4.0, 55.5, 0.5, 9.99, 10.0, 1.0e4]):
        x = sample("poisson", device, count, lam=lam)

        def log_pmf(k, lam=lam):
            return k * math.log(lam) - lam - log_factorial(k)

        p = pmf_pvalue(x, log_pmf, *window(lam, math.sqrt(lam)))
        assert p > ALPHA, (lam, p)
        ok, z = moments_ok(x, lam, lam)
        assert ok, (lam, z)


@pytest.mark.parametrize("device", DEVICES)
def test_binomial_is_binomial(device):
    # Inversion below n p = 10, BTPE from 10 on; p above one half by symmetry.
    cases = [(1000, 0.45), (20, 0.3), (100, 0.05), (500, 0.97), (10**9, 1e-3)]
    for count, (n, p) in grid(cases):
        x = sample("binomial", device, count, n=n, p=p)
        mean, var = n * p, n * p * (1 - p)

        def log_pmf(k, n=n, p=p):
            return (
                math.lgamma(n + 1)
                - log_factorial(k)
                - log_factorial(n - k)
                + k * math.log(p)
                + (n - k) * math.log1p(-p)
            )

        assert x.max() <= n, (n, p)
        pv = pmf_pvalue(x, log_pmf, *window(mean, math.sqrt(var), ceiling=n))
        assert pv > ALPHA, (n, p, pv)
        ok, z = moments_ok(x, mean, var)
        assert ok, (n, p, z)

    assert (sample("binomial", device, 1000, n=7, p=1.0) == 7).all()


@pytest.mark.parametrize("device", DEVICES)
def test_geometric_is_geometric(device):
    for count, p in grid([0.1, 0.9, 0.5, 0.001]):
        x = sample("geometric", device, count, p=p)
        assert x.min() >= 1, p

        def log_pmf(k, p=p):
            return (k - 1) * math.log1p(-p) + math.log(p)

        pv = pmf_pvalue(x, log_pmf, 1, int(40 / p), floor=1)
        assert pv > ALPHA, (p, pv)
        ok, z = moments_ok(x, 1 / p, (1 - p) / (p * p))
        assert ok, (p, z)


@pytest.mark.parametrize("device", DEVICES)
def test_integers_are_uniform(device):
    ranges = [(0, 1000, "int64"), (0, 300, "uint16"), (-100, 100, "int8"), (0, 2, "bool")]
    for count, (low, high, dtype) in grid(ranges + [(3, 2**33 + 3, "int64")]):
        x = sample("integers", device, count, low=low, high=high, dtype=dtype).astype(np.int64)
        span = high - low
        assert x.min() >= low and x.max() < high, dtype
        if span <= 4096:
            counts = np.bincount(x - low, minlength=span)
            p = chisquare_pvalue(counts, np.full(span, x.size / span))
        else:  # 1000 equal bins
            counts = np.bincount(((x - low) * 1000) // span, minlength=1000)
            p = chisquare_pvalue(counts, np.full(1000, x.size / 1000))
        assert p > ALPHA, (low, high, dtype, p)
        ok, z = moments_ok(x.astype(np.float64), (low + high - 1) / 2, (span * span - 1) / 12)
        assert ok, (low, high, dtype, z)
