"""Finding the compiled module.

Run from a numcu source checkout (``python -m numcu`` or ``python -m pytest`` in its root),
Python imports the source folder, which has no compiled ``_core``: the one the installed
package carries is loaded in its place, so the source folder behaves like the installation.
"""

import importlib
import importlib.machinery
import importlib.util
import os
import sys

# The distributions that install the package numcu: from source, and the wheel of each CUDA major.
DISTRIBUTIONS = ("numcu", "numcu-cuda12x", "numcu-cuda13x")


def installed_distributions(site: str) -> list[str]:
    """Which of DISTRIBUTIONS have their metadata in the folder `site`, by name."""
    try:
        entries = os.listdir(site)
    except OSError:
        return []
    found = set()
    for entry in entries:
        if entry.endswith(".dist-info"):
            name, _, version = entry[: -len(".dist-info")].rpartition("-")
            name = name.lower().replace("_", "-")
            if version and name in DISTRIBUTIONS:
                found.add(name)
    return sorted(found)


def check_one_distribution(package_folder: str) -> None:
    """ImportError when two distributions of numcu are installed in one place: they write the
    same files, so the compiled module may be either's, and uninstalling one breaks the other."""
    found = installed_distributions(os.path.dirname(package_folder))
    if len(found) > 1:
        raise ImportError(
            f"{' and '.join(found)} are installed together in {os.path.dirname(package_folder)}, "
            "and they overwrite each other's files (they are one package, numcu, built for "
            f"different CUDA majors): `pip uninstall {' '.join(found)}`, then install one of them"
        )


def _loader_error(error: ImportError) -> ImportError:
    """The compiled module exists but the dynamic loader refused it: say why, and what to do."""
    message = str(error)
    if "GLIBC" in message or "GLIBCXX" in message or "CXXABI" in message:
        hint = (
            "this numcu was built for a newer C library or C++ runtime than this system has: "
            "install a numcu release wheel (manylinux_2_28: glibc 2.28 or newer), or build numcu "
            "from source on this system"
        )
    else:
        hint = (
            "the installation is broken or was built for another system: reinstall numcu "
            "(`pip install --force-reinstall --no-cache-dir ...`)"
        )
    return ImportError(f"numcu's compiled module (_core) could not be loaded: {message}. ({hint})")


def load_core():
    """Return numcu._core, from this folder or else from an installed numcu."""
    if "numcu._core" in sys.modules:
        return sys.modules["numcu._core"]
    check_one_distribution(os.path.dirname(os.path.abspath(__file__)))
    error = None
    try:
        module = importlib.import_module("numcu._core")
        # The source folder's numcu/_core/ holds only type stubs, which Python imports as an
        # empty namespace package (no __file__) when no compiled _core sits beside it.
        if getattr(module, "__file__", None) is not None:
            return module
        del sys.modules["numcu._core"]
    except ModuleNotFoundError as err:
        error = err
    except ImportError as err:
        # The file is there and the loader's message says why it cannot be used.
        raise _loader_error(err) from err
    here = os.path.realpath(os.path.dirname(__file__))
    for entry in sys.path:
        folder = os.path.realpath(os.path.join(entry or os.getcwd(), "numcu"))
        if folder == here or not os.path.isdir(folder):
            continue
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "_core" + suffix)
            if os.path.exists(path):
                spec = importlib.util.spec_from_file_location("numcu._core", path)
                try:
                    module = importlib.util.module_from_spec(spec)
                    sys.modules["numcu._core"] = module
                    spec.loader.exec_module(module)
                except ImportError as err:
                    sys.modules.pop("numcu._core", None)
                    raise _loader_error(err) from err
                return module
    raise ImportError(
        "numcu's compiled module (_core) is missing: install numcu with `pip install .` "
        "(a source folder alone cannot be imported)"
    ) from error
