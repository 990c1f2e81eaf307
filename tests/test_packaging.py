"""How numcu is built and installed: the sdist, the build's choices and refusals, wheels.

Specification:
- the sdist (``.ci/sdist.py``, ``nox -s sdist``) holds what a build needs and the tests, and
  nothing else (no build output, none of the CI's other scripts);
- the build backend asks for NVIDIA's CUDA 13 compiler wheels only where no nvcc is found and
  the CUDA backend is wanted, and says why it does not where it cannot have them;
- ``cuda/cmake/find_nvidia_nvcc.py`` finds nvcc in NVIDIA's wheels' layout, and says which wheel is
  missing where nvcc is there without cicc;
- a configure without a C++ compiler, and one whose NUMCU_CUDA_ARCHITECTURES names an
  architecture nvcc does not know, stop with one message that says what to do (no module);
- a compiled module the loader refuses raises an ImportError with the loader's message;
- two of numcu's distributions in one folder (numcu-cuda12x and numcu-cuda13x) make
  ``import numcu`` raise an ImportError naming both;
- a CPU-only build says why it has no CUDA backend in build_info, ``python -m numcu`` and the
  first GPU call;
- a package that depends on numcu installs from a folder of numcu wheels (NUMCU_WHEELHOUSE)
  without compiling anything, and its first call runs (on a GPU where there is one).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.machinery
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pytest

import numcu
from numcu import _load

ROOT = Path(__file__).resolve().parent.parent
SOURCE_TREE = (ROOT / "CMakeLists.txt").exists() and (ROOT / ".ci" / "numcu_backend.py").exists()
needs_source = pytest.mark.skipif(not SOURCE_TREE, reason="needs numcu's source tree")
HAS_NVCC = bool(shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc"))
needs_nvcc_and_ninja = pytest.mark.skipif(
    not (SOURCE_TREE and HAS_NVCC and shutil.which("ninja")),
    reason="needs numcu's source tree, nvcc and ninja",
)
INFO = numcu.build_info()


def load_backend():
    # The backend is scikit-build-core's with numcu's additions: it needs scikit-build-core, which
    # an environment numcu was built for in isolation (pip's default) does not have.
    pytest.importorskip("scikit_build_core")
    spec = importlib.util.spec_from_file_location(
        "numcu_backend_under_test", ROOT / ".ci" / "numcu_backend.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------------------------
# The sdist
# --------------------------------------------------------------------------------------------


@pytest.mark.skipif(
    not (ROOT / ".ci" / "sdist.py").exists(), reason="needs numcu's repository (.ci/sdist.py)"
)
def test_sdist_holds_what_a_build_needs_and_nothing_else(tmp_path):
    pytest.importorskip("scikit_build_core")
    done = subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "sdist.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (sdist,) = tmp_path.glob("numcu-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {m.name.split("/", 1)[1] for m in archive.getmembers() if "/" in m.name}
    assert {"pyproject.toml", ".ci/numcu_backend.py", "cuda/cmake/numcu_nvcc.cmake"} <= names
    assert "cuda/src/sort.cu" in names and "tests/test_packaging.py" in names
    assert not [n for n in names if n.startswith("build/") or n.endswith((".so", ".whl"))]
    assert not [n for n in names if n.startswith(("benchmarks/", ".ci/run", ".ci/build_wheel"))]


def make_sdist(path: Path, files: dict[str, str]) -> Path:
    """A .tar.gz of numcu-0.1.0/<name> for each file, every one dated alike, as an sdist is."""
    with tarfile.open(path, "w:gz") as archive:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"numcu-0.1.0/{name}")
            info.size, info.mtime = len(data), 1_000_000_000
            archive.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.skipif(
    not (ROOT / ".ci" / "build_wheel.py").exists(), reason="needs numcu's repository (.ci/)"
)
def test_build_wheel_dates_a_changed_source_newer_than_its_last_build(tmp_path, monkeypatch):
    # The wheel's build folder is reused: a source whose content changed must look newer than
    # anything built from it before, and one that did not keep its date.
    monkeypatch.syspath_prepend(str(ROOT / ".ci"))
    spec = importlib.util.spec_from_file_location("build_wheel", ROOT / ".ci" / "build_wheel.py")
    build_wheel = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_wheel)
    pyproject = '[project]\nname = "numcu"\n'
    first = make_sdist(
        tmp_path / "a.tar.gz", {"pyproject.toml": pyproject, "k.cu": "1", "h.hpp": "x"}
    )
    top = build_wheel.stage(first, "numcu-cuda13x", tmp_path / "work")
    assert 'name = "numcu-cuda13x"' in (top / "pyproject.toml").read_text()
    built = (top / "k.cu").stat().st_mtime_ns  # what the build folder's outputs date from
    kept = (top / "h.hpp").stat().st_mtime_ns

    second = make_sdist(
        tmp_path / "b.tar.gz", {"pyproject.toml": pyproject, "k.cu": "2", "h.hpp": "x"}
    )
    top = build_wheel.stage(second, "numcu-cuda13x", tmp_path / "work")

    assert (top / "k.cu").read_text() == "2"
    assert (top / "k.cu").stat().st_mtime_ns > built
    assert (top / "h.hpp").stat().st_mtime_ns == kept


# --------------------------------------------------------------------------------------------
# The build backend's choice of compiler wheels
# --------------------------------------------------------------------------------------------


@pytest.fixture
def backend(monkeypatch, tmp_path):
    """The backend on a machine with no nvcc anywhere and no driver, unless a test says."""
    module = load_backend()
    for name in ("NUMCU_CUDA", "NUMCU_CUDA_WHEELS", "CUDACXX", "CUDA_HOME", "CUDA_PATH",
                 "SKBUILD_CMAKE_DEFINE", "CMAKE_ARGS", "PIP_NO_INDEX"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(module.os.path, "isfile", lambda path: False)
    monkeypatch.setattr(module, "driver_cuda_version", lambda: None)
    monkeypatch.setattr(module.platform, "system", lambda: "Linux")
    monkeypatch.setattr(module.platform, "machine", lambda: "x86_64")
    return module


def test_backend_asks_for_compiler_wheels_only_without_nvcc(backend, monkeypatch, tmp_path):
    wheels, note = backend.compiler_wheels()
    assert note == ""
    assert [w.split("==")[0] for w in wheels] == [
        "nvidia-cuda-nvcc",
        "nvidia-nvvm",
        "nvidia-cuda-crt",
        "nvidia-cuda-runtime",
        "nvidia-cuda-cccl",
    ]
    assert all(w.endswith("==13.0.*") for w in wheels)
    nvcc = tmp_path / "nvcc"
    nvcc.write_text("#!/bin/sh\n")
    nvcc.chmod(0o755)
    assert backend.compiler_wheels() == ([], "")  # nvcc on PATH
    nvcc.unlink()
    monkeypatch.setenv("CUDACXX", "/opt/cuda/bin/nvcc")
    assert backend.compiler_wheels() == ([], "")


@pytest.mark.parametrize(
    "how",
    [
        {"env": {"NUMCU_CUDA": "OFF"}},
        {"env": {"SKBUILD_CMAKE_DEFINE": "NUMCU_WARNINGS_AS_ERRORS=ON;NUMCU_CUDA=OFF"}},
        {"env": {"CMAKE_ARGS": "-DNUMCU_CUDA=OFF"}},
        {"settings": {"cmake.define.NUMCU_CUDA": "OFF"}},
    ],
)
def test_backend_asks_for_nothing_for_a_cpu_only_build(backend, monkeypatch, how):
    for name, value in how.get("env", {}).items():
        monkeypatch.setenv(name, value)
    assert backend.compiler_wheels(how.get("settings")) == ([], "")
    assert backend.get_requires_for_build_sdist() == backend.get_requires_for_build_sdist({})


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        ({"env": {"NUMCU_CUDA_WHEELS": "0"}}, "NUMCU_CUDA_WHEELS=0"),
        ({"env": {"PIP_NO_INDEX": "1"}}, "without a package index"),
        ({"driver": 12040}, "supports CUDA 12.4"),
        ({"system": "Darwin", "machine": "arm64"}, "no CUDA compiler wheels for Darwin"),
    ],
)
def test_backend_says_why_it_cannot_have_the_wheels(backend, monkeypatch, setup, reason):
    for name, value in setup.get("env", {}).items():
        monkeypatch.setenv(name, value)
    if "driver" in setup:
        monkeypatch.setattr(backend, "driver_cuda_version", lambda: setup["driver"])
    if "system" in setup:
        monkeypatch.setattr(backend.platform, "system", lambda: setup["system"])
        monkeypatch.setattr(backend.platform, "machine", lambda: setup["machine"])
    wheels, note = backend.compiler_wheels()
    assert wheels == []
    assert reason in note


def test_backend_adds_the_wheels_to_scikit_build_cores_requirements(backend, monkeypatch):
    monkeypatch.setattr(backend._scikit, "get_requires_for_build_wheel", lambda s=None: ["ninja"])
    assert backend.get_requires_for_build_wheel() == ["ninja", *backend.COMPILER_WHEELS]


# --------------------------------------------------------------------------------------------
# nvcc in NVIDIA's wheels (what CMake runs to find it)
# --------------------------------------------------------------------------------------------


def fake_wheels(site: Path, parts: dict[str, tuple[str, ...]]) -> Path:
    root = site / "nvidia" / "cu13"
    for path in parts.values():
        target = root.joinpath(*path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("")
    return root


@needs_source
def test_find_nvidia_nvcc(tmp_path):
    script = ROOT / "cuda" / "cmake" / "find_nvidia_nvcc.py"
    spec = importlib.util.spec_from_file_location("find_nvidia_nvcc", script)
    finder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(finder)

    def run():
        env = dict(os.environ, PYTHONPATH=str(tmp_path))
        out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    assert run() == ""  # no wheels
    parts = dict(finder.PARTS)
    del parts["nvidia-nvvm"]
    root = fake_wheels(tmp_path, parts)
    assert run() == f"missing\tnvcc is in {root} but not nvidia-nvvm"
    fake_wheels(tmp_path, finder.PARTS)
    path, wheels = run().split("\t")
    assert path == str(root / "bin" / "nvcc")
    assert wheels.startswith("nvidia-cuda-nvcc ")


# --------------------------------------------------------------------------------------------
# Configure-time refusals (CMake alone, a few seconds each)
# --------------------------------------------------------------------------------------------


def cmake_for_numcu():
    """A cmake of the version numcu needs (3.26+): the cmake package's, else PATH's."""
    candidates = []
    try:
        import cmake as cmake_package

        candidates.append(os.path.join(cmake_package.CMAKE_BIN_DIR, "cmake"))
    except (ImportError, AttributeError):
        pass
    candidates.append(shutil.which("cmake"))
    for cmake in filter(None, candidates):
        out = subprocess.run([cmake, "--version"], capture_output=True, text=True).stdout
        found = re.search(r"version (\d+)\.(\d+)", out)
        if found and (int(found.group(1)), int(found.group(2))) >= (3, 26):
            return cmake
    pytest.skip("no cmake 3.26 or newer")
    return None


def configure(tmp_path, env_extra, *defines):
    cmake = cmake_for_numcu()
    env = {k: v for k, v in os.environ.items() if k not in ("CUDAARCHS", "SKBUILD_CMAKE_DEFINE")}
    env.update(env_extra)
    return subprocess.run(
        [
            cmake,
            "-S",
            str(ROOT),
            "-B",
            str(tmp_path / "build"),
            "-G",
            "Ninja",
            "-DSKBUILD_PROJECT_NAME=numcu",
            "-DSKBUILD_PROJECT_VERSION=0.1.0",
            *defines,
        ],  # fmt: skip
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@needs_source
def test_configure_without_a_cpp_compiler_says_what_to_install(tmp_path):
    if shutil.which("ninja") is None:
        pytest.skip("no ninja")
    done = configure(tmp_path, {"CXX": str(tmp_path / "no-such-compiler")})
    assert done.returncode != 0
    text = " ".join((done.stdout + done.stderr).split())
    assert "numcu: no C++ compiler was found" in text
    assert "apt install g++" in text and "Nothing was installed" in text


@needs_nvcc_and_ninja
def test_configure_refuses_an_architecture_nvcc_does_not_know(tmp_path):
    done = configure(tmp_path, {"NUMCU_CUDA_ARCHITECTURES": "90;35-real"})
    assert done.returncode != 0
    text = " ".join((done.stdout + done.stderr).split())
    assert "include 35-real, which nvcc" in text
    assert "It knows:" in text and "Nothing was installed" in text
    assert not (tmp_path / "build" / "build.ninja").exists()


@needs_nvcc_and_ninja
def test_configure_refuses_an_unknown_fatbin_compression(tmp_path):
    done = configure(tmp_path, {}, "-DNUMCU_FATBIN_COMPRESSION=speed")
    assert done.returncode != 0
    text = " ".join((done.stdout + done.stderr).split())
    assert "NUMCU_FATBIN_COMPRESSION is 'speed': use size or balance" in text


# --------------------------------------------------------------------------------------------
# Import-time errors
# --------------------------------------------------------------------------------------------


def test_import_error_carries_the_loaders_message(tmp_path):
    package = tmp_path / "numcu"
    shutil.copytree(Path(numcu.__file__).parent, package, ignore=shutil.ignore_patterns("*.so"))
    suffix = next(s for s in importlib.machinery.EXTENSION_SUFFIXES if s.endswith(".so"))
    (package / f"_core{suffix}").write_bytes(b"not an ELF file")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", "import numcu"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    assert "numcu's compiled module (_core) could not be loaded:" in done.stderr
    assert re.search(r"invalid ELF header|file too short", done.stderr), done.stderr
    assert "is missing" not in done.stderr


def test_two_distributions_in_one_place_are_refused(tmp_path):
    package = tmp_path / "numcu"
    package.mkdir()
    (tmp_path / "numcu_cuda13x-0.1.0.dist-info").mkdir()
    _load.check_one_distribution(str(package))  # one is fine
    (tmp_path / "numcu_cuda12x-0.1.0.dist-info").mkdir()
    (tmp_path / "numcu_extra-1.0.dist-info").mkdir()  # not numcu's
    assert _load.installed_distributions(str(tmp_path)) == ["numcu-cuda12x", "numcu-cuda13x"]
    with pytest.raises(
        ImportError, match=r"numcu-cuda12x and numcu-cuda13x are installed together"
    ):
        _load.check_one_distribution(str(package))


# --------------------------------------------------------------------------------------------
# A build without the CUDA backend says why
# --------------------------------------------------------------------------------------------


def test_build_info_says_why_there_is_no_cuda_backend():
    assert INFO["distribution"] in _load.DISTRIBUTIONS
    if "cuda" in INFO["backends"]:
        assert INFO["no_cuda_reason"] is None
        return
    reason = INFO["no_cuda_reason"]
    assert isinstance(reason, str)
    assert "NUMCU_CUDA=OFF" in reason or ("no nvcc" in reason and "numcu-cuda13x" in reason)
    assert numcu.cuda.unavailable_reason() == reason
    with pytest.raises(numcu.cuda.CUDAUnavailableError) as error:
        numcu.add(np.ones(3), 1.0, device="cuda")
    assert reason in str(error.value)
    out = subprocess.run(
        [sys.executable, "-m", "numcu"], capture_output=True, text=True, timeout=300
    ).stdout
    assert reason in " ".join(out.split())


# --------------------------------------------------------------------------------------------
# A package that depends on numcu, installed from numcu's wheels
# --------------------------------------------------------------------------------------------

WHEELHOUSE = os.environ.get("NUMCU_WHEELHOUSE")


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def make_dependent_wheel(folder: Path, requirement: str) -> Path:
    """A pure-Python wheel `numcu_user` that requires `requirement` and calls numcu."""
    files = {
        "numcu_user/__init__.py": (
            b"import numpy as np\nimport numcu\n\n\ndef double(x, device=None):\n"
            b"    return numcu.multiply(np.asarray(x), 2, device=device)\n"
        ),
        "numcu_user-1.0.dist-info/METADATA": (
            f"Metadata-Version: 2.1\nName: numcu-user\nVersion: 1.0\nRequires-Dist: {requirement}\n"
        ).encode(),
        "numcu_user-1.0.dist-info/WHEEL": (
            b"Wheel-Version: 1.0\nGenerator: numcu-tests\nRoot-Is-Purelib: true\n"
            b"Tag: py3-none-any\n"
        ),
    }
    lines = [record_line(name, data) for name, data in files.items()]
    lines.append("numcu_user-1.0.dist-info/RECORD,,")
    files["numcu_user-1.0.dist-info/RECORD"] = ("\n".join(lines) + "\n").encode()
    wheel = folder / "numcu_user-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return wheel


@pytest.mark.skipif(not WHEELHOUSE, reason="set NUMCU_WHEELHOUSE to a folder of numcu wheels")
def test_a_dependent_package_installs_numcus_wheel_and_compiles_nothing(tmp_path):
    wheels = sorted(Path(WHEELHOUSE).resolve().glob("numcu*.whl"))
    assert wheels, f"no numcu wheel in {WHEELHOUSE}"
    distribution = wheels[-1].name.split("-")[0].replace("_", "-")
    links = tmp_path / "links"
    links.mkdir()
    for wheel in wheels:
        shutil.copy2(wheel, links)
    make_dependent_wheel(links, distribution)
    env_dir = tmp_path / "venv"
    # A fresh environment that sees this one's NumPy (the machine may be offline) and nothing
    # else of it: links to NumPy's folders, through a .pth file.
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True)
    shared = tmp_path / "shared"
    shared.mkdir()
    site = Path(np.__file__).resolve().parent.parent
    for entry in site.iterdir():
        if entry.name == "numpy" or re.fullmatch(r"numpy(\.libs|-[^-]+\.dist-info)", entry.name):
            (shared / entry.name).symlink_to(entry)
    purelib = subprocess.run(
        [
            str(env_dir / "bin" / "python"),
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "numpy_from_tests.pth").write_text(f"{shared}\n")
    python = env_dir / "bin" / "python"
    install = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--no-index",
            "--only-binary",
            ":all:",
            "--find-links",
            str(links),
            "numcu-user",
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    assert "Building wheel" not in install.stdout
    assert re.search(rf"Successfully installed .*{re.escape(distribution)}-", install.stdout)
    device = "cuda" if numcu.cuda.is_available() else "cpu"
    check = subprocess.run(
        [
            str(python),
            "-c",
            "import sys, numpy as np, numcu, numcu_user\n"
            f"x = np.arange(1, 6, dtype=np.float32); r = numcu_user.double(x, device={device!r})\n"
            "r = r.get() if hasattr(r, 'get') else r\n"
            "assert np.array_equal(r, 2 * x), r\n"
            "print(numcu.__file__, numcu.build_info()['distribution'])",
        ],  # fmt: skip
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert check.returncode == 0, check.stderr
    where, name = check.stdout.split()
    assert where.startswith(str(env_dir))
    assert name == distribution
