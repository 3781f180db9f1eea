"""The GRPO update (star.update `_UpdateMixin`, issue 32; chapter nbs/10b_update.ipynb): micro-batches without signal are skipped on every path -- one
process, and two gloo ranks whose collectives must stay matched -- with the weights of the unskipped run; micro-batches
are trimmed to their own rollouts; the old log-probs of episodes without signal are not computed; and the gradient a
step takes is the DAPO gradient computed by hand, with gradient checkpointing on and off."""
import json, math, os, subprocess, sys
from pathlib import Path

import pytest
import torch

import star.rl as star_rl
from star.rl import TravelPlannerFamily, minimal_inputs, regroup_window, row_signal, train_rl, trim_micro_batch
from star.rl_config import resolve_config
from star.tasks import load_tasks

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def val(): return load_tasks("validation")


class _HalfSignalFamily(TravelPlannerFamily):
    """TravelPlanner episodes whose reward is a function of the sampled tokens (never all-equal in a group), except on
    the tasks in `flat`, whose G episodes all get 1.0: groups with and without signal in one step."""
    def __init__(self, flat=()): super().__init__(); self.flat = set(flat)
    def score(self, rollout): return rollout
    def reward(self, verdict, name, epoch):
        return 1.0 if verdict.task.key in self.flat else float(sum(verdict.completion_ids[:4]) % 7)


def _run(monkeypatch, tmp_path, name, tasks, flat, skip=True, trim=True, calls=None, **kw):
    "A tiny GRPO run (no vLLM, one step) on `tasks` with `flat` tasks rewarded equally; returns (record, weights)."
    from safetensors.torch import load_file
    from trl import GRPOTrainer
    real = GRPOTrainer._compute_loss
    def spy(self, model, inputs):   # count the update's forward passes (with gradients) and their positions
        calls.append(int(inputs["completion_ids"].shape[0] * (inputs["prompt_ids"].shape[1] + inputs["completion_ids"].shape[1])))
        return real(self, model, inputs)
    with monkeypatch.context() as m:
        m.setattr(star_rl, "task_family", lambda cfg: _HalfSignalFamily(flat))
        m.setattr(star_rl._UpdateMixin, "star_skip", skip)
        m.setattr(star_rl._UpdateMixin, "star_trim", trim)
        if calls is not None: m.setattr(GRPOTrainer, "_compute_loss", spy)
        cfg = resolve_config(**{**dict(scale="tiny", use_vllm=False, max_steps=1, n_train=len(tasks), batch_size=len(tasks),
                                       group_size=2, per_device_batch=1, lr=0.01, n_val=0, max_new_tokens_per_turn=16,
                                       out_dir=str(tmp_path / name), results_dir=None), **kw})
        res = train_rl(cfg, train_tasks=tasks, val_tasks=[])
    ck = sorted((tmp_path / name).glob("checkpoint-*"), key=lambda p: int(p.name.split("-")[1]))[-1]
    return res, load_file(str(ck / "model.safetensors"))


def _log(res): return next(h for h in res["trl_log"] if "reward" in h)


def test_skipping_micro_batches_without_signal_keeps_the_weights(monkeypatch, tmp_path, val):
    """A step of two groups, one whose rewards are all equal (advantages 0) and one whose rewards differ, in micro-batches
    of one episode: with the skip, the two episodes of the flat group are not computed (no forward, no backward), and
    the weights after the step are those of the run without the skip, bit for bit (TRL's `dapo` normaliser counts the
    skipped episodes' tokens either way)."""
    tasks = val[:2]
    on_calls, off_calls = [], []
    on, w_on = _run(monkeypatch, tmp_path, "on", tasks, flat=[tasks[0].key], calls=on_calls)
    off, w_off = _run(monkeypatch, tmp_path, "off", tasks, flat=[tasks[0].key], skip=False, calls=off_calls)
    rewards = on["rollouts"][0]["rewards"]
    assert rewards == off["rollouts"][0]["rewards"]
    groups = [rewards[0:2], rewards[2:4]]
    assert sorted(len(set(g)) for g in groups) == [1, 2], rewards            # one flat group, one with signal
    assert (len(on_calls), len(off_calls)) == (2, 4)                          # the flat group's 2 micro-batches skipped
    assert (_log(on)["star/skipped"], _log(off)["star/skipped"]) == (0.5, 0.0)
    assert _log(on)["grad_norm"] == _log(off)["grad_norm"] > 0
    assert w_on.keys() == w_off.keys() and all(torch.equal(w_on[k], w_off[k]) for k in w_on)
    assert any(not torch.equal(w_on[k], _initial(k)) for k in w_on)         # and the step did move them


