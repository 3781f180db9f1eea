"""The learning probe (star.probe): questions and gold answers from the real database, disjoint splits, the oracle
through the real rollout engine, exact-match verdicts and rewards through `make_rollout_func`, the family through
`resolve_config` / `train_rl`, and (slow) the regression guard: a shortened probe run on the real 0.5B must learn."""
import dataclasses, json, os
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from collections import defaultdict

import pytest

from star.agent import ScriptedPolicy, rollout_batch, tool_call_text, answer_text
from star.models import load_tokenizer
from star.probe import (FAMILY, MAX_FLIGHTS, PROBE_KINDS, PROBE_SYSTEM, ProbeVerdict, probe_metrics, probe_pool,
                        probe_reward, probe_sft_dataset, probe_tasks, probe_trajectory, score_probe)
from star.rewards import FORMAT_ERROR, REWARD_NAMES
from star.rl import make_rollout_func, train_rl
from star.rl_config import resolve_config
from star.sandbox import Sandbox
from star.teacher import read_observation

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tok(): return load_tokenizer("0.5B")

@pytest.fixture(scope="module")
def pool(): return probe_pool()

@pytest.fixture(scope="module")
def val(): return probe_tasks("val", 16, seed=0)


def test_splits_share_no_route_date_pair_or_state(pool):
    train = [t for t in pool if t.split == "train"]
    val = [t for t in pool if t.split == "val"]
    assert {t.group for t in train}.isdisjoint({t.group for t in val})
    odd = lambda ts: {(t.arguments["departure"], t.arguments["destination"], t.arguments["date"]) for t in ts if t.kind == "flight"}
    assert odd(train).isdisjoint(odd(val)) and odd(val)
    pair = lambda ts: {frozenset((t.arguments["departure"], t.arguments["destination"])) for t in ts if t.kind in ("taxi", "drive")}
    assert pair(train).isdisjoint(pair(val))
    state = lambda ts: {t.arguments["state"] for t in ts if t.kind == "cities"}
    assert state(train).isdisjoint(state(val)) and len(state(train) | state(val)) == 64
    c = Counter((t.kind, t.split) for t in pool)
    assert all(c[k, s] > 10 for k in PROBE_KINDS for s in ("train", "val"))


def test_gold_answers_are_what_the_tools_show(pool):
    sb = Sandbox()
    flights = [t for t in pool if t.kind == "flight"]
    for t in flights:   # every flight question: the cheapest listed flight, unique, among at most MAX_FLIGHTS
        e = read_observation("SearchFlight", sb.call("SearchFlight", t.arguments))
        prices = [x["price"] for x in e]
        assert 1 <= len(e) <= MAX_FLIGHTS and prices.count(min(prices)) == 1
        assert min(e, key=lambda x: x["price"])["number"] == t.answer
    for t in [t for t in pool if t.kind in ("taxi", "drive")][::151]:
        e = read_observation("GoogleDistanceMatrix", sb.call("GoogleDistanceMatrix", t.arguments))
        assert str(e[0]["cost"]) == t.answer and e[0]["mode"] == t.arguments["mode"]
    for t in [t for t in pool if t.kind == "cities"]:
        assert str(len(read_observation("SearchCity", sb.call("SearchCity", t.arguments)))) == t.answer
    # a taxi costs 1 $/km, self-driving 0.05 $/km (rounded down) of the same distance
    by_id = {t.id: t for t in pool}
    t = next(t for t in pool if t.kind == "taxi")
    assert int(by_id["drive:" + t.id.split(":", 1)[1]].answer) == int(int(t.answer) * 0.05)


def test_probe_tasks_balanced_deterministic_and_exclude():
    val = probe_tasks("val", 64, seed=0)
    assert Counter(t.kind for t in val) == {"flight": 17, "taxi": 16, "drive": 16, "cities": 15}
    assert [t.id for t in probe_tasks("val", 64, seed=0)] == [t.id for t in val]
    assert [t.id for t in probe_tasks("val", 64, seed=1)] != [t.id for t in val]
    train = probe_tasks("train", 64, seed=0)
    sft = probe_sft_dataset(exclude=train)
    assert set(sft["task_id"]).isdisjoint({t.id for t in train}) and len(sft) == 48
    assert {r["role"] for m in sft["messages"] for r in m} == {"system", "user", "assistant"}
    with pytest.raises(ValueError, match="only"): probe_tasks("val", 100, kinds=("cities",))


