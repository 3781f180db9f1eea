"""The batched multi-turn rollout engine (star.agent: Rollout, HFPolicy, ScriptedPolicy, rollout_batch) on real
tasks: oracle trajectories of `star.teacher.solve` replayed token by token through the engine (real tool calls on
the real sandbox) and the random `tiny` model with the real Qwen2.5 tokenizer and chat template."""
import importlib.util, math

import pytest
import torch

from star.agent import (STOP, Generation, HFPolicy, Policy, Rollout, ScriptedPolicy, VLLMPolicy, answer_text,
                        build_messages, cut_at_stop, eos_ids, parse_turn, render_chat, rollout_batch, tool_call_text)
from star.models import load_model, load_tokenizer
from star.sandbox import Sandbox, failure_message
from star.tasks import load_tasks
from star.teacher import solve


@pytest.fixture(scope="module")
def tok(): return load_tokenizer("tiny")

@pytest.fixture(scope="module")
def sb(): return Sandbox()

@pytest.fixture(scope="module")
def train(): return load_tasks("train")

@pytest.fixture(scope="module")
def val(): return load_tasks("validation")

@pytest.fixture(scope="module")
def oracle(sb, train): return [solve(t, sb, plan=t.annotated_plan) for t in train[:3]]

@pytest.fixture(scope="module")
def hf(tok): return HFPolicy(load_model("tiny"), tok)

@pytest.fixture(scope="module")
def replay(tok, sb, train, oracle):
    pol = ScriptedPolicy(tok, oracle)
    return pol, rollout_batch(pol, tok, train[:3], group_size=2, sandbox=sb)


def ids(tok, text): return tok.encode(text, add_special_tokens=False)

def template_ids(tok, ro, generation_prompt=False):
    return ids(tok, tok.apply_chat_template(ro.messages, tokenize=False, add_generation_prompt=generation_prompt))

def check_alignment(ro):
    n = len(ro.completion_ids)
    assert len(ro.env_mask) == len(ro.logprobs) == len(ro.entropies) == n
    assert ro.turn_spans[0][0] == 0 and ro.turn_spans[-1][1] == n
    for (s, e, kind), nxt in zip(ro.turn_spans, ro.turn_spans[1:] + [(n, n, None)]):
        assert e == nxt[0] and kind != nxt[2]   # contiguous, alternating
        assert set(ro.env_mask[s:e]) == {int(kind == "policy")}


# ---------------------------------------------------------------- replaying oracle trajectories
def test_replay_reproduces_the_oracle_chat(replay, oracle):
    pol, ros = replay
    assert [(r.meta["group"], r.meta["sample"]) for r in ros] == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    for r in ros:
        o = oracle[r.meta["group"]]
        assert r.messages == o.messages
        assert (r.termination, r.answer, r.format_error, r.truncated) == ("answer", o.answer, False, False)
        assert r.n_tool_calls == o.n_tool_calls == len(r.meta["tool_calls"])
        assert [c["name"] for c in r.meta["tool_calls"]] == [t.tool_name for t in o.turns[:-1]]


def test_tokens_are_the_chat_template(replay, tok):
    for r in replay[1]:
        check_alignment(r)
        full = template_ids(tok, r)
        # the template closes the final reply with <|im_end|>\n; the policy stopped at </answer>
        assert full == r.prompt_ids + r.completion_ids + ids(tok, "<|im_end|>\n")
        assert r.prompt_ids == ids(tok, render_chat(tok, build_messages(r.task)))


def test_env_mask_is_one_exactly_on_sampled_tokens(replay, tok):
    r = replay[1][0]
    policy_spans = [(s, e) for s, e, k in r.turn_spans if k == "policy"]
    assistant = [m["content"] for m in r.messages if m["role"] == "assistant"]
    assert [tok.decode(r.completion_ids[s:e]) for s, e in policy_spans] == assistant
    assert [r.completion_ids[s:e] for s, e in policy_spans] == [ids(tok, a) for a in assistant]  # the script's ids
    env = tok.decode([t for t, m in zip(r.completion_ids, r.env_mask) if m == 0])
    obs = [m["content"] for m in r.messages[3::2]]
    assert all(o.startswith("<tool_response>\n") for o in obs)
    assert env == "".join(f"<|im_end|>\n<|im_start|>user\n{o}<|im_end|>\n<|im_start|>assistant\n" for o in obs)
    assert sum(r.env_mask) == sum(e - s for s, e in policy_spans) == r.n_policy_tokens


