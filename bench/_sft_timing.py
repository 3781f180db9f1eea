"""Shared by bench/dtype.py, bench/sft_step.py and bench/grpo_step.py: time each optimizer step of a Trainer, count the
useful floating-point work of a training step, and measure this CPU's bf16 matmul peak at the model's linear shapes."""
import json, time
from pathlib import Path


def step_clock():
    "(callback, times): a `transformers.TrainerCallback` appending each optimizer step's wall time (s) to `times`."
    from transformers import TrainerCallback
    times = []
    class Clock(TrainerCallback):
        def on_step_begin(self, *a, **k): self.t = time.perf_counter()
        def on_step_end(self, *a, **k): times.append(time.perf_counter() - self.t)
    return Clock(), times


def mean_steady(times: list) -> float:
    "Mean seconds per step without the first (the allocator's and caches' warm-up) when there are several."
    timed = times[1:] if len(times) > 1 else times
    return round(sum(timed) / len(timed), 2)


def timed_sft(model: str, dataset, out, steps: int, dtype: str, **kw) -> dict:
    """Run `star.sft.train_sft` for `steps` steps (batch 1, no saves; `kw` to train_sft, e.g. `model=`, `lora=`,
    `gradient_checkpointing=`) with a wall clock around every optimizer step. Returns {'step_seconds' (each step, s),
    'seconds_per_step' (`mean_steady`), 'log' (the run's sft_log.json)}."""
    import star.sft as S
    from transformers import Trainer
    clock, step_t = step_clock()
    orig_init = Trainer.__init__
    def init(self, *a, **k):
        orig_init(self, *a, **k); self.add_callback(clock)
    Trainer.__init__ = init
    try:
        S.train_sft(model, dataset, out, resume=False, row_steps=0, max_steps=steps, batch_size=1, save_strategy="no",
                    logging_steps=1, dtype=dtype, **kw)
    finally: Trainer.__init__ = orig_init
    return dict(step_seconds=[round(t, 2) for t in step_t], seconds_per_step=mean_steady(step_t),
                log=json.loads((Path(out) / "sft_log.json").read_text()))


def train_flops(arch, seqs, scored, lora: bool = True) -> float:
    """Useful floating-point operations of one training step over sequences of lengths `seqs` with `scored` positions
    scored by the LM head in all (a `star.memory.Arch`): linear layers 2 (forward) + 2 (input gradient) flops per
    weight per token, + 2 more (weight gradient) without LoRA; causal attention 2 T^2 d forward and twice that
    backward per layer (half of the full T x T product is masked); the LM head forward and input gradient on the
    scored positions (+ its weight gradient without LoRA). LoRA's own adapters (r << d) and element-wise work are not
    counted: the number is what the model's matmuls must do, whatever an implementation adds."""
    k = 4 if lora else 6
    lin = arch.linear_params
    tokens = sum(seqs)
    attn = sum(6 * T * T * arch.heads * (arch.hidden // arch.heads) for T in seqs) * arch.layers
    head = k * scored * arch.vocab * arch.hidden
    return k * lin * arch.layers * tokens + attn + head


def linear_peak_gflops(arch, tokens: int = 2048, dtype: str = "bfloat16", repeat: int = 5) -> float:
    """This CPU's throughput (GFLOP/s) on the model's linear layers: `torch.nn.functional.linear` of `tokens` x hidden
    activations through each of q, k, v, o, gate, up, down at the model's shapes in `dtype`, best of `repeat` timed
    passes after a warm-up, with torch's current threads -- the peak a training step's matmuls can reach here."""
    import torch
    dt = getattr(torch, dtype)
    h, I, kv = arch.hidden, arch.intermediate, arch.kv_dim
    shapes = [(h, h), (kv, h), (kv, h), (h, h), (I, h), (I, h), (h, I)]   # (out, in) of q k v o gate up down
    g = torch.Generator().manual_seed(0)
    ws = [torch.randn(o, i, generator=g).to(dt) for o, i in shapes]
    xs = {i: torch.randn(tokens, i, generator=g).to(dt) for i in {i for _, i in shapes}}
    flops = sum(2 * tokens * o * i for o, i in shapes)
    def once():
        for (o, i), w in zip(shapes, ws): torch.nn.functional.linear(xs[i], w)
    once()
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter(); once(); best = min(best, time.perf_counter() - t)
    return flops / best / 1e9
