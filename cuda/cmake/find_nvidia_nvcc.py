"""Find nvcc in NVIDIA's compiler wheels that this Python can import.

cuda/cmake/numcu_nvcc.cmake runs it.

Prints one line: ``<nvcc path>\\t<the wheels and their versions>``, or ``missing\\t<what is
missing>`` when nvcc is there without a part it needs (cicc, from nvidia-nvvm), or nothing when
there is no nvcc at all. CUDA 13's wheels install into ``nvidia/cu13``; CUDA 12's
``nvidia-cuda-nvcc-cu12`` holds ptxas and libnvvm but no nvcc, so CUDA 12 is never found here.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys

# The wheels nvcc needs, by what each one provides (their distribution names).
PARTS = {
    "nvidia-cuda-nvcc": ("bin", "nvcc"),
    "nvidia-nvvm": ("nvvm", "bin", "cicc"),
    "nvidia-cuda-crt": ("include", "crt", "host_config.h"),
    "nvidia-cuda-runtime": ("include", "cuda_runtime.h"),
    "nvidia-cuda-cccl": ("include", "cccl", "cub", "cub.cuh"),
}


def version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def main() -> int:
    spec = importlib.util.find_spec("nvidia")
    folders = list(spec.submodule_search_locations or []) if spec else []
    for folder in folders:
        for major in ("cu13",):
            root = os.path.join(folder, major)
            if not os.path.isfile(os.path.join(root, *PARTS["nvidia-cuda-nvcc"])):
                continue
            missing = [n for n, p in PARTS.items() if not os.path.exists(os.path.join(root, *p))]
            if missing:
                print(f"missing\tnvcc is in {root} but not {', '.join(missing)}")
                return 0
            wheels = ", ".join(f"{name} {version(name)}" for name in PARTS)
            print(f"{os.path.join(root, 'bin', 'nvcc')}\t{wheels}")
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
