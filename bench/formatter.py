"""Benchmark: the plan formatters (`star.formatter`) and the linear-time parsers (issue 9).

1. Throughput: plans/s of the grounded formatter on the agreement fixture set (the 45 gold train plans and their
   single-edit violations, rendered in the five free-form styles; texts rendered before timing), next to the exact
   parser on the canonical text of the same plans and the layout-only tolerant parser on the markdown rendering.
2. Adversarial inputs: time of the new linear scans next to the backtracking regular expressions they replace (the
   formatter's former tolerant-line patterns, the evaluator's `from_to` / `strip_state` / `name_city` patterns,
   `parse_turn`'s block pattern) on the same inputs, at growing sizes; the old patterns only up to the size where they
   take seconds (their time grows with the square of the size), the new scans up to 100 KB.

Everything is measured side by side in one run. Usage: `python bench/formatter.py` (run it under the machine's lock).
"""
import re
import time

from star.agent import parse_turn
from star.evaluator import evaluate_plan, from_to, name_city, strip_state
from star.formatter import (FREEFORM_STYLES, agreement_fixtures, format_grounded, format_plan, grounding_index,
                            parse_plan, parse_plan_tolerant, render_freeform, render_plan)
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


if __name__ == '__main__':
    throughput()
    adversarial()
