"""Benchmark: batched multi-turn rollouts (`star.agent.rollout_batch`, all trajectories advance together, one
`generate` call per turn) vs one trajectory at a time (the same engine called with a single trajectory, the way the
reference `Inference/react_agent.py` loop serves one query after another), on the same validation tasks, model and
sampling settings. Both use the same `HFPolicy` (with its prefix cache, warmed on the system prompt, so neither
pays for the shared system prompt); the only difference is the batching.

Reports policy tokens per second (generated tokens / wall time of the rollouts, tools included) and per CPU second
of this process (a fairer figure when other jobs share the cores) for each mode, and the ratios, at group size 8. Default model: the offline "0.5B" (Qwen2.5-Coder-0.5B-Instruct) if its converted
checkpoint is already in the cache, else "tiny" (random weights; said so in the output). Short replies and few turns
keep it to a few minutes on CPU. Usage: `python bench/rollout.py [--model 0.5B] [--tasks 1] [--group-size 8]
[--max-new-tokens 16] [--turns 2] [--dtype bfloat16]`
"""
import argparse, json, platform, time
from pathlib import Path

import torch

from star.agent import HFPolicy, build_messages, render_chat, rollout_batch
from star.models import cache_dir, get_spec, load_model, load_tokenizer
from star.sandbox import Sandbox
from star.tasks import load_tasks


def cached_offline(scale: str) -> bool:
    "True if the converted checkpoint of offline `scale` is already in the cache (no conversion is started)."
    src = get_spec(scale).offline
    return (cache_dir() / "models" / f"{Path(src.filename).stem}-{src.sha256[:12]}" / "star_checkpoint.json").exists()


def run(policy, tok, tasks, batched: bool, args, sandbox, warm):
    "Roll out `group_size` samples of every task, batched or one by one. Returns (rollouts, wall s, process CPU s)."
    policy._prefix_ids, policy._prefix_kv = warm          # both modes start from the same warmed prefix cache
    kw = dict(sandbox=sandbox, max_turns=args.turns, max_policy_turns=args.turns, max_no_action=None,
              max_new_tokens_per_turn=args.max_new_tokens, max_context=args.max_context,
              temperature=args.temperature, top_p=args.top_p)
    t0, c0 = time.perf_counter(), time.process_time()
    if batched: ros = rollout_batch(policy, tok, tasks, group_size=args.group_size, seed=args.seed, **kw)
    else:
        ros = []
        for i, task in enumerate(tasks):
            for j in range(args.group_size):
                ros += rollout_batch(policy, tok, [task], group_size=1, seed=args.seed + 1000 * i + j, **kw)
    return ros, time.perf_counter() - t0, time.process_time() - c0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=None, help='scale or path (default "0.5B" if cached, else "tiny")')
    ap.add_argument("--tasks", type=int, default=1)
    ap.add_argument("--group-size", type=int, default=8)
    ap.add_argument("--max-new-tokens", type=int, default=16)
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--max-context", type=int, default=8192)
    ap.add_argument("--temperature", type=float, default=1.0)
    ap.add_argument("--top-p", type=float, default=1.0)
    ap.add_argument("--dtype", default=None, help="default: bfloat16 for 0.5B, float32 for tiny")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also write the numbers to this file")
    args = ap.parse_args()
    note = ""
    if args.model is None:
        args.model = "0.5B" if cached_offline("0.5B") else "tiny"
        if args.model == "tiny": note = " (0.5B checkpoint not in the cache: random tiny model instead)"
    dtype = args.dtype or ("float32" if args.model == "tiny" else "bfloat16")
    tok = load_tokenizer(args.model)
    t0 = time.perf_counter()
    model = load_model(args.model, dtype=dtype)
    print(f"model {args.model}{note}, {dtype}, loaded in {time.perf_counter() - t0:.1f}s; torch threads "
          f"{torch.get_num_threads()}, {platform.processor() or platform.machine()}")
    tasks = load_tasks("validation")[:args.tasks]
    sandbox = Sandbox()
    policy = HFPolicy(model, tok)
    prompts = [tok.encode(render_chat(tok, build_messages(t)), add_special_tokens=False) for t in tasks]
    t0 = time.perf_counter()
    policy._prefix_ids, policy._prefix_kv = [], None
    blank = tok.encode(render_chat(tok, build_messages("")), add_special_tokens=False)
    policy._shared_prefix(prompts + [blank])            # the system prompt and the user turn's opening tokens
    warm = (list(policy._prefix_ids), policy._prefix_kv)
    print(f"warm-up: shared prefix of {len(warm[0])} tokens cached in {time.perf_counter() - t0:.1f}s; "
          f"{args.tasks} tasks x group {args.group_size}, {args.turns} turns x <= {args.max_new_tokens} new tokens, "
          f"T={args.temperature}, top_p={args.top_p}")
    res = {}
    for name, batched in (("one at a time", False), ("batched", True)):
        ros, wall, cpu = run(policy, tok, tasks, batched, args, sandbox, warm)
        n_tok = sum(r.n_policy_tokens for r in ros)
        gen_s = ros[0].meta["batch"]["generate_s"] if batched else sum(r.meta["batch"]["generate_s"] for r in ros)
        calls = ros[0].meta["batch"]["n_generate_calls"] if batched else sum(r.meta["batch"]["n_generate_calls"] for r in ros)
        res[name] = dict(trajectories=len(ros), policy_tokens=n_tok, wall_s=round(wall, 2), generate_s=round(gen_s, 2),
                         generate_calls=calls, tokens_per_s=round(n_tok / wall, 2), cpu_s=round(cpu, 2),
                         tokens_per_cpu_s=round(n_tok / cpu, 3),
                         terminations={t: sum(r.termination == t for r in ros) for t in {r.termination for r in ros}})
        print(f"{name:>14}: {len(ros)} trajectories, {n_tok} policy tokens, {calls} generate calls, "
              f"{wall:.1f}s wall ({gen_s:.1f}s generating), {cpu:.1f}s CPU -> {n_tok / wall:.2f} tok/s, "
              f"{n_tok / cpu:.3f} tok/CPU-s; {res[name]['terminations']}")
    ratio = res["batched"]["tokens_per_s"] / res["one at a time"]["tokens_per_s"]
    cpu_ratio = res["batched"]["tokens_per_cpu_s"] / res["one at a time"]["tokens_per_cpu_s"]
    print(f"batched / one-at-a-time throughput at group size {args.group_size}: {ratio:.2f}x (wall), "
          f"{cpu_ratio:.2f}x (per CPU second: less sensitive to other jobs on a shared machine)")
    if args.json:
        Path(args.json).write_text(json.dumps(dict(model=args.model, dtype=dtype, args=vars(args), results=res,
                                                   ratio=round(ratio, 2), cpu_ratio=round(cpu_ratio, 2)), indent=1))


if __name__ == "__main__":
    main()
