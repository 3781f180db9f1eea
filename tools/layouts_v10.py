#!/usr/bin/env python
"""Held-out part v10 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their notebooks
(04a, 04b, 05), tests (test_grounded*, test_layout*, test_robustness) or results/formatter/* were opened, no reader was
run on these texts, and `tools/layouts.py measure` / `record` were not run). Only tools/layouts.py (its interface and its
layouts' source, to avoid repeating them), tools/agreement.py (`_leg_parts`, `_attractions`) and tools/layouts_v5.py ...
layouts_v9.py (their structure and layouts; generic helpers of v8 and v9 are imported) were read. SEALED: this part is
to be scored ONCE by the lead (via tools/layouts.py, part 'heldout10', once registered there) and never tuned on before
that score.

    python tools/layouts_v10.py check                    # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (the e-mail's sentences and its
                                                         # P.S. lines, the TOML (stdlib tomllib) / INI file, the slides
                                                         # with their speaker notes and stays table, the ditto marks of
                                                         # the day tables, the Russian / Polish / Turkish labels and
                                                         # dates, the emoji lines, the draft + change list + copy-paste
                                                         # block of the transcript, the Obsidian note's inline fields
                                                         # and front matter) into the plan's own values (venue 'Name,
                                                         # City', route, leg parts) and compared with the plan EXACTLY;
                                                         # then corruptions (a name deleted, lunches swapped, a day
                                                         # dropped, a decoy promoted, a flight time moved, a stay
                                                         # lengthened, ...) must be caught. 315 plans x 8
                                                         # layouts = 2,520 renderings, 19,389 corruptions, ~15 s
    python tools/layouts_v10.py check --limit 40         # the same on the first 40 known plans
    python tools/layouts_v10.py show slide_deck --n 1    # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how chat models and tool-using agents answer "plan me a 3/5/7-day trip", in styles that none of
tools/layouts.py, tools/layouts_v5.py ... tools/layouts_v9.py has (see each renderer's docstring):

* `email_to_companion`     an e-mail to a travel companion ("Subject: ...", "Hi Sam,"): per day a bold head ("**Day 2 ·
                           Thursday, March 17 · Rockford**" or "**Thursday, March 17 (Day 2): Rockford**"), ONE prose
                           paragraph ("We fly A → B on F1, leaving at 15:40 and landing at 17:04. We'll see X ⇒ Y. We
                           check in at Z." / "Another night at Z." / "No hotel tonight — we head home.") and a food
                           line ("🍽 For lunch: X · For dinner: Y (no breakfast)"); sign-off, then P.S. lines about
                           DECOYS ("I also looked at Y for lunch on Day 2, but ... — so we're sticking with X.")
* `toml_ini`               the plan as a config file: TOML (```toml, `[[days]]` arrays of tables, TOML dates and times,
                           `travel = { mode = "flight", number = ..., depart = 15:40:00, ... }`, venues as strings or
                           inline tables `{ name = "X", city = "Y" }`, sights as arrays) or INI (```ini, `[day2]`
                           sections, `travel = flight F1, A -> B, 15:40-17:04`); a replaced choice left in as a
                           COMMENTED-OUT DECOY line ("# lunch = \"Y\"  # swapped out: ...")
* `slide_deck`             a Marp / reveal.js markdown deck (```markdown, '---' between slides): a title slide, "## Slide
                           2 — The route" (the ONLY place of each day's route), "## Slide 3 — Day 1 · Wed 16 Mar" with
                           the leg, sights and (in some renderings) the hotel as bullets, the MEALS only in the speaker
                           notes ("<!-- Speaker notes: ... -->" or "Note:"); in some renderings the stays only on a
                           closing "Where we sleep" slide (check-in / check-out dates, nights), and a "Plan B (not
                           booked)" slide of DECOYS
* `day_tables_ditto`       one markdown table per day (Time | Activity | Place | City), rows in time order, repeated
                           cells written as ditto marks ('〃', '↑ same', '″' or left EMPTY as a merged cell) in the
                           Activity column (a run of sights) and the City column; the flight row carries its times and
                           "A → B", the overnight row "🌙"; empty meals "*(none)*" or left out
* `ru_pl_tr_labels`        the answer in Russian, Polish or Turkish (drawn): "### День 2 · четверг, 17 марта 2022 г. ·
                           Rockford", "### Dzień 2 · czwartek, 17 marca 2022 · ...", "### 2. Gün · 17 Mart 2022
                           Perşembe · ..."; labels Транспорт / Завтрак / Достопримечательности / Обед / Ужин / Ночлег,
                           Dojazd / Śniadanie / Zwiedzanie / Obiad (= LUNCH) / Kolacja (= dinner) / Nocleg, Ulaşım /
                           Kahvaltı / Gezilecek yerler / Öğle yemeği / Akşam yemeği / Konaklama; legs translated ("рейс
                           F1: A → B, вылет 15:40, прилёт 17:04", "własnym autem: A → B, ok. 3 godz. 11 min, 120 USD");
                           venue placements translated ('X — г. City', 'X (w City, ST)'); names verbatim
* `emoji_only`             day-by-day with EMOJI-ONLY labels: "2️⃣ Thu 17/03 · Rockford" (keycap day numbers), "✈️ F1 ·
                           A ➡️ B · 🛫 15:40 · 🛬 17:04", "🚗 A ➡️ B · ⏱️ 3h 11m · 💵 $120", "🍳 X", "🏛️ Y" (one per line in
                           the order of the day, or joined), "🥪 X", "🍝 X", "🛏️ X"; an empty slot '❌' / '🚫' / '—' or
                           left out; an optional legend line
* `transcript_copy_paste`  a numbered conversation ("**🧑 User (turn 1):**", "**🤖 Assistant (turn 2):**"): a first
                           DRAFT in markdown (one to three slots different: a meal, a hotel, an extra sight), the
                           user's change request, then "Changes: Day 2 lunch: Y → X; ..." and "Final itinerary
                           (copy-paste):" with a ```text block ("DAY 2 | 2022-03-17 | Rockford", "  lunch      X"):
                           the draft is a DECOY, the block is the plan
* `obsidian_note`          an Obsidian note (```markdown): YAML front matter (title, dates, tags; in some renderings the
                           stays as a `lodging:` list with check_in / check_out dates), "## [[2022-03-17]] · Day 2",
                           Dataview inline fields "route:: A → B", "travel:: ✈️ F1 · ...", tasks "- [ ] lunch:: [[X]]
                           (in City, ST)", "- [ ] visit:: [[Y]] ...", "stay:: [[Z]] ..."; cancelled DECOYS "- [-] ~~lunch::
                           [[Y]] ...~~ cancelled: ..."

Phrasings (`HELDOUT10_PHRASES`, drawn per rendering by `Phr10`): venue placed as 'X, City, Texas' (the full state name,
for US cities), 'X (in City, TX)', 'X — in City' or 'X, City'; several sights joined by ' ⇒ ', ', later ', ' ◆ ' or
' — then '; meal labels 'For lunch: X', 'Lunch @ X', 'Lunch > X' or 'Lunch: X' (the placement everywhere but the
tables' Place / City columns and the TOML inline tables, translated in ru_pl_tr_labels and around wikilinks in
obsidian_note; the joins in email_to_companion, toml_ini (INI), slide_deck, ru_pl_tr_labels (translated), emoji_only and
transcript_copy_paste; the meal labels in email_to_companion, slide_deck and the transcript's draft). Every rendering
states the whole plan: each day's route, the leg (flight number and times, or self-drive / taxi with duration and
cost), each meal's restaurant (or none: absent, or said to be none), each attraction and the accommodation; names are
verbatim (words are only added around them; TOML / YAML escape what they need, '|' in a table cell is '\\|'); the noise
(intros, sign-offs, P.S. lines, commented-out lines, Plan B, the draft, cancelled tasks) never contradicts the plan.
"""
from __future__ import annotations

import copy, datetime, json, random, re, sys, tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _POSTAL_OF, _name_city, known_plans, part_cli, selfcheck_part            # noqa: E402
from layouts_v8 import (_common_mutations, _DAY_SPAN, _MEALS, _all_said, _blank, _cc, _cities, _cmp, _date, _dur_key, _get, _people,  # noqa: E402
                        _put, _road_key, _runs, _said, _swap)
from layouts_v9 import _back, _hm, _nights, _revision_decoys, _rt, _time_shift, _timed  # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT10_PHRASES = {
    'locative': ('comma_state', 'paren_in_postal', 'dash_in', 'comma'),  # 'X, City, Texas' | 'X (in City, TX)' | 'X — in City' | 'X, City'
    'join': (' ⇒ ', ', later ', ' ◆ ', ' — then '),
    'meal_label': ('for_colon', 'at_sign', 'chevron', 'colon'),         # 'For lunch: X' | 'Lunch @ X' | 'Lunch > X' | 'Lunch: X'
}


def _state_of() -> dict:
    "US database city -> its state's full name (for 'X, Dallas, Texas')."
    from star.evaluator import eval_index
    return {c: st for c, st in dict(eval_index().city_state).items() if c in _POSTAL_OF}


_STATE_OF = _state_of()
# the words around the city, per language: (inside the brackets before the city, the dash placement with {c})
_VLOC = {None: ('in ', ' — in {c}'), 'ru': ('в ', ' — г. {c}'), 'pl': ('w ', ' — m. {c}'), 'tr': ('', ' — {c} şehrinde')}


def _venue(ph, v: str, lg: str | None = None, wrap=None) -> str:
    "A venue 'Name, City' as `ph` places it (in language `lg`; the name wrapped by `wrap`, e.g. an Obsidian [[link]])."
    n, c = _name_city(v)
    if wrap: n = wrap(n)
    if not c: return n
    pre, dash = _VLOC[lg]
    if ph.loc == 'comma_state': return f"{n}, {c}, {_STATE_OF[c]}" if c in _STATE_OF else f"{n}, {c}"
    if ph.loc == 'paren_in_postal': return f"{n} ({pre}{c}, {_POSTAL_OF[c]})" if c in _POSTAL_OF else f"{n} ({pre}{c})"
    if ph.loc == 'dash_in': return n + dash.format(c=c)
    return f"{n}, {c}"


def _unvenue(ph, s: str, lg: str | None = None) -> str:
    "'Name, City' of a venue as `_venue` writes it; a placement that is not the drawn one is an error."
    pre, dash = _VLOC[lg]
    if ph.loc == 'comma_state':
        head, sep, st = s.rpartition(', ')
        n, sep2, c = head.rpartition(', ')
        if sep and sep2 and c in _STATE_OF and _STATE_OF[c] == st: return f"{n}, {c}"
        if not sep or st in _STATE_OF: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        return s
    if ph.loc == 'paren_in_postal':
        m = re.fullmatch(rf"(.+) \({re.escape(pre)}([^()]+)\)", s, re.S)
        if not m: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        c, sep, st = m[2].rpartition(', ')
        if sep and c in _POSTAL_OF and _POSTAL_OF[c] == st: return f"{m[1]}, {c}"
        if m[2] in _POSTAL_OF: raise ValueError(f"venue {s!r} without its state")
        return f"{m[1]}, {m[2]}"
    if ph.loc == 'dash_in':
        a, b = dash.split('{c}')
        m = re.fullmatch(rf"(.+){re.escape(a)}(.+){re.escape(b)}", s, re.S)
        if not m: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        return f"{m[1]}, {m[2]}"
    if ', ' not in s: raise ValueError(f"venue {s!r} without its city")
    return s


class Phr10(Phr):
    "`Phr` with the v10 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        if self.loc in HELDOUT10_PHRASES['locative']: return _venue(self, v)
        return super().venue(v)

    def meal_prefix(self, label: str) -> str:
        "The words before a meal's venue: 'For lunch: ' | 'Lunch @ ' | 'Lunch > ' | 'Lunch: '."
        return {'for_colon': f"For {label.lower()}: ", 'at_sign': f"{label} @ ", 'chevron': f"{label} > "}.get(self.label, f"{label}: ")

    def meal(self, label: str, v: str) -> str: return self.meal_prefix(label) + self.venue(v)


PHR10 = Phr10

# -------------------------------------------------------------------------------------------------------------- helpers
def _fd(task, i: int, f: str) -> str:
    "'long' 'Wednesday, March 16' | 'dm' 'Wed 16 Mar' | 'mon' 'Wed, Mar 16' | 'slash' 'Wed 16/03' | 'dmy' '16/03/2022' | 'iso'."
    return _fdate(_date(task, i), f)


