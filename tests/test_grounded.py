"""Tests of the grounded formatter, the LLM formatter's retries, the test-split rewrite and the linear-time parsers
(issue 9), on the paper's App. F answers, the embedded database and the gold train plans."""
import json
import random
import re
import signal
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from star.agent import parse_turn
from star.evaluator import evaluate_plan, from_to, name_city, run_check, strip_state
from star.formatter import (LLMFormatError, LLMFormatter, fake_formatter_server, format_messages, format_plan, llm_formatter,
                            normalize_test_transportation, plan_json_schema)
from star.grounded import CHECK_KINDS, check_reading, format_grounded, grounding_index, html_as_text, plain_plan
from star.plan import render_plan
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / 'tools'))
from agreement import FREEFORM_STYLES, VIOLATIONS, agreement, agreement_fixtures, real_answers, render_freeform, violation_plans  # noqa: E402
from star.tasks import load_tasks

FIX = Path(__file__).parent / 'fixtures' / 'travelplanner' / 'appendix_f_answers.json'
APP_F = {a['name']: a for a in json.loads(FIX.read_text(encoding='utf-8'))['answers']}
VAL, TRAIN = load_tasks('validation'), load_tasks('train')
APPLETON, TASK11 = APP_F['appleton']['text'], VAL[11]


@contextmanager
def hang_guard(seconds=10):
    """Fail instead of hanging when a parser is super-linear (a quadratic scan of 100 KB takes minutes). Not a
    performance measure: bench/formatter.py times these inputs."""
    def boom(*_): raise TimeoutError(f"did not finish within {seconds} s: super-linear?")
    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(seconds)
    try: yield
    finally:
        signal.alarm(0); signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------- the paper's App. F answers
@pytest.mark.parametrize('name', list(APP_F))
@pytest.mark.parametrize('layout', ['as printed', 'one line'])
def test_appendix_f_verdicts(name, layout):
    a = APP_F[name]
    task = VAL[a['idx']]
    assert task.split == a['split']
    text = a['text'] if layout == 'as printed' else a['text'].replace('\n', ' ')
    fp = format_plan(f"<think>done</think>\n<answer>\n{text}\n</answer>", task)
    assert fp.formatter == 'grounded'
    for protocol, want in a['expected'].items():
        r = evaluate_plan(task, fp.plan, protocol)
        got = {'success': r.success, **r.commonsense, **r.hard}
        for check, verdict in want.items():
            v = got[check] if got.get(check) is not None else run_check(check, task, fp.plan, protocol)[0]
            assert v is verdict, (name, protocol, check, r.reasons.get(check))


def test_appleton_plan():
    plan = format_grounded(APPLETON, TASK11)
    assert plan[0]['transportation'] == ('Flight Number: F3574992, from St. Petersburg to Appleton, '
                                         'Departure Time: 22:51, Arrival Time: 00:42')
    assert plan[0]['accommodation'] == plan[1]['accommodation'] == 'Stylish, convenient, renovated- 2 min to subway, Appleton'
    assert plan[2]['accommodation'] == '-' and plan[2]['current_city'] == 'from Appleton to St. Petersburg'
    assert plan[1]['attraction'] == 'Atlas Science Center, Appleton;Trout Museum of Art, Appleton;'   # truncated: as written
    assert plan[1]['dinner'] == "Mathew's Cafe, Appleton"                                             # full name: the database's
    assert format_grounded(APPLETON) == plan                                  # the task only adds its cities


def test_charleston_keeps_its_cuisine_failure():
    task = VAL[124]
    plan = format_grounded(APP_F['charleston']['text'], task)
    assert plan[2]['accommodation'] == '-'                                    # "Check out from [Bronx Roon]" is no stay
    for protocol in ('official', 'agent_star'):
        r = evaluate_plan(task, plan, protocol)
        assert r.commonsense_macro and r.hard['valid_cuisine'] is False and 'Chinese' in r.reasons['valid_cuisine']


def test_omitted_days_are_noted():
    fp = format_plan(APP_F['texas_week']['text'], VAL[170])
    assert [d['days'] for d in fp.plan] == [1, 2, 3, 7]
    assert fp.notes[:2] == ('day 2: no stay written; the check-in of day 1 covers the night', 'days [4, 5, 6] are not in the answer')
    assert 'days-asked' in {n.kind for n in fp.doubts}                         # 4 days read of 7: checked, a doubt
    fp = format_plan(APP_F['milwaukee']['text'], VAL[144])
    assert [d['days'] for d in fp.plan] == [1, 3]                             # "[Day 2 in Detroit omitted …]" is no day


# ---------------------------------------------------------------- never invents, never repairs
def _graded(text, protocol='official', task=TASK11):
    plan = format_grounded(text, task)
    return plan, evaluate_plan(task, plan, protocol)


def test_unknown_names_are_kept_as_written():
    plan, r = _graded(APPLETON.replace('At Side Wok', 'At Golden Lantern Noodle Bar'))
    assert plan[1]['lunch'] == 'Golden Lantern Noodle Bar, Appleton'
    assert r.commonsense['is_valid_information_in_sandbox'] is False
    plan, r = _graded(APPLETON.replace('Visit Trout Museum of Art', 'Visit the Great Appleton Ferris Wheel'))
    assert 'the Great Appleton Ferris Wheel, Appleton;' in plan[1]['attraction'] and not r.success
    plan, r = _graded(APPLETON.replace('F3574992', 'F3574999'))
    assert plan[0]['transportation'] == 'Flight Number: F3574999, from St. Petersburg to Appleton' and not r.success


def test_venues_stay_where_the_text_puts_them():
    gi = grounding_index()
    appleton = {v.name for v in gi.by_city['Appleton']}
    stp = next(v.name for v in gi.by_city['St. Petersburg'] if v.table == 'restaurants' and v.name not in appleton and len(v.name) > 8)
    # named without a city on a day in Appleton: read in Appleton (as an LLM formatter reads it), not moved to the
    # database's city; the sandbox check fails and a note says where the database has it
    notes = []
    plan = format_grounded(APPLETON.replace('At Side Wok', f'At {stp}'), TASK11, notes)
    assert plan[1]['lunch'] == f'{stp}, Appleton' and any('St. Petersburg' in n for n in notes)
    assert evaluate_plan(TASK11, plan).commonsense['is_valid_information_in_sandbox'] is False
    # written with its city: read there, and Within Current City fails (agent_star)
    plan, r = _graded(APPLETON.replace('At Side Wok', f'At {stp}, St. Petersburg'), 'agent_star')
    assert plan[1]['lunch'] == f'{stp}, St. Petersburg'
    assert r.commonsense['is_valid_information_in_current_city'] is False


def test_missing_things_stay_missing():
    plan, r = _graded(APPLETON.replace('Lunch: At Side Wok | Avg Cost: $15\n', ''))
    assert plan[1]['lunch'] == '-' and r.commonsense['is_not_absent'] is False
    plan, r = _graded(APPLETON.replace('Evening: Check into accommodation - [Stylish, convenient, renovated- 2 min to subway] '
                                       '| $64/night | Minimum Nights: 1 | Entire home/apt\n', ''))
    assert [d['accommodation'] for d in plan] == ['-', '-', '-'] and not r.success
    plan, r = _graded(APPLETON.replace('Breakfast: At New Bakers Shoppee', 'Breakfast: -'))
    assert plan[1]['breakfast'] == '-'


def test_wrong_cuisine_stays_wrong():
    task = VAL[124]
    gi = grounding_index()
    chinese = next(v.name for v in gi.by_city['Charleston'] if v.table == 'restaurants'
                   and 'Chinese' in (gi_row := _cuisines('Charleston', v.name)) and 'Mexican' not in gi_row)
    fixed = APP_F['charleston']['text'].replace('Lunch: The Culinary Pitaara', f'Lunch: {chinese}')
    r = evaluate_plan(task, format_grounded(fixed, task))
    assert r.hard['valid_cuisine'] is True                                   # a Chinese lunch repairs it …
    r = evaluate_plan(task, format_grounded(APP_F['charleston']['text'], task))
    assert r.hard['valid_cuisine'] is False                                  # … the formatter never does


def _cuisines(city, name):
    from star.evaluator import eval_index
    rows = eval_index().find('restaurants', name, city)
    return rows[0].cuisines if rows else ''


# ---------------------------------------------------------------- agreement on our renderings
@pytest.fixture(scope='module')
def fixtures():
    return agreement_fixtures(TRAIN)


def test_agreement_fixture_set(fixtures):
    kinds = [k for k, _, _ in fixtures]
    assert kinds.count('gold') == 45 and set(kinds) == {'gold', *VIOLATIONS} and len(fixtures) >= 300
    # the edits are violations: most of them fail where the gold plan passes
    bad = sum(not evaluate_plan(t, p).success for k, t, p in fixtures if k != 'gold')
    assert bad / (len(fixtures) - 45) > 0.8


def test_agreement_per_style(fixtures):
    res = agreement(fixtures)
    assert set(res) == {(s, p) for s in FREEFORM_STYLES for p in ('official', 'agent_star')}
    for key, r in res.items():
        assert r['plans'] == len(fixtures)
        # styles that write venues without their city cannot carry the 'restaurant_elsewhere' edit (a lunch of the
        # origin city on a day in the destination): the text puts it in the destination and the reading does too
        unreadable = 0 if key[0] == 'markdown' else sum(k == 'restaurant_elsewhere' for k, _ in r['disagree'])
        assert r['success'] >= 0.99 - unreadable / r['plans'] and r['checks'] >= 0.94, (key, r['disagree'])
        # gold plans whose texts cannot carry them: train query 41 puts San Angelo's attractions on days in San Antonio
        # (the styles without cities read them where the text puts them), query 31 names a Domino's of both cities
        assert [k for k, _ in r['disagree']].count('gold') <= 2, key
    assert res[('markdown', 'official')]['success'] == res[('markdown', 'agent_star')]['success'] == 1.0
    assert res[('markdown', 'official')]['checks'] == res[('markdown', 'agent_star')]['checks'] == 1.0


@pytest.mark.parametrize('style', FREEFORM_STYLES)
def test_gold_plans_read_back_exactly(style):
    for t in TRAIN[:15]:                                                      # 3-day trips: one destination city
        g = plain_plan(t.annotated_plan)
        got = format_grounded(render_freeform(g, t, style), t)
        assert [{k: v for k, v in d.items() if k != 'transportation'} for d in got] == \
               [{k: v for k, v in d.items() if k != 'transportation'} for d in g], (t.idx, style)


def test_violation_plans_are_single_edits():
    g = plain_plan(TRAIN[0].annotated_plan)
    for kind, p in violation_plans(TRAIN[0], g):
        diff = [(i, k) for i, (a, b) in enumerate(zip(g, p)) for k in a if a[k] != b[k]]
        assert diff and (kind == 'expensive_stay' or len(diff) == 1), (kind, diff)


# ---------------------------------------------------------------- the LLM formatter: samples, prompts, schema
def _reply(plan):
    return json.dumps([{'day': d['days'], **{k: v for k, v in d.items() if k != 'days'}} for d in plan])


def test_llm_resamples_invalid_json_up_to_twenty_times():
    url, srv = fake_formatter_server('Sorry, here is the itinerary in words.')
    try:
        llm = llm_formatter(url, 'm')
        with pytest.raises(LLMFormatError, match='after 20 samples'):
            llm(APPLETON, TASK11.query)
        assert llm.n_requests == llm.last_samples == 20
        assert [(r['temperature'], r.get('seed')) for r in srv.requests] == [(0.0, None)] + [(1.0, k) for k in range(1, 20)]
    finally:
        srv.shutdown(); srv.server_close()
    good = format_grounded(APPLETON, TASK11)
    url, srv = fake_formatter_server(['{"day": 1', '```json\n' + _reply(good) + '\n```'])
    try:
        llm = llm_formatter(url, 'm', prompt='upstream', json_schema=True)
        fp = format_plan(APPLETON, TASK11, formatter='llm', llm=llm)
        assert (fp.formatter, fp.prompt, fp.plan, llm.last_samples) == ('llm', 'upstream', good, 2)
        assert srv.requests[0]['messages'] == format_messages(APPLETON, TASK11.query, 'upstream')
        assert srv.requests[0]['response_format']['json_schema']['schema'] == plan_json_schema()
    finally:
        srv.shutdown(); srv.server_close()


def test_llm_formatter_key_only_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv('STAR_FMT_KEY', 'sk-secret-formatter-key')
    url, srv = fake_formatter_server(_reply(format_grounded(APPLETON, TASK11)))
    try:
        llm = llm_formatter(url, 'm', api_key_env='STAR_FMT_KEY', cache_dir=tmp_path)
        llm(APPLETON, TASK11.query)
        assert srv.requests[0]['_authorization'] == 'Bearer sk-secret-formatter-key'
        assert 'sk-secret' not in ''.join(p.read_text() for p in tmp_path.glob('*.json'))
        assert 'sk-secret' not in repr(vars(llm))
    finally:
        srv.shutdown(); srv.server_close()
    with pytest.raises(ValueError):
        llm_formatter(url, 'm', prompt='gpt-4o')


# ---------------------------------------------------------------- the test split
def test_normalize_test_transportation_like_agent_star():
    plan = [{'days': 1, 'transportation': 'driving, from Dallas to Austin'}, {'days': 2, 'transportation': 'Drive from Austin to Waco'},
            {'days': 3, 'transportation': 'Car, from Waco to Dallas'}, {'days': 4, 'transportation': 'Cost: 40, from A to B'},
            {'days': 5, 'transportation': 'Taxi, from Scarborough to Carlsbad'}, {'days': 6, 'transportation': 'Self-driving, from A to B'}]
    got = [d['transportation'] for d in normalize_test_transportation(plan)]
    assert got == ['Self-driving, from Dallas to Austin', 'Self-driving from Austin to Waco', 'Self-driving, from Waco to Dallas',
                   'Self-driving, Cost: 40, from A to B', 'Taxi, from Scarborough to Carlsbad', 'Self-driving, from A to B']
    gold = TRAIN[0].annotated_plan
    assert normalize_test_transportation(gold) == gold                          # flights and '-' untouched, {} kept


# ---------------------------------------------------------------- linear time on 100 KB adversarial inputs
ADVERSARIAL = {
    'spaces after a label': 'Day 1:\nCurrent City: Chicago\nNote' + ' ' * 100_000 + 'x',
    'tabs and newlines': 'Day 1:\n' + ' \t' * 50_000 + '\nLunch: x',
    'repeated day headers': 'Day 1: ' * 15_000,
    'unbalanced brackets': 'Day 1: ' + '[' * 50_000 + '(' * 50_000,
    'repeated tags': '<think>' + '</think><answer>' * 6_000 + 'Day 1: x',
    'repeated slot words': 'Day 1: ' + 'Breakfast: Lunch: Check into ' * 3_500,
    'from without to': 'Day 1: Flight from ' + 'St. Petersburg ' * 7_000,
    'markdown links': 'Day 1:\nLunch: ' + '[a](' * 25_000,
    'bold labels': 'Day 1:\n' + '**' * 50_000 + ':',
}


@pytest.mark.parametrize('name', list(ADVERSARIAL))
def test_formatters_linear_on_adversarial_answers(name):
    text = ADVERSARIAL[name]
    assert len(text) >= 95_000
    with hang_guard():
        for f in ('auto', 'exact', 'grounded', 'tolerant'):
            fp = format_plan(text, TASK11, formatter=f)
            assert fp.ok or fp.reason                                         # a plan or a reason, never an exception
        parse_turn(text)


def test_evaluator_linear_on_adversarial_plans():
    day = {'days': 1, 'current_city': 'from ' + ' ' * 100_000 + 'x', 'transportation': 'from ' + ' ' * 100_000 + 'x',
           'breakfast': '(' * 100_000, 'attraction': ',' * 100_000 + ';', 'lunch': 'a,' * 50_000, 'dinner': 'x, ' + '(' * 100_000,
           'accommodation': '\n' * 100_000 + ','}
    with hang_guard():
        for protocol in ('official', 'agent_star'):
            r = evaluate_plan(TASK11, [day] * 3, protocol)
            assert r.success is False


_REF_FROM_TO = re.compile(r"from\s+(.+?)\s+to\s+([^,]+)(?=[,\s]|$)")
_REF_STATE = re.compile(r'^(.*?)\([^)]*\)')
_REF_NAME_CITY = re.compile(r'(.*?),\s*([^,]+)(\(\w[\w\s]*\))?$')


def test_evaluator_parsers_equal_the_reference_regexes():
    rng = random.Random(1)
    pieces = ['from', 'to', ' ', '  ', '\n', ',', 'A', 'x', 'tom', ' to ', 'from ', '\t', '\xa0', '\u2028', '(', ')', '(Texas)']
    for _ in range(30_000):
        s = ''.join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        m = _REF_FROM_TO.search(s)
        assert from_to(s) == (m.groups() if m else (None, None)), s
        m = _REF_STATE.search(s)
        assert strip_state(s) == (m.group(1) if m else s), s
        m = _REF_NAME_CITY.search(s)
        want = (m.group(1).strip(), m.group(2).strip()) if m else ('-', '-')
        assert name_city(s, strip_suffix=False) == want, s


# ---------------------------------------------------------------- issue 34: how today's chat models write
GOLD0 = plain_plan(TRAIN[0].annotated_plan)          # St. Petersburg -> Rockford, 3 days


def _name(v): return v.rsplit(', ', 1)[0] if ', ' in v else v
def _attrs(v): return [a for a in v.split(';') if a.strip()] if v != '-' else []


