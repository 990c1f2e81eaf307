"""
Where numcu runs calls whose operands are all host (NumPy) data when ``device=`` is not given.

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
import json as json
import os as os
import typing
__all__: list[str] = ['Placement', 'json', 'os']
class Placement:
    """
    ``numcu.placement``: the placement model, inspectable and overridable.
    
        ``numcu.placement(func, *arrays, out=None)`` says where a call would run and why;
        ``numcu.placement.constants`` are the model's constants; ``numcu.placement.set(...)``
        changes them (``mode='cpu'`` or ``'cuda'`` forces a side for every host-only call,
        ``'auto'`` restores the model); ``numcu.placement.reset()`` goes back to the defaults and
        the fitted file.
        
    """
    def __call__(self, func, *args, out = None, threads: int | None = None) -> dict:
        """
        Where ``func(*args, out=out)`` would run with ``device=None``, and the estimates.
        
                ``func`` is a numcu function or its name; ``args`` are the arrays (or scalars) it
                would take. The call itself runs up to its placement (its argument checks, dtypes and
                shapes included) and stops there, so this reports what the call would decide; ``threads``
                stands for the CPU threads. Returns a dict: ``device`` ('cpu' or 'cuda'), ``reason``,
                ``cpu_s`` and ``gpu_s`` (estimated seconds), ``model_choice`` (the model's side),
                ``op_class``, ``in_bytes``, ``pinned_bytes``, ``largest_bytes``, ``out_bytes``,
                ``elements``, ``threads`` and ``mode``.
                
        """
    def __init__(self, core, namespace):
        ...
    def __repr__(self) -> str:
        ...
    def load(self, path: str | None = None) -> dict:
        """
        Constants from a JSON file written by ``benchmarks/fit_placement.py`` (by default
                ``placement.json`` in the package, where it exists).
        """
    def reset(self) -> dict:
        """
        The defaults, then the fitted file where there is one.
        """
    def set(self, **constants) -> dict:
        """
        Change constants by name (see ``constants``); returns them all.
        """
    @property
    def constants(self) -> dict:
        """
        The model's constants (GB/s, seconds, nanoseconds per element) and its mode.
        """
_FILE: str
