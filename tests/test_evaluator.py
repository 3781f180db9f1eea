"""Parity of `star.evaluator` with the two reference TravelPlanner evaluators.

Fixtures: tests/fixtures/travelplanner/evaluator_verdicts.jsonl.gz (455 plans, verdicts of the unmodified official
TravelPlanner evaluator and of Agent-STAR's `Inference/eval*.py`; see the fixtures README)."""
import copy, gzip, json
from pathlib import Path
from types import SimpleNamespace

import pytest

from star.evaluator import (default_db, COMMONSENSE_CHECKS, HARD_CHECKS, PROTOCOLS, PlanResult, dataset_metrics,
                            evaluate_dataset, evaluate_plan, hard_constraint_count, coerce_plan, query_fields,
                            run_check)
from star.paths import data_path

FIX = Path(__file__).parent/'fixtures'/'travelplanner'/'evaluator_verdicts.jsonl.gz'
QUERIES = data_path('travelplanner', 'queries')


def _jsonl(path): return [json.loads(line) for line in gzip.open(path, 'rt')]

RECORDS = _jsonl(FIX)
VAL = _jsonl(QUERIES/'validation180.jsonl.gz')
EXAMPLES = _jsonl(QUERIES/'validation180_example_plans.jsonl.gz')
TRAIN = _jsonl(QUERIES/'train45.jsonl.gz')


@pytest.fixture(scope='module', params=PROTOCOLS)
def evaluated(request):
    p = request.param
    return p, [evaluate_plan(r['query'], r['plan'], p) for r in RECORDS]


def test_fixture_shape():
    assert len(RECORDS) == 455
    assert sum(r['kind'] == 'example_plan' for r in RECORDS) == 180
    assert sum(r['kind'] == 'gold_annotated' for r in RECORDS) == 45


def test_every_verdict_matches_reference(evaluated):
    "All 455 records x 13 checks: True/False/None as the reference; a reference exception -> False with its reason."
    p, results = evaluated
    mismatches = []
    for r, ours in zip(RECORDS, results):
        ref = r[p]
        assert ours.delivered == ref['delivered'], r['id']
        for group, names in (('commonsense', COMMONSENSE_CHECKS), ('hard', HARD_CHECKS)):
            assert list(getattr(ours, group)) == list(names)
            expected = ref[group] or dict.fromkeys(names)
            for name in names:
                got = getattr(ours, group)[name]
                if name in ref['errors']:
                    exc = ref['errors'][name].split(':')[0]
                    if got is not False or exc not in ours.reasons[name]: mismatches.append((r['id'], name, 'crash', got))
                elif got is not expected[name]: mismatches.append((r['id'], name, expected[name], got))
    assert mismatches == []


def test_crashes_become_failures(evaluated):
    p, results = evaluated
    crashed = [(r, ours) for r, ours in zip(RECORDS, results) if r[p]['crash']]
    assert len(crashed) == 3
    for r, ours in crashed:
        assert ours.crash == r[p]['crash']
        assert ours.success is False and ours.commonsense_macro is False
        assert all(v is None for v in ours.hard.values())  # the reference pipeline aborts before the hard checks
    assert [ours.crash for r, ours in zip(RECORDS, results) if not r[p]['crash']] == [None] * (len(RECORDS) - 3)


def test_per_plan_scores_match_reference(evaluated):
    p, results = evaluated
    for r, ours in zip(RECORDS, results):
        ref = r[p]
        if ref['crash']: continue
        if p == 'official':
            got = (ours.commonsense_micro, ours.commonsense_macro, ours.hard_pass, ours.hard_applicable,
                   ours.hard_macro, ours.success)
            exp = (ref['commonsense_micro'], ref['commonsense_macro'], ref['hard_pass'], ref['hard_applicable'] or 0,
                   bool(ref['hard_macro']), ref['success'])
        else:
            s = ref['eval_one_sample']
            got = (ours.commonsense_macro, ours.commonsense_micro, ours.hard_macro, ours.hard_micro, ours.success)
            exp = (bool(s['commonsense_macro_score']), s['commonsense_micro_score'], bool(s['hard_macro_score']),
                   s['hard_micro_score'] or 0.0, bool(s['success_pass']))
        assert got == exp, r['id']


def _pct(m): return {k: round(v * 100, 2) for k, v in m.items() if isinstance(v, float)}


def test_validation_example_plans_official():
    "README: 180 official example plans, official evaluator: 0.56 final, cs micro 58.47, macro 1.67, hard 10.48 / 6.11."
    m = _pct(evaluate_dataset(VAL, [e['plan'] for e in EXAMPLES], 'official'))
    assert m == {'delivery_rate': 89.44, 'commonsense_micro': 58.47, 'commonsense_macro': 1.67, 'hard_micro': 10.48,
                 'hard_macro': 6.11, 'final_pass': 0.56, 'hard_micro_case_avg': 10.14}


def test_validation_example_plans_agent_star():
    "Agent-STAR eval_one_file formulas applied to the reference's own per-plan scores in the fixtures."
    recs = [r for r in RECORDS if r['kind'] == 'example_plan']
    assert [r['query']['query'] for r in recs] == [v['query'] for v in VAL]
    samples = [r['agent_star']['eval_one_sample'] for r in recs]
    mean = lambda k: round(sum(s[k] for s in samples if s[k] is not None) / len(samples) * 100, 2)
    hard_global = sum(v is True for r in recs for v in (r['agent_star']['hard'] or {}).values())
    ref = {'commonsense_macro': mean('commonsense_macro_score'), 'commonsense_micro': mean('commonsense_micro_score'),
           'hard_macro': mean('hard_macro_score'), 'hard_micro_case_avg': mean('hard_micro_score'),
           'final_pass': mean('success_pass'), 'hard_micro': round(hard_global / 420 * 100, 2)}
    m = _pct(evaluate_dataset(VAL, [e['plan'] for e in EXAMPLES], 'agent_star'))
    assert {k: m[k] for k in ref} == ref
    assert ref['final_pass'] == 0.56