def _leg(d):
    if d['transportation'] == '-': return None
    p = dict(x.split(': ', 1) for x in d['transportation'].split(', ') if ': ' in x)
    a, b = from_to(d['transportation'])
    if 'Flight Number' not in p: return f"Self-driving from {a} to {b} ({p.get('duration')})"
    return f"Flight {p['Flight Number']} from {a} to {b} (departs {p['Departure Time']}, arrives {p['Arrival Time']})"


def _route(d): return d['current_city'][5:].replace(' to ', ' → ') if d['current_city'].startswith('from ') else d['current_city']


def _table(plan):
    out = ["Here's your itinerary:", '', '| Day | Route | Transportation | Breakfast | Attractions | Lunch | Dinner | Accommodation |',
           '|---|---|---|---|---|---|---|---|']
    out += [f"| {d['days']} | {_route(d)} | {_leg(d) or '—'} | {_name(d['breakfast'])} | {'; '.join(map(_name, _attrs(d['attraction']))) or '—'} | "
            f"{_name(d['lunch'])} | {_name(d['dinner'])} | {_name(d['accommodation'])} |" for d in plan]
    return '\n'.join(out + ['', '💰 Budget breakdown', '', '| Category | Cost |', '|---|---|', '| Accommodation | $800 |', '| Total | $1,300 |'])


def _cards(plan):
    out = []
    for d in plan:
        out.append(f"### Day {d['days']} – Thursday, March {15 + d['days']} – {_route(d)}")
        if _leg(d): out.append(f"**On the move:** {_leg(d)}")
        meals = [(m, d[m]) for m in ('breakfast', 'lunch', 'dinner') if d[m] != '-']
        if meals: out.append('**Eat:** ' + ' · '.join(f"{_name(x)} ({m})" for m, x in meals))
        if _attrs(d['attraction']): out.append('**Explore:** ' + ', '.join(map(_name, _attrs(d['attraction']))))
        if d['accommodation'] != '-': out.append(f"**Overnight:** {_name(d['accommodation'])} — cozy and central")
        out.append('')
    return '\n'.join(out)


def _ordinal(plan):
    out = []
    for i, d in enumerate(plan):
        s = [f"On the {('first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh')[i]} day,", f"you take the {_leg(d)}." if _leg(d) else f"you stay in {d['current_city']}."]
        if d['breakfast'] != '-': s.append(f"Breakfast is at {_name(d['breakfast'])}.")
        if _attrs(d['attraction']): s.append('Visit ' + ' and '.join(map(_name, _attrs(d['attraction']))) + '.')
        s += [f"{m.capitalize()} at {_name(d[m])}." for m in ('lunch', 'dinner') if d[m] != '-']
        if d['accommodation'] != '-': s.append(f"Stay at {_name(d['accommodation'])}.")
        out.append(' '.join(s))
    return '\n\n'.join(out)


def _emoji(plan):
    out = []
    for i, d in enumerate(plan):
        out.append(f"{i + 1}\ufe0f\u20e3 March {16 + i} — {_route(d)}")
        if _leg(d): out.append(f"✈️ Transportation: {_leg(d)}")
        out += [f"🍽️ {m.capitalize()}: {_name(d[m])}" for m in ('breakfast', 'lunch', 'dinner') if d[m] != '-']
        if _attrs(d['attraction']): out.append('🏛️ Sights: ' + '; '.join(map(_name, _attrs(d['attraction']))))
        if d['accommodation'] != '-': out.append(f"🏨 Where to sleep: {_name(d['accommodation'])}")
        out.append('')
    return '\n'.join(out)


def _json_chat(plan):
    days = [{'dayNumber': d['days'], 'city': d['current_city'], 'transportation': d['transportation'],
             'meals': {m: d[m] for m in ('breakfast', 'lunch', 'dinner')}, 'attractions': _attrs(d['attraction']),
             'hotel': d['accommodation']} for d in plan]
    return "Absolutely! Here's the plan in JSON:\n\n```json\n" + json.dumps({'itinerary': days}, indent=2) + "\n```\n\nLet me know!"


def _schedule(plan):
    out = []
    for d in plan:
        out.append(f"**Day {d['days']}: {_route(d)}**")
        if _leg(d): out.append(f"- 08:00 {_leg(d)}")
        if d['breakfast'] != '-': out.append(f"- 09:00 Breakfast at {_name(d['breakfast'])}")
        out += [f"- {10 + j}:00 {('Explore', 'Head to')[j % 2]} {_name(a)}" for j, a in enumerate(_attrs(d['attraction']))]
        out += [f"- {t} {m.capitalize()} at {_name(d[m])}" for t, m in (('13:00', 'lunch'), ('19:00', 'dinner')) if d[m] != '-']
        if d['accommodation'] != '-': out.append(f"- 21:00 Check in at {_name(d['accommodation'])}")
        out.append('')
    return '\n'.join(out)


def _sections(plan):
    out = []
    for d in plan:
        out.append(f"## Day {d['days']}: {_route(d)}")
        if _leg(d): out.append(f"Travel: {_leg(d)}")
        a = list(map(_name, _attrs(d['attraction'])))
        out += ['### Morning'] + ([f"Breakfast at {_name(d['breakfast'])}."] if d['breakfast'] != '-' else []) + ([f"Head to {a[0]}."] if a else [])
        out += ['### Afternoon'] + ([f"Lunch at {_name(d['lunch'])}."] if d['lunch'] != '-' else []) + [f"{x}." for x in a[1:]]
        out += ['### Evening'] + ([f"Dinner at {_name(d['dinner'])}."] if d['dinner'] != '-' else [])
        out += [f"Sleep: {_name(d['accommodation'])}", ''] if d['accommodation'] != '-' else ['']
    return '\n'.join(out)


def _draft_final(plan):
    from star.formatter import render_plan
    return ('Draft:\n' + render_plan([dict(d, dinner='-') for d in plan]) + '\n\nWait, the dinners are missing.\n\nFinal itinerary:\n'
            + render_plan(plan))


MODERN = {'table': _table, 'cards': _cards, 'ordinal': _ordinal, 'emoji': _emoji, 'json': _json_chat,
          'schedule': _schedule, 'sections': _sections, 'draft_final': _draft_final}


@pytest.mark.parametrize('style', list(MODERN))
def test_modern_layouts_read_back(style):
    "Issue 34: the gold plan of train query 0 written the ways chat models write reads back to the gold plan."
    text = MODERN[style](GOLD0)
    fp = format_plan(text, TRAIN[0])
    assert fp.formatter == 'grounded', fp.reason
    got = [{k: v for k, v in d.items() if k != 'transportation'} for d in fp.plan]
    assert got == [{k: v for k, v in d.items() if k != 'transportation'} for d in GOLD0], (style, fp.plan)
    assert [d['transportation'].split(', ')[:2] for d in fp.plan] == [d['transportation'].split(', ')[:2] for d in GOLD0]


@pytest.mark.parametrize('style', list(MODERN))
def test_modern_layouts_keep_verdicts_of_violations(style):
    "Every single-edit violation of the first 8 train plans keeps its Success verdict (none read as a pass)."
    for kind, t, plan in agreement_fixtures(TRAIN[:8]):
        if kind == 'restaurant_elsewhere' and style != 'json': continue      # no city written: read where the text puts it
        got = format_plan(MODERN[style](plan), t).plan
        assert evaluate_plan(t, got).success == evaluate_plan(t, plan).success, (style, kind, t.idx)


def test_inferred_boundaries_and_layouts_are_doubts():
    for style, note in (('ordinal', 'day boundaries inferred'), ('table', 'a table with one day per row'), ('json', 'the plan is JSON')):
        assert any(n.startswith(note) for n in format_plan(MODERN[style](GOLD0), TRAIN[0]).notes), style
    # a keycap number at a line's start ('2️⃣ March 17') heads its day as surely as 'Day 2' (issue 48, v10): no inference
    assert not any(n.startswith('day boundaries inferred') for n in format_plan(MODERN['emoji'](GOLD0), TRAIN[0]).notes)
    table = format_grounded(_table(GOLD0), TRAIN[0])
    assert table[-1]['accommodation'] == '-'                  # the budget table after the plan is no day, no stay


def test_never_repairs_in_modern_layouts():
    cards = _cards(GOLD0)
    # an unknown attraction under 'Explore:' stays (and fails Within Sandbox)
    plan, r = _graded(cards.replace('**Explore:** Burpee Museum', '**Explore:** Rockford Giant Ferris Wheel, Burpee Museum'), task=TRAIN[0])
    assert plan[1]['attraction'].startswith('Rockford Giant Ferris Wheel, Rockford;') and r.commonsense['is_valid_information_in_sandbox'] is False
    # a night the text leaves without a stay stays without one (no carry from the night before)
    plan, r = _graded(cards.replace('**Overnight:** Pure luxury one bdrm + sofa bed on Central Park — cozy and central\n\n### Day 3', '\n### Day 3'), task=TRAIN[0])
    assert [d['accommodation'] for d in plan][1:] == ['-', '-'] and r.commonsense['is_not_absent'] is False
    # a name with extra words is not the database's listing: kept as written (fails the sandbox), noted as a doubt
    notes = []
    plan = format_grounded(cards.replace('**Overnight:** Pure', '**Overnight:** Private Room in Pure'), TRAIN[0], notes)
    assert plan[0]['accommodation'] == 'Private Room in Pure luxury one bdrm + sofa bed on Central Park, Rockford'
    assert evaluate_plan(TRAIN[0], plan).commonsense['is_valid_information_in_sandbox'] is False
    assert any("is not the database's" in n for n in notes)


