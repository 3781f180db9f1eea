#!/usr/bin/env python
"""Held-out part v6 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written 2026-12-06 by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their
notebooks, tests or results were opened, and no reader was run on these texts). SEALED: this part is to be scored ONCE
(by the lead, via tools/layouts.py, part 'heldout6', once registered there) and never tuned on before that score.

    python tools/layouts_v6.py check                   # self-check, no reader: parse back tables / HTML / JSON, every
                                                       # name and flight number verbatim, each item inside its day and
                                                       # beside its label, back-references resolved; then mutations
                                                       # (a name deleted, two days' lunches swapped, ...) must fail
    python tools/layouts_v6.py show fixed_width --n 1  # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how today's chat models answer "plan me a 3/5/7-day trip", in styles that neither tools/layouts.py
nor tools/layouts_v5.py has (see each renderer's docstring):

* `fixed_width`       a pipe-less plain-text table in a ```text block, fixed-width columns, a day spread over several
                      lines (one item per line in each column, continuation lines with blank day / date cells),
                      British numeric dates (16/03/2022)
* `html_table`        an HTML `<table>` in a ```html block: `<td>` per field, the sights as `<ul><li>`
* `json_nested`       a JSON object whose days hold NESTED objects: route {from, to}, transport {mode, flight_number, ...},
                      meals {lunch: {name, city, ...}}, attractions [{name, city}], accommodation {name, city, night}
* `roman_outline`     an outline: "I. Day One — Wednesday 16 March 2022", lettered sections (A. Getting there, B. Meals,
                      ...), numbered meals; letters follow the sections present
* `time_blocks`       days headed "Wed 16 Mar · day 1 of 3", every item prefixed by a time range ("09:30–11:00 · Explore
                      X"), flights at their real times, sights with words around their names (a visit to X, time at X)
* `ditto_stays`       compact day blocks, the stay named once ("Check in: X") and then "(same hotel)" / "ditto" /
                      "same place as last night" on the following nights; a move is "Check out, then check in: Y"
* `chat_then_table`   a conversational answer (the choices talked through, venues named in passing) that ends with a
                      summary table, the authoritative plan, whose columns are parts of the day (Morning / Afternoon /
                      Evening / Night), items inside a cell split by `<br>`
* `rejected_option`   two options: "Option A" first, a full plan with other stays, other transport and lunch / dinner
                      swapped, clearly labelled REJECTED with its reason; then "Option B — final choice", the plan,
                      with German-style dates (16.03.2022)

Phrasings (`HELDOUT6_PHRASES`, drawn per rendering by `Phr6`): venue placed as 'X (📍 City)', 'X (City, Texas)' (the full
state name), 'X / City' or 'X, City'; several sights joined as an English list 'A, B and C', ' // ', '; then ', ' — ';
meal labels 'Midday meal: X' (synonyms), 'Lunch: X (Italian/Pizza, ~$25)' (the restaurant's cuisines and average cost
from the database, in brackets), 'Lunch ....... X' (dot leaders) or 'Lunch pick: X'. Every rendering states the whole plan:
each day's route, the leg (flight number and times, or self-drive / taxi with duration and cost), each meal's restaurant,
each attraction and the accommodation; names are verbatim (words are only added around them); the noise (intros, talk,
a rejected option, tips) never contradicts the final plan.
"""
from __future__ import annotations

import argparse, datetime, html.parser, json, random, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _name_city, known_plans, day_date as _day0                # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT6_PHRASES = {
    'locative': ('pin', 'state', 'slash', 'comma'),         # 'X (📍 City)' | 'X (City, Texas)' | 'X / City' | 'X, City'
    'join': ('natural', ' // ', '; then ', ' — '),          # 'natural': 'A, B and C'
    'meal_label': ('synonym', 'cuisine', 'leader', 'pick'),  # 'Midday meal: X' | 'Lunch: X (Italian/Pizza, ~$25)' |
}                                                            # 'Lunch ....... X' | 'Lunch pick: X'

_SYN = {'Breakfast': 'Morning meal', 'Lunch': 'Midday meal', 'Dinner': 'Evening meal'}


def _index():
    from star.evaluator import eval_index
    return eval_index()


class Phr6(Phr):
    "`Phr` with the v6 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        n, c = _name_city(v)
        if c and self.loc == 'pin': return f'{n} (📍 {c})'
        if c and self.loc == 'slash': return f'{n} / {c}'
        if c and self.loc == 'state':
            st = _index().city_state.get(c)
            return f'{n} ({c}, {st})' if isinstance(st, str) and st else f'{n} ({c})'
        return super().venue(v)

    def items(self, vs: list[str]) -> str:
        xs = [self.venue(a) for a in vs]
        if self.join == 'natural': return xs[0] if len(xs) == 1 else ', '.join(xs[:-1]) + ' and ' + xs[-1] if xs else ''
        return self.join.join(xs)

    def word(self, label: str) -> str:
        "The word(s) that name the meal `label` ('Breakfast' | 'Lunch' | 'Dinner') in this draw."
        return _SYN[label] if self.label == 'synonym' else label

    def rest(self, v: str) -> str:
        "A restaurant as a table cell shows it: the venue, with cuisines and average cost where the draw is 'cuisine'."
        x = self.venue(v)
        if self.label != 'cuisine': return x
        n, c = _name_city(v)
        r = next((r for r in _index().find('restaurants', n, c) if r.name == n), None)
        if r is None: return x
        cu = '/'.join(s.strip() for s in str(r.cuisines).split(',')[:2])
        return f'{x} ({cu}, ~${r.cost:.0f})' if not x.endswith(')') else f'{x} – {cu}, ~${r.cost:.0f}'

    def meal(self, label: str, v: str) -> str:
        if self.label == 'synonym': return f'{_SYN[label]}: {self.venue(v)}'
        if self.label == 'cuisine': return f'{label}: {self.rest(v)}'
        if self.label == 'leader': return f"{label} {'.' * (12 - len(label))} {self.venue(v)}"
        if self.label == 'pick': return f'{label} pick: {self.venue(v)}'
        return super().meal(label, v)