def test_gold_train_plans():
    "README: 45 gold train plans: official 100 % on every metric; Agent-STAR 33.3 % final pass (City(State) names)."
    gold = [r for r in RECORDS if r['kind'] == 'gold_annotated']
    for tasks, plans in (([r['query'] for r in gold], [r['plan'] for r in gold]),
                         (TRAIN, [t['annotated_plan'] for t in TRAIN])):
        off = evaluate_dataset(tasks, plans, 'official')
        assert all(v == 1.0 for k, v in off.items() if k not in ('n', 'crashes'))
        ags = evaluate_dataset(tasks, plans, 'agent_star')
        assert round(ags['final_pass'] * 100, 1) == 33.3


def test_hard_constraint_denominators():
    assert sum(map(hard_constraint_count, VAL)) == 420
    assert sum(map(hard_constraint_count, TRAIN)) == 105


def test_undelivered_counts_as_failure():
    m = evaluate_dataset(VAL[:2], [None, EXAMPLES[1]['plan']], 'official')
    assert m['delivery_rate'] == 0.5
    r = evaluate_plan(VAL[0], None)
    assert not r.delivered and all(v is None for v in {**r.commonsense, **r.hard}.values())
    assert (r.commonsense_micro, r.success, r.hard_applicable) == (0.0, False, 0)


GOLD = coerce_plan(TRAIN[0]['annotated_plan'])


def _with(day, key, value, drop=False):
    plan = copy.deepcopy(GOLD)
    if drop: del plan[day][key]
    else: plan[day][key] = value
    return plan


MALFORMED = {
    'empty list': [], 'none': None, 'garbage text': 'garbage', 'empty dict': {}, 'nonempty dict': {'days': 1},
    'list of strings': ['day 1', 'day 2', 'day 3'], 'list of ints': [1, 2, 3], 'number': 42, 'empty days': [{}, {}, {}],
    'missing current_city': _with(0, 'current_city', None, drop=True),
    'missing transportation': _with(0, 'transportation', None, drop=True),
    'missing accommodation': _with(1, 'accommodation', None, drop=True),
    'inserted day': [GOLD[0], GOLD[1], GOLD[1], GOLD[2]],
    'int current_city': _with(1, 'current_city', 7), 'none current_city': _with(1, 'current_city', None),
    'list current_city': _with(1, 'current_city', ['Rockford']), 'int transportation': _with(0, 'transportation', 5),
    'list transportation': _with(0, 'transportation', ['Flight']), 'int breakfast': _with(1, 'breakfast', 3),
    'list lunch': _with(1, 'lunch', ['Flying Mango, Rockford']), 'none accommodation': _with(0, 'accommodation', None),
    'int accommodation': _with(0, 'accommodation', 12), 'list attraction': _with(1, 'attraction', ['a;', 'b;']),
    'dict dinner': _with(1, 'dinner', {'name': 'x'}), 'lowercase flight number': _with(
        0, 'transportation', GOLD[0]['transportation'].replace('Flight Number', 'flight number')),
}


@pytest.mark.parametrize('protocol', PROTOCOLS)
@pytest.mark.parametrize('name', list(MALFORMED))
def test_malformed_plans_fail_with_reason(name, protocol):
    r = evaluate_plan(TRAIN[0], MALFORMED[name], protocol)
    assert isinstance(r, PlanResult) and r.success is False
    failed = [k for k, v in {**r.commonsense, **r.hard}.items() if v is False]
    assert r.delivered is False or failed, name
    assert all(r.reasons[k] for k in failed)
    json.dumps(r.to_dict())


def test_appended_days_are_ignored():
    "Both references read only the first `days` day dicts (official plans are padded with {})."
    for p in PROTOCOLS: assert evaluate_plan(TRAIN[0], GOLD + GOLD + ['junk'], p).success


def test_plan_and_task_encodings():
    task = VAL[5]
    assert isinstance(task['local_constraint'], str) and isinstance(task['date'], str)
    plan = EXAMPLES[5]['plan']
    ref = evaluate_plan(task, plan).to_dict()
    as_obj = SimpleNamespace(**{**task, 'local_constraint': query_fields(task)['local_constraint']})
    assert evaluate_plan(as_obj, json.dumps(plan)).to_dict() == ref
    assert evaluate_plan(task, str(plan)).to_dict() == ref
    with pytest.raises(ValueError): evaluate_plan(task, plan, 'leaderboard')
    with pytest.raises(KeyError): evaluate_plan({'org': 'x'}, plan)


def test_run_check_and_db_argument():
    assert run_check('is_valid_information_in_sandbox', TRAIN[0], GOLD) == (True, '')
    base = default_db()  # a stand-in with the same raw frames; the index is built on first use, so edit them first
    db = SimpleNamespace(**{k: getattr(base, k) for k in ('flights', 'accommodations', 'attractions', 'distance', 'city_state')})
    db.restaurants = base.restaurants[base.restaurants['Name'] != 'Coco Bambu']  # day-1 dinner of the gold plan
    verdict, reason = run_check('is_valid_information_in_sandbox', TRAIN[0], GOLD, db=db)
    assert verdict is False and 'Coco Bambu' in reason
    assert evaluate_plan(TRAIN[0], GOLD).success and not evaluate_plan(TRAIN[0], GOLD, db=db).success


def test_dataset_metrics_rejects_mismatch():
    with pytest.raises(ValueError): dataset_metrics(VAL[:2], [evaluate_plan(VAL[0], None)])
