#!/usr/bin/env python
"""Held-out part v7 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written 2026-12-06 by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their
notebooks, tests or results were opened, no reader was run on these texts, and `tools/layouts.py measure` / `record`
were not run). SEALED: this part is to be scored ONCE by the lead (via tools/layouts.py, part 'heldout7', once
registered there) and never tuned on before that score.

    python tools/layouts_v7.py check                     # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (python literal / XML rebuilt
                                                         # into the plan exactly; the others cut into days and slots,
                                                         # footnotes and corrections resolved) and compared with the
                                                         # plan; then corruptions (a name deleted, lunches swapped, a
                                                         # footnote renumbered, an update dropped, ...) must be caught
    python tools/layouts_v7.py show xml_days --n 1       # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how chat models and tool-using agents answer "plan me a 3/5/7-day trip", in styles that neither
tools/layouts.py nor tools/layouts_v5.py nor tools/layouts_v6.py has (see each renderer's docstring):

* `python_literal`     an agent printing its final state: `itinerary = {...}` in a ```python block, single-quoted
                       strings (double quotes only where a name holds an apostrophe, as Python's repr writes it), `None`
                       for an empty slot, venues as (name, city) TUPLES, the leg a dict {'mode': 'plane', ...}
* `xml_days`           an XML document in a ```xml block: `<day n="1" date="...">`, `<leg mode="flight" number=...>`,
                       `<meal type="lunch" city="...">Name</meal>`, empty `<meal type="breakfast"/>` (or a comment) for
                       none, `<sight>`, `<lodging>`; names written raw inside the elements ('&' stays '&')
* `indented_bullets`   a per-day bullet tree, 4-space indents, bullet characters alternating `*` / `-` / `*` with depth;
                       group bullets (Getting around / Food / Sightseeing / Where you sleep) and the items under them,
                       in some renderings the meal word itself a bullet with the restaurant one level deeper
* `hotel_blocks`       night by night, organised by hotel: each block heads with the stay (named once) and the days and
                       dates it covers, then those days with everything that happens on them (no hotel in the days);
                       a closing block for the day(s) with no hotel
* `sentence_footnotes` each day ONE long sentence ("On day 2 you start with breakfast at X¹, then visit A², B³ and C⁴,
                       ..."), names bare with superscript footnote markers; the footnotes at the end give each venue's
                       city (and cuisines / cost, room type / price from the database); a venue seen twice keeps its number
* `constraints_bld`    the request restated first (route, dates, travellers, budget, local constraints), then a
                       numbered list of days whose meals sit on one positional line "B/L/D: X / Y / Z" (— for none)
* `draft_with_updates` a first-pass plan with one to three slots different, then "Update" lines that must be applied
                       ("Swap Day 2's lunch to X (instead of Y)", "Nights of Day 1–2: stay at X instead of Y", "Day 3:
                       visit B instead of A", a road leg's mode changed, lunch and dinner trading places); the final
                       state is stated exactly
* `foreign_labels`     the answer in German, French or Spanish (drawn): "Tag 1 – Mittwoch, 16. März 2022", "Jour 2 —
                       jeudi 17 mars 2022", "Día 3 — ...", meal words Frühstück / Mittagessen / Abendessen, Petit-déjeuner
                       / Déjeuner / Dîner (French 'déjeuner' is LUNCH), Desayuno / Almuerzo / Cena, Unterkunft /
                       Hébergement / Alojamiento, times 15h40 in French, durations translated; names verbatim

Phrasings (`HELDOUT7_PHRASES`, drawn per rendering by `Phr7`): venue placed as 'X · City', 'X (city: City)',
'X — City' (em dash) or 'X, City'; several sights joined as 'A, B, and C' (Oxford comma), ' ◦ ', ', and after that ',
' >> '; meal labels 'Lunch :: X', 'Lunch » X', 'Lunch = X' or 'Lunch: X'. Every rendering states the whole plan: each
day's route, the leg (flight number and times, or self-drive / taxi with duration and cost), each meal's restaurant,
each attraction and the accommodation; names are verbatim (words are only added around them); the noise (intros, the
restated request, a superseded draft slot, comments, footnote details) never contradicts the final plan.
"""
from __future__ import annotations

import argparse, ast, datetime, random, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _name_city, known_plans, day_date as _day0                # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT7_PHRASES = {
    'locative': ('middot', 'citykey', 'emdash', 'comma'),        # 'X · City' | 'X (city: City)' | 'X — City' | 'X, City'
    'join': ('oxford', ' ◦ ', ', and after that ', ' >> '),      # 'oxford': 'A, B, and C' ('A and B' for two)
    'meal_label': ('dcolon', 'guillemet', 'equals', 'colon'),    # 'Lunch :: X' | 'Lunch » X' | 'Lunch = X' | 'Lunch: X'
}


def _index():
    from star.evaluator import eval_index
    return eval_index()


class Phr7(Phr):
    "`Phr` with the v7 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        n, c = _name_city(v)
        if c and self.loc == 'middot': return f'{n} · {c}'
        if c and self.loc == 'citykey': return f'{n} (city: {c})'
        if c and self.loc == 'emdash': return f'{n} — {c}'
        return super().venue(v)

    def items(self, vs: list[str]) -> str:
        xs = [self.venue(a) for a in vs]
        if self.join == 'oxford':
            return ('' if not xs else xs[0] if len(xs) == 1 else f'{xs[0]} and {xs[1]}' if len(xs) == 2
                    else ', '.join(xs[:-1]) + ', and ' + xs[-1])
        return self.join.join(xs)

    def meal(self, label: str, v: str) -> str:
        x = self.venue(v)
        if self.label == 'dcolon': return f'{label} :: {x}'
        if self.label == 'guillemet': return f'{label} » {x}'
        if self.label == 'equals': return f'{label} = {x}'
        return super().meal(label, v)


PHR7 = Phr7

# -------------------------------------------------------------------------------------------------------------- helpers
def _get(task, k, dflt=None): return task.get(k, dflt) if isinstance(task, dict) else getattr(task, k, dflt)


def _d(task, i: int, fmt: str) -> str:
    "Date of day i: 'iso' '2022-03-16' | 'us' 'Wed 3/16' | 'dm' 'Wed 16 Mar' | 'long' 'Wednesday, March 16'."
    d = _day0(task, i)
    if d is None: return f'day {i + 1}'
    return {'iso': d.isoformat(), 'us': f"{d:%a} {d.month}/{d.day}", 'dm': f"{d:%a} {d.day} {d:%b}",
            'long': f"{d:%A}, {d:%B} {d.day}"}[fmt]


def _cities(cc: str) -> tuple[str, str]:
    "(start city, end city) of a current_city value ('from A to B' or 'A')."
    if cc.startswith('from ') and ' to ' in cc:
        a, _, b = cc[5:].partition(' to ')
        return a, b
    return cc, cc


def _meals(d) -> list[tuple[str, str]]: return [(m, d[m]) for m in ('breakfast', 'lunch', 'dinner') if d[m] != '-']


def _road(t: str) -> dict:
    "All 'key: value' fields of a road leg ('duration', 'distance', 'cost'), verbatim."
    return dict(p.split(': ', 1) for p in t.split(', ') if ': ' in p)


def _leg_string(mode, a, b, number=None, dep=None, arr=None, duration=None, distance=None, cost=None) -> str:
    "The plan's own transportation value from its parts (the inverse of `_leg_parts` / `_road`)."
    if mode == 'flight': return f"Flight Number: {number}, from {a} to {b}, Departure Time: {dep}, Arrival Time: {arr}"
    return f"{'Taxi' if mode == 'taxi' else 'Self-driving'}, from {a} to {b}, duration: {duration}, distance: {distance}, cost: {cost}"


def _leg7(t: str, style: str) -> str:
    "A transportation value in the v7 wordings (flight number and times; self-drive or taxi with duration and cost)."
    p = _leg_parts(t)
    a, b, n = p['a'], p['b'], p['number']
    if p['mode'] == 'flight':
        return {'bullet': f"Flight {n}: {a} {p['dep']} → {b} {p['arr']}",
                'short': f"Flight {n}, {p['dep']} → {p['arr']} ({a} to {b})",
                'plain': f"Flight {n} from {a} to {b}, departing {p['dep']}, arriving {p['arr']}"}[style]
    w = 'Taxi' if p['mode'] == 'taxi' else 'Self-drive'
    return {'bullet': f"{w}: {a} → {b}, about {p['duration']}, ${p['cost']}",
            'short': f"{w}, {p['duration']}, ${p['cost']} ({a} to {b})",
            'plain': f"{w} from {a} to {b} (about {p['duration']}, ${p['cost']})"}[style]


def _runs(plan):
    "[[first day index, last day index, accommodation]]: consecutive nights at one place, or with no place ('-')."
    runs = []
    for i, d in enumerate(plan):
        a = d['accommodation']
        if runs and runs[-1][2] == a and runs[-1][1] == i - 1: runs[-1][1] = i
        else: runs.append([i, i, a])
    return runs


