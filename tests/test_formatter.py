"""Tests of star.formatter (nbs/05_formatter.ipynb) on the packaged TravelPlanner plans."""
import gzip
import json

import pytest

from star.evaluator import evaluate_plan
from star.formatter import (FIELD_LABELS, PLAN_KEYS, FormattedPlan, LLMFormatError, LLMFormatter, PlanFormatError,
                            canonical_plan, extract_answer, fake_formatter_server, format_messages, format_plan,
                            format_prompt_template, parse_llm_plan, parse_plan, parse_plan_tolerant, plain_plan,
                            render_plan)
from star.paths import data_path

QDIR = data_path('travelplanner', 'queries')


def _jsonl_gz(name):
    with gzip.open(QDIR / name, 'rt', encoding='utf-8') as f:
        return [json.loads(line) for line in f]


TRAIN = _jsonl_gz('train45.jsonl.gz')
EXAMPLES = [e for e in _jsonl_gz('validation180_example_plans.jsonl.gz') if e['plan'] is not None]
GOLD = TRAIN[0]['annotated_plan']          # St. Petersburg -> Rockford, 3 days, padded with {} to 7
G1, G2, G3 = GOLD[:3]


def _filled(plan):
    "What the tolerant parser must return: 8 keys per day, missing fields '-', padding days {}."
    return [{'days': d['days'], **{k: d.get(k, '-') for k in PLAN_KEYS[1:]}} if d else {} for d in plan]


# ---------------------------------------------------------------- canonical text: exact round trip
def test_counts():
    assert len(TRAIN) == 45 and len(EXAMPLES) == 161


@pytest.mark.parametrize('row', TRAIN, ids=lambda r: f"train{r['idx']}")
def test_round_trip_gold_train(row):
    plan = row['annotated_plan']
    assert parse_plan(render_plan(plan)) == plan
    assert parse_plan(f"<think>ok</think>\n<answer>\n{render_plan(plan)}\n</answer>") == plan


@pytest.mark.parametrize('row', EXAMPLES, ids=lambda r: f"val{r['idx']}")
def test_round_trip_official_examples(row):
    plan = canonical_plan(row['plan'])
    assert all('day' not in d for d in plan)
    assert parse_plan(render_plan(plan)) == plan
    # canonical_plan only renames the day key and drops non-schema keys: every field value is kept verbatim
    for raw, can in zip(row['plan'], plan):
        assert {k: v for k, v in raw.items() if k in FIELD_LABELS} == {k: v for k, v in can.items() if k != 'days'}


def test_render_matches_travelplanner_text_format():
    lines = render_plan(GOLD).split('\n')
    assert lines[:9] == [
        'Day 1:', 'Current City: from St. Petersburg to Rockford',
        'Transportation: Flight Number: F3573659, from St. Petersburg to Rockford, Departure Time: 15:40, Arrival Time: 17:04',
        'Breakfast: -', 'Attraction: -', 'Lunch: -', 'Dinner: Coco Bambu, Rockford',
        'Accommodation: Pure luxury one bdrm + sofa bed on Central Park, Rockford', '']
    assert lines[-1] == 'Day 7:'          # padding day {} is a bare header


def test_round_trip_tricky_values():
    plan = [{'days': 1, 'current_city': 'from A to B', 'transportation': 'Self-driving, from A to B, duration: 1 hour 2 mins, distance: 80 km, cost: 4',
             'breakfast': 'Caf\u00e9 "Le: Coin", B', 'attraction': 'X: the museum, B;Y;', 'lunch': '', 'dinner': '  padded  , B',
             'accommodation': '\u6d6a\u6f2b\u7684\u5ba2\u5ba4\u2028line-sep, B'}]
    assert parse_plan(render_plan(plan)) == plan
    assert parse_plan(render_plan(plan).replace('\n', '\r\n')) == plan


def test_render_rejects_unrepresentable():
    with pytest.raises(ValueError, match='line break'):
        render_plan([{'days': 1, 'dinner': 'a\nb'}])
    with pytest.raises(ValueError, match='not in the plan schema'):
        render_plan([{'day': 1, 'dinner': 'x'}])
    with pytest.raises(ValueError, match='must be a string'):
        render_plan([{'days': 1, 'dinner': 3}])


