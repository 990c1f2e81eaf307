"""
Finding the compiled module.

Run from a numcu source checkout (``python -m numcu`` or ``python -m pytest`` in its root),
Python imports the source folder, which has no compiled ``_core``: the one the installed
package carries is loaded in its place, so the source folder behaves like the installation.
"""
from __future__ import annotations
import importlib as importlib
import os as os
import sys as sys
__all__: list[str] = ['DISTRIBUTIONS', 'check_one_distribution', 'importlib', 'installed_distributions', 'load_core', 'os', 'sys']
def _loader_error(error: ImportError) -> ImportError:
    """
    The compiled module exists but the dynamic loader refused it: say why, and what to do.
    """
def check_one_distribution(package_folder: str) -> None:
    """
    ImportError when two distributions of numcu are installed in one place: they write the
        same files, so the compiled module may be either's, and uninstalling one breaks the other.
    """
def installed_distributions(site: str) -> list[str]:
    """
    Which of DISTRIBUTIONS have their metadata in the folder `site`, by name.
    """
def load_core():
    """
    Return numcu._core, from this folder or else from an installed numcu.
    """
DISTRIBUTIONS: tuple[str, ...] = ('numcu', 'numcu-cuda12x', 'numcu-cuda13x')