def _fdate(d: datetime.date, f: str) -> str:
    return {'long': f"{d:%A}, {d:%B} {d.day}", 'dm': f"{d:%a} {d.day} {d:%b}", 'mon': f"{d:%a}, {d:%b} {d.day}",
            'slash': f"{d:%a} {d:%d/%m}", 'dmy': f"{d:%d/%m/%Y}", 'iso': d.isoformat()}[f]


def _dates(task, n: int, f: str, extra: int = 0) -> dict:
    "Date text -> day index, for the n days of the trip (and `extra` days after it, for check-out dates)."
    return {_fd(task, i, f): i for i in range(n + extra)}


def _unmeal(ph, s: str):
    "(meal, the rest) of a text that starts with the drawn meal label, else None."
    for m in _MEALS:
        p = ph.meal_prefix(m.capitalize())
        if s.startswith(p): return m, s[len(p):]
    return None


def _unitems(ph, s: str, join=None, lg=None) -> list[str]: return [_unvenue(ph, x, lg) for x in s.split(join or ph.join)]


def _cell(s) -> str: return str(s).replace('|', '\\|')


def _cells(row: str) -> list[str]:
    "The cells of a markdown table row ('\\|' inside a cell unescaped)."
    if not (row.startswith('| ') and row.endswith(' |')): raise ValueError(f"row {row!r}")
    cs = re.split(r'(?<!\\)\|', row[1:-1])
    if any(not (c.startswith(' ') and c.endswith(' ')) for c in cs): raise ValueError(f"row {row!r}: a cell not padded")
    return [c[1:-1].replace('\\|', '|') for c in cs]             # one space of padding each side, as written


def _nm(v: str) -> str: return _name_city(v)[0]


def _with_name(v: str, name: str) -> str:
    "The venue `v` with another name (same city)."
    c = _name_city(v)[1]
    return f"{name}, {c}" if c else name


def _day_runs(plan):
    "[(first, last day index, accommodation)] of the nights with a place to stay."
    return [(a, b, acc) for a, b, acc in _runs(plan) if acc != '-']


# -------------------------------------------------------------------------------------------------------------- layouts
_EM_TO = ('Sam', 'Jordan', 'Priya', 'Lena', 'Marco', 'Aiko')
_EM_FROM = ('Alex', 'Chris', 'Dana', 'Noor', 'Tom')
_EM_INTRO = ("I've pinned down our {n} days — travel, food, hotels, the lot. Here's how it goes:",
             "Here's the plan for our {n}-day trip, day by day. Shout if anything looks off!")
_EM_CLOSE = ("Let me know what you think before I book the rest.", "Can't wait — tell me if you want to change anything!")
_EM_SIGN = ('Cheers,', 'Talk soon,', 'Best,')
_EM_WHY_MEAL = ("it's closed that day", "it was fully booked", "it's a long way from everything else that day", "the reviews put me off")
_EM_WHY_STAY = ("it had no rooms left for our dates", "it was further from everything", "the reviews were mixed")
_EM_WHY_SIGHT = ("the day was already full", "it needs half a day on its own")
_PS = ('P.S.', 'P.P.S.', 'P.P.P.S.')
_EM_NOFOOD = "nothing booked — we'll improvise"


def _em_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"We fly {p['a']} → {p['b']} on {p['number']}, leaving at {p['dep']} and landing at {p['arr']}."
    return f"We {'take a taxi' if p['mode'] == 'taxi' else 'drive ourselves'} from {p['a']} to {p['b']} — about {p['duration']}, ${p['cost']}."


def email_to_companion(plan, task, ph):
    """An e-mail to the travel companion: "Subject: A → B, Mar 16–Mar 18 — our plan", "Hi Sam,", an intro, then per day a
    bold head ("**Day 2 · Thursday, March 17 · Rockford**" or "**Thursday, March 17 (Day 2): A → B**"), ONE paragraph —
    the leg ("We fly A → B on F1, leaving at 15:40 and landing at 17:04." / "We drive ourselves from A to B — about 3 hours
    11 mins, $120." / "We take a taxi ..." / "No travel today."), the sights ("We'll see X ⇒ Y." or "On the list: ..." in
    the drawn join), the night ("We check in at X." on a stay's first night, "Another night at X." after, "No hotel
    tonight — we head home.") — and a food line ("🍽 For lunch: X · For dinner: Y (no breakfast)" in the drawn label, or
    "🍽 nothing booked — we'll improvise"); a sign-off, then P.S. lines about DECOYS ("P.S. I also looked at Y for lunch
    on Day 2, but it's closed that day — so we're sticking with X.", "P.P.S. Y was an option for the nights of day 1–2,
    but ... — so we're staying at X.", "I left out Y (...) on Day 3 — the day was already full.")."""
    r = ph.rng
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 1))
    to, frm, head_a = r.choice(_EM_TO), r.choice(_EM_FROM), r.random() < 0.5
    sights_tpl = r.choice(("We'll see {}.", "On the list: {}."))
    d0, dn = _date(task, 0), _date(task, len(plan) - 1)
    out = [f"Subject: {_get(task, 'org')} → {_get(task, 'dest')}, {d0:%b} {d0.day}–{dn:%b} {dn.day} — our plan", '',
           f"Hi {to},", '', r.choice(_EM_INTRO).format(n=len(plan)), '']
    prev = None
    for i, d in enumerate(plan):
        k, rt, date = d['days'], _rt(d['current_city']), _fd(task, i, 'long')
        out.append(f"**Day {k} · {date} · {rt}**" if head_a else f"**{date} (Day {k}): {rt}**")
        s = [_em_leg(d['transportation']) if d['transportation'] != '-' else "No travel today."]
        if (at := _attractions(d['attraction'])): s.append(sights_tpl.format(ph.items(at)))
        acc = d['accommodation']
        if acc == '-': s.append("No hotel tonight — we head home." if i == len(plan) - 1 else "No hotel booked for tonight.")
        elif acc == prev: s.append(f"Another night at {ph.venue(acc)}.")
        else: s.append(f"We check in at {ph.venue(acc)}.")
        prev = acc if acc != '-' else None
        ms, none = [ph.meal(m.capitalize(), d[m]) for m in _MEALS if d[m] != '-'], [m for m in _MEALS if d[m] == '-']
        food = ' · '.join(ms) + (f" (no {', no '.join(none)})" if none else '') if ms else _EM_NOFOOD
        out += [' '.join(s), '🍽 ' + food, '']
    out += [r.choice(_EM_CLOSE), '', r.choice(_EM_SIGN), frm]
    ps = [f"I also looked at {x} for {m} on Day {plan[i]['days']}, but {r.choice(_EM_WHY_MEAL)} — so we're sticking with "
          f"{_nm(plan[i][m])}." for (i, m), x in meals.items()]
    ps += [f"{x} was an option for the {_nights(plan, a, b).lower()}, but {r.choice(_EM_WHY_STAY)} — so we're staying at "
           f"{_nm(plan[a]['accommodation'])}." for (a, b), x in stays.items()]
    ps += [f"I left out {ph.venue(x)} on Day {plan[i]['days']} — {r.choice(_EM_WHY_SIGHT)}." for i, (_, x) in sights.items()]
    if ps: out += [''] + [f"{_PS[j]} {s}" for j, s in enumerate(ps)]
    return '\n'.join(out)


_TM_WHY = {'meal': ("swapped out: closed that day", "swapped out: too far from the rest of the day"),
           'accommodation': ("replaced: no rooms left", "replaced: over budget"), 'attraction': ("dropped: not enough time",)}


def _q(s) -> str:
    "A TOML / YAML basic string (JSON's escapes are valid in both)."
    return json.dumps(str(s), ensure_ascii=False)


def _tm_venue(ph, v, tables: bool) -> str:
    n, c = _name_city(v)
    return f"{{ name = {_q(n)}, city = {_q(c)} }}" if tables else _q(ph.venue(v))


def _tm_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        return (f'travel = {{ mode = "flight", number = {_q(p["number"])}, from = {_q(p["a"])}, to = {_q(p["b"])}, '
                f'depart = {p["dep"]}:00, arrive = {p["arr"]}:00 }}')
    return (f'travel = {{ mode = "{"taxi" if p["mode"] == "taxi" else "self-driving"}", from = {_q(p["a"])}, to = {_q(p["b"])}, '
            f'duration = {_q(p["duration"])}, cost_usd = {p["cost"]} }}')


def _ini_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"flight {p['number']}, {p['a']} -> {p['b']}, {p['dep']}-{p['arr']}"
    return f"{'taxi' if p['mode'] == 'taxi' else 'self-driving'}, {p['a']} -> {p['b']}, {p['duration']}, ${p['cost']}"


def toml_ini(plan, task, ph):
    """The plan as a config file an agent writes for a script. TOML (```toml): a [trip] table, then one [[days]] table per
    day — day, date (a TOML date), `from` / `to` on a travel day or `city`, `travel = { mode = "flight", number = "F1",
    from = "A", to = "B", depart = 15:40:00, arrive = 17:04:00 }` (or mode "self-driving" / "taxi" with duration and
    cost_usd), breakfast, sights (an array), lunch, dinner, stay: venues as strings in the drawn placement or as inline
    tables { name = "X", city = "Y" }; an empty slot left out or "" / []. INI (```ini): [trip], then [day1] ... with
    date, route (A -> B) or city, travel ("flight F1, A -> B, 15:40-17:04" / "self-driving, A -> B, 3 hours 11 mins,
    $120"), breakfast, sights (the drawn join), lunch, dinner, hotel; an empty slot "none" or left out. A replaced
    choice is kept as a COMMENTED-OUT DECOY line above the live one ('# lunch = "Y"  # swapped out: ...' / '; lunch =
    Y  ; swapped out: ...'; the sights' old list, a replaced hotel on its first night)."""
    r = ph.rng
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 2))
    ini, tables, omit = r.random() < 0.35, r.random() < 0.4, r.random() < 0.5
    org, dest = _get(task, 'org'), _get(task, 'dest')
    if ini:
        out = ["Here's the itinerary as an INI file (one section per day) for your booking script:", '', '```ini',
               '; itinerary.ini', '[trip]', f"origin = {org}", f"destination = {dest}", f"travelers = {_people(task)}", '']
    else:
        out = ["Here's the itinerary as a TOML config you can load straight into your script:", '', '```toml',
               '# itinerary.toml — one [[days]] table per day', '[trip]', f"origin = {_q(org)}", f"destination = {_q(dest)}",
               f"start = {_fd(task, 0, 'iso')}", f"days = {len(plan)}", f"travelers = {_people(task)}", '']
    key = lambda k: {'accommodation': 'hotel' if ini else 'stay', 'attraction': 'sights'}.get(k, k)
    cm = '; ' if ini else '# '

    def val(k, v):
        "The value text of slot k (None: leave the line out)."
        if k == 'attraction':
            at = _attractions(v)
            if ini: return ph.items(at) if at else (None if omit else 'none')
            return '[' + ', '.join(_tm_venue(ph, x, tables) for x in at) + ']' if at or not omit else None
        if v == '-': return None if omit else ('none' if ini else '""')
        return ph.venue(v) if ini else _tm_venue(ph, v, tables)

    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        if ini:
            out += [f"[day{d['days']}]", f"date = {_fd(task, i, 'iso')}", f"route = {a} -> {b}" if a != b else f"city = {a}"]
            if d['transportation'] != '-': out.append(f"travel = {_ini_leg(d['transportation'])}")
        else:
            out += ['[[days]]', f"day = {d['days']}", f"date = {_fd(task, i, 'iso')}"]
            out += [f"from = {_q(a)}", f"to = {_q(b)}"] if a != b else [f"city = {_q(a)}"]
            if d['transportation'] != '-': out.append(_tm_leg(d['transportation']))
        for k in ('breakfast', 'attraction', 'lunch', 'dinner', 'accommodation'):
            old = None
            if k in _MEALS and (i, k) in meals: old = val(k, _with_name(d[k], meals[(i, k)]))
            if k == 'attraction' and i in sights:
                pos, x = sights[i]
                at = _attractions(d[k])
                old = val(k, ';'.join(at[:pos] + [x] + at[pos:]))
            if k == 'accommodation' and (sd := next(((a0, x) for (a0, b0), x in stays.items() if a0 == i), None)):
                old = val(k, _with_name(d[k], sd[1]))
            if old is not None: out.append(f"{cm}{key(k)} = {old}  {cm}{r.choice(_TM_WHY[k if k in _TM_WHY else 'meal'])}")
            if (v := val(k, d[k])) is not None: out.append(f"{key(k)} = {v}")
        out.append('')
    return '\n'.join(out[:-1] + ['```', '', "Comments mark what I swapped out; they are ignored when the file is loaded."])


