#!/usr/bin/env python
"""Held-out part v5 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written 2026-12-06 by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their
notebooks, tests or results were opened, and no reader was run on these texts). SEALED: this part is to be scored ONCE
(by the lead, via tools/layouts.py once registered there as part 'heldout5') and never tuned on before that score.

    python tools/layouts_v5.py check                   # self-check, no reader: every name / flight number verbatim,
                                                       # each day's items inside that day, days in order
    python tools/layouts_v5.py show csv_block --n 1    # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how today's chat models answer "plan me a 3/5/7-day trip", in styles that tools/layouts.py does not
have (see each renderer's docstring):

* `csv_block`         a CSV code block (start_city / end_city columns, hotel column before the meals)
* `transposed_table`  a markdown table with the days as COLUMNS and the fields as rows, `<br>` between sights
* `long_table`        one long table, one row per activity, day and date only on a day's first row, name and city in
                      separate columns (no locative at all)
* `nested_headers`    `### Wed, Mar 16 (Day 1) · A → B` with `#### Getting there / Eat / See / Sleep` sub-headers
* `legs_first`        all transport legs first ("Flights & transfers", numbered), days refer back to "leg #k above"
* `chatty_budget`     preamble, per-day paragraphs with the meals in sentences, a closing budget table that repeats
                      venue names and flight numbers with prices (not to be counted twice), tips
* `ordinal_sleep_recap`  "First day — Wednesday, March 16", no hotel in the days; a closing "Where you'll sleep" recap by
                      check-in / check-out dates
* `think_then_answer` a reasoning-model answer: a `<think>` block that lists the plan's venues pooled and shuffled (not
                      by day), then the final itinerary with "+" bullets and US numeric dates

Phrasings (`HELDOUT5_PHRASES`, drawn per rendering by `Phr5`): venue placed as 'X [City]', 'X, which is in City',
"City's X" or 'X, City'; several sights joined by ', followed by ', ' ▸ ', ' and also ', ', along with '; meal labels
'_Lunch:_ X', 'LUNCH · X', '[Lunch] X', 'Lunch is at X'. Every rendering states the whole plan: each day's route, the
leg (flight number and times, or self-drive / taxi with duration and cost), each meal's restaurant, each attraction and
the accommodation; the noise (intros, tips, budget, reasoning) never contradicts it.
"""
from __future__ import annotations

import argparse, csv, datetime, io, random, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _name_city, known_plans, day_date as _day0                # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT5_PHRASES = {
    'locative': ('bracket', 'which_is', 'possessive', 'comma'),   # 'X [City]' | 'X, which is in City' | "City's X" | 'X, City'
    'join': (', followed by ', ' ▸ ', ' and also ', ', along with '),
    'meal_label': ('italic', 'caps', 'bracket', 'sentence'),      # '_Lunch:_ X' | 'LUNCH · X' | '[Lunch] X' | 'Lunch is at X'
}


class Phr5(Phr):
    "`Phr` with the v5 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        n, c = _name_city(v)
        if c and self.loc in ('bracket', 'which_is', 'possessive'):
            return {'bracket': f'{n} [{c}]', 'which_is': f'{n}, which is in {c}', 'possessive': f"{c}'s {n}"}[self.loc]
        return super().venue(v)

    def meal(self, label: str, v: str) -> str:
        x = self.venue(v)
        if self.label == 'italic': return f'_{label}:_ {x}'
        if self.label == 'caps': return f'{label.upper()} · {x}'
        if self.label == 'bracket': return f'[{label}] {x}'
        if self.label == 'sentence': return f'{label} is at {x}'
        return super().meal(label, v)


PHR5 = Phr5