PHR6 = Phr6

# -------------------------------------------------------------------------------------------------------------- helpers
def _d(task, i: int, fmt: str) -> str:
    """Date of day i, British / European: 'dmy' '16/03/2022' | 'long' 'Wednesday 16 March 2022' | 'dm' '16 March' |
    'short' 'Wed 16 Mar' | 'dots' '16.03.2022'."""
    d = _day0(task, i)
    if d is None: return f'day {i + 1}'
    return {'dmy': f"{d:%d/%m/%Y}", 'long': f"{d:%A} {d.day} {d:%B %Y}", 'dm': f"{d.day} {d:%B}",
            'short': f"{d:%a} {d.day} {d:%b}", 'dots': f"{d:%d.%m.%Y}"}[fmt]


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


_WORDS = ('One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten')
_ROMAN = ('I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X')


def _leg(t: str, style: str) -> str:
    "A transportation value in the v6 wordings (flight number and times; self-drive or taxi with duration and cost)."
    p = _leg_parts(t)
    a, b, n = p['a'], p['b'], p['number']
    if p['mode'] == 'flight':
        return {'outline': f"flight {n} from {a} (dep. {p['dep']}) to {b} (arr. {p['arr']})",
                'block': f"Flight {n}, {a} → {b}, departs {p['dep']}, arrives {p['arr']}",
                'compact': f"Flight {n} · {a} {p['dep']} ▶ {b} {p['arr']}",
                'cell': f"✈️ {n}, {a} → {b} ({p['dep']}–{p['arr']})",
                'final': f"Flight {n} — {a} {p['dep']}, arriving {b} {p['arr']}"}[style]
    w = 'taxi' if p['mode'] == 'taxi' else 'self-drive'
    return {'outline': f"{w} from {a} to {b}, about {p['duration']}, ${p['cost']}",
            'block': f"{w.capitalize()} {a} → {b} (about {p['duration']}, ${p['cost']})",
            'compact': f"{w.capitalize()} · {a} ▶ {b} · {p['duration']} · ${p['cost']}",
            'cell': f"{'🚕' if w == 'taxi' else '🚗'} {w} {a} → {b} ({p['duration']}, ${p['cost']})",
            'final': f"{w.capitalize()} — {a} to {b}, {p['duration']}, ${p['cost']}"}[style]


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


def _get(task, k, dflt=None): return task.get(k, dflt) if isinstance(task, dict) else getattr(task, k, dflt)


def _trip_name(plan, task) -> str:
    ends = [_cities(d['current_city'])[1] for d in plan]
    seen = [c for k, c in enumerate(ends) if c and c not in ends[:k] and c != _get(task, 'org')]
    if len(seen) > 1: return ', '.join(seen[:-1]) + ' and ' + seen[-1]
    return (seen or [_get(task, 'dest') or 'your destination'])[0]

# -------------------------------------------------------------------------------------------------------------- layouts
_FW_COLS = ('DAY', 'DATE', 'ROUTE', 'TRANSPORT', 'MEALS', 'SIGHTS', 'OVERNIGHT')


def _fw_cells(d, task, i, ph) -> list[list[str]]:
    "The lines of each column of day i in `fixed_width`."
    a, b = _cities(d['current_city'])
    route = [a] if a == b else [a, f"to {b}"]
    if d['transportation'] == '-': tr = ['—']
    else:
        p = _leg_parts(d['transportation'])
        tr = ([f"Flight {p['number']}", f"{p['dep']} → {p['arr']}"] if p['mode'] == 'flight' else
              ['Taxi' if p['mode'] == 'taxi' else 'Self-drive', p['duration'], f"${p['cost']}"])
    meals = [ph.meal(m.capitalize(), v) for m, v in _meals(d)] or ['—']
    sights = [ph.venue(x) for x in _attractions(d['attraction'])] or ['—']
    stay = [ph.venue(d['accommodation'])] if d['accommodation'] != '-' else ['—']
    return [[str(d['days'])], [_d(task, i, 'dmy')], route, tr, meals, sights, stay]


def fixed_width(plan, task, ph):
    """A plain-text table in a ```text block: no pipes, fixed-width columns padded with spaces, a dashed rule under the
    header; a day takes as many lines as its longest cell (one meal / sight per line), its continuation lines leave the
    DAY and DATE columns blank; a blank line between days; dates 16/03/2022."""
    cells = [_fw_cells(d, task, i, ph) for i, d in enumerate(plan)]
    w = [max([len(c)] + [len(x) for day in cells for x in day[k]]) for k, c in enumerate(_FW_COLS)]
    line = lambda xs: '   '.join(x.ljust(w[k]) for k, x in enumerate(xs)).rstrip()   # padded by characters (an emoji
                                                                                        # shows wider: gaps of 3 keep 2)
    out = [ph.rng.choice(("Here's the itinerary as a plain-text table (best viewed in a monospace font):",
                          "Below is your trip laid out as a simple text table you can print:")), '', '```text',
           line(_FW_COLS), line(['-' * x for x in w])]
    for k, day in enumerate(cells):
        if k: out.append('')
        for r in range(max(len(c) for c in day)):
            out.append(line([c[r] if r < len(c) else '' for c in day]))
    return '\n'.join(out + ['```', '', 'A dash (—) means nothing is planned for that slot. Times are local.'])


class _Cells(html.parser.HTMLParser):
    "Rows of cells of an HTML table; a cell's list items / line breaks become '\\n'."
    def __init__(self):
        super().__init__(convert_charrefs=True); self.rows, self.cell = [], None
    def handle_starttag(self, tag, attrs):
        if tag == 'tr': self.rows.append([])
        elif tag in ('td', 'th'): self.cell = ''
        elif tag in ('li', 'br') and self.cell is not None: self.cell += '\n'
    def handle_endtag(self, tag):
        if tag in ('td', 'th') and self.cell is not None: self.rows[-1].append(self.cell.strip()); self.cell = None
    def handle_data(self, data):
        if self.cell is not None: self.cell += data


