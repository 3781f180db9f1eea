#!/usr/bin/env python
"""Held-out part v14 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their notebooks
(04a, 04b, 05), tests (test_grounded*, test_layout*, test_robustness*) or results/formatter/* were opened, no reader was
run on these texts, and `tools/layouts.py measure` / `record` were not run). Only tools/layouts.py (its interface and its
layouts' source, to avoid repeating them), tools/agreement.py (`_leg_parts`, `_attractions`), tools/layouts_v5.py ...
layouts_v13.py (their structure and layouts; generic helpers of v8, v9, v10, v12 and v13 are imported) and the
`EvalIndex` class of star/evaluator.py (its lookup interface) were read. SEALED: this part is to be scored ONCE by the
lead (via tools/layouts.py, part 'heldout14', once registered there) and never tuned on before that score.

    python tools/layouts_v14.py check                    # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (the overview checked against the
                                                         # details; the quoted draft with the change list or the inline
                                                         # corrections applied; the payers' tables and the refunds; the
                                                         # TSV / CSV rows by their header, with the dropped rows; the
                                                         # YAML's anchors, aliases and merge keys resolved; the Danish /
                                                         # Ukrainian / Catalan / Swahili cells; the JSON-LD's
                                                         # reservations, meals by their time, cancelled ones set aside;
                                                         # the todo.txt tasks by due: and at:, the `todo.sh ls` listing
                                                         # put back in file order) into the plan's own values (venue
                                                         # 'Name, City', route, leg parts) and compared with the plan
                                                         # EXACTLY; then corruptions (a name deleted, lunches swapped, a
                                                         # day dropped, a decoy promoted, a flight time moved, a stay
                                                         # lengthened, ...) must be caught. 315 plans x 8 layouts =
                                                         # 2,520 renderings, 21,235 corruptions, ~40 s
    python tools/layouts_v14.py check --limit 40         # the same on the first 40 known plans (~5 s)
    python tools/layouts_v14.py show todo_txt --n 1      # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how chat models and tool-using agents answer "plan me a 3/5/7-day trip", in styles that none of
tools/layouts.py, tools/layouts_v5.py ... tools/layouts_v13.py has (see each renderer's docstring):

* `glance_then_details`  a "🗺️ Trip at a glance" overview first — a markdown table ("| Day | Date | Route | Travel | Eat |
                         See | Sleep |") or a bullet per day ("- **Day 2** (Thu 3/17) · Rockford · — · eat: B Dial A Cake ·
                         L Flying Mango · D Cafe Southall · see: Burpee Museum…, Midway Village… +1 more · sleep: Pure
                         luxury…") whose names are SHORTENED to two or three words, the travel cut to "✈️ F3573659 15:40"
                         / "🚗 13 h 24 min" — then "## 📅 Day by day" with the full names: "### Day 2 — Thursday, March 17:
                         Rockford", "- 🚆 **Travel:** Flight F1 from A to B, departs 15:40, arrives 17:04", "- 🍳 Breakfast
                         place: X (Rockford area)", "- 📍 **Sights:** A ⮕ B" (or a sub-bullet per sight), "- 🛏️ **Stay:**
                         W"; the overview's short names are the DECOY
* `agent_email_reply`    the traveller's e-mail reply to a travel agent (From / To / Subject / Date, "Hi Dana,") with the
                         agent's draft QUOTED ("On Tue, Mar 8, 2022 at 4:51 PM Dana Ruiz <...> wrote:", "> Day 2 — Thu, Mar
                         17 — Rockford", ">   • Lunch place: Y ..."): EITHER top-posted — "Changes from your draft:" ("-
                         Day 2 lunch: X instead of Y (it's closed that day)", "- Nights 1–2: W instead of Z (...)", "- Day
                         3: no S (...)") and the whole "FINAL ITINERARY" above the quote — OR inline: only the quoted
                         draft, the traveller's corrections between its lines ("Let's do X (Rockford area) for lunch on
                         Day 2 instead, please — ...", "Please book W for nights 1–2 instead — ...", "Please drop S from
                         Day 3 — ..."): the plan is the draft with the corrections applied; DECOYS: the draft's choices
* `cost_split`           the plan organised by WHO PAYS (Splitwise style, "Alex and Sam"; a solo traveller's by card and
                         cash): "### 🗺️ Route" (a line per day), then a table per payer ("### 💸 Alex pays", "| When |
                         What | Details | Cost |"): "| Day 1 | ✈️ Flight | F1 · A → B · 15:40–17:04 | $230 × 2 = $460 |",
                         "| Day 3 | 🚗 Self-drive | A → B · 3 hours 11 mins | $120 |", "| Day 2 | 🥪 Lunch | X, Rockford, US
                         | ~$30 × 2 = $60 |", "| Nights 1–2 | 🛏️ Stay | W | $150 × 2 nights = $300 |"; the sights under
                         "### 🆓 No cost"; "**Total:**" and "**Settle up:** Sam → Alex $75"; DECOYS: "### ↩️ Cancelled &
                         refunded" rows ("| Day 2 | 🥪 Lunch | Y — closed that day | refunded to Sam |")
* `sheet_paste`          a spreadsheet pasted into the chat, TSV (```tsv / ```text, as Google Sheets copies it) or CSV
                         (```csv, "Chinese, Seafood" quoted), ONE ROW PER ITEM: "Route" rows, "Flight" (Name "A → B",
                         Start / End the times, Notes the number), "Self-driving" / "Taxi" (Notes "3 hours 11 mins · $120"),
                         "Breakfast" / "Lunch" / "Dinner" (Start 08:00 / 12:30 / 19:00), "Sight" (Start: the sights'
                         order), "Hotel" (Day "1-2", Start / End check-in and check-out dates); the header in one of four
                         column orders, with synonyms ("Day #", "Category", "Item" / "Place", "Location", "Starts",
                         "Details", "Booking"); rows by day and time OR sorted by type; dates ISO or "3/17/2022"; DECOYS:
                         rows with Status "Dropped"
* `yaml_anchors`         a YAML file (```yaml) that uses YAML's own reuse: each stay written ONCE with an anchor (in a
                         "hotels:" list with its "nights: [1, 2]", or at its first night "stay: &pure_luxury_1 ...") and
                         every other night an ALIAS ("stay: *stay_1"), empty meals from a merge key in some renderings
                         ("x-empty-meals: &no_meals", "meals: {<<: *no_meals, dinner: ...}"), "~" for none, "date:
                         2022-03-17", "city:" or "route: {from: A, to: B}", "travel" (mode, number, from, to, depart
                         "15:40", arrive / duration, cost), block or flow style, names quoted only where YAML needs it;
                         DECOYS: "not_chosen:" entries ({slot: lunch, name: Y, city: ..., why: closed that day})
* `da_uk_ca_sw_table`    ONE markdown table in Danish, Ukrainian, Catalan or Swahili (drawn): "| Dag | Dato | Rute |
                         Transport | Morgenmad | Seværdigheder | Frokost | Middag | Overnatning |" (Danish 'Middag' is
                         DINNER, 'Frokost' LUNCH), "| День | Дата | Маршрут | Транспорт | Сніданок | Пам'ятки | Обід | Вечеря
                         | Проживання |", "| Dia | Data | Ruta | Transport | Esmorzar | Llocs d'interès | Dinar | Sopar |
                         Allotjament |" (Catalan 'Dinar' is LUNCH), "| Siku | Tarehe | Njia | Usafiri | Kifungua kinywa |
                         Vivutio | Chakula cha mchana | Chakula cha jioni | Malazi |"; the sights after breakfast or after
                         dinner; dates "torsdag d. 17.3.2022", "четвер, 17.03.2022", "dijous, 17 de març de 2022",
                         "Alhamisi, 17 Machi 2022"; legs translated ("Fly F1: A → B, afgang kl. 15.40, ankomst kl. 17.04",
                         "Рейс F1: ..., виліт 15:40, приліт 17:04", "Vol F1: ..., sortida a les 15.40 h, ...", "Ndege F1: ...,
                         kuondoka 15:40, kuwasili 17:04"; "Egen bil: A → B, ca. 3 t. 11 min., 120 USD", "Kujiendesha: ...,
                         takriban saa 3 dakika 11, USD 120" — Swahili puts the unit BEFORE the number); the placement's
                         words translated ("X (Rockford-området)", "X у місті Rockford", "X a la ciutat de Rockford", "X
                         (eneo la Rockford)"); empty cells 'ingen' / 'немає' / 'cap' / 'hakuna' or '—'
* `jsonld_reservations`  schema.org JSON-LD (Gmail / Google Calendar reservation markup) in a `<script
                         type="application/ld+json">` (```html) or a ```json block: an "@graph" with a "TouristTrip" per
                         day ("itinerary": the route's "City" objects, then the "TouristAttraction"s in order) and the
                         bookings: "FlightReservation" (flightNumber, departure / arrival airports by addressLocality,
                         "2022-03-16T15:40:00"), "TravelAction" (instrument Car / Taxi, ISO duration "PT3H11M", price),
                         "FoodEstablishmentReservation" — the MEAL known only by its startTime (07:30-09:00 breakfast,
                         12:00-13:30 lunch, 18:30-20:00 dinner; a "description" in some renderings) — and
                         "LodgingReservation" (checkinTime, checkoutTime the morning after the last night); chronological
                         or by type; DECOYS: reservations "https://schema.org/ReservationCancelled"
* `todo_txt`             the trip as a todo.txt task list: the file (```text) OR the listing `todo.sh ls +RockfordTrip`
                         prints (```console): every task with its LINE NUMBER, the lines SORTED alphabetically so the days
                         interleave, "--" and "TODO: 24 of 24 tasks shown"; a task "x <done> <created> ..." (booked) or
                         "(A) <created> ...", the project "+RockfordTrip", a context ("@online", "@phone",
                         "@sightseeing"), "due:2022-03-17" (THE DAY) and "at:12:30" (the time, the sights' order): "Day 2:
                         Rockford", "Book flight F1 A → B (15:40–17:04)", "Drive A → B (3 hours 11 mins, ~$120)", "Lunch
                         reservation: X, Rockford" (the drawn label and placement), "Visit Y ...", "Book stay at W ... for
                         nights 1–2"; DECOYS: completed cancellations ("x ... Cancel lunch at Z ... (closed that day)",
                         "Cancel stay at ... for nights 1–2 (...)", "Drop S from day 2 (...)")

Phrasings (`HELDOUT14_PHRASES`, drawn per rendering by `Phr14`): venue placed as 'X (City area)', 'X, City, US', 'X in
the city of City' or 'X, City' (the words translated in da_uk_ca_sw_table; the sheet, the YAML and the JSON-LD give the
city a column or a field of its own); several sights joined by ' ⮕ ', ' ✧ ', ', then later ' or '; plus ' (the last two
translated in da_uk_ca_sw_table); meal labels 'Lunch place: X', 'Lunch / X', 'Lunch reservation: X' or 'Lunch: X' (in
glance_then_details, agent_email_reply and todo_txt; the other layouts say their meals in their own words, columns, keys
or times). Every rendering states the whole plan: each day's route, the leg (flight number and times, or self-drive /
taxi with duration and cost), each meal's restaurant (or none: absent, or said to be none), each attraction and the
accommodation; names are verbatim (words are only added around them; CSV, YAML and JSON quote and escape what they must,
markdown tables escape '|'); the noise (the overview's short names, the quoted draft, costs, refunds, dropped rows,
not_chosen entries, cancelled reservations and tasks, reservation numbers) never contradicts the plan.
"""
from __future__ import annotations

import csv, datetime, io, json, math, random, re, sys
from functools import lru_cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _POSTAL_OF, _name_city, known_plans, part_cli, selfcheck_part            # noqa: E402
from layouts_v8 import (_check_with, _common_mutations, _DAY_SPAN, _MEALS, _all_said, _blank, _cmp, _date, _dur_key, _get,  # noqa: E402
                        _index, _norm, _people, _put, _restaurant, _road_key, _said, _stay, _swap, _usd)
from layouts_v9 import _back, _hm, _revision_decoys, _rt, _timed  # noqa: E402
from layouts_v10 import _day_runs, _flight, _nm, _with_name  # noqa: E402
from layouts_v12 import _alt, _dix, _fd, _span_text  # noqa: E402
from layouts_v13 import _day_of, _first_line_sub, _leg, _tmpl_re, _tre, _unmeal  # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT14_PHRASES = {
    'locative': ('area', 'us_country', 'in_city_of', 'comma'),   # 'X (City area)' | 'X, City, US' | 'X in the city of City' | 'X, City'
    'join': (' ⮕ ', ' ✧ ', ', then later ', '; plus '),
    'meal_label': ('place', 'slash', 'reservation', 'colon'),    # 'Lunch place: X' | 'Lunch / X' | 'Lunch reservation: X' | 'Lunch: X'
}
_VT14 = {   # the placement's words per language (the localized table translates them)
    'en': {'area': '{n} ({c} area)', 'us_country': '{n}, {c}, US', 'in_city_of': '{n} in the city of {c}', 'comma': '{n}, {c}'},
    'da': {'area': '{n} ({c}-området)', 'us_country': '{n}, {c}, USA', 'in_city_of': '{n} i byen {c}', 'comma': '{n}, {c}'},
    'uk': {'area': '{n} (район {c})', 'us_country': '{n}, {c}, США', 'in_city_of': '{n} у місті {c}', 'comma': '{n}, {c}'},
    'ca': {'area': '{n} (zona de {c})', 'us_country': '{n}, {c}, EUA', 'in_city_of': '{n} a la ciutat de {c}', 'comma': '{n}, {c}'},
    'sw': {'area': '{n} (eneo la {c})', 'us_country': '{n}, {c}, Marekani', 'in_city_of': '{n} katika jiji la {c}', 'comma': '{n}, {c}'},
}
_VRE14 = {lg: {k: _tre(t) for k, t in T.items()} for lg, T in _VT14.items()}


def _venue(ph, v: str, lg: str = 'en') -> str:
    "A venue 'Name, City' as `ph` places it (in language `lg`)."
    n, c = _name_city(v)
    return _VT14[lg][ph.loc].format(n=n, c=c) if c else n


def _unvenue(ph, s: str, lg: str = 'en') -> str:
    "'Name, City' of a venue as `_venue` writes it; a placement that is not the drawn one is an error."
    m = _VRE14[lg][ph.loc].fullmatch(s)
    if not m or not m['n'] or not m['c']: raise ValueError(f"venue {s!r} not placed as {ph.loc} ({lg})")
    return f"{m['n']}, {m['c']}"


def _unitems(ph, s: str, join=None, lg='en') -> list[str]: return [_unvenue(ph, x, lg) for x in s.split(join or ph.join)]


class Phr14(Phr):
    "`Phr` with the v14 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        if self.loc in HELDOUT14_PHRASES['locative']: return _venue(self, v)
        return super().venue(v)

    def meal_prefix(self, label: str) -> str:
        "The words before a meal's venue: 'Lunch place: ' | 'Lunch / ' | 'Lunch reservation: ' | 'Lunch: '."
        return {'place': f"{label} place: ", 'slash': f"{label} / ", 'reservation': f"{label} reservation: "}.get(self.label, f"{label}: ")

    def meal(self, label: str, v: str) -> str: return self.meal_prefix(label) + self.venue(v)


PHR14 = Phr14


def _cell(s: str) -> str: return s.replace('|', '\\|')          # a markdown table cell: '|' escaped as markdown does


def _uncell(s: str) -> str: return s.replace('\\|', '|')


def _row(cells) -> str: return '| ' + ' | '.join(_cell(c) for c in cells) + ' |'


def _unrow(ln: str) -> list[str]:
    "The cells of a markdown table row as `_row` writes it (split at the unescaped ' | ')."
    if not (ln.startswith('| ') and ln.endswith(' |')): raise ValueError(f"table row {ln!r}")
    return [_uncell(x) for x in re.split(r'(?<!\\) \| ', ln[2:-2])]


def _nights_tag(a: int, b: int) -> str: return f"Night {a}" if a == b else f"Nights {a}–{b}"


def _untag(tag: str) -> tuple[int, int]:
    "(first, last) day number of 'Day 2' | 'Night 2' | 'Nights 1–2'."
    m = re.fullmatch(r'(?:Day|Nights?) (\d+)(?:–(\d+))?', tag)
    if not m: raise ValueError(f"tag {tag!r}")
    a, b = int(m[1]), int(m[2] or m[1])
    if tag.startswith('Nights') != bool(m[2]) or tag.startswith('Day') and m[2] or b <= a and m[2]: raise ValueError(f"tag {tag!r}")
    return a, b


def _draft(plan, meals, stays, sights):
    "The plan with its decoys in place (an earlier version): meals and stay runs renamed, a sight added."
    dr = [dict(d) for d in plan]
    for (i, m), y in meals.items(): dr[i][m] = _with_name(plan[i][m], y)
    for (a, b), z in stays.items():
        for i in range(a, b + 1): dr[i]['accommodation'] = _with_name(plan[i]['accommodation'], z)
    for i, (pos, x) in sights.items():
        at = _attractions(plan[i]['attraction'])
        at.insert(pos, x)
        dr[i]['attraction'] = ';'.join(at) + ';'
    return dr


def _meal_of_time(t: str) -> str | None:
    "The meal a clock time belongs to: before 11:00 breakfast, 11:00-16:00 lunch, from 17:00 dinner."
    h = int(t[:2])
    return 'breakfast' if h < 11 else 'lunch' if h < 16 else 'dinner' if h >= 17 else None

# ============================================================================================================ layouts
# glance_then_details --------------------------------------------------------------------------------------------------
_GL_INTRO = ("Here's your {n}-day trip from {org} to {dest} — the overview first, then every day in full.",
             "Your {n}-day {org} → {dest} itinerary: a quick look at the whole trip, then the details day by day.")
_GL_HEADS = (('## 🗺️ Trip at a glance', '## 📅 Day by day'), ('## At a glance', '## The details'))
_GL_OUTRO = ("The overview shortens long names to fit; the day-by-day section has them in full.",
             "Treat the overview as a cheat sheet — the full names are in the day-by-day part.")
_GL_ICON = {'breakfast': '🍳', 'lunch': '🥪', 'dinner': '🍝'}
_GL_BLD = {'breakfast': 'B', 'lunch': 'L', 'dinner': 'D'}