@pytest.mark.parametrize('text,match', [
    ('Here is the plan.\n' + render_plan(GOLD[:1]), 'line 1 is not canonical'),
    (render_plan(GOLD[:1]).replace('Dinner: ', '**Dinner**: '), 'not canonical'),
    (render_plan(GOLD[:1]).replace('Dinner: ', 'dinner: '), 'not canonical'),
    (render_plan(GOLD[:1]).replace('Dinner: ', 'Dinner:'), 'not canonical'),
    ('Lunch: Flying Mango, Rockford', 'before the first'),
    ('Day 1:\nLunch: -\nLunch: -', 'repeated'),
    ('', "no 'Day N:' header"),
])
def test_parse_plan_rejects_non_canonical(text, match):
    with pytest.raises(PlanFormatError, match=match):
        parse_plan(text)


def test_extract_answer():
    assert extract_answer('<think>a</think><answer>x</answer> trailing') == 'x'
    assert extract_answer('<answer>old</answer><answer>new</answer>') == 'new'
    assert extract_answer('<answer>unclosed') == 'unclosed'
    assert extract_answer('no tags') == 'no tags'


def test_canonical_plan():
    ex = next(e for e in EXAMPLES if e['idx'] == 94)['plan']      # has a 'Summary' day with cost dicts
    can = canonical_plan(ex)
    assert can[-1] == {'days': 'Summary', **{k: '-' for k in PLAN_KEYS[1:]}}
    with pytest.raises(PlanFormatError):
        canonical_plan({'day': 1})


# ---------------------------------------------------------------- tolerant parser
def _markdown(plan, date0=16):
    out = ['Sure! Here is your itinerary.', '']
    for i, d in enumerate(plan):
        out += [f"### **Day {d.get('days', i + 1)} (March {date0 + i})**"]
        out += [f"- **{FIELD_LABELS[k]}:** {v}" for k, v in d.items() if k != 'days'] + ['', '---']
    return '\n'.join(out + ['### Budget Breakdown', '- **Accommodation**: 2 nights', '- **Total**: $900'])


@pytest.mark.parametrize('row', TRAIN[:10] + EXAMPLES, ids=lambda r: f"idx{r['idx']}")
def test_tolerant_markdown_layout_on_real_plans(row):
    plan = canonical_plan(row.get('annotated_plan') or row['plan'])
    plan = [d for d in plan if not d or isinstance(d['days'], int)]
    assert parse_plan_tolerant(_markdown(plan)) == _filled(plan)
    assert parse_plan_tolerant(render_plan(plan)) == _filled(plan)


def _fields(d, label=lambda k: FIELD_LABELS[k], prefix=''):
    return [f"{prefix}{label(k)}: {d[k]}" for k in PLAN_KEYS[1:]]


@pytest.mark.parametrize('header', ['Day 2:', '**Day 2**', '### Day 2 (March 17)', '## **Day 2: Explore Rockford**',
                                    'Day 2 - March 17', '- Day 2:', 'DAY 2'])
def test_tolerant_headers(header):
    text = f"{header}\n" + '\n'.join(_fields(G2))
    assert parse_plan_tolerant(text) == [G2]


@pytest.mark.parametrize('style', ['- ', '* ', '  - ', '1. ', '• '])
def test_tolerant_bullets(style):
    assert parse_plan_tolerant('Day 2:\n' + '\n'.join(_fields(G2, prefix=style))) == [G2]


def test_tolerant_case_and_synonyms():
    syn = {'current_city': 'current city', 'transportation': 'Transport', 'breakfast': 'BREAKFAST',
           'attraction': 'Attractions', 'lunch': 'lunch', 'dinner': 'Dinner (7 pm)', 'accommodation': 'Hotel'}
    text = 'Day 2:\n' + '\n'.join(_fields(G2, label=syn.get))
    assert parse_plan_tolerant(text) == [G2]
    text = text.replace('Hotel:', '**Accommodation**:').replace('Transport:', 'Transportation:')
    assert parse_plan_tolerant(text) == [G2]


