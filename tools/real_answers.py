#!/usr/bin/env python
"""Build the development set of real TravelPlanner answers (`star/data/travelplanner/answers/`).

    python tools/real_answers.py public /work/.mirror/llv22+TravelPlanner_forward/repo   # public runs -> answers/public.jsonl.gz
    python tools/real_answers.py generate --scale 0.5B                                 # offline model, sole-planning
    python tools/real_answers.py generate --scale 1.5B-offline --every 6               # every sixth query only
    python tools/real_answers.py pack                                                  # runs/answers/*.jsonl -> answers/offline.jsonl.gz

`public` reads a local git copy of llv22/TravelPlanner_forward (a fork of OSU-NLP-Group/TravelPlanner that committed
its validation runs: `evaluation/<run>/generated_plan_<n>.json`, the natural-language plan under
`<model>_<strategy>_<mode>_results` and the plan the benchmark's GPT-4 parser extracted under `..._parsed_results`)
and keeps, for each distinct run, the answers to the validation queries whose reference information is packaged
(123 queries: their flights are in the packaged flight subset). Rows: `{source, run, commit, path, idx, text,
parsed}` (`idx` 0-based, `parsed` the parser's list of days or None).

`generate` answers the same queries with an offline model in TravelPlanner's sole-planning setting: the benchmark's
planner instruction (`star/data/prompts/sole_planning.txt`) with the query's reference information, one user turn,
greedy decoding (the benchmark's temperature 0), vLLM (`star.models.make_llm`). Rows: `{source, run, idx, text,
prompt_tokens, completion_tokens, seconds}`; the file is appended batch by batch and a re-run skips done queries.
Run it under the machine's job lock (`flock /work/cpu.lock ...`).
"""
from __future__ import annotations

import argparse, gzip, json, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / 'star' / 'data' / 'travelplanner' / 'answers'

# The distinct runs of llv22/TravelPlanner_forward with a parsed plan per answer: (name, folder, result key, commit).
# Several commits hold byte-identical copies of a run; each run is taken once, at the commit named here. The folder
# 'gpt-4-1106-preview_validation copy' is skipped: its parsed plans belong to the 2024-05-27 texts, not to its own.
PUBLIC_RUNS = (
    ('gpt4-0527', 'evaluation/gpt-4-1106-preview_validation/sole-planning', 'gpt-4-1106-preview_direct_sole-planning', '2902f2b'),
    ('gpt4-0601', 'evaluation/gpt-4-1106-preview_validation/sole-planning', 'gpt-4-1106-preview_direct_sole-planning', '6fa6804'),
    ('gpt4-0602', 'evaluation/gpt-4-1106-preview_validation/sole-planning', 'gpt-4-1106-preview_direct_sole-planning', '0913ca7'),
    ('gpt4-0609', 'evaluation/gpt-4-1106-preview_validation/sole-planning', 'gpt-4-1106-preview_direct_sole-planning', '63635d6'),
    ('mixtral-8x7b', 'evaluation/mixtral-8x7b_validation/sole-planning', 'mixtral-8x7b_direct_sole-planning', 'db6bd9b'),
    ('llama2-70b', 'evaluation/llama2-70b_validation/sole-planning', 'llama2-70b_direct_sole-planning', '36370db'),
    ('gemini-two-stage', 'evaluation/validation', 'gemini_two-stage', '72b1c71'),
)
PUBLIC_REPO = 'llv22/TravelPlanner_forward'

# Issue 34: answers of later models and agent systems. The held-out part is fixed by a hash of the validation query id
# (chosen before any of those answers was read): a query is held out when the first byte of sha256('issue34:<idx>') is
# below 2/5 of 256, for every new source alike. Its answers are never read while the reader's rules are written.
def heldout34(idx: int) -> bool:
    "Is validation query `idx` in issue 34's held-out part (sha256('issue34:<idx>')[0] < 103, about 40 %)?"
    import hashlib
    return hashlib.sha256(f'issue34:{idx}'.encode()).digest()[0] < 103


def covered_tasks():
    "The validation tasks whose reference information is packaged (their flights are in the packaged subset)."
    from star.tasks import load_tasks
    return [t for t in load_tasks('validation') if t.reference_information]


