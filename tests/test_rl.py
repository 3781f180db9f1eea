"""Multi-turn RL on TRL (star.rl): config resolution, the rollout hook and its masks, rewards and the curriculum,
DAPO filtering, ARPO branching, failure injection, the run notebook (papermill) and a tiny end-to-end GRPO run."""
import dataclasses, json, math, random, subprocess, sys
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest

from star.agent import ScriptedPolicy, rollout_batch
from star.evaluator import evaluate_plan
from star.formatter import canonical_plan, render_plan
from star.models import load_tokenizer
from star.rewards import FORMAT_ERROR, reward, reward_fn
from star.rl import (arpo_plan, arpo_rollouts, dynamic_sampling_mask, entropy_deltas, make_rollout_func,
                     resolve_config, rollout_rewards, score_rollout, train_rl, trl_config)
from star.sandbox import Sandbox
from star.tasks import example_plans, load_tasks
from star.teacher import solve

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tok(): return load_tokenizer("tiny")

@pytest.fixture(scope="module")
def val(): return load_tasks("validation")

@pytest.fixture(scope="module")
def easy2(val): return [t for t in val if t.level == "easy"][:2]

@pytest.fixture(scope="module")
def scripted(tok, easy2): return ScriptedPolicy(tok, [solve(t) for t in easy2], eos=True)


def _trainer(G=2, step=0, total=10):
    return SimpleNamespace(num_generations=G, state=SimpleNamespace(global_step=step, max_steps=total, epoch=step / total),
                           _metrics={"train": defaultdict(list)})

def _policy_fn(policy):
    @contextmanager
    def f(trainer, tokenizer): yield policy
    return f

def _cfg(**kw):
    base = dict(scale="tiny", algorithm="grpo", group_size=2, batch_size=2, n_train=2, max_context=16 * 1024,
                max_new_tokens_per_turn=2048, tool_budget=20)
    return resolve_config(**{**base, **kw})


def test_resolve_config_paper_3B():
    c = resolve_config(scale="3B")
    assert (c.algorithm, c.reward, c.data, c.n_train) == ("grpo", "curriculum", "mixed", 1000)
    assert (c.lr, c.batch_size, c.group_size, c.epochs, c.max_context, c.tool_budget) == (2e-6, 32, 8, 5, 30720, 60)
    assert (c.beta, c.temperature, c.total_steps) == (0.0, 1.0, 155)
    with pytest.raises(TypeError, match="max_step"): resolve_config(scale="3B", max_step=3)
    g = trl_config(c, num_processes=8)
    assert (g.beta, g.epsilon, g.epsilon_high, g.loss_type, g.scale_rewards) == (0.0, 0.2, 0.28, "dapo", "group")
    assert g.per_device_train_batch_size * g.gradient_accumulation_steps * 8 == 256


def test_rollout_masks_passed_to_trl(tok, easy2, scripted):
    rf = make_rollout_func(_cfg(), easy2, tok, policy_fn=_policy_fn(scripted))
    prompts = [t.query for t in easy2 for _ in range(2)]
    out = rf(prompts, _trainer())
    ref = rollout_batch(scripted, tok, easy2, group_size=2)
    assert set(out) >= {"prompt_ids", "completion_ids", "logprobs", "env_mask", "eval_result", "epoch"}
    for i, r in enumerate(ref):
        assert out["prompt_ids"][i] == r.prompt_ids and out["completion_ids"][i] == r.completion_ids
        assert out["env_mask"][i] == r.env_mask                       # policy tokens 1, tool responses 0
        assert 0 < sum(r.env_mask) < len(r.env_mask)
        env = [j for s, e, k in r.turn_spans if k == "env" for j in range(s, e)]
        assert all(out["env_mask"][i][j] == 0 for j in env)
        assert "<tool_response>" in tok.decode([r.completion_ids[j] for j in env])
    # over-length: the same episodes in a context that cuts them -> all-zero mask, reward 0 kept for the group
    short = make_rollout_func(_cfg(max_context=2500), easy2, tok, policy_fn=_policy_fn(scripted))(prompts, _trainer())
    assert all(sum(m) == 0 for m in short["env_mask"]) and short["eval_result"] == [FORMAT_ERROR] * 4


def test_each_reward_on_real_plans(val):
    ex = example_plans()[0]
    task = next(t for t in val if t.idx == ex["idx"])
    res = evaluate_plan(task, canonical_plan(ex["plan"]), "agent_star")
    roll = SimpleNamespace(task=task, answer=render_plan(canonical_plan(ex["plan"])), format_error=False, truncated=False)
    v = score_rollout(roll, "agent_star")
    assert v.success == res.success and v.commonsense_micro == res.commonsense_micro
    assert rollout_rewards([v], "sum") == [reward(res, "sum")]
    assert rollout_rewards([v], "macro") == [reward(res, "macro")]
    assert rollout_rewards([v], "success") == [float(res.success)]
    assert rollout_rewards([FORMAT_ERROR], "sum") == [0.0]
    assert score_rollout(SimpleNamespace(**{**vars(roll), "format_error": True})) is FORMAT_ERROR
    assert score_rollout(SimpleNamespace(**{**vars(roll), "truncated": True})) is FORMAT_ERROR


