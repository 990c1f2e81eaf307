"""
numcu.linalg: the Array API standard's linalg extension (2025.12) and NumPy's numpy.linalg.

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
import builtins as builtins
from collections import namedtuple
import math as math
from numcu import _array_api as _api
from numcu import _core
from numcu._core import ndarray as _ndarray
from numcu._load import load_core
import numpy as np
from numpy.linalg import LinAlgError
import operator as operator
import typing
__all__: list[str] = ['cholesky', 'cond', 'cross', 'det', 'diagonal', 'eig', 'eigh', 'eigvals', 'eigvalsh', 'inv', 'lstsq', 'matmul', 'matrix_norm', 'matrix_power', 'matrix_rank', 'matrix_transpose', 'multi_dot', 'norm', 'outer', 'pinv', 'qr', 'slogdet', 'solve', 'svd', 'svdvals', 'tensordot', 'trace', 'vecdot', 'vector_norm', 'LinAlgError']
class EigResult(tuple):
    """
    EigResult(eigenvalues, eigenvectors)
    """
    __match_args__: typing.ClassVar[tuple[str, ...]] = ('eigenvalues', 'eigenvectors')
    __slots__: typing.ClassVar[tuple] = tuple()
    _field_defaults: typing.ClassVar[dict] = {}
    _fields: typing.ClassVar[tuple[str, ...]] = ('eigenvalues', 'eigenvectors')
    @staticmethod
    def __new__(_cls, eigenvalues, eigenvectors):
        """
        Create new instance of EigResult(eigenvalues, eigenvectors)
        """
    @classmethod
    def _make(cls, iterable):
        """
        Make a new EigResult object from a sequence or iterable
        """
    def __getnewargs__(self):
        """
        Return self as a plain tuple.  Used by copy and pickle.
        """
    def __repr__(self):
        """
        Return a nicely formatted representation string
        """
    def _asdict(self):
        """
        Return a new dict which maps field names to their values.
        """
    def _replace(self, **kwds):
        """
        Return a new EigResult object replacing specified fields with new values
        """
class EighResult(tuple):
    """
    EighResult(eigenvalues, eigenvectors)
    """
    __match_args__: typing.ClassVar[tuple[str, ...]] = ('eigenvalues', 'eigenvectors')
    __slots__: typing.ClassVar[tuple] = tuple()
    _field_defaults: typing.ClassVar[dict] = {}
    _fields: typing.ClassVar[tuple[str, ...]] = ('eigenvalues', 'eigenvectors')
    @staticmethod
    def __new__(_cls, eigenvalues, eigenvectors):
        """
        Create new instance of EighResult(eigenvalues, eigenvectors)
        """
    @classmethod
    def _make(cls, iterable):
        """
        Make a new EighResult object from a sequence or iterable
        """
    def __getnewargs__(self):
        """
        Return self as a plain tuple.  Used by copy and pickle.
        """
    def __repr__(self):
        """
        Return a nicely formatted representation string
        """
    def _asdict(self):
        """
        Return a new dict which maps field names to their values.
        """
    def _replace(self, **kwds):
        """
        Return a new EighResult object replacing specified fields with new values
        """
class QRResult(tuple):
    """
    QRResult(Q, R)
    """
    __match_args__: typing.ClassVar[tuple[str, ...]] = ('Q', 'R')
    __slots__: typing.ClassVar[tuple] = tuple()
    _field_defaults: typing.ClassVar[dict] = {}
    _fields: typing.ClassVar[tuple[str, ...]] = ('Q', 'R')
    @staticmethod
    def __new__(_cls, Q, R):
        """
        Create new instance of QRResult(Q, R)
        """
    @classmethod
    def _make(cls, iterable):
        """
        Make a new QRResult object from a sequence or iterable
        """
    def __getnewargs__(self):
        """
        Return self as a plain tuple.  Used by copy and pickle.
        """
    def __repr__(self):
        """
        Return a nicely formatted representation string
        """
    def _asdict(self):
        """
        Return a new dict which maps field names to their values.
        """
    def _replace(self, **kwds):
        """
        Return a new QRResult object replacing specified fields with new values
        """
class SlogdetResult(tuple):
    """
    SlogdetResult(sign, logabsdet)
    """
    __match_args__: typing.ClassVar[tuple[str, ...]] = ('sign', 'logabsdet')
    __slots__: typing.ClassVar[tuple] = tuple()
    _field_defaults: typing.ClassVar[dict] = {}
    _fields: typing.ClassVar[tuple[str, ...]] = ('sign', 'logabsdet')
    @staticmethod
    def __new__(_cls, sign, logabsdet):
        """
        Create new instance of SlogdetResult(sign, logabsdet)
        """
    @classmethod
    def _make(cls, iterable):
        """
        Make a new SlogdetResult object from a sequence or iterable
        """
    def __getnewargs__(self):
        """
        Return self as a plain tuple.  Used by copy and pickle.
        """
    def __repr__(self):
        """
        Return a nicely formatted representation string
        """
    def _asdict(self):
        """
        Return a new dict which maps field names to their values.
        """
    def _replace(self, **kwds):
        """
        Return a new SlogdetResult object replacing specified fields with new values
        """
class SVDResult(tuple):
    """
    SVDResult(U, S, Vh)
    """
    __match_args__: typing.ClassVar[tuple[str, ...]] = ('U', 'S', 'Vh')
    __slots__: typing.ClassVar[tuple] = tuple()
    _field_defaults: typing.ClassVar[dict] = {}
    _fields: typing.ClassVar[tuple[str, ...]] = ('U', 'S', 'Vh')
    @staticmethod
    def __new__(_cls, U, S, Vh):
        """
        Create new instance of SVDResult(U, S, Vh)
        """
    @classmethod
    def _make(cls, iterable):
        """
        Make a new SVDResult object from a sequence or iterable
        """
    def __getnewargs__(self):
        """
        Return self as a plain tuple.  Used by copy and pickle.
        """
    def __repr__(self):
        """
        Return a nicely formatted representation string
        """
    def _asdict(self):
        """
        Return a new dict which maps field names to their values.
        """
    def _replace(self, **kwds):
        """
        Return a new SVDResult object replacing specified fields with new values
        """
def _abs_real(x):
    """
    |x| in x's real floating dtype (integers: float64).
    """
def _cast(a, dt):
    ...
def _complex(dt):
    ...
def _device(*arrays, fname):
    """
    The inputs as arrays, and whether they are on a GPU (all on one, or all on the host).
    """
def _dtype(fname, *arrays):
    """
    The dtype the GPU works in: NumPy's linalg promotion (integers and bool to float64).
    """
def _eig(a, dt, vectors):
    """
    eig's and eigvals' GPU work, in the complex dtype of `dt`: the eigenvalues, and the
        eigenvectors too where `vectors` (a tuple).
    """
def _eigh(a, dt, UPLO, fname, vectors):
    """
    eigh's and eigvalsh's GPU work: the (real) eigenvalues, and the eigenvectors too where
        `vectors` (a tuple).
    """
def _host_vector_norm(x, axis, keepdims, ord):
    ...
def _matrices(a, fname, square = True):
    """
    `a` as an array, and the dtype the GPU works its stack of matrices in (checked: at least
        two dimensions, square where asked); None for the dtype where `a` is host data, NumPy's.
    """
def _matrix_norm(x, ord, axes, keepdims):
    ...
def _new(shape, dt, like, fill = 0):
    ...
def _real(dt):
    ...
def _stacked(a, fname, square = True):
    ...
def _uplo(a, UPLO, fname):
    ...
def cholesky(a, *, upper = False):
    """
    L with ``a = L @ L^H`` (upper: U with ``a = U^H @ U``) for Hermitian positive-definite
        matrices, from their lower triangle; LinAlgError where one is not positive definite (one
        wait).
    """
def cond(x, p = None):
    """
    The condition number of each matrix of a stack in norm `p` (None, 2, -2: from the
        singular values; 'fro', 'nuc', 1, -1, inf, -inf: norm(x) * norm(inv(x))).
    """
def cross(x1, x2, *, axis = -1):
    """
    The cross product of 3-element vectors along `axis`; other axes broadcast.
    """
def det(a):
    """
    The determinant of each matrix of a stack, from its LU factors (no wait).
    """
def diagonal(x, *, offset = 0):
    """
    The diagonals (`offset` above the main one, below where negative) of the last two axes,
        as a view.
    """
def eig(a):
    """
    EigResult(eigenvalues, eigenvectors) of general square matrices, eigenvectors as columns
        of unit norm. On the GPU both are complex whatever the input (the standard's rule; NumPy
        gives real results for real input whose eigenvalues are all real), by cuSOLVER's geev (CUDA
        12.6 or later). LinAlgError where it does not converge (one wait).
    """
def eigh(a, UPLO = 'L'):
    """
    EighResult(eigenvalues, eigenvectors) of Hermitian (symmetric) matrices, from their lower
        triangle (UPLO='U': the upper): eigenvalues ascending, eigenvectors as columns. LinAlgError
        where it does not converge (one wait).
    """
def eigvals(a):
    """
    The eigenvalues of general square matrices (complex on the GPU, as eig's).
    """
def eigvalsh(a, UPLO = 'L'):
    """
    The eigenvalues of Hermitian (symmetric) matrices, ascending (as eigh's).
    """
def inv(a):
    """
    The inverse of each matrix of a stack; LinAlgError where one is singular (one wait).
    """
def lstsq(a, b, rcond = None):
    """
    (x, residuals, rank, s): the least-squares solution of ``a @ x = b`` from the SVD of `a`
        (M x N), as numpy.linalg.lstsq. rank is a Python int, for which the call waits for the GPU
        (residuals are empty unless rank == N < M).
    """
def matmul(x1, x2):
    """
    The matrix product (numcu.matmul: cuBLAS on the GPU).
    """
def matrix_norm(x, *, keepdims = False, ord = 'fro'):
    """
    The matrix norm of `ord` ('fro', 'nuc', 1, -1, 2, -2, inf, -inf) over the last two axes.
    """
def matrix_power(a, n):
    """
    a raised to the integer power n by repeated squaring (n < 0: of the inverse; n == 0: the
        identity).
    """
def matrix_rank(A, tol = None, hermitian = False, *, rtol = None):
    """
    The number of singular values above `tol` (by default rtol * the largest; rtol by default
        max(M, N) * eps): numpy.linalg.matrix_rank and the standard's.
    """
def matrix_transpose(x):
    """
    The view with the last two axes swapped.
    """
def multi_dot(arrays, *, out = None):
    """
    The product of several matrices in the order of least work (the first may be a row
        vector, the last a column vector), as numpy.linalg.multi_dot.
    """
def norm(x, ord = None, axis = None, keepdims = False):
    """
    numpy.linalg.norm: a vector norm (one axis, or a 1-D array), a matrix norm (two axes, or a
        2-D array), or, with ord and axis None, the 2-norm of the flattened array.
    """
def outer(x1, x2):
    """
    The outer product of two vectors.
    """
def pinv(a, rcond = None, hermitian = False, *, rtol = ...):
    """
    The Moore-Penrose pseudo-inverse from the SVD, singular values at or below rcond (rtol)
        times the largest dropped: rcond defaults to 1e-15 as NumPy's; rtol=None to max(M, N) * eps,
        the standard's default.
    """
def qr(a, mode = 'reduced'):
    """
    QRResult(Q, R) of each matrix of a stack (mode 'reduced' or 'complete'), or R alone
        (mode 'r'). NumPy's mode 'raw' is for host data only. No wait.
    """
def slogdet(a):
    """
    (sign, log|det|) of each matrix of a stack: SlogdetResult(sign, logabsdet) (no wait).
    """
def solve(a, b):
    """
    x with ``a @ x == b``: `b` is a stack of vectors where it is one-dimensional, else a stack
        of matrices (NumPy 2 and the standard); batch dimensions broadcast. LinAlgError where a
        matrix is singular (the call waits for the GPU once to know).
    """
def svd(a, full_matrices = True, compute_uv = True, hermitian = False):
    """
    SVDResult(U, S, Vh) with ``a = U @ diag(S) @ Vh``, S descending, or S alone (compute_uv
        False). LinAlgError where it does not converge (one wait). `hermitian` is taken for NumPy's
        signature; the GPU computes the general decomposition, which is one for Hermitian matrices
        too.
    """
def svdvals(x):
    """
    The singular values of each matrix of a stack, descending.
    """
def tensordot(x1, x2, *, axes = 2):
    """
    The tensor contraction over `axes` (numcu.tensordot).
    """
def trace(x, *, offset = 0, dtype = None):
    """
    The sums of the diagonals of the last two axes (dtype as numcu.sum's).
    """
def vecdot(x1, x2, *, axis = -1):
    """
    The dot product of vectors along `axis`, the first conjugated (numcu.vecdot).
    """
def vector_norm(x, *, axis = None, keepdims = False, ord = 2):
    """
    The vector norm of `ord` (2 by default; any real p, inf, -inf, 0) over `axis` (all axes
        by default, as of the flattened array), in x's real floating dtype.
    """
_FLOATS: tuple
_NO_VALUE: object
