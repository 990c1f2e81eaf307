"""numcu.linalg: the Array API standard's linalg extension (2025.12) and NumPy's numpy.linalg.

Device arrays (numcu's, and CuPy's, PyTorch's or any other through ``__cuda_array_interface__``
or DLPack) are worked on their GPU: decompositions, solves and determinants by cuSOLVER and
cuBLAS, which numcu loads at first use from the CUDA toolkit or NVIDIA's wheels (``NUMCU_CUSOLVER``
and ``NUMCU_CUBLAS`` name the libraries' paths), and LU work (solve, inv, det) on stacks of
matrices of order up to 32 (16 for complex dtypes) by numcu's own kernel, one launch per
stack. Results are numcu arrays. Host data (NumPy arrays, lists) is NumPy's business: it goes
to ``numpy.linalg`` itself.

Dtypes: float32, float64, complex64 and complex128; integers and bool promote to float64 as in
NumPy; float16 raises TypeError, as NumPy's linalg does.

Errors: a singular matrix (solve, inv), one that is not positive definite (cholesky) or a
decomposition that does not converge (eigh, eigvalsh, svd, svdvals, eig, eigvals and what uses
them) raises ``numpy.linalg.LinAlgError``. To know, these functions wait for the GPU once, at the
end of the call (one int read back); det, slogdet, qr and the compositions of products and
reductions never wait. lstsq waits once more, for the rank its residuals depend on.
"""

from __future__ import annotations

import builtins
import math
import operator
from collections import namedtuple

import numpy as np

from . import _array_api as _api
from ._load import load_core

_core = load_core()
_ndarray = _core.ndarray

LinAlgError = np.linalg.LinAlgError

EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])

_FLOATS = (np.dtype("float32"), np.dtype("float64"), np.dtype("complex64"), np.dtype("complex128"))
_NO_VALUE = object()


# ------------------------------------------------------------------------------------------------
# Inputs


def _device(*arrays, fname):
    """The inputs as arrays, and whether they are on a GPU (all on one, or all on the host)."""
    xs = [_api._as_input(x) for x in arrays]
    return xs, _api._same_place(xs, f"linalg.{fname}")


def _dtype(fname, *arrays):
    """The dtype the GPU works in: NumPy's linalg promotion (integers and bool to float64)."""
    dt = np.result_type(*(a.dtype for a in arrays))
    if dt.kind in "biu":
        return np.dtype("float64")
    if dt not in _FLOATS:
        raise TypeError(f"numcu.linalg.{fname}: array type {dt} is unsupported in linalg")
    return dt


def _real(dt):
    return np.dtype("float32") if dt in (np.float32, np.complex64) else np.dtype("float64")


def _complex(dt):
    return np.dtype("complex64") if dt in (np.float32, np.complex64) else np.dtype("complex128")


def _matrices(a, fname, square=True):
    """`a` as an array, and the dtype the GPU works its stack of matrices in (checked: at least
    two dimensions, square where asked); None for the dtype where `a` is host data, NumPy's."""
    (a,), gpu = _device(a, fname=fname)
    if not gpu:
        return a, None
    _stacked(a, fname, square)
    return a, _dtype(fname, a)


def _stacked(a, fname, square=True):
    if a.ndim < 2:
        raise LinAlgError(
            f"numcu.linalg.{fname}: {a.ndim}-dimensional array given. Array must be at least "
            "two-dimensional"
        )
    if square and a.shape[-1] != a.shape[-2]:
        raise LinAlgError(f"numcu.linalg.{fname}: Last 2 dimensions of the array must be square")


def _cast(a, dt):
    return _api.astype(a, dt, copy=False)


def _new(shape, dt, like, fill=0):
    return _core.full(shape, fill, dtype=dt, device=like.device)


# ------------------------------------------------------------------------------------------------
# Solves, inverses, determinants


def solve(a, b, /):
    """x with ``a @ x == b``: `b` is a stack of vectors where it is one-dimensional, else a stack
    of matrices (NumPy 2 and the standard); batch dimensions broadcast. LinAlgError where a
    matrix is singular (the call waits for the GPU once to know)."""
    (a, b), gpu = _device(a, b, fname="solve")
    if not gpu:
        return np.linalg.solve(a, b)
    _stacked(a, "solve")
    dt = _dtype("solve", a, b)
    vector = b.ndim == 1
    if vector:
        b = _api.expand_dims(b, axis=-1)
    if b.ndim < 2 or b.shape[-2] != a.shape[-1]:
        raise ValueError(
            f"numcu.linalg.solve: b of shape {b.shape} does not match a of shape {a.shape}"
        )
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = _api.broadcast_to(_cast(a, dt), batch + a.shape[-2:])
    b = _api.broadcast_to(_cast(b, dt), batch + b.shape[-2:])
    x = _core._linalg_solve(a, b)
    return x[..., 0] if vector else x


