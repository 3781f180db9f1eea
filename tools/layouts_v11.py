#!/usr/bin/env python
"""Held-out part v11 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their notebooks
(04a, 04b, 05), tests (test_grounded*, test_layout*, test_robustness) or results/formatter/* were opened, no reader was
run on these texts, and `tools/layouts.py measure` / `record` were not run). Only tools/layouts.py (its interface and its
layouts' source, to avoid repeating them), tools/agreement.py (`_leg_parts`, `_attractions`) and tools/layouts_v5.py ...
layouts_v10.py (their structure and layouts; generic helpers of v8, v9 and v10 are imported) were read. SEALED: this
part is to be scored ONCE by the lead (via tools/layouts.py, part 'heldout11', once registered there) and never tuned on
before that score.

    python tools/layouts_v11.py check                    # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (the `<br>` cells of the day
                                                         # table, the stays header and the Morning / Afternoon /
                                                         # Evening grids, the SQL script EXECUTED in an in-memory
                                                         # SQLite database with its UPDATE / DELETE fixes, the
                                                         # WhatsApp export's messages and replies, the Vietnamese /
                                                         # Indonesian / Hindi / Arabic labels and dates, the cost
                                                         # brackets, the days out of order, the Google Maps links and
                                                         # their URLs) into the plan's own values (venue 'Name, City',
                                                         # route, leg parts) and compared with the plan EXACTLY; then
                                                         # corruptions (a name deleted, lunches swapped, a day dropped,
                                                         # a decoy promoted, a flight time moved, a stay lengthened,
                                                         # ...) must be caught. 315 plans x 8 layouts = 2,520
                                                         # renderings, 19,504 corruptions, ~30 s
    python tools/layouts_v11.py check --limit 40         # the same on the first 40 known plans
    python tools/layouts_v11.py show sql_insert --n 1    # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how chat models and tool-using agents answer "plan me a 3/5/7-day trip", in styles that none of
tools/layouts.py, tools/layouts_v5.py ... tools/layouts_v10.py has (see each renderer's docstring):

* `br_day_cells`        ONE markdown table, one row per day ("| Day | Plan |" or "| Day | Route | Plan |"), each cell a
                        whole day written on several lines joined by `<br>`: "**Day 2**<br>Thu, Mar 17<br>Rockford", and
                        "✈️ **Flight F1**: A → B, 15:40–17:04<br>Breakfast ▸ X<br>📍 **See:**<br>• Y<br>• Z<br>...<br>🏨
                        **Stay:** W"; an empty meal "*(no lunch)*" or left out; '|' in a name escaped '\\|'
* `base_grid`           the stays stated ONCE, at the top ("🏨 **Base for the trip:** X — check in Wed, Mar 16, check out
                        Fri, Mar 18 (2 nights)", or a "Bases for the trip" list), a runner-up hotel as a DECOY ("_(Runner-up:
                        Y — ...; not booked.)_"); then per day "### Day 2 · Thu, Mar 17 · Rockford" and a one-row grid
                        table "| 🌅 Morning | ☀️ Afternoon | 🌙 Evening |" whose cells hold the day's items ('; '): the leg in
                        the part of the day it leaves in, breakfast and the first sights in the morning, lunch and the
                        other sights in the afternoon, dinner in the evening; no stay in the days
* `sql_insert`          an agent's SQL script (```sql) for SQLite: EITHER one flat `itinerary` table (route, transport,
                        meals, attractions, accommodation as text; NULL for none) OR a normalised schema (days, legs,
                        meals, visits, stays with check_in / check_out), multi-row INSERTs whose first picks are DECOYS
                        fixed by later statements ("UPDATE meals SET restaurant = 'X' WHERE day = 2 AND meal = 'lunch';
                        -- first pick closed that day", "DELETE FROM visits WHERE ...", "UPDATE stays SET name = ...");
                        the plan is the database after the script; names as SQL writes them ('' for ')
* `whatsapp_chat`       the plan as a WhatsApp chat export (```text, iOS "[12/03/2022, 20:41:07] Alex: ..." or Android
                        "12/03/2022, 20:41 - Alex: ..."): short messages ("*Day 2* — Thu 17/3 — Rockford", "✈️ F1 A → B,
                        dep 15:40 arr 17:04", "🥪 Lunch ▸ X", "📍 Y ▪ Z", "🛏 W" / "🛏 still at W"), or one multi-line
                        message per day; the companion's reactions, "<Media omitted>", "This message was deleted", and
                        DECOY suggestions turned down ("can we do Y for lunch on day 2 instead? 😋" / "Y is fully booked
                        😕 keeping X")
* `vi_id_hi_ar_labels`  the answer in Vietnamese, Indonesian, Hindi or Arabic (drawn): "## Ngày 2 — Thứ Năm, ngày 17
                        tháng 3 năm 2022 — Rockford", "## Hari ke-2 — Kamis, 17 Maret 2022 — ...", "## दिन 2 — गुरुवार, 17
                        मार्च 2022 — ...", "## اليوم 2 — الخميس، 17 مارس 2022 — ..."; per day a two-column table of
                        localized labels (Di chuyển / Bữa sáng / Tham quan / Bữa trưa / Bữa tối / Lưu trú, Transportasi /
                        Sarapan / Tempat wisata / Makan siang / Makan malam / Penginapan, यात्रा / नाश्ता / घूमने की जगहें / दोपहर
                        का भोजन / रात का भोजन / ठहरना, التنقل / الإفطار / المعالم السياحية / الغداء / العشاء / الإقامة), legs and
                        durations translated, an empty slot 'Không có' / 'Tidak ada' / 'कोई नहीं' / 'لا يوجد' or the row
                        left out; names verbatim
* `cost_brackets`       day blocks of bullets, each item followed by a bracketed cost note ("🥪 Lunch ▸ X [~$25 pp]",
                        "✈️ Flight F1, A → B, 15:40–17:04 [~$245 pp]", "🚗 Self-drive A → B, 3 hours 11 mins [$120 per
                        car]", "🎟️ Y [free]", "🛏️ W [$150/night]", prices from the database), a per-day subtotal and a
                        trip total; a replaced restaurant as an inline DECOY ("_(instead of Y [~$40 pp], which was over
                        budget)_")
* `days_out_of_order`   the days NOT in order, as the user asked: the return day first then the rest, the travel days
                        first then the days on the ground, or counting down from the last day; heads "### Day 3 of 3 —
                        Friday, March 18 — A → B" or "## 🗓 Day 3/3 · 18.03.2022 · A → B"; the plan's '-' for empty
                        slots in some renderings
* `maps_links`          a bulleted plan in which every venue is a markdown link to Google Maps ("[X](https://maps.google.
                        com/?q=X+Rockford)" or the maps/search/?api=1&query= form, the query URL-encoded), the city
                        outside the link in the drawn placement; DECOY sub-bullets "_Backup if it's full: [Y](...)_"

Phrasings (`HELDOUT11_PHRASES`, drawn per rendering by `Phr11`): venue placed as 'X, City (TX)', 'X [City, TX]', 'X ·
City, TX' or 'X, City' (the state only for cities the database places in a US state); several sights joined by ' ▪ ',
' ⟶ ', ' and later ' or ', then on to ' (the last two translated in vi_id_hi_ar_labels); meal labels 'Lunch ▸ X',
'Lunch – X' (en dash), 'Lunch 👉 X' or 'Lunch: X' (everywhere but the SQL columns and the translated labels). Every
rendering states the whole plan: each day's route, the leg (flight number and times, or self-drive / taxi with duration
and cost), each meal's restaurant (or none: absent, or said to be none), each attraction and the accommodation; names
are verbatim (words are only added around them; SQL doubles a quote, a table cell escapes '|', a URL encodes); the
noise (intros, reactions, runner-ups, first picks fixed by UPDATE, backups, cost notes) never contradicts the plan.
"""
from __future__ import annotations

import datetime, random, re, sqlite3, sys
from pathlib import Path
from urllib.parse import parse_qs, quote_plus, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _POSTAL_OF, _name_city, known_plans, part_cli, selfcheck_part            # noqa: E402
from layouts_v8 import (_check_with, _common_mutations, _DAY_SPAN, _MEALS, _all_said, _blank, _cc, _cities, _cmp, _date, _get, _people, _put,  # noqa: E402
                        _restaurant, _road_key, _said, _stay, _swap, _index, _usd)
from layouts_v9 import _back, _nights, _revision_decoys, _rt, _time_shift  # noqa: E402
from layouts_v10 import _cell, _cells, _day_runs, _flight, _nm, _with_name  # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT11_PHRASES = {
    'locative': ('comma_paren_st', 'bracket_st', 'dot_st', 'comma'),   # 'X, City (TX)' | 'X [City, TX]' | 'X · City, TX' | 'X, City'
    'join': (' ▪ ', ' ⟶ ', ' and later ', ', then on to '),
    'meal_label': ('triangle', 'en_dash', 'pointer', 'colon'),         # 'Lunch ▸ X' | 'Lunch – X' | 'Lunch 👉 X' | 'Lunch: X'
}


def _venue(ph, v: str, wrap=None) -> str:
    "A venue 'Name, City' as `ph` places it (the name wrapped by `wrap(name, city)`, e.g. a markdown link)."
    n, c = _name_city(v)
    if wrap: n = wrap(n, c)
    if not c: return n
    st = _POSTAL_OF.get(c)
    if ph.loc == 'comma_paren_st': return f"{n}, {c} ({st})" if st else f"{n}, {c}"
    if ph.loc == 'bracket_st': return f"{n} [{c}, {st}]" if st else f"{n} [{c}]"
    if ph.loc == 'dot_st': return f"{n} · {c}, {st}" if st else f"{n} · {c}"
    return f"{n}, {c}"


def _city_st(n: str, inner: str, s: str) -> str:
    "'n, City' of a placement whose city part is 'City, ST' (a US city) or 'City' (a city without a state)."
    c, sep, st = inner.rpartition(', ')
    if sep and _POSTAL_OF.get(c) == st: return f"{n}, {c}"
    if inner in _POSTAL_OF or not inner: raise ValueError(f"venue {s!r}: city without its state")
    return f"{n}, {inner}"


def _unvenue(ph, s: str) -> str:
    "'Name, City' of a venue as `_venue` writes it; a placement that is not the drawn one is an error."
    if ph.loc == 'comma_paren_st':
        if (m := re.fullmatch(r'(.+), ([^,()]+) \(([A-Z]{2})\)', s, re.S)) and _POSTAL_OF.get(m[2]) == m[3]: return f"{m[1]}, {m[2]}"
        n, sep, c = s.rpartition(', ')
        if not sep or c in _POSTAL_OF: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        return s
    if ph.loc == 'bracket_st':
        m = re.fullmatch(r'(.+) \[([^\[\]]+)\]', s, re.S)
        if not m: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        return _city_st(m[1], m[2], s)
    if ph.loc == 'dot_st':
        n, sep, rest = s.rpartition(' · ')
        if not sep: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        return _city_st(n, rest, s)
    if ', ' not in s: raise ValueError(f"venue {s!r} without its city")
    return s


class Phr11(Phr):
    "`Phr` with the v11 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        if self.loc in HELDOUT11_PHRASES['locative']: return _venue(self, v)
        return super().venue(v)

    def meal_prefix(self, label: str) -> str:
        "The words before a meal's venue: 'Lunch ▸ ' | 'Lunch – ' | 'Lunch 👉 ' | 'Lunch: '."
        return {'triangle': f"{label} ▸ ", 'en_dash': f"{label} – ", 'pointer': f"{label} 👉 "}.get(self.label, f"{label}: ")

    def meal(self, label: str, v: str) -> str: return self.meal_prefix(label) + self.venue(v)


PHR11 = Phr11

