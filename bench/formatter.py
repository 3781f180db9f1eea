"""Benchmark: the plan formatters (`star.plan`, `star.grounded`, `star.formatter`) and the linear-time parsers (issue 9).

1. Throughput: plans/s of the grounded formatter on the agreement fixture set (the 45 gold train plans and their
   single-edit violations, rendered in the five free-form styles; texts rendered before timing), next to the exact
   parser on the canonical text of the same plans and the layout-only tolerant parser on the markdown rendering; and
   `format_plan` ('auto', no LLM) on the real answers of `real_answers()` (tools/agreement.py), next to the grounded reader
   alone on them (the difference is what judging the doubts costs: `reading_doubts` evaluates the other readings).
2. Adversarial inputs: time of the new linear scans next to the backtracking regular expressions they replace (the
   formatter's former tolerant-line patterns, the evaluator's `from_to` / `strip_state` / `name_city` patterns,
   `parse_turn`'s block pattern) on the same inputs, at growing sizes; the old patterns only up to the size where they
   take seconds (their time grows with the square of the size), the new scans up to 100 KB.

3. Scaling (issue 19): every input issue 19 lists, real answers and random fragments at 10 KB, 100 KB and 1 MB through
   the functions that parse model output (`format_plan`, `parse_llm_plan`, `Sandbox.react_step`, `evaluate_plan`);
   the growth per decade of size must stay near 10x (linear), and the 100 KB time under 1 s.

4. Memory (issue 34): peak traced memory (`tracemalloc`) of `format_plan` on real answers concatenated to 10 KB, 100 KB
   and 1 MB, as a multiple of the answer's own size in memory (`sys.getsizeof`); and of the grounded reader without its
   length limit (`format_grounded(..., max_chars=None)`), the cost per character that the limit
   (`star.grounded.MAX_GROUNDED_CHARS`) bounds. The issue's bar: at most 10x at 1 MB.

Everything is measured side by side in one run. Usage: `python bench/formatter.py [--throughput-only | --scaling-only |
--memory-only]`
(run it under the machine's lock).
"""
import gzip
import json
import random
import re
import sys
import time
from pathlib import Path

from star.agent import parse_turn
from star.evaluator import evaluate_plan, from_to, name_city, strip_state
from star.formatter import format_plan
from star.grounded import format_grounded, grounding_index
from star.plan import parse_plan, parse_plan_tolerant, render_plan
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / 'tools'))
from agreement import FREEFORM_STYLES, agreement_fixtures, render_freeform  # noqa: E402
from star.tasks import load_tasks

# the patterns replaced in issue 9 (kept here only to measure them)
OLD_TOL_FIELD = re.compile(r'^\s*(?:(?:[-*+•>]|\d+[.)])\s+)*(?:\*\*|__|\*|_)?\s*(?P<label>[A-Za-z][A-Za-z _()]*?)\s*'
                           r'(?:\([^)]*\))?\s*(?:\*\*|__|\*|_)?\s*:\s*(?:\*\*|__)?\s*(?P<value>.*)$')
OLD_FROM_TO = re.compile(r"from\s+(.+?)\s+to\s+([^,]+)(?=[,\s]|$)")
OLD_STATE = re.compile(r'^(.*?)\([^)]*\)')
OLD_NAME_CITY = re.compile(r'(.*?),\s*([^,]+)(\(\w[\w\s]*\))?$')
OLD_BLOCK = re.compile(r"\s*<think>(.*?)</think>\s*<(tool_call|answer)>(.*?)</\2>\s*", re.S)


def timed(f, *a, repeat=1):
    t0 = time.perf_counter()
    for _ in range(repeat): f(*a)
    return (time.perf_counter() - t0) / repeat


def throughput():
    t0 = time.perf_counter(); grounding_index(); t_index = time.perf_counter() - t0
    train = load_tasks('train')
    fixtures = agreement_fixtures(train)
    print(f"grounding index built once: {t_index:.2f} s; fixture plans: {len(fixtures)}")
    format_grounded(render_freeform(fixtures[0][2], fixtures[0][1], 'app_f'), fixtures[0][1])     # warm the venue tries
    rows = []
    for style in FREEFORM_STYLES:
        texts = [(render_freeform(p, t, style), t) for _, t, p in fixtures]
        chars = sum(len(x) for x, _ in texts)
        dt = timed(lambda: [format_grounded(x, t) for x, t in texts])
        rows.append((f'grounded / {style}', len(texts), chars, dt))
    canon = [render_plan(p) for _, _, p in fixtures if not any('\n' in v for d in p for v in d.values() if isinstance(v, str))]
    rows.append(('exact / canonical', len(canon), sum(map(len, canon)), timed(lambda: [parse_plan(x) for x in canon])))
    md = [render_freeform(p, t, 'markdown') for _, t, p in fixtures]
    rows.append(('tolerant / markdown', len(md), sum(map(len, md)), timed(lambda: [parse_plan_tolerant(x) for x in md])))
    from agreement import real_answers
    val = {t.idx: t for t in load_tasks('validation')}
    real = [(r['text'], val[r['idx']]) for r in real_answers()]
    rows.append((f'auto / real answers', len(real), sum(len(x) for x, _ in real), timed(lambda: [format_plan(x, t) for x, t in real])))
    def grounded_only(x, t):                       # the same reading without judging its doubts (reading_doubts)
        try: format_grounded(x, t)
        except Exception: pass
    rows.append((f'grounded / real answers', len(real), sum(len(x) for x, _ in real), timed(lambda: [grounded_only(x, t) for x, t in real])))
    ev = timed(lambda: [evaluate_plan(t, p, 'official') for _, t, p in fixtures])
    rows.append(('(evaluate_plan, official)', len(fixtures), 0, ev))
    print(f"\n{'formatter / input':28s} {'plans':>6s} {'KB':>7s} {'s':>7s} {'plans/s':>9s} {'ms/plan':>8s}")
    for name, n, chars, dt in rows:
        print(f"{name:28s} {n:6d} {chars / 1e3:7.0f} {dt:7.2f} {n / dt:9.0f} {1e3 * dt / n:8.2f}")


