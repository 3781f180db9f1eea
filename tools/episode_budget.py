"""How long the oracle teacher's episodes are for the queries of a CPU-scale run: the pilot of its context budget.

The oracle teacher (`star.teacher.solve`) writes the trajectories the SFT set is made of, so its episode on a query is
what the SFT policy was taught to do there. For the held-out queries (every 3-day query of the official validation
split) and for the run's training prompts, this counts the tokens of each teacher episode under the policy's chat
template (`star.sft.tokenize_sft`: system prompt, query, every turn and tool response) and the tokens before its answer
turn, and tells which share fits each candidate context budget. A budget shorter than the teacher's own episode makes
a correct episode end at the context limit (issue 46: 2 of 11 held-out teacher episodes did not fit 7,168 tokens).

    python tools/episode_budget.py --scale 0.5B --data easy --n_train 64 --seed 0 \
        --out results/diagnostics/episode_budget_0.5B_easy64.json

Cost: one solve and one tokenisation per query, ~0.5 s each on one core.
"""
import argparse, json, statistics, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from star.models import load_tokenizer  # noqa: E402
from star.results import git_commit, write_atomic  # noqa: E402
from star.rl import task_family, validation_tasks  # noqa: E402
from star.rl_config import resolve_config  # noqa: E402
from star.sft import tokenize_sft  # noqa: E402
from star.teacher import solve  # noqa: E402

BUDGETS = (6144, 7168, 8192, 9216, 10240, 12288)


def episode_row(task, tok) -> dict:
    "The teacher's episode on `task`: its tokens, the tokens before its answer turn and its tool calls (None: unsolved)."
    tr = solve(task)
    row = {"id": task.id, "level": task.level, "days": task.days, "solved": tr is not None}
    if tr is None: return row
    enc = tokenize_sft(tr.messages, tok)
    m = enc["assistant_masks"]
    starts = [i for i in range(len(m)) if m[i] and (i == 0 or not m[i - 1])]
    return row | {"episode_tokens": len(enc["input_ids"]), "before_answer": starts[-1] if starts else None,
                  "tool_calls": sum(x["role"] == "assistant" for x in tr.messages) - 1}


def summary(rows: list[dict]) -> dict:
    "Token quantiles of the solved episodes and the share of all queries whose teacher episode fits each budget."
    n = [r["episode_tokens"] for r in rows if r["solved"]]
    q = statistics.quantiles(n, n=20) if len(n) > 1 else n * 19
    return {"n": len(rows), "solved": len(n), "min": min(n), "median": statistics.median(n), "p90": round(q[17]),
            "p95": round(q[18]), "max": max(n),
            "fits": {str(b): round(sum(x <= b for x in n) / len(rows), 4) for b in BUDGETS},
            "by_level": {lv: {"n": sum(r["level"] == lv for r in rows),
                              "max": max((r["episode_tokens"] for r in rows if r["level"] == lv and r["solved"]), default=None)}
                         for lv in ("easy", "medium", "hard")}}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", default="0.5B")
    ap.add_argument("--data", default="easy", help="the run's level mix (star.rl_config.DATA_MIXES)")
    ap.add_argument("--n_train", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True, help="the record to write (JSON)")
    a = ap.parse_args(argv)
    cfg = resolve_config(scale=a.scale, data=a.data, n_train=a.n_train, batch_size=1, seed=a.seed, use_vllm=False,
                         results_dir=None)
    tok = load_tokenizer(a.scale)
    t0 = time.time()
    sets = {"held_out": validation_tasks(10 ** 6, cfg.seed, cfg.trip_days), "train": task_family(cfg).train_tasks(cfg)}
    rows = {k: [episode_row(t, tok) for t in ts] for k, ts in sets.items()}
    rec = {"what": "oracle-teacher episode tokens per query (issue 46 pilot: the CPU-scale context budget)",
           "command": "python tools/episode_budget.py " + " ".join(argv if argv is not None else sys.argv[1:]),
           "git": git_commit(), "scale": a.scale, "data": a.data, "n_train": a.n_train, "seed": a.seed,
           "trip_days": list(cfg.trip_days), "budgets": list(BUDGETS),
           "summary": {k: summary(v) for k, v in rows.items()}, "rows": rows, "seconds": round(time.time() - t0, 1)}
    write_atomic(a.out, json.dumps(rec, indent=1) + "\n")
    print(json.dumps(rec["summary"], indent=1))


if __name__ == "__main__":
    main()