def test_tolerant_missing_fields_blank_lines_and_prose():
    text = ('<think>Budget is fine.</think>\n<answer>\nHere is the plan you asked for:\n\n\nDay 1:\n\n'
            f"Current City: {G1['current_city']}\n\nTransportation: {G1['transportation']}\n\n"
            f"Dinner: {G1['dinner']}\n\nAccommodation: {G1['accommodation']}\n\nEnjoy your trip!\n</answer>")
    assert parse_plan_tolerant(text) == [G1]          # breakfast/attraction/lunch are '-' in G1 too
    got = parse_plan_tolerant(f"Day 2:\nLunch: {G2['lunch']}")
    assert got == [{**dict.fromkeys(PLAN_KEYS[1:], '-'), 'days': 2, 'lunch': G2['lunch']}]


def test_tolerant_sub_bullets_links_and_empties():
    text = ('**Day 2**\n- **Current City**: Rockford\n- **Transportation**: None\n'
            f"- **Breakfast**: [{G2['breakfast']}](https://example.com/menu)\n- **Attractions**:\n"
            + ''.join(f"  - {a}\n" for a in G2['attraction'].rstrip(';').split(';'))
            + f"- **Lunch**: `{G2['lunch']}`\n- **Dinner**: {G2['dinner']}\n- **Accommodation**: {G2['accommodation']}")
    assert parse_plan_tolerant(text) == [{**G2, 'attraction': G2['attraction'].rstrip(';')}]


def test_tolerant_first_occurrence_wins_and_summary_ignored():
    text = render_plan([G3]) + '\n\n**Budget Summary**\nAccommodation: 2 nights at $120\nDinner: $40'
    assert parse_plan_tolerant(text) == [G3]


def test_tolerant_failures():
    with pytest.raises(PlanFormatError, match="no 'Day <n>' header"):
        parse_plan_tolerant('I am sorry, there are no flights on that date.')
    with pytest.raises(PlanFormatError, match='no known plan field'):
        parse_plan_tolerant('Day 1: arrive and rest.\nDay 2: fly home.')
    with pytest.raises(PlanFormatError, match='answer not found'):
        parse_plan_tolerant('<answer>Answer not found.</answer>')


# ---------------------------------------------------------------- LLM formatter
def _llm_reply(plan, fence=True):
    body = json.dumps([{'day': d['days'], **{k: v for k, v in d.items() if k != 'days'}} for d in plan if d],
                      ensure_ascii=False, indent=1)
    return f"```json\n{body}\n```" if fence else body


def test_prompt_is_the_agent_star_template():
    t = format_prompt_template('upstream')
    assert t.startswith('Please assist me in extracting valid information from a given natural language text')
    assert t.count('{{{user_query}}}') == 1 and t.count('{{{planning_text}}}') == 1
    assert '"current_city": "from Dallas to Peoria"' in t and '"attraction": "Peoria Riverfront Park, Peoria;' in t
    assert "always use 'Self-driving' consistently" not in t
    paper = format_prompt_template()                       # the default: App. E as printed
    sentence = " For the 'driving' or 'drive' mode, unless otherwise specified, always use 'Self-driving' consistently."
    assert sentence in paper and paper.replace(sentence, '') == t
    msgs = format_messages('PLAN', 'QUERY')
    assert msgs[1]['content'].startswith(paper[:200]) and sentence in msgs[1]['content']
    assert format_messages('PLAN', 'QUERY', 'upstream')[1]['content'] == t.replace('{{{planning_text}}}', 'PLAN').replace('{{{user_query}}}', 'QUERY')
    assert msgs[0] == {'role': 'system', 'content': 'You are a helpful assistant that formats text into a strict JSON format.'}
    assert msgs[1]['content'].endswith('Original user query: QUERY\n\nPlanning text: PLAN\n\n')