# -------------------------------------------------------------------------------------------------------------- helpers
def _fmt(d: datetime.date, f: str) -> str:
    "'mon' 'Wed, Mar 16' | 'dm' 'Wed 16 Mar' | 'long' 'Wednesday, March 16' | 'dmy' '16/03/2022' | 'dot' '16.03.2022' | 'wa' 'Wed 16/3' | 'iso'."
    return {'mon': f"{d:%a}, {d:%b} {d.day}", 'dm': f"{d:%a} {d.day} {d:%b}", 'long': f"{d:%A}, {d:%B} {d.day}",
            'dmy': f"{d:%d/%m/%Y}", 'dot': f"{d:%d.%m.%Y}", 'wa': f"{d:%a} {d.day}/{d.month}", 'iso': d.isoformat()}[f]


def _fd(task, i: int, f: str) -> str: return _fmt(_date(task, i), f)


def _dix(task, n: int, fs, extra: int = 0) -> dict:
    "Date text (in any of the formats `fs`) -> day index, for the n days of the trip and `extra` days after it."
    return {_fd(task, i, f): i for f in ([fs] if isinstance(fs, str) else fs) for i in range(n + extra)}


def _unmeal(ph, s: str):
    "(meal, the rest) of a text that starts with the drawn meal label, else None."
    for m in _MEALS:
        p = ph.meal_prefix(m.capitalize())
        if s.startswith(p): return m, s[len(p):]
    return None


def _unitems(ph, s: str, join=None) -> list[str]: return [_unvenue(ph, x) for x in s.split(join or ph.join)]


def _seq_all(d, say_none: bool) -> list[tuple[str, str]]:
    """(kind, value) in the order of the day (as `_sequence` of layouts_v8: breakfast, the first half of the sights,
    lunch, the other sights, dinner), with the empty meals as (meal, '-') in their places where `say_none`."""
    at = _attractions(d['attraction'])
    h = (len(at) + 1) // 2
    seq = ([('breakfast', d['breakfast'])] + [('sight', x) for x in at[:h]] + [('lunch', d['lunch'])] +
           [('sight', x) for x in at[h:]] + [('dinner', d['dinner'])])
    return [(k, v) for k, v in seq if v != '-' or (say_none and k != 'sight')]

# -------------------------------------------------------------------------------------------------------------- layouts
_BR_INTRO = ("Here's the whole trip in one table — one row per day:", "Your {n}-day itinerary at a glance (scroll sideways on a phone):")
_BR_OUTRO = ("Opening hours change — worth a quick check before each day.", "Want me to add the costs per day as another column?")


def _br_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ **Flight {p['number']}**: {p['a']} → {p['b']}, {p['dep']}–{p['arr']}"
    return f"{'🚕 **Taxi**' if p['mode'] == 'taxi' else '🚗 **Self-drive**'}: {p['a']} → {p['b']}, {p['duration']}, ${p['cost']}"


def br_day_cells(plan, task, ph):
    """ONE markdown table, a row per day, every cell a block of lines joined by `<br>` (as chat UIs render them): the Day
    cell "**Day 2**<br>Thu, Mar 17" (or "17/03/2022") with "<br>A → B" unless a Route column holds it, the Plan cell the
    day in order — "✈️ **Flight F1**: A → B, 15:40–17:04" / "🚗 **Self-drive**: A → B, 3 hours 11 mins, $120", breakfast
    in the drawn label, the sights ("📍 **See:** X ▪ Y" in the drawn join, or "📍 **See:**<br>• X<br>• Y"), lunch, dinner,
    "🏨 **Stay:** W" / "🏨 **Stay:** — (heading home)"; an empty meal "*(no lunch)*" or left out; '|' escaped '\\|'."""
    r = ph.rng
    three, say_none, lines, datef = r.random() < 0.5, r.random() < 0.5, r.random() < 0.5, r.choice(('mon', 'dmy'))
    out = [r.choice(_BR_INTRO).format(n=len(plan)), '', '| Day | Route | Plan |' if three else '| Day | Plan |',
           '|:--|:--|:--|' if three else '|:--|:--|']
    for i, d in enumerate(plan):
        day = [f"**Day {d['days']}**", _fd(task, i, datef)] + ([] if three else [_rt(d['current_city'])])
        items = [_br_leg(d['transportation'])] if d['transportation'] != '-' else []
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if m == 'lunch' and at: items += ['📍 **See:**'] + [f"• {ph.venue(x)}" for x in at] if lines else [f"📍 **See:** {ph.items(at)}"]
            if d[m] != '-': items.append(ph.meal(m.capitalize(), d[m]))
            elif say_none: items.append(f"*(no {m})*")
        acc = d['accommodation']
        items.append(f"🏨 **Stay:** {ph.venue(acc)}" if acc != '-' else
                     f"🏨 **Stay:** — ({'heading home' if i == len(plan) - 1 else 'none booked'})")
        cells = ['<br>'.join(day)] + ([_rt(d['current_city'])] if three else []) + ['<br>'.join(items)]
        out.append('| ' + ' | '.join(_cell(c) for c in cells) + ' |')
    return '\n'.join(out + ['', r.choice(_BR_OUTRO)])


_BG_INTRO = ("Here's a simple Morning / Afternoon / Evening plan, with where you sleep stated once at the top:",
             "Below: where you sleep first, then a quick grid for each day.")
_BG_WHY = ("a bit over budget", "no rooms left for those dates", "further from the sights")
_BG_FREE = '—'


def _bg_leg(t: str) -> tuple[int, str]:
    "(part of the day 0 / 1 / 2, text) of a leg."
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        h = int(p['dep'][:2])
        return (0 if h < 12 else 1 if h < 18 else 2), f"✈️ {p['number']} {p['a']} → {p['b']} ({p['dep']}–{p['arr']})"
    return 0, f"{'🚕 taxi' if p['mode'] == 'taxi' else '🚗 drive'} {p['a']} → {p['b']} ({p['duration']}, ${p['cost']})"


def _stay_span(task, a: int, b: int, f: str) -> str:
    n = b - a + 1
    return f"check in {_fd(task, a, f)}, check out {_fmt(_date(task, b) + _DAY_SPAN, f)} ({n} night{'s' * (n > 1)})"


def base_grid(plan, task, ph):
    """The stays ONCE, at the top: "🏨 **Base for the trip:** X — check in Wed, Mar 16, check out Fri, Mar 18 (2 nights)"
    (or "🏨 **Bases for the trip:**" and a line per stay; "none — no overnight stay"), a runner-up hotel as a DECOY line
    "_(Runner-up: Y — a bit over budget; not booked.)_"; then per day "### Day 2 · Thu, Mar 17 · Rockford" (or "A → B")
    and a grid table "| 🌅 Morning | ☀️ Afternoon | 🌙 Evening |" with ONE row: the items of each part of the day joined
    by '; ' — the leg where it leaves ("✈️ F1 A → B (15:40–17:04)"; a drive or taxi "🚗 drive A → B (3 hours 11 mins,
    $120)" in the morning), breakfast and "see X ▪ Y" (the first half of the sights) in the morning, lunch and the other
    sights in the afternoon, dinner in the evening; an empty meal "(no dinner)" or left out, an empty part '—'."""
    r = ph.rng
    datef, say_none = r.choice(('mon', 'dm')), r.random() < 0.4
    _, stays, _ = _revision_decoys(plan, r, (0,))
    runs = _day_runs(plan)
    out = [r.choice(_BG_INTRO), '']
    runner = lambda a, b: ([f"_(Runner-up: {stays[(a, b)]} — {r.choice(_BG_WHY)}; not booked.)_"] if (a, b) in stays else [])
    if not runs: out.append("🏨 **Base for the trip:** none — no overnight stay")
    elif len(runs) == 1:
        a, b, acc = runs[0]
        out += [f"🏨 **Base for the trip:** {ph.venue(acc)} — {_stay_span(task, a, b, datef)}"] + runner(a, b)
    else:
        out.append("🏨 **Bases for the trip:**")
        for a, b, acc in runs: out += [f"- {ph.venue(acc)} — {_stay_span(task, a, b, datef)}"] + ['  ' + x for x in runner(a, b)]
    for i, d in enumerate(plan):
        parts = [[], [], []]
        if d['transportation'] != '-':
            k, s = _bg_leg(d['transportation'])
            parts[k].append(s)
        at = _attractions(d['attraction'])
        h = (len(at) + 1) // 2
        for k, m in ((0, 'breakfast'), (1, 'lunch'), (2, 'dinner')):
            if d[m] != '-': parts[k].append(ph.meal(m.capitalize(), d[m]))
            elif say_none: parts[k].append(f"(no {m})")
            if k < 2 and (half := at[:h] if k == 0 else at[h:]): parts[k].append(f"see {ph.items(half)}")
        out += ['', f"### Day {d['days']} · {_fd(task, i, datef)} · {_rt(d['current_city'])}", '',
                '| 🌅 Morning | ☀️ Afternoon | 🌙 Evening |', '|---|---|---|',
                '| ' + ' | '.join(_cell('; '.join(p) or _BG_FREE) for p in parts) + ' |']
    return '\n'.join(out + ['', "Times are flexible — shuffle the grid as you like."])


_SQL_WHY = {'meal': ("first pick closed that day", "first pick fully booked"), 'stay': ("first pick had no rooms left",),
            'sight': ("not enough time that day",)}
_SQL_INTRO = ("Here's the itinerary as a SQL script (SQLite) — run it and query the tables:",
              "I saved the plan to a small SQLite database; this is the script that builds it:")


def _sv(x) -> str:
    "A SQL literal: NULL, an integer, or a quoted string (quotes doubled)."
    if x is None: return 'NULL'
    if isinstance(x, int): return str(x)
    return "'" + str(x).replace("'", "''") + "'"


def _sql_insert(table: str, cols, rows) -> list[str]:
    if not rows: return []
    return [f"INSERT INTO {table} ({', '.join(cols)}) VALUES"] + [
        f"  ({', '.join(_sv(x) for x in row)})" + (';' if j == len(rows) - 1 else ',') for j, row in enumerate(rows)]


def _sql_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"Flight {p['number']}, {p['a']} → {p['b']}, {p['dep']}–{p['arr']}"
    return f"{'Taxi' if p['mode'] == 'taxi' else 'Self-drive'}, {p['a']} → {p['b']}, {p['duration']}, ${p['cost']}"


