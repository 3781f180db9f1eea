"""The CUDA paths of STAR on the `tiny` model (`pytest -m gpu`, skipped without CUDA): each process's own device, bf16
autocast over float32 master weights (bf16 weights under ZeRO), an SFT step and a GRPO step that change the weights,
checkpoint and exact resume, HF-`generate` rollouts against the real sandbox, validation, and the memory plan
(`star.memory`) against `torch.cuda.max_memory_allocated`.

A GPU is lent to this project rarely and briefly, so these tests must not rot between draws:
`python tools/gpu_check.py --device cpu` (which CI runs, through tests/test_gpu_check.py) runs this same file with
`STAR_GPU_TESTS_DEVICE=cpu`, every test then taking its CPU branch. On a GPU machine: `pytest -m gpu` (or the prepared
`python tools/gpu_check.py`, which also times real Qwen2.5 shapes)."""
import dataclasses, json, os
from pathlib import Path

import pytest

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")   # deterministic cuBLAS: the resume test compares weights

import torch

from star.agent import HFPolicy, ScriptedPolicy, rollout_batch
from star.models import dtype_choice, load_model, load_tokenizer, on_cuda, train_device
from star.rl import TravelPlannerFamily, evaluate_policy, param_dtype, train_rl
from star.rl_config import resolve_config, trl_config
from star.sandbox import Sandbox
from star.tasks import load_tasks
from star.teacher import solve

DEVICE = "cuda" if torch.cuda.is_available() else os.environ.get("STAR_GPU_TESTS_DEVICE")
pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(DEVICE is None, reason="needs CUDA (STAR_GPU_TESTS_DEVICE=cpu runs these tests on the "
                                                        "CPU: python tools/gpu_check.py --device cpu)")]
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tok(): return load_tokenizer("tiny")

@pytest.fixture(scope="module")
def val(): return load_tasks("validation")

@pytest.fixture(scope="module")
def easy2(val): return [t for t in val if t.level == "easy"][:2]


class VariedRewardFamily(TravelPlannerFamily):
    "TravelPlanner episodes rewarded by a fixed function of their first sampled tokens: a group's rewards differ."
    def score(self, rollout): return rollout
    def reward(self, verdict, name, epoch): return float(sum(verdict.completion_ids[:4]) % 7)


def _state(model_or_dir) -> dict:
    "A model's (or a saved checkpoint folder's) weights as CPU float32 tensors by name."
    if isinstance(model_or_dir, (str, Path)):
        from safetensors.torch import load_file
        return {k: v.float() for k, v in load_file(str(Path(model_or_dir) / "model.safetensors")).items()}
    return {k: v.detach().float().cpu() for k, v in model_or_dir.state_dict().items()}


def _max_change(a: dict, b: dict) -> float:
    shared = sorted(set(a) & set(b))
    assert shared, "no weights in common"
    return max((a[k] - b[k]).abs().max().item() for k in shared)


def _rl_cfg(tmp_path, **kw):
    base = dict(scale="tiny", use_vllm=False, max_steps=1, n_train=2, batch_size=1, group_size=4, per_device_batch=4,
                n_val=0, lr=0.02, max_new_tokens_per_turn=16, out_dir=str(tmp_path / "run"),
                results_dir=str(tmp_path / "res"))
    return resolve_config(**{**base, **kw})


# ------------------------------------------------------------------------------------------ devices and precision
def test_each_rank_loads_on_its_own_device(monkeypatch):
    "`train_device` is `cuda:$LOCAL_RANK` (never plain `cuda`, which is GPU 0 for every rank); the model lands there."
    monkeypatch.setenv("LOCAL_RANK", "0")
    dev = train_device()
    assert dev == ("cuda:0" if DEVICE == "cuda" else "cpu")
    m = load_model("tiny", dtype="float32", device=dev)
    assert {str(p.device) for p in m.parameters()} == {dev}
    if DEVICE == "cuda" and torch.cuda.device_count() > 1:      # a second rank gets the second card
        monkeypatch.setenv("LOCAL_RANK", "1")
        assert train_device() == "cuda:1"


