#!/usr/bin/env python
"""Held-out part v8 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written 2026-12-06 by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their
notebooks, tests or results were opened, no reader was run on these texts, and `tools/layouts.py measure` / `record`
were not run). SEALED: this part is to be scored ONCE by the lead (via tools/layouts.py, part 'heldout8', once
registered there) and never tuned on before that score.

    python tools/layouts_v8.py check                     # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (the calendar, the ledger, the
                                                         # Org outline, the tool call, the arrow lines, the options
                                                         # with their recommendation, the caption, the Italian /
                                                         # Portuguese / Dutch labels) into the plan's own values
                                                         # (venue 'Name, City', route, leg parts) and compared with the
                                                         # plan EXACTLY; then corruptions (a name deleted, lunches
                                                         # swapped, a day dropped, a decoy promoted, a flight time
                                                         # moved, ...) must be caught. 315 plans x 8 layouts = 2,520
                                                         # renderings, ~19,300 corruptions, ~30 s
    python tools/layouts_v8.py show ics_calendar --n 1   # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how chat models and tool-using agents answer "plan me a 3/5/7-day trip", in styles that none of
tools/layouts.py, tools/layouts_v5.py, tools/layouts_v6.py, tools/layouts_v7.py has (see each renderer's docstring):

* `ics_calendar`       an iCalendar file (```ics block) "to import into Google Calendar": an all-day VEVENT per day whose
                       SUMMARY is the route ("Day 2 · Rockford"), timed VEVENTs (DTSTART:20220316T154000) for the
                       flight at its real times / the drive or taxi (duration, cost, distance in DESCRIPTION), each meal
                       ("Lunch — X") and sight ("Visit X") with the city (or 'Name, City') in LOCATION, each stay ONE
                       multi-day event spanning its nights (DTSTART;VALUE=DATE .. DTEND = check-out); in some
                       renderings a DECOY: an earlier restaurant booking left in with STATUS:CANCELLED ("Cancelled:
                       Dinner — Y", DESCRIPTION "replaced by X"), as calendar exports keep them; names are written
                       raw (commas and semicolons not backslash-escaped, as chat models write .ics by hand)
* `cost_ledger`        the plan as a spending ledger: one markdown table, a bold row per day (date, route), then each
                       purchase in the order of the day — Flight (number, route, times; travellers × fare), Self-drive /
                       Taxi (route, duration, distance; vehicles × cost), Breakfast / Lunch / Dinner (restaurant and its
                       City column; travellers × average cost), Sightseeing (no charge), Lodging on the check-in day only
                       ("2 nights (Day 1–2) × 1 room × $150"), with a running "Budget left" column and totals; '|' in a
                       name escaped as markdown does
* `org_agenda`         an Emacs Org-mode outline (```org): "* Day 1: A → B" headlines with an active timestamp,
                       a :PROPERTIES: drawer holding :ROUTE: and :LODGING:, "** BOOKED Flight F1: A → B" with a
                       <start>--<end> timestamp range, road legs with "- Duration :: ..." description items, "** TODO
                       Lunch: X" headlines in the drawn meal label (bold the Org way, "*Lunch:* X") with right-aligned
                       :food: tags (some renderings), empty meals left out or "** (no lunch planned)", sights as "- [ ]"
                       checkboxes under "** TODO Sightseeing [0/2]"
* `tool_call_json`     an agent's final action: a function call `submit_travel_plan` — Hermes/Qwen style
                       (<tool_call>{"name": ..., "arguments": {...}}</tool_call>) or OpenAI style (```json with
                       "tool_calls": [{"function": {"name": ..., "arguments": "<the JSON DOUBLE-ENCODED as a string>"}}]);
                       each day a list of typed EVENTS ({"type": "meal", "meal": "lunch", "name": .., "city": ..},
                       {"type": "attraction", ...}, {"type": "transport", "mode": "flight", ...}) and "overnight";
                       names as JSON writes them (non-ASCII raw; quotes escaped, twice over in the double-encoded form)
* `chatty_then_arrows` a long chatty answer that talks the choices through (legs, stays, food, sights) and names
                       REJECTED ALTERNATIVES unambiguously ("I also looked at **Y**, but ..., so it is not in the plan";
                       "I had pencilled in **Y** for lunch on Day 2, but swapped it for **X**"), then a TL;DR, one line
                       per day, as an arrow chain in the order of the day: "**Day 2** (Thu 3/17 · Rockford): breakfast
                       at X → A → B → lunch at Y → C → dinner at Z → 🛏 W" (sights unlabelled)
* `per_day_options`    day sections "### Day 2 — Thursday 17 March · Rockford"; on one or two days two versions
                       ("**Option A — ...**" / "**Option B — ...**", meals and sights differ; travel and the stay are
                       common) and the pick deferred to a closing "### ✅ My recommendation" ("- Day 2 → **Option B**");
                       the other option is a DECOY
* `social_caption`     an emoji-heavy social-media post: "📍 DAY 1 ┊ Wed 3/16 ┊ A ➡️ B", "✈️ F123 A ➡️ B · 3:40pm–5:04pm"
                       (12-hour clock), "☕ brekkie: X", "🥗 lunch: X", "🍝 dinner: X", "🏛️ spots: A ✦ B", "🛌 crashing
                       at: X", hashtags
* `it_pt_nl_labels`    the answer in Italian, Brazilian Portuguese or Dutch (drawn): "### Giorno 1 – mercoledì 16 marzo
                       2022 (da A a B)", "### Dia 1 – quarta-feira, 16 de março de 2022 (de A para B)", "### Dag 1 –
                       woensdag 16 maart 2022 (van A naar B)"; bold labels Spostamento / Transporte / Vervoer, Colazione /
                       Café da manhã / Ontbijt, Pranzo / Almoço / Lunch, Cena / Jantar / Diner (Dutch 'Diner' is DINNER),
                       Da visitare / Passeios / Bezienswaardigheden, Pernottamento / Hospedagem / Overnachting; an empty
                       meal '—'; times 15.40 (it, nl) or 15h40 (pt); durations and the locatives translated; names verbatim

Phrasings (`HELDOUT8_PHRASES`, drawn per rendering by `Phr8`): venue placed as 'X (City, USA)', 'City › X', 'X [in City]'
or 'X, City'; several sights joined by ' → ', ' ✦ ', '; afterwards ', ' & then '; meal labels abbreviated 'Bkfst: X' /
'Lnch: X' / 'Dnr: X', with a clock 'Lunch (12:30): X', bold '**Lunch:** X' or 'Lunch: X' (the venue placement in
org_agenda, chatty_then_arrows, per_day_options, social_caption and it_pt_nl_labels, translated there; the joins in the
last three; the meal labels in org_agenda and per_day_options; the calendar, the ledger and the tool call give the city a
field or column of its own). Every rendering states the
whole plan: each day's route, the leg (flight number and times, or self-drive / taxi with duration and cost), each
meal's restaurant (or none: absent, or said to be none), each attraction and the accommodation; names are verbatim
(words are only added around them); the noise (intros, rejected alternatives, an unchosen option, a cancelled
booking, costs, hashtags) never contradicts the final plan.
"""
from __future__ import annotations

import datetime, json, math, random, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _name_city, known_plans, part_cli, selfcheck_part, day_date as _day0     # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT8_PHRASES = {
    'locative': ('usa', 'cityfirst', 'bracket_in', 'comma'),     # 'X (City, USA)' | 'City › X' | 'X [in City]' | 'X, City'
    'join': (' → ', ' ✦ ', '; afterwards ', ' & then '),
    'meal_label': ('abbrev', 'clock', 'boldcolon', 'colon'),     # 'Bkfst: X' | 'Lunch (12:30): X' | '**Lunch:** X' | 'Lunch: X'
}
_ABBR = {'Breakfast': 'Bkfst', 'Lunch': 'Lnch', 'Dinner': 'Dnr'}
_CLOCK = {'Breakfast': '08:00', 'Lunch': '12:30', 'Dinner': '19:00'}


def _index():
    from star.evaluator import eval_index
    return eval_index()


class Phr8(Phr):
    "`Phr` with the v8 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        n, c = _name_city(v)
        if c and self.loc == 'usa': return f'{n} ({c}, USA)'
        if c and self.loc == 'cityfirst': return f'{c} › {n}'
        if c and self.loc == 'bracket_in': return f'{n} [in {c}]'
        return super().venue(v)

    def meal_prefix(self, label: str) -> str:
        "The words before a meal's venue: 'Bkfst: ' | 'Lunch (12:30): ' | '**Lunch:** ' | 'Lunch: '."
        if self.label == 'abbrev': return f'{_ABBR.get(label, label)}: '
        if self.label == 'clock': return f'{label} ({_CLOCK.get(label, "")}): '
        if self.label == 'boldcolon': return f'**{label}:** '
        return f'{label}: '

    def meal(self, label: str, v: str) -> str:
        if self.label in ('abbrev', 'clock', 'boldcolon'): return self.meal_prefix(label) + self.venue(v)
        return super().meal(label, v)


PHR8 = Phr8

# -------------------------------------------------------------------------------------------------------------- helpers
_MEALS = ('breakfast', 'lunch', 'dinner')


def _get(task, k, dflt=None): return task.get(k, dflt) if isinstance(task, dict) else getattr(task, k, dflt)


def _date(task, i: int) -> datetime.date:
    "Date of day i (the task's; a task without dates counts from 2022-01-01, which nothing else contradicts)."
    d = _day0(task, i)
    return d if d is not None else datetime.date(2022, 1, 1) + datetime.timedelta(days=i)


def _fd(task, i: int, fmt: str) -> str:
    "'us' 'Wed 3/16' | 'dm' 'Wed 16 Mar' | 'uk' 'Wednesday 16 March' | 'org' '2022-03-16 Wed' | 'ics' '20220316' | 'iso'."
    d = _date(task, i)
    return {'us': f"{d:%a} {d.month}/{d.day}", 'dm': f"{d:%a} {d.day} {d:%b}", 'uk': f"{d:%A} {d.day} {d:%B}",
            'org': f"{d.isoformat()} {d:%a}", 'ics': f"{d:%Y%m%d}", 'iso': d.isoformat()}[fmt]


def _cities(cc: str) -> tuple[str, str]:
    "(start city, end city) of a current_city value ('from A to B' or 'A')."
    if cc.startswith('from ') and ' to ' in cc:
        a, _, b = cc[5:].partition(' to ')
        return a, b
    return cc, cc


def _cc(a: str, b: str) -> str: return a if a == b else f"from {a} to {b}"


def _meals(d) -> list[tuple[str, str]]: return [(m, d[m]) for m in _MEALS if d[m] != '-']


def _road(t: str) -> dict:
    "All 'key: value' fields of a road leg ('duration', 'distance', 'cost'), verbatim."
    return dict(p.split(': ', 1) for p in t.split(', ') if ': ' in p)


def _dur_key(s) -> tuple:
    "A duration as ((n, unit), ...): '3 hours 11 mins' and '3 ore 11 min' both ((3, 'hour'), (11, 'min'))."
    return tuple((int(n), u) for n, u in re.findall(r'(\d+)\s*(day|hour|min)', s or ''))


def _minutes(s) -> int: return sum(n * {'day': 1440, 'hour': 60, 'min': 1}[u] for n, u in _dur_key(s))


def _runs(plan):
    "[[first day index, last day index, accommodation]]: consecutive nights at one place, or with no place ('-')."
    runs = []
    for i, d in enumerate(plan):
        a = d['accommodation']
        if runs and runs[-1][2] == a and runs[-1][1] == i - 1: runs[-1][1] = i
        else: runs.append([i, i, a])
    return runs


def _sequence(d) -> list[tuple[str, str]]:
    "(kind, value) in the order of the day: breakfast, the first half of the sights, lunch, the other sights, dinner."
    at = _attractions(d['attraction'])
    h = (len(at) + 1) // 2
    seq = [('breakfast', d['breakfast'])] if d['breakfast'] != '-' else []
    seq += [('sight', x) for x in at[:h]]
    seq += [('lunch', d['lunch'])] if d['lunch'] != '-' else []
    seq += [('sight', x) for x in at[h:]]
    return seq + ([('dinner', d['dinner'])] if d['dinner'] != '-' else [])