def _esc(s: str) -> str:
    "Raw text in HTML, as chat models write it ('&' stays '&'), escaped only where a browser would read it otherwise."
    import html as h
    return s if '<' not in s and '>' not in s and h.unescape(s) == s else h.escape(s, quote=False)


def html_table(plan, task, ph):
    """An HTML answer in a ```html block: a heading, then a `<table>` with one `<tr>` per day and one `<td>` per field
    (route, transport, breakfast, lunch, dinner, sights as `<ul><li>`, stay); names are written raw (an '&' stays '&')."""
    esc = lambda s: _esc(s)
    out = [ph.rng.choice(("Sure! Here is the itinerary as an HTML table you can drop into a page or an email:",
                          "Below is the plan formatted as HTML:")), '', '```html',
           f"<h2>{len(plan)}-day trip: {esc(_get(task, 'org', ''))} to {esc(_trip_name(plan, task))}</h2>",
           '<table border="1">', '  <thead>',
           '    <tr><th>Day</th><th>Date</th><th>Route</th><th>Transport</th><th>Breakfast</th><th>Lunch</th>'
           '<th>Dinner</th><th>Attractions</th><th>Accommodation</th></tr>', '  </thead>', '  <tbody>']
    td = lambda s: f"      <td>{s}</td>"
    for i, d in enumerate(plan):
        out += ['    <tr>', td(d['days']), td(_d(task, i, 'short')), td(' &rarr; '.join(esc(c) for c in dict.fromkeys(_cities(d['current_city']))))]
        out.append(td(esc(_leg(d['transportation'], 'block')) if d['transportation'] != '-' else '&ndash;'))
        for m in ('breakfast', 'lunch', 'dinner'): out.append(td(esc(ph.rest(d[m])) if d[m] != '-' else '&ndash;'))
        at = _attractions(d['attraction'])
        out.append(td('<ul>' + ''.join(f'<li>{esc(ph.venue(a))}</li>' for a in at) + '</ul>') if at else td('&ndash;'))
        out.append(td(esc(ph.venue(d['accommodation'])) if d['accommodation'] != '-' else '&ndash;'))
        out.append('    </tr>')
    return '\n'.join(out + ['  </tbody>', '</table>', '```', '', "Let me know if you'd like a printable PDF version too."])


def json_nested(plan, task, ph):
    """A JSON object in a ```json block: trip facts, then `days`, each with NESTED objects (route {from, to}, transport
    {mode, ...} or null, meals {breakfast|lunch|dinner: {name, city[, cuisines, avg_cost_usd]} or null},
    attractions [{name, city}], accommodation {name, city, night} or null)."""
    cu = ph.label == 'cuisine'
    def venue(v, **extra):
        if v == '-': return None
        n, c = _name_city(v)
        o = {'name': n, 'city': c}
        if cu and extra.get('meal'):
            r = next((r for r in _index().find('restaurants', n, c) if r.name == n), None)
            if r: o.update(cuisines=[s.strip() for s in str(r.cuisines).split(',')], avg_cost_usd=int(r.cost))
        return o
    days, nights = [], {}
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        tr = None
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            tr = ({'mode': 'flight', 'flight_number': p['number'], 'from': p['a'], 'to': p['b'], 'departs': p['dep'], 'arrives': p['arr']}
                  if p['mode'] == 'flight' else
                  {'mode': 'taxi' if p['mode'] == 'taxi' else 'self-driving', 'from': p['a'], 'to': p['b'],
                   'duration': p['duration'], 'cost_usd': int(float(p['cost'].replace(',', '')))})
        acc = venue(d['accommodation'])
        if acc:
            k = nights[d['accommodation']] = nights.get(d['accommodation'], 0) + 1
            acc['night'] = k
        days.append({'day': d['days'], 'date': _d(task, i, 'dmy'), 'route': {'from': a, 'to': b} if a != b else {'stay_in': a},
                     'transport': tr, 'meals': {m: venue(d[m], meal=True) for m in ('breakfast', 'lunch', 'dinner')},
                     'attractions': [venue(x) for x in _attractions(d['attraction'])], 'accommodation': acc})
    doc = {'trip': {'origin': _get(task, 'org'), 'travellers': _get(task, 'people_number'), 'budget_usd': _get(task, 'budget'),
                    'start_date': _d(task, 0, 'dmy'), 'end_date': _d(task, len(plan) - 1, 'dmy'), 'length_days': len(plan)},
           'days': days}
    return '\n'.join([ph.rng.choice(("Here is the itinerary in structured JSON:", "Here's the trip as JSON, as requested:")), '',
                      '```json', json.dumps(doc, indent=2, ensure_ascii=False), '```', '',
                      'Dates are DD/MM/YYYY; `null` means nothing is booked for that slot.'])


def roman_outline(plan, task, ph):
    """A plain-text outline: "I. Day One — Wednesday 16 March 2022: A to B", lettered sections (their letters follow
    the sections present: Getting there / Heading home, Meals (numbered), Sightseeing, Overnight)."""
    org = _get(task, 'org')
    out = [f"TRIP OUTLINE — {_trip_name(plan, task)} (from {org}), {_d(task, 0, 'dm')} to {_d(task, len(plan) - 1, 'dm')}", '']
    for i, d in enumerate(plan):
        out.append(f"{_ROMAN[i]}. Day {_WORDS[i]} — {_d(task, i, 'long')}: {_route(d['current_city'], ' to ')}")
        secs = []
        if d['transportation'] != '-':
            head = 'Heading home' if _cities(d['current_city'])[1] == org else 'Getting there'
            secs.append([f"{head}: {_leg(d['transportation'], 'outline')}"])
        if (ms := _meals(d)): secs.append(['Meals'] + [f"{k}. {ph.meal(m.capitalize(), v)}" for k, (m, v) in enumerate(ms, 1)])
        if (at := _attractions(d['attraction'])): secs.append([f"Sightseeing: {ph.items(at)}"])
        if d['accommodation'] != '-': secs.append([f"Overnight: {ph.venue(d['accommodation'])}"])
        if not secs: secs.append([f"Free day in {d['current_city']}"])
        for k, s in enumerate(secs):
            out.append(f"   {chr(65 + k)}. {s[0]}")
            out += [f"      {x}" for x in s[1:]]
        out.append('')
    return '\n'.join(out + ['(Outline ends. Budget and bookings to be confirmed.)'])


