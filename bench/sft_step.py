"""Benchmark: one SFT optimizer step on CPU, ours against plain TRL `SFTTrainer` as a user writes it, side by side in
one run. The same model, teacher trajectories (already tokenised with their assistant-only loss mask), LoRA
(`star.sft.LORA_DEFAULTS`), learning rate, batch 1 and seed go through:

* `trl`: `SFTTrainer(model=AutoModelForCausalLM.from_pretrained(...), args=SFTConfig(...), peft_config=LoraConfig(...))`
  with TRL's defaults -- float32 weights (what `from_pretrained` gives on a CPU) under bf16 autocast where bf16 is
  native, gradient checkpointing on, TRL's fused LM head scoring every position off Triton devices, glibc's malloc;
  no protocol rows (a user of plain TRL has none);
* `ours`: `star.sft.train_sft` with the settings it chooses (LoRA dropout 0, bf16 base weights where native, gradient
  checkpointing only when `star.memory` says the step would not fit, the protocol rows as `ProtocolRows`, the compact
  LM head, tcmalloc/jemalloc where installed);
* with `--ablation`, also `old` (the recipe before issue 32: checkpointing, dropout 0.05, float32 base, the dense rows,
  glibc) and `old` with each setting of `ours` alone (`+no-ckpt`, `+dropout0`, `+bf16-base`, `+rows-param`,
  `+malloc`): each change measured on its own and together.

Each arm runs in its own process (its own peak RSS and allocator), `--steps` optimizer steps on the first `--n` easy
oracle trajectories that fit 6,400 tokens, one per step (default one trajectory, every step: issue 32 profiled a
5,578-token one; with several the useful work per step is their mean). The first line names the machine, the compute dtype and the
allocator each arm had; then, in the same run, the CPU's bf16 matmul peak at the model's linear shapes
(`_sft_timing.linear_peak_gflops`). Per arm: seconds per step (the first step excluded when there are several), tokens
per second, the useful work per second (`_sft_timing.train_flops`: the model's matmuls, LoRA's backward) and its
fraction of the peak, peak RSS, the loss curve. Prints `sft seconds/step trl/ours = R×` and, with `--json PATH`, writes
`ratio`, `fraction_of_peak` and `tokens_per_s` (ours) with every arm's numbers. Usage:
`python bench/sft_step.py [--model 0.5B] [--n 1] [--steps 3] [--dtype auto] [--ablation] [--json out.json]`
"""
import argparse, json, os, subprocess, sys, tempfile, time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# arm -> settings: checkpointing ("auto": the memory rule), LoRA dropout, base weights ("auto": sft_base_dtype),
# protocol rows ("param" | "dense" | "none"), allocator ("auto" | "system"), compact LM head, plain TRL
OURS = dict(ckpt="auto", dropout=0.0, base="auto", rows="param", malloc="auto", compact=True, trl=False)
OLD = dict(ckpt=True, dropout=0.05, base="float32", rows="dense", malloc="system", compact=True, trl=False)
ARMS = {"trl": dict(OLD, dropout=0.0, rows="none", compact=False, trl=True), "ours": OURS, "old": OLD,
        "+no-ckpt": dict(OLD, ckpt="auto"), "+dropout0": dict(OLD, dropout=0.0), "+bf16-base": dict(OLD, base="auto"),
        "+rows-param": dict(OLD, rows="param"), "+malloc": dict(OLD, malloc="auto")}


def data(model: str, n: int):
    "The first `n` easy oracle trajectories that fit 6,400 tokens, tokenised with the assistant-only mask."
    import star.sft as S
    from star.models import load_tokenizer
    ds = S.build_sft_dataset(n=n, seed=2603, ratio=(1, 0, 0), max_tokens=6400)
    return S.tokenize_dataset(ds, load_tokenizer(model)).select_columns(["input_ids", "assistant_masks"])


def _rows_shim(kind):
    "Stand-ins for `star.sft.ProtocolRows`: 'dense' (the recipe before issue 32) or 'none' (no rows train)."
    import star.sft as S
    class Dense:
        def __init__(self, model, rows):
            self.rows = rows
            self.W = S.train_embedding_rows(model, rows) if kind == "dense" else model.get_input_embeddings().weight
        @property
        def param(self): return self.W[self.rows]
        def register(self, owner, name=""): return self
        def remove(self): self.W.requires_grad_(False)
    return Dense


