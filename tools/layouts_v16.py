#!/usr/bin/env python
"""Held-out part v16 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their notebooks
(04a, 04b, 05), tests (test_grounded*, test_layout*, test_robustness*) or results/formatter/* were opened, no reader was
run on these texts, and `tools/layouts.py measure` / `record` were not run). Only tools/layouts.py (its interface and its
layouts' source, to avoid repeating them), tools/agreement.py (`_leg_parts`, `_attractions`) and tools/layouts_v5.py ...
layouts_v15.py (their structure, docstrings and layouts; generic helpers of v8, v9, v10, v12, v13 and v15 are imported)
were read; star/evaluator.py was not opened (its `eval_index().city_state` is used, through layouts_v15's `_cities`, as
tools/layouts.py uses it). SEALED: this part is to be scored ONCE by the lead (via tools/layouts.py, part 'heldout16',
once registered there) and never tuned on before that score.

    python tools/layouts_v16.py check                    # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (the reST sections, field lists
                                                         # and list-tables unescaped, its admonitions and comments; the
                                                         # Notion entries' properties, date ranges and stops; the days
                                                         # counted from "The next morning" markers, AP-style clocks;
                                                         # the Bulgarian / Bengali / Malay / Lithuanian tables, dates,
                                                         # Bengali digits and durations; the HTML cards unescaped, struck
                                                         # names and comments; TripIt's split departures and arrivals,
                                                         # check-ins matched to check-outs; the Python code parsed by
                                                         # `ast`, range() nights, overrides and commented-out calls; the
                                                         # rating annotations recomputed and the runs of nights) into the
                                                         # plan's own values (venue 'Name, City', route, leg parts) and
                                                         # compared with the plan EXACTLY; then corruptions (a name
                                                         # deleted, lunches swapped, a day dropped, a decoy promoted, a
                                                         # flight time moved, a stay lengthened, ...) must be caught.
                                                         # 315 plans x 8 layouts = 2,520 renderings, 23,350
                                                         # corruptions, ~30 s
    python tools/layouts_v16.py check --limit 40         # the same on the first 40 known plans (~4 s)
    python tools/layouts_v16.py show tripit_export --n 1 # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how chat models, tool-using agents and people write a 3/5/7-day trip plan, in styles that none of
tools/layouts.py, tools/layouts_v5.py ... tools/layouts_v15.py has (see each renderer's docstring):

* `rst_document`         a reStructuredText document: '='-boxed title, ":Dates:" / ":Travellers:" docinfo, an optional
                         ".. contents::", a section per day underlined with '-' ("Day 2 — Thursday, March 17 —
                         Rockford") holding EITHER a field list (":Travel: Flight F1 · A → B · 15:40–17:04", ":Lunch: X",
                         ":Sights: A ↠ B", ":Overnight: W") OR a ".. list-table::" ("* - 12:30" / "  - Lunch" / "  - X");
                         names escaped as reST needs ('\\*', '\\|', '\\`', a word-final '\\_'); DECOYS in ".. admonition::
                         Considered, not booked" items or in reST COMMENTS (".. not booked: Lunch: Y — closed that day"),
                         invisible once rendered
* `notion_database`      a Notion DATABASE exported as markdown: one "### " entry per item with "Key: Value" properties
                         (Type "Meal · Lunch" / "Sight" / "Stay" / "Flight" / "Self-drive" / "Day", Day, Date "March 17,
                         2022 12:30 PM", Place and City apart, Stop "2 of 3", a stay ONCE as "Date: March 16, 2022 → March
                         18, 2022" check-in → CHECK-OUT with "Nights: 2"), property order drawn, a timeline view or a board
                         grouped by type; DECOYS: entries with "Status: Dropped" and "Notes: ..."
* `next_morning_times`   days IMPLICIT: only the first dated, the others opened by "**The next morning — Rockford**",
                         "**The following day — ...**", "**Your last day — ...**", no day numbers; lines headed by AP-style
                         clock times ("8 a.m.", "12:30 p.m.", "noon") in clock order, sights by a pin only, "Night — W (2
                         nights)" then "Night — W again" / "same place (W)"; an overnight flight "landing ... at 1:05 a.m.
                         (the next day)"; DECOYS: asides "    ↳ not Y — closed that day", "    ↳ skipping S — ...", "(2
                         nights; Z had no rooms)"
* `bg_bn_ms_lt_labels`   the answer in Bulgarian, Bengali, Malay or Lithuanian (drawn), each day a heading ("#### Ден 2 ·
                         четвъртък, 17 март 2022 г. · Rockford", "#### দিন ২ · বৃহস্পতিবার, ১৭ মার্চ ২০২২ · ...", "#### Hari 2 ·
                         Khamis, 17 Mac 2022 · ...", "#### 2 diena · 2022 m. kovo 17 d., ketvirtadienis · ...") and a
                         two-column KEY–VALUE table (Обяд = LUNCH, Вечеря = dinner; দুপুরের খাবার / রাতের খাবার; Makan tengah
                         hari / Makan malam; Pietūs = LUNCH, Vakarienė = dinner), legs, clocks, durations and Bengali
                         digits translated, the placement's words translated, '\\|' in names; DECOYS: italic notes
                         "_Разгледано, но не е резервирано — Обяд: Y (затворено този ден)_"
* `html_card_grid`       the days as HTML CARDS in a CSS grid (```html, or a Jupyter cell 'display(HTML(\"\"\"...\"\"\"))'):
                         '<div class="card" data-day="2">', "<h4>Day 2 · Thu, Mar 17</h4>", '<li class="meal lunch">🥪
                         Lunch ⇨ X</li>', '<li class="sight">📍 A</li>' (or one 'class="sights"' item), '<li
                         class="stay">🛏️ W</li>'; names HTML-escaped; DECOYS: "<details><summary>Also
                         considered</summary>" with struck "<s>Y</s> — lunch · closed that day", or HTML comments
                         "<!-- lunch: Y was my first pick (closed that day) -->"
* `tripit_export`        a TripIt-style plain-text export: "THU, MAR 17, 2022 · Rockford" blocks of items headed by a
                         RIGHT-ALIGNED 12-hour time in time order; a flight as TWO items ("Depart A · Flight F1" / "Arrive
                         B · Flight F1", "(+1 day)"), a drive with a continuation line, meals in the drawn label,
                         "Activity · A", stays as "Check-in · W" ("2 nights · check-out Fri, Mar 18") and "Check-out · W"
                         on the morning AFTER the last night; DECOYS: "✕ CANCELLED" items with "replaced by X — ..." /
                         "no rooms left — booked W instead" / the reason
* `builder_code`         the itinerary as PYTHON CODE for a made-up builder library: "d2 = trip.day(2, city=...)",
                         'd1.travel(Flight("F1", "A", "B", depart=time(15, 40), arrive=time(17, 4)))', 'd2.meal("lunch",
                         Place("X", city="Rockford"))' or 'd2.lunch(Place(...))', see() calls, empty meals 'd3.dinner(None)',
                         stays ONCE 'trip.stay(Place(...), nights=range(1, 3))' (Python's range: nights 1 and 2) / "[1, 2]" /
                         "check_in=date(...), check_out=date(...)"; DECOYS: commented-out calls and arguments, or code that
                         overrides itself ('replace=True', 'trip.cancel_stay("Z")', 'd2.drop("S")')
* `annotated_ratings`    day blocks of Unicode bullets of three kinds (drawn: ◆ ▸ ↳, ■ • ⤷, ● ➤ ↪, ✦ › ╰→), EVERY name
                         followed by a rating and cost annotation ("🥪 Lunch ⇨ X (Rockford, Ill.) (★ 4.4 · $$ · ~$24 pp)",
                         "📍 A (★ 4.7 · free · ~2 h)", "🛏️ W (★ 4.6 · ~$154/night · 2 nights)" then "(... · night 2 of
                         2)"), sights one per bullet or joined; DECOYS: sub-bullets "↳ runner-up: Y (...) — long waits",
                         "↳ skipped: S (★ 4.2) — not enough time"

Phrasings (`HELDOUT16_PHRASES`, drawn per rendering by `Phr16`): venue placed as 'X, in the heart of City', 'X in City,
USA', 'X (City, Ill.)' (the AP Stylebook's state abbreviation in parentheses; 'X (City)' for a city the database places
in no state) or 'X, City' (the words translated in bg_bn_ms_lt_labels: 'X, в сърцето на City', 'X, City-এর প্রাণকেন্দ্রে', 'X
di City, AS', 'X, City, JAV', ...); several sights joined by ' ↠ ', ' ◇ ', ', before heading to ' or ', then a short hop
to ' (the last two translated in bg_bn_ms_lt_labels); meal labels 'Lunch: table at X', 'Lunch | X', 'Lunch ⇨ X' or 'Lunch:
X' (in next_morning_times, html_card_grid, tripit_export and annotated_ratings; the other layouts say their meals in
fields, rows, properties, translated labels or calls). notion_database and builder_code give the city a property or an
argument of its own (no placement). Every rendering states the whole plan: each day's route, the leg (flight number and
times, or self-drive / taxi with duration and cost), each meal's restaurant (or none: absent, or said to be none), each
attraction and the accommodation; names are verbatim (words are only added around them; reST, markdown tables, HTML and
Python string literals escape what they must); the noise (admonitions, comments, dropped entries, asides, notes, struck
names, cancelled items, commented-out or overridden calls, runners-up, ratings and prices) never contradicts the plan;
every rendering carries at least one decoy.
"""
from __future__ import annotations

import ast, datetime, html, json, random, re, sys, zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _name_city, known_plans, part_cli, selfcheck_part            # noqa: E402
from layouts_v8 import _cmp, _common_mutations, _MEALS, _all_said, _blank, _date, _dur_key, _get, _people, _put, _road_key, _said, _swap  # noqa: E402
from layouts_v9 import _back, _hm, _revision_decoys, _rt, _timed  # noqa: E402
from layouts_v10 import _day_runs, _flight, _nm, _with_name  # noqa: E402
from layouts_v12 import _alt, _dix, _fd, _span_text  # noqa: E402
from layouts_v13 import _day_of, _first_line_sub, _tre, _unmeal  # noqa: E402
from layouts_v15 import (_AP_OF, _cities, _leg_en, _meal_check, _nights_tag, _sight_check, _stay_check, _unleg_en,  # noqa: E402
                         _untag, _with_leg)

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT16_PHRASES = {
    'locative': ('heart_of', 'in_usa', 'ap_paren', 'comma'),   # 'X, in the heart of City' | 'X in City, USA' | 'X (City, Ill.)' | 'X, City'
    'join': (' ↠ ', ' ◇ ', ', before heading to ', ', then a short hop to '),
    'meal_label': ('table_at', 'pipe', 'double_arrow', 'colon'),   # 'Lunch: table at X' | 'Lunch | X' | 'Lunch ⇨ X' | 'Lunch: X'
}

_VT16 = {   # the placement's words per language (the localized layout translates them; 'ap_paren' stays as US addresses are written)
    'en': {'heart_of': '{n}, in the heart of {c}', 'in_usa': '{n} in {c}, USA', 'comma': '{n}, {c}'},
    'bg': {'heart_of': '{n}, в сърцето на {c}', 'in_usa': '{n} в {c}, САЩ', 'comma': '{n}, {c}'},
    'bn': {'heart_of': '{n}, {c}-এর প্রাণকেন্দ্রে', 'in_usa': '{n}, {c}, মার্কিন যুক্তরাষ্ট্র', 'comma': '{n}, {c}'},
    'ms': {'heart_of': '{n}, di tengah-tengah {c}', 'in_usa': '{n} di {c}, AS', 'comma': '{n}, {c}'},
    'lt': {'heart_of': '{n}, {c} (pačiame centre)', 'in_usa': '{n}, {c}, JAV', 'comma': '{n}, {c}'},
}
_VRE16 = {lg: {k: _tre(t) for k, t in T.items()} for lg, T in _VT16.items()}
_AP_PAREN = re.compile(r'(?P<n>.+) \((?P<c>[^()]+?)(?:, (?P<S>[^(),]+))?\)', re.S)


def _venue(ph, v: str, lg: str = 'en') -> str:
    "A venue 'Name, City' as `ph` places it (in language `lg`): 'ap_paren' adds the state's AP abbreviation where the city has one."
    n, c = _name_city(v)
    if not c: return n
    if ph.loc == 'ap_paren': return f"{n} ({c}, {_AP_OF[c]})" if c in _AP_OF else f"{n} ({c})"
    return _VT16[lg][ph.loc].format(n=n, c=c)


def _unvenue(ph, s: str, lg: str = 'en') -> str:
    "'Name, City' of a venue as `_venue` writes it; a placement that is not the drawn one is an error."
    if ph.loc == 'ap_paren':
        m = _AP_PAREN.fullmatch(s)
        if not m: raise ValueError(f"venue {s!r} not placed as ap_paren")
        if m['S'] is not None:
            if _AP_OF.get(m['c']) != m['S']: raise ValueError(f"venue {s!r}: state")
        elif m['c'] in _AP_OF or m['c'] not in _cities(): raise ValueError(f"venue {s!r}: city without its state")
        return f"{m['n']}, {m['c']}"
    m = _VRE16[lg][ph.loc].fullmatch(s)
    if not m or not m['n'] or not m['c']: raise ValueError(f"venue {s!r} not placed as {ph.loc} ({lg})")
    return f"{m['n']}, {m['c']}"


class Phr16(Phr):
    "`Phr` with the v16 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        if self.loc in HELDOUT16_PHRASES['locative']: return _venue(self, v)
        return super().venue(v)

    def meal_prefix(self, label: str) -> str:
        "The words before a meal's venue: 'Lunch: table at ' | 'Lunch | ' | 'Lunch ⇨ ' | 'Lunch: '."
        return {'table_at': f"{label}: table at ", 'pipe': f"{label} | ", 'double_arrow': f"{label} ⇨ "}.get(self.label, f"{label}: ")

    def meal(self, label: str, v: str) -> str: return self.meal_prefix(label) + self.venue(v)


PHR16 = Phr16

# -------------------------------------------------------------------------------------------------------------- helpers
def _decoys(plan, rng, meal_n=(1, 1, 2)):
    "`layouts_v9._revision_decoys`: {(day index, meal): name}, {(first, last day index): name}, {day index: (pos, 'Name, City')}."
    return _revision_decoys(plan, rng, meal_n)


_DECOY_LOG: dict[str, list] = {}
"""Rendered text -> [(y, x)]: each decoy name y and the plan's name x it stands against (written by the renderers, read only by
the corruptions, which promote a decoy; the readers never look at it)."""


def _log(text: str, pairs) -> str:
    if len(_DECOY_LOG) > 4000: _DECOY_LOG.clear()
    _DECOY_LOG[text] = [(y, x) for y, x in pairs if y and x and y != x]
    return text


def _ap(t: str) -> str:
    "'15:40' in AP style: '3:40 p.m.'; '08:00' -> '8 a.m.'; '12:00' -> 'noon'; '00:00' -> 'midnight'."
    h, m = int(t[:2]), int(t[3:])
    if (h, m) == (12, 0): return 'noon'
    if (h, m) == (0, 0): return 'midnight'
    suf = 'a.m.' if h < 12 else 'p.m.'
    return f"{(h - 1) % 12 + 1} {suf}" if m == 0 else f"{(h - 1) % 12 + 1}:{m:02d} {suf}"


_AP_T = r'(?:\d{1,2}(?::\d\d)? [ap]\.m\.|noon|midnight)'


def _un_ap(s: str) -> str:
    if s == 'noon': return '12:00'
    if s == 'midnight': return '00:00'
    q = re.fullmatch(r'(\d{1,2})(?::(\d\d))? ([ap])\.m\.', s)
    if not q or not 1 <= int(q[1]) <= 12: raise ValueError(f"time {s!r}")
    out = f"{int(q[1]) % 12 + (12 if q[3] == 'p' else 0):02d}:{q[2] or '00'}"
    if _ap(out) != s: raise ValueError(f"time {s!r} not as AP writes it")
    return out


def _pm(t: str) -> str:
    "'15:40' -> '3:40 PM' (a 12-hour clock with AM / PM, as apps print it)."
    h, m = int(t[:2]), int(t[3:])
    return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


def _un_pm(s: str) -> str:
    q = re.fullmatch(r'(\d{1,2}):(\d\d) ([AP])M', s)
    if not q or not 1 <= int(q[1]) <= 12: raise ValueError(f"time {s!r}")
    return f"{int(q[1]) % 12 + (12 if q[3] == 'P' else 0):02d}:{q[2]}"


def _mins(t: str) -> int: return int(t[:2]) * 60 + int(t[3:])


_MEAL_T = {'breakfast': '08:00', 'lunch': '12:30', 'dinner': '19:00'}
_ICON = {'breakfast': '🍳', 'lunch': '🥪', 'dinner': '🍝'}


def _leg_t(d) -> int:
    "The minute of the day the leg is placed at (`layouts_v15._with_leg`)."
    return next(t for t, kind, _ in _with_leg(d) if kind == 'leg')


def _resolve(days, checks, errs):
    """Decoys against the plan read: ('meal', k, m, y, y_city, where), ('stay', a, b, z, z_city, where), ('sight', k, s, s_city,
    where) — each a name the text mentions but did not choose (y_city None where the text gives no city): the slot exists,
    holds another name (in the same city where one is given), and a stay decoy's nights are exactly a run of the kept stay."""
    for c in checks:
        if c[0] == 'meal':
            _, k, m, y, yc, where = c
            g = _day_of(days, k)
            x = g[m] if g and g[m] not in ('-', None) else None
            if x is None or (yc is not None and _name_city(x)[1] != yc): errs.append(f"{where}decoy {y!r} for day {k} {m}"); continue
            _meal_check(days, k, m, y, _nm(x), errs, where)
        elif c[0] == 'stay':
            _, a, b, z, zc, where = c
            g = _day_of(days, a)
            w = g['accommodation'] if g and g['accommodation'] not in ('-', None) else None
            if w is None or (zc is not None and _name_city(w)[1] != zc): errs.append(f"{where}stay decoy {z!r} for nights {a}–{b}"); continue
            _stay_check(days, a, b, z, _nm(w), errs, where)
        else:
            _, k, s, sc, where = c
            g = _day_of(days, k)
            if g is None or (sc is not None and sc not in {_name_city(x)[1] for x in g['attraction']}):
                errs.append(f"{where}sight decoy {s!r} on day {k}"); continue
            _sight_check(days, k, s, errs, where)


def _split_cells(row: str) -> list[str]:
    "A markdown table row split at its unescaped bars ('\\|' kept escaped)."
    out, cur, j = [], '', 0
    while j < len(row):
        if row[j] == '\\' and j + 1 < len(row): cur += row[j:j + 2]; j += 2; continue
        if row[j] == '|': out.append(cur); cur = ''
        else: cur += row[j]
        j += 1
    return out + [cur]


def _mdesc(s: str) -> str: return s.replace('|', '\\|')


def _mdunesc(s: str) -> str: return s.replace('\\|', '|')

# ============================================================================================================ layouts
# rst_document ---------------------------------------------------------------------------------------------------------
_RS_WHY = {'meal': ("closed that day", "no table at our time", "over the food budget"), 'stay': ("no rooms left", "over budget"),
           'sight': ("not enough time", "closed for renovation")}