def write_jsonl_gz(rows, path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = ''.join(json.dumps(r, ensure_ascii=False, sort_keys=True) + '\n' for r in rows).encode('utf-8')
    with open(path, 'wb') as f, gzip.GzipFile(fileobj=f, mode='wb', mtime=0, filename='') as g: g.write(raw)


def public(mirror: str):
    import ast
    def git(*a): return subprocess.run(['git', '-C', mirror, *a], capture_output=True, text=True, check=True).stdout
    rows = []
    for name, folder, key, commit in PUBLIC_RUNS:
        full = git('rev-parse', commit).strip()
        for t in covered_tasks():
            path = f'{folder}/generated_plan_{t.idx + 1}.json'
            try: data = json.loads(git('show', f'{full}:{path}'))
            except subprocess.CalledProcessError: continue
            last = data[-1] if isinstance(data, list) and data and isinstance(data[-1], dict) else {}
            text, parsed = last.get(f'{key}_results'), last.get(f'{key}_parsed_results')
            if not isinstance(text, str): continue
            if isinstance(parsed, str):
                try: parsed = ast.literal_eval(parsed)
                except (ValueError, SyntaxError): parsed = None
            rows.append({'source': 'public', 'run': name, 'repo': PUBLIC_REPO, 'commit': full, 'path': path,
                         'idx': t.idx, 'text': text, 'parsed': parsed if parsed not in ('', None) else None})
        print(name, sum(r['run'] == name for r in rows), 'answers,', sum(r['run'] == name and r['parsed'] is not None for r in rows), 'parsed')
    write_jsonl_gz(rows, OUT / 'public.jsonl.gz')
    print('wrote', OUT / 'public.jsonl.gz', len(rows))


AAMAS_REPO, AAMAS_COMMIT = 'plasmapotatos/AAMAS_2024', '514ebc92feae1c36371e881cec95b5d685718e47'
NEW_OUT = ROOT / 'runs' / 'answers34'


def aamas(mirror: str):
    """gpt-4o-mini sole-planning validation runs of plasmapotatos/AAMAS_2024 at 514ebc9 (2024-10-13), each answer
    with the plan the benchmark's parser (gpt-4-1106-preview, TravelPlanner postprocess/) extracted. That commit
    carries no licence (the MIT LICENSE of the fork was removed on 2024-06-27), so these rows are NOT packaged:
    they go to runs/answers34/aamas.jsonl.gz (git-ignored) and only the measured numbers are recorded."""
    import ast
    def git(*a): return subprocess.run(['git', '-C', mirror, *a], capture_output=True, text=True, check=True).stdout
    files = [p for p in git('ls-tree', '-r', '--name-only', AAMAS_COMMIT).split('\n')
             if p.startswith('evaluation/examples_trials/') and '/gpt-4o-mini_validation/sole-planning/generated_plan_' in p]
    covered = {t.idx for t in covered_tasks()}
    key = 'gpt-4o-mini_direct_sole-planning'
    rows = []
    for path in sorted(files):
        idx = int(path.rsplit('_', 1)[1].split('.')[0]) - 1
        if idx not in covered: continue
        parts = path.split('/')
        run = 'gpt4omini-' + parts[2].replace('example_', 'ex') + ('-' + parts[3].replace('trial_', 't') if parts[3].startswith('trial') else '')
        data = json.loads(git('show', f'{AAMAS_COMMIT}:{path}'))
        last = data[-1] if isinstance(data, list) and data and isinstance(data[-1], dict) else {}
        text, parsed = last.get(f'{key}_results'), last.get(f'{key}_parsed_results')
        if not isinstance(text, str): continue
        if isinstance(parsed, str):
            try: parsed = ast.literal_eval(parsed)
            except (ValueError, SyntaxError): parsed = None
        rows.append({'source': 'aamas-4omini', 'run': run, 'repo': AAMAS_REPO, 'commit': AAMAS_COMMIT, 'path': path,
                     'idx': idx, 'text': text, 'parsed': parsed if parsed not in ('', None) else None})
    write_jsonl_gz(rows, NEW_OUT / 'aamas.jsonl.gz')
    print('wrote', NEW_OUT / 'aamas.jsonl.gz', len(rows), 'answers,', sum(r['parsed'] is not None for r in rows), 'parsed,',
          len({r['run'] for r in rows}), 'runs')


METACREW_REPO, METACREW_COMMIT = 'Jesus-Nunez-de-Arenas/MetaCrew', 'c12c8cd4c3eb0295f12dd6bfc083da33f2bf29ce'
FIXTURES = ROOT / 'tests' / 'fixtures' / 'travelplanner'


def metacrew(mirror: str):
    """gpt-4o-mini answers of a crewAI agent system (Jesus-Nunez-de-Arenas/MetaCrew, MIT licence, commit c12c8cd,
    `Benchmarks/Crews/travel_crew/output_travel/generated_plan_<n>.json`) to the validation queries whose reference
    information is packaged; no extracted plan exists for them. Packaged (MIT) as tests/fixtures/travelplanner/
    metacrew_4omini.jsonl.gz: {source, run, repo, commit, path, idx, text}."""
    def git(*a): return subprocess.run(['git', '-C', mirror, *a], capture_output=True, text=True, check=True).stdout
    rows = []
    for t in covered_tasks():
        path = f'Benchmarks/Crews/travel_crew/output_travel/generated_plan_{t.idx + 1}.json'
        try: data = json.loads(git('show', f'{METACREW_COMMIT}:{path}'))
        except subprocess.CalledProcessError: continue
        last = data[-1] if isinstance(data, list) and data and isinstance(data[-1], dict) else {}
        text = next((v for k, v in last.items() if k.endswith('_results') and isinstance(v, str)), None)
        if text is None: continue
        rows.append({'source': 'metacrew-4omini', 'run': 'crewai-gpt-4o-mini', 'repo': METACREW_REPO, 'commit': METACREW_COMMIT,
                     'path': path, 'idx': t.idx, 'text': text})
    write_jsonl_gz(rows, FIXTURES / 'metacrew_4omini.jsonl.gz')
    print('wrote', FIXTURES / 'metacrew_4omini.jsonl.gz', len(rows))


def new_rows(source_file: str, part: str) -> list[dict]:
    "Rows of runs/answers34/<source_file> (or a packaged fixture path) in `part` ('dev' | 'heldout' | 'all') of issue 34's split."
    path = Path(source_file) if '/' in source_file else NEW_OUT / source_file
    rows = [json.loads(l) for l in gzip.open(path, 'rt', encoding='utf-8')]
    return [r for r in rows if part == 'all' or heldout34(r['idx']) == (part == 'heldout')]


def measure(rows: list[dict], name: str = '') -> dict:
    """Agreement of `format_plan` (auto, no LLM) with each row's reference reading, on all rows and on the readings
    without a doubt, and the share of doubtful readings (what `auto` sends to an LLM formatter when one is configured)."""
    from collections import Counter
    from star.evaluator import evaluate_plan
    from star.formatter import format_plan
    from agreement import reading_agreement, METRICS
    from star.tasks import load_tasks
    tasks = {t.idx: t for t in load_tasks('validation')}
    fps = {id(r): format_plan(r['text'], tasks[r['idx']]) for r in rows}
    with_ref = [r for r in rows if r.get('parsed') is not None]
    sure = [r for r in with_ref if not fps[id(r)].doubtful]
    out = {'name': name, 'answers': len(rows), 'flagged': sum(fps[id(r)].doubtful for r in rows) / max(len(rows), 1),
           'undelivered': sum(not fps[id(r)].ok for r in rows)}
    if with_ref:
        read = lambda text, task: format_plan(text, task).plan
        res = reading_agreement(with_ref, read)
        out.update({k: res[k] for k in ('n', 'checks', 'success', 'per_check', 'disagree')})
        out['metrics'] = {m: (round(100 * res['reference'][m], 1), round(100 * res['ours'][m], 1)) for m in METRICS}
        out['violations_read_as_passes'] = _passes_read_for_fails(with_ref, read, tasks)
        if sure:
            r2 = reading_agreement(sure, read)
            out.update({'sure_n': r2['n'], 'sure_checks': r2['checks'], 'sure_success': r2['success']})
        out['doubt_curve'] = doubt_curve(with_ref, fps, tasks)
    out['doubt_kinds'] = dict(Counter(k for r in rows for k in {n.kind for n in fps[id(r)].doubts}).most_common())
    out['success_readings'] = sum(fp.ok and evaluate_plan(tasks[r['idx']], fp.plan).success for r in rows for fp in [fps[id(r)]])
    return out


def doubt_curve(rows, fps, tasks) -> list:
    """The trade-off between the share of readings flagged as doubtful and the agreement (share of the 13 check
    verdicts equal to the reference reading's) on the unflagged ones: starting from every doubt kind, the kinds are
    dropped one at a time, each time the one whose dropping keeps the agreement highest. `[[kind dropped (None
    first), flagged share, unflagged agreement, unflagged answers]]`."""
    from star.evaluator import evaluate_plan, COMMONSENSE_CHECKS, HARD_CHECKS
    names, per = COMMONSENSE_CHECKS + HARD_CHECKS, []
    for r in rows:
        t, fp = tasks[r['idx']], fps[id(r)]
        a, b = evaluate_plan(t, r['parsed']), evaluate_plan(t, fp.plan)
        va, vb = {**a.commonsense, **a.hard}, {**b.commonsense, **b.hard}
        per.append(({n.kind for n in fp.doubts}, sum(va[c] == vb[c] for c in names)))
    def point(kinds):
        sure = [k for ds, k in per if not ds & kinds]
        return 1 - len(sure) / max(len(per), 1), sum(sure) / max(len(sure) * len(names), 1), len(sure)
    kinds, out = set().union(*(ds for ds, _ in per)) if per else set(), []
    out.append([None, *point(kinds)])
    while kinds:
        best = max(sorted(kinds), key=lambda k: point(kinds - {k})[1])
        kinds = kinds - {best}
        out.append([best, *point(kinds)])
    return [[k, round(f, 4), round(a, 4), n] for k, f, a, n in out]


def _passes_read_for_fails(rows, read, tasks):
    "Check verdicts that are False by the reference reading and True by ours: [(run, idx, check)]."
    from star.evaluator import evaluate_plan
    out = []
    for r in rows:
        t = tasks[r['idx']]
        a, b = evaluate_plan(t, r['parsed']), evaluate_plan(t, read(r['text'], t))
        va, vb = {**a.commonsense, **a.hard, 'success': a.success}, {**b.commonsense, **b.hard, 'success': b.success}
        out += [(r['run'], r['idx'], c) for c in va if va[c] is False and vb[c] is True]
    return out


def report(m: dict) -> str:
    s = f"{m['name']}: {m['answers']} answers, flagged {100 * m['flagged']:.1f} %, undelivered {m['undelivered']}"
    if 'n' in m:
        s += (f"; with reference {m['n']}: checks {100 * m['checks']:.1f} %, success {100 * m['success']:.1f} %, "
              f"no-doubt {m.get('sure_n', 0)}: checks {100 * m.get('sure_checks', 0):.1f} % success {100 * m.get('sure_success', 0):.1f} %; "
              f"violations read as passes {len(m['violations_read_as_passes'])} ({sum(c == 'success' for *_, c in m['violations_read_as_passes'])} success)"
              f"\n  metrics ref/ours: {m['metrics']}\n  doubts: {m.get('doubt_kinds')}\n  curve (kind dropped, flagged, unflagged agreement, n): {m.get('doubt_curve')}")
    return s


def record(out: str):
    """Issue 34's measurement, written to `out` (JSON, numbers only: the unlicensed answers themselves stay out of the
    repository): per source and part, the agreement with the source's own reference reading, on all readings and on those
    without a doubt, the share flagged, the doubt kinds and the trade-off curve (`doubt_curve`), the dataset metrics both
    ways and the violations read as passes. Sources: the gpt-4o-mini runs of plasmapotatos/AAMAS_2024
    (runs/answers34/aamas.jsonl.gz, `aamas` first), the packaged real answers of issue 19 (dev / held-out), and, without a
    reference reading (delivery, doubts, Success readings only), MetaCrew's crewAI answers and our offline model's
    answers under layout instructions (tests/fixtures)."""
    from agreement import real_answers
    res = {}
    if (NEW_OUT / 'aamas.jsonl.gz').exists():
        for part in ('dev', 'heldout'):
            res[f'aamas-4omini/{part}'] = measure(new_rows('aamas.jsonl.gz', part), f'aamas-4omini [{part}]')
    for part in ('dev', 'heldout'):
        rows = [r for r in real_answers(part) if r['source'] == 'public']
        res[f'issue19-public/{part}'] = measure(rows, f'issue19 public [{part}]')
    for part in ('dev', 'heldout'):
        res[f'metacrew-4omini/{part}'] = measure(new_rows(str(FIXTURES / 'metacrew_4omini.jsonl.gz'), part), f'metacrew 4o-mini [{part}]')
    if LAYOUT_FIXTURE.exists():
        rows = new_rows(str(LAYOUT_FIXTURE), 'all')
        for lay in LAYOUTS:
            res[f'offline-layouts/{lay}'] = measure([r for r in rows if r['layout'] == lay], f'offline 0.5B, {lay} layout')
    for m in res.values():
        m['disagree'] = len(m.get('disagree', []))
        m['violations_read_as_passes'] = {'checks': len(m.get('violations_read_as_passes', [])),
                                          'success': [x for x in m.get('violations_read_as_passes', []) if x[2] == 'success']}
        v = m['violations_read_as_passes']
        print(report({**m, 'violations_read_as_passes': []}).replace('violations read as passes 0 (0 success)',
              f"violations read as passes {v['checks']} ({len(v['success'])} success)"))
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(json.dumps({'sources': {'aamas-4omini': {'repo': AAMAS_REPO, 'commit': AAMAS_COMMIT, 'licence': 'none at that commit (not packaged)',
                                                                'model': 'gpt-4o-mini, sole-planning, 35 runs (in-context examples x trials)',
                                                                'reference': "the benchmark's parser (gpt-4-1106-preview, postprocess/parsing.py)"},
                                                 'metacrew-4omini': {'repo': METACREW_REPO, 'commit': METACREW_COMMIT, 'licence': 'MIT',
                                                                     'model': 'gpt-4o-mini in a crewAI travel crew', 'reference': None},
                                                 'offline-layouts': {'fixture': str(LAYOUT_FIXTURE.relative_to(ROOT)), 'reference': None,
                                                                     'model': "ours, offline 0.5B, sole-planning prompt + a layout instruction (LAYOUTS)"}},
                                     'heldout_rule': "sha256('issue34:<idx>')[0] < 103", 'results': res}, indent=1, sort_keys=True) + '\n')
    print('wrote', out)


# ------------------------------------------------------------------ issue 34: why readings disagree (dev part only)
_FIELDS34 = ('current_city', 'transportation', 'breakfast', 'attraction', 'lunch', 'dinner', 'accommodation')


def _state_names() -> list:
    from star.evaluator import eval_index
    return sorted({v for v in dict(eval_index().city_state).values() if isinstance(v, str)}, key=len, reverse=True)


_POSTAL = tuple('AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK '
                'OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC'.split())


def _without_states(v: str, states) -> str:
    """v with ', State', '(State)' and a postal code after a city (', AZ' before ';', ',' or the end) removed (for
    comparing two readings, not for reading)."""
    for st in states: v = v.replace(f', {st}', '').replace(f' ({st})', '').replace(f'({st})', '')
    for pc in _POSTAL:
        v = v.replace(f', {pc};', ';').replace(f', {pc},', ',')
        if v.endswith(f', {pc}'): v = v[:-len(pc) - 2]
    return v


def _without_brackets(v: str) -> str:
    out, depth = [], 0
    for c in v:
        if c == '(':
            depth += 1
            if out and out[-1] == ' ': out.pop()
        elif c == ')' and depth: depth -= 1
        elif not depth: out.append(c)
    return ''.join(out)


def cause_label(field: str, ref, ours, states, one_city: bool = False) -> str:
    """A short label for how one field of the reference reading (`ref`) and ours differ: a state after a city kept by
    one side (`state-kept-by-ref` / `state-kept-by-us`), a bracketed remark kept by one side, a transportation that
    differs in its route, its states or only in details (times, cost), a name that is a part of the other one (words
    before a listing's name, `Private room in …`), another name, another city, an empty slot on one side, a day one
    side does not have; a transportation on a day both readings put in one city (`one_city`) that one side keeps
    (`Taxi`, `Self-driving`: local travel) and the other empties; a current city that one side writes as the route of
    the day's transportation and the other as one of its cities."""
    from star.evaluator import from_to
    if ref is None: return 'day-only-ours'
    if ours is None: return 'day-only-ref'
    p, q = str(ref), str(ours)
    if field == 'transportation':
        if p in ('-', '') and q not in ('-', '') and one_city:                  # 'Taxi' / 'Self-driving' on a day in one city
            return 'local-transport-kept-by-us'
        if q in ('-', '') and p not in ('-', '') and one_city: return 'local-transport-kept-by-ref'
        if p in ('-', '') or q in ('-', ''): return 'transport-empty-' + ('ref' if p in ('-', '') else 'ours')
        fp, fq = from_to(p), from_to(q)
        if fp == fq:
            fn = lambda v: v.split('Flight Number: ')[1].split(',')[0] if 'Flight Number: ' in v else None
            return 'transport-flight-number' if fn(p) != fn(q) or ('flight' in p.lower()) != ('flight' in q.lower()) else 'transport-detail'
        if None not in fp + fq and tuple(_without_states(x, states) for x in fp) == tuple(_without_states(x, states) for x in fq):
            return 'transport-state'
        return 'transport-route'
    if p.rstrip(';') == q.rstrip(';'): return 'same'
    if p in ('-', '') or q in ('-', ''): return 'empty-' + ('ref' if p in ('-', '') else 'ours')
    if _without_states(p, states) == _without_states(q, states): return 'state-kept-by-' + ('ref' if len(p) > len(q) else 'us')
    if _without_brackets(p) == _without_brackets(q): return 'remark-kept-by-' + ('ref' if len(p) > len(q) else 'us')
    if field == 'current_city':
        fp, fq = from_to(p), from_to(q)                   # one city on a travel day, or the route it names
        if None in fp and None not in fq and _without_states(p, states) in tuple(_without_states(x, states) for x in fq): return 'route-city-by-us'
        if None in fq and None not in fp and _without_states(q, states) in tuple(_without_states(x, states) for x in fp): return 'route-city-by-ref'
        return 'city'
    if field == 'attraction':
        P, Q = ({x.strip() for x in v.split(';') if x.strip()} for v in (p, q))
        return 'attraction-extra-ours' if P < Q else 'attraction-missing-ours' if Q < P else 'attraction-other'
    (pn, _, pc), (qn, _, qc) = p.rpartition(', '), q.rpartition(', ')
    if pn == qn: return 'venue-city'
    if pn and qn and (pn in qn or qn in pn): return 'name-part'
    return 'name-other'


CAUSE_GROUPS = {
    'parser': ('state-kept-by-ref', 'state-kept-by-us', 'remark-kept-by-ref', 'remark-kept-by-us', 'transport-state', 'name-part',
               'route-city-by-us', 'route-city-by-ref', 'local-transport-kept-by-us', 'local-transport-kept-by-ref', 'revised-plan',
               'parser-combined'),
}
"""Causes that are the reference parser's own inconsistency on these texts (see `parser-consistency`): it keeps a state
after a city, a bracketed remark or the words before a listing's name in some answers and drops them in others; it
writes a one-city current city on a travel day as the day's route in most answers, not all; it keeps a local `Taxi` /
`Self-driving` on a day in one city in about half of the answers that write one (21 of 37 values on dev) and empties it
in the others; of an answer that revises its plan (a day written again: the `repeated-day` doubt), it reads the last
version in some answers, all versions one after the other (9 days for a 3-day trip) in others, the first in others
(dev: 5, 5 and 2 of 12)."""


def attribute_disagreement(task, parsed, ours, states, revised: bool = False) -> dict:
    """`{check: set of cause labels}` for the checks (and Success) on which the reference reading `parsed` and ours get
    different verdicts: a field's cause is credited with a check when putting the reference's value of that field into
    our plan gives the check the reference's verdict; else all differences of one label together ('label*'); else
    'combined'. A day only one side has: 'day-count'. `revised`: the answer revises its plan (our reading has a
    `repeated-day` doubt, or the reference has more days than the trip: all its versions): the labels that are not the parser's inconsistencies are then 'revised-plan' (the parser
    reads another version, or all of them)."""
    from star.evaluator import evaluate_plan
    def verdicts(plan):
        r = evaluate_plan(task, plan)
        return {**r.commonsense, **r.hard, 'success': r.success}
    P, Q = [d for d in parsed if d], ours or []
    va, vb = verdicts(P), verdicts(Q)
    bad = [c for c in va if va[c] != vb[c]]
    diffs, days_differ = [], len(P) != len(Q)
    for i in range(min(len(P), len(Q))):
        for f in _FIELDS34:
            if str(P[i].get(f)) != str(Q[i].get(f)):
                one = 'from ' not in str(P[i].get('current_city')) and 'from ' not in str(Q[i].get('current_city'))
                lab = cause_label(f, P[i].get(f), Q[i].get(f), states, one)
                if lab != 'same': diffs.append((i, f, lab))
    res = {c: set() for c in bad}
    for i, f, lab in diffs:
        plan = [dict(d) for d in Q]; plan[i][f] = P[i].get(f)
        v = verdicts(plan)
        for c in bad:
            if v[c] == va[c]: res[c].add(lab)
    for c in bad:
        if res[c]: continue
        for lab in {l for _, _, l in diffs}:
            plan = [dict(d) for d in Q]
            for i, f, l in diffs:
                if l == lab: plan[i][f] = P[i].get(f)
            if verdicts(plan)[c] == va[c]: res[c].add(lab + '*')
        if not res[c] and diffs:                   # the parser's inconsistencies of several kinds together
            plan, parser = [dict(d) for d in Q], set(CAUSE_GROUPS['parser'])
            for i, f, l in diffs:
                if l in parser: plan[i][f] = P[i].get(f)
            if verdicts(plan)[c] == va[c]: res[c].add('parser-combined')
        if not res[c]: res[c].add('day-count' if days_differ else 'combined')
    if revised:
        parser = set(CAUSE_GROUPS['parser']) | {x + '*' for x in CAUSE_GROUPS['parser']}
        res = {c: {lab if lab in parser else 'revised-plan' for lab in labs} for c, labs in res.items()}
    return res


def disagreements(file: str, show: int = 0):
    """Issue 34's breakdown of the disagreements between our reading and the reference reading on the DEV part of
    `file` (runs/answers34/<file>, or 'public' for the GPT-4-era dev answers of issue 19): per check, the causes
    (`cause_label`) of its disagreements, and per cause the answers it touches, flagged (a doubt) or not. The held-out
    part is never read here."""
    from collections import Counter, defaultdict
    from star.formatter import format_plan
    from agreement import real_answers
    from star.tasks import load_tasks
    tasks, states = {t.idx: t for t in load_tasks('validation')}, _state_names()
    rows = ([r for r in real_answers('dev') if r['source'] == 'public'] if file == 'public' else new_rows(file, 'dev'))
    rows = [r for r in rows if r.get('parsed') is not None]
    by_check, by_cause, flagged, examples = defaultdict(Counter), Counter(), Counter(), defaultdict(list)
    parser_only = set(CAUSE_GROUPS['parser']) | {c + '*' for c in CAUSE_GROUPS['parser']}
    n_checks = n_off = n_off_parser = 0
    from star.evaluator import evaluate_plan, COMMONSENSE_CHECKS
    gap, lenient = {'commonsense': defaultdict(Counter), 'hard': defaultdict(Counter)}, Counter()
    passes = Counter()
    for r in rows:
        fp = format_plan(r['text'], tasks[r['idx']])
        revised = 'repeated-day' in {d.kind for d in fp.doubts} or len([d for d in r['parsed'] if d]) > tasks[r['idx']].days
        res = attribute_disagreement(tasks[r['idx']], r['parsed'], fp.plan, states, revised)
        a, b = evaluate_plan(tasks[r['idx']], [d for d in r['parsed'] if d]), evaluate_plan(tasks[r['idx']], fp.plan)
        for part, pa, pb, checks in (('commonsense', a.commonsense_macro, b.commonsense_macro, a.commonsense),
                                     ('hard', a.hard_macro, b.hard_macro, a.hard)):
            passes[(part, 'ref')] += bool(pa); passes[(part, 'ours')] += bool(pb)
            if bool(pa) != bool(pb):               # a plan that passes every check of `part` by one reading only
                labs = frozenset(l.rstrip('*') for c in checks if c in res for l in res[c])
                gap[part]['ref only' if pa else 'ours only'][' + '.join(sorted(labs)) or '?'] += 1
        va, vb = {**a.commonsense, **a.hard}, {**b.commonsense, **b.hard}
        for c in va:
            if va[c] is False and vb[c] is True:   # a violation (by the reference reading) that ours reads as a pass
                lenient['parser' if res.get(c, set()) <= parser_only else 'other: ' + ' + '.join(sorted(res.get(c, ())))] += 1
        causes = set().union(*res.values()) if res else set()
        off = [c for c in res if c != 'success']
        n_checks += 13; n_off += len(off); n_off_parser += sum(res[c] <= parser_only for c in off)
        for c, labs in res.items():
            for lab in labs: by_check[c][lab] += 1
        for lab in causes:
            by_cause[lab] += 1; flagged[lab] += fp.doubtful
            examples[lab].append((r['run'], r['idx'], sorted(c for c, labs in res.items() if lab in labs)))
    n = len(rows)
    print(f"{file} [dev]: {n} answers with a reference reading, {sum(by_cause.values()) and len({(a, b) for v in examples.values() for a, b, _ in v})} disagree on some check")
    print('causes (answers; of them flagged as doubtful; parser = the reference parser\'s own inconsistency):')
    for lab, k in by_cause.most_common():
        kind = 'parser' if lab.rstrip('*') in CAUSE_GROUPS['parser'] else 'reader?'
        print(f"  {lab:26s} {k:5d}  flagged {flagged[lab]:5d}  [{kind}]")
        for ex in examples[lab][:show]: print('       e.g.', *ex)
    print(f"per-check agreement {100 * (1 - n_off / max(n_checks, 1)):.2f} %; {n_off_parser} of its {n_off} disagreeing check "
          f"verdicts come only from the parser's inconsistencies (without them: {100 * (1 - (n_off - n_off_parser) / max(n_checks, 1)):.2f} %)")
    print('per check (disagreements: causes):')
    for c, cnt in sorted(by_check.items(), key=lambda x: -sum(x[1].values())):
        print(f"  {c:38s} {sum(cnt.values()):5d}  " + ', '.join(f"{l} {k}" for l, k in cnt.most_common(6)))
    print('the macro metrics (plans passing every check of a kind): per reading, and the plans only one reading passes, by cause')
    for part in ('commonsense', 'hard'):
        print(f"  {part} macro: reference {passes[(part, 'ref')]}, ours {passes[(part, 'ours')]} of {n} plans")
        for side in ('ref only', 'ours only'):
            cnt = gap[part][side]
            print(f"    passed by {side:9s} {sum(cnt.values()):4d}: " + ', '.join(f"{l} {k}" for l, k in cnt.most_common(8)))
    print(f"violations (by the reference reading) read as passes: {sum(lenient.values())} check verdicts: " +
          ', '.join(f"{l} {k}" for l, k in lenient.most_common(10)))


def _labelled_lines(text: str, label: str) -> list[str]:
    out = []
    for line in text.split('\n'):
        s = line.replace('*', '').strip().lstrip('-• ').strip()
        if s.lower().startswith(label.lower() + ':'): out.append(s[len(label) + 1:].strip())
    return out


def parser_consistency(file: str):
    """How consistently the reference parser treats what the texts write, counted on the DEV part of `file`
    (runs/answers34/<file>) where a field's labelled lines (`Current City: …`) align one to one with the parsed days:
    a state after a city written with a comma or in brackets (kept or dropped, per field), a bracketed room type after
    a listing's name, the words before a listing (`Private room, 1 bed, 2 guests, <listing>`), a flight written without
    a number, and a current city written as one city on a day whose transportation names a route. Per value and per
    answer (all kept / all dropped / mixed)."""
    import re
    from collections import Counter
    states, rows = _state_names(), [r for r in new_rows(file, 'dev') if r.get('parsed')]
    def has_state(v):
        return next((('paren' if f'({st})' in v else 'comma') for st in states if f', {st}' in v or f'({st})' in v), None)
    def tally(name, field, label, pick):
        per_value, per_answer = Counter(), Counter()
        for r in rows:
            P, L = [d for d in r['parsed'] if d], _labelled_lines(r['text'], label)
            if len(L) != len(P) or not P: continue
            seen = Counter()
            for raw, p in zip(L, P):
                got = pick(raw, str(p.get(field)))
                if got is not None: seen[got] += 1; per_value[got] += 1
            if seen: per_answer['all kept' if not seen[False] else 'all dropped' if not seen[True] else 'mixed'] += 1
        k, d = per_value[True], per_value[False]
        print(f"  {name:58s} kept {k:5d}  dropped {d:5d}  ({100 * k / max(k + d, 1):5.1f} % kept); answers {dict(per_answer)}")
    print(f"{file} [dev]: how the reference parser reads what the texts write")
    for field, label in (('current_city', 'Current City'), ('transportation', 'Transportation'), ('dinner', 'Dinner'),
                         ('accommodation', 'Accommodation')):
        for form in ('comma', 'paren'):
            tally(f"{label}: state after a city, {'`City, State`' if form == 'comma' else '`City (State)`'}", field, label,
                  lambda raw, pv, form=form: (has_state(pv) is not None) if has_state(raw) == form else None)
    rt = ('private room', 'entire home/apt', 'shared room', 'entire home', 'entire room')
    def remark(raw, pv):
        m = re.search(r'\(([^)]*)\)', raw)
        if not m or not any(x in m.group(1).lower() for x in rt): return None
        return '(' + m.group(1) in pv
    tally('Accommodation: `<listing> (private room)`', 'accommodation', 'Accommodation', remark)
    tally('Accommodation: `Private room, 1 bed, 2 guests, <listing>`', 'accommodation', 'Accommodation',
          lambda raw, pv: pv.lower().startswith(raw.split(',')[0].lower() + ',') if raw.lower().startswith(tuple(x + ',' for x in rt)) else None)
    tally('Transportation: a flight without a number -> `Flight Number: -`', 'transportation', 'Transportation',
          lambda raw, pv: ('Flight Number:' in pv) if 'flight' in raw.lower() and not re.search(r'F\d{4,}', raw) else None)
    from star.evaluator import from_to
    per = Counter()
    for r in rows:
        P, L, T = [d for d in r['parsed'] if d], _labelled_lines(r['text'], 'Current City'), _labelled_lines(r['text'], 'Transportation')
        if not (len(L) == len(T) == len(P)) or not P: continue
        for raw, tr, p in zip(L, T, P):
            if 'from' in raw.lower() or ' to ' in raw or None in from_to(tr): continue
            per['from A to B' in str(p.get('current_city')) or 'from ' in str(p.get('current_city'))] += 1
    print(f"  {'Current City: one city, Transportation: a route -> `from A to B`':58s} kept {per[False]:5d}  changed {per[True]:5d}"
          f"  ({100 * per[True] / max(sum(per.values()), 1):5.1f} % changed, the parser prompt's rule)")


# ------------------------------------------------------------------ issue 48: which reference readings are faithful
_FAITHFUL_LABELS = (('current_city', 'Current City'), ('transportation', 'Transportation'), ('breakfast', 'Breakfast'),
                    ('attraction', 'Attraction'), ('lunch', 'Lunch'), ('dinner', 'Dinner'), ('accommodation', 'Accommodation'))
_NO_VALUE = frozenset({'', '-', 'n/a', 'na', 'none', 'null'})


def _faithful_norm(v) -> str:
    """A value compared for faithfulness: markdown (`*`, `` ` ``), outer spaces and `;` / `.` removed, spaces
    collapsed, casefolded; '-' for an empty slot (`-`, `N/A`, `None`)."""
    v = ' '.join(str(v if v is not None else '-').replace('*', '').replace('`', '').split()).casefold().strip(' .;')
    return '-' if v in _NO_VALUE else v


_REMARK_KEYS = ('cost', 'costs', 'price', 'avg', 'average', 'cuisine', 'cuisines', 'room type', 'house rule', 'minimum',
                'maximum', 'duration', 'distance', 'departure', 'arrival', 'rating', 'total', 'per ', 'approx', 'estimated',
                'budget', 'entry', 'free', 'ticket', 'open', 'hours', 'time', '$')


def _transcribed(parsed: str, written: str) -> bool:
    """Is `parsed` what `written` says, word for word, with at most a remark after it (`, Cost: $58`, `(Avg Cost: $15)`)?
    Both `_faithful_norm`ed; a current city's `from ` added by the parser is allowed (its prompt's form)."""
    if parsed == written: return True
    if parsed == '-' or written == '-': return False
    for w in (written, 'from ' + written):
        if w.startswith(parsed):
            rest = w[len(parsed):].lstrip(' ,;|-–—(:')
            if not rest or rest.startswith(_REMARK_KEYS): return True
    return False


_STATE_WORDS = None


def _derived(field: str, pv: str, wv: str, day: str) -> bool:
    """A route the parser writes its own way from what the day writes, every city word for word: a current city written
    as one city (`Madison`, `New York (New York)`) and parsed as the route of the day's transportation (`from Madison to
    Mosinee`, the parser prompt's rule), each city of it written in the day's current city or transportation; a flight
    written `Flight, F3756085, from A to B, …` and parsed `Flight Number: F3756085, from A to B, …` (the same number,
    each city of the route written in the day). No city may lose or gain a word: `Moline (Illinois)` parsed `Moline` is
    not derived."""
    from star.evaluator import from_to
    a, b = from_to(pv)
    if a is None or b is None: return False
    def whole(c):                           # the city written in the day, not followed by a state the parse lacks
        k = day.find(c)
        while k >= 0:
            rest = day[k + len(c):]
            if (k == 0 or not day[k - 1].isalnum()) and not rest[:1].isalnum() and not rest.startswith((' (', '(')) and \
                    not (rest.startswith(', ') and rest[2:4].isalpha() and not rest[2:].startswith(_REMARK_KEYS) and
                         rest[2:].split(',')[0].split(' to ')[0].strip() in _STATE_WORDS):
                return True
            k = day.find(c, k + 1)
        return False
    if field == 'current_city':
        return ' to ' not in wv and wv in (a, b) and whole(a) and whole(b)
    num = pv.split('flight number: ', 1)[1].split(',')[0].strip() if pv.startswith('flight number: ') else None
    return num not in (None, '-', '') and num in wv and whole(a) and whole(b)


def _state_words() -> frozenset:
    return frozenset(x.casefold() for x in _state_names()) | frozenset(x.casefold() for x in _POSTAL)


def faithful_reference(row: dict) -> bool:
    """Is the reference reading of `row` (`parsed`, the benchmark's parser's plan) a faithful transcription of the
    answer's text (issue 48)? True when the text writes each of the seven fields as a labelled line (`Current City:
    …`, `Transportation: …`, `Breakfast: …`, `Attraction(s): …`, `Lunch: …`, `Dinner: …`, `Accommodation: …`; markdown
    and bullets allowed) once per day of the parsed plan, and every parsed value is the written one word for word
    (`_transcribed`: up to markdown, spaces, letter case, the spelling of an empty slot, a remark after it such as
    `, Cost: $58`; attractions item by item): the parser dropped, added or changed no written word -- no state or
    postal code dropped (`Charlotte (North Carolina)`, `Phoenix, AZ`), no words before a listing dropped, no flight
    without a number given one. Answers whose days are not written that way (narratives, tables, revised plans, …) do
    not qualify: their reference is not checked against the text. Linear in the text."""
    global _STATE_WORDS
    if _STATE_WORDS is None: _STATE_WORDS = _state_words()
    P = [d for d in (row.get('parsed') or []) if d]
    if not P: return False
    text = row['text']
    for field, label in _FAITHFUL_LABELS:
        L = _labelled_lines(text, label)
        if field == 'attraction' and len(L) != len(P): L = _labelled_lines(text, 'Attractions')
        if len(L) != len(P): return False
        if field == 'current_city': CC = L
        if field == 'transportation': TR = L
        for i, (w, d) in enumerate(zip(L, P)):
            pv, wv = _faithful_norm(d.get(field)), _faithful_norm(w)
            if field in ('current_city', 'transportation') and _derived(field, pv, wv, _faithful_norm(CC[i]) + ' | ' +
                                                                        _faithful_norm(TR[i]) if field == 'transportation' else _faithful_norm(CC[i])):
                continue
            if field == 'attraction' and pv != '-' and wv != '-':
                pi, wi = [x.strip() for x in pv.split(';') if x.strip()], [x.strip() for x in wv.split(';') if x.strip()]
                if len(pi) != len(wi) or not all(_transcribed(x, y) for x, y in zip(pi, wi)): return False
            elif not _transcribed(pv, wv): return False
    return True


def faithful_agreement(rows: list[dict]) -> dict:
    """`measure`'s agreement restricted to the rows whose reference reading is faithful (`faithful_reference`), with
    the share of the rows (with a reference reading) that qualify."""
    with_ref = [r for r in rows if r.get('parsed') is not None]
    ok = [r for r in with_ref if faithful_reference(r)]
    out = measure(ok, 'faithful') if ok else {}
    out['qualifying'] = len(ok)
    out['with_reference'] = len(with_ref)
    out['share_qualifying'] = round(len(ok) / max(len(with_ref), 1), 4)
    return out


def record_faithful(out: str):
    """Issue 48, item 4: agreement with the reference reading only on the answers whose reference is a faithful
    transcription (`faithful_reference`), per source and part, with the share of answers that qualify; written to
    `out` (numbers only). Sources: the gpt-4o-mini runs (runs/answers34/aamas.jsonl.gz, when present) and issue 19's
    packaged public answers."""
    from agreement import real_answers
    res = {}
    parts = []
    if (NEW_OUT / 'aamas.jsonl.gz').exists():
        parts += [(f'aamas-4omini/{p}', new_rows('aamas.jsonl.gz', p)) for p in ('dev', 'heldout')]
    parts += [(f'issue19-public/{p}', [r for r in real_answers(p) if r['source'] == 'public']) for p in ('dev', 'heldout')]
    for name, rows in parts:
        m = faithful_agreement(rows)
        m['disagree'] = len(m.get('disagree', []))
        v = m.get('violations_read_as_passes', [])
        m['violations_read_as_passes'] = {'checks': len(v), 'success': [x for x in v if x[2] == 'success']}
        m.pop('doubt_curve', None)
        res[name] = m
        print(f"{name}: {m['qualifying']} of {m['with_reference']} answers qualify ({100 * m['share_qualifying']:.1f} %); "
              f"checks {100 * m.get('checks', 0):.2f} %, success {100 * m.get('success', 0):.2f} %, violations read as passes "
              f"{len(m['violations_read_as_passes']['success'])} (success), {m['violations_read_as_passes']['checks']} (checks); "
              f"metrics {m.get('metrics')}")
    Path(out).write_text(json.dumps({'command': 'python tools/real_answers.py faithful',
                                     'rule': 'faithful_reference (tools/real_answers.py)', 'heldout_rule': "sha256('issue34:<idx>')[0] < 103",
                                     'results': res}, indent=1, sort_keys=True) + '\n')
    print('wrote', out)


def sole_planning_prompt(task) -> str:
    "TravelPlanner's sole-planning prompt for `task`: the planner instruction with its reference information and query."
    tmpl = (ROOT / 'star' / 'data' / 'prompts' / 'sole_planning.txt').read_text(encoding='utf-8').rstrip('\n')
    return tmpl.replace('{text}', str(task.reference_information)).replace('{query}', task.query)


def generate(scale: str, every: int = 1, batch: int = 8, max_tokens: int = 2048, limit: int | None = None):
    from star.models import make_llm
    from vllm import SamplingParams
    out = ROOT / 'runs' / 'answers' / f'{scale}.jsonl'
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {json.loads(l)['idx'] for l in out.open()} if out.exists() else set()
    tasks = [t for i, t in enumerate(covered_tasks()) if i % every == 0 and t.idx not in done][:limit]
    print(f'{len(done)} done, {len(tasks)} to go', flush=True)
    if not tasks: return
    llm = make_llm(scale, max_model_len=16 * 1024, kv_cache_gib=6)
    sp = SamplingParams(temperature=0.0, max_tokens=max_tokens, seed=0)
    for s in range(0, len(tasks), batch):
        part = tasks[s:s + batch]
        t0 = time.time()
        res = llm.chat([[{'role': 'user', 'content': sole_planning_prompt(t)}] for t in part], sp, use_tqdm=False)
        dt = time.time() - t0
        with out.open('a') as f:
            for t, r in zip(part, res):
                f.write(json.dumps({'source': 'offline', 'run': scale, 'idx': t.idx, 'text': r.outputs[0].text,
                                    'prompt_tokens': len(r.prompt_token_ids), 'completion_tokens': len(r.outputs[0].token_ids),
                                    'finish_reason': r.outputs[0].finish_reason, 'seconds': round(dt / len(part), 1)}) + '\n')
        print(f'{s + len(part)}/{len(tasks)} in {dt:.0f} s', flush=True)


LAYOUTS = {
    'table': "Write the final plan as a markdown table with one row per day and the columns Day, Current City, "
             "Transportation, Breakfast, Attraction, Lunch, Dinner, Accommodation.",
    'json': "Write the final plan as JSON only: a list with one object per day, with the keys day, current_city, "
            "transportation, breakfast, attraction, lunch, dinner and accommodation.",
    'narrative': "Write the final plan as a friendly narrative: one paragraph per day in full sentences, without field "
                 "labels or bullet points.",
    'cards': "Write each day as a card: a markdown heading with the day number and the route, then bullet points that "
             "start with an emoji and a short label (travel, meals, sights, hotel).",
    'narrative-strict': "Do not copy the layout of the example above. Write the final plan as a story for the traveller: "
                        "one paragraph per day that starts 'On the first day', 'On the second day', …, in full sentences, "
                        "with no 'Day 1:' headings and no 'Label: value' lines.",
    'cards-strict': "Do not copy the layout of the example above. Write each day as a card: a heading '### 🗓️ <weekday> – "
                    "<route>', then bullet points that each start with an emoji (✈️ travel, 🍳 breakfast, 🥪 lunch, 🍽️ dinner, "
                    "📍 sights, 🛏️ hotel) and no 'Current City:' or 'Transportation:' labels.",
}
"""Issue 34, item 4: layout instructions appended to TravelPlanner's sole-planning prompt, so that the offline models
write the layouts chat models use (a table, JSON, a narrative, day cards) instead of the prompt's `Day 1:` example. The
0.5B follows the first two and ignores the plain narrative and cards requests (it copies the example), hence the
'-strict' wordings."""

LAYOUT_FIXTURE = FIXTURES / 'offline_layouts.jsonl.gz'


def layout_prompt(task, layout: str) -> str:
    "The sole-planning prompt of `task` with the instruction of `layout` (`LAYOUTS`) appended after its query."
    return sole_planning_prompt(task) + '\n\n' + LAYOUTS[layout]


def layout_queries(n: int) -> list:
    "The `n` dev-part validation tasks (issue 34's split) with reference information and the shortest prompts, 3-day trips."
    tasks = [t for t in covered_tasks() if not heldout34(t.idx) and t.days == 3]
    return sorted(tasks, key=lambda t: (len(str(t.reference_information)), t.idx))[:n]


def layouts(scale: str = '0.5B', n: int = 8, max_tokens: int = 1024, batch: int = 8, only: str | None = None):
    """Answers of an offline model (`star.models.make_llm`, greedy, vLLM) to `n` dev queries under each layout
    instruction of `LAYOUTS`: runs/answers34/layouts_<scale>.jsonl, appended batch by batch (a re-run skips what is
    done); `only`: a comma-separated subset of the layouts. Run it under the heavy lock (`flock /work/heavy.lock …`)."""
    import hashlib
    from star.models import make_llm
    from vllm import SamplingParams
    out = NEW_OUT / f'layouts_{scale}.jsonl'
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {(json.loads(l)['idx'], json.loads(l)['layout']) for l in out.open()} if out.exists() else set()
    wanted = only.split(',') if only else list(LAYOUTS)
    todo = [(t, lay) for t in layout_queries(n) for lay in wanted if (t.idx, lay) not in done]
    print(f'{len(done)} done, {len(todo)} to go', flush=True)
    if not todo: return
    llm = make_llm(scale, max_model_len=12 * 1024, kv_cache_gib=6)
    sp = SamplingParams(temperature=0.0, max_tokens=max_tokens, seed=0)
    for s in range(0, len(todo), batch):
        part = todo[s:s + batch]
        prompts = [layout_prompt(t, lay) for t, lay in part]
        t0 = time.time()
        res = llm.chat([[{'role': 'user', 'content': p}] for p in prompts], sp, use_tqdm=False)
        dt = time.time() - t0
        with out.open('a') as f:
            for (t, lay), p, r in zip(part, prompts, res):
                f.write(json.dumps({'source': 'offline-layouts', 'run': scale, 'idx': t.idx, 'layout': lay,
                                    'instruction': LAYOUTS[lay], 'prompt_sha256': hashlib.sha256(p.encode()).hexdigest(),
                                    'text': r.outputs[0].text, 'prompt_tokens': len(r.prompt_token_ids),
                                    'completion_tokens': len(r.outputs[0].token_ids), 'finish_reason': r.outputs[0].finish_reason,
                                    'seconds': round(dt / len(part), 1)}) + '\n')
        print(f'{s + len(part)}/{len(todo)} in {dt:.0f} s', flush=True)


def pack_layouts():
    "runs/answers34/layouts_*.jsonl -> tests/fixtures/travelplanner/offline_layouts.jsonl.gz (ours: packaged), sorted."
    rows = [json.loads(l) for path in sorted(NEW_OUT.glob('layouts_*.jsonl')) for l in path.open()]
    rows.sort(key=lambda r: (r['run'], r['idx'], list(LAYOUTS).index(r['layout'])))
    write_jsonl_gz(rows, LAYOUT_FIXTURE)
    print('wrote', LAYOUT_FIXTURE, len(rows))


def pack():
    "Gather the offline models' answers (`runs/answers/<scale>.jsonl`) into `answers/offline.jsonl.gz`, sorted."
    rows = []
    for path in sorted((ROOT / 'runs' / 'answers').glob('*.jsonl')):
        rows += [json.loads(l) for l in path.open()]
    rows.sort(key=lambda r: (r['run'], r['idx']))
    write_jsonl_gz(rows, OUT / 'offline.jsonl.gz')
    print('wrote', OUT / 'offline.jsonl.gz', len(rows), {r: sum(x['run'] == r for x in rows) for r in {x['run'] for x in rows}})


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('public'); p.add_argument('mirror')
    p = sub.add_parser('aamas'); p.add_argument('mirror')
    p = sub.add_parser('metacrew'); p.add_argument('mirror')
    p = sub.add_parser('record'); p.add_argument('--out', default=str(ROOT / 'results' / 'formatter' / 'issue34_agreement.json'))
    p = sub.add_parser('faithful', help='issue 48: agreement on the answers whose reference reading is faithful')
    p.add_argument('--out', default=str(ROOT / 'results' / 'formatter' / 'issue48_faithful.json'))
    p = sub.add_parser('disagreements', help="dev part only: the causes of the disagreements, per check and per cause")
    p.add_argument('file', help="runs/answers34/<file> (e.g. aamas.jsonl.gz), or 'public' (issue 19's GPT-4-era dev answers)")
    p.add_argument('--show', type=int, default=0, help='examples per cause')
    p = sub.add_parser('parser-consistency', help="dev part only: how consistently the reference parser keeps what is written")
    p.add_argument('file')
    p = sub.add_parser('measure'); p.add_argument('file'); p.add_argument('--part', default='dev'); p.add_argument('--runs', default=None)
    p.add_argument('--show', type=int, default=0)
    sub.add_parser('pack')
    p = sub.add_parser('layouts', help='offline model answers under layout instructions (issue 34, item 4)')
    p.add_argument('--scale', default='0.5B'); p.add_argument('--n', type=int, default=8); p.add_argument('--max-tokens', type=int, default=1024)
    p.add_argument('--only', default=None, help='comma-separated layouts (default: all of LAYOUTS)')
    sub.add_parser('pack-layouts')
    g = sub.add_parser('generate'); g.add_argument('--scale', default='0.5B'); g.add_argument('--every', type=int, default=1)
    g.add_argument('--batch', type=int, default=8); g.add_argument('--max-tokens', type=int, default=2048)
    g.add_argument('--limit', type=int, default=None)
    a = ap.parse_args()
    if a.cmd == 'public': public(a.mirror)
    elif a.cmd == 'aamas': aamas(a.mirror)
    elif a.cmd == 'metacrew': metacrew(a.mirror)
    elif a.cmd == 'record': record(a.out)
    elif a.cmd == 'faithful': record_faithful(a.out)
    elif a.cmd == 'disagreements': disagreements(a.file, a.show)
    elif a.cmd == 'parser-consistency': parser_consistency(a.file)
    elif a.cmd == 'measure':
        rows = new_rows(a.file, a.part)
        if a.runs: rows = [r for r in rows if any(r['run'].endswith(x) or r['run'] == x for x in a.runs.split(','))]
        m = measure(rows, f'{a.file} [{a.part}]')
        print(report(m))
        from collections import Counter
        print(Counter(c for *_, cs in m.get('disagree', []) for c in cs).most_common())
        for run, idx, cs in m.get('disagree', [])[:a.show]: print('  ', run, idx, cs)
    elif a.cmd == 'pack': pack()
    elif a.cmd == 'layouts': layouts(a.scale, a.n, a.max_tokens, only=a.only)
    elif a.cmd == 'pack-layouts': pack_layouts()
    else: generate(a.scale, a.every, a.batch, a.max_tokens, a.limit)
