"""Where numcu runs calls whose operands are all host (NumPy) data when ``device=`` is not given.

On a machine with a GPU, such a call can run on the GPU (its operands copied over and back) or on
the CPU backend's threads. numcu picks per call from a cost model: the bytes read and written,
the work per element of the function's class, the CPU threads, and bandwidths of the machine
(page-locked copies to and from the GPU, host memory on one and on all threads) and the chunks
the GPU side moves data in. ``benchmarks/fit_placement.py`` measures the constants; the set it
fitted on the project's benchmark machine (an H100 host with 16 cores) is ``placement.json``
beside this file, loaded at import (``fit_placement.py --json PATH`` then
``numcu.placement.load(PATH)`` take this machine's).
"""

from __future__ import annotations

import json
import os

import numpy as np

_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "placement.json")


class Placement:
    """``numcu.placement``: the placement model, inspectable and overridable.

    ``numcu.placement(func, *arrays, out=None)`` says where a call would run and why;
    ``numcu.placement.constants`` are the model's constants; ``numcu.placement.set(...)``
    changes them (``mode='cpu'`` or ``'cuda'`` forces a side for every host-only call,
    ``'auto'`` restores the model); ``numcu.placement.reset()`` goes back to the defaults and
    the fitted file.
    """

    def __init__(self, core):
        self._core = core
        self._defaults = dict(core._placement_model())
        self.load()

    @property
    def constants(self) -> dict:
        """The model's constants (GB/s, seconds, nanoseconds per element) and its mode."""
        return dict(self._core._placement_model())

    def set(self, **constants) -> dict:
        """Change constants by name (see ``constants``); returns them all."""
        return dict(self._core._placement_model(**constants))

    def reset(self) -> dict:
        """The defaults, then the fitted file where there is one."""
        self._core._placement_model(**self._defaults)
        self.load()
        return self.constants

    def load(self, path: str | None = None) -> dict:
        """Constants from a JSON file written by ``benchmarks/fit_placement.py`` (by default
        ``placement.json`` in the package, where it exists)."""
        path = _FILE if path is None else path
        if os.path.exists(path):
            with open(path) as f:
                fitted = json.load(f)
            fitted = {k: v for k, v in fitted.get("constants", fitted).items() if k != "mode"}
            self._core._placement_model(**fitted)
        return self.constants

    def __call__(self, func, *args, out=None, threads: int | None = None) -> dict:
        """Where ``func(*args, out=out)`` would run with ``device=None``, and the estimates.

        ``func`` is a numcu function or its name; ``args`` are the arrays (or scalars) it
        would take. Returns a dict: ``device`` ('cpu' or 'cuda'), ``reason``, ``cpu_s`` and
        ``gpu_s`` (estimated seconds), ``op_class``, ``in_bytes``, ``out_bytes``, ``threads``.
        """
        name = func if isinstance(func, str) else getattr(func, "__name__", str(func))
        arrays = [a for a in args if not np.isscalar(a)]
        host = [a for a in arrays if not _on_device(a)]
        devices = len(arrays) - len(host) + (out is not None and _on_device(out))
        in_bytes = float(sum(np.asarray(a).nbytes for a in host))
        probe = self._core._placement_estimate(name, 0.0, 0.0, 0.0, 0.0, True, 0.0, 0)
        kind = probe["op_class"]
        views = [np.asarray(a) for a in host]
        if kind == "reduction":
            elements = float(views[0].size) if views else 0.0
            out_bytes = 0.0
        elif kind == "scan":
            elements = float(views[0].size) if views else 0.0
            out_bytes = in_bytes
        else:
            shape = np.broadcast_shapes(*(v.shape for v in views)) if views else ()
            elements = float(np.prod(shape, dtype=np.float64))
            dtype = np.result_type(*views, *[a for a in args if np.isscalar(a)]) if args else None
            out_bytes = elements * (dtype.itemsize if dtype is not None else 8)
        # as the call itself counts them: page-locked arrays from the chunked path's size
        least = self._core._host_path_config()["pipeline_min_bytes"]
        pinned = float(
            sum(v.nbytes for v in views if v.nbytes >= least and self._core._pinned_by_numcu(v))
        )
        largest = float(max((v.nbytes for v in views), default=0))
        est = dict(
            self._core._placement_estimate(
                name, in_bytes, pinned, largest, out_bytes, out is None, elements, threads or 0
            )
        )
        mode = self.constants["mode"]
        gpu = bool(self._core.cuda.is_available())
        if devices:
            device, reason = "cuda", "a device array is among the operands"
        elif not gpu:
            device, reason = "cpu", "no CUDA device is available"
        elif mode != "auto":
            device, reason = mode, f"numcu.placement mode is '{mode}'"
        else:
            device = est["model_choice"]
            reason = (
                f"estimated {est['cpu_s'] * 1e3:.3f} ms on {est['threads']} CPU threads, "
                f"{est['gpu_s'] * 1e3:.3f} ms on the GPU"
            )
        est.update(device=device, reason=reason, in_bytes=in_bytes, out_bytes=out_bytes, mode=mode)
        return est

    def __repr__(self) -> str:
        return f"numcu.placement({self.constants})"


def _on_device(a) -> bool:
    return hasattr(a, "__cuda_array_interface__") and not isinstance(a, np.ndarray)