def test_compute_dtype_is_bf16_autocast_over_float32_masters():
    """CUDA computes in bf16 where the card has it (Ampere and newer); the trained parameters stay float32 (AdamW steps
    of 2e-6 vanish in bf16) with TRL's `bf16=True` autocast; under DeepSpeed ZeRO the weights are bf16 (ZeRO keeps
    float32 masters itself)."""
    from types import SimpleNamespace
    choice = dtype_choice(DEVICE)
    if DEVICE == "cuda": assert choice.dtype == ("bfloat16" if torch.cuda.is_bf16_supported() else "float32"), choice
    cfg = resolve_config(scale="tiny", dtype="bfloat16")
    args = trl_config(cfg)
    assert (param_dtype(cfg, args), args.bf16, args.use_cpu) == ("float32", True, DEVICE != "cuda")
    assert param_dtype(cfg, SimpleNamespace(deepspeed={"zero_optimization": {"stage": 3}})) == "bfloat16"
    m = load_model("tiny", dtype=param_dtype(cfg, args), device=train_device())
    with torch.autocast(DEVICE, dtype=torch.bfloat16):
        out = m(torch.tensor([[1, 2, 3]], device=m.device)).logits
    assert (next(m.parameters()).dtype, out.dtype) == (torch.float32, torch.bfloat16)


# ------------------------------------------------------------------------------------------ training steps
def test_sft_step_changes_the_weights(tmp_path, tok):
    """One full-fine-tuning SFT step on this device (the GPU branch of `train_sft`: `use_cpu=False`, bf16 autocast,
    gradient checkpointing) on real teacher trajectories moves the weights and records where it ran."""
    from star.sft import build_sft_dataset, train_sft
    ds = build_sft_dataset(n=2, seed=0)
    ds = ds.map(lambda r: {"messages": r["messages"][:3]})          # system, query, first assistant turn: short
    out = tmp_path / "sft"
    final = train_sft("tiny", ds, out, max_steps=1, batch_size=2, learning_rate=1e-2, warmup_steps=0, dtype="bfloat16",
                      use_cpu=DEVICE != "cuda", gradient_checkpointing=True,
                      gradient_checkpointing_kwargs={"use_reentrant": False})
    log = json.loads((out / "sft_log.json").read_text())
    assert log["global_step"] == 1 and log["loss_curve"][0]["grad_norm"] > 0
    assert (log["compute"]["device"], log["compute"]["dtype"]) == (DEVICE, "bfloat16")
    assert _max_change(_state(final), _state(load_model("tiny", dtype="float32"))) > 1e-4


def test_grpo_step_changes_the_weights(tmp_path, monkeypatch, val):
    """One GRPO step on this device with HF-generate rollouts (no vLLM) whose rewards differ within the group: a
    non-zero gradient, float32 parameters under bf16 autocast, the weights moved."""
    import star.rl
    monkeypatch.setattr(star.rl, "task_family", lambda cfg: VariedRewardFamily())
    cfg = _rl_cfg(tmp_path, dtype="bfloat16")
    res = train_rl(cfg, train_tasks=val[:1], val_tasks=[])
    assert (res["compute"]["device"], res["param_dtype"], res["trl"]["bf16"]) == (DEVICE, "float32", True)
    log = res["trl_log"][0]
    assert log["grad_norm"] > 0 and res["rollouts"][0]["groups_with_variance"] == 1, log
    assert _max_change(_state(tmp_path / "run" / "checkpoint-1"), _state(load_model("tiny", dtype="float32"))) > 1e-4


def test_checkpoint_and_exact_resume(tmp_path, monkeypatch, val):
    """Two GRPO steps straight, against the same run killed before its second checkpoint and resumed: the replayed
    step plays the same rollouts with the same rewards, and ends with the same weights (to 1e-6: CUDA's atomic-add
    kernels, e.g. the embedding's backward, may round in another order; cuBLAS is made deterministic above)."""
    import shutil
    import star.rl
    monkeypatch.setattr(star.rl, "task_family", lambda cfg: VariedRewardFamily())
    torch.use_deterministic_algorithms(True, warn_only=True)
    try:
        cfg = _rl_cfg(tmp_path, max_steps=2, n_train=2)
        train_rl(cfg, train_tasks=val[:2], val_tasks=[])
        run = tmp_path / "run"
        straight = _state(run / "checkpoint-2")
        stats1 = [json.loads(l) for l in (run / "rollout_stats.jsonl").read_text().splitlines()]
        shutil.rmtree(run / "checkpoint-2")                          # killed before step 2's checkpoint
        res = train_rl(cfg, train_tasks=val[:2], val_tasks=[])
    finally:
        torch.use_deterministic_algorithms(False)
    assert res["resumed_from"].endswith("checkpoint-1") and res["steps"] == 2
    stats2 = [json.loads(l) for l in (run / "rollout_stats.jsonl").read_text().splitlines()]
    keys = ("step", "reward", "policy_tokens", "tool_calls", "terminations")
    assert [{k: s[k] for k in keys} for s in stats2] == [{k: s[k] for k in keys} for s in stats1]
    assert _max_change(_state(run / "checkpoint-2"), straight) <= 1e-6


