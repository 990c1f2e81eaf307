"""numcu.fft: NumPy's numpy.fft and the standard's fft extension, against NumPy.

Specification:
- host data is numpy.fft's: numcu.fft returns what numpy.fft returns;
- device arrays (gpu) give numcu arrays whose values and dtypes are numpy.fft's (float32 and
  complex64 stay single precision) for every function, with n/s shorter and longer than the
  input (truncation, zero padding), any axis or axes (the last ones, others, more than three,
  repeated), the three norms, empty batches and non-contiguous inputs (transposed, strided,
  reversed); the input is never changed (cuFFT's complex-to-real transforms overwrite theirs);
- bad n, norm, axes and dtypes raise NumPy's exceptions, naming the function;
- the plan cache keeps plans up to its size and its bytes, least recently used out first, counts
  hits and misses, and turns off at size 0; fftfreq, rfftfreq, fftshift and ifftshift match
  NumPy's on both sides; numpy.fft's functions called on numcu arrays run numcu's.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import random_array

import numcu

FFT_DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def close(got, expected):
    """numcu's result against NumPy's: same dtype and shape, values within the rounding of two
    FFT algorithms in the result's precision (relative to the largest magnitude). float16 input
    gives complex64 results (float16 only from irfft and hfft, and irfftn over one axis), whose
    norm factor NumPy rounds to float16 and numcu the same way, so those compare at float32's
    tolerance. A float16 result is a float32 one rounded: two float32 results a rounding apart
    may round to neighbouring float16 values, one float16 step (2**-10 relative) apart, the
    most its tolerance allows."""
    assert isinstance(got, numcu.ndarray), f"expected a numcu.ndarray, got {type(got)!r}"
    got = got.get()
    assert got.dtype == expected.dtype, f"dtype {got.dtype}, expected {expected.dtype}"
    assert got.shape == expected.shape, f"shape {got.shape}, expected {expected.shape}"
    single = expected.dtype in (np.float32, np.complex64)
    tol = 1e-3 if expected.dtype == np.float16 else 2e-5 if single else 1e-12
    mag = float(np.max(np.abs(expected), initial=1.0))
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol * mag)


def dev(x):
    return numcu.asarray(x)


def test_host_data_is_numpys(rng):
    x = random_array(rng, (4, 6), np.float64)
    for name in ("fft", "rfft", "ihfft", "fftn", "irfft2"):
        got = getattr(numcu.fft, name)(x)
        assert type(got) is np.ndarray
        np.testing.assert_array_equal(got, getattr(np.fft, name)(x))
    np.testing.assert_array_equal(
        numcu.fft.fft([1, 2, 3], n=4, norm="ortho"), np.fft.fft([1, 2, 3], n=4, norm="ortho")
    )


def test_the_namespace_is_the_standards():
    for name in (
        "fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift "
        "ifftshift fft2 ifft2 rfft2 irfft2"
    ).split():
        assert callable(getattr(numcu.fft, name)), name
    assert numcu.fft.fft.__name__ == "fft"


# (n, norm): the input's length (12), truncated (5), zero padded to a power of two (16) and to a
# prime (37); each norm with the input's length and with another. Every function and dtype meets
# every n and every norm.
N_NORM = [
    (None, None),
    (None, "ortho"),
    (None, "forward"),
    (5, "ortho"),
    (16, None),
    (37, "forward"),
]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [*FFT_DTYPES, np.int32, np.float16], ids=str)
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("n_norm", N_NORM, ids=str)
def test_one_axis(rng, dtype, name, n_norm):
    n, norm = n_norm
    if name in ("rfft", "ihfft") and np.dtype(dtype).kind == "c":
        pytest.skip("the real transforms take real input")
    x = random_array(rng, (3, 12), dtype)
    keep = x.copy()
    dx = dev(x)
    close(getattr(numcu.fft, name)(dx, n=n, norm=norm), getattr(np.fft, name)(x, n=n, norm=norm))
    close(getattr(numcu.fft, name)(dx, n, 0, norm), getattr(np.fft, name)(x, n, 0, norm))
    np.testing.assert_array_equal(dx.get(), keep)  # the input is left as it was


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", FFT_DTYPES, ids=str)
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize(
    "s_axes",
    [
        (None, None),
        (None, (0,)),
        (None, (2, 0)),
        ((4, 6), (1, 2)),
        ((3, 10), (0, 2)),
        ((5, 4, 3), None),
        (None, (0, 1, 2, 3)),  # four axes: two passes
        # A repeated axis is transformed once per listing, as numpy.fft does (one 1-D transform
        # per entry of axes, the last first; rfftn's real transform is the last entry's).
        (None, (1, 1)),
        ((4, 7), (1, 1)),
        (None, (2, 0, 2)),
    ],
    ids=str,
)
def test_many_axes(rng, dtype, name, s_axes):
    s, axes = s_axes
    if name in ("rfftn",) and np.dtype(dtype).kind == "c":
        pytest.skip("the real transforms take real input")
    x = random_array(rng, (4, 5, 6, 3), dtype)
    if axes is None and s is not None:
        axes = tuple(range(-len(s), 0))
    got = getattr(numcu.fft, name)(dev(x), s=s, axes=axes)
    close(got, getattr(np.fft, name)(x, s=s, axes=axes))


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn", "irfft2"])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_float16_over_several_axes(rng, name, norm):
    # NumPy transforms one axis at a time: the first transform reads float16 and computes its
    # norm factor in float16, the others read complex64 and use float32 factors; irfftn's first
    # transforms are the complex ones, so its result is float32 over several axes and float16
    # over one.
    x = random_array(rng, (5, 6, 7), np.float16)
    for s, axes in [(None, (0, 2)), ((6, 9), (2, 0)), (None, None), ((4,), (1,))]:
        expected = getattr(np.fft, name)(x, s=s, axes=axes, norm=norm)
        close(getattr(numcu.fft, name)(dev(x), s=s, axes=axes, norm=norm), expected)


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2"])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_two_dimensional(rng, name, norm):
    x = random_array(rng, (3, 8, 10), np.float32)
    close(getattr(numcu.fft, name)(dev(x), norm=norm), getattr(np.fft, name)(x, norm=norm))
    close(
        getattr(numcu.fft, name)(dev(x), s=(6, 9), axes=(0, 2)),
        getattr(np.fft, name)(x, s=(6, 9), axes=(0, 2)),
    )


@pytest.mark.gpu
@pytest.mark.parametrize("layout", ["transposed", "strided", "reversed", "offset"])
@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "fft2", "irfftn"])
def test_any_layout(rng, layout, name):
    base = random_array(rng, (6, 10, 8), np.complex128 if name != "rfft" else np.float64)
    d = dev(base)
    if layout == "transposed":
        x, dx = base.transpose(2, 0, 1), d.transpose((2, 0, 1))
    elif layout == "strided":
        x, dx = base[::2, :, ::3], d[::2, :, ::3]
    elif layout == "reversed":
        x, dx = base[:, ::-1], d[:, ::-1]
    else:
        x, dx = base[1:, 2:, 1:7], d[1:, 2:, 1:7]
    close(getattr(numcu.fft, name)(dx), getattr(np.fft, name)(x))


@pytest.mark.gpu
def test_large_and_batched(rng):
    x = random_array(rng, (1 << 16,), np.complex64)
    close(numcu.fft.fft(dev(x)), np.fft.fft(x))
    y = random_array(rng, (8, 64, 64), np.float32)
    close(numcu.fft.rfft2(dev(y)), np.fft.rfft2(y))
    close(numcu.fft.irfft2(numcu.fft.rfft2(dev(y))), np.fft.irfft2(np.fft.rfft2(y)))
    z = random_array(rng, (3, 1009), np.float64)  # a prime length
    close(numcu.fft.rfft(dev(z)), np.fft.rfft(z))


@pytest.mark.gpu
def test_empty_batches(rng):
    x = np.zeros((0, 8), np.complex64)
    close(numcu.fft.fft(dev(x)), np.fft.fft(x))
    close(numcu.fft.rfft(dev(np.zeros((3, 0, 4)))), np.fft.rfft(np.zeros((3, 0, 4))))


@pytest.mark.gpu
def test_errors_name_the_function(rng):
    dx = dev(random_array(rng, (4, 6), np.float64))
    with pytest.raises(ValueError, match=r"numcu.fft.fft: Invalid number of FFT data points \(0\)"):
        numcu.fft.fft(dx, n=0)
    with pytest.raises(ValueError, match="Invalid norm value"):
        numcu.fft.ifft(dx, norm="both")
    with pytest.raises(np.exceptions.AxisError):
        numcu.fft.fft(dx, axis=2)
    with pytest.raises(ValueError, match="Shape and axes have different lengths"):
        numcu.fft.fftn(dx, s=(4,), axes=(0, 1))
    with pytest.raises(TypeError, match="numcu.fft.rfft: the input must be real"):
        numcu.fft.rfft(numcu.asarray(np.ones(4, np.complex64)))
    with pytest.raises(TypeError, match="out= is not supported"):
        numcu.fft.fft(dx, out=numcu.empty((4, 6), dtype="complex128"))
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        numcu.fft.irfft(dev(np.ones((4, 1), np.complex64)))


@pytest.mark.gpu
def test_numpy_fft_on_numcu_arrays_runs_numcus(rng):
    x = random_array(rng, (5, 8), np.complex128)
    got = np.fft.fft2(dev(x))
    assert isinstance(got, numcu.ndarray)
    close(got, np.fft.fft2(x))
    close(np.fft.fftshift(dev(x), axes=1), np.fft.fftshift(x, axes=1))


@pytest.mark.gpu
def test_other_libraries_arrays_go_in(rng):
    torch = pytest.importorskip("torch")
    x = random_array(rng, (4, 16), np.float32)
    got = numcu.fft.rfft(torch.from_numpy(x).cuda())
    close(got, np.fft.rfft(x))


@pytest.mark.parametrize("device", ["cpu", pytest.param(None, marks=pytest.mark.gpu)])
@pytest.mark.parametrize("n", [1, 2, 7, 8])
def test_frequencies_and_shifts(device, n):
    for name in ("fftfreq", "rfftfreq"):
        got = getattr(numcu.fft, name)(n, 0.25, device=device)
        got = got.get() if isinstance(got, numcu.ndarray) else got
        expected = getattr(np.fft, name)(n, 0.25)
        assert got.dtype == expected.dtype
        np.testing.assert_allclose(got, expected, rtol=1e-15)
    f32 = numcu.fft.fftfreq(n, dtype="float32", device=device)
    assert f32.dtype == np.float32
    x = np.arange(n * 3).reshape(3, n)
    dx = x if device == "cpu" else numcu.asarray(x)
    for name in ("fftshift", "ifftshift"):
        for axes in (None, 1, (0, 1)):
            got = getattr(numcu.fft, name)(dx, axes=axes)
            got = got.get() if isinstance(got, numcu.ndarray) else got
            np.testing.assert_array_equal(got, getattr(np.fft, name)(x, axes=axes))


# ------------------------------------------------------------------------------------------------
# The plan cache


def test_plan_cache_settings_without_work():
    cache = numcu.fft.config.get_plan_cache(0)
    size, memsize = cache.get_size(), cache.get_memsize()
    try:
        cache.set_size(3)
        cache.set_memsize(1 << 20)
        assert (cache.get_size(), cache.get_memsize()) == (3, 1 << 20)
        with pytest.raises(ValueError, match="size must be >= 0"):
            cache.set_size(-1)
        with pytest.raises(ValueError, match="memsize must be >= -1"):
            cache.set_memsize(-2)
    finally:
        cache.set_size(size)
        cache.set_memsize(memsize)
    assert numcu.fft.config.get_plan_cache(0) is not None


@pytest.mark.gpu
def test_plan_cache_keeps_plans_within_its_limits(rng, capsys):
    cache = numcu.fft.config.get_plan_cache()
    size, memsize = cache.get_size(), cache.get_memsize()
    cache.clear()
    try:
        cache.set_size(2)
        xs = [dev(random_array(rng, (n,), np.complex64)) for n in (64, 128, 256)]
        hits, misses = cache.get_hits(), cache.get_misses()
        numcu.fft.fft(xs[0])
        numcu.fft.fft(xs[0])
        assert (cache.get_hits() - hits, cache.get_misses() - misses) == (1, 1)
        assert cache.get_curr_size() == 1
        numcu.fft.fft(xs[1])
        numcu.fft.fft(xs[0])  # 64 is now the most recently used
        numcu.fft.fft(xs[2])  # evicts 128
        assert cache.get_curr_size() == 2
        misses = cache.get_misses()
        numcu.fft.fft(xs[0])
        assert cache.get_misses() == misses
        numcu.fft.fft(xs[1])
        assert cache.get_misses() == misses + 1
        cache.show_info()
        out = capsys.readouterr().out
        assert "plans: 2 of at most 2" in out and "C2C32 n=(128)" in out
        # Bytes: a large transform's work area counts; a limit below it keeps nothing.
        big = dev(random_array(rng, (1 << 20,), np.complex64))
        cache.set_size(16)
        cache.clear()
        numcu.fft.fft(big)
        assert cache.get_curr_memsize() >= 0
        cache.set_memsize(0)
        assert cache.get_curr_memsize() == 0
        close(numcu.fft.fft(big), np.fft.fft(big.get()))
        assert cache.get_curr_memsize() == 0
        # Size 0: no plan kept, results as before.
        cache.set_memsize(-1)
        cache.set_size(0)
        assert cache.get_curr_size() == 0
        close(numcu.fft.fft(xs[2]), np.fft.fft(xs[2].get()))
        assert cache.get_curr_size() == 0
    finally:
        cache.set_size(size)
        cache.set_memsize(memsize)


@pytest.mark.gpu
def test_plans_run_on_the_current_stream(rng):
    x = random_array(rng, (16, 512), np.complex128)
    a, b = numcu.cuda.Stream(non_blocking=True), numcu.cuda.Stream(non_blocking=True)
    with a:
        dx = dev(x)
        ra = numcu.fft.fft(dx)
    with b:  # the same plan and work area, on another stream: ordered after a's use
        rb = numcu.fft.ifft(ra)
    b.synchronize()
    close(ra, np.fft.fft(x))
    close(rb, np.fft.ifft(np.fft.fft(x)))
    assert "cufft" in numcu._core._cufft_path().lower()
