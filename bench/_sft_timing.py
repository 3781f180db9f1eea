"""Shared by bench/dtype.py and bench/sft_step.py: time each optimizer step of one `star.sft.train_sft` run."""
import json, time
from pathlib import Path


def timed_sft(model: str, dataset, out, steps: int, dtype: str) -> dict:
    """Run `train_sft` for `steps` steps (batch 1, no saves) with a wall clock around every optimizer step. Returns
    {'step_seconds' (each step, s), 'seconds_per_step' (mean without the first, warm-up step when there are several),
    'log' (the run's sft_log.json)}."""
    import star.sft as S
    from transformers import Trainer, TrainerCallback
    step_t = []
    class Clock(TrainerCallback):
        def on_step_begin(self, *a, **k): self.t = time.perf_counter()
        def on_step_end(self, *a, **k): step_t.append(time.perf_counter() - self.t)
    orig_init = Trainer.__init__
    def init(self, *a, **k):
        orig_init(self, *a, **k); self.add_callback(Clock())
    Trainer.__init__ = init
    try:
        S.train_sft(model, dataset, out, resume=False, row_steps=0, max_steps=steps, batch_size=1, save_strategy="no",
                    logging_steps=1, dtype=dtype)
    finally: Trainer.__init__ = orig_init
    timed = step_t[1:] if len(step_t) > 1 else step_t
    return dict(step_seconds=[round(t, 2) for t in step_t], seconds_per_step=round(sum(timed) / len(timed), 2),
                log=json.loads((Path(out) / "sft_log.json").read_text()))
