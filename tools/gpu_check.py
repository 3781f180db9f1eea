"""The prepared GPU check: one command for the rare, short loan of a GPU machine (`../shared/GPU_CHECKLIST.md`).

    python tools/gpu_check.py                 # on the GPU machine (via the device tool; writes to $OUT)
    python tools/gpu_check.py --device cpu    # the same code at tiny shapes on a CPU (< 1 min; CI runs it)

The GPU machine has torch, transformers, peft and accelerate but no TRL / datasets / fastcore and no network:
`tools/gpu_wheels.sh` (run here) downloads exactly those as Python 3.12 wheels into the git-ignored `tools/gpu_wheels/`,
which the device call carries (`carry=["tools/gpu_wheels"]`) and this script installs first (`pip --no-index
--no-deps --target`). Then, in order, each part writing its JSON the moment it ends (a run cut short still returns what
it measured):

* `gpu_tests.json`, `gpu_cells.json` -- (a) `pytest -m gpu` and the chapters' `#| gpu` cells (on the CPU collected
  and compiled only: `gpu_collect.json`) (tests/test_gpu.py on `tiny`: device per rank, bf16 autocast over float32
  masters, an SFT and a GRPO step that change the weights, checkpoint + exact resume, HF-generate rollouts against the
  real sandbox, validation, the memory model against the allocator);
* `gpu_steps.json`  -- (b) random-initialised Qwen2.5-1.5B and -3B (real vocabulary and shapes; speed and memory are
  those of real weights): one SFT step and one GRPO step (HF-generate rollouts of a group, then the update) at 8K and
  30K tokens, gradient checkpointing on, float32 masters under bf16 autocast, AdamW -- step time, tokens/s, the
  fraction of the card's measured bf16 matmul peak, `torch.cuda.max_memory_allocated` against `star.memory`'s
  prediction (`plan` for the GRPO step);
* `gpu_generate.json` -- (c) batched HF `generate` (`star.agent.HFPolicy`, the no-vLLM rollout path) on the 1.5B shape
  at batch 8 and 32;
* `gpu_check.json`  -- the machine, the versions, every part's status and the summary table this script prints.

Time on one H100, as estimated from FLOP counts and then measured (`results/gpu/h100_2026-11-27/`). A training step at T
tokens costs about 8*P*T + 8*L*T^2*h FLOPs with full recomputation (forward 2, backward 4, recompute 2; causal
attention): 1.5B 1.3e14 (8K) / 7.0e14 (30K), 3B 2.5e14 / 1.3e15. The estimate assumed ~280 TFLOP/s; the H100 ran these
steps at 290-450 TFLOP/s (0.4-3.0 s each), so (b) took 59-71 s with the models' set-up. (c) took 24-31 s: about 112 ms
per decode step at both batch sizes, where the estimate had 25 ms. (a) took 60-64 s, (a)'s cells 11-20 s, and the whole
check 176 s of the 7-minute budget (`--budget-s 420`; a case whose FLOP-based estimate no longer fits is skipped and
says so).
"""
from __future__ import annotations

import argparse, dataclasses, gc, glob, importlib.util, json, os, platform, subprocess, sys, time, traceback
from pathlib import Path

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
for _k in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"): os.environ.setdefault(_k, "1")

ROOT = Path(__file__).resolve().parents[1]
WHEELS = ROOT / "tools" / "gpu_wheels"
SITE = Path("/tmp/star-gpu-site")
GIB = 2**30
ASSUMED_TFLOPS = {"cuda": 280.0, "cpu": 0.2}   # the FLOP-based time estimates (see the module docstring)