def test_curriculum_switches_by_fraction_of_training(tok, easy2, scripted):
    "Sum for the first 40 % of the steps, Macro for the next 40 %, Success for the last 20 % (the paper's 2:2:1)."
    stats = []
    rf = make_rollout_func(_cfg(reward="curriculum"), easy2, tok, policy_fn=_policy_fn(scripted), stats=stats)
    prompts = [t.query for t in easy2 for _ in range(2)]
    outs = [rf(prompts, _trainer(step=s, total=10)) for s in (0, 3, 4, 7, 8, 9)]
    assert [s["reward_name"] for s in stats] == ["curriculum:" + n for n in ("sum", "sum", "macro", "macro", "success", "success")]
    f = reward_fn("curriculum")
    got = [f(completions=[None] * 4, eval_result=o["eval_result"], epoch=o["epoch"])[0] for o in outs]
    assert got == [5.0, 5.0, 3.0, 3.0, 1.0, 1.0]                      # the teacher's plans succeed
    assert [o["star_reward"][0] for o in outs] == got                 # what TRL's reward function passes on
    # a short-epoch run (e.g. 0.1K prompts, 3 steps/epoch) keeps the same 2:2:1 split of its steps
    stats.clear()
    for s in range(0, 156, 13): rf(prompts, _trainer(step=s, total=156))
    assert [x["reward_name"].split(":")[1] for x in stats] == ["sum"] * 5 + ["macro"] * 5 + ["success"] * 2


def test_dapo_filters_zero_variance_groups_on_real_rewards(tok, easy2, scripted, val):
    rf = make_rollout_func(_cfg(algorithm="dapo"), easy2, tok, policy_fn=_policy_fn(scripted))
    out = rf([t.query for t in easy2 for _ in range(2)], _trainer())
    assert all(sum(m) == 0 for m in out["env_mask"])                  # every group all-success -> dropped
    bad = score_rollout(SimpleNamespace(task=easy2[0], answer="no plan", format_error=False, truncated=False))
    r = rollout_rewards([out["eval_result"][0], bad, bad, bad], "sum")
    assert dynamic_sampling_mask(r, 2) == [True, True, False, False]


def test_arpo_branching_on_real_entropies(tok, easy2, scripted):
    import torch
    from star.models import load_model
    model = load_model("tiny")
    g = rollout_batch(scripted, tok, easy2[:1], group_size=2)
    real = []
    for r in g:   # the tiny model's own token entropies on the scripted tokens (teacher forcing)
        with torch.no_grad():
            logits = model(torch.tensor([r.input_ids])).logits[0, len(r.prompt_ids) - 1:-1].float()
        ent = (-(logits.log_softmax(-1).exp() * logits.log_softmax(-1)).sum(-1)).tolist()
        real.append(dataclasses.replace(r, entropies=[e if m else 0.0 for e, m in zip(ent, r.env_mask)]))
    d = entropy_deltas(real[0], vocab_size=len(tok))
    assert [n for n, _ in d] == [n + 1 for n, t in enumerate(real[0].turns[:-1]) if t["action"] == "tool_call"]
    pol = [s for s in real[0].turn_spans if s[2] == "policy"]
    h = lambda s: sum(real[0].entropies[s[0]:s[0] + 20]) / math.log(len(tok))
    assert d[0][1] == pytest.approx(h(pol[1]) - h(pol[0]))
    p = arpo_plan(real, group_size=8, rng=random.Random(3), vocab_size=len(tok))
    u = random.Random(3)
    for (i, n, dh, uu, ok) in p.draws:                                # the reference rule, draw by draw
        assert uu == u.random() and ok == (min(1.0, max(0.0, uu - 0.2 * dh)) <= 0.5)
    assert len(p.branches) == sum(ok for *_, ok in p.draws) and len(p.branches) + p.n_fresh == 6
    cfg = _cfg(algorithm="arpo", group_size=4, batch_size=1, arpo_initial=2)
    rolls, plans = arpo_rollouts(scripted, tok, easy2[:1], cfg, sandbox=None, seed=0, rng=random.Random(1))
    assert len(rolls) == 4 and [r.meta["arpo"] for r in rolls[:2]] == ["global", "global"]
    for r in rolls[2:]:
        if r.meta["arpo"] == "branch":
            cut = rolls[r.meta["branch_of"]].prefix(r.meta["branch_turn"])
            assert r.completion_ids[:len(cut.completion_ids)] == cut.completion_ids


def test_failure_injection_at_train_time_only(tok, easy2, scripted):
    sb = Sandbox(failure_rate=1.0, seed=0)
    stats = []
    rf2 = make_rollout_func(_cfg(failure_rate=1.0), easy2, tok, policy_fn=_policy_fn(scripted), stats=stats)
    out = rf2([t.query for t in easy2 for _ in range(2)], _trainer())
    assert stats[0]["sandbox_failures"] > 0
    r = rollout_batch(scripted, tok, easy2[:1], sandbox=sb)[0]
    tool_msgs = [m["content"] for m in r.messages[2:] if m["role"] == "user"]
    assert tool_msgs and all("is not available" in m for m in tool_msgs)
    clean = rollout_batch(scripted, tok, easy2[:1], sandbox=Sandbox(failure_rate=0.0))[0]
    assert not any("is not available" in m["content"] for m in clean.messages[2:] if m["role"] == "user")