def sql_insert(plan, task, ph):
    """An agent's SQL script (```sql, SQLite). Flat (drawn): `CREATE TABLE itinerary (day, date, route, transport,
    breakfast, attractions, lunch, dinner, accommodation)` and one multi-row INSERT — route 'A → B', transport "Flight
    F1, A → B, 15:40–17:04" / "Self-drive, A → B, 3 hours 11 mins, $120", venues in the drawn placement, the sights in
    the drawn join, NULL for none. Normalised: tables days (day, date, from_city, to_city), legs (mode 'flight' /
    'self-driving' / 'taxi', flight_no, depart, arrive, duration, cost_usd), meals (day, meal, restaurant, city), visits
    (day, seq, attraction, city) and stays (name, city, check_in, check_out); names and cities in their own columns.
    The INSERTs hold the agent's FIRST picks: one to three are DECOYS fixed by later statements under "-- fixes after
    checking availability" ("UPDATE ... SET lunch = 'X, City' WHERE day = 2;", "UPDATE meals SET restaurant = 'X' WHERE
    day = 2 AND meal = 'lunch';", "DELETE FROM visits WHERE day = 3 AND attraction = 'Y';", "UPDATE stays SET name = 'X'
    WHERE name = 'Y';"); a closing SELECT."""
    r = ph.rng
    norm = r.random() < 0.5
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 1))
    stay_of = lambda i: next((x for (a, b), x in stays.items() if a <= i <= b), None)
    out, fixes = [r.choice(_SQL_INTRO), '', '```sql'], []
    if not norm:
        out += ['CREATE TABLE itinerary (', '  day INTEGER PRIMARY KEY,', '  date TEXT NOT NULL,', '  route TEXT NOT NULL,',
                '  transport TEXT,', '  breakfast TEXT,', '  attractions TEXT,', '  lunch TEXT,', '  dinner TEXT,',
                '  accommodation TEXT', ');', '']
        rows = []
        for i, d in enumerate(plan):
            k = d['days']
            v = lambda x: ph.venue(x) if x != '-' else None
            ms = {m: v(_with_name(d[m], meals[(i, m)]) if (i, m) in meals else d[m]) for m in _MEALS}
            at = _attractions(d['attraction'])
            first_at = at[:sights[i][0]] + [sights[i][1]] + at[sights[i][0]:] if i in sights else at
            acc = _with_name(d['accommodation'], stay_of(i)) if stay_of(i) else d['accommodation']
            rows.append((k, _fd(task, i, 'iso'), _rt(d['current_city']),
                         _sql_leg(d['transportation']) if d['transportation'] != '-' else None, ms['breakfast'],
                         ph.items(first_at) or None, ms['lunch'], ms['dinner'], v(acc)))
            for m in _MEALS:
                if (i, m) in meals: fixes.append(f"UPDATE itinerary SET {m} = {_sv(ph.venue(d[m]))} WHERE day = {k};  -- {r.choice(_SQL_WHY['meal'])}")
            if i in sights: fixes.append(f"UPDATE itinerary SET attractions = {_sv(ph.items(at) or None)} WHERE day = {k};  -- {r.choice(_SQL_WHY['sight'])}")
        for (a, b), x in stays.items():
            cond = f"day = {plan[a]['days']}" if a == b else f"day BETWEEN {plan[a]['days']} AND {plan[b]['days']}"
            fixes.append(f"UPDATE itinerary SET accommodation = {_sv(ph.venue(plan[a]['accommodation']))} WHERE {cond};  -- {_SQL_WHY['stay'][0]}")
        out += _sql_insert('itinerary', ('day', 'date', 'route', 'transport', 'breakfast', 'attractions', 'lunch', 'dinner', 'accommodation'), rows)
        tail = 'SELECT * FROM itinerary ORDER BY day;'
    else:
        out += ['CREATE TABLE days (day INTEGER PRIMARY KEY, date TEXT NOT NULL, from_city TEXT NOT NULL, to_city TEXT NOT NULL);',
                'CREATE TABLE legs (day INTEGER REFERENCES days(day), mode TEXT, flight_no TEXT, from_city TEXT, to_city TEXT,',
                '                   depart TEXT, arrive TEXT, duration TEXT, cost_usd INTEGER);',
                "CREATE TABLE meals (day INTEGER REFERENCES days(day), meal TEXT CHECK (meal IN ('breakfast', 'lunch', 'dinner')),",
                '                    restaurant TEXT NOT NULL, city TEXT);',
                'CREATE TABLE visits (day INTEGER REFERENCES days(day), seq INTEGER, attraction TEXT NOT NULL, city TEXT);',
                'CREATE TABLE stays (name TEXT NOT NULL, city TEXT, check_in TEXT NOT NULL, check_out TEXT NOT NULL);', '']
        drows, lrows, mrows, vrows, srows = [], [], [], [], []
        for i, d in enumerate(plan):
            k = d['days']
            drows.append((k, _fd(task, i, 'iso'), *_cities(d['current_city'])))
            if d['transportation'] != '-':
                p = _leg_parts(d['transportation'])
                lrows.append((k, 'flight', p['number'], p['a'], p['b'], p['dep'], p['arr'], None, None) if p['mode'] == 'flight' else
                             (k, 'taxi' if p['mode'] == 'taxi' else 'self-driving', None, p['a'], p['b'], None, None, p['duration'], int(p['cost'])))
            for m in _MEALS:
                if d[m] == '-': continue
                n, c = _name_city(d[m])
                mrows.append((k, m, meals.get((i, m), n), c or None))
                if (i, m) in meals:
                    fixes.append(f"UPDATE meals SET restaurant = {_sv(n)} WHERE day = {k} AND meal = '{m}';  -- {r.choice(_SQL_WHY['meal'])}")
            at = _attractions(d['attraction'])
            if i in sights:
                at = at[:sights[i][0]] + [sights[i][1]] + at[sights[i][0]:]
                fixes.append(f"DELETE FROM visits WHERE day = {k} AND attraction = {_sv(_nm(sights[i][1]))};  -- {r.choice(_SQL_WHY['sight'])}")
            vrows += [(k, j, *(lambda n, c: (n, c or None))(*_name_city(x))) for j, x in enumerate(at, 1)]
        for a, b, acc in _day_runs(plan):
            n, c = _name_city(acc)
            x = stay_of(a)
            srows.append((x or n, c or None, _fd(task, a, 'iso'), (_date(task, b) + _DAY_SPAN).isoformat()))
            if x: fixes.append(f"UPDATE stays SET name = {_sv(n)} WHERE name = {_sv(x)};  -- {_SQL_WHY['stay'][0]}")
        out += _sql_insert('days', ('day', 'date', 'from_city', 'to_city'), drows)
        for table, cols, rows in (('legs', ('day', 'mode', 'flight_no', 'from_city', 'to_city', 'depart', 'arrive', 'duration', 'cost_usd'), lrows),
                                  ('meals', ('day', 'meal', 'restaurant', 'city'), mrows),
                                  ('visits', ('day', 'seq', 'attraction', 'city'), vrows),
                                  ('stays', ('name', 'city', 'check_in', 'check_out'), srows)):
            if rows: out += [''] + _sql_insert(table, cols, rows)
        tail = 'SELECT d.day, d.date, m.meal, m.restaurant FROM days d LEFT JOIN meals m ON m.day = d.day ORDER BY d.day;'
    if fixes: out += ['', '-- fixes after checking availability'] + fixes
    return '\n'.join(out + ['', tail, '```', '', "Empty slots are NULL (nothing planned)."])


_WA_ME = ('Alex', 'Chris', 'Dana', 'Noor', 'Tom', 'Maya')
_WA_YOU = ('Sam', 'Jordan', 'Priya', 'Lena', 'Marco')
_WA_OPEN = ("ok here's the plan 🧳", "plan's done!! sending it day by day 👇")
_WA_CLOSE = ("that's everything 🙌", "I'll book tonight unless you object")
_WA_REACT = ('👍', 'love it 😍', 'nice', 'ok', '🔥🔥', '<Media omitted>')
_WA_WHY = ('closed that day', 'fully booked', 'too far from everything')
_WA_ICON = {'breakfast': '🍳', 'lunch': '🥪', 'dinner': '🍝'}
_WA_SYS = 'Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them.'
_WA_INTRO = ("Here's the plan as a WhatsApp thread (exported chat) — short messages, easy to forward:",
             "I wrote it the way you'd send it to the group chat:")


def _wa_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ {p['number']} {p['a']} → {p['b']}, dep {p['dep']} arr {p['arr']}"
    return f"{'🚕 taxi' if p['mode'] == 'taxi' else '🚗 driving'} {p['a']} → {p['b']}, ~{p['duration']}, ${p['cost']}"


def whatsapp_chat(plan, task, ph):
    """A WhatsApp chat export in a ```text block, iOS ("[12/03/2022, 20:41:07] Alex: ...") or Android ("12/03/2022, 20:41
    - Alex: ..." after the encryption notice), sent a few days before the trip: the planner's short messages — per day
    "*Day 2* — Thu 17/3 — Rockford" (WhatsApp bold), "✈️ F1 A → B, dep 15:40 arr 17:04" / "🚗 driving A → B, ~3 hours 11
    mins, $120", "🍳 Breakfast ▸ X" (the drawn label), "📍 Y ▪ Z" (the drawn join), "🥪 ...", "🍝 ...", "🛏 W" (a stay's
    first night) / "🛏 still at W" / "🛏 none, heading home"; an empty meal "🥪 no lunch planned" or left out — each a
    message, or one multi-line message per day (continuation lines without a prefix); the companion's reactions
    ("👍", "<Media omitted>"), a deleted message, and DECOY suggestions turned down: "can we do Y for lunch on day 2
    instead? 😋" / "Y is fully booked 😕 keeping X"; "what about Y for the nights of day 1–2?" / "no rooms left at Y,
    staying at X"; "should we add Y, City on day 3?" / "not enough time that day, skipping it"."""
    r = ph.rng
    ios, bundle, say_none = r.random() < 0.5, r.random() < 0.5, r.random() < 0.5
    me, you = r.choice(_WA_ME), r.choice(_WA_YOU)
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 1))
    msgs, safe = [(me, [r.choice(_WA_OPEN)])], []
    prev = None
    for i, d in enumerate(plan):
        k = d['days']
        items = [f"*Day {k}* — {_fd(task, i, 'wa')} — {_rt(d['current_city'])}"]
        if d['transportation'] != '-': items.append(_wa_leg(d['transportation']))
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if m == 'lunch' and at: items.append(f"📍 {ph.items(at)}")
            if d[m] != '-': items.append(f"{_WA_ICON[m]} {ph.meal(m.capitalize(), d[m])}")
            elif say_none: items.append(f"{_WA_ICON[m]} no {m} planned")
        acc = d['accommodation']
        items.append('🛏 none, heading home' if acc == '-' else f"🛏 still at {ph.venue(acc)}" if acc == prev else f"🛏 {ph.venue(acc)}")
        prev = acc if acc != '-' else None
        msgs += [(me, items)] if bundle else [(me, [x]) for x in items]
        safe.append(len(msgs))
        if r.random() < 0.4: msgs.append((you, [r.choice(_WA_REACT)]))
        for (j, m), y in meals.items():
            if j == i: msgs += [(you, [f"can we do {y} for {m} on day {k} instead? 😋"]), (me, [f"{y} is {r.choice(_WA_WHY)} 😕 keeping {_nm(d[m])}"])]
        for (a, b), y in stays.items():
            if b == i: msgs += [(you, [f"what about {y} for the {_nights(plan, a, b).lower()}?"]), (me, [f"no rooms left at {y}, staying at {_nm(plan[a]['accommodation'])}"])]
        if i in sights: msgs += [(you, [f"should we add {ph.venue(sights[i][1])} on day {k}?"]), (me, ["not enough time that day, skipping it"])]
    if r.random() < 0.5: msgs.insert(r.choice(safe), (me, ['This message was deleted']))   # not between a question and its answer
    msgs.append((me, [r.choice(_WA_CLOSE)]))
    t = datetime.datetime.combine(_date(task, 0) - 4 * _DAY_SPAN, datetime.time(20, r.randrange(60), r.randrange(60)))
    lines = [] if ios else [f"{t:%d/%m/%Y, %H:%M} - {_WA_SYS}"]
    for who, body in msgs:
        t += datetime.timedelta(seconds=r.randrange(5, 150))
        lines.append((f"[{t:%d/%m/%Y, %H:%M:%S}] " if ios else f"{t:%d/%m/%Y, %H:%M} - ") + f"{who}: {body[0]}")
        lines += body[1:]
    return '\n'.join([r.choice(_WA_INTRO), '', '```text'] + lines + ['```'])