# ------------------------------------------------------------------------------------------ set-up
def install_wheels(folder: Path = WHEELS, target: Path = SITE) -> list[str]:
    """Install those carried wheels of `folder` whose distribution this Python lacks (none on a machine that has them,
    such as the one that downloaded them) into `target` with pip, offline and without dependencies; put `target` and
    the repository first on `sys.path` and `$PYTHONPATH` (for the pytest child). Returns the wheel file names
    installed. Raises CalledProcessError if pip fails."""
    from importlib.metadata import PackageNotFoundError, version
    def missing(whl: str) -> bool:
        try: version(Path(whl).name.split("-")[0].replace("_", "-")); return False
        except PackageNotFoundError: return True
    wheels = [w for w in sorted(glob.glob(str(folder / "*.whl"))) if missing(w)]
    paths = [str(ROOT)]
    if wheels:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps", "--no-compile",
                        "--no-cache-dir", "--upgrade", "--target", str(target), *wheels], check=True)
        paths.insert(0, str(target))
    for p in reversed(paths):
        if p not in sys.path: sys.path.insert(0, p)
    os.environ["PYTHONPATH"] = os.pathsep.join(paths + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    return [Path(w).name for w in wheels]


def machine(device: str) -> dict:
    "The device, its memory, and the versions of what runs on it."
    import torch
    from importlib.metadata import PackageNotFoundError, version
    def v(name):
        try: return version(name)
        except PackageNotFoundError: return None
    info = dict(device=device, python=platform.python_version(), torch=torch.__version__, cuda=torch.version.cuda,
                **{k: v(k) for k in ("transformers", "trl", "peft", "accelerate", "datasets")})
    if device == "cuda":
        p = torch.cuda.get_device_properties(0)
        info.update(gpu=p.name, gpu_memory_gib=round(p.total_memory / GIB, 1), sm_count=p.multi_processor_count,
                    bf16=torch.cuda.is_bf16_supported())
    else:
        info.update(cpu=platform.processor() or platform.machine(), cpu_capability=torch.backends.cpu.get_cpu_capability())
    return info


def write(out: Path, name: str, data) -> Path:
    "Write `data` as JSON to `out/name` at once (a cut run keeps what it measured)."
    out.mkdir(parents=True, exist_ok=True)
    p = out / name
    p.write_text(json.dumps(data, indent=1, default=str) + "\n")
    return p


# ------------------------------------------------------------------------------------------ (a) pytest -m gpu
def run_gpu_tests(device: str, out: Path, timeout: int = 300) -> dict:
    """`pytest -m gpu tests/test_gpu.py` in a child process (`STAR_GPU_TESTS_DEVICE=cpu` on the CPU), its JUnit report
    read into {passed, failed, skipped, seconds, tests: [{name, outcome, seconds, message}]}."""
    import xml.etree.ElementTree as ET
    xml = out / "gpu_tests.xml"
    env = {**os.environ, "STAR_GPU_TESTS_DEVICE": device, "PYTHONUNBUFFERED": "1"}
    t0 = time.time()
    p = subprocess.run([sys.executable, "-m", "pytest", "-m", "gpu", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                        str(ROOT / "tests" / "test_gpu.py"), f"--junitxml={xml}"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=timeout)
    res = dict(returncode=p.returncode, seconds=round(time.time() - t0, 1), tests=[], tail=(p.stdout + p.stderr)[-4000:])
    if xml.exists():
        for case in ET.parse(xml).getroot().iter("testcase"):
            bad = case.find("failure") if case.find("failure") is not None else case.find("error")
            skip = case.find("skipped")
            res["tests"].append(dict(name=case.get("name"), seconds=round(float(case.get("time", 0)), 2),
                                     outcome="failed" if bad is not None else "skipped" if skip is not None else "passed",
                                     message=(bad.get("message") or "")[:500] if bad is not None else
                                             (skip.get("message") or "")[:200] if skip is not None else None))
        xml.unlink()
    for k in ("passed", "failed", "skipped"): res[k] = sum(t["outcome"] == k for t in res["tests"])
    return res


def gpu_cells() -> list[tuple[str, int, str]]:
    """(notebook, cell index, source) of every code cell flagged `#| gpu` in nbs/: the chapters' CUDA demonstrations.
    Each is self-contained (its own imports), so it runs without the cells before it."""
    out = []
    for nb in sorted((ROOT / "nbs").rglob("*.ipynb")):
        for i, c in enumerate(json.loads(nb.read_text(encoding="utf-8"))["cells"]):
            src = "".join(c["source"])
            if c["cell_type"] == "code" and any(l.strip().replace(" ", "") == "#|gpu" for l in src.splitlines()):
                out.append((str(nb.relative_to(ROOT)), i, src))
    return out


def run_gpu_cells(device: str) -> dict:
    """Execute every `gpu` cell (`gpu_cells`) in a fresh namespace on CUDA, with the environment variables restored
    after each (a cell that sets `LOCAL_RANK` must not make the next one's Trainer expect a launcher); on the CPU only
    compile them (they assert CUDA). Returns {cells: [{notebook, cell, outcome, seconds, message}], passed, failed}."""
    res = dict(cells=[])
    for nb, i, src in gpu_cells():
        t0, row, env = time.time(), dict(notebook=nb, cell=i), dict(os.environ)
        try:
            code = compile(src, f"{nb}#cell{i}", "exec")
            if device == "cuda": exec(code, {"__name__": "__main__"})
            row["outcome"] = "passed" if device == "cuda" else "compiled"
        except Exception as e:
            row.update(outcome="failed", message=f"{type(e).__name__}: {e}"[:500], traceback=traceback.format_exc()[-1500:])
        finally:
            os.environ.clear(); os.environ.update(env)
        row["seconds"] = round(time.time() - t0, 2)
        res["cells"].append(row)
    res["passed"] = sum(r["outcome"] in ("passed", "compiled") for r in res["cells"])
    res["failed"] = sum(r["outcome"] == "failed" for r in res["cells"])
    return res


def collect_gpu_tests(out: Path, timeout: int = 120) -> dict:
    """`pytest -m gpu --collect-only` over tests/: the ids of the GPU tests (the CPU mode's check that the suite still
    imports and is selected; tests/test_gpu_check.py runs it on the CPU in full)."""
    p = subprocess.run([sys.executable, "-m", "pytest", "-m", "gpu", "--collect-only", "-q", "-p", "no:cacheprovider",
                        "-o", "addopts=", str(ROOT / "tests")], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    ids = [l for l in p.stdout.splitlines() if "::" in l]
    cells = run_gpu_cells("cpu")                          # the chapters' gpu cells: compiled
    return dict(returncode=p.returncode, collected=ids, tail=(p.stdout + p.stderr)[-2000:] if p.returncode else "",
                gpu_cells=cells["cells"], failed=cells["failed"])


# ------------------------------------------------------------------------------------------ (b) training steps
def shapes(device: str) -> dict:
    "{name: star.memory.Arch}: Qwen2.5-1.5B and -3B on CUDA; on the CPU a 2-layer model of Qwen2.5's vocabulary."
    from star.memory import QWEN25, Arch
    if device == "cuda": return {"1.5B": QWEN25["1.5B"], "3B": QWEN25["3B"]}
    return {"tiny": Arch(hidden=64, intermediate=128, layers=2, heads=4, kv_heads=2, vocab=151_936, tied=True)}


def seq_lengths(device: str) -> list[int]:
    "8K and the paper's 30K context on CUDA (max_context 30,720, App. C.2); 128 and 256 tokens on the CPU."
    return [8192, 30720] if device == "cuda" else [128, 256]


def train_flops(arch, seq: int, batch: int = 1) -> float:
    """FLOPs of one training step on `batch` sequences of `seq` tokens with full activation recomputation: 8 * P * T
    for the matmuls (forward 2, backward 4, recompute 2) + 8 * L * T^2 * h for causal attention (forward 2 L T^2 h)."""
    P = arch.n_params - arch.embedding_params * (0 if arch.tied else 1)   # the embedding lookup costs no FLOPs
    return batch * (8 * P * seq + 8 * arch.layers * seq * seq * arch.hidden)


def build_model(arch, device: str, dtype="float32", checkpointing: bool = True, fused_head: bool = True):
    """A random-initialised Qwen2 of shapes `arch` made directly on `device` (no CPU copy), `dtype` weights, SDPA,
    non-reentrant gradient checkpointing, and (`fused_head`) TRL's fused LM head patched in (log-probs and entropy:
    what `GRPOTrainer` and `SFTTrainer` use)."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM
    from trl.trainer.utils import add_fused_lm_head
    cfg = Qwen2Config(vocab_size=arch.vocab, hidden_size=arch.hidden, intermediate_size=arch.intermediate,
                      num_hidden_layers=arch.layers, num_attention_heads=arch.heads, num_key_value_heads=arch.kv_heads,
                      tie_word_embeddings=arch.tied, max_position_embeddings=32768, attn_implementation="sdpa")
    torch.manual_seed(0)
    with torch.device(device):
        model = Qwen2ForCausalLM(cfg).to(getattr(torch, dtype))
    model.config.use_cache = False
    if checkpointing: model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if fused_head: add_fused_lm_head(model, temperature=1.0, outputs=("log_probs", "entropy"))
    return model


def _sync(device):
    import torch
    if device == "cuda": torch.cuda.synchronize()


def grpo_update(arch, seq: int, device: str, steps: int = 2, kind: str = "grpo", model=None) -> dict:
    """`steps` optimizer steps (the first a warm-up that also allocates AdamW's moments and the gradients, which stay
    allocated as between the micro-batches of an accumulated step) of one `seq`-token sequence,
    every position but the first scored: `kind` 'grpo' (the clipped-ratio token loss at ratio 1 with advantages +-1,
    entropy computed as GRPOTrainer logs it) or 'sft' (the mean negative log-likelihood). float32 weights under bf16
    autocast, gradient checkpointing, and the AdamW each trainer builds: 'grpo' the fused kernel (transformers'
    default `optim="adamw_torch_fused"`, which `star.rl_config` keeps), 'sft' the multi-tensor (foreach) one
    (`star.sft.sft_config`'s `optim="adamw_torch"`). Returns seconds of the last step, tokens/s, TFLOP/s, the loss
    and, on CUDA, `peak_bytes` (`max_memory_allocated` in the last step), `states_bytes` (weights + gradients + AdamW
    moments), `transient_bytes` (the forward/backward's peak - states, what `star.memory.step_transient` models),
    `predicted_transient_bytes` (`step_transient`, TRL's Triton head) and `optimizer_transient_bytes` (the optimizer
    step's peak - states: the foreach kernel's temporaries). Raises torch.OutOfMemoryError when it does not fit."""
    import torch
    from star.memory import step_transient
    own = model is None
    model = build_model(arch, device) if own else model
    model.train()
    fused = kind == "grpo"
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-6, weight_decay=0.01,
                            **(dict(fused=True) if fused else dict(foreach=device == "cuda")))
    g = torch.Generator(device="cpu").manual_seed(seq)
    ids = torch.randint(0, arch.vocab - 1000, (1, seq), generator=g).to(device)
    labels = ids.clone(); labels[:, 0] = -100
    signs = (torch.randint(0, 2, (1, seq), generator=g).float() * 2 - 1).to(device)   # advantages +-1 per token
    res = {}
    for i in range(steps):
        if device == "cuda": torch.cuda.reset_peak_memory_stats(); base = torch.cuda.memory_allocated()
        grads_held = all(p.grad is not None for p in model.parameters() if p.requires_grad)
        _sync(device); t0 = time.time()
        with torch.autocast(device, dtype=torch.bfloat16):
            out = model(input_ids=ids, attention_mask=torch.ones_like(ids), labels=labels, fused_lm_head=True)
        logp = out.log_probs
        if kind == "sft": loss = -logp.sum() / (seq - 1)
        else: loss = -(torch.exp(logp - logp.detach()) * signs[:, :logp.shape[1]]).sum() / (seq - 1)
        loss.backward()
        if device == "cuda": fwd_bwd = torch.cuda.max_memory_allocated(); torch.cuda.reset_peak_memory_stats()
        opt.step()
        if device == "cuda": opt_peak = torch.cuda.max_memory_allocated()
        opt.zero_grad(set_to_none=False)   # kept allocated, as between micro-batches: the next forward runs beside them
        _sync(device); secs = time.time() - t0
        res = dict(seconds=round(secs, 3), loss=loss.item(), tokens_per_s=round(seq / secs, 1),
                   tflops=round(train_flops(arch, seq) / secs / 1e12, 2))
        if device == "cuda":
            n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
            states = 4 * arch.n_params + 4 * n_train + 8 * n_train
            res.update(peak_bytes=max(fwd_bwd, opt_peak), before_step_bytes=base, states_bytes=states,
                       # above the weights, the moments (from the second step) and the gradients (allocated by the
                       # first backward, then kept): from the second step, above all the model states
                       transient_bytes=fwd_bwd - base - (0 if grads_held else 4 * n_train),
                       optimizer_transient_bytes=opt_peak - states,
                       optimizer="fused" if fused else "foreach")
    ph = step_transient(arch, seq, 1, seq - 1, a=4, c=2, checkpointing=True, triton=device == "cuda")
    res["predicted_transient_bytes"] = max(sum(v.values()) for v in ph.values())
    res["predicted_phase"] = max(ph, key=lambda k: sum(ph[k].values()))
    del opt
    if own: del model
    gc.collect()
    if device == "cuda": torch.cuda.empty_cache()
    return res


def rollout_group(model, device: str, group: int = 8, new_tokens: int = 64) -> dict:
    """HF-generate rollouts of one group (`group` samples of one real validation query, chat-templated as the agent
    prompts it) on the model being trained, as `star.rl` plays them without vLLM: seconds and tokens/s."""
    import torch
    from star.agent import HFPolicy, build_messages, render_chat
    from star.models import load_tokenizer
    from star.tasks import load_tasks
    tok = load_tokenizer("tiny")                      # the real Qwen2.5 tokenizer (packaged)
    prompt = tok.encode(render_chat(tok, build_messages(load_tasks("validation")[0])), add_special_tokens=False)
    model.eval(); model.config.use_cache = True
    pol = HFPolicy(model, tok, eos=[])               # no end-of-turn: every row runs its whole budget
    _sync(device); t0 = time.time()
    with torch.autocast(device, dtype=torch.bfloat16):
        gens = pol.generate([prompt] * group, new_tokens, temperature=1.0, top_p=1.0, stop=[])
    _sync(device); secs = time.time() - t0
    model.train(); model.config.use_cache = False
    n = sum(len(g.token_ids) for g in gens)
    return dict(seconds=round(secs, 2), tokens=n, tokens_per_s=round(n / secs, 1), group=group, prompt_tokens=len(prompt))


def plan_prediction(scale: str, seq: int, gpu_gb: float) -> dict:
    "`star.memory.plan` of a one-GPU GRPO run of `scale` at `seq` tokens without vLLM: its training phase, GiB."
    from star.memory import RUNTIME_GIB, plan
    from star.rl_config import resolve_config
    cfg = resolve_config(scale=scale, max_context=seq, use_vllm=False, dtype="bfloat16", batch_size=1, group_size=8,
                         per_device_batch=1, ppo_mini_batch_size=1)
    p = plan(cfg, n_gpus=1, gpu_gb=gpu_gb, zero_stage=0)
    return dict(summary=p.summary(), training_gib=p.phases["training"], step=p.step,
                training_without_runtime_gib=round(p.phases["training"] - RUNTIME_GIB, 2))


def run_steps(device: str, out: Path, deadline: float, log=print) -> dict:
    """Part (b): for each shape and sequence length, an SFT step and a GRPO step (after a group of HF-generate
    rollouts), each recorded as it ends; a case whose FLOP-based estimate would pass `deadline` is skipped, one that
    does not fit the card is recorded as out of memory."""
    import torch
    res = dict(cases=[])
    gpu_gb = torch.cuda.get_device_properties(0).total_memory / GIB if device == "cuda" else None
    for name, arch in shapes(device).items():
        for seq in seq_lengths(device):
            for kind in ("sft", "grpo"):
                est = 2 * train_flops(arch, seq) / (ASSUMED_TFLOPS[device] * 1e12) + (20 if device == "cuda" else 2)
                case = dict(shape=name, seq=seq, kind=kind, estimated_s=round(est, 1))
                if time.time() + est > deadline:
                    case["skipped"] = "the time budget would run out"; res["cases"].append(case); continue
                t0 = time.time()
                try:
                    model = build_model(arch, device)
                    if kind == "grpo": case["rollout"] = rollout_group(model, device, 8 if device == "cuda" else 2,
                                                                         64 if device == "cuda" else 8)
                    case.update(grpo_update(arch, seq, device, kind=kind, model=model))
                    del model
                    if device == "cuda":
                        case["predicted_total_bytes"] = case["states_bytes"] + case["predicted_transient_bytes"]
                        # the forward/backward's peak against the model of it (the optimizer's step is apart)
                        case["memory_error"] = round((case["states_bytes"] + case["transient_bytes"])
                                                     / case["predicted_total_bytes"] - 1, 3)
                        case["fraction_of_peak"] = round(case["tflops"] / 800.0, 3)
                        if kind == "grpo" and name in ("1.5B", "3B"):
                            case["plan"] = plan_prediction(name, seq, gpu_gb)
                except Exception as e:   # out of memory included: record it, free the card, go on
                    oom = type(e).__name__ == "OutOfMemoryError"
                    case["error"] = "out of memory" if oom else f"{type(e).__name__}: {e}"
                    if not oom: case["traceback"] = traceback.format_exc()[-2000:]
                    model = None
                gc.collect()
                if device == "cuda": torch.cuda.empty_cache()
                case["wall_s"] = round(time.time() - t0, 1)
                res["cases"].append(case)
                log(_case_line(case))
                write(out, "gpu_steps.json", res)
    return res


def _case_line(c: dict) -> str:
    if "skipped" in c: return f"  {c['shape']:>5} {c['kind']:>4} {c['seq']:>6} tok: skipped ({c['skipped']})"
    if "error" in c: return f"  {c['shape']:>5} {c['kind']:>4} {c['seq']:>6} tok: {c['error']}"
    mem = (f", forward/backward {(c['states_bytes'] + c['transient_bytes']) / GIB:.1f} GiB vs predicted "
           f"{c['predicted_total_bytes'] / GIB:.1f} ({100 * c['memory_error']:+.0f} %), {c['optimizer']} AdamW step "
           f"{(c['states_bytes'] + c['optimizer_transient_bytes']) / GIB:.1f} GiB") if "peak_bytes" in c else ""
    roll = f", rollouts {c['rollout']['tokens_per_s']:.0f} tok/s" if "rollout" in c else ""
    return (f"  {c['shape']:>5} {c['kind']:>4} {c['seq']:>6} tok: {c['seconds']:.2f} s/step, {c['tokens_per_s']:.0f} "
            f"tok/s, {c['tflops']:.1f} TFLOP/s{mem}{roll}")


# ------------------------------------------------------------------------------------------ (c) generation
def run_generate(device: str, out: Path, log=print) -> dict:
    """Part (c): tokens/s of batched HF `generate` through `star.agent.HFPolicy` on the 1.5B shape (bf16 weights) at
    batch 8 and 32, 512-token prompts (distinct: no shared-prefix cache), 128 new tokens each (no end-of-turn)."""
    import torch
    arch = shapes(device)["1.5B" if device == "cuda" else "tiny"]
    model = build_model(arch, device, dtype="bfloat16", checkpointing=False)
    model.eval(); model.config.use_cache = True
    from star.agent import HFPolicy
    from star.models import load_tokenizer
    pol = HFPolicy(model, load_tokenizer("tiny"), eos=[], prefix_cache=False)
    P, new = (512, 128) if device == "cuda" else (64, 8)
    g = torch.Generator().manual_seed(0)
    res = dict(shape="1.5B" if device == "cuda" else "tiny", prompt_tokens=P, new_tokens=new, batches=[])
    pol.generate([[1, 2, 3, 4]], 4, stop=[])                               # warm-up
    for b in (8, 32) if device == "cuda" else (2, 4):
        prompts = torch.randint(0, arch.vocab - 1000, (b, P), generator=g).tolist()
        _sync(device); t0 = time.time()
        gens = pol.generate(prompts, new, temperature=1.0, top_p=1.0, stop=[])
        _sync(device); secs = time.time() - t0
        n = sum(len(x.token_ids) for x in gens)
        row = dict(batch=b, seconds=round(secs, 2), tokens=n, tokens_per_s=round(n / secs, 1),
                   ms_per_decode_step=round(1000 * secs / new, 2))
        res["batches"].append(row)
        log(f"  generate batch {b:>2}: {row['tokens_per_s']:.0f} tok/s ({row['ms_per_decode_step']:.1f} ms per decode step)")
        write(out, "gpu_generate.json", res)
    del model, pol
    gc.collect()
    if device == "cuda": torch.cuda.empty_cache()
    return res


# ------------------------------------------------------------------------------------------ main
def summary_table(info: dict, parts: dict) -> str:
    "The lines this script prints at the end (also stored in gpu_check.json)."
    lines = [f"device: {info.get('gpu') or info.get('cpu')} | torch {info['torch']} | transformers {info['transformers']}"
             f" | trl {info['trl']}"]
    c = parts.get("collect")
    if isinstance(c, dict):
        lines.append(f"(a) pytest -m gpu --collect-only: {len(c['collected'])} tests; {len(c['gpu_cells'])} gpu cells "
                     f"compiled, {c['failed']} failed")
    cl = parts.get("cells")
    if isinstance(cl, dict):
        lines.append(f"(a) the chapters' gpu cells: {cl['passed']} passed, {cl['failed']} failed")
        lines += [f"    FAILED {x['notebook']} cell {x['cell']}: {x['message']}" for x in cl["cells"] if x["outcome"] == "failed"]
    t = parts.get("tests")
    if isinstance(t, dict) and "passed" in t:
        lines.append(f"(a) pytest -m gpu: {t['passed']} passed, {t['failed']} failed, {t['skipped']} skipped in {t['seconds']} s")
        lines += [f"    FAILED {x['name']}: {x['message']}" for x in t["tests"] if x["outcome"] == "failed"]
    s = parts.get("steps")
    if isinstance(s, dict):
        lines.append("(b) training steps:")
        lines += [_case_line(c) for c in s["cases"]]
    gen = parts.get("generate")
    if isinstance(gen, dict):
        lines.append(f"(c) HF generate, {gen['shape']} shape:")
        lines += [f"  batch {r['batch']:>2}: {r['tokens_per_s']:.0f} tok/s" for r in gen["batches"]]
    for k, v in parts.items():
        if isinstance(v, str): lines.append(f"({k}) {v}")
    return "\n".join(lines)


def part_status(name: str, v) -> str:
    """'ok', or why not: a part that raised (its message), failing or uncollected tests, a training case that failed
    other than by running out of memory (which is a measurement: the card's limit)."""
    if isinstance(v, str): return v
    if name == "cells" and (v.get("failed") or not v.get("cells")): return f"cells: {v.get('failed')} failed"
    if name in ("tests", "collect") and (v.get("returncode") or v.get("failed") or not (v.get("tests") or v.get("collected"))):
        return f"{name}: {v.get('failed', 0)} failed, return code {v.get('returncode')}"
    bad = [c for c in v.get("cases", []) if c.get("error") not in (None, "out of memory")]
    return f"steps: {len(bad)} case(s) failed: {bad[0]['error']}" if bad else "ok"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", choices=("cuda", "cpu"), default=None, help="default: cuda where visible, else cpu")
    ap.add_argument("--out", type=Path, default=None, help="default: $OUT (the device tool), else runs/gpu_check")
    ap.add_argument("--parts", default=None, help="comma-separated subset of tests,cells,collect,steps,generate "
                    "(default: tests,cells,steps,generate on CUDA; collect,steps,generate on the CPU, where "
                    "tests/test_gpu_check.py runs the GPU tests themselves)")
    ap.add_argument("--budget-s", type=float, default=420.0, help="wall-clock budget; cases that would pass it are skipped")
    a = ap.parse_args(argv)
    t0 = time.time()
    wheels = install_wheels()
    import torch
    device = a.device or ("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cuda" and not torch.cuda.is_available(): ap.error("--device cuda: no CUDA device is visible")
    out = a.out or Path(os.environ.get("OUT") or ROOT / "runs" / "gpu_check")
    info = dict(machine(device), wheels=wheels)
    default = "tests,cells,steps,generate" if device == "cuda" else "collect,steps,generate"
    parts, want = {}, [p.strip() for p in (a.parts or default).split(",") if p.strip()]
    write(out, "gpu_check.json", dict(info, parts={}))
    deadline = t0 + a.budget_s
    print(f"gpu_check on {info.get('gpu') or info.get('cpu')} ({device}); writing to {out}", flush=True)
    runners = dict(tests=lambda: run_gpu_tests(device, out, timeout=int(max(60, min(300, deadline - time.time())))),
                   collect=lambda: collect_gpu_tests(out),
                   cells=lambda: run_gpu_cells(device),
                   steps=lambda: run_steps(device, out, deadline - 60 if device == "cuda" else deadline),
                   generate=lambda: run_generate(device, out))
    for name in want:
        print(f"== {name}", flush=True)
        t = time.time()
        try:
            parts[name] = runners[name]()
            if name in ("tests", "collect", "cells"): write(out, f"gpu_{name}.json", parts[name])
        except Exception as e:
            parts[name] = f"{name} failed: {type(e).__name__}: {e}"
            print(traceback.format_exc(), flush=True)
        print(f"   {name}: {time.time() - t:.1f} s", flush=True)
    table = summary_table(info, parts)
    status = {k: part_status(k, v) for k, v in parts.items()}
    write(out, "gpu_check.json", dict(info, parts=status, seconds=round(time.time() - t0, 1), summary=table.splitlines()))
    print(table, flush=True)
    print(f"gpu_check: {time.time() - t0:.0f} s", flush=True)
    return int(any(v != "ok" for v in status.values()))


if __name__ == "__main__": sys.exit(main())