_RS_TOC = ['', '.. contents:: Days', '   :local:', '   :depth: 1']
_RS_OPTS = ['.. list-table::', '   :header-rows: 1', '   :widths: 15 20 65', '']


def _resc(s: str) -> str:
    "Text as reStructuredText needs it: '\\', '*', '`', '|' escaped, and a '_' that ends a word (a reference otherwise)."
    s = re.sub(r'([\\*`|])', r'\\\1', s)
    return re.sub(r'_(?=\W|$)', r'\\_', s)


def _runesc(s: str) -> str:
    "reST text unescaped; text not escaped exactly as `_resc` escapes is an error."
    out = re.sub(r'\\(.)', r'\1', s)
    if _resc(out) != s: raise ValueError(f"not escaped as reST needs: {s!r}")
    return out


def _rs_leg(t: str, table: bool, tm: int):
    p = _leg_parts(t)
    mode = 'Taxi' if p['mode'] == 'taxi' else 'Self-drive'
    if table:
        if p['mode'] == 'flight': return (f"{p['dep']}–{p['arr']}", 'Flight', f"{p['number']} · {p['a']} → {p['b']}")
        return (_hm(tm), mode, f"{p['a']} → {p['b']} · {p['duration']} · ${p['cost']}")
    if p['mode'] == 'flight': return f"Flight {p['number']} · {p['a']} → {p['b']} · {p['dep']}–{p['arr']}"
    return f"{mode} · {p['a']} → {p['b']} · {p['duration']} · ${p['cost']}"


def _rs_title(task, n) -> str: return f"{_get(task, 'org')} → {_get(task, 'dest')}: {n}-day itinerary"


def rst_document(plan, task, ph):
    """A reStructuredText document (as pasted from a docs repo or Sphinx page): the title between '=' over- and underlines
    ("St. Petersburg → Rockford: 3-day itinerary"), a docinfo field list (":Dates: Mar 16–18, 2022", ":Travellers: 1"), in
    some renderings a ".. contents::" directive, then a section per day, its title underlined with '-' ("Day 2 — Thursday,
    March 17 — Rockford") holding EITHER a field list (":Travel: Flight F1 · A → B · 15:40–17:04", ":Breakfast: X" in the
    drawn placement, ":Sights: A ↠ B" in the drawn join, ":Lunch:", ":Dinner:", ":Overnight: W"; an empty meal ":Lunch: —" or
    left out) OR a ".. list-table::" directive ("* - 12:30" / "  - Lunch" / "  - X", one row per sight, the leg "15:40–17:04 /
    Flight / F1 · A → B", "21:00 / Overnight / W"); names escaped as reST needs ('\\*', '\\|', '\\`', a word-final '\\_'); DECOYS
    after the day: an ".. admonition:: Considered, not booked" with items ("- Lunch: Y — closed that day", "- Nights 1–2: Z —
    no rooms left", "- Sight: S — not enough time") OR the same as reST COMMENTS, invisible once rendered (".. not booked:
    Lunch: Y — closed that day")."""
    r = ph.rng
    table, toc, say_none = r.random() < 0.5, r.random() < 0.5, r.random() < 0.3
    dform = r.choice(('admonition', 'comment'))
    meals, stays, sights = _decoys(plan, r)
    n, pairs = len(plan), []
    d0, d1 = _date(task, 0), _date(task, n - 1)
    title = _rs_title(task, n)
    out = ['=' * len(title), title, '=' * len(title), '', f":Dates: {_span_text(d0, d1)}, {d1.year}", f":Travellers: {_people(task)}"]
    if toc: out += _RS_TOC
    V = lambda v: _resc(ph.venue(v))
    for i, d in enumerate(plan):
        k, at = d['days'], _attractions(d['attraction'])
        h = f"Day {k} — {_fd(task, i, 'long')} — {_rt(d['current_city'])}"
        out += ['', h, '-' * len(h), '']
        last = i == n - 1
        if table:
            rows = [('Time', 'What', 'Details')]
            if d['transportation'] != '-': rows.append(_rs_leg(d['transportation'], True, _leg_t(d)))
            for t, kind, v in _timed(d): rows.append((_hm(t), 'Sight' if kind == 'sight' else kind.capitalize(), V(v)))
            if say_none: rows += [('—', m.capitalize(), '*none planned*') for m in _MEALS if d[m] == '-']
            if d['accommodation'] != '-': rows.append(('21:00', 'Overnight', V(d['accommodation'])))
            elif say_none: rows.append(('—', 'Overnight', '*none — heading home*' if last else '*none*'))
            out += _RS_OPTS
            for a, b, c in rows: out += [f"   * - {a}", f"     - {b}", f"     - {c}"]
        else:
            if d['transportation'] != '-': out.append(f":Travel: {_rs_leg(d['transportation'], False, 0)}")
            for m in _MEALS:
                if d[m] != '-': out.append(f":{m.capitalize()}: {V(d[m])}")
                elif say_none: out.append(f":{m.capitalize()}: —")
                if m == 'breakfast' and at: out.append(f":Sights: {ph.join.join(V(x) for x in at)}")
            if d['accommodation'] != '-': out.append(f":Overnight: {V(d['accommodation'])}")
            elif say_none: out.append(":Overnight: — (heading home)" if last else ":Overnight: —")
        ents = []
        for (j, m), y in meals.items():
            if j == i:
                pairs.append((y, _nm(d[m])))
                ents.append(f"{m.capitalize()}: {V(_with_name(d[m], y))} — {r.choice(_RS_WHY['meal'])}")
        for (a, b), z in stays.items():
            if a == i:
                pairs.append((z, _nm(d['accommodation'])))
                ents.append(f"{_nights_tag(a + 1, b + 1)}: {V(_with_name(d['accommodation'], z))} — {r.choice(_RS_WHY['stay'])}")
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            ents.append(f"Sight: {V(sights[i][1])} — {r.choice(_RS_WHY['sight'])}")
        if ents:
            out += ['', '.. admonition:: Considered, not booked', ''] + [f"   - {e}" for e in ents] if dform == 'admonition' else \
                [''] + [f".. not booked: {e}" for e in ents]
    return _log('\n'.join(out), pairs)


# notion_database ------------------------------------------------------------------------------------------------------
_NO_WHY = {'meal': ("closed that day", "no table for our time", "too pricey"), 'stay': ("no rooms left", "over budget"),
           'sight': ("not enough time", "closed that week")}
_NO_GROUPS = ('Days', 'Transport', 'Meals', 'Sights', 'Stays')


def _nd(task, i: int) -> str:
    "Day i's date as Notion prints a date property: 'March 17, 2022'."
    d = _date(task, i)
    return f"{d:%B} {d.day}, {d.year}"


def notion_database(plan, task, ph):
    """A Notion DATABASE exported as markdown (as an agent with Notion access hands it back): "# 🧳 A → B · trip database", a
    quoted line naming the view, then one entry per item, each a "### " title and its PROPERTIES, one "Key: Value" a line
    (the order of the properties drawn): a "Type: Day" entry per day ("### Day 2 · Rockford", "Date: March 17, 2022",
    "Route: Rockford"); the leg ("### ✈️ F1 A → B", "Type: Flight", "Day: 1", "Date: March 16, 2022 3:40 PM → 5:04 PM" — an
    arrival after midnight with its own date —, "Flight number", "From", "To"; or "Type: Self-drive" / "Taxi" with
    "Duration: 3 hours 11 mins", "Cost: $120"); meals ("### X", "Type: Meal · Lunch", "Day: 2", "Date: March 17, 2022 12:30 PM",
    "Place: X", "City: Rockford", "Status: Booked"); sights ("Type: Sight", "Stop: 2 of 3", the time in "Date"); stays ONCE per
    run ("Type: Stay", "Date: March 16, 2022 → March 18, 2022" — check-in to CHECK-OUT, so the last night is the day before
    the second date —, "Nights: 2"); the place's name and city in properties of their own (no placement phrasing). EITHER a
    timeline view (the entries by day and time, each stay after its first day's items) OR a board view grouped by type
    ("## Meals (7)", ...). DECOYS: entries with "Status: Dropped" and "Notes: closed that day" (a meal at the same day and
    time as the kept one, a stay over the same dates, a sight with "Stop: —")."""
    r = ph.rng
    board = r.random() < 0.5
    order = r.choice((('Type', 'Day', 'Date', 'Place', 'City', 'Status', 'Notes'), ('Status', 'Type', 'Date', 'Day', 'City', 'Place', 'Notes')))
    meals, stays, sights = _decoys(plan, r)
    n, pairs, ents = len(plan), [], []             # ents: (group, lines)

    def ent(group, title, props):
        ks = sorted(props, key=lambda x: order.index(x) if x in order else 3)
        ents.append((group, [f"### {title}"] + [f"{x}: {props[x]}" for x in ks]))

    runs = {a: (a, b, acc) for a, b, acc in _day_runs(plan)}
    for i, d in enumerate(plan):
        k, at, date = d['days'], _attractions(d['attraction']), _nd(task, i)
        ent('Days', f"Day {k} · {_rt(d['current_city'])}", {'Type': 'Day', 'Date': date, 'Route': _rt(d['current_city'])})
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            if p['mode'] == 'flight':
                arr = (_nd(task, i + 1) + ' ' if p['arr'] < p['dep'] else '') + _pm(p['arr'])
                ent('Transport', f"✈️ {p['number']} {p['a']} → {p['b']}", {'Type': 'Flight', 'Day': k, 'Date': f"{date} {_pm(p['dep'])} → {arr}",
                                                                         'Flight number': p['number'], 'From': p['a'], 'To': p['b'], 'Status': 'Booked'})
            else:
                ent('Transport', f"{'🚕' if p['mode'] == 'taxi' else '🚗'} {p['a']} → {p['b']}",
                    {'Type': 'Taxi' if p['mode'] == 'taxi' else 'Self-drive', 'Day': k, 'Date': date, 'From': p['a'], 'To': p['b'],
                     'Duration': p['duration'], 'Cost': f"${p['cost']}", 'Status': 'Booked'})
        stop = 0
        for t, kind, v in _timed(d):
            nm_, c = _name_city(v)
            if kind == 'sight':
                stop += 1
                if i in sights and sights[i][0] == stop - 1:
                    s = sights[i][1]
                    pairs.append((_nm(s), _nm(at[0])))
                    ent('Sights', _nm(s), {'Type': 'Sight', 'Day': k, 'Date': date, 'Stop': '—', 'Place': _nm(s), 'City': _name_city(s)[1],
                                           'Status': 'Dropped', 'Notes': r.choice(_NO_WHY['sight'])})
                ent('Sights', nm_, {'Type': 'Sight', 'Day': k, 'Date': f"{date} {_pm(_hm(t))}", 'Stop': f"{stop} of {len(at)}",
                                    'Place': nm_, 'City': c, 'Status': 'Planned'})
                if i in sights and sights[i][0] == len(at) and stop == len(at):
                    s = sights[i][1]
                    pairs.append((_nm(s), _nm(at[0])))
                    ent('Sights', _nm(s), {'Type': 'Sight', 'Day': k, 'Date': date, 'Stop': '—', 'Place': _nm(s), 'City': _name_city(s)[1],
                                           'Status': 'Dropped', 'Notes': r.choice(_NO_WHY['sight'])})
                continue
            props = {'Type': f"Meal · {kind.capitalize()}", 'Day': k, 'Date': f"{date} {_pm(_hm(t))}", 'Place': nm_, 'City': c, 'Status': 'Booked'}
            if (i, kind) in meals:
                y = meals[(i, kind)]
                pairs.append((y, nm_))
                ent('Meals', y, dict(props, Place=y, Status='Dropped', Notes=r.choice(_NO_WHY['meal'])))
            ent('Meals', nm_, props)
        if i in runs:
            a, b, acc = runs[i]
            nm_, c = _name_city(acc)
            props = {'Type': 'Stay', 'Date': f"{date} → {_nd(task, b + 1)}", 'Nights': b - a + 1, 'Place': nm_, 'City': c, 'Status': 'Booked'}
            if (a, b) in stays:
                z = stays[(a, b)]
                pairs.append((z, nm_))
                ent('Stays', z, dict(props, Place=z, Status='Dropped', Notes=r.choice(_NO_WHY['stay'])))
            ent('Stays', nm_, props)
    out = [f"# 🧳 {_get(task, 'org')} → {_get(task, 'dest')} · trip database",
           f"> Exported from Notion · {len(ents)} entries · view: " + ('Board (grouped by Type)' if board else 'Timeline (sorted by Date)')]
    if board:
        for g in _NO_GROUPS:
            es = [x for gg, x in ents if gg == g]
            out += ['', f"## {g} ({len(es)})"]
            for x in es: out += [''] + x
    else:
        for _, x in ents: out += [''] + x
    return _log('\n'.join(out), pairs)


# next_morning_times ---------------------------------------------------------------------------------------------------
_NM_INTRO = ("Here's a relaxed {n}-day plan — times are approximate.", "Okay! Here's how I'd pace the {n} days (all times local):")
_NM_MID = ("The next morning", "The following day", "The day after that", "Next day")
_NM_LAST = ("Your last day", "On the final day", "Last morning")
_NM_WHY = {'meal': ("closed that day", "no tables left", "a long detour"), 'sight': ("not enough time", "closed that week")}
_NM_OUTRO = ("Shout if you'd like any of the times moved.", "Have a great trip!")


def _nm_leg(t: str, tm: int) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        return (f"{_ap(p['dep'])} — Flight {p['number']} out of {p['a']}, landing in {p['b']} at {_ap(p['arr'])}" +
                (' (the next day)' if p['arr'] < p['dep'] else ''))
    return f"{_ap(_hm(tm))} — {'Taxi' if p['mode'] == 'taxi' else 'Drive yourself'} from {p['a']} to {p['b']} ({p['duration']}, about ${p['cost']})"


def next_morning_times(plan, task, ph):
    """A plan whose days are IMPLICIT: only the first day is dated ("**Wednesday, March 16 — St. Petersburg → Rockford**");
    every later day opens with a relative marker and its route or city ("**The next morning — Rockford**", "**The following
    day — ...**", "**The day after that — ...**", "**Next day — ...**", the last "**Your last day — Rockford → St.
    Petersburg**"), no day numbers anywhere; under it, lines headed by the TIME OF DAY in AP style ("8 a.m.", "12:30 p.m.",
    "noon", "3:40 p.m."): "3:40 p.m. — Flight F1 out of A, landing in B at 5:04 p.m." (an arrival after midnight "... at 1:05
    a.m. (the next day)" — still that day's flight), "7:30 a.m. — Drive yourself from A to B (3 hours 11 mins, about $120)",
    meals in the drawn label and placement ("12:30 p.m. — Lunch ⇨ X"), sights by a pin only ("9:30 a.m. — 📍 A"), then the
    night ("Night — W (2 nights)" on a stay's first night, "Night — W again" / "Night — same place (W)" after, "Night — home"
    or left out when there is none). DECOYS: an indented aside under a meal ("    ↳ not Y — closed that day"), a skipped sight
    ("    ↳ skipping S — not enough time"), a stay's first night naming the one that had no rooms ("Night — W (2 nights; Z had
    no rooms)")."""
    r = ph.rng
    say_home = r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    n, pairs = len(plan), []
    out = [r.choice(_NM_INTRO).format(n=n)]
    runs = {a: (a, b, acc) for a, b, acc in _day_runs(plan)}
    for i, d in enumerate(plan):
        at = _attractions(d['attraction'])
        mark = _fd(task, 0, 'long') if i == 0 else r.choice(_NM_LAST) if i == n - 1 else r.choice(_NM_MID)
        ls = [f"**{mark} — {_rt(d['current_city'])}**"]
        seen = 0
        for t, kind, v in sorted(_with_leg(d), key=lambda x: x[0]):          # in clock order (stable: the sights keep theirs)
            if kind == 'leg': ls.append(_nm_leg(v, t)); continue
            if kind == 'sight':
                seen += 1
                ls.append(f"{_ap(_hm(t))} — 📍 {ph.venue(v)}")
                if seen == len(at) and i in sights:
                    pairs.append((_nm(sights[i][1]), _nm(at[0])))
                    ls.append(f"    ↳ skipping {ph.venue(sights[i][1])} — {r.choice(_NM_WHY['sight'])}")
                continue
            ls.append(f"{_ap(_hm(t))} — {ph.meal(kind.capitalize(), v)}")
            if (i, kind) in meals:
                y = meals[(i, kind)]
                pairs.append((y, _nm(v)))
                ls.append(f"    ↳ not {y} — {r.choice(_NM_WHY['meal'])}")
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            note = f"{b - a + 1} night{'s' * (b > a)}"
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc)))
                note += f"; {stays[(a, b)]} had no rooms"
            ls.append(f"Night — {ph.venue(acc)} ({note})")
        elif acc != '-': ls.append(r.choice((f"Night — {ph.venue(acc)} again", f"Night — same place ({ph.venue(acc)})")))
        elif say_home and i == n - 1: ls.append("Night — home")
        out += [''] + ls
    return _log('\n'.join(out + ['', r.choice(_NM_OUTRO)]), pairs)


# bg_bn_ms_lt_labels ---------------------------------------------------------------------------------------------------
_BN_DIGITS = str.maketrans('0123456789', '০১২৩৪৫৬৭৮৯')
_BN_BACK = str.maketrans('০১২৩৪৫৬৭৮৯', '0123456789')

