"""Benchmark, `bench/grpo_step.py --part update`: the GRPO update on CPU, ours against plain TRL, side by side in one run.

The update (forward/backward of the rollout batch and the optimiser step): the same rollouts -- real multi-turn
TravelPlanner episodes, replayed (`star.agent.ScriptedPolicy` plays the oracle teacher's turns through
`star.agent.rollout_batch` against the real sandbox, cut at the default run's 7,168-token context) -- the same
rewards, model, LoRA (r 16, all linears, no dropout), loss (`dapo`, KL-free, clip-higher, dual clip), sampling
temperature (the policy whose log-probs are trained: 0.6 at the 0.5B), optimiser and seed go through
  - `trl`: `GRPOTrainer(model=AutoModelForCausalLM.from_pretrained(...), args=GRPOConfig(...), peft_config=LoraConfig(...),
    rollout_func=...)` as a user writes it, the run's settings above and otherwise TRL's defaults (float32 weights
    under bf16 autocast where native, gradient checkpointing, its fused LM head scoring every position off Triton
    devices, micro-batches padded to the longest rollout of the batch), glibc's malloc;
  - `ours`: `star.rl`'s trainer (`_grpo_trainer_cls`, `trl_config` of the default 0.5B run): micro-batches trimmed to
    their own rollouts, micro-batches without signal skipped, the compact LM head, gradient checkpointing as the run
    has it, tcmalloc/jemalloc where installed;
  and, with `--no-signal`, the same step with every reward equal (no advantage anywhere): what such a step costs.
  Per arm: seconds per step, tokens per second, the useful work per second (`_sft_timing.train_flops`) and its
  fraction of the bf16 linear-layer peak measured at the model's shapes in the same run, padding (positions computed
  that hold no token), peak RSS. Prints `grpo update seconds/step trl/ours = R×`.

The other half of a step, the rollouts, is `--part rollout` (`bench/_grpo_rollout.py`).

`--json PATH` writes `ratio`, `fraction_of_peak` and `tokens_per_s` (ours) and every arm's numbers. The first line names
the machine, the compute dtype and the allocators. Usage: `python bench/grpo_step.py --part update [--model 0.5B]
[--episodes 4] [--steps 1] [--no-signal] [--json out.json]`
"""
import argparse, json, os, subprocess, sys, tempfile, time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def replayed_rollouts(n: int, max_context: int = 7168):
    """`n` real episodes: the oracle teacher's trajectories on the first `n` easy validation tasks, replayed through the
    rollout engine against the sandbox with the default run's context (episodes that run past it are cut, as the
    default run's 2 of 8 were). Returns (tasks, rollouts)."""
    from star.agent import ScriptedPolicy, rollout_batch
    from star.models import load_tokenizer
    from star.tasks import load_tasks
    from star.teacher import solve
    tok = load_tokenizer("tiny")   # the packaged Qwen2.5 tokenizer of every scale
    # the first `n` easy validation tasks the solver finds a plan for (for some, none exists: `solve` returns None)
    tasks, trajs = [], []
    for t in (t for t in load_tasks("validation") if t.level == "easy"):
        if len(tasks) == n: break
        if (tr := solve(t)) is not None:
            tasks.append(t)
            trajs.append(tr)
    if len(tasks) < n: raise SystemExit(f"--episodes {n}: only {len(tasks)} easy validation tasks have a solver plan")
    pol = ScriptedPolicy(tok, trajs, eos=True)
    return tasks, rollout_batch(pol, tok, tasks, group_size=1, max_context=max_context, max_new_tokens_per_turn=8192,
                                max_turns=30)


def rewards_for(n: int, signal: bool) -> list:
    "One group of `n`: rewards that differ (every advantage non-zero) or, without signal, all equal."
    return [float(i % 3) + (0.5 if i % 2 else 0.0) for i in range(n)] if signal else [0.0] * n


def replay_func(rollouts, rewards, ends):
    "A TRL `rollout_func` that returns the same episodes and rewards at every call (one group: the episodes share a prompt slot)."
    from star.rl import _trl_completions
    prompt_ids, completion_ids, logprobs, env_mask = _trl_completions(rollouts, [True] * len(rollouts), ends)
    def f(prompts, trainer):
        trainer._star_rewards = list(rewards)
        return {"prompt_ids": prompt_ids, "completion_ids": completion_ids, "logprobs": logprobs, "env_mask": env_mask,
                "star_reward": list(rewards)}
    return f