def test_one_generate_call_per_turn(replay, oracle):
    pol, ros = replay
    turns = [len(o.turns) for o in oracle]
    assert pol.n_calls == max(turns)
    assert pol.calls == [2 * sum(t > k for t in turns) for k in range(max(turns))]  # active trajectories per turn


def test_end_of_turn_token_is_a_policy_token(tok, sb, train, oracle):
    pol = ScriptedPolicy(tok, oracle[:1], eos=True)
    r = rollout_batch(pol, tok, train[:1], sandbox=sb, stop=[])[0]      # no stop strings: replies end with <|im_end|>
    assert r.messages == oracle[0].messages and r.termination == "answer"
    im_end = tok.convert_tokens_to_ids("<|im_end|>")
    for s, e, k in r.turn_spans:
        if k == "policy": assert r.completion_ids[e - 1] == im_end and r.env_mask[e - 1] == 1
        else: assert tok.decode(r.completion_ids[s:e]).startswith("\n<|im_start|>user\n<tool_response>")
    assert template_ids(tok, r) == r.prompt_ids + r.completion_ids + ids(tok, "\n")


# ---------------------------------------------------------------- terminations
def test_tool_budget(tok, sb, train, oracle):
    r = rollout_batch(ScriptedPolicy(tok, oracle[:1]), tok, train[:1], sandbox=sb, max_turns=3)[0]
    assert (r.termination, r.n_tool_calls, r.answer, r.truncated) == ("tool_budget", 3, None, False)
    assert r.messages == oracle[0].messages[:2 + 2 * 3]      # the last observation is kept
    assert r.turn_spans[-1][2] == "env"


def test_policy_turn_limit_counts_replies_without_tools(tok, sb, train):
    q = train[0].query
    think = "<think>\nLet me think.\n</think>"
    call = tool_call_text("Cities first.", "SearchCity", {"state": "Texas"})
    pol = ScriptedPolicy(tok, {q: [think, call, think, call, call]})
    r = rollout_batch(pol, tok, train[:1], sandbox=sb, max_turns=10, max_policy_turns=4, max_no_action=None)[0]
    assert (r.termination, r.n_tool_calls, len(r.turns)) == ("max_turns", 2, 4)
    assert [m["role"] for m in r.messages[2:]] == ["assistant", "assistant", "user", "assistant", "assistant", "user"]
    assert r.format_error
    # two replies in a row re-prompt exactly as the chat template renders consecutive assistant messages
    assert template_ids(tok, r, generation_prompt=True) == r.prompt_ids + r.completion_ids


def test_no_action_streak(tok, sb, train):
    q = train[0].query
    think = "<think>\nHmm.\n</think>"
    call = tool_call_text("Cities first.", "SearchCity", {"state": "Texas"})
    pol = ScriptedPolicy(tok, {q: [think, think, call, think, think, think, call]})
    r = rollout_batch(pol, tok, train[:1], sandbox=sb, max_no_action=3)[0]
    assert (r.termination, len(r.turns), r.n_tool_calls) == ("no_action", 6, 1)   # the streak resets on a call
    assert [t["action"] for t in r.turns] == ["none", "none", "tool_call", "none", "none", "none"]


def test_context_limit(tok, sb, train, oracle, replay):
    full = replay[1][0]
    for extra in (300, 600, 1500):   # cut inside a reply or at an observation that does not fit
        limit = len(full.prompt_ids) + extra
        r = rollout_batch(ScriptedPolicy(tok, oracle[:1]), tok, train[:1], sandbox=sb, max_context=limit)[0]
        assert (r.termination, r.truncated, r.answer) == ("context_limit", True, None)
        assert len(r.prompt_ids) + len(r.completion_ids) <= limit
        assert r.completion_ids == full.completion_ids[:len(r.completion_ids)]
        check_alignment(r)


