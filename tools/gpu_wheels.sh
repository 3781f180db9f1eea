#!/usr/bin/env bash
# The wheels the lent GPU machine lacks, for tools/gpu_check.py: Python 3.12, manylinux x86_64, no network there.
# That machine has torch, transformers, peft, accelerate, pandas, pyarrow, pytest, hypothesis (the device tool's
# KINDS.md lists its packages) but not TRL, datasets (and datasets' dill and multiprocess) or fastcore, which star
# imports. The versions are this environment's, so the GPU runs the code the CPU tests ran. Output: the git-ignored
# folder tools/gpu_wheels/ (the device call carries it: carry=["tools/gpu_wheels"]); fails if it exceeds 40 MiB (the
# whole working tree that travels must stay under 64 MiB).
#   usage: bash tools/gpu_wheels.sh [DEST]
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:-tools/gpu_wheels}"
limit_mib=40
pkgs=$(python - <<'PY'
from importlib.metadata import version
print(" ".join(f"{p}=={version(p)}" for p in ("trl", "datasets", "dill", "multiprocess", "fastcore")))
PY
)
rm -rf "$dest" && mkdir -p "$dest"
echo "downloading for cp312 manylinux x86_64: $pkgs"
# shellcheck disable=SC2086
python -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp --abi cp312 \
  --abi abi3 --abi none --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --platform any -d "$dest" $pkgs
ls -l "$dest"
size=$(du -sb "$dest" | cut -f1)
echo "$dest: $(( size / 1024 )) KiB in $(ls "$dest" | wc -l) wheels (limit ${limit_mib} MiB)"
if [ "$size" -gt $(( limit_mib * 1024 * 1024 )) ]; then echo "FAIL: $dest is over ${limit_mib} MiB"; exit 1; fi
