"""The GRPO update (star.rl `_UpdateMixin`, issue 32): micro-batches without signal are skipped on every path -- one
process, and two gloo ranks whose collectives must stay matched -- with the weights of the unskipped run; micro-batches
are trimmed to their own rollouts; the old log-probs of episodes without signal are not computed."""
import json, os, subprocess, sys
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
print("RANK " + json.dumps({"rank": dist.get_rank(), "calls": calls,
                            "log": next(h for h in res["trl_log"] if "reward" in h)}), flush=True)
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
    assert sorted(all(c == 1 for c in r["calls"]) for r in on) == [False, True]    # one rank ran 2-token passes
    assert all(min(r["calls"]) > 1 for r in off) and [len(r["calls"]) for r in on] == [2, 2]
    assert on[0]["log"]["star/skipped"] == 0.5 and off[0]["log"]["star/skipped"] == 0.0
    assert on[0]["log"]["grad_norm"] == pytest.approx(off[0]["log"]["grad_norm"], rel=1e-6) and on[0]["log"]["grad_norm"] > 0
    for k in weights["1"]: torch.testing.assert_close(weights["1"][k], weights["0"][k], rtol=0, atol=0)