def inv(a, /):
    """The inverse of each matrix of a stack; LinAlgError where one is singular (one wait)."""
    a, dt = _matrices(a, "inv")
    if dt is None:
        return np.linalg.inv(a)
    return _core._linalg_inv(_cast(a, dt))


def det(a, /):
    """The determinant of each matrix of a stack, from its LU factors (no wait)."""
    a, dt = _matrices(a, "det")
    if dt is None:
        return np.linalg.det(a)
    if a.shape[-1] == 0:
        return _new(a.shape[:-2], dt, a, 1)
    return _core._linalg_det(_cast(a, dt), False)


def slogdet(a, /):
    """(sign, log|det|) of each matrix of a stack: SlogdetResult(sign, logabsdet) (no wait)."""
    a, dt = _matrices(a, "slogdet")
    if dt is None:
        return np.linalg.slogdet(a)
    if a.shape[-1] == 0:
        return SlogdetResult(_new(a.shape[:-2], dt, a, 1), _new(a.shape[:-2], _real(dt), a, 0))
    return SlogdetResult(*_core._linalg_det(_cast(a, dt), True))


def cholesky(a, /, *, upper=False):
    """L with ``a = L @ L^H`` (upper: U with ``a = U^H @ U``) for Hermitian positive-definite
    matrices, from their lower triangle; LinAlgError where one is not positive definite (one
    wait)."""
    a, dt = _matrices(a, "cholesky")
    if dt is None:
        return np.linalg.cholesky(a, upper=upper) if upper else np.linalg.cholesky(a)
    return _core._linalg_cholesky(_cast(a, dt), builtins.bool(upper))


# ------------------------------------------------------------------------------------------------
# Decompositions


def qr(a, /, mode="reduced"):
    """QRResult(Q, R) of each matrix of a stack (mode 'reduced' or 'complete'), or R alone
    (mode 'r'). NumPy's mode 'raw' is for host data only. No wait."""
    (a,), gpu = _device(a, fname="qr")
    if not gpu:
        return np.linalg.qr(a, mode=mode)
    _stacked(a, "qr", square=False)
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(
            f"numcu.linalg.qr: mode must be 'reduced', 'complete' or 'r' for device arrays, "
            f"not {mode!r}"
        )
    dt = _dtype("qr", a)
    m, n = a.shape[-2:]
    k = builtins.min(m, n)
    if a.size == 0:
        rows = m if mode == "complete" else k
        r = _new(a.shape[:-2] + (rows, n), dt, a)
        if mode == "r":
            return r
        cols = m if mode == "complete" else k
        q = _core.empty(a.shape[:-2] + (m, cols), dtype=dt, device=a.device)
        if q.size:
            q[...] = _api.eye(m, cols, dtype=dt, device=a.device)
        return QRResult(q, r)
    result = _core._linalg_qr(_cast(a, dt), mode)
    return result if mode == "r" else QRResult(*result)


def _uplo(a, UPLO, fname):
    if UPLO not in ("L", "U"):
        raise ValueError(f"numcu.linalg.{fname}: UPLO argument must be 'L' or 'U'")
    # The upper triangle of A is the lower one of A^H.
    return a if UPLO == "L" else _api.conj(_api.matrix_transpose(a))


def eigh(a, /, UPLO="L"):
    """EighResult(eigenvalues, eigenvectors) of Hermitian (symmetric) matrices, from their lower
    triangle (UPLO='U': the upper): eigenvalues ascending, eigenvectors as columns. LinAlgError
    where it does not converge (one wait)."""
    a, dt = _matrices(a, "eigh")
    if dt is None:
        return np.linalg.eigh(a, UPLO=UPLO)
    return EighResult(*_eigh(a, dt, UPLO, "eigh", True))


