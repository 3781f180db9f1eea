"""Benchmark: one SFT optimizer step on CPU, TRL's default LM head against ours. The same model, teacher trajectories,
config and seed go, in one run, through `star.sft.train_sft` twice:

* `default`: TRL's fused LM head as TRL ships it off Triton devices -- it scores every position of the sequence
  (`trl.trainer.utils.add_fused_lm_head`, static tile shapes), including the system prompt and tool observations
  whose labels are -100;
* `compact`: `star.models.cpu_compact_logprobs` -- the head scores only the positions that are trained (the assistant
  turns), as TRL itself does on Triton devices.

Each arm runs in its own process (so peak RSS is its own), `--steps` optimizer steps of batch 1 on the first `--n`
easy oracle trajectories that fit the model's `max_length`. Reports seconds per step (first step excluded when there
are more than one: it holds the allocator's warm-up), peak RSS and the loss curves (which must agree: the ignored
positions do not enter the loss), and prints `sft seconds/step default/compact = R×`, after a first line naming the
machine and the compute dtype both arms use (`--dtype`, default "auto": `star.models.dtype_choice`, bf16 only where
this CPU has it natively; `star.models.machine_line`). Default model: the offline "0.5B" (Qwen2.5-Coder-0.5B-Instruct,
converted into the cache on first use; `--model tiny` for a smoke run with random weights). Usage:
`python bench/sft_step.py [--model 0.5B] [--n 4] [--steps 3] [--dtype auto] [--json out.json]`
"""
import argparse, json, subprocess, sys, tempfile, time
from pathlib import Path


def arm(model: str, compact: bool, n: int, steps: int, out: str, dtype: str = "auto") -> dict:
    "One arm in this process: `steps` SFT steps; returns the numbers of its `sft_log.json`."
    import star.sft as S
    from star.models import cpu_compact_logprobs
    ds = S.build_sft_dataset(n=n, seed=2603, ratio=(1, 0, 0), max_tokens=6400)
    # train_sft turns compaction on off CUDA; the default arm keeps TRL's own rule by making that call a no-op
    if not compact: S.cpu_compact_logprobs = lambda enable=True: cpu_compact_logprobs(False)
    from _sft_timing import timed_sft
    t = timed_sft(model, ds, out, steps, dtype)
    log = t["log"]
    return dict(compact=compact, step_seconds=t["step_seconds"],
                seconds_per_step=t["seconds_per_step"], peak_rss_gib=log["peak_rss_gib"],
                n_tokens=log["n_tokens"], n_trained_tokens=log["n_trained_tokens"],
                losses=[round(p["loss"], 4) for p in log["loss_curve"]], compute=log["compute"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="0.5B", help='scale (default the offline "0.5B")')
    ap.add_argument("--dtype", default="auto", help="compute dtype of both arms: auto | float32 | bfloat16")
    ap.add_argument("--n", type=int, default=4, help="trajectories (one per step, cycled)")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--json", default=None, help="also write the numbers to this file")
    ap.add_argument("--arm", choices=["default", "compact"], default=None, help=argparse.SUPPRESS)
    ap.add_argument("--out", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.arm:  # child process: one arm, numbers as the last stdout line
        print("ARM " + json.dumps(arm(args.model, args.arm == "compact", args.n, args.steps, args.out, args.dtype)), flush=True)
        return
    from star.models import machine_line
    from star.sft import sft_dtype
    note = " (random weights: a smoke run)" if args.model == "tiny" else ""
    print(machine_line() + f"; SFT arms: {sft_dtype(args.model, args.dtype).dtype}", flush=True)
    print(f"model {args.model}{note}; {args.steps} steps of batch 1 on {args.n} easy oracle trajectories", flush=True)
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("default", "compact"):
            t0 = time.perf_counter()
            p = subprocess.run([sys.executable, __file__, "--arm", name, "--model", args.model, "--n", str(args.n),
                                "--steps", str(args.steps), "--out", f"{tmp}/{name}", "--dtype", args.dtype],
                               capture_output=True, text=True)
            lines = [l for l in p.stdout.splitlines() if l.startswith("ARM ")]
            if p.returncode or not lines: raise SystemExit(f"{name} arm failed:\n{p.stderr[-4000:]}")
            res[name] = json.loads(lines[-1][4:])
            r = res[name]
            print(f"{name:>8}: {r['seconds_per_step']:.2f} s/step (steps {r['step_seconds']}), peak RSS "
                  f"{r['peak_rss_gib']:.2f} GiB, losses {r['losses']}; {r['n_trained_tokens']:,} of {r['n_tokens']:,} "
                  f"tokens trained; process {time.perf_counter() - t0:.0f}s", flush=True)
    d, c = res["default"], res["compact"]
    same = all(abs(a - b) <= 1e-3 * max(1.0, abs(a)) for a, b in zip(d["losses"], c["losses"]))
    ratio = d["seconds_per_step"] / c["seconds_per_step"]
    print(f"losses agree (rel 1e-3): {same}")
    print(f"sft seconds/step default/compact = {ratio:.2f}x")
    if args.json:
        Path(args.json).write_text(json.dumps(dict(model=args.model, args=vars(args), results=res,
                                                   losses_agree=same, ratio=round(ratio, 2)), indent=1))
    if not same: raise SystemExit("the two arms' losses differ")


if __name__ == "__main__":
    main()