def test_oracle_through_the_rollout_engine_scores_one(tok, val):
    oracle = ScriptedPolicy(tok, [probe_trajectory(t) for t in val], eos=True)
    rs = rollout_batch(oracle, tok, val, group_size=2, system=PROBE_SYSTEM, max_turns=3, max_context=768,
                       max_new_tokens_per_turn=128)
    assert all(r.termination == "answer" and not r.format_error and r.n_tool_calls == 1 for r in rs)
    assert rs[0].messages[0]["content"] == PROBE_SYSTEM
    tasks = [r.task for r in rs]
    m = probe_metrics(tasks, rs, [score_probe(r) for r in rs])
    assert (m["final_pass"], m["answered"], m["right_call"], m["n"]) == (1.0, 1.0, 1.0, 32)
    assert max(len(r.prompt_ids) + len(r.completion_ids) for r in rs) < 768


def test_verdicts_and_rewards(val):
    t = next(x for x in val if x.kind == "taxi")
    ep = lambda a, **kw: SimpleNamespace(task=t, answer=a, **{"format_error": False, "truncated": False, **kw})
    assert score_probe(ep(f"${int(t.answer):,}")).success and not score_probe(ep(t.answer + " dollars")).success
    assert score_probe(ep(t.answer, format_error=True)) is FORMAT_ERROR
    assert score_probe(ep(t.answer, truncated=True)) is FORMAT_ERROR and score_probe(ep(None)) is FORMAT_ERROR
    for name in REWARD_NAMES:
        assert [probe_reward(score_probe(ep(a)), name, 1) for a in (t.answer, "0")] == [1.0, 0.0]
    with pytest.raises(ValueError): probe_reward(FORMAT_ERROR, "f1")


class _GroupScripts:
    """A `Policy` whose j-th rollout of each group of 4 plays outcome j: 0 right answer, 1 wrong answer, 2 right
    answer in a malformed turn, 3 tool calls until the budget. Turn 1 carries the sample number, so later turns are
    routed by the transcript (rows leave the batch as their episodes end)."""
    def __init__(self, tok, tasks):
        from star.agent import eos_ids
        self.tok, self.tasks, self.eos = tok, tasks, eos_ids(tok)
    def reseed(self, seed): pass
    def turn(self, t, j, k):
        call = tool_call_text(f"Look it up (sample {j}).", t.tool, t.arguments)
        if k == 0 or j == 3: return call
        if j == 0: return answer_text("Found it.", t.answer)
        if j == 1: return answer_text("Found it.", "12345")
        return "Sure. " + answer_text("Found it.", t.answer)
    def generate(self, prompts, max_new_tokens, temperature=1.0, top_p=1.0, stop=None):
        from star.agent import Generation, cut_at_stop
        out = []
        for r, (p, b) in enumerate(zip(prompts, max_new_tokens)):
            text = self.tok.decode(p)
            t = next(x for x in self.tasks if f"<|im_start|>user\n{x.query}<|im_end|>" in text)
            k = text.count("<|im_start|>assistant\n") - 1
            j = r % 4 if k == 0 else int(text.split("(sample ")[1][0])
            ids = self.tok.encode(self.turn(t, j, k), add_special_tokens=False) + self.eos[:1]
            n, why = cut_at_stop(ids, self.tok, list(stop or []), self.eos, b)
            out.append(Generation(ids[:n], [0.0] * n, [0.0] * n, why))
        return out


def test_rewards_reach_trl_through_the_rollout_hook(tok, val):
    """Through `make_rollout_func` (the hook TRL calls), a group of 4 episodes per question earns exact-match rewards
    1, 0, 0, 0 (right, wrong, malformed, no answer), computed from the database; the loss mask covers only the
    policy's tokens and the episodes run on the probe's system prompt."""
    qs = val[:2]
    policy = _GroupScripts(tok, qs)
    @contextmanager
    def policy_fn(trainer, tokenizer): yield policy
    cfg = resolve_config(scale="tiny", data="probe", group_size=4, batch_size=2, n_train=4, max_new_tokens_per_turn=128)
    fn = make_rollout_func(cfg, qs, tok, policy_fn=policy_fn)
    trainer = SimpleNamespace(num_generations=4, _metrics={"train": defaultdict(list)},
                              state=SimpleNamespace(global_step=0, max_steps=2, epoch=0.0))
    out = fn([t.query for t in qs for _ in range(4)], trainer)
    assert out["star_reward"] == [1.0, 0.0, 0.0, 0.0] * 2
    v = out["eval_result"]
    assert v[0].success and not v[1].success and v[1].prediction == "12345" and v[2] is FORMAT_ERROR and v[3] is FORMAT_ERROR
    for r, (ids, mask) in enumerate(zip(out["completion_ids"], out["env_mask"])):
        if r % 4 == 3:   # no answer before the tool budget ran out: overlong, out of the loss (paper Sec. 4.1)
            assert sum(mask) == 0; continue
        trained = tok.decode([i for i, m in zip(ids, mask) if m])
        assert "<tool_call>" in trained and "<tool_response>" not in trained
        assert "<tool_response>" in tok.decode([i for i, m in zip(ids, mask) if not m])
    assert tok.decode(out["prompt_ids"][0]).count(PROBE_SYSTEM) == 1
    assert trainer._metrics["train"]["star/success"] == [0.25]


