"""`tools/rl_drift.py` (issue 36's drift diagnostic): per-token NLL of the oracle teacher's assistant turns, split into
the tool-call turns and the answer turn, on a real validation task's teacher trajectory."""
import importlib.util
from pathlib import Path

import torch

from star.models import load_model, load_tokenizer
from star.sft import tokenize_sft
from star.tasks import load_tasks
from star.teacher import solve

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("rl_drift", ROOT / "tools" / "rl_drift.py")
rl_drift = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rl_drift)


def test_turn_runs():
    assert rl_drift.turn_runs([0, 1, 1, 0, 0, 1, 0, 1, 1, 1]) == [(1, 3), (5, 6), (7, 10)]
    assert rl_drift.turn_runs([0, 0]) == [] and rl_drift.turn_runs([1]) == [(0, 1)]


def test_nll_matches_the_full_forward_on_a_teacher_trajectory():
    task = next(t for t in load_tasks("validation") if t.days == 3)
    tok, model = load_tokenizer("tiny"), load_model("tiny", seed=0)
    enc = tokenize_sft(solve(task).messages, tok)
    ids = enc["input_ids"][:1200]
    part = rl_drift.token_nll(model, ids, chunk=500)                      # three chunks of the LM head
    with torch.no_grad(): ref = torch.nn.functional.cross_entropy(model(torch.tensor([ids])).logits[0, :-1].float(),
                                                                torch.tensor(ids[1:]), reduction="none")
    assert torch.isnan(part[0]) and torch.allclose(part[1:], ref, atol=1e-4)
    ids = enc["input_ids"]
    nll = rl_drift.token_nll(model, ids)
    assert len(ids) > 3000 and torch.allclose(nll[:1200][1:], part[1:], atol=1e-4)
    s = rl_drift.score(model, enc)
    runs = rl_drift.turn_runs(enc["assistant_masks"])
    assert s["n_tokens"] == sum(enc["assistant_masks"]) and s["n_answer_tokens"] == runs[-1][1] - runs[-1][0]
    ans = nll[runs[-1][0]:runs[-1][1]].mean().item()
    assert abs(s["answer"] - ans) < 1e-4 and s["calls"] != s["answer"]
    # the answer turn is the plan: it starts where the last assistant turn starts in the rendered chat
    assert tok.decode(ids[runs[-1][0]:runs[-1][1]]).rstrip().endswith("<|im_end|>")
