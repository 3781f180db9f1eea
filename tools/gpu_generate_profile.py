"""Where HF `generate`'s time goes on a GPU: the no-vLLM rollout path (`star.agent.HFPolicy`) against plain
`model.generate` (greedy and sampling), on the 1.5B shape (random-initialised, bf16, KV cache), with and without TRL's
fused LM head patched in, plus a `torch.profiler` table of 8 decode steps of `HFPolicy`. Written after the GPU check's
part (c) measured ~112 ms per decode step at both batch sizes.

    python3 tools/gpu_generate_profile.py      # on the GPU machine: carry=["tools/gpu_wheels"], ~1 min; writes $OUT
    python tools/gpu_generate_profile.py       # here: the tiny shape on the CPU (the same code, seconds)

Writes `gen_times.json` (seconds for 32 new tokens after 512-token prompts, batch 8; CPU: 8 tokens, 64, batch 2) and
`prof.txt` (the profiler table, by CPU time) to `$OUT` (default /tmp). Record of the first run:
`results/gpu/h100_2026-11-27/gpu_generate_profile.json`.
"""
import os, sys, time, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_check as g
g.install_wheels()
import torch
dev = "cuda" if torch.cuda.is_available() else "cpu"
arch = g.shapes(dev)["1.5B" if dev == "cuda" else "tiny"]
from star.agent import HFPolicy
from star.models import load_tokenizer
tok = load_tokenizer("tiny")
def timed(f):
    g._sync(dev); t = time.time(); f(); g._sync(dev); return round(time.time() - t, 3)
N, B, P = (32, 8, 512) if dev == "cuda" else (8, 2, 64)
prompts = torch.randint(0, arch.vocab - 1000, (B, P), generator=torch.Generator().manual_seed(0)).tolist()
ids = torch.tensor(prompts, device=dev)
res = {}
for fused in (True, False):
    model = g.build_model(arch, dev, dtype="bfloat16", checkpointing=False, fused_head=fused)
    model.eval(); model.config.use_cache = True
    pol = HFPolicy(model, tok, eos=[], prefix_cache=False)
    pol.generate([[1, 2, 3, 4]], 4, stop=[])
    kw = dict(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=N, min_new_tokens=N, pad_token_id=0)
    with torch.no_grad():
        model.generate(**kw, do_sample=False)
        res[f"fused={fused} plain_greedy"] = timed(lambda: model.generate(**kw, do_sample=False))
        res[f"fused={fused} plain_sample"] = timed(lambda: model.generate(**kw, do_sample=True, top_k=0, top_p=1.0))
    res[f"fused={fused} hfpolicy"] = timed(lambda: pol.generate(prompts, N, temperature=1.0, stop=[]))
    print({k: f"{v} s = {1000 * v / N:.1f} ms/step" for k, v in res.items()}, flush=True)
    if fused:
        acts = [torch.profiler.ProfilerActivity.CPU] + ([torch.profiler.ProfilerActivity.CUDA] if dev == "cuda" else [])
        with torch.profiler.profile(activities=acts) as prof: pol.generate(prompts, 8, temperature=1.0, stop=[])
        t = prof.key_averages().table(sort_by="cpu_time_total", row_limit=30)
        print(t[:9000])
        out = os.environ.get("OUT")
        if out: open(os.path.join(out, "prof.txt"), "w").write(t)
    del model, pol
json.dump(res, open(os.path.join(os.environ.get("OUT", "/tmp"), "gen_times.json"), "w"), indent=1)