def _initial(key):
    from star.models import load_model
    global _INIT
    if "_INIT" not in globals(): _INIT = {k: v.clone() for k, v in load_model("tiny", dtype="float32").state_dict().items()}
    return _INIT[key]


def test_a_step_without_signal_costs_its_rollouts_only(monkeypatch, tmp_path, val):
    """Every group flat: no micro-batch is computed, the step is logged as skipped whole, and the optimiser still steps
    as after TRL's zero gradients (AdamW's weight decay), so the weights equal the unskipped run's."""
    tasks = val[:2]
    calls, off_calls = [], []
    on, w_on = _run(monkeypatch, tmp_path, "on", tasks, flat=[t.key for t in tasks], calls=calls)
    off, w_off = _run(monkeypatch, tmp_path, "off", tasks, flat=[t.key for t in tasks], skip=False, calls=off_calls)
    assert (calls, len(off_calls), _log(on)["star/skipped"]) == ([], 4, 1.0)
    assert _log(on)["grad_norm"] == _log(off)["grad_norm"] == 0.0
    assert all(torch.equal(w_on[k], w_off[k]) for k in w_on)
    assert any(not torch.equal(w_on[k], _initial(k)) for k in w_on)         # weight decay moved them, as TRL's step does


def test_trimmed_micro_batches_train_the_same_step(monkeypatch, tmp_path, val):
    """Two episodes per micro-batch, of different lengths: trimmed (and re-cut by length within the step) the update
    computes fewer positions, its padding drops, and the weights agree with TRL's padded micro-batches to float32
    rounding."""
    tasks = val[:2]
    c_on, c_off = [], []
    kw = dict(per_device_batch=2, max_new_tokens_per_turn=24)
    on, w_on = _run(monkeypatch, tmp_path, "on", tasks, flat=[], calls=c_on, **kw)
    off, w_off = _run(monkeypatch, tmp_path, "off", tasks, flat=[], skip=False, trim=False, calls=c_off, **kw)
    assert on["rollouts"][0]["rewards"] == off["rollouts"][0]["rewards"]
    assert sum(c_on) < sum(c_off) and len(c_on) == len(c_off) == 2
    assert _log(on)["star/padding"] < _log(on)["star/padding_untrimmed"]
    assert _log(on)["grad_norm"] == pytest.approx(_log(off)["grad_norm"], rel=1e-4)
    assert _log(on)["loss"] == pytest.approx(_log(off)["loss"], rel=1e-4, abs=1e-7)
    _same_step(w_on, w_off, lr=0.01)


def _same_step(a, b, lr):
    """Weights after one AdamW step from the same start whose gradients agree to float32 rounding: Adam's first step
    is ~lr x sign(g), so a coordinate whose gradient is ~0 may move differently; all but a handful agree to 1e-6 and
    none differs by a tenth of a step."""
    diff = torch.cat([(a[k] - b[k]).abs().flatten() for k in a])
    assert (diff > 1e-6).float().mean() < 1e-5 and diff.max() < lr / 10, (diff.max(), (diff > 1e-6).sum())


def test_old_logprobs_skip_rows_without_signal(monkeypatch, tmp_path, val):
    """Two PPO mini-batches (TRL computes the old log-probs of the rollout batch): the chunks of the flat group are not
    computed, and the step's weights agree with the unskipped run's."""
    from trl import GRPOTrainer
    tasks = val[:2]
    seen = []
    real = GRPOTrainer._get_per_token_logps_and_entropies
    def spy(self, model, input_ids, *a, **k):
        if not torch.is_grad_enabled(): seen.append(input_ids.shape[0])
        return real(self, model, input_ids, *a, **k)
    monkeypatch.setattr(GRPOTrainer, "_get_per_token_logps_and_entropies", spy)
    on, w_on = _run(monkeypatch, tmp_path, "on", tasks, flat=[tasks[1].key], ppo_mini_batch_size=1, max_steps=1)
    n_on, seen[:] = list(seen), []
    off, w_off = _run(monkeypatch, tmp_path, "off", tasks, flat=[tasks[1].key], skip=False, ppo_mini_batch_size=1, max_steps=1)
    assert (sum(n_on), sum(seen)) == (2, 4)                                   # 2 of 4 episodes scored under the old weights
    _same_step(w_on, w_off, lr=0.01)