_SUP = str.maketrans('0123456789', '⁰¹²³⁴⁵⁶⁷⁸⁹')
_UNSUP = str.maketrans('⁰¹²³⁴⁵⁶⁷⁸⁹', '0123456789')


def _sup(k: int) -> str: return str(k).translate(_SUP)


def _restaurant(n, c):
    return next((r for r in _index().find('restaurants', n, c) if r.name == n), None)


def _stay(n, c):
    return next((s for s in _index().find('accommodations', n, c) if s.name == n), None)

# -------------------------------------------------------------------------------------------------------------- layouts
def _py_day(d, i, task):
    "One day of `python_literal` as a dict (venues as (name, city) tuples, None for an empty slot)."
    vt = lambda v: None if v == '-' else tuple(_name_city(v))
    a, b = _cities(d['current_city'])
    leg = None
    if d['transportation'] != '-':
        p = _leg_parts(d['transportation'])
        if p['mode'] == 'flight':
            leg = {'mode': 'plane', 'flight_no': p['number'], 'from': p['a'], 'to': p['b'], 'dep': p['dep'], 'arr': p['arr']}
        else:
            r = _road(d['transportation'])
            leg = {'mode': 'taxi' if p['mode'] == 'taxi' else 'self-driving', 'from': p['a'], 'to': p['b'],
                   'duration': r['duration'], 'distance': r['distance'], 'cost_usd': r['cost']}
    return {'day': d['days'], 'date': _d(task, i, 'iso'), 'route': (a, b) if a != b else a, 'leg': leg,
            'meals': {m: vt(d[m]) for m in ('breakfast', 'lunch', 'dinner')},
            'see': [vt(x) for x in _attractions(d['attraction'])], 'sleep': vt(d['accommodation'])}


def python_literal(plan, task, ph):
    """An agent's final state printed as a Python literal in a ```python block: `itinerary = {'origin': ..., 'days': [
    {'day': 1, 'date': '2022-03-16', 'route': ('A', 'B') | 'A', 'leg': {'mode': 'plane', 'flight_no': ...} | None,
    'meals': {'breakfast': ('Name', 'City') | None, ...}, 'see': [('Name', 'City'), ...], 'sleep': (...) | None}, ...]}`,
    strings as Python's repr writes them, one key per line, a comment over each day."""
    r = ph.rng
    out = [r.choice(("Thought: every slot is filled and checked against the database. Final answer:",
                     "Observation: plan assembled. Here is the final `itinerary` object:",
                     "Done — this is the itinerary my planner returned (Python dict):")), '', '```python',
           'itinerary = {',
           f"    'origin': {_get(task, 'org')!r},",
           f"    'travellers': {_get(task, 'people_number')!r},",
           f"    'budget_usd': {_get(task, 'budget')!r},",
           "    'days': ["]
    for i, d in enumerate(plan):
        o = _py_day(d, i, task)
        a, b = _cities(d['current_city'])
        out.append(f"        # day {d['days']}: " + (f"{a} -> {b}" if a != b else f"in {a}"))
        out.append("        {")
        for k, v in o.items():
            if k == 'meals':
                out.append("            'meals': {")
                out += [f"                {m!r}: {x!r}," for m, x in v.items()]
                out.append("            },")
            elif k == 'see' and v:
                out.append("            'see': [")
                out += [f"                {x!r}," for x in v]
                out.append("            ],")
            else: out.append(f"            {k!r}: {v!r},")
        out.append("        },")
    out += ["    ],", "}", '```', '',
            r.choice(("`None` = nothing booked for that slot. Costs are in USD.", "(None means the slot is intentionally empty.)"))]
    return '\n'.join(out)


def _xa(s: str) -> str: return s.replace('"', '&quot;')


def xml_days(plan, task, ph):
    """An XML document in a ```xml block: `<trip>` with one `<day n=".." date="..">` per day: `<route from= to=/>` or
    `<route city=/>`, `<leg mode="flight" number= from= to= depart= arrive=/>` or `<leg mode="self-driving"|"taxi"
    from= to= duration= distance= cost=/>`, `<meal type="breakfast|lunch|dinner" city="..">Name</meal>` (an empty
    `<meal type=".."/>` or a comment where there is none), `<sights>` of `<sight city="..">Name</sight>`, `<lodging
    city="..">Name</lodging>` (or `<lodging/>`). Names are raw text, as chat models write them ('&' unescaped)."""
    r = ph.rng
    empty_style = r.choice(('element', 'comment'))
    out = [r.choice(("Here's the itinerary in XML, ready to import:", "Sure — the plan as an XML document:")), '', '```xml',
           '<?xml version="1.0" encoding="UTF-8"?>',
           f'<trip origin="{_xa(_get(task, "org") or "")}" travellers="{_get(task, "people_number")}" budget="{_get(task, "budget")}" '
           f'days="{len(plan)}">']
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        out.append(f'  <day n="{d["days"]}" date="{_d(task, i, "iso")}">')
        out.append(f'    <route from="{_xa(a)}" to="{_xa(b)}"/>' if a != b else f'    <route city="{_xa(a)}"/>')
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            if p['mode'] == 'flight':
                out.append(f'    <leg mode="flight" number="{p["number"]}" from="{_xa(p["a"])}" to="{_xa(p["b"])}" '
                           f'depart="{p["dep"]}" arrive="{p["arr"]}"/>')
            else:
                rd = _road(d['transportation'])
                out.append(f'    <leg mode="{"taxi" if p["mode"] == "taxi" else "self-driving"}" from="{_xa(p["a"])}" to="{_xa(p["b"])}" '
                           f'duration="{rd["duration"]}" distance="{rd["distance"]}" cost="{rd["cost"]}"/>')
        def meal(m):
            if d[m] == '-':
                return (f'    <meal type="{m}"/>' if empty_style == 'element' else f'    <!-- no {m} booked -->')
            n, c = _name_city(d[m])
            return f'    <meal type="{m}" city="{_xa(c)}">{n}</meal>'
        out.append(meal('breakfast'))
        at = _attractions(d['attraction'])
        if at:
            out.append('    <sights>')
            out += [f'      <sight city="{_xa(_name_city(x)[1])}">{_name_city(x)[0]}</sight>' for x in at]
            out.append('    </sights>')
        out += [meal('lunch'), meal('dinner')]
        if d['accommodation'] != '-':
            n, c = _name_city(d['accommodation'])
            out.append(f'    <lodging city="{_xa(c)}">{n}</lodging>')
        else: out.append('    <lodging/>' if empty_style == 'element' else '    <!-- no lodging: trip ends -->')
        out.append('  </day>')
    out += ['</trip>', '```']
    return '\n'.join(out)


_GROUPS = ('Getting around', 'Food', 'Sightseeing', 'Where you sleep')


def indented_bullets(plan, task, ph):
    """A per-day bullet tree with 4-space indents whose bullet characters alternate with depth (`*`, `-`, `*`): the day
    ("* Day 1 (Wed 3/16): St. Petersburg to Rockford"), its groups ("- Getting around", "- Food", "- Sightseeing",
    "- Where you sleep"), their items; in 'nested' renderings each meal word is itself a bullet ("- Lunch") with the
    restaurant one level deeper, otherwise the meals sit under "- Food" as "* Lunch :: X"."""
    r = ph.rng
    nested = r.random() < 0.5
    out = [r.choice(("Here's a day-by-day breakdown:", "Sure! Below is the itinerary as a nested list.",
                     "Okay, here is how I'd lay the trip out:")), '']
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        out.append(f"* Day {d['days']} ({_d(task, i, 'us')}): " + (f"{a} to {b}" if a != b else f"{a} (full day)"))
        if d['transportation'] != '-':
            out += [f"    - {_GROUPS[0]}", f"        * {_leg7(d['transportation'], 'bullet')}"]
        if (ms := _meals(d)):
            if nested:
                for m, v in ms: out += [f"    - {m.capitalize()}", f"        * {ph.venue(v)}"]
            else:
                out.append(f"    - {_GROUPS[1]}")
                out += [f"        * {ph.meal(m.capitalize(), v)}" for m, v in ms]
        if (at := _attractions(d['attraction'])):
            out.append(f"    - {_GROUPS[2]}")
            out += [f"        * {ph.venue(x)}" for x in at]
        if d['accommodation'] != '-':
            out += [f"    - {_GROUPS[3]}", f"        * {ph.venue(d['accommodation'])}"]
    out += ['', r.choice(("Happy travels!", "Let me know if you want any swaps.", "Prices and times were checked today."))]
    return '\n'.join(out)


def _day_lines(d, ph, indent='      '):
    "A day's lines without its stay (travel, meals, sights), as `hotel_blocks` and `draft_with_updates` list them."
    out = []
    if d['transportation'] != '-': out.append(f"{indent}Travel: {_leg7(d['transportation'], 'plain')}")
    out += [f"{indent}{ph.meal(m.capitalize(), v)}" for m, v in _meals(d)]
    if (at := _attractions(d['attraction'])): out.append(f"{indent}Sights: {ph.items(at)}")
    return out