def test_format_errors(tok, sb, train):
    q = train[0].query
    bad = '<tool_call>\n{"name": "SearchCity", "arguments": {"state": "Texas"}}\n</tool_call>'   # no <think>
    good = answer_text("Done.", "Day 1: ...")
    pol = ScriptedPolicy(tok, {q: [bad, good]})
    r = rollout_batch(pol, tok, train[:1], sandbox=sb)[0]
    assert (r.termination, r.format_error, r.n_tool_calls, r.answer) == ("answer", True, 1, "Day 1: ...")
    assert r.turns[0]["errors"] == parse_turn(bad).errors and r.turns[1]["well_formed"]
    r = rollout_batch(pol, tok, train[:1], sandbox=sb, stop_on_format_error=True)[0]
    assert (r.termination, r.format_error, r.n_tool_calls, len(r.turns)) == ("format_error", True, 0, 1)
    ok = rollout_batch(ScriptedPolicy(tok, {q: [good]}), tok, train[:1], sandbox=sb)[0]
    assert (ok.termination, ok.format_error) == ("answer", False)


def test_failure_injection(tok, train, oracle, sb):
    r = rollout_batch(ScriptedPolicy(tok, oracle[:1]), tok, train[:1], sandbox=Sandbox(sb.db, failure_rate=1.0, seed=0))[0]
    obs = [m["content"] for m in r.messages[3::2]]
    assert obs == [failure_message(t.tool_name) for t in oracle[0].turns[:-1]]
    assert obs[0].startswith("<tool_response> Error: Current tool ") and obs[0].endswith(" is not available. </tool_response>")
    assert all(c["failed"] for c in r.meta["tool_calls"])
    half = Sandbox(sb.db, failure_rate=0.5, seed=3)
    rs = rollout_batch(ScriptedPolicy(tok, oracle), tok, train[:3], group_size=2, sandbox=half)
    n_failed = sum(c["failed"] for r in rs for c in r.meta["tool_calls"])
    assert n_failed == half.n_failures and 0 < n_failed < half.n_calls


# ---------------------------------------------------------------- branching
def test_prefix_continuation(tok, sb, train, oracle, replay):
    full = replay[1][2]
    pre = full.prefix(3)
    assert (pre.termination, pre.n_tool_calls, len(pre.turns)) == ("partial", 3, 3)
    assert pre.completion_ids == full.completion_ids[:pre.turn_spans[-1][1]]
    assert pre.messages == full.messages[:2 + 2 * 3]
    pol = ScriptedPolicy(tok, oracle)
    out = rollout_batch(pol, tok, prefixes=[pre, full.prefix(1)], group_size=3, sandbox=sb)
    assert len(out) == 6 and pol.calls[0] == 6
    for r in out:
        assert r.completion_ids == full.completion_ids and r.messages == full.messages
        assert r.env_mask == full.env_mask and r.termination == "answer" and r.n_tool_calls == full.n_tool_calls
    assert [r.meta["branched_at"] for r in out] == [3, 3, 3, 1, 1, 1]
    with pytest.raises(ValueError): full.prefix(len(full.turns))     # the final answer has no env reply
    with pytest.raises(ValueError): rollout_batch(pol, tok, train[:1], prefixes=[pre])
    with pytest.raises(ValueError): rollout_batch(pol, tok, prefixes=[full])   # a finished rollout