# -------------------------------------------------------------------------------------------------------------- helpers
def _d(task, i: int, fmt: str) -> str:
    "Date of day i in one of the formats: 'wkd' 'Wed, Mar 16' | 'long' 'Wednesday, March 16' | 'us' '3/16/2022' | 'iso'."
    d = _day0(task, i)
    if d is None: return f'day {i + 1}'
    return {'wkd': f"{d:%a}, {d:%b} {d.day}", 'long': f"{d:%A}, {d:%B} {d.day}", 'us': f"{d.month}/{d.day}/{d.year}",
            'md': f"{d:%B} {d.day}", 'iso': d.isoformat()}[fmt]


def _cities(cc: str) -> tuple[str, str]:
    "(start city, end city) of a current_city value ('from A to B' or 'A')."
    if cc.startswith('from ') and ' to ' in cc:
        a, _, b = cc[5:].partition(' to ')
        return a, b
    return cc, cc


def _route(cc: str, arrow: str = ' → ') -> str:
    a, b = _cities(cc)
    return a if a == b else f'{a}{arrow}{b}'


def _meals(d) -> list[tuple[str, str]]: return [(m, d[m]) for m in ('breakfast', 'lunch', 'dinner') if d[m] != '-']


def _leg(t: str, style: str) -> str:
    "A transportation value in the v5 wordings (flight number and times; self-drive or taxi with duration and cost)."
    p = _leg_parts(t)
    a, b, n = p['a'], p['b'], p['number']
    if p['mode'] == 'flight':
        return {'short': f"✈️ {n} · {a} {p['dep']} → {b} {p['arr']}",
                'sentence': f"Catch flight {n} out of {a} at {p['dep']}; you'll land in {b} at {p['arr']}.",
                'cell': f"flight {n} (dep {p['dep']}, arr {p['arr']})",
                'plain': f"Flight {n}: leaves {a} at {p['dep']}, lands in {b} at {p['arr']}"}[style]
    if p['mode'] == 'taxi':
        return {'short': f"🚕 Taxi {a} → {b} · {p['duration']} · ~${p['cost']}",
                'sentence': f"Hop in a taxi from {a} to {b} (about {p['duration']}, around ${p['cost']}).",
                'cell': f"taxi ({p['duration']}, ${p['cost']})",
                'plain': f"Taxi from {a} to {b}: about {p['duration']}, around ${p['cost']}"}[style]
    return {'short': f"🚗 Self-drive {a} → {b} · {p['duration']} · ~${p['cost']}",
            'sentence': f"Drive yourself from {a} to {b}, about {p['duration']} on the road (roughly ${p['cost']} in fuel).",
            'cell': f"self-drive ({p['duration']}, ${p['cost']})",
            'plain': f"Self-drive from {a} to {b}: about {p['duration']}, roughly ${p['cost']}"}[style]


def _runs(plan):
    "[(first day index, last day index, accommodation)]: consecutive nights at the same place (0-based day indices)."
    runs = []
    for i, d in enumerate(plan):
        a = d['accommodation']
        if a == '-': continue
        if runs and runs[-1][2] == a and runs[-1][1] == i - 1: runs[-1][1] = i
        else: runs.append([i, i, a])
    return runs


def _cell(s: str) -> str: return s.replace('|', '\\|')     # a markdown table cell: '|' escaped as markdown does


def _trip_name(plan, task) -> str:
    ends = [_cities(d['current_city'])[1] for d in plan]
    seen = [c for k, c in enumerate(ends) if c and c not in ends[:k] and c != getattr(task, 'org', None)]
    if len(seen) > 1: return ', '.join(seen[:-1]) + ' and ' + seen[-1]
    return (seen or [getattr(task, 'dest', '') or 'your destination'])[0]


