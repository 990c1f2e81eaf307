"""NumCu compatibility: add, mul and div as the original float32 NumCu package called them.

Specification:
- ``add(a, b, output, dev_id, sync)`` and ``mul(...)``: the output array may be given as the
  third positional argument or as ``output=``; it is filled and returned;
- ``dev_id=False`` means the CPU, ``dev_id=N`` GPU N; ``sync=True`` is accepted;
- ``div(numerator, divisor, default, output, dev_id, sync)`` is numerator/divisor where the
  divisor is non-zero and `default` (float32's max unless given) where it is zero, -0.0
  included; its result dtype is divide's (float16/32/64, complex; ints -> float64).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import (
    assert_matches,
    gpu_param,
    poisoned,
    quiet,
    random_array,
    reference,
)

import numcu

FLOAT32_MAX = float(np.finfo(np.float32).max)

DEV_IDS = [pytest.param(False, id="dev_id=False"), gpu_param(0, id="dev_id=0")]
ADD_MUL = [("add", "add"), ("mul", "multiply")]


def float32_operands(rng, shape=(1001,)):
    return random_array(rng, shape, np.float32), random_array(rng, shape, np.float32)


@pytest.mark.parametrize(("name", "op"), ADD_MUL)
def test_add_mul_with_defaults(name, op, rng):
    a, b = float32_operands(rng)

    result = getattr(numcu, name)(a, b)

    assert isinstance(result, (np.ndarray, np.generic))
    assert_matches(result, reference(op, a, b))


@pytest.mark.parametrize("dev_id", DEV_IDS)
@pytest.mark.parametrize(("name", "op"), ADD_MUL)
def test_add_mul_dev_id_and_sync(name, op, dev_id, rng):
    a, b = float32_operands(rng)

    result = getattr(numcu, name)(a, b, dev_id=dev_id, sync=True)

    assert isinstance(result, (np.ndarray, np.generic))
    assert_matches(result, reference(op, a, b))


@pytest.mark.parametrize("dev_id", DEV_IDS)
@pytest.mark.parametrize(("name", "op"), ADD_MUL)
def test_add_mul_output_positional(name, op, dev_id, rng):
    a, b = float32_operands(rng)
    output = poisoned(a.shape, np.float32)

    result = getattr(numcu, name)(a, b, output, dev_id, True)

    assert result is output
    assert_matches(output, reference(op, a, b))


@pytest.mark.parametrize("dev_id", DEV_IDS)
@pytest.mark.parametrize(("name", "op"), ADD_MUL)
def test_add_mul_output_keyword(name, op, dev_id, rng):
    a, b = float32_operands(rng, (33, 31))
    output = poisoned(a.shape, np.float32)

    result = getattr(numcu, name)(a, b, output=output, dev_id=dev_id, sync=True)

    assert result is output
    assert_matches(output, reference(op, a, b))


@pytest.mark.gpu
@pytest.mark.parametrize(("name", "op"), ADD_MUL)
def test_add_mul_device_arrays_with_dev_id(name, op, rng):
    a, b = float32_operands(rng)
    output = numcu.asarray(poisoned(a.shape, np.float32))

    result = getattr(numcu, name)(numcu.asarray(a), numcu.asarray(b), output, 0, True)

    assert result is output
    assert_matches(output.get(), reference(op, a, b))


# --------------------------------------------------------------------------------------------
# div
# --------------------------------------------------------------------------------------------


def div_operands(rng, dtype, shape=(240,)):
    """A numerator and a divisor with zeros in it (and -0.0 for floats), some 0/0 included."""
    numerator = random_array(rng, shape, dtype)
    divisor = random_array(rng, shape, dtype, nonzero=True)
    divisor.reshape(-1)[::4] = 0
    if np.dtype(dtype).kind == "f":
        divisor.reshape(-1)[2::8] = -0.0
    numerator.reshape(-1)[::12] = 0
    return numerator, divisor


def expected_div(numerator, divisor, default):
    with quiet():
        quotient = np.divide(numerator, divisor)
        return np.where(divisor != 0, quotient, np.asarray(default).astype(quotient.dtype))


@pytest.mark.parametrize("dev_id", DEV_IDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_div_default_is_float32_max(dtype, dev_id, rng):
    numerator, divisor = div_operands(rng, dtype)

    result = numcu.div(numerator, divisor, dev_id=dev_id, sync=True)

    assert isinstance(result, (np.ndarray, np.generic))
    assert np.all(result[divisor == 0] == FLOAT32_MAX)
    assert_matches(result, expected_div(numerator, divisor, FLOAT32_MAX))


@pytest.mark.parametrize("dev_id", DEV_IDS)
@pytest.mark.parametrize(
    "dtype", ["float16", "float32", "float64", "complex64", "int32", "uint8", "bool"]
)
def test_div_explicit_default(dtype, dev_id, rng):
    numerator, divisor = div_operands(rng, dtype)
    expected = expected_div(numerator, divisor, -1.5)
    assert expected.dtype == (np.float64 if np.dtype(dtype).kind in "biu" else dtype)

    positional = numcu.div(numerator, divisor, -1.5, None, dev_id, True)
    keyword = numcu.div(numerator, divisor, default=-1.5, dev_id=dev_id)

    assert_matches(positional, expected)
    assert_matches(keyword, expected)


@pytest.mark.parametrize("dev_id", DEV_IDS)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_div_output_positional(dtype, dev_id, rng):
    numerator, divisor = div_operands(rng, dtype)
    output = poisoned(numerator.shape, dtype)

    result = numcu.div(numerator, divisor, 0.25, output, dev_id, True)

    assert result is output
    assert_matches(output, expected_div(numerator, divisor, 0.25))


@pytest.mark.parametrize("keyword", ["output", "out"])
@pytest.mark.parametrize("dev_id", DEV_IDS)
def test_div_output_keyword(keyword, dev_id, rng):
    numerator, divisor = div_operands(rng, np.float32, (12, 20))
    output = poisoned(numerator.shape, np.float32)

    result = numcu.div(numerator, divisor, default=3.0, dev_id=dev_id, **{keyword: output})

    assert result is output
    assert_matches(output, expected_div(numerator, divisor, 3.0))


@pytest.mark.parametrize("dev_id", DEV_IDS)
def test_div_broadcasts(dev_id, rng):
    numerator = random_array(rng, (6, 1), np.float32)
    divisor = random_array(rng, (1, 9), np.float32, nonzero=True)
    divisor[0, ::3] = 0

    result = numcu.div(numerator, divisor, -7.0, dev_id=dev_id)

    assert result.shape == (6, 9)
    assert_matches(result, expected_div(numerator, divisor, -7.0))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_div_device_arrays(dtype, rng):
    numerator, divisor = div_operands(rng, dtype)

    result = numcu.div(numcu.asarray(numerator), numcu.asarray(divisor), default=-1.0)

    assert isinstance(result, numcu.ndarray)
    assert_matches(result.get(), expected_div(numerator, divisor, -1.0))