def _used(plan) -> set[str]:
    return ({_name_city(d[k])[0] for d in plan for k in (*_MEALS, 'accommodation') if d[k] != '-'} |
            {_name_city(a)[0] for d in plan for a in _attractions(d['attraction'])})


def _decoy(table, city, used, rng):
    "A name of `table` in `city` that the plan does not use (nor holds as a substring, nor is held in)."
    cands = {n for n, _ in getattr(_index(), table).get(city, ()) if len(n) > 3 and n == n.strip() and '\n' not in n
             and not any(n in u or u in n for u in used) and not re.search(r'[→|*➡]', n)}
    return rng.choice(sorted(cands)) if cands else None


def _restaurant(n, c): return next((r for r in _index().find('restaurants', n, c) if r.name == n), None)


def _stay(n, c): return next((s for s in _index().find('accommodations', n, c) if s.name == n), None)


def _usd(x) -> str: return f"${x:,.0f}" if float(x) == int(x) else f"${x:,.2f}"


def _people(task) -> int: return _get(task, 'people_number', 1) or 1


def _h12(t: str) -> str:
    "'15:40' -> '3:40pm'."
    h, m = map(int, t.split(':'))
    return f"{h % 12 or 12}:{m:02d}{'am' if h < 12 else 'pm'}"


def _h24(t: str) -> str:
    "'3:40pm' -> '15:40' (the inverse of `_h12`)."
    m = re.fullmatch(r'(\d{1,2}):(\d\d)(am|pm)', t)
    if not m: raise ValueError(f"not a 12-hour time: {t!r}")
    h = int(m[1]) % 12 + (12 if m[3] == 'pm' else 0)
    return f"{h:02d}:{m[2]}"


def _leg_line(t: str) -> str:
    "'Flight F1, A → B, 15:40–17:04' | 'Self-drive, A → B, 3 hours 11 mins, $120' | 'Taxi, ...' (per_day_options)."
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"Flight {p['number']}, {p['a']} → {p['b']}, {p['dep']}–{p['arr']}"
    return f"{'Taxi' if p['mode'] == 'taxi' else 'Self-drive'}, {p['a']} → {p['b']}, {p['duration']}, ${p['cost']}"

# -------------------------------------------------------------------------------------------------------------- layouts
_DAY_SPAN = datetime.timedelta(days=1)


def ics_calendar(plan, task, ph):
    """An iCalendar file in a ```ics block (or a bare ``` block), "to import": BEGIN:VCALENDAR, then per day an all-day
    VEVENT (DTSTART;VALUE=DATE) whose SUMMARY is "Day 2 · Rockford" / "Day 1 · A → B", the leg as a timed VEVENT
    ("✈ Flight F1: A → B" at its real times, DTEND on the next date when it lands after midnight; "🚗 Self-drive: A → B"
    / "🚕 Taxi: A → B" with "3 hours 11 mins · $120 · 250 km" in DESCRIPTION), meals ("Breakfast — X") and sights
    ("Visit X") at suggested times with the city (or 'Name, City') in LOCATION; each stay ONE all-day event over its
    nights ("🏨 Stay: X", DTEND = the check-out date), after its check-in day or all together at the end. In some
    renderings an earlier restaurant booking is left in with STATUS:CANCELLED ("Cancelled: Dinner — Y", "replaced by
    X") before the one that replaced it."""
    r = ph.rng
    loc_full, stays_last = r.random() < 0.5, r.random() < 0.5
    fence = r.choice(('```ics', '```', '```ics'))
    cancel = None
    if r.random() < 0.45:
        slots = [(i, m) for i, d in enumerate(plan) for m in _MEALS if d[m] != '-']
        if slots:
            i, m = r.choice(slots)
            c = _name_city(plan[i][m])[1]
            if (x := _decoy('restaurants', c, _used(plan), r)): cancel = (i, m, x)
    loc = lambda v: v if loc_full else _name_city(v)[1]
    stamp = ('DTSTAMP', '20220301T090000Z')
    ev = lambda props: ['BEGIN:VEVENT', *[f"{k}:{v}" for k, v in props], 'END:VEVENT']
    hm = lambda m: f"{m // 60 % 24:02d}{m % 60:02d}00"
    org, dest = _get(task, 'org'), _get(task, 'dest')
    out = [r.choice(("I've put the whole trip into a calendar file — save it as `trip.ics` and import it into Google "
                     "Calendar, Outlook or Apple Calendar:",
                     "Here is your itinerary as an .ics calendar (one event per activity; hotel stays span their nights):")),
           '', fence, 'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//trip-planner-agent//itinerary 1.0//EN',
           'CALSCALE:GREGORIAN', 'METHOD:PUBLISH', f"X-WR-CALNAME:{org} → {dest} · {len(plan)} days"]
    stays = []
    for a, b, acc in _runs(plan):
        if acc == '-': continue
        d0, d1 = _date(task, a), _date(task, b) + _DAY_SPAN
        k = b - a + 1
        stays.append((a, ev([('UID', f"stay-{a + 1}@trip-agent"), stamp, ('DTSTART;VALUE=DATE', f"{d0:%Y%m%d}"),
                             ('DTEND;VALUE=DATE', f"{d1:%Y%m%d}"), ('SUMMARY', f"🏨 Stay: {_name_city(acc)[0]}"),
                             ('LOCATION', loc(acc)),
                             ('DESCRIPTION', f"{k} night{'s' * (k > 1)} · check-in {d0:%a %-d %b} · check-out {d1:%a %-d %b}"),
                             ('TRANSP', 'TRANSPARENT')])))
    for i, d in enumerate(plan):
        day, ds = _date(task, i), _fd(task, i, 'ics')
        a, b = _cities(d['current_city'])
        out += ev([('UID', f"day-{d['days']}@trip-agent"), stamp, ('DTSTART;VALUE=DATE', ds),
                   ('DTEND;VALUE=DATE', f"{day + _DAY_SPAN:%Y%m%d}"),
                   ('SUMMARY', f"Day {d['days']} · " + (f"{a} → {b}" if a != b else a)), ('TRANSP', 'TRANSPARENT')])
        timed = []                                     # the day's timed events, written in time order
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            if p['mode'] == 'flight':
                end = day + _DAY_SPAN if p['arr'] < p['dep'] else day
                timed.append([('UID', f"leg-{d['days']}@trip-agent"), stamp, ('DTSTART', f"{ds}T{p['dep'].replace(':', '')}00"),
                              ('DTEND', f"{end:%Y%m%d}T{p['arr'].replace(':', '')}00"),
                              ('SUMMARY', f"✈ Flight {p['number']}: {p['a']} → {p['b']}"), ('LOCATION', p['a']),
                              ('DESCRIPTION', f"Departs {p['dep']} · lands {p['arr']} (local times)")])
            else:
                t0 = datetime.datetime.combine(day, datetime.time(7, 30))
                t1 = t0 + datetime.timedelta(minutes=_minutes(p['duration']))
                timed.append([('UID', f"leg-{d['days']}@trip-agent"), stamp, ('DTSTART', f"{t0:%Y%m%dT%H%M%S}"),
                              ('DTEND', f"{t1:%Y%m%dT%H%M%S}"),
                              ('SUMMARY', f"{'🚕 Taxi' if p['mode'] == 'taxi' else '🚗 Self-drive'}: {p['a']} → {p['b']}"),
                              ('LOCATION', p['a']),
                              ('DESCRIPTION', f"{p['duration']} · ${p['cost']} · {_road(d['transportation']).get('distance', '')}")])
        seq = _sequence(d)
        nat, am, pm, k = sum(x == 'sight' for x, _ in seq), 9 * 60 + 30, 14 * 60, 0
        for kind, v in seq:
            n, c = _name_city(v)
            if kind == 'sight':                        # the first half of the sights in the morning, the rest after lunch
                k += 1
                if k <= (nat + 1) // 2: s, am = am, am + 90
                else: s, pm = pm, pm + 90
                e, summ = s + 75, f"Visit {n}"
            else:
                s, e = {'breakfast': (480, 540), 'lunch': (750, 810), 'dinner': (1140, 1230)}[kind]
                summ = f"{kind.capitalize()} — {n}"
                if cancel and cancel[:2] == (i, kind):
                    timed.append([('UID', f"cancelled-{d['days']}-{kind}@trip-agent"), stamp, ('DTSTART', f"{ds}T{hm(s)}"),
                                  ('DTEND', f"{ds}T{hm(e)}"), ('SUMMARY', f"Cancelled: {kind.capitalize()} — {cancel[2]}"),
                                  ('LOCATION', c), ('STATUS', 'CANCELLED'), ('DESCRIPTION', f"Cancelled (no table free) — replaced by {n}")])
            timed.append([('UID', f"{kind}-{d['days']}-{s}@trip-agent"), stamp, ('DTSTART', f"{ds}T{hm(s)}"),
                          ('DTEND', f"{ds}T{hm(e)}"), ('SUMMARY', summ), ('LOCATION', loc(v))])
        for props in sorted(timed, key=lambda ps: ps[2][1]): out += ev(props)
        if not stays_last: out += [x for a_, lines in stays if a_ == i for x in lines]
    if stays_last:
        for _, lines in stays: out += lines
    out += ['END:VCALENDAR', '```', '',
            r.choice(("Meal and sightseeing times are suggestions; flights are at their scheduled times.",
                      "Tip: import into a separate calendar so you can delete it in one go after the trip."))]
    return '\n'.join(out)


def _cell(s: str) -> str: return s.replace('|', '\\|')     # a markdown table cell: '|' escaped as markdown does


def cost_ledger(plan, task, ph):
    """The plan as a spending ledger in one markdown table (# | Day | City | Expense | Paid to / details | Qty × unit |
    Amount | Budget left): a bold row per day ("**Day 2 · Thu 17 Mar**", "**Rockford**" or "**A → B**"), then its
    purchases in the order of the day — Flight ("F1 · A → B · 15:40–17:04", travellers × fare), Self-drive / Taxi ("A →
    B · 3 hours 11 mins · 250 km", vehicles × cost), Breakfast / Lunch / Dinner (the restaurant, its city in the City
    column, travellers × average cost), Sightseeing (no charge), Lodging on the check-in day only ("2 nights (Day 1–2)
    × 1 room × $150"); a running budget column, a total and the category totals after the table. Prices are the
    database's ('n/a' where it has none)."""
    r = ph.rng
    n, budget = _people(task), _get(task, 'budget')
    budget = budget if isinstance(budget, (int, float)) else None
    ix = _index()
    out = [r.choice((f"Here's the trip as a ledger — every line is something you book or pay for, in the order you'll "
                     f"spend it, for {n} traveller{'s' * (n != 1)}" + (f" and a {_usd(budget)} budget." if budget else '.'),
                     "Below is a line-by-line cost ledger of the whole itinerary (one bold row per day, then what you pay "
                     "for that day).")), '',
           '| # | Day | City | Expense | Paid to / details | Qty × unit | Amount | Budget left |',
           '|---:|---|---|---|---|---|---:|---:|']
    spent, k, cat = 0.0, 0, {'Transport': 0.0, 'Food': 0.0, 'Lodging': 0.0}
    runs = {a: (a, b, acc) for a, b, acc in _runs(plan) if acc != '-'}
    def row(city, what, details, qty, amount, group):
        nonlocal spent, k
        k += 1
        if amount is not None: spent += amount; cat[group] += amount
        left = _usd(budget - spent) if budget is not None else '—'
        out.append(f"| {k} | | {_cell(city)} | {what} | {_cell(details)} | {qty} | {_usd(amount) if amount is not None else 'n/a'} | {left} |")
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        out.append(f"| | **Day {d['days']} · {_fd(task, i, 'dm')}** | **" + (f"{a} → {b}" if a != b else a) + "** | | | | | |")
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            if p['mode'] == 'flight':
                fare = ix.flight_price(p['number'])
                row('—', 'Flight', f"{p['number']} · {p['a']} → {p['b']} · {p['dep']}–{p['arr']}",
                    f"{n} × {_usd(fare)}" if fare is not None else f"{n} × n/a", fare * n if fare is not None else None, 'Transport')
            else:
                taxi = p['mode'] == 'taxi'
                v = math.ceil(n / (4 if taxi else 5))
                row('—', 'Taxi' if taxi else 'Self-drive', f"{p['a']} → {p['b']} · {p['duration']} · {_road(d['transportation']).get('distance', '?')}",
                    f"{v} {'taxi' if taxi else 'car'}{'s' * (v > 1)} × ${p['cost']}", float(p['cost']) * v, 'Transport')
        for kind, val in _sequence(d):
            nm, c = _name_city(val)
            if kind == 'sight':
                k += 1
                out.append(f"| {k} | | {_cell(c)} | Sightseeing | {_cell(nm)} | — | $0 | " +
                           (f"{_usd(budget - spent)} |" if budget is not None else "— |"))
                continue
            x = _restaurant(nm, c)
            row(c, kind.capitalize(), nm, f"{n} × {_usd(x.cost)}" if x else 'n/a', x.cost * n if x else None, 'Food')
        if i in runs:
            a_, b_, acc = runs[i]
            nm, c = _name_city(acc)
            s = _stay(nm, c)
            nights = b_ - a_ + 1
            span = f"Day {plan[a_]['days']}" + (f"–{plan[b_]['days']}" if b_ > a_ else '')
            rooms = math.ceil(n / s.max_occupancy) if s and s.max_occupancy else 1
            row(c, 'Lodging', nm, f"{nights} night{'s' * (nights > 1)} ({span}) × {rooms} room{'s' * (rooms > 1)} × " +
                (_usd(s.price) if s else 'n/a'), s.price * rooms * nights if s else None, 'Lodging')
    out += ['', f"**Total: {_usd(spent)}**" + (f" of your {_usd(budget)} budget — " + (f"{_usd(budget - spent)} to spare."
             if spent <= budget else f"{_usd(spent - budget)} over; tell me and I'll trim it.") if budget is not None else '.'),
            '', 'By category: ' + ' · '.join(f"{g} {_usd(v)}" for g, v in cat.items()),
            '', r.choice(("Meals that aren't listed are not planned (you're travelling or eating on the go).",
                          "No row for a meal means none is planned for it."))]
    return '\n'.join(out)