def adversarial():
    print("\nadversarial inputs: old backtracking pattern vs new scan (seconds; '-' = not run, it would take minutes)")
    print(f"{'input':44s} {'size':>8s} {'old':>9s} {'new':>9s} {'old/new':>9s}")
    quadratic = (1_000, 2_000, 4_000, 8_000)
    cases = [   # (name, input of size ~n, old, new, sizes the old pattern is run on)
        ('tolerant field line: "Note" + spaces + "x"', lambda n: 'Note' + ' ' * n + 'x',
         lambda s: OLD_TOL_FIELD.match(s), lambda s: format_plan('Day 1:\nCurrent City: Chicago\n' + s, formatter='tolerant'),
         (100, 200, 300, 400)),
        ('from_to: "from" + spaces + "x"', lambda n: 'from ' + ' ' * n + 'x', lambda s: OLD_FROM_TO.search(s), from_to, quadratic),
        ('strip_state: "(" * n', lambda n: '(' * n, lambda s: OLD_STATE.search(s), strip_state, quadratic),
        ('name_city: "a\\n" * n/2 + ","', lambda n: 'a\n' * (n // 2) + ',', lambda s: OLD_NAME_CITY.search(s), name_city, quadratic),
        ('parse_turn: "<think>" + "</think><answer>" * k', lambda n: '<think>' + '</think><answer>' * (n // 16) + 'x',
         lambda s: OLD_BLOCK.fullmatch(s), parse_turn, quadratic),
    ]
    for name, make, old, new, sizes in cases:
        for n in sizes + (100_000,):
            s = make(n)
            t_old = timed(old, s) if n in sizes else None
            t_new = timed(new, s)
            ratio = f"{t_old / t_new:9.0f}" if t_old is not None and t_new > 0 else '        -'
            print(f"{name:44s} {len(s):8,d} {('%9.4f' % t_old) if t_old is not None else '        -'} {t_new:9.4f} {ratio}")
    task = load_tasks('validation')[11]
    day = {'days': 1, 'current_city': 'from ' + ' ' * 100_000 + 'x', 'transportation': '-', 'breakfast': '-',
           'attraction': '-', 'lunch': '-', 'dinner': '-', 'accommodation': '-'}
    print(f"\nevaluate_plan with a 100,000-space current city (issue 9 reproducer; 3.8 s at 1,500 spaces before): "
          f"{timed(evaluate_plan, task, [day] * 3):.4f} s")
    t = 'Day 1:\nCurrent City: Chicago\nNote' + ' ' * 100_000 + 'x'
    print(f"format_plan('Day 1:\\nCurrent City: Chicago\\nNote' + ' ' * 100_000 + 'x') (12.9 s at 600 spaces before): "
          f"{timed(format_plan, t):.4f} s")


def _fill(unit: str, n: int) -> str:
    "`unit` repeated to n characters."
    return (unit * (n // max(len(unit), 1) + 1))[:n]


def scaling():
    from star.formatter import parse_llm_plan, LLMFormatError
    from star.paths import data_path
    from star.sandbox import Sandbox
    task, sb = load_tasks('validation')[11], Sandbox()
    rows = [json.loads(l) for l in gzip.open(data_path('travelplanner', 'answers', 'public.jsonl.gz'), 'rt')]
    real = '\n\n'.join(r['text'] for r in rows if r['run'].startswith('gpt4'))
    frags = ['Day ', '1', '2', '²', ':', '\n', '- ', '**', 'Breakfast', 'Lunch: ', 'Side Wok', 'Appleton', '(', ')', '[',
             '"', 'from ', ' to ', 'Flight Number: F3574992', ';', ',', 'N/A', 'Same as Day 1', 'such as ', ' ']
    rnd = random.Random(0)
    noise = ''.join(rnd.choice(frags) for _ in range(400_000))
    def attractions(n): return 'Day 1:\nAttraction: ' + '; '.join(f'Place {i}' for i in range(n // 12)) + '\nDinner: ' + 'Side Wok ' * (n // 20)
    def empty_days(n): return ''.join(f'Day {i}:\n' for i in range(1, 99)) + _fill('Breakfast: Side Wok\n', n)
    def def_plan(n):
        k = n // 40
        return [{'days': 1, 'current_city': 'Appleton', 'transportation': '-', 'breakfast': '-', 'lunch': '-', 'dinner': '-',
                 'accommodation': '-', 'attraction': ''.join(f'Name {i}, Appleton;' for i in range(k))}]
    def llm(s):
        try: parse_llm_plan(s)
        except LLMFormatError: pass
    cases = [   # (input, function, make(n) -> the input of about n characters)
        ('real GPT-4 answers, concatenated', 'format_plan', lambda n: real[:n]),
        ('random fragments (headers, labels, names)', 'format_plan', lambda n: noise[:n]),
        ("'Day \\u00b2:' headers", 'format_plan', lambda n: _fill('Day \u00b2:\nLunch: x\n', n)),
        ('a 4,301-digit day number, repeated', 'format_plan', lambda n: _fill('Day ' + '9' * 4301 + ':\nLunch: x\n', n)),
        ("'Day 100000000:' headers", 'format_plan', lambda n: 'Day 1:\nLunch: x\n' + _fill('Day 100000000:\nLunch: y\n', n)),
        ('n/12 attraction pieces then a long dinner line', 'format_plan', attractions),
        ('98 empty days then venues', 'format_plan', empty_days),
        ('one city repeated (where the day is)', 'format_plan', lambda n: 'Day 1: ' + _fill('Appleton ', n)),
        ("'[' * k + ']' * k", 'parse_llm_plan', lambda n: '[' * (n // 2) + ']' * (n // 2)),
        ('random fragments', 'parse_llm_plan', lambda n: noise[:n]),
        ("'<tool_call>' + '[' * k", 'react_step', lambda n: '<think>x</think><tool_call>' + '[' * n + '</tool_call>'),
        ('random fragments', 'react_step', lambda n: '<tool_call>' + noise[:n] + '</tool_call>'),
        ('an attraction list of n/20 names', 'evaluate_plan', def_plan),
        ('random fragments (as plan text)', 'evaluate_plan', lambda n: noise[:n]),
    ]
    fns = {'format_plan': lambda x: format_plan(x, task), 'parse_llm_plan': llm, 'react_step': sb.react_step,
           'evaluate_plan': lambda x: evaluate_plan(task, x)}
    format_plan(real[:10_000], task)                                       # warm the index and tries
    sizes = (10_000, 100_000, 1_000_000)
    print("\nscaling: seconds per call at 10 KB / 100 KB / 1 MB, and growth per decade (linear: ~10x)")
    print(f"{'input':48s} {'function':15s} {'10 KB':>8s} {'100 KB':>8s} {'1 MB':>8s} {'x/dec':>6s} {'x/dec':>6s}")
    worst = 0.0
    for name, fn, make in cases:
        ts = [timed(fns[fn], make(n)) for n in sizes]
        g = [ts[1] / max(ts[0], 1e-4), ts[2] / max(ts[1], 1e-4)]
        worst = max(worst, ts[1])
        print(f"{name:48s} {fn:15s} {ts[0]:8.4f} {ts[1]:8.4f} {ts[2]:8.4f} {g[0]:6.1f} {g[1]:6.1f}")
    print(f"slowest call at 100 KB: {worst:.3f} s")


def memory():
    import tracemalloc
    from star.formatter import MAX_GROUNDED_CHARS, PlanFormatError
    from star.paths import data_path
    task = load_tasks('validation')[11]
    rows = [json.loads(l) for l in gzip.open(data_path('travelplanner', 'answers', 'public.jsonl.gz'), 'rt')]
    real = '\n\n'.join(r['text'] for r in rows)
    real = (real * (1_000_000 // len(real) + 1))
    def grounded(x):
        try: format_grounded(x, task, max_chars=None)
        except PlanFormatError: pass
    fns = {'format_plan': lambda x: format_plan(x, task), 'format_grounded (no limit)': grounded}
    format_plan(real[:10_000], task)                                       # warm the index and tries
    print(f"\nmemory: peak traced memory while reading real answers (limit MAX_GROUNDED_CHARS = {MAX_GROUNDED_CHARS:,} chars)")
    print(f"{'function':28s} {'chars':>10s} {'input MB':>9s} {'peak MB':>9s} {'x input':>8s}")
    for name, fn in fns.items():
        for n in (10_000, 100_000, 1_000_000):
            x = real[:n]
            size = sys.getsizeof(x)
            tracemalloc.start()
            fn(x)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"{name:28s} {n:10,d} {size / 1e6:9.2f} {peak / 1e6:9.2f} {peak / size:8.1f}")


if __name__ == '__main__':
    if '--memory-only' in sys.argv: memory(); sys.exit()
    if '--throughput-only' in sys.argv: throughput(); sys.exit()
    if '--scaling-only' not in sys.argv:
        throughput()
        adversarial()
    scaling()
    memory()