def _groupby(seq):
    "(kind, value) pairs with consecutive sights grouped: [('sight', [a, b]), ('lunch', v), ...]."
    import itertools
    return [(k, [v for _, v in g]) if k == 'sight' else (k, next(g)[1]) for k, g in itertools.groupby(seq, key=lambda x: x[0])]


def _and(xs): return xs[0] if len(xs) == 1 else ', '.join(xs[:-1]) + ' and ' + xs[-1]


def hotel_blocks(plan, task, ph):
    """Night by night, organised by hotel: a block per run of nights at one stay, headed with the stay (named only
    there), the days it covers ("Nights: Day 1 and Day 2") and the check-in / check-out dates, then each of those days
    ("  ▸ Day 1 · Wed 16 Mar · St. Petersburg to Rockford") with its travel, meals and sights; a day with no stay sits in
    a "No hotel" block of its own."""
    r = ph.rng
    runs = _runs(plan)
    stays = [x for x in runs if x[2] != '-']
    out = [r.choice(("I've grouped the plan by where you sleep, so the bookings are easy to follow.",
                     "Night-by-night plan, hotel by hotel:")), '']
    k = 0
    for a, b, acc in runs:
        if acc == '-':
            last = b == len(plan) - 1
            out.append("━━ " + ('Final day — no hotel (heading home)' if last else 'No hotel booked') + " ━━")
        else:
            k += 1
            nx = _day0(task, b)
            co = f"{nx + datetime.timedelta(days=1):%a %-d %b}" if nx else 'the next morning'
            days = _and([f"Day {plan[j]['days']}" for j in range(a, b + 1)])
            out.append(f"━━ Stay {k} of {len(stays)}: {ph.venue(acc)} ━━")
            out.append(f"Nights: {days} (check in {_d(task, a, 'dm')}, check out {co})")
        for j in range(a, b + 1):
            d = plan[j]
            x, y = _cities(d['current_city'])
            out.append(f"  ▸ Day {d['days']} · {_d(task, j, 'dm')} · " + (f"{x} to {y}" if x != y else f"in {x}"))
            out += _day_lines(d, ph) or ['      (free day)']
        out.append('')
    return '\n'.join(out + [r.choice(("Each stay is listed once, at the top of its block.", "Book each stay for the nights shown."))])


_MEAL_TPL = {'breakfast': ('start with breakfast at {}', 'grab breakfast at {}', 'begin the morning at {} for breakfast'),
             'lunch': ('stop for lunch at {}', 'have lunch at {}', 'head to {} for lunch'),
             'dinner': ('have dinner at {}', 'finish with dinner at {}', 'book {} for dinner')}
_SIGHT_TPL = ('visit {}', 'go on to see {}', 'spend a few hours at {}')
_STAY_TPL = ('check in at {} for the night', 'sleep at {}', 'turn in at {}')
_BACK_TPL = ('return to {} for the night', 'head back to {} to sleep')
_CONN = ('then ', 'after that ', 'next ', '', 'later ')
_ORD = ('one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten')


def _footnote_detail(kind, n, c) -> str:
    if kind == 'meal' and (x := _restaurant(n, c)):
        return f" — {', '.join(s.strip() for s in str(x.cuisines).split(',')[:3])}; about ${x.cost:.0f} per person"
    if kind == 'stay' and (x := _stay(n, c)):
        return f" — {x.room_type}; ${x.price:,.0f} a night"
    return ''


def sentence_footnotes(plan, task, ph):
    """Each day ONE long sentence ("**Day 2 — Thursday, March 17.** On day two you start with breakfast at X¹, then
    visit A², B³ and C⁴, stop for lunch at Y⁵, ..., and sleep at Z⁶."), names bare with superscript markers; the notes
    at the end ("¹ X (Rockford) — Cafe, Bakery; about $25 per person") give each venue's city and a few facts from the
    database. Numbers follow first appearance; a venue named again keeps its number."""
    r = ph.rng
    notes, order = {}, []
    def mark(v, kind):
        n, c = _name_city(v)
        if (n, c) not in notes:
            notes[(n, c)] = len(notes) + 1
            order.append((n, c, kind))
        return f"{n}{_sup(notes[(n, c)])}"
    out = [r.choice(("Here is the itinerary, one sentence per day (venue details in the notes at the end):",
                     "Your trip, day by day — the small numbers point to the notes below.")), '']
    prev = '-'
    for i, d in enumerate(plan):
        at = _attractions(d['attraction'])
        h = (len(at) + 1) // 2
        seq = ([('breakfast', d['breakfast'])] * (d['breakfast'] != '-') + [('sight', x) for x in at[:h]] +
               [('lunch', d['lunch'])] * (d['lunch'] != '-') + [('sight', x) for x in at[h:]] +
               [('dinner', d['dinner'])] * (d['dinner'] != '-'))
        seq = _groupby(seq)
        tr, cut = d['transportation'], 0
        if tr != '-':                            # the leg goes where the venues switch from the start city to the end one
            p = _leg_parts(tr)
            cut = next((k for k, (_, v) in enumerate(seq) if _name_city(v if isinstance(v, str) else v[0])[1] == p['b']), len(seq))
        parts = []
        for k, (kind, v) in enumerate(seq):
            if k == cut and tr != '-': parts.append(('leg', tr))
            parts.append((kind, v))
        if tr != '-' and cut >= len(seq): parts.append(('leg', tr))
        acc = d['accommodation']
        if acc != '-': parts.append(('stay', acc))
        words = []
        for kind, v in parts:
            if kind == 'leg':
                p = _leg_parts(v)
                words.append(f"fly from {p['a']} to {p['b']} on flight {p['number']}, leaving at {p['dep']} and landing at {p['arr']}"
                             if p['mode'] == 'flight' else
                             f"{'take a taxi' if p['mode'] == 'taxi' else 'drive yourself'} from {p['a']} to {p['b']} "
                             f"(about {p['duration']}, ${p['cost']})")
            elif kind == 'sight': words.append(r.choice(_SIGHT_TPL).format(_and([mark(x, 'sight') for x in v])))
            elif kind == 'stay': words.append(r.choice(_BACK_TPL if v == prev else _STAY_TPL).format(mark(v, 'stay')))
            else: words.append(r.choice(_MEAL_TPL[kind]).format(mark(v, 'meal')))
        prev = acc
        lead = f"On day {_ORD[i]} you " if tr != '-' else f"On day {_ORD[i]}, staying in {d['current_city']} all day, you "
        if not words: body = f"On day {_ORD[i]} you have a free day in {d['current_city']}"
        elif len(words) == 1: body = lead + words[0]
        else: body = lead + words[0] + ''.join(', ' + r.choice(_CONN) + w for w in words[1:-1]) + ', and ' + r.choice(_CONN) + words[-1]
        out += [f"**Day {d['days']} — {_d(task, i, 'long')}.** {body}.", '']
    out.append('---')
    out += [f"{_sup(notes[(n, c)])} {n} ({c}){_footnote_detail(kind, n, c)}" for n, c, kind in order]
    return '\n'.join(out)


def _constraints(task) -> list[str]:
    lc = _get(task, 'local_constraint') or {}
    out = []
    if lc.get('house rule'): out.append(f"House rule: the place must allow {lc['house rule']}")
    if lc.get('room type'): out.append(f"Room type: {lc['room type']}")
    if lc.get('cuisine'):
        cu = lc['cuisine']
        out.append(f"Cuisines to include: {', '.join(cu) if isinstance(cu, (list, tuple)) else cu}")
    if lc.get('transportation'): out.append(f"Transport: {lc['transportation']}")
    return out


def constraints_bld(plan, task, ph):
    """The request restated first ("What you asked for": origin and destination, dates, travellers, budget, local
    constraints), then "The plan" as a numbered list of days ("1. Wed 16 Mar — St. Petersburg → Rockford") whose meals
    sit on ONE positional line "B/L/D: X / Y / Z" (— for an empty slot), with Travel / See / Bed lines around it."""
    r = ph.rng
    n, bud = _get(task, 'people_number', 1) or 1, _get(task, 'budget')
    d0, d1 = _day0(task, 0), _day0(task, len(plan) - 1)
    span = f"{d0:%B} {d0.day}–{d1:%B} {d1.day}, {d1.year}" if d0 and d1 else f"{len(plan)} days"
    out = ["**What you asked for**",
           f"- From {_get(task, 'org')} to {_get(task, 'dest')}, {len(plan)} days ({span})",
           f"- {n} traveller{'s' * (n != 1)}" + (f", budget ${bud:,} in total" if isinstance(bud, int) else '')]
    cs = _constraints(task)
    out += [f"- {c}" for c in cs] or ["- No special requirements (house rules, room type, cuisine, transport)"]
    out += ['', r.choice(("**The plan**", "**Itinerary**")), '', '(B/L/D = breakfast / lunch / dinner; — = none)', '']
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        out.append(f"{d['days']}. {_d(task, i, 'dm')} — " + (f"{a} → {b}" if a != b else f"{a}"))
        if d['transportation'] != '-': out.append(f"   Travel: {_leg7(d['transportation'], 'short')}")
        out.append("   B/L/D: " + ' / '.join(ph.venue(d[m]) if d[m] != '-' else '—' for m in ('breakfast', 'lunch', 'dinner')))
        if (at := _attractions(d['attraction'])): out.append(f"   See: {ph.items(at)}")
        out.append(f"   Bed: {ph.venue(d['accommodation']) if d['accommodation'] != '-' else '— (no overnight)'}")
        out.append('')
    return '\n'.join(out + [r.choice(("Shout if you want a cheaper stay or different restaurants.", "All bookings still to be made."))])