def _mins(hhmm: str) -> int:
    h, m = hhmm.split(':')
    return int(h) * 60 + int(m)


def _hm(x: int) -> str: return f"{x % 1440 // 60:02d}:{x % 60:02d}"


def _dur(s: str) -> int:
    "Minutes of a duration like '1 day 2 hours 3 mins' (0 where unreadable)."
    unit = {'day': 1440, 'hour': 60, 'min': 1}
    return sum(int(n) * unit[u] for n, u in re.findall(r'(\d+)\s*(day|hour|min)', s or ''))


_DESCR = ('Explore {}', 'A visit to {}', 'Time at {}', 'Stroll around {}', 'Some time at {}', 'Take in {}')
_LEN = {'breakfast': 45, 'lunch': 60, 'dinner': 90, 'sight': 90}
_EARLIEST = {'breakfast': 7 * 60 + 30, 'lunch': 12 * 60, 'dinner': 18 * 60 + 30, 'sight': 0}


def _timed(d, ph) -> list[str]:
    """The lines of a day in `time_blocks`: breakfast, the first half of the sights, lunch, the other sights, dinner, in
    that order, with the leg put where the venues switch from the start city to the end city; times from a running clock
    (a flight at its own times, the items before it counted back from its departure), the night last."""
    r = ph.rng
    at = _attractions(d['attraction'])
    h = (len(at) + 1) // 2
    seq = ([('breakfast', d['breakfast'])] * (d['breakfast'] != '-') + [('sight', a) for a in at[:h]] +
           [('lunch', d['lunch'])] * (d['lunch'] != '-') + [('sight', a) for a in at[h:]] + [('dinner', d['dinner'])] * (d['dinner'] != '-'))
    text = lambda k, v: ph.meal(k.capitalize(), v) if k != 'sight' else r.choice(_DESCR).format(ph.venue(v))
    tr = d['transportation']
    if tr == '-':
        pre, post, p = seq, [], None
    else:
        p = _leg_parts(tr)
        cut = next((k for k, (_, v) in enumerate(seq) if _name_city(v)[1] == p['b']), len(seq))
        pre, post = seq[:cut], seq[cut:]
    out, clock = [], 8 * 60 + 30 if p is None else 7 * 60 + 30
    if p and p['mode'] == 'flight':                                  # the items before the flight, back from its departure
        t = _mins(p['dep']) - 60
        back = []
        for k, v in reversed(pre):
            t -= _LEN[k]; back.append(f"{_hm(t)}–{_hm(t + _LEN[k])} · {text(k, v)}"); t -= 15
        out += back[::-1]
        out.append(f"{p['dep']}–{p['arr']} · Flight {p['number']} from {p['a']} to {p['b']}")
        clock = _mins(p['arr']) + (_mins(p['arr']) < _mins(p['dep'])) * 1440 + 30
        pre = []
    for k, v in pre:
        clock = max(clock, _EARLIEST[k]); out.append(f"{_hm(clock)}–{_hm(clock + _LEN[k])} · {text(k, v)}"); clock += _LEN[k] + 15
    if p and p['mode'] != 'flight':
        out.append(f"{_hm(clock)} · {'Taxi' if p['mode'] == 'taxi' else 'Drive yourself'} from {p['a']} to {p['b']} "
                   f"({p['duration']}, ${p['cost']})")
        clock += _dur(p['duration']) + 20
    for k, v in post:
        clock = max(clock, _EARLIEST[k])
        out.append(f"{_hm(clock)}–{_hm(clock + _LEN[k])} · {text(k, v)}" if clock + _LEN[k] < 1440 else f"on arrival · {text(k, v)}")
        clock += _LEN[k] + 15
    if d['accommodation'] != '-':
        out.append(f"{_hm(max(clock, 21 * 60))} onwards · Night at {ph.venue(d['accommodation'])}" if clock < 1440 else
                   f"then · Night at {ph.venue(d['accommodation'])}")
    return out


def time_blocks(plan, task, ph):
    """Days headed "**Wed 16 Mar** · day 1 of 3 · A ✈ B"; every item a line "HH:MM–HH:MM · ...": a flight at its own
    times, a drive with its duration, meals and sights (with words around their names: "A visit to X", "Time at X") on a
    running clock, the night "21:30 onwards · Night at X" (see `_timed`)."""
    r = ph.rng
    out = [r.choice(("Here's an hour-by-hour plan. Times are suggestions, apart from the flights.",
                     "Below is a timed schedule for each day (flight times are fixed; the rest is flexible).")), '']
    for i, d in enumerate(plan):
        tr = d['transportation']
        mode = _leg_parts(tr)['mode'] if tr != '-' else None
        sep = {'flight': ' ✈ ', 'taxi': ' 🚕 ', 'drive': ' 🚗 ', None: ' → '}[mode]
        out.append(f"**{_d(task, i, 'short')}** · day {d['days']} of {len(plan)} · {_route(d['current_city'], sep)}")
        out += _timed(d, ph) or [f"(free day in {d['current_city']})"]
        out.append('')
    return '\n'.join(out + ['Tip: leave some slack around the flights for check-in and security.'])


_DITTO = ('(same hotel)', 'ditto', 'same place as last night', '〃 (as the night before)')