def test_parse_llm_plan_variants():
    plan = TRAIN[5]['annotated_plan']
    want = [d for d in plan if d]
    assert parse_llm_plan(_llm_reply(plan)) == want
    assert parse_llm_plan(_llm_reply(plan, fence=False)) == want
    assert parse_llm_plan('Here is the JSON:\n' + _llm_reply(plan, fence=False) + '\nDone.') == want
    for bad, match in [('Sorry.', 'not JSON'), ('{"day": 1}', 'not a JSON array'), ('[1, 2]', 'not a JSON array'),
                       ('[]', 'empty plan'), ('', 'not JSON')]:
        with pytest.raises(LLMFormatError, match=match):
            parse_llm_plan(bad)


def test_llm_formatter_fake_endpoint_cache_replay(tmp_path, monkeypatch):
    monkeypatch.setenv('STAR_TEST_KEY', 'sk-test-secret')
    row = TRAIN[3]
    answer = '<answer>' + _markdown(row['annotated_plan']) + '</answer>'
    url, srv = fake_formatter_server(_llm_reply(row['annotated_plan']))
    try:
        llm = LLMFormatter(url, 'deepseek-v3.2-exp', api_key_env='STAR_TEST_KEY', cache_dir=tmp_path)
        got = llm(extract_answer(answer), row['query'])
    finally:
        srv.shutdown(); srv.server_close()
    assert got == [d for d in row['annotated_plan'] if d]
    req = srv.requests[0]
    assert req['model'] == 'deepseek-v3.2-exp' and req['temperature'] == 0
    assert req['messages'] == format_messages(extract_answer(answer), row['query'])
    assert req['_authorization'] == 'Bearer sk-test-secret'
    files = list(tmp_path.glob('*.json'))
    assert [f.stem for f in files] == [llm.cache_key(req['messages'])]
    assert 'sk-test-secret' not in files[0].read_text()
    # replay with the server gone: no request, same plan
    n = llm.n_requests
    assert llm(extract_answer(answer), row['query']) == got and llm.n_requests == n
    fresh = LLMFormatter(url, 'deepseek-v3.2-exp', cache_dir=tmp_path, max_retries=0)
    assert fresh(extract_answer(answer), row['query']) == got and fresh.n_requests == 0
    # a different model name is a different cache key: needs the (dead) endpoint
    with pytest.raises(LLMFormatError, match='unreachable'):
        LLMFormatter(url, 'other-model', cache_dir=tmp_path, max_retries=0)(extract_answer(answer), row['query'])


def test_llm_formatter_bad_responses(tmp_path):
    url, srv = fake_formatter_server('I could not extract a plan, sorry!')
    try:
        llm = LLMFormatter(url, 'm', cache_dir=tmp_path, max_retries=0)
        with pytest.raises(LLMFormatError, match='not JSON'):
            llm('Day 1: ...', 'q')
        assert list(tmp_path.glob('*.json')) == []          # bad replies are not cached
        assert len(srv.requests) == 20                      # resampled like the reference's call_openai (20 tries)
    finally:
        srv.shutdown(); srv.server_close()
    url, srv = fake_formatter_server('oops', status=500)
    try:
        llm = LLMFormatter(url, 'm', max_retries=1)
        with pytest.raises(LLMFormatError, match='HTTP 500'):
            llm('Day 1: ...', 'q')
        assert len(srv.requests) == 2                         # one retry of a server error
    finally:
        srv.shutdown(); srv.server_close()
    url, srv = fake_formatter_server('oops', status=401)
    try:
        with pytest.raises(LLMFormatError, match='HTTP 401'):
            LLMFormatter(url, 'm', max_retries=3)('Day 1: ...', 'q')
        assert len(srv.requests) == 1                         # client errors are not retried
    finally:
        srv.shutdown(); srv.server_close()