# -------------------------------------------------------------------------------------------------------------- layouts
def csv_block(plan, task, ph):
    """A CSV code block, one row per day: start_city / end_city (equal on a day spent in one city), the leg, the hotel
    BEFORE the meals, sights last; empty cell = nothing planned."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator='\n')
    w.writerow(['date', 'day', 'start_city', 'end_city', 'transport', 'hotel', 'breakfast', 'lunch', 'dinner', 'sights'])
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        v = lambda k: ph.venue(d[k]) if d[k] != '-' else ''
        w.writerow([_d(task, i, 'iso'), d['days'], a, b, _leg(d['transportation'], 'cell') if d['transportation'] != '-' else '',
                    v('accommodation'), v('breakfast'), v('lunch'), v('dinner'), ph.items(_attractions(d['attraction']))])
    intro = ph.rng.choice(("Sure! Here's the itinerary as CSV so you can paste it straight into Google Sheets or Excel:",
                           "Below is the full plan in CSV format (one row per day):"))
    return '\n'.join([intro, '', '```csv', buf.getvalue().rstrip('\n'), '```', '',
                      "A blank cell means nothing is booked for that slot; when start_city and end_city are the same you "
                      "spend the whole day there.", '', "Have a great trip! 🧳"])


def transposed_table(plan, task, ph):
    "A markdown table with one COLUMN per day and one row per field; several sights in a cell are split by `<br>`."
    head = '| | ' + ' | '.join(f"Day {d['days']} ({_d(task, i, 'wkd')})" for i, d in enumerate(plan)) + ' |'
    rows = [f"Here's your {len(plan)}-day trip at a glance:", '', head, '|---|' + '---|' * len(plan)]
    v = lambda d, k: _cell(ph.venue(d[k])) if d[k] != '-' else '—'
    spec = [('🗺️ **Route**', lambda d: _route(d['current_city'], ' ➝ ')),
            ('🚆 **Transport**', lambda d: _cell(_leg(d['transportation'], 'short')) if d['transportation'] != '-' else '—'),
            ('🎯 **Sights**', lambda d: '<br>'.join(_cell(ph.venue(a)) for a in _attractions(d['attraction'])) or '—'),
            ('☕ **Breakfast**', lambda d: v(d, 'breakfast')), ('🥗 **Lunch**', lambda d: v(d, 'lunch')),
            ('🍲 **Dinner**', lambda d: v(d, 'dinner')), ('🛌 **Overnight**', lambda d: v(d, 'accommodation'))]
    for label, f in spec: rows.append(f'| {label} | ' + ' | '.join(f(d) for d in plan) + ' |')
    return '\n'.join(rows + ['', "Let me know if you'd like to swap any restaurant or add more sights!"])


def long_table(plan, task, ph):
    """One long markdown table with a row per activity; the day and date are written on each day's first row only
    (the rows below belong to the same day), the venue's name and city sit in separate columns."""
    out = ["Here's everything in one table, in order:", '', '| Day | Date | Slot | Details | Place | City |',
           '|:-:|---|---|---|---|---|']
    for i, d in enumerate(plan):
        rows = []
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            rows.append(('🚦 Travel', _cell(_leg(d['transportation'], 'cell')), '—', f"{p['a']} → {p['b']}"))
        slot = {'breakfast': '🍳 Breakfast', 'lunch': '🍜 Lunch', 'dinner': '🍷 Dinner'}
        for m in ('breakfast', 'lunch'):
            if d[m] != '-': rows.append((slot[m], 'meal', *map(_cell, _name_city(d[m]))))
        for a in _attractions(d['attraction']): rows.append(('📸 Visit', 'sightseeing', *map(_cell, _name_city(a))))
        if d['dinner'] != '-': rows.append((slot['dinner'], 'meal', *map(_cell, _name_city(d['dinner']))))
        if d['accommodation'] != '-': rows.append(('🏨 Night', 'stay', *map(_cell, _name_city(d['accommodation']))))
        if not rows: rows.append(('—', f"free day in {d['current_city']}", '—', d['current_city']))
        for k, r in enumerate(rows):
            out.append(f"| {d['days'] if k == 0 else ''} | {_d(task, i, 'md') if k == 0 else ''} | " + ' | '.join(r) + ' |')
    return '\n'.join(out + ['', "_Rows without a day number continue the day above._"])


