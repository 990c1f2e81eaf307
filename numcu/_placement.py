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

_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "placement.json")


class Placement:
    """``numcu.placement``: the placement model, inspectable and overridable.

    ``numcu.placement(func, *arrays, out=None)`` says where a call would run and why;
    ``numcu.placement.constants`` are the model's constants; ``numcu.placement.set(...)``
    changes them (``mode='cpu'`` or ``'cuda'`` forces a side for every host-only call,
    ``'auto'`` restores the model); ``numcu.placement.reset()`` goes back to the defaults and
    the fitted file.
    """

    def __init__(self, core, namespace):
        self._core = core
        self._namespace = namespace  # numcu, where functions are found by name
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
        would take. The call itself runs up to its placement (its argument checks, dtypes and
        shapes included) and stops there, so this reports what the call would decide; ``threads``
        stands for the CPU threads. Returns a dict: ``device`` ('cpu' or 'cuda'), ``reason``,
        ``cpu_s`` and ``gpu_s`` (estimated seconds), ``model_choice`` (the model's side),
        ``op_class``, ``in_bytes``, ``pinned_bytes``, ``largest_bytes``, ``out_bytes``,
        ``elements``, ``threads`` and ``mode``.
        """
        if isinstance(func, str):
            name = func
            func = getattr(self._namespace, name, None)
            if not callable(func):
                raise ValueError(f"numcu.placement: numcu has no function {name!r}")
        return dict(self._core._placement_of(func, args, out, threads or 0))

    def __repr__(self) -> str:
        return f"numcu.placement({self.constants})"