_LG = {
    'vi': dict(head='## Ngày {k} — {date} — {route}', cols=('Hạng mục', 'Chi tiết'),
               labels=('Di chuyển', 'Bữa sáng', 'Tham quan', 'Bữa trưa', 'Bữa tối', 'Lưu trú'), none='Không có', none_stay='Không có (ngày về)',
               wd='Thứ Hai|Thứ Ba|Thứ Tư|Thứ Năm|Thứ Sáu|Thứ Bảy|Chủ Nhật'.split('|'), months=None,
               date=lambda d, wd, mo: f"{wd}, ngày {d.day} tháng {d.month} năm {d.year}",
               flight='Chuyến bay {n}: {a} → {b}, khởi hành {dep}, đến nơi {arr}', road='{how}: {a} → {b}, khoảng {dur}, {cost} USD',
               how={'drive': 'Tự lái xe', 'taxi': 'Taxi'}, units={'day': 'ngày', 'hour': 'giờ', 'min': 'phút'}, unit_sep=' ',
               joins={' and later ': ' và sau đó ', ', then on to ': ', rồi đến '},
               intro=("Dưới đây là lịch trình chi tiết theo từng ngày:", "Lịch trình chuyến đi của bạn:"), outro="Chúc bạn có chuyến đi vui vẻ!"),
    'id': dict(head='## Hari ke-{k} — {date} — {route}', cols=('Kegiatan', 'Keterangan'),
               labels=('Transportasi', 'Sarapan', 'Tempat wisata', 'Makan siang', 'Makan malam', 'Penginapan'), none='Tidak ada',
               none_stay='Tidak ada (hari kepulangan)', wd='Senin Selasa Rabu Kamis Jumat Sabtu Minggu'.split(),
               months='Januari Februari Maret April Mei Juni Juli Agustus September Oktober November Desember'.split(),
               date=lambda d, wd, mo: f"{wd}, {d.day} {mo} {d.year}",
               flight='Penerbangan {n}: {a} → {b}, berangkat {dep}, tiba {arr}', road='{how}: {a} → {b}, sekitar {dur}, {cost} USD',
               how={'drive': 'Menyetir sendiri', 'taxi': 'Taksi'}, units={'day': 'hari', 'hour': 'jam', 'min': 'menit'}, unit_sep=' ',
               joins={' and later ': ' lalu ', ', then on to ': ', kemudian ke '},
               intro=("Berikut rencana perjalanan Anda hari demi hari:", "Ini jadwal lengkap perjalanannya:"), outro="Selamat berlibur!"),
    'hi': dict(head='## दिन {k} — {date} — {route}', cols=('विषय', 'विवरण'),
               labels=('यात्रा', 'नाश्ता', 'घूमने की जगहें', 'दोपहर का भोजन', 'रात का भोजन', 'ठहरना'), none='कोई नहीं', none_stay='कोई नहीं (वापसी का दिन)',
               wd='सोमवार मंगलवार बुधवार गुरुवार शुक्रवार शनिवार रविवार'.split(),
               months='जनवरी फ़रवरी मार्च अप्रैल मई जून जुलाई अगस्त सितंबर अक्टूबर नवंबर दिसंबर'.split(),
               date=lambda d, wd, mo: f"{wd}, {d.day} {mo} {d.year}",
               flight='उड़ान {n}: {a} → {b}, प्रस्थान {dep}, आगमन {arr}', road='{how}: {a} → {b}, लगभग {dur}, ${cost}',
               how={'drive': 'खुद ड्राइव', 'taxi': 'टैक्सी'}, units={'day': 'दिन', 'hour': 'घंटे', 'min': 'मिनट'}, unit_sep=' ',
               joins={' and later ': ' और बाद में ', ', then on to ': ', फिर '},
               intro=("यह रहा आपका दिन-प्रतिदिन यात्रा कार्यक्रम:", "आपकी यात्रा की पूरी योजना:"), outro="आपकी यात्रा शुभ हो!"),
    'ar': dict(head='## اليوم {k} — {date} — {route}', cols=('البند', 'التفاصيل'),
               labels=('التنقل', 'الإفطار', 'المعالم السياحية', 'الغداء', 'العشاء', 'الإقامة'), none='لا يوجد', none_stay='لا يوجد (يوم العودة)',
               wd='الاثنين الثلاثاء الأربعاء الخميس الجمعة السبت الأحد'.split(),
               months='يناير فبراير مارس أبريل مايو يونيو يوليو أغسطس سبتمبر أكتوبر نوفمبر ديسمبر'.split(),
               date=lambda d, wd, mo: f"{wd}، {d.day} {mo} {d.year}",
               flight='رحلة جوية {n}: {a} → {b}، الإقلاع {dep}، الوصول {arr}', road='{how}: {a} → {b}، حوالي {dur}، {cost} دولار',
               how={'drive': 'قيادة ذاتية', 'taxi': 'سيارة أجرة'}, units={'day': 'يوم', 'hour': 'ساعة', 'min': 'دقيقة'}, unit_sep=' و',
               joins={' and later ': ' ثم لاحقًا ', ', then on to ': '، ثم إلى '},
               intro=("إليك خطة الرحلة يومًا بيوم:", "هذا هو برنامج رحلتك بالتفصيل:"), outro="رحلة سعيدة!"),
}
_LG_KEYS = ('leg', 'breakfast', 'attraction', 'lunch', 'dinner', 'accommodation')


def _lg_date(lg, task, i) -> str:
    d, L = _date(task, i), _LG[lg]
    return L['date'](d, L['wd'][d.weekday()], L['months'][d.month - 1] if L['months'] else None)


def _lg_dur(lg, s) -> str:
    from layouts_v8 import _dur_key
    return _LG[lg]['unit_sep'].join(f"{n} {_LG[lg]['units'][u]}" for n, u in _dur_key(s))


def _lg_leg(lg, t) -> str:
    p, L = _leg_parts(t), _LG[lg]
    if p['mode'] == 'flight': return L['flight'].format(n=p['number'], a=p['a'], b=p['b'], dep=p['dep'], arr=p['arr'])
    return L['road'].format(how=L['how'][p['mode']], a=p['a'], b=p['b'], dur=_lg_dur(lg, p['duration']), cost=p['cost'])


def vi_id_hi_ar_labels(plan, task, ph):
    """The answer in Vietnamese, Indonesian, Hindi or Arabic (drawn): per day a head "## Ngày 2 — Thứ Năm, ngày 17 tháng
    3 năm 2022 — Rockford" / "## Hari ke-2 — Kamis, 17 Maret 2022 — A → B" / "## दिन 2 — गुरुवार, 17 मार्च 2022 — ..." /
    "## اليوم 2 — الخميس، 17 مارس 2022 — ...", then a two-column table (localized column heads) with a row per slot in the
    order of the day: transport ("Chuyến bay F1: A → B, khởi hành 15:40, đến nơi 17:04", "Menyetir sendiri: A → B, sekitar
    3 jam 11 menit, 120 USD", "उड़ान ...", "رحلة جوية F1: A → B، الإقلاع 15:40، الوصول 17:04"; durations translated),
    breakfast, sights (the drawn join; word joins translated), lunch, dinner, stay; an empty slot 'Không có' / 'Tidak
    ada' / 'कोई नहीं' / 'لا يوجد' (the stay '... (ngày về)' on the last day) or its row left out; names verbatim."""
    r = ph.rng
    lg = r.choice(tuple(_LG))
    L, say_none = _LG[lg], r.random() < 0.5
    join = L['joins'].get(ph.join, ph.join)
    out = [r.choice(L['intro'])]
    for i, d in enumerate(plan):
        out += ['', L['head'].format(k=d['days'], date=_lg_date(lg, task, i), route=_rt(d['current_city'])), '',
                f"| {L['cols'][0]} | {L['cols'][1]} |", '|---|---|']
        at = _attractions(d['attraction'])
        vals = {'leg': _lg_leg(lg, d['transportation']) if d['transportation'] != '-' else None,
                'attraction': join.join(ph.venue(x) for x in at) or None,
                **{k: ph.venue(d[k]) if d[k] != '-' else None for k in (*_MEALS, 'accommodation')}}
        for lab, k in zip(L['labels'], _LG_KEYS):
            v = vals[k]
            if v is None and not say_none: continue
            if v is None: v = L['none_stay'] if k == 'accommodation' and i == len(plan) - 1 else L['none']
            out.append(f"| {lab} | {_cell(v)} |")
    return '\n'.join(out + ['', L['outro']])


_CB_INTRO = ("Here's the plan with a rough cost next to every item, so you can see where the money goes:",
             "Day-by-day plan; the [brackets] are my cost estimates (per person for food, per night for rooms):")
_CB_WHY = ("over budget", "closed that day", "a long detour that day")
_CB_ICON = {'breakfast': '🍳', 'lunch': '🥪', 'dinner': '🍝'}
_CB_COST = r'~\$[\d,.]+ pp|\$[\d,.]+/night|\$[\d,.]+ per (?:car|taxi)|price n/a|fare n/a|free|entry fee varies|\$0'


def cost_brackets(plan, task, ph):
    """Day blocks ("**Day 2 — Thu 17 Mar — Rockford**") of bullets in the order of the day, every item followed by a
    bracketed cost note: "- ✈️ Flight F1, A → B, 15:40–17:04 [~$245 pp]" (the database's fare, '[fare n/a]' without
    one), "- 🚗 Self-drive A → B, 3 hours 11 mins [$120 per car]" / "- 🚕 Taxi ... [$49 per taxi]", "- 🍳 Breakfast ▸ X
    [~$25 pp]" (the drawn label; the restaurant's average cost, '[price n/a]'), "- 🎟️ Y [free]" / "[entry fee varies]",
    "- 🛏️ W [$150/night]" / "- 🛏️ No hotel — last day [$0]"; an empty meal "- 🍽️ No lunch planned [$0]" or left out; a
    replaced restaurant as an inline DECOY "_(instead of Y [~$40 pp], which was over budget)_"; "_Day 2 subtotal: ~$345_"
    after each day, an estimated total at the end."""
    r = ph.rng
    say_none = r.random() < 0.5
    meals, _, _ = _revision_decoys(plan, r, (0, 1, 1))
    n, budget, total = _people(task), _get(task, 'budget'), 0.0
    ix, out = _index(), [r.choice(_CB_INTRO), '']
    for i, d in enumerate(plan):
        out.append(f"**Day {d['days']} — {_fd(task, i, 'dm')} — {_rt(d['current_city'])}**")
        sub = 0.0
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            if p['mode'] == 'flight':
                fare = ix.flight_price(p['number'])
                out.append(f"- ✈️ Flight {p['number']}, {p['a']} → {p['b']}, {p['dep']}–{p['arr']} [{f'~{_usd(fare)} pp' if fare is not None else 'fare n/a'}]")
                sub += (fare or 0) * n
            else:
                taxi = p['mode'] == 'taxi'
                out.append(f"- {'🚕 Taxi' if taxi else '🚗 Self-drive'} {p['a']} → {p['b']}, {p['duration']} [${p['cost']} per {'taxi' if taxi else 'car'}]")
                sub += float(p['cost'])
        for kind, v in _seq_all(d, say_none):
            if v == '-': out.append(f"- 🍽️ No {kind} planned [$0]"); continue
            nm_, c = _name_city(v)
            if kind == 'sight':
                out.append(f"- 🎟️ {ph.venue(v)} [{r.choice(('free', 'entry fee varies'))}]"); continue
            x = _restaurant(nm_, c)
            line = f"- {_CB_ICON[kind]} {ph.meal(kind.capitalize(), v)} [{f'~{_usd(x.cost)} pp' if x else 'price n/a'}]"
            if (i, kind) in meals:
                y = _restaurant(meals[(i, kind)], c)
                line += f" _(instead of {meals[(i, kind)]} [{f'~{_usd(y.cost)} pp' if y else 'price n/a'}], which was {r.choice(_CB_WHY)})_"
            out.append(line)
            sub += (x.cost if x else 0) * n
        acc = d['accommodation']
        if acc == '-': out.append(f"- 🛏️ No hotel — {'last day' if i == len(plan) - 1 else 'none booked'} [$0]")
        else:
            s = _stay(*_name_city(acc))
            out.append(f"- 🛏️ {ph.venue(acc)} [{f'{_usd(s.price)}/night' if s else 'price n/a'}]")
            sub += s.price if s else 0
        total += sub
        out += [f"_Day {d['days']} subtotal: ~{_usd(round(sub))}_", '']
    bud = f" (budget {_usd(budget)})" if isinstance(budget, (int, float)) else ''
    return '\n'.join(out + [f"**Estimated total: ~{_usd(round(total))} for {n} traveller{'s' * (n != 1)}**{bud}. Prices are estimates."])


_OO_INTRO = {'return': ("As requested, the return day first (so you can lock in the trip home), then the rest in order:",),
             'travel': ("You asked for the travel days first — here they are, then the days on the ground:",),
             'reverse': ("Counting down from the last day, as you asked:",)}


