"""The GPU check cannot rot between the rare GPU loans: its CPU mode runs here (`python tools/gpu_check.py --device
cpu`), the GPU test suite runs here on the CPU (`STAR_GPU_TESTS_DEVICE=cpu`), `pytest -m gpu --collect-only` lists
every CUDA path the project has, and `tools/gpu_wheels.sh` fetches what the GPU machine lacks in under 40 MiB."""
import json, os, subprocess, sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GPU_TESTS = {"test_each_rank_loads_on_its_own_device", "test_compute_dtype_is_bf16_autocast_over_float32_masters",
             "test_sft_step_changes_the_weights", "test_grpo_step_changes_the_weights",
             "test_checkpoint_and_exact_resume", "test_hf_generate_rollouts_against_the_real_sandbox",
             "test_validation_on_device", "test_memory_plan_against_the_allocator"}
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
       "TOKENIZERS_PARALLELISM": "false", "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "2")}


def test_gpu_suite_is_selected_by_its_marker():
    "`pytest -m gpu --collect-only` lists the GPU suite (and the default selection never runs it)."
    p = subprocess.run([sys.executable, "-m", "pytest", "-m", "gpu", "--collect-only", "-q", "-p", "no:cacheprovider",
                        "-o", "addopts=", str(ROOT / "tests")], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    names = {l.split("::")[-1] for l in p.stdout.splitlines() if "::" in l}
    assert GPU_TESTS <= names, GPU_TESTS - names
    default = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                              str(ROOT / "tests" / "test_gpu.py")], cwd=ROOT, env=ENV, capture_output=True, text=True,
                             timeout=300)
    assert default.returncode == 5 and "test_gpu.py::" not in default.stdout, default.stdout[-2000:]   # 5: none selected


def test_gpu_suite_passes_on_the_cpu(tmp_path):
    "Every GPU test, run on the CPU branch of the code it covers: what keeps the suite honest between GPU loans."
    xml = tmp_path / "junit.xml"
    # as on the GPU machine, which has no IPython (a `dev` extra): an import of it fails
    (tmp_path / "no_ipython" / "IPython").mkdir(parents=True)
    (tmp_path / "no_ipython" / "IPython" / "__init__.py").write_text('raise ImportError("no IPython on the GPU machine")')
    path = os.pathsep.join([str(tmp_path / "no_ipython"), str(ROOT), ENV.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    p = subprocess.run([sys.executable, "-m", "pytest", "-m", "gpu", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                        str(ROOT / "tests" / "test_gpu.py"), f"--junitxml={xml}", f"--basetemp={tmp_path / 'b'}"],
                       cwd=ROOT, env={**ENV, "STAR_GPU_TESTS_DEVICE": "cpu", "PYTHONPATH": path}, capture_output=True,
                       text=True, timeout=1200)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    import xml.etree.ElementTree as ET
    cases = {c.get("name"): c for c in ET.parse(xml).getroot().iter("testcase")}
    assert set(cases) == GPU_TESTS and not any(c.find("skipped") is not None for c in cases.values())


def test_plan_prediction_resolves_for_the_gpu_shapes():
    """The GRPO cases' `star.memory.plan` prediction (a one-GPU run, one prompt's group per step) resolves for both
    shapes and lengths: the first GPU check lost it to a PPO mini-batch (16 prompts) larger than the batch (1)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("gpu_check", ROOT / "tools" / "gpu_check.py")
    gc = importlib.util.module_from_spec(spec); spec.loader.exec_module(gc)
    for scale in ("1.5B", "3B"):
        for seq in gc.seq_lengths("cuda"):
            p = gc.plan_prediction(scale, seq, 79.2)
            assert p["training_gib"] > p["training_without_runtime_gib"] > 0 and f"{seq:,} tokens" in p["summary"], p


def test_gpu_check_cpu_mode(tmp_path):
    """`python tools/gpu_check.py --device cpu`: the prepared check's own code at tiny shapes -- the suite collected,
    an SFT and a GRPO step (with HF-generate rollouts) at two lengths, batched generation -- each part's JSON written,
    exit 0."""
    out = tmp_path / "out"
    p = subprocess.run([sys.executable, str(ROOT / "tools" / "gpu_check.py"), "--device", "cpu", "--out", str(out)],
                       cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    info = json.loads((out / "gpu_check.json").read_text())
    assert info["parts"] == {"collect": "ok", "steps": "ok", "generate": "ok"} and info["device"] == "cpu"
    collect = json.loads((out / "gpu_collect.json").read_text())
    assert {l.split("::")[-1] for l in collect["collected"]} >= GPU_TESTS
    assert {c["notebook"] for c in collect["gpu_cells"]} >= {"nbs/08_models.ipynb", "nbs/09_sft.ipynb"}
    cases = json.loads((out / "gpu_steps.json").read_text())["cases"]
    assert [(c["kind"], c["seq"]) for c in cases] == [("sft", 128), ("grpo", 128), ("sft", 256), ("grpo", 256)]
    assert all(c["seconds"] > 0 and c["loss"] == c["loss"] for c in cases)
    assert all(c["rollout"]["tokens"] == 2 * 8 for c in cases if c["kind"] == "grpo")   # a group of 2, 8 tokens each
    gen = json.loads((out / "gpu_generate.json").read_text())["batches"]
    assert [(g["batch"], g["tokens"]) for g in gen] == [(2, 16), (4, 32)]
    assert "(b) training steps:" in p.stdout and "gpu_check:" in p.stdout


def test_gpu_wheels_are_what_the_gpu_machine_lacks(tmp_path):
    """`tools/gpu_wheels.sh DEST` downloads (from PyPI, or pip's cache) this environment's TRL, datasets, dill,
    multiprocess and fastcore as Python 3.12 manylinux wheels, under its 40 MiB limit (they install there with
    `pip --no-index --no-deps --target`; a multiprocess wheel for 3.12 cannot install into this Python)."""
    dest = tmp_path / "wheels"
    p = subprocess.run(["bash", str(ROOT / "tools" / "gpu_wheels.sh"), str(dest)], cwd=ROOT, env=ENV,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    wheels = sorted(w.name for w in dest.glob("*.whl"))
    assert sorted(w.split("-")[0] for w in wheels) == ["datasets", "dill", "fastcore", "multiprocess", "trl"]
    assert sum(w.stat().st_size for w in dest.glob("*.whl")) < 40 * 2**20
    from importlib.metadata import version
    assert f"trl-{version('trl')}-py3-none-any.whl" in wheels