def test_micro_batch_helpers_on_a_generation_batch():
    "row_signal / trim_micro_batch / regroup_window / minimal_inputs on a TRL-shaped batch (left-padded prompts)."
    plen, clen = [6, 6, 4, 4], [10, 3, 5, 2]
    mb = {"prompt_ids": torch.arange(40).view(4, 10), "prompt_mask": torch.tensor([[0] * (10 - p) + [1] * p for p in plen]),
          "completion_ids": torch.arange(48).view(4, 12), "completion_mask": torch.tensor([[1] * c + [0] * (12 - c) for c in clen]),
          "tool_mask": torch.tensor([[1] * c + [0] * (12 - c) for c in clen]), "advantages": torch.tensor([0.0, 0.0, 1.0, -1.0]),
          "old_per_token_logps": torch.randn(4, 12), "num_items_in_batch": torch.tensor(20.0)}
    assert row_signal(mb).tolist() == [False, False, True, True]
    mb2 = dict(mb, tool_mask=mb["tool_mask"] * torch.tensor([[1], [1], [0], [1]]))
    assert row_signal(mb2).tolist() == [False, False, False, True]            # out of the loss: no signal
    rows = lambda x, i: {k: v[i] if v.dim() else v for k, v in x.items()}
    t, (before, after, real) = trim_micro_batch(rows(mb, slice(2, 4)))
    assert t["prompt_ids"].tolist() == mb["prompt_ids"][2:, 6:].tolist()   # the last 4 prompt columns, tokens intact
    assert t["completion_ids"].tolist() == mb["completion_ids"][2:, :5].tolist()
    assert (before, after, real) == (44, 18, 15) and t["num_items_in_batch"] is mb["num_items_in_batch"]
    g = regroup_window([rows(mb, slice(0, 2)), rows(mb, slice(2, 4))], signal=[False, True, False, True])
    assert [x["completion_ids"][:, 0].tolist() for x in g] == [[24, 0], [36, 12]]   # (signal, length) order
    assert all(torch.equal(g[1]["old_per_token_logps"][i], mb["old_per_token_logps"][j]) for i, j in ((0, 3), (1, 1)))
    m = minimal_inputs(mb)
    assert (m["prompt_ids"].tolist(), m["completion_ids"].tolist(), m["tool_mask"].tolist()) == ([[9]], [[0]], [[0]])


_TWO_RANKS = r'''
import json, sys
from pathlib import Path
import star.rl as rl
from star.rl_config import resolve_config
from star.tasks import load_tasks
out, skip = Path(sys.argv[1]), sys.argv[2] == "1"
tasks = load_tasks("validation")[:2]
class Half(rl.TravelPlannerFamily):
    def score(self, rollout): return rollout
    def reward(self, verdict, name, epoch):
        return 1.0 if verdict.task.key == tasks[0].key else float(sum(verdict.completion_ids[:4]) % 7)
rl.task_family = lambda cfg: Half()
rl._UpdateMixin.star_skip = skip
calls = []
from trl import GRPOTrainer
real = GRPOTrainer._compute_loss
def spy(self, model, inputs):
    calls.append(int(inputs["completion_ids"].shape[1])); return real(self, model, inputs)
GRPOTrainer._compute_loss = spy
cfg = resolve_config(scale="tiny", use_vllm=False, max_steps=1, n_train=2, batch_size=2, group_size=2, per_device_batch=1,
                     lr=0.01, n_val=0, max_new_tokens_per_turn=16, out_dir=str(out), results_dir=None)
res = rl.train_rl(cfg, train_tasks=tasks, val_tasks=[])
import torch.distributed as dist
import star.models
print("RANK " + json.dumps({"rank": dist.get_rank(), "calls": calls, "pg_exit": len(star.models._PG_EXIT),
                            "log": next(h for h in res["trl_log"] if "reward" in h)}), flush=True)
star.models.exit_process(0)   # as `python -m star.rl` ends: past the finalisation in which a DDP rank can abort
'''