def _org_meal(ph, m: str) -> str:
    "The drawn meal label, in Org's own bold ('*Lunch:* ') where the draw is bold."
    return f"*{m.capitalize()}:* " if ph.label == 'boldcolon' else ph.meal_prefix(m.capitalize())


def _tag(s: str, tag: str | None, on: bool) -> str: return f"{s:<66} :{tag}:" if on and tag else s


def org_agenda(plan, task, ph):
    """An Emacs Org-mode outline in a ```org block: #+TITLE / #+DATE / #+TODO lines, then per day "* Day 1: A → B"
    (tagged :travel: in some renderings) with an active timestamp <2022-03-16 Wed> and a :PROPERTIES: drawer (:ROUTE:,
    :LODGING: or "none (last day)"); "** BOOKED Flight F1: A → B" with "<2022-03-16 Wed 15:40>--<2022-03-16 Wed 17:04>",
    "** BOOKED Self-drive: A → B" / "Taxi" with "- Duration :: ..." and "- Cost :: $..." items; "** TODO Lunch: X"
    headlines in the drawn meal label (":food:" tags right-aligned in some renderings), an empty meal either left out or
    "** (no breakfast planned)"; sights as "- [ ]" checkboxes under "** TODO Sightseeing [0/2]"."""
    r = ph.rng
    tags, empty_line, fenced = r.random() < 0.6, r.random() < 0.5, r.random() < 0.75
    org, dest = _get(task, 'org'), _get(task, 'dest')
    out = [r.choice(("Here's the itinerary as an Org-mode file — paste it into Emacs (or Logseq / Orgzly) and fold by day:",
                     "Org outline of the trip (TODO = still to book, BOOKED = travel already fixed):")), '']
    if fenced: out.append('```org')
    out += [f"#+TITLE: {org} → {dest}, {len(plan)} days", f"#+DATE: <{_fd(task, 0, 'org')}>--<{_fd(task, len(plan) - 1, 'org')}>",
            '#+TODO: TODO BOOKED | DONE', '#+STARTUP: overview', '']
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        route = f"{a} → {b}" if a != b else a
        out += [_tag(f"* Day {d['days']}: {route}", 'travel' if a != b else None, tags), f"  <{_fd(task, i, 'org')}>",
                '  :PROPERTIES:', f"  :ROUTE:    {route}",
                f"  :LODGING:  {ph.venue(d['accommodation']) if d['accommodation'] != '-' else 'none (last day)'}", '  :END:']
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            if p['mode'] == 'flight':
                end = _date(task, i) + (_DAY_SPAN if p['arr'] < p['dep'] else datetime.timedelta(0))
                out += [_tag(f"** BOOKED Flight {p['number']}: {p['a']} → {p['b']}", 'flight', tags),
                        f"   <{_fd(task, i, 'org')} {p['dep']}>--<{end.isoformat()} {end:%a} {p['arr']}>"]
            else:
                out += [_tag(f"** BOOKED {'Taxi' if p['mode'] == 'taxi' else 'Self-drive'}: {p['a']} → {p['b']}", 'drive', tags),
                        f"   - Duration :: {p['duration']}", f"   - Cost :: ${p['cost']}"]
        for m in _MEALS:
            if m == 'lunch' and (at := _attractions(d['attraction'])):
                out.append(_tag(f"** TODO Sightseeing [0/{len(at)}]", 'sights', tags))
                out += [f"   - [ ] {ph.venue(x)}" for x in at]
            if d[m] != '-': out.append(_tag(f"** TODO {_org_meal(ph, m)}{ph.venue(d[m])}", 'food', tags))
            elif empty_line: out.append(f"** (no {m} planned)")
        out.append('')
    if fenced: out.append('```')
    return '\n'.join(out + ['', r.choice(("Press TAB on a day to expand it; C-c C-t cycles TODO → BOOKED → DONE.",
                                          "Mark things BOOKED as you go."))])


def _tool_day(d, i, task, null_meals):
    a, b = _cities(d['current_city'])
    ev = []
    if d['transportation'] != '-':
        p = _leg_parts(d['transportation'])
        if p['mode'] == 'flight':
            ev.append({'type': 'transport', 'mode': 'flight', 'flight_number': p['number'], 'from': p['a'], 'to': p['b'],
                       'departure': p['dep'], 'arrival': p['arr']})
        else:
            rd = _road(d['transportation'])
            ev.append({'type': 'transport', 'mode': 'taxi' if p['mode'] == 'taxi' else 'self-driving', 'from': p['a'],
                       'to': p['b'], 'duration': p['duration'], 'distance': rd.get('distance'), 'cost': int(p['cost'])})
    for m in _MEALS:
        if d[m] == '-' and null_meals: ev.append({'type': 'meal', 'meal': m, 'name': None, 'city': None})
    for kind, v in _sequence(d):
        n, c = _name_city(v)
        ev.append({'type': 'attraction', 'name': n, 'city': c} if kind == 'sight' else {'type': 'meal', 'meal': kind, 'name': n, 'city': c})
    acc = d['accommodation']
    return {'day': d['days'], 'date': _fd(task, i, 'iso'), 'cities': [a, b] if a != b else [a],
            'overnight': {'name': _name_city(acc)[0], 'city': _name_city(acc)[1]} if acc != '-' else None, 'events': ev}


def tool_call_json(plan, task, ph):
    """The agent's final action, a function call `submit_travel_plan`: Hermes / Qwen style, "<tool_call>{"name": ...,
    "arguments": {...}}</tool_call>" (one line or indented), or OpenAI style, a ```json message whose "tool_calls" hold
    "function": {"name": ..., "arguments": "..."} with the arguments DOUBLE-ENCODED as a JSON string. Arguments: origin,
    destination, travelers, budget and "days": [{"day", "date", "cities": [A, B] | [A], "overnight": {"name", "city"} |
    null, "events": [{"type": "transport", "mode": "flight", "flight_number", "from", "to", "departure", "arrival"} |
    {..., "mode": "self-driving" | "taxi", "duration", "distance", "cost"}, {"type": "meal", "meal": "lunch", "name",
    "city"} (an empty meal null-named in some renderings, absent in others), {"type": "attraction", "name", "city"}]}]."""
    r = ph.rng
    style, null_meals, indent = r.choice(('hermes', 'openai')), r.random() < 0.5, r.choice((None, 2))
    args = {'origin': _get(task, 'org'), 'destination': _get(task, 'dest'), 'travelers': _people(task),
            'budget_usd': _get(task, 'budget'), 'days': [_tool_day(d, i, task, null_meals) for i, d in enumerate(plan)]}
    lead = r.choice(("Thought: all constraints are checked (budget, house rules, cuisines, transport). Submitting the final plan.",
                     "I have everything I need. Calling the submission tool with the final itinerary.",
                     "Thought: The plan is complete and verified against the database.\nAction:"))
    if style == 'hermes':
        call = json.dumps({'name': 'submit_travel_plan', 'arguments': args}, ensure_ascii=False, indent=indent)
        return f"{lead}\n<tool_call>\n{call}\n</tool_call>"
    cid = 'call_' + ''.join(r.choice('abcdefghijklmnopqrstuvwxyz0123456789') for _ in range(24))
    msg = {'role': 'assistant', 'content': None, 'tool_calls': [
        {'id': cid, 'type': 'function', 'function': {'name': 'submit_travel_plan', 'arguments': json.dumps(args, ensure_ascii=False)}}]}
    return f"{lead}\n\n```json\n{json.dumps(msg, ensure_ascii=False, indent=2)}\n```"


_REASON_STAY = ("the reviews were mixed", "the location is less convenient for the sights", "it was a worse fit for these dates")
_REASON_FOOD = ("it's a detour from the rest of that day", "the other place suits the day better", "it gets very busy at that hour")
_REASON_SIGHT = ("to keep that day relaxed", "because the day was already full", "since it needs more time than the day allows")


def _arrow_line(d, i, task, ph) -> str:
    a, b = _cities(d['current_city'])
    items = []
    if d['transportation'] != '-':
        p = _leg_parts(d['transportation'])
        items.append(f"✈ {p['number']} {p['dep']}–{p['arr']}" if p['mode'] == 'flight' else
                     f"{'🚕 taxi' if p['mode'] == 'taxi' else '🚗 self-drive'} ~{p['duration']}, ${p['cost']}")
    items += [ph.venue(v) if k == 'sight' else f"{k} at {ph.venue(v)}" for k, v in _sequence(d)]
    acc = d['accommodation']
    items.append(f"🛏 {ph.venue(acc)}" if acc != '-' else '🏁 no hotel (trip ends)')
    return f"**Day {d['days']}** ({_fd(task, i, 'us')} · " + (f"{a} to {b}" if a != b else a) + "): " + ' → '.join(items)


def _chatty_decoys(plan, rng):
    "[(kind, day index, slot, chosen value, decoy name)]: one rejected stay, one or two rejected meals, maybe a sight."
    used, out = _used(plan), []
    stays = [(a, acc) for a, b, acc in _runs(plan) if acc != '-']
    if stays:
        a, acc = rng.choice(stays)
        if (x := _decoy('accommodations', _name_city(acc)[1], used, rng)): used.add(x); out.append(('stay', a, 'accommodation', acc, x))
    meals = [(i, m) for i, d in enumerate(plan) for m in _MEALS if d[m] != '-']
    for i, m in rng.sample(meals, min(len(meals), rng.choice((1, 2)))):
        if (x := _decoy('restaurants', _name_city(plan[i][m])[1], used, rng)): used.add(x); out.append(('meal', i, m, plan[i][m], x))
    sights = [(i, a) for i, d in enumerate(plan) for a in _attractions(d['attraction'])]
    if sights and rng.random() < 0.5:
        i, a = rng.choice(sights)
        if (x := _decoy('attractions', _name_city(a)[1], used, rng)): out.append(('sight', i, 'attraction', a, x))
    return out