def ditto_stays(plan, task, ph):
    """Compact day blocks "Day 2 — Thu 17/03 — Rockford" with Travel / Food / Sights / Bed lines; the Bed line names a
    stay once ("Check in: X"), then says "(same hotel)" / "ditto" / "same place as last night" on the following nights
    (always the night right before), "Check out, then check in: Y" when it changes."""
    r = ph.rng
    out = [r.choice((f"Here's a tight {len(plan)}-day plan:", "OK — here's what I'd book, day by day:")), '']
    prev = '-'
    for i, d in enumerate(plan):
        dd = _day0(task, i)
        date = f"{dd:%a} {dd:%d/%m}" if dd else f"day {i + 1}"
        out.append(f"Day {d['days']} — {date} — {_route(d['current_city'], ' → ')}")
        if d['transportation'] != '-': out.append(f"  Travel: {_leg(d['transportation'], 'compact')}")
        if (ms := _meals(d)): out.append('  Food: ' + ' | '.join(ph.meal(m.capitalize(), v) for m, v in ms))
        if (at := _attractions(d['attraction'])): out.append(f"  Sights: {ph.items(at)}")
        acc = d['accommodation']
        if acc == '-': out.append('  Bed: none needed' + (' (home tonight)' if i == len(plan) - 1 else ''))
        elif acc == prev: out.append(f"  Bed: {r.choice(_DITTO)}")
        elif prev != '-': out.append(f"  Bed: Check out, then check in: {ph.venue(acc)}")
        else: out.append(f"  Bed: Check in: {ph.venue(acc)}")
        prev = acc
        out.append('')
    return '\n'.join(out + ['"Ditto" / "same hotel" = the stay of the night before.'])


def _dayparts(d, ph):
    "(morning, afternoon, evening, night) cell items of a day for `chat_then_table`."
    mo, af, ev, ni = [], [], [], []
    tr = d['transportation']
    if tr != '-':
        p = _leg_parts(tr)
        (mo if p['mode'] != 'flight' or _mins(p['dep']) < 12 * 60 else af if _mins(p['dep']) < 17 * 60 else ev).append(_leg(tr, 'cell'))
    if d['breakfast'] != '-': mo.insert(0, ph.meal('Breakfast', d['breakfast']))
    at = _attractions(d['attraction'])
    h = (len(at) + 1) // 2
    if at[:h]: mo.append('See: ' + ph.items(at[:h]))
    if d['lunch'] != '-': af.insert(0, ph.meal('Lunch', d['lunch']))
    if at[h:]: af.append('See: ' + ph.items(at[h:]))
    if d['dinner'] != '-': ev.insert(0, ph.meal('Dinner', d['dinner']))
    if d['accommodation'] != '-': ni.append(ph.venue(d['accommodation']))
    return mo, af, ev, ni


def chat_then_table(plan, task, ph):
    """A conversational answer: the choices talked through (transport, stays, a few restaurants and sights named in
    passing, all as in the plan), then "Summary (this is the final plan)": a markdown table Day | Date | Route | Morning |
    Afternoon | Evening | Night, items inside a cell split by `<br>`."""
    r = ph.rng
    n = _get(task, 'people_number', 1) or 1
    legs = [_leg_parts(d['transportation']) for d in plan if d['transportation'] != '-']
    modes = {p['mode'] for p in legs}
    out = [r.choice((f"Great question! Let me talk you through how I built this {len(plan)}-day trip, and then I'll give you "
                     "a summary table at the end — that table is the final plan.",
                     "Happy to help! First a bit of reasoning about the choices, then the full plan in one table below.")), '']
    if 'flight' in modes:
        fl = [p for p in legs if p['mode'] == 'flight']
        out.append(f"**Getting around.** Flying made the most sense for the long hops: " +
                   ', '.join(f"{p['number']} ({p['a']} to {p['b']})" for p in fl) + '.' +
                   (' The other legs are by road.' if len(fl) < len(legs) else ''))
    elif legs:
        out.append(f"**Getting around.** No flights: every leg is by {'taxi' if modes == {'taxi'} else 'road'}, which keeps "
                   f"things flexible for {'you' if n == 1 else f'the {n} of you'}.")
    runs = _runs(plan)
    if runs:
        def nights(a, b): return f"night {a + 1}" if a == b else f"nights {a + 1}–{b + 1}"
        out.append('**Where you stay.** ' + '; '.join(f"{_name_city(v)[0]} for {nights(a, b)}" for a, b, v in runs) + '.')
    rest = [(i, m, v) for i, d in enumerate(plan) for m, v in _meals(d)]
    if rest:
        pick = sorted(r.sample(rest, min(2, len(rest))))
        out.append('**Food.** Every meal is at a different place where possible — for example ' +
                   ' and '.join(f"{_name_city(v)[0]} for {m} on day {plan[i]['days']}" for i, m, v in pick) + '.')
    sights = [a for d in plan for a in _attractions(d['attraction'])]
    if sights: out.append(f"**Sightseeing.** Highlights include {_name_city(r.choice(sights))[0]}; the rest are spread out so "
                          "no day feels rushed.")
    out += ['', f"**You:** So what's the final plan?", '', "**Me:** Here it is — this table is the plan to book:", '',
            '### Summary (final plan)', '', '| Day | Date | Route | Morning | Afternoon | Evening | Night |', '|---|---|---|---|---|---|---|']
    for i, d in enumerate(plan):
        parts = ['<br>'.join(_cell(x) for x in c) or '—' for c in _dayparts(d, ph)]
        out.append(f"| {d['days']} | {_d(task, i, 'dm')} | {_route(d['current_city'])} | " + ' | '.join(parts) + ' |')
    return '\n'.join(out + ['', 'Want me to swap anything out?'])


def _variant(plan, task, rng):
    "Option A of `rejected_option`: other (pricier) stays, other transport modes, lunch and dinner swapped; and its reason."
    ix = _index()
    alt, why = {}, None
    for a, b, v in _runs(plan):
        n, c = _name_city(v)
        if v in alt: continue
        cands = sorted((s for s in ix.accommodations.get(c, ()) if s[0] != n), key=lambda s: -s[1].price)
        if cands:
            s = cands[0][1]
            alt[v] = f"{s.name}, {c}"
            why = why or f"pricier stays: {s.name} is ${s.price:,.0f} a night"
    out = []
    for d in plan:
        e = dict(d)
        e['lunch'], e['dinner'] = d['dinner'], d['lunch']
        if d['accommodation'] in alt: e['accommodation'] = alt[d['accommodation']]
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            e['transportation'] = (f"self-drive from {p['a']} to {p['b']}" if p['mode'] == 'flight' else
                                   f"taxi from {p['a']} to {p['b']}" if p['mode'] == 'drive' else f"self-drive from {p['a']} to {p['b']}")
        out.append(e)
    modes = {_leg_parts(d['transportation'])['mode'] for d in plan if d['transportation'] != '-'}
    road = ('long drives instead of the flights' if 'flight' in modes else 'taxis, far dearer than driving yourself'
            if 'drive' in modes else 'self-driving on unfamiliar roads' if modes else '')
    return out, '; '.join(x for x in (why, road, 'lunch and dinner badly timed') if x)