def eigvalsh(a, /, UPLO="L"):
    """The eigenvalues of Hermitian (symmetric) matrices, ascending (as eigh's)."""
    a, dt = _matrices(a, "eigvalsh")
    if dt is None:
        return np.linalg.eigvalsh(a, UPLO=UPLO)
    return _eigh(a, dt, UPLO, "eigvalsh", False)


def _eigh(a, dt, UPLO, fname, vectors):
    """eigh's and eigvalsh's GPU work: the (real) eigenvalues, and the eigenvectors too where
    `vectors` (a tuple)."""
    a = _uplo(_cast(a, dt), UPLO, fname)
    if a.size == 0:
        w = _new(a.shape[:-1], _real(dt), a)
        return (w, _new(a.shape, dt, a)) if vectors else w
    return _core._linalg_eigh(a, vectors)


def eig(a, /):
    """EigResult(eigenvalues, eigenvectors) of general square matrices, eigenvectors as columns
    of unit norm. On the GPU both are complex whatever the input (the standard's rule; NumPy
    gives real results for real input whose eigenvalues are all real), by cuSOLVER's geev (CUDA
    12.6 or later). LinAlgError where it does not converge (one wait)."""
    a, dt = _matrices(a, "eig")
    if dt is None:
        return np.linalg.eig(a)
    return EigResult(*_eig(a, dt, True))


def eigvals(a, /):
    """The eigenvalues of general square matrices (complex on the GPU, as eig's)."""
    a, dt = _matrices(a, "eigvals")
    if dt is None:
        return np.linalg.eigvals(a)
    return _eig(a, dt, False)


def _eig(a, dt, vectors):
    """eig's and eigvals' GPU work, in the complex dtype of `dt`: the eigenvalues, and the
    eigenvectors too where `vectors` (a tuple)."""
    dt = _complex(dt)
    a = _cast(a, dt)
    if a.size == 0:
        w = _new(a.shape[:-1], dt, a)
        return (w, _new(a.shape, dt, a)) if vectors else w
    return _core._linalg_eig(a, vectors)


def svd(a, /, full_matrices=True, compute_uv=True, hermitian=False):
    """SVDResult(U, S, Vh) with ``a = U @ diag(S) @ Vh``, S descending, or S alone (compute_uv
    False). LinAlgError where it does not converge (one wait). `hermitian` is taken for NumPy's
    signature; the GPU computes the general decomposition, which is one for Hermitian matrices
    too."""
    a, dt = _matrices(a, "svd", square=False)
    if dt is None:
        return np.linalg.svd(a, full_matrices, compute_uv, hermitian)
    a = _cast(a, dt)
    m, n = a.shape[-2:]
    k = builtins.min(m, n)
    if a.size == 0:
        s = _new(a.shape[:-2] + (k,), _real(dt), a)
        if not compute_uv:
            return s
        ucols, vrows = (m, n) if full_matrices else (k, k)
        u = _core.empty(a.shape[:-2] + (m, ucols), dtype=dt, device=a.device)
        vh = _core.empty(a.shape[:-2] + (vrows, n), dtype=dt, device=a.device)
        if u.size:
            u[...] = _api.eye(m, ucols, dtype=dt, device=a.device)
        if vh.size:
            vh[...] = _api.eye(vrows, n, dtype=dt, device=a.device)
        return SVDResult(u, s, vh)
    if not compute_uv:
        return _core._linalg_svd(a, full_matrices, False)
    return SVDResult(*_core._linalg_svd(a, full_matrices, True))


def svdvals(x, /):
    """The singular values of each matrix of a stack, descending."""
    return svd(x, compute_uv=False)


# ------------------------------------------------------------------------------------------------
# Norms, ranks, inverses of rectangular matrices