def _oo_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ {p['number']}, {p['a']} → {p['b']}, departs {p['dep']}, lands {p['arr']}"
    return f"{'🚕 taxi' if p['mode'] == 'taxi' else '🚗 self-drive'} {p['a']} → {p['b']} ({p['duration']}, ${p['cost']})"


def days_out_of_order(plan, task, ph):
    """The days NOT in calendar order, as the user asked (drawn): the return day first then days 1 .. n-1; the travel
    days (a leg or a 'from A to B' route) first, then the others; or counting down from the last day — a line says so.
    Heads "### Day 3 of 3 — Friday, March 18 — A → B" or "## 🗓 Day 3/3 · 18.03.2022 · A → B"; bullets "- Getting
    there: ✈️ F1, A → B, departs 15:40, lands 17:04" / "🚗 self-drive A → B (3 hours 11 mins, $120)", the meals in the
    drawn label, "- Sights: X ▪ Y", "- Overnight: W"; an empty slot the plan's '-' ("- Lunch ▸ -", "- Overnight: -")
    or left out."""
    r = ph.rng
    how, head_a, dash = r.choice(tuple(_OO_INTRO)), r.random() < 0.5, r.random() < 0.5
    n = len(plan)
    idx = list(range(n))
    if how == 'return': order = [n - 1] + idx[:-1]
    elif how == 'travel':
        trav = [i for i in idx if plan[i]['transportation'] != '-' or plan[i]['current_city'].startswith('from ')]
        order = trav + [i for i in idx if i not in trav]
        if order == idx: order = [n - 1] + idx[:-1]; how = 'return'
    else: order = idx[::-1]
    out = [_OO_INTRO[how][0]]
    for i in order:
        d = plan[i]
        rt = _rt(d['current_city'])
        out += ['', f"### Day {d['days']} of {n} — {_fd(task, i, 'long')} — {rt}" if head_a else
                f"## 🗓 Day {d['days']}/{n} · {_fd(task, i, 'dot')} · {rt}"]
        if d['transportation'] != '-': out.append(f"- Getting there: {_oo_leg(d['transportation'])}")
        elif dash: out.append("- Getting there: -")
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if m == 'lunch' and (at or dash): out.append(f"- Sights: {ph.items(at) or '-'}")
            if d[m] != '-' or dash: out.append(f"- {ph.meal_prefix(m.capitalize())}{ph.venue(d[m]) if d[m] != '-' else '-'}")
        if d['accommodation'] != '-' or dash: out.append(f"- Overnight: {ph.venue(d['accommodation']) if d['accommodation'] != '-' else '-'}")
    return '\n'.join(out + ['', f"That's all {n} days (read them by their numbers)."])


_ML_BASE = ('https://maps.google.com/?q=', 'https://www.google.com/maps/search/?api=1&query=')
_ML_INTRO = ("Here's the plan — every place links to Google Maps so you can save it to a list:",
             "Itinerary with map links (tap a name to open it in Google Maps):")
_ML_ICON = {'breakfast': '🍳', 'lunch': '🥪', 'dinner': '🍝'}


def _ml_query(base: str, n: str, c: str) -> str: return f"{n} {c}" if base == _ML_BASE[0] else f"{n}, {c}"


def _ml_url(base: str, n: str, c: str) -> str: return base + quote_plus(_ml_query(base, n, c))


def _ml_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ Flight {p['number']} · {p['a']} → {p['b']} · {p['dep']} → {p['arr']}"
    return f"{'🚕 Taxi' if p['mode'] == 'taxi' else '🚗 Self-drive'} · {p['a']} → {p['b']} · {p['duration']} · ${p['cost']}"


def maps_links(plan, task, ph):
    """A bulleted plan where every venue's NAME is a markdown link to Google Maps — "[X](https://maps.google.com/?q=X+City)"
    or "[X](https://www.google.com/maps/search/?api=1&query=X,+City)" (drawn; the query URL-encoded) — and the city
    follows the link in the drawn placement ("[X](...), Rockford (IL)", "[X](...) [Rockford, IL]"): per day "**Day 2 ·
    Thursday, March 17 · Rockford**", "- ✈️ Flight F1 · A → B · 15:40 → 17:04" (legs unlinked), "- 🍳 Breakfast ▸ [X](...)"
    (the drawn label), "- 📍 [Y](...)" one per sight, "- 🛏️ Stay: [W](...)" / "- 🛏️ Stay: — (last day)"; an empty meal
    "- 🥪 Lunch ▸ —" or left out; DECOY sub-bullets under a meal or a stay: "  - _Backup if it's full: [Y](...)_"."""
    r = ph.rng
    base, say_none = r.choice(_ML_BASE), r.random() < 0.5
    meals, stays, _ = _revision_decoys(plan, r, (0, 1, 1))
    link = lambda n, c: f"[{n}]({_ml_url(base, n, c)})"
    lv = lambda v: _venue(ph, v, wrap=link)
    backup = lambda n, c: f"  - _Backup if it's full: {link(n, c)}_"
    out = [r.choice(_ML_INTRO)]
    for i, d in enumerate(plan):
        out += ['', f"**Day {d['days']} · {_fd(task, i, 'long')} · {_rt(d['current_city'])}**"]
        if d['transportation'] != '-': out.append(f"- {_ml_leg(d['transportation'])}")
        for kind, v in _seq_all(d, say_none):
            if kind == 'sight': out.append(f"- 📍 {lv(v)}"); continue
            if v == '-': out.append(f"- {_ML_ICON[kind]} {ph.meal_prefix(kind.capitalize())}—"); continue
            out.append(f"- {_ML_ICON[kind]} {ph.meal_prefix(kind.capitalize())}{lv(v)}")
            if (i, kind) in meals: out.append(backup(meals[(i, kind)], _name_city(v)[1]))
        acc = d['accommodation']
        out.append(f"- 🛏️ Stay: {lv(acc)}" if acc != '-' else f"- 🛏️ Stay: — ({'last day' if i == len(plan) - 1 else 'none booked'})")
        if acc != '-' and (x := next((x for (a, b), x in stays.items() if a == i), None)): out.append(backup(x, _name_city(acc)[1]))
    return '\n'.join(out + ['', "All links open in the Google Maps app if you have it."])


HELDOUT11_LAYOUTS = {f.__name__: f for f in (br_day_cells, base_grid, sql_insert, whatsapp_chat, vi_id_hi_ar_labels,
                                              cost_brackets, days_out_of_order, maps_links)}