# ---------------------------------------------------------------- the tiny model through HF generate
def test_hf_policy_batch(hf, tok, val):
    assert isinstance(hf, Policy)
    p = ids(tok, render_chat(tok, build_messages(val[0])))
    torch.manual_seed(0)
    g = hf.generate([p, p[:-50], p[:-7]], [9, 4, 1], temperature=1.0, top_p=1.0, stop=STOP)
    assert [len(x.token_ids) for x in g] == [9, 4, 1] and all(isinstance(x, Generation) for x in g)
    assert all(x.finish_reason == "length" for x in g)
    # left padding does not change a row: its log-probs are those of the unpadded sequence
    short = p[:-50] + g[1].token_ids
    with torch.no_grad(): logp = hf.model(torch.tensor([short])).logits[0, len(p) - 51:-1].log_softmax(-1)
    ref = logp.gather(1, torch.tensor(g[1].token_ids)[:, None]).squeeze(1)
    assert torch.allclose(ref, torch.tensor(g[1].logprobs), atol=1e-4)


def test_hf_logprobs_are_the_sampling_distribution(hf, tok, val):
    p = ids(tok, render_chat(tok, build_messages(val[1])))
    for temperature, top_p in ((1.0, 1.0), (0.6, 0.95)):
        torch.manual_seed(1)
        g = hf.generate([p], 8, temperature, top_p, STOP)[0]
        with torch.no_grad(): logits = hf.model(torch.tensor([p + g.token_ids])).logits[0, len(p) - 1:-1] / temperature
        srt, idx = logits.sort(-1, descending=True)
        pr = srt.softmax(-1)
        kept = torch.full_like(logits, float("-inf")).scatter(1, idx, srt.masked_fill((pr.cumsum(-1) - pr) >= top_p, float("-inf")))
        logp = kept.log_softmax(-1)
        ref = logp.gather(1, torch.tensor(g.token_ids)[:, None]).squeeze(1)
        assert torch.allclose(ref, torch.tensor(g.logprobs), atol=1e-4)
        ent = torch.special.entr(logp.exp()).sum(-1)
        assert torch.allclose(ent, torch.tensor(g.entropies), atol=1e-3)
    torch.manual_seed(2)
    greedy = hf.generate([p], 5, 0.0, 1.0, STOP)[0]
    with torch.no_grad(): lg = hf.model(torch.tensor([p + greedy.token_ids])).logits[0, len(p) - 1:-1]
    assert greedy.token_ids == lg.argmax(-1).tolist()


def test_prefix_cache_is_exact(hf, tok, val):
    plain, cached = HFPolicy(hf.model, tok, prefix_cache=False), HFPolicy(hf.model, tok)
    prompts = [ids(tok, render_chat(tok, build_messages(v))) for v in (val[0], val[1], val[0])]
    shared = next(i for i, (x, y) in enumerate(zip(prompts[0], prompts[1])) if x != y)   # system prompt + "user\n"
    ga, gb = (pol.generate(prompts, 6, 0.0, 1.0, STOP) for pol in (plain, cached))
    assert cached.n_prefix_tokens == shared > 1000 and plain.n_prefix_tokens == 0
    for a, b in zip(ga, gb):
        assert a.token_ids == b.token_ids
        assert max(abs(x - y) for x, y in zip(a.logprobs, b.logprobs)) < 1e-4
    # a later call that extends the cached prefix only runs the model on the new part
    cached.generate([prompts[0] + ga[0].token_ids], 2, 0.0, 1.0, STOP)
    assert cached.n_prefix_tokens == len(prompts[0]) + len(ga[0].token_ids) - 1


def test_tiny_rollouts(hf, tok, val, sb):
    n0 = hf.n_calls
    rs = rollout_batch(hf, tok, val[:2], group_size=3, sandbox=sb, max_new_tokens_per_turn=5, max_no_action=2, seed=0)
    assert hf.n_calls - n0 == max(len(r.turns) for r in rs) == 2     # one batched call per turn
    assert [r.meta["group"] for r in rs] == [0, 0, 0, 1, 1, 1]
    assert rs[0].prompt_ids == rs[1].prompt_ids == rs[2].prompt_ids != rs[3].prompt_ids
    assert rs[0].completion_ids != rs[1].completion_ids                 # samples of a group differ
    for r in rs:
        check_alignment(r)
        assert (r.termination, r.format_error) == ("no_action", True)
        assert all(math.isfinite(l) and l <= 0 for l, m in zip(r.logprobs, r.env_mask) if m)
        assert all(e > 0 for e, m in zip(r.entropies, r.env_mask) if m)
        assert all(l == e == 0.0 for l, e, m in zip(r.logprobs, r.entropies, r.env_mask) if not m)
        assert tok.decode(r.prompt_ids + r.completion_ids) == tok.apply_chat_template(r.messages, tokenize=False,
                                                                                      add_generation_prompt=True)
        assert r.meta["timing"]["generate_s"] > 0 and r.meta["batch"]["n_generate_calls"] == 2
    again = rollout_batch(hf, tok, val[:2], group_size=3, sandbox=sb, max_new_tokens_per_turn=5, max_no_action=2, seed=0)
    assert [r.completion_ids for r in again] == [r.completion_ids for r in rs]   # seeded