def _abs_real(x):
    """|x| in x's real floating dtype (integers: float64)."""
    if x.dtype.kind in "biu":
        x = _cast(x, np.dtype("float64"))
    return _core.absolute(x)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The vector norm of `ord` (2 by default; any real p, inf, -inf, 0) over `axis` (all axes
    by default, as of the flattened array), in x's real floating dtype."""
    (x,), gpu = _device(x, fname="vector_norm")
    if not gpu:
        if hasattr(np.linalg, "vector_norm"):
            return np.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)
        if axis is None:
            r = np.linalg.norm(x.reshape(-1), ord=ord)
            return np.reshape(r, (1,) * x.ndim) if keepdims else r
        if not isinstance(axis, int) and len(axis) != 1:
            return _host_vector_norm(x, axis, keepdims, ord)
        return np.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims)
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        axes = _api._axes(axis, x.ndim, "linalg.vector_norm")
    a = _abs_real(x)
    if ord == 2:
        r = _core.sqrt(_core.sum(_core.multiply(a, a), axis=axes, keepdims=keepdims))
    elif ord == 1:
        r = _core.sum(a, axis=axes, keepdims=keepdims)
    elif ord == math.inf:
        r = _core.max(a, axis=axes, keepdims=keepdims)
    elif ord == -math.inf:
        r = _core.min(a, axis=axes, keepdims=keepdims)
    elif ord == 0:
        r = _core.sum(_cast(_core.not_equal(a, 0), a.dtype), axis=axes, keepdims=keepdims)
    elif isinstance(ord, (int, float)) and not isinstance(ord, bool):
        r = _core.power(
            _core.sum(_core.power(a, float(ord)), axis=axes, keepdims=keepdims), 1.0 / ord
        )
        r = _cast(r, a.dtype)
    else:
        raise ValueError(f"numcu.linalg.vector_norm: invalid norm order {ord!r} for vectors")
    return r


def _host_vector_norm(x, axis, keepdims, ord):
    axes = tuple(a % x.ndim for a in axis)
    rest = [d for d in range(x.ndim) if d not in axes]
    moved = np.transpose(x, rest + list(axes)).reshape([x.shape[d] for d in rest] + [-1])
    r = np.linalg.norm(moved, ord=ord, axis=-1)
    if keepdims:
        r = np.reshape(r, [1 if d in axes else x.shape[d] for d in range(x.ndim)])
    return r


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The matrix norm of `ord` ('fro', 'nuc', 1, -1, 2, -2, inf, -inf) over the last two axes."""
    (x,), gpu = _device(x, fname="matrix_norm")
    if not gpu:
        if hasattr(np.linalg, "matrix_norm"):
            return np.linalg.matrix_norm(x, keepdims=keepdims, ord=ord)
        return np.linalg.norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)
    return _matrix_norm(x, ord, (-2, -1), keepdims)


def _matrix_norm(x, ord, axes, keepdims):
    if x.ndim < 2:
        raise ValueError("numcu.linalg.matrix_norm: x must have at least two dimensions")
    r_ax, c_ax = (_api._normalize_axis(a, x.ndim, "linalg.matrix_norm") for a in axes)
    if r_ax == c_ax:
        raise ValueError("numcu.linalg.norm: duplicate axes given")
    if ord in (2, -2, "nuc"):
        s = svdvals(_api.moveaxis(x, (r_ax, c_ax), (-2, -1)))
        if ord == 2:
            r = _core.max(s, axis=-1)
        elif ord == -2:
            r = _core.min(s, axis=-1)
        else:
            r = _core.sum(s, axis=-1)
    else:
        a = _abs_real(x)
        if ord == "fro" or ord is None:
            r = _core.sqrt(_core.sum(_core.multiply(a, a), axis=(r_ax, c_ax)))
        elif ord in (1, -1):
            # The largest (smallest) column sum: summed over the rows.
            sums = _core.sum(a, axis=r_ax)
            c = c_ax - 1 if c_ax > r_ax else c_ax
            r = _core.max(sums, axis=c) if ord == 1 else _core.min(sums, axis=c)
        elif ord in (math.inf, -math.inf):
            sums = _core.sum(a, axis=c_ax)
            rr = r_ax - 1 if r_ax > c_ax else r_ax
            r = _core.max(sums, axis=rr) if ord > 0 else _core.min(sums, axis=rr)
        else:
            raise ValueError(f"numcu.linalg.matrix_norm: invalid norm order {ord!r} for matrices")
    if keepdims:
        shape = list(x.shape)
        shape[r_ax] = shape[c_ax] = 1
        r = _api.reshape(r, tuple(shape))
    return r


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm: a vector norm (one axis, or a 1-D array), a matrix norm (two axes, or a
    2-D array), or, with ord and axis None, the 2-norm of the flattened array."""
    (x,), gpu = _device(x, fname="norm")
    if not gpu:
        return np.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims)
    if axis is None:
        if ord is None or (ord in ("f", "fro") and x.ndim == 2):
            return vector_norm(x, axis=None, keepdims=keepdims)
        if x.ndim == 1:
            axis = (0,)
        elif x.ndim == 2:
            axis = (0, 1)
        else:
            raise ValueError("numcu.linalg.norm: improper number of dimensions to norm")
    axis = (axis,) if isinstance(axis, int) else tuple(operator.index(a) for a in axis)
    if len(axis) == 1:
        if isinstance(ord, str):
            raise ValueError(f"numcu.linalg.norm: invalid norm order {ord!r} for vectors")
        return vector_norm(x, axis=axis, keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axis) == 2:
        return _matrix_norm(x, "fro" if ord in (None, "f") else ord, axis, keepdims)
    raise ValueError("numcu.linalg.norm: improper number of dimensions to norm")


