"""TravelPlanner learning at CPU scale (issues 36 and 46). A run is judged by its final held-out point against its step 0
on the same queries (`star.results.heldout_guard`), never by one early point: the first design's 16-step Sum run rose at
step 4 (the old guard's +0.04, which it passed) and ended below its start. The stable design
(`ablations/cpu_scale_stable.yaml`) is checked here to be the one `nbs/10_rl.ipynb` states and the pilot measured; its
record, once committed, must pass the guard."""
import json
from pathlib import Path

import pytest

from star.cli import load_ablation
from star.results import GUARD_MAX_DRIFT, heldout_guard
from star.rl import task_family
from star.rl_config import resolve_config, run_params
from star.tasks import load_tasks

ROOT = Path(__file__).resolve().parents[1]
STABLE = "rl_0.5B_grpo_sum_easy48_f0_s0"


def _job_config(yaml: str, **select):
    ab = load_ablation(ROOT / "ablations" / yaml, root=ROOT)
    job = next(j for j in ab.jobs if j.notebook == "rl" and all(j.parameters.get(k) == v for k, v in select.items()))
    p = run_params(dict(job.parameters))
    return job.name, resolve_config(**p | {"results_dir": None})     # not published: resolve_config checks the tree


def test_guard_rejects_the_degrading_sum_run():
    """The first design's Sum run (16 steps, 32 held-out queries) against its own step 0: fewer plans delivered (28 ->
    22), commonsense micro down 0.148, and the teacher's answer turns 0.12-0.16 nats/token less likely -- all three
    checks fail, where the step-4 guard (+0.04 commonsense micro at step 4) passed it."""
    rec = json.loads((ROOT / "results" / "rl_0.5B_grpo_sum_easy16_f0_s0.json").read_text())
    drift = json.loads((ROOT / "results" / "diagnostics" / "rl_0.5B_grpo_sum_easy16_f0_s0_drift.json").read_text())
    g = heldout_guard(rec, drift)
    assert g["steps"] == (0, 16) and g["n"] == 32 and g["delivered"] == (28, 22) and not g["passed"]
    assert [f.split(":")[0] for f in g["failures"]] == ["fewer plans delivered", "commonsense micro fell",
                                                         f"answer turns drifted +0.164 nats/token on held_out/easy (> {GUARD_MAX_DRIFT})"]
    assert min(g["drift"].values()) > 0.1
    # the same record judged at step 4 (its best point) passes the delivery and commonsense checks: one early point
    early = dict(rec, validation_checkpoints=[v for v in rec["validation_checkpoints"] if v["step"] == 4])
    assert heldout_guard(early)["passed"]


def test_stable_design_is_what_the_chapter_states():
    """Issue 46's design: the 0.5B from SFT, 2 prompts x G = 4 for 24 steps at lr 3e-5, float32, only context overflow
    masked, Sum read exactly, 9,216 tokens and 15 tools in training and validation, all 60 held-out 3-day queries at
    steps 0, 12 and 24; its prompts are the ones the pilot measured, none of them a validation query."""
    name, c = _job_config("cpu_scale_stable.yaml")
    assert name == STABLE == c.run_name
    assert (c.scale, c.init, c.lora, c.algorithm, c.reward, c.data, c.trip_days) == ("0.5B", "sft", True, "grpo", "sum", "easy", (3,))
    assert (c.batch_size, c.group_size, c.total_steps, c.n_train, c.lr, c.beta, c.dtype) == (2, 4, 24, 48, 3e-5, 0.0, "float32")
    assert (c.max_context, c.tool_budget, c.val_max_context, c.val_tool_budget) == (9216, 15, 9216, 15)
    assert (c.mask_max_prompt_length_exceeded, c.mask_max_turns_exceeded, c.mask_max_response_length_exceeded) == (True, False, False)
    assert (c.reward_formatter, c.formatter) == ("exact", "auto")
    assert c.val_points == [0, 12, 24] and c.n_val == 60
    fam = task_family(c)
    val = fam.val_tasks(c.n_val, c.seed)
    assert sorted(t.id for t in val) == sorted(t.id for t in load_tasks("validation") if t.days == 3)   # all 60
    train = fam.train_tasks(c)
    pilot = json.loads((ROOT / "results" / "diagnostics" / "episode_budget_0.5B_easy48.json").read_text())
    assert [r["id"] for r in pilot["rows"]["train"]] == [t.id for t in train]
    assert [r["id"] for r in pilot["rows"]["held_out"]] == [t.id for t in val]
    assert not {t.query for t in train} & {t.query for t in val}
    assert max(r["episode_tokens"] for r in pilot["rows"]["train"]) < c.max_context        # every teacher episode fits


def test_stable_run_passes_the_guard():
    """The stable design's record (committed when its run ends): its last held-out point against step 0 passes
    `heldout_guard` (with its drift record when committed), and the mean commonsense micro of the middle and last
    points is at least step 0's + 0.03 with delivery not below step 0 (issue 46's bar)."""
    p = ROOT / "results" / f"{STABLE}.json"
    if not p.exists(): pytest.skip(f"{STABLE} has not finished: its record is not committed (nbs/10_rl.ipynb, 'A stable design')")
    rec = json.loads(p.read_text())
    d = ROOT / "results" / "diagnostics" / f"{STABLE}_drift.json"
    g = heldout_guard(rec, json.loads(d.read_text()) if d.exists() else None)
    assert g["passed"], g["failures"]
    from star.results import validation_points
    pts = validation_points(rec)
    assert [s for s, _ in pts] == [0, 12, 24]
    cs = [m["commonsense_micro"] for _, m in pts]
    assert (cs[1] + cs[2]) / 2 >= cs[0] + 0.03 and pts[-1][1]["delivery_rate"] >= pts[0][1]["delivery_rate"], cs