_LG16 = {
    'bg': dict(intro="Ето маршрута, ден по ден:", outro="Приятно пътуване! Пишете, ако трябва нещо да се промени.",
               days='понеделник вторник сряда четвъртък петък събота неделя'.split(),
               months='януари февруари март април май юни юли август септември октомври ноември декември'.split(),
               date=lambda wd, d, mo, y: f"{wd}, {d} {mo} {y} г.", head="#### Ден {k} · {date} · {route}",
               cols=('Какво', 'Подробности'),
               lab=('Транспорт', 'Закуска', 'Забележителности', 'Обяд', 'Вечеря', 'Нощувка', 'Забележителност'), none='няма',
               flight="Полет {num}: {a} → {b}, излитане {dep}, кацане {arr}", drive="Собствена кола: {a} → {b}, около {dur}, {cost} USD",
               taxi="Такси: {a} → {b}, около {dur}, {cost} USD",
               dur={'day': ('ден', 'дни'), 'hour': ('ч.', 'ч.'), 'min': ('мин.', 'мин.')},
               join={', before heading to ': ', преди да отидете до ', ', then a short hop to ': ', после кратко до '},
               note="_Разгледано, но не е резервирано — {slot}: {v} ({why})_", nights=('нощ', 'нощи'),
               why={'meal': 'затворено този ден', 'stay': 'няма свободни стаи', 'sight': 'няма достатъчно време'}),
    'bn': dict(intro="দিন অনুযায়ী ভ্রমণ পরিকল্পনা:", outro="শুভ যাত্রা! কিছু বদলাতে হলে জানাবেন।",
               days='সোমবার মঙ্গলবার বুধবার বৃহস্পতিবার শুক্রবার শনিবার রবিবার'.split(),
               months='জানুয়ারি ফেব্রুয়ারি মার্চ এপ্রিল মে জুন জুলাই আগস্ট সেপ্টেম্বর অক্টোবর নভেম্বর ডিসেম্বর'.split(),
               date=lambda wd, d, mo, y: f"{wd}, {_bn(d)} {mo} {_bn(y)}", head="#### দিন {k} · {date} · {route}",
               cols=('বিষয়', 'বিবরণ'),
               lab=('যাতায়াত', 'সকালের নাস্তা', 'দর্শনীয় স্থান', 'দুপুরের খাবার', 'রাতের খাবার', 'থাকার জায়গা', 'দর্শনীয় স্থান'), none='নেই',
               flight="ফ্লাইট {num}: {a} → {b}, ছাড়বে {dep}, পৌঁছাবে {arr}", drive="নিজে গাড়ি চালিয়ে: {a} → {b}, প্রায় {dur}, {cost} ডলার",
               taxi="ট্যাক্সি: {a} → {b}, প্রায় {dur}, {cost} ডলার",
               dur={'day': ('দিন', 'দিন'), 'hour': ('ঘণ্টা', 'ঘণ্টা'), 'min': ('মিনিট', 'মিনিট')},
               join={', before heading to ': ', তারপর যান ', ', then a short hop to ': ', তারপর অল্প দূরে '},
               note="_বিবেচনা করা হয়েছিল, কিন্তু বুক করা হয়নি — {slot}: {v} ({why})_", nights=('রাত', 'রাত'),
               why={'meal': 'সেদিন বন্ধ', 'stay': 'কোনো রুম খালি নেই', 'sight': 'যথেষ্ট সময় নেই'}),
    'ms': dict(intro="Berikut jadual perjalanan, hari demi hari:", outro="Selamat bercuti! Beritahu saya jika ada yang perlu diubah.",
               days='Isnin Selasa Rabu Khamis Jumaat Sabtu Ahad'.split(),
               months='Januari Februari Mac April Mei Jun Julai Ogos September Oktober November Disember'.split(),
               date=lambda wd, d, mo, y: f"{wd}, {d} {mo} {y}", head="#### Hari {k} · {date} · {route}",
               cols=('Perkara', 'Butiran'),
               lab=('Pengangkutan', 'Sarapan', 'Tempat menarik', 'Makan tengah hari', 'Makan malam', 'Penginapan', 'Tempat menarik'), none='tiada',
               flight="Penerbangan {num}: {a} → {b}, berlepas {dep}, tiba {arr}", drive="Memandu sendiri: {a} → {b}, kira-kira {dur}, USD {cost}",
               taxi="Teksi: {a} → {b}, kira-kira {dur}, USD {cost}",
               dur={'day': ('hari', 'hari'), 'hour': ('jam', 'jam'), 'min': ('minit', 'minit')},
               join={', before heading to ': ', sebelum ke ', ', then a short hop to ': ', kemudian singgah sebentar di '},
               note="_Dipertimbangkan tetapi tidak ditempah — {slot}: {v} ({why})_", nights=('malam', 'malam'),
               why={'meal': 'tutup pada hari itu', 'stay': 'tiada bilik kosong', 'sight': 'tidak cukup masa'}),
    'lt': dict(intro="Štai kelionės planas, diena po dienos:", outro="Geros kelionės! Parašykite, jei ką reikėtų pakeisti.",
               days='pirmadienis antradienis trečiadienis ketvirtadienis penktadienis šeštadienis sekmadienis'.split(),
               months='sausio vasario kovo balandžio gegužės birželio liepos rugpjūčio rugsėjo spalio lapkričio gruodžio'.split(),
               date=lambda wd, d, mo, y: f"{y} m. {mo} {d} d., {wd}", head="#### {k} diena · {date} · {route}",
               cols=('Kas', 'Informacija'),
               lab=('Kelionė', 'Pusryčiai', 'Lankytinos vietos', 'Pietūs', 'Vakarienė', 'Nakvynė', 'Lankytina vieta'), none='nėra',
               flight="Skrydis {num}: {a} → {b}, išvykimas {dep}, atvykimas {arr}", drive="Savo automobiliu: {a} → {b}, apie {dur}, {cost} USD",
               taxi="Taksi: {a} → {b}, apie {dur}, {cost} USD",
               dur={'day': ('d.', 'd.'), 'hour': ('val.', 'val.'), 'min': ('min.', 'min.')},
               join={', before heading to ': ', prieš keliaujant į ', ', then a short hop to ': ', tada trumpam į '},
               note="_Svarstyta, bet neužsakyta — {slot}: {v} ({why})_", nights=('naktis', 'naktys'),
               why={'meal': 'tą dieną uždaryta', 'stay': 'nėra laisvų kambarių', 'sight': 'neužtenka laiko'}),
}
"""Bulgarian (Cyrillic: 'Обяд' is LUNCH and 'Вечеря' DINNER, unlike Russian 'обед' / 'ужин'), Bengali (Bengali digits),
Malay ('Makan tengah hari' lunch, 'Makan malam' dinner) and Lithuanian ('Pietūs' is LUNCH, 'Vakarienė' dinner)."""


def _bn(x) -> str: return str(x).translate(_BN_DIGITS)


def _lnum(lg, x) -> str: return _bn(x) if lg == 'bn' else str(x)


def _ldur(lg, s: str) -> str:
    L = _LG16[lg]
    return ' '.join(f"{_lnum(lg, k)} {L['dur'][u][0 if k == 1 else 1]}" for k, u in _dur_key(s))


def _ldate(lg, task, i) -> str:
    d, L = _date(task, i), _LG16[lg]
    return L['date'](L['days'][d.weekday()], d.day, L['months'][d.month - 1], d.year)


def _lleg(lg, t) -> str:
    L, p = _LG16[lg], _leg_parts(t)
    if p['mode'] == 'flight': return L['flight'].format(num=p['number'], a=p['a'], b=p['b'], dep=_lnum(lg, p['dep']), arr=_lnum(lg, p['arr']))
    return L[p['mode']].format(a=p['a'], b=p['b'], dur=_ldur(lg, p['duration']), cost=_lnum(lg, p['cost']))


def _ljoin(lg, ph) -> str: return _LG16[lg]['join'].get(ph.join, ph.join)


def bg_bn_ms_lt_labels(plan, task, ph):
    """The answer in Bulgarian, Bengali, Malay or Lithuanian (drawn), each day a heading and a two-column KEY–VALUE table:
    "#### Ден 2 · четвъртък, 17 март 2022 г. · Rockford", "#### দিন ২ · বৃহস্পতিবার, ১৭ মার্চ ২০২২ · Rockford" (Bengali
    digits), "#### Hari 2 · Khamis, 17 Mac 2022 · Rockford", "#### 2 diena · 2022 m. kovo 17 d., ketvirtadienis · Rockford"
    (a travel day "A → B"); the table "| Какво | Подробности |" / "| বিষয় | বিবরণ |" / "| Perkara | Butiran |" / "| Kas |
    Informacija |" with a row per slot: Транспорт / Закуска / Забележителности / Обяд (= LUNCH) / Вечеря (= dinner) / Нощувка,
    যাতায়াত / সকালের নাস্তা / দর্শনীয় স্থান / দুপুরের খাবার / রাতের খাবার / থাকার জায়গা, Pengangkutan / Sarapan / Tempat menarik /
    Makan tengah hari / Makan malam / Penginapan, Kelionė / Pusryčiai / Lankytinos vietos / Pietūs (= LUNCH) / Vakarienė /
    Nakvynė; legs translated ("Полет F1: A → B, излитане 15:40, кацане 17:04", "ফ্লাইট F1: ..., ছাড়বে ১৫:৪০, পৌঁছাবে ১৭:০৪",
    "Memandu sendiri: A → B, kira-kira 3 jam 11 minit, USD 120", "Savo automobiliu: ..., apie 3 val. 11 min., 120 USD");
    the sights in one cell in the drawn join (its words translated), the placement's words translated ("X, в сърцето на
    Rockford", "X, Rockford-এর প্রাণকেন্দ্রে", "X di Rockford, AS", "X, Rockford, JAV"); '|' in a name escaped '\\|'; an
    empty slot 'няма' / 'নেই' / 'tiada' / 'nėra' or its row left out. DECOYS: an italic note under the table
    ("_Разгледано, но не е резервирано — Обяд: Y (затворено този ден)_", with "Нощувка, нощи 1–2" / a sight)."""
    r = ph.rng
    lg, say_none = r.choice(tuple(_LG16)), r.random() < 0.35
    L = _LG16[lg]
    meals, stays, sights = _decoys(plan, r)
    n, pairs = len(plan), []
    V = lambda v: _mdesc(_venue(ph, v, lg))
    lab = dict(zip(('leg', 'breakfast', 'sights', 'lunch', 'dinner', 'stay', 'sight'), L['lab']))
    out = [L['intro']]
    for i, d in enumerate(plan):
        at = _attractions(d['attraction'])
        route = _rt(d['current_city'])
        out += ['', L['head'].format(k=_lnum(lg, d['days']), date=_ldate(lg, task, i), route=route), '',
                f"| {L['cols'][0]} | {L['cols'][1]} |", '|---|---|']
        if d['transportation'] != '-': out.append(f"| {lab['leg']} | {_lleg(lg, d['transportation'])} |")
        for m in _MEALS:
            if d[m] != '-': out.append(f"| {lab[m]} | {V(d[m])} |")
            elif say_none: out.append(f"| {lab[m]} | {L['none']} |")
            if m == 'breakfast' and at: out.append(f"| {lab['sights']} | {_ljoin(lg, ph).join(V(x) for x in at)} |")
        if d['accommodation'] != '-': out.append(f"| {lab['stay']} | {V(d['accommodation'])} |")
        elif say_none: out.append(f"| {lab['stay']} | {L['none']} |")
        notes = []
        for (j, m), y in meals.items():
            if j == i:
                pairs.append((y, _nm(d[m])))
                notes.append(L['note'].format(slot=lab[m], v=V(_with_name(d[m], y)), why=L['why']['meal']))
        for (a, b), z in stays.items():
            if a == i:
                pairs.append((z, _nm(d['accommodation'])))
                nt = f"{L['nights'][0]} {_lnum(lg, a + 1)}" if a == b else f"{L['nights'][1]} {_lnum(lg, a + 1)}–{_lnum(lg, b + 1)}"
                notes.append(L['note'].format(slot=f"{lab['stay']}, {nt}", v=V(_with_name(d['accommodation'], z)), why=L['why']['stay']))
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            notes.append(L['note'].format(slot=lab['sight'], v=V(sights[i][1]), why=L['why']['sight']))
        if notes: out += [''] + notes
    return _log('\n'.join(out + ['', L['outro']]), pairs)


# html_card_grid -------------------------------------------------------------------------------------------------------
_HC_INTRO = ("Here are the day cards — paste the block into a Jupyter markdown cell (or any HTML page):",
             "I laid the days out as cards; run this cell in Jupyter to see the grid:")
_HC_WHY = {'meal': ("closed that day", "fully booked", "over budget"), 'stay': ("no rooms left", "over budget"), 'sight': ("not enough time",)}
_HC_GRID = '<div class="trip-grid" style="display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:12px;font-family:system-ui">'
_HC_CARD = ' style="border:1px solid #ddd;border-radius:10px;padding:10px 14px">'
_HC_ICON = {'flight': '✈️', 'drive': '🚗', 'taxi': '🚕'}


def _esc(s: str) -> str: return html.escape(s, quote=True)


def _unesc(s: str) -> str:
    "HTML text unescaped; text not escaped exactly as `_esc` escapes is an error."
    out = html.unescape(s)
    if _esc(out) != s: raise ValueError(f"not escaped as HTML needs: {s!r}")
    return out


def _hc_leg(t: str) -> tuple[str, str]:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return 'flight', f"✈️ Flight {p['number']} · {p['a']} → {p['b']} · {p['dep']}–{p['arr']}"
    return p['mode'], f"{_HC_ICON[p['mode']]} {'Taxi' if p['mode'] == 'taxi' else 'Self-drive'} · {p['a']} → {p['b']} · {p['duration']} · ${p['cost']}"


def html_card_grid(plan, task, ph):
    """The days as HTML CARDS in a CSS grid, as assistants emit for a notebook or a web page: EITHER a ```html block OR a
    Jupyter cell (```python, "from IPython.display import HTML, display", 'display(HTML(\"\"\"...\"\"\"))'); a grid <div>,
    then per day '<div class="card" data-day="2" style=...>', "<h4>Day 2 · Thu, Mar 17</h4>", '<p class="route">🧭
    Rockford</p>' and a <ul> of '<li class=...>' items: the leg ('class="leg flight"': "✈️ Flight F1 · A → B · 15:40–17:04";
    "🚗 Self-drive · A → B · 3 hours 11 mins · $120"), meals ('class="meal lunch"': "🥪 Lunch ⇨ X" in the drawn label and
    placement), sights ('class="sight"', "📍 A", one item per sight in the order of the day; or ONE 'class="sights"' item in
    the drawn join after breakfast), the night ('class="stay"', "🛏️ W"; '<li class="stay none">🏠 Heading home</li>'), an
    empty meal '<li class="meal lunch none">🥪 No lunch planned</li>' or left out; names HTML-escaped ('&amp;', '&quot;',
    '&#x27;'). DECOYS per card: EITHER a "<details><summary>Also considered</summary>" list of struck names
    ("<li><s>Y</s> — lunch · closed that day</li>", "— nights 1–2 · no rooms left", "— sight · not enough time") OR HTML
    comments in the list ("<!-- lunch: Y was my first pick (closed that day) -->")."""
    r = ph.rng
    jupyter, joined, say_none = r.random() < 0.4, r.random() < 0.4, r.random() < 0.3
    dform = r.choice(('details', 'comment'))
    meals, stays, sights = _decoys(plan, r)
    n, pairs = len(plan), []
    V = lambda v: _esc(ph.venue(v))
    body = [_HC_GRID]
    for i, d in enumerate(plan):
        k, at = d['days'], _attractions(d['attraction'])
        body += [f'  <div class="card" data-day="{k}"{_HC_CARD}', f"    <h4>Day {k} · {_fd(task, i, 'mon')}</h4>",
                 f'    <p class="route">🧭 {_rt(d["current_city"])}</p>', '    <ul>']
        li = []
        if d['transportation'] != '-':
            cls, txt = _hc_leg(d['transportation'])
            li.append(f'<li class="leg {cls}">{txt}</li>')
        seq = _timed(d)
        if joined: seq = [x for x in seq if x[1] != 'sight']
        for t, kind, v in seq:
            if kind == 'sight': li.append(f'<li class="sight">📍 {V(v)}</li>')
            else: li.append(f'<li class="meal {kind}">{_ICON[kind]} {_esc(ph.meal(kind.capitalize(), v))}</li>')
            if joined and kind == 'breakfast' and at: li.append(f'<li class="sights">📍 {_esc(ph.join).join(V(x) for x in at)}</li>')
        if joined and at and d['breakfast'] == '-':
            li.insert(1 if d['transportation'] != '-' else 0, f'<li class="sights">📍 {_esc(ph.join).join(V(x) for x in at)}</li>')
        if say_none:
            li += [f'<li class="meal {m} none">{_ICON[m]} No {m} planned</li>' for m in _MEALS if d[m] == '-']
        if d['accommodation'] != '-': li.append(f'<li class="stay">🛏️ {V(d["accommodation"])}</li>')
        elif say_none: li.append('<li class="stay none">🏠 Heading home</li>' if i == n - 1 else '<li class="stay none">🛏️ Nothing booked</li>')
        ds = []                                              # (slot words, struck venue text, why, bare name)
        for (j, m), y in meals.items():
            if j == i:
                pairs.append((y, _nm(d[m])))
                ds.append((m, V(_with_name(d[m], y)), r.choice(_HC_WHY['meal'])))
        for (a, b), z in stays.items():
            if a == i:
                pairs.append((z, _nm(d['accommodation'])))
                ds.append((_nights_tag(a + 1, b + 1).lower(), V(_with_name(d['accommodation'], z)), r.choice(_HC_WHY['stay'])))
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            ds.append(('sight', V(sights[i][1]), r.choice(_HC_WHY['sight'])))
        if dform == 'comment': li += [f"<!-- {s}: {v} was my first pick ({w}) -->" for s, v, w in ds]
        body += [f"      {x}" for x in li] + ['    </ul>']
        if dform == 'details' and ds:
            body += ['    <details><summary>Also considered</summary>', '      <ul>'] + \
                [f"        <li><s>{v}</s> — {s} · {w}</li>" for s, v, w in ds] + ['      </ul>', '    </details>']
        body.append('  </div>')
    body.append('</div>')
    if jupyter: out = [r.choice(_HC_INTRO), '', '```python', 'from IPython.display import HTML, display', '', 'display(HTML("""'] + body + ['"""))', '```']
    else: out = [r.choice(_HC_INTRO), '', '```html'] + body + ['```']
    return _log('\n'.join(out), pairs)


# tripit_export --------------------------------------------------------------------------------------------------------
_TI_WHY = {'meal': ("closed that day", "no table at that hour", "over the food budget"), 'stay': ("no rooms left", "over budget"),
           'sight': ("not enough time", "closed that week")}
_TI_X = '   ✕ CANCELLED'
_TI_IND = ' ' * 13


def _ti_day(task, i: int) -> str:
    d = _date(task, i)
    return f"{d:%a}, {d:%b} {d.day}, {d.year}".upper()


def _ti_short(task, i: int) -> str:
    d = _date(task, i)
    return f"{d:%a}, {d:%b} {d.day}"


def _ti_item(t: int, text: str) -> str: return f"  {_pm(_hm(t)):>8}   {text}"


