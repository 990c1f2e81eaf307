"""numcu.random's values follow their distributions (n = 10^6 per test, fixed seeds).

Specification:
- continuous distributions pass a one-sample Kolmogorov-Smirnov test against the exact
  distribution function where it is elementary (uniform, normal, log-normal, exponential) and
  a chi-square test over 100 bins elsewhere (gamma, beta, chi-square);
- discrete distributions (Poisson, binomial, geometric, integers) pass a chi-square test of
  their probability mass function (bins with fewer than 5 expected merged into their
  neighbours) and z-tests of their mean and variance;
- normal tails hold as many values as they should (n = 10^7);
on the CPU backend and on the GPU (gpu).

False-alarm rate: every test rejects at a p-value below ALPHA = 1e-6 (z beyond 5 for the
moments). The seeds are fixed, so each outcome is deterministic; were the seeds drawn at random,
a correct generator would fail any one test with probability about 1e-6, and this file's
~150 tests together with probability below 2e-4.

The distribution functions are computed here (no SciPy): the regularized incomplete gamma and
beta functions by their series and continued fractions, to about 1e-13.
"""

from __future__ import annotations

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
DEVICES = ("cpu", gpu_param("cuda"))


def sample(name, device, seed=None, count=N, **kwargs):
    """`count` values of the method on `device`, seeded from the call (its name and parameters):
    tests of different parameters draw from unrelated streams, each backend from the same."""
    if seed is None:
        seed = zlib.crc32(repr((name, sorted(kwargs.items(), key=str))).encode())
    g = nr.Generator(np.random.Philox(seed))
    x = getattr(g, name)(size=count, device=device, **kwargs)
    return x.get() if isinstance(x, numcu.ndarray) else np.asarray(x)


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


_erfc = np.frompyfunc(math.erfc, 1, 1)


def normal_cdf(x):
    return 0.5 * _erfc(-np.asarray(x, dtype=np.float64) / math.sqrt(2)).astype(np.float64)


def ks_pvalue(x, cdf):
    """The asymptotic p-value of the Kolmogorov-Smirnov statistic of `x` against `cdf`."""
    x = np.sort(np.asarray(x, dtype=np.float64))
    n = x.size
    f = cdf(x)
    d = max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    return min(
        1.0, 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    )


def chisquare_pvalue(observed, expected, fitted=0):
    """P(chi-square > statistic), bins of fewer than 5 expected merged into their neighbours."""
    observed, expected = _merge(np.asarray(observed, float), np.asarray(expected, float))
    stat = float(np.sum((observed - expected) ** 2 / expected))
    dof = observed.size - 1 - fitted
    return 1.0 - gammainc_lower(dof / 2, stat / 2)


def _merge(observed, expected):
    obs, exp = [], []
    o = e = 0.0
    for oi, ei in zip(observed, expected):
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
    """Chi-square over 100 bins whose edges are quantiles of an independent `pilot` sample."""
    edges = np.unique(np.quantile(pilot, np.linspace(0, 1, 101)[1:-1]))
    probs = np.diff([0.0, *[cdf(e) for e in edges], 1.0])
    counts = np.bincount(np.searchsorted(edges, x, side="right"), minlength=edges.size + 1)
    return chisquare_pvalue(counts, probs * x.size)


