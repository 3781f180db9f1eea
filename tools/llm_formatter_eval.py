#!/usr/bin/env python
"""The paper's LLM formatter, offline, beside the grounded reader, on real answers (issue 19).

    flock /work/cpu.lock python tools/llm_formatter_eval.py --scale 1.5B-offline --n 24      # starts `vllm serve`
    python tools/llm_formatter_eval.py --base-url http://host:8000/v1 --model NAME --n 100   # any OpenAI-compatible endpoint

1. Serves an offline model with `vllm serve` (OpenAI-compatible, structured output on) unless `--base-url` is given.
2. Reads a seeded sample of `--n` held-out public answers (they have the benchmark parser's plan) and `--n-offline`
   answers of our offline models with `format_plan(..., formatter='llm')` — the App. E prompt (`--prompt`), the JSON
   schema of a plan as `response_format`, up to `--samples` samples per plan, `--workers` requests at a time — and
   with the grounded reader; times both (wall seconds per plan: the batch's wall time / plans, and the mean latency
   of one request).
3. Agreement of each reading with the reference (`reading_agreement`), and `formatter='auto'` (grounded, the LLM for
   doubtful readings only) on the same answers; the share of doubtful readings over the whole real-answer set.
4. Writes everything to `results/formatter/llm_<model>.json` and prints a summary. LLM replies are cached under
   `runs/formatter_cache/` (a re-run replays them; delete the folder to time again).
"""
from __future__ import annotations

import argparse, json, os, random, signal, socket, subprocess, sys, time, urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _free_port():
    s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()
    return port


def serve(model_dir, name, log, max_model_len=8192, dtype='bfloat16', timeout=1800):
    "Start `vllm serve` on a free local port -> (base_url, process); structured output without free whitespace."
    port = _free_port()
    env = dict(os.environ, VLLM_CPU_KVCACHE_SPACE=os.environ.get('VLLM_CPU_KVCACHE_SPACE', '4'))
    cmd = [sys.executable, '-m', 'vllm.entrypoints.openai.api_server', '--model', str(model_dir), '--served-model-name', name,
           '--host', '127.0.0.1', '--port', str(port), '--max-model-len', str(max_model_len), '--dtype', dtype,
           '--seed', '0', '--structured-outputs-config', '{"backend": "xgrammar", "disable_any_whitespace": true}']
    proc = subprocess.Popen(cmd, env=env, stdout=open(log, 'w'), stderr=subprocess.STDOUT, start_new_session=True)
    url, t0 = f'http://127.0.0.1:{port}/v1', time.time()
    while True:
        try:
            urllib.request.urlopen(url + '/models', timeout=5)
            print(f"vllm serve up in {time.time() - t0:.0f} s", flush=True)
            return url, proc
        except OSError: pass
        if proc.poll() is not None or time.time() - t0 > timeout:
            stop(proc)
            raise RuntimeError(f"vllm serve did not start: {Path(log).read_text()[-2000:]}")
        time.sleep(3)


def stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try: proc.wait(60)
        except subprocess.TimeoutExpired: os.killpg(proc.pid, signal.SIGKILL); proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--scale', default='1.5B-offline'); ap.add_argument('--base-url'); ap.add_argument('--model')
    ap.add_argument('--n', type=int, default=24); ap.add_argument('--n-offline', type=int, default=8)
    ap.add_argument('--prompt', default='paper'); ap.add_argument('--samples', type=int, default=3)
    ap.add_argument('--workers', type=int, default=4); ap.add_argument('--max-tokens', type=int, default=2048)
    ap.add_argument('--seed', type=int, default=0)
    a = ap.parse_args()
    from star.formatter import format_plan, llm_formatter, plan_json_schema
    from agreement import reading_agreement, real_answers, METRICS
    from star.tasks import load_tasks
    tasks = {t.idx: t for t in load_tasks('validation')}
    name = a.model or a.scale
    proc = None
    if a.base_url: url = a.base_url
    else:
        from star.models import model_path
        log = ROOT / 'runs' / f'vllm_serve_{name}.log'; log.parent.mkdir(parents=True, exist_ok=True)
        url, proc = serve(model_path(a.scale), name, log)
    try:
        llm = llm_formatter(url, name, api_key_env=None if not a.base_url else 'OPENAI_API_KEY', prompt=a.prompt,
                            json_schema=plan_json_schema(max_days=7), max_tokens=a.max_tokens, max_samples=a.samples,
                            cache_dir=ROOT / 'runs' / 'formatter_cache' / name.replace('/', '_'), timeout=1800)
        rng = random.Random(a.seed)
        held = [r for r in real_answers('heldout') if r['parsed'] is not None]
        rows = rng.sample(held, min(a.n, len(held)))
        off = [r for r in real_answers() if r['source'] == 'offline']
        rows_off = rng.sample(off, min(a.n_offline, len(off)))
        every = rows + rows_off
        def llm_read(r):
            t0 = time.time()
            fp = format_plan(r['text'], tasks[r['idx']], formatter='llm', llm=llm)
            return fp, time.time() - t0
        t0 = time.time()
        with ThreadPoolExecutor(a.workers) as ex: got = list(ex.map(llm_read, every))
        wall = time.time() - t0
        by_id = {id(r): g for r, g in zip(every, got)}
        t0 = time.time()
        grounded = {id(r): format_plan(r['text'], tasks[r['idx']]) for r in every}
        g_wall = time.time() - t0
        auto = {id(r): format_plan(r['text'], tasks[r['idx']], llm=llm) for r in every}   # replies come from the cache
        read_llm = {r['text']: by_id[id(r)][0].plan for r in every}
        read_auto = {r['text']: auto[id(r)].plan for r in every}
        out = {'model': name, 'scale': a.scale, 'endpoint': 'vllm serve (CPU, this machine)' if proc else url,
               'prompt': a.prompt, 'json_schema': True, 'max_samples': a.samples, 'workers': a.workers, 'seed': a.seed,
               'n_public_heldout': len(rows), 'n_offline': len(rows_off),
               'llm_seconds_per_plan_wall': wall / len(every), 'llm_seconds_per_request_mean': sum(s for _, s in got) / len(got),
               'grounded_seconds_per_plan': g_wall / len(every),
               'llm_undelivered': sum(not fp.ok for fp, _ in got), 'llm_requests': llm.n_requests,
               'agreement': {}}
        def summary(res):
            return {'n': res['n'], 'checks': res['checks'], 'success': res['success'], 'per_check': res['per_check'],
                    'ours': {m: res['ours'][m] for m in METRICS}, 'reference': {m: res['reference'][m] for m in METRICS}}
        for label, read in (('grounded', lambda text, t: format_plan(text, t).plan), ('llm', lambda text, t: read_llm[text]),
                            ('auto', lambda text, t: read_auto[text])):
            out['agreement'][label] = summary(reading_agreement(rows, read))
        out['auto_sent_on_sample'] = sum(auto[id(r)].formatter == 'llm' or 'llm:' in (auto[id(r)].reason or '') for r in rows) / len(rows)
        # grounded vs LLM on our models' answers (no reference reading exists: agreement between the two readings)
        if rows_off:
            both = [dict(r, parsed=by_id[id(r)][0].plan) for r in rows_off if by_id[id(r)][0].ok]
            if both: out['offline_grounded_vs_llm'] = summary(reading_agreement(both))
        # how many readings of the whole real-answer set `auto` would send to an LLM
        allr = real_answers()
        fps = [format_plan(r['text'], tasks[r['idx']]) for r in allr]
        out['auto_share_doubtful'] = {'all': sum(f.doubtful or not f.ok for f in fps) / len(fps)}
        for src in ('public', 'offline'):
            sel = [f for r, f in zip(allr, fps) if r['source'] == src]
            if sel: out['auto_share_doubtful'][src] = sum(f.doubtful or not f.ok for f in sel) / len(sel)
        path = ROOT / 'results' / 'formatter' / f"llm_{name.replace('/', '_')}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out, indent=1) + '\n')
        print(json.dumps({k: v for k, v in out.items() if k != 'agreement'}, indent=1))
        for k, v in out['agreement'].items():
            print(f"{k:9s} n={v['n']} checks={v['checks']:.3f} success={v['success']:.3f}",
                  {m: f"{100 * v['reference'][m]:.1f}/{100 * v['ours'][m]:.1f}" for m in METRICS})
        print('wrote', path)
    finally:
        if proc is not None: stop(proc)


if __name__ == '__main__':
    main()