def update_arm(name: str, model: str, n: int, steps: int, signal: bool, dtype: str, out: str) -> dict:
    import resource
    from datasets import Dataset
    from peft import LoraConfig
    from star.agent import eos_ids
    from star.memory import allocator_in_use
    from star.models import cpu_compact_logprobs, load_model, load_tokenizer, model_path
    from star.rl import _grpo_trainer_cls, rollout_reward_fn
    from star.rl_config import resolve_config, run_dtype, trl_config
    from _sft_timing import mean_steady, step_clock
    tasks, ros = replayed_rollouts(n)
    tok = load_tokenizer(model)
    rewards = rewards_for(n, signal)
    cfg = resolve_config(scale=model, use_vllm=False, batch_size=1, group_size=n, dtype=dtype, max_steps=steps,
                         n_val=0, out_dir=out, lr=1e-5)
    ds = Dataset.from_list([{"prompt": tasks[0].query}] * 4)
    lora = LoraConfig(r=cfg.lora_r, lora_alpha=cfg.lora_alpha, target_modules="all-linear", lora_dropout=0.0,
                      task_type="CAUSAL_LM")
    kw = dict(reward_funcs=[rollout_reward_fn("sum")], train_dataset=ds, processing_class=tok, peft_config=lora,
              rollout_func=replay_func(ros, rewards, eos_ids(tok)))
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    if name == "trl":
        from transformers import AutoModelForCausalLM
        from trl import GRPOConfig, GRPOTrainer
        ours = trl_config(cfg)
        # the run's step, as a user sets it: its sampling temperature (TRL divides the logits by it when it scores
        # the rollouts -- TRL's default 1.0 is another policy: at the 0.5B's 0.6 the gradient is ~1.7x smaller,
        # issue 32), clip range and dual clip, optimiser; the rest TRL's defaults
        args = GRPOConfig(output_dir=out, per_device_train_batch_size=1, gradient_accumulation_steps=n,
                          steps_per_generation=n, num_generations=n, max_steps=steps, learning_rate=cfg.lr,
                          lr_scheduler_type=ours.lr_scheduler_type, weight_decay=ours.weight_decay,
                          max_grad_norm=ours.max_grad_norm, temperature=ours.temperature, loss_type="dapo", beta=0.0,
                          epsilon=ours.epsilon, epsilon_high=ours.epsilon_high, delta=ours.delta,
                          max_completion_length=cfg.max_context, bf16=run_dtype(cfg).dtype == "bfloat16",
                          use_cpu=True, seed=0, logging_steps=1, save_strategy="no", report_to="none",
                          disable_tqdm=True, use_vllm=False)
        tr = GRPOTrainer(model=AutoModelForCausalLM.from_pretrained(model_path(model)), args=args, **kw)
    else:
        cpu_compact_logprobs(True)
        args = trl_config(cfg, save_strategy="no", disable_tqdm=True)
        tr = _grpo_trainer_cls()(model=load_model(model, dtype="float32"), args=args, **kw)
        tr.star_adv_epsilon = cfg.adv_epsilon
    clock, times = step_clock()
    tr.add_callback(clock)
    tr.train()
    log = next(h for h in tr.state.log_history if "reward" in h)
    n_tok = [len(r.prompt_ids) + len(r.completion_ids) for r in ros]
    return dict(step_seconds=[round(t, 2) for t in times], seconds_per_step=mean_steady(times),
                peak_rss_gib=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2),
                episode_tokens=n_tok, policy_tokens=[sum(r.env_mask) for r in ros], rewards=rewards,
                loss=log.get("loss"), grad_norm=log.get("grad_norm"), skipped=log.get("star/skipped"),
                padding=log.get("star/padding"), padding_untrimmed=log.get("star/padding_untrimmed"),
                checkpointing=args.gradient_checkpointing, temperature=args.temperature, allocator=allocator_in_use(),
                compute="bfloat16" if args.bf16 else "float32")