def cond(x, p=None):
    """The condition number of each matrix of a stack in norm `p` (None, 2, -2: from the
    singular values; 'fro', 'nuc', 1, -1, inf, -inf: norm(x) * norm(inv(x)))."""
    (x,), gpu = _device(x, fname="cond")
    if not gpu:
        return np.linalg.cond(x, p)
    _stacked(x, "cond", square=p not in (None, 2, -2))
    if p in (None, 2, -2):
        s = svdvals(x)
        with np.errstate(all="ignore"):
            if p == -2:
                return _core.divide(s[..., -1], s[..., 0])
            return _core.divide(s[..., 0], s[..., -1])
    dt = _dtype("cond", x)
    x = _cast(x, dt)
    inverse = _core._linalg_inv(x)
    return _core.multiply(
        _matrix_norm(x, p, (-2, -1), False), _matrix_norm(inverse, p, (-2, -1), False)
    )


def matrix_rank(A, /, tol=None, hermitian=False, *, rtol=None):
    """The number of singular values above `tol` (by default rtol * the largest; rtol by default
    max(M, N) * eps): numpy.linalg.matrix_rank and the standard's."""
    (A,), gpu = _device(A, fname="matrix_rank")
    if not gpu:
        return np.linalg.matrix_rank(A, tol=tol, hermitian=hermitian, rtol=rtol)
    if A.ndim < 2:
        return _cast(_core.any(_core.not_equal(A, 0)), np.dtype("int64"))
    s = svdvals(A)
    if tol is None:
        if rtol is None:
            rtol = builtins.max(A.shape[-2:]) * np.finfo(s.dtype).eps
        elif _api._is_device(rtol):
            rtol = _api.expand_dims(rtol, axis=-1)
        tol = _core.multiply(_core.max(s, axis=-1, keepdims=True), rtol)
    elif _api._is_device(tol):
        tol = _api.expand_dims(tol, axis=-1)
    return _core.count_nonzero(_core.greater(s, tol), axis=-1)


def pinv(a, /, rcond=None, hermitian=False, *, rtol=_NO_VALUE):
    """The Moore-Penrose pseudo-inverse from the SVD, singular values at or below rcond (rtol)
    times the largest dropped: rcond defaults to 1e-15 as NumPy's; rtol=None to max(M, N) * eps,
    the standard's default."""
    a, dt = _matrices(a, "pinv", square=False)
    if dt is None:
        if rtol is _NO_VALUE:
            return np.linalg.pinv(a, rcond=rcond, hermitian=hermitian)
        return np.linalg.pinv(a, rcond=rcond, hermitian=hermitian, rtol=rtol)
    a = _cast(a, dt)
    if rcond is None:
        if rtol is _NO_VALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = builtins.max(a.shape[-2:]) * np.finfo(dt).eps
        else:
            rcond = rtol
    m, n = a.shape[-2:]
    if a.size == 0:
        return _new(a.shape[:-2] + (n, m), dt, a)
    u, s, vh = svd(_api.conj(a) if dt.kind == "c" else a, full_matrices=False)
    if _api._is_device(rcond):
        rcond = _api.expand_dims(rcond, axis=-1)
    cutoff = _core.multiply(_core.max(s, axis=-1, keepdims=True), rcond)
    large = _core.greater(s, cutoff)
    with np.errstate(all="ignore"):
        s_inv = _core.where(large, _core.divide(1, s), 0)
    s_inv = _cast(s_inv, _real(dt))
    scaled = _core.multiply(_api.expand_dims(s_inv, axis=-1), _api.matrix_transpose(u))
    return _api.matmul(_api.matrix_transpose(vh), scaled)


