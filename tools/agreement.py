"""Agreement measurement of the grounded reader (issues 9, 19, 34), out of the library.

Does a reading keep the verdicts? Two kinds of evidence:

* our own renderings (`render_freeform`) of the 45 gold train plans and their single-edit violations
  (`agreement_fixtures`), read back and compared with the structured plans (`agreement`);
* real answers nobody here wrote (`real_answers`: the public GPT-4 / Mixtral / Llama-2 / Gemini validation runs with the
  plans the benchmark's own parser extracted), compared with that reference reading (`reading_agreement`).

Used by chapter 04b_grounded, `tools/real_answers.py`, `tools/llm_formatter_eval.py`, `bench/formatter.py` and the
tests (`sys.path.insert(0, 'tools')`; `from agreement import ...`).
"""
from __future__ import annotations

import ast
import json
from collections import Counter

from star.evaluator import COMMONSENSE_CHECKS, HARD_CHECKS, dataset_metrics, eval_index, evaluate_plan, from_to
from star.formatter import format_plan
from star.grounded import format_grounded, grounding_index, plain_plan, transport_text
from star.paths import data_path
from star.plan import FIELD_LABELS, PLAN_KEYS
from star.tasks import load_tasks

def _venue_name(v: str) -> str: return v.rsplit(', ', 1)[0] if ', ' in v else v
def _attractions(v: str) -> list[str]: return [a for a in v.split(';') if a.strip()] if v and v != '-' else []

def _date(task, i: int) -> str:
    import datetime
    dates = task.get('date') if isinstance(task, dict) else getattr(task, 'date', None)
    if isinstance(dates, str): dates = ast.literal_eval(dates)
    try: return datetime.date.fromisoformat(dates[i]).strftime('%B %d').replace(' 0', ' ')
    except (TypeError, ValueError, IndexError): return f'day {i + 1}'

def _leg_parts(t: str) -> dict:
    "Fields of a transportation value: mode, number, a, b, dep, arr, duration, cost."
    a, b = from_to(t)
    parts = dict(p.split(': ', 1) for p in t.split(', ') if ': ' in p)
    mode = 'flight' if t.startswith('Flight') else 'taxi' if t.lower().startswith('taxi') else 'drive'
    return {'mode': mode, 'number': parts.get('Flight Number'), 'a': a, 'b': b, 'dep': parts.get('Departure Time'),
            'arr': parts.get('Arrival Time'), 'duration': parts.get('duration'), 'cost': parts.get('cost')}


def _render_markdown(plan, task, cities=True):
    out = [f"Here is your {len(plan)}-day itinerary.", ""]
    for i, d in enumerate(plan):
        out.append(f"### **Day {d['days']} ({_date(task, i)})**")
        for k in PLAN_KEYS[1:]:
            label, v = {'attraction': 'Attractions'}.get(k, FIELD_LABELS[k]), d[k]
            if k == 'attraction':
                names = _attractions(v)
                out += [f"- **{label}:** -"] if not names else [f"- **{label}:**"] + [f"  - {a if cities else _venue_name(a)}" for a in names]
                continue
            if not cities and k in ('breakfast', 'lunch', 'dinner', 'accommodation') and v != '-': v = _venue_name(v)
            out.append(f"- **{label}:** {v}")
        out.append("")
    return '\n'.join(out + ["### Budget Breakdown", "- **Accommodation**: within budget", "- **Total**: within budget"])

def _render_app_f(plan, task):
    get = task.get if isinstance(task, dict) else (lambda k, d=None: getattr(task, k, d))
    out, prev = [f"Travel Plan: {get('org')} to {get('dest')}", f"Budget: ${get('budget'):,} | Travelers: {get('people_number')}"], None
    for i, d in enumerate(plan):
        cc = d['current_city']
        b = cc.split(' to ')[-1] if cc.startswith('from ') else None
        out.append(f"Day {d['days']}: {_date(task, i)} - " + (f"Travel to {b}" if b else f"Explore {cc}"))
        if d['transportation'] != '-':
            t = _leg_parts(d['transportation'])
            if t['mode'] == 'flight': out.append(f"Morning: Flight from {t['a']} to {t['b']} [{t['number']}] | Departure: {t['dep']} | Arrival: {t['arr']}")
            elif t['mode'] == 'taxi': out.append(f"Morning: Taxi from {t['a']} to {t['b']} | Cost: ${t['cost']} | Duration: {t['duration']}")
            else: out.append(f"Morning: Drive from {t['a']} to {t['b']} ({t['duration']}, ${t['cost']})")
        acc = d['accommodation']
        if acc != '-' and acc != prev: out.append(f"Evening: Check into accommodation - [{_venue_name(acc)}]")
        prev = acc if acc != '-' else None
        for meal in ('breakfast', 'lunch', 'dinner'):
            if d[meal] != '-': out.append(f"{meal.capitalize()}: At {_venue_name(d[meal])} | Avg Cost: $20")
        for j, a in enumerate(_attractions(d['attraction'])):
            out.append(f"{('Morning ', 'Afternoon ', '')[min(j, 2)]}Attraction: Visit {_venue_name(a)}")
    return '\n'.join(out + ["Key Highlights", f"Total Budget: ${get('budget'):,}", "Flights: booked", "Accommodation: booked"])