# ------------------------------------------------------------------------------------------ rollouts and validation
def test_hf_generate_rollouts_against_the_real_sandbox(tok, easy2):
    """HF `generate` on this device continues real episodes: the teacher's first tool call is answered by the real
    sandbox (its observation is in the context), then the model on `DEVICE` plays on. Token bookkeeping holds."""
    full = rollout_batch(ScriptedPolicy(tok, [solve(t) for t in easy2], eos=True), tok, easy2, group_size=1,
                         sandbox=Sandbox(), max_context=16 * 1024)
    prefixes = [r.prefix(1) for r in full]
    assert all("<tool_response>" in tok.decode(p.completion_ids) for p in prefixes)
    model = load_model("tiny", dtype="float32", device=train_device())
    policy = HFPolicy(model, tok)
    rs = rollout_batch(policy, tok, prefixes=prefixes, group_size=2, sandbox=Sandbox(), max_turns=3,
                       max_new_tokens_per_turn=24, max_context=4096, temperature=1.0, seed=0)
    assert len(rs) == 4 and policy.n_calls >= 1
    for r, p in zip(rs, [p for p in prefixes for _ in range(2)]):
        assert r.completion_ids[:len(p.completion_ids)] == p.completion_ids          # the real prefix, kept
        assert len(r.completion_ids) == len(r.env_mask) == len(r.logprobs) > len(p.completion_ids)
        assert sum(r.env_mask) > sum(p.env_mask) and r.termination != "partial"     # the model sampled on
        assert all(x == x for x in r.logprobs)                                        # no NaN log-probs


def test_validation_on_device(tok, val):
    "`evaluate_policy` (model selection) runs episodes with the model on `DEVICE` and scores them with the evaluator."
    cfg = resolve_config(scale="tiny", use_vllm=False, n_val=2, max_new_tokens_per_turn=16)
    cfg = dataclasses.replace(cfg, val_max_context=2048, val_tool_budget=2)
    model = load_model("tiny", dtype="float32", device=train_device())
    m = evaluate_policy(HFPolicy(model, tok), tok, val[:2], cfg)
    assert m["n"] == 2 and 0.0 <= m["final_pass"] <= 1.0 and len(m["tasks"]) == 2
    assert {"commonsense_micro", "hard_micro", "format_error", "terminations"} <= set(m)


# ------------------------------------------------------------------------------------------ memory
def test_memory_plan_against_the_allocator():
    """`star.memory.step_transient` (what `star.memory.plan` adds to the model states for one micro-batch) against the
    peak the allocator reports for one GRPO micro-step (TRL's fused LM head, checkpointing, bf16 autocast over
    float32 weights) of a 2-layer model with Qwen2.5-1.5B's widths: within 25 % on CUDA. On the CPU the step only
    runs (the CPU's own validation is `star.memory.validate`)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("gpu_check", ROOT / "tools" / "gpu_check.py")
    gc = importlib.util.module_from_spec(spec); spec.loader.exec_module(gc)
    from star.memory import QWEN25
    arch = dataclasses.replace(QWEN25["1.5B"], layers=2) if DEVICE == "cuda" else gc.shapes("cpu")["tiny"]
    seq = 4096 if DEVICE == "cuda" else 128
    r = gc.grpo_update(arch, seq, DEVICE, steps=2)   # the second step's forward runs beside all the model states
    assert r["seconds"] > 0 and r["loss"] == r["loss"]
    if DEVICE == "cuda":
        assert abs(r["transient_bytes"] / r["predicted_transient_bytes"] - 1) <= 0.25, r