def chatty_then_arrows(plan, task, ph):
    """A long chatty answer that talks the choices through — the request restated, each leg ("Day 1: flight F1 from A
    to B leaves at 15:40 and lands at 17:04."), each stay ("For the nights of Day 1–2 in Rockford I picked X."), food and
    sights — naming REJECTED alternatives unambiguously ("I also looked at **Y**, but the reviews were mixed, so it is
    not in the plan." / "I had pencilled in **Y** for lunch on Day 2, but swapped it for **X** — ..." / "**Y** was on my
    shortlist for Day 3 too, but I left it out of the plan ..."); then a TL;DR, one line per day, an arrow chain in the
    order of the day: "**Day 2** (Thu 3/17 · Rockford): breakfast at X → A → B → lunch at Y → C → dinner at Z → 🛏 W"
    (the leg first: "✈ F1 15:40–17:04" / "🚗 self-drive ~3 hours 11 mins, $120"; sights unlabelled; "🏁 no hotel (trip
    ends)")."""
    r = ph.rng
    n, budget = _people(task), _get(task, 'budget')
    dec = _chatty_decoys(plan, r)
    out = [f"Sure! So that's a {len(plan)}-day trip from {_get(task, 'org')} to {_get(task, 'dest')} for {n} "
           f"traveller{'s' * (n != 1)}" + (f", with {_usd(budget)} to spend in total" if isinstance(budget, (int, float)) else '') +
           ". Let me think it through step by step before I give you the short version.", '']
    legs = []
    for d in plan:
        if d['transportation'] == '-': continue
        p = _leg_parts(d['transportation'])
        legs.append(f"Day {d['days']}: flight {p['number']} from {p['a']} to {p['b']} leaves at {p['dep']} and lands at {p['arr']}."
                    if p['mode'] == 'flight' else
                    f"Day {d['days']}: {'a taxi' if p['mode'] == 'taxi' else 'driving yourself'} from {p['a']} to {p['b']} "
                    f"takes about {p['duration']} and costs ${p['cost']}.")
    out += ["**Getting around.** " + (' '.join(legs) if legs else "No long legs to book — you stay put."), '']
    st = []
    for a, b, acc in _runs(plan):
        if acc == '-': continue
        nights = f"the night of Day {plan[a]['days']}" if a == b else f"the nights of Day {plan[a]['days']}–{plan[b]['days']}"
        s = f"For {nights} in {_name_city(acc)[1]} I picked {_name_city(acc)[0]}."
        for kind, i, slot, chosen, x in dec:
            if kind == 'stay' and i == a: s += f" I also looked at **{x}**, but {r.choice(_REASON_STAY)}, so it is not in the plan."
        st.append(s)
    out += ["**Where to sleep.** " + (' '.join(st) if st else "No overnight stays needed."), '']
    food = [f"I had pencilled in **{x}** for {slot} on Day {plan[i]['days']}, but swapped it for **{_name_city(chosen)[0]}** — "
            f"{r.choice(_REASON_FOOD)}." for kind, i, slot, chosen, x in dec if kind == 'meal']
    nm = sum(d[m] != '-' for d in plan for m in _MEALS)
    out += [' '.join([f"**Food.** {nm} meal{'s' * (nm != 1)} planned in all."] + food), '']
    sg = [f"**{x}** was on my shortlist for Day {plan[i]['days']} too, but I left it out of the plan {r.choice(_REASON_SIGHT)}."
          for kind, i, slot, chosen, x in dec if kind == 'sight']
    na = sum(len(_attractions(d['attraction'])) for d in plan)
    out += [' '.join([f"**Sights.** {na} sight{'s' * (na != 1)} in all."] + sg), '']
    out += [r.choice(("**TL;DR — the final plan, one line per day:**", "**Final itinerary (one line per day):**")), '']
    for i, d in enumerate(plan): out += [_arrow_line(d, i, task, ph), '']
    return '\n'.join(out + [r.choice(("Want me to swap anything or add the costs?", "Happy to adjust any of it!"))])


def _opt_lines(d, ph) -> list[str]:
    out = []
    for m in _MEALS:
        if m == 'lunch' and (at := _attractions(d['attraction'])): out.append(f"- Sights: {ph.items(at)}")
        if d[m] != '-': out.append(f"- {ph.meal(m.capitalize(), d[m])}")
    return out


_THEMES = ("the relaxed version", "the food-first version", "more sightseeing", "the compact version", "the local favourites")
_WHY = ("less walking between stops", "it fits the budget a little better", "the places are closer to each other",
        "better reviewed", "it leaves more time at the sights")


def _alternative(d, rng, used):
    "A version of day `d` with one or two meals / sights replaced by other places in the same city (or None)."
    alt = dict(d)
    slots = [m for m in _MEALS if d[m] != '-'] + (['attraction'] if _attractions(d['attraction']) else [])
    rng.shuffle(slots)
    for s in slots[:rng.choice((1, 2))]:
        if s == 'attraction':
            at = _attractions(d['attraction'])
            k = rng.randrange(len(at))
            c = _name_city(at[k])[1]
            if (x := _decoy('attractions', c, used, rng)):
                used.add(x); at = list(at); at[k] = f"{x}, {c}"; alt['attraction'] = ''.join(a + ';' for a in at)
        else:
            c = _name_city(d[s])[1]
            if (x := _decoy('restaurants', c, used, rng)): used.add(x); alt[s] = f"{x}, {c}"
    return alt if alt != d else None


def per_day_options(plan, task, ph):
    """Day sections "### Day 2 — Thursday 17 March · Rockford" (or "· A → B") with "- Travel: Flight F1, A → B,
    15:40–17:04" and "- Stay: X" (on option days "- Stay (both options): X"), meals in the drawn label and "- Sights:
    A ✦ B"; on one day (3-day trips) or one or two days two versions, "**Option A — the relaxed version**" and "**Option
    B — ...**", differing in one or two meals / sights; the choice deferred to the end, "### ✅ My recommendation" with
    "- Day 2 → **Option B** (reason)." per option day; the other option is a DECOY."""
    r = ph.rng
    used = _used(plan)
    cand = [i for i, d in enumerate(plan) if _meals(d) or _attractions(d['attraction'])]
    pick = sorted(r.sample(cand, min(len(cand), 1 if len(plan) <= 3 else r.choice((1, 2)))))
    opts = {}
    for i in pick:
        if (alt := _alternative(plan[i], r, used)): opts[i] = (alt, r.choice('AB'))
    days = ' and '.join(f"Day {plan[i]['days']}" for i in opts)
    out = [f"Here's your {len(plan)}-day itinerary from {_get(task, 'org')}." +
           (f" For {days} I've given you two versions to choose from — my recommendation is at the end." if opts else ''), '']
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        out.append(f"### Day {d['days']} — {_fd(task, i, 'uk')} · " + (f"{a} → {b}" if a != b else a))
        if d['transportation'] != '-': out.append(f"- Travel: {_leg_line(d['transportation'])}")
        stay = ph.venue(d['accommodation']) if d['accommodation'] != '-' else 'none (heading home)'
        if i in opts:
            alt, letter = opts[i]
            out.append(f"- Stay (both options): {stay}")
            themes = r.sample(_THEMES, 2)
            for L, th in zip('AB', themes):
                out += ['', f"**Option {L} — {th}**"] + _opt_lines(d if L == letter else alt, ph)
        else:
            out += _opt_lines(d, ph) + [f"- Stay: {stay}"]
        out.append('')
    if opts:
        out += ['### ✅ My recommendation']
        out += [f"- Day {plan[i]['days']} → **Option {letter}** ({r.choice(_WHY)})." for i, (_, letter) in opts.items()]
        out += ['', "Everything else is fixed as written above."]
    return '\n'.join(out)


_SOCIAL_MEAL = {'breakfast': '☕ brekkie: ', 'lunch': '🥗 lunch: ', 'dinner': '🍝 dinner: '}


def social_caption(plan, task, ph):
    """An emoji-heavy social-media post: "✨ 3 DAYS IN ROCKFORD ✨", per day "📍 DAY 1 ┊ Wed 3/16 ┊ A ➡️ B" (or "┊ Rockford
    all day"), "✈️ F1 A ➡️ B · 3:40pm–5:04pm" (12-hour clock) / "🚗 self-drive A ➡️ B · 3 hours 11 mins · $120" / "🚕
    taxi ...", "☕ brekkie: X", "🥗 lunch: X", "🍝 dinner: X" (an empty meal "none today" or left out), "🏛️ spots: A ✦ B"
    (the drawn join), "🛌 crashing at: X" or "🛌 no hotel — heading home 🏠"; hashtags at the end."""
    r = ph.rng
    say_none = r.random() < 0.5
    dest = _get(task, 'dest') or ''
    out = [f"✨ {len(plan)} DAYS IN {dest.upper()} ✨ from {_get(task, 'org')} · {_fd(task, 0, 'us')}–{_fd(task, len(plan) - 1, 'us')}",
           r.choice(("save this for your next trip 📌", "full itinerary below 👇 (saved you hours of research 😮‍💨)")), '']
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        out.append(f"📍 DAY {d['days']} ┊ {_fd(task, i, 'us')} ┊ " + (f"{a} ➡️ {b}" if a != b else f"{a} all day"))
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            out.append(f"✈️ {p['number']} {p['a']} ➡️ {p['b']} · {_h12(p['dep'])}–{_h12(p['arr'])}" if p['mode'] == 'flight' else
                       f"{'🚕 taxi' if p['mode'] == 'taxi' else '🚗 self-drive'} {p['a']} ➡️ {p['b']} · {p['duration']} · ${p['cost']}")
        for m in _MEALS:
            if m == 'lunch' and (at := _attractions(d['attraction'])): out.append(f"🏛️ spots: {ph.items(at)}")
            if d[m] != '-': out.append(_SOCIAL_MEAL[m] + ph.venue(d[m]))
            elif say_none: out.append(_SOCIAL_MEAL[m] + 'none today')
        out.append(f"🛌 crashing at: {ph.venue(d['accommodation'])}" if d['accommodation'] != '-' else "🛌 no hotel — heading home 🏠")
        out.append('')
    tags = ['#' + re.sub(r'[^A-Za-z0-9]', '', c) for c in dict.fromkeys(_cities(d['current_city'])[1] for d in plan)]
    return '\n'.join(out + [r.choice(("drop a 🙋 if you want the budget breakdown!", "which day would you steal? 👀")), '',
                            ' '.join(tags + ['#travelgram', '#foodie', '#itinerary'])])


_LANG8 = {
    'it': dict(day='Giorno', travel='Spostamento', meals=('Colazione', 'Pranzo', 'Cena'), sights='Da visitare',
               stay='Pernottamento', none_stay='nessuno (rientro a casa)', usa='USA', inn='a',
               joins={'; afterwards ': '; poi ', ' & then ': ' e poi '},
               wd=('lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato', 'domenica'),
               mo=('gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre',
                   'novembre', 'dicembre'),
               units={'day': ('giorno', 'giorni'), 'hour': ('ora', 'ore'), 'min': ('min', 'min')},
               intro=("Ecco il tuo itinerario:", "Certo! Ecco il programma del viaggio, giorno per giorno:"), outro="Buon viaggio!"),
    'pt': dict(day='Dia', travel='Transporte', meals=('Café da manhã', 'Almoço', 'Jantar'), sights='Passeios',
               stay='Hospedagem', none_stay='nenhuma (volta para casa)', usa='EUA', inn='em',
               joins={'; afterwards ': '; depois ', ' & then ': ' e depois '},
               wd=('segunda-feira', 'terça-feira', 'quarta-feira', 'quinta-feira', 'sexta-feira', 'sábado', 'domingo'),
               mo=('janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro',
                   'novembro', 'dezembro'),
               units={'day': ('dia', 'dias'), 'hour': ('h', 'h'), 'min': ('min', 'min')},
               intro=("Aqui está o seu roteiro:", "Claro! Segue o roteiro dia a dia:"), outro="Boa viagem!"),
    'nl': dict(day='Dag', travel='Vervoer', meals=('Ontbijt', 'Lunch', 'Diner'), sights='Bezienswaardigheden',
               stay='Overnachting', none_stay='geen (terugreis)', usa='VS', inn='in',
               joins={'; afterwards ': '; daarna ', ' & then ': ' en dan '},
               wd=('maandag', 'dinsdag', 'woensdag', 'donderdag', 'vrijdag', 'zaterdag', 'zondag'),
               mo=('januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober',
                   'november', 'december'),
               units={'day': ('dag', 'dagen'), 'hour': ('uur', 'uur'), 'min': ('min', 'min')},
               intro=("Hier is je reisschema:", "Graag! Dit is het plan, dag voor dag:"), outro="Goede reis!"),
}


