"""Developer tasks: ``nox`` runs the tests; ``nox -s lint|bench|dev|cpu|sanitize`` the others.

Set ``NUMCU_CUDA_ARCHITECTURES`` (e.g. ``90``) to compile the CUDA code for those
architectures only, which is much faster than the default list.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import nox

nox.options.sessions = ["tests"]

ARCHS_ENV = "NUMCU_CUDA_ARCHITECTURES"
CXX_SUFFIXES = {".cpp", ".hpp", ".h", ".cu", ".cuh"}


def build_args(build_dir: str | None = None) -> list[str]:
    """pip config settings for a build: its folder and the CUDA architectures.

    CMake caches its settings in the build folder, so a later build there without the
    same defines would silently keep the old ones. Each session therefore builds in its
    own folder, and one per architecture list.
    """
    archs = os.environ.get(ARCHS_ENV, "").strip()
    args = []
    if build_dir is not None:
        suffix = "-" + archs.replace(";", "_") if archs else ""
        args.append(f"-Cbuild-dir={build_dir}{suffix}/{{wheel_tag}}")
    if archs:
        args.append(f"-Ccmake.define.CMAKE_CUDA_ARCHITECTURES={archs}")
    return args


@nox.session
def tests(session: nox.Session) -> None:
    """Build and install numcu, then run the test suite (GPU tests skip without a GPU)."""
    session.install(*build_args("build/nox-tests"), ".[test]")
    session.run("pytest", *session.posargs)


@nox.session
def cpu(session: nox.Session) -> None:
    """Build without CUDA, as on a machine with no nvcc, then run the test suite."""
    session.install(
        "-Cbuild-dir=build/nox-cpu/{wheel_tag}", "-Ccmake.define.NUMCU_CUDA=OFF", ".[test]"
    )
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
    session.install(*build_args("build/nox-bench"), ".")
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
        session.install(*build_args("build/nox-sanitize"), ".[test]")
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


def default_cuda_architectures() -> str:
    """The architecture list CMakeLists.txt builds where no GPU is found."""
    text = Path("CMakeLists.txt").read_text()
    match = re.search(r'set\(NUMCU_DEFAULT_CUDA_ARCHITECTURES\s+"([^"]+)"\)', text)
    if match is None:
        raise RuntimeError("CMakeLists.txt no longer sets NUMCU_DEFAULT_CUDA_ARCHITECTURES")
    return match.group(1)


@nox.session
def wheel(session: nox.Session) -> None:
    """Build the release wheel into dist/, then report its size and check its contents.

    The wheel is built for the default architecture list even on a machine with a GPU (where a
    plain build would compile for that GPU only): every kernel compiles once per architecture,
    which takes long. ``NUMCU_CUDA_ARCHITECTURES=90 nox -s wheel`` builds one, as a quick check.
    ``nox -s wheel --no-venv`` builds with the build requirements already installed (offline).
    """
    archs = os.environ.get(ARCHS_ENV, "").strip() or default_cuda_architectures()
    session.log("CUDA architectures: %s", archs)
    if shutil.which("nvcc") is None:
        session.warn("nvcc is not on PATH: this wheel will be CPU-only")
    build_dir = "build/nox-wheel-" + archs.replace(";", "_")
    session.run(
        "python",
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        *(["--no-build-isolation"] if session.venv_backend == "none" else []),
        "--wheel-dir",
        "dist",
        f"-Cbuild-dir={build_dir}/{{wheel_tag}}",
        f"-Ccmake.define.CMAKE_CUDA_ARCHITECTURES={archs}",
        ".",
    )
    # pip rewrites the wheel even when one of the same name is there: the newest is this one.
    built = max(Path("dist").glob("numcu-*.whl"), key=lambda path: path.stat().st_mtime)
    session.run("python", ".ci/wheel_report.py", str(built))


@nox.session(reuse_venv=True)
def dev(session: nox.Session) -> None:
    """Editable install in build/dev, with compile_commands.json for editors and clangd."""
    session.install(
        *build_args(),
        "-Cbuild-dir=build/dev",
        "-Ccmake.define.CMAKE_EXPORT_COMPILE_COMMANDS=ON",
        "-e",
        ".[test]",
    )
    session.log(
        "compile_commands.json is in build/dev; the environment is %s", session.virtualenv.location
    )