def _short(name: str, k: int) -> str:
    "The name's first k words and '…' (a name of k words or fewer as it is)."
    ws = name.split(' ')
    return name if len(ws) <= k else ' '.join(ws[:k]) + '…'


def _dur_short(key) -> str: return ' '.join(f"{n} {'h' if u == 'hour' else 'd' if u == 'day' else 'min'}" for n, u in key)


def _gl_over(days, task, k: int, table: bool) -> list[str]:
    """The overview of `days` (as `_norm` gives them: current_city, leg key, meals and stay 'Name, City' or '-', the sights
    a list): a table or bullets, names shortened to k words, the sights to the first two and a count."""
    out = ['| Day | Date | Route | Travel | Eat | See | Sleep |', '|---|---|---|---|---|---|---|'] if table else []
    for i, g in enumerate(days):
        lg = g['leg']
        travel = '—' if lg is None else f"✈️ {lg[1]} {lg[4]}" if lg[0] == 'flight' else f"{'🚕' if lg[0] == 'taxi' else '🚗'} {_dur_short(lg[3])}"
        eat = ' · '.join(f"{_GL_BLD[m]} {_short(_nm(g[m]), k)}" for m in _MEALS if g[m] != '-') or '—'
        sh = [_short(_nm(x), k) for x in g['attraction']]
        see = (', '.join(sh[:2]) + (f" +{len(sh) - 2} more" if len(sh) > 2 else '')) or '—'
        sleep = _short(_nm(g['accommodation']), k) if g['accommodation'] != '-' else '—'
        route = _rt(g['current_city'])
        if table: out.append(_row((str(i + 1), _fd(task, i, 'us'), route, travel, eat, see, sleep)))
        else: out.append(f"- **Day {i + 1}** ({_fd(task, i, 'us')}) · {route} · {travel} · eat: {eat} · see: {see} · sleep: {sleep}")
    return out


def _gl_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"Flight {p['number']} from {p['a']} to {p['b']}, departs {p['dep']}, arrives {p['arr']}"
    return f"{'Taxi' if p['mode'] == 'taxi' else 'Self-drive'} from {p['a']} to {p['b']}, about {p['duration']}, ${p['cost']}"


def glance_then_details(plan, task, ph):
    """A "trip at a glance" overview first — a markdown table ("| Day | Date | Route | Travel | Eat | See | Sleep |") or a
    bullet per day ("- **Day 2** (Thu 3/17) · Rockford · — · eat: B Dial A Cake · L Flying Mango · D Cafe Southall ·
    see: Burpee Museum…, Midway Village… +1 more · sleep: Pure luxury…") in which every name is SHORTENED to its first
    two or three words ("…"), the travel cut to "✈️ F3573659 15:40" / "🚗 3 h 11 min", the sights to the first two and a
    count — then "## 📅 Day by day": "### Day 2 — Thursday, March 17: Rockford" and bullets with the full names: "- 🚆
    **Travel:** Flight F1 from A to B, departs 15:40, arrives 17:04" / "Self-drive from A to B, about 3 hours 11 mins,
    $120", "- 🍳 Breakfast place: X (Rockford area)" (the drawn meal label and placement), "- 📍 **Sights:** A ⮕ B" (the
    drawn join, or one sub-bullet per sight), lunch, dinner, "- 🛏️ **Stay:** W"; an empty meal "- 🥪 Lunch place: — (on
    your own)" or no bullet, the last night "— (heading home)". The overview's short names are the DECOY: only the
    details name the venues in full."""
    r = ph.rng
    k, table, say_none, sub = r.choice((2, 3)), r.random() < 0.6, r.random() < 0.35, r.random() < 0.4
    heads = r.choice(_GL_HEADS)
    n = len(plan)
    out = [r.choice(_GL_INTRO).format(n=n, org=_get(task, 'org'), dest=_get(task, 'dest')), '', heads[0], '']
    out += _gl_over(_norm(plan), task, k, table)
    out += ['', heads[1]]
    for i, d in enumerate(plan):
        out += ['', f"### Day {d['days']} — {_fd(task, i, 'long')}: {_rt(d['current_city'])}"]
        if d['transportation'] != '-': out.append(f"- 🚆 **Travel:** {_gl_leg(d['transportation'])}")
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if m == 'lunch' and at:
                out += ["- 📍 **Sights:**"] + [f"  - {ph.venue(x)}" for x in at] if sub else [f"- 📍 **Sights:** {ph.items(at)}"]
            if d[m] != '-': out.append(f"- {_GL_ICON[m]} {ph.meal(m.capitalize(), d[m])}")
            elif say_none: out.append(f"- {_GL_ICON[m]} {ph.meal_prefix(m.capitalize())}— (on your own)")
        acc = d['accommodation']
        if acc != '-': out.append(f"- 🛏️ **Stay:** {ph.venue(acc)}")
        elif say_none or i < n - 1: out.append("- 🛏️ **Stay:** — (heading home)" if i == n - 1 else "- 🛏️ **Stay:** — (none booked)")
    return '\n'.join(out + ['', r.choice(_GL_OUTRO)])


# agent_email_reply ----------------------------------------------------------------------------------------------------
_EM_AGENTS = (('Dana Ruiz', 'dana@wanderwise-travel.example'), ('Marcus Webb', 'marcus@bluecompass.example'),
              ('Ines Duarte', 'ines@trailhead-trips.example'))
_EM_CLIENTS = (('Jamie Chen', 'jamie.chen@example.com'), ('Robin Patel', 'robin.patel@example.org'), ('Casey Moore', 'casey.moore@example.net'))
_EM_WHY = {'meal': ("it's closed that day", "we ate there last time", "it's over our food budget"),
           'stay': ("the reviews put us off", "it's over budget for those nights", "we'd rather be closer to the sights"),
           'sight': ("we won't have time that day", "we've been there before")}
_EM_TOP = ("Thanks for the draft! We made a few changes — please book the final version below.",
           "Thanks, this looks great. A couple of tweaks; the final itinerary we'd like you to book is below.")
_EM_INLINE = "Thanks — this is nearly perfect. My changes are inline below; anything I don't comment on, please book as you have it."
_EM_QINTRO = "Here's a first draft of your trip — tell me what you'd like to change:"


def _em_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"Flight {p['number']}, {p['a']} → {p['b']}, departs {p['dep']}, arrives {p['arr']}"
    return f"{'Taxi' if p['mode'] == 'taxi' else 'Self-drive'}, {p['a']} → {p['b']}, about {p['duration']}, ${p['cost']}"


def _em_block(plan, task, ph, say_none) -> list[tuple[str, tuple | None]]:
    "[(line, tag)] of a plan as the e-mails write it; tag (day index, 'meal', m) | (i, 'sights') | (i, 'hotel') | None."
    out = []
    for i, d in enumerate(plan):
        if i: out.append(('', None))
        out.append((f"Day {d['days']} — {_fd(task, i, 'mon')} — {_rt(d['current_city'])}", None))
        if d['transportation'] != '-': out.append((f"  • Travel: {_em_leg(d['transportation'])}", None))
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if m == 'lunch' and at: out.append((f"  • Sights: {ph.items(at)}", (i, 'sights')))
            if d[m] != '-': out.append((f"  • {ph.meal(m.capitalize(), d[m])}", (i, 'meal', m)))
            elif say_none: out.append((f"  • {ph.meal_prefix(m.capitalize())}none", None))
        acc = d['accommodation']
        out.append((f"  • Hotel: {ph.venue(acc)}" if acc != '-' else "  • Hotel: none — heading home" if i == len(plan) - 1 else "  • Hotel: none",
                    (i, 'hotel')))
    return out


def _quote(lines) -> list[str]: return ['>' if not x else '> ' + x for x in lines]


def agent_email_reply(plan, task, ph):
    """The traveller's reply to a travel agent's draft, as an e-mail (From / To / Subject / Date headers, "Hi Dana,"),
    the agent's draft QUOTED below ("On Tue, Mar 8, 2022 at 4:51 PM Dana Ruiz <...> wrote:", "> " lines). The plan lines
    (both in the reply and in the draft): "Day 2 — Thu, Mar 17 — Rockford", "  • Travel: Flight F1, A → B, departs 15:40,
    arrives 17:04" / "Self-drive, A → B, about 3 hours 11 mins, $120", "  • Breakfast place: X (Rockford area)" (the drawn
    meal label and placement), "  • Sights: A ⮕ B", lunch, dinner, "  • Hotel: W" / "none — heading home". EITHER
    top-posted: "Changes from your draft:" ("- Day 2 lunch: X instead of Y (it's closed that day)", "- Nights 1–2: W
    instead of Z (...)", "- Day 3: no S (...)"), then "FINAL ITINERARY" and the whole final plan, the quoted draft below
    holding the replaced choices (DECOYS); OR inline: only the quoted draft, with the traveller's corrections between its
    lines ("Let's do X (Rockford area) for lunch on Day 2 instead, please — it's closed that day.", "Please book W for
    nights 1–2 instead — ...", "Please drop S from Day 3 — ...") right after the line each replaces: the plan is the
    draft with the corrections applied."""
    r = ph.rng
    top, say_none = r.random() < 0.5, r.random() < 0.3
    (an, ae), (cn, ce) = r.choice(_EM_AGENTS), r.choice(_EM_CLIENTS)
    meals, stays, sights = _revision_decoys(plan, r, (1, 1, 2))
    why = {('meal', k): r.choice(_EM_WHY['meal']) for k in meals} | {('stay', k): r.choice(_EM_WHY['stay']) for k in stays} | \
          {('sight', k): r.choice(_EM_WHY['sight']) for k in sights}
    n, d0, d1 = len(plan), _date(task, 0), _date(task, len(plan) - 1)
    sent = datetime.datetime.combine(d0 - datetime.timedelta(days=r.randrange(5, 15)), datetime.time(r.randrange(8, 18), r.randrange(60)))
    qd = sent - datetime.timedelta(days=r.randrange(1, 4), hours=r.randrange(1, 6))
    out = [f"From: {cn} <{ce}>", f"To: {an} <{ae}>", f"Subject: Re: Draft itinerary — {_get(task, 'org')} to {_get(task, 'dest')}, "
           f"{_span_text(d0, d1)}", f"Date: {sent:%a, %d %b %Y %H:%M} -0500", '', f"Hi {an.split()[0]},", '']
    wrote = f"On {qd:%a}, {qd:%b} {qd.day}, {qd.year} at {qd.hour % 12 or 12}:{qd.minute:02d} {'AM' if qd.hour < 12 else 'PM'} {an} <{ae}> wrote:"
    draft = _em_block(_draft(plan, meals, stays, sights), task, ph, say_none)
    q_head, q_tail = [f"Hi {cn.split()[0]},", '', _EM_QINTRO, ''], ['', 'Best,', an.split()[0]]
    if top:
        ch = [f"- Day {plan[i]['days']} {m}: {_nm(plan[i][m])} instead of {y} ({why[('meal', (i, m))]})" for (i, m), y in sorted(meals.items())]
        ch += [f"- {_nights_tag(plan[a]['days'], plan[b]['days'])}: {_nm(plan[a]['accommodation'])} instead of {z} ({why[('stay', (a, b))]})"
               for (a, b), z in sorted(stays.items())]
        ch += [f"- Day {plan[i]['days']}: no {_nm(x)} ({why[('sight', i)]})" for i, (_, x) in sorted(sights.items())]
        r.shuffle(ch)
        out += [r.choice(_EM_TOP), '', 'Changes from your draft:'] + ch
        out += ['', 'FINAL ITINERARY', '---------------', ''] + [x for x, _ in _em_block(plan, task, ph, say_none)]
        out += ['', 'Thanks again,', cn.split()[0], '', wrote] + _quote(q_head + [x for x, _ in draft] + q_tail)
        return '\n'.join(out)
    fix = {}                                                    # tag of the quoted line -> the correction after it
    for (i, m), y in meals.items():
        fix[(i, 'meal', m)] = f"Let's do {ph.venue(plan[i][m])} for {m} on Day {plan[i]['days']} instead, please — {why[('meal', (i, m))]}."
    for (a, b), z in stays.items():
        fix[(a, 'hotel')] = (f"Please book {ph.venue(plan[a]['accommodation'])} for {_nights_tag(plan[a]['days'], plan[b]['days']).lower()} "
                             f"instead — {why[('stay', (a, b))]}.")
    for i, (_, x) in sights.items(): fix[(i, 'sights')] = f"Please drop {_nm(x)} from Day {plan[i]['days']} — {why[('sight', i)]}."
    out += [_EM_INLINE, '', wrote]
    buf = q_head[:]
    for x, tag in draft:
        buf.append(x)
        if tag in fix:
            out += _quote(buf) + ['', fix[tag], '']
            buf = []
    out += _quote(buf + q_tail) + ['', 'Thanks,', cn.split()[0]]
    return '\n'.join(out)


# cost_split -----------------------------------------------------------------------------------------------------------
_CS_NAMES = ('Alex', 'Sam', 'Jordan', 'Priya', 'Mateo', 'Kim', 'Noor', 'Lena', 'Omar', 'Tess')
_CS_KIND = {'flight': '✈️ Flight', 'drive': '🚗 Self-drive', 'taxi': '🚕 Taxi', 'breakfast': '🍳 Breakfast', 'lunch': '🥪 Lunch',
            'dinner': '🍝 Dinner', 'stay': '🛏️ Stay', 'sights': '📍 Sights'}
_CS_RANK = {'flight': 0, 'drive': 0, 'taxi': 0, 'breakfast': 1, 'sights': 2, 'lunch': 3, 'dinner': 4, 'stay': 5}
_CS_WHY = {'meal': ("closed that day", "no table at our time", "over the food budget"), 'stay': ("no rooms left", "over budget", "house rules didn't fit")}
_CS_INTRO = {True: ("Here's the trip as a cost split — who pays for what, and who owes whom at the end:",
                    "I've organised the plan by who pays, so settling up is easy:"),
             False: ("Here's the trip organised by how you'll pay for each part:", "Your plan, split by card and cash:")}
_CS_HEAD = '| When | What | Details | Cost |'


def _cs_cost(kind, task, d, v=None, nights=1):
    "(cost text, amount or None) of a row."
    n = _people(task)
    if kind == 'flight':
        p = _leg_parts(d['transportation'])
        price = _index().flight_price(p['number'])
        if not isinstance(price, (int, float)) or price != price: return 'fare TBC', None
        return f"{_usd(price)} × {n} = {_usd(price * n)}", price * n
    if kind in ('drive', 'taxi'):
        c, v_ = int(_leg_parts(d['transportation'])['cost']), math.ceil(n / (4 if kind == 'taxi' else 5))
        return (f"${c} × {v_} {'taxis' if kind == 'taxi' else 'cars'} = ${c * v_}" if v_ > 1 else f"${c}"), c * v_
    if kind in _MEALS:
        x = _restaurant(*_name_city(v))
        if not x or not isinstance(x.cost, (int, float)) or x.cost != x.cost: return 'TBC', None
        return f"~{_usd(x.cost)} × {n} = {_usd(x.cost * n)}", x.cost * n
    if kind == 'stay':
        x = _stay(*_name_city(v))
        nn = f"{nights} night{'s' * (nights != 1)}"
        if not x or not isinstance(x.price, (int, float)) or x.price != x.price: return f"price TBC × {nn}", None
        return f"{_usd(x.price)} × {nn} = {_usd(x.price * nights)}", x.price * nights
    return 'free', 0


def _settle(paid: dict, people: list[str]) -> str:
    "Who pays whom so that everyone has paid the same share (greedy)."
    total = sum(paid.values())
    share = total / len(people)
    bal = {p: round(paid.get(p, 0) - share, 2) for p in people}
    cred = [[p, b] for p, b in bal.items() if b > 0.005]
    deb = [[p, -b] for p, b in bal.items() if b < -0.005]
    out = []
    while cred and deb:
        x = min(cred[0][1], deb[0][1])
        out.append(f"{deb[0][0]} → {cred[0][0]} {_usd(round(x, 2))}")
        cred[0][1] -= x; deb[0][1] -= x
        if cred[0][1] < 0.005: cred.pop(0)
        if deb[0][1] < 0.005: deb.pop(0)
    return '; '.join(out) or 'nothing to settle'