def nested_headers(plan, task, ph):
    "`### <date> (Day N) · route` per day, with `#### Getting there / Eat / See / Sleep` sub-sections of bullets."
    out = [f"# {len(plan)}-Day Trip to {_trip_name(plan, task)}", '']
    for i, d in enumerate(plan):
        out += [f"### {_d(task, i, 'wkd')} (Day {d['days']}) · {_route(d['current_city'])}", '']
        if d['transportation'] != '-':
            home = _cities(d['current_city'])[1] == getattr(task, 'org', None)
            out += ['#### Getting home' if home else '#### Getting there', f"- {_leg(d['transportation'], 'plain')}", '']
        if (ms := _meals(d)): out += ['#### Eat'] + [f"- {ph.meal(m.capitalize(), v)}" for m, v in ms] + ['']
        if (at := _attractions(d['attraction'])): out += ['#### See'] + [f"- {ph.venue(a)}" for a in at] + ['']
        if d['accommodation'] != '-': out += ['#### Sleep', f"- {ph.venue(d['accommodation'])}", '']
        out.append('---')
        out.append('')
    return '\n'.join(out + ['*Prices and opening hours change; double-check before you go.*'])


def legs_first(plan, task, ph):
    "All transport legs first, numbered ('Flights & transfers'); each travel day then refers to its leg by number."
    legs = [(i, d) for i, d in enumerate(plan) if d['transportation'] != '-']
    out = ["Here's how I'd structure your trip.", '', '**Flights & transfers**']
    for k, (i, d) in enumerate(legs, 1): out.append(f"{k}. {_d(task, i, 'wkd')}: {_leg(d['transportation'], 'plain')}")
    if not legs: out.append('(none needed)')
    out += ['', '**Day by day**', '']
    num = {i: k for k, (i, _) in enumerate(legs, 1)}
    for i, d in enumerate(plan):
        out.append(f"Day {d['days']} · {_d(task, i, 'wkd')} · {_route(d['current_city'])}")
        if i in num: out.append(f"• Travel: leg #{num[i]} above ({_route(d['current_city'])})")
        for m, v in _meals(d): out.append(f"• {ph.meal(m.capitalize(), v)}")
        if (at := _attractions(d['attraction'])): out.append(f"• Sightseeing: {ph.items(at)}")
        if d['accommodation'] != '-': out.append(f"• Lodging: {ph.venue(d['accommodation'])}")
        out.append('')
    return '\n'.join(out + ['Safe travels! ✈️'])


def _prices(plan, task):
    "Budget lines [(item, amount or None)] from the database prices (flights x people, nights x price, meals x people)."
    from star.evaluator import eval_index
    ix, n = eval_index(), getattr(task, 'people_number', 1) or 1
    lines = []
    for d in plan:
        if d['transportation'] == '-': continue
        p = _leg_parts(d['transportation'])
        if p['mode'] == 'flight':
            pr = ix.flight_price(p['number'])
            lines.append((f"Flight {p['number']} ({p['a']} → {p['b']}), {n} × ${pr:,.0f}" if pr else f"Flight {p['number']}",
                          pr * n if pr else None))
        else:
            lines.append((f"{'Taxi' if p['mode'] == 'taxi' else 'Self-drive'} {p['a']} → {p['b']}", float(p['cost'])))
    for a, b, v in _runs(plan):
        nm, c = _name_city(v)
        st = next((s for s in ix.find('accommodations', nm, c) if s.name == nm), None)
        k = b - a + 1
        lines.append((f"{nm}, {k} night{'s' * (k > 1)}" + (f" × ${st.price:,.0f}" if st else ''), st.price * k if st else None))
    meals = []
    for d in plan:
        for _, v in _meals(d):
            nm, c = _name_city(v)
            r = next((r for r in ix.find('restaurants', nm, c) if r.name == nm), None)
            meals.append((nm, r.cost * n if r else None))
    return lines, meals