_SL_INTRO = {True: ("Here's the trip as a slide deck (Marp markdown) — the speaker notes hold the meals:",
                    "I turned the itinerary into Marp slides you can present to the group:"),
             False: ("Here's the trip as a reveal.js markdown deck — the meals are in the speaker notes:",
                     "I turned the itinerary into slides (reveal.js markdown) you can present to the group:")}
_SL_OUTRO = ("Export to PDF from Marp, or present straight from VS Code.", "Want a map slide too?")


def _sl_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ {p['number']} · {p['a']} → {p['b']} · {p['dep']} → {p['arr']}"
    return f"{'🚕 Taxi' if p['mode'] == 'taxi' else '🚗 Self-drive'} · {p['a']} → {p['b']} · {p['duration']} · ${p['cost']}"


def slide_deck(plan, task, ph):
    """A slide deck in a ```markdown block (Marp front matter and "<!-- Speaker notes: ... -->" comments, or reveal.js
    "Note:" lines), slides between '---' lines: a title slide ("# A → B", "### 3 days · Wed 16 Mar – Fri 18 Mar 2022"),
    "## Slide 2 — The route" (a numbered line per day, "1. Day 1 · Wed 16 Mar — A → B": the ONLY place of the route),
    then per day "## Slide 3 — Day 1 · Wed 16 Mar" with bullets for the leg ("- ✈️ F1 · A → B · 15:40 → 17:04" / "- 🚗
    Self-drive · A → B · 3 hours 11 mins · $120"), the sights ("- 🏛️ X ⇒ Y", the drawn join) and, in some renderings,
    the night ("- 🏨 X" / "- 🏠 No hotel — heading home"); the MEALS only in the speaker notes ("- For lunch: X" in the
    drawn label, "- (no breakfast)" or left out). In the other renderings the stays only on a closing "Where we sleep"
    slide (a table Check-in | Check-out | Nights | Stay). In some renderings a last "Plan B (not booked)" slide of
    DECOYS ("- Day 2 lunch: Y — only if X is full", "- Nights of Day 1–2: Y — only if X falls through")."""
    r = ph.rng
    marp, stays_last, say_none = r.random() < 0.5, r.random() < 0.5, r.random() < 0.5
    meals, stays, sights = _revision_decoys(plan, r, (0, 1))
    planb = r.random() < 0.6 and bool(meals or stays or sights)
    org, dest, n = _get(task, 'org'), _get(task, 'dest'), len(plan)
    out = ['---', 'marp: true', 'paginate: true', '---', ''] if marp else []
    out += [f"# {org} → {dest}", f"### {n} days · {_fd(task, 0, 'dm')} – {_fd(task, n - 1, 'dm')} {_date(task, n - 1).year}",
            '', '---', '', '## Slide 2 — The route']
    out += [f"{d['days']}. Day {d['days']} · {_fd(task, i, 'dm')} — {_rt(d['current_city'])}" for i, d in enumerate(plan)]
    s = 2
    for i, d in enumerate(plan):
        s += 1
        out += ['', '---', '', f"## Slide {s} — Day {d['days']} · {_fd(task, i, 'dm')}"]
        bullets = [f"- {_sl_leg(d['transportation'])}"] if d['transportation'] != '-' else []
        if (at := _attractions(d['attraction'])): bullets.append(f"- 🏛️ {ph.items(at)}")
        if not stays_last:
            bullets.append(f"- 🏨 {ph.venue(d['accommodation'])}" if d['accommodation'] != '-' else "- 🏠 No hotel — heading home")
        notes = [ph.meal(m.capitalize(), d[m]) if d[m] != '-' else f"(no {m})" for m in _MEALS if d[m] != '-' or say_none]
        out += (bullets or ['- 🌤️ Free day']) + ['']
        out += ['<!--', 'Speaker notes:'] + [f"- {x}" for x in notes or ['Meals: nothing booked']] + ['-->'] if marp else \
            ['Note:'] + [f"- {x}" for x in notes or ['Meals: nothing booked']]
    if stays_last:
        s += 1
        out += ['', '---', '', f"## Slide {s} — Where we sleep", '', '| Check-in | Check-out | Nights | Stay |', '|---|---|---|---|']
        for a, b, acc in _day_runs(plan):
            out.append(f"| {_fd(task, a, 'dm')} | {_fdate(_date(task, b) + _DAY_SPAN, 'dm')} | {b - a + 1} | {_cell(ph.venue(acc))} |")
    if planb:
        s += 1
        out += ['', '---', '', f"## Slide {s} — Plan B (not booked)"]
        out += [f"- Day {plan[i]['days']} {m}: {x} — only if {_nm(plan[i][m])} is full" for (i, m), x in meals.items()]
        out += [f"- {_nights(plan, a, b)}: {x} — only if {_nm(plan[a]['accommodation'])} falls through" for (a, b), x in stays.items()]
        out += [f"- Day {plan[i]['days']}, extra sight: {ph.venue(x)} — only if there's time" for i, (_, x) in sights.items()]
    return '\n'.join([r.choice(_SL_INTRO[marp]), '', '```markdown'] + out + ['```', '', r.choice(_SL_OUTRO)])


_DITTO = ('〃', '↑ same', '″', '')
_DT_INTRO = ("Here's a table for each day (times for meals and sights are suggestions)", "Day-by-day schedule, one table per day")


def _dt_leg(t: str) -> tuple[int, str, str, str]:
    "(sort minute, Time, Activity, City) of a leg row."
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        h, m = map(int, p['dep'].split(':'))
        return h * 60 + m, f"{p['dep']}–{p['arr']}", f"✈️ Flight {p['number']}", f"{p['a']} → {p['b']}"
    return 450, '07:30', f"{'🚕 Taxi' if p['mode'] == 'taxi' else '🚗 Self-drive'} · {p['duration']} · ${p['cost']}", f"{p['a']} → {p['b']}"


def day_tables_ditto(plan, task, ph):
    """One markdown table per day under "### Day 2 · 17/03/2022 · Rockford" (or "· Thu 17 Mar ·"): columns Time |
    Activity | Place | City, rows in time order — the leg ("15:40–17:04 | ✈️ Flight F1 | — | A → B", "07:30 | 🚗
    Self-drive · 3 hours 11 mins · $120 | — | A → B"), meals ("Lunch") and sights ("Sightseeing") at suggested times
    with the name in Place and the city in City, the night last ("🌙 | Overnight | X | City", "— (heading home)"); a cell
    equal to the one above (a run of sights in Activity; the same city in City) written with the drawn ditto mark ('〃',
    '↑ same', '″') or LEFT EMPTY as a merged cell; an empty meal "— | Dinner | *(none)* | —" or left out; '|' in a name
    escaped '\\|'."""
    r = ph.rng
    mark, say_none, datef = r.choice(_DITTO), r.random() < 0.5, r.choice(('dmy', 'dm'))
    legend = f" — {mark} means the same as the row above:" if mark else " — an empty cell repeats the row above:"
    out = [r.choice(_DT_INTRO) + legend, '']
    for i, d in enumerate(plan):
        out += [f"### Day {d['days']} · {_fd(task, i, datef)} · {_rt(d['current_city'])}", '',
                '| Time | Activity | Place | City |', '|:--|:--|:--|:--|']
        rows = []
        if d['transportation'] != '-':
            t, tm, act, city = _dt_leg(d['transportation'])
            rows.append((t, tm, act, '—', city))
        for t, kind, v in _timed(d):
            n, c = _name_city(v)
            rows.append((t, _hm(t), 'Sightseeing' if kind == 'sight' else kind.capitalize(), n, c or '—'))
        if say_none:
            rows += [({'breakfast': 480, 'lunch': 750, 'dinner': 1140}[m], '—', m.capitalize(), '*(none)*', '—') for m in _MEALS if d[m] == '-']
        rows.sort(key=lambda x: x[0])
        n, c = _name_city(d['accommodation'])
        rows.append((0, '🌙', 'Overnight', n, c or '—') if d['accommodation'] != '-' else (0, '🌙', 'Overnight', '— (heading home)', '—'))
        pa = pc = None
        for _, tm, act, place, city in rows:
            a2 = mark if act == pa == 'Sightseeing' else act
            c2 = mark if city == pc and city != '—' and ' → ' not in city else city
            pa, pc = act, city
            out.append(f"| {tm} | {a2} | {_cell(place)} | {_cell(c2)} |".replace('|  |', '| |'))
        out.append('')
    return '\n'.join(out + ["Let me know if you'd like the times shifted."])


_RPT = {
    'ru': dict(labels=('Транспорт', 'Завтрак', 'Достопримечательности', 'Обед', 'Ужин', 'Ночлег'), none='—', none_stay='— (отъезд домой)',
               months='января февраля марта апреля мая июня июля августа сентября октября ноября декабря'.split(),
               wd='понедельник вторник среда четверг пятница суббота воскресенье'.split(),
               units={'day': 'д', 'hour': 'ч', 'min': 'мин'}, joins={', later ': ', затем ', ' — then ': ' — потом '},
               flight='рейс {n}: {a} → {b}, вылет {dep}, прилёт {arr}', road='{how}: {a} → {b}, ~{dur}, ${cost}',
               how={'drive': 'на своей машине', 'taxi': 'такси'},
               fre=r'рейс (\S+): (.+) → (.+), вылет (\d\d:\d\d), прилёт (\d\d:\d\d)', rre=r'(на своей машине|такси): (.+) → (.+), ~(.+), \$(\d+)',
               intro=("Вот ваш маршрут по дням:", "Готово! План поездки:"), outro="Хорошей поездки!"),
    'pl': dict(labels=('Dojazd', 'Śniadanie', 'Zwiedzanie', 'Obiad', 'Kolacja', 'Nocleg'), none='brak', none_stay='brak (powrót do domu)',
               months='stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia'.split(),
               wd='poniedziałek wtorek środa czwartek piątek sobota niedziela'.split(),
               units={'day': 'dz.', 'hour': 'godz.', 'min': 'min'}, joins={', later ': ', później ', ' — then ': ' — potem '},
               flight='lot {n}: {a} → {b}, wylot {dep}, przylot {arr}', road='{how}: {a} → {b}, ok. {dur}, {cost} USD',
               how={'drive': 'własnym autem', 'taxi': 'taksówka'},
               fre=r'lot (\S+): (.+) → (.+), wylot (\d\d:\d\d), przylot (\d\d:\d\d)', rre=r'(własnym autem|taksówka): (.+) → (.+), ok\. (.+), (\d+) USD',
               intro=("Oto plan podróży dzień po dniu:", "Proszę, oto gotowy plan wyjazdu:"), outro="Udanej podróży!"),
    'tr': dict(labels=('Ulaşım', 'Kahvaltı', 'Gezilecek yerler', 'Öğle yemeği', 'Akşam yemeği', 'Konaklama'), none='yok',
               none_stay='yok (dönüş günü)', months='Ocak Şubat Mart Nisan Mayıs Haziran Temmuz Ağustos Eylül Ekim Kasım Aralık'.split(),
               wd='Pazartesi Salı Çarşamba Perşembe Cuma Cumartesi Pazar'.split(),
               units={'day': 'gün', 'hour': 'sa', 'min': 'dk'}, joins={', later ': ', ardından ', ' — then ': ' — sonra '},
               flight='uçuş {n}: {a} → {b}, kalkış {dep}, varış {arr}', road='{how}: {a} → {b}, yaklaşık {dur}, {cost} $',
               how={'drive': 'kendi aracınızla', 'taxi': 'taksi'},
               fre=r'uçuş (\S+): (.+) → (.+), kalkış (\d\d:\d\d), varış (\d\d:\d\d)', rre=r'(kendi aracınızla|taksi): (.+) → (.+), yaklaşık (.+), (\d+) \$',
               intro=("İşte gün gün seyahat planınız:", "Hazır! Gezi planınız aşağıda:"), outro="İyi yolculuklar!"),
}