def rejected_option(plan, task, ph):
    """Two options. "Option A" comes first, a full plan (other stays, road legs instead of the real ones, lunch and
    dinner swapped), headed ❌ REJECTED with its reason; then "Option B — final choice ✅", the plan itself, dated
    16.03.2022, each day's items on "›" lines; a closing line says Option B is the answer."""
    r = ph.rng
    va, why = _variant(plan, task, r)
    out = [r.choice(("I sketched two versions of this trip. The first one doesn't work, so I've marked it as rejected — "
                     "please book Option B, the final choice.",
                     "Two options below: Option A is rejected (explained why), Option B is my final recommendation.")), '',
           f"## ❌ Option A — REJECTED ({why})", '']
    for i, d in enumerate(va):
        bits = [d['transportation']] if d['transportation'] != '-' else []
        bits += [f"{m} {_name_city(v)[0]}" for m, v in _meals(d)]
        if (at := _attractions(d['attraction'])): bits.append('see ' + ', '.join(_name_city(a)[0] for a in at))
        if d['accommodation'] != '-': bits.append(f"sleep at {_name_city(d['accommodation'])[0]}")
        out.append(f"- ~~Day {d['days']} ({_d(task, i, 'dots')})~~: " + '; '.join(bits or ['free day']))
    out += ['', '_Option A is NOT the plan. Everything below replaces it._', '', '## ✅ Option B — final choice', '']
    for i, d in enumerate(plan):
        out.append(f"**{_d(task, i, 'dots')} · Day {d['days']} · {_route(d['current_city'])}**")
        if d['transportation'] != '-': out.append(f"› Transport: {_leg(d['transportation'], 'final')}")
        for m, v in _meals(d): out.append(f"› {ph.meal(m.capitalize(), v)}")
        if (at := _attractions(d['attraction'])): out.append(f"› Sights: {ph.items(at)}")
        if d['accommodation'] != '-': out.append(f"› Stay: {ph.venue(d['accommodation'])}")
        out.append('')
    return '\n'.join(out + ['**Final answer: Option B.**'])


HELDOUT6_LAYOUTS = {f.__name__: f for f in (fixed_width, html_table, json_nested, roman_outline, time_blocks, ditto_stays,
                                             chat_then_table, rejected_option)}
"""Held-out part v6 (layouts and `HELDOUT6_PHRASES`, rendered with `Phr6`): sealed, scored once before any tuning."""


