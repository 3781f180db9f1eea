"""Rewards (arXiv 2603.21972 Sec. 3): Sum / Macro / Success / Curriculum on real plans.

Expected values are computed by hand from the reference evaluators' verdicts stored in
tests/fixtures/travelplanner/evaluator_verdicts.jsonl.gz (official = TravelPlanner leaderboard evaluator,
agent_star = the paper's local evaluator), and checked again through our own `star.evaluator`.
"""
import gzip, json, pickle
from pathlib import Path
from types import SimpleNamespace

import pytest

from star.rewards import (CURRICULUM, FORMAT_ERROR, ZERO, epoch_from_trainer_state, reward, reward_components,
                          reward_fn, reward_name_at)

FIX = Path(__file__).resolve().parent / "fixtures/travelplanner/evaluator_verdicts.jsonl.gz"
KEYS = ("delivered", "commonsense_micro", "commonsense_macro", "hard_pass", "hard_applicable", "hard_macro", "success")


@pytest.fixture(scope="module")
def verdicts():
    return {r["id"]: r for r in map(json.loads, gzip.open(FIX, "rt"))}


def official(rec):
    "The official reference verdict's aggregates, with PlanResult field names."
    return {k: rec["official"][k] for k in KEYS}


def agent_star(rec):
    "Agent-STAR's eval_one_sample scores renamed to PlanResult field names (None = not evaluated)."
    s = rec["agent_star"]["eval_one_sample"]
    if s is None: return None  # the reference crashed on this plan (3 perturbed plans): no verdict -> reward 0
    return dict(delivered=rec["agent_star"]["delivered"], commonsense_micro=s["commonsense_micro_score"],
                commonsense_macro=bool(s["commonsense_macro_score"]), hard_micro=s["hard_micro_score"],
                hard_macro=None if s["hard_macro_score"] is None else bool(s["hard_macro_score"]),
                hard_pass=None, hard_applicable=None, success=bool(s["success_pass"]))


def all3(r): return (reward(r, "sum"), reward(r, "macro"), reward(r, "success"))


# ------------------------------------------------------------ hand-checked values from reference verdicts
def test_gold_train_plans_official_max(verdicts):
    gold = [r for r in verdicts.values() if r["kind"] == "gold_annotated"]
    assert len(gold) == 45
    assert {all3(official(r)) for r in gold} == {(5.0, 3.0, 1.0)}


def test_gold_5_and_7_day_plans_agent_star(verdicts):
    # train-05: Orlando -> Texas, 5 days. Agent-STAR keeps "San Antonio(Texas)": route + sandbox checks fail
    # -> cs micro 6/8, cs macro 0, hard checks skipped -> 0, success 0.
    r5 = verdicts["train-05"]
    assert r5["query"]["days"] == 5 and r5["agent_star"]["commonsense"]["is_reasonable_visiting_city"] is False
    assert all3(agent_star(r5)) == (0.75, 0.0, 0.0)
    # train-41 (7 days): one more commonsense check fails -> 5/8
    assert all3(agent_star(verdicts["train-41"])) == (0.625, 0.0, 0.0)
    # 3-day gold plans have no City(State) names: full marks under both protocols
    assert all3(agent_star(verdicts["train-00"])) == (5.0, 3.0, 1.0)


def test_validation_example_plans(verdicts):
    # val-028: everything passes
    assert all3(official(verdicts["val-028"])) == (5.0, 3.0, 1.0)
    # val-138 (hard, 3 days): cs 8/8, hard 3/4 (budget fails) -> 1 + 1 + 0.75 + 0 + 0
    r = verdicts["val-138"]["official"]
    assert (r["commonsense_micro"], r["hard_pass"], r["hard_applicable"], r["hard"]["valid_cost"]) == (1.0, 3, 4, False)
    assert all3(official(verdicts["val-138"])) == (2.75, 1.0, 0.0)
    # val-074 (medium): cs 7/8, hard 1/2 -> 0.875 + 0 + 0.5 + 0 + 0
    assert all3(official(verdicts["val-074"])) == (1.375, 0.0, 0.0)
    # val-023 (easy): cs 7/8, budget passes -> 0.875 + 0 + 1 + 1 + 0; Macro = hard macro only
    assert all3(official(verdicts["val-023"])) == (2.875, 1.0, 0.0)
    # val-000: sandbox check fails, hard checks skipped by the reference -> only cs micro 4/8 counts
    assert verdicts["val-000"]["official"]["hard"] is None
    assert all3(official(verdicts["val-000"])) == (0.5, 0.0, 0.0)


def test_not_delivered_example_plans_are_zero(verdicts):
    nd = [r for r in verdicts.values() if r["kind"] == "example_plan" and r["plan"] is None]
    assert len(nd) == 19
    assert all(all3(official(r)) == (0.0, 0.0, 0.0) for r in nd)
    assert all(reward_components(official(r)) == ZERO for r in nd)