def tripit_export(plan, task, ph):
    """A TripIt-style itinerary export in plain text (```text): "Rockford trip · 3 days", the dates and travellers, then a
    block per date "THU, MAR 17, 2022 · Rockford" (a travel day "A → B") of ITEMS HEADED BY A RIGHT-ALIGNED 12-HOUR TIME
    in time order: a flight as TWO items, "3:40 PM   Depart A · Flight F1" and "5:04 PM   Arrive B · Flight F1" (an arrival
    after midnight "(+1 day)", still under the departure's date); "7:30 AM   Drive · A → B" / "Taxi · A → B" with a
    continuation line "3 hours 11 mins · $120"; meals in the drawn label and placement ("12:30 PM   Lunch ⇨ X"); sights
    "Activity · A"; the stays as CHECK-IN ("9:00 PM   Check-in · W", continuation "2 nights · check-out Fri, Mar 18") and
    CHECK-OUT ("11:00 AM   Check-out · W" on the morning AFTER the last night): a night belongs to the days from check-in to
    the day before check-out. DECOYS: items marked "✕ CANCELLED" with a continuation line ("12:30 PM   Lunch ⇨ Y   ✕
    CANCELLED" / "replaced by X — closed that day"; "Check-in · Z   ✕ CANCELLED" / "no rooms left — booked W instead";
    "Activity · S   ✕ CANCELLED" / "not enough time"), each just before the item it stands against (a dropped sight at
    the first sight's time)."""
    r = ph.rng
    meals, stays, sights = _decoys(plan, r)
    n, pairs = len(plan), []
    people = _people(task)
    out = ['```text', f"{_get(task, 'dest')} trip · {n} days",
           f"{_ti_short(task, 0)}, {_date(task, 0).year} – {_ti_short(task, n - 1)}, {_date(task, n - 1).year} · {people} traveler{'s' * (people > 1)}",
           "Exported from TripIt · all times local"]
    blocks = [[] for _ in range(n + 1)]                  # per date: (minute, [lines]); the extra date holds a check-out after the trip
    for i, d in enumerate(plan):
        at = _attractions(d['attraction'])
        its = blocks[i]
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            if p['mode'] == 'flight':
                its.append((_mins(p['dep']), [_ti_item(_mins(p['dep']), f"Depart {p['a']} · Flight {p['number']}")]))
                late = p['arr'] < p['dep']
                its.append((_mins(p['arr']) + 1440 * late, [_ti_item(_mins(p['arr']), f"Arrive {p['b']} · Flight {p['number']}" + ' (+1 day)' * late)]))
            else:
                t = _leg_t(d)
                its.append((t, [_ti_item(t, f"{'Taxi' if p['mode'] == 'taxi' else 'Drive'} · {p['a']} → {p['b']}"), f"{_TI_IND}{p['duration']} · ${p['cost']}"]))
        first_sight = True
        for t, kind, v in _timed(d):
            if kind == 'sight':
                if first_sight and i in sights:
                    pairs.append((_nm(sights[i][1]), _nm(at[0])))
                    its.append((t, [_ti_item(t, f"Activity · {ph.venue(sights[i][1])}{_TI_X}"), f"{_TI_IND}{r.choice(_TI_WHY['sight'])}"]))
                first_sight = False
                its.append((t, [_ti_item(t, f"Activity · {ph.venue(v)}")]))
                continue
            if (i, kind) in meals:
                y = meals[(i, kind)]
                pairs.append((y, _nm(v)))
                its.append((t, [_ti_item(t, ph.meal(kind.capitalize(), _with_name(v, y)) + _TI_X), f"{_TI_IND}replaced by {_nm(v)} — {r.choice(_TI_WHY['meal'])}"]))
            its.append((t, [_ti_item(t, ph.meal(kind.capitalize(), v))]))
    for a, b, acc in _day_runs(plan):
        N = b - a + 1
        if (a, b) in stays:
            z = stays[(a, b)]
            pairs.append((z, _nm(acc)))
            blocks[a].append((1260, [_ti_item(1260, f"Check-in · {ph.venue(_with_name(acc, z))}{_TI_X}"),
                                     f"{_TI_IND}{r.choice(_TI_WHY['stay'])} — booked {_nm(acc)} instead"]))
        blocks[a].append((1260, [_ti_item(1260, f"Check-in · {ph.venue(acc)}"), f"{_TI_IND}{N} night{'s' * (N > 1)} · check-out {_ti_short(task, b + 1)}"]))
        blocks[b + 1].append((660, [_ti_item(660, f"Check-out · {ph.venue(acc)}")]))
    for i in range(n + 1):
        if i == n and not blocks[i]: break
        head = _ti_day(task, i) + (f" · {_rt(plan[i]['current_city'])}" if i < n else " · after the trip")
        out += ['', head] + [x for _, ls in sorted(blocks[i], key=lambda x: x[0]) for x in ls]
    return _log('\n'.join(out + ['```']), pairs)


# builder_code ---------------------------------------------------------------------------------------------------------
_BC_INTRO = ("Here's the plan as code for our `tripkit` helper — running it books nothing, it just renders the PDF and the calendar invites:",
             "I wrote the itinerary with the `tripkit` builder so you can tweak it and re-run:")
_BC_WHY = {'meal': ("closed that day", "no table at our time", "over the food budget"), 'stay': ("no rooms left", "over budget"),
           'sight': ("not enough time", "closed that week")}


def _py(s) -> str: return json.dumps(str(s), ensure_ascii=False)


def _bc_place(v: str) -> str:
    n, c = _name_city(v)
    return f"Place({_py(n)}, city={_py(c)})"


def _bc_time(t: str, form: str) -> str: return f"time({int(t[:2])}, {int(t[3:])})" if form == 'time' else _py(t)


def _bc_date(d: datetime.date) -> str: return f"date({d.year}, {d.month}, {d.day})"


def _bc_nights(task, a: int, b: int, form: str) -> str:
    "The nights of days a..b (indices): 'nights=range(1, 3)' | 'nights=[1, 2]' | 'check_in=date(...), check_out=date(...)'."
    if form == 'range': return f"nights=range({a + 1}, {b + 2})"
    if form == 'list': return f"nights={list(range(a + 1, b + 2))}"
    return f"check_in={_bc_date(_date(task, a))}, check_out={_bc_date(_date(task, b + 1))}"