def arm_ours(model: str, s: dict, n: int, steps: int, out: str, dtype: str) -> dict:
    import star.sft as S
    from star.models import load_model
    from _sft_timing import timed_sft
    ds = data(model, n)
    kw = {"lora": {"lora_dropout": s["dropout"]}}
    if s["ckpt"] != "auto": kw["gradient_checkpointing"] = s["ckpt"]
    if s["base"] != "auto": kw["model"] = load_model(model, dtype=s["base"])
    if s["rows"] != "param": S.ProtocolRows = _rows_shim(s["rows"])
    t = timed_sft(model, ds, out, steps, dtype, **kw)
    log = t["log"]
    return dict(step_seconds=t["step_seconds"], seconds_per_step=t["seconds_per_step"], peak_rss_gib=log["peak_rss_gib"],
                losses=[round(p["loss"], 4) for p in log["loss_curve"]], n_tokens=log["n_tokens"],
                n_trained_tokens=log["n_trained_tokens"], checkpointing=log["config"]["gradient_checkpointing"],
                checkpointing_why=log["gradient_checkpointing_why"], base_dtype=log["base_dtype"],
                allocator=log["allocator"], compute=log["compute"]["dtype"])


def arm_trl(model: str, s: dict, n: int, steps: int, out: str, dtype: str) -> dict:
    "Plain TRL as a user writes it (see the module docstring)."
    import resource
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, Trainer
    from trl import SFTConfig, SFTTrainer
    from star.memory import allocator_in_use
    from star.models import load_tokenizer, model_path
    from star.sft import LORA_DEFAULTS, sft_dtype, sft_config
    from _sft_timing import mean_steady, step_clock
    ds = data(model, n)
    tok = load_tokenizer(model)
    tok.padding_side = "right"
    ours = sft_config(model, out_dir=out)                     # the same recipe numbers: lr, schedule, length, seed
    bf16 = sft_dtype(model, dtype).dtype == "bfloat16"
    args = SFTConfig(output_dir=out, max_length=ours.max_length, per_device_train_batch_size=1, max_steps=steps,
                     learning_rate=ours.learning_rate, lr_scheduler_type=ours.lr_scheduler_type,
                     warmup_steps=ours.warmup_steps, bf16=bf16, use_cpu=True, seed=0, logging_steps=1,
                     save_strategy="no", report_to="none", disable_tqdm=True)
    m = AutoModelForCausalLM.from_pretrained(model_path(model))
    tr = SFTTrainer(model=m, args=args, train_dataset=ds, processing_class=tok,
                    peft_config=LoraConfig(**(LORA_DEFAULTS | {"lora_dropout": s["dropout"]})))
    clock, times = step_clock()
    tr.add_callback(clock)
    tr.train()
    return dict(step_seconds=[round(t, 2) for t in times], seconds_per_step=mean_steady(times),
                peak_rss_gib=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2),
                losses=[round(h["loss"], 4) for h in tr.state.log_history if "loss" in h],
                n_tokens=sum(map(len, ds["input_ids"][:steps])), n_trained_tokens=sum(map(sum, ds["assistant_masks"][:steps])),
                checkpointing=args.gradient_checkpointing, checkpointing_why="TRL's default", base_dtype="float32",
                allocator=allocator_in_use(), compute="bfloat16" if bf16 else "float32")