def test_tiny_context_limit(hf, tok, val, sb):
    p = len(ids(tok, render_chat(tok, build_messages(val[0]))))
    rs = rollout_batch(hf, tok, val[:1], group_size=2, sandbox=sb, max_context=p + 7, max_new_tokens_per_turn=5,
                       max_no_action=None)
    for r in rs:
        assert (r.termination, r.truncated) == ("context_limit", True)
        assert len(r.prompt_ids) + len(r.completion_ids) <= p + 7
        check_alignment(r)


# ---------------------------------------------------------------- helpers and backends
def test_cut_at_stop(tok):
    eos = eos_ids(tok)
    assert tok.convert_ids_to_tokens(eos) == ["<|im_end|>", "<|endoftext|>"]
    ans = answer_text("ok", "Day 1: x")
    t = ids(tok, ans + " trailing")
    n, why = cut_at_stop(t, tok, STOP, eos, 10_000)
    assert why == "stop" and tok.decode(t[:n]).rstrip() == ans
    assert cut_at_stop(t, tok, [], eos, 10_000) == (len(t), "length")
    assert cut_at_stop(t, tok, STOP, eos, 3) == (3, "length")


@pytest.mark.skipif(importlib.util.find_spec("vllm") is not None, reason="vllm is installed")
def test_vllm_policy_needs_vllm(tok):
    with pytest.raises(ImportError, match="VLLMPolicy needs vLLM"): VLLMPolicy(object(), tok)


def test_rollout_batch_arguments(tok, sb, train, oracle):
    pol = ScriptedPolicy(tok, oracle[:1])
    with pytest.raises(ValueError): rollout_batch(pol, tok, None)
    with pytest.raises(ValueError): rollout_batch(pol, tok, train[:1], group_size=0)
    with pytest.raises(KeyError): rollout_batch(pol, tok, train[1:2], sandbox=sb)   # no script for that query


def test_empty_turn_keeps_the_transcript_exact(tok, sb, train):
    "A policy that ends its turn at once (empty content: Qwen2.5's template then drops the newline after `assistant`)."
    q = train[0].query
    call = tool_call_text("Cities first.", "SearchCity", {"state": "Texas"})
    pol = ScriptedPolicy(tok, {q: ["", call, answer_text("Done.", "no plan")]}, eos=True)
    r = rollout_batch(pol, tok, train[:1], sandbox=sb, max_no_action=None)[0]
    assert (r.termination, r.n_tool_calls, r.messages[2]["content"]) == ("answer", 1, "")
    text = tok.decode(r.prompt_ids + r.completion_ids)
    # what the policy saw: the generation prompt, its end-of-turn token, then the next generation prompt
    assert "<|im_start|>assistant\n<|im_end|>\n<|im_start|>assistant\n<think>" in text
    assert text.endswith("<|im_start|>assistant\n" + r.messages[-1]["content"])  # cut at the `</answer>` stop string
    assert [sum(r.env_mask[s:e]) == e - s for s, e, k in r.turn_spans if k == "policy"] == [True] * 3
    assert r.messages[4]["content"] == sb.react_step(call)   # [system, user, "", call, observation, answer]