# draft_with_updates ----------------------------------------------------------------------------------------------------
def _decoy(table, city, used, rng):
    cands = [n for n, _ in _index().__getattribute__(table).get(city, ()) if n not in used and len(n) > 3]
    return rng.choice(sorted(set(cands))) if cands else None


def _draft(plan, task, rng):
    """(draft plan, updates): the draft differs from `plan` in one to three slots; each update ('kind', day index, ...)
    states the final value exactly."""
    used = {_name_city(v)[0] for d in plan for k in ('breakfast', 'lunch', 'dinner', 'accommodation') for v in [d[k]] if v != '-'}
    used |= {_name_city(a)[0] for d in plan for a in _attractions(d['attraction'])}
    ix = _index()
    opts = []
    for i, d in enumerate(plan):
        for m in ('breakfast', 'lunch', 'dinner'):
            if d[m] != '-': opts.append(('meal', i, m))
        if d['lunch'] != '-' and d['dinner'] != '-' and d['lunch'] != d['dinner']: opts.append(('swap', i))
        if _attractions(d['attraction']): opts.append(('sight', i))
        if d['transportation'] != '-' and not d['transportation'].startswith('Flight'): opts.append(('road', i))
    opts += [('stay', a, b) for a, b, acc in _runs(plan) if acc != '-']
    rng.shuffle(opts)
    draft = [dict(d) for d in plan]
    ups, touched = [], set()
    for o in opts:
        if len(ups) >= rng.choice((1, 2, 3)) and ups: break
        kind, i = o[0], o[1]
        d = plan[i]
        if kind == 'meal':
            if (i, o[2]) in touched: continue
            n, c = _name_city(d[o[2]])
            x = _decoy('restaurants', c, used, rng)
            if not x: continue
            used.add(x); touched.add((i, o[2]))
            draft[i][o[2]] = f"{x}, {c}"
            ups.append(('meal', i, o[2], draft[i][o[2]], d[o[2]]))
        elif kind == 'swap':
            if (i, 'lunch') in touched or (i, 'dinner') in touched: continue
            touched |= {(i, 'lunch'), (i, 'dinner')}
            draft[i]['lunch'], draft[i]['dinner'] = d['dinner'], d['lunch']
            ups.append(('swap', i, d['lunch'], d['dinner']))
        elif kind == 'sight':
            if (i, 'attraction') in touched: continue
            at = _attractions(d['attraction'])
            k = rng.randrange(len(at))
            n, c = _name_city(at[k])
            x = _decoy('attractions', c, used, rng)
            if not x: continue
            used.add(x); touched.add((i, 'attraction'))
            at2 = list(at); at2[k] = f"{x}, {c}"
            draft[i]['attraction'] = ''.join(a + ';' for a in at2)
            ups.append(('sight', i, at2[k], at[k]))
        elif kind == 'road':
            if (i, 'transportation') in touched: continue
            p = _leg_parts(d['transportation'])
            other = 'drive' if p['mode'] == 'taxi' else 'taxi'
            cost = ix.road_cost(p['a'], p['b'], other == 'drive')
            if cost is None: continue
            rd = _road(d['transportation'])
            touched.add((i, 'transportation'))
            draft[i]['transportation'] = _leg_string(other, p['a'], p['b'], duration=rd['duration'], distance=rd['distance'], cost=cost)
            ups.append(('road', i, d['transportation']))
        elif kind == 'stay':
            a, b = o[1], o[2]
            if any((j, 'accommodation') in touched for j in range(a, b + 1)): continue
            n, c = _name_city(plan[a]['accommodation'])
            x = _decoy('accommodations', c, used, rng)
            if not x: continue
            used.add(x)
            for j in range(a, b + 1): touched.add((j, 'accommodation')); draft[j]['accommodation'] = f"{x}, {c}"
            ups.append(('stay', a, b, f"{x}, {c}", plan[a]['accommodation']))
    return draft, ups


def _update_line(u, plan, ph) -> str:
    kind, i = u[0], u[1]
    day = plan[i]['days']
    if kind == 'meal':
        return f"Swap Day {day}'s {u[2]} to {ph.venue(u[4])} (instead of {ph.venue(u[3])})."
    if kind == 'swap':
        return f"Day {day}: lunch and dinner trade places — lunch at {ph.venue(u[2])}, dinner at {ph.venue(u[3])}."
    if kind == 'sight':
        return f"Day {day}: visit {ph.venue(u[3])} instead of {ph.venue(u[2])} (same slot in the day)."
    if kind == 'road':
        p = _leg_parts(u[2])
        w = 'take a taxi' if p['mode'] == 'taxi' else 'drive yourself (self-driving)'
        return f"Day {day}: {w} instead — {p['a']} to {p['b']}, about {p['duration']}, ${p['cost']}."
    a, b = plan[u[1]]['days'], plan[u[2]]['days']
    nights = f"Night of Day {a}" if a == b else f"Nights of Day {a}–{b}"
    return f"{nights}: stay at {ph.venue(u[4])} instead of {ph.venue(u[3])}."


def draft_with_updates(plan, task, ph):
    """A first-pass plan (day blocks "Day 1 (Wed 16 Mar) · St. Petersburg → Rockford" with Travel / meal / Sights / Stay
    lines) that differs from the plan in one to three slots, then "**Update**" lines that replace exactly those slots
    ("Swap Day 2's lunch to X (instead of Y).", "Nights of Day 1–2: stay at X instead of Y.", "Day 3: visit B instead of
    A (same slot in the day).", "Day 1: take a taxi instead — A to B, about 3 hours, $300.", "Day 2: lunch and dinner
    trade places — lunch at X, dinner at Y."); everything else stands as written."""
    r = ph.rng
    draft, ups = _draft(plan, task, r)
    out = [r.choice(("Here's a first pass at your itinerary:", "Draft itinerary below (see the update at the end):")), '']
    for i, d in enumerate(draft):
        a, b = _cities(d['current_city'])
        out.append(f"Day {d['days']} ({_d(task, i, 'dm')}) · " + (f"{a} → {b}" if a != b else a))
        out += _day_lines(d, ph, indent='  ')
        out.append(f"  Stay: {ph.venue(d['accommodation']) if d['accommodation'] != '-' else 'none (last day)'}")
        out.append('')
    out += [r.choice(("**Update** — I re-checked availability; apply these changes (everything else stays as written above):",
                      "**Update (final):** a few corrections after checking again — the rest of the draft is unchanged:")), '']
    out += [f"{k}. {_update_line(u, plan, ph)}" for k, u in enumerate(ups, 1)]
    return '\n'.join(out + ['', r.choice(("With these changes the plan is final.", "That's the final version."))])


# foreign_labels -------------------------------------------------------------------------------------------------------
_LANG = {
    'de': dict(day='Tag', meals=('Frühstück', 'Mittagessen', 'Abendessen'), sights='Sehenswürdigkeiten', stay='Unterkunft',
               travel='Fahrt', city='Stadt', and_=' und ', then=', danach ', none='keine (Abreisetag)',
               wd=('Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag'),
               mo=('Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'),
               intro=("Hier ist Ihr Reiseplan:", "Gerne! Mein Vorschlag für die Reise:"), outro="Gute Reise!",
               units={'day': ('Tag', 'Tage'), 'hour': ('Std.', 'Std.'), 'min': ('Min.', 'Min.')}),
    'fr': dict(day='Jour', meals=('Petit-déjeuner', 'Déjeuner', 'Dîner'), sights='Visites', stay='Hébergement',
               travel='Trajet', city='ville', and_=' et ', then=', ensuite ', none='aucun (jour du retour)',
               wd=('lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'),
               mo=('janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'),
               intro=("Voici votre itinéraire :", "Avec plaisir ! Voici le programme proposé :"), outro="Bon voyage !",
               units={'day': ('jour', 'jours'), 'hour': ('h', 'h'), 'min': ('min', 'min')}),
    'es': dict(day='Día', meals=('Desayuno', 'Almuerzo', 'Cena'), sights='Lugares para visitar', stay='Alojamiento',
               travel='Traslado', city='ciudad', and_=' y ', then=', después ', none='ninguno (día de regreso)',
               wd=('lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'),
               mo=('enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'),
               intro=("Aquí tienes tu itinerario:", "¡Claro! Este es el plan propuesto:"), outro="¡Buen viaje!",
               units={'day': ('día', 'días'), 'hour': ('h', 'h'), 'min': ('min', 'min')}),
}