def _ldate(lg, task, i) -> str:
    d, L = _date(task, i), _LANG8[lg]
    w, m = L['wd'][d.weekday()], L['mo'][d.month - 1]
    return f"{w}, {d.day} de {m} de {d.year}" if lg == 'pt' else f"{w} {d.day} {m} {d.year}"


def _lroute(lg, cc) -> str:
    a, b = _cities(cc)
    if a == b: return {'it': f"a {a}", 'pt': f"em {a}", 'nl': f"in {a}"}[lg]
    return {'it': f"da {a} a {b}", 'pt': f"de {a} para {b}", 'nl': f"van {a} naar {b}"}[lg]


def _ldur(lg, s) -> str:
    units = _LANG8[lg]['units']
    return ' '.join(f"{n} {units[u][n != 1]}" for n, u in _dur_key(s))


def _ltime(lg, t) -> str: return t.replace(':', 'h') if lg == 'pt' else t.replace(':', '.')


def _lleg(lg, t) -> str:
    p = _leg_parts(t)
    a, b = p['a'], p['b']
    if p['mode'] == 'flight':
        dep, arr = _ltime(lg, p['dep']), _ltime(lg, p['arr'])
        return {'it': f"volo {p['number']} da {a} (partenza ore {dep}) a {b} (arrivo ore {arr})",
                'pt': f"voo {p['number']} de {a} (saída às {dep}) para {b} (chegada às {arr})",
                'nl': f"vlucht {p['number']} van {a} (vertrek {dep} uur) naar {b} (aankomst {arr} uur)"}[lg]
    dur, c = _ldur(lg, p['duration']), p['cost']
    how = {'taxi': {'it': 'taxi', 'pt': 'táxi', 'nl': 'taxi'},
           'drive': {'it': 'in auto propria', 'pt': 'de carro próprio', 'nl': 'met eigen auto'}}[p['mode']][lg]
    return {'it': f"{how} da {a} a {b}, circa {dur}, {c} $", 'pt': f"{how} de {a} para {b}, cerca de {dur}, US$ {c}",
            'nl': f"{how} van {a} naar {b}, ongeveer {dur}, $ {c}"}[lg]


def _lvenue(lg, ph, v) -> str:
    n, c = _name_city(v)
    L = _LANG8[lg]
    if c and ph.loc == 'usa': return f"{n} ({c}, {L['usa']})"
    if c and ph.loc == 'bracket_in': return f"{n} [{L['inn']} {c}]"
    return ph.venue(v)


def _ljoin(lg, ph) -> str: return _LANG8[lg]['joins'].get(ph.join, ph.join)


def it_pt_nl_labels(plan, task, ph):
    """The answer in Italian, Brazilian Portuguese or Dutch (drawn): day heads "### Giorno 1 – mercoledì 16 marzo 2022
    (da A a B)" / "### Dia 1 – quarta-feira, 16 de março de 2022 (de A para B)" / "### Dag 1 – woensdag 16 maart 2022 (van
    A naar B)" ("(a Rockford)" / "(em Rockford)" / "(in Rockford)" on a day in one city); bold labels, one a line, every
    slot stated: Spostamento / Transporte / Vervoer (flights "volo F1 da A (partenza ore 15.40) a B (arrivo ore 17.04)",
    "saída às 15h40", "vertrek 15.40 uur"; road legs with translated durations "3 ore 11 min", "3 h 11 min", "3 uur 11
    min"), Colazione / Café da manhã / Ontbijt, Da visitare / Passeios / Bezienswaardigheden, Pranzo / Almoço / Lunch,
    Cena / Jantar / Diner (an empty meal '—'), Pernottamento / Hospedagem / Overnachting; locatives translated ('X (City,
    EUA)', 'X [a City]'), joins translated ('; poi ', ' e depois ', ' en dan '); names and cities verbatim."""
    r = ph.rng
    lg = r.choice(('it', 'pt', 'nl'))
    L = _LANG8[lg]
    out = [r.choice(L['intro']), '']
    for i, d in enumerate(plan):
        out.append(f"### {L['day']} {d['days']} – {_ldate(lg, task, i)} ({_lroute(lg, d['current_city'])})")
        out.append(f"**{L['travel']}:** " + (_lleg(lg, d['transportation']) if d['transportation'] != '-' else '—'))
        for k, m in enumerate(_MEALS):
            if m == 'lunch':
                at = _attractions(d['attraction'])
                out.append(f"**{L['sights']}:** " + (_ljoin(lg, ph).join(_lvenue(lg, ph, x) for x in at) if at else '—'))
            out.append(f"**{L['meals'][k]}:** " + (_lvenue(lg, ph, d[m]) if d[m] != '-' else '—'))
        out.append(f"**{L['stay']}:** " + (_lvenue(lg, ph, d['accommodation']) if d['accommodation'] != '-' else L['none_stay']))
        out.append('')
    return '\n'.join(out + [L['outro']])


HELDOUT8_LAYOUTS = {f.__name__: f for f in (ics_calendar, cost_ledger, org_agenda, tool_call_json, chatty_then_arrows,
                                             per_day_options, social_caption, it_pt_nl_labels)}