def _rhead(lg, k, task, i) -> str:
    "The day head up to the route: '### День 2 · четверг, 17 марта 2022 г.' | '### Dzień 2 · czwartek, 17 marca 2022' | '### 2. Gün · 17 Mart 2022 Perşembe'."
    d, L = _date(task, i), _RPT[lg]
    mo, wd = L['months'][d.month - 1], L['wd'][d.weekday()]
    return {'ru': f"### День {k} · {wd}, {d.day} {mo} {d.year} г.", 'pl': f"### Dzień {k} · {wd}, {d.day} {mo} {d.year}",
            'tr': f"### {k}. Gün · {d.day} {mo} {d.year} {wd}"}[lg]


def _rdur(lg, s) -> str: return ' '.join(f"{n} {_RPT[lg]['units'][u]}" for n, u in _dur_key(s))


def _unrdur(lg, s) -> str:
    back = {w: u for u, w in _RPT[lg]['units'].items()}
    parts = re.findall(r'(\d+) (' + '|'.join(map(re.escape, back)) + r')(?= |$)', s)
    if ' '.join(f"{n} {w}" for n, w in parts) != s: raise ValueError(f"duration {s!r}")
    return ' '.join(f"{n} {back[w]}" for n, w in parts)


def _rleg(lg, t) -> str:
    p, L = _leg_parts(t), _RPT[lg]
    if p['mode'] == 'flight': return L['flight'].format(n=p['number'], a=p['a'], b=p['b'], dep=p['dep'], arr=p['arr'])
    return L['road'].format(how=L['how'][p['mode']], a=p['a'], b=p['b'], dur=_rdur(lg, p['duration']), cost=p['cost'])


def ru_pl_tr_labels(plan, task, ph):
    """The answer in Russian, Polish or Turkish (drawn): day heads "### День 2 · четверг, 17 марта 2022 г. · Rockford" /
    "### Dzień 2 · czwartek, 17 marca 2022 · A → B" / "### 2. Gün · 17 Mart 2022 Perşembe · Rockford", then bullets with
    bold labels in the order of the day: Транспорт / Dojazd / Ulaşım ("рейс F1: A → B, вылет 15:40, прилёт 17:04", "lot
    F1: A → B, wylot 15:40, przylot 17:04", "uçuş F1: A → B, kalkış 15:40, varış 17:04"; road legs "на своей машине: A
    → B, ~3 ч 11 мин, $120", "własnym autem: A → B, ok. 3 godz. 11 min, 120 USD", "kendi aracınızla: A → B, yaklaşık 3
    sa 11 dk, 120 $", taxis такси / taksówka / taksi), Завтрак / Śniadanie / Kahvaltı, Достопримечательности / Zwiedzanie /
    Gezilecek yerler, Обед / Obiad / Öğle yemeği (LUNCH in all three), Ужин / Kolacja / Akşam yemeği, Ночлег / Nocleg /
    Konaklama; an empty slot '—' / 'brak' / 'yok' or left out (drawn); the placement translated ('X (в City, ST)', 'X —
    г. City', 'X (w City, ST)', 'X — m. City', 'X (City, ST)', 'X — City şehrinde'), the joins ', затем ', ' — потом ',
    ', później ', ' — potem ', ', ardından ', ' — sonra '; names and cities verbatim."""
    r = ph.rng
    lg = r.choice(tuple(_RPT))
    L, say_none = _RPT[lg], r.random() < 0.5
    join = L['joins'].get(ph.join, ph.join)
    lab = lambda k, v: f"- **{L['labels'][k]}:** {v}"
    out = [r.choice(L['intro']), '']
    for i, d in enumerate(plan):
        out.append(f"{_rhead(lg, d['days'], task, i)} · {_rt(d['current_city'])}")
        if d['transportation'] != '-': out.append(lab(0, _rleg(lg, d['transportation'])))
        elif say_none: out.append(lab(0, L['none']))
        for k, m in ((1, 'breakfast'), (2, 'attraction'), (3, 'lunch'), (4, 'dinner')):
            if m == 'attraction':
                at = _attractions(d['attraction'])
                if at or say_none: out.append(lab(k, join.join(_venue(ph, x, lg) for x in at) if at else L['none']))
            elif d[m] != '-' or say_none: out.append(lab(k, _venue(ph, d[m], lg) if d[m] != '-' else L['none']))
        acc = d['accommodation']
        if acc != '-' or say_none: out.append(lab(5, _venue(ph, acc, lg) if acc != '-' else L['none_stay']))
        out.append('')
    return '\n'.join(out + [L['outro']])


_KEYCAP = lambda k: f"{k}\ufe0f\u20e3"
_E = dict(fly='✈️', car='🚗', taxi='🚕', breakfast='🍳', lunch='🥪', dinner='🍝', sight='🏛️', bed='🛏️', arrow=' ➡️ ')
_E_NONE = ('❌', '🚫', '—')
_E_INTRO = ("Day-by-day 👇", "Here you go — the whole trip at a glance 🧳")
_E_KEY = "Key: ✈️ 🚗 🚕 getting there · 🍳 breakfast · 🏛️ sights · 🥪 lunch · 🍝 dinner · 🛏️ night"
_E_OUTRO = ("Have fun! 🎉", "✨ Safe travels! ✨")


def _edur(s) -> str: return ' '.join(f"{n}{u[0]}" for n, u in _dur_key(s))


def _unedur(s) -> str:
    parts = re.findall(r'(\d+)([dhm])', s)
    if ' '.join(f"{n}{u}" for n, u in parts) != s: raise ValueError(f"duration {s!r}")
    return ' '.join(f"{n} {dict(d='day', h='hour', m='min')[u]}" for n, u in parts)


def emoji_only(plan, task, ph):
    """Day-by-day with EMOJI-ONLY labels (an optional legend line first): a head per day "2️⃣ Thu 17/03 · Rockford" (keycap
    day numbers; "A ➡️ B" on a travel day), then one line per item in the order of the day — "✈️ F1 · A ➡️ B · 🛫 15:40 ·
    🛬 17:04" / "🚗 A ➡️ B · ⏱️ 3h 11m · 💵 $120" / "🚕 ...", "🍳 X", "🏛️ Y" (one line per sight in the order of the day,
    or all the day's sights on one line in the drawn join), "🥪 X", "🍝 X", "🛏️ X"; an empty meal or night written with
    the drawn mark ('❌', '🚫', '—': "🍳 ❌", "🛏️ ❌") or left out; venues in the drawn placement."""
    r = ph.rng
    none, legend, per_line = r.choice(_E_NONE + (None,)), r.random() < 0.5, r.random() < 0.5
    out = [r.choice(_E_INTRO)] + ([_E_KEY] if legend else []) + ['']
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        out.append(f"{_KEYCAP(d['days'])} {_fd(task, i, 'slash')} · " + (a if a == b else f"{a}{_E['arrow']}{b}"))
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            out.append(f"{_E['fly']} {p['number']} · {p['a']}{_E['arrow']}{p['b']} · 🛫 {p['dep']} · 🛬 {p['arr']}" if p['mode'] == 'flight' else
                       f"{_E['taxi' if p['mode'] == 'taxi' else 'car']} {p['a']}{_E['arrow']}{p['b']} · ⏱️ {_edur(p['duration'])} · 💵 ${p['cost']}")
        at = _attractions(d['attraction'])
        h = (len(at) + 1) // 2
        for m in _MEALS:
            if d[m] != '-': out.append(f"{_E[m]} {ph.venue(d[m])}")
            elif none: out.append(f"{_E[m]} {none}")
            if per_line and m != 'dinner': out += [f"{_E['sight']} {ph.venue(x)}" for x in (at[:h] if m == 'breakfast' else at[h:])]
            elif m == 'breakfast' and at: out.append(f"{_E['sight']} {ph.items(at)}")
        acc = d['accommodation']
        if acc != '-': out.append(f"{_E['bed']} {ph.venue(acc)}")
        elif none: out.append(f"{_E['bed']} {none}")
        out.append('')
    return '\n'.join(out + [r.choice(_E_OUTRO)])


_TR_WHY = ("it's closer to the hotel", "it has better reviews", "it's open that day")


def _tr_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"flight {p['number']}, {p['a']} → {p['b']}, {p['dep']} → {p['arr']}"
    return f"{'taxi' if p['mode'] == 'taxi' else 'self-drive'}, {p['a']} → {p['b']}, {p['duration']}, ${p['cost']}"


def _tr_final_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"flight {p['number']} · {p['a']} > {p['b']} · {p['dep']}-{p['arr']}"
    return f"{'taxi' if p['mode'] == 'taxi' else 'self-drive'} · {p['a']} > {p['b']} · {p['duration']} · ${p['cost']}"


def _tr_draft(plan, task, ph, meals, stays, sights) -> list[str]:
    "The first draft: the plan with the decoys in (a meal's other restaurant, another hotel on a run, an extra sight)."
    out = []
    for i, d in enumerate(plan):
        out += ['', f"#### Day {d['days']} — {_fd(task, i, 'mon')} — {_rt(d['current_city'])}"]
        if d['transportation'] != '-': out.append(f"- Travel: {_tr_leg(d['transportation'])}")
        at = _attractions(d['attraction'])
        if i in sights: at = at[:sights[i][0]] + [sights[i][1]] + at[sights[i][0]:]
        for m in _MEALS:
            if m == 'lunch' and at: out.append(f"- Sights: {ph.items(at)}")
            if d[m] != '-': out.append(f"- {ph.meal(m.capitalize(), _with_name(d[m], meals[(i, m)]) if (i, m) in meals else d[m])}")
        acc = d['accommodation']
        x = next((x for (a, b), x in stays.items() if a <= i <= b), None)
        out.append(f"- Stay: {ph.venue(_with_name(acc, x) if x else acc)}" if acc != '-' else "- Stay: none (last day)")
    return out


def _tr_final(plan, task, ph) -> list[str]:
    out = [f"FINAL ITINERARY · {_get(task, 'org')} → {_get(task, 'dest')} · {len(plan)} days"]
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        at = _attractions(d['attraction'])
        out += [f"DAY {d['days']} | {_fd(task, i, 'iso')} | " + (a if a == b else f"{a} > {b}"),
                f"  {'travel':<10} {_tr_final_leg(d['transportation']) if d['transportation'] != '-' else '-'}"]
        for k in ('breakfast', 'sights', 'lunch', 'dinner', 'stay'):
            v = d['accommodation'] if k == 'stay' else None if k == 'sights' else d[k]
            out.append(f"  {k:<10} " + ((ph.items(at) if at else '-') if k == 'sights' else ph.venue(v) if v != '-' else '-'))
    return out


def transcript_copy_paste(plan, task, ph):
    """A numbered conversation as a chat export: "**🧑 User (turn 1):** Plan a 3-day trip from A to B ...", "**🤖
    Assistant (turn 2):** Here's a first pass:" with a markdown DRAFT ("#### Day 2 — Thu, Mar 17 — Rockford", "- Travel:
    flight F1, A → B, 15:40 → 17:04", meals in the drawn label, "- Sights: X ⇒ Y", "- Stay: X") in which one to three
    slots differ from the plan (a meal's restaurant, the hotel of a run, an extra sight), "**🧑 User (turn 3):**" asking
    for those changes and a clean version, and "**🤖 Assistant (turn 4):** Done. Changes: Day 2 lunch: Y → X; Day 3
    sights: dropped Y; nights of day 1–2: Y → X. Final itinerary (copy-paste):" with a ```text block ("DAY 2 |
    2022-03-17 | Rockford" or "A > B", then "  travel     flight F1 · A > B · 15:40-17:04", "  breakfast  -", "  sights
    X ⇒ Y", "  lunch      X", "  dinner     -", "  stay       X"): the draft is a DECOY, the block is the plan."""
    r = ph.rng
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 2))
    org, dest, n = _get(task, 'org'), _get(task, 'dest'), len(plan)
    d0, dn = _date(task, 0), _date(task, n - 1)
    req, chg = [], []
    for (i, m), x in meals.items():
        req.append(f"not {x} for {m} on Day {plan[i]['days']}")
        chg.append(f"Day {plan[i]['days']} {m}: {x} → {_nm(plan[i][m])}")
    for i, (_, x) in sights.items():
        req.append(f"skip {_nm(x)} on Day {plan[i]['days']}")
        chg.append(f"Day {plan[i]['days']} sights: dropped {_nm(x)}")
    for (a, b), x in stays.items():
        req.append(f"a different hotel than {x}")
        chg.append(f"{_nights(plan, a, b).lower()}: {x} → {_nm(plan[a]['accommodation'])}")
    out = [f"**🧑 User (turn 1):** Plan a {n}-day trip from {org} to {dest}, {d0:%b} {d0.day}–{dn:%b} {dn.day}, {dn.year}, "
           f"for {_people(task)} {'person' if _people(task) == 1 else 'people'}.", '',
           "**🤖 Assistant (turn 2):** Here's a first pass — tell me what to change:"]
    out += _tr_draft(plan, task, ph, meals, stays, sights) + ['']
    out += ["**🧑 User (turn 3):** " + (f"Close! But: {'; '.join(req)}. " if req else "Looks great! ") +
            "Can you give me a clean version I can paste into my notes?", '']
    out += ["**🤖 Assistant (turn 4):** " + (f"Done. Changes: {'; '.join(chg)}. " if chg else "Sure — nothing else changes. ") +
            "Final itinerary (copy-paste):", '', '```text'] + _tr_final(plan, task, ph) + ['```']
    return '\n'.join(out)