def _render_prose(plan, task):
    out = []
    for i, d in enumerate(plan):
        s = [f"**Day {d['days']}.** On {_date(task, i)}"]
        if d['transportation'] != '-':
            t = _leg_parts(d['transportation'])
            s.append(f"you take flight {t['number']} from {t['a']} to {t['b']}, leaving at {t['dep']}." if t['mode'] == 'flight' else
                     f"you take a taxi from {t['a']} to {t['b']} ({t['duration']})." if t['mode'] == 'taxi' else
                     f"you drive from {t['a']} to {t['b']} ({t['duration']}).")
        else: s.append(f"you stay in {d['current_city']}.")
        if d['breakfast'] != '-': s.append(f"Start with breakfast at {_venue_name(d['breakfast'])}.")
        names = [_venue_name(a) for a in _attractions(d['attraction'])]
        if names: s.append("Then visit " + ' and '.join(names) + '.')
        if d['lunch'] != '-': s.append(f"Have lunch at {_venue_name(d['lunch'])}.")
        if d['dinner'] != '-': s.append(f"In the evening, enjoy dinner at {_venue_name(d['dinner'])}.")
        if d['accommodation'] != '-': s.append(f"Stay at {_venue_name(d['accommodation'])} for the night.")
        out.append(' '.join(s))
    return '\n\n'.join(out)

FREEFORM_STYLES = ('markdown', 'markdown_names', 'app_f', 'one_line', 'prose')
"The free-form styles of `render_freeform` (see the agreement section)."

def render_freeform(plan: list[dict], task, style: str) -> str:
    """A free-form itinerary text of the structured `plan` (days with all 8 keys; `plain_plan` first for gold plans)
    for `task` (dict or `Task`: dates, origin, budget) in one of `FREEFORM_STYLES`. Raises `ValueError` otherwise."""
    if style == 'markdown': return _render_markdown(plan, task)
    if style == 'markdown_names': return _render_markdown(plan, task, cities=False)
    if style == 'app_f': return _render_app_f(plan, task)
    if style == 'one_line': return _render_app_f(plan, task).replace('\n', ' ')
    if style == 'prose': return _render_prose(plan, task)
    raise ValueError(f"style must be one of {FREEFORM_STYLES}, got {style!r}")


VIOLATIONS = ('restaurant_elsewhere', 'repeated_restaurant', 'unknown_restaurant', 'missing_meal', 'missing_attraction',
              'expensive_stay', 'unknown_flight', 'drive_and_fly')
"The single edits of `violation_plans`."

def violation_plans(task, plan: list[dict], db=None) -> list[tuple[str, list[dict]]]:
    """`[(edit, edited plan)]`: the `VIOLATIONS` edits that apply to the structured `plan` (a `plain_plan`) of `task`,
    made on its first non-travel day / its flights (see the agreement section). The plans' verdicts are the
    evaluator's, whatever they are."""
    ix, gi = eval_index(db), grounding_index(db)
    get = task.get if isinstance(task, dict) else (lambda k, d=None: getattr(task, k, d))
    org, out = get('org'), []
    stay_days = [i for i, d in enumerate(plan) if 'from ' not in d['current_city']]
    if stay_days:
        i = stay_days[0]
        city = plan[i]['current_city']
        here = {n for d in stay_days for n, _ in ix.restaurants.get(plan[d]['current_city'], ())}
        other = next((n for n, _ in ix.restaurants.get(org, ()) if n not in here and len(n) > 4), None)
        if other: out.append(('restaurant_elsewhere', _set(plan, i, lunch=f"{other}, {org}")))
        meals = [d[m] for d in plan for m in ('breakfast', 'lunch', 'dinner') if d[m] != '-']
        if meals and plan[i]['dinner'] != meals[0]: out.append(('repeated_restaurant', _set(plan, i, dinner=meals[0])))
        out.append(('unknown_restaurant', _set(plan, i, dinner=f"Golden Lantern Noodle Bar, {city}")))
        out.append(('missing_meal', _set(plan, i, lunch='-')))
        out.append(('missing_attraction', _set(plan, i, attraction='-')))
        stays = [s for _, s in ix.accommodations.get(city, ())]
        current = plan[i]['accommodation'].rsplit(', ', 1)[0]
        if stays and max(stays, key=lambda s: s.price).name != current:
            dear = f"{max(stays, key=lambda s: s.price).name}, {city}"
            out.append(('expensive_stay', [dict(d, accommodation=dear) if d['accommodation'] == plan[i]['accommodation'] else dict(d) for d in plan]))
    flights = [i for i, d in enumerate(plan) if d['transportation'].startswith('Flight Number: F')]
    if flights:
        f0, last = flights[0], flights[-1]
        out.append(('unknown_flight', _set(plan, f0, transportation=plan[f0]['transportation'].replace('Flight Number: F', 'Flight Number: F9', 1))))
        a, b = from_to(plan[last]['current_city'])
        if last != f0 and isinstance(gi.roads.get((a, b), (None, None))[1], str):
            out.append(('drive_and_fly', _set(plan, last, transportation=transport_text(gi, 'drive', a, b))))
    return out