def test_two_ranks_skip_without_mismatched_collectives(tmp_path):
    """Two gloo ranks (`accelerate launch`, DDP): one rank's group is flat, the other's is not. The rank without signal
    runs each micro-batch as a 2-token zero-loss forward (`minimal_inputs`), so DDP's gradient all-reduce and TRL's
    logging all-reduces stay matched (a mismatch would hang until gloo's timeout); the weights equal the unskipped
    2-rank run's, and the log counts the skipped micro-batches over both ranks."""
    from safetensors.torch import load_file
    from star.rl import free_port
    (tmp_path / "w.py").write_text(_TWO_RANKS)
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    got, weights = {}, {}
    for skip in ("1", "0"):
        cmd = ["accelerate", "launch", "--config_file", str(ROOT / "configs/accelerate/cpu_2proc.yaml"),
               "--main_process_port", str(free_port()), str(tmp_path / "w.py"), str(tmp_path / f"run{skip}"), skip]
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr[-3000:]
        got[skip] = sorted((json.loads(l[5:]) for l in p.stdout.splitlines() if l.startswith("RANK ")), key=lambda r: r["rank"])
        ck = next((tmp_path / f"run{skip}").glob("checkpoint-*"))
        weights[skip] = load_file(str(ck / "model.safetensors"))
    on, off = got["1"], got["0"]
    assert len(on) == len(off) == 2
    # each rank leaves its process group at exit (`destroy_process_group_at_exit`): without it a rank could abort with
    # SIGABRT after its work was done (`terminate called without an active exception`, seen once in CI)
    assert [r["pg_exit"] for r in on + off] == [1, 1, 1, 1]
    assert sorted(all(c == 1 for c in r["calls"]) for r in on) == [False, True]    # one rank ran 2-token passes
    assert all(min(r["calls"]) > 1 for r in off) and [len(r["calls"]) for r in on] == [2, 2]
    assert on[0]["log"]["star/skipped"] == 0.5 and off[0]["log"]["star/skipped"] == 0.0
    assert on[0]["log"]["grad_norm"] == pytest.approx(off[0]["log"]["grad_norm"], rel=1e-6) and on[0]["log"]["grad_norm"] > 0
    for k in weights["1"]: torch.testing.assert_close(weights["1"][k], weights["0"][k], rtol=0, atol=0)


# -- the step's gradient against a hand-computed DAPO gradient (issue 32) -------------------------------------------

@pytest.fixture(scope="module")
def replayed():
    """Four real episodes, as `bench/_grpo_update.py` replays them: the oracle teacher's trajectories on the first easy
    validation tasks with a solver plan, played through the rollout engine, cut at 1,400 tokens (the prompt is ~1,250:
    each keeps ~150 completion tokens, policy and environment)."""
    from star.agent import ScriptedPolicy, eos_ids, rollout_batch
    from star.models import load_tokenizer
    from star.rl import _trl_completions
    from star.teacher import solve
    tok = load_tokenizer("tiny")
    tasks, trajs = [], []
    for t in (t for t in load_tasks("validation") if t.level == "easy"):
        if len(tasks) == 4: break
        if (tr := solve(t)) is not None: tasks.append(t); trajs.append(tr)
    ros = rollout_batch(ScriptedPolicy(tok, trajs, eos=True), tok, tasks, group_size=1, max_context=1400,
                        max_new_tokens_per_turn=8192, max_turns=30)
    P, C, _, M = _trl_completions(ros, [True] * len(ros), eos_ids(tok))
    assert all(0 < sum(m) < len(c) for m, c in zip(M, C))     # policy tokens in the loss, environment tokens out
    return tok, tasks, ros, (P, C, M)


_LORA = dict(r=16, lora_alpha=32, target_modules="all-linear", lora_dropout=0.0, task_type="CAUSAL_LM")