def _fdate(lg, task, i) -> str:
    d, L = _day0(task, i), _LANG[lg]
    if d is None: return f"{L['day']} {i + 1}"
    w, m = L['wd'][d.weekday()], L['mo'][d.month - 1]
    return {'de': f"{w}, {d.day}. {m} {d.year}", 'fr': f"{w} {d.day} {m} {d.year}", 'es': f"{w}, {d.day} de {m} de {d.year}"}[lg]


def _fdur(lg, s: str) -> str:
    "A duration ('3 hours 11 mins') in the language's units ('3 Std. 11 Min.', '3 h 11 min')."
    units = _LANG[lg]['units']
    return ' '.join(f"{n} {units[u][int(n) != 1]}" for n, u in re.findall(r'(\d+)\s*(day|hour|min)', s))


def _ftime(lg, hhmm: str) -> str: return hhmm.replace(':', 'h') if lg == 'fr' else hhmm


def _fleg(lg, t: str) -> str:
    p = _leg_parts(t)
    a, b, n = p['a'], p['b'], p['number']
    if p['mode'] == 'flight':
        dep, arr = _ftime(lg, p['dep']), _ftime(lg, p['arr'])
        return {'de': f"Flug {n} von {a} ({dep} Uhr) nach {b} (Ankunft {arr} Uhr)",
                'fr': f"Vol {n} de {a} ({dep}) à {b} (arrivée {arr})",
                'es': f"Vuelo {n} de {a} (salida {dep}) a {b} (llegada {arr})"}[lg]
    dur, c = _fdur(lg, p['duration']), p['cost']
    if p['mode'] == 'taxi':
        return {'de': f"Taxi von {a} nach {b}, ca. {dur}, {c} $", 'fr': f"Taxi de {a} à {b}, environ {dur}, {c} $",
                'es': f"Taxi de {a} a {b}, aprox. {dur}, {c} USD"}[lg]
    return {'de': f"Mit dem eigenen Auto von {a} nach {b}, ca. {dur}, {c} $",
            'fr': f"En voiture (conduite personnelle) de {a} à {b}, environ {dur}, {c} $",
            'es': f"En coche propio de {a} a {b}, aprox. {dur}, {c} USD"}[lg]


def _fvenue(lg, ph, v) -> str:
    n, c = _name_city(v)
    return f"{n} ({_LANG[lg]['city']}: {c})" if c and ph.loc == 'citykey' else ph.venue(v)


def _fitems(lg, ph, vs) -> str:
    xs, L = [_fvenue(lg, ph, a) for a in vs], _LANG[lg]
    if ph.join == 'oxford': return xs[0] if len(xs) == 1 else ', '.join(xs[:-1]) + L['and_'] + xs[-1]
    if ph.join == ', and after that ': return L['then'].join(xs)
    return ph.join.join(xs)


def _froute(lg, cc) -> str:
    a, b = _cities(cc)
    if a == b: return {'de': f"in {a}", 'fr': f"à {a}", 'es': f"en {a}"}[lg]
    return {'de': f"von {a} nach {b}", 'fr': f"de {a} à {b}", 'es': f"de {a} a {b}"}[lg]


def _fmeal(lg, ph, word, v) -> str:
    x = _fvenue(lg, ph, v)
    return {'dcolon': f'{word} :: {x}', 'guillemet': f'{word} » {x}', 'equals': f'{word} = {x}'}.get(ph.label, f'{word}: {x}')


def foreign_labels(plan, task, ph):
    """The answer in German, French or Spanish (one drawn per rendering): days "Tag 1 – Mittwoch, 16. März 2022 – von A
    nach B" / "Jour 1 — mercredi 16 mars 2022 — de A à B" / "Día 1 — miércoles, 16 de marzo de 2022 — de A a B"; labels
    Fahrt / Trajet / Traslado, the meal words (French 'Déjeuner' is lunch, 'Petit-déjeuner' breakfast), Sehenswürdigkeiten /
    Visites / Lugares para visitar, Unterkunft / Hébergement / Alojamiento; times 15h40 in French; durations in the
    language's units; names and cities verbatim."""
    r = ph.rng
    lg = r.choice(('de', 'fr', 'es'))
    L = _LANG[lg]
    sep = ' – ' if lg == 'de' else ' — '
    out = [r.choice(L['intro']), '']
    for i, d in enumerate(plan):
        out.append(f"**{L['day']} {d['days']}**{sep}{_fdate(lg, task, i)}{sep}{_froute(lg, d['current_city'])}")
        if d['transportation'] != '-': out.append(f"- {L['travel']}: {_fleg(lg, d['transportation'])}")
        out += [f"- {_fmeal(lg, ph, L['meals'][k], d[m])}" for k, m in enumerate(('breakfast', 'lunch', 'dinner')) if d[m] != '-']
        if (at := _attractions(d['attraction'])): out.append(f"- {L['sights']}: {_fitems(lg, ph, at)}")
        out.append(f"- {L['stay']}: {_fvenue(lg, ph, d['accommodation']) if d['accommodation'] != '-' else L['none']}")
        out.append('')
    return '\n'.join(out + [L['outro']])


HELDOUT7_LAYOUTS = {f.__name__: f for f in (python_literal, xml_days, indented_bullets, hotel_blocks, sentence_footnotes,
                                             constraints_bld, draft_with_updates, foreign_labels)}
