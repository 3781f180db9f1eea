"""Nothing that parses model output raises or stalls (issue 19): property tests (hypothesis) over random and
adversarial text for `format_plan`, `parse_llm_plan`, `Sandbox.react_step` / `parse_turn` and `evaluate_plan`, and the
inputs the issue lists. Timing is measured by bench/formatter.py; here a guard only turns a hang into a failure."""
import json
import signal
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from star.agent import parse_turn
from star.evaluator import COMMONSENSE_CHECKS, HARD_CHECKS, evaluate_plan
from star.formatter import FormattedPlan, LLMFormatError, format_grounded, format_plan, parse_llm_plan, parse_plan
from star.sandbox import Sandbox
from star.tasks import load_tasks

VAL = load_tasks('validation')
TASK = VAL[11]                                   # St. Petersburg -> Appleton, 3 days
SB = Sandbox()
SETTINGS = settings(max_examples=int(__import__("os").environ.get("HYPOTHESIS_EXAMPLES", 150)), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@contextmanager
def hang_guard(seconds=20):
    "Fail instead of hanging (a quadratic scan of 1 MB takes minutes); not a performance measure."
    def boom(*_): raise TimeoutError(f"did not finish within {seconds} s: super-linear?")
    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(seconds)
    try: yield
    finally:
        signal.alarm(0); signal.signal(signal.SIGALRM, old)


# fragments models actually write, recombined at random: headers, labels, markup, numbers of every kind, names
FRAGMENTS = ['Day ', 'day ', 'Days ', 'DAY', '1', '2', '3', '7', '0', '99', '100000000', '9' * 4301, '²', '٣', 'one',
             ':', ': ', '\n', '\n\n', '\r\n', ' ', '  ', '\t', '- ', '* ', '+ ', '1. ', '**', '__', '### ', '|', '---',
             'Current City', 'Transportation', 'Breakfast', 'Attraction 1', 'Lunch', 'Dinner', 'Accommodation',
             'Alternative Accommodation', 'Morning', 'Check into', 'Check out', 'Flight Number: ', 'F3574992', 'F',
             'from ', ' to ', 'Self-driving', 'Taxi', 'drive', 'fly', 'Side Wok', "Mathew's Cafe", 'Appleton',
             'St. Petersburg', 'Alamosa(Colorado)', '(', ')', '[', ']', '{', '}', '"', '“', '’', '<answer>', '</answer>',
             '<think>', '</think>', 'N/A', 'None', '-', '—', 'Same as Day 1', 'such as ', 'Revised Day 1', ';', ',',
             '.', 'Key Highlights', 'Total Cost', 'On day ', 'to Day ', '$', '€', '\u200b', '\x00', 'Ⅻ', '🙂']
adversarial = st.lists(st.sampled_from(FRAGMENTS), max_size=60).map(''.join)
any_text = st.one_of(st.text(max_size=300), adversarial)


@SETTINGS
@given(any_text)
def test_format_plan_never_raises(text):
    with hang_guard():
        for formatter in ('auto', 'exact', 'grounded', 'tolerant'):
            fp = format_plan(text, TASK, formatter=formatter)
            assert isinstance(fp, FormattedPlan)
            assert fp.plan is None or (isinstance(fp.plan, list) and all(isinstance(d, dict) for d in fp.plan))
            assert fp.plan is not None or fp.reason


json_like = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
                         lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                         max_leaves=20)


@SETTINGS
@given(st.one_of(any_text, json_like.map(json.dumps), st.integers(1, 5000).map(lambda n: '[' * n + ']' * n),
                 st.integers(1, 5000).map(lambda n: '```json\n' + '{"a": ' * n + '1' + '}' * n + '\n```')))
def test_parse_llm_plan_raises_only_llm_format_error(content):
    with hang_guard():
        try: plan = parse_llm_plan(content)
        except LLMFormatError: return
        assert isinstance(plan, list) and plan and all(isinstance(d, dict) for d in plan)


@SETTINGS
@given(st.one_of(any_text, json_like.map(lambda v: f'<think>x</think>\n<tool_call>{json.dumps(v)}</tool_call>'),
                 st.integers(1, 5000).map(lambda n: '<think>x</think><tool_call>' + '[' * n + '</tool_call>'),
                 st.integers(1, 5000).map(lambda n: '<think>x</think><tool_call>{"name": "SearchCity", "arguments": '
                                                    + '{"a": ' * n + '1' + '}' * n + '}</tool_call>')))