def cost_split(plan, task, ph):
    """The plan organised by WHO PAYS (a Splitwise-style split between the travellers, "Alex and Sam"; a solo traveller's
    by card and cash): "### 🗺️ Route" ("- **Day 2** · Thu, Mar 17 · Rockford"), then one markdown table per payer
    ("### 💸 Alex pays" / "### 💳 On the card", "| When | What | Details | Cost |"), rows by day: "| Day 1 | ✈️ Flight |
    F1 · A → B · 15:40–17:04 | $230 × 2 = $460 |", "| Day 3 | 🚗 Self-drive | A → B · 3 hours 11 mins | $120 |", "| Day 2 |
    🥪 Lunch | X (Rockford area) | ~$30 × 2 = $60 |" (the drawn placement), "| Nights 1–2 | 🛏️ Stay | W | $150 × 2 nights =
    $300 |"; the sights under "### 🆓 No cost" ("| Day 2 | 📍 Sights | A ⮕ B | free |", the drawn join); the totals and
    "**Settle up:** Sam → Alex $75". DECOYS: "### ↩️ Cancelled & refunded" rows ("| Day 2 | 🥪 Lunch | Y — closed that
    day | refunded to Sam |")."""
    r = ph.rng
    n = _people(task)
    group = n >= 2
    travellers = r.sample(_CS_NAMES, n) if group else []
    payers = travellers[:min(3, n)] if group else ['card', 'cash']
    sect = {p: (f"### 💸 {p} pays" if group else {'card': '### 💳 On the card', 'cash': '### 💵 Paid in cash'}[p]) for p in payers}
    meals, stays, _ = _revision_decoys(plan, r, (0, 1, 2))
    off = r.randrange(len(payers))
    rows = {p: [] for p in payers + ['free', 'refund']}           # payer -> [(day, rank, cells)]
    paid = {}

    def add(p, i, kind, when, details, cost):
        txt, amt = cost
        rows[p].append((i, _CS_RANK[kind], (when, _CS_KIND[kind], details, txt)))
        if amt is not None and p != 'free': paid[p] = paid.get(p, 0) + amt
    for i, d in enumerate(plan):
        k = d['days']
        if (q := _leg(d)):
            if q['mode'] == 'flight':
                add(payers[0], i, 'flight', f"Day {k}", f"{q['number']} · {q['a']} → {q['b']} · {q['dep']}–{q['arr']}", _cs_cost('flight', task, d))
            else: add(payers[-1] if group else 'card', i, q['mode'], f"Day {k}", f"{q['a']} → {q['b']} · {q['duration']}", _cs_cost(q['mode'], task, d))
        for j, m in enumerate(_MEALS):
            if d[m] == '-': continue
            p = payers[(i + j + off) % len(payers)] if group else r.choice(payers)
            add(p, i, m, f"Day {k}", ph.venue(d[m]), _cs_cost(m, task, d, d[m]))
            if (i, m) in meals:
                rows['refund'].append((i, _CS_RANK[m], (f"Day {k}", _CS_KIND[m], f"{ph.venue(_with_name(d[m], meals[(i, m)]))} — {r.choice(_CS_WHY['meal'])}",
                                                        f"refunded to {p}")))
        if (at := _attractions(d['attraction'])): add('free', i, 'sights', f"Day {k}", ph.items(at), ('free', 0))
    for a, b, acc in _day_runs(plan):
        tag = _nights_tag(plan[a]['days'], plan[b]['days'])
        add(payers[0], a, 'stay', tag, ph.venue(acc), _cs_cost('stay', task, plan[a], acc, b - a + 1))
        if (a, b) in stays:
            rows['refund'].append((a, _CS_RANK['stay'], (tag, _CS_KIND['stay'], f"{ph.venue(_with_name(acc, stays[(a, b)]))} — {r.choice(_CS_WHY['stay'])}",
                                                         f"refunded to {payers[0]}")))
    d0, d1 = _date(task, 0), _date(task, len(plan) - 1)
    who = f"{n} travellers: {', '.join(travellers)}" if group else "1 traveller"
    out = [r.choice(_CS_INTRO[group]), '', f"**{_get(task, 'org')} → {_get(task, 'dest')}** · {_span_text(d0, d1)}, {d1.year} · {who}", '',
           '### 🗺️ Route'] + [f"- **Day {d['days']}** · {_fd(task, i, 'mon')} · {_rt(d['current_city'])}" for i, d in enumerate(plan)]
    heads = {**sect, 'free': '### 🆓 No cost', 'refund': '### ↩️ Cancelled & refunded'}
    for p in payers + ['free', 'refund']:
        if not rows[p]: continue
        out += ['', heads[p], _CS_HEAD, '|---|---|---|---|'] + [_row(c) for _, _, c in sorted(rows[p], key=lambda x: x[:2])]
    total = sum(paid.values())
    if group: out += ['', f"**Total:** {_usd(round(total, 2))} · **per person:** {_usd(round(total / n, 2))}",
                      f"**Settle up:** {_settle(paid, travellers)}"]
    else: out += ['', f"**Total:** {_usd(round(total, 2))} (card {_usd(round(paid.get('card', 0), 2))}, cash {_usd(round(paid.get('cash', 0), 2))})"]
    return '\n'.join(out)


# sheet_paste ----------------------------------------------------------------------------------------------------------
_SH_SYN = {'day': ('Day', 'Day #'), 'date': ('Date',), 'type': ('Type', 'Category'), 'name': ('Name', 'Item', 'Place'),
           'city': ('City', 'Location'), 'start': ('Start', 'Starts'), 'end': ('End', 'Ends'), 'notes': ('Notes', 'Details'),
           'status': ('Status', 'Booking')}
_SH_ORDERS = (('day', 'date', 'type', 'name', 'city', 'start', 'end', 'notes', 'status'),
              ('date', 'day', 'start', 'end', 'type', 'name', 'city', 'status', 'notes'),
              ('type', 'name', 'city', 'day', 'date', 'start', 'end', 'status', 'notes'),
              ('status', 'type', 'day', 'date', 'start', 'end', 'name', 'city', 'notes'))
_SH_MEAL = {'breakfast': 'Breakfast', 'lunch': 'Lunch', 'dinner': 'Dinner'}
_SH_WHY = {'meal': ("closed that day", "over budget", "no table at that time"), 'Sight': ("too far from the rest of the day", "not enough time"),
           'Hotel': ("over budget", "no availability for those nights")}
_SH_INTRO = {'\t': "Here's the itinerary as a sheet — copy it straight into Google Sheets or Excel (tab-separated, one row per item):",
             ',': "Here's the itinerary as CSV — one row per item; open it in Excel or Google Sheets:"}
_SH_OUTRO = ("Rows marked Dropped are options I ruled out; everything else is the plan.", "Sort by Date and Start to read it day by day.")


def _sh_date(d: datetime.date, f: str) -> str: return d.isoformat() if f == 'iso' else f"{d.month}/{d.day}/{d.year}"


def sheet_paste(plan, task, ph):
    """The plan as a spreadsheet pasted into the chat: TSV (```tsv / ```text, as Google Sheets copies it) or CSV (```csv),
    quoted where a cell holds the delimiter or a quote ("Chinese, Seafood"). ONE ROW PER ITEM — a "Route" row per day,
    "Flight" (Name "A → B", Start / End the times, Notes the number), "Self-driving" / "Taxi" (Notes "3 hours 11 mins ·
    $120"), "Breakfast" / "Lunch" / "Dinner" (Name, City, Start 08:00 / 12:30 / 19:00, Notes the cuisines), "Sight" (Start
    the time, the sights' order), "Hotel" (Day "1-2" the nights, Start / End the check-in and check-out dates) — the
    header in one of four column orders with synonyms ("Day #", "Category", "Item" / "Place", "Location", "Starts",
    "Details", "Booking"), the rows sorted by day and time OR by type; dates ISO or US ("3/17/2022"). DECOYS: rows with
    Status "Dropped" (an option ruled out, the reason in Notes)."""
    r = ph.rng
    delim, order, fmt, by_type = r.choice(('\t', ',')), r.choice(_SH_ORDERS), r.choice(('iso', 'us')), r.random() < 0.4
    head = {k: r.choice(v) for k, v in _SH_SYN.items()}
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 2))
    recs = []                                              # (sort key, {column: cell})

    def rec(i, t, typ, **kw):
        row = {k: '' for k in _SH_SYN}
        row.update(day=str(plan[i]['days']), date=_sh_date(_date(task, i), fmt), type=typ, **kw)
        recs.append(((i, t), row))
    for i, d in enumerate(plan):
        rec(i, -2, 'Route', name=_rt(d['current_city']))
        if (q := _leg(d)):
            if q['mode'] == 'flight':
                rec(i, int(q['dep'][:2]) * 60 + int(q['dep'][3:]) - 0.1, 'Flight', name=f"{q['a']} → {q['b']}", start=q['dep'], end=q['arr'],
                    notes=q['number'], status=r.choice(('Booked', 'Booked', 'To book')))
            else:
                rec(i, -1, 'Taxi' if q['mode'] == 'taxi' else 'Self-driving', name=f"{q['a']} → {q['b']}",
                    notes=f"{q['duration']} · ${q['cost']}", status=r.choice(('Booked', 'To book')) if q['mode'] == 'taxi' else 'n/a')
        for t, kind, v in _timed(d):
            nm, c = _name_city(v)
            if kind == 'sight':
                rec(i, t, 'Sight', name=nm, city=c, start=_hm(t), status=r.choice(('Free', 'Free', 'Tickets')))
                continue
            x = _restaurant(nm, c)
            rec(i, t, _SH_MEAL[kind], name=nm, city=c, start=_hm(t), notes=x.cuisines if x and isinstance(x.cuisines, str) else '',
                status=r.choice(('Booked', 'To book', 'Walk-in')))
            if (i, kind) in meals: rec(i, t + 0.5, _SH_MEAL[kind], name=meals[(i, kind)], city=c, start=_hm(t), notes=r.choice(_SH_WHY['meal']), status='Dropped')
        if i in sights:
            pos, x = sights[i]
            nm, c = _name_city(x)
            rec(i, 1500, 'Sight', name=nm, city=c, notes=r.choice(_SH_WHY['Sight']), status='Dropped')
    for a, b, acc in _day_runs(plan):
        nm, c = _name_city(acc)
        kw = dict(name=nm, city=c, start=_sh_date(_date(task, a), fmt), end=_sh_date(_date(task, b) + _DAY_SPAN, fmt))
        day = f"{plan[a]['days']}" if a == b else f"{plan[a]['days']}-{plan[b]['days']}"
        rec(a, 2000, 'Hotel', notes=f"{b - a + 1} night{'s' * (a != b)}", status=r.choice(('Booked', 'To book')), **kw)
        recs[-1][1]['day'] = day
        if (a, b) in stays:
            rec(a, 2001, 'Hotel', notes=r.choice(_SH_WHY['Hotel']), status='Dropped', **{**kw, 'name': stays[(a, b)]})
            recs[-1][1]['day'] = day
    recs.sort(key=(lambda x: (x[1]['type'].lower(), x[0])) if by_type else (lambda x: x[0]))
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delim, lineterminator='\n')
    w.writerow([head[k] for k in order])
    for _, row in recs: w.writerow([row[k] for k in order])
    fence = '```csv' if delim == ',' else r.choice(('```tsv', '```text'))
    return '\n'.join([_SH_INTRO[delim], '', fence, buf.getvalue().rstrip('\n'), '```', '', r.choice(_SH_OUTRO)])


# yaml_anchors ---------------------------------------------------------------------------------------------------------
_YL = yaml.CSafeLoader if getattr(yaml, '__with_libyaml__', False) else yaml.SafeLoader
_YM_WHY = ("closed that day", "over budget", "too far from the rest of the day", "no rooms left for those nights")
_YM_INTRO = ("Here's the itinerary as YAML, ready for your trip-planner script:", "I've exported the plan to `itinerary.yaml`:")
_YM_OUTRO = ("`*name` lines reuse the hotel defined with `&name` — same booking, another night.",
             "Entries under `not_chosen` are options I ruled out; they are not part of the plan.")


@lru_cache(maxsize=None)
def _yq(s: str, flow: bool = False) -> str:
    "A YAML scalar for the string `s`: bare where YAML reads it back as this very string, else double-quoted (JSON escapes)."
    doc = f"k: {{v: {s}}}" if flow else f"k: {s}"
    try:
        got = yaml.load(doc, Loader=_YL)['k']
        if flow: got = got['v'] if isinstance(got, dict) and list(got) == ['v'] else None
        if got == s and isinstance(got, str) and not re.search(r'[{}\[\]]', s): return s
    except (yaml.YAMLError, TypeError): pass
    return json.dumps(s, ensure_ascii=False)


def _ym_map(pairs, flow: bool, ind: int) -> list[str]:
    "A mapping of (key, already-written scalar) pairs: flow '{a: 1, b: 2}' (one line, returned as [line]) or block lines."
    if flow: return ['{' + ', '.join(f"{k}: {v}" for k, v in pairs) + '}']
    return [' ' * ind + f"{k}: {v}" for k, v in pairs]


def _ym_venue(v: str, flow: bool) -> list[tuple[str, str]]:
    n, c = _name_city(v)
    return [('name', _yq(n, flow)), ('city', _yq(c, flow))]


def yaml_anchors(plan, task, ph):
    """The plan as a YAML document (```yaml) that uses YAML's own reuse: each stay written ONCE with an anchor — in a
    top-level "hotels:" list ("- &stay_1" with name, city, "nights: [1, 2]") or at its first night ("stay: &pure_luxury_1
    {name: ..., city: ...}") — and every night as an ALIAS ("stay: *stay_1"); in some renderings the empty meals come
    from a merge key ("x-empty-meals: &no_meals {breakfast: ~, ...}" and "meals: {<<: *no_meals, dinner: ...}"); days
    "- day: 2" with "date: 2022-03-17" (a YAML date), "city: Rockford" or "route: {from: A, to: B}", "travel" (mode flight
    / self-driving / taxi, number, from, to, depart "15:40" / arrive (quoted), duration, cost), "meals", "sights" (a list
    of {name, city}), "stay" (~ on the way home); block or flow style; names bare where YAML allows, else quoted.
    DECOYS: "not_chosen:" entries ({slot: lunch, name: Y, city: ..., why: closed that day}, a stay's with its nights)."""
    r = ph.rng
    flow, merge, first_use, slug, notes = r.random() < 0.5, r.random() < 0.5, r.random() < 0.5, r.random() < 0.5, r.random() < 0.5
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 1))
    n = len(plan)
    runs = _day_runs(plan)
    anchor = {}
    for j, (a, b, acc) in enumerate(runs):
        base = re.sub(r'[^a-z0-9]+', '_', _nm(acc).lower()).strip('_')[:20].strip('_') if slug else ''
        anchor[j] = f"{base or 'stay'}_{j + 1}"
    run_of = {i: j for j, (a, b, _) in enumerate(runs) for i in range(a, b + 1)}
    d0, d1 = _date(task, 0), _date(task, n - 1)
    out = [r.choice(_YM_INTRO), '', '```yaml', f"# {n}-day trip: {_get(task, 'org')} → {_get(task, 'dest')}", 'trip:',
           f"  from: {_yq(str(_get(task, 'org')))}", f"  to: {_yq(str(_get(task, 'dest')))}", f"  start: {d0.isoformat()}",
           f"  end: {d1.isoformat()}", f"  travelers: {_people(task)}"]
    if merge: out += ['', 'x-empty-meals: &no_meals', '  breakfast: ~', '  lunch: ~', '  dinner: ~']
    if not first_use and runs:
        out += ['', 'hotels:']
        for j, (a, b, acc) in enumerate(runs):
            ps = _ym_venue(acc, flow) + [('nights', '[' + ', '.join(str(plan[x]['days']) for x in range(a, b + 1)) + ']')]
            out += [f"  - &{anchor[j]} " + _ym_map(ps, True, 0)[0]] if flow else [f"  - &{anchor[j]}"] + _ym_map(ps, False, 4)
    out += ['', 'days:']
    for i, d in enumerate(plan):
        k = d['days']
        out += [f"  - day: {k}", f"    date: {_date(task, i).isoformat()}"]
        a, _, b = _rt(d['current_city']).partition(' → ')
        if not b: out.append(f"    city: {_yq(a)}")
        elif flow: out.append(f"    route: {{from: {_yq(a, True)}, to: {_yq(b, True)}}}")
        else: out += ['    route:', f"      from: {_yq(a)}", f"      to: {_yq(b)}"]
        if (q := _leg(d)):
            if q['mode'] == 'flight':
                ps = [('mode', 'flight'), ('number', _yq(q['number'], flow)), ('from', _yq(q['a'], flow)), ('to', _yq(q['b'], flow)),
                      ('depart', json.dumps(q['dep'])), ('arrive', json.dumps(q['arr']))]
            else:
                ps = [('mode', 'taxi' if q['mode'] == 'taxi' else 'self-driving'), ('from', _yq(q['a'], flow)), ('to', _yq(q['b'], flow)),
                      ('duration', _yq(q['duration'], flow)), ('cost', str(int(q['cost'])))]
            out += ['    travel: ' + _ym_map(ps, True, 0)[0]] if flow else ['    travel:'] + _ym_map(ps, False, 6)
        ms = [m for m in _MEALS if d[m] != '-']
        if merge and not ms: out.append('    meals: *no_meals')
        else:
            out += ['    meals:'] + (['      <<: *no_meals'] if merge else [])
            for m in (ms if merge else _MEALS):
                if d[m] == '-': out.append(f"      {m}: ~")
                elif flow: out.append(f"      {m}: " + _ym_map(_ym_venue(d[m], True), True, 0)[0])
                else: out += [f"      {m}:"] + _ym_map(_ym_venue(d[m], False), False, 8)
        at = _attractions(d['attraction'])
        if not at: out.append('    sights: []')
        else:
            out.append('    sights:')
            for x in at:
                if flow: out.append('      - ' + _ym_map(_ym_venue(x, True), True, 0)[0])
                else:
                    ls = _ym_map(_ym_venue(x, False), False, 8)
                    out += ['      - ' + ls[0][8:]] + ls[1:]
        if d['accommodation'] == '-': out.append('    stay: ~' + ('  # heading home' if notes and i == n - 1 else ''))
        else:
            j = run_of[i]
            ra, rb, _ = runs[j]
            cmt = f"  # night {i - ra + 1} of {rb - ra + 1}" if notes and rb > ra else ''
            if first_use and i == ra:
                if flow: out.append(f"    stay: &{anchor[j]} " + _ym_map(_ym_venue(d['accommodation'], True), True, 0)[0] + cmt)
                else: out += [f"    stay: &{anchor[j]}" + cmt] + _ym_map(_ym_venue(d['accommodation'], False), False, 6)
            else: out.append(f"    stay: *{anchor[j]}" + cmt)
        dec = []
        for m in _MEALS:
            if (i, m) in meals: dec.append([('slot', m)] + _ym_venue(_with_name(d[m], meals[(i, m)]), flow) + [('why', r.choice(_YM_WHY[:3]))])
        if i in sights: dec.append([('slot', 'sight')] + _ym_venue(sights[i][1], flow) + [('why', r.choice(_YM_WHY[:3]))])
        for (a_, b_), z in stays.items():
            if a_ == i:
                dec.append([('slot', 'stay')] + _ym_venue(_with_name(d['accommodation'], z), flow) +
                           [('nights', '[' + ', '.join(str(plan[x]['days']) for x in range(a_, b_ + 1)) + ']'), ('why', _YM_WHY[r.choice((1, 3))])])
        if dec:
            out.append('    not_chosen:')
            for ps in dec:
                if flow: out.append('      - ' + _ym_map(ps, True, 0)[0])
                else:
                    ls = _ym_map(ps, False, 8)
                    out += ['      - ' + ls[0][8:]] + ls[1:]
    return '\n'.join(out + ['```', '', r.choice(_YM_OUTRO)])


# da_uk_ca_sw_table ----------------------------------------------------------------------------------------------------
_CA_MONTHS = ("de gener", "de febrer", "de març", "d'abril", "de maig", "de juny", "de juliol", "d'agost", "de setembre", "d'octubre",
              "de novembre", "de desembre")