def test_perturbed_plans(verdicts):
    # repeated restaurant on a hard 3-day gold plan: diverse-restaurants fails (7/8), all 4 hard constraints pass
    p = verdicts["pert-0010"]
    assert p["perturbation"] == "repeat_restaurant" and p["official"]["commonsense"]["is_valid_restaurants"] is False
    assert all3(official(p)) == (0.875 + 0 + 1 + 1 + 0, 1.0, 0.0)
    # budget blown by expensive items on an easy 3-day gold plan: commonsense intact, the only hard check fails
    b = verdicts["pert-0373"]
    assert b["perturbation"] == "over_budget_expensive_items" and b["official"]["hard"]["valid_cost"] is False
    assert all3(official(b)) == (2.0, 1.0, 0.0)
    # the same kind of corruption on a hard 5-day plan: 3 of 4 hard constraints still pass
    assert all3(official(verdicts["pert-0363"])) == (2.75, 1.0, 0.0)


def test_invariants_over_all_reference_verdicts(verdicts):
    for rec in verdicts.values():
        for res in (official(rec), agent_star(rec)):
            s, m, x = all3(res)
            assert 0 <= x <= m <= 3 and m <= s <= 5
            assert (s == 5.0) == (x == 1.0) == (m == 3.0), rec["id"]
            c = reward_components(res)
            assert s == pytest.approx(sum(c.values()))
            assert c["cs_micro"] == ((res or {}).get("commonsense_micro") or 0)


# ------------------------------------------------------------ format errors, schedule, TRL function
def test_format_error_and_missing_answer_are_zero(verdicts):
    res = official(verdicts["val-028"])
    for bad in (None, FORMAT_ERROR, res | {"delivered": False}):
        assert [reward(bad, n, epoch=1) for n in ("sum", "macro", "success", "curriculum")] == [0.0] * 4
    assert pickle.loads(pickle.dumps(FORMAT_ERROR)) is FORMAT_ERROR


def test_curriculum_switches_at_epoch_boundaries(verdicts):
    res = official(verdicts["val-138"])  # Sum 2.75, Macro 1, Success 0
    assert [reward(res, "curriculum", epoch=e) for e in range(1, 8)] == [2.75, 2.75, 1.0, 1.0, 0.0, 0.0, 0.0]
    assert CURRICULUM == {1: "sum", 3: "macro", 5: "success"}
    custom = {1: "macro", 2: "success"}
    assert [reward(res, "curriculum", epoch=e, schedule=custom) for e in (1, 2, 9)] == [1.0, 0.0, 0.0]
    assert reward(res, "curriculum", epoch=3, schedule=lambda e: "sum") == 2.75
    for bad in (None, 0, -1, 2.0, True):
        with pytest.raises(ValueError): reward(res, "curriculum", epoch=bad)
    with pytest.raises(ValueError, match="start at epoch 1"): reward_name_at(1, {3: "sum"})
    with pytest.raises(ValueError, match="only applies"): reward(res, "macro", schedule=CURRICULUM)
    with pytest.raises(ValueError, match="unknown reward"): reward(res, "f1")


def test_hard_not_evaluated_vs_vacuous():
    base = dict(delivered=True, commonsense_micro=1.0, commonsense_macro=True)
    # not evaluated (official leaves hard_applicable None): no hard credit
    assert reward(base | dict(hard_pass=0, hard_applicable=None, hard_macro=None, success=False), "sum") == 2.0
    # evaluated with nothing applicable (a query without budget): vacuous pass, Sum 5 <=> success
    assert reward(base | dict(hard_pass=0, hard_applicable=0, hard_macro=None, success=True), "sum") == 5.0
    with pytest.raises(ValueError, match="outside"): reward_components(base | dict(hard_micro=1.5))


def test_reward_fn_trl_style(verdicts):
    res = [official(verdicts[i]) for i in ("val-028", "val-138", "val-000")] + [FORMAT_ERROR, None]
    comps = ["c"] * 5
    assert reward_fn("sum")(completions=comps, eval_result=res) == [5.0, 2.75, 0.5, 0.0, 0.0]
    assert reward_fn("macro")(comps, eval_result=res) == [3.0, 1.0, 0.0, 0.0, 0.0]
    cur = reward_fn("curriculum")
    assert cur.__name__ == "curriculum_reward"
    # the schedule follows the run's progress (step / max_steps), not the loader's epoch: the paper's 155 steps
    # switch at steps 62 and 124; a 0.1K-prompt run of 52 epochs x 3 steps switches at the same fractions
    state = lambda step, total=155, epoch=None: SimpleNamespace(global_step=step, max_steps=total, epoch=epoch)
    by_step = {s: cur(comps, eval_result=res, trainer_state=state(s))[1] for s in (0, 61, 62, 123, 124, 154)}
    assert by_step == {0: 2.75, 61: 2.75, 62: 1.0, 123: 1.0, 124: 0.0, 154: 0.0}
    assert cur(comps, eval_result=res, trainer_state=state(12, 156, epoch=4.0))[1] == 2.75   # epoch 5 of 52: still Sum
    assert cur(comps, eval_result=res, epoch=[1, 3, 5, 1, 1]) == [5.0, 1.0, 0.0, 0.0, 0.0]
    assert cur(comps[:1], eval_result=res[:1]) == [5.0]  # no trainer state: epoch 1
    assert reward_fn("sum", result_key="verdict")(comps[:1], verdict=res[:1]) == [5.0]
    with pytest.raises(KeyError): reward_fn("sum")(comps, other=res)
    with pytest.raises(ValueError, match="completions"): reward_fn("sum")(comps[:2], eval_result=res)
    with pytest.raises(ValueError): reward_fn("curriculum", schedule={2: "sum"})
    assert [epoch_from_trainer_state(SimpleNamespace(epoch=x)) for x in (None, 0.5, 1.0, 4.999)] == [1, 1, 2, 5]