def lstsq(a, b, rcond=None):
    """(x, residuals, rank, s): the least-squares solution of ``a @ x = b`` from the SVD of `a`
    (M x N), as numpy.linalg.lstsq. rank is a Python int, for which the call waits for the GPU
    (residuals are empty unless rank == N < M)."""
    (a, b), gpu = _device(a, b, fname="lstsq")
    if not gpu:
        return np.linalg.lstsq(a, b, rcond=rcond)
    if a.ndim != 2:
        raise LinAlgError(
            f"numcu.linalg.lstsq: {a.ndim}-dimensional array given. Array must be two-dimensional"
        )
    vector = b.ndim == 1
    if vector:
        b = _api.expand_dims(b, axis=-1)
    if b.ndim != 2 or b.shape[0] != a.shape[0]:
        raise LinAlgError("numcu.linalg.lstsq: Incompatible dimensions")
    dt = _dtype("lstsq", a, b)
    a, b = _cast(a, dt), _cast(b, dt)
    m, n = a.shape
    k = builtins.min(m, n)
    if rcond is None:
        rcond = np.finfo(dt).eps * builtins.max(m, n)
    if k == 0:
        # No singular values: x is zero, and the residuals are |b|^2 where rank (0) == n < m.
        x = _new((n, b.shape[1]), dt, a)
        if n == 0 and m > 0:
            bb = _core.absolute(b)
            residuals = _core.sum(_core.multiply(bb, bb), axis=0)
        else:
            residuals = _new((0,), _real(dt), a)
        return (x[:, 0] if vector else x), residuals, 0, _new((0,), _real(dt), a)
    u, s, vh = svd(a, full_matrices=False)
    cutoff = _core.multiply(_core.max(s), rcond)
    large = _core.greater(s, cutoff)
    with np.errstate(all="ignore"):
        s_inv = _cast(_core.where(large, _core.divide(1, s), 0), _real(dt))
    uhb = _api.matmul(_api.conj(_api.matrix_transpose(u)), b)
    x = _api.matmul(
        _api.conj(_api.matrix_transpose(vh)), _core.multiply(_api.expand_dims(s_inv, axis=-1), uhb)
    )
    rank = int(_core.count_nonzero(large).get())
    if rank == n and m > n:
        r = _core.subtract(b, _api.matmul(a, x))
        ra = _core.absolute(r)
        residuals = _core.sum(_core.multiply(ra, ra), axis=0)
    else:
        residuals = _new((0,), _real(dt), a)
    if vector:
        x = x[:, 0]
    return x, residuals, rank, s


# ------------------------------------------------------------------------------------------------
# Products and views


def matmul(x1, x2, /):
    """The matrix product (numcu.matmul: cuBLAS on the GPU)."""
    return _api.matmul(x1, x2)


def tensordot(x1, x2, /, *, axes=2):
    """The tensor contraction over `axes` (numcu.tensordot)."""
    return _api.tensordot(x1, x2, axes=axes)


def vecdot(x1, x2, /, *, axis=-1):
    """The dot product of vectors along `axis`, the first conjugated (numcu.vecdot)."""
    return _api.vecdot(x1, x2, axis=axis)


def matrix_transpose(x, /):
    """The view with the last two axes swapped."""
    (x,), _ = _device(x, fname="matrix_transpose")
    if isinstance(x, np.ndarray):
        return (
            np.linalg.matrix_transpose(x)
            if hasattr(np.linalg, "matrix_transpose")
            else (np.swapaxes(x, -1, -2))
        )
    return _api.matrix_transpose(x)


def outer(x1, x2, /):
    """The outer product of two vectors."""
    (x1, x2), gpu = _device(x1, x2, fname="outer")
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(
            f"numcu.linalg.outer: x1 and x2 must be 1-dimensional, not {x1.ndim} and {x2.ndim}"
        )
    if not gpu:
        return np.outer(x1, x2)
    return _core.multiply(_api.expand_dims(x1, axis=-1), _api.expand_dims(x2, axis=0))


def diagonal(x, /, *, offset=0):
    """The diagonals (`offset` above the main one, below where negative) of the last two axes,
    as a view."""
    (x,), gpu = _device(x, fname="diagonal")
    if not gpu:
        return (
            np.linalg.diagonal(x, offset=offset)
            if hasattr(np.linalg, "diagonal")
            else (np.diagonal(x, offset=offset, axis1=-2, axis2=-1))
        )
    if x.ndim < 2:
        raise ValueError("numcu.linalg.diagonal: x must have at least two dimensions")
    m, n = x.shape[-2:]
    sr, sc = x.strides[-2:]
    if offset >= 0:
        length = builtins.max(0, builtins.min(m, n - offset))
        start = offset * sc
    else:
        length = builtins.max(0, builtins.min(m + offset, n))
        start = -offset * sr
    if length == 0:
        start = 0
    return _core._view(x, x.shape[:-2] + (length,), x.strides[:-2] + (sr + sc,), start)