def moments_ok(x, mean, var):
    """z-tests of the sample mean and variance (the latter through the fourth moment)."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    z_mean = (x.mean() - mean) / math.sqrt(var / n)
    centered = x - mean
    m4 = float(np.mean(centered**4))
    z_var = (float(np.mean(centered**2)) - var) / math.sqrt(max(m4 - var * var, 1e-300) / n)
    return abs(z_mean) < Z_LIMIT and abs(z_var) < Z_LIMIT, (z_mean, z_var)


# ------------------------------------------------------------------------------------------------
# Continuous distributions


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_random_is_uniform(dtype, device):
    x = sample("random", device, dtype=dtype)

    assert x.min() >= 0 and x.max() < 1
    assert ks_pvalue(x, lambda t: t) > ALPHA


@pytest.mark.parametrize("device", DEVICES)
def test_uniform_is_uniform_on_its_interval(device):
    x = sample("uniform", device, low=-2.0, high=3.0)

    assert ks_pvalue(x, lambda t: (t + 2.0) / 5.0) > ALPHA


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_standard_normal_is_normal(dtype, device):
    x = sample("standard_normal", device, dtype=dtype)

    assert ks_pvalue(x, normal_cdf) > ALPHA
    ok, z = moments_ok(x, 0.0, 1.0)
    assert ok, z


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_normal_tails_hold_their_share(dtype, device):
    x = sample("standard_normal", device, seed=77, count=10**7, dtype=dtype)

    for t in (3.0, 4.0, 4.5):
        expected = 10**7 * math.erfc(t / math.sqrt(2))
        got = int(np.count_nonzero(np.abs(x) > t))
        assert abs(got - expected) < Z_LIMIT * math.sqrt(expected), (t, got, expected)


@pytest.mark.parametrize("device", DEVICES)
def test_normal_is_normal_with_its_parameters(device):
    x = sample("normal", device, loc=1.5, scale=2.5)

    assert ks_pvalue(x, lambda t: normal_cdf((t - 1.5) / 2.5)) > ALPHA


@pytest.mark.parametrize("device", DEVICES)
def test_lognormal_is_the_exponential_of_a_normal(device):
    x = sample("lognormal", device, mean=0.3, sigma=0.7)

    assert x.min() > 0
    assert ks_pvalue(np.log(x), lambda t: normal_cdf((t - 0.3) / 0.7)) > ALPHA


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_standard_exponential_is_exponential(dtype, device):
    x = sample("standard_exponential", device, dtype=dtype)

    assert x.min() >= 0
    assert ks_pvalue(x, lambda t: -np.expm1(-t)) > ALPHA


@pytest.mark.parametrize("device", DEVICES)
def test_exponential_is_exponential_with_its_scale(device):
    x = sample("exponential", device, scale=2.0)

    assert ks_pvalue(x, lambda t: -np.expm1(-t / 2.0)) > ALPHA


PILOT = np.random.default_rng(12345)  # NumPy's: bin edges independent of numcu's values


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(
    ("shape", "dtype"),
    [(0.05, "f8"), (0.3, "f8"), (1.0, "f8"), (2.5, "f8"), (30.0, "f8"), (2.5, "f4"), (0.5, "f4")],
)
def test_standard_gamma_is_gamma(shape, dtype, device):
    x = sample("standard_gamma", device, shape=shape, dtype=dtype).astype(np.float64)

    assert x.min() >= 0
    assert binned_pvalue(x, lambda t: gammainc_lower(shape, t), PILOT.gamma(shape, size=N)) > ALPHA
    ok, z = moments_ok(x, shape, shape)
    assert ok, z


@pytest.mark.parametrize("device", DEVICES)
def test_gamma_has_its_scale(device):
    x = sample("gamma", device, shape=4.0, scale=0.5)

    assert (
        binned_pvalue(x, lambda t: gammainc_lower(4.0, t / 0.5), PILOT.gamma(4.0, 0.5, N)) > ALPHA
    )


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(("a", "b"), [(0.5, 0.5), (2.0, 5.0), (0.1, 0.2), (40.0, 3.0)])
def test_beta_is_beta(a, b, device):
    x = sample("beta", device, a=a, b=b)

    assert x.min() >= 0 and x.max() <= 1
    assert binned_pvalue(x, lambda t: betainc(a, b, t), PILOT.beta(a, b, N)) > ALPHA
    ok, z = moments_ok(x, a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1)))
    assert ok, z


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("df", [0.5, 3.0, 50.0])
def test_chisquare_is_chisquare(df, device):
    x = sample("chisquare", device, df=df)

    assert binned_pvalue(x, lambda t: gammainc_lower(df / 2, t / 2), PILOT.chisquare(df, N)) > ALPHA


# ------------------------------------------------------------------------------------------------
# Discrete distributions


def pmf_pvalue(x, log_pmf, low, high, floor=0):
    """Chi-square of the counts of low .. high, and of the two tails beyond, against the pmf
    (whose support starts at `floor`)."""
    x = np.asarray(x, dtype=np.int64)
    counts = np.bincount(np.clip(x - low + 1, 0, high - low + 2), minlength=high - low + 3)
    probs = np.array([math.exp(log_pmf(k)) for k in range(low, high + 1)])
    below = sum(math.exp(log_pmf(k)) for k in range(max(floor, low - 200), low))
    probs = np.concatenate([[below], probs, [max(0.0, 1.0 - below - probs.sum())]])
    return chisquare_pvalue(counts, probs * x.size)


def window(mean, sd, floor=0, ceiling=None):
    low = max(floor, int(mean - 12 * sd))
    high = int(mean + 12 * sd + 15)
    return low, high if ceiling is None else min(ceiling, high)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lam", [0.5, 4.0, 9.99, 10.0, 55.5, 1.0e4])
def test_poisson_is_poisson(lam, device):
    x = sample("poisson", device, lam=lam)

    log_pmf = lambda k: k * math.log(lam) - lam - math.lgamma(k + 1)  # noqa: E731
    assert pmf_pvalue(x, log_pmf, *window(lam, math.sqrt(lam))) > ALPHA
    ok, z = moments_ok(x, lam, lam)
    assert ok, z


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(
    ("n", "p"), [(20, 0.3), (100, 0.05), (1000, 0.45), (500, 0.97), (10**9, 1e-3), (7, 1.0)]
)
def test_binomial_is_binomial(n, p, device):
    x = sample("binomial", device, n=n, p=p)

    mean, var = n * p, n * p * (1 - p)
    if p == 1.0:
        assert (x == n).all()
        return

    def log_pmf(k):
        return (
            math.lgamma(n + 1)
            - math.lgamma(k + 1)
            - math.lgamma(n - k + 1)
            + k * math.log(p)
            + (n - k) * math.log1p(-p)
        )

    assert x.max() <= n
    assert pmf_pvalue(x, log_pmf, *window(mean, math.sqrt(var), ceiling=n)) > ALPHA
    ok, z = moments_ok(x, mean, var)
    assert ok, z


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("p", [0.9, 0.5, 0.1, 0.001])
def test_geometric_is_geometric(p, device):
    x = sample("geometric", device, p=p)

    assert x.min() >= 1
    log_pmf = lambda k: (k - 1) * math.log1p(-p) + math.log(p)  # noqa: E731
    assert pmf_pvalue(x, log_pmf, 1, int(40 / p), floor=1) > ALPHA
    ok, z = moments_ok(x, 1 / p, (1 - p) / (p * p))
    assert ok, z


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(
    ("low", "high", "dtype"),
    [
        (0, 1000, "int64"),
        (0, 300, "uint16"),
        (-100, 100, "int8"),
        (0, 2, "bool"),
        (3, 2**33 + 3, "int64"),
    ],
)
def test_integers_are_uniform(low, high, dtype, device):
    x = sample("integers", device, low=low, high=high, dtype=dtype).astype(np.int64)

    span = high - low
    assert x.min() >= low and x.max() < high
    if span <= 4096:
        counts = np.bincount(x - low, minlength=span)
        assert chisquare_pvalue(counts, np.full(span, x.size / span)) > ALPHA
    else:  # 1000 equal bins
        counts = np.bincount(((x - low) * 1000) // span, minlength=1000)
        assert chisquare_pvalue(counts, np.full(1000, x.size / 1000)) > ALPHA
    ok, z = moments_ok(x.astype(np.float64), (low + high - 1) / 2, (span * span - 1) / 12)
    assert ok, z