def _set(plan, i, **fields):
    p = [dict(d) for d in plan]; p[i].update(fields); return p


def agreement_fixtures(tasks) -> list[tuple[str, object, list[dict]]]:
    "`[(kind, task, plan)]`: for every task with an annotated plan, its `plain_plan` ('gold') and its `violation_plans`."
    out = []
    for t in tasks:
        ann = t.get('annotated_plan') if isinstance(t, dict) else t.annotated_plan
        if not ann: continue
        g = plain_plan(ann)
        out += [('gold', t, g)] + [(k, t, p) for k, p in violation_plans(t, g)]
    return out

def agreement(fixtures, styles=FREEFORM_STYLES, protocols=('official', 'agent_star')) -> dict:
    """Per `(style, protocol)`: `{'plans', 'success', 'checks', 'per_check': {check: share}, 'disagree': [(kind, task
    idx)]}` where `success` is the share of fixture plans whose Success verdict is the same after `render_freeform` →
    `format_grounded` as for the structured plan, `checks` the share of the 13 check verdicts that are."""
    names = COMMONSENSE_CHECKS + HARD_CHECKS
    def verdicts(task, plan, p):
        r = evaluate_plan(task, plan, p)
        return {**r.commonsense, **r.hard, 'success': r.success}
    want = [{p: verdicts(t, plan, p) for p in protocols} for _, t, plan in fixtures]
    out = {}
    for style in styles:
        got = [format_grounded(render_freeform(plan, t, style), t) for _, t, plan in fixtures]
        for p in protocols:
            same = [{c: verdicts(t, g, p)[c] == w[p][c] for c in names + ('success',)} for (_, t, _), g, w in zip(fixtures, got, want)]
            n = len(same)
            out[(style, p)] = {'plans': n, 'success': sum(s['success'] for s in same) / n,
                               'checks': sum(s[c] for s in same for c in names) / (n * len(names)),
                               'per_check': {c: sum(s[c] for s in same) / n for c in names},
                               'disagree': [(k, t.get('idx') if isinstance(t, dict) else t.idx) for (k, t, _), s in zip(fixtures, same) if not s['success']]}
    return out

def agreement_table(result: dict):
    "pandas DataFrame of `agreement`: one row per style, Success and per-check agreement (%) per protocol."
    import pandas as pd
    rows = {}
    for (style, p), r in result.items():
        rows.setdefault(style, {})[(p, 'success %')] = round(100 * r['success'], 1)
        rows[style][(p, 'checks %')] = round(100 * r['checks'], 2)
        rows[style][(p, 'plans')] = r['plans']
    return pd.DataFrame.from_dict(rows, orient='index')


ANSWER_RUNS = {
    'gpt4-0527': 'GPT-4 (gpt-4-1106-preview), sole-planning, direct',
    'gpt4-0601': 'GPT-4 (gpt-4-1106-preview), sole-planning, direct (prompt revised for budgets)',
    'gpt4-0602': 'GPT-4 (gpt-4-1106-preview), sole-planning, direct (prompt revised again)',
    'gpt4-0609': 'GPT-4 (gpt-4-1106-preview), sole-planning, direct (prompt written by GPT-4o)',
    'mixtral-8x7b': 'Mixtral-8x7B, sole-planning, direct',
    'llama2-70b': 'Llama-2-70B, sole-planning, direct',
    'gemini-two-stage': 'Gemini (gemini-pro), two-stage (tool use, then planning)',
    '0.5B': 'ours: Qwen2.5-Coder-0.5B-Instruct (offline scale 0.5B), sole-planning, greedy, vLLM',
    '1.5B-offline': 'ours: Qwen2.5-Coder-1.5B-Instruct (offline scale 1.5B-offline), sole-planning, greedy, vLLM',
}
"The runs of the real-answer set (`star/data/travelplanner/answers/`, provenance in its README)."

