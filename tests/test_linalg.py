"""numcu.linalg: the standard's linalg extension and NumPy's numpy.linalg, against NumPy.

Specification:
- host data (NumPy arrays, lists) is numpy.linalg's: numcu.linalg returns what numpy.linalg
  returns, as NumPy arrays;
- device arrays (gpu) give numcu arrays whose values match numpy.linalg's on the same data, in
  float32, float64, complex64 and complex128 (integers promote to float64), for single
  matrices, stacks (batched paths: numcu's small-matrix kernel up to order 32, 16 for complex
  dtypes, cuBLAS's and
  cuSOLVER's batched routines up to 128 (32 for syevj and gesvdj), one matrix after another
  for single and larger ones), broadcast batch dimensions, empty arrays and non-contiguous
  inputs; decompositions are checked by what defines them (A = Q R, A V = V diag(w),
  A = U S Vh, orthonormal factors), with NumPy's values where they are unique;
- a singular matrix (solve, inv), one that is not positive definite (cholesky) raises
  numpy.linalg.LinAlgError; bad shapes, dtypes, norms and axes raise their exceptions, naming
  the function;
- numpy.linalg's functions called on numcu arrays run numcu's (__array_function__).
Matrices are drawn at random and made well conditioned (A + n I; A A^H + n I for Cholesky).

Sizes: orders 1 to 32 (the small kernel's widths 4, 8 and 16; lu32, a warp a matrix, for real
ones of 17 to 32, where complex ones take cuBLAS's batched routines), 17 to 128 (cuBLAS's and
cuSOLVER's batched routines; 33 and 64 here), one just over 128 (130: one matrix after another),
stacks of a few matrices, and one test with many matrices per batched path; nothing larger, so
that the file runs in seconds beside other workers on one GPU.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import random_array

import numcu

LINALG_DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
IDS = ["f32", "f64", "c64", "c128"]


def rtol_of(dtype):
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


def close(got, expected, dtype, scale=1.0):
    got = got.get() if isinstance(got, numcu.ndarray) else np.asarray(got)
    expected = np.asarray(expected)
    assert got.shape == expected.shape, f"shape {got.shape}, expected {expected.shape}"
    tol = rtol_of(dtype)
    mag = max(float(np.max(np.abs(expected), initial=0.0)), scale)
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol * mag)


def well_conditioned(rng, shape, dtype):
    a = random_array(rng, shape, dtype)
    n = shape[-1]
    return (a + 4 * n * np.eye(n, dtype=dtype)).astype(dtype)


def positive_definite(rng, shape, dtype):
    a = random_array(rng, shape, dtype)
    n = shape[-1]
    h = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)
    return h.astype(dtype)


def dev(x):
    d = numcu.asarray(x)
    assert isinstance(d, numcu.ndarray)
    return d


def host(x):
    assert isinstance(x, numcu.ndarray), f"expected a numcu.ndarray, got {type(x)!r}"
    return x.get()


# ------------------------------------------------------------------------------------------------
# Host data: numpy.linalg's own results


@pytest.mark.parametrize(
    "call",
    [
        lambda la, a, b: la.solve(a, b),
        lambda la, a, b: la.inv(a),
        lambda la, a, b: la.det(a),
        lambda la, a, b: la.cholesky(a @ a.T + 4 * np.eye(4)),
        lambda la, a, b: la.norm(a, ord=1),
        lambda la, a, b: la.svd(a)[1],
        lambda la, a, b: la.eigvalsh(a + a.T),
    ],
    ids=["solve", "inv", "det", "cholesky", "norm", "svd", "eigvalsh"],
)
def test_host_data_is_numpys(rng, call):
    a = well_conditioned(rng, (4, 4), np.float64)
    b = random_array(rng, (4,), np.float64)
    got = call(numcu.linalg, a, b)
    assert isinstance(got, (np.ndarray, np.generic))
    np.testing.assert_array_equal(got, call(np.linalg, a, b))


def test_the_namespace_is_the_standards():
    for name in (
        "cholesky cross det diagonal eigh eigvalsh eig eigvals inv matmul matrix_norm "
        "matrix_power matrix_rank matrix_transpose outer pinv qr slogdet solve svd svdvals "
        "tensordot trace vecdot vector_norm norm lstsq multi_dot cond"
    ).split():
        assert callable(getattr(numcu.linalg, name)), name
    assert numcu.linalg.LinAlgError is np.linalg.LinAlgError


# ------------------------------------------------------------------------------------------------
# Solves, inverses and determinants


SOLVE_SHAPES = [
    ((1, 1), (1,)),  # the small kernel (width 4), a vector
    ((4, 3, 3), (4, 3, 2)),  # a stack
    ((5, 8, 8), (5, 8, 8)),  # width 8
    ((2, 1, 16, 16), (3, 16, 1)),  # width 16 (complex: the small kernel's largest); broadcast
    ((3, 32, 32), (3, 32, 2)),  # real: a warp a matrix (lu32); complex: cuBLAS's batched LU
    ((2, 20, 20), (2, 20, 20)),  # lu32 with fewer rows than lanes, as many rhs as rows
    ((24, 24), (24,)),  # lu32, one matrix and a vector: B's one column (C = 1)
    ((2, 5, 5), (2, 5, 20)),  # lu32 for the rhs' sake: order 5, 20 columns (C = 32)
    ((2, 17, 17), (2, 17, 33)),  # more right-hand sides than lu32 takes: cuBLAS
    ((33, 33), (33,)),  # cuSOLVER, one matrix
    ((3, 33, 33), (3, 33, 2)),  # cuBLAS's batched routines
    ((2, 130, 130), (2, 130, 3)),  # one matrix after another
    ((3, 5, 5), (3, 5, 20)),  # more right-hand sides than the small kernel takes
    ((0, 3, 3), (0, 3, 2)),  # no matrices
    ((0, 0), (0,)),
    ((2, 2), (2, 0)),
]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", LINALG_DTYPES, ids=IDS)
@pytest.mark.parametrize("shapes", SOLVE_SHAPES, ids=str)
def test_solve(rng, dtype, shapes):
    a = well_conditioned(rng, shapes[0], dtype) if shapes[0][-1] else np.zeros(shapes[0], dtype)
    b = random_array(rng, shapes[1], dtype)
    got = numcu.linalg.solve(dev(a), dev(b))
    expected = np.linalg.solve(a, b)
    assert got.dtype == expected.dtype
    close(host(got), expected, dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", LINALG_DTYPES, ids=IDS)
@pytest.mark.parametrize("n", [3, 16, 20, 32, 33, 130])
def test_inv(rng, dtype, n):
    a = well_conditioned(rng, (3, n, n), dtype)
    got = numcu.linalg.inv(dev(a))
    close(host(got), np.linalg.inv(a), dtype)
    one = numcu.linalg.inv(dev(a[1]))
    close(host(one), np.linalg.inv(a[1]), dtype)


@pytest.mark.gpu
@pytest.mark.parametrize(
    "case",
    [
        ("lu", (4096, 3, 3), np.float32),  # the small kernel: many matrices a launch
        ("lu", (4096, 32, 32), np.float64),  # lu32: a warp a matrix, many warps a launch
        ("lu", (512, 33, 33), np.complex64),  # cuBLAS's getrf, getrs and getri batched
        ("cholesky", (512, 33, 33), np.float64),  # cuSOLVER's potrfBatched
        ("eigh", (1024, 8, 8), np.float32),  # cuSOLVER's syevjBatched
        ("eigh", (64, 40, 40), np.float64),  # cuSOLVER's Xsyev batched (where it has one)
        ("svd", (1024, 8, 5), np.complex128),  # cuSOLVER's gesvdjBatched
    ],
    ids=lambda c: f"{c[0]}-{c[1]}",
)
def test_many_matrices_per_batched_path(rng, case):
    what, shape, dtype = case
    if what == "lu":
        a = well_conditioned(rng, shape, dtype)
        b = random_array(rng, shape[:-1], dtype)
        close(host(numcu.linalg.inv(dev(a))), np.linalg.inv(a), dtype)
        got = numcu.linalg.solve(dev(a), dev(b[..., None]))[..., 0]
        close(host(got), np.linalg.solve(a, b[..., None])[..., 0], dtype)
        close(host(numcu.linalg.slogdet(dev(a))[1]), np.linalg.slogdet(a)[1], dtype)
    elif what == "cholesky":
        a = positive_definite(rng, shape, dtype)
        close(host(numcu.linalg.cholesky(dev(a))), np.linalg.cholesky(a), dtype)
    elif what == "eigh":
        a = random_array(rng, shape, dtype)
        close(host(numcu.linalg.eigvalsh(dev(a))), np.linalg.eigvalsh(a), dtype)
    else:
        a = random_array(rng, shape, dtype)
        close(host(numcu.linalg.svdvals(dev(a))), np.linalg.svd(a, compute_uv=False), dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("layout", ["transposed", "strided", "negative", "broadcast"])
@pytest.mark.parametrize("n", [4, 24, 33])
def test_solve_and_inv_take_any_layout(rng, layout, n):
    base = well_conditioned(rng, (3, n, n), np.float64)
    d = dev(np.ascontiguousarray(np.swapaxes(base, -1, -2)))
    if layout == "transposed":
        a, da = base, d.transpose((0, 2, 1))
    elif layout == "strided":
        big = np.zeros((3, 2 * n, 2 * n))
        big[:, ::2, ::2] = base
        a, da = base, dev(big)[:, ::2, ::2]
    elif layout == "negative":
        a, da = base[:, ::-1], dev(base)[:, ::-1]
    else:
        a, da = np.broadcast_to(base[0], base.shape), numcu.broadcast_to(dev(base[0]), base.shape)
    b = random_array(rng, (3, n, 2), np.float64)
    close(host(numcu.linalg.solve(da, dev(b))), np.linalg.solve(a, b), np.float64)
    close(host(numcu.linalg.inv(da)), np.linalg.inv(a), np.float64)


@pytest.mark.gpu
@pytest.mark.parametrize("n", [3, 32, 33])
@pytest.mark.parametrize("batch", [(), (4,)])
def test_singular_matrices_raise_linalg_error(rng, n, batch):
    a = well_conditioned(rng, (*batch, n, n), np.float64)
    a[..., 1, :] = 0  # a zero row in every matrix
    b = random_array(rng, (*batch, n, 1), np.float64)
    with pytest.raises(np.linalg.LinAlgError, match="numcu.linalg.solve: Singular matrix"):
        numcu.linalg.solve(dev(a), dev(b))
    with pytest.raises(np.linalg.LinAlgError, match="numcu.linalg.inv: Singular matrix"):
        numcu.linalg.inv(dev(a))
    # One singular matrix in a stack is enough; the others are fine.
    if batch:
        c = well_conditioned(rng, (*batch, n, n), np.float64)
        c[2, :, 0] = 0
        with pytest.raises(np.linalg.LinAlgError):
            numcu.linalg.inv(dev(c))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", LINALG_DTYPES, ids=IDS)
@pytest.mark.parametrize(
    "shape",
    [(3, 3), (5, 1, 1), (4, 7, 7), (2, 16, 16), (3, 25, 25), (32, 32), (33, 33), (3, 33, 33)]
    + [(1, 130, 130)],
    ids=str,
)
def test_det_and_slogdet(rng, dtype, shape):
    # Entries of variance e / n keep |det| near 1 at every order.
    a = (random_array(rng, shape, dtype) * (np.sqrt(np.e / shape[-1]) / 4)).astype(dtype)
    got = numcu.linalg.det(dev(a))
    expected = np.linalg.det(a)
    assert isinstance(got, numcu.ndarray) and got.dtype == expected.dtype
    close(host(got), expected, dtype, scale=0)
    sign, logdet = numcu.linalg.slogdet(dev(a))
    esign, elogdet = np.linalg.slogdet(a)
    assert sign.dtype == esign.dtype and logdet.dtype == elogdet.dtype
    close(host(sign), esign, dtype)
    close(host(logdet), elogdet, dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("n", [3, 32, 33])
def test_det_of_singular_and_empty_matrices(rng, n):
    a = random_array(rng, (2, n, n), np.float64)
    a[1, :, 2] = 0
    d = host(numcu.linalg.det(dev(a)))
    assert d[1] == 0 and d[0] != 0
    sign, logdet = numcu.linalg.slogdet(dev(a))
    assert host(sign)[1] == 0 and host(logdet)[1] == -np.inf
    assert host(numcu.linalg.det(dev(np.zeros((3, 0, 0))))).tolist() == [1.0, 1.0, 1.0]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128], ids=str)
@pytest.mark.parametrize("n", [3, 12, 24, 32, 40])
def test_singular_determinants_are_positive_zeros_as_numpys(rng, dtype, n):
    # A zero column makes an exactly zero pivot; the other pivots' signs (and the permutation's
    # parity) vary from matrix to matrix, and must not leave a -0 where NumPy gives +0.
    a = random_array(rng, (16, n, n), dtype)
    for k in range(16):
        a[k, :, k % n] = 0
    d = host(numcu.linalg.det(dev(a)))
    sign, logdet = (host(x) for x in numcu.linalg.slogdet(dev(a)))
    ed = np.linalg.det(a)
    esign, elogdet = np.linalg.slogdet(a)
    assert (d == 0).all() and (sign == 0).all() and (logdet == -np.inf).all()
    for got, expected in ((d, ed), (sign, esign)):
        assert np.array_equal(np.signbit(got.real), np.signbit(expected.real))
        assert np.array_equal(np.signbit(got.imag), np.signbit(expected.imag))
    assert np.array_equal(logdet, elogdet)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=str)
@pytest.mark.parametrize("n", [20, 32])
def test_nan_spreads_through_a_matrix_as_numpys_does(rng, dtype, n):
    # The warp-a-matrix kernel (orders 17 to 32) takes a NaN as the largest pivot candidate:
    # the matrix with one gives NaN everywhere, as NumPy's LAPACK does; its neighbour is exact.
    a = well_conditioned(rng, (2, n, n), dtype)
    a[1, 3, 1] = np.nan
    b = random_array(rng, (2, n, 1), dtype)
    x = host(numcu.linalg.solve(dev(a), dev(b)))
    close(x[0], np.linalg.solve(a[0], b[0]), dtype)
    assert np.isnan(x[1]).all()
    inv = host(numcu.linalg.inv(dev(a)))
    close(inv[0], np.linalg.inv(a[0]), dtype)
    assert np.isnan(inv[1]).all()
    s = (a / (4 * n)).astype(dtype)  # |det| near 1: the determinant fits float32
    d = host(numcu.linalg.det(dev(s)))
    close(d[0], np.linalg.det(s[0]), dtype, scale=0)
    assert np.isnan(d[1])
    assert np.isnan(host(numcu.linalg.slogdet(dev(s))[1])[1])


# ------------------------------------------------------------------------------------------------
# Cholesky, QR, eigh, SVD, eig


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", LINALG_DTYPES, ids=IDS)
@pytest.mark.parametrize(
    "shape", [(1, 1), (4, 4), (6, 5, 5), (3, 33, 33), (2, 130, 130), (0, 3, 3)], ids=str
)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(rng, dtype, shape, upper):
    a = positive_definite(rng, shape, dtype)
    # Only one triangle is read (the lower, the upper for upper=True, as NumPy's): what the
    # other holds must not matter.
    other = np.triu(random_array(rng, shape, dtype), 1)
    a = a + (np.swapaxes(other, -1, -2) if upper else other)
    got = numcu.linalg.cholesky(dev(a), upper=upper)
    close(host(got), np.linalg.cholesky(a, upper=upper), dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(4, 4), (5, 33, 33), (130, 130)], ids=str)
def test_cholesky_of_a_matrix_that_is_not_positive_definite(rng, shape):
    a = positive_definite(rng, shape, np.float64)
    a[..., 0, 0] = -1
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        numcu.linalg.cholesky(dev(a))


def check_orthonormal_columns(q, dtype):
    k = q.shape[-1]
    gram = np.conj(np.swapaxes(q, -1, -2)) @ q
    close(gram, np.broadcast_to(np.eye(k), gram.shape), dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", LINALG_DTYPES, ids=IDS)
@pytest.mark.parametrize(
    "shape", [(5, 3), (3, 5), (4, 4), (3, 6, 4), (2, 4, 6), (2, 70, 33), (0, 3), (3, 0)], ids=str
)
def test_qr(rng, dtype, shape):
    a = random_array(rng, shape, dtype)
    for mode in ("reduced", "complete", "r"):
        got = numcu.linalg.qr(dev(a), mode=mode)
        expected = np.linalg.qr(a, mode=mode)
        if mode == "r":
            r = host(got)
            assert r.shape == expected.shape
            close(np.abs(r), np.abs(expected), dtype)
            continue
        q, r = host(got.Q), host(got.R)
        assert q.shape == expected.Q.shape and r.shape == expected.R.shape
        assert q.dtype == expected.Q.dtype
        close(q @ r, a, dtype)
        check_orthonormal_columns(q, dtype)
        np.testing.assert_array_equal(np.tril(r, -1), 0)
        close(np.abs(r), np.abs(expected.R), dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", LINALG_DTYPES, ids=IDS)
@pytest.mark.parametrize(
    "shape", [(1, 1), (4, 4), (9, 6, 6), (3, 32, 32), (2, 64, 64), (2, 130, 130)], ids=str
)
def test_eigh(rng, dtype, shape):
    a = random_array(rng, shape, dtype)
    a = a + np.conj(np.swapaxes(a, -1, -2))
    w, v = numcu.linalg.eigh(dev(a))
    ew = np.linalg.eigvalsh(a)
    assert w.dtype == ew.dtype and v.dtype == a.dtype
    close(host(w), ew, dtype)
    hv = host(v)
    close(a @ hv, hv * host(w)[..., None, :], dtype, scale=np.abs(ew).max())
    check_orthonormal_columns(hv, dtype)
    close(host(numcu.linalg.eigvalsh(dev(a))), ew, dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.complex128], ids=str)
@pytest.mark.parametrize("shape", [(3, 6, 6), (2, 40, 40), (40, 40)], ids=str)
def test_eigh_reads_one_triangle(rng, dtype, shape):
    a = random_array(rng, shape, dtype)  # not Hermitian: the triangle read decides
    for uplo in ("L", "U"):
        ew = np.linalg.eigvalsh(a, UPLO=uplo)
        close(host(numcu.linalg.eigvalsh(dev(a), UPLO=uplo)), ew, dtype)
        w, v = numcu.linalg.eigh(dev(a), UPLO=uplo)
        close(host(w), ew, dtype)
        # The Hermitian matrix of that triangle (the diagonal's real part, as LAPACK reads it).
        t = np.tril(a, -1) if uplo == "L" else np.triu(a, 1)
        diagonal = np.real(np.diagonal(a, axis1=-2, axis2=-1))
        h = t + np.conj(np.swapaxes(t, -1, -2)) + diagonal[..., None] * np.eye(shape[-1])
        h = h.astype(dtype)
        hv = host(v)
        close(h @ hv, hv * host(w)[..., None, :], dtype, scale=np.abs(ew).max())


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", LINALG_DTYPES, ids=IDS)
@pytest.mark.parametrize(
    "shape",
    [(5, 3), (3, 5), (4, 4), (7, 6, 4), (5, 4, 6), (2, 40, 33), (1, 33, 70), (0, 3)],
    ids=str,
)
@pytest.mark.parametrize("driver", ["gesvdj", "gesvd"])
def test_svd(rng, dtype, shape, driver):
    if driver == "gesvd" and len(shape) == 3 and max(shape[-2:]) <= 32:
        pytest.skip("stacks of matrices up to 32 x 32 take gesvdjBatched whatever the driver")
    a = random_array(rng, shape, dtype)
    for full in (True, False):
        old = numcu._core._linalg_svd_driver(driver)
        try:
            u, s, vh = numcu.linalg.svd(dev(a), full_matrices=full)
            only = numcu.linalg.svdvals(dev(a))
        finally:
            numcu._core._linalg_svd_driver(old)
        eu, es, evh = np.linalg.svd(a, full_matrices=full)
        u, s, vh = host(u), host(s), host(vh)
        assert (u.shape, s.shape, vh.shape) == (eu.shape, es.shape, evh.shape)
        assert u.dtype == eu.dtype and s.dtype == es.dtype
        close(s, es, dtype)
        close(host(only), es, dtype)
        k = s.shape[-1]
        close((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], a, dtype)
        check_orthonormal_columns(u, dtype)
        check_orthonormal_columns(np.conj(np.swapaxes(vh, -1, -2)), dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", LINALG_DTYPES, ids=IDS)
@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5), (1, 33, 33)], ids=str)
def test_eig(rng, dtype, shape):
    a = random_array(rng, shape, dtype)
    w, v = numcu.linalg.eig(dev(a))
    ctype = np.result_type(dtype, np.complex64)
    assert w.dtype == ctype and v.dtype == ctype
    w, v = host(w), host(v)
    scale = np.abs(np.linalg.eigvals(a)).max()
    close(a @ v, v * w[..., None, :], dtype, scale=scale)
    close(np.linalg.norm(v, axis=-2), np.ones(w.shape), dtype)
    # The eigenvalues as a multiset: each of NumPy's has one of numcu's next to it.
    got = host(numcu.linalg.eigvals(dev(a))).reshape(-1, shape[-1])
    for g, e in zip(got, np.linalg.eigvals(a).reshape(-1, shape[-1])):
        distance = np.abs(g[:, None] - e[None, :]).min(axis=0)
        assert distance.max() <= rtol_of(dtype) * 10 * scale, distance.max()


@pytest.mark.gpu
def test_integers_promote_to_float64(rng):
    a = (np.eye(4) * 3 + 1).astype(np.int32)
    got = numcu.linalg.inv(dev(a))
    assert got.dtype == np.float64
    close(host(got), np.linalg.inv(a), np.float64)
    assert numcu.linalg.det(dev(a)).dtype == np.float64


# ------------------------------------------------------------------------------------------------
# Norms, ranks, pseudo-inverses, least squares, condition numbers


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int32], ids=str)
@pytest.mark.parametrize("axis", [None, -1, 0, (0, 2)], ids=str)
def test_vector_norm(rng, dtype, axis):
    x = random_array(rng, (3, 4, 5), dtype)
    dx = dev(x)
    for ord in (2, 1, np.inf, -np.inf, 0, 3, 0.5, -1):
        for keepdims in (False, True):
            got = numcu.linalg.vector_norm(dx, axis=axis, keepdims=keepdims, ord=ord)
            expected = np.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)
            assert got.dtype == expected.dtype, (ord, keepdims)
            tol_dtype = np.float32 if expected.dtype == np.float32 else np.float64
            close(host(got), expected, tol_dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", LINALG_DTYPES, ids=IDS)
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf], ids=str)
def test_matrix_norm(rng, dtype, ord):
    x = random_array(rng, (2, 4, 5), dtype)
    for keepdims in (False, True):
        got = numcu.linalg.matrix_norm(dev(x), ord=ord, keepdims=keepdims)
        expected = np.linalg.matrix_norm(x, ord=ord, keepdims=keepdims)
        assert got.dtype == expected.dtype
        close(host(got), expected, dtype)


@pytest.mark.gpu
@pytest.mark.parametrize(
    "args",
    [
        {},
        {"ord": 1},
        {"ord": "fro"},
        {"ord": "nuc"},
        {"axis": 1},
        {"axis": (2, 0)},
        {"axis": (0, 1), "ord": np.inf},
        {"axis": -1, "ord": 3, "keepdims": True},
        {"axis": (1, 2), "ord": 2, "keepdims": True},
    ],
    ids=str,
)
def test_norm(rng, args):
    x = random_array(rng, (3, 4, 5), np.float64)
    x2 = x[0] if "ord" in args and "axis" not in args else x
    close(host(numcu.linalg.norm(dev(x2), **args)), np.linalg.norm(x2, **args), np.float64)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", LINALG_DTYPES, ids=IDS)
def test_pinv_rank_lstsq_and_cond(rng, dtype):
    a = random_array(rng, (6, 4), dtype)
    close(host(numcu.linalg.pinv(dev(a))), np.linalg.pinv(a), dtype)
    close(host(numcu.linalg.pinv(dev(a), rtol=None)), np.linalg.pinv(a, rtol=None), dtype)
    low = a[:, :2] @ random_array(rng, (2, 5), dtype)  # rank 2
    assert int(host(numcu.linalg.matrix_rank(dev(low)))) == np.linalg.matrix_rank(low) == 2
    stack = random_array(rng, (3, 5, 5), dtype)
    stack[1, :, 4] = stack[1, :, 3]
    np.testing.assert_array_equal(
        host(numcu.linalg.matrix_rank(dev(stack))), np.linalg.matrix_rank(stack)
    )
    b = random_array(rng, (6, 2), dtype)
    for rhs in (b, b[:, 0]):
        x, res, rank, s = numcu.linalg.lstsq(dev(a), dev(rhs))
        ex, eres, erank, es = np.linalg.lstsq(a, rhs)
        close(host(x), ex, dtype)
        close(host(res), eres, dtype)
        assert rank == erank
        close(host(s), es, dtype)
    sq = well_conditioned(rng, (2, 4, 4), dtype)
    for p in (None, 2, -2, 1, -1, np.inf, "fro", "nuc"):
        close(host(numcu.linalg.cond(dev(sq), p)), np.linalg.cond(sq, p), dtype)


# ------------------------------------------------------------------------------------------------
# Products and views


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.int64], ids=str)
def test_products_and_views(rng, dtype):
    a = random_array(rng, (3, 4, 4), dtype)
    b = random_array(rng, (3, 4, 4), dtype)
    v, w = random_array(rng, (4,), dtype), random_array(rng, (5,), dtype)
    la = numcu.linalg
    close(host(la.matmul(dev(a), dev(b))), np.linalg.matmul(a, b), dtype)
    close(
        host(la.tensordot(dev(a), dev(b), axes=([1, 2], [2, 1]))),
        np.linalg.tensordot(a, b, axes=([1, 2], [2, 1])),
        dtype,
    )
    close(host(la.vecdot(dev(a), dev(b), axis=1)), np.linalg.vecdot(a, b, axis=1), dtype)
    close(host(la.outer(dev(v), dev(w))), np.linalg.outer(v, w), dtype)
    np.testing.assert_array_equal(host(la.matrix_transpose(dev(a))), np.linalg.matrix_transpose(a))
    for offset in (0, 1, -2, 7):
        np.testing.assert_array_equal(
            host(la.diagonal(dev(a), offset=offset)), np.linalg.diagonal(a, offset=offset)
        )
        got = la.trace(dev(a), offset=offset)
        expected = np.linalg.trace(a, offset=offset)
        assert got.dtype == expected.dtype
        close(host(got), expected, dtype)
    c3, d3 = random_array(rng, (2, 3, 5), dtype), random_array(rng, (3, 1), dtype)
    close(host(la.cross(dev(c3), dev(d3), axis=-2)), np.linalg.cross(c3, d3, axis=-2), dtype)
    if dtype != np.int64:
        m = well_conditioned(rng, (2, 4, 4), dtype)
        for n in (0, 1, 2, 5, -3):
            close(host(la.matrix_power(dev(m), n)), np.linalg.matrix_power(m, n), dtype, scale=0)
    chain = [random_array(rng, s, dtype) for s in [(7,), (7, 3), (3, 9), (9, 2), (2,)]]
    close(host(la.multi_dot([dev(x) for x in chain])), np.linalg.multi_dot(chain), dtype)


# ------------------------------------------------------------------------------------------------
# Errors and dispatch


@pytest.mark.gpu
def test_errors_name_the_function(rng):
    la = numcu.linalg
    square = dev(well_conditioned(rng, (3, 3), np.float64))
    with pytest.raises(np.linalg.LinAlgError, match="must be square"):
        la.inv(dev(np.ones((2, 3))))
    with pytest.raises(np.linalg.LinAlgError, match="at least two-dimensional"):
        la.det(dev(np.ones(3)))
    with pytest.raises(TypeError, match="numcu.linalg.inv: array type float16 is unsupported"):
        la.inv(dev(np.eye(3, dtype=np.float16)))
    with pytest.raises(ValueError, match="numcu.linalg.solve"):
        la.solve(square, dev(np.ones((4, 1))))
    # NumPy 2: a b of more than one dimension is a stack of matrices, here of 0 rows, not 3.
    with pytest.raises(ValueError, match=r"numcu.linalg.solve: b of shape \(0, 3\)"):
        la.solve(dev(np.zeros((0, 3, 3))), dev(np.ones((0, 3))))
    with pytest.raises(ValueError, match="invalid norm order"):
        la.vector_norm(square, ord="fro")
    with pytest.raises(ValueError, match="invalid norm order"):
        la.matrix_norm(square, ord=3)
    with pytest.raises(ValueError, match="different devices"):
        la.solve(square, np.ones(3))
    with pytest.raises(np.exceptions.AxisError):
        la.vector_norm(square, axis=5)
    with pytest.raises(ValueError, match="mode"):
        la.qr(square, mode="raw")
    with pytest.raises(ValueError, match="UPLO"):
        la.eigh(square, UPLO="X")


@pytest.mark.gpu
def test_numpy_linalg_on_numcu_arrays_runs_numcus(rng):
    a = well_conditioned(rng, (4, 4), np.float64)
    b = random_array(rng, (4,), np.float64)
    got = np.linalg.solve(dev(a), dev(b))
    assert isinstance(got, numcu.ndarray)
    close(host(got), np.linalg.solve(a, b), np.float64)
    assert isinstance(np.linalg.norm(dev(a)), numcu.ndarray)
    assert isinstance(np.linalg.svd(dev(a)).S, numcu.ndarray)


@pytest.mark.gpu
def test_the_libraries_are_loaded_from_the_toolkit_or_wheels():
    assert "cusolver" in numcu._core._cusolver_path().lower()


@pytest.mark.gpu
def test_other_libraries_arrays_go_in(rng):
    cp = pytest.importorskip("cupy")
    a = well_conditioned(rng, (5, 5), np.float32)
    got = numcu.linalg.inv(cp.asarray(a))
    assert isinstance(got, numcu.ndarray)
    close(host(got), np.linalg.inv(a), np.float32)


@pytest.mark.gpu
def test_the_current_stream_is_used(rng):
    a = well_conditioned(rng, (8, 50, 50), np.float64)
    s = numcu.cuda.Stream(non_blocking=True)
    with s:
        da = dev(a)
        x = numcu.linalg.inv(da)
        d = numcu.linalg.det(da)
    s.synchronize()
    close(host(x), np.linalg.inv(a), np.float64)
    close(host(d), np.linalg.det(a), np.float64, scale=0)
    assert math.isfinite(float(host(d)[0]))
