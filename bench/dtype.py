"""Benchmark: which compute path does this machine take? bf16 against fp32, side by side in one run:

* a square matmul (`--n`, default 1024) in float32 and in bfloat16 with torch's current threads, in GFLOP/s;
* one SFT optimizer step of the offline 0.5B (LoRA, `star.sft.train_sft`) on a real oracle-teacher trajectory cut
  after its first `--turns` assistant turns (~2.4K tokens, so a step takes seconds, not minutes), once with
  `dtype="float32"` and once with `dtype="bfloat16"`, each arm in its own process (its own peak RSS), the
  second of `--steps` steps timed.

It prints the machine (`star.models.machine_line`: CPU model, capability, native bf16 or not, the dtype "auto"
picks) and the two ratios `matmul GFLOP/s bf16/fp32 = R×` and `sft seconds/step fp32/bf16 = R×`. On a CPU
without native bf16 (AVX2 only) a bf16 matmul is emulated (~190× slower than fp32, measured on such a machine), so
the bf16 SFT arm is skipped unless `--force` (it would take an hour); the matmul ratio already says which path the
machine takes. Usage: `python bench/dtype.py [--model 0.5B] [--turns 4] [--steps 2] [--force] [--json out.json]`
"""
import argparse, json, subprocess, sys, tempfile, time
from pathlib import Path


def arm(model: str, dtype: str, turns: int, steps: int, out: str) -> dict:
    "One SFT arm in this process: `steps` steps on the cut trajectory; returns step times and the sft_log numbers."
    import star.sft as S
    from datasets import Dataset
    ds = S.build_sft_dataset(n=1, seed=2603, ratio=(1, 0, 0), max_tokens=6400)
    msgs = ds[0]["messages"]
    cut = [i for i, m in enumerate(msgs) if m["role"] == "assistant"][turns - 1] + 1
    short = Dataset.from_list([{"messages": msgs[:cut]}])
    from _sft_timing import timed_sft
    t = timed_sft(model, short, out, steps, dtype)
    log = t["log"]
    return dict(dtype=dtype, step_seconds=t["step_seconds"], seconds_per_step=t["seconds_per_step"],
                peak_rss_gib=log["peak_rss_gib"], n_tokens=log["n_tokens"], losses=[round(p["loss"], 4) for p in log["loss_curve"]],
                compute=log["compute"])


def matmul(n: int) -> dict:
    from star.models import matmul_gflops
    return {dt: round(matmul_gflops(dt, n=n, repeat=5), 1) for dt in ("float32", "bfloat16")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="0.5B", help='scale of the SFT arms (default the offline "0.5B"; "tiny" for a smoke run)')
    ap.add_argument("--n", type=int, default=1024, help="matmul size")
    ap.add_argument("--turns", type=int, default=4, help="assistant turns of the trajectory kept (4: ~2.4K tokens)")
    ap.add_argument("--steps", type=int, default=2, help="SFT steps per arm (the first is a warm-up)")
    ap.add_argument("--force", action="store_true", help="run the bf16 SFT arm even where bf16 is emulated")
    ap.add_argument("--json", default=None, help="also write the numbers to this file")
    ap.add_argument("--arm", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--out", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.arm:  # child process: one arm, numbers as the last stdout line
        print("ARM " + json.dumps(arm(args.model, args.arm, args.turns, args.steps, args.out)), flush=True)
        return
    from star.models import machine_info, machine_line
    info = machine_info()
    print(machine_line(info), flush=True)
    mm = matmul(args.n)
    mm_ratio = mm["bfloat16"] / mm["float32"]
    print(f"matmul {args.n}x{args.n}: float32 {mm['float32']:.1f} GFLOP/s, bfloat16 {mm['bfloat16']:.1f} GFLOP/s", flush=True)
    print(f"matmul GFLOP/s bf16/fp32 = {mm_ratio:.2f}x", flush=True)
    res = {}
    emulated = mm_ratio < 0.5
    with tempfile.TemporaryDirectory() as tmp:
        for dt in ("float32", "bfloat16"):
            if dt == "bfloat16" and emulated and not args.force:
                print(f"bfloat16 SFT arm skipped: bf16 runs {1 / mm_ratio:.0f}x slower than fp32 here (emulated); "
                      f"--force to measure it anyway", flush=True)
                continue
            t0 = time.perf_counter()
            p = subprocess.run([sys.executable, __file__, "--arm", dt, "--model", args.model, "--turns", str(args.turns),
                                "--steps", str(args.steps), "--out", f"{tmp}/{dt}"], capture_output=True, text=True)
            lines = [l for l in p.stdout.splitlines() if l.startswith("ARM ")]
            if p.returncode or not lines: raise SystemExit(f"{dt} arm failed:\n{p.stderr[-4000:]}")
            r = res[dt] = json.loads(lines[-1][4:])
            print(f"{dt:>9} SFT ({args.model}, {r['n_tokens']:,} tokens): {r['seconds_per_step']:.2f} s/step "
                  f"(steps {r['step_seconds']}), peak RSS {r['peak_rss_gib']:.2f} GiB, losses {r['losses']}; "
                  f"process {time.perf_counter() - t0:.0f}s", flush=True)
    ratio = res["float32"]["seconds_per_step"] / res["bfloat16"]["seconds_per_step"] if len(res) == 2 else None
    if ratio: print(f"sft seconds/step fp32/bf16 = {ratio:.2f}x")
    path = "bfloat16" if info["compute_dtype"] == "bfloat16" else "float32"
    print(f"this machine takes the {path} path (dtype='auto'; force another with dtype=... or STAR_DTYPE=...)")
    if args.json:
        Path(args.json).write_text(json.dumps(dict(machine=info, matmul_gflops=mm, matmul_ratio=round(mm_ratio, 3),
                                                   sft=res, sft_ratio=ratio and round(ratio, 2), args=vars(args)), indent=1))


if __name__ == "__main__":
    main()
