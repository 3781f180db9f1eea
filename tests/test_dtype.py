"""The compute dtype follows the hardware (issue: bf16 on a CPU that emulates it is ~190x slower than fp32): each
branch of `star.models.dtype_choice` forced on pretend hardware, and every consumer -- SFT, RL training, the vLLM
engines, the run plan and its cost -- following it."""
import os
from unittest import mock

import pytest
import torch

import star.models as M
from star.rl import cost_variant, cpu_cost, run_plan
from star.rl_config import resolve_config, run_dtype, trl_config
from star.sft import sft_config, sft_dtype

AVX2 = {"avx512_bf16": False, "amx_bf16": False}
AVX512_BF16 = {"avx512_bf16": True, "amx_bf16": False}
AMX = {"avx512_bf16": False, "amx_bf16": True}


@pytest.fixture
def cpu(monkeypatch, tmp_path):
    "Pretend to be an x86 CPU with the given bf16 instructions (no GPU, no $STAR_DTYPE, an empty cache)."
    monkeypatch.setattr(M, "on_cuda", lambda: False)
    monkeypatch.setenv("STAR_CACHE", str(tmp_path))
    monkeypatch.delenv("STAR_DTYPE", raising=False)
    monkeypatch.setattr("platform.machine", lambda: "x86_64")
    def use(flags): monkeypatch.setattr(M, "cpu_bf16_flags", lambda: dict(flags))
    return use


@pytest.mark.parametrize("flags,expected", [(AVX2, "float32"), (AVX512_BF16, "bfloat16"), (AMX, "bfloat16")])
def test_auto_follows_the_cpu(cpu, flags, expected):
    cpu(flags)
    choice = M.dtype_choice("cpu")
    assert (choice.dtype, choice.requested, choice.device) == (expected, "auto", "cpu")
    assert ("no native bf16" in choice.reason) == (expected == "float32")
    assert M.compute_dtype() == getattr(torch, expected)


@pytest.mark.parametrize("flags", [AVX2, AVX512_BF16])
def test_every_consumer_follows_the_choice(cpu, flags):
    "SFT autocast, GRPO autocast, the vLLM engine's dtype and the run plan all take the hardware's answer."
    cpu(flags)
    want = "bfloat16" if flags["avx512_bf16"] else "float32"
    assert sft_dtype("0.5B").dtype == want and sft_config("0.5B").bf16 == (want == "bfloat16")
    cfg = resolve_config(scale="0.5B", use_vllm=False)
    assert cfg.dtype == "auto" and run_dtype(cfg).dtype == want
    assert trl_config(cfg).bf16 == (want == "bfloat16")
    assert M.engine_dtype() == want and M.engine_dtype(tiny=True) == "float32"
    assert f"precision: {want} compute (auto:" in run_plan(cfg)
    assert cpu_cost(cfg) is None or cpu_cost(cfg)["path"] == want


def test_explicit_dtype_and_environment_win(cpu, monkeypatch):
    cpu(AVX512_BF16)
    assert M.dtype_choice("cpu", "float32").dtype == "float32"
    cfg = resolve_config(scale="0.5B", dtype="float32", use_vllm=False)
    assert (run_dtype(cfg).dtype, trl_config(cfg).bf16, sft_config("0.5B", dtype="fp32").bf16) == ("float32", False, False)
    monkeypatch.setenv("STAR_DTYPE", "float32")          # every "auto" in the process
    assert M.dtype_choice().dtype == "float32" and "$STAR_DTYPE" in M.dtype_choice().reason
    assert run_dtype(resolve_config(scale="0.5B")).dtype == "float32"
    cpu(AVX2)
    monkeypatch.delenv("STAR_DTYPE")
    warned = M.dtype_choice("cpu", "bfloat16")            # asked for: kept, with a warning in the reason
    assert warned.dtype == "bfloat16" and "warning" in warned.reason
    with pytest.raises(ValueError, match="dtype must be"): resolve_config(scale="0.5B", dtype="int8")
    monkeypatch.setenv("STAR_DTYPE", "fp8")
    with pytest.raises(ValueError, match="dtype must be"): M.dtype_choice()


def test_non_x86_cpu_asks_a_cached_micro_benchmark(cpu, monkeypatch):
    cpu(AVX2)
    monkeypatch.setattr("platform.machine", lambda: "aarch64")
    calls = []
    def bench(dt):
        calls.append(dt)
        return {"bfloat16": 60.0, "float32": 40.0}[dt]
    assert M.cpu_bf16_native(bench)[0] is True
    assert M.cpu_bf16_native(lambda dt: 1 / 0)[0] is True      # cached: the benchmark does not run again
    assert calls == ["bfloat16", "float32"] and M.dtype_choice("cpu").dtype == "bfloat16"


def test_cuda_branch(monkeypatch):
    monkeypatch.delenv("STAR_DTYPE", raising=False)
    monkeypatch.setattr(M, "on_cuda", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "NVIDIA A100-SXM4-80GB")
    for native, want in ((True, "bfloat16"), (False, "float32")):
        monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, n=native: n)
        c = M.dtype_choice()
        assert (c.device, c.dtype, c.hardware) == ("cuda", want, "NVIDIA A100-SXM4-80GB")


def test_costs_exist_for_the_documented_variants_on_each_path():
    "What run_plan quotes comes from CPU_COSTS; each documented variant is either measured on a path or said to be not."
    from star.rl_config import run_params
    for path in ("bfloat16", "float32"):
        for kw, var in ((dict(), "default"), (dict(data="probe"), "probe"), (dict(sft_steps=2), "smoke"),
                        ({k: v for k, v in run_params(dict(scale="0.5B", quick=True)).items() if k != "scale"}, "quick")):
            cfg = resolve_config(scale="0.5B", dtype=path, use_vllm=False, **kw)
            assert cost_variant(cfg) == var
            plan = run_plan(cfg).splitlines()[-1]
            c = cpu_cost(cfg)
            assert (f"measured '{var}' variant" in plan) if c else ("not measured" in plan), plan


def test_readme_cost_table_is_cpu_costs(monkeypatch):
    """bench/README.md's "Which compute path your CPU takes" (the top-level README's until issue 35) quotes, per path,
    the minutes `run_plan` prints for the quick, smoke, probe and default runs (SFT included): the table cannot drift from
    `CPU_COSTS`."""
    import re
    from pathlib import Path
    import star.rl as R
    monkeypatch.setattr(R, "on_cuda", lambda: False)
    text = (Path(__file__).resolve().parents[1] / "bench" / "README.md").read_text()
    rows = {}
    for line in text.split("<!-- cpu-costs -->", 1)[1].split("\n\n", 1)[0].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        for name in ("quick", "smoke", "probe", "default"):
            if cells[0].startswith(name + ":"): rows[name] = cells[1:]
    assert set(rows) == {"quick", "smoke", "probe", "default"}, rows
    from star.rl_config import QUICK, QUICK_TRAVELPLANNER
    runs = {"quick": {**QUICK, "run_name": "rl_quick_0.5B"}, "probe": {"data": "probe"}, "default": {},
            "smoke": {**QUICK_TRAVELPLANNER, "run_name": "rl_quick_0.5B_easy"}}
    for name, kw in runs.items():
        for path, cell in zip(("bfloat16", "float32"), rows[name]):
            cost = cpu_cost(resolve_config(scale="0.5B", dtype=path, **kw), sft_missing=True)
            if cost is None: assert cell.startswith("not measured"), (name, path, cell)
            else: assert re.match(rf"~{cost['minutes']:.0f} min\b", cell), (name, path, cell, cost["minutes"])