"""Held-out part v8 (layouts and `HELDOUT8_PHRASES`, rendered with `Phr8`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr8(HELDOUT8_PHRASES, random.Random(f"heldout8:{name}:{t.idx}:{j}"), p)


def renderings8(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout8:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT8_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser below, written for the layout (not a general reader): each rendering is read back into
# the plan's own values — the route as current_city ('from A to B' | 'A'), the leg as its parts (flight number, cities,
# times; or mode, cities, duration, cost), each meal and the stay as 'Name, City' or '-', the sights as ['Name, City',
# ...] — and compared with the plan EXACTLY. Decoys (a cancelled booking, rejected alternatives, the option not picked)
# are resolved as the text says.


def _leg_key(t: str):
    "A plan's transportation value as comparable parts (None for '-')."
    if t == '-': return None
    p = _leg_parts(t)
    if p['mode'] == 'flight': return ('flight', p['number'], p['a'], p['b'], p['dep'], p['arr'])
    return (p['mode'], p['a'], p['b'], _dur_key(p['duration']), p['cost'])


def _road_key(mode, a, b, duration, cost): return (mode, a, b, _dur_key(duration), cost)


def _norm(plan) -> list[dict]:
    return [{'current_city': d['current_city'], 'leg': _leg_key(d['transportation']),
             **{m: d[m] for m in (*_MEALS, 'accommodation')}, 'attraction': _attractions(d['attraction'])} for d in plan]


def _blank(cc=None) -> dict:
    return {'current_city': cc, 'leg': None, 'breakfast': '-', 'lunch': '-', 'dinner': '-', 'attraction': [], 'accommodation': '-'}


def _said(said: list, k: str, errs: list, where=''):
    "Note that meal `k` was stated (named or said to be none); twice is an error."
    if k in said: errs.append(f"{where}{k} stated twice")
    said.append(k)


def _all_said(saids: list[list], errs: list):
    "Where a rendering says empty meals, every day states every meal."
    for i, said in enumerate(saids):
        if sorted(said) != sorted(_MEALS): errs.append(f"day {i + 1}: meals stated {said}")


def _put(g: dict, k: str, v, errs: list, where=''):
    "Fill slot `k` of a day once; a second value for it is an error."
    if g[k] not in ('-', None): errs.append(f"{where}{k} given twice ({g[k]!r}, {v!r})")
    g[k] = v


def _cmp(plan, got: list[dict], where='') -> list[str]:
    want = _norm(plan)
    errs = [] if len(got) == len(want) else [f"{where}{len(got)} days read for {len(want)}"]
    for d, w, g in zip(plan, want, got):
        errs += [f"{where}day {d['days']}: {key} {g.get(key)!r} != {w[key]!r}" for key in w if g.get(key) != w[key]]
    return errs



def _check_with(readers: dict, name, task, plan, text, ph) -> list[str]:
    """Errors of one rendering of layout `name`, read back by its reader in `readers` (a layout -> `reader(text, task,
    plan, ph) -> (days, errors)` map): empty = it states exactly the plan, as far as a reader-free check can tell. A
    placeholder the plan does not have (`None`, `nan`, `null`, braces), the reader's own errors, any difference from the
    plan (`_cmp`), or a text that does not parse back. (The `_check_one` of parts v11-v13.)"""
    errs = []
    plan_text = ' '.join(str(v) for d in plan for v in d.values())
    for bad in (r'\bNone\b', r'\bnan\b', r'\bnull\b', '[{}]'):
        if re.search(bad, text) and not re.search(bad, plan_text): errs.append(f"{bad!r} in the text")
    try:
        got, e = readers[name](text, task, plan, ph)
        return errs + e + _cmp(plan, got)
    except (IndexError, KeyError, ValueError, TypeError, AttributeError, AssertionError, StopIteration, SyntaxError) as e:
        return errs + [f"does not parse back: {e!r}"]

def _unvenue(ph, s: str, lg: str | None = None) -> str:
    "'Name, City' of a venue as `ph` places it (and, for `it_pt_nl_labels`, in language `lg`)."
    usa = _LANG8[lg]['usa'] if lg else 'USA'
    inn = _LANG8[lg]['inn'] if lg else 'in'
    if ph.loc == 'usa': m = re.fullmatch(r'(.*) \(([^()]*), ' + usa + r'\)', s, re.S)
    elif ph.loc == 'bracket_in': m = re.fullmatch(r'(.*) \[' + inn + r' ([^\[\]]*)\]', s, re.S)
    elif ph.loc == 'cityfirst':
        c, sep, n = s.partition(' › ')
        if not sep: raise ValueError(f"no '›' in {s!r}")
        return f"{n}, {c}"
    else: return s
    if not m: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
    return f"{m[1]}, {m[2]}"


def _unitems(ph, s: str, join: str | None = None, lg=None) -> list[str]:
    return [_unvenue(ph, x, lg) for x in s.split(join or ph.join)]


def _unmeal(ph, s: str):
    "(meal, venue text) of a line in the drawn meal label, else None."
    for m in _MEALS:
        p = ph.meal_prefix(m.capitalize()) if ph.label != 'colon' else f"{m.capitalize()}: "
        if s.startswith(p): return m, s[len(p):]
    return None


def _route_cc(s: str, sep: str) -> str:
    xs = s.split(sep)
    if len(xs) > 2: raise ValueError(f"route {s!r}")
    return _cc(xs[0], xs[-1])


def _date_index(task, n, fmt) -> dict: return {_fd(task, i, fmt): i for i in range(n)}


# ics_calendar ---------------------------------------------------------------------------------------------------------
def _ics_events(text) -> list[dict]:
    body = text[text.index('BEGIN:VCALENDAR'):text.index('END:VCALENDAR')]
    evs = []
    for e in re.findall(r'BEGIN:VEVENT\n(.*?)\nEND:VEVENT', body, re.S):
        p = {}
        for ln in e.split('\n'):
            k, sep, v = ln.partition(':')
            if not sep or k in p: raise ValueError(f"event line {ln!r}")
            p[k] = v
        evs.append(p)
    return evs


def _read_ics(text, task, plan, ph):
    errs, days = [], {}
    ix = _date_index(task, len(plan), 'ics')
    evs = _ics_events(text)
    if text.count('BEGIN:VEVENT') != len(evs): errs.append("unreadable events")
    live = []
    for p in evs:
        s = p.get('SUMMARY', '')
        if p.get('STATUS') == 'CANCELLED':
            if not s.startswith('Cancelled: '): errs.append(f"cancelled event {s!r} not marked")
            continue
        if s.startswith('Cancelled'): errs.append(f"{s!r} not STATUS:CANCELLED")
        m = re.fullmatch(r'Day (\d+) · (.+)', s)
        if m and 'DTSTART;VALUE=DATE' in p:
            k = int(m[1]) - 1
            if ix.get(p['DTSTART;VALUE=DATE']) != k or k in days: errs.append(f"day event {s!r} on {p['DTSTART;VALUE=DATE']}")
            days[k] = _blank(_route_cc(m[2], ' → '))
        else: live.append(p)
    if sorted(days) != list(range(len(days))): return [], errs + [f"day events {sorted(days)}"]
    sights = {}
    for p in live:
        s, loc = p.get('SUMMARY', ''), p.get('LOCATION', '')
        city = lambda n: loc[len(n) + 2:] if loc.startswith(n + ', ') else loc
        if s.startswith('🏨 Stay: '):
            n = s[len('🏨 Stay: '):]
            d0 = datetime.datetime.strptime(p['DTSTART;VALUE=DATE'], '%Y%m%d').date()
            d1 = datetime.datetime.strptime(p['DTEND;VALUE=DATE'], '%Y%m%d').date()
            if d1 <= d0: errs.append(f"stay {n!r} of no night")
            while d0 < d1:
                i = ix.get(f"{d0:%Y%m%d}")
                if i is None or i not in days: errs.append(f"stay {n!r} on {d0} outside the trip")
                else: _put(days[i], 'accommodation', f"{n}, {city(n)}", errs, f"night {i + 1}: ")
                d0 += _DAY_SPAN
            continue
        i = ix.get(p.get('DTSTART', '')[:8])
        if i is None or i not in days: errs.append(f"event {s!r} on no day of the trip"); continue
        g, t = days[i], p['DTSTART'][9:13]
        if (m := re.fullmatch(r'✈ Flight (\S+): (.+) → (.+)', s)):
            _put(g, 'leg', ('flight', m[1], m[2], m[3], f"{t[:2]}:{t[2:]}", f"{p['DTEND'][9:11]}:{p['DTEND'][11:13]}"), errs)
        elif (m := re.fullmatch(r'(🚗 Self-drive|🚕 Taxi): (.+) → (.+)', s)):
            q = re.fullmatch(r'(.+) · \$(\d+) · (.*)', p.get('DESCRIPTION', ''))
            if not q: errs.append(f"road leg {s!r} without duration / cost"); continue
            _put(g, 'leg', _road_key('taxi' if 'Taxi' in m[1] else 'drive', m[2], m[3], q[1], q[2]), errs)
        elif (m := re.fullmatch(r'(Breakfast|Lunch|Dinner) — (.+)', s)):
            _put(g, m[1].lower(), f"{m[2]}, {city(m[2])}", errs, f"day {i + 1}: ")
        elif s.startswith('Visit '):
            sights.setdefault(i, []).append((p['DTSTART'], len(sights.get(i, ())), f"{s[6:]}, {city(s[6:])}"))
        else: errs.append(f"event {s!r} unread")
    for i, xs in sights.items(): days[i]['attraction'] = [v for _, _, v in sorted(xs)]
    return [days[k] for k in range(len(days))], errs


# cost_ledger ----------------------------------------------------------------------------------------------------------
def _money(s: str) -> float:
    if not re.fullmatch(r'-?\$[\d,]+(\.\d\d)?', s): raise ValueError(f"amount {s!r}")
    return float(s.replace('$', '').replace(',', ''))


def _read_ledger(text, task, plan, ph):
    errs, days = [], []
    rows = [[c[1:-1].replace('\\|', '|') for c in re.split(r'(?<!\\)\|', ln)[1:-1]] for ln in text.splitlines() if ln.startswith('| ')]
    if not rows or rows[0][3] != 'Expense': return [], ['no ledger table']
    ix = _date_index(task, len(plan), 'dm')
    total, stays = 0.0, []
    for c in rows[1:]:
        if len(c) != 8: errs.append(f"row of {len(c)} cells: {c}"); continue
        if (m := re.fullmatch(r'\*\*Day (\d+) · (.+)\*\*', c[1])):
            if int(m[1]) != len(days) + 1 or ix.get(m[2]) != len(days): errs.append(f"day row {c[1]!r}")
            days.append(_blank(_route_cc(c[2].strip('*'), ' → ')))
            continue
        if not days: errs.append(f"row before any day: {c}"); continue
        g, what, det = days[-1], c[3], c[4]
        if c[6] != 'n/a': total += _money(c[6])
        if what == 'Flight':
            m = re.fullmatch(r'(\S+) · (.+) → (.+) · (\d\d:\d\d)–(\d\d:\d\d)', det)
            if m: _put(g, 'leg', ('flight', *m.groups()), errs)
            else: errs.append(f"flight {det!r}")
        elif what in ('Self-drive', 'Taxi'):
            m, q = re.fullmatch(r'(.+) → (.+) · (.+) · (.+)', det), re.fullmatch(r'\d+ (?:car|taxi)s? × \$(\d+)', c[5])
            if m and q: _put(g, 'leg', _road_key('taxi' if what == 'Taxi' else 'drive', m[1], m[2], m[3], q[1]), errs)
            else: errs.append(f"road leg {det!r} {c[5]!r}")
        elif what in ('Breakfast', 'Lunch', 'Dinner'): _put(g, what.lower(), f"{det}, {c[2]}", errs, f"day {len(days)}: ")
        elif what == 'Sightseeing': g['attraction'].append(f"{det}, {c[2]}")
        elif what == 'Lodging':
            m = re.match(r'(\d+) nights? \(Day (\d+)(?:–(\d+))?\) × ', c[5])
            if not m: errs.append(f"lodging {c[5]!r}"); continue
            a, b = int(m[2]), int(m[3] or m[2])
            if b - a + 1 != int(m[1]) or a != len(days): errs.append(f"lodging nights {c[5]!r} on day {len(days)}")
            stays.append((a, b, f"{det}, {c[2]}"))
        else: errs.append(f"expense {what!r}")
    for a, b, v in stays:
        for k in range(a, b + 1):
            if not 1 <= k <= len(days): errs.append(f"night of day {k} outside the trip"); continue
            _put(days[k - 1], 'accommodation', v, errs, f"night {k}: ")
    m = re.search(r'\*\*Total: (\$[\d,.]+)\*\*', text)
    if not m or abs(_money(m[1]) - total) > 0.01: errs.append(f"total {m and m[1]} != the rows' {total}")
    return days, errs


# org_agenda -----------------------------------------------------------------------------------------------------------
_TAGS = re.compile(r' +(?::[a-z]+)+:$')


def _read_org(text, task, plan, ph):
    errs, days, sub, saids, nsights = [], [], None, [], {}
    ix = _date_index(task, len(plan), 'org')
    lines = text.splitlines()
    for k, ln in enumerate(lines):
        if days and (ln.startswith('```') or ln.startswith(('Press TAB on a day', 'Mark things BOOKED'))): break
        if not days and not ln.startswith('* Day '): continue
        ln = _TAGS.sub('', ln)
        if (m := re.fullmatch(r'\* Day (\d+): (.+)', ln)):
            days.append(_blank(_route_cc(m[2], ' → '))); sub = 'head'; saids.append([])
            if int(m[1]) != len(days): errs.append(f"day {m[1]} in place {len(days)}")
            continue
        g = days[-1]
        if sub == 'head':
            if (m := re.fullmatch(r'  <(.+)>', ln)):
                if ix.get(m[1]) != len(days) - 1: errs.append(f"day {len(days)} stamped {m[1]}")
            elif (m := re.fullmatch(r'  :ROUTE: +(.+)', ln)):
                if _route_cc(m[1], ' → ') != g['current_city']: errs.append(f"day {len(days)}: ROUTE {m[1]!r} != the headline")
            elif (m := re.fullmatch(r'  :LODGING: +(.+)', ln)):
                if m[1] != 'none (last day)': _put(g, 'accommodation', _unvenue(ph, m[1]), errs)
            elif ln in ('  :PROPERTIES:', '  :END:', ''): pass
            elif ln.startswith('** '): sub = None
            else: errs.append(f"day {len(days)}: line {ln!r}")
        if sub == 'head': continue
        if (m := re.fullmatch(r'\*\* BOOKED Flight (\S+): (.+) → (.+)', ln)):
            q = re.fullmatch(r'   <(\S+) \w+ (\d\d:\d\d)>--<(\S+) \w+ (\d\d:\d\d)>', lines[k + 1] if k + 1 < len(lines) else '')
            if not q or q[1] != _fd(task, len(days) - 1, 'iso') or q[3] != (_date(task, len(days) - 1) + _DAY_SPAN * (q[4] < q[2])).isoformat():
                errs.append(f"flight {ln!r} without its times"); continue
            _put(g, 'leg', ('flight', m[1], m[2], m[3], q[2], q[4]), errs); sub = 'flight'
        elif (m := re.fullmatch(r'\*\* BOOKED (Self-drive|Taxi): (.+) → (.+)', ln)):
            _put(g, 'leg', ['taxi' if m[1] == 'Taxi' else 'drive', m[2], m[3], None, None], errs); sub = 'road'
        elif (m := re.fullmatch(r'\*\* TODO Sightseeing \[0/(\d+)\]', ln)):
            if len(days) in nsights: errs.append(f"day {len(days)}: sights twice")
            nsights[len(days)], sub = int(m[1]), 'sights'
        elif (m := re.fullmatch(r'\*\* \(no (breakfast|lunch|dinner) planned\)', ln)): _said(saids[-1], m[1], errs); sub = None
        elif ln.startswith('** TODO ') and (mm := next((x for x in _MEALS if ln[8:].startswith(_org_meal(ph, x))), None)):
            _said(saids[-1], mm, errs, f"day {len(days)}: ")
            _put(g, mm, _unvenue(ph, ln[8 + len(_org_meal(ph, mm)):]), errs, f"day {len(days)}: "); sub = None
        elif sub == 'flight' and ln.startswith('   <'): pass
        elif sub == 'road' and (m := re.fullmatch(r'   - Duration :: (.+)', ln)) and isinstance(g['leg'], list): g['leg'][3] = m[1]
        elif sub == 'road' and (m := re.fullmatch(r'   - Cost :: \$(\d+)', ln)) and isinstance(g['leg'], list): g['leg'][4] = m[1]
        elif sub == 'sights' and ln.startswith('   - [ ] '): g['attraction'].append(_unvenue(ph, ln[9:]))
        elif ln.strip(): errs.append(f"day {len(days)}: line {ln!r}")
    for k, g in enumerate(days, 1):
        if isinstance(g['leg'], list): g['leg'] = _road_key(*g['leg'])
        if nsights.get(k, 0) != len(g['attraction']): errs.append(f"day {k}: [0/{nsights.get(k)}] over {len(g['attraction'])} sights")
    if '\n** (no ' in text: _all_said(saids, errs)
    return days, errs


# tool_call_json -------------------------------------------------------------------------------------------------------
def _tool_args(text) -> dict:
    if '<tool_call>' in text:
        call = json.loads(text.split('<tool_call>\n', 1)[1].rsplit('\n</tool_call>', 1)[0])
        if call['name'] != 'submit_travel_plan': raise ValueError(call['name'])
        return call['arguments']
    msg = json.loads(text.split('```json\n', 1)[1].rsplit('\n```', 1)[0])
    (tc,) = msg['tool_calls']
    if tc['function']['name'] != 'submit_travel_plan': raise ValueError(tc['function']['name'])
    return json.loads(tc['function']['arguments'])


def _read_tool(text, task, plan, ph):
    args, errs, days, saids = _tool_args(text), [], [], []
    for i, o in enumerate(args['days']):
        saids.append([])
        if o['day'] != i + 1 or o['date'] != _fd(task, i, 'iso'): errs.append(f"day {i + 1}: day / date {o['day']} {o['date']}")
        if not 1 <= len(o['cities']) <= 2: errs.append(f"day {i + 1}: cities {o['cities']}")
        g = _blank(_cc(o['cities'][0], o['cities'][-1]))
        if o['overnight'] is not None: g['accommodation'] = f"{o['overnight']['name']}, {o['overnight']['city']}"
        for e in o['events']:
            if e['type'] == 'transport':
                _put(g, 'leg', ('flight', e['flight_number'], e['from'], e['to'], e['departure'], e['arrival']) if e['mode'] == 'flight'
                     else _road_key({'taxi': 'taxi', 'self-driving': 'drive'}[e['mode']], e['from'], e['to'], e['duration'], str(e['cost'])), errs)
            elif e['type'] == 'meal':
                _said(saids[-1], e['meal'], errs, f"day {i + 1}: ")
                if e['name'] is None:
                    if e['city'] is not None: errs.append(f"day {i + 1}: empty {e['meal']} {e}")
                    continue
                _put(g, e['meal'], f"{e['name']}, {e['city']}", errs, f"day {i + 1}: ")
            elif e['type'] == 'attraction': g['attraction'].append(f"{e['name']}, {e['city']}")
            else: errs.append(f"day {i + 1}: event {e}")
        days.append(g)
    if any(e['type'] == 'meal' and e['name'] is None for o in args['days'] for e in o['events']): _all_said(saids, errs)
    return days, errs


# chatty_then_arrows ---------------------------------------------------------------------------------------------------
def _read_arrows(text, task, plan, ph):
    errs, days = [], []
    tail = re.split(r'\n\*\*(?:TL;DR — the final plan, one line per day|Final itinerary \(one line per day\)):\*\*\n', text)
    if len(tail) != 2: return [], ['no single summary marker']
    ix = _date_index(task, len(plan), 'us')
    for ln in tail[1].splitlines():
        if not ln.startswith('**Day '): continue
        m = re.fullmatch(r'\*\*Day (\d+)\*\* \((\w{3} \d+/\d+) · (.+?)\): (.+)', ln)
        if not m: errs.append(f"line {ln!r}"); continue
        if int(m[1]) != len(days) + 1 or ix.get(m[2]) != len(days): errs.append(f"day {m[1]} dated {m[2]}")
        g = _blank(_route_cc(m[3], ' to '))
        days.append(g)
        items = m[4].split(' → ')
        if not items[-1].startswith('🛏 ') and items[-1] != '🏁 no hotel (trip ends)': errs.append(f"day {m[1]}: ends {items[-1]!r}")
        for k, it in enumerate(items):
            if (q := re.fullmatch(r'✈ (\S+) (\d\d:\d\d)–(\d\d:\d\d)', it)):
                a, b = _cities(g['current_city'])
                _put(g, 'leg', ('flight', q[1], a, b, q[2], q[3]), errs)
            elif (q := re.fullmatch(r'(🚕 taxi|🚗 self-drive) ~(.+), \$(\d+)', it)):
                a, b = _cities(g['current_city'])
                _put(g, 'leg', _road_key('taxi' if 'taxi' in q[1] else 'drive', a, b, q[2], q[3]), errs)
            elif (q := re.fullmatch(r'(breakfast|lunch|dinner) at (.+)', it)): _put(g, q[1], _unvenue(ph, q[2]), errs, f"day {m[1]}: ")
            elif it.startswith('🛏 ') and k == len(items) - 1: g['accommodation'] = _unvenue(ph, it[2:])
            elif it == '🏁 no hotel (trip ends)' and k == len(items) - 1: pass
            else: g['attraction'].append(_unvenue(ph, it))
    return days, errs


# per_day_options ------------------------------------------------------------------------------------------------------
def _read_options(text, task, plan, ph):
    errs, days = [], []
    body, sep, rec = text.partition('\n### ✅ My recommendation\n')
    picks = {int(d): L for d, L in re.findall(r'^- Day (\d+) → \*\*Option ([AB])\*\* \(.*\)\.$', rec, re.M)}
    if sep and not picks: errs.append('recommendation unreadable')
    ix = _date_index(task, len(plan), 'uk')
    for blk in body.split('\n### Day ')[1:]:
        lines = blk.split('\n')
        m = re.fullmatch(r'(\d+) — (.+?) · (.+)', lines[0])
        if not m: errs.append(f"head {lines[0]!r}"); continue
        k = int(m[1])
        if k != len(days) + 1 or ix.get(m[2]) != len(days): errs.append(f"day {k} dated {m[2]}")
        g = _blank(_route_cc(m[3], ' → '))
        days.append(g)
        opt, seen_opts, scratch = None, [], {}
        for ln in lines[1:]:
            if (q := re.fullmatch(r'\*\*Option ([AB]) — .+\*\*', ln)): opt = q[1]; seen_opts.append(opt); continue
            if not ln.strip(): continue
            g = days[-1] if not opt or opt == picks.get(k) else scratch.setdefault(opt, _blank())
            if (q := re.fullmatch(r'- Travel: Flight (\S+), (.+) → (.+), (\d\d:\d\d)–(\d\d:\d\d)', ln)) and not opt:
                _put(g, 'leg', ('flight', *q.groups()), errs)
            elif (q := re.fullmatch(r'- Travel: (Self-drive|Taxi), (.+) → (.+), (.+), \$(\d+)', ln)) and not opt:
                _put(g, 'leg', _road_key('taxi' if q[1] == 'Taxi' else 'drive', *q.groups()[1:]), errs)
            elif (q := re.fullmatch(r'- Stay(?: \(both options\))?: (.+)', ln)) and not opt:
                if ('(both options)' in ln) != (k in picks): errs.append(f"day {k}: stay line {ln!r}")
                if q[1] != 'none (heading home)': _put(g, 'accommodation', _unvenue(ph, q[1]), errs)
            elif ln.startswith('- Sights: '):
                if g['attraction']: errs.append(f"day {k}: sights twice")
                g['attraction'] = _unitems(ph, ln[10:])
            elif ln.startswith('- ') and (mm := _unmeal(ph, ln[2:])): _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
            else: errs.append(f"day {k}: line {ln!r}")
        if (k in picks) != (seen_opts == ['A', 'B']): errs.append(f"day {k}: options {seen_opts}, pick {picks.get(k)}")
    if set(picks) - set(range(1, len(days) + 1)): errs.append(f"picks for days {sorted(picks)}")
    return days, errs


# social_caption -------------------------------------------------------------------------------------------------------
def _read_social(text, task, plan, ph):
    errs, days, saids = [], [], []
    ix = _date_index(task, len(plan), 'us')
    for ln in text.splitlines():
        if (m := re.fullmatch(r'📍 DAY (\d+) ┊ (\w{3} \d+/\d+) ┊ (.+)', ln)):
            saids.append([])
            if int(m[1]) != len(days) + 1 or ix.get(m[2]) != len(days): errs.append(f"day {m[1]} dated {m[2]}")
            rt = m[3][:-len(' all day')] if m[3].endswith(' all day') else m[3]
            days.append(_blank(_route_cc(rt, ' ➡️ ')))
            if rt == m[3] and ' ➡️ ' not in rt: errs.append(f"route {m[3]!r}")
            continue
        if not days or not ln.strip(): continue
        g = days[-1]
        if (q := re.fullmatch(r'✈️ (\S+) (.+) ➡️ (.+) · (\S+)–(\S+)', ln)):
            _put(g, 'leg', ('flight', q[1], q[2], q[3], _h24(q[4]), _h24(q[5])), errs)
        elif (q := re.fullmatch(r'(🚕 taxi|🚗 self-drive) (.+) ➡️ (.+) · (.+) · \$(\d+)', ln)):
            _put(g, 'leg', _road_key('taxi' if 'taxi' in q[1] else 'drive', *q.groups()[1:]), errs)
        elif ln.startswith('🏛️ spots: '):
            if g['attraction']: errs.append("spots twice")
            g['attraction'] = _unitems(ph, ln[len('🏛️ spots: '):])
        elif (mm := [m for m, p in _SOCIAL_MEAL.items() if ln.startswith(p)]):
            v = ln[len(_SOCIAL_MEAL[mm[0]]):]
            _said(saids[-1], mm[0], errs, f"day {len(days)}: ")
            if v != 'none today': _put(g, mm[0], _unvenue(ph, v), errs, f"day {len(days)}: ")
        elif ln.startswith('🛌 crashing at: '): _put(g, 'accommodation', _unvenue(ph, ln[len('🛌 crashing at: '):]), errs)
        elif ln == '🛌 no hotel — heading home 🏠': pass
        elif ln.startswith(('drop a ', 'which day', '#')): days.append(None); break
        else: errs.append(f"day {len(days)}: line {ln!r}")
    if days and days[-1] is None: days.pop()
    else: errs.append('no closing line')
    if ': none today\n' in text: _all_said(saids, errs)
    return days, errs


# it_pt_nl_labels ------------------------------------------------------------------------------------------------------
def _read_lang(text, task, plan, ph):
    lg = next((k for k, L in _LANG8.items() if f"### {L['day']} 1 – " in text), None)
    if lg is None: return [], ['language not found']
    L, errs, days = _LANG8[lg], [], []
    dates = {_ldate(lg, task, i): i for i in range(len(plan))}
    labels = {f"**{w}:** ": k for w, k in [(L['travel'], 'leg'), (L['sights'], 'attraction'), (L['stay'], 'accommodation')] +
              list(zip(L['meals'], _MEALS))}
    for ln in text.splitlines():
        if ln.startswith(f"### {L['day']} "):
            m = re.fullmatch(rf"### {L['day']} (\d+) – (.+) \((.+)\)", ln)
            if not m or int(m[1]) != len(days) + 1 or dates.get(m[2]) != len(days): errs.append(f"head {ln!r}"); continue
            q = re.fullmatch({'it': r'da (.+) a (.+)|a (.+)', 'pt': r'de (.+) para (.+)|em (.+)', 'nl': r'van (.+) naar (.+)|in (.+)'}[lg], m[3])
            if not q: errs.append(f"route {m[3]!r}"); continue
            days.append(_blank(_cc(q[1], q[2]) if q[1] else q[3]))
            days[-1]['_seen'] = []
            continue
        if not days or not ln.strip(): continue
        hit = [(p, k) for p, k in labels.items() if ln.startswith(p)]
        if len(hit) != 1:
            if ln != L['outro']: errs.append(f"line {ln!r}")
            continue
        (p, k), g, v = hit[0], days[-1], ln[len(hit[0][0]):]
        if k in g['_seen']: errs.append(f"day {len(days)}: {k} twice")
        g['_seen'].append(k)
        if v == '—' or (k == 'accommodation' and v == L['none_stay']): continue
        if k == 'leg':
            g['leg'] = _read_lleg(lg, v)
            if g['leg'] is None: errs.append(f"leg {v!r}")
        elif k == 'attraction': g['attraction'] = _unitems(ph, v, _ljoin(lg, ph), lg)
        else: g[k] = _unvenue(ph, v, lg)
    for g in days:
        want = ['leg', 'breakfast', 'attraction', 'lunch', 'dinner', 'accommodation']
        if g.pop('_seen') != want: errs.append("a day's labels not all there, in order")
    return days, errs


def _read_lleg(lg, v):
    un = lambda t: t.replace('h', ':').replace('.', ':')
    pat = {'it': (r'volo (\S+) da (.+) \(partenza ore (\S+)\) a (.+) \(arrivo ore (\S+)\)', r'(taxi|in auto propria) da (.+) a (.+), circa (.+), (\d+) \$'),
           'pt': (r'voo (\S+) de (.+) \(saída às (\S+)\) para (.+) \(chegada às (\S+)\)', r'(táxi|de carro próprio) de (.+) para (.+), cerca de (.+), US\$ (\d+)'),
           'nl': (r'vlucht (\S+) van (.+) \(vertrek (\S+) uur\) naar (.+) \(aankomst (\S+) uur\)', r'(taxi|met eigen auto) van (.+) naar (.+), ongeveer (.+), \$ (\d+)')}[lg]
    if (m := re.fullmatch(pat[0], v)): return ('flight', m[1], m[2], m[4], un(m[3]), un(m[5]))
    if (m := re.fullmatch(pat[1], v)):
        units = {w: u for u, ws in _LANG8[lg]['units'].items() for w in ws}
        parts = re.findall(r'(\d+) (\S+)', m[4])
        if ' '.join(f"{n} {w}" for n, w in parts) != m[4] or any(w not in units for _, w in parts): return None
        return ('taxi' if m[1] in ('taxi', 'táxi') else 'drive', m[2], m[3], tuple((int(n), units[w]) for n, w in parts), m[5])
    return None


_READERS = {'ics_calendar': _read_ics, 'cost_ledger': _read_ledger, 'org_agenda': _read_org, 'tool_call_json': _read_tool,
            'chatty_then_arrows': _read_arrows, 'per_day_options': _read_options, 'social_caption': _read_social,
            'it_pt_nl_labels': _read_lang}


def _check_one(name, task, plan, text, ph) -> list[str]:
    "Errors of one rendering (empty = it states exactly the plan, as far as this reader-free check can tell)."
    errs = []
    plan_text = ' '.join(str(v) for d in plan for v in d.values())
    for bad in (r'\bNone\b', r'\bnan\b', r'\bnull\b', '[{}]') if name != 'tool_call_json' else (r'\bNone\b', r'\bnan\b'):
        if re.search(bad, text) and not re.search(bad, plan_text): errs.append(f"{bad!r} in the text")
    try:
        got, e = _READERS[name](text, task, plan, ph)
        return errs + e + _cmp(plan, got)
    except (IndexError, KeyError, ValueError, TypeError, AttributeError, AssertionError, json.JSONDecodeError) as e:
        return errs + [f"does not parse back: {e!r}"]

# ---------------------------------------------------------------------------------------------------------- corruptions
def _swap(text, a, b):
    if not a or not b or a == b or a in b or b in a or a not in text or b not in text: return None
    return text.replace(a, '\0').replace(b, a).replace('\0', b)


def _relabel(name, ph, text):
    "(lunch marker, dinner marker) of a layout: the first lunch made a dinner."
    if name == 'ics_calendar': return 'SUMMARY:Lunch — ', 'SUMMARY:Dinner — '
    if name == 'cost_ledger': return '| Lunch |', '| Dinner |'
    if name == 'org_agenda': return f"** TODO {ph.meal_prefix('Lunch')}", f"** TODO {ph.meal_prefix('Dinner')}"
    if name == 'tool_call_json': return ('"meal": "lunch"', '"meal": "dinner"') if '"meal": "lunch"' in text else ('\\"meal\\": \\"lunch\\"', '\\"meal\\": \\"dinner\\"')
    if name == 'chatty_then_arrows': return ' → lunch at ', ' → dinner at '
    if name == 'per_day_options': return f"- {ph.meal_prefix('Lunch')}", f"- {ph.meal_prefix('Dinner')}"
    if name == 'social_caption': return _SOCIAL_MEAL['lunch'], _SOCIAL_MEAL['dinner']
    for L in _LANG8.values():
        if f"### {L['day']} 1 – " in text: return f"**{L['meals'][1]}:** ", f"**{L['meals'][2]}:** "


_DAY_HEAD = {'cost_ledger': r'\| \| \*\*Day \d+ ', 'org_agenda': r'\* Day \d+: ', 'chatty_then_arrows': r'\*\*Day \d+\*\* ',
             'per_day_options': r'### Day \d+ ', 'social_caption': r'📍 DAY \d+ ', 'it_pt_nl_labels': r'### (?:Giorno|Dia|Dag) \d+ '}


def _drop_day(name, text, task, k=1):
    "The text without day k (0-based): its lines (or its events / its JSON object) removed."
    if name == 'ics_calendar':
        ds = _fd(task, k, 'ics')
        return re.sub(r'BEGIN:VEVENT\n(?:(?!END:VEVENT).)*?DTSTART(?:;VALUE=DATE)?:' + ds + r'.*?END:VEVENT\n', '', text, flags=re.S)
    if name == 'tool_call_json':
        a = _tool_args(text)
        del a['days'][k]
        for i, o in enumerate(a['days']): o['day'] = i + 1
        return "<tool_call>\n" + json.dumps({'name': 'submit_travel_plan', 'arguments': a}, ensure_ascii=False) + "\n</tool_call>"
    lines, out, skip, n = text.split('\n'), [], False, -1
    for ln in lines:
        if re.match(_DAY_HEAD[name], ln): n += 1; skip = n == k
        out.append(ln) if not skip else None
    return '\n'.join(out)


def _decoy_promotions(name, plan, text):
    "[(what, text)]: the decoy of a layout taken for the plan."
    out = []
    if name == 'ics_calendar' and 'STATUS:CANCELLED' in text:
        m = re.search(r'SUMMARY:Cancelled: (\w+) — (.+)\nLOCATION:.*\nSTATUS:CANCELLED\nDESCRIPTION:Cancelled \(no table free\) — replaced by (.+)', text)
        out.append(("cancelled booking reinstated", text.replace('STATUS:CANCELLED', 'STATUS:CONFIRMED').replace('SUMMARY:Cancelled: ', 'SUMMARY:')))
        if m and (s := _swap(text, m[2], m[3])): out.append(("cancelled and kept bookings swapped", s))
    if name == 'chatty_then_arrows':
        for m in re.finditer(r'I had pencilled in \*\*(.+?)\*\* for \w+ on Day \d+, but swapped it for \*\*(.+?)\*\* — ', text):
            if (s := _swap(text, m[1], m[2])): out.append(("rejected restaurant promoted", s)); break
        for v in dict.fromkeys(_name_city(d['accommodation'])[0] for d in plan if d['accommodation'] != '-'):
            m = re.search(re.escape(f"I picked {v}. I also looked at **") + r'(.+?)\*\*, but ', text)
            if m and (s := _swap(text, v, m[1])): out.append(("rejected stay promoted", s)); break
    if name == 'per_day_options' and (m := re.search(r'^- Day (\d+) → \*\*Option ([AB])\*\*', text, re.M)):
        flip = 'B' if m[2] == 'A' else 'A'
        out.append((f"day {m[1]}: the other option recommended", text[:m.start(2)] + flip + text[m.end(2):]))
    return out


def _time_shift(name, plan, text):
    "The first flight's departure moved (a minute later; am / pm flipped on a 12-hour clock)."
    fl = [_leg_parts(d['transportation']) for d in plan if d['transportation'].startswith('Flight')]
    if not fl: return None
    dep, num = fl[0]['dep'], fl[0]['number']
    h, m = map(int, dep.split(':'))
    new = f"{h:02d}:{(m + 1) % 60:02d}" if m < 59 else f"{h:02d}:{m - 1:02d}"
    if name == 'ics_calendar':
        m = re.search(r'DTSTART:\d{8}T(' + dep.replace(':', '') + r')00\nDTEND:.*\nSUMMARY:✈ Flight ' + re.escape(num) + ':', text)
        return text[:m.start(1)] + new.replace(':', '') + text[m.end(1):] if m else None
    if name == 'chatty_then_arrows': return text.replace(f"✈ {num} {dep}–", f"✈ {num} {new}–", 1)
    forms = {'social_caption': (_h12(dep), _h12(dep)[:-2] + ('pm' if h < 12 else 'am')),
             'it_pt_nl_labels': next(((a, b) for a, b in ((dep.replace(':', '.'), new.replace(':', '.')), (dep.replace(':', 'h'), new.replace(':', 'h'))) if a in text), (dep, new))}
    a, b = forms.get(name, (dep, new))
    return text.replace(a, b, 1) if a in text else None


def _relabel_text(name, ph, text, plan):
    "The first lunch (outside an option not picked) labelled dinner; None where the text has no lunch."
    a, b = _relabel(name, ph, text)
    if name == 'per_day_options':                # a day without options: its lunch is the plan's
        m = next((m for m in re.finditer(r'^### Day .*?(?=^### |\Z)', text, re.M | re.S) if '**Option ' not in m[0] and a in m[0]), None)
        if not m: return None
        k = text.index(a, m.start())
        return text[:k] + b + text[k + len(a):]
    return text.replace(a, b, 1) if a in text else None


def _common_mutations(plan, text: str) -> list:
    """The corruptions every sealed part's self-check makes (v8 ... v12), `[(kind, what, corrupted text)]`: a name of the
    middle day deleted, two days' lunches swapped, a day's lunch and dinner swapped, the first flight renumbered, the
    sights of the first and last sightseeing days swapped, the first two stays swapped."""
    out = []
    nm = lambda v: _name_city(v)[0]
    mid = plan[len(plan) // 2]
    for k in ('attraction', 'lunch', 'dinner', 'breakfast', 'accommodation'):
        v = (_attractions(mid[k]) or ['-'])[0] if k == 'attraction' else mid[k]
        if v != '-' and nm(v) in text: out.append(('name deleted', f"delete {k} {nm(v)!r}", text.replace(nm(v), ''))); break
    lunch = [d for d in plan if d['lunch'] != '-']
    for x, y in ((x, y) for i, x in enumerate(lunch) for y in lunch[i + 1:]):
        if (s := _swap(text, nm(x['lunch']), nm(y['lunch']))):
            out.append(('lunches of two days swapped', f"days {x['days']} and {y['days']}", s)); break
    for d in plan:
        if d['lunch'] != '-' and d['dinner'] != '-' and (s := _swap(text, nm(d['lunch']), nm(d['dinner']))):
            out.append(('lunch and dinner swapped', f"day {d['days']}", s)); break
    fl = [_leg_parts(d['transportation'])['number'] for d in plan if d['transportation'].startswith('Flight')]
    if fl and fl[0] in text:
        out.append(('flight renumbered', fl[0], text.replace(fl[0], fl[0][:-1] + str((int(fl[0][-1]) + 1) % 10))))
    atts = [(d, _attractions(d['attraction'])) for d in plan if _attractions(d['attraction'])]
    if len(atts) > 1 and (s := _swap(text, nm(atts[0][1][0]), nm(atts[-1][1][-1]))):
        out.append(('sights of two days swapped', f"days {atts[0][0]['days']} and {atts[-1][0]['days']}", s))
    stays = list(dict.fromkeys(nm(d['accommodation']) for d in plan if d['accommodation'] != '-'))
    if len(stays) > 1 and (s := _swap(text, stays[0], stays[1])): out.append(('two stays swapped', '', s))
    return out


def mutations(name, plan, text, task, ph):
    """[(kind, what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a
    flight renumbered, sights of two days swapped, two stays swapped, a lunch label made dinner, day 2 dropped, a flight's
    departure moved; per layout a decoy promoted (the cancelled booking reinstated or swapped in, a rejected alternative
    swapped in, the other option recommended) and a stay's nights changed (cost_ledger)."""
    out = _common_mutations(plan, text)
    if (s := _relabel_text(name, ph, text, plan)): out.append(('a lunch labelled dinner', '', s))
    out.append(('a day dropped', 'day 2', _drop_day(name, text, task, 1)))
    if (s := _time_shift(name, plan, text)): out.append(("a flight's departure moved", '', s))
    out += [('decoy promoted', w, s) for w, s in _decoy_promotions(name, plan, text)]
    if name == 'cost_ledger' and (m := re.search(r'(\d+) nights? \(Day (\d+)(–(\d+))?\)', text)):
        out.append(("a stay's nights changed", '', text[:m.start()] + f"{int(m[1]) + 1} nights (Day {m[2]}–{int(m[4] or m[2]) + 1})" + text[m.end():]))
    return [x for x in out if x[2] != text]


_DECOY_MARKS = ('STATUS:CANCELLED', 'I also looked at **', 'I had pencilled in **', '### ✅ My recommendation')


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    "The part's self-check (`layouts.selfcheck_part`): failures + missed corruptions."
    return selfcheck_part(HELDOUT8_LAYOUTS, _phr, _check_one, mutations,
                          lambda lay, text: any(m in text for m in _DECOY_MARKS), plans, mutate_every)


if __name__ == '__main__':
    part_cli(__doc__, HELDOUT8_LAYOUTS, _phr, selfcheck)