def test_family_configs():
    c = resolve_config(scale="0.5B", data="probe")
    assert (c.data, c.reward, c.algorithm, c.max_context, c.tool_budget, c.lora, c.init) == \
           ("probe", "success", "grpo", 768, 2, True, "sft")
    assert c.run_name == f"rl_0.5B_grpo_success_probe{c.n_train}_f0_s0"
    assert resolve_config(scale="0.5B", data="probe", group_size=8).group_size == 8
    t = resolve_config(scale="tiny", data="probe")
    assert (t.max_steps, t.n_val, t.group_size) == (2, 4, 2)
    assert [x.id for x in FAMILY.train_tasks(c)] == [x.id for x in probe_tasks("train", c.n_train, c.seed)]
    assert FAMILY.val_tasks(0, 0) == [] and FAMILY.system == PROBE_SYSTEM


def test_tiny_probe_through_train_rl(tmp_path):
    """The whole RL path with data='probe' on the random-weight model (HF rollouts): validation records carry the
    probe's metrics, the record is written, the rollouts used the probe's system prompt."""
    cfg = resolve_config(scale="tiny", data="probe", use_vllm=False, out_dir=str(tmp_path / "run"),
                         results_dir=str(tmp_path / "res"))
    res = train_rl(cfg)
    data = json.loads(cfg.results_path.read_text())
    assert data["steps"] == 2 and len(data["curve"]) == 2 and data["config"]["data"] == "probe"
    v0 = data["validation_init"][cfg.protocol]
    assert v0["n"] == 4 and {"final_pass", "em", "answered", "em_flight"} <= set(v0)
    samples = [json.loads(l) for l in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert samples[0]["messages"][0]["content"] == PROBE_SYSTEM and samples[0]["level"] in PROBE_KINDS


GUARD_STEPS, GUARD_VAL, GUARD_MIN_GAIN = 8, 32, 0.15
# The shortened probe of ablations/probe.yaml (probe_guard_0.5B): the measured run's first 8 steps, validated on 32
# held-out questions before and after. It judges held-out exact match, not the training reward: 16 rollouts per step
# give a reward whose step-to-step noise (~0.12) hides the trend over 8 steps, and the guard's first version (last 4
# steps' reward > first 4's) failed at lr 2e-4 on a run that learned for 3 steps and then collapsed (rewards
# 0.125 0.19 0.63 0.56 | 0.06 0.31 0.31 0.00), the reason the family's lr is now 1e-4 (nbs/16_probe.ipynb).


@pytest.mark.slow
def test_probe_learns(tmp_path):
    """Regression guard on the real offline 0.5B (~11 min on 2 CPU cores; run under the shared lock): a shortened
    probe run -- `GUARD_STEPS` GRPO steps of the family's 0.5B recipe (vLLM rollouts where installed), from its SFT
    checkpoint (`runs/sft_0.5B_probe_s8`, trained on first use, ~2.5 min) -- must raise the exact match on
    `GUARD_VAL` held-out questions (the same ones before and after) by at least `GUARD_MIN_GAIN`. A sign error in the
    loss, a wrong mask or a stale weight sync breaks it."""
    cfg = resolve_config(scale="0.5B", data="probe", max_steps=GUARD_STEPS, n_val=GUARD_VAL, save_steps=GUARD_STEPS,
                         run_name="probe_guard_0.5B", out_dir=str(tmp_path / "run"), results_dir=str(tmp_path / "res"))
    res = train_rl(cfg)
    rewards = [c["reward"] for c in res["curve"]]
    assert len(rewards) == GUARD_STEPS and all(r is not None for r in rewards)
    before = res["validation_init"][cfg.protocol]
    after = res["validation_checkpoints"][-1]
    assert after["step"] == GUARD_STEPS and before["n"] == after["metrics"]["n"] == GUARD_VAL
    em0, em1 = before["em"], after["metrics"]["em"]
    print(f"probe guard: rewards per step {rewards}; held-out exact match {em0:.3f} -> {em1:.3f}")
    assert em1 - em0 >= GUARD_MIN_GAIN, (em0, em1, rewards)