def update_part(args) -> dict:
    import torch
    from star.memory import allocator_env, arch_of, fast_allocator
    from star.models import machine_line
    from star.rl_config import resolve_config, run_dtype
    from _sft_timing import linear_peak_gflops, train_flops
    dt = run_dtype(resolve_config(scale=args.model, use_vllm=False, dtype=args.dtype)).dtype
    fa = fast_allocator()
    print(machine_line() + f"; update arms compute in {dt}; allocator available: {fa[0] if fa else 'none (glibc)'}", flush=True)
    arch = arch_of(args.model)
    peak = linear_peak_gflops(arch, dtype="bfloat16" if dt == "bfloat16" else "float32")
    print(f"{dt} linear-layer peak at the {args.model}'s shapes (2,048 tokens): {peak:.0f} GFLOP/s "
          f"({torch.get_num_threads()} threads)", flush=True)
    _, ros = replayed_rollouts(args.episodes)
    lens = [len(r.prompt_ids) + len(r.completion_ids) for r in ros]
    pol = [sum(r.env_mask) for r in ros]
    work = sum(train_flops(arch, [T], 0) for T in lens) + train_flops(arch, [], sum(pol))
    print(f"model {args.model}; one group of {args.episodes} replayed episodes of {lens} tokens ({pol} policy tokens), "
          f"one episode per micro-batch; useful work {work / 1e12:.2f} TFLOP per step", flush=True)
    arms = [("trl", True), ("ours", True)] + ([("ours-no-signal", False)] if args.no_signal else [])
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, signal in arms:
            env = allocator_env() if name != "trl" else {**os.environ, "STAR_MALLOC": "system"}
            if name == "trl" and fa:
                env["LD_PRELOAD"] = ":".join(x for x in env.get("LD_PRELOAD", "").split(":") if x and x != fa[1])
            t0 = time.perf_counter()
            p = subprocess.run([sys.executable, __file__, "--arm", name.split("-")[0],
                                "--signal", str(int(signal)), "--model", args.model, "--episodes", str(args.episodes),
                                "--steps", str(args.steps), "--dtype", args.dtype, "--out", f"{tmp}/{name}"],
                               capture_output=True, text=True, env=env)
            lines = [l for l in p.stdout.splitlines() if l.startswith("ARM ")]
            if p.returncode or not lines: raise SystemExit(f"{name} arm failed:\n{p.stderr[-4000:]}")
            r = res[name] = json.loads(lines[-1][4:])
            r["load_after"] = round(os.getloadavg()[0], 2)   # the machine's load while the arm ran (1-min average)
            if signal:   # a step without signal does no useful work: no rate, no fraction of the peak
                r["tokens_per_s"] = round(sum(lens) / r["seconds_per_step"], 1)
                r["gflops_per_s"] = round(work / r["seconds_per_step"] / 1e9, 1)
                r["fraction_of_peak"] = round(r["gflops_per_s"] / peak, 3)
                rate = (f"{r['tokens_per_s']:.0f} tokens/s, {r['gflops_per_s']:.0f} GFLOP/s = "
                        f"{r['fraction_of_peak']:.0%} of peak")
            else: rate = "no useful work (every advantage 0)"
            print(f"{name:>15}: {r['seconds_per_step']:.2f} s/step (steps {r['step_seconds']}), {rate}; load "
                  f"{r['load_after']}; loss {r['loss']}, "
                  f"grad norm {r['grad_norm']} (temperature {r['temperature']}), skipped {r['skipped']}, padding "
                  f"{r['padding']} (untrimmed {r['padding_untrimmed']}); checkpointing {r['checkpointing']}, {r['allocator']}; peak RSS "
                  f"{r['peak_rss_gib']:.2f} GiB; process {time.perf_counter() - t0:.0f}s", flush=True)
    d, c = res["trl"], res["ours"]
    ratio = d["seconds_per_step"] / c["seconds_per_step"]
    print(f"grpo update seconds/step trl/ours = {ratio:.2f}x; ours {c['tokens_per_s']:.0f} tokens/s, "
          f"{c['fraction_of_peak']:.0%} of the measured {dt} peak")
    if "ours-no-signal" in res:
        print(f"a step without signal: {res['ours-no-signal']['seconds_per_step']:.2f} s (skipped "
              f"{res['ours-no-signal']['skipped']}) vs {c['seconds_per_step']:.2f} s with signal")
    return dict(part="update", model=args.model, machine=machine_line(), compute_dtype=dt, peak_gflops=round(peak, 1),
                episode_tokens=lens, policy_tokens=pol, useful_flops_per_step=work, arms=res, ratio=round(ratio, 2),
                fraction_of_peak=c["fraction_of_peak"], tokens_per_s=c["tokens_per_s"])


def main(argv=None):
    ap = argparse.ArgumentParser(prog="grpo_step.py --part update", description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="0.5B")
    ap.add_argument("--dtype", default="auto", help="compute dtype: auto | float32 | bfloat16")
    ap.add_argument("--episodes", type=int, default=4, help="update: episodes in the group (one per micro-batch)")
    ap.add_argument("--steps", type=int, default=1, help="update: optimiser steps timed per arm")
    ap.add_argument("--no-signal", action="store_true", help="update: also a step whose rewards are all equal")
    ap.add_argument("--json", default=None, help="also write the numbers to this file")
    ap.add_argument("--arm", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--signal", default="1", help=argparse.SUPPRESS)
    ap.add_argument("--out", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.arm:
        print("ARM " + json.dumps(update_arm(args.arm, args.model, args.episodes, args.steps, args.signal == "1",
                                             args.dtype, args.out)), flush=True)
        return
    res = update_part(args)
    if args.json: Path(args.json).write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
