"""How far an RL run's checkpoints moved from its SFT start, measured on the oracle teacher's trajectories.

For each task of a run -- its held-out validation queries and its training prompts, as the run drew them -- the
oracle teacher (`star.teacher.solve`, the trajectories the SFT set is made of) writes one ReAct trajectory. Each model
(the run's initial weights, then each named checkpoint: those weights plus the checkpoint's LoRA adapter) scores the
trajectory's assistant tokens (`star.sft.tokenize_sft`'s mask, the tokens SFT trains), and the record keeps the
mean negative log-likelihood per token, split into the tool-call turns and the final answer turn.

What it separates: a policy that drifts from what SFT taught moves its NLL on every kind of query alike; one that
specialises on its training prompts moves less on those than on the held-out ones. Used for issue 36 (the CPU-scale
Sum run's held-out fall after step 4; nbs/10_rl.ipynb, 'Why the held-out metrics fell').

    python tools/rl_drift.py runs/rl/rl_0.5B_grpo_sum_easy16_f0_s0 --checkpoints 4,16 --per_level 4 \
        --out results/diagnostics/rl_0.5B_grpo_sum_easy16_f0_s0_drift.json

Cost (2 CPU cores, float32): one forward of a 5-8.5K-token trajectory per task and model, ~53 s; the command above
(16 episodes, 3 models) took 42 min. The record keeps each model's seconds.
"""
import argparse, json, sys, time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from star.checkpoints import model_fingerprint  # noqa: E402
from star.evaluation import _adapter_base, _load_model_dir, run_config, run_heldout_tasks  # noqa: E402
from star.models import load_tokenizer  # noqa: E402
from star.results import git_commit, write_atomic  # noqa: E402
from star.rl import task_family  # noqa: E402
from star.run import init_reference  # noqa: E402
from star.sft import tokenize_sft  # noqa: E402
from star.teacher import solve  # noqa: E402


def turn_runs(mask: list[int]) -> list[tuple[int, int]]:
    "[start, end) of each maximal run of 1s in `mask` (one assistant turn each)."
    runs, start = [], None
    for i, m in enumerate(mask + [0]):
        if m and start is None: start = i
        if not m and start is not None: runs.append((start, i)); start = None
    return runs


@torch.no_grad()
def token_nll(model, ids: list[int], chunk: int = 512) -> torch.Tensor:
    "(len(ids),) float32: -log p(ids[t] | ids[:t]) for t >= 1 (entry 0 is nan). The LM head runs only in chunks."
    x = torch.tensor([ids])
    h = model.model(input_ids=x).last_hidden_state[0, :-1]
    head, tgt = model.get_output_embeddings(), x[0, 1:]
    out = torch.empty(len(ids))
    out[0] = float("nan")
    for s in range(0, len(tgt), chunk):
        lg = head(h[s:s + chunk]).float()
        out[1 + s:1 + s + chunk] = torch.logsumexp(lg, -1) - lg.gather(1, tgt[s:s + chunk, None])[:, 0]
    return out


def score(model, enc: dict) -> dict:
    "Mean NLL per assistant token: all of them, the tool-call turns, the final (answer) turn; and their counts."
    nll, runs = token_nll(model, enc["input_ids"]), turn_runs(enc["assistant_masks"])
    pick = lambda rs: torch.cat([nll[a:b] for a, b in rs]) if rs else torch.empty(0)
    parts = {"all": pick(runs), "calls": pick(runs[:-1]), "answer": pick(runs[-1:])}
    return {k: (round(float(v.mean()), 5) if len(v) else None) for k, v in parts.items()} | {
        "n_tokens": len(parts["all"]), "n_answer_tokens": len(parts["answer"])}


def trajectory_lengths(enc: dict) -> dict:
    "Tokens of the whole teacher episode, and how many precede its answer turn (the context the answer needs first)."
    runs = turn_runs(enc["assistant_masks"])
    return {"episode_tokens": len(enc["input_ids"]), "before_answer": runs[-1][0] if runs else None}