def test_react_step_and_parse_turn_never_raise(text):
    with hang_guard():
        obs = SB.react_step(text)
        assert obs is None or isinstance(obs, str)
        t = parse_turn(text)
        assert isinstance(t.errors, list)


day = st.fixed_dictionaries({}, optional={k: st.one_of(st.text(max_size=30), json_like) for k in
                                          ('days', 'current_city', 'transportation', 'breakfast', 'attraction', 'lunch',
                                           'dinner', 'accommodation')})


@SETTINGS
@given(st.one_of(json_like, st.lists(day, max_size=8), st.lists(day, max_size=8).map(json.dumps), any_text))
def test_evaluate_plan_never_raises(plan):
    with hang_guard():
        for protocol in ('official', 'agent_star'):
            r = evaluate_plan(TASK, plan, protocol)
            assert set(r.commonsense) == set(COMMONSENSE_CHECKS) and set(r.hard) == set(HARD_CHECKS)
            assert r.delivered == (isinstance(plan, list) and len(plan) > 0) or isinstance(plan, str)


# ---------------------------------------------------------------- the inputs issue 19 lists
ISSUE_INPUTS = {
    'superscript day number': 'Day \u00b2:\nLunch: x',
    '4,301-digit day number': 'Day ' + '9' * 4301 + ':\nLunch: x',
    'Day 100000000': 'Day 1:\nLunch: x\nDay 100000000:\nLunch: y',
    '10,000 attraction pieces then a long dinner line': 'Day 1:\nAttraction: ' + '; '.join(f'Place {i}' for i in range(10000))
                                                        + '\nDinner: ' + 'Side Wok ' * 5000,
    'many empty days then venues': ''.join(f'Day {i}:\n' for i in range(1, 99)) + 'Breakfast: Side Wok\n' * 10000,
    'one city repeated (majority vote)': 'Day 1: ' + 'Appleton ' * 20000,
}


@pytest.mark.parametrize('name', list(ISSUE_INPUTS))
def test_issue_inputs_return_a_plan_or_a_reason(name):
    with hang_guard(30):
        fp = format_plan(ISSUE_INPUTS[name], TASK)
        assert fp.plan is not None or fp.reason
        assert fp.plan is None or len(fp.plan) <= 99


def test_issue_inputs_parsers():
    with hang_guard(30):
        with pytest.raises(LLMFormatError): parse_llm_plan('[' * 1000 + ']' * 1000)
        assert parse_plan('Day \u00b2:\nLunch: x') == [{'days': '²', 'lunch': 'x'}]           # canonical: kept verbatim
        assert parse_plan('Day ' + '9' * 4301 + ':\nLunch: x')[0]['days'] == '9' * 4301
        assert [d['days'] for d in format_grounded('Day 1:\nLunch: x\nDay 100000000:\nLunch: y', TASK)] == [1]
        attractions = ''.join(f'Name {i}, Appleton;' for i in range(20000))
        r = evaluate_plan(TASK, [{'days': 1, 'current_city': 'Appleton', 'transportation': '-', 'breakfast': '-',
                                  'attraction': attractions, 'lunch': '-', 'dinner': '-', 'accommodation': '-'}])
        assert r.commonsense['is_valid_information_in_sandbox'] is False
        assert evaluate_plan(TASK, '[' * 100000).delivered is False
        assert 'not JSON' in parse_turn('<think>x</think><tool_call>' + '[' * 100000 + '</tool_call>').errors[0]
        assert SB.react_step('<tool_call>' + '[' * 100000 + '</tool_call>').startswith('<tool_response>\nError calling tool')


def test_superscript_digits_never_crash_the_reader():
    """Footnote markers after names (issue 48's held-out v7 found it): '¹'.isdigit() is True but int('¹') raises, so
    the reader reads digits with `str.isdecimal`. Train query 0's day 2 restaurants, written with markers."""
    t = next(t for t in load_tasks('train') if t.annotated_plan)
    text = f'Day 1 (from {t.org} to {t.dest}):\nA bite at Flying Mango¹ ¹ and Cafe Southall ² at 19:00.\n'
    with hang_guard():
        for formatter in ('auto', 'grounded', 'tolerant'):
            fp = format_plan(text, t, formatter=formatter)
            assert fp.plan is not None or fp.reason