def chatty_budget(plan, task, ph):
    """A chatty answer: preamble, a paragraph per day with the meals inside sentences, then a budget table that names the
    flights, the stays and every restaurant again with prices (a recap, not more bookings), then tips."""
    r = ph.rng
    n = getattr(task, 'people_number', 1) or 1
    who = 'you' if n == 1 else f'your group of {n}'
    out = [r.choice((f"Great choice! 🌴 {_trip_name(plan, task)} {'make' if ' and ' in _trip_name(plan, task) else 'makes'} for a lovely {len(plan)}-day escape. Here's a plan for {who}.",
                     f"Absolutely, here's a {len(plan)}-day itinerary for {who}, starting and ending in {getattr(task, 'org', 'your home city')}.")),
           '', '---', '']
    prev = None
    for i, d in enumerate(plan):
        s = []
        if d['transportation'] != '-': s.append(_leg(d['transportation'], 'sentence'))
        else: s.append(r.choice((f"A full day in {d['current_city']}.", f"No travel today; you stay in {d['current_city']}.")))
        if d['breakfast'] != '-':
            s.append(r.choice(("Fuel up with breakfast at {}.", "Start the morning with breakfast at {}.")).format(ph.venue(d['breakfast'])))
        if (at := _attractions(d['attraction'])):
            s.append(r.choice(("Explore {} today.", "Sightseeing today: {}.")).format(ph.items(at)))
        if d['lunch'] != '-':
            s.append(r.choice(("Refuel with lunch at {}.", "For lunch, try {}.")).format(ph.venue(d['lunch'])))
        if d['dinner'] != '-':
            s.append(r.choice(("Wind down over dinner at {}.", "Dinner tonight is at {}.")).format(ph.venue(d['dinner'])))
        acc = d['accommodation']
        if acc != '-':
            s.append((f"Another night at {ph.venue(acc)}." if acc == prev else
                      r.choice(("Check into {} for the night.", "Your bed tonight: {}.")).format(ph.venue(acc))))
        prev = acc
        out += [f"**Day {d['days']} – {_d(task, i, 'long')}: {_route(d['current_city'], ' to ')}**", ' '.join(s), '']
    lines, meals = _prices(plan, task)
    money = lambda x: f"${x:,.0f}" if x is not None else 'to confirm'
    out += ['---', '', '### 💰 Budget breakdown (estimate)', '', '| Item | Cost |', '|---|---|']
    out += [f"| {_cell(k)} | {money(x)} |" for k, x in lines]
    known = [x for _, x in meals if x is not None]
    out.append(f"| Meals ({_cell(', '.join(nm for nm, _ in meals))}) | ~{money(sum(known))} for {n} |" if meals else '| Meals | — |')
    out.append(f"| Attractions | mostly free or low-cost |")
    tot = sum(x for _, x in lines if x is not None) + sum(known)
    out += [f"| **Estimated total** | **{money(tot)}** (your budget: ${getattr(task, 'budget', 0):,}) |", '',
            '**Tips**', '- Book the stays early: small rentals sell out.', '- Check opening hours of the sights the day before.', '',
            'Want me to adjust anything? 😊']
    return '\n'.join(out)


_ORD = ('First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth', 'Seventh', 'Eighth', 'Ninth', 'Tenth')