# ------------------------------------------------------------ through our evaluator (star.evaluator)
def test_gold_train_plans_through_evaluator():
    from star.evaluator import evaluate_plan
    from star.tasks import load_tasks
    train = load_tasks("train")
    off = [evaluate_plan(t, t.annotated_plan, protocol="official") for t in train]
    assert {all3(r) for r in off} == {(5.0, 3.0, 1.0)}
    ags = [evaluate_plan(t, t.annotated_plan, protocol="agent_star") for t in train]
    assert all3(ags[5]) == (0.75, 0.0, 0.0) and train[5].days == 5
    assert not ags[5].commonsense["is_reasonable_visiting_city"] and not ags[5].hard_macro
    # 3-day gold plans (15) keep full marks; every 5/7-day one loses success under agent_star
    assert sum(reward(r, "success") for r in ags) == 15
    assert all(reward(r, "success") == (t.days == 3) for t, r in zip(train, ags))


def test_example_plans_through_evaluator():
    from star.evaluator import evaluate_plan
    from star.tasks import example_plans, load_tasks
    val, ex = load_tasks("validation"), example_plans()
    got = {i: all3(evaluate_plan(val[i], ex[i]["plan"])) for i in (23, 28, 74, 138)}
    assert got == {23: (2.875, 1.0, 0.0), 28: (5.0, 3.0, 1.0), 74: (1.375, 0.0, 0.0), 138: (2.75, 1.0, 0.0)}
    missing = [i for i, e in enumerate(ex) if e["plan"] is None]
    assert len(missing) == 19
    assert {all3(evaluate_plan(val[i], ex[i]["plan"])) for i in missing} == {(0.0, 0.0, 0.0)}


@pytest.mark.parametrize("protocol", ["official", "agent_star"])
def test_rewards_of_our_verdicts_match_reference_verdicts(verdicts, protocol):
    "All 455 fixture plans (gold, example, perturbed): reward of our evaluator's verdict == of the reference's."
    from star.evaluator import evaluate_plan
    conv = official if protocol == "official" else agent_star
    diff = []
    for rid, rec in verdicts.items():
        ours, ref = evaluate_plan(rec["query"], rec["plan"], protocol=protocol), rec[protocol]
        if ref.get("crash"): assert reward(ours, "sum") == 0.0; continue  # reference aborts -> no score
        if all3(ours) != all3(conv(rec)): diff.append((rid, all3(ours), all3(conv(rec))))
    assert diff == []


def test_perturbed_gold_plan_through_evaluator():
    "Gold plan of train query 30 (hard, 3 days, budget $1,500) with a repeated restaurant / a pricey stay."
    import copy
    from star.evaluator import evaluate_plan
    from star.tasks import load_tasks
    t = load_tasks("train")[30]
    assert (t.level, t.days, t.budget, t.people_number) == ("hard", 3, 1500, 2)
    repeat = copy.deepcopy(t.annotated_plan)
    repeat[2]["breakfast"] = repeat[1]["lunch"]
    r = evaluate_plan(t, repeat)
    assert r.commonsense["is_valid_restaurants"] is False and r.hard_pass == r.hard_applicable == 4
    assert all3(r) == (0.875 + 0 + 1 + 1 + 0, 1.0, 0.0)
    pricey = copy.deepcopy(t.annotated_plan)
    for d in pricey[:2]: d["accommodation"] = "Ruby Bedroom, Fayetteville"  # $585/night
    r = evaluate_plan(t, pricey)
    assert r.hard["valid_cost"] is False and (r.hard_pass, r.hard_applicable, r.commonsense_micro) == (3, 4, 1.0)
    assert all3(r) == (2.75, 1.0, 0.0)
    assert [reward(r, "curriculum", epoch=e) for e in (1, 3, 5)] == [2.75, 1.0, 0.0]
