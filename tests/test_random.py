"""numcu.random: NumPy's Generator on NumPy's Philox stream.

Specification:
- Philox4x64 gives Random123's published known-answer vectors (7 and 10 rounds);
- with the same Philox state, the raw 64-bit words, ``random`` (float64 and float32, NumPy's
  buffered 32-bit draws included), ``uniform``, ``geometric`` (p >= 1/3) and ``integers``
  (every dtype, where NumPy rejects no draw) are NumPy's values bit for bit, and after every
  call the bit generator's state (counter, buffer, buffer_pos, has_uint32, uinteger) is
  NumPy's, so NumPy carries on where numcu stopped; ``standard_exponential`` is NumPy's
  method='inv' within one unit in the last place;
- every method of the table (``numcu.random.DISTRIBUTIONS``) gives the same values made in one
  call or in two, whatever the split (NumPy's buffered words and pending half included), and
  the same on any number of CPU threads;
- CPU and GPU give the same bits for every method and dtype (gpu);
- bad parameters raise NumPy's exception types with NumPy's messages, before any draw;
- size=, out=, dtype=, device= and the module-level functions behave as documented.
Statistical tests are in test_random_stats.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import gpu_param

import numcu
import numcu.random as nr

SEEDS = (0, 1234, 2**63 + 12345)
TABLE = {entry[0]: entry for entry in nr.DISTRIBUTIONS}
DEVICES = ("cpu", gpu_param("cuda"))

# One call per method of the table, with parameters that reach each algorithm's branches.
CALLS = {
    "random": [{}, {"dtype": np.float32}],
    "uniform": [{"low": -3.0, "high": 5.0}],
    "standard_normal": [{}, {"dtype": np.float32}],
    "normal": [{"loc": 2.0, "scale": 3.0}],
    "lognormal": [{"mean": 0.5, "sigma": 0.75}],
    "standard_exponential": [{}, {"dtype": np.float32}],
    "exponential": [{"scale": 2.5}],
    "standard_gamma": [{"shape": 2.5}, {"shape": 0.4}, {"shape": 3.0, "dtype": np.float32}],
    "gamma": [{"shape": 7.0, "scale": 0.5}, {"shape": 0.2}],
    "beta": [{"a": 2.0, "b": 5.0}, {"a": 0.3, "b": 0.6}],
    "chisquare": [{"df": 3.0}],
    "poisson": [{"lam": 3.5}, {"lam": 40.0}],
    "binomial": [{"n": 20, "p": 0.3}, {"n": 1000, "p": 0.45}, {"n": 100, "p": 0.95}],
    "geometric": [{"p": 0.5}, {"p": 0.02}],
    "integers": [
        {"low": 0, "high": 1000},
        {"low": -(2**40), "high": 2**50},
        {"low": -5, "high": 100, "dtype": np.int32},
        {"low": 0, "high": 300, "dtype": np.uint16},
        {"low": -100, "high": 100, "dtype": np.int8},
        {"low": 0, "high": 2, "dtype": np.bool_},
    ],
}
CASES = [(name, kwargs) for name, calls in CALLS.items() for kwargs in calls]
CASE_IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in kw.items())}" for name, kw in CASES]


def same_state(a, b):
    """Two Philox states are equal in every field NumPy keeps."""
    return (
        np.array_equal(a["state"]["counter"], b["state"]["counter"])
        and np.array_equal(a["state"]["key"], b["state"]["key"])
        and np.array_equal(a["buffer"], b["buffer"])
        and (a["buffer_pos"], a["has_uint32"], a["uinteger"])
        == (b["buffer_pos"], b["has_uint32"], b["uinteger"])
    )


def pair(seed):
    """A NumPy Generator and a numcu Generator on two Philox bit generators of one seed."""
    a, b = np.random.Philox(seed), np.random.Philox(seed)
    return np.random.Generator(a), nr.Generator(b)


def draw(g, name, size, device, **kwargs):
    result = getattr(g, name)(size=size, device=device, **kwargs)
    return result.get() if isinstance(result, numcu.ndarray) else np.asarray(result)


def test_every_method_of_the_table_is_tested():
    assert set(CALLS) == set(TABLE)


def test_the_table_names_the_generator_methods():
    for name in TABLE:
        assert callable(getattr(nr.Generator, name)), name
        assert getattr(nr.Generator, name).__doc__, name


# ------------------------------------------------------------------------------------------------
# Philox4x64


# Random123's kat_vectors (philox4x64: rounds, counter[4], key[2], expected[4]).
KAT = """
7 0000000000000000 0000000000000000 0000000000000000 0000000000000000 0000000000000000 0000000000000000 5dc8ee6268ec62cd 139bc570b6c125a0 84d6deb4fb65f49e aff7583376d378c2
7 ffffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff 071dd84367903154 48e2bbdc722b37d1 6afa9890bb89f76c 9194c8d8ada56ac7
7 243f6a8885a308d3 13198a2e03707344 a4093822299f31d0 082efa98ec4e6c89 452821e638d01377 be5466cf34e90c6c 513a366704edf755 f05d9924c07044d3 bef2cb9cbea74c6c 8db948de4caa1f8a
10 0000000000000000 0000000000000000 0000000000000000 0000000000000000 0000000000000000 0000000000000000 16554d9eca36314c db20fe9d672d0fdc d7e772cee186176b 7e68b68aec7ba23b
10 ffffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff 87b092c3013fe90b 438c3c67be8d0224 9cc7d7c69cd777b6 a09caebf594f0ba0
10 243f6a8885a308d3 13198a2e03707344 a4093822299f31d0 082efa98ec4e6c89 452821e638d01377 be5466cf34e90c6c a528f45403e61d95 38c72dbd566e9788 a5a1610e72fd18b5 57bd43b5e52b7fe6
"""  # noqa: E501


@pytest.mark.parametrize("line", KAT.strip().splitlines())
def test_philox_known_answer_vectors(line):
    fields = line.split()
    rounds, words = int(fields[0]), [int(x, 16) for x in fields[1:]]

    got = numcu._core._philox(words[:4], words[4:6], rounds)

    assert got == words[6:]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("seed", SEEDS)
def test_raw_words_are_numpys(seed, device):
    # integers over all of uint64 is NumPy's next_uint64: the bit generator's words.
    bits = np.random.Philox(seed)
    expected = bits.random_raw(1001)
    g = nr.Generator(np.random.Philox(seed))

    got = draw(g, "integers", 1001, device, low=0, high=2**64, dtype=np.uint64)

    np.testing.assert_array_equal(got, expected)
    assert same_state(g.bit_generator.state, bits.state)


# Counters of every word. The kernels take a shortcut where a call's blocks share all but the low
# 32 bits of their counter (the others the same in every block); the calls that cross a multiple
# of 2^32 blocks (and the one carrying into the counter's second word) take the general path.
LARGE_COUNTERS = {
    "just-below-2^32": [2**32 - 2000, 0, 0, 0],
    "crosses-2^32": [2**32 - 300, 0, 0, 0],
    "at-2^32": [2**32, 0, 0, 0],
    "carries-into-word-1": [2**64 - 300, 0, 0, 0],
    "word-2-set": [12, 0, 5, 0],
    "word-3-set": [2**40, 2**63, 0, 1],
}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("counter", list(LARGE_COUNTERS))
def test_large_counters_give_numpys_values(counter, device):
    def bits():
        return np.random.Philox(
            counter=np.array(LARGE_COUNTERS[counter], dtype=np.uint64),
            key=np.array([0x1234567, 2**63 + 99], dtype=np.uint64),
        )

    expected_g, g = np.random.Generator(bits()), nr.Generator(bits())
    for dtype in (np.float32, np.float64, np.float32):
        expected = expected_g.random(3001, dtype=dtype)

        got = draw(g, "random", 3001, device, dtype=dtype)

        np.testing.assert_array_equal(got, expected)
    expected = expected_g.integers(0, 2**64, 2001, dtype=np.uint64)
    got = draw(g, "integers", 2001, device, low=0, high=2**64, dtype=np.uint64)
    np.testing.assert_array_equal(got, expected)
    assert same_state(g.bit_generator.state, expected_g.bit_generator.state)


# ------------------------------------------------------------------------------------------------
# NumPy's values and NumPy's state


CALL_SEQUENCES = [
    [("f8", 5)],
    [("f4", 3), ("f8", 2), ("f4", 5), ("f4", 1)],
    [("f4", 8), ("f4", 1000), ("f8", 7)],
    [("f8", 1), ("f4", 1), ("f8", 1), ("f4", 2), ("f4", 17)],
    [("f4", 100_003), ("f8", 65_537)],
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("sequence", CALL_SEQUENCES, ids=str)
def test_random_is_numpys_call_after_call(sequence, device):
    expected_g, g = pair(7)
    for dtype, n in sequence:
        expected = expected_g.random(n, dtype=dtype)

        got = draw(g, "random", n, device, dtype=dtype)

        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
        assert same_state(g.bit_generator.state, expected_g.bit_generator.state)


@pytest.mark.parametrize("device", DEVICES)
def test_numpy_carries_on_from_numcus_state(device):
    expected_g, g = pair(99)
    expected_g.random(5, dtype=np.float32)
    draw(g, "random", 5, device, dtype=np.float32)
    carry_on = np.random.Generator(g.bit_generator)

    np.testing.assert_array_equal(carry_on.standard_normal(9), expected_g.standard_normal(9))
    np.testing.assert_array_equal(carry_on.random(7, np.float32), expected_g.random(7, np.float32))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("seed", SEEDS)
def test_uniform_is_numpys(seed, device):
    expected_g, g = pair(seed)
    low = np.linspace(-4, 4, 7)

    got = [draw(g, "uniform", 1001, device, low=-2.5, high=7.0)]
    got.append(draw(g, "uniform", None, device, low=low[:, None], high=[9.0, 10.0]))

    np.testing.assert_array_equal(got[0], expected_g.uniform(-2.5, 7.0, 1001))
    np.testing.assert_array_equal(got[1], expected_g.uniform(low[:, None], [9.0, 10.0]))
    assert same_state(g.bit_generator.state, expected_g.bit_generator.state)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("p", [1 / 3 + 1e-12, 0.5, 0.99, 1.0])
def test_geometric_search_is_numpys(p, device):
    expected_g, g = pair(3)

    got = draw(g, "geometric", 5003, device, p=p)

    np.testing.assert_array_equal(got, expected_g.geometric(p, 5003))
    assert same_state(g.bit_generator.state, expected_g.bit_generator.state)


# Ranges whose size is a power of two, where Lemire's method never rejects: NumPy's values for
# every dtype and every width of draw; and wide 64-bit ranges, where a rejection has a
# probability below 2^-20 per value.
INTEGER_RANGES = [
    ("bool", 0, 1),
    ("int8", -128, 127),
    ("int8", -16, 15),
    ("uint8", 0, 63),
    ("int16", -512, 511),
    ("uint16", 0, 65535),
    ("int32", -(2**31), 2**31 - 1),
    ("int32", 10, 10 + 2**20 - 1),
    ("uint32", 0, 2**16 - 1),
    ("int64", 0, 1023),
    ("int64", -(2**40), 2**44),
    ("uint64", 5, 2**63),
    ("int64", 7, 7),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("first", [0, 1, 3])
@pytest.mark.parametrize(("dtype", "low", "high"), INTEGER_RANGES, ids=str)
def test_integers_are_numpys(dtype, low, high, first, device):
    # `first` float32 values leave NumPy's buffer and pending half at other places.
    expected_g, g = pair(11)
    expected_g.random(first, dtype=np.float32)
    draw(g, "random", first, device, dtype=np.float32)

    got = [
        draw(g, "integers", n, device, low=low, high=high, dtype=dtype, endpoint=True)
        for n in (64, 7, 1000)
    ]

    for n, values in zip((64, 7, 1000), got):
        expected = expected_g.integers(low, high, n, dtype=dtype, endpoint=True)
        assert values.dtype == expected.dtype
        np.testing.assert_array_equal(values, expected)
    assert same_state(g.bit_generator.state, expected_g.bit_generator.state)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("first", range(9))
@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("random", {"dtype": np.float32}),
        ("random", {}),
        ("integers", {"low": 0, "high": 1024}),
        ("integers", {"low": -128, "high": 128, "dtype": np.int16}),
        ("integers", {"low": 0, "high": 64, "dtype": np.uint8}),
        ("integers", {"low": 0, "high": 2**40}),
    ],
    ids=str,
)
def test_values_are_numpys_after_every_head(name, kwargs, first, device):
    # NumPy's values (integer ranges of a power of two, where NumPy never rejects a draw). After
    # `first` float32 values, NumPy's buffer and pending half hold 0 to 8 halves, so the call's
    # whole Philox blocks start at every alignment; 5000 values give GPU warps whose blocks are
    # all whole (written together) and a warp cut short.
    expected_g, g = pair(13)
    expected_g.random(first, dtype=np.float32)
    draw(g, "random", first, device, dtype=np.float32)

    got = draw(g, name, 5000, device, **kwargs)

    expected = getattr(expected_g, name)(size=5000, **kwargs)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    assert same_state(g.bit_generator.state, expected_g.bit_generator.state)


def test_integers_keep_numpys_values_until_numpy_rejects():
    # int64 in [0, 1000): NumPy rejects a 32-bit draw with probability 296 / 2^32.
    expected_g, g = pair(5)

    got = g.integers(0, 1000, 100_000, device="cpu")

    np.testing.assert_array_equal(got, expected_g.integers(0, 1000, 100_000))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_standard_exponential_is_numpys_inversion(dtype, device):
    expected_g, g = pair(21)

    got = draw(g, "standard_exponential", 20_001, device, dtype=dtype, method="inv")

    expected = expected_g.standard_exponential(20_001, dtype=dtype, method="inv")
    assert got.dtype == expected.dtype
    np.testing.assert_array_max_ulp(got, expected, maxulp=1)
    assert same_state(g.bit_generator.state, expected_g.bit_generator.state)


@pytest.mark.parametrize("seed", SEEDS)
def test_seeding_spawn_and_jumps_are_numpys(seed):
    expected = np.random.Generator(np.random.Philox(seed))
    g = nr.default_rng(seed)
    np.testing.assert_array_equal(g.random(9, device="cpu"), expected.random(9))

    for child, expected_child in zip(g.spawn(3), expected.spawn(3)):
        np.testing.assert_array_equal(child.random(5, device="cpu"), expected_child.random(5))
    jumped = nr.Generator(g.bit_generator.jumped(2))
    np.testing.assert_array_equal(
        jumped.random(6, device="cpu"),
        np.random.Generator(expected.bit_generator.jumped(2)).random(6),
    )
    g.bit_generator.advance(12345)
    expected.bit_generator.advance(12345)
    np.testing.assert_array_equal(g.random(4, device="cpu"), expected.random(4))


def test_default_rng_takes_numpys_seeds_and_generators():
    seq = np.random.SeedSequence(42)
    philox = np.random.Philox(seq)
    expected = np.random.Generator(np.random.Philox(np.random.SeedSequence(42))).random(4)

    for seed in (np.random.SeedSequence(42), np.random.Philox(np.random.SeedSequence(42))):
        np.testing.assert_array_equal(nr.default_rng(seed).random(4, device="cpu"), expected)
    g = nr.default_rng(np.random.Generator(philox))
    assert g.bit_generator is philox
    assert nr.default_rng(g) is g
    with pytest.raises(TypeError, match="Philox"):
        nr.Generator(np.random.PCG64(1))


# ------------------------------------------------------------------------------------------------
# Counter-based: splits, threads and devices do not change a value


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=CASE_IDS)
def test_two_calls_give_one_calls_values(name, kwargs, device):
    # Splits after 1, 3 and 37 values move the second call's start into NumPy's buffered words
    # and pending half; 8- and 16-bit integers and bool split where NumPy's packing allows.
    pack = {"bool": 32, "int8": 4, "uint16": 2}.get(
        np.dtype(kwargs.get("dtype", np.float64)).name, 1
    )
    n = 3001
    whole_g = nr.Generator(np.random.Philox(17))
    whole = draw(whole_g, name, n, device, **kwargs)
    for first in (1, 3, 37):
        split = first * pack
        g = nr.Generator(np.random.Philox(17))

        parts = [draw(g, name, split, device, **kwargs), draw(g, name, n - split, device, **kwargs)]

        np.testing.assert_array_equal(np.concatenate(parts), whole)
        assert same_state(g.bit_generator.state, whole_g.bit_generator.state)


@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=CASE_IDS)
def test_threads_do_not_change_a_value(name, kwargs):
    n = 300_007
    before = numcu.get_num_threads()
    try:
        numcu.set_num_threads(1)
        one = draw(nr.Generator(np.random.Philox(4)), name, n, "cpu", **kwargs)
        numcu.set_num_threads(max(2, before))
        many = draw(nr.Generator(np.random.Philox(4)), name, n, "cpu", **kwargs)
    finally:
        numcu.set_num_threads(before)

    np.testing.assert_array_equal(one, many)


# Draws before the call: NumPy's buffer and pending half left in other places (the last: a
# pending half whose word is no longer in the buffer).
OFFSETS = {
    "none": [],
    "f4x1": [(np.float32, 1)],
    "f4x5": [(np.float32, 5)],
    "f4x3-f8x1": [(np.float32, 3), (np.float64, 1)],
}


@pytest.mark.gpu
@pytest.mark.parametrize("offset", list(OFFSETS))
@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=CASE_IDS)
def test_cpu_and_gpu_give_the_same_bits(name, kwargs, offset):
    # Half a million values from the stream's start; after an offset, which moves only the first
    # values' words, a few thousand (still many Philox blocks and GPU threads).
    shape = (517, 1023) if offset == "none" else (37, 101)
    results, states = [], []
    for device in ("cpu", "cuda"):
        g = nr.Generator(np.random.Philox(23))
        for dtype, n in OFFSETS[offset]:
            draw(g, "random", n, device, dtype=dtype)
        results.append(draw(g, name, shape, device, **kwargs))
        states.append(g.bit_generator.state)

    assert results[0].dtype == results[1].dtype
    np.testing.assert_array_equal(results[0], results[1])
    assert same_state(*states)


@pytest.mark.gpu
@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=CASE_IDS)
def test_gpu_values_are_the_cpus_at_scale(name, kwargs):
    # Enough values that every GPU thread makes several blocks' values.
    n = 3 * 2**20 + 5
    cpu = draw(nr.Generator(np.random.Philox(8)), name, n, "cpu", **kwargs)

    gpu = draw(nr.Generator(np.random.Philox(8)), name, n, "cuda", **kwargs)

    np.testing.assert_array_equal(cpu, gpu)


@pytest.mark.gpu
def test_gpu_values_on_streams_and_into_out():
    g1, g2 = nr.default_rng(5), nr.default_rng(5)
    s = numcu.cuda.Stream(non_blocking=True)
    out = numcu.empty((1000,), dtype="float32")

    a = g1.standard_normal((1000,), dtype=np.float32, stream=s)
    g2.standard_normal(out=out, dtype=np.float32)
    s.synchronize()

    assert isinstance(a, numcu.ndarray)
    np.testing.assert_array_equal(a.get(), out.get())


@pytest.mark.gpu
def test_device_array_parameters_keep_the_work_on_their_gpu():
    loc = numcu.asarray(np.arange(6.0))
    expected = nr.default_rng(2).normal(np.arange(6.0), 2.0, device="cpu")

    got = nr.default_rng(2).normal(loc, 2.0)

    assert isinstance(got, numcu.ndarray)
    np.testing.assert_array_equal(got.get(), expected)


# ------------------------------------------------------------------------------------------------
# Parameters, size, out, dtype


def test_parameters_broadcast_against_size():
    g = nr.default_rng(1)
    loc = np.arange(3.0)

    assert g.normal(loc, 1.0, device="cpu").shape == (3,)
    assert g.normal(loc[:, None], [1.0, 2.0], device="cpu").shape == (3, 2)
    assert g.normal(loc, 1.0, size=(4, 3), device="cpu").shape == (4, 3)


@pytest.mark.parametrize("name", ["normal", "lognormal"])
def test_array_parameters_apply_value_by_value(name):
    # normal(loc, scale) is loc + scale * z with z standard_normal()'s value at that position.
    loc = np.linspace(-3, 3, 11)
    z = nr.default_rng(3).standard_normal(11, device="cpu")

    got = getattr(nr.default_rng(3), name)(loc, 2.0, device="cpu")

    expected = loc + 2.0 * z
    if name == "lognormal":
        np.testing.assert_allclose(got, np.exp(expected), rtol=4e-16)
    else:
        np.testing.assert_array_equal(got, expected)


def test_a_single_value_is_a_python_number_on_the_host():
    g = nr.default_rng(0)

    assert type(g.random(device="cpu")) is float
    assert type(g.random(dtype=np.float32, device="cpu")) is float
    assert type(g.normal(device="cpu")) is float
    assert type(g.poisson(3.0, device="cpu")) is int
    assert type(g.integers(5, device="cpu")) is np.int64
    assert type(g.integers(5, dtype=int, device="cpu")) is int
    assert g.random(size=(), device="cpu").shape == ()


def test_out_is_filled_in_memory_order():
    expected = nr.default_rng(4).random(12, device="cpu")
    out_c = np.full((3, 4), np.nan)
    out_f = np.full((3, 4), np.nan, order="F")

    nr.default_rng(4).random(out=out_c, device="cpu")
    nr.default_rng(4).random(out=out_f, device="cpu")

    np.testing.assert_array_equal(out_c.ravel(order="C"), expected)
    np.testing.assert_array_equal(out_f.ravel(order="F"), expected)


def test_zero_values_draw_nothing():
    g = nr.default_rng(4)
    before = g.bit_generator.state

    assert g.standard_normal((0, 3), device="cpu").shape == (0, 3)
    assert same_state(before, g.bit_generator.state)


# ------------------------------------------------------------------------------------------------
# Errors: NumPy's types and messages


ERRORS = [
    ("normal", (0.0, -1.0), {}),
    ("normal", (0.0, [1.0, -0.0]), {}),
    ("exponential", (-2.0,), {}),
    ("gamma", (-1.0,), {}),
    ("standard_gamma", (-1.0,), {}),
    ("beta", (0.0, 1.0), {}),
    ("chisquare", (0.0,), {}),
    ("poisson", (-1.0,), {}),
    ("poisson", (float("nan"),), {}),
    ("poisson", (1e19,), {}),
    ("binomial", (10, 1.5), {}),
    ("binomial", (-1, 0.5), {}),
    ("geometric", (0.0,), {}),
    ("geometric", ([0.5, 1.5],), {}),
    ("uniform", (-1e308, 1e308), {}),
    ("integers", (5, 5), {}),
    ("integers", (0,), {}),
    ("integers", (-1, 5), {"dtype": np.uint8}),
    ("integers", (0, 300), {"dtype": np.uint8}),
    ("integers", ([0, 4], 3), {}),
    ("integers", (0, 5), {"dtype": np.float64}),
    ("random", (), {"dtype": np.int32}),
    ("standard_normal", (), {"dtype": np.float16}),
    ("random", (), {"size": -1}),
    ("normal", (0.0, [1.0, 2.0]), {"size": (3, 3)}),
    ("normal", (0.0, [1.0, 2.0]), {"size": (3, 1)}),
    ("random", (), {"out": np.empty(3, np.float32)}),
    ("random", (), {"out": np.empty(4), "size": 3}),
    ("random", (), {"out": np.empty((4, 4))[:, ::2]}),
]


@pytest.mark.parametrize(
    ("name", "args", "kwargs"),
    ERRORS,
    ids=lambda v: (
        repr(v)
        if not isinstance(v, dict)
        else repr(
            {
                k: (f"<{type(a).__name__} {a.dtype} {a.shape}>" if isinstance(a, np.ndarray) else a)
                for k, a in v.items()
            }
        )
    ),
)
def test_bad_arguments_raise_numpys_errors_before_any_draw(name, args, kwargs):
    numpy_g = np.random.Generator(np.random.Philox(1))
    with pytest.raises(Exception) as expected:  # noqa: PT011 - NumPy's, whatever it is
        getattr(numpy_g, name)(*args, **kwargs)
    g = nr.default_rng(1)
    before = g.bit_generator.state

    with pytest.raises(expected.type) as got:
        getattr(g, name)(*args, device="cpu", **kwargs)

    assert str(expected.value) in str(got.value)
    assert same_state(before, g.bit_generator.state)


def test_size_overflow_is_a_value_error():
    with pytest.raises(ValueError, match="too big"):
        nr.default_rng(1).random((2**40, 2**40), device="cpu")


# ------------------------------------------------------------------------------------------------
# The module-level functions


def test_module_level_functions_draw_from_a_module_generator():
    nr.seed(77)
    first = (nr.rand(2, 3, device="cpu"), nr.randn(4, device="cpu"))
    nr.seed(77)
    again = (nr.rand(2, 3, device="cpu"), nr.randn(4, device="cpu"))

    assert first[0].shape == (2, 3) and first[1].shape == (4,)
    np.testing.assert_array_equal(first[0], again[0])
    np.testing.assert_array_equal(first[1], again[1])
    assert type(nr.rand(device="cpu")) is float
    assert nr.randint(5, size=10, device="cpu").dtype == np.int64
    assert ((0 <= nr.random(100, device="cpu")) & (nr.random(100, device="cpu") < 1)).all()
    assert nr.normal(3.0, 0.0, 4, device="cpu").tolist() == [3.0] * 4
    assert nr.uniform(2.0, 2.0, 3, device="cpu").tolist() == [2.0] * 3
    # Not NumPy's MT19937 stream: numpy.random.seed(77) gives other values.
    legacy = np.random.RandomState(77)
    assert not np.array_equal(legacy.random_sample((2, 3)), again[0])


# ------------------------------------------------------------------------------------------------
# choice, permutation, shuffle, permuted


@pytest.mark.parametrize("device", DEVICES)
def test_choice_with_replacement_is_numpys(device):
    expected_g, g = pair(31)
    p = np.array([0.1, 0.25, 0.05, 0.3, 0.3])
    pool = np.arange(100.0) * 1.5

    got = [
        np.asarray(numcu.asnumpy(g.choice(1000, 777, device=device))),
        np.asarray(numcu.asnumpy(g.choice(5, (20, 3), p=p, device=device))),
        np.asarray(numcu.asnumpy(g.choice(pool, 50, device=device))),
    ]

    np.testing.assert_array_equal(got[0], expected_g.choice(1000, 777))
    np.testing.assert_array_equal(got[1], expected_g.choice(5, (20, 3), p=p))
    np.testing.assert_array_equal(got[2], expected_g.choice(pool, 50))
    assert same_state(g.bit_generator.state, expected_g.bit_generator.state)


POOL_PRODUCERS = ("numpy", gpu_param("numcu"))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("producer", POOL_PRODUCERS)
@pytest.mark.parametrize(
    ("replace", "with_p"), [(True, False), (True, True), (False, False), (False, True)]
)
def test_choice_takes_the_pool_where_the_result_goes(device, producer, replace, with_p):
    # Every path of choice: the pool (on the host or a GPU) goes where `device` says, and the
    # result is the pool at the indices an integer population gives from the same state.
    rng = np.random.default_rng(35)
    pool = rng.standard_normal((30, 2))
    p = rng.random(30) if with_p else None
    if p is not None:
        p /= p.sum()
    a, b = nr.default_rng(36), nr.default_rng(36)
    source = pool if producer == "numpy" else numcu.asarray(pool)

    got = a.choice(source, 12, replace=replace, p=p, device=device)
    idx = b.choice(30, 12, replace=replace, p=p, device=device)

    assert isinstance(got, numcu.ndarray) == (device != "cpu")
    np.testing.assert_array_equal(numcu.asnumpy(got), pool[numcu.asnumpy(idx)])


@pytest.mark.gpu
@pytest.mark.parametrize("call", ["permutation", "permuted-rows", "permuted-all"])
def test_a_host_array_is_reordered_where_device_says(call):
    x = np.random.default_rng(37).standard_normal((12, 5))
    run = {
        "permutation": lambda g, d: g.permutation(x, device=d),
        "permuted-rows": lambda g, d: g.permuted(x, axis=1, device=d),
        "permuted-all": lambda g, d: g.permuted(x, device=d),
    }[call]

    got = run(nr.default_rng(38), "cuda")

    assert isinstance(got, numcu.ndarray)
    np.testing.assert_array_equal(got.get(), run(nr.default_rng(38), "cpu"))


def test_choice_without_replacement_with_p_is_numpys():
    expected_g, g = pair(32)
    p = np.linspace(1, 2, 40)
    p /= p.sum()

    got = g.choice(40, 25, replace=False, p=p, device="cpu")

    np.testing.assert_array_equal(got, expected_g.choice(40, 25, replace=False, p=p))


def test_choice_without_replacement_draws_distinct_values_uniformly():
    g = nr.default_rng(33)

    draws = np.stack([g.choice(10, 3, replace=False, device="cpu") for _ in range(3000)])

    assert all(len(set(row)) == 3 for row in draws.tolist())
    # Every value equally often in every position: 300 expected per cell.
    counts = np.stack([np.bincount(draws[:, j], minlength=10) for j in range(3)])
    assert np.all(np.abs(counts - 300) < 5 * np.sqrt(300))


@pytest.mark.gpu
def test_choice_without_replacement_on_the_gpu_is_the_cpus_call_after_call():
    # The GPU's small draws are the CPU's, call after call (so the CPU's statistics above hold
    # for them), with the same state after.
    on_cpu, on_gpu = nr.default_rng(33), nr.default_rng(33)
    for k in [3, 1, 9, 3, 5] * 20:
        expected = on_cpu.choice(10, k, replace=False, device="cpu")

        got = on_gpu.choice(10, k, replace=False, device="cuda")

        np.testing.assert_array_equal(numcu.asnumpy(got), expected)
    assert same_state(on_gpu.bit_generator.state, on_cpu.bit_generator.state)


@pytest.mark.parametrize("device", DEVICES)
def test_permutations_are_uniform(device):
    # permuted() orders each row of 4 by its 4 raw draws, in C order: the values of 24000 calls
    # of permutation(4) in a row, in one call (the first 40 calls are checked against it). All
    # 24 orders of 4 elements: 1000 expected each (5 sigma bounds).
    rows = nr.default_rng(34).permuted(np.tile(np.arange(4), (24_000, 1)), axis=1, device=device)
    rows = np.asarray(numcu.asnumpy(rows))
    g = nr.default_rng(34)
    for row in rows[:40]:
        np.testing.assert_array_equal(numcu.asnumpy(g.permutation(4, device=device)), row)

    orders, counts = np.unique(rows, axis=0, return_counts=True)

    assert len(orders) == 24 and counts.sum() == 24_000
    assert np.all(np.abs(counts - 1000) < 5 * np.sqrt(1000))


def test_permutation_shuffle_and_permuted_agree():
    x = np.arange(24).reshape(6, 4)

    moved = nr.default_rng(35).permutation(x)
    shuffled = x.copy()
    nr.default_rng(35).shuffle(shuffled)
    by_rows = nr.default_rng(35).permuted(x, axis=1)

    np.testing.assert_array_equal(moved, shuffled)
    np.testing.assert_array_equal(np.sort(moved, axis=0), x)
    np.testing.assert_array_equal(np.sort(by_rows, axis=1), x)
    assert not np.array_equal(by_rows, x)


@pytest.mark.gpu
@pytest.mark.parametrize("method", ["permutation", "choice", "permuted"])
def test_permutations_are_the_same_on_cpu_and_gpu(method):
    calls = {
        "permutation": lambda g, d: g.permutation(100_003, device=d),
        "choice": lambda g, d: g.choice(2**20, 5000, replace=False, device=d),
        "permuted": lambda g, d: g.permuted(
            numcu.asarray(np.arange(3000).reshape(30, 100))
            if d == "cuda"
            else np.arange(3000).reshape(30, 100),
            axis=1,
        ),
    }

    cpu = np.asarray(numcu.asnumpy(calls[method](nr.default_rng(36), "cpu")))
    gpu = np.asarray(numcu.asnumpy(calls[method](nr.default_rng(36), "cuda")))

    np.testing.assert_array_equal(cpu, gpu)


CHOICE_ERRORS = [
    ((5, 3), {"p": [0.1, 0.1, 0.1, 0.1, 0.1]}),
    ((5, 3), {"p": [0.5, 0.5, 0.5, -0.5, 0.0]}),
    ((5, 3), {"p": [0.5, 0.5]}),
    ((5, 3), {"p": [[0.5, 0.5]]}),
    ((5, 6), {"replace": False}),
    ((0, 3), {}),
    ((5, 3), {"replace": False, "p": [1.0, 0, 0, 0, 0]}),
]


@pytest.mark.parametrize(("args", "kwargs"), CHOICE_ERRORS, ids=str)
def test_choice_raises_numpys_errors(args, kwargs):
    with pytest.raises(ValueError) as expected:
        np.random.Generator(np.random.Philox(1)).choice(*args, **kwargs)

    with pytest.raises(ValueError) as got:
        nr.default_rng(1).choice(*args, device="cpu", **kwargs)

    assert str(expected.value) in str(got.value)


def test_the_readme_table_names_numcu_random():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    table = readme.split("### numcu.random", 1)[1].split("\n### ", 1)[0]
    listed = set()
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2:
            listed |= set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", cells[1]))
    methods = {
        name
        for name, value in vars(nr.Generator).items()
        if callable(value) and not name.startswith("_")
    }

    assert listed == set(nr.__all__) | methods


@pytest.mark.parametrize(("n", "k"), [(1000, 3), (2**20, 1000), (10**6, 5), (100, 60), (5000, 1)])
@pytest.mark.parametrize("lead", [0, 1, 3])
def test_choice_without_replacement_is_the_permutations_start(n, k, lead):
    a, b = nr.default_rng(9), nr.default_rng(9)
    a.random(lead, device="cpu")
    b.random(lead, device="cpu")

    got = a.choice(n, k, replace=False, device="cpu")

    np.testing.assert_array_equal(got, b.permutation(n, device="cpu")[:k])
    assert same_state(a.bit_generator.state, b.bit_generator.state)


# Thresholds that keep too few words (0) or too many (2^63): the exact search takes over.
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("threshold", [0, 2**63, None])
def test_choice_candidates_survive_a_failed_threshold(threshold, device):
    bits = np.random.Philox(4)

    words, indices = numcu._core._random_candidates(
        bits, 100_000, 700, device=device, _threshold=threshold
    )

    words, indices = np.asarray(numcu.asnumpy(words)), np.asarray(numcu.asnumpy(indices))
    first = indices[np.argsort(words, kind="stable")[:700]]
    expected = nr.Generator(np.random.Philox(4)).permutation(100_000, device="cpu")[:700]
    np.testing.assert_array_equal(first, expected)


def test_the_interpreter_exits_cleanly_after_drawing():
    # numcu once kept NumPy's module in a static object, released by the C++ exit handlers after
    # Python had finalized: a segmentation fault at exit (seen with Hypothesis imported, as under
    # pytest).
    pytest.importorskip("hypothesis")
    code = (
        "import hypothesis, numpy as np, numcu.random as nr\n"
        "nr.Generator(np.random.Philox(1)).random(size=10, device='cpu')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert done.returncode == 0, (done.returncode, done.stderr.decode()[-2000:])