def test_turn_ended_by_endoftext_continues(tok, sb, train):
    """`<|endoftext|>` is an end-of-turn id (`eos_ids`) that Qwen2.5's template never writes after a turn: a policy
    may still sample it. The episode goes on: the sampled token stays, the environment closes the turn the template's
    way (`<|im_end|>`) and appends the tool response (this raised 'not append-only' and killed the training step)."""
    q = train[0].query
    call = tool_call_text("Cities first.", "SearchCity", {"state": "Texas"})
    endoftext = tok.convert_tokens_to_ids("<|endoftext|>")

    class EndoftextPolicy(ScriptedPolicy):   # the first reply ends with <|endoftext|> instead of <|im_end|>
        def generate(self, prompts, max_new_tokens, temperature=1.0, top_p=1.0, stop=STOP):
            out = super().generate(prompts, max_new_tokens, temperature, top_p, stop)
            if self.n_calls == 1:
                g = out[0]
                out[0] = Generation(g.token_ids + [endoftext], g.logprobs + [0.0], g.entropies + [0.0], "stop")
            return out

    pol = EndoftextPolicy(tok, {q: [call, answer_text("Done.", "no plan")]})
    r = rollout_batch(pol, tok, train[:1], sandbox=sb, stop=[])[0]
    assert (r.termination, r.n_tool_calls) == ("answer", 1)
    s, e, k = r.turn_spans[0]
    assert k == "policy" and r.completion_ids[e - 1] == endoftext and r.env_mask[e - 1] == 1
    env = tok.decode(r.completion_ids[r.turn_spans[1][0]:r.turn_spans[1][1]])
    assert env.startswith("<|im_end|>\n<|im_start|>user\n<tool_response>")
    assert r.messages[1:4] == [{"role": "user", "content": q}, {"role": "assistant", "content": call},
                               {"role": "user", "content": sb.react_step(call)}]


# ---------------------------------------------------------------- the continuous driver (issue 32: rollouts that never wait)
def record(r):
    "Everything a rollout records except the wall-clock timing and the batch's totals."
    meta = {k: v for k, v in r.meta.items() if k not in ("timing", "batch")}
    return (r.prompt_ids, r.completion_ids, r.env_mask, r.logprobs, r.entropies, r.messages, r.n_tool_calls,
            r.termination, r.answer, r.format_error, r.truncated, r.turn_spans, meta)


def both_ways(pol_fn, tok, *args, **kw):
    "The same rollouts turn by turn and request by request (a fresh policy each, `pol_fn(continuous)`)."
    turns, stream = pol_fn(False), pol_fn(True)
    a = rollout_batch(turns, tok, *args, **kw)
    b = rollout_batch(stream, tok, *args, **kw)
    assert {r.meta["batch"]["mode"] for r in a} == {"turns"} and {r.meta["batch"]["mode"] for r in b} == {"continuous"}
    return a, b, stream