_SW_MONTHS = 'Januari Februari Machi Aprili Mei Juni Julai Agosti Septemba Oktoba Novemba Desemba'.split()
_LG14 = {
    'da': dict(cols=('Dag', 'Dato', 'Rute', 'Transport', 'Morgenmad', 'Seværdigheder', 'Frokost', 'Middag', 'Overnatning'),
               none='ingen', none_stay='ingen (hjemrejse)', wd='mandag tirsdag onsdag torsdag fredag lørdag søndag'.split(),
               date=lambda d, wd: f"{wd} d. {d.day}.{d.month}.{d.year}", time=lambda t: t.replace(':', '.'),
               flight='Fly {n}: {a} → {b}, afgang kl. {dep}, ankomst kl. {arr}', road='{how}: {a} → {b}, ca. {dur}, {cost} USD',
               how={'drive': 'Egen bil', 'taxi': 'Taxa'}, units={'day': 'd.', 'hour': 't.', 'min': 'min.'}, unit_first=False,
               joins={', then later ': ', senere ', '; plus ': '; samt '},
               intro=("Her er jeres rejseplan dag for dag:", "Sådan ser turen ud:"), outro="God tur!"),
    'uk': dict(cols=('День', 'Дата', 'Маршрут', 'Транспорт', 'Сніданок', "Пам'ятки", 'Обід', 'Вечеря', 'Проживання'),
               none='немає', none_stay='немає (повернення додому)', wd="понеділок вівторок середа четвер п'ятниця субота неділя".split(),
               date=lambda d, wd: f"{wd}, {d:%d.%m.%Y}", time=lambda t: t,
               flight='Рейс {n}: {a} → {b}, виліт {dep}, приліт {arr}', road='{how}: {a} → {b}, близько {dur}, {cost} USD',
               how={'drive': 'Власним авто', 'taxi': 'Таксі'}, units={'day': 'дн.', 'hour': 'год', 'min': 'хв'}, unit_first=False,
               joins={', then later ': ', потім ', '; plus ': '; а також '},
               intro=("Ось ваш план подорожі по днях:", "Маршрут поїздки:"), outro="Гарної подорожі!"),
    'ca': dict(cols=('Dia', 'Data', 'Ruta', 'Transport', 'Esmorzar', "Llocs d'interès", 'Dinar', 'Sopar', 'Allotjament'),
               none='cap', none_stay='cap (dia de tornada)', wd='dilluns dimarts dimecres dijous divendres dissabte diumenge'.split(),
               date=lambda d, wd: f"{wd}, {d.day} {_CA_MONTHS[d.month - 1]} de {d.year}", time=lambda t: t.replace(':', '.'),
               flight='Vol {n}: {a} → {b}, sortida a les {dep} h, arribada a les {arr} h', road='{how}: {a} → {b}, aprox. {dur}, {cost} USD',
               how={'drive': 'Cotxe propi', 'taxi': 'Taxi'}, units={'day': 'd', 'hour': 'h', 'min': 'min'}, unit_first=False,
               joins={', then later ': ', després ', '; plus ': '; i també '},
               intro=("Aquí teniu l'itinerari, dia a dia:", "Així queda el viatge:"), outro="Bon viatge!"),
    'sw': dict(cols=('Siku', 'Tarehe', 'Njia', 'Usafiri', 'Kifungua kinywa', 'Vivutio', 'Chakula cha mchana', 'Chakula cha jioni', 'Malazi'),
               none='hakuna', none_stay='hakuna (siku ya kurudi)', wd='Jumatatu Jumanne Jumatano Alhamisi Ijumaa Jumamosi Jumapili'.split(),
               date=lambda d, wd: f"{wd}, {d.day} {_SW_MONTHS[d.month - 1]} {d.year}", time=lambda t: t,
               flight='Ndege {n}: {a} → {b}, kuondoka {dep}, kuwasili {arr}', road='{how}: {a} → {b}, takriban {dur}, USD {cost}',
               how={'drive': 'Kujiendesha', 'taxi': 'Teksi'}, units={'day': 'siku', 'hour': 'saa', 'min': 'dakika'}, unit_first=True,
               joins={', then later ': ', kisha ', '; plus ': '; pamoja na '},
               intro=("Huu hapa mpango wako wa safari, siku kwa siku:", "Ratiba kamili ya safari:"), outro="Safari njema!"),
}
_LT_KEYS = ('day', 'date', 'route', 'leg', 'breakfast', 'attraction', 'lunch', 'dinner', 'accommodation')
_LT_ORDERS = {'day': (0, 1, 2, 3, 4, 5, 6, 7, 8), 'meals_first': (0, 1, 2, 3, 4, 6, 7, 5, 8)}


def _lt_date(lg, task, i) -> str:
    d = _date(task, i)
    return _LG14[lg]['date'](d, _LG14[lg]['wd'][d.weekday()])


def _lt_dur(lg, s) -> str:
    L = _LG14[lg]
    return ' '.join(f"{L['units'][u]} {n}" if L['unit_first'] else f"{n} {L['units'][u]}" for n, u in _dur_key(s))


def _lt_leg(lg, t) -> str:
    p, L = _leg_parts(t), _LG14[lg]
    if p['mode'] == 'flight': return L['flight'].format(n=p['number'], a=p['a'], b=p['b'], dep=L['time'](p['dep']), arr=L['time'](p['arr']))
    return L['road'].format(how=L['how'][p['mode']], a=p['a'], b=p['b'], dur=_lt_dur(lg, p['duration']), cost=p['cost'])


def da_uk_ca_sw_table(plan, task, ph):
    """The plan as ONE markdown table in Danish, Ukrainian, Catalan or Swahili (drawn), a row per day, the headers in the
    language: "| Dag | Dato | Rute | Transport | Morgenmad | Seværdigheder | Frokost | Middag | Overnatning |" (Danish
    'Middag' is DINNER, 'Frokost' lunch), "| День | Дата | Маршрут | Транспорт | Сніданок | Пам'ятки | Обід | Вечеря |
    Проживання |", "| Dia | Data | Ruta | Transport | Esmorzar | Llocs d'interès | Dinar | Sopar | Allotjament |" (Catalan
    'Dinar' is LUNCH), "| Siku | Tarehe | Njia | Usafiri | Kifungua kinywa | Vivutio | Chakula cha mchana | Chakula cha
    jioni | Malazi |"; the sights after the breakfast or after the dinner column (drawn); dates "torsdag d. 17.3.2022",
    "четвер, 17.03.2022", "dijous, 17 de març de 2022" / "17 d'abril de 2022", "Alhamisi, 17 Machi 2022"; legs translated
    ("Fly F1: A → B, afgang kl. 15.40, ankomst kl. 17.04", "Рейс F1: ..., виліт 15:40, приліт 17:04", "Vol F1: ..., sortida
    a les 15.40 h, ...", "Ndege F1: ..., kuondoka 15:40, kuwasili 17:04"; "Egen bil: A → B, ca. 3 t. 11 min., 120 USD",
    "Власним авто: ..., близько 3 год 11 хв, 120 USD", "Cotxe propi: ..., aprox. 3 h 11 min, 120 USD", "Kujiendesha: ...,
    takriban saa 3 dakika 11, USD 120" — Swahili puts the unit BEFORE the number); the placement's words translated ("X
    (Rockford-området)", "X у місті Rockford", "X a la ciutat de Rockford", "X (eneo la Rockford)"); an empty cell
    'ingen' / 'немає' / 'cap' / 'hakuna' (the last night '... (hjemrejse)' etc.) or '—'; '|' in a name escaped."""
    r = ph.rng
    lg = r.choice(tuple(_LG14))
    L, say_none = _LG14[lg], r.random() < 0.6
    order = _LT_ORDERS[r.choice(tuple(_LT_ORDERS))]
    join = L['joins'].get(ph.join, ph.join)
    out = [r.choice(L['intro']), '', _row([L['cols'][j] for j in order]), '|' + '---|' * len(order)]
    for i, d in enumerate(plan):
        at = _attractions(d['attraction'])
        none = lambda k: (L['none_stay'] if k == 'accommodation' and i == len(plan) - 1 else L['none']) if say_none else '—'
        vals = {'day': str(d['days']), 'date': _lt_date(lg, task, i), 'route': _rt(d['current_city']),
                'leg': _lt_leg(lg, d['transportation']) if d['transportation'] != '-' else none('leg'),
                'attraction': join.join(_venue(ph, x, lg) for x in at) or none('attraction'),
                **{k: _venue(ph, d[k], lg) if d[k] != '-' else none(k) for k in (*_MEALS, 'accommodation')}}
        out.append(_row([vals[_LT_KEYS[j]] for j in order]))
    return '\n'.join(out + ['', L['outro']])


# jsonld_reservations --------------------------------------------------------------------------------------------------
_JL_ST = {'ok': 'https://schema.org/ReservationConfirmed', 'pending': 'https://schema.org/ReservationPending',
          'cancel': 'https://schema.org/ReservationCancelled'}
_JL_TIMES = {'breakfast': ('07:30', '08:00', '08:30', '09:00'), 'lunch': ('12:00', '12:30', '13:00', '13:30'),
             'dinner': ('18:30', '19:00', '19:30', '20:00')}
_JL_PEOPLE = ('Jamie Chen', 'Robin Patel', 'Casey Moore', 'Ari Cohen')
_JL_INTRO = {'html': "Here's the whole trip as schema.org JSON-LD — paste it into a confirmation e-mail or your notes and Gmail / "
                     "Google Calendar will pick the bookings up:",
             'json': "Here's the plan as JSON-LD (schema.org reservation markup) that your calendar tools can import:"}
_JL_OUTRO = ("Reservations marked ReservationCancelled were replaced by the confirmed ones.", "Times are local.")


def _iso_dur(s: str) -> str:
    "'3 hours 11 mins' -> 'PT3H11M' (ISO 8601)."
    k = dict((u, n) for n, u in _dur_key(s))
    t = ''.join(f"{k[u]}{c}" for u, c in (('hour', 'H'), ('min', 'M')) if u in k)
    return 'P' + (f"{k['day']}D" if 'day' in k else '') + (f"T{t}" if t else '')


def _un_iso_dur(s: str) -> str:
    m = re.fullmatch(r'P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?', s)
    if not m or not any(m.groups()) or s.endswith('T'): raise ValueError(f"ISO duration {s!r}")
    return ' '.join(f"{m[j]} {u}" for j, u in ((1, 'day'), (2, 'hour'), (3, 'min')) if m[j])


def _addr(c: str) -> dict:
    return {'@type': 'PostalAddress', 'addressLocality': c, **({'addressRegion': _POSTAL_OF[c]} if c in _POSTAL_OF else {}), 'addressCountry': 'US'}


def _code(r) -> str: return ''.join(r.choice('ABCDEFGHJKLMNPQRSTUVWXYZ23456789') for _ in range(6))


def _jl_dump(doc) -> str:
    """The JSON-LD as people format it by hand: the graph's objects one key a line (a reservation's "reservationFor"
    too), smaller objects on one line each ("address", an itinerary's places)."""
    c = lambda v: json.dumps(v, ensure_ascii=False)

    def obj(d, ind, expand):
        items = []
        for k, v in d.items():
            if isinstance(v, dict) and k in expand: x = obj(v, ind + 2, ())
            elif isinstance(v, list) and v and all(isinstance(y, dict) for y in v):
                x = '[\n' + ',\n'.join(' ' * (ind + 4) + c(y) for y in v) + '\n' + ' ' * (ind + 2) + ']'
            else: x = c(v)
            items.append(' ' * (ind + 2) + f"{c(k)}: {x}")
        return '{\n' + ',\n'.join(items) + '\n' + ' ' * ind + '}'
    graph = '[\n' + ',\n'.join(' ' * 4 + obj(o, 4, ('reservationFor',)) for o in doc['@graph']) + '\n  ]'
    return '{\n  "@context": ' + c(doc['@context']) + ',\n  "@graph": ' + graph + '\n}'


def jsonld_reservations(plan, task, ph):
    """The plan as schema.org JSON-LD (Gmail / Google Calendar reservation markup), in a `<script type="application/ld+json">`
    inside ```html or a bare ```json block: an "@graph" with a "TouristTrip" for the trip ("subTrip" refs) and one per day
    ("name": "Day 2", "startDate", "itinerary": the route's "City" objects then the day's "TouristAttraction"s in order,
    each with a PostalAddress), then the bookings: "FlightReservation" (Flight: flightNumber, departureAirport /
    arrivalAirport by addressLocality, departureTime / arrivalTime "2022-03-16T15:40:00"), "TravelAction" for a drive or a
    taxi (instrument Car / Taxi, fromLocation, toLocation, ISO duration "PT3H11M", price), "FoodEstablishmentReservation"
    (the MEAL only by its startTime — 07:30-09:00 breakfast, 12:00-13:30 lunch, 18:30-20:00 dinner — with a "description"
    "Lunch" in some renderings; partySize, servesCuisine), "LodgingReservation" (checkinTime on the first night,
    checkoutTime the morning after the last); chronological or grouped by type. DECOYS: reservations with
    "reservationStatus": "https://schema.org/ReservationCancelled" (a meal's or a stay's first pick)."""
    r = ph.rng
    html, by_type, desc = r.random() < 0.5, r.random() < 0.4, r.random() < 0.5
    meals, stays, _ = _revision_decoys(plan, r, (0, 1, 2))
    n, people, who = len(plan), _people(task), r.choice(_JL_PEOPLE)
    iso = lambda i: _date(task, i).isoformat()
    days = []
    for i, d in enumerate(plan):
        a, _, b = _rt(d['current_city']).partition(' → ')
        it = [{'@type': 'City', 'name': c} for c in ([a, b] if b else [a])]
        it += [{'@type': 'TouristAttraction', 'name': _nm(x), 'address': _addr(_name_city(x)[1])} for x in _attractions(d['attraction'])]
        days.append({'@type': 'TouristTrip', '@id': f"#day-{d['days']}", 'name': f"Day {d['days']}", 'startDate': iso(i), 'itinerary': it})
    res = []                                                   # (sort key, type rank, object)

    def food(i, m, v, t, st):
        nm, c = _name_city(v)
        x = _restaurant(nm, c)
        o = {'@type': 'FoodEstablishmentReservation', 'reservationNumber': _code(r), 'reservationStatus': _JL_ST[st],
             'underName': {'@type': 'Person', 'name': who}, 'partySize': people, 'startTime': f"{iso(i)}T{t}:00"}
        if desc: o['description'] = m.capitalize()
        o['reservationFor'] = {'@type': 'Restaurant', 'name': nm, 'address': _addr(c),
                               **({'servesCuisine': x.cuisines} if x and isinstance(x.cuisines, str) else {})}
        res.append((o['startTime'], 3, o))
    for i, d in enumerate(plan):
        if (q := _leg(d)):
            if q['mode'] == 'flight':
                h0, h1 = q['dep'], q['arr']
                arr_day = _date(task, i) + (_DAY_SPAN if h1 < h0 else datetime.timedelta(0))
                o = {'@type': 'FlightReservation', 'reservationNumber': _code(r), 'reservationStatus': _JL_ST[r.choice(('ok', 'ok', 'pending'))],
                     'underName': {'@type': 'Person', 'name': who},
                     'reservationFor': {'@type': 'Flight', 'flightNumber': q['number'],
                                        'departureAirport': {'@type': 'Airport', 'address': {'@type': 'PostalAddress', 'addressLocality': q['a']}},
                                        'arrivalAirport': {'@type': 'Airport', 'address': {'@type': 'PostalAddress', 'addressLocality': q['b']}},
                                        'departureTime': f"{iso(i)}T{h0}:00", 'arrivalTime': f"{arr_day.isoformat()}T{h1}:00"}}
                res.append((f"{iso(i)}T{h0}", 0, o))
            else:
                o = {'@type': 'TravelAction', 'name': 'Taxi' if q['mode'] == 'taxi' else 'Self-driving',
                     'instrument': {'@type': 'Taxi' if q['mode'] == 'taxi' else 'Car'},
                     'fromLocation': {'@type': 'City', 'name': q['a']}, 'toLocation': {'@type': 'City', 'name': q['b']},
                     'startTime': iso(i), 'duration': _iso_dur(q['duration']), 'price': int(q['cost']), 'priceCurrency': 'USD'}
                res.append((f"{iso(i)}T00:00", 1, o))
        for m in _MEALS:
            if d[m] == '-': continue
            t = r.choice(_JL_TIMES[m])
            if (i, m) in meals: food(i, m, _with_name(d[m], meals[(i, m)]), t, 'cancel')
            food(i, m, d[m], t, r.choice(('ok', 'ok', 'pending')))
    for a, b, acc in _day_runs(plan):
        ci, co = r.choice(('15:00', '16:00')), r.choice(('10:00', '11:00'))
        for nm, st in ([(stays[(a, b)], 'cancel')] if (a, b) in stays else []) + [(_nm(acc), r.choice(('ok', 'ok', 'pending')))]:
            o = {'@type': 'LodgingReservation', 'reservationNumber': _code(r), 'reservationStatus': _JL_ST[st],
                 'underName': {'@type': 'Person', 'name': who}, 'numAdults': people, 'checkinTime': f"{iso(a)}T{ci}:00",
                 'checkoutTime': f"{(_date(task, b) + _DAY_SPAN).isoformat()}T{co}:00",
                 'reservationFor': {'@type': 'LodgingBusiness', 'name': nm, 'address': _addr(_name_city(acc)[1])}}
            res.append((o['checkinTime'][:16], 2, o))
    res.sort(key=(lambda x: (x[1], x[0])) if by_type else (lambda x: (x[0], x[1])))
    trip = {'@type': 'TouristTrip', '@id': '#trip', 'name': f"{_get(task, 'org')} → {_get(task, 'dest')}", 'startDate': iso(0),
            'endDate': iso(n - 1), 'subTrip': [{'@id': x['@id']} for x in days]}
    body = _jl_dump({'@context': 'https://schema.org', '@graph': [trip] + days + [o for *_, o in res]})
    wrap = ['```html', '<script type="application/ld+json">', body, '</script>', '```'] if html else ['```json', body, '```']
    return '\n'.join([_JL_INTRO['html' if html else 'json'], ''] + wrap + ['', r.choice(_JL_OUTRO)])


# todo_txt -------------------------------------------------------------------------------------------------------------
_TD_WHY = {'meal': ("closed that day", "no table left", "over the food budget"), 'stay': ("no rooms left", "over budget"),
           'sight': ("not enough time", "too far out")}