# ---------------------------------------------------------------- format_plan provenance
def test_format_plan_provenance(tmp_path):
    row = TRAIN[7]
    plan = row['annotated_plan']
    fp = format_plan(f"<think>done</think>\n<answer>\n{render_plan(plan)}\n</answer>", row)
    assert isinstance(fp, FormattedPlan) and (fp.plan, fp.formatter, fp.reason, fp.ok) == (plan, 'exact', None, True)
    md = _markdown(plan)
    fp = format_plan(md, row)                              # free text + the task: the grounded formatter
    assert fp.formatter == 'grounded' and fp.reason.startswith('exact: line 1')
    for protocol in ('official', 'agent_star'):
        assert evaluate_plan(row, fp.plan, protocol).to_dict() == evaluate_plan(row, plain_plan(plan), protocol).to_dict()
    assert format_plan(md, row, formatter='tolerant').plan == _filled(plan)
    fp = format_plan('<answer>No feasible plan exists.</answer>', row)
    assert (fp.plan, fp.formatter, fp.ok) == (None, None, False) and "no 'Day <n>' header" in fp.reason
    assert format_plan('', row).reason == 'empty answer'
    assert format_plan('<answer>  </answer>').reason == 'empty answer'
    assert format_plan('<answer>answer not found</answer>').reason == "the answer says 'answer not found'"
    assert format_plan(md, formatter='exact').formatter is None
    assert format_plan(render_plan(plan), formatter='tolerant').formatter == 'tolerant'
    with pytest.raises(ValueError):
        format_plan(md, formatter='gpt')
    with pytest.raises(ValueError):
        format_plan(md, formatter='llm')
    url, srv = fake_formatter_server([_llm_reply(plan), 'not json', 'not json'])
    try:
        llm = LLMFormatter(url, 'm', cache_dir=tmp_path, max_retries=0, max_samples=1)
        assert format_plan(render_plan(plan), row, llm=llm).formatter == 'exact' and srv.requests == []
        md = _markdown([d for d in plan if d])                 # the plan's days, not padded to 7 (padding days are empty)
        sure = format_plan(md, row, llm=llm)                  # a grounded reading without doubts: no call
        assert (sure.formatter, sure.notes, srv.requests) == ('grounded', (), [])
        fp = format_plan(md, row, formatter='llm', llm=llm)   # the paper's pipeline: every answer to the LLM
        assert (fp.formatter, fp.plan, fp.prompt) == ('llm', [d for d in plan if d], 'paper')
        assert srv.requests[0]['messages'][1]['content'].endswith(f"Original user query: {row['query']}\n\nPlanning text: {md}\n\n")
        unknown = md.replace(plan[1]['dinner'].rsplit(', ', 1)[0], 'Golden Lantern Noodle Bar')
        fp = format_plan(unknown, row, llm=llm)               # a name the database lacks: a note, no doubt (any reading fails)
        assert len(srv.requests) == 1 and fp.formatter == 'grounded' and 'Golden Lantern' in fp.notes[0] and not fp.doubts
        name = plan[1]['dinner'].rsplit(', ', 1)[0]
        odd = md.replace(name + ',', name + ' (closed on Mondays),')
        fp = format_plan(odd, row, llm=llm)                   # doubtful: sent, the reply is unreadable, grounded kept
        assert len(srv.requests) == 2 and fp.formatter == 'grounded' and 'closed on Mondays' in fp.doubts[0]
        assert 'llm: formatter reply is not JSON' in fp.reason and fp.reason.endswith('the grounded reading is kept')
        fp = format_plan(md + '\nPS.', row, formatter='llm', llm=llm)
        assert fp.formatter is None and 'llm: formatter reply is not JSON' in fp.reason
    finally:
        srv.shutdown(); srv.server_close()


def test_format_plan_incomplete_canonical_falls_back():
    day = {k: v for k, v in G2.items() if k != 'attraction'}
    text = render_plan([day])
    assert format_plan(text, formatter='exact').plan == [day]
    fp = format_plan(text)
    assert fp.formatter == 'grounded' and fp.plan == [{**G2, 'attraction': '-'}] and 'lacks attraction' in fp.reason
    fp = format_plan(text, formatter='tolerant')
    assert fp.formatter == 'tolerant' and fp.plan == [{**G2, 'attraction': '-'}]