def test_continuous_driver_keeps_every_semantic(tok, sb, train, oracle, replay):
    """Every way an episode ends, replayed by `ScriptedPolicy` turn by turn and as a continuous-batching engine serves
    it (a shorter reply comes back first): identical token ids, masks, log-probs, transcripts, terminations, spans and
    per-turn records -- on a failure-free sandbox the order of the tool calls cannot matter."""
    q = train[0].query
    think = "<think>\nHmm.\n</think>"
    call = tool_call_text("Cities first.", "SearchCity", {"state": "Texas"})
    bad = '<tool_call>\n{"name": "SearchCity", "arguments": {"state": "Texas"}}\n</tool_call>'
    full = replay[1][2]
    cases = [(lambda c: ScriptedPolicy(tok, oracle, continuous=c), (train[:3],), dict(group_size=2)),        # answers
             (lambda c: ScriptedPolicy(tok, oracle, continuous=c), (train[:3],), dict(group_size=2, max_turns=3)),
             (lambda c: ScriptedPolicy(tok, oracle, continuous=c), (train[:3],), dict(max_context=len(full.prompt_ids) + 600)),
             (lambda c: ScriptedPolicy(tok, oracle[:1], eos=True, continuous=c), (train[:1],), dict(stop=[])),
             (lambda c: ScriptedPolicy(tok, {q: [think, call, think, call, call]}, continuous=c), (train[:1],),
              dict(max_turns=10, max_policy_turns=4, max_no_action=None)),
             (lambda c: ScriptedPolicy(tok, {q: [think, think, call, think, think, think, call]}, continuous=c), (train[:1],),
              dict(max_no_action=3)),
             (lambda c: ScriptedPolicy(tok, {q: [bad, answer_text("Done.", "x")]}, continuous=c), (train[:1],),
              dict(group_size=2, stop_on_format_error=True)),
             (lambda c: ScriptedPolicy(tok, oracle, continuous=c), (),
              dict(prefixes=[full.prefix(3), full.prefix(1)], group_size=2))]
    for pol_fn, args, kw in cases:
        a, b, stream = both_ways(pol_fn, tok, *args, sandbox=sb, **kw)
        assert [record(r) for r in a] == [record(r) for r in b], kw
        assert stream.calls == [] and sum(r.meta["batch"]["n_requests"] for r in b[:1]) == len(stream.finished)
    # out of step: while one trajectory writes a long first reply, the other plays two short turns and answers
    long_call = tool_call_text("Let me think about this for a long while. " * 30, "SearchCity", {"state": "Texas"})
    scripts = {train[0].query: [long_call, answer_text("Done.", "a")],
               train[1].query: [call, call, answer_text("Done.", "b")]}
    a, b, stream = both_ways(lambda c: ScriptedPolicy(tok, scripts, continuous=c), tok, train[:2], sandbox=sb)
    assert [record(r) for r in a] == [record(r) for r in b]
    assert stream.finished == [(1, 0), (1, 1), (1, 2), (0, 0), (0, 1)]            # (trajectory, turn) as they finished
    assert b[0].meta["batch"]["n_requests"] == 5 and a[0].meta["batch"]["n_generate_calls"] == 3


def test_continuous_failure_injection_is_reproducible(tok, sb, train, oracle):
    """With failure injection the sandbox's draws follow the order the tool calls run in -- the order the engine
    finishes the requests, run order among those finished together: the same seeds give the same rollouts."""
    runs = [rollout_batch(ScriptedPolicy(tok, oracle, continuous=True), tok, train[:3], group_size=2,
                          sandbox=Sandbox(sb.db, failure_rate=0.5, seed=3)) for _ in range(2)]
    assert [record(r) for r in runs[0]] == [record(r) for r in runs[1]]
    n_failed = sum(c["failed"] for r in runs[0] for c in r.meta["tool_calls"])
    assert 0 < n_failed < sum(r.n_tool_calls for r in runs[0])
    every = rollout_batch(ScriptedPolicy(tok, oracle[:1], continuous=True), tok, train[:1],
                          sandbox=Sandbox(sb.db, failure_rate=1.0, seed=0))[0]
    assert [m["content"] for m in every.messages[3::2]] == [failure_message(t.tool_name) for t in oracle[0].turns[:-1]]


def test_continuous_needs_a_stream_and_shows_progress(tok, sb, train, oracle, hf, capsys):
    with pytest.raises(ValueError, match="continuous=True needs a policy with `stream`"):
        rollout_batch(hf, tok, train[:1], continuous=True)
    assert not getattr(hf, "continuous", False)          # HF stays turn-synchronous: the default path
    pol = ScriptedPolicy(tok, oracle, continuous=True)
    rs = rollout_batch(pol, tok, train[:3], sandbox=sb, progress="demo")
    err = capsys.readouterr().err
    assert "demo: 100%" in err and "3/3" in err and "turns done" in err and "0 running" in err
    assert [r.termination for r in rs] == ["answer"] * 3
    # an error mid-stream (a reply past the end of the script) propagates; nothing stays pending
    short = ScriptedPolicy(tok, {oracle[0].messages[1]["content"]: [m["content"] for m in oracle[0].messages[2:6:2]]},
                           continuous=True)
    with pytest.raises(IndexError, match="script has 2 turns"):
        rollout_batch(short, tok, train[:1], sandbox=sb)