def ordinal_sleep_recap(plan, task, ph):
    """Plain text: "First day — Wednesday, March 16 (A to B)" with labelled lines but NO hotel in the days; the hotels
    come in a closing "Where you'll sleep" recap by check-in / check-out date."""
    out = [f"Here's a day-by-day outline for your {len(plan)}-day trip, followed by where you'll sleep each night.", '']
    for i, d in enumerate(plan):
        out.append(f"{_ORD[i]} day — {_d(task, i, 'long')} ({_route(d['current_city'], ' to ')})")
        if d['transportation'] != '-': out.append(f"    Travel: {_leg(d['transportation'], 'plain')}")
        for m, v in _meals(d): out.append(f"    {ph.meal(m.capitalize(), v)}")
        if (at := _attractions(d['attraction'])): out.append(f"    Things to do: {ph.items(at)}")
        out.append('')
    out.append("Where you'll sleep")
    for a, b, v in _runs(plan):
        k = b - a + 1
        out.append(f"  - check in {_d(task, a, 'long')}, check out {_d(task, b + 1, 'long')} ({k} night{'s' * (k > 1)}): {ph.venue(v)}")
    if not _runs(plan): out.append('  - no overnight stay needed')
    return '\n'.join(out + ['', 'Enjoy!'])


def think_then_answer(plan, task, ph):
    """A reasoning model's answer: a `<think>` block that weighs the plan's pieces pooled and shuffled (not by day),
    then the final itinerary: "**Day N (m/d/yyyy)** | route" with "+" bullets."""
    r = ph.rng
    get = lambda k, dflt=None: getattr(task, k, dflt)
    rest = list(dict.fromkeys(_name_city(v)[0] for d in plan for _, v in _meals(d)))
    sights = list(dict.fromkeys(_name_city(a)[0] for d in plan for a in _attractions(d['attraction'])))
    stays = list(dict.fromkeys(_name_city(d['accommodation'])[0] for d in plan if d['accommodation'] != '-'))
    r.shuffle(rest); r.shuffle(sights)
    legs = [_leg_parts(d['transportation']) for d in plan if d['transportation'] != '-']
    th = ['<think>',
          f"The user wants a {len(plan)}-day trip from {get('org')} for {get('people_number')} " +
          f"{'person' if get('people_number') == 1 else 'people'}, budget ${get('budget', 0):,}, "
          f"dates {_d(task, 0, 'us')} to {_d(task, len(plan) - 1, 'us')}.",
          "Transport first. " + ' '.join(
              f"Leg {k}: {p['a']} to {p['b']} by " + (f"flight {p['number']} ({p['dep']}-{p['arr']})." if p['mode'] == 'flight' else
                                                     f"{'taxi' if p['mode'] == 'taxi' else 'car'} ({p['duration']}).")
              for k, p in enumerate(legs, 1)),
          (f"Restaurants I want to use: {', '.join(rest)}." if rest else "No restaurants needed."),
          (f"Sights to spread over the days: {'; '.join(sights)}." if sights else "No sights needed."),
          (f"Places to stay: {'; '.join(stays)}." if stays else "No stay needed."),
          "Next: check the budget, assign them to days and write the final answer.", '</think>', '']
    out = [f"**Your {len(plan)}-Day Itinerary**", '']
    for i, d in enumerate(plan):
        out.append(f"**Day {d['days']} ({_d(task, i, 'us')})** | {_route(d['current_city'], ' ➝ ')}")
        if d['transportation'] != '-': out.append(f"  + Transport: {_leg(d['transportation'], 'plain')}")
        for m, v in _meals(d): out.append(f"  + {ph.meal(m.capitalize(), v)}")
        for a in _attractions(d['attraction']): out.append(f"  + Visit: {ph.venue(a)}")
        if d['accommodation'] != '-': out.append(f"  + Accommodation: {ph.venue(d['accommodation'])}")
        out.append('')
    return '\n'.join(th + out + ['I hope you have a wonderful trip!'])


HELDOUT5_LAYOUTS = {f.__name__: f for f in (csv_block, transposed_table, long_table, nested_headers, legs_first,
                                             chatty_budget, ordinal_sleep_recap, think_then_answer)}
"""Held-out part v5 (layouts and `HELDOUT5_PHRASES`, rendered with `Phr5`): sealed, scored once before any tuning."""