def _ours_step_grads(tmp_path, replayed, rewards, group_size, micro, checkpointing, temperature):
    """One optimiser step of our trainer (`_grpo_trainer_cls`, `trl_config`; skip, trim and regroup on) on the replayed
    episodes with `rewards`, LoRA with its B matrices set random (so A gets a gradient too): (the trainable weights
    before the step, their gradients when the optimiser steps (no clipping), the forward passes of decoder layer 0
    in the update, recomputations included)."""
    from datasets import Dataset
    from peft import LoraConfig
    from transformers import TrainerCallback
    from star.agent import eos_ids
    from star.models import load_model
    from star.rl import _grpo_trainer_cls, _trl_completions, rollout_reward_fn
    from star.rl_config import trl_config
    tok, tasks, ros, _ = replayed
    n = len(ros)
    cfg = resolve_config(scale="tiny", use_vllm=False, batch_size=n // group_size, group_size=group_size,
                         per_device_batch=micro, dtype="float32", max_steps=1, n_val=0, out_dir=str(tmp_path), lr=1e-5,
                         max_context=1400, temperature=temperature, lora=True, lora_r=16, lora_alpha=32)
    P, C, L, M = _trl_completions(ros, [True] * n, eos_ids(tok))
    def replay(prompts, trainer):
        trainer._star_rewards = list(rewards)
        return {"prompt_ids": P, "completion_ids": C, "logprobs": L, "env_mask": M, "star_reward": list(rewards)}
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    grads = {}
    class Grab(TrainerCallback):
        def on_pre_optimizer_step(self, args, state, control, model=None, **kw):
            grads.update({k: p.grad.detach().clone() for k, p in model.named_parameters() if p.requires_grad})
    args = trl_config(cfg, save_strategy="no", disable_tqdm=True, max_grad_norm=0.0, gradient_checkpointing=checkpointing)
    tr = _grpo_trainer_cls()(model=load_model("tiny", dtype="float32"), args=args, reward_funcs=[rollout_reward_fn("sum")],
                             train_dataset=Dataset.from_list([{"prompt": t.query} for t in tasks]), processing_class=tok,
                             peft_config=LoraConfig(**_LORA), rollout_func=replay, callbacks=[Grab()])
    tr.star_adv_epsilon = cfg.adv_epsilon
    g = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for k, p in tr.model.named_parameters():
            if "lora_B" in k: p.copy_(torch.randn(p.shape, generator=g) * 0.02)
    init = {k: p.detach().clone() for k, p in tr.model.named_parameters()}
    from transformers.models.qwen2.modeling_qwen2 import Qwen2DecoderLayer
    calls, forward = [], Qwen2DecoderLayer.forward
    def counted(layer, *a, **k):
        calls.append(layer.self_attn.layer_idx)
        return forward(layer, *a, **k)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(Qwen2DecoderLayer, "forward", counted)
        tr.train()
    assert tr.model.is_gradient_checkpointing == checkpointing
    return init, grads, calls.count(0)


def _dapo_grads(init, completions, rewards, group_size, temperature, eps, clip=(0.2, 0.28), delta=3.0):
    """Hand-computed gradient of TRL's `loss_type="dapo"` objective (trl 1.16 `GRPOTrainer._compute_loss`) at the step's
    start, with plain autograd and no checkpointing, one episode at a time: advantages (r - mean) / (std + eps) per group
    (Bessel's std), log-probs of the completion tokens under logits / `temperature` (the sampling policy TRL scores),
    per token -min(ρA, clip(ρ, 1 - low, 1 + high)A) with ρ = min(exp(lp - lp_old), delta) and lp_old = lp (first
    step, on-policy), summed over the loss mask and divided by the loss tokens of the whole batch (`num_items_in_batch`,
    one process, one optimiser step per generation batch)."""
    from peft import LoraConfig, get_peft_model
    from star.models import load_model
    P, C, M = completions
    m = get_peft_model(load_model("tiny", dtype="float32"), LoraConfig(**_LORA))
    params = dict(m.named_parameters())
    assert params.keys() == init.keys()
    with torch.no_grad():
        for k, p in params.items(): p.copy_(init[k])
    m.train()
    r = torch.tensor(rewards, dtype=torch.float64).view(-1, group_size)
    adv = ((r - r.mean(1, keepdim=True)) / (r.std(1, keepdim=True) + eps)).flatten().float()
    n_items = sum(map(sum, M))
    for p_ids, c_ids, mask, a in zip(P, C, M, adv):
        logits = m(input_ids=torch.tensor([p_ids + c_ids]), logits_to_keep=len(c_ids) + 1).logits[0, :-1] / temperature
        lp = torch.log_softmax(logits.float(), -1).gather(-1, torch.tensor(c_ids)[:, None])[:, 0]
        rho = torch.exp(lp - lp.detach())
        per_token = -torch.min(rho.clamp(max=delta) * a, rho.clamp(1 - clip[0], 1 + clip[1]) * a)
        ((per_token * torch.tensor(mask, dtype=torch.float32)).sum() / n_items).backward()
    return {k: p.grad for k, p in params.items() if p.requires_grad}


def _rel(a, b):
    "||a - b|| / ||b|| over all tensors of two gradient dicts."
    return math.sqrt(sum(((a[k] - b[k]) ** 2).sum() for k in b) / sum((b[k] ** 2).sum() for k in b))