"""Held-out part v11 (layouts and `HELDOUT11_PHRASES`, rendered with `Phr11`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr11(HELDOUT11_PHRASES, random.Random(f"heldout11:{name}:{t.idx}:{j}"), p)


def renderings11(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout11:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT11_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser below, written for the layout (not a general reader): each rendering is read back into
# the plan's own values — the route as current_city ('from A to B' | 'A'), the leg as its parts (flight number, cities,
# times; or mode, cities, duration, cost), each meal and the stay as 'Name, City' or '-', the sights as ['Name, City',
# ...] — and compared with the plan EXACTLY (`_cmp` of layouts_v8). Decoys (runner-ups, first picks fixed by SQL,
# suggestions turned down, replaced restaurants, backups) are resolved as the text says.


def _stay_said(seen: list, k: int, errs: list):
    if seen: errs.append(f"day {k}: stay stated twice")
    seen.append(True)


# br_day_cells ---------------------------------------------------------------------------------------------------------
_BR_FL = re.compile(r'✈️ \*\*Flight (\S+)\*\*: (.+) → (.+), (\d\d:\d\d)–(\d\d:\d\d)')
_BR_RD = re.compile(r'(🚕 \*\*Taxi\*\*|🚗 \*\*Self-drive\*\*): (.+) → (.+), (.+), \$(\d+)')
_BR_STAY, _BR_SEE = '🏨 **Stay:** ', '📍 **See:**'


def _read_br(text, task, plan, ph):
    errs, days, saids, any_none = [], [], [], False
    ix = _dix(task, len(plan), ('mon', 'dmy'))
    lines = text.split('\n')
    j = next((j for j, ln in enumerate(lines) if ln.startswith('| Day |')), None)
    if j is None: return [], ['no table']
    hdr = _cells(lines[j])
    three = hdr == ['Day', 'Route', 'Plan']
    if not three and hdr != ['Day', 'Plan']: errs.append(f"header {hdr}")
    if not re.fullmatch(r'\|(?::?-+:?\|)+', lines[j + 1]): errs.append('no separator row')
    rest = lines[j + 2:]
    while rest and rest[0].startswith('|'):
        ln = rest.pop(0)
        cs, k = _cells(ln), len(days) + 1
        dc = cs[0].split('<br>')
        if len(cs) != len(hdr) or len(dc) != (2 if three else 3) or dc[0] != f"**Day {k}**" or ix.get(dc[1]) != k - 1:
            errs.append(f"row {ln!r}"); continue
        g, said, stay, see = _blank(_back(cs[1] if three else dc[2])), [], [], False
        days.append(g); saids.append(said)
        for x in cs[-1].split('<br>'):
            if x.startswith('• '):
                if not see: errs.append(f"day {k}: bullet {x!r} outside the sights")
                else: g['attraction'].append(_unvenue(ph, x[2:]))
                continue
            see = False
            if x == _BR_SEE or x.startswith(_BR_SEE + ' '):
                if g['attraction']: errs.append(f"day {k}: sights twice")
                see = x == _BR_SEE
                if not see: g['attraction'] = _unitems(ph, x[len(_BR_SEE) + 1:])
            elif (q := _BR_FL.fullmatch(x)): _put(g, 'leg', _flight(*q.groups()), errs)
            elif (q := _BR_RD.fullmatch(x)): _put(g, 'leg', _road_key('taxi' if 'Taxi' in q[1] else 'drive', *q.groups()[1:]), errs)
            elif (q := re.fullmatch(r'\*\(no (breakfast|lunch|dinner)\)\*', x)): any_none = True; _said(said, q[1], errs, f"day {k}: ")
            elif x.startswith(_BR_STAY):
                _stay_said(stay, k, errs)
                v = x[len(_BR_STAY):]
                if v not in ('— (heading home)', '— (none booked)'): _put(g, 'accommodation', _unvenue(ph, v), errs, f"day {k}: ")
            elif (mm := _unmeal(ph, x)):
                _said(said, mm[0], errs, f"day {k}: ")
                _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
            else: errs.append(f"day {k}: line {x!r}")
        if not stay: errs.append(f"day {k}: no stay line")
    if [x for x in rest if x.strip()] not in ([o] for o in _BR_OUTRO): errs.append(f"after the table: {rest}")
    if any_none: _all_said(saids, errs)
    return days, errs


# base_grid ------------------------------------------------------------------------------------------------------------
_BG_FL = re.compile(r'✈️ (\S+) (.+) → (.+) \((\d\d:\d\d)–(\d\d:\d\d)\)')
_BG_RD = re.compile(r'(🚕 taxi|🚗 drive) (.+) → (.+) \((.+), \$(\d+)\)')
_BG_STAY = re.compile(r'(.+) — check in (.+?), check out (.+?) \((\d+) nights?\)')
_BG_RUNNER = re.compile(r'_\(Runner-up: (.+) — (.+); not booked\.\)_')
_BG_HEAD = '| 🌅 Morning | ☀️ Afternoon | 🌙 Evening |'


def _read_grid(text, task, plan, ph):
    errs, days, saids, any_none, stays, runners, multi = [], [], [], False, [], [], False
    n, lines = len(plan), text.split('\n')
    ix = _dix(task, n, ('mon', 'dm'), extra=1)
    j = 0
    while j < len(lines) and not lines[j].startswith('### '):
        ln = lines[j]; j += 1
        if not ln.strip() or ln in _BG_INTRO or ln == "🏨 **Base for the trip:** none — no overnight stay": continue
        if ln.startswith('🏨 **Base for the trip:** ') and not stays: s = ln[len('🏨 **Base for the trip:** '):]
        elif ln == '🏨 **Bases for the trip:**' and not stays: multi = True; continue
        elif multi and ln.startswith('- '): s = ln[2:]
        elif (q := _BG_RUNNER.fullmatch(ln.strip())) and stays: runners.append(q[1]); continue
        else: errs.append(f"top line {ln!r}"); continue
        if not (q := _BG_STAY.fullmatch(s)): errs.append(f"stay {s!r}"); continue
        a, b = ix.get(q[2]), ix.get(q[3])
        if a is None or b is None or b - a != int(q[4]) or b <= a: errs.append(f"stay {s!r}: dates"); continue
        stays.append((_unvenue(ph, q[1]), a, b))
    if multi and len(stays) < 2: errs.append('"Bases" with fewer than two stays')
    for ln in lines[j:]:
        if ln.startswith('### '):
            h = re.fullmatch(r'### Day (\d+) · (.+?) · (.+)', ln)
            if not h or int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}"); continue
            days.append(_blank(_back(h[3]))); saids.append(None)
            continue
        if not ln.strip() or ln in (_BG_HEAD, '|---|---|---|', "Times are flexible — shuffle the grid as you like."): continue
        if not days or saids[-1] is not None or not ln.startswith('| '): errs.append(f"line {ln!r}"); continue
        cs, g, k, said = _cells(ln), days[-1], len(days), []
        saids[-1] = said
        if len(cs) != 3: errs.append(f"day {k}: row {ln!r}"); continue
        for part, c in enumerate(cs):
            if c == _BG_FREE: continue
            for x in c.split('; '):
                if (q := _BG_FL.fullmatch(x)):
                    if part != (0 if int(q[4][:2]) < 12 else 1 if int(q[4][:2]) < 18 else 2): errs.append(f"day {k}: flight in part {part}")
                    _put(g, 'leg', _flight(*q.groups()), errs)
                elif (q := _BG_RD.fullmatch(x)): _put(g, 'leg', _road_key('taxi' if q[1] == '🚕 taxi' else 'drive', *q.groups()[1:]), errs)
                elif x.startswith('see '):
                    if part == 2: errs.append(f"day {k}: sights in the evening")
                    g['attraction'] += _unitems(ph, x[4:])
                elif (q := re.fullmatch(r'\(no (breakfast|lunch|dinner)\)', x)):
                    any_none = True; _said(said, q[1], errs, f"day {k}: ")
                    if _MEALS.index(q[1]) != part: errs.append(f"day {k}: {q[1]} in part {part}")
                elif (mm := _unmeal(ph, x)):
                    _said(said, mm[0], errs, f"day {k}: ")
                    if _MEALS.index(mm[0]) != part: errs.append(f"day {k}: {mm[0]} in part {part}")
                    _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
                else: errs.append(f"day {k}: item {x!r}")
    if None in saids: errs.append('a day without its grid')
    for v, a, b in stays:
        for i in range(a, b):
            if i >= len(days): errs.append(f"stay {v!r} on night {i + 1}, after the trip"); break
            _put(days[i], 'accommodation', v, errs, f"night {i + 1}: ")
    for y in runners:
        if any(_nm(v) == y for v, _, _ in stays): errs.append(f"runner-up {y!r} is a stay of the plan")
    if any_none: _all_said([s or [] for s in saids], errs)
    return days, errs


# sql_insert -----------------------------------------------------------------------------------------------------------
def _read_sql(text, task, plan, ph):
    m = re.search(r'```sql\n(.*?)\n```', text, re.S)
    if not m: return [], ['no sql block']
    con = sqlite3.connect(':memory:')
    try:
        con.executescript(m[1])
        return _read_db(con, task, plan, ph)
    except sqlite3.Error as e: return [], [f"sql: {e!r}"]
    finally: con.close()


def _read_db(con, task, plan, ph):
    errs, days = [], []
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if tables == {'itinerary'}:
        for k, (day, date, route, tr, b, at, l, dn, acc) in enumerate(con.execute(
                'SELECT day, date, route, transport, breakfast, attractions, lunch, dinner, accommodation FROM itinerary ORDER BY day'), 1):
            if day != k or date != _fd(task, k - 1, 'iso'): errs.append(f"row {k}: day {day}, date {date}")
            g = _blank(_back(route))
            days.append(g)
            if tr is not None:
                if (q := re.fullmatch(r'Flight (\S+), (.+) → (.+), (\d\d:\d\d)–(\d\d:\d\d)', tr)): g['leg'] = _flight(*q.groups())
                elif (q := re.fullmatch(r'(Taxi|Self-drive), (.+) → (.+), (.+), \$(\d+)', tr)):
                    g['leg'] = _road_key('taxi' if q[1] == 'Taxi' else 'drive', *q.groups()[1:])
                else: errs.append(f"day {k}: transport {tr!r}")
            for key, v in (('breakfast', b), ('lunch', l), ('dinner', dn), ('accommodation', acc)):
                if v is not None: g[key] = _unvenue(ph, v)
            if at is not None: g['attraction'] = _unitems(ph, at)
        return days, errs
    if tables != {'days', 'legs', 'meals', 'visits', 'stays'}: return [], [f"tables {sorted(tables)}"]
    for k, (day, date, a, b) in enumerate(con.execute('SELECT day, date, from_city, to_city FROM days ORDER BY day'), 1):
        if day != k or date != _fd(task, k - 1, 'iso'): errs.append(f"days row {k}: day {day}, date {date}")
        days.append(_blank(_cc(a, b)))
    day = lambda k: days[k - 1] if isinstance(k, int) and 1 <= k <= len(days) else None
    vc = lambda n, c: f"{n}, {c}" if c else n
    for k, mode, no, a, b, dep, arr, dur, cost in con.execute('SELECT * FROM legs ORDER BY day'):
        if (g := day(k)) is None: errs.append(f"leg of day {k}"); continue
        if mode == 'flight' and dur is None and cost is None: _put(g, 'leg', _flight(no, a, b, dep, arr), errs)
        elif mode in ('self-driving', 'taxi') and no is None and dep is None and arr is None and isinstance(cost, int):
            _put(g, 'leg', _road_key('taxi' if mode == 'taxi' else 'drive', a, b, dur, str(cost)), errs)
        else: errs.append(f"leg row {(k, mode, no, a, b, dep, arr, dur, cost)}")
    for k, meal, rest, city in con.execute('SELECT day, meal, restaurant, city FROM meals ORDER BY day'):
        if (g := day(k)) is None: errs.append(f"meal of day {k}"); continue
        _put(g, meal, vc(rest, city), errs, f"day {k}: ")
    for k, seq, att, city in con.execute('SELECT day, seq, attraction, city FROM visits ORDER BY day, seq'):
        if (g := day(k)) is None: errs.append(f"visit of day {k}"); continue
        g['attraction'].append(vc(att, city))
    ix = _dix(task, len(days), 'iso')
    for name, city, ci, co in con.execute('SELECT name, city, check_in, check_out FROM stays ORDER BY check_in'):
        d0, d1 = datetime.date.fromisoformat(ci), datetime.date.fromisoformat(co)
        if d1 <= d0: errs.append(f"stay {name!r} of no night")
        while d0 < d1:
            if (i := ix.get(d0.isoformat())) is None: errs.append(f"stay {name!r} on {d0}, outside the trip"); break
            _put(days[i], 'accommodation', vc(name, city), errs, f"night {i + 1}: ")
            d0 += _DAY_SPAN
    return days, errs


# whatsapp_chat --------------------------------------------------------------------------------------------------------
_WA_IOS = re.compile(r'\[(\d\d/\d\d/\d{4}), (\d\d:\d\d:\d\d)\] ([^:\[\]]+): (.*)')
_WA_AND = re.compile(r'(\d\d/\d\d/\d{4}), (\d\d:\d\d) - ([^:]+): (.*)')
_WA_FL = re.compile(r'✈️ (\S+) (.+) → (.+), dep (\d\d:\d\d) arr (\d\d:\d\d)')
_WA_RD = re.compile(r'(🚕 taxi|🚗 driving) (.+) → (.+), ~(.+), \$(\d+)')


def _read_wa(text, task, plan, ph):
    m = re.search(r'```text\n(.*?)\n```', text, re.S)
    if not m: return [], ['no chat block']
    errs, msgs, stamps = [], [], []
    for ln in m[1].split('\n'):
        if not msgs and re.fullmatch(r'\d\d/\d\d/\d{4}, \d\d:\d\d - ' + re.escape(_WA_SYS), ln): continue
        if (q := _WA_IOS.fullmatch(ln) or _WA_AND.fullmatch(ln)):
            msgs.append((q[3], [q[4]])); stamps.append((q[1][6:], q[1][3:5], q[1][:2], q[2])); continue
        if not msgs: errs.append(f"line {ln!r} before any message"); continue
        msgs[-1][1].append(ln)
    if stamps != sorted(stamps): errs.append('messages out of time order')
    if not msgs: return [], errs + ['no messages']
    me, senders = msgs[0][0], {w for w, _ in msgs}
    if len(senders) > 2: errs.append(f"senders {senders}")
    ix = _dix(task, len(plan), 'wa')
    days, saids, any_none, pending, prev = [], [], False, None, None
    day = lambda k: days[k - 1] if 1 <= k <= len(days) else None
    for who, body in msgs:
        if who != me:
            if pending: errs.append(f"{pending} not answered")
            x, pending = body[0], None
            if len(body) != 1: errs.append(f"message {body}")
            if x in _WA_REACT: continue
            if (q := re.fullmatch(r'can we do (.+) for (breakfast|lunch|dinner) on day (\d+) instead\? 😋', x)): pending = ('meal', q[1], q[2], int(q[3]))
            elif (q := re.fullmatch(r'what about (.+) for the nights? of day (\d+)(?:–(\d+))?\?', x)): pending = ('stay', q[1], int(q[2]), int(q[3] or q[2]))
            elif (q := re.fullmatch(r'should we add (.+) on day (\d+)\?', x)): pending = ('sight', _unvenue(ph, q[1]), int(q[2]))
            else: errs.append(f"message {x!r}")
            continue
        if pending:                                          # the planner's answer to a suggestion
            kind, x, p, pending = pending[0], body[0], pending, None
            if len(body) != 1: errs.append(f"answer {body}")
            if kind == 'meal' and (q := re.fullmatch(r'(.+) is (?:closed that day|fully booked|too far from everything) 😕 (keeping|switching to) (.+)', x)):
                g = day(p[3])
                if q[1] != p[1] or g is None or g[p[2]] == '-': errs.append(f"answer {x!r} to {p}"); continue
                if q[2] == 'keeping' and q[3] != _nm(g[p[2]]): errs.append(f"answer keeps {q[3]!r}, not the plan's {p[2]}")
                if q[2] == 'switching to':
                    if q[3] != p[1]: errs.append(f"answer switches to {q[3]!r}")
                    g[p[2]] = _with_name(g[p[2]], q[3])
            elif kind == 'stay' and (q := re.fullmatch(r'no rooms left at (.+), (staying at|switching to) (.+)', x)):
                if q[1] != p[1]: errs.append(f"answer {x!r} to {p}")
                for kk in range(p[2], p[3] + 1):
                    if (g := day(kk)) is None or g['accommodation'] == '-': errs.append(f"answer about night {kk} without a stay"); continue
                    if q[2] == 'staying at' and q[3] != _nm(g['accommodation']): errs.append(f"answer keeps {q[3]!r}, not the stay of night {kk}")
                    if q[2] == 'switching to': g['accommodation'] = _with_name(g['accommodation'], q[3])
            elif kind == 'sight' and x in ('not enough time that day, skipping it', 'sure, adding it') and (g := day(p[2])) is not None:
                if x == 'sure, adding it': g['attraction'].append(p[1])
                elif p[1] in g['attraction']: errs.append(f"skips {p[1]!r}, which the day has")
            else: errs.append(f"answer {x!r} to {p}")
            continue
        for x in body:
            if len(body) == 1 and (x in _WA_OPEN or x in _WA_CLOSE or x == 'This message was deleted'): continue
            if (h := re.fullmatch(r'\*Day (\d+)\* — (.+?) — (.+)', x)):
                if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {x!r}")
                days.append(_blank(_back(h[3]))); saids.append([])
                continue
            if not days: errs.append(f"message {x!r} before the first day"); continue
            g, k, said = days[-1], len(days), saids[-1]
            icon, _, v = x.partition(' ')
            if (q := _WA_FL.fullmatch(x)): _put(g, 'leg', _flight(*q.groups()), errs)
            elif (q := _WA_RD.fullmatch(x)): _put(g, 'leg', _road_key('taxi' if q[1] == '🚕 taxi' else 'drive', *q.groups()[1:]), errs)
            elif icon == '📍':
                if g['attraction']: errs.append(f"day {k}: sights twice")
                g['attraction'] = _unitems(ph, v)
            elif icon in _WA_ICON.values():
                mm = (q[1], None) if (q := re.fullmatch(r'no (breakfast|lunch|dinner) planned', v)) else _unmeal(ph, v)
                if not mm or _WA_ICON[mm[0]] != icon: errs.append(f"day {k}: meal {x!r}"); continue
                _said(said, mm[0], errs, f"day {k}: ")
                if mm[1] is None: any_none = True
                else: _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
            elif icon == '🛏':
                if v == 'none, heading home': prev = None; continue
                st = v.startswith('still at ')
                _put(g, 'accommodation', _unvenue(ph, v[9:] if st else v), errs, f"day {k}: ")
                if st != (g['accommodation'] == prev): errs.append(f"day {k}: stay {v!r} after {prev!r}")
                prev = g['accommodation']
            else: errs.append(f"day {k}: message {x!r}")
    if pending: errs.append(f"{pending} not answered")
    if any_none: _all_said(saids, errs)
    return days, errs


# vi_id_hi_ar_labels ---------------------------------------------------------------------------------------------------
def _tpl_re(tpl: str, **groups) -> str:
    "A regex of a template ('{a} → {b}') with each {name} a group."
    s = re.escape(tpl)
    for k, g in groups.items(): s = s.replace(re.escape('{' + k + '}'), f"(?P<{k}>{g})")
    return s


def _read_lg(text, task, plan, ph):
    lg = next((lg for lg in _LG if _LG[lg]['head'].format(k=1, date=_lg_date(lg, task, 0), route='') in text), None)
    if lg is None: return [], ['language not found']
    L, errs, days, seen, any_none = _LG[lg], [], [], [], False
    join = L['joins'].get(ph.join, ph.join)
    fre = _tpl_re(L['flight'], n=r'\S+', a='.+', b='.+', dep=r'\d\d:\d\d', arr=r'\d\d:\d\d')
    rre = _tpl_re(L['road'], how='|'.join(map(re.escape, L['how'].values())), a='.+', b='.+', dur='.+', cost=r'\d+')
    labels = dict(zip(L['labels'], _LG_KEYS))
    back = {w: u for u, w in L['units'].items()}
    for ln in text.split('\n'):
        if ln.startswith('## '):
            want = L['head'].format(k=len(days) + 1, date=_lg_date(lg, task, len(days)), route='') if len(days) < len(plan) else None
            if not want or not ln.startswith(want): errs.append(f"head {ln!r}"); continue
            days.append(_blank(_back(ln[len(want):]))); seen.append([])
            continue
        if not ln.strip() or ln in L['intro'] or ln == L['outro'] or ln in (f"| {L['cols'][0]} | {L['cols'][1]} |", '|---|---|'): continue
        cs = _cells(ln) if ln.startswith('| ') else []
        if not days or len(cs) != 2 or cs[0] not in labels: errs.append(f"line {ln!r}"); continue
        key, v, g, k = labels[cs[0]], cs[1], days[-1], len(days)
        if seen[-1] and _LG_KEYS.index(key) <= _LG_KEYS.index(seen[-1][-1]): errs.append(f"day {k}: {key} out of order")
        seen[-1].append(key)
        if v == L['none'] or (key == 'accommodation' and v == L['none_stay'] and k == len(plan)): any_none = True; continue
        if key == 'leg':
            if (q := re.fullmatch(fre, v)): g['leg'] = _flight(q['n'], q['a'], q['b'], q['dep'], q['arr'])
            elif (q := re.fullmatch(rre, v)):
                parts = re.findall(r'(\d+) (' + '|'.join(map(re.escape, back)) + ')', q['dur'])
                if L['unit_sep'].join(f"{a} {u}" for a, u in parts) != q['dur']: errs.append(f"duration {q['dur']!r}")
                dur = ' '.join(f"{a} {back[u]}" for a, u in parts)
                g['leg'] = _road_key('taxi' if q['how'] == L['how']['taxi'] else 'drive', q['a'], q['b'], dur, q['cost'])
            else: errs.append(f"day {k}: leg {v!r}")
        elif key == 'attraction': g['attraction'] = _unitems(ph, v, join)
        else: g[key] = _unvenue(ph, v)
    if any_none:
        for k, s in enumerate(seen, 1):
            if s != list(_LG_KEYS): errs.append(f"day {k}: labels {s}")
    return days, errs


# cost_brackets --------------------------------------------------------------------------------------------------------
_CB_MEAL = re.compile(r'- (🍳|🥪|🍝) (.+?) \[(~\$[\d,.]+ pp|price n/a)\]'
                      r'(?: _\(instead of (.+) \[(?:~\$[\d,.]+ pp|price n/a)\], which was (?:' + '|'.join(_CB_WHY) + r')\)_)?')


def _read_cost(text, task, plan, ph):
    errs, days, saids, any_none, stays = [], [], [], False, []
    ix = _dix(task, len(plan), 'dm')
    for ln in text.split('\n'):
        if (h := re.fullmatch(r'\*\*Day (\d+) — (.+?) — (.+)\*\*', ln)):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h[3]))); saids.append([]); stays.append([])
            continue
        if not ln.strip() or ln in _CB_INTRO or ln.startswith('**Estimated total: ~$'): continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k, said = days[-1], len(days), saids[-1]
        if (q := re.fullmatch(r'_Day (\d+) subtotal: ~\$[\d,]+_', ln)):
            if int(q[1]) != k: errs.append(f"subtotal {ln!r} in day {k}")
        elif (q := re.fullmatch(r'- ✈️ Flight (\S+), (.+) → (.+), (\d\d:\d\d)–(\d\d:\d\d) \[(?:~\$[\d,.]+ pp|fare n/a)\]', ln)):
            _put(g, 'leg', _flight(*q.groups()), errs)
        elif (q := re.fullmatch(r'- (🚗 Self-drive|🚕 Taxi) (.+) → (.+), (.+) \[\$(\d+) per (car|taxi)\]', ln)):
            if (q[1] == '🚕 Taxi') != (q[6] == 'taxi'): errs.append(f"day {k}: {ln!r}")
            _put(g, 'leg', _road_key('taxi' if q[1] == '🚕 Taxi' else 'drive', *q.groups()[1:5]), errs)
        elif (q := re.fullmatch(r'- 🍽️ No (breakfast|lunch|dinner) planned \[\$0\]', ln)): any_none = True; _said(said, q[1], errs, f"day {k}: ")
        elif (q := _CB_MEAL.fullmatch(ln)):
            mm = _unmeal(ph, q[2])
            if not mm or _CB_ICON[mm[0]] != q[1]: errs.append(f"day {k}: meal {ln!r}"); continue
            _said(said, mm[0], errs, f"day {k}: ")
            _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
            if q[4] is not None and q[4] == _nm(g[mm[0]]): errs.append(f"day {k}: {mm[0]} instead of itself")
        elif (q := re.fullmatch(r'- 🎟️ (.+) \[(?:free|entry fee varies)\]', ln)): g['attraction'].append(_unvenue(ph, q[1]))
        elif (q := re.fullmatch(r'- 🛏️ No hotel — (?:last day|none booked) \[\$0\]', ln)): _stay_said(stays[-1], k, errs)
        elif (q := re.fullmatch(r'- 🛏️ (.+) \[(?:\$[\d,.]+/night|price n/a)\]', ln)):
            _stay_said(stays[-1], k, errs)
            _put(g, 'accommodation', _unvenue(ph, q[1]), errs, f"day {k}: ")
        else: errs.append(f"day {k}: line {ln!r}")
    if any(not s for s in stays): errs.append('a day without its stay line')
    if any_none: _all_said(saids, errs)
    return days, errs


# days_out_of_order ----------------------------------------------------------------------------------------------------
_OO_FL = re.compile(r'✈️ (\S+), (.+) → (.+), departs (\d\d:\d\d), lands (\d\d:\d\d)')
_OO_RD = re.compile(r'(🚕 taxi|🚗 self-drive) (.+) → (.+) \((.+), \$(\d+)\)')


def _read_ooo(text, task, plan, ph):
    errs, sec, order, cur, dash = [], {}, [], None, False
    n = len(plan)
    longs, dots = _dix(task, n, 'long'), _dix(task, n, 'dot')
    lines = text.split('\n')
    how = next((h for h, ss in _OO_INTRO.items() if lines[0] in ss), None)
    if how is None: errs.append(f"intro {lines[0]!r}")
    for ln in lines[1:]:
        h = re.fullmatch(r'### Day (\d+) of (\d+) — (.+?) — (.+)', ln) or re.fullmatch(r'## 🗓 Day (\d+)/(\d+) · (.+?) · (.+)', ln)
        if h:
            k = int(h[1])
            if int(h[2]) != n or (longs if ln.startswith('###') else dots).get(h[3]) != k - 1 or k in sec: errs.append(f"head {ln!r}"); cur = None; continue
            cur = sec[k] = (_blank(_back(h[4])), [])
            order.append(k)
            continue
        if not ln.strip() or ln == f"That's all {n} days (read them by their numbers).": continue
        if cur is None or not ln.startswith('- '): errs.append(f"line {ln!r}"); continue
        (g, said), x, k = cur, ln[2:], order[-1]
        if x.startswith('Getting there: '):
            v = x[15:]
            _said(said, 'leg', errs, f"day {k}: ")
            if v == '-': dash = True
            elif (q := _OO_FL.fullmatch(v)): g['leg'] = _flight(*q.groups())
            elif (q := _OO_RD.fullmatch(v)): g['leg'] = _road_key('taxi' if q[1] == '🚕 taxi' else 'drive', *q.groups()[1:])
            else: errs.append(f"day {k}: leg {v!r}")
        elif x.startswith('Sights: '):
            _said(said, 'attraction', errs, f"day {k}: ")
            if x[8:] == '-': dash = True
            else: g['attraction'] = _unitems(ph, x[8:])
        elif x.startswith('Overnight: '):
            _said(said, 'accommodation', errs, f"day {k}: ")
            if x[11:] == '-': dash = True
            else: g['accommodation'] = _unvenue(ph, x[11:])
        elif (mm := _unmeal(ph, x)):
            _said(said, mm[0], errs, f"day {k}: ")
            if mm[1] == '-': dash = True
            else: g[mm[0]] = _unvenue(ph, mm[1])
        else: errs.append(f"day {k}: line {x!r}")
    if sorted(order) != list(range(1, n + 1)): errs.append(f"days {order}")
    elif how == 'return' and order != [n] + list(range(1, n)): errs.append(f"'return day first' but {order}")
    elif how == 'reverse' and order != list(range(n, 0, -1)): errs.append(f"'counting down' but {order}")
    elif how == 'travel':
        trav = [k for k in order if sec[k][0]['leg'] is not None or sec[k][0]['current_city'].startswith('from ')]
        if order[:len(trav)] != trav or trav != sorted(trav) or order[len(trav):] != sorted(order[len(trav):]): errs.append(f"'travel days first' but {order}")
    if dash:
        for k, (_, said) in sec.items():
            if sorted(said) != sorted(('leg', 'attraction', 'accommodation', *_MEALS)): errs.append(f"day {k}: slots stated {said}")
    return [sec[k][0] for k in sorted(sec)], errs


# maps_links -----------------------------------------------------------------------------------------------------------
_ML_LINK = re.compile(r'\[([^\[\]]*)\]\((https://[^()\s]+)\)')


def _ml_back(ph, s: str, base_seen: list) -> str:
    "'Name, City' of a linked venue '[Name](url)<placement>'; the URL must be the Maps query of that name and city."
    m = _ML_LINK.match(s)
    if not m: raise ValueError(f"venue {s!r} not linked")
    v = _unvenue(ph, m[1] + s[m.end():])
    n, c = _name_city(v)
    base = next((b for b in _ML_BASE if m[2].startswith(b)), None)
    if base is None or (base_seen and base != base_seen[0]): raise ValueError(f"link {m[2]!r}")
    base_seen[:] = [base]
    q = parse_qs(urlsplit(m[2]).query, keep_blank_values=True)
    if m[2] != _ml_url(base, n, c) or q.get('q' if base == _ML_BASE[0] else 'query') != [_ml_query(base, n, c)]:
        raise ValueError(f"link {m[2]!r} is not the map query of {v!r}")
    return v


def _read_maps(text, task, plan, ph):
    errs, days, saids, stays, any_none, base, last = [], [], [], [], False, [], None
    ix = _dix(task, len(plan), 'long')
    for ln in text.split('\n'):
        if (h := re.fullmatch(r'\*\*Day (\d+) · (.+?) · (.+)\*\*', ln)):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h[3]))); saids.append([]); stays.append([]); last = None
            continue
        if not ln.strip() or ln in _ML_INTRO or ln == "All links open in the Google Maps app if you have it.": continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k, said = days[-1], len(days), saids[-1]
        if (q := re.fullmatch(r"  - _Backup if it's full: (.+)_", ln)):
            lk = _ML_LINK.fullmatch(q[1])
            if not last or g[last] == '-' or not lk: errs.append(f"day {k}: backup {ln!r}"); continue
            n, c = lk[1], _name_city(g[last])[1]
            if n == _nm(g[last]) or lk[2] != _ml_url(base[0] if base else _ML_BASE[0], n, c): errs.append(f"day {k}: backup {ln!r} for {g[last]!r}")
            continue
        last = None
        if (q := re.fullmatch(r'- ✈️ Flight (\S+) · (.+) → (.+) · (\d\d:\d\d) → (\d\d:\d\d)', ln)): _put(g, 'leg', _flight(*q.groups()), errs)
        elif (q := re.fullmatch(r'- (🚕 Taxi|🚗 Self-drive) · (.+) → (.+) · (.+) · \$(\d+)', ln)):
            _put(g, 'leg', _road_key('taxi' if q[1] == '🚕 Taxi' else 'drive', *q.groups()[1:]), errs)
        elif ln.startswith('- 📍 '): g['attraction'].append(_ml_back(ph, ln[4:], base))
        elif ln.startswith('- 🛏️ Stay: '):
            _stay_said(stays[-1], k, errs)
            v = ln[len('- 🛏️ Stay: '):]
            if v not in ('— (last day)', '— (none booked)'): _put(g, 'accommodation', _ml_back(ph, v, base), errs, f"day {k}: "); last = 'accommodation'
        elif (q := re.fullmatch(r'- (🍳|🥪|🍝) (.+)', ln)) and (mm := _unmeal(ph, q[2])) and _ML_ICON[mm[0]] == q[1]:
            _said(said, mm[0], errs, f"day {k}: ")
            if mm[1] == '—': any_none = True
            else: _put(g, mm[0], _ml_back(ph, mm[1], base), errs, f"day {k}: "); last = mm[0]
        else: errs.append(f"day {k}: line {ln!r}")
    if any(not s for s in stays): errs.append('a day without its stay line')
    if any_none: _all_said(saids, errs)
    return days, errs


_READERS = {'br_day_cells': _read_br, 'base_grid': _read_grid, 'sql_insert': _read_sql, 'whatsapp_chat': _read_wa,
            'vi_id_hi_ar_labels': _read_lg, 'cost_brackets': _read_cost, 'days_out_of_order': _read_ooo, 'maps_links': _read_maps}


def _check_one(name, task, plan, text, ph) -> list[str]:
    "Errors of one rendering (`layouts_v8._check_with` with this part's readers)."
    return _check_with(_READERS, name, task, plan, text, ph)

# ---------------------------------------------------------------------------------------------------------- corruptions
def _relabel(name, ph, text):
    "The text with its first lunch made a dinner (label and, where a layout has one, icon), else None."
    L, D = ph.meal_prefix('Lunch'), ph.meal_prefix('Dinner')
    if name == 'sql_insert':
        m = re.search(r"^  \(\d+, 'lunch', ", text, re.M)
        return text[:m.start()] + m[0].replace("'lunch'", "'dinner'") + text[m.end():] if m else None
    if name == 'vi_id_hi_ar_labels':
        lab = next((x['labels'] for x in _LG.values() if f"| {x['labels'][3]} | " in text), None)
        return text.replace(f"| {lab[3]} | ", f"| {lab[4]} | ", 1) if lab else None
    a, b = {'whatsapp_chat': (f"🥪 {L}", f"🍝 {D}"), 'cost_brackets': (f"- 🥪 {L}", f"- 🍝 {D}"), 'maps_links': (f"- 🥪 {L}", f"- 🍝 {D}"),
            'days_out_of_order': (f"- {L}", f"- {D}"), 'br_day_cells': (f"<br>{L}", f"<br>{D}")}.get(name, (L, D))
    if name == 'br_day_cells' and a not in text: a, b = f"| {L}", f"| {D}"
    return text.replace(a, b, 1) if a in text else None


_DAY_HEAD = {'br_day_cells': r'\| \*\*Day \d+\*\*', 'base_grid': r'### Day \d+ · ', 'whatsapp_chat': r'(\[.+?\] |.+? - )[^:]+: \*Day \d+\* — ',
             'vi_id_hi_ar_labels': r'## ', 'cost_brackets': r'\*\*Day \d+ — ', 'days_out_of_order': r'(### Day \d+ of|## 🗓 Day )',
             'maps_links': r'\*\*Day \d+ · '}


def _drop_day(name, text, task, k=1):
    "The text without the k-th day (0-based) it states: its lines up to the next day's head (sql_insert: day k+1's rows)."
    if name == 'sql_insert': return '\n'.join(ln for ln in text.split('\n') if not ln.startswith(f"  ({k + 1}, "))
    out, skip, d = [], False, -1
    for ln in text.split('\n'):
        if re.match(_DAY_HEAD[name], ln): d += 1; skip = d == k
        if not skip: out.append(ln)
    return '\n'.join(out)


def _decoy_promotions(name, plan, text, task):
    "[(what, text)]: a decoy of the layout taken for the plan."
    out, lines = [], text.split('\n')
    if name == 'base_grid':
        for j, ln in enumerate(lines):
            if (m := _BG_RUNNER.fullmatch(ln.strip())):
                old = next((_nm(d['accommodation']) for d in plan if d['accommodation'] != '-' and _nm(d['accommodation']) in lines[j - 1]), None)
                if old: out.append(("the runner-up taken as the base", '\n'.join(lines[:j - 1] + [lines[j - 1].replace(old, m[1], 1)] + lines[j:])))
                break
    if name == 'sql_insert' and '-- fixes after checking availability' in lines:
        j = lines.index('-- fixes after checking availability')
        e = lines.index('', j)
        out.append(("the first picks kept (fixes dropped)", '\n'.join(lines[:j] + lines[e:])))
    if name == 'whatsapp_chat':
        for pat, new in ((r'😕 (keeping .+)$', None), (r'no rooms left at .+, (staying at .+)$', None), (r'(not enough time that day, skipping it)$', 'sure, adding it')):
            for j, ln in enumerate(lines):
                if (m := re.search(pat, ln)):
                    y = re.search(r': (?:can we do|what about) (.+) for ', lines[j - 1])
                    if not (new or y): continue
                    rep = new or f"switching to {y[1]}"
                    out.append(("a turned-down suggestion taken", '\n'.join(lines[:j] + [ln[:m.start(1)] + rep + ln[m.end(1):]] + lines[j + 1:])))
                    break
    if name == 'cost_brackets':
        for j, ln in enumerate(lines):
            if (m := _CB_MEAL.fullmatch(ln)) and m[4]:
                mm = re.search(r' \[(?:~\$[\d,.]+ pp|price n/a)\] _\(instead of ', ln)
                x = next((_nm(d[k]) for d in plan for k in _MEALS if d[k] != '-' and _nm(d[k]) in ln[:mm.start()]), None)
                if x: out.append(("the replaced restaurant kept", '\n'.join(lines[:j] + [_swap(ln, x, m[4]) or ln] + lines[j + 1:])))
                break
    if name == 'maps_links':
        for j, ln in enumerate(lines):
            if ln.startswith("  - _Backup if it's full: "):
                a, b = _ML_LINK.search(lines[j - 1]), _ML_LINK.search(ln)
                if a and b:
                    out.append(("the backup taken", '\n'.join(lines[:j - 1] + [lines[j - 1].replace(a[0], b[0], 1), ln.replace(b[0], a[0], 1)] + lines[j + 1:])))
                break
    return out


def _longer_stay(name, text, task, n):
    "A stay made one night longer (base_grid: its check-out and nights; sql_insert: its check_out)."
    if name == 'base_grid' and (m := re.search(r'check out (.+?) \((\d+) nights?\)', text)):
        for f in ('mon', 'dm'):
            ix = _dix(task, n, f, extra=2)
            if m[1] in ix and ix[m[1]] + 1 <= n + 1:
                return text[:m.start()] + f"check out {_fd(task, ix[m[1]] + 1, f)} ({int(m[2]) + 1} nights)" + text[m.end():]
    if name == 'sql_insert' and (m := re.search(r"^  \('.*', '(\d{4}-\d\d-\d\d)', '(\d{4}-\d\d-\d\d)'\)", text, re.M)):
        return text[:m.start(2)] + (datetime.date.fromisoformat(m[2]) + _DAY_SPAN).isoformat() + text[m.end(2):]
    return None


def mutations(name, plan, text, task, ph):
    """[(kind, what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a
    flight renumbered, sights of two days swapped, two stays swapped, a lunch labelled dinner, a day dropped, a flight's
    departure moved; per layout a decoy promoted (the runner-up taken, the SQL fixes dropped, a suggestion taken, the
    replaced restaurant kept, the backup taken) and a stay made a night longer (base_grid, sql_insert)."""
    out = _common_mutations(plan, text)
    if (s := _relabel(name, ph, text)): out.append(('a lunch labelled dinner', '', s))
    out.append(('a day dropped', 'day 2', _drop_day(name, text, task, 1)))
    if (s := _time_shift(name, plan, text)): out.append(("a flight's departure moved", '', s))
    out += [('decoy promoted', w, s) for w, s in _decoy_promotions(name, plan, text, task)]
    if (s := _longer_stay(name, text, task, len(plan))): out.append(("a stay made a night longer", '', s))
    return [x for x in out if x[2] != text]


_HAS_DECOY = {'base_grid': lambda t: '_(Runner-up: ' in t, 'sql_insert': lambda t: '-- fixes after checking availability' in t,
              'whatsapp_chat': lambda t: ' 😕 keeping ' in t or ', staying at ' in t or 'skipping it' in t,
              'cost_brackets': lambda t: ' _(instead of ' in t, 'maps_links': lambda t: "_Backup if it's full: " in t}


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    "The part's self-check (`layouts.selfcheck_part`): failures + missed corruptions."
    return selfcheck_part(HELDOUT11_LAYOUTS, _phr, _check_one, mutations,
                          lambda lay, text: lay in _HAS_DECOY and _HAS_DECOY[lay](text), plans, mutate_every)


if __name__ == '__main__':
    part_cli(__doc__, HELDOUT11_LAYOUTS, _phr, selfcheck)