def renderings6(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout6:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT6_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out


def _phr(name, t, j, p): return Phr6(HELDOUT6_PHRASES, random.Random(f"heldout6:{name}:{t.idx}:{j}"), p)

# ----------------------------------------------------------------------------------------------------------- self-check
_WORD_OF = {'breakfast': 'Breakfast', 'lunch': 'Lunch', 'dinner': 'Dinner'}


def _leg_items(t: str) -> list[str]:
    p = _leg_parts(t)
    return [p['number'], p['dep'], p['arr']] if p['mode'] == 'flight' else [p['duration'], p['cost']]


def _items(d, skip=()) -> list[str]:
    "What must appear verbatim for a day: venue / attraction names, flight number and times or duration and cost, cities."
    out = [_name_city(d[k])[0].strip() for k in ('breakfast', 'lunch', 'dinner', 'accommodation') if k not in skip and d[k] != '-']
    out += [_name_city(a)[0].strip() for a in _attractions(d['attraction'])]
    if d['transportation'] != '-' and 'transportation' not in skip: out += _leg_items(d['transportation'])
    return out + [c for c in _cities(d['current_city']) if c]


def _labelled(text: str, word: str, name: str, words) -> bool:
    "Is `name` inside the stretch that follows some occurrence of the label `word` (up to the next label or line end)?"
    for m in re.finditer(re.escape(word), text):
        rest = text[m.end():].split('\n', 1)[0]
        stop = min([k for w in words if w != word and (k := rest.find(w)) >= 0] + [len(rest)])
        if name in rest[:stop]: return True
    return False


def _meal_errs(d, text, ph, where='') -> list[str]:
    "Each meal's restaurant right after its own label in `text` (the day's section, row or cell)."
    words = [ph.word(w) for w in _WORD_OF.values()]
    return [f"day {d['days']}{where}: {m} {_name_city(v)[0]!r} not after its label {ph.word(_WORD_OF[m])!r}"
            for m, v in _meals(d) if not _labelled(text, ph.word(_WORD_OF[m]), _name_city(v)[0].strip(), words)]


def _has(cell: str, xs, what: str, d) -> list[str]:
    return [f"day {d['days']} {what}: {x!r} missing" for x in xs if x.strip() not in cell]


def _seg_check(body, markers, plan, ph, skip=()) -> tuple[list[str], list[str]]:
    "Day sections of `body` opened by `markers` (in order); each day's items and labelled meals inside its own section."
    errs, pos, last = [], [], -1
    for i, m in enumerate(markers):
        k = body.find(m, last + 1)
        if k < 0: return [f"day {i + 1} marker {m!r} missing or out of order"], []
        pos.append(k); last = k
    segs = [body[pos[i]:pos[i + 1] if i + 1 < len(pos) else len(body)] for i in range(len(pos))]
    for d, seg in zip(plan, segs):
        errs += [f"day {d['days']}: {x!r} not inside its day" for x in _items(d, skip) if x not in seg]
        errs += _meal_errs(d, seg, ph)
    return errs, segs


def _check_fixed_width(t, plan, text, ph):
    block = text.split('```text\n', 1)[1].split('\n```', 1)[0].split('\n')
    head = block[0]
    starts = [head.index(c) for c in _FW_COLS] + [None]
    days = []
    for ln in block[2:]:
        if not ln.strip(): continue
        cols = [ln[starts[k]:starts[k + 1]].strip() if starts[k] < len(ln) else '' for k in range(len(_FW_COLS))]
        if cols[0]: days.append([[c] for c in cols])
        elif days:
            for k, c in enumerate(cols):
                if c: days[-1][k].append(c)
    errs = [] if len(days) == len(plan) else [f"{len(days)} day groups for {len(plan)} days"]
    for i, (d, g) in enumerate(zip(plan, days)):
        col = ['\n'.join(x) for x in g]
        if col[0] != str(d['days']) or col[1] != _d(t, i, 'dmy'): errs.append(f"day {d['days']}: day / date cells {col[:2]}")
        errs += _has(col[2], [c for c in _cities(d['current_city'])], 'ROUTE', d)
        if d['transportation'] != '-': errs += _has(col[3], _leg_items(d['transportation']), 'TRANSPORT', d)
        errs += _has(col[4], [_name_city(v)[0] for _, v in _meals(d)], 'MEALS', d) + _meal_errs(d, col[4], ph, ' MEALS')
        errs += _has(col[5], [_name_city(a)[0] for a in _attractions(d['attraction'])], 'SIGHTS', d)
        if d['accommodation'] != '-': errs += _has(col[6], [_name_city(d['accommodation'])[0]], 'OVERNIGHT', d)
        if d['accommodation'] == '-' and col[6] != '—': errs.append(f"day {d['days']}: OVERNIGHT {col[6]!r} for no stay")
    return errs


def _check_html(t, plan, text, ph):
    p = _Cells()
    p.feed(text.split('```html\n', 1)[1].split('\n```', 1)[0])
    rows = [r for r in p.rows[1:] if r]
    errs = [] if len(rows) == len(plan) else [f"{len(rows)} rows for {len(plan)} days"]
    for i, (d, r) in enumerate(zip(plan, rows)):
        if len(r) != 9 or r[0] != str(d['days']): errs.append(f"day {d['days']}: row {r[:2]} ({len(r)} cells)"); continue
        if r[2] != _route(d['current_city']) or r[1] != _d(t, i, 'short'): errs.append(f"day {d['days']}: date / route {r[1:3]}")
        if d['transportation'] != '-': errs += _has(r[3], _leg_items(d['transportation']), 'transport', d)
        for k, m in enumerate(('breakfast', 'lunch', 'dinner'), 4):
            if d[m] != '-': errs += _has(r[k], [_name_city(d[m])[0]], m, d)
            elif r[k] != '–': errs.append(f"day {d['days']}: {m} cell {r[k]!r} for no meal")
        got = [x.strip() for x in r[7].split('\n') if x.strip() and r[7] != '–']
        want = _attractions(d['attraction'])
        if len(got) != len(want) or (want and not all(_name_city(a)[0].strip() in g for a, g in zip(want, got))):
            errs.append(f"day {d['days']}: attractions {got} != {want}")
        if d['accommodation'] != '-': errs += _has(r[8], [_name_city(d['accommodation'])[0]], 'stay', d)
    return errs


def _check_json(t, plan, text, ph):
    doc = json.loads(text.split('```json\n', 1)[1].split('\n```', 1)[0])
    days = doc['days']
    errs = [] if len(days) == len(plan) else [f"{len(days)} days for {len(plan)}"]
    v = lambda o: '-' if o is None else f"{o['name']}, {o['city']}" if o['city'] else o['name']
    for i, (d, o) in enumerate(zip(plan, days)):
        rt = o['route']
        got = {'days': o['day'], 'current_city': rt['stay_in'] if 'stay_in' in rt else f"from {rt['from']} to {rt['to']}",
               'breakfast': v(o['meals']['breakfast']), 'lunch': v(o['meals']['lunch']), 'dinner': v(o['meals']['dinner']),
               'attraction': ''.join(v(a) + ';' for a in o['attractions']) or '-', 'accommodation': v(o['accommodation'])}
        for k, x in got.items():
            want = d[k] if k != 'attraction' else ''.join(a + ';' for a in _attractions(d[k])) or '-'
            if x != want: errs.append(f"day {d['days']} {k}: {x!r} != {want!r}")
        tr = o['transport']
        if (tr is None) != (d['transportation'] == '-'): errs.append(f"day {d['days']}: transport {tr!r}")
        elif tr:
            p = _leg_parts(d['transportation'])
            want = ({'mode': 'flight', 'flight_number': p['number'], 'from': p['a'], 'to': p['b'], 'departs': p['dep'], 'arrives': p['arr']}
                    if p['mode'] == 'flight' else {'mode': {'taxi': 'taxi'}.get(p['mode'], 'self-driving'), 'from': p['a'], 'to': p['b'],
                                                   'duration': p['duration'], 'cost_usd': int(float(p['cost'].replace(',', '')))})
            if tr != want: errs.append(f"day {d['days']}: transport {tr} != {want}")
        if o['date'] != _d(t, i, 'dmy'): errs.append(f"day {d['days']}: date {o['date']}")
    return errs


def _check_chat_table(t, plan, text, ph):
    body = text.split('### Summary (final plan)', 1)[1]
    rows = [[c.strip().replace('\\|', '|') for c in re.split(r'(?<!\\)\|', l)[1:-1]] for l in body.splitlines() if l.startswith('| ')]
    rows = rows[1:]
    errs = [] if len(rows) == len(plan) else [f"{len(rows)} rows for {len(plan)} days"]
    for i, (d, r) in enumerate(zip(plan, rows)):
        if len(r) != 7 or r[0] != str(d['days']) or r[1] != _d(t, i, 'dm'): errs.append(f"day {d['days']}: row {r[:3]}"); continue
        cells = [c.split('<br>') for c in r[3:]]
        want = _dayparts(d, ph)
        for k, (c, w) in enumerate(zip(cells, want)):
            if [x.strip() for x in c] != ([x.replace('|', '|') for x in w] or ['—']):
                errs.append(f"day {d['days']} column {('Morning', 'Afternoon', 'Evening', 'Night')[k]}: {c} != {w}")
        whole = '\n'.join(r[2:])
        errs += _has(whole, _items(d), 'row', d) + _meal_errs(d, '\n'.join(x for c in cells for x in c), ph)
        if d['accommodation'] != '-' and _name_city(d['accommodation'])[0].strip() not in r[6]: errs.append(f"day {d['days']}: stay not at Night")
    return errs


def _check_ditto(t, plan, segs):
    "Resolve each day's Bed line ('Check in: X' / a ditto word = the night before) and compare with the plan's stay."
    errs, prev = [], None
    names = {_name_city(d['accommodation'])[0].strip() for d in plan if d['accommodation'] != '-'}
    for d, seg in zip(plan, segs):
        bed = next((l for l in seg.splitlines() if l.strip().startswith('Bed:')), '')
        hit = [n for n in names if n in bed]
        hit = [n for n in hit if not any(n != o and n in o for o in hit)]            # the longest names only
        if len(hit) == 1 and 'check in: ' in bed.lower(): got = hit[0]
        elif not hit and any(w in bed for w in _DITTO): got = prev
        elif 'none needed' in bed and not hit: got = None
        else: got = '?'
        want = _name_city(d['accommodation'])[0].strip() if d['accommodation'] != '-' else None
        if got != want: errs.append(f"day {d['days']}: Bed resolves to {got!r}, not {want!r}")
        prev = got
    return errs


def _check_one(name, task, plan, text, ph) -> list[str]:
    "Errors of one rendering (empty = faithful as far as this reader-free check can tell)."
    errs = []
    if 'None' in text and not any('None' in x for d in plan for x in _items(d)): errs.append("'None' in the text")
    try:
        if name == 'fixed_width': return errs + _check_fixed_width(task, plan, text, ph)
        if name == 'html_table': return errs + _check_html(task, plan, text, ph)
        if name == 'json_nested': return errs + _check_json(task, plan, text, ph)
        if name == 'chat_then_table': return errs + _check_chat_table(task, plan, text, ph)
    except (IndexError, KeyError, ValueError, TypeError) as e:
        return errs + [f"does not parse back: {e!r}"]
    if name == 'roman_outline':
        mk = [f"{_ROMAN[i]}. Day {_WORDS[i]} — {_d(task, i, 'long')}" for i in range(len(plan))]
        e, _ = _seg_check(text, mk, plan, ph)
    elif name == 'time_blocks':
        mk = [f"**{_d(task, i, 'short')}** · day {d['days']} of {len(plan)}" for i, d in enumerate(plan)]
        e, _ = _seg_check(text, mk, plan, ph)
    elif name == 'ditto_stays':
        mk = [f"\nDay {d['days']} — " for d in plan]
        e, segs = _seg_check(text.rsplit('\n\n"Ditto"', 1)[0], mk, plan, ph, skip=('accommodation',))
        if segs: e += _check_ditto(task, plan, segs)
    elif name == 'rejected_option':
        head, sep, body = text.partition('## ✅ Option B — final choice')
        if not sep or 'REJECTED' not in head or body.count('Option A') or head.count('## ') != 1: errs.append('options not clearly labelled')
        mk = [f"**{_d(task, i, 'dots')} · Day {d['days']} · " for i, d in enumerate(plan)]
        e, _ = _seg_check(body, mk, plan, ph)
    return errs + e


def _swap(text, a, b):
    if not a or not b or a == b or a in b or b in a or a not in text or b not in text: return None
    return text.replace(a, '\0').replace(b, a).replace('\0', b)


def mutations(plan, text):
    "[(what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a flight renumbered."
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
    return out


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    """Render every known plan with every layout and check it (no reader involved); then corrupt renderings
    (`mutations`) and count the corruptions the check misses. Returns failures + missed corruptions."""
    from collections import Counter
    plans = plans or known_plans()
    n, bad, draws, tried, caught = Counter(), Counter(), Counter(), Counter(), Counter()
    for j, (kind, t, p) in enumerate(plans):
        for lay, f in HELDOUT6_LAYOUTS.items():
            ph = _phr(lay, t, j, p)
            draws[('locative', ph.loc)] += 1; draws[('join', ph.join)] += 1; draws[('meal_label', ph.label)] += 1
            text = f(p, t, ph)
            n[lay] += 1
            errs = _check_one(lay, t, p, text, _phr(lay, t, j, p))
            if errs:
                bad[lay] += 1
                if bad[lay] <= 3: print(f"FAIL {lay} {kind} task {t.idx}: {errs[:4]}")
            if j % mutate_every: continue
            for what, bad_text in mutations(p, text):
                tried[lay] += 1
                if _check_one(lay, t, p, bad_text, _phr(lay, t, j, p)): caught[lay] += 1
                elif tried[lay] - caught[lay] <= 2: print(f"MISSED {lay} {kind} task {t.idx}: {what}")
    print(f"{len(plans)} plans ({dict(Counter(k for k, _, _ in plans))})")
    for lay in HELDOUT6_LAYOUTS:
        print(f"  {lay:16s} {n[lay]:4d} renderings, {bad[lay]} failing; corruptions caught {caught[lay]}/{tried[lay]}")
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
    p = sub.add_parser('show'); p.add_argument('layout', choices=list(HELDOUT6_LAYOUTS)); p.add_argument('--n', type=int, default=1)
    p.add_argument('--kind', default='gold'); p.add_argument('--skip', type=int, default=0)
    p.add_argument('--days', type=int, default=0, help='only plans of this many days')
    a = ap.parse_args()
    if a.cmd == 'check': sys.exit(1 if selfcheck() else 0)
    picked = [(j, x) for j, x in enumerate(known_plans()) if x[0] == a.kind and (not a.days or len(x[2]) == a.days)][a.skip:a.skip + a.n]
    for j, (kind, t, p) in picked:             # seeded with the plan's index j among all known plans, as in the part
        print(f"[{a.layout} | {kind} | task {t.idx} | plan {j}]\n")
        print(HELDOUT6_LAYOUTS[a.layout](p, t, _phr(a.layout, t, j, p)))
        print('-' * 80)
