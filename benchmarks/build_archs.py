"""Where the time of a CUDA build goes, per target choice: run on any machine with nvcc.

Compiles one kernel file (``cuda/src/ufunc_hyp.cu`` by default) once per choice of CUDA
targets and times each step nvcc runs (``nvcc --dryrun`` lists them; each runs here on its
own): the front end (preprocessing and ``cicc``, once per virtual architecture, ``compute_XX``),
``ptxas`` (once per real architecture, ``sm_XX``: PTX to machine code), and the host side
(``cudafe++`` and the host compiler, once per file). Times are CPU seconds of the child
processes, so that other work on the machine changes them little; the object's size is
reported too. No GPU is needed.

    python benchmarks/build_archs.py                     # every choice, on ufunc_hyp.cu
    python benchmarks/build_archs.py --file cuda/src/reduce_sum.cu --choices per-arch,two-ptx
    python benchmarks/build_archs.py --json build/archs.json

Choices (``--choices``, comma-separated; see CHOICES):

- ``per-arch``: ``75-real;80-real;90-real;100-real;120``, machine code for each major
  architecture from its own PTX, plus PTX of 12.0 (numcu's default list until 0.1.0);
- ``two-ptx``: compute_75 compiled for sm_75 and sm_80, compute_90 for sm_90, sm_100 and sm_120
  and kept as PTX: what a build on a machine without a GPU targets (CMakeLists.txt);
- ``one-ptx``: compute_75 compiled for all five, and kept as PTX;
- ``sm90``: one architecture with its PTX (``90``), what CI builds;
- ``per-arch-uncompressed``: ``per-arch`` with ``--compress-mode=none`` (nvcc compresses by
  default).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# nvcc -gencode arguments per choice.
CHOICES = {
    "per-arch": [
        "arch=compute_75,code=sm_75",
        "arch=compute_80,code=sm_80",
        "arch=compute_90,code=sm_90",
        "arch=compute_100,code=sm_100",
        "arch=compute_120,code=[sm_120,compute_120]",
    ],
    "two-ptx": [
        "arch=compute_75,code=[sm_75,sm_80]",
        "arch=compute_90,code=[sm_90,sm_100,sm_120,compute_90]",
    ],
    "one-ptx": ["arch=compute_75,code=[sm_75,sm_80,sm_90,sm_100,sm_120,compute_75]"],
    "sm90": ["arch=compute_90,code=[sm_90,compute_90]"],
    "per-arch-uncompressed": None,  # per-arch with --compress-mode=none
}

# The flags the project's build gives a kernel file (cuda/CMakeLists.txt), less warnings.
FLAGS = [
    "-O3",
    "-DNDEBUG",
    "-std=c++17",
    "--expt-relaxed-constexpr",
    "-Xcompiler=-fPIC",
    "-Xcompiler=-fvisibility=hidden",
    "-DNUMCU_WITH_CUDA=1",
    '-DNUMCU_CUDA_ARCHITECTURES="bench"',
    f"-I{ROOT / 'cuda' / 'include'}",
]


def phase_of(command: str) -> str:
    """The step a command of nvcc's plan is: front end, ptxas, host or other."""
    tool = os.path.basename(shlex.split(command)[0]).replace('"', "")
    if tool == "cicc" or command.startswith('"$CICC_PATH/cicc"'):
        return "cicc"
    if tool == "ptxas":
        return "ptxas"
    if tool in ("gcc", "g++", "c++", "cc", "clang++"):
        # The device-side preprocessing (one per virtual architecture) belongs to the front end.
        device = "-D__CUDA_ARCH__=" in command and " -E " in command
        return "device-preprocess" if device else "host"
    if tool == "cudafe++":
        return "host"
    if tool == "fatbinary":
        return "fatbinary"
    return "other"