_OB_INTRO = ("Here's the trip as an Obsidian note — drop it into your vault (the inline fields work with Dataview):",
             "I formatted the itinerary as a Markdown note for Obsidian; tick the tasks off as you go:")
_OB_WHY = {'meal': ("closed that day", "swapped for a closer place"), 'visit': ("no time left that day", "too far out")}


def _ob(ph, v) -> str: return _venue(ph, v, wrap=lambda n: f"[[{n}]]")


def _ob_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ {p['number']} · {p['a']} → {p['b']} · {p['dep']} → {p['arr']}"
    return f"{'🚕 taxi' if p['mode'] == 'taxi' else '🚗 self-drive'} · {p['a']} → {p['b']} · {p['duration']} · ${p['cost']}"


def obsidian_note(plan, task, ph):
    """An Obsidian note in a ```markdown block: YAML front matter (title, start, end, travelers, tags; in some renderings
    the stays as a `lodging:` list of name / city / check_in / check_out, then NOT in the days), "# A → B", then per day
    "## [[2022-03-17]] · Day 2" (or "## Day 2 — [[2022-03-17|Thu, Mar 17]]") with Dataview inline fields "route:: A → B",
    "travel:: ✈️ F1 · A → B · 15:40 → 17:04" (or "🚗 self-drive · A → B · 3 hours 11 mins · $120"), tasks in the order
    of the day "- [ ] breakfast:: [[X]] (in City, ST)" (the name a wikilink, the city in the drawn placement), "- [ ]
    visit:: [[Y]] ...", "- [ ] lunch:: ...", "- [ ] dinner:: ...", and "stay:: [[Z]] ..." / "stay:: — (last day)";
    an empty meal "- [ ] dinner:: —" or left out; cancelled DECOYS "- [-] ~~lunch:: [[Y]] ...~~ cancelled: closed that
    day" (a replaced restaurant, a dropped sight)."""
    r = ph.rng
    meals, _, sights = _revision_decoys(plan, r, (0, 1, 1))
    front, say_none, head_a = r.random() < 0.5, r.random() < 0.5, r.random() < 0.5
    org, dest, n = _get(task, 'org'), _get(task, 'dest'), len(plan)
    out = ['---', f"title: {_q(f'{org} → {dest}')}", f"start: {_fd(task, 0, 'iso')}", f"end: {_fd(task, n - 1, 'iso')}",
           f"travelers: {_people(task)}", 'tags: [trip, itinerary]']
    if front:
        out.append('lodging:')
        for a, b, acc in _day_runs(plan):
            nm, c = _name_city(acc)
            out += [f"  - name: {_q(nm)}", f"    city: {_q(c)}", f"    check_in: {_fd(task, a, 'iso')}",
                    f"    check_out: {(_date(task, b) + _DAY_SPAN).isoformat()}"]
    out += ['---', '', f"# {org} → {dest}"]
    for i, d in enumerate(plan):
        iso = _fd(task, i, 'iso')
        out += ['', f"## [[{iso}]] · Day {d['days']}" if head_a else f"## Day {d['days']} — [[{iso}|{_fd(task, i, 'mon')}]]",
                f"route:: {_rt(d['current_city'])}"]
        if d['transportation'] != '-': out.append(f"travel:: {_ob_leg(d['transportation'])}")
        at = _attractions(d['attraction'])
        seq = ([('breakfast', d['breakfast'])] + [('visit', x) for x in at[:(len(at) + 1) // 2]] + [('lunch', d['lunch'])] +
               [('visit', x) for x in at[(len(at) + 1) // 2:]] + [('dinner', d['dinner'])])
        if i in sights: seq.insert(1 + sights[i][0] + (sights[i][0] >= (len(at) + 1) // 2), ('-visit', sights[i][1]))
        for k, v in seq:
            if k == '-visit': out.append(f"- [-] ~~visit:: {_ob(ph, v)}~~ cancelled: {r.choice(_OB_WHY['visit'])}"); continue
            if k in _MEALS and (i, k) in meals: out.append(f"- [-] ~~{k}:: {_ob(ph, _with_name(v, meals[(i, k)]))}~~ cancelled: {r.choice(_OB_WHY['meal'])}")
            if v != '-': out.append(f"- [ ] {k}:: {_ob(ph, v)}")
            elif say_none: out.append(f"- [ ] {k}:: —")
        if not front: out.append(f"stay:: {_ob(ph, d['accommodation'])}" if d['accommodation'] != '-' else "stay:: — (last day)")
    return '\n'.join([r.choice(_OB_INTRO), '', '```markdown'] + out + ['```'])


HELDOUT10_LAYOUTS = {f.__name__: f for f in (email_to_companion, toml_ini, slide_deck, day_tables_ditto, ru_pl_tr_labels,
                                              emoji_only, transcript_copy_paste, obsidian_note)}
"""Held-out part v10 (layouts and `HELDOUT10_PHRASES`, rendered with `Phr10`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr10(HELDOUT10_PHRASES, random.Random(f"heldout10:{name}:{t.idx}:{j}"), p)


def renderings10(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout10:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT10_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser below, written for the layout (not a general reader): each rendering is read back into
# the plan's own values — the route as current_city ('from A to B' | 'A'), the leg as its parts (flight number, cities,
# times; or mode, cities, duration, cost), each meal and the stay as 'Name, City' or '-', the sights as ['Name, City',
# ...] — and compared with the plan EXACTLY (`_cmp` of layouts_v8). Decoys (P.S. lines, commented-out lines, Plan B,
# the draft, cancelled tasks) are resolved as the text says.


def _flight(num, a, b, dep, arr): return ('flight', num, a, b, dep, arr)


# email_to_companion ---------------------------------------------------------------------------------------------------
_EM_HEAD = re.compile(r'\*\*(?:Day (\d+) · ([^·*]+) · (.+)|([^*]+) \(Day (\d+)\): (.+))\*\*')
_EM_PARA = re.compile(
    r"(?:We fly (?P<fa>.+?) → (?P<fb>.+?) on (?P<fn>\S+), leaving at (?P<fd>\d\d:\d\d) and landing at (?P<fr>\d\d:\d\d)\."
    r"|We (?P<rm>drive ourselves|take a taxi) from (?P<ra>.+?) to (?P<rb>.+?) — about (?P<rd>.+?), \$(?P<rc>\d+)\."
    r"|No travel today\.)"
    r"(?: (?:We'll see|On the list:) (?P<at>.+?)\.)?"
    r" (?:We check in at (?P<ci>.+?)|Another night at (?P<an>.+?)|No hotel tonight — we head home|No hotel booked for tonight)\.", re.S)
_PS_MEAL = re.compile(r"I also looked at (.+) for (breakfast|lunch|dinner) on Day (\d+), but (.+) — so (?:we're sticking with (.+)|let's switch to (.+))\.")
_PS_STAY = re.compile(r"(.+) was an option for the nights? of day (\d+)(?:–(\d+))?, but (.+) — so (?:we're staying at (.+)|let's book (.+) instead)\.")
_PS_SIGHT = re.compile(r"I (left out|added) (.+) on Day (\d+) — (.+)\.")


def _read_email(text, task, plan, ph):
    errs, days, saids, prev = [], [], [], None
    ix = _dates(task, len(plan), 'long')
    lines = text.split('\n')
    heads = [j for j, ln in enumerate(lines) if _EM_HEAD.fullmatch(ln)]
    if not heads: return [], ['no day heads']
    if any(b - a != 4 for a, b in zip(heads, heads[1:])): errs.append('day blocks are not head / paragraph / food / blank')
    for j in heads:
        m = _EM_HEAD.fullmatch(lines[j])
        k, date, rt = (int(m[1]), m[2], m[3]) if m[1] else (int(m[5]), m[4], m[6])
        if k != len(days) + 1 or ix.get(date) != len(days): errs.append(f"head {lines[j]!r}")
        g, said = _blank(_back(rt)), []
        days.append(g); saids.append(said)
        para, food = (lines[j + 1:j + 3] + ['', ''])[:2]
        if lines[j + 3:j + 4] != ['']: errs.append(f"day {k}: block not closed")
        if not (p := _EM_PARA.fullmatch(para)): errs.append(f"day {k}: paragraph {para!r}"); continue
        if p['fn']: g['leg'] = _flight(p['fn'], p['fa'], p['fb'], p['fd'], p['fr'])
        elif p['rm']: g['leg'] = _road_key('taxi' if p['rm'] == 'take a taxi' else 'drive', p['ra'], p['rb'], p['rd'], p['rc'])
        if p['at']: g['attraction'] = _unitems(ph, p['at'])
        if p['ci']:
            g['accommodation'] = _unvenue(ph, p['ci'])
            if g['accommodation'] == prev: errs.append(f"day {k}: checks in again at {prev!r}")
        elif p['an']:
            g['accommodation'] = _unvenue(ph, p['an'])
            if g['accommodation'] != prev: errs.append(f"day {k}: 'another night' at {g['accommodation']!r} after {prev!r}")
        prev = g['accommodation'] if g['accommodation'] != '-' else None
        if not food.startswith('🍽 '): errs.append(f"day {k}: food line {food!r}"); continue
        f = food[2:]
        if f == _EM_NOFOOD:
            for mm in _MEALS: _said(said, mm, errs, f"day {k}: ")
            continue
        if (none := re.search(r' \(no ([a-z, ]+)\)$', f)):
            f = f[:none.start()]
            for x in none[1].split(', no '): _said(said, x, errs, f"day {k}: ")
        for x in f.split(' · '):
            if not (mm := _unmeal(ph, x)): errs.append(f"day {k}: meal {x!r}"); continue
            _said(said, mm[0], errs, f"day {k}: ")
            _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
    _all_said(saids, errs)
    day = lambda s: days[int(s) - 1] if 1 <= int(s) <= len(days) else None
    ps = [ln for ln in lines[heads[-1] + 4:] if ln.startswith('P.')]
    for n, ln in enumerate(ps):
        lab, _, s = ln.partition(' ')
        if n >= len(_PS) or lab != _PS[n]: errs.append(f"P.S. label {lab!r}")
        if (q := _PS_MEAL.fullmatch(s)) and (g := day(q[3])) and g[q[2]] != '-':
            if q[5] is not None and q[5] != _nm(g[q[2]]): errs.append(f"P.S. keeps {q[5]!r}, not the plan's {q[2]}")
            if q[6] is not None:
                if q[6] != q[1]: errs.append(f"P.S. switches to {q[6]!r}, not {q[1]!r}")
                g[q[2]] = _with_name(g[q[2]], q[6])
        elif (q := _PS_STAY.fullmatch(s)) and day(q[2]) and day(q[3] or q[2]):
            for kk in range(int(q[2]), int(q[3] or q[2]) + 1):
                g = days[kk - 1]
                if g['accommodation'] == '-': errs.append(f"P.S. about a stay on night {kk} without one"); continue
                if q[5] is not None and q[5] != _nm(g['accommodation']): errs.append(f"P.S. keeps {q[5]!r}, not the stay of night {kk}")
                if q[6] is not None: g['accommodation'] = _with_name(g['accommodation'], q[6])
        elif (q := _PS_SIGHT.fullmatch(s)) and (g := day(q[3])):
            v = _unvenue(ph, q[2])
            if q[1] == 'added': g['attraction'].append(v)
            elif v in g['attraction']: errs.append(f"P.S. leaves out {v!r}, which the day has")
        else: errs.append(f"P.S. {ln!r}")
    return days, errs


# toml_ini -------------------------------------------------------------------------------------------------------------
_TM_KEYS = {'day', 'date', 'from', 'to', 'city', 'travel', 'breakfast', 'sights', 'lunch', 'dinner', 'stay'}


def _tm_unvenue(ph, v) -> str:
    if isinstance(v, dict):
        if set(v) != {'name', 'city'}: raise ValueError(f"venue table {v!r}")
        return f"{v['name']}, {v['city']}" if v['city'] else v['name']
    return _unvenue(ph, v)


def _tm_leg_back(t: dict):
    tm = lambda x: f"{x:%H:%M}" if isinstance(x, datetime.time) and not x.second else (_ for _ in ()).throw(ValueError(f"time {x!r}"))
    if t.get('mode') == 'flight' and set(t) == {'mode', 'number', 'from', 'to', 'depart', 'arrive'}:
        return _flight(t['number'], t['from'], t['to'], tm(t['depart']), tm(t['arrive']))
    if t.get('mode') in ('self-driving', 'taxi') and set(t) == {'mode', 'from', 'to', 'duration', 'cost_usd'} and isinstance(t['cost_usd'], int):
        return _road_key('taxi' if t['mode'] == 'taxi' else 'drive', t['from'], t['to'], t['duration'], str(t['cost_usd']))
    raise ValueError(f"travel {t!r}")


def _read_toml(body, task, plan, ph):
    data, errs, days = tomllib.loads(body), [], []
    if set(data) != {'trip', 'days'}: errs.append(f"tables {sorted(data)}")
    for k, dd in enumerate(data.get('days', []), 1):
        if set(dd) - _TM_KEYS: errs.append(f"day {k}: keys {sorted(set(dd) - _TM_KEYS)}")
        if dd.get('day') != k or dd.get('date') != _date(task, k - 1): errs.append(f"day {k}: numbered {dd.get('day')}, dated {dd.get('date')}")
        if ('city' in dd) == ('from' in dd or 'to' in dd): errs.append(f"day {k}: route keys"); continue
        g = _blank(dd['city'] if 'city' in dd else _cc(dd['from'], dd['to']))
        days.append(g)
        if 'travel' in dd: g['leg'] = _tm_leg_back(dd['travel'])
        for key, slot in (('breakfast', 'breakfast'), ('lunch', 'lunch'), ('dinner', 'dinner'), ('stay', 'accommodation')):
            if dd.get(key, '') != '': g[slot] = _tm_unvenue(ph, dd[key])
        g['attraction'] = [_tm_unvenue(ph, x) for x in dd.get('sights', [])]
    return days, errs


def _read_ini(body, task, plan, ph):
    errs, secs = [], []
    for ln in body.split('\n'):
        if not ln.strip() or ln.startswith(';'): continue
        if (m := re.fullmatch(r'\[(\w+)\]', ln)): secs.append((m[1], {})); continue
        key, sep, v = ln.partition(' = ')
        if not sep or not secs: errs.append(f"line {ln!r}"); continue
        if key in secs[-1][1]: errs.append(f"[{secs[-1][0]}] {key} given twice")
        secs[-1][1][key] = v
    if not secs or secs[0][0] != 'trip': errs.append('no [trip]')
    days = []
    for k, (name, d) in enumerate(secs[1:], 1):
        if name != f"day{k}" or d.get('date') != _fd(task, k - 1, 'iso'): errs.append(f"section [{name}] dated {d.get('date')}")
        if set(d) - {'date', 'route', 'city', 'travel', 'breakfast', 'sights', 'lunch', 'dinner', 'hotel'} or ('route' in d) == ('city' in d):
            errs.append(f"[{name}] keys {sorted(d)}"); continue
        g = _blank(_back(d['route'], ' -> ') if 'route' in d else d['city'])
        days.append(g)
        if 'travel' in d:
            if (q := re.fullmatch(r'flight (\S+), (.+) -> (.+), (\d\d:\d\d)-(\d\d:\d\d)', d['travel'])): g['leg'] = _flight(*q.groups())
            elif (q := re.fullmatch(r'(self-driving|taxi), (.+) -> (.+), (.+), \$(\d+)', d['travel'])):
                g['leg'] = _road_key('taxi' if q[1] == 'taxi' else 'drive', *q.groups()[1:])
            else: errs.append(f"[{name}] travel {d['travel']!r}")
        for key, slot in (('breakfast', 'breakfast'), ('lunch', 'lunch'), ('dinner', 'dinner'), ('hotel', 'accommodation')):
            if d.get(key, 'none') != 'none': g[slot] = _unvenue(ph, d[key])
        if d.get('sights', 'none') != 'none': g['attraction'] = _unitems(ph, d['sights'])
    return days, errs


def _read_config(text, task, plan, ph):
    m = re.search(r'```(toml|ini)\n(.*?)\n```', text, re.S)
    if not m: return [], ['no toml / ini block']
    return (_read_toml if m[1] == 'toml' else _read_ini)(m[2], task, plan, ph)


# slide_deck -----------------------------------------------------------------------------------------------------------
def _read_slides(text, task, plan, ph):
    m = re.search(r'```markdown\n(.*?)\n```', text, re.S)
    if not m: return [], ['no deck']
    errs, days, saids, later = [], [], [], []
    chunks = [[]]
    for ln in m[1].split('\n'):
        if ln == '---': chunks.append([])
        elif ln.strip(): chunks[-1].append(ln)
    chunks = [c for c in chunks if c]
    if chunks and chunks[0] == ['marp: true', 'paginate: true']: chunks = chunks[1:]
    if not chunks or not chunks[0][0].startswith('# '): return [], ['no title slide']
    ix = _dates(task, len(plan), 'dm', extra=2)
    nxt, day_i, any_none = 2, 0, False
    for c in chunks[1:]:
        h = re.fullmatch(r'## Slide (\d+) — (.+)', c[0])
        if not h or int(h[1]) != nxt: errs.append(f"slide head {c[0]!r} (slide {nxt})")
        if not h: continue
        nxt, title, body = int(h[1]) + 1, h[2], c[1:]
        if title == 'The route':
            for ln in body:
                q = re.fullmatch(r'(\d+)\. Day (\d+) · (.+?) — (.+)', ln)
                if not q or q[1] != q[2] or int(q[2]) != len(days) + 1 or ix.get(q[3]) != len(days): errs.append(f"route line {ln!r}"); continue
                days.append(_blank(_back(q[4]))); saids.append([])
        elif (q := re.fullmatch(r'Day (\d+) · (.+)', title)):
            k = int(q[1])
            if k != day_i + 1 or k > len(days) or ix.get(q[2]) != k - 1: errs.append(f"day slide {title!r}"); continue
            day_i, g, said, notes = k, days[k - 1], saids[k - 1], False
            for ln in body:
                if ln in ('<!--', '-->'): continue
                if ln in ('Speaker notes:', 'Note:'): notes = True; continue
                if not ln.startswith('- '): errs.append(f"day {k}: line {ln!r}"); continue
                x = ln[2:]
                if notes:
                    if x == 'Meals: nothing booked':
                        for mm in _MEALS: _said(said, mm, errs, f"day {k}: ")
                    elif (w := re.fullmatch(r'\(no (breakfast|lunch|dinner)\)', x)): any_none = True; _said(said, w[1], errs, f"day {k}: ")
                    elif (mm := _unmeal(ph, x)):
                        _said(said, mm[0], errs, f"day {k}: ")
                        _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
                    else: errs.append(f"day {k}: note {x!r}")
                elif (w := re.fullmatch(r'✈️ (\S+) · (.+) → (.+) · (\d\d:\d\d) → (\d\d:\d\d)', x)): _put(g, 'leg', _flight(*w.groups()), errs)
                elif (w := re.fullmatch(r'(🚕 Taxi|🚗 Self-drive) · (.+) → (.+) · (.+) · \$(\d+)', x)):
                    _put(g, 'leg', _road_key('taxi' if w[1] == '🚕 Taxi' else 'drive', *w.groups()[1:]), errs)
                elif x.startswith('🏛️ '):
                    if g['attraction']: errs.append(f"day {k}: sights twice")
                    g['attraction'] = _unitems(ph, x[3:])
                elif x.startswith('🏨 '): _put(g, 'accommodation', _unvenue(ph, x[2:]), errs, f"day {k}: ")
                elif x not in ('🏠 No hotel — heading home', '🌤️ Free day'): errs.append(f"day {k}: bullet {x!r}")
        elif title == 'Where we sleep':
            for ln in body:
                if re.fullmatch(r'\|(?::?-+:?\|)+', ln) or (cs := _cells(ln)) == ['Check-in', 'Check-out', 'Nights', 'Stay']: continue
                if len(cs) != 4 or ix.get(cs[0]) is None or ix.get(cs[1]) is None or not cs[2].isdigit():
                    errs.append(f"stay row {ln!r}"); continue
                a, b = ix[cs[0]], ix[cs[1]]
                if b - a != int(cs[2]) or b <= a: errs.append(f"stay row {ln!r}: nights")
                for j in range(a, b):
                    if j >= len(days): errs.append(f"stay {cs[3]!r} on night {j + 1}, after the trip"); break
                    _put(days[j], 'accommodation', _unvenue(ph, cs[3]), errs, f"night {j + 1}: ")
        elif title == 'Plan B (not booked)': later += body
        else: errs.append(f"slide {title!r}")
    if day_i != len(days): errs.append(f"{day_i} day slides for {len(days)} days")
    for ln in later:                                         # the Plan B lines name the plan's choice they back up
        if (q := re.fullmatch(r'- Day (\d+) (breakfast|lunch|dinner): (.+) — only if (.+) is full', ln)):
            k = int(q[1])
            if not 1 <= k <= len(days) or _nm(days[k - 1][q[2]]) != q[4]: errs.append(f"Plan B {ln!r}: not the plan's {q[2]}")
        elif (q := re.fullmatch(r'- Nights? of Day (\d+)(?:–(\d+))?: (.+) — only if (.+) falls through', ln)):
            if any(not 1 <= k <= len(days) or _nm(days[k - 1]['accommodation']) != q[4] for k in range(int(q[1]), int(q[2] or q[1]) + 1)):
                errs.append(f"Plan B {ln!r}: not the plan's stay")
        elif (q := re.fullmatch(r"- Day (\d+), extra sight: (.+) — only if there's time", ln)):
            k = int(q[1])
            if not 1 <= k <= len(days) or _unvenue(ph, q[2]) in days[k - 1]['attraction']: errs.append(f"Plan B {ln!r}: a sight of the plan")
        else: errs.append(f"Plan B line {ln!r}")
    if any_none: _all_said(saids, errs)
    return days, errs


# day_tables_ditto -----------------------------------------------------------------------------------------------------
def _read_tables(text, task, plan, ph):
    errs, days, saids, any_none = [], [], [], False
    ix = {**_dates(task, len(plan), 'dmy'), **_dates(task, len(plan), 'dm')}
    pa = pc = None
    for ln in text.split('\n'):
        if ln.startswith('### '):
            h = re.fullmatch(r'### Day (\d+) · (.+?) · (.+)', ln)
            if not h or int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}"); continue
            days.append(_blank(_back(h[3]))); saids.append([]); pa = pc = None
            continue
        if not ln.startswith('|'): continue
        if re.fullmatch(r'\|(?::?-+:?\|)+', ln) or (cs := _cells(ln)) == ['Time', 'Activity', 'Place', 'City']: continue
        if len(cs) != 4 or not days: errs.append(f"row {ln!r}"); continue
        tm, act, place, city = cs
        g, k, said = days[-1], len(days), saids[-1]
        if act in _DITTO:
            if pa != 'Sightseeing': errs.append(f"day {k}: ditto activity after {pa!r}")
            act = pa
        if city in _DITTO:
            if pc is None or pc == '—' or ' → ' in pc: errs.append(f"day {k}: ditto city after {pc!r}")
            city = pc
        pa, pc = act, city
        venue = place if city == '—' else f"{place}, {city}"
        if act.startswith('✈️ Flight '):
            q, (a, b) = re.fullmatch(r'(\d\d:\d\d)–(\d\d:\d\d)', tm), city.split(' → ')
            if place != '—': errs.append(f"day {k}: flight row {cs}")
            _put(g, 'leg', _flight(act[len('✈️ Flight '):], a, b, q[1], q[2]), errs)
        elif (q := re.fullmatch(r'(🚕 Taxi|🚗 Self-drive) · (.+) · \$(\d+)', act)):
            a, b = city.split(' → ')
            _put(g, 'leg', _road_key('taxi' if q[1] == '🚕 Taxi' else 'drive', a, b, q[2], q[3]), errs)
        elif act in ('Breakfast', 'Lunch', 'Dinner'):
            _said(said, act.lower(), errs, f"day {k}: ")
            if place == '*(none)*': any_none = True
            else: _put(g, act.lower(), venue, errs, f"day {k}: ")
        elif act == 'Sightseeing': g['attraction'].append(venue)
        elif act == 'Overnight':
            if tm != '🌙': errs.append(f"day {k}: overnight at {tm!r}")
            if place != '— (heading home)': _put(g, 'accommodation', venue, errs, f"day {k}: ")
        else: errs.append(f"day {k}: row {cs}")
    if any_none: _all_said(saids, errs)
    return days, errs


# ru_pl_tr_labels ------------------------------------------------------------------------------------------------------
_RPT_KEYS = ('leg', 'breakfast', 'attraction', 'lunch', 'dinner', 'accommodation')


def _read_rpt(text, task, plan, ph):
    lg = next((lg for lg in _RPT if _rhead(lg, 1, task, 0) + ' · ' in text), None)
    if lg is None: return [], ['language not found']
    L, errs, days, seen, any_none = _RPT[lg], [], [], [], False
    join = L['joins'].get(ph.join, ph.join)
    labels = {f"- **{w}:** ": k for k, w in zip(_RPT_KEYS, L['labels'])}
    for ln in text.splitlines():
        if ln.startswith('### '):
            want = _rhead(lg, len(days) + 1, task, len(days)) + ' · ' if len(days) < len(plan) else None
            if not want or not ln.startswith(want): errs.append(f"head {ln!r}"); continue
            days.append(_blank(_back(ln[len(want):]))); seen.append([])
            continue
        if not ln.strip() or ln in L['intro'] or ln == L['outro']: continue
        hit = [(p, k) for p, k in labels.items() if ln.startswith(p)]
        if not days or len(hit) != 1: errs.append(f"line {ln!r}"); continue
        (p, key), g, v = hit[0], days[-1], ln[len(hit[0][0]):]
        if seen[-1] and _RPT_KEYS.index(key) <= _RPT_KEYS.index(seen[-1][-1]): errs.append(f"day {len(days)}: {key} out of order")
        seen[-1].append(key)
        if v == L['none'] or (key == 'accommodation' and v == L['none_stay']): any_none = True; continue
        if key == 'leg':
            if (q := re.fullmatch(L['fre'], v)): g['leg'] = _flight(*q.groups())
            elif (q := re.fullmatch(L['rre'], v)):
                g['leg'] = _road_key('taxi' if q[1] == L['how']['taxi'] else 'drive', q[2], q[3], _unrdur(lg, q[4]), q[5])
            else: errs.append(f"leg {v!r}")
        elif key == 'attraction': g['attraction'] = _unitems(ph, v, join, lg)
        else: g[key] = _unvenue(ph, v, lg)
    if any_none:
        for k, s in enumerate(seen, 1):
            if s != list(_RPT_KEYS): errs.append(f"day {k}: labels {s}")
    return days, errs


# emoji_only -----------------------------------------------------------------------------------------------------------
def _read_emoji(text, task, plan, ph):
    errs, days, saids, any_none = [], [], [], False
    ix = _dates(task, len(plan), 'slash')
    slots = {_E['breakfast']: 'breakfast', _E['lunch']: 'lunch', _E['dinner']: 'dinner', _E['bed']: 'accommodation'}
    arrow = _E['arrow']
    for ln in text.splitlines():
        if (h := re.fullmatch(r'(\d)\ufe0f\u20e3 (.+?) · (.+)', ln)):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h[3], arrow))); saids.append([])
            continue
        if not ln.strip() or ln in _E_INTRO or ln in _E_OUTRO or ln == _E_KEY: continue
        e, _, v = ln.partition(' ')
        if not days: errs.append(f"line {ln!r}"); continue
        g, k = days[-1], len(days)
        if e == _E['fly'] and (q := re.fullmatch(rf'(\S+) · (.+){arrow}(.+) · 🛫 (\d\d:\d\d) · 🛬 (\d\d:\d\d)', v)):
            _put(g, 'leg', _flight(*q.groups()), errs)
        elif e in (_E['car'], _E['taxi']) and (q := re.fullmatch(rf'(.+){arrow}(.+) · ⏱️ (.+) · 💵 \$(\d+)', v)):
            _put(g, 'leg', _road_key('taxi' if e == _E['taxi'] else 'drive', q[1], q[2], _unedur(q[3]), q[4]), errs)
        elif e == _E['sight']: g['attraction'] += _unitems(ph, v)
        elif e in slots:
            if slots[e] in _MEALS: _said(saids[-1], slots[e], errs, f"day {k}: ")
            if v in _E_NONE: any_none = True
            else: _put(g, slots[e], _unvenue(ph, v), errs, f"day {k}: ")
        else: errs.append(f"day {k}: line {ln!r}")
    if any_none: _all_said(saids, errs)
    return days, errs


# transcript_copy_paste ------------------------------------------------------------------------------------------------
def _tr_read_draft(lines, task, plan, ph, errs) -> list[dict]:
    days = []
    ix = _dates(task, len(plan), 'mon')
    for ln in lines:
        if not ln.strip(): continue
        if ln.startswith('#### '):
            h = re.fullmatch(r'#### Day (\d+) — (.+?) — (.+)', ln)
            if not h or int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"draft head {ln!r}"); continue
            days.append(_blank(_back(h[3])))
            continue
        if not days or not ln.startswith('- '): errs.append(f"draft line {ln!r}"); continue
        g, s = days[-1], ln[2:]
        if s.startswith('Travel: '):
            if (q := re.fullmatch(r'flight (\S+), (.+) → (.+), (\d\d:\d\d) → (\d\d:\d\d)', s[8:])): _put(g, 'leg', _flight(*q.groups()), errs)
            elif (q := re.fullmatch(r'(taxi|self-drive), (.+) → (.+), (.+), \$(\d+)', s[8:])):
                _put(g, 'leg', _road_key('taxi' if q[1] == 'taxi' else 'drive', *q.groups()[1:]), errs)
            else: errs.append(f"draft leg {s!r}")
        elif s.startswith('Sights: '): g['attraction'] = _unitems(ph, s[8:])
        elif s.startswith('Stay: '):
            if s != 'Stay: none (last day)': _put(g, 'accommodation', _unvenue(ph, s[6:]), errs)
        elif (mm := _unmeal(ph, s)): _put(g, mm[0], _unvenue(ph, mm[1]), errs, 'draft: ')
        else: errs.append(f"draft line {ln!r}")
    return days


def _tr_read_final(block: str, task, plan, ph, errs) -> list[dict]:
    days, keys = [], []
    lines = block.split('\n')
    if not lines[0].startswith('FINAL ITINERARY · '): errs.append('final block title')
    for ln in lines[1:]:
        if ln.startswith('DAY '):
            h = re.fullmatch(r'DAY (\d+) \| (\S+) \| (.+)', ln)
            if not h or int(h[1]) != len(days) + 1 or h[2] != _fd(task, len(days), 'iso'): errs.append(f"final head {ln!r}"); continue
            days.append(_blank(_back(h[3], ' > '))); keys.append([])
            continue
        q = re.fullmatch(r'  (travel|breakfast|sights|lunch|dinner|stay) +(.+)', ln)
        if not q or not days or not ln.startswith(f"  {q[1]:<10} ") or len(ln) <= 13 or ln[13] == ' ': errs.append(f"final line {ln!r}"); continue
        g, key, v = days[-1], q[1], ln[13:]
        keys[-1].append(key)
        if v == '-': continue
        if key == 'travel':
            if (w := re.fullmatch(r'flight (\S+) · (.+) > (.+) · (\d\d:\d\d)-(\d\d:\d\d)', v)): g['leg'] = _flight(*w.groups())
            elif (w := re.fullmatch(r'(taxi|self-drive) · (.+) > (.+) · (.+) · \$(\d+)', v)):
                g['leg'] = _road_key('taxi' if w[1] == 'taxi' else 'drive', *w.groups()[1:])
            else: errs.append(f"final leg {v!r}")
        elif key == 'sights': g['attraction'] = _unitems(ph, v)
        else: g['accommodation' if key == 'stay' else key] = _unvenue(ph, v)
    for k, ks in enumerate(keys, 1):
        if ks != ['travel', 'breakfast', 'sights', 'lunch', 'dinner', 'stay']: errs.append(f"final day {k}: keys {ks}")
    return days


def _read_transcript(text, task, plan, ph):
    errs = []
    parts = re.split(r'^\*\*(🧑 User|🤖 Assistant) \(turn (\d+)\):\*\* ', text, flags=re.M)
    turns = [(parts[j], int(parts[j + 1]), parts[j + 2]) for j in range(1, len(parts) - 2, 3)]
    if parts[0].strip() or [(w, n) for w, n, _ in turns] != [('🧑 User', 1), ('🤖 Assistant', 2), ('🧑 User', 3), ('🤖 Assistant', 4)]:
        return [], [f"turns {[(w, n) for w, n, _ in turns]}"]
    first, _, rest = turns[1][2].partition('\n')
    draft = _tr_read_draft(rest.split('\n'), task, plan, ph, errs)
    head, _, rest = turns[3][2].partition('\n')
    m = re.fullmatch(r"(?:Done\. Changes: (.+)\. |Sure — nothing else changes\. )Final itinerary \(copy-paste\):", head)
    b = re.fullmatch(r'\n```text\n(.*?)\n```', rest, re.S)
    if not m or not b: return [], [f"turn 4 {head!r}"]
    final = _tr_read_final(b[1], task, plan, ph, errs)
    want = copy.deepcopy(draft)                               # the draft with the changes applied must be the final block
    day = lambda s: want[int(s) - 1] if 1 <= int(s) <= len(want) else None
    for c in (m[1].split('; ') if m[1] else []):
        if (q := re.fullmatch(r'Day (\d+) (breakfast|lunch|dinner): (.+) → (.+)', c)) and (g := day(q[1])) and g[q[2]] != '-':
            if _nm(g[q[2]]) != q[3]: errs.append(f"change {c!r}: the draft has {g[q[2]]!r}")
            g[q[2]] = _with_name(g[q[2]], q[4])
        elif (q := re.fullmatch(r'Day (\d+) sights: dropped (.+)', c)) and (g := day(q[1])):
            hit = [x for x in g['attraction'] if _nm(x) == q[2]]
            if len(hit) != 1: errs.append(f"change {c!r}: not one sight of the draft")
            else: g['attraction'].remove(hit[0])
        elif (q := re.fullmatch(r'nights? of day (\d+)(?:–(\d+))?: (.+) → (.+)', c)) and day(q[1]) and day(q[2] or q[1]):
            for k in range(int(q[1]), int(q[2] or q[1]) + 1):
                g = want[k - 1]
                if _nm(g['accommodation']) != q[3]: errs.append(f"change {c!r}: night {k} of the draft is {g['accommodation']!r}")
                else: g['accommodation'] = _with_name(g['accommodation'], q[4])
        else: errs.append(f"change {c!r}")
    if want != final: errs.append('the draft with its changes is not the final block: ' +
                                  '; '.join(f"day {k}: {x} != {y}" for k, (x, y) in enumerate(zip(want, final), 1) if x != y)[:300])
    return final, errs


# obsidian_note --------------------------------------------------------------------------------------------------------
def _obun(ph, s: str) -> str:
    m = re.fullmatch(r'\[\[(.+)\]\](.*)', s, re.S)
    if not m: raise ValueError(f"no wikilink in {s!r}")
    return _unvenue(ph, m[1] + m[2])


def _read_obsidian(text, task, plan, ph):
    m = re.search(r'```markdown\n---\n(.*?)\n---\n(.*?)\n```', text, re.S)
    if not m: return [], ['no note with front matter']
    errs, days, saids, any_none, lodging = [], [], [], False, []
    fm = m[1].split('\n')
    want = [f"title: {_q(_get(task, 'org') + ' → ' + _get(task, 'dest'))}", f"start: {_fd(task, 0, 'iso')}",
            f"end: {_fd(task, len(plan) - 1, 'iso')}", f"travelers: {_people(task)}", 'tags: [trip, itinerary]']
    if fm[:5] != want: errs.append(f"front matter {fm[:5]}")
    if fm[5:]:
        if fm[5] != 'lodging:' or (len(fm) - 6) % 4: errs.append(f"lodging {fm[5:]}")
        for j in range(6, len(fm) - 3, 4):
            q = [re.fullmatch(p, fm[j + o]) for o, p in enumerate((r'  - name: (".*")', r'    city: (".*")', r'    check_in: (\S+)', r'    check_out: (\S+)'))]
            if not all(q): errs.append(f"lodging entry {fm[j:j + 4]}"); continue
            lodging.append((json.loads(q[0][1]), json.loads(q[1][1]), datetime.date.fromisoformat(q[2][1]), datetime.date.fromisoformat(q[3][1])))
    ix = _dates(task, len(plan), 'iso')
    for ln in m[2].split('\n'):
        if not ln.strip() or ln == f"# {_get(task, 'org')} → {_get(task, 'dest')}": continue
        if ln.startswith('## '):
            if (h := re.fullmatch(r'## \[\[(\S+)\]\] · Day (\d+)', ln)): k, iso, alias = int(h[2]), h[1], None
            elif (h := re.fullmatch(r'## Day (\d+) — \[\[(\S+)\|(.+)\]\]', ln)): k, iso, alias = int(h[1]), h[2], h[3]
            if not h or k != len(days) + 1 or ix.get(iso) != len(days) or alias not in (None, _fd(task, k - 1, 'mon')):
                errs.append(f"head {ln!r}"); continue
            days.append(_blank()); saids.append([])
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k = days[-1], len(days)
        if ln.startswith('route:: '):
            if g['current_city'] is not None: errs.append(f"day {k}: route twice")
            g['current_city'] = _back(ln[8:])
        elif ln.startswith('travel:: '):
            v = ln[9:]
            if (q := re.fullmatch(r'✈️ (\S+) · (.+) → (.+) · (\d\d:\d\d) → (\d\d:\d\d)', v)): _put(g, 'leg', _flight(*q.groups()), errs)
            elif (q := re.fullmatch(r'(🚕 taxi|🚗 self-drive) · (.+) → (.+) · (.+) · \$(\d+)', v)):
                _put(g, 'leg', _road_key('taxi' if q[1] == '🚕 taxi' else 'drive', *q.groups()[1:]), errs)
            else: errs.append(f"day {k}: travel {v!r}")
        elif (q := re.fullmatch(r'- \[ \] (breakfast|lunch|dinner|visit):: (.+)', ln)):
            if q[1] != 'visit': _said(saids[-1], q[1], errs, f"day {k}: ")
            if q[2] == '—': any_none = True
            elif q[1] == 'visit': g['attraction'].append(_obun(ph, q[2]))
            else: _put(g, q[1], _obun(ph, q[2]), errs, f"day {k}: ")
        elif (q := re.fullmatch(r'- \[-\] ~~(breakfast|lunch|dinner|visit):: (.+)~~ cancelled: (.+)', ln)): _obun(ph, q[2])
        elif ln.startswith('stay:: '):
            if ln != 'stay:: — (last day)': _put(g, 'accommodation', _obun(ph, ln[7:]), errs, f"day {k}: ")
        else: errs.append(f"day {k}: line {ln!r}")
    for n, c, d0, d1 in lodging:
        if d1 <= d0: errs.append(f"lodging {n!r} of no night")
        while d0 < d1:
            i = ix.get(d0.isoformat())
            if i is None: errs.append(f"lodging {n!r} on {d0}, outside the trip"); break
            _put(days[i], 'accommodation', f"{n}, {c}" if c else n, errs, f"night {i + 1}: ")
            d0 += _DAY_SPAN
    if any_none: _all_said(saids, errs)
    return days, errs


_READERS = {'email_to_companion': _read_email, 'toml_ini': _read_config, 'slide_deck': _read_slides,
            'day_tables_ditto': _read_tables, 'ru_pl_tr_labels': _read_rpt, 'emoji_only': _read_emoji,
            'transcript_copy_paste': _read_transcript, 'obsidian_note': _read_obsidian}


def _check_one(name, task, plan, text, ph) -> list[str]:
    "Errors of one rendering (empty = it states exactly the plan, as far as this reader-free check can tell)."
    errs = []
    plan_text = ' '.join(str(v) for d in plan for v in d.values())
    for bad in (r'\bNone\b', r'\bnan\b', r'\bnull\b') + (('[{}]',) if name != 'toml_ini' else ()):
        if re.search(bad, text) and not re.search(bad, plan_text): errs.append(f"{bad!r} in the text")
    try:
        got, e = _READERS[name](text, task, plan, ph)
        return errs + e + _cmp(plan, got)
    except (IndexError, KeyError, ValueError, TypeError, AttributeError, AssertionError, StopIteration) as e:
        return errs + [f"does not parse back: {e!r}"]

# ---------------------------------------------------------------------------------------------------------- corruptions
def _relabel(name, ph, text):
    "(lunch marker, dinner marker) of a layout: the first lunch made a dinner."
    if name == 'email_to_companion': return ph.meal_prefix('Lunch'), ph.meal_prefix('Dinner')
    if name == 'toml_ini': return '\nlunch = ', '\ndinner = '
    if name == 'slide_deck': return f"- {ph.meal_prefix('Lunch')}", f"- {ph.meal_prefix('Dinner')}"
    if name == 'day_tables_ditto': return '| Lunch |', '| Dinner |'
    if name == 'ru_pl_tr_labels':
        L = next((L for L in _RPT.values() if f"- **{L['labels'][3]}:** " in text), _RPT['ru'])
        return f"- **{L['labels'][3]}:** ", f"- **{L['labels'][4]}:** "
    if name == 'emoji_only': return f"\n{_E['lunch']} ", f"\n{_E['dinner']} "
    if name == 'transcript_copy_paste': return f"\n  {'lunch':<10} ", f"\n  {'dinner':<10} "
    return '- [ ] lunch:: ', '- [ ] dinner:: '


_DAY_HEAD = {'email_to_companion': r'\*\*(Day \d+ · |[^*]+ \(Day \d+\): )', 'toml_ini': r'(\[\[days\]\]|\[day\d+\])$',
             'slide_deck': r'## Slide \d+ — Day \d+ · ', 'day_tables_ditto': r'### Day \d+ · ', 'ru_pl_tr_labels': r'### ',
             'emoji_only': r'\d\ufe0f\u20e3 ', 'transcript_copy_paste': r'DAY \d+ \| ', 'obsidian_note': r'## '}


def _drop_day(name, text, task, k=1):
    "The text without day k (0-based): its lines up to the next day's head removed (day k is never the last)."
    out, skip, d = [], False, -1
    for ln in text.split('\n'):
        if re.match(_DAY_HEAD[name], ln): d += 1; skip = d == k
        if not skip: out.append(ln)
    return '\n'.join(out)


def _decoy_promotions(name, plan, text, task):
    "[(what, text)]: a decoy of the layout taken for the plan."
    out, sub = [], lambda m, new: text[:m.start()] + new + text[m.end():]
    if name == 'email_to_companion':
        if (m := re.search(r"I also looked at (.+) for \w+ on Day \d+, but .+ — so (we're sticking with .+)\.$", text, re.M)):
            out.append(("a P.S.'s rejected restaurant taken", text[:m.start(2)] + f"let's switch to {m[1]}" + text[m.end(2):]))
        if (m := re.search(r"^P\.(?:P\.)*S\. (.+) was an option for the .+, but .+ — so (we're staying at .+)\.$", text, re.M)):
            out.append(("a P.S.'s rejected hotel taken", text[:m.start(2)] + f"let's book {m[1]} instead" + text[m.end(2):]))
        if (m := re.search(r"^(P\.(?:P\.)*S\.) I left out ", text, re.M)):
            out.append(("a P.S.'s left-out sight added", sub(m, f"{m[1]} I added ")))
    if name == 'toml_ini' and (m := re.search(r'^(?:# |; )((?:breakfast|lunch|dinner|stay|hotel|sights) = .*)$', text, re.M)):
        out.append(("a commented-out line restored", sub(m, m[1])))
    if name == 'transcript_copy_paste' and (m := re.search(r'Changes: Day (\d+) (breakfast|lunch|dinner): (.+?) → (.+?)[;.] ', text)):
        j = text.index('```text\n')
        j = text.index(f"\nDAY {m[1]} | ", j)
        j = text.index(f"\n  {m[2]:<10} ", j) + 1
        e = text.index('\n', j)
        out.append(("the draft's restaurant kept in the final block", text[:j] + text[j:e].replace(m[4], m[3]) + text[e:]))
    if name == 'obsidian_note' and (m := re.search(r'^- \[-\] ~~(.+)~~ cancelled: .*$', text, re.M)):
        out.append(("a cancelled task restored", sub(m, f"- [ ] {m[1]}")))
    return out


def _longer_stay(name, text, task, n):
    "A stay made one night longer (slide_deck: its row of the stays table; obsidian_note: its lodging entry)."
    if name == 'slide_deck' and (m := re.search(r'^\| ([^|]+) \| ([^|]+) \| (\d+) \| ', text, re.M)):
        ix = _dates(task, n, 'dm', extra=2)
        if m[2] in ix: return text[:m.start()] + f"| {m[1]} | {_fd(task, ix[m[2]] + 1, 'dm')} | {int(m[3]) + 1} | " + text[m.end():]
    if name == 'obsidian_note' and (m := re.search(r'check_out: (\S+)', text)):
        return text[:m.start(1)] + (datetime.date.fromisoformat(m[1]) + _DAY_SPAN).isoformat() + text[m.end(1):]
    return None


def mutations(name, plan, text, task, ph):
    """[(kind, what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a
    flight renumbered, sights of two days swapped, two stays swapped, a lunch label made dinner, day 2 dropped, a flight's
    departure moved; per layout a decoy promoted (a P.S.'s rejected choice taken, a commented-out line restored, the
    draft's restaurant kept, a cancelled task restored) and a stay made a night longer (slide_deck, obsidian_note)."""
    out = _common_mutations(plan, text)
    a, b = _relabel(name, ph, text)
    if a in text: out.append(('a lunch labelled dinner', '', text.replace(a, b, 1)))
    out.append(('a day dropped', 'day 2', _drop_day(name, text, task, 1)))
    if (s := _time_shift(name, plan, text)): out.append(("a flight's departure moved", '', s))
    out += [('decoy promoted', w, s) for w, s in _decoy_promotions(name, plan, text, task)]
    if (s := _longer_stay(name, text, task, len(plan))): out.append(("a stay made a night longer", '', s))
    return [x for x in out if x[2] != text]


_HAS_DECOY = {'email_to_companion': lambda t: '\nP.S. ' in t,
              'toml_ini': lambda t: bool(re.search(r'^(?:# |; )(?:breakfast|lunch|dinner|stay|hotel|sights) = ', t, re.M)),
              'slide_deck': lambda t: 'Plan B (not booked)' in t, 'transcript_copy_paste': lambda t: 'Changes: ' in t,
              'obsidian_note': lambda t: '\n- [-] ' in t}


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    "The part's self-check (`layouts.selfcheck_part`): failures + missed corruptions."
    return selfcheck_part(HELDOUT10_LAYOUTS, _phr, _check_one, mutations,
                          lambda lay, text: lay in _HAS_DECOY and _HAS_DECOY[lay](text), plans, mutate_every)


if __name__ == '__main__':
    part_cli(__doc__, HELDOUT10_LAYOUTS, _phr, selfcheck)
