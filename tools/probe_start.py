#!/usr/bin/env python
"""How good a start the learning probe's SFT gives RL: train the probe SFT (the 0.5B family recipe's 8 LoRA steps, then
`ROW_STEPS` steps of the protocol-rows stage at `ROW_LR`), then validate it as the RL run's step 0 does (the probe's 64
held-out questions, vLLM, the run's validation settings) and print one `RESULT {json}` line.

    python tools/probe_start.py 1e-3                 # the rows stage at lr 1e-3, SFT seed 0 (the recipe's)
    python tools/probe_start.py 1e-2 --seed 1        # another rows lr and SFT seed (`sft_config`'s `seed`)

~4 min alone on the 2-core CPU machine (SFT ~2 min, validation ~2 min); the SFT goes to
`runs/probe_start/lr<ROW_LR>_r<ROW_STEPS>_s<SEED>` and is reused when present. The measurements this made are in
`nbs/09_sft.ipynb` ("The rows stage's learning rate")."""
import argparse, json, time
from star.paths import in_repo

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("row_lr", type=float)
ap.add_argument("--row-steps", type=int, default=8)
ap.add_argument("--seed", type=int, default=None, help="the SFT training seed (default: the recipe's, 0)")
a = ap.parse_args()

from star.agent import VLLMPolicy
from star.models import load_tokenizer, make_llm
from star.rl import evaluate_policy, task_family
from star.rl_config import resolve_config
from star.sft import train_sft

cfg = resolve_config(scale="0.5B", data="probe")
fam = task_family(cfg)
out = in_repo(f"runs/probe_start/lr{a.row_lr:g}_r{a.row_steps}_s{a.seed if a.seed is not None else 'recipe'}")
t = time.time()
if not (out / "final" / "config.json").exists():
    data = fam.sft_dataset(exclude=list(fam.train_tasks(cfg)))
    train_sft("0.5B", data, out, max_steps=cfg.sft_steps, row_steps=a.row_steps, row_lr=a.row_lr,
              **({"seed": a.seed} if a.seed is not None else {}))
t_sft = time.time() - t
tok = load_tokenizer(str(out / "final"))
llm = make_llm(str(out / "final"), max_model_len=2048, kv_cache_gib=2)
m = evaluate_policy(VLLMPolicy(llm, tok), tok, fam.val_tasks(cfg.n_val, cfg.seed), cfg, family=fam)
print("RESULT", json.dumps({"row_lr": a.row_lr, "row_steps": a.row_steps, "seed": a.seed, "sft_s": round(t_sft),
                            **{k: v for k, v in m.items() if not isinstance(v, list)}}))