def child(args):
    s = ARMS[args.arm]
    fn = arm_trl if s["trl"] else arm_ours
    print("ARM " + json.dumps(fn(args.model, s, args.n, args.steps, args.out, args.dtype)), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="0.5B", help='scale (default the offline "0.5B"; "tiny" is not a LoRA scale)')
    ap.add_argument("--dtype", default="auto", help="compute dtype of every arm: auto | float32 | bfloat16")
    ap.add_argument("--n", type=int, default=1, help="trajectories (one per step; with 1 every step trains the same one, so its work is exact)")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--ablation", action="store_true", help="also the recipe before issue 32 and each setting alone")
    ap.add_argument("--arms", default=None, help="comma-separated arms to run (default trl,ours [+ the ablation's])")
    ap.add_argument("--json", default=None, help="also write the numbers to this file")
    ap.add_argument("--arm", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--out", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.arm: return child(args)
    import torch
    from star.memory import allocator_env, arch_of, fast_allocator
    from star.models import machine_line
    from star.sft import sft_dtype
    from _sft_timing import linear_peak_gflops, train_flops
    arms = args.arms.split(",") if args.arms else ["trl", "ours"] + (list(ARMS)[2:] if args.ablation else [])
    dt = sft_dtype(args.model, args.dtype).dtype
    fa = fast_allocator()
    print(machine_line() + f"; SFT arms compute in {dt}; allocator available: {fa[0] if fa else 'none (glibc)'}",
          flush=True)
    arch = arch_of(args.model)
    peak = linear_peak_gflops(arch, dtype="bfloat16" if dt == "bfloat16" else "float32")
    print(f"{dt} linear-layer peak at the {args.model}'s shapes (2,048 tokens): {peak:.0f} GFLOP/s "
          f"({torch.get_num_threads()} threads)", flush=True)
    ds = data(args.model, args.n)
    lens, scored = [len(x) for x in ds["input_ids"]], [sum(x) for x in ds["assistant_masks"]]
    work = (sum(train_flops(arch, [T], k) for T, k in zip(lens, scored)) / len(lens), sum(lens) / len(lens))
    print(f"model {args.model}; {args.steps} steps of batch 1 on {args.n} easy oracle trajector{'y' if args.n == 1 else 'ies'} "
          f"({lens} tokens, {scored} trained; useful work {work[0] / 1e12:.2f} TFLOP per step); arms {arms}", flush=True)
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in arms:
            env = allocator_env() if ARMS[name]["malloc"] == "auto" else {**os.environ, "STAR_MALLOC": "system"}
            if ARMS[name]["malloc"] != "auto" and fa: env["LD_PRELOAD"] = ":".join(
                x for x in env.get("LD_PRELOAD", "").split(":") if x and x != fa[1])
            t0 = time.perf_counter()
            p = subprocess.run([sys.executable, __file__, "--arm", name, "--model", args.model, "--n", str(args.n),
                                "--steps", str(args.steps), "--out", f"{tmp}/{name}", "--dtype", args.dtype],
                               capture_output=True, text=True, env=env)
            lines = [l for l in p.stdout.splitlines() if l.startswith("ARM ")]
            if p.returncode or not lines: raise SystemExit(f"{name} arm failed:\n{p.stderr[-4000:]}")
            r = res[name] = json.loads(lines[-1][4:])
            r["flops_per_step"], r["tokens_per_step"] = work
            r["gflops_per_s"] = round(r["flops_per_step"] / r["seconds_per_step"] / 1e9, 1)
            r["fraction_of_peak"] = round(r["gflops_per_s"] / peak, 3)
            r["tokens_per_s"] = round(r["tokens_per_step"] / r["seconds_per_step"], 1)
            print(f"{name:>12}: {r['seconds_per_step']:.2f} s/step (steps {r['step_seconds']}), {r['tokens_per_s']:.0f} "
                  f"tokens/s, {r['gflops_per_s']:.0f} GFLOP/s = {r['fraction_of_peak']:.0%} of peak; peak RSS "
                  f"{r['peak_rss_gib']:.2f} GiB; checkpointing {r['checkpointing']} ({r['checkpointing_why']}), base "
                  f"{r['base_dtype']}, {r['allocator']}; losses {r['losses']}; process {time.perf_counter() - t0:.0f}s",
                  flush=True)
    out = dict(model=args.model, args=vars(args), machine=machine_line(), compute_dtype=dt, peak_gflops=round(peak, 1),
               arms=res)
    if "trl" in res and "ours" in res:
        d, c = res["trl"], res["ours"]
        ratio = d["seconds_per_step"] / c["seconds_per_step"]
        agree = abs(d["losses"][0] - c["losses"][0]) <= 2e-2 * max(1.0, abs(d["losses"][0]))
        print(f"first losses agree (rel 2e-2: bf16 base weights round the residual stream): {agree} "
              f"({d['losses'][0]} vs {c['losses'][0]})")
        print(f"sft seconds/step trl/ours = {ratio:.2f}x; ours {c['tokens_per_s']:.0f} tokens/s, "
              f"{c['fraction_of_peak']:.0%} of the measured {dt} peak")
        out.update(ratio=round(ratio, 2), fraction_of_peak=c["fraction_of_peak"], tokens_per_s=c["tokens_per_s"],
                   first_losses_agree=agree)
    if args.json: Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