def trace(x, /, *, offset=0, dtype=None):
    """The sums of the diagonals of the last two axes (dtype as numcu.sum's)."""
    (x,), gpu = _device(x, fname="trace")
    if not gpu:
        if hasattr(np.linalg, "trace"):
            return np.linalg.trace(x, offset=offset, dtype=dtype)
        return np.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)
    return _core.sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-element vectors along `axis`; other axes broadcast."""
    (x1, x2), gpu = _device(x1, x2, fname="cross")
    if not gpu:
        if hasattr(np.linalg, "cross"):
            return np.linalg.cross(x1, x2, axis=axis)
        return np.cross(x1, x2, axis=axis)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(
            "numcu.linalg.cross: both input arrays must have 3 elements along the axis, not "
            f"{x1.shape[axis]} and {x2.shape[axis]}"
        )
    a = _api.moveaxis(x1, axis, -1)
    b = _api.moveaxis(x2, axis, -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    c0 = _core.subtract(_core.multiply(a1, b2), _core.multiply(a2, b1))
    c1 = _core.subtract(_core.multiply(a2, b0), _core.multiply(a0, b2))
    c2 = _core.subtract(_core.multiply(a0, b1), _core.multiply(a1, b0))
    out = _api.stack([c0, c1, c2], axis=-1)
    nd = builtins.max(x1.ndim, x2.ndim)
    return _api.moveaxis(out, -1, axis if axis >= 0 else nd + axis)


def matrix_power(a, n, /):
    """a raised to the integer power n by repeated squaring (n < 0: of the inverse; n == 0: the
    identity)."""
    (a,), gpu = _device(a, fname="matrix_power")
    if not gpu:
        return np.linalg.matrix_power(a, n)
    _stacked(a, "matrix_power")
    try:
        n = operator.index(n)
    except TypeError as error:
        raise TypeError("numcu.linalg.matrix_power: exponent must be an integer") from error
    if n == 0:
        eye = _api.eye(a.shape[-1], dtype=a.dtype, device=a.device)
        return _core.multiply(_core.ones(a.shape, dtype=a.dtype, device=a.device), eye)
    if n < 0:
        a = inv(a)
        n = -n
    result = None
    square = a
    while True:
        if n & 1:
            result = square if result is None else _api.matmul(result, square)
        n >>= 1
        if not n:
            break
        square = _api.matmul(square, square)
    return result if result is not a else a.copy()


def multi_dot(arrays, *, out=None):
    """The product of several matrices in the order of least work (the first may be a row
    vector, the last a column vector), as numpy.linalg.multi_dot."""
    xs, gpu = _device(*arrays, fname="multi_dot")
    if not gpu:
        return np.linalg.multi_dot(xs, out=out)
    if len(xs) < 2:
        raise ValueError("numcu.linalg.multi_dot: expecting at least two arrays")
    first, last = xs[0].ndim == 1, xs[-1].ndim == 1
    if first:
        xs[0] = _api.expand_dims(xs[0], axis=0)
    if last:
        xs[-1] = _api.expand_dims(xs[-1], axis=-1)
    for x in xs:
        if x.ndim != 2:
            raise ValueError("numcu.linalg.multi_dot: arrays must be two-dimensional")
    dims = [xs[0].shape[0]] + [x.shape[1] for x in xs]
    count = len(xs)
    # Matrix-chain order: cost[i][j] the least multiplications for xs[i..j], split[i][j] where.
    cost = [[0] * count for _ in range(count)]
    split = [[0] * count for _ in range(count)]
    for length in range(1, count):
        for i in range(count - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k

    def product(i, j):
        if i == j:
            return xs[i]
        return _api.matmul(product(i, split[i][j]), product(split[i][j] + 1, j))

    r = product(0, count - 1)
    if first:
        r = r[0]
    if last:
        r = r[..., 0]
    return _api._into(out, r)


__all__ = [
    "cholesky",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "lstsq",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "multi_dot",
    "norm",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
    "LinAlgError",
]
