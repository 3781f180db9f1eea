"""The GPU install resolves: the README's GPU install lines and `environment.yml` are resolved by pip, in a fresh
virtual environment, against PyPI's CUDA builds -- wheels only (`--only-binary=:all:`), except the project itself (an
editable install) and, for the multi-GPU line, DeepSpeed (PyPI has no DeepSpeed wheel since 0.3.1: its source
distribution builds into a pure-Python wheel in seconds, which is checked too). Marked `pip_resolve` (excluded by
default: it fetches the metadata of ~270 distributions from PyPI, ~1-2 min per line): `pytest -m pip_resolve`."""
import json, re, shlex, subprocess, sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.pip_resolve


def readme_gpu_lines() -> list[list[str]]:
    "The requirement arguments of every `pip install` line of the README's GPU install block (`# gpu-install`)."
    block = re.search(r"```bash\n# gpu-install\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert block, "README.md has no ```bash block starting with '# gpu-install'"
    lines = []
    for line in block.group(1).splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("pip install"):
            args = shlex.split(line)[2:]
            if "flash-attn" not in args: lines.append(args)    # the optional source build is documented, not resolved
    return lines


def environment_yml_requirements() -> list[str]:
    "The pip requirements of `environment.yml`."
    import yaml
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pips = [d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    assert pips, "environment.yml installs nothing with pip"
    return [a for p in pips for r in p for a in shlex.split(r)]


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    "A fresh virtual environment of this Python (no packages but pip), its pip isolated from this machine's config."
    d = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(d)], check=True)
    return d / "bin" / "python"


def resolve(py, args: list[str], tmp_path, no_binary=("star",)) -> list[dict]:
    """pip's dry-run resolution of `pip install <args>` run from the repository root, wheels only except `no_binary`;
    `--isolated` ignores this machine's pip configuration (its local CPU wheels and constraints). Returns the report's
    install list."""
    report = tmp_path / "report.json"
    cmd = [str(py), "-m", "pip", "install", "--isolated", "--disable-pip-version-check", "--dry-run", "--ignore-installed",
           "--only-binary=:all:", f"--no-binary={','.join(no_binary)}", "--report", str(report), *args]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, f"{shlex.join(cmd[3:])} failed:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return json.loads(report.read_text())["install"]


def versions(install) -> dict[str, str]:
    return {i["metadata"]["name"].lower(): i["metadata"]["version"] for i in install}


def check_gpu_set(install, no_binary=("star",)):
    v = versions(install)
    sources = [i["metadata"]["name"].lower() for i in install if not i["download_info"]["url"].endswith(".whl")]
    assert sorted(sources) == sorted(no_binary), sources                   # everything else is a wheel
    assert v["vllm"].split(".")[:2] <= ["0", "31"] and v["vllm"] >= "0.10"
    assert "nvidia-cuda-runtime" in v or any(k.startswith("nvidia-cuda-runtime") for k in v)   # torch's CUDA build
    assert "flash-attn" not in v and "flash_attn" not in v                  # optional, installed separately
    for k in ("torch", "transformers", "trl", "accelerate", "peft"): assert k in v
    return v


def test_readme_gpu_lines_resolve_from_wheels(venv, tmp_path):
    lines = readme_gpu_lines()
    assert lines and any(any("gpu" in a for a in args) for args in lines)
    for args in lines:
        zero = any(re.search(r"\[[^\]]*\bzero\b", a) for a in args)
        nb = ("star", "deepspeed") if zero else ("star",)
        v = check_gpu_set(resolve(venv, args, tmp_path, nb), nb)
        print(shlex.join(["pip", "install", *args]), "->", {k: v[k] for k in ("vllm", "torch", "transformers", "trl")},
              "deepspeed", v.get("deepspeed"), f"({len(v)} distributions)")


def test_environment_yml_resolves_from_wheels(venv, tmp_path):
    args = environment_yml_requirements()
    zero = any(re.search(r"\[[^\]]*\bzero\b", a) for a in args)
    nb = ("star", "deepspeed") if zero else ("star",)
    check_gpu_set(resolve(venv, args, tmp_path, nb), nb)


def test_deepspeed_source_builds_without_torch_or_a_compiler(venv, tmp_path):
    "The one source distribution of the multi-GPU install: DeepSpeed's, a pure-Python wheel (CUDA ops compile just in time)."
    spec = next(r for r in __import__("tomllib").loads((ROOT / "pyproject.toml").read_text())["project"]
                ["optional-dependencies"]["zero"] if r.startswith("deepspeed"))
    out = subprocess.run([str(venv), "-m", "pip", "wheel", "--isolated", "--disable-pip-version-check", "--no-deps",
                          "-w", str(tmp_path), spec], capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    wheels = list(tmp_path.glob("deepspeed-*-py3-none-any.whl"))
    assert len(wheels) == 1, list(tmp_path.iterdir())