def child_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def plan(source: Path, gencode: list[str], extra: list[str], obj: Path) -> tuple[dict, list]:
    """nvcc's environment settings and commands for one compilation."""
    args = ["nvcc", "--dryrun", *FLAGS, *extra, "-x", "cu", "-c", str(source), "-o", str(obj)]
    for g in gencode:
        args += ["-gencode", g]
    listing = subprocess.run(args, capture_output=True, text=True, check=True).stderr
    env = dict(os.environ)
    commands = []
    for line in listing.splitlines():
        if not line.startswith("#$ "):
            continue
        body = line[3:]
        setting = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", body)
        if setting and not body.startswith(("gcc", "ptxas", "cicc", "cudafe++")):
            value = setting.group(2).strip()
            env[setting.group(1)] = os.path.expandvars(value.strip('"'))
            continue
        commands.append(body)
    return env, commands


def measure(source: Path, name: str) -> dict:
    gencode = CHOICES[name] if CHOICES[name] is not None else CHOICES["per-arch"]
    extra = ["--compress-mode=none"] if name == "per-arch-uncompressed" else []
    with tempfile.TemporaryDirectory() as tmp:
        obj = Path(tmp) / "kernel.o"
        env, commands = plan(source, gencode, extra, obj)
        seconds: dict[str, float] = {}
        counts: dict[str, int] = {}
        wall = time.perf_counter()
        for command in commands:
            if command.startswith("rm "):
                continue  # temporaries, removed below
            phase = phase_of(command)
            before = child_cpu_seconds()
            subprocess.run(["bash", "-c", command], env=env, check=True, cwd=tmp)
            seconds[phase] = seconds.get(phase, 0.0) + child_cpu_seconds() - before
            counts[phase] = counts.get(phase, 0) + 1
        wall = time.perf_counter() - wall
        size = obj.stat().st_size
        for command in commands:
            for temporary in re.findall(r"/tmp/tmpxft_[^\s\"',]+", command):
                Path(temporary).unlink(missing_ok=True)
    front = seconds.get("cicc", 0.0) + seconds.get("device-preprocess", 0.0)
    return {
        "choice": name,
        "gencode": gencode,
        "extra": extra,
        "cpu_s": round(sum(seconds.values()), 1),
        "wall_s": round(wall, 1),
        "front_end_s": round(front, 1),
        "cicc_runs": counts.get("cicc", 0),
        "ptxas_s": round(seconds.get("ptxas", 0.0), 1),
        "ptxas_runs": counts.get("ptxas", 0),
        "host_s": round(seconds.get("host", 0.0), 1),
        "fatbinary_s": round(seconds.get("fatbinary", 0.0), 1),
        "object_MiB": round(size / 2**20, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", default="cuda/src/ufunc_hyp.cu", help="the .cu file to compile")
    parser.add_argument("--choices", default=",".join(CHOICES), help="comma-separated choices")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args()
    source = (ROOT / args.file).resolve()
    names = [n for n in args.choices.split(",") if n]
    unknown = [n for n in names if n not in CHOICES]
    if unknown:
        parser.error(f"unknown choices {unknown}; known: {', '.join(CHOICES)}")
    version = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout
    print(f"{source.relative_to(ROOT)}; {version.strip().splitlines()[-2]}")
    header = (
        f"{'choice':<20}{'CPU s':>7}{'wall s':>8}{'front end s (runs)':>20}"
        f"{'ptxas s (runs)':>16}{'host s':>8}{'fatbin s':>9}{'object MiB':>12}"
    )
    print(header)
    results = []
    for name in names:
        r = measure(source, name)
        results.append(r)
        print(
            f"{name:<20}{r['cpu_s']:>7}{r['wall_s']:>8}"
            f"{r['front_end_s']:>14} ({r['cicc_runs']})"
            f"{r['ptxas_s']:>11} ({r['ptxas_runs']}){r['host_s']:>8}{r['fatbinary_s']:>9}"
            f"{r['object_MiB']:>12}",
            flush=True,
        )
    if args.json:
        Path(args.json).write_text(json.dumps({"file": args.file, "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