def _bc_leg(t: str, tform: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        return f"Flight({_py(p['number'])}, {_py(p['a'])}, {_py(p['b'])}, depart={_bc_time(p['dep'], tform)}, arrive={_bc_time(p['arr'], tform)})"
    return f"{'Taxi' if p['mode'] == 'taxi' else 'Drive'}({_py(p['a'])}, {_py(p['b'])}, duration={_py(p['duration'])}, cost={p['cost']})"


def builder_code(plan, task, ph):
    """The itinerary as PYTHON CODE for a made-up builder library (```python), as code-writing agents hand plans back:
    "trip = Itinerary(origin=..., destination=..., start=date(2022, 3, 16), days=3, travelers=1)", per day a comment "# ── Day 2
    · Thu, Mar 17 ──" and 'd2 = trip.day(2, city="Rockford")' (a travel day 'route=("A", "B")'), then calls in the order of the day:
    'd1.travel(Flight("F1", "A", "B", depart=time(15, 40), arrive=time(17, 4)))' (or 'depart="15:40"'),
    'Drive(...)' / 'Taxi(..., duration="3 hours 11 mins", cost=120)', meals as 'd2.meal("lunch", Place("X", city="Rockford"))'
    OR 'd2.lunch(Place(...))', sights as ONE 'd2.see(Place(...), Place(...))' (one argument a line when long) OR a see() per
    sight; an empty meal 'd3.meal("dinner", None)' or left out; the stays ONCE per run, in a closing "# ── Stays ──" section or
    at their first night: 'trip.stay(Place("W", city="Rockford"), nights=range(1, 3))' — PYTHON'S range, so nights 1 and 2
    — or "nights=[1, 2]" or "check_in=date(2022, 3, 16), check_out=date(2022, 3, 18)"; names as JSON / Python string
    literals (no placement phrasing: the city is an argument). DECOYS: EITHER commented-out calls ('# d2.meal("lunch",
    Place("Y", ...))  # closed that day' before the kept call, '# trip.stay(Place("Z", ...), nights=...)  # no rooms left', a
    commented-out argument '    # Place("S", ...),  # not enough time' inside a see(), or '# d2.see(Place("S", ...))  # ...') OR
    code that overrides itself: the decoy called first and then 'd2.meal("lunch", Place("X", ...), replace=True)  # Y: closed
    that day', 'trip.cancel_stay("Z")  # no rooms left' before the kept stay, 'd2.drop("S")  # not enough time' after a see()
    that named S."""
    r = ph.rng
    tform, nform = r.choice(('time', 'str')), r.choice(('range', 'list', 'dates'))
    mform, sform, stays_at_end = r.choice(('meal', 'method')), r.choice(('one', 'each')), r.random() < 0.5
    dform, say_none = r.choice(('comment', 'replace')), r.random() < 0.3
    meals, stays, sights = _decoys(plan, r)
    n, pairs = len(plan), []
    d0 = _date(task, 0)
    out = [r.choice(_BC_INTRO), '', '```python', 'from datetime import date, time', 'from tripkit import Itinerary, Place, Flight, Drive, Taxi', '',
           f"trip = Itinerary(origin={_py(_get(task, 'org'))}, destination={_py(_get(task, 'dest'))}, start={_bc_date(d0)}, days={n}, "
           f"travelers={_people(task)})"]
    stay_lines = []

    def meal_call(v, k, m, extra=''):
        arg = _bc_place(v) if v != '-' else 'None'
        return f'd{k}.meal("{m}", {arg}{extra})' if mform == 'meal' else f"d{k}.{m}({arg}{extra})"

    def see_call(k, vs, commented=None):
        "vs: venues; commented: (pos, venue, why) of an argument commented out."
        args = [_bc_place(v) for v in vs]
        if commented is None and len(args) <= 2: return [f"d{k}.see({', '.join(args)})"]
        ls = [f"d{k}.see("] + [f"    {a}," for a in args]
        if commented: ls.insert(commented[0] + 1, f"    # {_bc_place(commented[1])},  # {commented[2]}")
        return ls + [')']

    runs = _day_runs(plan)
    for a, b, acc in runs:
        ls = []
        if (a, b) in stays:
            z = stays[(a, b)]
            pairs.append((z, _nm(acc)))
            why = r.choice(_BC_WHY['stay'])
            zl = f"trip.stay({_bc_place(_with_name(acc, z))}, {_bc_nights(task, a, b, nform)})"
            ls += [f"# {zl}  # {why}"] if dform == 'comment' else [zl, f"trip.cancel_stay({_py(z)})  # {why}"]
        ls.append(f"trip.stay({_bc_place(acc)}, {_bc_nights(task, a, b, nform)})")
        stay_lines.append((a, ls))
    for i, d in enumerate(plan):
        k, at = d['days'], _attractions(d['attraction'])
        a_, b_ = (d['current_city'][5:].split(' to ', 1) if d['current_city'].startswith('from ') and ' to ' in d['current_city'] else (None, None))
        where = f"route=({_py(a_)}, {_py(b_)})" if a_ is not None else f"city={_py(d['current_city'])}"
        out += ['', f"# ── Day {k} · {_fd(task, i, 'mon')} ──", f"d{k} = trip.day({k}, {where})"]
        if d['transportation'] != '-': out.append(f"d{k}.travel({_bc_leg(d['transportation'], tform)})")
        late = []
        sd = sights.get(i)
        if sd:
            pairs.append((_nm(sd[1]), _nm(at[0])))
            why_s = r.choice(_BC_WHY['sight'])
        seq = _timed(d)
        if sform == 'one': seq = [x for x in seq if x[1] != 'sight']
        put_sights = sform == 'one' and at and d['breakfast'] == '-'
        if put_sights: seq = [(0, 'sights', None)] + seq
        s_no = 0

        def sight_block():
            if sd and dform == 'comment': return see_call(k, at, (sd[0], sd[1], why_s))
            if sd:
                late.append(f"d{k}.drop({_py(_nm(sd[1]))})  # {why_s}")
                return see_call(k, at[:sd[0]] + [sd[1]] + at[sd[0]:])
            return see_call(k, at)

        def sight_decoy():
            if dform == 'comment': return [f"# d{k}.see({_bc_place(sd[1])})  # {why_s}"]
            late.append(f"d{k}.drop({_py(_nm(sd[1]))})  # {why_s}")
            return [f"d{k}.see({_bc_place(sd[1])})"]

        for t, kind, v in seq:
            if kind == 'sights': out += sight_block(); continue
            if kind == 'sight':
                if sd and sd[0] == s_no: out += sight_decoy()
                s_no += 1
                out.append(f"d{k}.see({_bc_place(v)})")
                if sd and sd[0] == len(at) and s_no == len(at): out += sight_decoy()
                continue
            if (i, kind) in meals:
                y = meals[(i, kind)]
                pairs.append((y, _nm(v)))
                why = r.choice(_BC_WHY['meal'])
                if dform == 'comment': out += [f"# {meal_call(_with_name(v, y), k, kind)}  # {why}", meal_call(v, k, kind)]
                else: out.append(meal_call(_with_name(v, y), k, kind)); late.append(f"{meal_call(v, k, kind, ', replace=True')}  # {y}: {why}")
            else: out.append(meal_call(v, k, kind))
            if sform == 'one' and kind == 'breakfast' and at: out += sight_block()
        if say_none: out += [meal_call('-', k, m) for m in _MEALS if d[m] == '-']
        out += late
        if not stays_at_end: out += [x for a, ls in stay_lines if a == i for x in ls]
    if stays_at_end and stay_lines: out += ['', '# ── Stays ──'] + [x for _, ls in stay_lines for x in ls]
    out += ['', f"trip.save({_py(re.sub(r'[^a-z0-9]+', '-', str(_get(task, 'dest')).lower()).strip('-') + '.pdf')})", '```']
    return _log('\n'.join(out), pairs)


# annotated_ratings ----------------------------------------------------------------------------------------------------
_AR_BULLETS = (('◆', '▸', '↳'), ('■', '•', '⤷'), ('●', '➤', '↪'), ('✦', '›', '╰→'))
_AR_INTRO = ("Here's the plan with ratings and rough prices next to every stop (ratings out of 5, prices per person):",
             "Below is the itinerary — I've put the rating and a price guide after each place so you can see why I picked it.")
_AR_WHY = {'meal': ("closed that day", "long waits", "pricier for what it is"), 'stay': ("no rooms left", "over budget"),
           'sight': ("not enough time", "closed that week")}
_AR_OUTRO = ("Ratings are from recent reviews and can shift a little.", "Prices are estimates — check before you go.")


def _h(name: str, salt: str) -> int: return zlib.crc32(f"{salt}:{name}".encode('utf-8'))


def _stars(name: str) -> str: return f"★ {3.8 + _h(name, 'r') % 12 / 10:.1f}"


def _ar_meal(name: str) -> str:
    h = _h(name, 'm')
    return f"({_stars(name)} · {'$' * (1 + h % 3)} · ~${9 + h // 3 % 40} pp)"


def _ar_sight(name: str) -> str:
    h = _h(name, 's')
    return f"({_stars(name)} · {'free' if h % 3 == 0 else f'${5 + h // 3 % 20}'} · ~{1 + h // 60 % 3} h)"


def _ar_stay(name: str, tail: str) -> str: return f"({_stars(name)} · ~${80 + _h(name, 'h') % 150}/night · {tail})"


def annotated_ratings(plan, task, ph):
    """Day blocks of UNICODE BULLETS of three kinds (drawn: '◆' / '▸' / '↳', '■' / '•' / '⤷', '●' / '➤' / '↪', '✦' / '›' /
    '╰→'), EVERY name followed by a parenthesised RATING AND COST annotation: "◆ **Day 2 · Thu 3/17 · Rockford**", "  ▸ ✈️
    Flight F1 A → B, 15:40 → 17:04 (nonstop)" / "  ▸ 🚗 Self-drive A → B, 3 hours 11 mins, $120 (fuel est.)", meals in the
    drawn label and placement ("  ▸ 🥪 Lunch ⇨ X (Rockford, Ill.) (★ 4.4 · $$ · ~$24 pp)" — the placement's own parentheses
    before the annotation's), sights one per bullet ("  ▸ 📍 A (★ 4.7 · free · ~2 h)") or on one line in the drawn join
    ("  ▸ 📍 A (★ 4.7 · free · ~2 h) ↠ B (★ 4.5 · $12 · ~1 h)"), the night ("  ▸ 🛏️ W (★ 4.6 · ~$154/night · 2 nights)" on a
    stay's first night, "(★ 4.6 · ~$154/night · night 2 of 2)" after). DECOYS as sub-bullets under the kept item: "      ↳
    runner-up: Y (...) (★ 4.1 · $$ · ~$20 pp) — long waits", "      ↳ runner-up: Z (...) (★ ... /night · 2 nights) — no
    rooms left", "      ↳ skipped: S (★ ...) — not enough time"."""
    r = ph.rng
    top, item, sub = r.choice(_AR_BULLETS)
    joined = r.random() < 0.4
    meals, stays, sights = _decoys(plan, r)
    n, pairs = len(plan), []
    runs = {x: (a, b) for a, b, _ in _day_runs(plan) for x in range(a, b + 1)}
    out = [r.choice(_AR_INTRO)]
    I, S = f"  {item} ", f"      {sub} "
    for i, d in enumerate(plan):
        k, at = d['days'], _attractions(d['attraction'])
        out += ['', f"{top} **Day {k} · {_fd(task, i, 'us')} · {_rt(d['current_city'])}**"]
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            out.append(I + ('✈️ ' if p['mode'] == 'flight' else '🚕 ' if p['mode'] == 'taxi' else '🚗 ') + _leg_en(d['transportation']) +
                       (' (nonstop)' if p['mode'] == 'flight' else ' (fuel est.)' if p['mode'] == 'drive' else ' (metered)'))
        seq = _timed(d)
        if joined: seq = [x for x in seq if x[1] != 'sight']
        sight_line = "📍 " + ph.join.join(f"{ph.venue(x)} {_ar_sight(_nm(x))}" for x in at)
        if joined and at and d['breakfast'] == '-': seq = [(0, 'sights', None)] + seq
        sd = sights.get(i)
        s_no = 0
        for t, kind, v in seq:
            if kind in ('sight', 'sights'):
                if kind == 'sights': out.append(I + sight_line)
                else: out.append(I + f"📍 {ph.venue(v)} {_ar_sight(_nm(v))}"); s_no += 1
                if sd and (kind == 'sights' or s_no == len(at)):
                    pairs.append((_nm(sd[1]), _nm(at[0])))
                    out.append(S + f"skipped: {ph.venue(sd[1])} ({_stars(_nm(sd[1]))}) — {r.choice(_AR_WHY['sight'])}")
                continue
            out.append(I + f"{_ICON[kind]} {ph.meal(kind.capitalize(), v)} {_ar_meal(_nm(v))}")
            if (i, kind) in meals:
                y = meals[(i, kind)]
                pairs.append((y, _nm(v)))
                out.append(S + f"runner-up: {ph.venue(_with_name(v, y))} {_ar_meal(y)} — {r.choice(_AR_WHY['meal'])}")
            if joined and kind == 'breakfast' and at:
                out.append(I + sight_line)
                if sd:
                    pairs.append((_nm(sd[1]), _nm(at[0])))
                    out.append(S + f"skipped: {ph.venue(sd[1])} ({_stars(_nm(sd[1]))}) — {r.choice(_AR_WHY['sight'])}")
        acc = d['accommodation']
        if acc != '-':
            a, b = runs[i]
            N = b - a + 1
            tail = f"{N} night{'s' * (N > 1)}" if i == a else f"night {i - a + 1} of {N}"
            out.append(I + f"🛏️ {ph.venue(acc)} {_ar_stay(_nm(acc), tail)}")
            if i == a and (a, b) in stays:
                z = stays[(a, b)]
                pairs.append((z, _nm(acc)))
                out.append(S + f"runner-up: {ph.venue(_with_name(acc, z))} {_ar_stay(z, tail)} — {r.choice(_AR_WHY['stay'])}")
    return _log('\n'.join(out + ['', r.choice(_AR_OUTRO)]), pairs)


HELDOUT16_LAYOUTS = {f.__name__: f for f in (rst_document, notion_database, next_morning_times, bg_bn_ms_lt_labels, html_card_grid,
                                              tripit_export, builder_code, annotated_ratings)}
"""Held-out part v16 (layouts and `HELDOUT16_PHRASES`, rendered with `Phr16`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr16(HELDOUT16_PHRASES, random.Random(f"heldout16:{name}:{t.idx}:{j}"), p)


def renderings16(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout16:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT16_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser below, written for the layout (not a general reader): each rendering is read back into
# the plan's own values — the route as current_city ('from A to B' | 'A'), the leg as its parts (flight number, cities,
# times; or mode, cities, duration, cost), each meal and the stay as 'Name, City' or '-', the sights as ['Name, City',
# ...] — and compared with the plan EXACTLY (`_cmp` of layouts_v8). Decoys (admonitions and reST comments, dropped Notion
# entries, asides, notes, struck names and HTML comments, cancelled items, commented-out and overridden calls, runners-up)
# are resolved as the text says, and checked against what it states elsewhere (`_resolve`).

# rst_document ---------------------------------------------------------------------------------------------------------
_RS_FL = re.compile(r'Flight (?P<num>\S+) · (?P<a>.+?) → (?P<b>.+) · (?P<dep>\d\d:\d\d)–(?P<arr>\d\d:\d\d)')
_RS_RD = re.compile(r'(?P<mode>Self-drive|Taxi) · (?P<a>.+?) → (?P<b>.+) · (?P<dur>.+?) · \$(?P<cost>\d+)')
_RS_DEC = (re.compile(r'(?P<m>Breakfast|Lunch|Dinner): (?P<v>.+) — ' + _alt(_RS_WHY['meal'])),
           re.compile(r'(?P<t>Nights? \d+(?:–\d+)?): (?P<v>.+) — ' + _alt(_RS_WHY['stay'])),
           re.compile(r'Sight: (?P<v>.+) — ' + _alt(_RS_WHY['sight'])))


def _rs_decoy(ph, s: str, k: int, checks: list, errs: list):
    for idx, rx in enumerate(_RS_DEC):
        if (q := rx.fullmatch(s)): break
    else:
        errs.append(f"day {k}: not-booked entry {s!r}"); return
    nm_, c = _name_city(_unvenue(ph, _runesc(q['v'])))
    if idx == 0: checks.append(('meal', k, q['m'].lower(), nm_, c, 'not booked: '))
    elif idx == 1:
        a, b = _untag(q['t'])
        if a != k: errs.append(f"day {k}: stay entry for {q['t']}")
        checks.append(('stay', a, b, nm_, c, 'not booked: '))
    else: checks.append(('sight', k, nm_, c, 'not booked: '))


def _rs_rows(ph, rows, g, said, nst, k, n, errs) -> bool:
    "The day's list-table rows into the day `g`; returns whether an empty slot was stated."
    pre, any_none = f"day {k}: ", False
    if not rows or rows[0] != ['Time', 'What', 'Details']: errs.append(f"{pre}table head {rows[:1]}"); return False
    for row in rows[1:]:
        if len(row) != 3: errs.append(f"{pre}row {row}"); continue
        tm, what, det = row
        if nst[-1]: errs.append(f"{pre}row after the night")
        if what == 'Flight':
            q, t = re.fullmatch(r'(\S+) · (.+?) → (.+)', det), re.fullmatch(r'(\d\d:\d\d)–(\d\d:\d\d)', tm)
            if not q or not t: errs.append(f"{pre}flight {row}"); continue
            _put(g, 'leg', _flight(q[1], q[2], q[3], t[1], t[2]), errs, pre)
        elif what in ('Self-drive', 'Taxi'):
            q = re.fullmatch(r'(.+?) → (.+) · (.+?) · \$(\d+)', det)
            if not q or not re.fullmatch(r'\d\d:\d\d', tm): errs.append(f"{pre}road {row}"); continue
            _put(g, 'leg', _road_key('taxi' if what == 'Taxi' else 'drive', *q.groups()), errs, pre)
        elif what in ('Breakfast', 'Lunch', 'Dinner'):
            m = what.lower()
            _said(said, m, errs, pre)
            if det == '*none planned*':
                any_none = True
                if tm != '—': errs.append(f"{pre}{row}")
                continue
            if tm != _MEAL_T[m]: errs.append(f"{pre}{m} at {tm}")
            _put(g, m, _unvenue(ph, _runesc(det)), errs, pre)
        elif what == 'Sight':
            if not re.fullmatch(r'\d\d:\d\d', tm): errs.append(f"{pre}sight at {tm!r}")
            g['attraction'].append(_unvenue(ph, _runesc(det)))
        elif what == 'Overnight':
            nst[-1] += 1
            if det in ('*none — heading home*', '*none*'):
                if (det == '*none — heading home*') != (k == n) or tm != '—': errs.append(f"{pre}night {row}")
            else:
                if tm != '21:00': errs.append(f"{pre}night at {tm}")
                _put(g, 'accommodation', _unvenue(ph, _runesc(det)), errs, pre)
        else: errs.append(f"{pre}row {row}")
    return any_none


def _read_rs(text, task, plan, ph):
    errs, L, n = [], text.split('\n'), len(plan)
    title = _rs_title(task, n)
    d0, d1 = _date(task, 0), _date(task, n - 1)
    if L[:6] != ['=' * len(title), title, '=' * len(title), '', f":Dates: {_span_text(d0, d1)}, {d1.year}", f":Travellers: {_people(task)}"]:
        errs.append('document head')
    j = 10 if L[6:10] == _RS_TOC else 6
    ix = _dix(task, n, 'long')
    days, saids, nst, checks = [], [], [], []
    st = {'mode': None, 'rows': None, 'none': False}

    def end_day():
        if st['rows'] is not None: st['none'] |= _rs_rows(ph, st['rows'], days[-1], saids[-1], nst, len(days), n, errs)
        st['rows'] = None
    while j < len(L):
        ln = L[j]
        j += 1
        h = re.fullmatch(r'Day (\d+) — (.+?) — (.+)', ln)
        if h and j < len(L) and L[j] == '-' * len(ln):
            if days: end_day()
            if L[j + 1:j + 2] != ['']: errs.append(f"no blank line under {ln!r}")
            j += 2
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"day head {ln!r}")
            days.append(_blank(_back(h[3]))); saids.append([]); nst.append(0); st['mode'] = 'day'
            continue
        if ln == '': continue
        if not days: errs.append(f"line {ln!r}"); continue
        k, g, pre = len(days), days[-1], f"day {len(days)}: "
        if ln == _RS_OPTS[0]:
            if st['mode'] != 'day' or saids[-1] or g['leg'] or g['attraction'] or nst[-1]: errs.append(f"{pre}table placed")
            if L[j:j + 3] != _RS_OPTS[1:]: errs.append(f"{pre}table options")
            else: j += 3
            st['rows'], st['mode'] = [], 'table'
            continue
        if st['mode'] == 'table' and ln.startswith('   * - '): st['rows'].append([ln[7:]]); continue
        if st['mode'] == 'table' and ln.startswith('     - ') and st['rows']: st['rows'][-1].append(ln[7:]); continue
        if ln == '.. admonition:: Considered, not booked':
            if st['mode'] not in ('day', 'table'): errs.append(f"{pre}admonition placed")
            st['mode'] = 'adm'; continue
        if st['mode'] == 'adm' and ln.startswith('   - '): _rs_decoy(ph, ln[5:], k, checks, errs); continue
        if ln.startswith('.. not booked: ') and st['mode'] in ('day', 'table', 'cmt'):
            st['mode'] = 'cmt'; _rs_decoy(ph, ln[15:], k, checks, errs); continue
        f = re.fullmatch(r':(Travel|Breakfast|Sights|Lunch|Dinner|Overnight): (.+)', ln)
        if not f or st['mode'] != 'day': errs.append(f"{pre}line {ln!r}"); continue
        key, v = f[1], f[2]
        if nst[-1]: errs.append(f"{pre}{ln!r} after the night")
        if key == 'Travel':
            if saids[-1] or g['attraction']: errs.append(f"{pre}travel placed")
            if (q := _RS_FL.fullmatch(v)): _put(g, 'leg', _flight(*q.groups()), errs, pre)
            elif (q := _RS_RD.fullmatch(v)): _put(g, 'leg', _road_key('taxi' if q['mode'] == 'Taxi' else 'drive', *q.groups()[1:]), errs, pre)
            else: errs.append(f"{pre}travel {v!r}")
        elif key == 'Sights':
            if g['attraction'] or any(m in saids[-1] for m in ('lunch', 'dinner')): errs.append(f"{pre}sights placed")
            g['attraction'] = [_unvenue(ph, _runesc(x)) for x in v.split(ph.join)]
        elif key == 'Overnight':
            nst[-1] += 1
            if v in ('— (heading home)', '—'):
                if (v == '— (heading home)') != (k == n): errs.append(f"{pre}overnight {v!r}")
            else: _put(g, 'accommodation', _unvenue(ph, _runesc(v)), errs, pre)
        else:
            m = key.lower()
            if saids[-1] and _MEALS.index(saids[-1][-1]) >= _MEALS.index(m): errs.append(f"{pre}meals out of order")
            _said(saids[-1], m, errs, pre)
            if v == '—': st['none'] = True
            else: _put(g, m, _unvenue(ph, _runesc(v)), errs, pre)
    if days: end_day()
    if any(x > 1 for x in nst): errs.append(f"nights stated {nst}")
    if st['none']: _all_said(saids, errs)
    _resolve(days, checks, errs)
    return days, errs

# notion_database ------------------------------------------------------------------------------------------------------
_NO_KEYS = {'Day': {'Type', 'Date', 'Route'}, 'Flight': {'Type', 'Day', 'Date', 'Flight number', 'From', 'To', 'Status'},
            'Road': {'Type', 'Day', 'Date', 'From', 'To', 'Duration', 'Cost', 'Status'}, 'Meal': {'Type', 'Day', 'Date', 'Place', 'City', 'Status'},
            'Sight': {'Type', 'Day', 'Date', 'Stop', 'Place', 'City', 'Status'}, 'Stay': {'Type', 'Date', 'Nights', 'Place', 'City', 'Status'}}
_NO_ALLKEYS = set().union(*_NO_KEYS.values()) | {'Notes'}
_NO_GROUP_OF = {'Day': 'Days', 'Flight': 'Transport', 'Road': 'Transport', 'Meal': 'Meals', 'Sight': 'Sights', 'Stay': 'Stays'}
_NO_T = r'\d{1,2}:\d\d [AP]M'


def _no_kind(typ: str):
    if typ in ('Day', 'Flight', 'Sight', 'Stay'): return typ
    if typ in ('Self-drive', 'Taxi'): return 'Road'
    if re.fullmatch(r'Meal · (Breakfast|Lunch|Dinner)', typ): return 'Meal'
    return None


def _read_no(text, task, plan, ph):
    errs, L, n = [], text.split('\n'), len(plan)
    if L[0] != f"# 🧳 {_get(task, 'org')} → {_get(task, 'dest')} · trip database": errs.append('title')
    q = re.fullmatch(r'> Exported from Notion · (\d+) entries · view: (Board \(grouped by Type\)|Timeline \(sorted by Date\))', L[1])
    if not q: errs.append('export line'); return [], errs
    board = q[2].startswith('Board')
    ents, groups, cur = [], [], None
    for ln in L[2:]:
        if ln == '': cur = None; continue
        if ln.startswith('## '):
            g = re.fullmatch(r'## (\w+) \((\d+)\)', ln)
            if not board or not g: errs.append(f"group {ln!r}"); continue
            groups.append([g[1], int(g[2]), 0]); continue
        if ln.startswith('### '):
            cur = {'title': ln[4:], 'props': {}, 'group': groups[-1][0] if groups else None}
            ents.append(cur)
            if groups: groups[-1][2] += 1
            continue
        if cur is None: errs.append(f"line {ln!r}"); continue
        key, sep, val = ln.partition(': ')
        if not sep or key not in _NO_ALLKEYS or key in cur['props']: errs.append(f"property {ln!r}"); continue
        cur['props'][key] = val
    if int(q[1]) != len(ents): errs.append(f"{q[1]} entries said, {len(ents)} listed")
    if board and ([g[0] for g in groups] != list(_NO_GROUPS) or any(g[1] != g[2] for g in groups)): errs.append(f"groups {groups}")
    dix = {_nd(task, i): i for i in range(n + 2)}
    days, checks, sights = [], [], []
    for e in ents:                                          # the days first: the other entries point to them
        P = e['props']
        if P.get('Type') != 'Day': continue
        if set(P) != _NO_KEYS['Day'] or e['title'] != f"Day {len(days) + 1} · {P['Route']}" or dix.get(P['Date']) != len(days):
            errs.append(f"day entry {e['title']!r}")
        days.append(_blank(_back(P['Route']))); sights.append([])
    for e in ents:
        P, t = e['props'], e['title']
        kind = _no_kind(P.get('Type', ''))
        if kind is None: errs.append(f"entry {t!r}: type"); continue
        if kind == 'Day': continue
        if board and e['group'] != _NO_GROUP_OF[kind]: errs.append(f"entry {t!r} in group {e['group']}")
        dropped = P.get('Status') == 'Dropped'
        want = _NO_KEYS[kind] | ({'Notes'} if dropped else set())
        if set(P) != want: errs.append(f"entry {t!r}: properties {sorted(P)}"); continue
        if kind == 'Stay':
            dq = re.fullmatch(r'(.+) → (.+)', P['Date'])
            a, co = (dix.get(dq[1]), dix.get(dq[2])) if dq else (None, None)
            if a is None or co is None or a >= n or co <= a or P['Nights'] != str(co - a) or t != P['Place']:
                errs.append(f"stay {t!r}: {P['Date']!r}, {P['Nights']} nights"); continue
            if dropped:
                if P['Notes'] not in _NO_WHY['stay']: errs.append(f"stay {t!r}: notes")
                checks.append(('stay', a + 1, co, P['Place'], P['City'], 'dropped: ')); continue
            if P['Status'] != 'Booked': errs.append(f"stay {t!r}: status")
            for x in range(a, co):
                if x >= len(days): errs.append(f"stay {t!r} past the trip"); break
                _put(days[x], 'accommodation', f"{P['Place']}, {P['City']}", errs, f"day {x + 1}: ")
            continue
        k = int(P['Day']) if P['Day'].isdigit() else 0
        g = _day_of(days, k)
        if g is None: errs.append(f"entry {t!r}: day {P['Day']}"); continue
        date, pre = _nd(task, k - 1), f"day {k}: "
        if kind == 'Flight':
            dq = re.fullmatch(rf'(.+?) ({_NO_T}) → (?:(.+?) )?({_NO_T})', P['Date'])
            if not dq or dq[1] != date or P['Status'] != 'Booked' or t != f"✈️ {P['Flight number']} {P['From']} → {P['To']}":
                errs.append(f"{pre}flight {t!r}"); continue
            dep, arr = _un_pm(dq[2]), _un_pm(dq[4])
            if (dq[3] is not None) != (arr < dep) or (dq[3] is not None and dq[3] != _nd(task, k)): errs.append(f"{pre}flight arrival date")
            _put(g, 'leg', _flight(P['Flight number'], P['From'], P['To'], dep, arr), errs, pre)
        elif kind == 'Road':
            cq = re.fullmatch(r'\$(\d+)', P['Cost'])
            icon = '🚕' if P['Type'] == 'Taxi' else '🚗'
            if not cq or P['Date'] != date or P['Status'] != 'Booked' or t != f"{icon} {P['From']} → {P['To']}": errs.append(f"{pre}road {t!r}"); continue
            _put(g, 'leg', _road_key('taxi' if P['Type'] == 'Taxi' else 'drive', P['From'], P['To'], P['Duration'], cq[1]), errs, pre)
        elif kind == 'Meal':
            m = P['Type'].split(' · ')[1].lower()
            if P['Date'] != f"{date} {_pm(_MEAL_T[m])}" or t != P['Place']: errs.append(f"{pre}{m} entry {t!r}: {P['Date']!r}")
            if dropped:
                if P['Notes'] not in _NO_WHY['meal']: errs.append(f"{pre}notes")
                checks.append(('meal', k, m, P['Place'], P['City'], 'dropped: ')); continue
            if P['Status'] != 'Booked': errs.append(f"{pre}status {P['Status']!r}")
            _put(g, m, f"{P['Place']}, {P['City']}", errs, pre)
        else:
            if t != P['Place']: errs.append(f"{pre}sight title {t!r}")
            if dropped:
                if P['Stop'] != '—' or P['Date'] != date or P['Notes'] not in _NO_WHY['sight']: errs.append(f"{pre}dropped sight {t!r}")
                checks.append(('sight', k, P['Place'], P['City'], 'dropped: ')); continue
            sq = re.fullmatch(r'(\d+) of (\d+)', P['Stop'])
            dq = re.fullmatch(rf'(.+?) ({_NO_T})', P['Date'])
            if not sq or not dq or dq[1] != date or P['Status'] != 'Planned': errs.append(f"{pre}sight {t!r}"); continue
            sights[k - 1].append((int(sq[1]), int(sq[2]), f"{P['Place']}, {P['City']}"))
    for i, ss in enumerate(sights):
        if [s[0] for s in ss] != list(range(1, len(ss) + 1)) or any(s[1] != len(ss) for s in ss): errs.append(f"day {i + 1}: stops {ss}")
        days[i]['attraction'] = [s[2] for s in ss]
    _resolve(days, checks, errs)
    return days, errs

# next_morning_times ---------------------------------------------------------------------------------------------------
_NM_LINE = re.compile(rf'(?P<t>{_AP_T}) — (?P<x>.+)')
_NM_FL = re.compile(rf'Flight (?P<num>\S+) out of (?P<a>.+?), landing in (?P<b>.+) at (?P<arr>{_AP_T})(?P<late> \(the next day\))?')
_NM_RD = re.compile(r'(?P<mode>Taxi|Drive yourself) from (?P<a>.+?) to (?P<b>.+) \((?P<dur>.+?), about \$(?P<cost>\d+)\)')
_NM_ASIDE_MEAL = re.compile(r'not (?P<y>.+) — ' + _alt(_NM_WHY['meal']))
_NM_ASIDE_SIGHT = re.compile(r'skipping (?P<s>.+) — ' + _alt(_NM_WHY['sight']))
_NM_START = re.compile(r'(?P<v>.+) \((?P<N>\d+) nights?(?:; (?P<z>.+) had no rooms)?\)')


def _read_nm(text, task, plan, ph):
    errs, n = [], len(plan)
    paras = text.split('\n\n')
    if paras[0] not in [t.format(n=n) for t in _NM_INTRO]: errs.append('intro')
    if paras[-1] not in _NM_OUTRO: errs.append('outro')
    blocks = paras[1:-1]
    days, saids, nights, checks = [], [], [], []
    for bi, blk in enumerate(blocks):
        ls = blk.split('\n')
        h = re.fullmatch(r'\*\*(.+?) — (.+)\*\*', ls[0])
        if not h: errs.append(f"day head {ls[0]!r}"); continue
        ok = (h[1] == _fd(task, 0, 'long')) if bi == 0 else (h[1] in _NM_LAST) if bi == len(blocks) - 1 else (h[1] in _NM_MID)
        if not ok: errs.append(f"day marker {h[1]!r} for the {bi + 1}th block")
        g = _blank(_back(h[2]))
        days.append(g); saids.append([]); nights.append(None)
        k, pre, last = len(days), f"day {len(days)}: ", None
        for ln in ls[1:]:
            if nights[-1] is not None: errs.append(f"{pre}{ln!r} after the night")
            if ln.startswith('    ↳ '):
                x = ln[6:]
                if last in _MEALS and (q := _NM_ASIDE_MEAL.fullmatch(x)): checks.append(('meal', k, last, q['y'], None, 'aside: '))
                elif last == 'sight' and (q := _NM_ASIDE_SIGHT.fullmatch(x)):
                    checks.append(('sight', k, *_name_city(_unvenue(ph, q['s'])), 'aside: '))
                else: errs.append(f"{pre}aside {ln!r}")
                last = 'aside'
                continue
            if ln.startswith('Night — '):
                v = ln[len('Night — '):]
                if v == 'home':
                    if k != n: errs.append(f"{pre}home before the end")
                    nights[-1] = ('home',)
                elif (q := re.fullmatch(r'same place \((?P<v>.+)\)', v)): nights[-1] = ('again', _unvenue(ph, q['v']))
                elif v.endswith(' again'): nights[-1] = ('again', _unvenue(ph, v[:-len(' again')]))
                elif (q := _NM_START.fullmatch(v)):
                    nights[-1] = ('start', int(q['N']), _unvenue(ph, q['v']))
                    if q['z']: checks.append(('stay', k, k + int(q['N']) - 1, q['z'], None, 'night: '))
                else: errs.append(f"{pre}night {v!r}")
                continue
            q = _NM_LINE.fullmatch(ln)
            if not q: errs.append(f"{pre}line {ln!r}"); continue
            t, x = _un_ap(q['t']), q['x']
            if (f := _NM_FL.fullmatch(x)):
                arr = _un_ap(f['arr'])
                if bool(f['late']) != (arr < t): errs.append(f"{pre}'the next day'")
                _put(g, 'leg', _flight(f['num'], f['a'], f['b'], t, arr), errs, pre); last = 'leg'
            elif (f := _NM_RD.fullmatch(x)):
                _put(g, 'leg', _road_key('taxi' if f['mode'] == 'Taxi' else 'drive', f['a'], f['b'], f['dur'], f['cost']), errs, pre); last = 'leg'
            elif x.startswith('📍 '): g['attraction'].append(_unvenue(ph, x[2:])); last = 'sight'
            elif (mm := _unmeal(ph, x)):
                m, v = mm
                if t != _MEAL_T[m]: errs.append(f"{pre}{m} at {t}")
                _said(saids[-1], m, errs, pre)
                _put(g, m, _unvenue(ph, v), errs, pre); last = m
            else: errs.append(f"{pre}item {x!r}")
    run = None
    for i, nt in enumerate(nights):
        if nt and nt[0] == 'start':
            if run and run[1] > 0: errs.append(f"day {i + 1}: a new stay inside a run")
            run = [nt[2], nt[1] - 1]
            days[i]['accommodation'] = nt[2]
        elif nt and nt[0] == 'again':
            if not run or run[1] <= 0 or run[0] != nt[1]: errs.append(f"day {i + 1}: 'again' outside its run")
            else: run[1] -= 1
            days[i]['accommodation'] = nt[1]
        elif run and run[1] > 0: errs.append(f"day {i + 1}: the run of {run[0]!r} stops short")
    if run and run[1] > 0: errs.append(f"the run of {run[0]!r} runs past the trip")
    _resolve(days, checks, errs)
    return days, errs

# bg_bn_ms_lt_labels ---------------------------------------------------------------------------------------------------
def _tpl(t: str, parts: dict) -> re.Pattern:
    "A template with '{field}' slots as a regex, each slot matched by `parts[field]`."
    out, pos = '', 0
    for m in re.finditer(r'\{(\w+)\}', t):
        out += re.escape(t[pos:m.start()]) + f"(?P<{m[1]}>{parts[m[1]]})"
        pos = m.end()
    return re.compile(out + re.escape(t[pos:]))


_LG_PARTS = {'num': r'\S+', 'a': r'.+?', 'b': r'.+?', 'dep': r'\S+', 'arr': r'\S+', 'dur': r'.+?', 'cost': r'\S+', 'k': r'\S+',
             'date': r'.+?', 'route': r'.+', 'slot': r'.+?', 'v': r'.+', 'why': r'.+'}


def _lg_res(lg):
    L = _LG16[lg]
    return {'head': _tpl(L['head'], _LG_PARTS), 'flight': _tpl(L['flight'], _LG_PARTS), 'drive': _tpl(L['drive'], _LG_PARTS),
            'taxi': _tpl(L['taxi'], _LG_PARTS), 'note': re.compile(_tpl(L['note'], dict(_LG_PARTS, why=_alt(L['why'].values()))).pattern)}


_LG_RES = {lg: _lg_res(lg) for lg in _LG16}


def _lg_num(lg, s: str) -> str:
    "A number or clock as the language writes it, back to ASCII digits (Bengali digits in Bengali; an ASCII digit there is an error)."
    if lg == 'bn':
        if re.search(r'[0-9]', s): raise ValueError(f"ASCII digits in Bengali {s!r}")
        return s.translate(_BN_BACK)
    return s


def _lg_unleg(lg, s: str):
    R, L = _LG_RES[lg], _LG16[lg]
    if (q := R['flight'].fullmatch(s)):
        key = _flight(q['num'], q['a'], q['b'], _lg_num(lg, q['dep']), _lg_num(lg, q['arr']))
        t = f"Flight Number: {q['num']}, from {q['a']} to {q['b']}, Departure Time: {key[4]}, Arrival Time: {key[5]}"
    else:
        mode = 'drive' if (q := R['drive'].fullmatch(s)) else 'taxi' if (q := R['taxi'].fullmatch(s)) else None
        if mode is None: raise ValueError(f"leg {s!r}")
        units = {w: u for u, ws in L['dur'].items() for w in ws}
        parts = re.findall(r'(\S+) (\S+)', q['dur'])
        dur = ' '.join(f"{_lg_num(lg, a)} {units[w]}" for a, w in parts)
        key = _road_key(mode, q['a'], q['b'], dur, _lg_num(lg, q['cost']))
        t = f"{'Taxi' if mode == 'taxi' else 'Self-driving'}, from {q['a']} to {q['b']}, duration: {dur}, distance: 0 km, cost: {key[4]}"
    if _lleg(lg, t) != s: raise ValueError(f"leg {s!r} not as written back")
    return key


def _read_lg(text, task, plan, ph):
    errs, L_, n = [], text.split('\n'), len(plan)
    lg = next((x for x, L in _LG16.items() if L_[0] == L['intro']), None)
    if lg is None: return [], ['language']
    L, R = _LG16[lg], _LG_RES[lg]
    if L_[-2:] != ['', L['outro']]: errs.append('outro')
    lab = dict(zip(('leg', 'breakfast', 'sights', 'lunch', 'dinner', 'stay', 'sight'), L['lab']))
    kind_of = {v: k for k, v in lab.items() if k != 'sight'}
    V = lambda s: _unvenue(ph, _mdunesc(s), lg)
    days, saids, checks, any_none, mode = [], [], [], False, None
    for ln in L_[1:-2]:
        if ln == '': continue
        if (h := R['head'].fullmatch(ln)):
            k = len(days) + 1
            if h['k'] != _lnum(lg, k) or h['date'] != _ldate(lg, task, k - 1): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h['route']))); saids.append([]); mode = 'head'
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        k, g, pre = len(days), days[-1], f"day {len(days)}: "
        if mode == 'head':
            if ln != f"| {L['cols'][0]} | {L['cols'][1]} |": errs.append(f"{pre}table head {ln!r}")
            mode = 'rule'; continue
        if mode == 'rule':
            if ln != '|---|---|': errs.append(f"{pre}table rule {ln!r}")
            mode = 'rows'; continue
        if mode == 'rows' and ln.startswith('| '):
            cs = _split_cells(ln)
            if len(cs) != 4 or cs[0] or cs[3] or not cs[1].startswith(' ') or not cs[1].endswith(' ') or not cs[2].startswith(' ') \
                    or not cs[2].endswith(' '): errs.append(f"{pre}row {ln!r}"); continue
            key, val = cs[1][1:-1], cs[2][1:-1]
            kind = kind_of.get(key)
            if kind is None: errs.append(f"{pre}label {key!r}"); continue
            if g['accommodation'] != '-' or 'stay' in saids[-1]: errs.append(f"{pre}row after the stay")
            if kind == 'leg': _put(g, 'leg', _lg_unleg(lg, val), errs, pre)
            elif kind == 'sights':
                if g['attraction'] or any(m in saids[-1] for m in ('lunch', 'dinner')): errs.append(f"{pre}sights placed")
                g['attraction'] = [V(x) for x in val.split(_ljoin(lg, ph))]
            elif kind == 'stay':
                saids[-1].append('stay')
                if val == L['none']: any_none = True
                else: _put(g, 'accommodation', V(val), errs, pre)
            else:
                if [m for m in saids[-1] if m in _MEALS] and _MEALS.index([m for m in saids[-1] if m in _MEALS][-1]) >= _MEALS.index(kind):
                    errs.append(f"{pre}meals out of order")
                _said(saids[-1], kind, errs, pre)
                if val == L['none']: any_none = True
                else: _put(g, kind, V(val), errs, pre)
            continue
        if (q := R['note'].fullmatch(ln)):
            mode = 'notes'
            slot, y = q['slot'], V(q['v'])
            nm_, c = _name_city(y)
            nq = re.fullmatch(re.escape(lab['stay']) + r', (?:' + _alt(L['nights']) + r') (\S+?)(?:–(\S+))?', slot)
            if slot in (lab['breakfast'], lab['lunch'], lab['dinner']) and q['why'] == L['why']['meal']:
                checks.append(('meal', k, kind_of[slot], nm_, c, 'note: '))
            elif slot == lab['sight'] and q['why'] == L['why']['sight']: checks.append(('sight', k, nm_, c, 'note: '))
            elif nq and q['why'] == L['why']['stay']:
                a, b = int(_lg_num(lg, nq[1])), int(_lg_num(lg, nq[2] or nq[1]))
                want = f"{L['nights'][0]} {_lnum(lg, a)}" if a == b else f"{L['nights'][1]} {_lnum(lg, a)}–{_lnum(lg, b)}"
                if slot != f"{lab['stay']}, {want}" or a != k: errs.append(f"{pre}note slot {slot!r}")
                checks.append(('stay', a, b, nm_, c, 'note: '))
            else: errs.append(f"{pre}note {ln!r}")
            continue
        errs.append(f"{pre}line {ln!r}")
    if any_none:
        for i, s in enumerate(saids):
            if sorted(s) != sorted([*_MEALS, 'stay']): errs.append(f"day {i + 1}: slots stated {s}")
    _resolve(days, checks, errs)
    return days, errs

# html_card_grid -------------------------------------------------------------------------------------------------------
_HC_LI = re.compile(r'      <li class="(?P<c>[a-z ]+)">(?P<x>.*)</li>')
_HC_CMT = re.compile(r'      <!-- (?P<s>breakfast|lunch|dinner|nights? \d+(?:–\d+)?|sight): (?P<v>.+) was my first pick \((?P<w>[^()]+)\) -->')
_HC_DET = re.compile(r'        <li><s>(?P<v>.+?)</s> — (?P<s>breakfast|lunch|dinner|nights? \d+(?:–\d+)?|sight) · (?P<w>.+)</li>')
_HC_FL = re.compile(r'✈️ Flight (\S+) · (.+?) → (.+) · (\d\d:\d\d)–(\d\d:\d\d)')
_HC_RD = re.compile(r'(🚗|🚕) (Self-drive|Taxi) · (.+?) → (.+) · (.+?) · \$(\d+)')


def _hc_decoy(ph, s, v, w, k, checks, errs):
    nm_, c = _name_city(_unvenue(ph, _unesc(v)))
    if s in _MEALS and w in _HC_WHY['meal']: checks.append(('meal', k, s, nm_, c, 'considered: '))
    elif s == 'sight' and w in _HC_WHY['sight']: checks.append(('sight', k, nm_, c, 'considered: '))
    elif s.startswith('night') and w in _HC_WHY['stay']:
        a, b = _untag(s)
        if a != k: errs.append(f"day {k}: {s!r}")
        checks.append(('stay', a, b, nm_, c, 'considered: '))
    else: errs.append(f"day {k}: decoy {s!r} / {w!r}")


def _read_hc(text, task, plan, ph):
    errs, L, n = [], text.split('\n'), len(plan)
    if L[0] not in _HC_INTRO or L[1] != '': errs.append('intro')
    if L[2] == '```html' and L[-1] == '```': body = L[3:-1]
    elif L[2:6] == ['```python', 'from IPython.display import HTML, display', '', 'display(HTML("""'] and L[-2:] == ['"""))', '```']: body = L[6:-2]
    else: return [], ['wrapper']
    if body[:1] != [_HC_GRID] or body[-1:] != ['</div>']: errs.append('grid')
    days, saids, checks, any_none = [], [], [], False
    mode, k = None, 0
    for ln in body[1:-1]:
        if (q := re.fullmatch(r'  <div class="card" data-day="(\d+)"' + re.escape(_HC_CARD), ln)):
            if mode not in (None, 'closed'): errs.append(f"card {q[1]} opened inside another")
            k = len(days) + 1
            if int(q[1]) != k: errs.append(f"card {q[1]} as day {k}")
            days.append(_blank()); saids.append([]); mode = 'h4'; continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, pre = days[-1], f"day {k}: "
        if mode == 'h4':
            if ln != f"    <h4>Day {k} · {_fd(task, k - 1, 'mon')}</h4>": errs.append(f"{pre}head {ln!r}")
            mode = 'route'; continue
        if mode == 'route':
            q = re.fullmatch(r'    <p class="route">🧭 (.+)</p>', ln)
            if not q: errs.append(f"{pre}route {ln!r}")
            else: g['current_city'] = _back(q[1])
            mode = 'ul'; continue
        if mode == 'ul':
            if ln != '    <ul>': errs.append(f"{pre}list {ln!r}")
            mode = 'items'; continue
        if mode == 'items':
            if ln == '    </ul>': mode = 'after'; continue
            if (q := _HC_CMT.fullmatch(ln)): _hc_decoy(ph, q['s'], q['v'], q['w'], k, checks, errs); continue
            q = _HC_LI.fullmatch(ln)
            if not q: errs.append(f"{pre}item {ln!r}"); continue
            c, x = q['c'], q['x']
            if g['accommodation'] != '-' or 'stay' in saids[-1]: errs.append(f"{pre}item after the stay")
            if c.startswith('leg '):
                if (f := _HC_FL.fullmatch(x)) and c == 'leg flight': _put(g, 'leg', _flight(*f.groups()), errs, pre)
                elif (f := _HC_RD.fullmatch(x)) and c == f"leg {'taxi' if f[2] == 'Taxi' else 'drive'}" and (f[1] == '🚕') == (f[2] == 'Taxi'):
                    _put(g, 'leg', _road_key('taxi' if f[2] == 'Taxi' else 'drive', *f.groups()[2:]), errs, pre)
                else: errs.append(f"{pre}leg {ln!r}")
            elif (mq := re.fullmatch(r'meal (breakfast|lunch|dinner)( none)?', c)):
                m = mq[1]
                _said(saids[-1], m, errs, pre)
                if mq[2]:
                    any_none = True
                    if x != f"{_ICON[m]} No {m} planned": errs.append(f"{pre}{ln!r}")
                    continue
                t = _unesc(x)
                mm = _unmeal(ph, t[len(_ICON[m]) + 1:]) if t.startswith(_ICON[m] + ' ') else None
                if not mm or mm[0] != m: errs.append(f"{pre}meal {ln!r}"); continue
                _put(g, m, _unvenue(ph, mm[1]), errs, pre)
            elif c == 'sight' and x.startswith('📍 '): g['attraction'].append(_unvenue(ph, _unesc(x[2:])))
            elif c == 'sights' and x.startswith('📍 '):
                if g['attraction'] or any(m in saids[-1] for m in ('lunch', 'dinner')): errs.append(f"{pre}sights placed")
                g['attraction'] = [_unvenue(ph, _unesc(s)) for s in x[2:].split(_esc(ph.join))]
            elif c == 'stay' and x.startswith('🛏️ '):
                saids[-1].append('stay'); _put(g, 'accommodation', _unvenue(ph, _unesc(x[len('🛏️ '):])), errs, pre)
            elif c == 'stay none' and x in ('🏠 Heading home', '🛏️ Nothing booked'):
                saids[-1].append('stay'); any_none = True
                if (x == '🏠 Heading home') != (k == n): errs.append(f"{pre}{x!r}")
            else: errs.append(f"{pre}item {ln!r}")
            continue
        if mode == 'after' and ln == '    <details><summary>Also considered</summary>': mode = 'det0'; continue
        if mode == 'det0':
            if ln != '      <ul>': errs.append(f"{pre}details list")
            mode = 'det'; continue
        if mode == 'det':
            if ln == '      </ul>': mode = 'det1'; continue
            q = _HC_DET.fullmatch(ln)
            if not q: errs.append(f"{pre}considered {ln!r}"); continue
            _hc_decoy(ph, q['s'], q['v'], q['w'], k, checks, errs); continue
        if mode == 'det1':
            if ln != '    </details>': errs.append(f"{pre}details end")
            mode = 'after'; continue
        if mode == 'after' and ln == '  </div>': mode = 'closed'; continue
        errs.append(f"{pre}line {ln!r}")
    if mode not in ('closed', None): errs.append('unclosed card')
    if any_none:
        for i, s in enumerate(saids):
            if sorted(s) != sorted([*_MEALS, 'stay']): errs.append(f"day {i + 1}: slots stated {s}")
    _resolve(days, checks, errs)
    return days, errs

# tripit_export --------------------------------------------------------------------------------------------------------
_TI_ITEM = re.compile(r'  ( ?\d{1,2}:\d\d [AP]M)   (.+)')


def _read_ti(text, task, plan, ph):
    errs, L, n = [], text.split('\n'), len(plan)
    people = _people(task)
    head = ['```text', f"{_get(task, 'dest')} trip · {n} days",
            f"{_ti_short(task, 0)}, {_date(task, 0).year} – {_ti_short(task, n - 1)}, {_date(task, n - 1).year} · {people} traveler{'s' * (people > 1)}",
            "Exported from TripIt · all times local"]
    if L[:5] != head + [''] or L[-1] != '```': errs.append('head')
    blocks = '\n'.join(L[5:-1]).split('\n\n')
    days, saids, checks, ins, outs, flights = [], [], [], [], [], {}
    for bi, blk in enumerate(blocks):
        ls = blk.split('\n')
        items = []                                       # [time, text, [continuation lines]]
        for ln in ls[1:]:
            if ln.startswith(_TI_IND) and not ln[13:].startswith(' ') and items: items[-1][2].append(ln[13:]); continue
            q = _TI_ITEM.fullmatch(ln)
            if not q or ln[:13] != f"  {q[1].strip():>8}   ": errs.append(f"line {ln!r}"); continue
            items.append([_un_pm(q[1].strip()), q[2], []])
        if bi == n:                                      # a check-out after the trip
            if ls[0] != f"{_ti_day(task, n)} · after the trip": errs.append(f"block {ls[0]!r}")
            for t, x, cont in items:
                q = re.fullmatch(r'Check-out · (.+)', x)
                if not q or cont or t != '11:00': errs.append(f"after the trip: {x!r}"); continue
                outs.append((n, _unvenue(ph, q[1])))
            continue
        hq = re.fullmatch(re.escape(_ti_day(task, bi)) + r' · (.+)', ls[0])
        if not hq or bi > n: errs.append(f"block {ls[0]!r}"); continue
        g = _blank(_back(hq[1]))
        days.append(g); saids.append([])
        k, pre = len(days), f"day {len(days)}: "
        for t, x, cont in items:
            x_, cancelled = (x[:-len(_TI_X)], True) if x.endswith(_TI_X) else (x, False)
            one = lambda: cont[0] if len(cont) == 1 else errs.append(f"{pre}{x!r}: continuation {cont}") or ''
            if (q := re.fullmatch(r'Depart (.+) · Flight (\S+)', x)) and not cont:
                flights.setdefault((k, q[2]), {})['dep'] = (q[1], t)
            elif (q := re.fullmatch(r'Arrive (.+) · Flight (\S+)( \(\+1 day\))?', x)) and not cont:
                flights.setdefault((k, q[2]), {})['arr'] = (q[1], t, bool(q[3]))
            elif (q := re.fullmatch(r'(Drive|Taxi) · (.+?) → (.+)', x)):
                c = re.fullmatch(r'(.+?) · \$(\d+)', one())
                if not c: errs.append(f"{pre}road {x!r}"); continue
                _put(g, 'leg', _road_key('taxi' if q[1] == 'Taxi' else 'drive', q[2], q[3], c[1], c[2]), errs, pre)
            elif (q := re.fullmatch(r'Activity · (.+)', x_)):
                v = _unvenue(ph, q[1])
                if cancelled:
                    if one() not in _TI_WHY['sight']: errs.append(f"{pre}cancelled sight {x!r}")
                    checks.append(('sight', k, *_name_city(v), 'cancelled: '))
                else:
                    if cont: errs.append(f"{pre}{x!r}: continuation")
                    g['attraction'].append(v)
            elif (q := re.fullmatch(r'Check-in · (.+)', x_)):
                v = _unvenue(ph, q[1])
                if t != '21:00': errs.append(f"{pre}check-in at {t}")
                if cancelled:
                    c = re.fullmatch(r'(?P<why>' + _alt(_TI_WHY['stay']) + r') — booked (?P<w>.+) instead', one())
                    if not c: errs.append(f"{pre}cancelled stay {x!r}"); continue
                    ins.append(('decoy', k, v, c['w']))
                else:
                    c = re.fullmatch(r'(\d+) nights? · check-out (.+)', one())
                    if not c or (int(c[1]) == 1) != (' night ' in f" {c[0]} "): errs.append(f"{pre}check-in {x!r}: {cont}"); continue
                    ins.append(('stay', k, v, int(c[1]), c[2]))
            elif (q := re.fullmatch(r'Check-out · (.+)', x)) and not cont:
                if t != '11:00': errs.append(f"{pre}check-out at {t}")
                outs.append((k - 1, _unvenue(ph, q[1])))
            elif (mm := _unmeal(ph, x_)):
                m, v = mm
                v = _unvenue(ph, v)
                if t != _MEAL_T[m]: errs.append(f"{pre}{m} at {t}")
                if cancelled:
                    c = re.fullmatch(r'replaced by (?P<x>.+) — ' + _alt(_TI_WHY['meal']), one())
                    if not c: errs.append(f"{pre}cancelled {m} {x!r}"); continue
                    checks.append(('meal', k, m, *_name_city(v), 'cancelled: ')); checks.append(('kept', k, m, c['x']))
                else:
                    if cont: errs.append(f"{pre}{x!r}: continuation")
                    _said(saids[-1], m, errs, pre)
                    _put(g, m, v, errs, pre)
            else: errs.append(f"{pre}item {x!r}")
    for (k, num), f in flights.items():
        if set(f) != {'dep', 'arr'}: errs.append(f"day {k}: flight {num} half stated"); continue
        (a, dep), (b, arr, late) = f['dep'], f['arr']
        if late != (arr < dep): errs.append(f"day {k}: flight {num} '+1 day'")
        _put(days[k - 1], 'leg', _flight(num, a, b, dep, arr), errs, f"day {k}: ")
    outs_left = list(outs)
    for x in ins:
        if x[0] == 'decoy':
            _, k, v, w = x
            checks.append(('stay_decoy', k, v, w)); continue
        _, k, v, N, co = x
        if co != _ti_short(task, k - 1 + N) or (k - 1 + N, v) not in outs_left: errs.append(f"day {k}: stay {v!r} without its check-out"); continue
        outs_left.remove((k - 1 + N, v))
        for i in range(k - 1, k - 1 + N):
            if i >= len(days): errs.append(f"stay {v!r} past the trip"); break
            _put(days[i], 'accommodation', v, errs, f"day {i + 1}: ")
    if outs_left: errs.append(f"check-outs without a check-in {outs_left}")
    for c in [c for c in checks if c[0] in ('kept', 'stay_decoy')]:
        if c[0] == 'kept':
            g = _day_of(days, c[1])
            if not g or g[c[2]] in ('-', None) or _nm(g[c[2]]) != c[3]: errs.append(f"day {c[1]}: 'replaced by {c[3]}'")
        else:
            _, k, v, w = c
            g = _day_of(days, k)
            if not g or g['accommodation'] in ('-', None) or _nm(g['accommodation']) != w: errs.append(f"day {k}: 'booked {w} instead'"); continue
            b = k
            while b < len(days) and days[b]['accommodation'] == g['accommodation']: b += 1
            checks.append(('stay', k, b, *_name_city(v), 'cancelled: '))
    _resolve(days, [c for c in checks if c[0] in ('meal', 'stay', 'sight')], errs)
    return days, errs

# builder_code ---------------------------------------------------------------------------------------------------------
_BC_CMT = re.compile(r'(?P<ind> *)# (?P<code>(?:d\d+|trip)\..+\)|Place\(.+\),)  # (?P<why>.+)')


def _bc_str(node) -> str:
    if not isinstance(node, ast.Constant) or not isinstance(node.value, str): raise ValueError(f"not a string: {ast.dump(node)}")
    return node.value


def _bc_int(node) -> int:
    if not isinstance(node, ast.Constant) or type(node.value) is not int: raise ValueError(f"not an int: {ast.dump(node)}")
    return node.value


def _bc_call(node, name: str, nargs: int, kws: set):
    "(args, {keyword: node}) of a call `name(...)` with exactly `nargs` positional arguments and the keywords `kws`."
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.func.id != name or len(node.args) != nargs:
        raise ValueError(f"not a {name}(...) call")
    kw = {k.arg: k.value for k in node.keywords}
    if set(kw) != kws: raise ValueError(f"{name}(...) keywords {sorted(kw)}")
    return node.args, kw


def _bc_place_of(node):
    "'Name, City' of a Place(...) node, '-' for None."
    if isinstance(node, ast.Constant) and node.value is None: return '-'
    args, kw = _bc_call(node, 'Place', 1, {'city'})
    return f"{_bc_str(args[0])}, {_bc_str(kw['city'])}"


def _bc_date_of(node) -> datetime.date:
    args, _ = _bc_call(node, 'date', 3, set())
    return datetime.date(*[_bc_int(a) for a in args])


def _bc_clock(node, form: list) -> str:
    if isinstance(node, ast.Call):
        args, _ = _bc_call(node, 'time', 2, set())
        h, m = _bc_int(args[0]), _bc_int(args[1])
        if not (0 <= h < 24 and 0 <= m < 60): raise ValueError('time')
        form.append('time')
        return f"{h:02d}:{m:02d}"
    s = _bc_str(node)
    if not re.fullmatch(r'\d\d:\d\d', s): raise ValueError(f"time {s!r}")
    form.append('str')
    return s


def _bc_nights_of(kw, task, n) -> list[int]:
    "The day numbers of a stay's nights: nights=range(a, b) | nights=[...] | check_in=date(...), check_out=date(...)."
    if set(kw) == {'nights'}:
        x = kw['nights']
        if isinstance(x, ast.Call):
            args, _ = _bc_call(x, 'range', 2, set())
            return list(range(_bc_int(args[0]), _bc_int(args[1])))
        if isinstance(x, ast.List): return [_bc_int(e) for e in x.elts]
        raise ValueError('nights')
    if set(kw) == {'check_in', 'check_out'}:
        dix = {_date(task, i): i for i in range(n + 2)}
        a, co = dix[_bc_date_of(kw['check_in'])], dix[_bc_date_of(kw['check_out'])]
        return list(range(a + 1, co + 1))
    raise ValueError(f"stay keywords {sorted(kw)}")


def _read_bc(text, task, plan, ph):
    errs, L, n = [], text.split('\n'), len(plan)
    if L[0] not in _BC_INTRO or L[1:3] != ['', '```python'] or L[-1] != '```': errs.append('wrapper')
    code = L[3:-1]
    tree = ast.parse('\n'.join(code))
    days, saids, dvar, stays, checks, any_none, tforms = [], [], {}, [], [], False, []
    dest_file = re.sub(r'[^a-z0-9]+', '-', str(_get(task, 'dest')).lower()).strip('-') + '.pdf'

    def meal(k, m, node, replace, pre):
        nonlocal any_none
        g, v = days[k - 1], _bc_place_of(node)
        if replace:
            if v == '-' or g[m] in ('-', None) or g[m] == v: errs.append(f"{pre}replace {m} with {v!r}"); return
            checks.append(('meal', k, m, *_name_city(g[m]), 'replaced: '))
            g[m] = v
            return
        _said(saids[k - 1], m, errs, pre)
        if v == '-': any_none = True
        else: _put(g, m, v, errs, pre)
    for st in tree.body:
        if isinstance(st, ast.ImportFrom) and st.module in ('datetime', 'tripkit'): continue
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            var, call = st.targets[0].id, st.value
            if var == 'trip':
                _, kw = _bc_call(call, 'Itinerary', 0, {'origin', 'destination', 'start', 'days', 'travelers'})
                if (_bc_str(kw['origin']), _bc_str(kw['destination']), _bc_date_of(kw['start'])) != (_get(task, 'org'), _get(task, 'dest'), _date(task, 0)) \
                        or _bc_int(kw['travelers']) != _people(task): errs.append('Itinerary(...)')
                continue
            f = call.func if isinstance(call, ast.Call) else None
            if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == 'trip' and f.attr == 'day' and len(call.args) == 1):
                errs.append(f"assignment to {var}"); continue
            k = _bc_int(call.args[0])
            kw = {x.arg: x.value for x in call.keywords}
            if k != len(days) + 1 or var != f"d{k}" or var in dvar: errs.append(f"{var} = trip.day({k}, ...)")
            if set(kw) == {'city'}: cc = _bc_str(kw['city'])
            elif set(kw) == {'route'} and isinstance(kw['route'], ast.Tuple) and len(kw['route'].elts) == 2:
                cc = f"from {_bc_str(kw['route'].elts[0])} to {_bc_str(kw['route'].elts[1])}"
            else: errs.append(f"{var}: route / city"); continue
            dvar[var] = len(days) + 1
            days.append(_blank(cc)); saids.append([])
            continue
        if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute)
                and isinstance(st.value.func.value, ast.Name)):
            errs.append(f"statement at line {st.lineno}"); continue
        call, obj, meth = st.value, st.value.func.value.id, st.value.func.attr
        kw = {x.arg: x.value for x in call.keywords}
        if obj == 'trip':
            if meth == 'stay' and len(call.args) == 1:
                v = _bc_place_of(call.args[0])
                stays.append([v, _bc_nights_of(kw, task, n), st.lineno])
            elif meth == 'cancel_stay' and len(call.args) == 1 and not kw:
                z = _bc_str(call.args[0])
                hit = [s for s in stays if _nm(s[0]) == z]
                if len(hit) != 1: errs.append(f"cancel_stay({z!r})"); continue
                stays.remove(hit[0])
                ns = hit[0][1]
                checks.append(('stay', ns[0], ns[-1], *_name_city(hit[0][0]), 'cancelled: ') if ns else ('bad',))
            elif meth == 'save' and len(call.args) == 1 and not kw and _bc_str(call.args[0]) == dest_file: pass
            else: errs.append(f"trip.{meth}(...)")
            continue
        if obj not in dvar: errs.append(f"{obj}.{meth}(...) before {obj} exists"); continue
        k = dvar[obj]
        g, pre = days[k - 1], f"day {k}: "
        if k != len(days): errs.append(f"{pre}{meth}(...) after day {len(days)} began")
        if meth == 'travel' and len(call.args) == 1 and not kw:
            x = call.args[0]
            if isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and x.func.id == 'Flight':
                args, fk = _bc_call(x, 'Flight', 3, {'depart', 'arrive'})
                _put(g, 'leg', _flight(*[_bc_str(a) for a in args], _bc_clock(fk['depart'], tforms), _bc_clock(fk['arrive'], tforms)), errs, pre)
            elif isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and x.func.id in ('Drive', 'Taxi'):
                args, rk = _bc_call(x, x.func.id, 2, {'duration', 'cost'})
                _put(g, 'leg', _road_key('taxi' if x.func.id == 'Taxi' else 'drive', _bc_str(args[0]), _bc_str(args[1]), _bc_str(rk['duration']),
                                         str(_bc_int(rk['cost']))), errs, pre)
            else: errs.append(f"{pre}travel(...)")
        elif meth == 'meal' and len(call.args) == 2 and set(kw) <= {'replace'}:
            m = _bc_str(call.args[0])
            if m not in _MEALS: errs.append(f"{pre}meal {m!r}"); continue
            meal(k, m, call.args[1], 'replace' in kw and kw['replace'].value is True, pre)
        elif meth in _MEALS and len(call.args) == 1 and set(kw) <= {'replace'}:
            meal(k, meth, call.args[0], 'replace' in kw and kw['replace'].value is True, pre)
        elif meth == 'see' and call.args and not kw:
            g['attraction'] += [_bc_place_of(a) for a in call.args]
        elif meth == 'drop' and len(call.args) == 1 and not kw:
            s = _bc_str(call.args[0])
            hit = [x for x in g['attraction'] if _nm(x) == s]
            if len(hit) != 1: errs.append(f"{pre}drop({s!r})"); continue
            g['attraction'].remove(hit[0])
            checks.append(('sight', k, *_name_city(hit[0]), 'dropped: '))
        else: errs.append(f"{pre}{meth}(...)")
    if len(set(tforms)) > 1: errs.append('two ways of writing times')
    for v, ns, ln in stays:
        if not ns or ns != list(range(ns[0], ns[-1] + 1)) or ns[0] < 1 or ns[-1] > len(days): errs.append(f"stay {v!r} nights {ns}"); continue
        for x in ns: _put(days[x - 1], 'accommodation', v, errs, f"day {x}: ")
    cur = None                                           # the commented-out calls and arguments: decoys
    for ln in code:
        if (q := re.match(r'(d\d+)\.see\($', ln)): cur = q[1]
        if (q := re.fullmatch(r'# ── Day (\d+) · (.+) ──', ln)):
            if _dix(task, n + 1, 'mon').get(q[2]) != int(q[1]) - 1: errs.append(f"comment {ln!r}")
            continue
        if ln == '# ── Stays ──': continue
        q = _BC_CMT.fullmatch(ln)
        if not q:
            if ln.lstrip().startswith('#'): errs.append(f"comment {ln!r}")
            continue
        c = q['code']
        if c.startswith('Place('):
            if q['ind'] != '    ' or cur is None or q['why'] not in _BC_WHY['sight']: errs.append(f"comment {ln!r}"); continue
            v = _bc_place_of(ast.parse(c[:-1], mode='eval').body)
            checks.append(('sight', dvar.get(cur, 0), *_name_city(v), 'commented out: ')); continue
        if q['ind']: errs.append(f"comment {ln!r}"); continue
        call = ast.parse(c, mode='eval').body
        obj, meth = call.func.value.id, call.func.attr
        ckw = {x.arg: x.value for x in call.keywords}
        if obj == 'trip' and meth == 'stay' and q['why'] in _BC_WHY['stay']:
            ns = _bc_nights_of(ckw, task, n)
            checks.append(('stay', ns[0], ns[-1], *_name_city(_bc_place_of(call.args[0])), 'commented out: '))
        elif obj in dvar and meth == 'meal' and not ckw and q['why'] in _BC_WHY['meal']:
            checks.append(('meal', dvar[obj], _bc_str(call.args[0]), *_name_city(_bc_place_of(call.args[1])), 'commented out: '))
        elif obj in dvar and meth in _MEALS and not ckw and q['why'] in _BC_WHY['meal']:
            checks.append(('meal', dvar[obj], meth, *_name_city(_bc_place_of(call.args[0])), 'commented out: '))
        elif obj in dvar and meth == 'see' and len(call.args) == 1 and q['why'] in _BC_WHY['sight']:
            checks.append(('sight', dvar[obj], *_name_city(_bc_place_of(call.args[0])), 'commented out: '))
        else: errs.append(f"comment {ln!r}")
    for ln in code:                                      # an override's trailing comment: 'replace=True)  # Y: why', 'cancel_stay("Z")  # why', 'drop("S")  # why'
        if '  # ' in ln and not ln.lstrip().startswith('#'):
            body, _, why = ln.partition('  # ')
            ok = (body.endswith('replace=True)') and re.fullmatch(r'.+: ' + _alt(_BC_WHY['meal']), why)) or \
                 ('.cancel_stay(' in body and why in _BC_WHY['stay']) or ('.drop(' in body and why in _BC_WHY['sight'])
            if not ok: errs.append(f"trailing comment {ln!r}")
    if any_none: _all_said(saids, errs)
    if any(c[0] == 'bad' for c in checks): errs.append('cancelled stay without nights')
    _resolve(days, [c for c in checks if c[0] != 'bad'], errs)
    return days, errs

# annotated_ratings ----------------------------------------------------------------------------------------------------
_AR_ANN = re.compile(r'(?P<v>.+) (?P<ann>\(★ \d\.\d(?: · [^()]*)?\))')
_AR_LEGSUF = {'flight': ' (nonstop)', 'drive': ' (fuel est.)', 'taxi': ' (metered)'}
_AR_LEGICON = {'flight': '✈️ ', 'drive': '🚗 ', 'taxi': '🚕 '}


def _ar_split(ph, s: str, ann_of) -> str:
    "'Name, City' of 'venue (★ ...)' whose annotation is `ann_of(name)`."
    q = _AR_ANN.fullmatch(s)
    if not q: raise ValueError(f"no annotation in {s!r}")
    v = _unvenue(ph, q['v'])
    if q['ann'] != ann_of(_nm(v)): raise ValueError(f"annotation {q['ann']!r} of {v!r}")
    return v


def _read_ar(text, task, plan, ph):
    errs, L, n = [], text.split('\n'), len(plan)
    if L[0] not in _AR_INTRO or L[-1] not in _AR_OUTRO or L[-2] != '': errs.append('intro / outro')
    hd = next((b for b in _AR_BULLETS if len(L) > 2 and L[2].startswith(b[0] + ' **Day ')), None)
    if hd is None: return [], ['bullets']
    top, item, sub = hd
    I, S = f"  {item} ", f"      {sub} "
    days, saids, checks, stays = [], [], [], []
    last = None
    for ln in L[1:-2]:
        if ln == '': continue
        if (h := re.fullmatch(re.escape(top) + r' \*\*Day (\d+) · (.+?) · (.+)\*\*', ln)):
            if int(h[1]) != len(days) + 1 or _fd(task, len(days), 'us') != h[2]: errs.append(f"head {ln!r}")
            days.append(_blank(_back(h[3]))); saids.append([]); stays.append(None); last = None
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        k, g, pre = len(days), days[-1], f"day {len(days)}: "
        if ln.startswith(S):
            x = ln[len(S):]
            q = re.fullmatch(r'(?P<w>runner-up|skipped): (?P<v>.+) (?P<ann>\(★ [^()]*\)) — (?P<why>.+)', x)
            if not q: errs.append(f"{pre}sub-item {x!r}"); continue
            v = _unvenue(ph, q['v'])
            nm_, c = _name_city(v)
            if q['w'] == 'skipped' and last == 'sight' and q['why'] in _AR_WHY['sight'] and q['ann'] == f"({_stars(nm_)})":
                checks.append(('sight', k, nm_, c, 'skipped: '))
            elif q['w'] == 'runner-up' and last in _MEALS and q['why'] in _AR_WHY['meal'] and q['ann'] == _ar_meal(nm_):
                checks.append(('meal', k, last, nm_, c, 'runner-up: '))
            elif q['w'] == 'runner-up' and last == 'stay' and q['why'] in _AR_WHY['stay'] and stays[-1] and stays[-1][0] == 'start' \
                    and q['ann'] == _ar_stay(nm_, f"{stays[-1][1]} night{'s' * (stays[-1][1] > 1)}"):
                checks.append(('stay', k, k + stays[-1][1] - 1, nm_, c, 'runner-up: '))
            else: errs.append(f"{pre}sub-item {x!r}")
            last = 'sub'
            continue
        if not ln.startswith(I): errs.append(f"{pre}line {ln!r}"); continue
        x = ln[len(I):]
        if stays[-1] is not None: errs.append(f"{pre}{x!r} after the stay")
        mode = next((m for m, ic in _AR_LEGICON.items() if x.startswith(ic)), None)
        if mode:
            rest = x[len(_AR_LEGICON[mode]):]
            if not rest.endswith(_AR_LEGSUF[mode]): errs.append(f"{pre}leg {x!r}"); continue
            key = _unleg_en(rest[:-len(_AR_LEGSUF[mode])])
            if key[0] != mode: errs.append(f"{pre}leg icon {x!r}")
            _put(g, 'leg', key, errs, pre); last = 'leg'
        elif x.startswith('📍 '):
            parts = x[2:].split(ph.join)
            if len(parts) > 1 and (g['attraction'] or any(m in saids[-1] for m in ('lunch', 'dinner'))): errs.append(f"{pre}sights placed")
            g['attraction'] += [_ar_split(ph, p, _ar_sight) for p in parts]
            last = 'sight'
        elif x.startswith('🛏️ '):
            q = re.fullmatch(r'(?P<v>.+) \(★ \d\.\d · ~\$\d+/night · (?P<t>\d+ nights?|night \d+ of \d+)\)', x[len('🛏️ '):])
            if not q: errs.append(f"{pre}stay {x!r}"); continue
            v = _ar_split(ph, x[len('🛏️ '):], lambda nm_: _ar_stay(nm_, q['t']))
            if (t := re.fullmatch(r'(\d+) nights?', q['t'])):
                if (int(t[1]) == 1) != q['t'].endswith('night'): errs.append(f"{pre}{q['t']!r}")
                stays[-1] = ('start', int(t[1]), v)
            else:
                t = re.fullmatch(r'night (\d+) of (\d+)', q['t'])
                stays[-1] = ('again', int(t[1]), int(t[2]), v)
            g['accommodation'] = v; last = 'stay'
        else:
            m = next((m for m, ic in _ICON.items() if x.startswith(ic + ' ')), None)
            mm = _unmeal(ph, x[len(_ICON[m]) + 1:]) if m else None
            if not mm or mm[0] != m: errs.append(f"{pre}item {x!r}"); continue
            if saids[-1] and _MEALS.index(saids[-1][-1]) >= _MEALS.index(m): errs.append(f"{pre}meals out of order")
            _said(saids[-1], m, errs, pre)
            _put(g, m, _ar_split(ph, mm[1], _ar_meal), errs, pre); last = m
    run = None                                             # 'N nights' then 'night 2 of N' ... on the following days
    for i, s in enumerate(stays):
        if s and s[0] == 'start':
            if run and run[1] < run[2]: errs.append(f"day {i + 1}: a new stay inside a run")
            run = [s[2], 1, s[1]]
        elif s:
            if not run or s[3] != run[0] or s[1] != run[1] + 1 or s[2] != run[2]: errs.append(f"day {i + 1}: night {s[1]} of {s[2]}")
            else: run[1] += 1
        elif run and run[1] < run[2]: errs.append(f"day {i + 1}: the run of {run[0]!r} stops short")
    if run and run[1] < run[2]: errs.append("a run of nights past the trip")
    _resolve(days, checks, errs)
    return days, errs


_READERS = {'rst_document': _read_rs, 'notion_database': _read_no, 'next_morning_times': _read_nm, 'bg_bn_ms_lt_labels': _read_lg,
            'html_card_grid': _read_hc, 'tripit_export': _read_ti, 'builder_code': _read_bc, 'annotated_ratings': _read_ar}


def _check_one(name, task, plan, text, ph) -> list[str]:
    """Errors of one rendering (empty = it states exactly the plan, as far as this reader-free check can tell): a
    placeholder the plan does not have ('None' outside builder_code, whose None is an empty meal; 'nan', 'null', braces),
    the reader's own errors, any difference from the plan (`layouts_v8._cmp`), or a text that does not parse back."""
    errs = []
    plan_text = ' '.join(str(v) for d in plan for v in d.values())
    for bad in ((r'\bnan\b', r'\bnull\b', '[{}]') if name == 'builder_code' else (r'\bNone\b', r'\bnan\b', r'\bnull\b', '[{}]')):
        if re.search(bad, text) and not re.search(bad, plan_text): errs.append(f"{bad!r} in the text")
    try:
        got, e = _READERS[name](text, task, plan, ph)
        return errs + e + _cmp(plan, got)
    except (IndexError, KeyError, ValueError, TypeError, AttributeError, AssertionError, StopIteration, SyntaxError) as e:
        return errs + [f"does not parse back: {e!r}"]

# ---------------------------------------------------------------------------------------------------------- corruptions
def _shift(t: str) -> str:
    h, m = map(int, t.split(':'))
    return f"{h:02d}:{(m + 1) % 60:02d}" if m < 59 else f"{h:02d}:{m - 1:02d}"


def _lang_of(text: str) -> str | None: return next((k for k, L in _LG16.items() if text.startswith(L['intro'] + '\n')), None)


def _relabel(name, ph, text):
    "The text with its first lunch made a dinner (its field, row, type, label, class label, call or icon), else None."
    Lp, Dp = ph.meal_prefix('Lunch'), ph.meal_prefix('Dinner')
    if name == 'rst_document':
        return (_first_line_sub(text, lambda ln: ln.startswith(':Lunch: '), ':Lunch: ', ':Dinner: ') or
                _first_line_sub(text, lambda ln: ln == '     - Lunch', '- Lunch', '- Dinner'))
    if name == 'notion_database': return _first_line_sub(text, lambda ln: ln == 'Type: Meal · Lunch', 'Lunch', 'Dinner')
    if name == 'next_morning_times': return _first_line_sub(text, lambda ln: bool(_NM_LINE.fullmatch(ln)), ' — ' + Lp, ' — ' + Dp)
    if name == 'bg_bn_ms_lt_labels':
        lab = _LG16[_lang_of(text)]['lab']
        return _first_line_sub(text, lambda ln: ln.startswith(f"| {lab[3]} | "), f"| {lab[3]} |", f"| {lab[4]} |")
    if name == 'html_card_grid': return _first_line_sub(text, lambda ln: 'class="meal lunch"' in ln, '🥪 ' + _esc(Lp), '🥪 ' + _esc(Dp))
    if name == 'tripit_export': return _first_line_sub(text, lambda ln: _TI_X not in ln, '   ' + Lp, '   ' + Dp)
    if name == 'builder_code':
        code = lambda ln: not ln.lstrip().startswith('#')
        return _first_line_sub(text, code, '.meal("lunch", ', '.meal("dinner", ') or _first_line_sub(text, code, '.lunch(', '.dinner(')
    if name == 'annotated_ratings': return _first_line_sub(text, lambda ln: True, f"🥪 {Lp}", f"🍝 {Dp}")
    return None


def _cut_lines(text, is_head, is_k, stop=lambda ln: False) -> str:
    "The text without the lines from the head `is_k` accepts up to the next head (or a line `stop` accepts)."
    out, skip = [], False
    for ln in text.split('\n'):
        if is_head(ln) or stop(ln): skip = is_k(ln)
        if not skip: out.append(ln)
    return '\n'.join(out)


def _drop_day(name, text, task, k=1):
    "The text without the k-th day (0-based) it states: its section, entries, block, table, card, date, calls or bullets."
    kk = k + 1
    if name == 'rst_document':
        return _cut_lines(text, lambda ln: bool(re.match(r'Day \d+ — ', ln)), lambda ln: ln.startswith(f"Day {kk} — "))
    if name == 'notion_database':
        return '\n\n'.join(p for p in text.split('\n\n') if not (f"\nDay: {kk}\n" in p + '\n' or p.startswith(f"### Day {kk} · ")))
    if name == 'next_morning_times':
        ps = text.split('\n\n')
        return '\n\n'.join(ps[:kk] + ps[kk + 1:])
    if name == 'bg_bn_ms_lt_labels':
        R = _LG_RES[_lang_of(text)]['head']
        L = _LG16[_lang_of(text)]
        return _cut_lines(text, lambda ln: bool(R.fullmatch(ln)) or ln == L['outro'],
                          lambda ln: (m := R.fullmatch(ln)) is not None and m['k'] == _lnum(_lang_of(text), kk))
    if name == 'html_card_grid':
        return _cut_lines(text, lambda ln: ln.startswith('  <div class="card"'), lambda ln: ln.startswith(f'  <div class="card" data-day="{kk}"'),
                          stop=lambda ln: ln == '</div>')
    if name == 'tripit_export':
        head = _ti_day(task, k)
        return '\n\n'.join(p for p in text.split('\n\n') if not p.startswith(head + ' · '))
    if name == 'builder_code':
        return '\n\n'.join(p for p in text.split('\n\n') if not p.startswith(f"# ── Day {kk} · "))
    if name == 'annotated_ratings':
        return '\n\n'.join(p for p in text.split('\n\n') if not re.match(rf'\S+ \*\*Day {kk} · ', p))
    return text


def _time_shift(name, plan, text):
    "The first flight's departure moved a minute, in the layout's clock, where the layout states it."
    fl = [_leg_parts(d['transportation']) for d in plan if d['transportation'].startswith('Flight')]
    if not fl: return None
    p = fl[0]
    dep, new, num = p['dep'], _shift(p['dep']), p['number']
    if name == 'rst_document': return _first_line_sub(text, lambda ln: True, f"{dep}–{p['arr']}", f"{new}–{p['arr']}")
    if name == 'notion_database': return _first_line_sub(text, lambda ln: ln.startswith('Date: '), f" {_pm(dep)} → ", f" {_pm(new)} → ")
    if name == 'next_morning_times': return _first_line_sub(text, lambda ln: f" — Flight {num} out of " in ln, f"{_ap(dep)} — ", f"{_ap(new)} — ")
    if name == 'bg_bn_ms_lt_labels':
        lg = _lang_of(text)
        return _first_line_sub(text, lambda ln: num in ln, _lnum(lg, dep), _lnum(lg, new))
    if name == 'html_card_grid': return _first_line_sub(text, lambda ln: num in ln, f"{dep}–", f"{new}–")
    if name == 'tripit_export': return _first_line_sub(text, lambda ln: f"· Flight {num}" in ln and 'Depart ' in ln, _pm(dep), _pm(new))
    if name == 'builder_code':
        return (_first_line_sub(text, lambda ln: f'Flight("{num}"' in ln, f"depart={_bc_time(dep, 'time')}", f"depart={_bc_time(new, 'time')}") or
                _first_line_sub(text, lambda ln: f'Flight("{num}"' in ln, f"depart={_bc_time(dep, 'str')}", f"depart={_bc_time(new, 'str')}"))
    if name == 'annotated_ratings': return _first_line_sub(text, lambda ln: f"Flight {num} " in ln, f", {dep} → ", f", {new} → ")
    return None


def _decoy_promotions(name, plan, text, task, ph):
    "[(what, text)]: a decoy taken for the plan, coherently (its name and the kept one's traded), and the layout's own ways."
    out = []
    for y, x in _DECOY_LOG.get(text, []):
        if (s := _swap(text, y, x)): out.append(("a decoy's name traded with the kept one", s)); break
    if name == 'notion_database':
        ps = text.split('\n\n')
        for j, p in enumerate(ps):
            if '\nStatus: Dropped' in p:
                ps[j] = '\n'.join(ln for ln in p.split('\n') if not ln.startswith('Notes: ')).replace('Status: Dropped', 'Status: Booked')
                out.append(("a dropped entry booked", '\n\n'.join(ps))); break
    if name == 'tripit_export':
        lines = text.split('\n')
        for j, ln in enumerate(lines):
            if ln.endswith(_TI_X):
                out.append(("a cancelled item reinstated", '\n'.join(lines[:j] + [ln[:-len(_TI_X)]] + lines[j + 2:]))); break
    if name == 'builder_code':
        lines = text.split('\n')
        for j, ln in enumerate(lines):
            if (q := _BC_CMT.fullmatch(ln)):
                out.append(("a commented-out call run", '\n'.join(lines[:j] + [q['ind'] + q['code']] + lines[j + 1:]))); break
        for j, ln in enumerate(lines):
            if not ln.startswith('#') and ('replace=True)' in ln or '.cancel_stay(' in ln or '.drop(' in ln):
                out.append(("an override dropped (the first call kept)", '\n'.join(lines[:j] + lines[j + 1:]))); break
    if name == 'html_card_grid':
        lines = text.split('\n')
        for j, ln in enumerate(lines):
            if (q := _HC_DET.fullmatch(ln)) or (q := _HC_CMT.fullmatch(ln)):
                if q['s'] in _MEALS:
                    v = html.unescape(q['v'])
                    out.append(("a struck or commented meal listed", '\n'.join(
                        lines[:j] + [f'      <li class="meal {q["s"]}">{_ICON[q["s"]]} {_esc(ph.meal_prefix(q["s"].capitalize()) + v)}</li>'] + lines[j + 1:])))
                    break
    return out


def _longer_stay(name, text, task, n):
    "A stay made one night longer where a layout states a run of nights."
    if name == 'notion_database':
        ps = text.split('\n\n')
        dix = {_nd(task, i): i for i in range(n + 2)}
        for j, p in enumerate(ps):
            if '\nType: Stay' in p and '\nStatus: Booked' in p or p.startswith('### ') and 'Type: Stay' in p and 'Status: Booked' in p:
                q = re.search(r'\nDate: (.+) → (.+)\n', p + '\n')
                N = re.search(r'\nNights: (\d+)', p)
                if not q or not N or q[2] not in dix: return None
                p2 = p.replace(f"Date: {q[1]} → {q[2]}", f"Date: {q[1]} → {_nd(task, dix[q[2]] + 1)}").replace(f"Nights: {N[1]}", f"Nights: {int(N[1]) + 1}")
                return '\n\n'.join(ps[:j] + [p2] + ps[j + 1:])
        return None
    pat = {'next_morning_times': r'(?m)^Night — .+ \((\d+)(?= nights?[;)])', 'tripit_export': r'(?m)^ {13}(\d+)(?= nights? · check-out )',
           'annotated_ratings': r'(?m)^  \S+ 🛏️ .+ · (\d+)(?= nights?\)$)'}.get(name)
    if pat and (m := re.search(pat, text)): return text[:m.start(1)] + str(int(m[1]) + 1) + text[m.end(1):]
    if name == 'builder_code':
        lines = text.split('\n')
        for j, ln in enumerate(lines):
            if ln.startswith('trip.stay('):
                if (m := re.search(r'range\((\d+), (\d+)\)', ln)): lines[j] = ln[:m.start()] + f"range({m[1]}, {int(m[2]) + 1})" + ln[m.end():]
                elif (m := re.search(r'nights=\[([\d, ]+)\]', ln)):
                    xs = [int(x) for x in m[1].split(', ')]
                    lines[j] = ln[:m.start()] + f"nights={xs + [xs[-1] + 1]}" + ln[m.end():]
                elif (m := re.search(r'check_out=date\((\d+), (\d+), (\d+)\)', ln)):
                    d = datetime.date(int(m[1]), int(m[2]), int(m[3])) + datetime.timedelta(days=1)
                    lines[j] = ln[:m.start()] + f"check_out={_bc_date(d)}" + ln[m.end():]
                return '\n'.join(lines)
        return None
    pat = {'rst_document': r'(?m)^(?:   - |\.\. not booked: )(Nights?) (\d+)(?:–(\d+))?(?=: )', 'html_card_grid': r'(nights?) (\d+)(?:–(\d+))?(?=(?: · |: ))'}.get(name)
    if pat and (m := re.search(pat, text)):
        a, b = int(m[2]), int(m[3] or m[2])
        return text[:m.start(1)] + f"{'Nights' if m[1][0] == 'N' else 'nights'} {a}–{b + 1}" + text[m.end():]
    return None


def mutations(name, plan, text, task, ph):
    """[(kind, what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a
    flight renumbered, sights of two days swapped, two stays swapped, a lunch labelled dinner (its field, row, type,
    label, class label, call or icon), a day dropped, a flight's departure moved (in the layout's clock: AP style, 12-hour
    AM / PM, Bengali digits, time(h, m)); decoys promoted (a decoy's name traded with the kept one; a dropped Notion entry
    booked, a cancelled item reinstated, a commented-out call run, an override dropped, a struck meal listed) and a stay
    made a night longer where a run of nights is stated (Notion's dates and nights, '(2 nights)', the check-in's nights,
    range() / the nights list / check_out, the annotation's nights, a decoy's 'Nights 1–2')."""
    out = _common_mutations(plan, text)
    if (s := _relabel(name, ph, text)): out.append(('a lunch labelled dinner', '', s))
    out.append(('a day dropped', 'day 2', _drop_day(name, text, task, 1)))
    if (s := _time_shift(name, plan, text)): out.append(("a flight's departure moved", '', s))
    out += [('decoy promoted', w, s) for w, s in _decoy_promotions(name, plan, text, task, ph)]
    if (s := _longer_stay(name, text, task, len(plan))): out.append(("a stay made a night longer", '', s))
    return [x for x in out if x[2] != text]


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    "The part's self-check (`layouts.selfcheck_part`): failures + missed corruptions."
    return selfcheck_part(HELDOUT16_LAYOUTS, _phr, _check_one, mutations, lambda lay, text: bool(_DECOY_LOG.get(text)), plans, mutate_every)


if __name__ == '__main__':
    part_cli(__doc__, HELDOUT16_LAYOUTS, _phr, selfcheck)