def renderings5(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout5:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT5_LAYOUTS.items():
            if layouts and name not in layouts: continue
            rng = random.Random(f"heldout5:{name}:{t.idx}:{j}")
            out.append((name, kind, t, p, f(p, t, Phr5(HELDOUT5_PHRASES, rng, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
def _day_marker(name, task, i, d) -> str:
    "The text that opens day i in layout `name` (first occurrence after the previous day's)."
    return {'csv_block': f"\n{_d(task, i, 'iso')},{d['days']},", 'transposed_table': f"Day {d['days']} ({_d(task, i, 'wkd')})",
            'long_table': f"\n| {d['days']} | {_d(task, i, 'md')} |", 'nested_headers': f"### {_d(task, i, 'wkd')} (Day {d['days']})",
            'legs_first': f"\nDay {d['days']} · {_d(task, i, 'wkd')}", 'chatty_budget': f"**Day {d['days']} – {_d(task, i, 'long')}",
            'ordinal_sleep_recap': f"{_ORD[i]} day — {_d(task, i, 'long')}",
            'think_then_answer': f"**Day {d['days']} ({_d(task, i, 'us')})**"}[name]


def _items(d, skip=()) -> list[str]:
    "What must appear verbatim for a day: venue / attraction names, flight number or duration, the route's cities."
    out = [_name_city(v)[0] for k in ('breakfast', 'lunch', 'dinner', 'accommodation') if k not in skip and d[k] != '-' for v in [d[k]]]
    out += [_name_city(a)[0] for a in _attractions(d['attraction'])]
    if d['transportation'] != '-' and 'transportation' not in skip:
        p = _leg_parts(d['transportation'])
        out += [p['number'], p['dep'], p['arr']] if p['mode'] == 'flight' else [p['duration'], '$' + p['cost']]
    out += [c for c in _cities(d['current_city']) if c]
    return out


def _check_one(name, task, plan, text) -> list[str]:
    errs = []
    norm = text.replace('\\|', '|')
    if name == 'csv_block': norm = norm.replace('""', '"')
    # every name and flight number somewhere, verbatim
    for d in plan:
        for x in _items(d):
            if x not in norm: errs.append(f"day {d['days']}: {x!r} missing")
    # no 'None' leaked
    if 'None' in text and not any('None' in x for d in plan for x in _items(d)): errs.append("'None' in the text")
    # days in order, and each day's items inside its segment
    body = norm.split('</think>', 1)[-1]
    pos, last = [], -1
    for i, d in enumerate(plan):
        m = _day_marker(name, task, i, d).replace('\\|', '|')
        k = body.find(m, last + 1)
        if k < 0: errs.append(f"day {d['days']} marker {m!r} missing or out of order"); break
        pos.append(k); last = k
    if len(pos) == len(plan) and name not in ('transposed_table', 'csv_block'):
        skip = {'legs_first': ('transportation',), 'ordinal_sleep_recap': ('accommodation',)}.get(name, ())
        end = {'chatty_budget': '### 💰 Budget breakdown', 'ordinal_sleep_recap': "\nWhere you'll sleep"}.get(name)
        end = body.find(end, pos[-1]) if end and end in body[pos[-1]:] else len(body)   # the last day ends before the recap
        for i, d in enumerate(plan):
            seg = body[pos[i]:pos[i + 1] if i + 1 < len(plan) else end]
            for x in _items(d, skip):
                if x not in seg: errs.append(f"day {d['days']}: {x!r} not inside its day")
    if name == 'csv_block':                    # parse the CSV back: row i holds day i
        rows = list(csv.reader(io.StringIO(text.split('```csv\n', 1)[1].split('\n```', 1)[0])))[1:]
        if len(rows) != len(plan): errs.append('csv rows != days')
        for d, row in zip(plan, rows):
            cell = ' | '.join(row)
            errs += [f"csv day {d['days']}: {x!r} not in its row" for x in _items(d) if x not in cell]
    if name == 'transposed_table':             # split the table back into columns: column i holds day i
        rows = [re.split(r'(?<!\\)\|', l)[1:-1] for l in text.splitlines() if l.startswith('| ')]
        for c, d in enumerate(plan, 1):
            col = ' | '.join(r[c].replace('\\|', '|') for r in rows if len(r) > c)
            errs += [f"column day {d['days']}: {x!r} not in its column" for x in _items(d) if x not in col]
    if name == 'legs_first':                   # the k-th leg of the list is the k-th travel day's
        legs = [d for d in plan if d['transportation'] != '-']
        top = body.split('**Day by day**')[0]
        for k, d in enumerate(legs, 1):
            line = next((l for l in top.splitlines() if l.startswith(f"{k}. ")), '')
            p = _leg_parts(d['transportation'])
            if not all(x in line for x in ([p['number'], p['dep'], p['arr']] if p['mode'] == 'flight' else [p['duration'], p['a'], p['b']])):
                errs.append(f"leg #{k} line wrong: {line!r}")
            if f"leg #{k} above" not in body[body.find(_day_marker(name, task, plan.index(d), d)):]: errs.append(f"leg #{k} not referenced")
    if name == 'ordinal_sleep_recap':          # the recap: check-in date = first night, nights count = run length
        rec = body.split("Where you'll sleep", 1)[1]
        for a, b, v in _runs(plan):
            k = b - a + 1
            if f"check in {_d(task, a, 'long')}, check out {_d(task, b + 1, 'long')} ({k} night" not in rec or _name_city(v)[0] not in rec:
                errs.append(f"recap wrong for nights {a + 1}-{b + 1}")
    return errs


def selfcheck(plans=None) -> int:
    "Render every known plan with every layout and check it (no reader involved). Returns the number of failures."
    from collections import Counter
    plans = plans or known_plans()
    n, bad, draws = Counter(), Counter(), Counter()
    for lay, kind, t, p, text in renderings5(plans):
        n[lay] += 1
        errs = _check_one(lay, t, p, text)
        if errs:
            bad[lay] += 1
            if bad[lay] <= 3: print(f"FAIL {lay} {kind} task {t.idx}: {errs[:4]}")
    for j, (kind, t, p) in enumerate(plans):              # phrasing draws actually used (same seeds as renderings5)
        for name in HELDOUT5_LAYOUTS:
            ph = Phr5(HELDOUT5_PHRASES, random.Random(f"heldout5:{name}:{t.idx}:{j}"), p)
            draws[('locative', ph.loc)] += 1; draws[('join', ph.join)] += 1; draws[('meal_label', ph.label)] += 1
    print(f"{len(plans)} plans ({dict(Counter(k for k, _, _ in plans))})")
    for lay in HELDOUT5_LAYOUTS: print(f"  {lay:20s} {n[lay]:4d} renderings, {bad[lay]} failing")
    print('  phrasing draws:', dict(sorted(draws.items())))
    tot = sum(bad.values())
    print('SELF-CHECK', 'OK' if not tot else f'FAILED ({tot})', f'— {sum(n.values())} renderings')
    return tot


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    sub.add_parser('check')
    p = sub.add_parser('show'); p.add_argument('layout', choices=list(HELDOUT5_LAYOUTS)); p.add_argument('--n', type=int, default=1)
    p.add_argument('--kind', default='gold'); p.add_argument('--skip', type=int, default=0)
    a = ap.parse_args()
    if a.cmd == 'check': sys.exit(1 if selfcheck() else 0)
    picked = [(j, x) for j, x in enumerate(known_plans()) if x[0] == a.kind][a.skip:a.skip + a.n]
    for j, (kind, t, p) in picked:             # seeded with the plan's index j among all known plans, as in the part
        print(f"[{a.layout} | {kind} | task {t.idx} | plan {j}]\n")
        print(HELDOUT5_LAYOUTS[a.layout](p, t, Phr5(HELDOUT5_PHRASES, random.Random(f"heldout5:{a.layout}:{t.idx}:{j}"), p)))
        print('-' * 80)
