"""numcu's namespace as earlier revisions of the Array API standard have it.

``x.__array_namespace__(api_version="2024.12")`` (or any earlier revision numcu accepts) returns
a module with numcu's names, whose ``__array_api_version__`` says that revision and whose
functions return what it asks for where 2025.12 changed the answer: lists, not tuples, from
``broadcast_arrays``, ``meshgrid`` and ``__array_namespace_info__().devices()``. Everything else
is numcu's own object. 2025.12's additions (``broadcast_shapes``, ``isin``, tuples of axes in
``expand_dims``, ...) stay: the standard lets a namespace have more than it asks for.
"""

from __future__ import annotations

import functools
import types

from . import _array_api


class _InfoAsList(_array_api._Info):
    def devices(self):
        return list(super().devices())


def _as_list(fn):
    @functools.wraps(fn)
    def listed(*args, **kwargs):
        return list(fn(*args, **kwargs))

    return listed


@functools.cache
def namespace(api_version, numcu):
    """numcu's namespace (the module `numcu`) as revision `api_version` (an earlier one than
    numcu's own) has it."""
    ns = types.ModuleType(f"numcu.array_api_{api_version.replace('.', '_')}", numcu.__doc__)
    ns.__dict__.update({k: v for k, v in vars(numcu).items() if not k.startswith("__")})
    ns.__array_api_version__ = api_version
    ns.__array_namespace_info__ = _InfoAsList
    ns.broadcast_arrays = _as_list(_array_api.broadcast_arrays)
    ns.meshgrid = _as_list(_array_api.meshgrid)
    return ns