_TD_INTRO = {'ls': "I've added the whole trip to your todo.txt — here's the listing:",
             'file': "Here's the trip as a todo.txt file — one task per line; due: is the day, at: the time:"}
_TD_OUTRO = ("Completed (x) tasks are bookings already made — and the cancellations.", "Reservations still to make have a priority; (A) first.")


def _td_proj(task) -> str: return '+' + re.sub(r'[^A-Za-z0-9]', '', str(_get(task, 'dest'))) + 'Trip'


def todo_txt(plan, task, ph):
    """The trip as a todo.txt task list (the plain-text format of todo.txt apps): EITHER the file (```text), tasks in the
    agent's order, OR the listing `todo.sh ls +RockfordTrip` prints (```console): each task with its LINE NUMBER in the
    file ("07 (A) ..."), the lines SORTED alphabetically (case-insensitive), so the days are interleaved, then "--" and
    "TODO: 24 of 24 tasks shown". A task: "x <done> <created> " (done: a booking made) or "(A) <created> " / "<created> ",
    the text, the project "+RockfordTrip", a context ("@online", "@phone", "@sightseeing"), "due:2022-03-17" (THE DAY)
    and "at:12:30" (the time): "Day 2: Rockford", "Book flight F1 A → B (15:40–17:04)", "Drive A → B (3 hours 11 mins,
    ~$120)" / "Book taxi ...", "Breakfast place: X (Rockford area)" (the drawn meal label and placement), "Visit Y ..." (the
    sights' order by at:), "Book stay at W ... for nights 1–2" (due: the check-in day). DECOYS: completed cancellations
    ("x ... Cancel lunch at Z ... (closed that day)", "Cancel stay at ... for nights 1–2 (...)", "Drop S from day 2 (...)")."""
    r = ph.rng
    ls = r.random() < 0.5
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 2))
    proj = _td_proj(task)
    created = _date(task, 0) - datetime.timedelta(days=r.randrange(6, 21))
    lines = []

    def add(desc, i, pri=None, x=False, ctx=None, at=None):
        if x: s = f"x {created + datetime.timedelta(days=r.randrange(1, 4)):%Y-%m-%d} {created:%Y-%m-%d} "
        else: s = (f"({pri}) " if pri else '') + f"{created:%Y-%m-%d} "
        lines.append(s + desc + f" {proj}" + (f" @{ctx}" if ctx else '') + f" due:{_date(task, i).isoformat()}" + (f" at:{at}" if at else ''))
    run_at = {a: (a, b, acc) for a, b, acc in _day_runs(plan)}
    for i, d in enumerate(plan):
        k = d['days']
        add(f"Day {k}: {_rt(d['current_city'])}", i)
        if (q := _leg(d)):
            if q['mode'] == 'flight': add(f"Book flight {q['number']} {q['a']} → {q['b']} ({q['dep']}–{q['arr']})", i, 'A', r.random() < 0.7, 'online')
            elif q['mode'] == 'taxi': add(f"Book taxi {q['a']} → {q['b']} ({q['duration']}, ~${q['cost']})", i, 'B', r.random() < 0.5, 'phone')
            else: add(f"Drive {q['a']} → {q['b']} ({q['duration']}, ~${q['cost']})", i)
        for t, kind, v in _timed(d):
            if kind == 'sight':
                add(f"Visit {ph.venue(v)}", i, r.choice(('C', None)), False, 'sightseeing', _hm(t))
                continue
            add(ph.meal(kind.capitalize(), v), i, 'B', r.random() < 0.5, r.choice(('phone', 'online')), _hm(t))
            if (i, kind) in meals: add(f"Cancel {kind} at {ph.venue(_with_name(v, meals[(i, kind)]))} ({r.choice(_TD_WHY['meal'])})", i, x=True)
        if i in sights: add(f"Drop {ph.venue(sights[i][1])} from day {k} ({r.choice(_TD_WHY['sight'])})", i, x=True)
        if i in run_at:
            a, b, acc = run_at[i]
            nights = f"night {plan[a]['days']}" if a == b else f"nights {plan[a]['days']}–{plan[b]['days']}"
            add(f"Book stay at {ph.venue(acc)} for {nights}", i, 'A', r.random() < 0.7, 'online')
            if (a, b) in stays: add(f"Cancel stay at {ph.venue(_with_name(acc, stays[(a, b)]))} for {nights} ({r.choice(_TD_WHY['stay'])})", i, x=True)
    if not ls: return '\n'.join([_TD_INTRO['file'], '', '```text'] + lines + ['```', '', r.choice(_TD_OUTRO)])
    w = len(str(len(lines)))
    shown = [f"{j + 1:0{w}d} {ln}" for j, ln in sorted(enumerate(lines), key=lambda x: (x[1].lower(), x[0]))]
    return '\n'.join([_TD_INTRO['ls'], '', '```console', f"$ todo.sh ls {proj}"] + shown +
                     ['--', f"TODO: {len(lines)} of {len(lines)} tasks shown", '```', '', r.choice(_TD_OUTRO)])


HELDOUT14_LAYOUTS = {f.__name__: f for f in (glance_then_details, agent_email_reply, cost_split, sheet_paste, yaml_anchors,
                                              da_uk_ca_sw_table, jsonld_reservations, todo_txt)}