"""Held-out part v7 (layouts and `HELDOUT7_PHRASES`, rendered with `Phr7`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr7(HELDOUT7_PHRASES, random.Random(f"heldout7:{name}:{t.idx}:{j}"), p)


def renderings7(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout7:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT7_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser below, written for the layout (not a general reader): python_literal and xml_days are
# rebuilt into the plan's own values and compared exactly; the others are cut into days and slots (by their markers,
# labels and positions), footnotes and updates resolved, and each slot compared with what the plan says it must hold.
_KEYS = ('current_city', 'transportation', 'breakfast', 'lunch', 'dinner', 'attraction', 'accommodation')


def _cmp(plan, got: list[dict], where='') -> list[str]:
    errs = [] if len(got) == len(plan) else [f"{where}{len(got)} days read for {len(plan)}"]
    for d, g in zip(plan, got):
        for k in g:
            w = d[k] if k != 'attraction' else ''.join(a + ';' for a in _attractions(d[k])) or '-'
            if g[k] != w: errs.append(f"{where}day {d['days']} {k}: {g[k]!r} != {w!r}")
        if missing := [k for k in _KEYS if k not in g]: errs.append(f"{where}day {d['days']}: no {missing}")
    return errs


def _block(text, lang) -> str: return text.split(f'```{lang}\n', 1)[1].split('\n```', 1)[0]


def _read_python(text, task):
    src = _block(text, 'python')
    assert src.startswith('itinerary = '), 'no itinerary assignment'
    doc = ast.literal_eval(src[len('itinerary = '):])
    vs = lambda x: '-' if x is None else f"{x[0]}, {x[1]}"
    out, errs = [], []
    for i, o in enumerate(doc['days']):
        if o['day'] != i + 1 or o['date'] != _d(task, i, 'iso'): errs.append(f"day {i + 1}: number / date {o['day']} {o['date']}")
        rt, lg = o['route'], o['leg']
        if lg is None: tr = '-'
        elif lg['mode'] == 'plane': tr = _leg_string('flight', lg['from'], lg['to'], lg['flight_no'], lg['dep'], lg['arr'])
        else: tr = _leg_string('taxi' if lg['mode'] == 'taxi' else 'drive', lg['from'], lg['to'], duration=lg['duration'],
                               distance=lg['distance'], cost=lg['cost_usd'])
        out.append({'current_city': rt if isinstance(rt, str) else f"from {rt[0]} to {rt[1]}", 'transportation': tr,
                    **{m: vs(o['meals'][m]) for m in ('breakfast', 'lunch', 'dinner')},
                    'attraction': ''.join(vs(x) + ';' for x in o['see']) or '-', 'accommodation': vs(o['sleep'])})
        if set(o['meals']) != {'breakfast', 'lunch', 'dinner'}: errs.append(f"day {i + 1}: meal keys {sorted(o['meals'])}")
    return out, errs


def _attrs(s: str) -> dict: return {k: v.replace('&quot;', '"') for k, v in re.findall(r'(\w+)="([^"]*)"', s)}


def _read_xml(text, task):
    body = _block(text, 'xml')
    out, errs = [], []
    days = re.findall(r'<day n="(\d+)" date="([^"]*)">\n(.*?)\n  </day>', body, re.S)
    for i, (n, date, inner) in enumerate(days):
        if int(n) != i + 1 or date != _d(task, i, 'iso'): errs.append(f"day {i + 1}: n / date {n} {date}")
        g = {}
        rt = _attrs(re.search(r'<route ([^>]*)/>', inner).group(1))
        g['current_city'] = rt['city'] if 'city' in rt else f"from {rt['from']} to {rt['to']}"
        lg = re.search(r'<leg ([^>]*)/>', inner)
        if lg:
            a = _attrs(lg.group(1))
            g['transportation'] = (_leg_string('flight', a['from'], a['to'], a['number'], a['depart'], a['arrive']) if a['mode'] == 'flight'
                                   else _leg_string('taxi' if a['mode'] == 'taxi' else 'drive', a['from'], a['to'],
                                                    duration=a['duration'], distance=a['distance'], cost=a['cost']))
        else: g['transportation'] = '-'
        meals = re.findall(r'<meal type="(\w+)" city="([^"]*)">(.*?)</meal>', inner)
        for m in ('breakfast', 'lunch', 'dinner'):
            hit = [f"{x}, {c}" for t, c, x in meals if t == m]
            if len(hit) > 1: errs.append(f"day {i + 1}: {m} twice")
            g[m] = hit[0] if hit else '-'
            if not hit and f'<meal type="{m}"/>' not in inner and f'<!-- no {m} booked -->' not in inner:
                errs.append(f"day {i + 1}: {m} neither given nor marked empty")
        g['attraction'] = ''.join(f"{x}, {c};" for c, x in re.findall(r'<sight city="([^"]*)">(.*?)</sight>', inner)) or '-'
        st = re.findall(r'<lodging city="([^"]*)">(.*?)</lodging>', inner)
        g['accommodation'] = f"{st[0][1]}, {st[0][0]}" if len(st) == 1 else '-'
        if len(st) > 1: errs.append(f"day {i + 1}: two lodgings")
        out.append(g)
    return out, errs


def _labels(ph, words):
    "The meal-label prefixes of `ph`'s draw for the meal words `words` (breakfast, lunch, dinner order)."
    sep = {'dcolon': ' :: ', 'guillemet': ' » ', 'equals': ' = '}.get(ph.label, ': ')
    return [w + sep for w in words]


def _meal_slots(lines, ph, words=('Breakfast', 'Lunch', 'Dinner')) -> tuple[dict, list[str]]:
    "{meal: venue text} of the lines that start with a meal label; and the lines left over."
    slots, rest = {}, []
    for ln in lines:
        hit = [(m, ln[len(p):]) for m, p in zip(('breakfast', 'lunch', 'dinner'), _labels(ph, words)) if ln.startswith(p)]
        if len(hit) == 1 and hit[0][0] not in slots: slots[hit[0][0]] = hit[0][1]
        else: rest.append(ln)
    return slots, rest


def _want(d, ph, leg_style, venue=None, items=None, meal_none=None) -> dict:
    "The slots of day `d` as a layout writes them: leg text, venue text of each meal / the stay, the joined sights."
    venue, items = venue or ph.venue, items or ph.items
    w = {'transportation': _leg7(d['transportation'], leg_style) if d['transportation'] != '-' and leg_style else None}
    for m in ('breakfast', 'lunch', 'dinner'): w[m] = venue(d[m]) if d[m] != '-' else meal_none
    at = _attractions(d['attraction'])
    w['attraction'] = items(at) if at else None
    w['accommodation'] = venue(d['accommodation']) if d['accommodation'] != '-' else None
    return w


def _slot_errs(d, got: dict, want: dict, where='') -> list[str]:
    errs = [f"day {d['days']}{where} {k}: {got.get(k)!r} != {v!r}" for k, v in want.items() if got.get(k) != v]
    # independently of the phrasing: each name (and its city) verbatim in its own slot
    for k in ('breakfast', 'lunch', 'dinner', 'accommodation', 'attraction'):
        for v in (_attractions(d[k]) if k == 'attraction' else [d[k]] if d[k] != '-' else []):
            n, c = _name_city(v)
            if k in got and got[k] is not None and not (n in got[k] and c in got[k]): errs.append(f"day {d['days']} {k}: {n!r} / {c!r} not in its slot")
    return errs


def _read_bullets(text, task, plan, ph):
    errs, days = [], []
    for ln in text.splitlines():
        if (m := re.match(r'\* Day (\d+) \(([^)]*)\): (.*)$', ln)): days.append([m.groups(), []])
        elif ln.startswith('    - ') and days: days[-1][1].append([ln[6:], []])
        elif ln.startswith('        * ') and days and days[-1][1]: days[-1][1][-1][1].append(ln[10:])
        elif ln.startswith((' ', '*', '-')): errs.append(f"stray line {ln!r}")
    if len(days) != len(plan): return errs + [f"{len(days)} days for {len(plan)}"]
    for i, (d, ((n, date, route), groups)) in enumerate(zip(plan, days)):
        a, b = _cities(d['current_city'])
        if (n, date, route) != (str(d['days']), _d(task, i, 'us'), f"{a} to {b}" if a != b else f"{a} (full day)"):
            errs.append(f"day {d['days']}: head {(n, date, route)}")
        got = {}
        for g, items in groups:
            if g == _GROUPS[0] and len(items) == 1: got['transportation'] = items[0]
            elif g in ('Breakfast', 'Lunch', 'Dinner') and len(items) == 1 and g.lower() not in got: got[g.lower()] = items[0]
            elif g == _GROUPS[1]:
                slots, rest = _meal_slots(items, ph)
                if rest or set(slots) & set(got): errs.append(f"day {d['days']}: food items {rest}")
                got.update(slots)
            elif g == _GROUPS[2] and 'attraction' not in got: got['attraction'] = '\n'.join(items)
            elif g == _GROUPS[3] and len(items) == 1: got['accommodation'] = items[0]
            else: errs.append(f"day {d['days']}: group {g!r} with {items}")
        errs += _slot_errs(d, got, _want(d, ph, 'bullet', items=lambda at: '\n'.join(ph.venue(x) for x in at)))
    return errs


def _day_slots(lines, ph, travel='Travel: ', sights='Sights: ', stay=None, words=('Breakfast', 'Lunch', 'Dinner')):
    "Slots of a day's labelled lines (travel, meals, sights, stay); the lines left over."
    slots, rest = _meal_slots(lines, ph, words)
    left = []
    for ln in rest:
        for k, p in (('transportation', travel), ('attraction', sights), ('accommodation', stay)):
            if p and ln.startswith(p) and k not in slots: slots[k] = ln[len(p):]; break
        else: left.append(ln)
    return slots, left


def _read_hotels(text, task, plan, ph):
    errs, blocks = [], []
    for ln in text.splitlines():
        if ln.startswith('━━ '):
            m = re.match(r'━━ Stay (\d+) of (\d+): (.*) ━━$', ln)
            blocks.append({'stay': m.group(3) if m else None, 'nights': None, 'days': [], 'head': ln})
        elif ln.startswith('Nights: ') and blocks: blocks[-1]['nights'] = ln
        elif ln.startswith('  ▸ ') and blocks: blocks[-1]['days'].append([ln[4:], []])
        elif ln.startswith('      ') and blocks and blocks[-1]['days']: blocks[-1]['days'][-1][1].append(ln[6:])
    seen = [(b, x) for b in blocks for x in b['days']]
    if len(seen) != len(plan): return [f"{len(seen)} days for {len(plan)}"]
    for i, (d, (b, (head, lines))) in enumerate(zip(plan, seen)):
        a, c = _cities(d['current_city'])
        if head != f"Day {d['days']} · {_d(task, i, 'dm')} · " + (f"{a} to {c}" if a != c else f"in {a}"):
            errs.append(f"day {d['days']}: head {head!r}")
        got, left = _day_slots(lines, ph)
        if left and left != ['(free day)']: errs.append(f"day {d['days']}: stray {left}")
        got['accommodation'] = b['stay']
        if b['stay'] is None and 'no hotel' not in b['head'].lower(): errs.append(f"day {d['days']}: block {b['head']!r}")
        if b['stay'] is not None and (not b['nights'] or f"Day {d['days']}" not in re.split(r', | and ', b['nights'][8:].split(' (')[0])):
            errs.append(f"day {d['days']}: not among the block's nights {b['nights']!r}")
        errs += _slot_errs(d, got, _want(d, ph, 'plain'))
    for b in blocks:                         # each block's "Nights:" line names exactly its days
        if b['stay'] is not None:
            named = re.split(r', | and ', b['nights'][8:].split(' (')[0])
            if named != [x[0].split(' · ')[0] for x in b['days']]: errs.append(f"block {b['head']!r}: nights {named}")
    return errs


_SUP_RE = '[⁰¹²³⁴⁵⁶⁷⁸⁹]+'


def _read_footnotes(text, task, plan, ph):
    body, _, notes = text.rpartition('\n---\n')
    errs, fn = [], {}
    for ln in notes.splitlines():
        m = re.match(rf'({_SUP_RE}) (.*) \(([^()]*)\)(?: — [^()]*)?$', ln)
        if not m: errs.append(f"note {ln!r} unreadable"); continue
        k = int(m.group(1).translate(_UNSUP))
        if k in fn: errs.append(f"note {k} twice")
        fn[k] = (m.group(2), m.group(3))
    if sorted(fn) != list(range(1, len(fn) + 1)): errs.append(f"notes numbered {sorted(fn)}")
    num = {v: k for k, v in fn.items()}
    paras = [p.strip() for p in body.split('\n\n') if p.startswith('**Day ')]
    if len(paras) != len(plan): return errs + [f"{len(paras)} day paragraphs for {len(plan)}"]
    for i, (d, s) in enumerate(zip(plan, paras)):
        head = f"**Day {d['days']} — {_d(task, i, 'long')}.** On day {_ORD[i]}"
        if not s.startswith(head) or not s.endswith('.') or '\n' in s: errs.append(f"day {d['days']}: not one sentence under its head"); continue
        used = set(int(x.translate(_UNSUP)) for x in re.findall(_SUP_RE, s))
        want = set()
        def marked(v):
            n, c = _name_city(v)
            if (n, c) not in num: errs.append(f"day {d['days']}: no note for {n!r} ({c})"); return None
            want.add(num[(n, c)])
            return f"{n}{_sup(num[(n, c)])}"
        for m in ('breakfast', 'lunch', 'dinner'):
            if d[m] != '-' and (x := marked(d[m])) and not any(tpl.format(x) in s for tpl in _MEAL_TPL[m]):
                errs.append(f"day {d['days']}: {m} {x!r} not said as {m}")
        for a in _attractions(d['attraction']):
            if (x := marked(a)) and not re.search(r'(?:' + '|'.join(re.escape(t.format('')) for t in _SIGHT_TPL) + r')[^,]*?' + re.escape(x) + r'|' + re.escape(x) + r'(?:, | and )', s):
                errs.append(f"day {d['days']}: sight {x!r} not among the sights")
        if d['accommodation'] != '-' and (x := marked(d['accommodation'])) and not any(t.format(x) in s for t in _STAY_TPL + _BACK_TPL):
            errs.append(f"day {d['days']}: stay {x!r} not said as the night's stay")
        if used != want: errs.append(f"day {d['days']}: markers {sorted(used)} != {sorted(want)}")
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            w = (f"fly from {p['a']} to {p['b']} on flight {p['number']}, leaving at {p['dep']} and landing at {p['arr']}" if p['mode'] == 'flight'
                 else f"{'take a taxi' if p['mode'] == 'taxi' else 'drive yourself'} from {p['a']} to {p['b']} (about {p['duration']}, ${p['cost']})")
            if w not in s: errs.append(f"day {d['days']}: leg not stated")
        elif f"staying in {d['current_city']} all day" not in s and f"free day in {d['current_city']}" not in s:
            errs.append(f"day {d['days']}: city not stated")
    return errs


def _read_bld(text, task, plan, ph):
    errs, days = [], []
    for ln in text.split('(B/L/D = breakfast / lunch / dinner; — = none)', 1)[1].splitlines():
        if (m := re.match(r'(\d+)\. (.+?) — (.+)$', ln)): days.append([m.groups(), []])
        elif ln.startswith('   ') and days: days[-1][1].append(ln[3:])
    if len(days) != len(plan): return [f"{len(days)} days for {len(plan)}"]
    for i, (d, ((n, date, route), lines)) in enumerate(zip(plan, days)):
        a, b = _cities(d['current_city'])
        if (n, date, route) != (str(d['days']), _d(task, i, 'dm'), f"{a} → {b}" if a != b else a): errs.append(f"day {d['days']}: head {(n, date, route)}")
        got, left = _day_slots(lines, ph, sights='See: ', stay='Bed: ', words=())
        bld = [x for x in left if x.startswith('B/L/D: ')]
        if len(bld) != 1 or len(left) != 1: errs.append(f"day {d['days']}: lines {left}"); continue
        slots = bld[0][7:].split(' / ')
        if len(slots) != 3: errs.append(f"day {d['days']}: B/L/D has {len(slots)} slots"); continue
        got.update(zip(('breakfast', 'lunch', 'dinner'), slots))
        if got.get('accommodation') == '— (no overnight)': got['accommodation'] = None
        errs += _slot_errs(d, got, _want(d, ph, 'short', meal_none='—'))
    return errs


def _read_draft(text, task, plan, ph):
    "The draft read into slots, then the updates applied (each update's 'instead of' must be what the draft says)."
    draft_txt, sep, upd = text.partition('\n**Update')
    if not sep: return ['no update section']
    errs, days = [], []
    for ln in draft_txt.splitlines():
        if (m := re.match(r'Day (\d+) \(([^)]*)\) · (.+)$', ln)): days.append([m.groups(), []])
        elif ln.startswith('  ') and days: days[-1][1].append(ln[2:])
    if len(days) != len(plan): return [f"{len(days)} draft days for {len(plan)}"]
    got = []
    for i, (d, ((n, date, route), lines)) in enumerate(zip(plan, days)):
        a, b = _cities(d['current_city'])
        if (n, date, route) != (str(d['days']), _d(task, i, 'dm'), f"{a} → {b}" if a != b else a): errs.append(f"day {d['days']}: head {(n, date, route)}")
        g, left = _day_slots(lines, ph, stay='Stay: ')
        if left: errs.append(f"day {d['days']}: stray {left}")
        if g.get('accommodation') == 'none (last day)': g['accommodation'] = None
        got.append(g)
    def at(day):
        k = int(day) - 1
        if not 0 <= k < len(got): raise ValueError(f"update names day {day}")
        return got[k]
    def replace(g, k, old, new, what):
        if g.get(k) != old: errs.append(f"update {what}: the draft says {g.get(k)!r}, not {old!r}")
        g[k] = new
    lines = [ln.split('. ', 1)[1] for ln in upd.splitlines() if re.match(r'\d+\. ', ln)]
    if not lines: errs.append('no update lines')
    for ln in lines:
        if (m := re.match(r"Swap Day (\d+)'s (breakfast|lunch|dinner) to (.+) \(instead of (.+)\)\.$", ln)):
            replace(at(m.group(1)), m.group(2), m.group(4), m.group(3), ln)
        elif (m := re.match(r"Day (\d+): lunch and dinner trade places — lunch at (.+), dinner at (.+)\.$", ln)):
            g = at(m.group(1))
            replace(g, 'lunch', m.group(3), m.group(2), ln); replace(g, 'dinner', m.group(2), m.group(3), ln)
        elif (m := re.match(r"Day (\d+): visit (.+) instead of (.+) \(same slot in the day\)\.$", ln)):
            g = at(m.group(1))
            xs = (g.get('attraction') or '').split(ph.join) if ph.join != 'oxford' else None
            if xs is None:                       # an Oxford list: the old sight's text replaced where it stands
                s = g.get('attraction') or ''
                if s.count(m.group(3)) != 1: errs.append(f"update {ln}: {m.group(3)!r} not once among the sights")
                g['attraction'] = s.replace(m.group(3), m.group(2))
            else:
                if xs.count(m.group(3)) != 1: errs.append(f"update {ln}: {m.group(3)!r} not once among the sights")
                g['attraction'] = ph.join.join(m.group(2) if x == m.group(3) else x for x in xs)
        elif (m := re.match(r"Day (\d+): (take a taxi|drive yourself \(self-driving\)) instead — (.+) to (.+), about (.+), \$(.+)\.$", ln)):
            w = 'Taxi' if m.group(2) == 'take a taxi' else 'Self-drive'
            g = at(m.group(1))
            if not (g.get('transportation') or '').startswith(('Taxi', 'Self-drive')) or g['transportation'].startswith(w):
                errs.append(f"update {ln}: the draft's leg {g.get('transportation')!r}")
            g['transportation'] = f"{w} from {m.group(3)} to {m.group(4)} (about {m.group(5)}, ${m.group(6)})"
        elif (m := re.match(r"(?:Night of Day (\d+)|Nights of Day (\d+)–(\d+)): stay at (.+) instead of (.+)\.$", ln)):
            lo, hi = (m.group(1), m.group(1)) if m.group(1) else (m.group(2), m.group(3))
            for k in range(int(lo), int(hi) + 1): replace(at(k), 'accommodation', m.group(5), m.group(4), ln)
        else: errs.append(f"update line unreadable: {ln!r}")
    for d, g in zip(plan, got): errs += _slot_errs(d, g, _want(d, ph, 'plain'))
    return errs


def _read_foreign(text, task, plan, ph):
    lg = next((k for k, L in _LANG.items() if text.count(f"**{L['day']} 1**")), None)
    if lg is None: return ['language not found']
    L = _LANG[lg]
    sep = ' – ' if lg == 'de' else ' — '
    errs, days = [], []
    for ln in text.splitlines():
        if ln.startswith(f"**{L['day']} "): days.append([ln, []])
        elif ln.startswith('- ') and days: days[-1][1].append(ln[2:])
    if len(days) != len(plan): return [f"{len(days)} days for {len(plan)}"]
    venue = lambda v: _fvenue(lg, ph, v)
    for i, (d, (head, lines)) in enumerate(zip(plan, days)):
        if head != f"**{L['day']} {d['days']}**{sep}{_fdate(lg, task, i)}{sep}{_froute(lg, d['current_city'])}": errs.append(f"day {d['days']}: head {head!r}")
        got, left = _day_slots(lines, ph, travel=f"{L['travel']}: ", sights=f"{L['sights']}: ", stay=f"{L['stay']}: ", words=L['meals'])
        if left: errs.append(f"day {d['days']}: stray {left}")
        if got.get('accommodation') == L['none']: got['accommodation'] = None
        want = _want(d, ph, None, venue=venue, items=lambda at: _fitems(lg, ph, at))
        want['transportation'] = _fleg(lg, d['transportation']) if d['transportation'] != '-' else None
        errs += _slot_errs(d, got, want)
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            need = [p['number'], _ftime(lg, p['dep']), _ftime(lg, p['arr'])] if p['mode'] == 'flight' else [_fdur(lg, p['duration']), p['cost']]
            errs += [f"day {d['days']}: leg lacks {x!r}" for x in need + [p['a'], p['b']] if x not in (got.get('transportation') or '')]
    return errs


_READERS = {'indented_bullets': _read_bullets, 'hotel_blocks': _read_hotels, 'sentence_footnotes': _read_footnotes,
            'constraints_bld': _read_bld, 'draft_with_updates': _read_draft, 'foreign_labels': _read_foreign}


def _check_one(name, task, plan, text, ph) -> list[str]:
    "Errors of one rendering (empty = faithful as far as this reader-free check can tell)."
    errs = []
    if 'None' in text and name != 'python_literal' and not any('None' in x for d in plan for x in d.values() if isinstance(x, str)):
        errs.append("'None' in the text")
    try:
        if name == 'python_literal': got, e = _read_python(text, task); return errs + e + _cmp(plan, got)
        if name == 'xml_days': got, e = _read_xml(text, task); return errs + e + _cmp(plan, got)
        return errs + _READERS[name](text, task, plan, ph)
    except (IndexError, KeyError, ValueError, TypeError, AttributeError, AssertionError, SyntaxError) as e:
        return errs + [f"does not parse back: {e!r}"]


def _swap(text, a, b):
    if not a or not b or a == b or a in b or b in a or a not in text or b not in text: return None
    return text.replace(a, '\0').replace(b, a).replace('\0', b)


_RELABEL = {'python_literal': ("'lunch':", "'dinner':"), 'xml_days': ('type="lunch"', 'type="dinner"'),
            'indented_bullets': ('Lunch', 'Dinner'), 'hotel_blocks': ('Lunch', 'Dinner'), 'sentence_footnotes': ('lunch at', 'dinner at'),
            'draft_with_updates': ('Lunch', 'Dinner')}


def mutations(name, plan, text):
    """[(what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a flight
    renumbered, sights of two days swapped, two stays swapped, a lunch label turned into dinner; and per layout a
    footnote renumbered (sentence_footnotes), an update dropped (draft_with_updates), a B/L/D slot shifted."""
    out = []
    nm = lambda v: _name_city(v)[0].strip()
    mid = plan[len(plan) // 2]
    for k in ('attraction', 'lunch', 'dinner', 'breakfast'):
        v = _attractions(mid[k])[0] if k == 'attraction' and _attractions(mid[k]) else mid[k] if k != 'attraction' else '-'
        if v != '-' and nm(v) in text: out.append((f"delete {k} {nm(v)!r}", text.replace(nm(v), ''))); break
    lunch = [d for d in plan if d['lunch'] != '-']
    for x, y in ((x, y) for i, x in enumerate(lunch) for y in lunch[i + 1:]):
        if (s := _swap(text, nm(x['lunch']), nm(y['lunch']))): out.append((f"swap lunches of days {x['days']} and {y['days']}", s)); break
    for d in plan:
        if d['lunch'] != '-' and d['dinner'] != '-' and (s := _swap(text, nm(d['lunch']), nm(d['dinner']))):
            out.append((f"swap lunch and dinner of day {d['days']}", s)); break
    fl = [_leg_parts(d['transportation'])['number'] for d in plan if d['transportation'].startswith('Flight')]
    if fl and fl[0] in text: out.append((f"renumber flight {fl[0]}", text.replace(fl[0], fl[0][:-1] + str((int(fl[0][-1]) + 1) % 10))))
    atts = [(d, _attractions(d['attraction'])) for d in plan if _attractions(d['attraction'])]
    if len(atts) > 1 and (s := _swap(text, nm(atts[0][1][0]), nm(atts[-1][1][-1]))):
        out.append((f"swap a sight of day {atts[0][0]['days']} with one of day {atts[-1][0]['days']}", s))
    stays = list(dict.fromkeys(nm(d['accommodation']) for d in plan if d['accommodation'] != '-'))
    if len(stays) > 1 and (s := _swap(text, stays[0], stays[1])): out.append(("swap two stays", s))
    a, b = _RELABEL.get(name, (None, None))
    if a and a in text: out.append(("a lunch label made dinner", text.replace(a, b, 1)))
    if name == 'sentence_footnotes' and '\n---\n¹ ' in text and '\n²' in text:
        out.append(("footnote 1 renumbered 2", text.replace('\n---\n¹ ', '\n---\n² ')))
    if name == 'draft_with_updates':
        lines = text.split('\n')
        k = max(i for i, ln in enumerate(lines) if re.match(r'\d+\. ', ln))
        out.append(("last update dropped", '\n'.join(lines[:k] + lines[k + 1:])))
    if name == 'constraints_bld' and (m := re.search(r'B/L/D: ([^—\n][^\n]*?) / ([^\n]+?) / ', text)):
        out.append(("B/L/D slots shifted", text[:m.start()] + f"B/L/D: — / {m.group(1)} / " + text[m.end():]))
    if name == 'foreign_labels':
        for L in _LANG.values():
            if f"- {L['meals'][1]}" in text: out.append(("lunch word made dinner", text.replace(f"- {L['meals'][1]}", f"- {L['meals'][2]}", 1)))
    return out


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    """Render every known plan with every layout and check it (no reader involved); then corrupt renderings
    (`mutations`) and count the corruptions the check misses. Returns failures + missed corruptions."""
    from collections import Counter
    plans = plans or known_plans()
    n, bad, draws, tried, caught = Counter(), Counter(), Counter(), Counter(), Counter()
    for j, (kind, t, p) in enumerate(plans):
        for lay, f in HELDOUT7_LAYOUTS.items():
            ph = _phr(lay, t, j, p)
            draws[('locative', ph.loc)] += 1; draws[('join', ph.join)] += 1; draws[('meal_label', ph.label)] += 1
            text = f(p, t, ph)
            n[lay] += 1
            errs = _check_one(lay, t, p, text, _phr(lay, t, j, p))
            if errs:
                bad[lay] += 1
                if bad[lay] <= 3: print(f"FAIL {lay} {kind} task {t.idx} plan {j}: {errs[:4]}")
            if j % mutate_every: continue
            for what, bad_text in mutations(lay, p, text):
                tried[lay] += 1
                if _check_one(lay, t, p, bad_text, _phr(lay, t, j, p)): caught[lay] += 1
                elif tried[lay] - caught[lay] <= 2: print(f"MISSED {lay} {kind} task {t.idx} plan {j}: {what}")
    print(f"{len(plans)} plans ({dict(Counter(k for k, _, _ in plans))})")
    for lay in HELDOUT7_LAYOUTS:
        print(f"  {lay:19s} {n[lay]:4d} renderings, {bad[lay]} failing; corruptions caught {caught[lay]}/{tried[lay]}")
    print('  phrasing draws:', dict(sorted(draws.items())))
    missed = sum(tried.values()) - sum(caught.values())
    tot = sum(bad.values())
    print('SELF-CHECK', 'OK' if not tot and not missed else f'FAILED ({tot} failing, {missed} corruptions missed)',
          f'— {sum(n.values())} renderings, {sum(caught.values())}/{sum(tried.values())} corruptions caught')
    return tot + missed


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    sub.add_parser('check')
    p = sub.add_parser('show'); p.add_argument('layout', choices=list(HELDOUT7_LAYOUTS)); p.add_argument('--n', type=int, default=1)
    p.add_argument('--kind', default='gold'); p.add_argument('--skip', type=int, default=0)
    p.add_argument('--days', type=int, default=0, help='only plans of this many days')
    a = ap.parse_args()
    if a.cmd == 'check': sys.exit(1 if selfcheck() else 0)
    picked = [(j, x) for j, x in enumerate(known_plans()) if x[0] == a.kind and (not a.days or len(x[2]) == a.days)][a.skip:a.skip + a.n]
    for j, (kind, t, p) in picked:             # seeded with the plan's index j among all known plans, as in the part
        print(f"[{a.layout} | {kind} | task {t.idx} | plan {j}]\n")
        print(HELDOUT7_LAYOUTS[a.layout](p, t, _phr(a.layout, t, j, p)))
        print('-' * 80)