def test_notebook_resolves_paper_config(tmp_path):
    pm = pytest.importorskip("papermill")
    out_dir = tmp_path / "run"
    pm.execute_notebook(str(ROOT / "nbs" / "rl.ipynb"), str(tmp_path / "out.ipynb"), cwd=str(ROOT),
                        parameters=dict(scale="3B", stop_after="config", out_dir=str(out_dir)), progress_bar=False)
    c = json.loads((out_dir / "config.json").read_text())
    assert (c["algorithm"], c["reward"], c["data"], c["n_train"], c["lr"], c["batch_size"], c["group_size"],
            c["epochs"], c["max_context"], c["tool_budget"], c["init"]) == \
           ("grpo", "curriculum", "mixed", 1000, 2e-6, 32, 8, 5, 30720, 60, "sft")


def test_notebook_default_is_the_offline_0_5B_run(tmp_path):
    pm = pytest.importorskip("papermill")
    out_dir = tmp_path / "run"
    pm.execute_notebook(str(ROOT / "nbs" / "rl.ipynb"), str(tmp_path / "out.ipynb"), cwd=str(ROOT),
                        parameters=dict(stop_after="config", out_dir=str(out_dir)), progress_bar=False)
    c = json.loads((out_dir / "config.json").read_text())
    assert (c["scale"], c["init"], c["data"], c["algorithm"], c["group_size"], c["batch_size"], c["max_steps"]) == \
           ("0.5B", "sft", "easy", "grpo", 4, 1, 3)
    assert (c["lora"], c["results_dir"], c["run_name"]) == (True, "results", "rl_0.5B_grpo_curriculum_easy8_f0_s0")


def test_notebook_tiny_end_to_end(tmp_path):
    """The whole run notebook on the random-weight model (what CI executes): results JSON, per-step rollout stats and
    samples, and the printed sample conversation."""
    pm = pytest.importorskip("papermill")
    out_dir, res_dir = tmp_path / "run", tmp_path / "res"
    nb = pm.execute_notebook(str(ROOT / "nbs" / "rl.ipynb"), str(tmp_path / "out.ipynb"), cwd=str(ROOT),
                             parameters=dict(scale="tiny", out_dir=str(out_dir), results_dir=str(res_dir)),
                             progress_bar=False)
    data = json.loads((res_dir / "rl_tiny_grpo_curriculum_mixed4_f0_s0.json").read_text())
    assert data["steps"] == 2 and [c["step"] for c in data["curve"]] == [1, 2] and len(data["rollouts"]) == 2
    samples = [json.loads(l) for l in (out_dir / "samples.jsonl").read_text().splitlines()]
    assert [s["step"] for s in samples] == [0, 1] and all(s["messages"][0]["role"] == "system" for s in samples)
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "ended by" in text and "[user]" in text and (out_dir / "curves.png").exists()


def test_tiny_grpo_end_to_end_writes_results(tmp_path, val):
    cfg = resolve_config(scale="tiny", max_steps=1, n_train=2, batch_size=1, group_size=2, n_val=0,
                         out_dir=str(tmp_path / "run"), results_dir=str(tmp_path / "res"))
    res = train_rl(cfg, val_tasks=[])
    data = json.loads(cfg.results_path.read_text())
    assert data["kind"] == "rl" and data["steps"] == 1 and len(data["curve"]) == 1
    c = data["curve"][0]
    from star.results import CURVE_KEYS, load_records
    assert set(c) == set(CURVE_KEYS) and c["step"] == 1 and c["reward"] is not None and c["step_time"] > 0
    assert {"reward", "star/success", "entropy", "completions/mean_length", "star/tool_calls"} <= set(data["trl_log"][0])
    assert load_records(tmp_path / "res").run.tolist() == [cfg.run_name]  # readable by the figures
    assert data["trl"]["loss_type"] == "dapo" and data["trl"]["beta"] == 0.0
    assert (tmp_path / "run" / "checkpoint-1").exists()
    res2 = train_rl(dataclasses.replace(cfg, max_steps=1), val_tasks=[])   # resumes: nothing left to do
    assert res2["resumed_from"].endswith("checkpoint-1") and res2["steps"] == 1


def test_config_files_parse():
    import yaml
    for p in (ROOT / "configs" / "accelerate").glob("*.yaml"):
        y = yaml.safe_load(p.read_text())
        assert y["num_processes"] >= 1 and "distributed_type" in y
        if y["distributed_type"] == "DEEPSPEED":
            assert (ROOT / y["deepspeed_config"]["deepspeed_config_file"]).exists()
    z = json.loads((ROOT / "configs" / "deepspeed" / "zero3.json").read_text())
    assert z["zero_optimization"]["stage"] == 3