HELDOUT_RUN, HELDOUT_SEED, HELDOUT_QUERIES = 'gpt4-0609', 19, 41

def heldout_queries() -> frozenset:
    """Validation `idx` of the held-out queries: 41 of the 123 whose reference information is packaged, drawn with
    `random.Random(19)`; their answers (of every run) and every answer of `HELDOUT_RUN` were never read while the
    grounded reader was written."""
    import random
    covered = sorted(t.idx for t in load_tasks('validation') if t.reference_information)
    return frozenset(random.Random(HELDOUT_SEED).sample(covered, HELDOUT_QUERIES))

def real_answers(part: str = 'all', runs=None) -> list[dict]:
    """Real TravelPlanner answers to validation queries: `[{run, idx, text, parsed, part, ...provenance}]`, `parsed` the
    plan the benchmark's own LLM parser (GPT-4, TravelPlanner's `postprocess/` prompt) extracted from `text` (None
    where none was published, and for our models' answers). `part`: 'all' | 'dev' (what the reader was developed on)
    | 'heldout' (`heldout_queries` and `HELDOUT_RUN`); `runs`: names of `ANSWER_RUNS` (default all). Raises
    `ValueError` for an unknown part."""
    import gzip
    if part not in ('all', 'dev', 'heldout'): raise ValueError(f"part must be 'all', 'dev' or 'heldout', got {part!r}")
    held, out, folder = heldout_queries(), [], data_path('travelplanner', 'answers')
    for name in ('public.jsonl.gz', 'offline.jsonl.gz'):
        path = folder / name
        if not path.exists(): continue
        for line in gzip.open(path, 'rt', encoding='utf-8'):
            r = json.loads(line)
            r.setdefault('parsed', None)
            r['part'] = 'heldout' if r['idx'] in held or r['run'] == HELDOUT_RUN else 'dev'
            if (part == 'all' or r['part'] == part) and (runs is None or r['run'] in runs): out.append(r)
    return out

METRICS = ('delivery_rate', 'commonsense_micro', 'commonsense_macro', 'hard_micro', 'hard_macro', 'final_pass')
"The dataset metrics compared both ways (TravelPlanner's leaderboard metrics)."


def reading_agreement(rows: list[dict], read=None, protocol: str = 'official') -> dict:
    """How our reading of real answers agrees with the reference reading (`parsed`), as the evaluator sees them: for
    the rows that have one, `{'n', 'checks', 'success', 'per_check': {check: share}, 'ours', 'reference'
    (dataset_metrics of each reading), 'disagree': [(run, idx, [checks])]}`; `checks` is the share of the 13
    check verdicts (True / False / None) that are equal, `success` the share of equal Success verdicts. `read(text,
    task) -> plan or None` defaults to `format_plan(text, task).plan` (exact, else grounded; no LLM)."""
    tasks = {t.idx: t for t in load_tasks('validation')}
    read = read or (lambda text, task: format_plan(text, task).plan)
    names, rows = COMMONSENSE_CHECKS + HARD_CHECKS, [r for r in rows if r.get('parsed') is not None]
    if not rows: raise ValueError("no row has a reference reading")
    same, ours, ref, disagree = Counter(), [], [], []
    for r in rows:
        t = tasks[r['idx']]
        a, b = evaluate_plan(t, r['parsed'], protocol), evaluate_plan(t, read(r['text'], t), protocol)
        va, vb = {**a.commonsense, **a.hard, 'success': a.success}, {**b.commonsense, **b.hard, 'success': b.success}
        diff = [c for c in va if va[c] != vb[c]]
        same.update(c for c in va if c not in diff)
        if diff: disagree.append((r['run'], r['idx'], diff))
        ref.append(a); ours.append(b)
    n, ts = len(rows), [tasks[r['idx']] for r in rows]
    return {'n': n, 'checks': sum(same[c] for c in names) / (n * len(names)), 'success': same['success'] / n,
            'per_check': {c: same[c] / n for c in names}, 'ours': dataset_metrics(ts, ours),
            'reference': dataset_metrics(ts, ref), 'disagree': disagree}

def reading_table(results: dict):
    """pandas DataFrame of `{name: reading_agreement(...)}`: answers, per-check and Success agreement (%), and each
    metric of `METRICS` (%) by the reference reading / ours."""
    import pandas as pd
    rows = {}
    for name, r in results.items():
        row = {'answers': r['n'], 'checks agree %': round(100 * r['checks'], 1), 'success agree %': round(100 * r['success'], 1)}
        for m in METRICS: row[m.replace('_', ' ') + ' % (ref / ours)'] = f"{100 * r['reference'][m]:.1f} / {100 * r['ours'][m]:.1f}"
        rows[name] = row
    return pd.DataFrame.from_dict(rows, orient='index')