def init_name(run: Path, init: Path) -> str:
    """How the record names the initial weights, never by a path: the run's own name for them (`run_params.json`,
    `init.source`, e.g. 'sft_0.5B') when its fingerprint is these weights', else `star.run.init_reference`'s name."""
    try: rp = json.loads((run / "run_params.json").read_text())["init"]
    except (OSError, ValueError, KeyError, TypeError): rp = None
    if rp and rp.get("fingerprint") == model_fingerprint(init): return rp["source"]
    return init_reference(str(init))["init"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", help="an RL run folder (runs/rl/<name>: config.json and checkpoint-<k>/)")
    ap.add_argument("--checkpoints", default="", help="comma-separated steps whose checkpoint-<k> to score")
    ap.add_argument("--per_level", type=int, default=None,
                    help="score only the first k tasks of each level of each set (None: all)")
    ap.add_argument("--out", required=True, help="the record to write (JSON)")
    a = ap.parse_args(argv)
    run = Path(a.run)
    cfg = run_config(run)
    sets = {"held_out": run_heldout_tasks(run), "train": task_family(cfg).train_tasks(cfg)}
    steps = [int(s) for s in a.checkpoints.split(",") if s.strip()]
    first = run / f"checkpoint-{steps[0]}" if steps else None
    init = Path(_adapter_base(first)) if first else None
    if init is None or not init.name or not init.exists():
        raise SystemExit(f"{run}: no checkpoint named, or its adapter's base {init} is not on this machine")
    tok = load_tokenizer(str(init))
    rows = []
    for split, tasks in sets.items():
        seen = {}
        for t in tasks:
            seen[t.level] = seen.get(t.level, 0) + 1
            if a.per_level is not None and seen[t.level] > a.per_level: continue
            tr = solve(t)
            rows.append({"id": t.id, "level": t.level, "set": split, "solved": tr is not None,
                         "enc": tokenize_sft(tr.messages, tok) if tr is not None else None, "nll": {}})
            if tr is not None: rows[-1] |= trajectory_lengths(rows[-1]["enc"])
    models = {"init": None} | {f"checkpoint-{k}": run / f"checkpoint-{k}" for k in steps}
    seconds, prints = {}, {}
    for name, ad in models.items():
        t0 = time.time()
        m = _load_model_dir(str(ad if ad is not None else init), "float32", "cpu")   # an adapter is merged into its base
        prints[name] = model_fingerprint(ad if ad is not None else init)
        for r in rows:
            if r["enc"] is not None: r["nll"][name] = score(m, r["enc"])
        seconds[name] = round(time.time() - t0, 1)
        print(f"{name}: {seconds[name]} s", flush=True)
        del m
    def mean(rs, name, part):
        v = [r["nll"][name][part] for r in rs if r["enc"] is not None and r["nll"][name][part] is not None]
        return round(sum(v) / len(v), 4) if v else None
    groups = {f"{s}/{lv}": [r for r in rows if r["set"] == s and r["level"] == lv]
              for s in sets for lv in ("easy", "medium", "hard")}
    groups = {k: v for k, v in groups.items() if v} | {s: [r for r in rows if r["set"] == s] for s in sets}
    summary = {g: {"n": sum(r["enc"] is not None for r in rs)} | {
        name: {p: mean(rs, name, p) for p in ("all", "calls", "answer")} for name in models} for g, rs in groups.items()}
    rec = {"kind": "rl_drift", "run": run.name, "commit": git_commit(ROOT), "command": "python tools/rl_drift.py " + " ".join(
        sys.argv[1:] if argv is None else argv), "init": init_name(run, init), "fingerprints": prints,
        "models": list(models), "seconds": seconds, "summary": summary,
        "tasks": [{k: v for k, v in r.items() if k != "enc"} for r in rows]}
    write_atomic(Path(a.out), json.dumps(rec, indent=1))
    for g, s in summary.items():
        print(g, s["n"], " ".join(f"{n}={s[n]['all']}/{s[n]['answer']}" for n in models))
    return rec


if __name__ == "__main__":
    main()