"""Held-out part v14 (layouts and `HELDOUT14_PHRASES`, rendered with `Phr14`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr14(HELDOUT14_PHRASES, random.Random(f"heldout14:{name}:{t.idx}:{j}"), p)


def renderings14(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout14:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT14_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser below, written for the layout (not a general reader): each rendering is read back into
# the plan's own values — the route as current_city ('from A to B' | 'A'), the leg as its parts (flight number, cities,
# times; or mode, cities, duration, cost), each meal and the stay as 'Name, City' or '-', the sights as ['Name, City',
# ...] — and compared with the plan EXACTLY (`_cmp` of layouts_v8). Decoys (the overview's short names, the quoted draft,
# refunds, dropped rows, not_chosen entries, cancelled reservations and tasks) are resolved as the text says, and
# checked against what it states elsewhere.


def _same_days(a, b) -> bool:
    return len(a) == len(b) and all(x == y for x, y in zip(a, b))


# glance_then_details --------------------------------------------------------------------------------------------------
_GL_FL = re.compile(r'Flight (\S+) from (.+?) to (.+), departs (\d\d:\d\d), arrives (\d\d:\d\d)')
_GL_RD = re.compile(r'(Taxi|Self-drive) from (.+?) to (.+), about (.+), \$(\d+)')


def _read_gl(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    n = len(plan)
    heads = next((h for h in _GL_HEADS if lines[2:3] == [h[0]]), None)
    if heads is None or heads[1] not in lines: raise ValueError('overview / details heads')
    if lines[0] not in [t.format(n=n, org=_get(task, 'org'), dest=_get(task, 'dest')) for t in _GL_INTRO] or lines[1] != '' or lines[3] != '':
        errs.append('intro')
    if lines[-1] not in _GL_OUTRO or lines[-2] != '': errs.append('outro')
    j = lines.index(heads[1])
    over = lines[4:j - 1]
    if lines[j - 1] != '': errs.append('overview end')
    ix = _dix(task, n, 'long')
    days, saids, stays, any_none, sub = [], [], [], False, None
    for ln in lines[j + 1:-2]:
        if ln == '': continue
        if (h := re.fullmatch(r'### Day (\d+) — (.+?): (.+)', ln)):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h[3]))); saids.append([]); stays.append(0); sub = None
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k = days[-1], len(days)
        if ln.startswith('  - '):
            if sub != k: errs.append(f"day {k}: sub-bullet {ln!r}"); continue
            g['attraction'].append(_unvenue(ph, ln[4:])); continue
        if sub == k and not g['attraction']: errs.append(f"day {k}: sights header without sights")
        sub = None
        if stays[-1]: errs.append(f"day {k}: {ln!r} after the stay")
        if ln.startswith('- 🚆 **Travel:** '):
            s = ln[len('- 🚆 **Travel:** '):]
            if (q := _GL_FL.fullmatch(s)): _put(g, 'leg', _flight(*q.groups()), errs, f"day {k}: ")
            elif (q := _GL_RD.fullmatch(s)): _put(g, 'leg', _road_key('taxi' if q[1] == 'Taxi' else 'drive', *q.groups()[1:]), errs, f"day {k}: ")
            else: errs.append(f"day {k}: travel {s!r}")
        elif ln == '- 📍 **Sights:**' or ln.startswith('- 📍 **Sights:** '):
            if g['attraction'] or 'breakfast' not in saids[-1] and g['breakfast'] != '-' or set(saids[-1]) - {'breakfast'}: errs.append(f"day {k}: sights placed")
            if ln == '- 📍 **Sights:**': sub = k
            else: g['attraction'] = _unitems(ph, ln[len('- 📍 **Sights:** '):])
        elif ln.startswith('- 🛏️ **Stay:** '):
            v = ln[len('- 🛏️ **Stay:** '):]
            stays[-1] += 1
            if v in ('— (heading home)', '— (none booked)'):
                if (v == '— (heading home)') != (k == n): errs.append(f"day {k}: stay {v!r}")
            else: _put(g, 'accommodation', _unvenue(ph, v), errs, f"day {k}: ")
        elif (q := re.fullmatch(r'- (🍳|🥪|🍝) (.+)', ln)) and (mm := _unmeal(ph, q[2])):
            m, v = mm
            if q[1] != _GL_ICON[m]: errs.append(f"day {k}: icon of {ln!r}")
            if saids[-1] and _MEALS.index(saids[-1][-1]) >= _MEALS.index(m): errs.append(f"day {k}: meals out of order")
            _said(saids[-1], m, errs, f"day {k}: ")
            if v == '— (on your own)': any_none = True
            else: _put(g, m, _unvenue(ph, v), errs, f"day {k}: ")
        else: errs.append(f"day {k}: line {ln!r}")
    if any(s > 1 for s in stays) or any(s == 0 for s in stays[:-1]) or (stays and stays[-1] == 0 and any_none): errs.append(f"stays stated {stays}")
    if any_none: _all_said(saids, errs)
    if over not in [_gl_over(days, task, k, t) for k in (2, 3) for t in (True, False)]: errs.append('the overview does not match the details')
    return days, errs


# agent_email_reply ----------------------------------------------------------------------------------------------------
_EM_FL = re.compile(r'Flight (\S+), (.+?) → (.+), departs (\d\d:\d\d), arrives (\d\d:\d\d)')
_EM_RD = re.compile(r'(Taxi|Self-drive), (.+?) → (.+), about (.+), \$(\d+)')
_EM_CH = (re.compile(r'- Day (\d+) (breakfast|lunch|dinner): (.+) instead of (.+) \(' + _alt(_EM_WHY['meal']) + r'\)'),
          re.compile(r'- (Nights? \d+(?:–\d+)?): (.+) instead of (.+) \(' + _alt(_EM_WHY['stay']) + r'\)'),
          re.compile(r'- Day (\d+): no (.+) \(' + _alt(_EM_WHY['sight']) + r'\)'))
_EM_FIX = (re.compile(r"Let's do (.+) for (breakfast|lunch|dinner) on Day (\d+) instead, please — " + _alt(_EM_WHY['meal']) + r"\."),
           re.compile(r"Please book (.+) for (nights? \d+(?:–\d+)?) instead — " + _alt(_EM_WHY['stay']) + r"\."),
           re.compile(r"Please drop (.+) from Day (\d+) — " + _alt(_EM_WHY['sight']) + r"\."))


def _em_parse(lines, task, ph, n, errs, where=''):
    "(days, {line index: tag}) of a plan block as `_em_block` writes it."
    days, saids, hotel, tags, any_none = [], [], [], {}, False
    ix = _dix(task, n, 'mon')
    for j, ln in enumerate(lines):
        if ln == '':
            if j + 1 < len(lines) and not lines[j + 1].startswith('Day '): errs.append(f"{where}blank line inside a day")
            continue
        if (h := re.fullmatch(r'Day (\d+) — (.+?) — (.+)', ln)):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days) or (days and lines[j - 1] != ''): errs.append(f"{where}head {ln!r}")
            days.append(_blank(_back(h[3]))); saids.append([]); hotel.append(0)
            continue
        if not days or not ln.startswith('  • '): errs.append(f"{where}line {ln!r}"); continue
        g, k, x = days[-1], len(days), ln[4:]
        if hotel[-1]: errs.append(f"{where}day {k}: {ln!r} after the hotel")
        if x.startswith('Travel: '):
            if (q := _EM_FL.fullmatch(x[8:])): _put(g, 'leg', _flight(*q.groups()), errs, f"{where}day {k}: ")
            elif (q := _EM_RD.fullmatch(x[8:])): _put(g, 'leg', _road_key('taxi' if q[1] == 'Taxi' else 'drive', *q.groups()[1:]), errs, f"{where}day {k}: ")
            else: errs.append(f"{where}day {k}: travel {x!r}")
        elif x.startswith('Sights: '):
            if g['attraction'] or 'lunch' in saids[-1] or 'dinner' in saids[-1]: errs.append(f"{where}day {k}: sights placed")
            g['attraction'] = _unitems(ph, x[8:]); tags[j] = (k - 1, 'sights')
        elif x.startswith('Hotel: '):
            v = x[7:]
            hotel[-1] += 1; tags[j] = (k - 1, 'hotel')
            if v in ('none — heading home', 'none'):
                if (v == 'none') == (k == n): errs.append(f"{where}day {k}: hotel {v!r}")
            else: _put(g, 'accommodation', _unvenue(ph, v), errs, f"{where}day {k}: ")
        elif (mm := _unmeal(ph, x)):
            m, v = mm
            _said(saids[-1], m, errs, f"{where}day {k}: ")
            if v == 'none': any_none = True
            else: _put(g, m, _unvenue(ph, v), errs, f"{where}day {k}: "); tags[j] = (k - 1, 'meal', m)
        else: errs.append(f"{where}day {k}: line {ln!r}")
    if any(h != 1 for h in hotel): errs.append(f"{where}hotel lines {hotel}")
    if any_none: _all_said(saids, errs)
    return days, tags


def _em_nights(s: str) -> tuple[int, int]: return _untag(s[0].upper() + s[1:])


def _em_apply(days, kind, q, errs):
    "Apply one change (a change-list line or an inline correction, `q` its match) to the draft `days`."
    if kind == 'meal':
        g = _day_of(days, int(q['k']))
        if g is None or g[q['m']] in ('-', None) or _nm(g[q['m']]) != q['old'] or q['old'] == (_nm(q['new']) if q.get('full') else q['new']):
            errs.append(f"change {q}"); return
        g[q['m']] = q['new'] if q.get('full') else _with_name(g[q['m']], q['new'])
    elif kind == 'stay':
        a, b = q['nights']
        olds = {days[x - 1]['accommodation'] if _day_of(days, x) else None for x in range(a, b + 1)}
        old = olds.pop() if len(olds) == 1 else None
        if old in (None, '-') or (q['old'] is not None and _nm(old) != q['old']) or _nm(old) == (_nm(q['new']) if q.get('full') else q['new']) or \
                any(_day_of(days, x) and days[x - 1]['accommodation'] == old for x in (a - 1, b + 1)):
            errs.append(f"change {q}"); return
        for x in range(a, b + 1): days[x - 1]['accommodation'] = q['new'] if q.get('full') else _with_name(old, q['new'])
    else:
        g = _day_of(days, int(q['k']))
        hit = [x for x in (g['attraction'] if g else []) if _nm(x) == q['name']]
        if len(hit) != 1: errs.append(f"change {q}"); return
        g['attraction'].remove(hit[0])


def _read_em(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    n = len(plan)
    fr, to = re.fullmatch(r'From: (.+) <(.+)>', lines[0]), re.fullmatch(r'To: (.+) <(.+)>', lines[1])
    if not fr or not to or (fr[1], fr[2]) not in _EM_CLIENTS or (to[1], to[2]) not in _EM_AGENTS: raise ValueError('From / To')
    cn, an = fr[1].split()[0], to[1].split()[0]
    d0, d1 = _date(task, 0), _date(task, n - 1)
    if lines[2] != f"Subject: Re: Draft itinerary — {_get(task, 'org')} to {_get(task, 'dest')}, {_span_text(d0, d1)}": errs.append('subject')
    if not re.fullmatch(r'Date: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d -0500', lines[3]) or lines[4:7] != ['', f"Hi {an},", '']: errs.append('head')
    wre = re.compile(r'On \w{3}, \w{3} \d{1,2}, \d{4} at \d{1,2}:\d\d [AP]M ' + re.escape(f"{to[1]} <{to[2]}>") + ' wrote:')
    ws = [j for j, ln in enumerate(lines) if wre.fullmatch(ln)]
    if len(ws) != 1: raise ValueError('the quoted message')
    w = ws[0]

    def unquote(ls):
        out = []
        for x in ls:
            if x == '>': out.append('')
            elif x.startswith('> '): out.append(x[2:])
            else: raise ValueError(f"quoted line {x!r}")
        return out

    def draft_of(q):
        if q[:4] != [f"Hi {cn},", '', _EM_QINTRO, ''] or q[-3:] != ['', 'Best,', an]: errs.append('the quoted draft\'s frame')
        return _em_parse(q[4:-3], task, ph, n, errs, 'draft: ')
    if lines[7] in _EM_TOP:
        if lines[8:10] != ['', 'Changes from your draft:']: errs.append('changes head')
        f = lines.index('FINAL ITINERARY')
        t = max(j for j, ln in enumerate(lines[:w]) if ln == 'Thanks again,')
        if lines[f - 1] != '' or lines[f + 1:f + 3] != ['-' * 15, ''] or lines[t - 1] != '' or lines[t + 1:w] != [cn, '']: errs.append('reply frame')
        final, _ = _em_parse(lines[f + 3:t - 1], task, ph, n, errs)
        draft, _ = draft_of(unquote(lines[w + 1:]))
        for ln in lines[10:f - 1]:
            if (q := _EM_CH[0].fullmatch(ln)): _em_apply(draft, 'meal', dict(k=q[1], m=q[2], new=q[3], old=q[4]), errs)
            elif (q := _EM_CH[1].fullmatch(ln)): _em_apply(draft, 'stay', dict(nights=_untag(q[1]), new=q[2], old=q[3]), errs)
            elif (q := _EM_CH[2].fullmatch(ln)): _em_apply(draft, 'sight', dict(k=q[1], name=q[2]), errs)
            else: errs.append(f"change line {ln!r}")
        if not _same_days(draft, final): errs.append('the draft with the changes is not the final itinerary')
        return final, errs
    if lines[7:10] != [_EM_INLINE, '', lines[w]] or w != 9: errs.append('inline reply head')
    body = lines[w + 1:]
    if body[-3:] != ['', 'Thanks,', cn]: errs.append('sign-off')
    body = body[:-3]
    quoted, fixes = [], []
    for j, ln in enumerate(body):
        if ln.startswith('>'): quoted += unquote([ln]); continue
        if ln == '':
            if not (0 < j < len(body) - 1 and (body[j - 1].startswith('>') and not body[j + 1].startswith('>') and body[j + 1] != '' or
                                               body[j + 1].startswith('>') and not body[j - 1].startswith('>') and body[j - 1] != '')):
                errs.append('blank lines around the corrections')
            continue
        fixes.append((len(quoted) - 1, ln))
    draft, tags = draft_of(quoted)
    for at, ln in fixes:
        tag = tags.get(at - 4)
        if (q := _EM_FIX[0].fullmatch(ln)):
            if tag != (int(q[3]) - 1, 'meal', q[2]): errs.append(f"correction {ln!r} after the wrong line")
            new = _unvenue(ph, q[1])
            g = _day_of(draft, int(q[3]))
            if g is not None and g[q[2]] not in ('-', None) and _name_city(g[q[2]])[1] != _name_city(new)[1]: errs.append(f"correction {ln!r}: city")
            _em_apply(draft, 'meal', dict(k=q[3], m=q[2], new=new, full=True, old=_nm(g[q[2]]) if g and g[q[2]] not in ('-', None) else None), errs)
        elif (q := _EM_FIX[1].fullmatch(ln)):
            a, b = _em_nights(q[2])
            if tag != (a - 1, 'hotel'): errs.append(f"correction {ln!r} after the wrong line")
            _em_apply(draft, 'stay', dict(nights=(a, b), new=_unvenue(ph, q[1]), full=True, old=None), errs)
        elif (q := _EM_FIX[2].fullmatch(ln)):
            if tag != (int(q[2]) - 1, 'sights'): errs.append(f"correction {ln!r} after the wrong line")
            _em_apply(draft, 'sight', dict(k=q[2], name=q[1]), errs)
        else: errs.append(f"reply line {ln!r}")
    return draft, errs


# cost_split -----------------------------------------------------------------------------------------------------------
_CS_BACK = {v: k for k, v in _CS_KIND.items()}
_CS_WHYS = _alt(sum(_CS_WHY.values(), ()))


def _read_cs(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    n, people = len(plan), _people(task)
    group = people >= 2
    if lines[0] not in _CS_INTRO[group] or lines[1] != '' or lines[3] != '' or lines[4] != '### 🗺️ Route': errs.append('intro')
    d0, d1 = _date(task, 0), _date(task, n - 1)
    q = re.fullmatch(re.escape(f"**{_get(task, 'org')} → {_get(task, 'dest')}** · {_span_text(d0, d1)}, {d1.year} · ") +
                     r'(?:(\d+) travellers: (.+)|1 traveller)', lines[2])
    if not q or (q[1] is not None) != group or group and (int(q[1]) != people or len(q[2].split(', ')) != people): raise ValueError('trip line')
    travellers = q[2].split(', ') if group else []
    heads = {'### 🆓 No cost': 'free', '### ↩️ Cancelled & refunded': 'refund'}
    heads.update({f"### 💸 {p} pays": p for p in travellers} if group else {'### 💳 On the card': 'card', '### 💵 Paid in cash': 'cash'})
    ix = _dix(task, n, 'mon')
    days, j = [], 5
    while j < len(lines) and lines[j].startswith('- **Day '):
        h = re.fullmatch(r'- \*\*Day (\d+)\*\* · (.+?) · (.+)', lines[j])
        if not h or int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"route {lines[j]!r}")
        days.append(_blank(_back(h[3]) if h else None)); j += 1
    sect, seen, refunds, payers = None, [], [], set()
    t = len(lines)
    while t > j and lines[t - 1].startswith('**'): t -= 1
    tail = lines[t:]
    for ln in lines[j:t]:
        if ln == '': sect = None; continue
        if ln in heads:
            if heads[ln] in seen: errs.append(f"section {ln!r} twice")
            sect = heads[ln]; seen.append(sect); continue
        if ln in (_CS_HEAD, '|---|---|---|---|'): continue
        if sect is None: errs.append(f"line {ln!r}"); continue
        c = _unrow(ln)
        if len(c) != 4 or c[1] not in _CS_BACK: errs.append(f"row {ln!r}"); continue
        when, kind, det, cost = c[0], _CS_BACK[c[1]], c[2], c[3]
        a, b = _untag(when)
        if (kind == 'stay') != when.startswith('Night') or _day_of(days, a) is None or b > len(days): errs.append(f"row {ln!r}: when"); continue
        g = days[a - 1]
        if sect == 'refund':
            qq = re.fullmatch(r'(.+) — ' + _CS_WHYS, det)
            if kind not in (*_MEALS, 'stay') or not qq or not re.fullmatch(r'refunded to (.+)', cost): errs.append(f"refund {ln!r}"); continue
            refunds.append((kind, a, b, _unvenue(ph, qq[1]))); continue
        if (sect == 'free') != (kind == 'sights'): errs.append(f"row {ln!r} in {sect}")
        if sect != 'free': payers.add(sect)
        if kind == 'flight':
            qq = re.fullmatch(r'(\S+) · (.+?) → (.+) · (\d\d:\d\d)–(\d\d:\d\d)', det)
            if not qq: errs.append(f"flight {det!r}"); continue
            _put(g, 'leg', _flight(*qq.groups()), errs, f"day {a}: ")
        elif kind in ('drive', 'taxi'):
            qq, cq = re.fullmatch(r'(.+?) → (.+) · (.+)', det), re.fullmatch(r'\$(\d+)(?: × (\d+) (taxis|cars) = \$(\d+))?', cost)
            if not qq or not cq or cq[3] and (cq[3] == 'taxis') != (kind == 'taxi') or cq[2] and int(cq[1]) * int(cq[2]) != int(cq[4]):
                errs.append(f"road {ln!r}"); continue
            _put(g, 'leg', _road_key(kind, qq[1], qq[2], qq[3], cq[1]), errs, f"day {a}: ")
        elif kind in _MEALS: _put(g, kind, _unvenue(ph, det), errs, f"day {a}: ")
        elif kind == 'sights':
            if g['attraction'] or cost != 'free': errs.append(f"day {a}: sights {ln!r}")
            g['attraction'] = _unitems(ph, det)
        else:
            nn = re.search(r'× (\d+) nights?(?: |$)', cost)
            if not nn or int(nn[1]) != b - a + 1: errs.append(f"stay {ln!r}: nights")
            for x in range(a, b + 1): _put(days[x - 1], 'accommodation', _unvenue(ph, det), errs, f"night {x}: ")
    for kind, a, b, v in refunds:                                # a refund: a first pick replaced, not what the plan keeps
        slot = 'accommodation' if kind == 'stay' else kind
        for x in range(a, b + 1):
            g = days[x - 1]
            if g[slot] in ('-', None) or _nm(g[slot]) == _nm(v) or _name_city(g[slot])[1] != _name_city(v)[1]: errs.append(f"refund {kind} {v!r}")
        if kind == 'stay' and any(_day_of(days, x) and days[x - 1]['accommodation'] == days[a - 1]['accommodation'] for x in (a - 1, b + 1)):
            errs.append(f"refund {kind} {v!r}: nights")
    if len(tail) != 1 + group or not tail[0].startswith('**Total:** $') or group and not tail[1].startswith('**Settle up:** ') or lines[t - 1] != '':
        errs.append('totals')
    return days, errs


# sheet_paste ----------------------------------------------------------------------------------------------------------
_SH_BY = {v: k for k, vs in _SH_SYN.items() for v in vs}
_SH_STATUS = {'Route': ('',), 'Flight': ('Booked', 'To book'), 'Taxi': ('Booked', 'To book'), 'Self-driving': ('n/a',),
              'Breakfast': ('Booked', 'To book', 'Walk-in'), 'Lunch': ('Booked', 'To book', 'Walk-in'), 'Dinner': ('Booked', 'To book', 'Walk-in'),
              'Sight': ('Free', 'Tickets'), 'Hotel': ('Booked', 'To book')}


def _sh_parts(text):
    "(lines, first and last index of the table, delimiter, header, rows) of a sheet rendering."
    lines = text.split('\n')
    if lines[2] not in ('```tsv', '```text', '```csv'): raise ValueError('fence')
    e = lines.index('```', 3)
    delim = ',' if lines[2] == '```csv' else '\t'
    rows = list(csv.reader(lines[3:e], delimiter=delim, strict=True))
    return lines, 3, e, delim, rows[0], rows[1:]


def _sh_text(lines, s, e, delim, header, rows) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delim, lineterminator='\n')
    w.writerow(header)
    for r_ in rows: w.writerow(r_)
    return '\n'.join(lines[:s] + [buf.getvalue().rstrip('\n')] + lines[e:])


def _read_sh(text, task, plan, ph):
    errs = []
    lines, s, e, delim, header, rows = _sh_parts(text)
    n = len(plan)
    if lines[0] != _SH_INTRO[delim] or lines[1] != '' or lines[e + 1:] not in [['', o] for o in _SH_OUTRO]: errs.append('intro / outro')
    if lines[2] == '```csv' and any('\t' in x for x in lines[3:e]): errs.append('tabs in a CSV')
    keys = [_SH_BY[h] for h in header]
    if tuple(keys) not in _SH_ORDERS: errs.append(f"header {header}")
    recs = []
    for r_ in rows:
        if len(r_) != len(keys): errs.append(f"row {r_}"); continue
        recs.append(dict(zip(keys, r_)))
    fmt = 'iso' if recs and re.fullmatch(r'\d{4}-\d\d-\d\d', recs[0]['date']) else 'us'
    ix = {_sh_date(_date(task, i), fmt): i for i in range(n + 1)}
    days = []
    for x in recs:
        if x['type'] != 'Route': continue
        if int(x['day']) != len(days) + 1 or ix.get(x['date']) != len(days) or any(x[k] for k in ('city', 'start', 'end', 'notes', 'status')):
            errs.append(f"route row {x}")
        days.append(_blank(_back(x['name'])))
    sights, dropped = [[] for _ in days], []
    for x in recs:
        t = x['type']
        if t == 'Route': continue
        if t not in _SH_STATUS: errs.append(f"type {t!r}"); continue
        if x['status'] == 'Dropped':
            dropped.append(x); continue
        if x['status'] not in _SH_STATUS[t]: errs.append(f"status {x['status']!r} of a {t}")
        if t == 'Hotel':
            m = re.fullmatch(r'(\d+)(?:-(\d+))?', x['day'])
            a, b = int(m[1]), int(m[2] or m[1])
            if b < a or _day_of(days, a) is None or b > len(days) or m[2] and b == a or ix.get(x['date']) != a - 1 or ix.get(x['start']) != a - 1 or \
                    ix.get(x['end']) != b or x['notes'] != f"{b - a + 1} night{'s' * (a != b)}":
                errs.append(f"hotel row {x}"); continue
            for k in range(a, b + 1): _put(days[k - 1], 'accommodation', f"{x['name']}, {x['city']}", errs, f"night {k}: ")
            continue
        k = int(x['day'])
        g = _day_of(days, k)
        if g is None or ix.get(x['date']) != k - 1: errs.append(f"row {x}: day"); continue
        if t in ('Flight', 'Taxi', 'Self-driving'):
            q = re.fullmatch(r'(.+?) → (.+)', x['name'])
            if not q or x['city']: errs.append(f"row {x}"); continue
            if t == 'Flight':
                if not re.fullmatch(r'\d\d:\d\d', x['start']) or not re.fullmatch(r'\d\d:\d\d', x['end']): errs.append(f"flight times {x}")
                _put(g, 'leg', _flight(x['notes'], q[1], q[2], x['start'], x['end']), errs, f"day {k}: ")
            else:
                qq = re.fullmatch(r'(.+) · \$(\d+)', x['notes'])
                if not qq or x['start'] or x['end']: errs.append(f"road row {x}"); continue
                _put(g, 'leg', _road_key('taxi' if t == 'Taxi' else 'drive', q[1], q[2], qq[1], qq[2]), errs, f"day {k}: ")
        elif t == 'Sight':
            if x['end'] or x['notes'] or not re.fullmatch(r'\d\d:\d\d', x['start']): errs.append(f"sight row {x}")
            sights[k - 1].append((x['start'], f"{x['name']}, {x['city']}"))
        else:
            m = t.lower()
            if x['end'] or not re.fullmatch(r'\d\d:\d\d', x['start']) or _meal_of_time(x['start']) != m: errs.append(f"{m} row {x}")
            _put(g, m, f"{x['name']}, {x['city']}", errs, f"day {k}: ")
    for k, ss in enumerate(sights):
        if len({t for t, _ in ss}) != len(ss): errs.append(f"day {k + 1}: sights at the same time")
        days[k]['attraction'] = [v for _, v in sorted(ss)]
    for x in dropped:                                         # an option ruled out: the slot keeps another name
        t, v = x['type'], f"{x['name']}, {x['city']}"
        if t == 'Hotel':
            m = re.fullmatch(r'(\d+)(?:-(\d+))?', x['day'])
            a, b = int(m[1]), int(m[2] or m[1])
            gs = [_day_of(days, y) for y in range(a, b + 1)]
            if x['notes'] not in _SH_WHY['Hotel'] or any(g is None or g['accommodation'] in ('-', None) or _nm(g['accommodation']) == x['name'] for g in gs) or \
                    ix.get(x['start']) != a - 1 or ix.get(x['end']) != b: errs.append(f"dropped hotel {x}")
            continue
        g = _day_of(days, int(x['day']))
        if g is None: errs.append(f"dropped row {x}"); continue
        if t == 'Sight':
            if x['notes'] not in _SH_WHY['Sight'] or v in g['attraction'] or x['start']: errs.append(f"dropped sight {x}")
        elif t.lower() in _MEALS:
            m = t.lower()
            if x['notes'] not in _SH_WHY['meal'] or g[m] in ('-', None) or _nm(g[m]) == x['name'] or _meal_of_time(x['start']) != m: errs.append(f"dropped {m} {x}")
        else: errs.append(f"dropped {t} {x}")
    return days, errs


# yaml_anchors ---------------------------------------------------------------------------------------------------------
def _ym_doc(text):
    lines = text.split('\n')
    e = lines.index('```', 3)
    try: return lines, e, yaml.load('\n'.join(lines[3:e]), Loader=_YL)
    except yaml.YAMLError as x: raise ValueError(f"YAML: {x}")


def _ym_v(x, where, errs, keys=('name', 'city')) -> str:
    if not isinstance(x, dict) or set(x) != set(keys) or not all(isinstance(x[k], str) for k in ('name', 'city')): errs.append(f"{where}: {x!r}"); return '?'
    return f"{x['name']}, {x['city']}"


def _read_ym(text, task, plan, ph):
    errs = []
    lines, e, doc = _ym_doc(text)
    n = len(plan)
    if lines[0] not in _YM_INTRO or lines[1:3] != ['', '```yaml'] or lines[e + 1:] not in [['', o] for o in _YM_OUTRO]: errs.append('intro / outro')
    if lines[3] != f"# {n}-day trip: {_get(task, 'org')} → {_get(task, 'dest')}": errs.append('comment')
    if not isinstance(doc, dict) or not set(doc) <= {'trip', 'x-empty-meals', 'hotels', 'days'}: raise ValueError('top-level keys')
    if doc.get('trip') != {'from': str(_get(task, 'org')), 'to': str(_get(task, 'dest')), 'start': _date(task, 0), 'end': _date(task, n - 1),
                           'travelers': _people(task)}: errs.append(f"trip {doc.get('trip')}")
    if 'x-empty-meals' in doc and doc['x-empty-meals'] != {m: None for m in _MEALS}: errs.append('the merge defaults')
    hotels = doc.get('hotels') or []
    hkeys = ('name', 'city', 'nights') if 'hotels' in doc else ('name', 'city')
    days, use = [], {}
    for j, x in enumerate(doc['days']):
        k = j + 1
        if not isinstance(x, dict) or x.get('day') != k or x.get('date') != _date(task, j) or \
                not set(x) <= {'day', 'date', 'city', 'route', 'travel', 'meals', 'sights', 'stay', 'not_chosen'}: errs.append(f"day {k}: {x!r}"[:200]); continue
        if ('city' in x) == ('route' in x): errs.append(f"day {k}: city / route")
        if 'city' in x: cc = x['city']
        else:
            ro = x['route']
            if not isinstance(ro, dict) or set(ro) != {'from', 'to'}: errs.append(f"day {k}: route {ro!r}"); cc = None
            else: cc = f"from {ro['from']} to {ro['to']}"
        g = _blank(cc)
        days.append(g)
        if (tr := x.get('travel')) is not None:
            mode = tr.get('mode') if isinstance(tr, dict) else None
            if mode == 'flight' and set(tr) == {'mode', 'number', 'from', 'to', 'depart', 'arrive'}:
                g['leg'] = _flight(str(tr['number']), tr['from'], tr['to'], tr['depart'], tr['arrive'])
            elif mode in ('self-driving', 'taxi') and set(tr) == {'mode', 'from', 'to', 'duration', 'cost'} and isinstance(tr['cost'], int):
                g['leg'] = _road_key('taxi' if mode == 'taxi' else 'drive', tr['from'], tr['to'], tr['duration'], str(tr['cost']))
            else: errs.append(f"day {k}: travel {tr!r}")
        ms = x.get('meals')
        if not isinstance(ms, dict) or set(ms) != set(_MEALS): errs.append(f"day {k}: meals {ms!r}")
        else:
            for m in _MEALS:
                if ms[m] is not None: g[m] = _ym_v(ms[m], f"day {k}: {m}", errs)
        ss = x.get('sights')
        if not isinstance(ss, list): errs.append(f"day {k}: sights {ss!r}")
        else: g['attraction'] = [_ym_v(s_, f"day {k}: sight", errs) for s_ in ss]
        if 'stay' not in x: errs.append(f"day {k}: no stay")
        elif x['stay'] is not None:
            st = x['stay']
            g['accommodation'] = _ym_v(st, f"day {k}: stay", errs, hkeys)
            if hotels and not any(st is h for h in hotels): errs.append(f"day {k}: the stay is not one of the hotels")
            use.setdefault(id(st), []).append(k)
    for h in hotels:                                          # each hotel's nights are the days that stay there
        if not isinstance(h, dict) or use.get(id(h), []) != h.get('nights'): errs.append(f"hotel {h!r}: nights {use.get(id(h), [])}")
    if hotels and len(use) != len(hotels): errs.append('stays not among the hotels')
    for j, x in enumerate(doc['days']):                       # not chosen: options ruled out, the slot keeps another name
        if not isinstance(x, dict) or 'not_chosen' not in x: continue
        for y in x['not_chosen'] if isinstance(x['not_chosen'], list) else [None]:
            if not isinstance(y, dict) or y.get('slot') not in (*_MEALS, 'sight', 'stay') or y.get('why') not in _YM_WHY: errs.append(f"not_chosen {y!r}"); continue
            v = _ym_v({k_: y[k_] for k_ in ('name', 'city') if k_ in y}, 'not_chosen', errs)
            g = days[j] if j < len(days) else None
            if g is None: errs.append(f"not_chosen {y!r}"); continue
            if y['slot'] == 'sight':
                if set(y) != {'slot', 'name', 'city', 'why'} or v in g['attraction']: errs.append(f"not_chosen {y!r}")
            elif y['slot'] == 'stay':
                ns = y.get('nights')
                if set(y) != {'slot', 'name', 'city', 'nights', 'why'} or not isinstance(ns, list) or not ns or ns[0] != j + 1 or \
                        ns != list(range(ns[0], ns[0] + len(ns))) or ns[-1] > len(days) or \
                        any(days[z - 1]['accommodation'] in ('-', None) or _nm(days[z - 1]['accommodation']) == y['name'] for z in ns):
                    errs.append(f"not_chosen {y!r}")
            elif set(y) != {'slot', 'name', 'city', 'why'} or g[y['slot']] in ('-', None) or _nm(g[y['slot']]) == y['name']: errs.append(f"not_chosen {y!r}")
    return days, errs


# da_uk_ca_sw_table ----------------------------------------------------------------------------------------------------
def _read_lt(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    lg = next((x for x, L in _LG14.items() if lines[0] in L['intro']), None)
    if lg is None: raise ValueError('intro in no language')
    L, n = _LG14[lg], len(plan)
    head = _unrow(lines[2])
    order = next((o for o in _LT_ORDERS.values() if head == [L['cols'][j] for j in o]), None)
    if order is None: raise ValueError(f"header {head}")
    keys = [_LT_KEYS[j] for j in order]
    if lines[1] != '' or lines[3] != '|' + '---|' * len(keys) or lines[-2:] != ['', L['outro']]: errs.append('frame')
    join = L['joins'].get(ph.join, ph.join)
    tp = r'\d\d\.\d\d' if lg in ('da', 'ca') else r'\d\d:\d\d'
    fre = _tmpl_re(L['flight'], dict(n=r'\S+', a='.+?', b='.+', dep=tp, arr=tp))
    rre = _tmpl_re(L['road'], dict(how=_alt(L['how'].values()), a='.+?', b='.+', dur='.+', cost=r'\d+'))
    back_u = {v: k for k, v in L['units'].items()}
    ure = _alt(sorted(back_u, key=len, reverse=True))
    pair = re.compile(rf'({ure}) (\d+)' if L['unit_first'] else rf'(\d+) ({ure})')
    days, nones = [], set()
    for ln in lines[4:-2]:
        c = dict(zip(keys, _unrow(ln)))
        if len(c) != len(keys) or len(_unrow(ln)) != len(keys): errs.append(f"row {ln!r}"); continue
        i = len(days)
        if c['day'] != str(i + 1) or c['date'] != _lt_date(lg, task, i) if i < n else True: errs.append(f"row {ln[:40]!r}: day / date")
        g = _blank(_back(c['route']))
        days.append(g)

        def none(k, v):
            if v == '—': nones.add('dash'); return True
            if v == (L['none_stay'] if k == 'accommodation' and i == n - 1 else L['none']): nones.add('word'); return True
            return False
        for k in ('leg', 'attraction', *_MEALS, 'accommodation'):
            v = c[k]
            if none(k, v): continue
            if k == 'leg':
                if (q := fre.fullmatch(v)): g['leg'] = _flight(q['n'], q['a'], q['b'], q['dep'].replace('.', ':'), q['arr'].replace('.', ':'))
                elif (q := rre.fullmatch(v)):
                    ps = pair.findall(q['dur'])
                    if ' '.join(' '.join(p) for p in ps) != q['dur']: errs.append(f"duration {q['dur']!r}")
                    ps = [(p[1], p[0]) if L['unit_first'] else p for p in ps]
                    g['leg'] = _road_key('taxi' if q['how'] == L['how']['taxi'] else 'drive', q['a'], q['b'],
                                         ' '.join(f"{a} {back_u[u]}" for a, u in ps), q['cost'])
                else: errs.append(f"day {i + 1}: leg {v!r}")
            elif k == 'attraction': g['attraction'] = _unitems(ph, v, join, lg)
            else: g[k] = _unvenue(ph, v, lg)
    if len(nones) > 1: errs.append('empty cells written two ways')
    return days, errs


# jsonld_reservations --------------------------------------------------------------------------------------------------
def _jl_parts(text):
    "(lines, first and last index of the JSON, the document) of a JSON-LD rendering."
    lines = text.split('\n')
    if lines[2] == '```html':
        if lines[3] != '<script type="application/ld+json">': raise ValueError('script tag')
        s, e = 4, lines.index('</script>')
        if lines[e + 1] != '```': raise ValueError('fence')
    elif lines[2] == '```json': s, e = 3, len(lines) - 3
    else: raise ValueError('fence')
    return lines, s, e, json.loads('\n'.join(lines[s:e]))


def _jl_text(lines, s, e, doc) -> str: return '\n'.join(lines[:s] + [_jl_dump(doc)] + lines[e:])


def _read_jl(text, task, plan, ph):
    errs = []
    lines, s, e, doc = _jl_parts(text)
    n, people = len(plan), _people(task)
    html = lines[2] == '```html'
    if lines[0] != _JL_INTRO['html' if html else 'json'] or lines[1] != '' or lines[-2] != '' or lines[-1] not in _JL_OUTRO or lines[-3] != '```':
        errs.append('intro / outro')
    if set(doc) != {'@context', '@graph'} or doc['@context'] != 'https://schema.org': raise ValueError('context')
    if '\n'.join(lines[s:e]) != _jl_dump(doc): errs.append('JSON not laid out as written')
    g_ = doc['@graph']
    iso = {_date(task, i).isoformat(): i for i in range(n + 1)}
    trip = g_[0]
    dobjs = [o for o in g_[1:] if o.get('@type') == 'TouristTrip']
    if g_[1:1 + len(dobjs)] != dobjs: errs.append('day objects not together')
    want = {'@type': 'TouristTrip', '@id': '#trip', 'name': f"{_get(task, 'org')} → {_get(task, 'dest')}", 'startDate': _date(task, 0).isoformat(),
            'endDate': _date(task, n - 1).isoformat(), 'subTrip': [{'@id': o.get('@id')} for o in dobjs]}
    if trip != want: errs.append('the trip object')
    days, who = [], set()
    for j, o in enumerate(dobjs):
        k = j + 1
        if set(o) != {'@type', '@id', 'name', 'startDate', 'itinerary'} or o['@id'] != f"#day-{k}" or o['name'] != f"Day {k}" or iso.get(o['startDate']) != j:
            errs.append(f"day object {k}")
        it = o['itinerary']
        cs = [x['name'] for x in it if x.get('@type') == 'City']
        if not 1 <= len(cs) <= 2 or it[:len(cs)] != [{'@type': 'City', 'name': c} for c in cs]: errs.append(f"day {k}: route"); cs = cs[:2] or ['?']
        g = _blank(cs[0] if len(cs) == 1 else f"from {cs[0]} to {cs[1]}")
        for x in it[len(cs):]:
            if x.get('@type') != 'TouristAttraction' or set(x) != {'@type', 'name', 'address'} or x['address'] != _addr(x['address'].get('addressLocality')):
                errs.append(f"day {k}: itinerary item {x}"); continue
            g['attraction'].append(f"{x['name']}, {x['address']['addressLocality']}")
        days.append(g)
    cancelled = []
    for o in g_[1 + len(dobjs):]:
        t = o.get('@type')
        st = next((k for k, v in _JL_ST.items() if v == o.get('reservationStatus')), None)
        if t != 'TravelAction':
            if st is None or not re.fullmatch(r'[A-Z2-9]{6}', o.get('reservationNumber', '')): errs.append(f"{t}: status / number")
            who.add(json.dumps(o.get('underName')))
        if t == 'FlightReservation':
            f = o['reservationFor']
            dep, arr = f['departureTime'], f['arrivalTime']
            i = iso.get(dep[:10])
            if i is None or i >= len(days) or st == 'cancel' or set(f) != {'@type', 'flightNumber', 'departureAirport', 'arrivalAirport', 'departureTime', 'arrivalTime'}:
                errs.append(f"flight {f}"); continue
            a, b = (f[x]['address']['addressLocality'] for x in ('departureAirport', 'arrivalAirport'))
            if iso.get(arr[:10]) != i + (arr[11:16] < dep[11:16]) or dep[16:] != ':00' or arr[16:] != ':00': errs.append(f"flight times {f}")
            _put(days[i], 'leg', _flight(f['flightNumber'], a, b, dep[11:16], arr[11:16]), errs, f"day {i + 1}: ")
        elif t == 'TravelAction':
            i = iso.get(o['startTime'])
            mode = {'Taxi': 'taxi', 'Self-driving': 'drive'}.get(o['name'])
            if i is None or i >= len(days) or mode is None or o['instrument'] != {'@type': 'Taxi' if mode == 'taxi' else 'Car'} or o['priceCurrency'] != 'USD' or \
                    not isinstance(o['price'], int): errs.append(f"travel {o}"); continue
            _put(days[i], 'leg', _road_key(mode, o['fromLocation']['name'], o['toLocation']['name'], _un_iso_dur(o['duration']), str(o['price'])),
                 errs, f"day {i + 1}: ")
        elif t == 'FoodEstablishmentReservation':
            i, m = iso.get(o['startTime'][:10]), _meal_of_time(o['startTime'][11:16])
            f = o['reservationFor']
            if i is None or i >= len(days) or m is None or o.get('description', m.capitalize()) != m.capitalize() or o['partySize'] != people or \
                    f.get('@type') != 'Restaurant' or f['address'] != _addr(f['address'].get('addressLocality')):
                errs.append(f"meal {o}"); continue
            v = f"{f['name']}, {f['address']['addressLocality']}"
            if st == 'cancel': cancelled.append((m, i, i, v))
            else: _put(days[i], m, v, errs, f"day {i + 1}: ")
        elif t == 'LodgingReservation':
            a, b = iso.get(o['checkinTime'][:10]), iso.get(o['checkoutTime'][:10])
            f = o['reservationFor']
            if a is None or b is None or b <= a or b > len(days) or o['numAdults'] != people or f.get('@type') != 'LodgingBusiness' or \
                    f['address'] != _addr(f['address'].get('addressLocality')): errs.append(f"lodging {o}"); continue
            v = f"{f['name']}, {f['address']['addressLocality']}"
            if st == 'cancel': cancelled.append(('accommodation', a, b - 1, v))
            else:
                for x in range(a, b): _put(days[x], 'accommodation', v, errs, f"night {x + 1}: ")
        else: errs.append(f"object {t!r}")
    for slot, a, b, v in cancelled:                           # a cancelled reservation: the slot is booked under another name
        for x in range(a, b + 1):
            g = days[x]
            if g[slot] in ('-', None) or _nm(g[slot]) == _nm(v) or _name_city(g[slot])[1] != _name_city(v)[1]: errs.append(f"cancelled {slot} {v!r}")
    if len(who) > 1: errs.append('reservations under several names')
    return days, errs


# todo_txt -------------------------------------------------------------------------------------------------------------
_TD_TAGRE = re.compile(r'\+\w+|@[\w-]+|due:\d{4}-\d\d-\d\d|at:\d\d:\d\d')
_TD_LINE = re.compile(r'(?:x (?P<done>\d{4}-\d\d-\d\d) |\((?P<pri>[A-C])\) )?(?P<created>\d{4}-\d\d-\d\d) (?P<rest>.+)')


def _read_td(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    n, proj = len(plan), _td_proj(task)
    if lines[0] == _TD_INTRO['file']:
        if lines[1:3] != ['', '```text']: errs.append('fence')
        e = lines.index('```', 3)
        tasks = lines[3:e]
    elif lines[0] == _TD_INTRO['ls']:
        if lines[1:4] != ['', '```console', f"$ todo.sh ls {proj}"]: errs.append('command')
        e = lines.index('```', 4)
        shown = lines[4:e - 2]
        N = len(shown)
        if lines[e - 2:e] != ['--', f"TODO: {N} of {N} tasks shown"]: errs.append('listing footer')
        num = []
        for ln in shown:
            q = re.fullmatch(r'(\d+) (.+)', ln)
            if not q or len(q[1]) != len(str(N)): raise ValueError(f"listing line {ln!r}")
            num.append((int(q[1]), q[2]))
        if sorted(x for x, _ in num) != list(range(1, N + 1)): errs.append('line numbers')
        if num != sorted(num, key=lambda x: (x[1].lower(), x[0])): errs.append('listing not sorted')
        tasks = [t for _, t in sorted(num)]
    else: raise ValueError('intro')
    if lines[e + 1:] not in [['', o] for o in _TD_OUTRO]: errs.append('outro')
    ix = {_date(task, i).isoformat(): i for i in range(n)}
    recs, created = [], set()
    for ln in tasks:
        q = _TD_LINE.fullmatch(ln)
        if not q: raise ValueError(f"task {ln!r}")
        toks = q['rest'].split(' ')
        tags = []
        while toks and _TD_TAGRE.fullmatch(toks[-1]): tags.insert(0, toks.pop())
        created.add(q['created'])
        if q['done'] and q['done'] <= q['created']: errs.append(f"done before created: {ln!r}")
        if not tags or tags[0] != proj or not all(_TD_TAGRE.fullmatch(x) for x in tags) or sum(x.startswith('due:') for x in tags) != 1 or \
                [x[:1] for x in tags if not x.startswith(('due:', 'at:'))] not in (['+'], ['+', '@']) or \
                [x for x in tags if x.startswith(('due:', 'at:'))] != tags[-1 - (tags[-1].startswith('at:')):]:
            errs.append(f"tags of {ln!r}"); continue
        due = next(x[4:] for x in tags if x.startswith('due:'))
        at = next((x[3:] for x in tags if x.startswith('at:')), None)
        ctx = next((x[1:] for x in tags if x.startswith('@')), None)
        if due not in ix: errs.append(f"due date of {ln!r}"); continue
        recs.append((ix[due], ' '.join(toks), bool(q['done']), q['pri'], ctx, at))
    if len(created) > 1: errs.append('created on several dates')
    days = []
    for i, desc, *_ in recs:
        if (h := re.fullmatch(r'Day (\d+): (.+)', desc)):
            if int(h[1]) != len(days) + 1 or i != len(days): errs.append(f"route task {desc!r}")
            days.append(_blank(_back(h[2])))
    sights, undo = [[] for _ in days], []
    whys = {k: _alt(v) for k, v in _TD_WHY.items()}
    for j, (i, desc, done, pri, ctx, at) in enumerate(recs):
        if desc.startswith('Day ') and re.fullmatch(r'Day (\d+): (.+)', desc):
            if done or pri or ctx or at: errs.append(f"route task {desc!r}")
            continue
        g = _day_of(days, i + 1)
        if g is None: errs.append(f"task {desc!r} outside the trip"); continue
        k = i + 1
        if (q := re.fullmatch(r'Cancel (breakfast|lunch|dinner) at (.+) \(' + whys['meal'] + r'\)', desc)):
            if not done or ctx or at: errs.append(f"cancellation {desc!r}")
            undo.append((q[1], k, k, _unvenue(ph, q[2])))
        elif (q := re.fullmatch(r'Cancel stay at (.+) for (nights? \d+(?:–\d+)?) \(' + whys['stay'] + r'\)', desc)):
            a, b = _em_nights(q[2])
            if not done or ctx or at or a != k: errs.append(f"cancellation {desc!r}")
            undo.append(('accommodation', a, b, _unvenue(ph, q[1])))
        elif (q := re.fullmatch(r'Drop (.+) from day (\d+) \(' + whys['sight'] + r'\)', desc)):
            if not done or ctx or at or int(q[2]) != k: errs.append(f"cancellation {desc!r}")
            undo.append(('sight', k, k, _unvenue(ph, q[1])))
        elif (q := re.fullmatch(r'Book flight (\S+) (.+?) → (.+) \((\d\d:\d\d)–(\d\d:\d\d)\)', desc)):
            if ctx != 'online' or at or not done and pri != 'A': errs.append(f"flight task {desc!r}")
            _put(g, 'leg', _flight(q[1], q[2], q[3], q[4], q[5]), errs, f"day {k}: ")
        elif (q := re.fullmatch(r'(Drive|Book taxi) (.+?) → (.+) \((.+), ~\$(\d+)\)', desc)):
            if q[1] == 'Drive' and (done or pri or ctx) or q[1] != 'Drive' and (ctx != 'phone' or not done and pri != 'B') or at:
                errs.append(f"road task {desc!r}")
            _put(g, 'leg', _road_key('drive' if q[1] == 'Drive' else 'taxi', q[2], q[3], q[4], q[5]), errs, f"day {k}: ")
        elif (q := re.fullmatch(r'Book stay at (.+) for (nights? \d+(?:–\d+)?)', desc)):
            a, b = _em_nights(q[2])
            if a != k or b > len(days) or ctx != 'online' or at or not done and pri != 'A': errs.append(f"stay task {desc!r}"); continue
            for x in range(a, b + 1): _put(days[x - 1], 'accommodation', _unvenue(ph, q[1]), errs, f"night {x}: ")
        elif desc.startswith('Visit '):
            if ctx != 'sightseeing' or not at or done or pri not in (None, 'C'): errs.append(f"sight task {desc!r}")
            sights[i].append((at or '', j, _unvenue(ph, desc[6:])))
        elif (mm := _unmeal(ph, desc)):
            m, v = mm
            if ctx not in ('phone', 'online') or not at or _meal_of_time(at) != m or not done and pri != 'B': errs.append(f"{m} task {desc!r}")
            _put(g, m, _unvenue(ph, v), errs, f"day {k}: ")
        else: errs.append(f"task {desc!r}")
    for i, ss in enumerate(sights):
        if len({t for t, _, _ in ss}) != len(ss): errs.append(f"day {i + 1}: sights at the same time")
        days[i]['attraction'] = [v for *_, v in sorted(ss)]
    for slot, a, b, v in undo:                                # a cancelled pick: the slot keeps another name
        for x in range(a, b + 1):
            g = _day_of(days, x)
            if g is None: errs.append(f"cancelled {slot} {v!r}"); continue
            if slot == 'sight':
                if v in g['attraction']: errs.append(f"dropped sight {v!r} still planned")
            elif g[slot] in ('-', None) or _nm(g[slot]) == _nm(v) or _name_city(g[slot])[1] != _name_city(v)[1]: errs.append(f"cancelled {slot} {v!r}")
    return days, errs


_READERS = {'glance_then_details': _read_gl, 'agent_email_reply': _read_em, 'cost_split': _read_cs, 'sheet_paste': _read_sh,
            'yaml_anchors': _read_ym, 'da_uk_ca_sw_table': _read_lt, 'jsonld_reservations': _read_jl, 'todo_txt': _read_td}
_BRACES = {'yaml_anchors', 'jsonld_reservations'}            # layouts whose syntax has braces: only None / nan / null are placeholders


def _check_one(name, task, plan, text, ph) -> list[str]:
    "Errors of one rendering (`layouts_v8._check_with` with this part's readers; braces allowed in YAML and JSON-LD)."
    if name not in _BRACES: return _check_with(_READERS, name, task, plan, text, ph)
    errs = []
    plan_text = ' '.join(str(v) for d in plan for v in d.values())
    for bad in (r'\bNone\b', r'\bnan\b', r'\bnull\b'):
        if re.search(bad, text) and not re.search(bad, plan_text): errs.append(f"{bad!r} in the text")
    try:
        got, e = _READERS[name](text, task, plan, ph)
        return errs + e + _cmp(plan, got)
    except (IndexError, KeyError, ValueError, TypeError, AttributeError, AssertionError, StopIteration) as e:
        return errs + [f"does not parse back: {e!r}"]

# ---------------------------------------------------------------------------------------------------------- corruptions
def _shift(t: str) -> str:
    h, m = map(int, t.split(':'))
    return f"{h:02d}:{(m + 1) % 60:02d}" if m < 59 else f"{h:02d}:{m - 1:02d}"


def _relabel(name, ph, text):
    "The text with its first lunch made a dinner (its label, icon, row, key, column, time or task), else None."
    if name == 'glance_then_details':
        return _first_line_sub(text, lambda ln: ln.startswith('- 🥪 ') and not ln.endswith('— (on your own)'),
                               f"- 🥪 {ph.meal_prefix('Lunch')}", f"- 🍝 {ph.meal_prefix('Dinner')}")
    if name == 'agent_email_reply':
        return _first_line_sub(text, lambda ln: ln.lstrip('> ').startswith('• ') and not ln.endswith(' none'),
                               f"• {ph.meal_prefix('Lunch')}", f"• {ph.meal_prefix('Dinner')}")
    if name == 'cost_split': return _first_line_sub(text, lambda ln: 'refunded to' not in ln, '| 🥪 Lunch |', '| 🍝 Dinner |')
    if name == 'sheet_paste':
        lines, s, e, delim, header, rows = _sh_parts(text)
        keys = [_SH_BY[h] for h in header]
        for r_ in rows:
            x = dict(zip(keys, r_))
            if x['type'] == 'Lunch' and x['status'] != 'Dropped':
                r_[keys.index('type')] = 'Dinner'
                return _sh_text(lines, s, e, delim, header, rows)
        return None
    if name == 'yaml_anchors':
        lines = text.split('\n')
        for j, ln in enumerate(lines):
            if ln.startswith('      lunch: ') and ln != '      lunch: ~' or ln == '      lunch:':
                lines[j] = ln.replace('lunch:', 'dinner:', 1)
                return '\n'.join(lines)
        return None
    if name == 'da_uk_ca_sw_table':
        lines = text.split('\n')
        L = next(L for L in _LG14.values() if lines[0] in L['intro'])
        lines[2] = lines[2].replace(f"| {L['cols'][6]} |", f"| {L['cols'][7]} |", 1)
        return '\n'.join(lines)
    if name == 'jsonld_reservations':
        lines, s, e, doc = _jl_parts(text)
        for o in doc['@graph']:
            if o.get('@type') == 'FoodEstablishmentReservation' and o['reservationStatus'] != _JL_ST['cancel'] and _meal_of_time(o['startTime'][11:16]) == 'lunch':
                o['startTime'] = o['startTime'][:11] + '19:00:00'
                if 'description' in o: o['description'] = 'Dinner'
                return _jl_text(lines, s, e, doc)
        return None
    if name == 'todo_txt':
        return _first_line_sub(text, lambda ln: ' Cancel ' not in ln and ' at:' in ln, ph.meal_prefix('Lunch'), ph.meal_prefix('Dinner'))
    return None


def _drop_day(name, text, task, k=1):
    "The text without the k-th day (0-based) it states: its section, its rows, its objects or its tasks."
    lines = text.split('\n')
    kk, iso = k + 1, _date(task, k).isoformat()
    if name == 'glance_then_details':
        out, skip = [], False
        for ln in lines:
            if ln.startswith('### Day '): skip = ln.startswith(f"### Day {kk} — ")
            elif ln in _GL_OUTRO: skip = False
            if skip or ln.startswith((f"| {kk} | ", f"- **Day {kk}** (")): continue
            out.append(ln)
        return '\n'.join(out)
    if name == 'agent_email_reply':
        out, skip, done = [], False, False
        for ln in lines:
            if not done and re.match(rf'(?:> )?Day {kk} — ', ln): skip = done = True
            elif skip and ln in ('', '>'): skip = False
            if not skip: out.append(ln)
        return '\n'.join(out)
    if name == 'cost_split': return '\n'.join(ln for ln in lines if not ln.startswith((f"| Day {kk} | ", f"- **Day {kk}** · ")))
    if name == 'sheet_paste':
        lines, s, e, delim, header, rows = _sh_parts(text)
        keys = [_SH_BY[h] for h in header]
        return _sh_text(lines, s, e, delim, header, [r_ for r_ in rows if r_[keys.index('day')] != str(kk)])
    if name == 'yaml_anchors':
        out, skip = [], False
        for ln in lines:
            if ln.startswith('  - day: '): skip = ln == f"  - day: {kk}"
            elif ln == '```': skip = False
            if not skip: out.append(ln)
        return '\n'.join(out)
    if name == 'da_uk_ca_sw_table': return '\n'.join(ln for ln in lines if not ln.startswith(f"| {kk} | "))
    if name == 'jsonld_reservations':
        lines, s, e, doc = _jl_parts(text)
        g = doc['@graph']
        day_of = lambda o: (o['reservationFor']['departureTime'] if o['@type'] == 'FlightReservation' else o.get('startTime') or o.get('checkinTime') or '')[:10]
        g[0]['subTrip'] = [x for x in g[0]['subTrip'] if x['@id'] != f"#day-{kk}"]
        doc['@graph'] = [o for o in g if o.get('@id') != f"#day-{kk}" and (o.get('@type') == 'TouristTrip' or day_of(o) != iso)]
        return _jl_text(lines, s, e, doc)
    if name == 'todo_txt': return '\n'.join(ln for ln in lines if f" due:{iso}" not in ln)
    return text


def _time_shift(name, plan, text):
    "The first flight's departure moved a minute, where the text states it (the details, the row, the key, the object)."
    fl = [_leg_parts(d['transportation']) for d in plan if d['transportation'].startswith('Flight')]
    if not fl: return None
    p = fl[0]
    new = _shift(p['dep'])
    if name == 'sheet_paste':
        lines, s, e, delim, header, rows = _sh_parts(text)
        keys = [_SH_BY[h] for h in header]
        for r_ in rows:
            x = dict(zip(keys, r_))
            if x['type'] == 'Flight' and x['notes'] == p['number']:
                r_[keys.index('start')] = new
                return _sh_text(lines, s, e, delim, header, rows)
        return None
    if name == 'jsonld_reservations':
        lines, s, e, doc = _jl_parts(text)
        for o in doc['@graph']:
            if o.get('@type') == 'FlightReservation' and o['reservationFor']['flightNumber'] == p['number']:
                f = o['reservationFor']
                f['departureTime'] = f['departureTime'][:11] + new + ':00'
                return _jl_text(lines, s, e, doc)
        return None
    if name == 'yaml_anchors': return text.replace(f'depart: "{p["dep"]}"', f'depart: "{new}"', 1) if f'depart: "{p["dep"]}"' in text else None
    pred = (lambda ln: ln.startswith('- 🚆 **Travel:** ')) if name == 'glance_then_details' else (lambda ln: True)
    for a, b in ((p['dep'], new), (p['dep'].replace(':', '.'), new.replace(':', '.'))):
        if (t := _first_line_sub(text, lambda ln: p['number'] in ln and pred(ln), a, b)) and t != text: return t
    return None


def _decoy_promotions(name, plan, text, task, ph):
    "[(what, text)]: a decoy of the layout taken for the plan, coherently (the text then states the decoy as chosen)."
    out = []
    if name == 'glance_then_details':                       # the overview's short name taken for the venue
        names = [_nm(v) for d in plan for k in (*_MEALS, 'accommodation') for v in [d[k]] if v != '-'] + \
                [_nm(x) for d in plan for x in _attractions(d['attraction'])]
        for v in names:
            for k in (3, 2):
                sh = _short(v, k)
                if sh != v and sh in text:
                    out.append(("the overview's short name taken", text.replace(v, sh[:-1])))
                    return out
    if name == 'agent_email_reply':
        lines = text.split('\n')
        if 'FINAL ITINERARY' in lines:
            for ln in lines:
                if (q := _EM_CH[0].fullmatch(ln)) and (s := _swap(text, q[3], q[4])): out.append(("the quoted draft's choice taken", s)); break
        else:
            for j, ln in enumerate(lines):
                if any(rx.fullmatch(ln) for rx in _EM_FIX):
                    out.append(("a correction ignored (the draft taken)", '\n'.join(lines[:j - 1] + lines[j + 1:]))); break
    if name == 'cost_split':
        for ln in text.split('\n'):
            if 'refunded to' not in ln: continue
            when, what, det, _ = _unrow(ln)
            a, _ = _untag(when)
            kind = _CS_BACK[what]
            y = _nm(_unvenue(ph, det.rpartition(' — ')[0]))
            x = _nm(plan[a - 1]['accommodation' if kind == 'stay' else kind])
            if (s := _swap(text, y, x)): out.append(("a refunded booking taken", s)); break
    if name == 'sheet_paste':
        lines, s, e, delim, header, rows = _sh_parts(text)
        keys = [_SH_BY[h] for h in header]
        for r_ in rows:
            if r_[keys.index('status')] == 'Dropped':
                r_[keys.index('status')] = 'Booked'
                out.append(("a dropped row booked", _sh_text(lines, s, e, delim, header, rows))); break
    if name == 'yaml_anchors':
        _, _, doc = _ym_doc(text)
        for j, x in enumerate(doc['days']):
            for y in x.get('not_chosen') or []:
                d = plan[j]
                real = _nm(d['accommodation']) if y['slot'] == 'stay' else _nm(_attractions(d['attraction'])[0]) if y['slot'] == 'sight' else _nm(d[y['slot']])
                if (s := _swap(text, y['name'], real)): out.append(("a not_chosen entry taken", s)); return out
    if name == 'jsonld_reservations':
        lines, s, e, doc = _jl_parts(text)
        for o in doc['@graph']:
            if o.get('reservationStatus') == _JL_ST['cancel']:
                o['reservationStatus'] = _JL_ST['ok']
                out.append(("a cancelled reservation confirmed", _jl_text(lines, s, e, doc))); break
    if name == 'todo_txt':
        for ln in text.split('\n'):
            q = re.search(r' (?:Cancel (breakfast|lunch|dinner) at (.+?)|Cancel stay at (.+?) for nights? [\d–]+|Drop (.+?) from day (\d+)) \((?:[a-z ]+)\) \+', ln)
            if not q: continue
            due = re.search(r' due:(\S+)', ln)[1]
            i = next(i for i in range(len(plan)) if _date(task, i).isoformat() == due)
            d = plan[i]
            if q[1]: y, x = _nm(_unvenue(ph, q[2])), _nm(d[q[1]])
            elif q[3]: y, x = _nm(_unvenue(ph, q[3])), _nm(d['accommodation'])
            else: y, x = _nm(_unvenue(ph, q[4])), _nm(_attractions(d['attraction'])[0])
            if (s := _swap(text, y, x)): out.append(("a cancelled pick taken", s)); break
    return out


def _longer_stay(name, text, task, n):
    "A stay made one night longer (the split's stay row, the sheet's hotel row, the YAML hotel's nights, the check-out, the task)."
    if name == 'cost_split':
        lines = text.split('\n')
        for j, ln in enumerate(lines):
            if 'refunded to' in ln or not (m := re.match(r'\| Nights? (\d+)(?:–(\d+))? \| 🛏️ Stay \|', ln)): continue
            a, b = int(m[1]), int(m[2] or m[1])
            ln = f"| Nights {a}–{b + 1} |" + ln[m.end() - len(' 🛏️ Stay |'):]
            lines[j] = re.sub(r'× (\d+) nights?', lambda q: f"× {int(q[1]) + 1} nights", ln, 1)
            return '\n'.join(lines)
        return None
    if name == 'sheet_paste':
        lines, s, e, delim, header, rows = _sh_parts(text)
        keys = [_SH_BY[h] for h in header]
        K = keys.index
        for r_ in rows:
            if r_[K('type')] == 'Hotel' and r_[K('status')] != 'Dropped':
                m = re.fullmatch(r'(\d+)(?:-(\d+))?', r_[K('day')])
                a, b = int(m[1]), int(m[2] or m[1])
                fmt = 'iso' if '-' in r_[K('date')] else 'us'
                r_[K('day')], r_[K('end')] = f"{a}-{b + 1}", _sh_date(_date(task, b) + 2 * _DAY_SPAN, fmt)
                r_[K('notes')] = f"{b - a + 2} nights"
                return _sh_text(lines, s, e, delim, header, rows)
        return None
    if name == 'yaml_anchors':
        lines = text.split('\n')
        for j, ln in enumerate(lines):
            if (ln.startswith('    nights: [') or ln.startswith('  - &') and 'nights: [' in ln) and (m := re.search(r'nights: \[([\d, ]+)\]', ln)):
                ns = [int(x) for x in m[1].split(', ')]
                lines[j] = ln[:m.start()] + f"nights: [{', '.join(map(str, ns + [ns[-1] + 1]))}]" + ln[m.end():]
                return '\n'.join(lines)
        return None
    if name == 'jsonld_reservations':
        lines, s, e, doc = _jl_parts(text)
        for o in doc['@graph']:
            if o.get('@type') == 'LodgingReservation' and o['reservationStatus'] != _JL_ST['cancel']:
                d = datetime.date.fromisoformat(o['checkoutTime'][:10]) + _DAY_SPAN
                o['checkoutTime'] = d.isoformat() + o['checkoutTime'][10:]
                return _jl_text(lines, s, e, doc)
        return None
    if name == 'todo_txt' and (m := re.search(r'(?m)( Book stay at .+ for )nights? (\d+)(?:–(\d+))?( \+)', text)):
        a, b = int(m[2]), int(m[3] or m[2])
        return text[:m.start()] + f"{m[1]}nights {a}–{b + 1}{m[4]}" + text[m.end():]
    return None


def mutations(name, plan, text, task, ph):
    """[(kind, what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a
    flight renumbered, sights of two days swapped, two stays swapped, a lunch labelled dinner (its label, icon, row, key,
    column header, time or task), a day dropped, a flight's departure moved; per layout a decoy promoted (the overview's
    short name, the quoted draft's choice, a refunded booking, a dropped row, a not_chosen entry, a cancelled reservation
    or task taken) and a stay made a night longer (cost_split, sheet_paste, yaml_anchors, jsonld_reservations,
    todo_txt)."""
    out = _common_mutations(plan, text)
    if (s := _relabel(name, ph, text)): out.append(('a lunch labelled dinner', '', s))
    out.append(('a day dropped', 'day 2', _drop_day(name, text, task, 1)))
    if (s := _time_shift(name, plan, text)): out.append(("a flight's departure moved", '', s))
    out += [('decoy promoted', w, s) for w, s in _decoy_promotions(name, plan, text, task, ph)]
    if (s := _longer_stay(name, text, task, len(plan))): out.append(("a stay made a night longer", '', s))
    return [x for x in out if x[2] != text]


_HAS_DECOY = {'glance_then_details': lambda t: '…' in t,
              'agent_email_reply': lambda t: 'Changes from your draft:\n- ' in t or ' instead, please — ' in t or '\nPlease ' in t,
              'cost_split': lambda t: '### ↩️ Cancelled & refunded' in t,
              'sheet_paste': lambda t: 'Dropped' in t.split('```')[1],
              'yaml_anchors': lambda t: 'not_chosen:' in t,
              'jsonld_reservations': lambda t: _JL_ST['cancel'] in t,
              'todo_txt': lambda t: ' Cancel ' in t or ' Drop ' in t}


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    "The part's self-check (`layouts.selfcheck_part`): failures + missed corruptions."
    return selfcheck_part(HELDOUT14_LAYOUTS, _phr, _check_one, mutations,
                          lambda lay, text: lay in _HAS_DECOY and _HAS_DECOY[lay](text), plans, mutate_every)


if __name__ == '__main__':
    part_cli(__doc__, HELDOUT14_LAYOUTS, _phr, selfcheck)