def test_overlong_answers_are_not_read():
    from star.formatter import MAX_GROUNDED_CHARS
    fp = format_plan('Day 1: Lunch: Side Wok\n' * (MAX_GROUNDED_CHARS // 20), TASK11)
    assert fp.plan is None and 'more than any plan' in fp.reason
    assert format_grounded('Day 1: Lunch: Side Wok\n' * 10_000, TASK11, max_chars=None)[0]['lunch'] == 'Side Wok, Appleton'


# ---------------------------------------------------------------- issue 34, continued: what is written, and doubts that mean something
def _read(text, task=TASK11):
    fp = format_plan(text, task)
    return fp, evaluate_plan(task, fp.plan)


DAY1 = "Day 1:\nCurrent City: {cc}\nTransportation: {tr}\nDinner: {dinner}\nAccommodation: {acc}\n"
TR = 'Flight Number: F3574992, from St. Petersburg to Appleton, Departure Time: 22:51, Arrival Time: 00:42'
ACC = 'Cozy room + bright apartment + rooftop lounge, Appleton'


def test_states_after_cities_are_read_as_written():
    "A state after a comma is part of what is written, and so is one in brackets (issue 48: kept, a doubt); glued, the database's notation."
    fp, r = _read(DAY1.format(cc='from St. Petersburg, Florida to Appleton, Wisconsin', tr=TR, dinner='Side Wok, Appleton, WI', acc=ACC))
    assert fp.plan[0]['current_city'] == 'from St. Petersburg, Florida to Appleton, Wisconsin'
    assert fp.plan[0]['dinner'] == 'Side Wok, Appleton, WI'                      # a postal code too
    assert r.commonsense['is_reasonable_visiting_city'] is False and {n.kind for n in fp.doubts} - CHECK_KINDS == {'state'}
    fp, r = _read(DAY1.format(cc='from St. Petersburg to Appleton (Wisconsin)', tr=TR.replace('Appleton,', 'Appleton (Wisconsin),'),
                              dinner='Side Wok, Appleton', acc=ACC))
    # issue 48: never repaired -- the bracketed state stays as written, as the benchmark's parser keeps it
    assert fp.plan[0]['current_city'] == 'from St. Petersburg to Appleton (Wisconsin)'
    assert fp.plan[0]['transportation'] == TR.replace('Appleton,', 'Appleton (Wisconsin),')
    assert r.commonsense['is_reasonable_visiting_city'] is False and {n.kind for n in fp.doubts} - CHECK_KINDS == {'bracket-state'}
    fp, _ = _read(DAY1.format(cc='from St. Petersburg to Appleton(Wisconsin)', tr=TR, dinner='Side Wok, Appleton(Wisconsin)', acc=ACC))
    assert fp.plan[0]['current_city'] == 'from St. Petersburg to Appleton' and {n.kind for n in fp.notes} <= CHECK_KINDS    # the database's own notation
    fp, _ = _read(DAY1.format(cc='from St. Petersburg to Appleton', tr=TR, dinner='Side Wok, Appleton (Wisconsin)', acc=ACC))
    assert fp.plan[0]['dinner'] == 'Side Wok, Appleton (Wisconsin)' and [n.kind for n in fp.doubts if n.kind not in CHECK_KINDS] == ['bracket-state']  # as written
    assert format_grounded('Day 1:\nCurrent City: from New York City to Appleton\nDinner: Side Wok')[0]['current_city'] == \
        'from New York City to Appleton'                                          # another name than the database's New York


def test_a_flight_without_number_is_no_flight_of_the_sandbox():
    "The benchmark's parser writes 'Flight Number: -' (52 of 52 dev answers); read as 'Flight from A to B' it would pass."
    fp, r = _read(DAY1.format(cc='from St. Petersburg to Appleton', tr='Flight, from St. Petersburg to Appleton, duration: 2 hours',
                              dinner='Side Wok, Appleton', acc=ACC))
    assert fp.plan[0]['transportation'].startswith('Flight Number: -, from St. Petersburg to Appleton')
    assert r.commonsense['is_valid_information_in_sandbox'] is False


def test_words_around_a_name_are_kept_as_written():
    "A bracket between a name and its city, words before a listing: kept (the evaluator's 'Name, City' split), doubts."
    fp, r = _read(DAY1.format(cc='from St. Petersburg to Appleton', tr=TR, dinner='Side Wok, Appleton',
                              acc='Cozy room + bright apartment + rooftop lounge (private room), Appleton, cost: 120'))
    assert fp.plan[0]['accommodation'] == 'Cozy room + bright apartment + rooftop lounge (private room), Appleton'
    assert r.commonsense['is_valid_information_in_sandbox'] is False and {n.kind for n in fp.doubts} - CHECK_KINDS == {'remark'}
    fp, r = _read(DAY1.format(cc='from St. Petersburg to Appleton', tr=TR, dinner='Side Wok, Appleton',
                              acc='Private room, 1 bed, 2 guests, ' + ACC))
    assert fp.plan[0]['accommodation'] == 'Private room, 1 bed, 2 guests, ' + ACC and {n.kind for n in fp.doubts} - CHECK_KINDS == {'near-match'}
    assert r.commonsense['is_valid_information_in_sandbox'] is False
    fp, r = _read(DAY1.format(cc='from St. Petersburg to Appleton', tr=TR, dinner='Side Wok (Chinese, Thai). Cost: $20', acc=ACC))
    assert fp.plan[0]['dinner'] == 'Side Wok, Appleton' and r.commonsense['is_valid_information_in_sandbox'] is True   # a trailing remark
    assert [n.kind for n in fp.doubts if n.kind not in CHECK_KINDS] == ['remark']                            # kept, the name would fail: a doubt


def test_attraction_lists_split_only_between_attractions():
    plan = format_grounded('Day 2:\nCurrent City: Appleton\nAttraction: Trout Museum of Art, Appleton, WI, cost: 35, website: '
                           '[Trout Museum of Art](https://x.org); The History Museum at the Castle, The Building for Kids', TASK11)
    assert plan[0]['attraction'] == ('Trout Museum of Art, Appleton, WI;The History Museum at the Castle, Appleton;'
                                     'The Building for Kids, Appleton;')


def test_doubts_are_readings_a_verdict_turns_on():
    "Notes are what the reader was unsure of; doubts are the notes whose other reading changes a verdict."
    gold = render_freeform(plain_plan(TRAIN[0].annotated_plan), TRAIN[0], 'markdown')
    same = gold.replace('### Budget Breakdown', 'Final plan (unchanged):\n' + gold.split('\n', 2)[2].split('### Budget')[0] + '### Budget Breakdown')
    fp = format_plan(same, TRAIN[0])
    assert any(n.kind == 'repeated-day' for n in fp.notes) and not fp.doubts     # written twice, the same: nothing turns
    fp = format_plan(MODERN['draft_final'](GOLD0), TRAIN[0])
    assert {n.kind for n in fp.doubts} - CHECK_KINDS == {'repeated-day'}                        # the draft has no dinners: Complete Information turns
    unknown = format_plan(gold.replace('Burpee Museum', 'Rockford Giant Ferris Wheel'), TRAIN[0])
    assert [n.kind for n in unknown.notes] == ['unknown'] and not unknown.doubtful  # a name the database lacks fails either way


def test_a_listing_named_like_a_room_type_does_not_hide_the_listing_written():
    """Knoxville has a listing named `Private Room`; in `Private room, 1 bed, 2 guests, <listing>, Knoxville` the name
    the text writes is the longer listing (the longest complete database name of the item), kept as written with the
    room-type words before it (a near-match doubt), never `Private Room, Knoxville` (another listing)."""
    task = next(t for t in VAL if t.idx == 147)
    listing = 'Cozy Private Room in Chinatown/ Lower East Side'
    text = ("**Days: 1**\n**Current City:** from Nashville to Knoxville\n**Accommodation:** Private room, 1 bed, 2 guests, "
            f"{listing}, Knoxville, cost: 132, maximum occupancy: 2\n")
    fp = format_plan(text, task, formatter='grounded')
    assert fp.plan[0]['accommodation'] == f'Private room, 1 bed, 2 guests, {listing}, Knoxville'
    assert 'near-match' in {n.kind for n in fp.notes}
    one = format_plan(text.replace(f'1 bed, 2 guests, {listing}, ', ''), task, formatter='grounded')
    assert one.plan[0]['accommodation'] == 'Private room, Knoxville'      # the listing 'Private Room' itself


def test_a_partial_name_is_looked_for_in_the_city_the_item_writes():
    """Issue 34 (reader 08545dc): on a travel day from Wilmington to Asheville, an item that writes room-type words,
    a listing's name cut short and the city Asheville names Asheville's listing, not a Wilmington listing whose name
    starts with the same room-type words (`Private room. 1 bed, 2 guests, 3333 Broadway`); kept as written, a doubt."""
    task = next(t for t in VAL if t.idx == 50)
    text = ("Day 1:\nCurrent City: from Wilmington to Asheville\nTransportation: Self-driving, from Wilmington to Asheville\n"
            "Accommodation: Private room, 1 bed, 1 guest, Beautiful 2BR Apt, 182.0, Asheville, cost: 182\n")
    fp = format_plan(text, task, formatter='grounded')
    assert fp.plan[0]['accommodation'] == 'Private room, 1 bed, 1 guest, Beautiful 2BR Apt, Asheville'
    assert 'near-match' in {n.kind for n in fp.doubts}
    plain = format_plan(text.replace('Private room, 1 bed, 1 guest, ', ''), task, formatter='grounded')
    assert plain.plan[0]['accommodation'] == 'Beautiful 2BR Apt, Asheville'        # the same listing, written alone


def test_a_mode_alone_is_kept_as_written():
    "`Transportation: Self-driving` on a day in one city (local travel) stays `Self-driving`, not `Self-driving, Self-driving`."
    for mode in ('Self-driving', 'Taxi'):
        plan = format_grounded(f'Day 2:\nCurrent City: Appleton\nTransportation: {mode}\nDinner: Side Wok, Appleton\n', TASK11)
        assert plan[0]['transportation'] == mode
    plan = format_grounded('Day 2:\nCurrent City: Appleton\nTransportation: by car\n', TASK11)
    assert plan[0]['transportation'] == 'Self-driving, by car'                      # a mode in other words: its label first


# ---------------------------------------------------------------- issue 48: today's layouts, read against the truth
def test_layout_split_is_fixed_and_disjoint():
    "The held-out layouts and phrasings of tools/layouts.py are fixed and disjoint from those the reader is tuned on."
    from layouts import PARTS
    lays = {p: set(l) for p, (l, _) in PARTS.items()}
    assert lays['heldout'] == {'header_fields', 'prose_times', 'nested_numbers', 'compact_lines'}
    tuned_parts = ('dev', 'heldout1', 'heldout2', 'heldout3')
    assert not lays['heldout'] & set().union(*(lays[p] for p in tuned_parts))
    held, tuned = PARTS['heldout'][1], [PARTS[p][1] for p in tuned_parts]
    for kind in ('locative', 'join', 'meal_label'):                 # each kind has phrasings no tuned part uses
        assert set(held[kind]) - set().union(*(set(t[kind]) for t in tuned)), kind


def test_layouts_of_gold_plans_keep_their_verdicts():
    """The first 8 gold train plans and their single-edit violations, rendered in every development layout (tables,
    schedules, cards, category sections, narrative, emoji lists, JSON with other keys, drafts then a final version), are
    read back with the verdicts of the plan they were written from: no violation read as a pass, at least 97 % of checks."""
    from layouts import PARTS, renderings
    plans = [(k, t, p) for k, t, p in agreement_fixtures(TRAIN[:8])]
    for part in ('dev', 'heldout1'):
        same = n = 0
        for lay, kind, t, p, text in renderings(part, plans):
            a, b = evaluate_plan(t, p), evaluate_plan(t, format_plan(text, t).plan)
            va, vb = {**a.commonsense, **a.hard}, {**b.commonsense, **b.hard}
            same += sum(va[c] == vb[c] for c in va); n += len(va)
            assert not (b.success and not a.success), (part, lay, kind, t.idx)
        assert same / n >= 0.97, (part, same / n)


def test_venue_locatives_joins_and_labels():
    "A venue and its locative, items joined in one line, a label word before a name, stays as runs of nights (issue 48)."
    task = {'org': 'St. Petersburg', 'dest': 'Rockford'}
    day = ("### Day 1 · St. Petersburg → Rockford\n- Flight F3573659 from St. Petersburg to Rockford\n- Dinner Coco Bambu in Rockford\n"
           "- Hotel: Pure luxury one bdrm + sofa bed on Central Park, downtown Rockford\n\n### Day 2 · Rockford\n"
           "- Lunch at Applebee's in St. Petersburg\n"
           "- Sights: Burpee Museum of Natural History in Rockford · Midway Village Museum and Discovery Center Museum, downtown Rockford\n")
    p = format_grounded(day, task)
    assert p[0]['dinner'] == 'Coco Bambu, Rockford'                                     # label word, locative
    assert p[0]['accommodation'] == 'Pure luxury one bdrm + sofa bed on Central Park, Rockford'
    assert p[1]['lunch'] == "Applebee's, St. Petersburg"                               # the city written, not the day's
    assert p[1]['attraction'] == ('Burpee Museum of Natural History, Rockford;Midway Village Museum, Rockford;'
                                  'Discovery Center Museum, Rockford;')
    cat = ("## Getting there and back\n- Day 1: Flight F3573659 from St. Petersburg to Rockford\n"
           "- Day 3: Flight F3573120 from Rockford to St. Petersburg\n\n## Where you'll stay\n"
           "- Nights 1–2: Pure luxury one bdrm + sofa bed on Central Park, Rockford\n\n## Meals\n- Day 2: Lunch: Flying Mango\n")
    p = format_grounded(cat, TRAIN[0])
    assert [d['accommodation'] for d in p] == ['Pure luxury one bdrm + sofa bed on Central Park, Rockford'] * 2 + ['-']
    assert p[0]['current_city'] == 'from St. Petersburg to Rockford' and p[2]['transportation'].startswith('Flight Number: F3573120')


def test_travel_day_venue_in_both_cities_is_a_doubt():
    "Domino's Pizza is in both Washington and Bangor (train query 31): written without a city on that travel day, a doubt."
    t = next(t for t in TRAIN if t.org == 'Washington' and t.dest == 'Bangor') if any(t.org == 'Washington' and t.dest == 'Bangor' for t in TRAIN) else None
    fp = format_plan("Day 1: from Washington to Bangor\nTransportation: Flight F1 from Washington to Bangor\nDinner: Domino's Pizza\n",
                     t or {'org': 'Washington', 'dest': 'Bangor'})
    assert 'two-cities' in {n.kind for n in fp.doubts} and fp.doubtful


def test_layout_record():
    "results/formatter/issue48_layouts.json: both parts measured by `python tools/layouts.py record`, the held-out part scored."
    rec = json.loads((Path(__file__).resolve().parents[1] / 'results' / 'formatter' / 'issue48_layouts.json').read_text())
    assert rec['command'] == 'python tools/layouts.py record' and set(rec['split']) == {'dev', 'heldout1', 'heldout2', 'heldout3', 'heldout', 'heldout5', 'heldout6', 'heldout7', 'heldout8', 'heldout9', 'heldout10', 'heldout11', 'heldout12', 'heldout13', 'heldout14', 'heldout15', 'heldout16', 'heldout17', 'heldout18', 'heldout19'}
    assert rec['dev']['all']['checks'] >= 0.98 and rec['heldout1']['all']['checks'] >= 0.98 and rec['heldout2']['all']['checks'] >= 0.93
    first = [rec[f'heldout_v{k}_first_score'] for k in (1, 2, 3, 4)]                # each part scored once before tuning on it
    assert [f['reader'] for f in first] == ['60f44b7', '4ad7664', 'b4dd579', 'b3de5fb']
    assert first[3]['all']['checks'] <= rec['heldout']['all']['checks']            # v4 was tuned on after its first score
    for part in ('heldout', 'heldout_v1_first_score', 'heldout_v2_first_score', 'heldout_v3_first_score', 'heldout_v4_first_score'):
        assert rec[part]['all']['violations_read_as_passes'] == 0 and rec[part]['all']['renderings'] == 1260
    # the sealed parts written by a hand that did not read the reader (tools/layouts_v5.py, _v6.py): each scored once,
    # as the record keeps it, before any tuning on it
    v5, v6, v7 = rec['heldout_v5_first_score'], rec['heldout_v6_first_score'], rec['heldout_v7_first_score']
    assert (v5['reader'], v5['all']['checks'], v6['reader'], v6['all']['checks']) == ('ccb6bba', 0.7231, 'ee601e2', 0.5926)
    assert (v7['reader'], v7['all']['checks']) == ('afc3732', 0.5972)
    # since readings are checked before they are trusted (check_reading), an unseen part's unflagged readings are right
    assert v7['all']['sure_checks'] >= 0.995 and v7['all']['violations_read_as_passes_without_doubt'] == 0
    assert rec['heldout5']['all']['checks'] >= 0.98 and rec['heldout5']['all']['violations_read_as_passes'] == 0   # tuned on since
    assert rec['heldout7']['all']['checks'] >= 0.97 and rec['heldout7']['all']['violations_read_as_passes_without_doubt'] == 0   # tuned on since
    # v8 (tools/layouts_v8.py), scored once on the reader tuned on v7: most of it doubted (handed to an LLM formatter),
    # and two violations read as passes without a doubt (an unchosen 'Option B' day read as the plan)
    v8 = rec['heldout_v8_first_score']
    assert (v8['reader'], v8['all']['checks'], v8['all']['violations_read_as_passes_without_doubt']) == ('07e7b8e', 0.6831, 2)
    # after tuning on v8 (options read by the stated choice, else a doubt): no violation read as a pass at all
    assert rec['heldout8']['all']['checks'] >= 0.76 and rec['heldout8']['all']['violations_read_as_passes'] == 0
    # v9 (tools/layouts_v9.py: LaTeX, Mermaid, struck-through and diff revisions, CJK labels, FAQ, <details>, one list
    # of steps), scored once on the reader tuned on v8: its 7 violations read as passes all doubted, one layout (CJK
    # labels) not delivered at all, and unflagged readings wrong in 7.7 % of checks (mostly the LaTeX documents: 85 %)
    v9 = rec['heldout_v9_first_score']['all']
    assert (rec['heldout_v9_first_score']['reader'], v9['checks'], v9['violations_read_as_passes'],
            v9['violations_read_as_passes_without_doubt'], v9['undelivered'], v9['sure_checks']) == ('0a6a0f4', 0.6579, 7, 0, 315, 0.9235)
    # tuned on v9 since (CJK labels, struck-through text, diffs, LaTeX, Mermaid, FAQ sections, lists of steps, change lists)
    assert rec['heldout9']['all']['checks'] >= 0.98 and rec['heldout9']['all']['violations_read_as_passes_without_doubt'] == 0
    # v10 (tools/layouts_v10.py: an e-mail, TOML / INI, a slide deck, day tables with ditto marks, Russian / Polish /
    # Turkish labels, emoji-only labels, a chat transcript with a copy-paste block, an Obsidian note), scored once on the
    # reader tuned on v9: two thirds of the checks, most answers doubted -- but the unflagged readings right in 99.6 % of
    # checks and no violation read as a pass without a doubt: what the reader cannot read, it hands on
    v10 = rec['heldout_v10_first_score']['all']
    assert (rec['heldout_v10_first_score']['reader'], v10['checks'], v10['violations_read_as_passes'],
            v10['violations_read_as_passes_without_doubt'], v10['undelivered'], v10['sure_checks']) == ('b0e7a8a', 0.6633, 11, 0, 318, 0.9957)
    # tuned on v10 since (Polish / Turkish / Russian labels, TOML and INI, slide headings, inline fields, closing lines,
    # keycap days): every layout delivered, no violation read as a pass unflagged
    assert rec['heldout10']['all']['checks'] >= 0.90 and rec['heldout10']['all']['undelivered'] == 0
    assert rec['heldout10']['all']['violations_read_as_passes_without_doubt'] == 0
    # v11 (tools/layouts_v11.py: <br> day cells, a stays-first grid, a SQLite script, a WhatsApp export, Vietnamese /
    # Indonesian / Hindi / Arabic labels, costs in brackets, days out of order, Maps links), scored once on the reader
    # tuned on v10: two thirds of the checks again (the SQL and non-Latin-label layouts undelivered), but unflagged
    # readings right in 99.4 % of checks and every violation read as a pass doubted
    v11 = rec['heldout_v11_first_score']['all']
    assert (rec['heldout_v11_first_score']['reader'], v11['checks'], v11['violations_read_as_passes'],
            v11['violations_read_as_passes_without_doubt'], v11['undelivered'], v11['sure_checks']) == ('13fb68e', 0.6549, 5, 0, 558, 0.9936)
    # tuned on v11 since (labels learned from what their values name, any language; SQL run in memory; links, ditto marks,
    # time-of-day columns, stays above the days): every layout delivered, no violation read as a pass at all
    assert rec['heldout11']['all']['checks'] >= 0.98 and rec['heldout11']['all']['violations_read_as_passes'] == 0
    assert rec['heldout6']['all']['checks'] >= 0.98 and rec['heldout8']['all']['violations_read_as_passes'] == 0
    # v12 (tools/layouts_v12.py: a tweet thread, a ReAct trace, booking confirmations, Swedish / Czech / Greek / Thai
    # labels, a clock-only timeline, an ASCII tree, callout blocks, definition lists), scored once on the reader tuned on
    # v11 (the first part scored after the reader learned labels it has no words for): four fifths of the checks, every
    # layout delivered, every violation read as a pass doubted, unflagged readings right in 99.4 % of checks
    v12 = rec['heldout_v12_first_score']['all']
    assert (rec['heldout_v12_first_score']['reader'], v12['checks'], v12['violations_read_as_passes'],
            v12['violations_read_as_passes_without_doubt'], v12['undelivered'], v12['sure_checks']) == ('3ebb4e2', 0.7952, 5, 0, 0, 0.9938)
    # tuned on v12 since (times after a range, addresses with a country, postal codes in brackets, pins and lower-case
    # locatives in any language, known meal labels placing learned ones, the answer's own corrections): no violation read
    # as a pass at all
    assert rec['heldout12']['all']['checks'] >= 0.97 and rec['heldout12']['all']['violations_read_as_passes'] == 0
    # v13 (tools/layouts_v13.py: a voice-assistant transcript with numbers in words, a Kanban board, a code-interpreter
    # table, Hebrew / Finnish / Hungarian / Romanian labels, an agent's event log, a travel blog, turn-by-turn legs,
    # footnoted slots), scored once on the reader tuned on v12: two thirds of the checks again, but every rendering
    # delivered, no violation read as a pass, and nearly every reading doubted (what it cannot read, it hands on)
    v13 = rec['heldout_v13_first_score']['all']
    assert (rec['heldout_v13_first_score']['reader'], v13['checks'], v13['violations_read_as_passes'],
            v13['violations_read_as_passes_without_doubt'], v13['undelivered'], v13['sure_checks']) == ('971a9f9', 0.6522, 0, 0, 0, 1.0)
    assert rec['heldout13']['all']['checks'] >= 0.88 and rec['heldout13']['all']['violations_read_as_passes'] == 0   # tuned on since
    # v14 (tools/layouts_v14.py: an overview with short names before the details, an e-mail with a quoted draft, costs
    # split by payer, a pasted spreadsheet, YAML anchors, Danish / Ukrainian / Catalan / Swahili tables, JSON-LD
    # reservations, todo.txt), scored once on the reader tuned on v13: two thirds of the checks, 73 renderings (the
    # pasted sheets) not delivered, 11 violations read as passes (all doubted), and the 25 unflagged readings (overviews
    # with short names, YAML anchors) right in only 76 % of checks: check_reading let through readings it should doubt
    v14 = rec['heldout_v14_first_score']['all']
    assert (rec['heldout_v14_first_score']['reader'], v14['checks'], v14['violations_read_as_passes'],
            v14['violations_read_as_passes_without_doubt'], v14['undelivered'], v14['sure_checks']) == ('0e8b525', 0.6469, 11, 0, 73, 0.76)
    assert rec['heldout14']['all']['checks'] >= 0.97 and rec['heldout14']['all']['violations_read_as_passes_without_doubt'] == 0   # tuned on since
    # v15 (tools/layouts_v15.py: a Slack thread, Confluence wiki markup, a Mermaid flowchart, a past-tense trip diary, a
    # venue index by kind, Norwegian / Croatian / Tagalog / Persian labels, a self-correcting streamed answer, terse SMS),
    # scored once on the reader tuned on v14: under two thirds of the checks, the SMS bubbles and most Persian / Tagalog
    # answers not delivered (404), 15 violations read as passes (all doubted), unflagged readings right in 92.6 % of checks
    v15 = rec['heldout_v15_first_score']['all']
    assert (rec['heldout_v15_first_score']['reader'], v15['checks'], v15['violations_read_as_passes'],
            v15['violations_read_as_passes_without_doubt'], v15['undelivered'], v15['sure_checks']) == ('9494ff4', 0.6321, 15, 0, 404, 0.926)
    assert rec['heldout15']['all']['checks'] >= 0.92 and rec['heldout15']['all']['undelivered'] == 0   # tuned on since
    assert rec['heldout15']['all']['violations_read_as_passes_without_doubt'] == 0
    # v16 (tools/layouts_v16.py: reStructuredText, a Notion database export, days told as 'the next morning' with times
    # heading the lines, Bulgarian / Bengali / Malay / Lithuanian labels, HTML day cards, a TripIt export, builder code,
    # bullets annotated with ratings and costs), scored once on the reader tuned on v15 and the scored parts v4-v13:
    # 60 % of the checks, the TripIt exports and the 'next morning' days not delivered (544), 10 violations read as
    # passes (all doubted), no reading unflagged
    v16 = rec['heldout_v16_first_score']['all']
    assert (rec['heldout_v16_first_score']['reader'], v16['checks'], v16['violations_read_as_passes'],
            v16['violations_read_as_passes_without_doubt'], v16['undelivered'], v16['sure_checks']) == ('5a37615', 0.6028, 10, 0, 544, 0.0)
    assert rec['heldout16']['all']['checks'] >= 0.97 and rec['heldout16']['all']['undelivered'] == 0   # tuned on since
    assert rec['heldout16']['all']['violations_read_as_passes_without_doubt'] == 0
    # v17 (tools/layouts_v17.py: what assistants commonly write -- themed time-of-day days with the hotel named once, a
    # glance table then prose, days told apart only by bold dates and rules, slot options picked later, Spanish / French
    # / German / Portuguese prose, an agent's tool-call JSON then its final answer, a decimal outline, numbered days
    # mixing labels and sentences), scored once on the reader tuned on v16: 71 % of the checks, the days told apart by
    # dates alone partly undelivered (117), 4 violations read as passes (all doubted), unflagged readings right in 86.7 %
    v17 = rec['heldout_v17_first_score']['all']
    assert (rec['heldout_v17_first_score']['reader'], v17['checks'], v17['violations_read_as_passes'],
            v17['violations_read_as_passes_without_doubt'], v17['undelivered'], v17['sure_checks']) == ('7d3bb7b', 0.7103, 4, 0, 117, 0.8667)
    assert rec['heldout17']['all']['checks'] >= 0.98 and rec['heldout17']['all']['undelivered'] == 0   # tuned on since
    assert rec['heldout17']['all']['violations_read_as_passes_without_doubt'] == 0 and rec['heldout17']['all']['sure_checks'] >= 0.99
    # v18 (tools/layouts_v18.py: time / activity / location / notes day tables, Claude-style where-to sub-lists with a
    # budget table, a travel agent's letter with days told by ordinal words and dates, a booked checklist, Italian / Dutch
    # / Polish / Turkish prose, Perplexity-style citations, a lettered outline with one-line meals, Gemini-style bold
    # lines with image tags), scored once on the reader tuned on v17: 80 % of the checks, every rendering delivered, no
    # violation read as a pass, 87 % of readings doubted, unflagged readings right in 89.6 % of checks
    v18 = rec['heldout_v18_first_score']['all']
    assert (rec['heldout_v18_first_score']['reader'], v18['checks'], v18['violations_read_as_passes'],
            v18['violations_read_as_passes_without_doubt'], v18['undelivered'], v18['sure_checks']) == ('00fb617', 0.7974, 0, 0, 0, 0.896)
    assert rec['heldout18']['all']['checks'] >= 0.94 and rec['heldout18']['all']['undelivered'] == 0   # tuned on since
    assert rec['heldout18']['all']['violations_read_as_passes_without_doubt'] == 0 and rec['heldout18']['all']['sure_checks'] >= 0.99
    # v19 (tools/layouts_v19.py: a tour brochure with meal codes, a hedged Llama-style answer, Japanese / Chinese / Korean
    # / Russian prose, a Reddit 'rate my plan' post with rejected suggestions in its comments, an app's flat key-path
    # export, a week grid with a column per day, a second-person story in chapters, a ChatGPT conversation with one day
    # per turn), scored once on the reader tuned on v18: 57 % of the checks, the story's chapters not delivered (315),
    # no violation read as a pass, every reading doubted
    v19 = rec['heldout_v19_first_score']['all']
    assert (rec['heldout_v19_first_score']['reader'], v19['checks'], v19['violations_read_as_passes'],
            v19['violations_read_as_passes_without_doubt'], v19['undelivered'], v19['sure_checks']) == ('36aa1ef', 0.5723, 0, 0, 315, 0.0)
    assert rec['heldout19']['all']['checks'] >= 0.98 and rec['heldout19']['all']['undelivered'] == 0   # tuned on since
    assert rec['heldout19']['all']['violations_read_as_passes_without_doubt'] == 0



def test_v9_layouts_read_after_tuning():
    """Issue 48: the v9 layouts -- another hand's renderings of known plans (tools/layouts_v9.py): a LaTeX document,
    a Mermaid gantt chart, a revision with struck-through decoys and a change list, a diff against an earlier version,
    Chinese / Japanese / Korean labels, an FAQ with rejected options, collapsible <details>, one numbered list of
    steps -- read after tuning on them (first score 65.79 %, pinned in `test_layout_record`), on the first 40 known
    plans: at least 95 % of the checks in every layout, every layout delivered, no violation read as a pass unflagged."""
    import layouts
    res = layouts.measure('heldout9', plans=layouts.known_plans()[:40])
    assert {k: v['checks'] for k, v in res['layouts'].items() if v['checks'] < 0.95} == {}
    assert res['all']['undelivered'] == 0 and res['all']['violations_read_as_passes_without_doubt'] == 0



def test_v11_layouts_read_after_tuning():
    """Issue 48: the v11 layouts (tools/layouts_v11.py: <br> day cells, stays stated once above Morning / Afternoon /
    Evening grids, a SQLite script with UPDATE fixes, a WhatsApp export, Vietnamese / Indonesian / Hindi / Arabic labels,
    cost brackets, days out of order, Google Maps links) read after tuning on them (first score 65.49 %, pinned in
    `test_layout_record`), on the first 40 known plans: at least 95 % of the checks in every layout, every layout
    delivered, no violation read as a pass."""
    import layouts
    res = layouts.measure('heldout11', plans=layouts.known_plans()[:40])
    assert {k: v['checks'] for k, v in res['layouts'].items() if v['checks'] < 0.95} == {}
    assert res['all']['undelivered'] == 0 and res['all']['violations_read_as_passes'] == 0



def test_v12_layouts_read_after_tuning():
    """Issue 48: the v12 layouts (tools/layouts_v12.py: a tweet thread with corrections, a ReAct log, booking
    confirmations, Swedish / Czech / Greek / Thai labels, a 24-hour timeline with no meal words, a box-drawing tree, callout
    blocks, definition lists) read after tuning on them (first score 79.52 %, pinned in `test_layout_record`), on the
    first 40 known plans: at least 95 % of the checks in every layout, every layout delivered, no violation read as a
    pass."""
    import layouts
    res = layouts.measure('heldout12', plans=layouts.known_plans()[:40])
    assert {k: v['checks'] for k, v in res['layouts'].items() if v['checks'] < 0.95} == {}
    assert res['all']['undelivered'] == 0 and res['all']['violations_read_as_passes'] == 0



def test_v13_layouts_read_after_tuning():
    """Issue 48: the v13 layouts (tools/layouts_v13.py, first score 65.22 %, pinned in `test_layout_record`) read after
    two tuning steps, on the first 40 known plans: the agent's event log replayed in order (`events_as_text`; it opened
    at 46 %), the voice transcript (`transcript_as_text`, `spoken_as_text`; 74 %), the Kanban board (`tagged_as_text`;
    49 %), printed grids and DataFrames (`_ruled_rows`, `_frame_rows`; 57 %), turn-by-turn directions
    (`chained_as_text`, `_tag_after`; 64 %), footnoted slots (`Dinner [1]`; 66 %): every layout at 85 % or more, most at
    90 % (what remains is mostly the kept `City, ST` policy: `X in Norfolk, Virginia` is read as written, and two rules
    read a venue with and without the state); no violation read as a pass anywhere in the part."""
    import layouts
    res = layouts.measure('heldout13', plans=layouts.known_plans()[:40])
    got = {k: v['checks'] for k, v in res['layouts'].items()}
    assert got['agent_event_log'] >= 0.98 and got['voice_assistant'] >= 0.95, got
    assert {k: v for k, v in got.items() if v < 0.85} == {} and sum(v >= 0.9 for v in got.values()) >= 5, got
    assert res['all']['undelivered'] == 0 and res['all']['violations_read_as_passes'] == 0

def test_v14_layouts_read_after_first_tuning():
    """Issue 48: the v14 layouts (tools/layouts_v14.py, first score 64.69 %, pinned in `test_layout_record`) read after
    the first tuning step on them, on the first 40 known plans: pasted sheets in long form (`long_days`; 50 % and 73
    undelivered at first sight), YAML anchors (`yaml_as_text`; 59 %), JSON-LD reservations (`jsonld_as_text`; 46 %),
    todo.txt (`todo_as_text`; 56 %), costs split by payer (long tables, a refunded section left out; 61 %), a table in
    Danish / Ukrainian / Catalan / Swahili (`day_rows_as_labels`; 70 %), an e-mail reply with a quoted draft
    (`quoted_as_text`, one-name changes, `X instead of Y`; 89 %) and an overview of cut names (`_untruncated`; 86 %):
    every layout at 95 % or more, every rendering delivered, no violation read as a pass."""
    import layouts
    res = layouts.measure('heldout14', plans=layouts.known_plans()[:40])
    assert {k: v['checks'] for k, v in res['layouts'].items() if v['checks'] < 0.95} == {}
    assert res['all']['undelivered'] == 0 and res['all']['violations_read_as_passes'] == 0

def test_v15_layouts_read_after_first_tuning():
    """Issue 48: the v15 layouts (tools/layouts_v15.py, first score 63.21 %, pinned in `test_layout_record`) read after
    the first tuning step on them, on the first 40 known plans: texted SMS threads (`d2 thu 3/17`, `bfast`, `din`, `same
    hotel`, `Y or X?` settled by `ok X it is`; 0 % and every one undelivered at first sight), a venue index (`index_as_text`,
    meal sections; 59 %), Norwegian / Croatian / Tagalog / Persian labels (digits of any script, `(lokasyon: X)`; 58 %),
    a past-tense diary (`given_up_as_text`; 63 %), a self-correcting answer (`restated_as_text`, a correction list after
    the days; 74 %), Confluence wiki markup (`wiki_as_text`; 76 %), a Mermaid flowchart (`flowchart_as_text`; 81 %) and a
    Slack thread (95 %): every layout at 94 % or more, every rendering delivered, no violation read as a pass unflagged."""
    import layouts
    res = layouts.measure('heldout15', plans=layouts.known_plans()[:40])
    assert {k: v['checks'] for k, v in res['layouts'].items() if v['checks'] < 0.94} == {}
    assert res['all']['undelivered'] == 0 and res['all']['violations_read_as_passes_without_doubt'] == 0

def _read_after_tuning(part: str, floor: float):
    "A held-out part on the first 40 known plans: every layout at `floor` of the checks or more, all delivered, no unflagged false pass."
    import layouts
    res = layouts.measure(part, plans=layouts.known_plans()[:40])
    assert {k: v['checks'] for k, v in res['layouts'].items() if v['checks'] < floor} == {}
    assert res['all']['undelivered'] == 0 and res['all']['violations_read_as_passes_without_doubt'] == 0

def test_v16_layouts_read_after_first_tuning():
    """Issue 48: the v16 layouts (tools/layouts_v16.py, first score 60.28 %, pinned in `test_layout_record`) read after
    the first tuning step on them, on the first 40 known plans: days told as 'the next morning' under clock times
    (`dated_marks`; 3 % and undelivered at first sight), a TripIt export (date lines, `✕ CANCELLED` items,
    `2 nights` / `9:30` at line starts no days; 11 %), a Notion database (`records_as_text`; 56 %), builder code
    (`code_as_text`; 66 %), Bulgarian / Bengali / Malay / Lithuanian labels (a fourth meal label in an italic aside left
    out, `САЩ`; 79 %), HTML day cards (`html_blocks_as_text`; 82 %, 4 violations read as passes), rating-annotated bullets
    (89 %) and reStructuredText with an admonition of options not booked (`aside_blocks_as_text`; 95 %, 5 violations read
    as passes): every layout at 95 % or more, every rendering delivered, no violation read as a pass unflagged."""
    _read_after_tuning('heldout16', 0.95)

def test_v17_layouts_read_after_first_tuning():
    """Issue 48: the v17 layouts (tools/layouts_v17.py, first score 71.03 %, pinned in `test_layout_record`) read after
    the first tuning step on them, on the first 40 known plans: days told apart by bold weekdays alone (`dated_marks`
    by the query's dates; 58 % and 117 undelivered at first sight), numbered days mixing labels and sentences (a
    `Location:` under a stay, `Not included:` lines; 60 %), Spanish / French / German / Portuguese prose (meal words,
    mode words and 'same stay' sentences of those languages, bracketed asides; 63 %), themed time-of-day days (a
    subtitle's route, `same hotel as Day 3`; 66 %), a decimal outline (`## 3. Accommodation summary` after the days;
    73 %), a glance table then prose (`glance_stays_as_text`; 75 %), slot options picked later (`slot_options_as_text`;
    77 %): every layout at 95 % or more, every rendering delivered, no violation read as a pass unflagged."""
    _read_after_tuning('heldout17', 0.95)

def test_v17_rewrites_on_plain_cases():
    """The v17 rewrites on plain cases (issue 48), each read into the gold plan of train query 0: weekday heads, a stay's
    city nested under it, a set-aside label, foreign prose with an aside in brackets, and an option picked under its line."""
    t = TRAIN[0]
    def read(text): return [(d['current_city'], d['breakfast'], d['lunch'], d['dinner'], d['accommodation']) for d in format_plan(text, t).plan]
    weekdays = ('**Wednesday**\n✈ F3573659 · St. Petersburg 15:40 → Rockford 17:04\nDinner: Coco Bambu, Rockford\n\n---\n\n'
                '**Thursday**\nBreakfast: Dial A Cake, Rockford\n- Not included: Flying Mango, Rockford — no time.\n\n---\n\n'
                '**Friday**\nLunch: Gajalee Sea Food, Rockford\n✈ F3573120 · Rockford 19:00 → St. Petersburg 22:43')
    assert read(weekdays) == [('from St. Petersburg to Rockford', '-', '-', 'Coco Bambu, Rockford', '-'),
                              ('Rockford', 'Dial A Cake, Rockford', '-', '-', '-'),
                              ('from Rockford to St. Petersburg', '-', 'Gajalee Sea Food, Rockford', '-', '-')]
    french = ("**Jour 1 – mercredi 16 mars (St. Petersburg → Rockford)**\nVol F3573659 de St. Petersburg à Rockford. "
              "Dîner chez Coco Bambu, Rockford. Nuit à Pure luxury one bdrm + sofa bed on Central Park, Rockford. "
              "(Nous avions envisagé Flying Mango, mais c'était complet.)\n\n**Jour 2 – jeudi 17 mars (Rockford)**\n"
              "Petit-déjeuner chez Dial A Cake, Rockford. Nuit au même hôtel.\n\n"
              "**Jour 3 – vendredi 18 mars (Rockford → St. Petersburg)**\nVol F3573120 de Rockford à St. Petersburg.")
    stay = 'Pure luxury one bdrm + sofa bed on Central Park, Rockford'
    assert read(french) == [('from St. Petersburg to Rockford', '-', '-', 'Coco Bambu, Rockford', stay),
                            ('Rockford', 'Dial A Cake, Rockford', '-', '-', stay), ('from Rockford to St. Petersburg', '-', '-', '-', '-')]
    options = ('### Day 1 — St. Petersburg → Rockford\n- Travel: flight F3573659\n- Dinner — **Option A:** Coco Bambu, Rockford · '
               '**Option B:** Flying Mango, Rockford\n  - ➜ Pick: **Coco Bambu** — open later.\n- Stay: **' + stay.split(',')[0] +
               '**\n  - Location: Rockford\n### Day 2 — Rockford\n- Breakfast: Dial A Cake, Rockford\n- Stay: same as Day 1\n'
               '### Day 3 — Rockford → St. Petersburg\n- Travel: flight F3573120')
    assert read(options) == [('from St. Petersburg to Rockford', '-', '-', 'Coco Bambu, Rockford', stay),
                             ('Rockford', 'Dial A Cake, Rockford', '-', '-', stay), ('from Rockford to St. Petersburg', '-', '-', '-', '-')]

def test_v18_layouts_read_after_first_tuning():
    """Issue 48: the v18 layouts (tools/layouts_v18.py, first score 79.74 %, pinned in `test_layout_record`) read after
    the first tuning step on them, on the first 40 known plans: Gemini-style bold lines with image tags (`[Image of X]`
    dropped, `Return to X`, an `Important Considerations` section closing the last day; 65 % at first sight), a travel
    agent's letter (`your final day` after ordinal days, `return to your accommodation`; 67 %), Italian / Dutch / Polish /
    Turkish prose (inflected meal words, `Diner bij`, `hetzelfde hotel`; 76 %), Perplexity-style citations (81 %), a
    booked checklist (`- [x]` boxes, `Night 2 of 2 at X`; 84 %), Claude-style where-to sub-lists (`…, based in X —
    allow two hours`, `Stockton CA`; 86 %), a lettered outline (`(b) Meals: …`; 90 %), time / activity / notes tables
    (`· Instead of Y (…)`; 90 %): every layout at 90 % or more, every rendering delivered, no violation read as a pass
    unflagged."""
    _read_after_tuning('heldout18', 0.9)

def test_v18_rewrites_on_plain_cases():
    """The v18 rewrites on plain cases (issue 48), each read into the gold plan of train query 0: image tags, task-list
    boxes, an outline's lettered items, a stay's value that only sends the traveller back, a closing section of
    considerations, Dutch prose, and a clause that opens with *instead of*."""
    t = TRAIN[0]
    def read(text): return [(d['current_city'], d['breakfast'], d['lunch'], d['dinner'], d['attraction'], d['accommodation']) for d in format_plan(text, t).plan]
    stay = 'Pure luxury one bdrm + sofa bed on Central Park, Rockford'
    gemini = ('**Day 1: Arrival (March 16)**\n\n* **Travel:** Take flight F3573659 from St. Petersburg to Rockford.\n'
              '* **Dinner:** Enjoy dinner at Coco Bambu, Rockford IL.\n* **Accommodation:** Check into ' + stay + ' for 2 nights.\n\n'
              '**Day 2: Sights (March 17)**\n\n[Image of Rockford skyline]\n\n* **Morning:** Head to Burpee Museum of Natural History, Rockford. '
              '[Image of Burpee Museum of Natural History]\n* **Accommodation:** Return to your accommodation.\n\n'
              '**Day 3: Heading Home (March 18)**\n\n* **Lunch:** Have lunch at Flying Mango, Rockford.\n'
              '* **Travel:** Take flight F3573120 from Rockford to St. Petersburg.\n\n**Important Considerations:**\n\n'
              '* **Alternative for Day 3 dinner:** Cafe Southall is popular too, but it is closed that day.\n'
              '* **Accommodation note:** Spacious 3BDR Prime Location! was considered for Nights 1–2.')
    assert read(gemini) == [('from St. Petersburg to Rockford', '-', '-', 'Coco Bambu, Rockford', '-', stay),
                            ('Rockford', '-', '-', '-', 'Burpee Museum of Natural History, Rockford;', stay),
                            ('from Rockford to St. Petersburg', '-', 'Flying Mango, Rockford', '-', '-', '-')]
    outline = ('1. Day 1 — St. Petersburg to Rockford\n   (a) Transport: flight F3573659, St. Petersburg → Rockford.\n'
               '   (b) Meals: no breakfast; no lunch; Coco Bambu, Rockford (dinner).\n   (c) Accommodation: ' + stay + '.\n'
               '2. Day 2 — Rockford\n   - [x] Breakfast: Dial A Cake, Rockford\n   - [ ] 🏨 Night 2 of 2 at ' + stay + '\n'
               '   - [ ] Sightseeing: Burpee Museum of Natural History, Rockford · Instead of Midway Village Museum (closed)\n'
               '3. Day 3 — Rockford to St. Petersburg\n   (a) Transport: flight F3573120, Rockford → St. Petersburg.')
    assert read(outline) == [('from St. Petersburg to Rockford', '-', '-', 'Coco Bambu, Rockford', '-', stay),
                             ('Rockford', 'Dial A Cake, Rockford', '-', '-', 'Burpee Museum of Natural History, Rockford;', stay),
                             ('from Rockford to St. Petersburg', '-', '-', '-', '-', '-')]
    dutch = ('**Dag 1 — woensdag 16 maart (St. Petersburg → Rockford)**\nVlucht F3573659 van St. Petersburg naar Rockford. '
             'Diner bij Coco Bambu, Rockford. Je overnacht in ' + stay + ' (2 nachten).\n\n**Dag 2 — donderdag 17 maart (Rockford)**\n'
             "De dag begint met een ontbijt bij Dial A Cake, Rockford. 's Avonds eet je bij Cafe Southall, Rockford. "
             'Je slaapt weer in hetzelfde hotel.\n\n**Dag 3 — vrijdag 18 maart (Rockford → St. Petersburg)**\n'
             'Vlucht F3573120 van Rockford naar St. Petersburg.\n\nGoede reis!')
    assert read(dutch) == [('from St. Petersburg to Rockford', '-', '-', 'Coco Bambu, Rockford', '-', stay),
                           ('Rockford', 'Dial A Cake, Rockford', '-', 'Cafe Southall, Rockford', '-', stay),
                           ('from Rockford to St. Petersburg', '-', '-', '-', '-', '-')]

def test_v19_layouts_read_after_first_tuning():
    """Issue 48: the v19 layouts (tools/layouts_v19.py, first score 57.23 %, pinned in `test_layout_record`) read after
    the first tuning step on them, on the first 40 known plans: a second-person story in chapters (`Chapter Two`; not
    delivered at first sight), an app's key-path export (`days[1].items[2].name = X`: built into its object; 55 %), a
    week grid with a column per day (clock-time rows; 54 %), a tour brochure (`IMPORTANT NOTES` after the days; 57 %),
    Chinese / Japanese / Korean / Russian prose (63 %), a hedged Llama-style answer (72 %), a Reddit post with its
    comments (`EDIT:`, `TL;DR`; 79 %), a ChatGPT page (`You said:` turns dropped; 80 %): every layout at 94 % or more,
    every rendering delivered, no violation read as a pass unflagged."""
    _read_after_tuning('heldout19', 0.94)


def test_v19_rewrites_on_plain_cases():
    """The v19 rewrites on plain cases (issue 48), each read into the gold plan of train query 0: a chat page's user
    turns, a key-path export, a table with one day per column and clock-time rows, Chinese prose, and a story's
    chapters with a given-up sight."""
    t = TRAIN[0]
    def read(text): return [(d['current_city'], d['breakfast'], d['lunch'], d['dinner'], d['attraction'], d['accommodation']) for d in format_plan(text, t).plan]
    stay = 'Pure luxury one bdrm + sofa bed on Central Park, Rockford'
    gold = [('from St. Petersburg to Rockford', '-', '-', 'Coco Bambu, Rockford', '-', stay),
            ('Rockford', 'Dial A Cake, Rockford', '-', '-', 'Burpee Museum of Natural History, Rockford;', stay),
            ('from Rockford to St. Petersburg', '-', '-', '-', '-', '-')]
    chat = ('**Day 1 — St. Petersburg → Rockford**\n- ✈️ Flight F3573659: St. Petersburg → Rockford\n- Dinner: Coco Bambu (Rockford metro)\n'
            '- 🏨 Check in: ' + stay + ' (2 nights)\n\nShall I do Day 2?\nYou said:\nwhat about Cafe Southall for dinner instead of Coco Bambu?\n'
            'ChatGPT said:\nCafe Southall is fully booked that day, so Coco Bambu it is.\nYou said:\nyes\nChatGPT said:\n'
            '**Day 2 — Rockford**\n- Breakfast: dine at Dial A Cake, Rockford\n- 📍 Burpee Museum of Natural History, Rockford\n'
            '- 🏨 Same hotel as last night\n\nWant me to keep going with Day 3?\nYou said:\nnext\nChatGPT said:\n'
            '**Day 3 — Rockford → St. Petersburg**\n- ✈️ Flight F3573120: Rockford → St. Petersburg\n- 🏨 No hotel — you\'re heading home')
    assert read(chat) == gold
    paths = ('trip.title = St. Petersburg to Rockford\nstays[0].name = Pure luxury one bdrm + sofa bed on Central Park\n'
             'stays[0].city = Rockford\nstays[0].nights = 2\ndays[0].route.from = St. Petersburg\ndays[0].route.to = Rockford\n'
             'days[0].transport.flight_no = F3573659\ndays[0].items[0].meal = dinner\ndays[0].items[0].name = Coco Bambu\n'
             'days[0].items[0].city = Rockford\ndays[0].stay = stays[0]\ndays[1].route.city = Rockford\ndays[1].items[0].meal = breakfast\n'
             'days[1].items[0].name = Dial A Cake\ndays[1].items[0].city = Rockford\ndays[1].items[1].type = attraction\n'
             'days[1].items[1].name = Midway Village Museum\ndays[1].items[1].city = Rockford\ndays[1].items[1].status = skipped — closed\n'
             'days[1].items[2].type = attraction\ndays[1].items[2].name = Burpee Museum of Natural History\ndays[1].items[2].city = Rockford\n'
             'days[1].stay = stays[0]\ndays[2].route.from = Rockford\ndays[2].route.to = St. Petersburg\ndays[2].transport.flight_no = F3573120')
    assert read(paths) == gold
    grid = ('| | **Day 1** · Wed 3/16 | **Day 2** · Thu 3/17 | **Day 3** · Fri 3/18 |\n|---|---|---|---|\n'
            '| 📍 | St. Petersburg → Rockford | Rockford | Rockford → St. Petersburg |\n'
            '| 08:00 |  | 🍳 Breakfast => Dial A Cake (Rockford metro) |  |\n'
            '| 09:00 |  | 🎟️ Burpee Museum of Natural History (Rockford metro) |  |\n'
            '| 15:00 | ✈️ F3573659 · St. Petersburg 15:40 → Rockford 17:04 |  | ✈️ F3573120 · Rockford 19:00 → St. Petersburg 22:43 |\n'
            '| 18:00 | 🍝 Dinner => Coco Bambu (Rockford metro) |  |  |\n'
            '| 🛏️ night | 🏨 ' + stay.split(',')[0] + ' (Rockford metro) · 2 nights | 🏨 same as Day 1 | — |\n'
            '| ✏️ notes | ✗ not Cafe Southall for dinner — fully booked |  |  |')
    assert read(grid) == gold
    zh = ('**第1天：3月16日 星期三（St. Petersburg → Rockford）**\n航班F3573659：15:40从St. Petersburg起飞，17:04降落在Rockford。'
          '晚餐在位于Rockford的Coco Bambu。早餐自理。午餐自理。入住位于Rockford的' + stay.split(',')[0] + '（2晚）。（Spacious 3BDR Prime Location!已经订满了。）\n\n'
          '**第2天：3月17日 星期四（Rockford）**\n早餐在位于Rockford的Dial A Cake。游览位于Rockford的Burpee Museum of Natural History。仍住同一家酒店。\n\n'
          '**第3天：3月18日 星期五（Rockford → St. Petersburg）**\n乘坐F3573120航班从Rockford出发（19:00起飞），22:43抵达St. Petersburg。')
    assert read(zh) == gold
    story = ('## Chapter One — Wednesday, March 16: St. Petersburg to Rockford\n\nAt 15:40, flight F3573659 lifts off from St. Petersburg. '
             'The evening ends with dinner at Coco Bambu, found in Rockford. You check in at ' + stay.split(',')[0] + ', found in Rockford, '
             'your home for two nights.\n\n## Chapter Two — Thursday, March 17: Rockford\n\nBreakfast is at Dial A Cake, found in Rockford. '
             'You wander through Burpee Museum of Natural History, found in Rockford. You leave Midway Village Museum, found in Rockford, '
             'for another trip — it is closed for renovation. Back in your room for the night, you fall asleep quickly.\n\n'
             '## Chapter Three — Friday, March 18: Rockford to St. Petersburg\n\nAt 19:00, flight F3573120 lifts off from Rockford.\n\n*The End.*')
    assert read(story) == gold

def test_counted_days_records_code_and_asides():
    """The v16 rewrites on plain cases (issue 48): days headed by a date then 'next day' / 'last day', clock times and
    counts at line starts that are no day numbers, a cancelled line, an aside block under a title, HTML cards, a
    database of records and a builder's code, each read into the gold plan of train query 0."""
    from star.grounded import (dated_marks, inferred_marks, cancelled_as_text, aside_blocks_as_text, html_blocks_as_text,
                               records_as_text, code_as_text, words)
    t = TRAIN[0]
    text = ('**Wednesday, March 16 — St. Petersburg → Rockford**\n3:40 p.m. — Flight F3573659 out of St. Petersburg, landing in Rockford at 5:04 p.m.\n'
            '7 p.m. — Dinner: Coco Bambu, Rockford\n\n**Next day — Rockford**\n8 a.m. — Breakfast: Dial A Cake, Rockford\n'
            '9 a.m. — Lunch: Applebee’s, Rockford   ✕ CANCELLED\n12:30 p.m. — Lunch: Flying Mango, Rockford\n\n'
            '**Your last day — Rockford → St. Petersburg**\n8 a.m. — Breakfast: Subway, Rockford\n'
            '7 p.m. — Flight F3573120 out of Rockford, landing in St. Petersburg at 10:43 p.m.\n')
    assert [n for n, _, _ in dated_marks(text, words(text), t)] == [1, 2, 3] and inferred_marks(text, words(text)) == []
    fp = format_plan(text, t)
    assert [(d['current_city'], d['breakfast'], d['lunch'], d['dinner']) for d in fp.plan] == [
        ('from St. Petersburg to Rockford', '-', '-', 'Coco Bambu, Rockford'), ('Rockford', 'Dial A Cake, Rockford', 'Flying Mango, Rockford', '-'),
        ('from Rockford to St. Petersburg', 'Subway, Rockford', '-', '-')]
    assert cancelled_as_text('Status: Dropped') is None and aside_blocks_as_text('**Backups:**\n- X\nDay 2') == 'Day 2'
    assert aside_blocks_as_text('## Slide 8 — Plan B (not booked)\n- Day 4 lunch: Subway\n```\nEnd') == '```\nEnd'   # up to a fence
    from star.grounded import unstruck
    assert unstruck('h2. Day 1\n|19:00|Dinner|-Shree Hari, Charlotte- Dial a Cake, Charlotte|') == 'h2. Day 1\n|19:00|Dinner| Dial a Cake, Charlotte|'
    notes = format_plan('## Day 2\n- 🏛️ Burpee Museum of Natural History (in Rockford)\n\nNote:\n- Breakfast > Dial A Cake (in Rockford)\n', t)
    assert notes.plan[0]['breakfast'] == 'Dial A Cake, Rockford'                    # speaker notes under the last day: the day's own
    assert html_blocks_as_text('<div><h4>Day 1</h4><ul><li>Dinner: A &amp; B</li><!-- Lunch: C --></ul></div>') == '#### Day 1\n\n- Dinner: A & B'
    db = '\n\n'.join(f'### {n}\nType: {k}\nDay: {d}\nCity: Rockford\nPlace: {n}' + (f'\nStatus: {s}' if s else '') for n, k, d, s in [
        ('Coco Bambu', 'Meal · Dinner', 1, ''), ('Dial A Cake', 'Meal · Breakfast', 2, ''), ('U Like', 'Meal · Lunch', 2, 'Dropped'),
        ('Flying Mango', 'Meal · Lunch', 2, '')])
    assert records_as_text(db).split('\n') == ['Day 1:', 'Dinner: Coco Bambu, Rockford', '', 'Day 2:', 'Breakfast: Dial A Cake, Rockford',
                                                'Lunch: Flying Mango, Rockford', '']
    code = ('```python\nd1 = trip.day(1)\nd1.meal("dinner", Place("Coco Bambu", city="Rockford"))\nd2 = trip.day(2)\n'
            '# d2.lunch(Place("U Like", city="Rockford"))\nd2.lunch(Place("Flying Mango", city="Rockford"))\n'
            'trip.stay(Place("Pure luxury one bdrm + sofa bed on Central Park", city="Rockford"), nights=range(1, 3))\n```')
    fp = format_plan(code, t)
    assert [(d['lunch'], d['dinner'], d['accommodation']) for d in fp.plan] == [
        ('-', 'Coco Bambu, Rockford', 'Pure luxury one bdrm + sofa bed on Central Park, Rockford'),
        ('Flying Mango, Rockford', '-', 'Pure luxury one bdrm + sofa bed on Central Park, Rockford')]

def test_texted_and_retold_plans():
    """The v15 rewrites on plain cases: a texted day head, a retraction restated, a choice told as given up, a choice put
    as a question and settled, `same hotel`, wiki markup's struck spans and panels, a label in a bracket (issue 48)."""
    from star.grounded import (restated_as_text, given_up_as_text, same_stay_as_text, wiki_as_text, unstruck,
                               _bracket_labels, day_marks, words)
    t = 'd1 wed 3/16: A->B\nflt F1\nD1 --> D2'
    assert [(n, k) for n, k, _ in day_marks(t, words(t))] == [(1, 0)]                 # not the chart's node 'D1 --> D2'
    assert restated_as_text('3. Overnight: X … wait, X has no rooms left — scratch that. Overnight: Y') == '3. Overnight: Y'
    assert restated_as_text('Lunch booked at X … wait, X is closed — scratch that. Lunch booked at Y') == 'Lunch booked at Y'
    assert restated_as_text('Actually, lunch: Y') is None                             # nothing restated: left alone
    assert given_up_as_text("We'd planned on Y for dinner, but it was closed, so we ended up at X.") == 'for dinner, but it was closed, so we ended up at X.'
    assert given_up_as_text('Our booking at Z fell through (no hot water), so we checked in at W instead.') == ', so we checked in at W instead.'
    assert given_up_as_text('Dinner at X. Lunch at Y.') is None
    assert same_stay_as_text('Me: d2\nsame hotel\nsame day: no') == 'Me: d2\nAccommodation: same as the night before\nsame day: no'
    wiki = 'h2. Day 1\n* Dinner ➤ -China Town (Wichita location)- I:ba Cafe {status:title=CHANGED}\n{panel:title=Considered, not booked}\n* Day 1 lunch: Q\n{panel}\n* Stay: A \\+ B'
    assert wiki_as_text(unstruck(wiki)) == '## Day 1\n* Dinner ➤  I:ba Cafe \n* Stay: A + B'
    assert unstruck('- Mid-America Museum - open') is None                             # no wiki markup: dashes are dashes
    assert _bracket_labels('X (lokasyon: Abilene) ⦁ Y (Day 2: Z)') == 'X (Abilene) ⦁ Y (Day 2: Z)'
    text = ('Me: d1 wed 3/16: St. Petersburg->Rockford\nMe: flt F3573659 St. Petersburg->Rockford 3:40p-5:04p\n'
            'Me: din Coco Bambu, Rockford or Cafe Southall, Rockford?\nAl: Cafe Southall pls\nMe: ok Cafe Southall it is\n'
            'Me: sleep at Pure luxury one bdrm + sofa bed on Central Park, Rockford (2 nts)\nMe: d2 thu 3/17: Rockford\n'
            'Me: bfast Dial A Cake, Rockford\nMe: same hotel\nMe: d3 fri 3/18: Rockford->St. Petersburg\n'
            'Me: flt F3573120 Rockford->St. Petersburg 7:00p-10:43p\nAl: 👍')
    fp = format_plan(text, R0)
    assert [(d['dinner'], d['breakfast'], d['accommodation']) for d in fp.plan] == [
        ('Cafe Southall, Rockford', '-', 'Pure luxury one bdrm + sofa bed on Central Park, Rockford'),
        ('-', 'Dial A Cake, Rockford', 'Pure luxury one bdrm + sofa bed on Central Park, Rockford'), ('-', '-', '-')]

def test_ledgers_chains_and_note_stays():
    """Rules found on the scored parts v8, v10 and v13 (issue 48), on plain cases: a long-form ledger with a row per day
    between its items (its name column the one written in words, a stay's nights in another cell), a day written as a
    chain of arrows whose route is only in its heading, breadcrumbs between arrows, a note's YAML front matter giving a
    stay by its check-in and check-out dates, a wiki-linked name with its city after the link, and a place said with a
    locative and a state (`X in Rockford, Illinois`: the city, the state the other reading)."""
    assert (TRAIN[0].org, TRAIN[0].dest, TRAIN[0].date[0]) == ('St. Petersburg', 'Rockford', '2022-03-16')
    stay = 'Pure luxury one bdrm + sofa bed on Central Park'
    ledger = ('| # | Day | City | Expense | Paid to / details | Qty × unit | Amount |\n|---:|---|---|---|---|---|---:|\n'
              '| | **Day 1 · Wed 16 Mar** | **St. Petersburg → Rockford** | | | | |\n'
              '| 1 | | — | Flight | F3573659 · St. Petersburg → Rockford · 15:40–17:04 | 1 × $474 | $474 |\n'
              '| 2 | | Rockford | Dinner | Coco Bambu | 1 × $72 | $72 |\n'
              f'| 3 | | Rockford | Lodging | {stay} | 2 nights (Day 1–2) × 1 room × $243 | $486 |\n'
              '| | **Day 2 · Thu 17 Mar** | **Rockford** | | | | |\n'
              '| 4 | | Rockford | Breakfast | Dial A Cake | 1 × $29 | $29 |\n'
              '| 5 | | Rockford | Sightseeing | Burpee Museum of Natural History | — | $0 |\n'
              '| | **Day 3 · Fri 18 Mar** | **Rockford → St. Petersburg** | | | | |\n'
              '| 6 | | — | Flight | F3573120 · Rockford → St. Petersburg · 19:00–22:43 | 1 × $346 | $346 |\n')
    fp = format_plan(ledger, TRAIN[0])
    assert [(d['dinner'], d['breakfast'], d['attraction'], d['accommodation']) for d in fp.plan] == [
        ('Coco Bambu, Rockford', '-', '-', f'{stay}, Rockford'),
        ('-', 'Dial A Cake, Rockford', 'Burpee Museum of Natural History, Rockford;', f'{stay}, Rockford'), ('-', '-', '-', '-')]
    assert fp.plan[0]['transportation'].startswith('Flight Number: F3573659')
    chain = ('**Day 1** (Wed 3/16 · St. Petersburg to Rockford): 🚗 self-drive ~20 hours, $200 → dinner at Rockford › Coco Bambu'
             ' → Rockford › Burpee Museum of Natural History → Rockford › Midway Village Museum → 🛏 Rockford › ' + stay)
    day = format_plan(chain, TRAIN[0]).plan[0]
    assert day['current_city'] == 'from St. Petersburg to Rockford' and day['transportation'].startswith('Self-driving, from St. Petersburg to Rockford')
    assert day['attraction'] == 'Burpee Museum of Natural History, Rockford;Midway Village Museum, Rockford;'
    note = ('---\ntitle: "Trip"\nlodging:\n  - name: "' + stay + '"\n    city: "Rockford"\n    check_in: 2022-03-16\n'
            '    check_out: 2022-03-18\n---\n\n## Day 1 — [[2022-03-16|Wed, Mar 16]]\nroute:: St. Petersburg → Rockford\n'
            '- [ ] dinner:: [[Coco Bambu]], Rockford\n\n## Day 2 — [[2022-03-17|Thu, Mar 17]]\nroute:: Rockford\n'
            "- [ ] lunch:: [[Applebee's]] — in St. Petersburg\n\n## Day 3 — [[2022-03-18|Fri, Mar 18]]\n"
            'route:: Rockford → St. Petersburg\n- [ ] breakfast:: Subway in Rockford, Illinois\n')
    fp = format_plan(note, TRAIN[0])
    assert [d['accommodation'] for d in fp.plan] == [f'{stay}, Rockford'] * 2 + ['-']
    assert (fp.plan[1]['lunch'], fp.plan[2]['breakfast']) == ("Applebee's, St. Petersburg", 'Subway, Rockford')
    fp = format_plan('Day 2:\nCurrent City: Rockford\nBreakfast: Subway in Rockford, Illinois\nLunch: Flying Mango, Rockford, Illinois', TRAIN[0])
    assert (fp.plan[0]['breakfast'], fp.plan[0]['lunch']) == ('Subway, Rockford', 'Flying Mango, Rockford, Illinois')   # said / written
    assert any('breakfast written with a state after its city' in d for d in fp.notes)       # the other reading, a note

@pytest.mark.parametrize('head,labels,empty', [
    ('Siku', ('Usafiri', 'Kifungua kinywa', 'Vivutio', 'Chakula cha mchana', 'Chakula cha jioni', 'Malazi'), 'Hakuna'),   # Swahili
    ('วันที่', ('การเดินทาง', 'อาหารเช้า', 'สถานที่ท่องเที่ยว', 'อาหารกลางวัน', 'อาหารเย็น', 'ที่พัก'), 'ไม่มี'),            # Thai
    ('Ημέρα', ('Μετακίνηση', 'Πρωινό', 'Αξιοθέατα', 'Μεσημεριανό', 'Βραδινό', 'Διαμονή'), 'Κανένα')])                  # Greek
def test_labels_in_any_language(head, labels, empty):
    """Labels in languages the reader has no words for (none of these is in any table of the reader, nor in a layout it
    was tuned on) are learned from what their values name in the database, and the answer's own word for an empty slot
    from where it stands (`learned_labels`, issue 48), the days from headings of one wording and a number
    (`heading_marks`): the gold plan of validation query 0 read exactly, with a doubt."""
    tr, bf, at, lu, di, st = labels
    days = [('1', [(tr, 'F3573659: St. Petersburg → Rockford, 15:40'), (bf, empty), (at, empty), (lu, empty),
                   (di, 'Coco Bambu, Rockford'), (st, 'Pure luxury one bdrm + sofa bed on Central Park, Rockford')]),
            ('2', [(tr, empty), (bf, 'Dial A Cake, Rockford'), (at, 'Burpee Museum of Natural History, Rockford'),
                   (lu, 'Flying Mango, Rockford'), (di, 'Cafe Southall, Rockford'), (st, 'Pure luxury one bdrm + sofa bed on Central Park, Rockford')]),
            ('3', [(tr, 'F3573120: Rockford → St. Petersburg, 19:00'), (bf, 'Subway, Rockford'), (at, 'Sinnissippi Park, Rockford'),
                   (lu, 'Gajalee Sea Food, Rockford'), (di, 'Nutri Punch, Rockford'), (st, f'{empty} (—)')])]
    text = '\n\n'.join(f"### {head} {n}\n" + '\n'.join(f"| {a} | {b} |" for a, b in rows) for n, rows in days)
    fp = format_plan(text, R0)
    got = [(d['transportation'][:23], *_meals_stay(d), d['attraction']) for d in fp.plan]
    assert got == [('Flight Number: F3573659', '-', '-', 'Coco Bambu, Rockford', 'Pure luxury one bdrm + sofa bed on Central Park, Rockford', '-'),
                   ('-', *R0_DAY2, 'Burpee Museum of Natural History, Rockford;'),
                   ('Flight Number: F3573120', 'Subway, Rockford', 'Gajalee Sea Food, Rockford', 'Nutri Punch, Rockford', '-',
                    'Sinnissippi Park, Rockford;')]
    assert fp.doubtful and 'learned-labels' in {n.kind for n in fp.notes}

def test_revisions_are_read_as_edits():
    "A struck-through decoy, a change list after the plan and a diff are edits of the plan, not more of it (issue 48)."
    day = ("## Day 2 · Thursday, March 17 · Rockford\n- Breakfast stop: Dial A Cake, Rockford\n"
           "- **Sights:** Burpee Museum of Natural History, Rockford; next, ~~Sinnissippi Gardens, Rockford~~; next, Midway Village Museum, Rockford\n"
           "- Lunch stop: ~~Moets Arabica, Rockford~~ Flying Mango, Rockford — _the reviews were poor_\n- Dinner stop: Cafe Southall, Rockford\n"
           "- **Stay:** Pure luxury one bdrm + sofa bed on Central Park, Rockford\n\n"
           "**What changed:** Day 2 lunch: Moets Arabica → Flying Mango; Day 2 sights: dropped Sinnissippi Gardens.\n")
    d = format_grounded(day, R0)[0]
    assert _meals_stay(d) == R0_DAY2
    assert d['attraction'] == 'Burpee Museum of Natural History, Rockford;Midway Village Museum, Rockford;'
    patch = ("```diff\n@@ -1,6 +1,6 @@\n ## Day 2 — Rockford\n-- Breakfast: Subway, Rockford\n+- Breakfast: Dial A Cake, Rockford\n"
             " - Sights:\n   - Burpee Museum of Natural History (Rockford, IL)\n - Eat lunch at Flying Mango (Rockford, IL)\n"
             " - Dinner: Cafe Southall, Rockford\n - Hotel: Pure luxury one bdrm + sofa bed on Central Park (Rockford, IL)\n```")
    d = format_grounded(patch, R0)[0]
    assert _meals_stay(d) == R0_DAY2 and d['attraction'] == 'Burpee Museum of Natural History, Rockford;'


def test_compact_letters_and_emoji_days():
    """Issue 48 (v10 layouts): meals on one line after 'For …:' labels, a letter's closing lines and P.S. (never read as
    the last night's stay or a sight), keycap day numbers, crosses as empty slots, a car emoji as self-driving."""
    letter = ("**Day 2 · Thursday, March 17 · Rockford**\nNo travel today. We'll see Burpee Museum of Natural History — in Rockford. "
              "Another night at Pure luxury one bdrm + sofa bed on Central Park — in Rockford.\n"
              "🍽 For breakfast: Dial A Cake — in Rockford · For lunch: Flying Mango — in Rockford · For dinner: Cafe Southall — in Rockford\n\n"
              "Let me know if you'd like the times shifted.\n\nCheers,\nDana\n\nP.S. I also looked at Coco Bambu for dinner, but no.\n")
    d = format_grounded(letter, R0)[0]
    assert _meals_stay(d) == R0_DAY2 and d['attraction'] == 'Burpee Museum of Natural History, Rockford;'
    emoji = ("1️⃣ Wed 16/03 · St. Petersburg ➡️ Rockford\n✈️ F3573659 St. Petersburg ➡️ Rockford\n🍳 ❌\n🍝 Coco Bambu (in Rockford, IL)\n"
             "🛏️ Pure luxury one bdrm + sofa bed on Central Park (in Rockford, IL)\n\n2️⃣ Thu 17/03 · Rockford\n🍳 Dial A Cake (in Rockford, IL)\n")
    p = format_grounded(emoji, R0)
    assert [d['days'] for d in p] == [1, 2] and p[0]['breakfast'] == '-' and p[0]['dinner'] == 'Coco Bambu, Rockford'
    assert p[0]['transportation'].startswith('Flight Number: F3573659, from St. Petersburg to Rockford')
    assert p[1]['breakfast'] == 'Dial A Cake, Rockford'

def test_a_plan_in_chinese_is_read():
    "Train query 0's day 2 written in Chinese: labels, empty slots and place markers read; names kept as written (issue 48)."
    zh = ("以下是为您安排的行程：\n\n### 第二天 — 2022年3月17日（星期四）｜Rockford\n- **交通**：无\n- **早餐**：Dial A Cake（位于Rockford）\n"
          "- **景点**：Burpee Museum of Natural History（位于Rockford）\n- **午餐**：Flying Mango（位于Rockford）\n"
          "- **晚餐**：Cafe Southall（位于Rockford）\n- **住宿**：Pure luxury one bdrm + sofa bed on Central Park（位于Rockford）\n")
    notes = []
    d = format_grounded(zh, R0, notes)[0]
    assert d['days'] == 2 and _meals_stay(d) == R0_DAY2 and d['attraction'] == 'Burpee Museum of Natural History, Rockford;'
    assert d['transportation'] == '-' and notes[0].kind == 'layout' and 'Chinese' in notes[0]
    assert {n.kind for n in notes[1:]} == {'days', 'days-asked', 'route-check'}      # one day of three: the doubts it earns

# ---------------------------------------------------------------- issue 48: names placed by their kind in the database
R0 = {'org': 'St. Petersburg', 'dest': 'Rockford', 'days': 3}
R0_DAY2 = ('Dial A Cake, Rockford', 'Flying Mango, Rockford', 'Cafe Southall, Rockford', 'Pure luxury one bdrm + sofa bed on Central Park, Rockford')


def _meals_stay(d): return (d['breakfast'], d['lunch'], d['dinner'], d['accommodation'])

_R0_TEXT = ("Day 1: St. Petersburg → Rockford\nTransportation: Flight F3573659, St. Petersburg → Rockford, 15:40–17:04\n"
            "Dinner: Coco Bambu, Rockford\nAccommodation: Pure luxury one bdrm + sofa bed on Central Park, Rockford\n\n"
            "Day 2: Rockford\nBreakfast: Dial A Cake, Rockford\nAttraction: Burpee Museum of Natural History, Rockford\n"
            "Lunch: Flying Mango, Rockford\nDinner: Cafe Southall, Rockford\n"
            "Accommodation: Pure luxury one bdrm + sofa bed on Central Park, Rockford\n\n"
            "Day 3: Rockford → St. Petersburg\nTransportation: Flight F3573120, Rockford → St. Petersburg, 19:00–22:43\n"
            "Breakfast: Subway, Rockford\nLunch: Gajalee Sea Food, Rockford\nDinner: Nutri Punch, Rockford\nAccommodation: -")
"The gold plan of validation query 0, written as a chat model writes it."


@pytest.mark.parametrize('fix,day2', [
    ("⚠️ Correction to 2/5: Day 2 lunch is at Cafe Southall 📌 Rockford, not Flying Mango — it is closed that day.",
     ('Dial A Cake, Rockford', 'Cafe Southall, Rockford', 'Cafe Southall, Rockford')),
    ("Re-checking: switching Day 2 dinner from Cafe Southall to Coco Bambu.",
     ('Dial A Cake, Rockford', 'Flying Mango, Rockford', 'Coco Bambu, Rockford')),
    ("P.S. We'll eat at Flying Mango rather than Cafe Southall.",      # no day, no meal named: wherever the old name is read
     ('Dial A Cake, Rockford', 'Flying Mango, Rockford', 'Flying Mango, Rockford')),
    ("Then walk from Flying Mango to Cafe Southall.", R0_DAY2[:3])])               # no word of change: no correction
def test_corrections_after_the_plan(fix, day2):
    """A line after the plan that corrects it (`X, not Y`, `switching from Y to X`, `X rather than Y`) is applied where
    the reading has the old name, on the days and the meal it names, with a 'correction' note (issue 48); a line that
    only names two venues in a row changes nothing. On the gold plan of validation query 0."""
    text = _R0_TEXT + '\n\n' + fix
    fp = format_plan(text, R0)
    assert _meals_stay(fp.plan[1])[:3] == day2
    assert ('correction' in {n.kind for n in fp.notes}) == (day2 != R0_DAY2[:3])


@pytest.mark.parametrize('text', [
    # the gold plan of train query 0, day 2, as the held-out layouts write it: no label a field has for the meals
    "Day 2 | Rockford | B: Dial A Cake | L: Flying Mango | D: Cafe Southall | Sights: Burpee Museum of Natural History | "
    "Stay: Pure luxury one bdrm + sofa bed on Central Park",
    "#### Day 2: Rockford\n| 08:30 | 🍳 Dial A Cake in Rockford |\n| 10:00 | Sightseeing: Burpee Museum of Natural History |\n"
    "| 13:00 | Flying Mango |\n| 19:30 | Cafe Southall |\n| 21:30 | Pure luxury one bdrm + sofa bed on Central Park |",
    "Day 2 – March 17\n- [ ] **Breakfast** Dial A Cake\n- [ ] Lunch: Flying Mango\n- [ ] Dinner: Cafe Southall\n"
    "- [ ] See Burpee Museum of Natural History\n- [ ] Book: Pure luxury one bdrm + sofa bed on Central Park",
    "Day 2: At 8:30, breakfast: Dial A Cake, Rockford. After that, see Burpee Museum of Natural History. At noon, lunch: Flying "
    "Mango. In the evening, dinner: Cafe Southall. Night: Pure luxury one bdrm + sofa bed on Central Park.",
    "1. **Day 2**\n  Morning: Dial A Cake (in Rockford) (breakfast).\n  Afternoon: explore Burpee Museum of Natural History.\n"
    "  Midday: Flying Mango (lunch).\n  Evening: Cafe Southall (in Rockford) (dinner), then check in at Pure luxury one bdrm + "
    "sofa bed on Central Park (in Rockford).",
])
def test_names_are_placed_by_their_kind(text):
    "Each database name a day writes that no label reads is placed by what the database says it is (`complete_day`)."
    d = format_grounded(text, R0)[0]
    assert _meals_stay(d) == R0_DAY2 and d['attraction'] == 'Burpee Museum of Natural History, Rockford;'


def test_meals_by_order_only_where_no_meal_is_named():
    "A day naming no meal: its restaurants are breakfast, lunch, dinner in order (three: sure; fewer: a doubt)."
    notes, R0 = [], {'dest': 'Rockford'}         # one day read alone: no origin, no length (the whole-plan checks stay silent)
    d = format_grounded("Day 1\n- Dial A Cake\n- Flying Mango\n- Cafe Southall", R0, notes)[0]
    assert _meals_stay(d)[:3] == R0_DAY2[:3] and not notes
    d = format_grounded("Day 1\n- Flying Mango\n- Cafe Southall", R0, notes)[0]
    assert (d['breakfast'], d['lunch'], d['dinner']) == R0_DAY2[1:3] + ('-',) and [n.kind for n in notes] == ['meal-order']
    notes = []                                  # a day that labels its meals: a restaurant without a label is a mention
    d = format_grounded("Day 1\n- Lunch: Flying Mango\n- Cafe Southall is nearby too", R0, notes)[0]
    assert (d['breakfast'], d['dinner']) == ('-', '-') and 'unread' in {n.kind for n in notes}
    d = format_grounded("Day 3\n- Check out of Pure luxury one bdrm + sofa bed on Central Park\n- Lunch: Flying Mango", R0)[0]
    assert d['accommodation'] == '-'                                          # a stay left is no night's stay


def test_joiners_list_numbers_and_bracketed_cities():
    "Lower-case words join two names; `1. **Day 1**` is a heading; `X (in Rockford)` names X's city, no remark (issue 48)."
    d = format_grounded("Day 2\nSights: Burpee Museum of Natural History as well as Midway Village Museum followed by "
                        "Discovery Center Museum", R0)[0]
    assert d['attraction'] == ('Burpee Museum of Natural History, Rockford;Midway Village Museum, Rockford;'
                               'Discovery Center Museum, Rockford;')
    notes = []
    p = format_grounded("Itinerary\n\n1. **Day 1** (Rockford)\n   a. Lunch: Flying Mango (Rockford)\n\n2. **Day 2** (Rockford)\n"
                        "   a. Dinner: Cafe Southall (in Rockford)\n", R0, notes)
    assert [d['lunch'] for d in p] == ['Flying Mango, Rockford', '-'] and p[1]['dinner'] == 'Cafe Southall, Rockford'
    assert not {n.kind for n in notes} & {'days', 'remark'}


def test_real_answers_names_placed_by_kind():
    "Real answers (issue 19's public runs): a sight written in a sentence is read as the database's name; an address is no sight."
    rows = {(r['run'], r['idx']): r for r in real_answers()}
    nyc = rows[('mixtral-8x7b', 111)]['text']                 # '- Central Park bike ride and picnic in the afternoon'
    day2 = format_grounded(nyc, VAL[111])[1]
    assert 'Central Park, New York;' in day2['attraction'] and 'bike ride' not in day2['attraction']
    hou = rows[('gpt4-0609', 134)]['text']                    # 'Attraction: Houston Museum of Natural Science, Address: 5555 Hermann Park Dr, …'
    day2 = format_grounded(hou, VAL[134])[1]
    assert day2['attraction'].startswith('Houston Museum of Natural Science, Houston;') and 'Hermann Park, Houston' not in day2['attraction']


def test_a_note_said_twice_keeps_each_alternative():
    "Two items with the same kind of note in one field: noted once, but each other reading recorded, so the doubt is judged on all."
    text = ("Day 1:\nCurrent City: from St. Petersburg to Rockford\nTransportation: Flight F3573659 from St. Petersburg to Rockford\n"
            "Dinner: Coco Bambu, Rockford\nAccommodation: Pure luxury one bdrm + sofa bed on Central Park, Rockford\n\nDay 2:\n"
            "Current City: Rockford\nTransportation: -\nBreakfast: Dial A Cake, Rockford\n"
            "Attraction: Burpee Museum of Natural History, Rockford, IL; Midway Village Museum, Rockford, IL\n"
            "Lunch: Flying Mango, Rockford\nDinner: Cafe Southall, Rockford\nAccommodation: Pure luxury one bdrm + sofa bed on Central Park, Rockford\n")
    notes, alts = [], []
    format_grounded(text, TRAIN[0], notes, alts=alts)
    assert sum(n.kind == 'state' for n in notes) == 1 and sum(a[0] == 'state' for a in alts) == 2
    assert 'state' in {n.kind for n in format_plan(text, TRAIN[0]).doubts}


# ------------------------------------------- issue 48: structure-general reading (tables, recaps, references, reasoning)
STAY0 = 'Pure luxury one bdrm + sofa bed on Central Park'


def _read0(text, notes=None):
    "The reading of `text` for train query 0 and its doubts (`format_plan`)."
    fp = format_plan(text, TRAIN[0])
    return fp.plan, [n.kind for n in fp.doubts]


TRANSPOSED0 = (
    "Here's your 3-day trip at a glance:\n\n| | Day 1 (Wed, Mar 16) | Day 2 (Thu, Mar 17) | Day 3 (Fri, Mar 18) |\n|---|---|---|---|\n"
    "| 🗺️ **Route** | St. Petersburg ➝ Rockford | Rockford | Rockford ➝ St. Petersburg |\n"
    "| 🚆 **Transport** | ✈️ F3573659 · St. Petersburg 15:40 → Rockford 17:04 | — | ✈️ F3573120 · Rockford 19:00 → St. Petersburg 22:43 |\n"
    "| 🎯 **Sights** | — | Burpee Museum of Natural History [Rockford]<br>Midway Village Museum [Rockford]<br>Discovery Center Museum [Rockford] | "
    "Klehm Arboretum & Botanic Garden [Rockford]<br>Sinnissippi Park [Rockford] |\n"
    "| ☕ **Breakfast** | — | Dial A Cake [Rockford] | Subway [Rockford] |\n| 🥗 **Lunch** | — | Flying Mango [Rockford] | Gajalee Sea Food [Rockford] |\n"
    "| 🍲 **Dinner** | Coco Bambu [Rockford] | Cafe Southall [Rockford] | Nutri Punch [Rockford] |\n"
    f"| 🛌 **Overnight** | {STAY0} [Rockford] | {STAY0} [Rockford] | — |\n\nLet me know if you'd like to swap anything!")

CSV0 = ("Below is the full plan in CSV format (one row per day):\n\n```csv\n"
        "date,day,start_city,end_city,transport,hotel,breakfast,lunch,dinner,sights\n"
        f"2022-03-16,1,St. Petersburg,Rockford,\"flight F3573659 (dep 15:40, arr 17:04)\",\"{STAY0}, Rockford\",,,\"Coco Bambu, Rockford\",\n"
        f"2022-03-17,2,Rockford,Rockford,,\"{STAY0}, Rockford\",\"Dial A Cake, Rockford\",\"Flying Mango, Rockford\",\"Cafe Southall, Rockford\","
        "\"Burpee Museum of Natural History, Rockford ▸ Midway Village Museum, Rockford ▸ Discovery Center Museum, Rockford\"\n"
        "2022-03-18,3,Rockford,St. Petersburg,\"flight F3573120 (dep 19:00, arr 22:43)\",,\"Subway, Rockford\",\"Gajalee Sea Food, Rockford\","
        "\"Nutri Punch, Rockford\",\"Klehm Arboretum & Botanic Garden, Rockford ▸ Sinnissippi Park, Rockford\"\n```\n\nHave a great trip!")


@pytest.mark.parametrize('text', [
    TRANSPOSED0,                                                             # days as columns, `<br>` between sights
    CSV0,                                                                    # a CSV code block, start / end city columns
    CSV0.replace('```csv\n', '').replace('\n```', ''),                      # the same CSV without its fence
    TRANSPOSED0.replace('[Rockford]', '').replace('<br>', '<br/>'),
])
def test_tables_are_read_by_their_header_words(text):
    "A table holding a plan is read by its header words in either orientation, fenced or not (`tables_as_text`): the gold plan back."
    plan, doubts = _read0(text)
    keys = ('current_city', 'breakfast', 'attraction', 'lunch', 'dinner', 'accommodation')
    assert [{k: d[k] for k in keys} for d in plan] == [{k: d[k] for k in keys} for d in GOLD0] and not doubts
    assert [d['transportation'] for d in plan] == [d['transportation'] for d in GOLD0]


def test_tsv_and_aligned_tables_and_budget_tables():
    "TSV and plain-text tables aligned in columns hold days too; a budget table (no day column) is left as it is."
    from star.grounded import tables_as_text
    tsv = "Day\tCity\tLunch\tDinner\n1\tRockford\tFlying Mango\tCafe Southall\n"
    aligned = "```\nDay  City      Lunch         Dinner\n1    Rockford  Flying Mango  Cafe Southall\n```"
    for t in (tsv, aligned):
        d = format_grounded(t, R0)[0]
        assert (d['current_city'], d['lunch'], d['dinner']) == ('Rockford', 'Flying Mango, Rockford', 'Cafe Southall, Rockford')
    assert tables_as_text("| Item | Cost |\n|---|---|\n| Flight F3573659 | $120 |\n| Meals (Coco Bambu, Subway) | $80 |") is None


def test_stays_given_in_a_recap_by_dates_or_nights():
    "Days without their stays, then a recap by check-in / check-out dates or by nights: each stay on its nights (`stay_recap_as_text`)."
    days = ("First day — Wednesday, March 16 (St. Petersburg to Rockford)\n    Travel: Flight F3573659: leaves St. Petersburg at 15:40, "
            "lands in Rockford at 17:04\n    Dinner is at Coco Bambu, Rockford\n\nSecond day — Thursday, March 17 (Rockford)\n"
            "    _Breakfast:_ Dial A Cake, Rockford\n    _Lunch:_ Flying Mango, Rockford\n    _Dinner:_ Cafe Southall, Rockford\n\n"
            "Third day — Friday, March 18 (Rockford to St. Petersburg)\n    Travel: Flight F3573120: leaves Rockford at 19:00\n"
            "    _Lunch:_ Gajalee Sea Food, Rockford\n\n")
    for recap in (f"Where you'll sleep\n  - check in Wednesday, March 16, check out Friday, March 18 (2 nights): {STAY0}, Rockford\n\nEnjoy!",
                  f"**Accommodation**\n- Nights 1–2: {STAY0}, Rockford\n",
                  f"Hotels:\n- {STAY0}, Rockford: check-in 3/16/2022, 2 nights\n"):
        plan, doubts = _read0(days + recap)
        assert [d['accommodation'] for d in plan] == [d['accommodation'] for d in GOLD0] and 'unread' not in doubts


def test_numbered_legs_referred_to_from_the_days():
    "Legs listed first and referred to by number (`leg #2 above`) are read as those legs; a leg with no mode at all is a doubt."
    legs = ("Here's how I'd structure your trip.\n\n**Flights & transfers**\n"
            "1. Wed, Mar 16: Flight F3573659: leaves St. Petersburg at 15:40, lands in Rockford at 17:04\n"
            "2. Fri, Mar 18: Flight F3573120: leaves Rockford at 19:00, lands in St. Petersburg at 22:43\n\n**Day by day**\n\n"
            "Day 1 · Wed, Mar 16 · St. Petersburg → Rockford\n• Travel: leg #1 above (St. Petersburg → Rockford)\n"
            "• Dinner is at Coco Bambu, Rockford\n\nDay 2 · Thu, Mar 17 · Rockford\n• Lunch is at Flying Mango, Rockford\n\n"
            "Day 3 · Fri, Mar 18 · Rockford → St. Petersburg\n• Travel: leg #2 above (Rockford → St. Petersburg)\n")
    plan, doubts = _read0(legs)
    assert [d['transportation'] for d in plan] == [d['transportation'] for d in GOLD0] and 'no-mode' not in doubts
    plan, doubts = _read0(legs.replace('**Flights & transfers**', '**Ideas**'))     # no list of legs: unresolved
    assert plan[0]['transportation'].startswith('leg #1') and 'no-mode' in doubts


def test_reasoning_before_the_answer_and_possessive_cities():
    "A `<think>` block's pooled venues are no part of the plan; `Rockford's X`, `X, which is in Rockford`, `X [Rockford]` name X's city."
    text = ("<think>The user wants 3 days. Restaurants I want to use: Nutri Punch, Subway, Coco Bambu. Sights: Sinnissippi Park; "
            f"Midway Village Museum. Places to stay: {STAY0}.</think>\n\n**Your 3-Day Itinerary**\n\n**Day 2 (3/17/2022)** | Rockford\n"
            "  + BREAKFAST · Rockford's Dial A Cake\n  + LUNCH · Flying Mango, which is in Rockford\n  + [Dinner] Cafe Southall [Rockford]\n"
            "  + Visit: Rockford's Burpee Museum of Natural History ▸ Rockford's Midway Village Museum, followed by Discovery Center Museum [Rockford]\n"
            f"  + Accommodation: Rockford's {STAY0}\n")
    d = format_grounded(text, R0)[0]
    assert _meals_stay(d) == R0_DAY2 and d['attraction'] == GOLD0[1]['attraction']
    d = format_grounded("**Day 2** | Rockford\n  + LUNCH · Coco Bambu [St. Petersburg]", R0)[0]      # written in another city: kept
    assert d['lunch'] == 'Coco Bambu, St. Petersburg'


def test_layout_readers_are_linear():
    "The table, recap and reference readers on a long answer: linear (no rescans)."
    from star.grounded import references_as_text, stay_recap_as_text, tables_as_text
    long_rows = "| a | b |\n" * 20_000 + "leg #1 above, " * 5_000 + "\n" + "x,y,z\n" * 20_000 + "\n```\n" + "a  b  c\n" * 20_000
    with hang_guard(20):
        tables_as_text(long_rows), references_as_text("**Legs**\n1. Flight F1\n\nDay 1\n" + "leg #1 above " * 20_000)
        stay_recap_as_text("Day 1\nDay 2\n**Stays**\n" + "- Nights 1-2: X\n" * 20_000)


# ---------------------------------------------------------------- issue 48, part v6: a reading checked before it is trusted
_V6_TASK = {'org': 'St. Petersburg', 'dest': 'Rockford', 'days': 3}
_V6_DAY = ('| 1 | 16 March | St. Petersburg → Rockford | — | ✈️ F3573659, St. Petersburg → Rockford (15:40–17:04) | '
           'Dinner pick: Coco Bambu (📍 Rockford) | Pure luxury one bdrm + sofa bed on Central Park (📍 Rockford) |')


def test_time_of_day_columns_are_read():
    """A summary table with time-of-day columns (`| Day | Route | Morning | Afternoon | Evening | Night |`): each
    column's cell read as the day's text under its own label (the flight, the dinner), the night as the stay; a table
    of one day where three are asked is still a doubt ('days-asked')."""
    text = ('### Summary (final plan)\n\n| Day | Date | Route | Morning | Afternoon | Evening | Night |\n|---|---|---|---|---|---|---|\n'
            + _V6_DAY + '\n')
    fp = format_plan(text, _V6_TASK)
    d = fp.plan[0]
    assert (d['dinner'], d['accommodation']) == ('Coco Bambu, Rockford', 'Pure luxury one bdrm + sofa bed on Central Park, Rockford')
    assert d['transportation'].startswith('Flight Number: F3573659, from St. Petersburg to Rockford')
    assert fp.doubtful and 'days-asked' in {n.kind for n in fp.doubts} and 'unplaced' not in {n.kind for n in fp.doubts}


def test_fixed_width_rows_over_several_lines():
    "A plain-text table whose day goes on over several lines (blank day cells): each column's lines are one value."
    text = ("```text\nDAY   DATE         ROUTE            TRANSPORT         MEALS                         OVERNIGHT\n"
            "---   ----------   --------------   ---------------   ---------------------------   ---------\n"
            "1     16/03/2022   St. Petersburg   Flight F3573659   Dinner: Coco Bambu / Rockford   Pure luxury one bdrm + sofa bed on Central Park / Rockford\n"
            "                   to Rockford      15:40 → 17:04\n```")
    d = format_grounded(text, _V6_TASK)[0]
    assert (d['current_city'], d['dinner']) == ('from St. Petersburg to Rockford', 'Coco Bambu, Rockford')
    assert d['transportation'].startswith('Flight Number: F3573659, from St. Petersburg to Rockford')


def test_html_table_is_read_as_a_table():
    "An HTML table in a ```html block, sights as a list: read as a table by its header words, each list item an item."
    page = ('Below is the plan formatted as HTML:\n\n```html\n<h2>3-day trip</h2>\n<table border="1">\n  <thead>\n'
            '    <tr><th>Day</th><th>Route</th><th>Dinner</th><th>Attractions</th><th>Accommodation</th></tr>\n  </thead>\n'
            '  <tr>\n      <td>1</td>\n      <td>St. Petersburg &rarr; Rockford</td>\n      <td>Coco Bambu / Rockford</td>\n'
            '      <td><ul><li>Burpee Museum of Natural History / Rockford</li><li>Midway Village Museum / Rockford</li></ul></td>\n'
            '      <td>Pure luxury one bdrm + sofa bed on Central Park / Rockford</td>\n  </tr>\n</table>\n```\n')
    assert html_as_text('<p>no table</p>') is None and '| 1 | St. Petersburg → Rockford |' in html_as_text(page)
    d = format_grounded(page, _V6_TASK)[0]
    assert (d['dinner'], d['attraction']) == ('Coco Bambu, Rockford', 'Burpee Museum of Natural History, Rockford;Midway Village Museum, Rockford;')


def test_checks_of_a_reading():
    "Each check on a wrong reading: days, route, stays, names placed nowhere or twice, words around a name, HTML skipped."
    got = []
    rows = [{'days': 1, 'current_city': 'St. Petersburg', 'transportation': 'Flight Number: -, from St. Petersburg to Rockford',
             'breakfast': '-', 'lunch': 'Coco Bambu, Rockford', 'dinner': 'Coco Bambu, Rockford', 'attraction': '-', 'accommodation': '-'},
            {'days': 2, 'current_city': 'Rockford', 'transportation': '-', 'breakfast': '-', 'lunch': '-',
             'dinner': 'ditto Flying Mango, Rockford', 'attraction': '-', 'accommodation': '-'}]
    answer = '<table><tr><td>Lunch: Coco Bambu</td><td>Dinner: Flying Mango</td><td>Cafe Southall</td></tr></table>'
    check_reading(rows, answer, _V6_TASK, grounding_index(), lambda msg, kind: got.append(kind))
    assert set(got) == CHECK_KINDS
    got.clear()                                                   # empty days at the end (a padded plan) are no days
    check_reading(rows + [{'days': 3, **{k: '-' for k in rows[0] if k != 'days'}}], '', {'days': 2}, grounding_index(),
                  lambda msg, kind: got.append(kind))
    assert 'days-asked' not in got


# ---------------------------------------------------------------- issue 48, part v7 (development data since its first score)
def _v7_renderings(layout: str, n_plans: int = 3, seeds: int = 4):
    "Renderings of the first gold train plans by a v7 layout (`tools/layouts_v7.py`), with several phrasing draws each."
    import layouts_v7
    tasks = [t for t in load_tasks('train') if t.annotated_plan][:n_plans]
    for t in tasks:
        plan = plain_plan(t.annotated_plan)
        for s in range(seeds):
            ph = layouts_v7.Phr7(layouts_v7.HELDOUT7_PHRASES, random.Random(f"test:{layout}:{t.idx}:{s}"), plan)
            yield t, plan, layouts_v7.HELDOUT7_LAYOUTS[layout](plan, t, ph)


@pytest.mark.parametrize('layout', ['xml_days', 'hotel_blocks', 'sentence_footnotes', 'constraints_bld', 'foreign_labels'])
def test_v7_layouts_are_read(layout):
    """XML, stays heading blocks, footnotes, B/L/D slots, German / French / Spanish labels: each meal, sight and stay
    read as planned in most renderings, and every reading that differs has a doubt (a sentence the narrative reader
    misplaces, `head to X for lunch`, is one)."""
    right = n = 0
    for t, plan, text in _v7_renderings(layout):
        fp = format_plan(text, t)
        same = len(fp.plan) == len(plan) and all(
            all(b[k] == a[k] for k in ('breakfast', 'lunch', 'dinner', 'accommodation'))
            and set(b['attraction'].split(';')) == set(a['attraction'].split(';')) for a, b in zip(plan, fp.plan))
        assert same or fp.doubtful, (layout, t.idx, text)
        right, n = right + same, n + 1
    assert right >= 0.75 * n, (layout, right, n)


def test_foreign_meal_words_by_meaning():
    "French 'Déjeuner' is lunch and 'Petit-déjeuner' breakfast; German and Spanish meal words; Tag / Jour / Día headers."
    fr = ("**Jour 2** — jeudi 17 mars 2022 — à Rockford\n- Petit-déjeuner » Dial A Cake · Rockford\n"
          "- Déjeuner » Flying Mango · Rockford\n- Dîner » Cafe Southall · Rockford\n- Hébergement : Pure luxury one bdrm + sofa bed on Central Park · Rockford\n")
    de = ("**Tag 2** – Donnerstag, 17. März 2022 – in Rockford\n- Frühstück: Dial A Cake (Stadt: Rockford)\n"
          "- Mittagessen: Flying Mango (Stadt: Rockford)\n- Abendessen: Cafe Southall (Stadt: Rockford)\n"
          "- Unterkunft: Pure luxury one bdrm + sofa bed on Central Park (Stadt: Rockford)\n")
    es = ("**Día 2** — jueves, 17 de marzo de 2022 — en Rockford\n- Desayuno = Dial A Cake, Rockford\n- Almuerzo = Flying Mango, Rockford\n"
          "- Cena = Cafe Southall, Rockford\n- Alojamiento: Pure luxury one bdrm + sofa bed on Central Park, Rockford\n")
    for text in (fr, de, es):
        d = format_grounded(text, _V6_TASK)[-1]
        assert (d['days'], d['breakfast'], d['lunch'], d['dinner']) == (2, 'Dial A Cake, Rockford', 'Flying Mango, Rockford',
                                                                         'Cafe Southall, Rockford'), text
        assert d['accommodation'] == 'Pure luxury one bdrm + sofa bed on Central Park, Rockford'


def test_meal_slots_by_position_and_a_mismatch_is_a_doubt():
    "`B/L/D: X / Y / Z` gives each value its meal; a line whose values do not match its meals is a doubt, not a guess."
    from star.grounded import slot_line
    assert slot_line('   B/L/D: — / Flying Mango / Cafe Southall')[1] and slot_line('Lunch: X / Y') is None
    text = "Day 1: Rockford\nB/L/D: Dial A Cake (city: Rockford) / — / Cafe Southall (city: Rockford)\n"
    d = format_grounded(text, _V6_TASK)[0]
    assert (d['breakfast'], d['lunch'], d['dinner']) == ('Dial A Cake, Rockford', '-', 'Cafe Southall, Rockford')
    fp = format_plan("Day 1: Rockford\nB/L/D: Dial A Cake / Cafe Southall\n", _V6_TASK)
    assert fp.doubtful


def test_v7_readers_are_linear():
    "The XML, footnote and stay-block readers on long answers: linear (no rescans)."
    from star.grounded import footnotes_as_text, stay_blocks_as_text, xml_as_text
    with hang_guard(20):
        xml_as_text('```xml\n<trip>' + '<day n="1"><meal type="lunch">X &amp; Y</meal><sight>A & B</sight></day>' * 20_000 + '</trip>\n```')
        footnotes_as_text('Day 1: ' + 'Coco Bambu¹ and ' * 20_000 + '\n¹ Coco Bambu (Rockford) — Tea\n' + '[^2]: x\n' * 20_000)
        stay_blocks_as_text('Day 1\n' + '━━ Stay 1 of 2: X ━━\nNights: Day 1 and Day 2\n' * 20_000)


# ---------------------------------------------------------------- issue 48, part v8 (development data since its first score)
def _v8_renderings(layout: str, kinds=('gold',), n_plans: int = 40):
    """Renderings of known plans by a v8 layout (`tools/layouts_v8.py`), exactly as the part draws them: the first gold
    train plans (and, with `kinds`, their single-edit violations)."""
    import layouts, layouts_v8
    tasks = [t for t in load_tasks('train') if t.annotated_plan][:n_plans]
    j = 0
    for t in tasks:
        base = plain_plan(t.annotated_plan)
        for kind, plan in [('gold', base), *layouts.violation_plans(t, base)[:2]]:
            if kind in kinds:
                yield kind, t, plan, layouts_v8.HELDOUT8_LAYOUTS[layout](plan, t, layouts_v8._phr(layout, t, j, plan))
            j += 1


def test_v8_options_read_by_the_stated_choice():
    """A day offered as 'Option A' / 'Option B' with the pick in a closing recommendation: the chosen option is read,
    and no violation is read as a pass without a doubt (on v8's first score two were: the first option read as the plan)."""
    from star.evaluator import evaluate_plan
    right = n = 0
    for kind, t, plan, text in _v8_renderings('per_day_options', kinds=('gold', 'repeated_restaurant', 'restaurant_elsewhere')):
        fp = format_plan(text, t)
        truth, got = evaluate_plan(t, plan).success, evaluate_plan(t, fp.plan).success
        assert truth or not got or fp.doubtful, (kind, t.idx, text)
        same = [_meals_stay(d) for d in fp.plan] == [_meals_stay(d) for d in plan]
        right, n = right + same, n + 1
    assert n and right >= 0.75 * n, (right, n)


def test_v8_options_without_a_stated_choice_are_a_doubt():
    "Options with no choice the answer states (or two choices for one day): a doubt, never a guess."
    kind, t, plan, text = next(_v8_renderings('per_day_options'))
    k = text.find('### ✅ My recommendation')
    fp = format_plan(text[:k], t)
    assert fp.doubtful and 'options' in {n.kind for n in fp.doubts}
    fp = format_plan(text + "\nOn reflection I'd go with Option A and Option B for that day.", t)
    assert fp.doubtful


@pytest.mark.parametrize('layout', ['social_caption', 'it_pt_nl_labels'])
def test_v8_labels_are_read(layout):
    """Emoji captions with slang labels (`☕ brekkie:`, `🏛️ spots:`, `🛌 crashing at:`) and Italian / Portuguese / Dutch
    labels (`**Almoço:**`, `Overnachting`, Dutch `Diner` = dinner), with places as breadcrumbs (`Rockford › X`) or with
    their country (`X (Rockford, USA)`): each meal and stay read as planned in most renderings, every other reading doubted."""
    right = n = 0
    for kind, t, plan, text in _v8_renderings(layout, n_plans=12):
        fp = format_plan(text, t)
        same = len(fp.plan) == len(plan) and all(_meals_stay(a) == _meals_stay(b) for a, b in zip(plan, fp.plan))
        assert same or fp.doubtful, (layout, t.idx, text)
        right, n = right + same, n + 1
    assert right >= 0.75 * n, (layout, right, n)


def test_v8_readers_are_linear():
    "The options reader on a long answer: linear (no rescans)."
    from star.grounded import options_as_text
    with hang_guard(20):
        options_as_text('### Day 1\n' + '**Option A**\n- Lunch: X\n**Option B**\n- Lunch: Y\n' * 20_000 + 'I recommend Option A\n' * 20_000)


def test_printed_tables_transcripts_and_directions():
    """Issue 48 (v13 layouts, second tuning step): a `tabulate` grid with wrapped cells, a wide pandas DataFrame printed
    in column blocks, a voice assistant's transcript (the user's proposal dropped, spoken flight numbers and times read
    as digits) and turn-by-turn directions between stops each read the gold plan of validation query 0's day 2 exactly;
    the flight of day 1 keeps its number and times."""
    grid = ("```text\n+-----+------------+------------------+----------------+------------------+-----------------+\n"
            "| Day | Route      | Breakfast        | Lunch          | Dinner           | Stay            |\n"
            "+=====+============+==================+================+==================+=================+\n"
            "|   2 | Rockford   | Dial A Cake,     | Flying Mango,  | Cafe Southall,   | Pure luxury one |\n"
            "|     |            | Rockford         | Rockford       | Rockford         | bdrm + sofa bed |\n"
            "|     |            |                  |                |                  | on Central Park,|\n"
            "|     |            |                  |                |                  | Rockford        |\n"
            "+-----+------------+------------------+----------------+------------------+-----------------+\n```")
    import pandas as pd                           # the real printout: pandas wraps a wide frame into column blocks
    df = pd.DataFrame([[2, 'Rockford', 'Dial A Cake, Rockford', 'Flying Mango, Rockford', 'Cafe Southall, Rockford',
                        'Pure luxury one bdrm + sofa bed on Central Park, Rockford']],
                      columns=['day', 'current_city', 'breakfast', 'lunch', 'dinner', 'accommodation'])
    with pd.option_context('display.width', 80, 'display.max_colwidth', None, 'display.max_columns', None):
        frame = f"```text\n{df}\n```"
    assert frame.count('\\\n') >= 2                   # printed in three blocks
    voice = ("[00:08] Aria: Day two. You're in Rockford.\n[00:12] Aria: Breakfast is at Dial A Cake in Rockford.\n"
             "[00:15] You: What about lunch at Moets Arabica instead?\n[00:19] Aria: Lunch stays at Flying Mango in Rockford.\n"
             "[00:22] Aria: For dinner, you'll head to Cafe Southall in Rockford.\n"
             "[00:25] Aria: You'll spend another night at Pure luxury one bdrm + sofa bed on Central Park in Rockford.")
    legs = ("### Day 2 · Rockford\n1. Pure luxury one bdrm + sofa bed on Central Park in Rockford → Dial A Cake in Rockford · 🍳 breakfast · 🚕 8 min\n"
            "2. Dial A Cake in Rockford → Flying Mango in Rockford · 🥪 lunch · 🚶 12 min\n"
            "3. Flying Mango in Rockford → Cafe Southall in Rockford · 🍝 dinner · 🚕 22 min\n"
            "4. Cafe Southall in Rockford → Pure luxury one bdrm + sofa bed on Central Park in Rockford · 🛏 back for the night · 🚇 14 min")
    for text in (grid, frame, voice, legs):
        d = format_grounded(text, {**R0, 'days': 1})[0]
        assert _meals_stay(d) == R0_DAY2, text[:40]
    flight = "Aria: Day one.\nAria: You'll fly on flight F three fifty-seven thirty-six fifty-nine. It leaves at three forty p.m. and lands at five oh four p.m.\nUser: ok\nAria: Dinner is at Coco Bambu in Rockford."
    d = format_grounded(flight, {**R0, 'days': 1})[0]
    assert d['transportation'].startswith('Flight Number: F3573659') and '15:40' in d['transportation'] and '17:04' in d['transportation']


def test_sheets_todo_lists_and_email_changes():
    """Issue 48 (v14 layouts, first tuning step): a spreadsheet pasted in long form (one row per item, a `Dropped` row),
    a todo.txt list (a cancelled task, a stay booked for two nights), YAML with an anchored stay and a `not_chosen` list,
    an overview's cut names (`Flying Ma…`) and an e-mail's own changes (`Let's do X for dinner on Day 2 instead`, `drop
    Y from Day 2`) each read the gold plan of validation query 0's day 2 exactly."""
    sheet = ("```tsv\nDay #\tCategory\tName\tCity\tStarts\tStatus\n"
             "1-2\tHotel\tPure luxury one bdrm + sofa bed on Central Park\tRockford\t3/16/2022\tBooked\n"
             "2\tBreakfast\tDial A Cake\tRockford\t08:00\tWalk-in\n2\tLunch\tMoets Arabica\tRockford\t12:30\tDropped\n"
             "2\tLunch\tFlying Mango\tRockford\t12:30\tTo book\n2\tDinner\tCafe Southall\tRockford\t19:00\tWalk-in\n```")
    todo = ("```text\n2022-02-25 Day 1: St. Petersburg → Rockford +Trip due:2022-03-16\n"
            "x 2022-02-28 2022-02-25 Book stay at Pure luxury one bdrm + sofa bed on Central Park, Rockford for nights 1–2 +Trip due:2022-03-16\n"
            "2022-02-25 Day 2: Rockford +Trip due:2022-03-17\n(B) 2022-02-25 Breakfast / Dial A Cake, Rockford +Trip due:2022-03-17 at:08:00\n"
            "x 2022-02-26 2022-02-25 Cancel lunch at Moets Arabica, Rockford (closed) +Trip due:2022-03-17\n"
            "(B) 2022-02-25 Lunch / Flying Mango, Rockford +Trip due:2022-03-17 at:12:30\n"
            "(B) 2022-02-25 Dinner / Cafe Southall, Rockford +Trip due:2022-03-17 at:19:00\n```")
    yml = ("```yaml\ndays:\n  - day: 1\n    stay: &s1 {name: Pure luxury one bdrm + sofa bed on Central Park, city: Rockford}\n"
           "  - day: 2\n    meals: {breakfast: {name: Dial A Cake, city: Rockford}, lunch: {name: Flying Mango, city: Rockford},"
           " dinner: {name: Cafe Southall, city: Rockford}}\n    stay: *s1\n    not_chosen:\n      - {slot: lunch, name: Moets Arabica, city: Rockford}\n```")
    glance = ("## At a glance\nDay 2:\nMeals: B Dial A Cake · L Flying Ma… · D Cafe Southall\nAccommodation: Pure luxury one…\n\n"
              "## Details\n### Day 2\n- Breakfast: Dial A Cake, Rockford\n- Lunch: Flying Mango, Rockford\n- Dinner: Cafe Southall, Rockford\n"
              "- Stay: Pure luxury one bdrm + sofa bed on Central Park, Rockford")
    email = ("> Day 2 — Rockford\n>   • Breakfast: Dial A Cake, Rockford\n>   • Sights: Burpee Museum of Natural History, Rockford, Midway Village Museum, Rockford\n"
             "Please drop Midway Village Museum from Day 2 — we won't have time.\n>   • Lunch: Flying Mango, Rockford\n"
             ">   • Dinner: Moets Arabica, Rockford\nLet's do Cafe Southall in the city of Rockford for dinner on Day 2 instead, please.\n"
             ">   • Hotel: Pure luxury one bdrm + sofa bed on Central Park, Rockford")
    for text in (sheet, todo, yml):
        d = format_grounded(text, R0)[1]
        assert _meals_stay(d) == R0_DAY2, text[:30]
    d = format_grounded(glance, {**R0, 'days': 1})[-1]
    assert _meals_stay(d) == R0_DAY2
    d = format_grounded(email, {**R0, 'days': 1})[0]
    assert _meals_stay(d) == R0_DAY2 and d['attraction'] == 'Burpee Museum of Natural History, Rockford;'
    notes = []
    format_grounded("Day 1:\nLunch: Flying Mango, Rockford\nDay 2:\nLunch: Dial A Cake, Rockford\n\nCan we do Cafe Southall for lunch on day 2 instead?", R0, notes)
    assert 'correction' not in {n.kind for n in notes}                          # a question changes nothing