@pytest.mark.parametrize("checkpointing,micro", [(False, 1), (True, 1), (True, 2)])
def test_step_gradient_is_the_dapo_gradient(tmp_path, replayed, checkpointing, micro):
    """Issue 32: the gradient our trainer steps with equals the DAPO gradient computed by hand, per parameter (LoRA A
    and B, every layer) to float32 rounding -- with gradient checkpointing off and on (layer 0 runs twice per computed
    micro-batch: recomputed in the backward), one episode per micro-batch (4 micro-batches, the flat group's 2 skipped)
    and two (regrouped by signal and length and trimmed: 1 computed). Two groups of 2, one flat (no signal, but its
    loss tokens count in the normaliser), at temperature 0.6 (the 0.5B run's): the log-probs are those of the sampling
    policy, logits / 0.6, whose gradient is ~1/0.6 of the one at temperature 1.0 -- the bench's plain-TRL arm, left at
    TRL's default 1.0, logged a 1.7x smaller gradient norm for the same loss."""
    rewards, G, T = [1.0, 1.0, 0.0, 2.0], 2, 0.6
    init, grads, calls = _ours_step_grads(tmp_path, replayed, rewards, G, micro, checkpointing, T)
    assert calls == (2 if checkpointing else 1) * (2 // micro)
    ref = _dapo_grads(init, replayed[3], rewards, G, T, eps=1e-6)
    assert grads.keys() == ref.keys() and sum("lora_A" in k for k in ref) == sum("lora_B" in k for k in ref) == 14
    assert all(ref[k].abs().max() > 0 for k in ref)                          # every LoRA matrix of every layer moves
    assert _rel(grads, ref) < 1e-5, _rel(grads, ref)
    for k in ref: assert (grads[k] - ref[k]).abs().max() <= 1e-4 * ref[k].abs().max(), k
    if not checkpointing and micro == 1:                                      # the test sees the sampling temperature
        assert _rel(grads, _dapo_grads(init, replayed[3], rewards, G, 1.0, eps=1e-6)) > 0.2


# -- the direction of the update (issue 46) ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def mixed_group():
    """One group of G = 8 real sandbox episodes of the oracle teacher on 8 easy validation queries, ending as a
    CPU-scale group did at step 11 of the Sum run (3 rewarded, 5 at 0): 3 answers (the teacher's final answer turn
    alone, scored by the real evaluator), 4 tool-budget loops (the teacher's calls cut at a budget of 4) and a context
    overflow (cut at 2,000 tokens). Returns (tokenizer, rollouts, real Sum rewards)."""
    from star.agent import ScriptedPolicy, rollout_batch
    from star.models import load_tokenizer
    from star.rl import TravelPlannerFamily
    from star.teacher import solve
    tok = load_tokenizer("tiny")
    tasks, trajs = [], []
    for t in (t for t in load_tasks("validation") if t.level == "easy"):
        if len(tasks) == 8: break
        if (tr := solve(t)) is not None: tasks.append(t); trajs.append(tr)
    answers = {tr.messages[1]["content"]: [[m["content"] for m in tr.messages if m["role"] == "assistant"][-1]]
               for tr in trajs[:3]}
    ros = (rollout_batch(ScriptedPolicy(tok, answers, eos=True), tok, tasks[:3], max_context=16000, max_turns=20)
           + rollout_batch(ScriptedPolicy(tok, trajs[3:7], eos=True), tok, tasks[3:7], max_context=16000, max_turns=4)
           + rollout_batch(ScriptedPolicy(tok, trajs[7:], eos=True), tok, tasks[7:], max_context=2000, max_turns=20))
    assert [r.termination for r in ros] == ["answer"] * 3 + ["tool_budget"] * 4 + ["context_limit"]
    fam = TravelPlannerFamily()
    rewards = [fam.reward(fam.score(r), "sum", 1) for r in ros]
    assert min(rewards[:3]) > 0.5 and rewards[3:] == [0.0] * 5, rewards
    return tok, ros, rewards


def _policy_logp(model, ros, temperature=1.0):
    "Mean log-probability per policy token (`env_mask` 1) of each rollout under `model`, at `temperature`."
    out = []
    with torch.no_grad():
        for r in ros:
            ids = list(r.prompt_ids) + list(r.completion_ids)
            logits = model(input_ids=torch.tensor([ids])).logits[0, len(r.prompt_ids) - 1:-1].float() / temperature
            lp = torch.log_softmax(logits, -1).gather(-1, torch.tensor(r.completion_ids)[:, None])[:, 0]
            m = torch.tensor(r.env_mask, dtype=torch.bool)
            out.append(float(lp[m].mean()))
    return out


def test_update_moves_each_episode_with_its_advantage(tmp_path, mixed_group):
    """Issue 46: one update of our trainer on a group of real episodes under the run defaults (only the context overflow
    out of the loss): every episode in the loss whose |advantage| > 0.5 moves with the sign of its advantage -- the
    answers rise, the tool-budget loops (reward 0, in the loss) fall -- and the step's statistics say what reached the
    loss. The engine gap TRL's log gets (`star/engine_gap`) is the mean |log p_trainer - log p_engine| over the loss
    tokens: the scripted engine reports log p 0, so it equals the trainer's mean negative log-likelihood there."""
    from datasets import Dataset
    from star.agent import eos_ids
    from star.models import load_model
    from star.rl import _grpo_trainer_cls, _row, _summary, _trl_completions, group_advantages, masked_overlong
    from star.rl import rollout_reward_fn
    from star.rl_config import trl_config
    tok, ros, rewards = mixed_group
    cfg = resolve_config(scale="tiny", use_vllm=False, batch_size=1, n_train=1, group_size=8, per_device_batch=1,
                         dtype="float32", max_steps=1, n_val=0, out_dir=str(tmp_path), lr=1e-4, max_context=16000)
    masked = [masked_overlong(r, cfg) for r in ros]
    assert masked == [False] * 7 + [True]                         # the defaults: only the context overflow leaves
    adv = group_advantages(rewards, 8, cfg.adv_epsilon)
    P, C, L, M = _trl_completions(ros, [not m for m in masked], eos_ids(tok))
    def replay(prompts, trainer):
        trainer._star_rewards = list(rewards)
        return {"prompt_ids": P, "completion_ids": C, "logprobs": L, "env_mask": M, "star_reward": list(rewards)}
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    before_model = load_model("tiny", dtype="float32").eval()
    before = _policy_logp(before_model, ros)
    in_loss_nll = [-x for r, x, m in zip(ros, before, masked) if not m for _ in range(sum(r.env_mask))]
    args = trl_config(cfg, save_strategy="no", disable_tqdm=True, logging_steps=1)
    tr = _grpo_trainer_cls()(model=load_model("tiny", dtype="float32"), args=args, reward_funcs=[rollout_reward_fn("sum")],
                             train_dataset=Dataset.from_list([{"prompt": ros[0].task.query}]), processing_class=tok,
                             rollout_func=replay)
    tr.star_adv_epsilon = cfg.adv_epsilon
    tr.train()
    after = _policy_logp(tr.model.eval(), ros)
    moved = [a - b for a, b in zip(after, before)]
    for i, (a, d, m) in enumerate(zip(adv, moved, masked)):
        if not m and abs(a) > 0.5: assert (d > 0) == (a > 0), (i, a, d, moved)
    assert all(d < 0 for d, r, m in zip(moved, rewards, masked) if r == 0 and not m), moved   # in-loss failures fall
    log = next(h for h in tr.state.log_history if "star/engine_gap" in h)
    assert abs(log["star/engine_gap"] - sum(in_loss_nll) / len(in_loss_nll)) < 1e-3 * sum(in_loss_nll) / len(in_loss_nll)
    # the statistics of the same group: 1 of 8 out (context), the in-loss mean advantage near 0, not all positive
    s = _summary([_row(r, None, w, True, ("max_prompt_length_exceeded",) if m else (), a)
                  for r, w, m, a in zip(ros, rewards, masked, adv)], 8)
    assert s["masked_by_reason"] == {"max_prompt_length_exceeded": 0.125, "max_turns_exceeded": 0.0,
                                     "max_response_length_exceeded": 0.0} and s["in_loss"] == 0.875
    rllm = _summary([_row(r, None, w, True, ("x",) if r.termination != "answer" else (), a)
                     for r, w, a in zip(ros, rewards, adv)], 8)                # every failure masked (rLLM's filter)
    assert rllm["in_loss_advantage"] > 1.0 > abs(s["in_loss_advantage"]), (rllm["in_loss_advantage"], s["in_loss_advantage"])
