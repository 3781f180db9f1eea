#!/usr/bin/env python
"""Held-out part v13 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their notebooks
(04a, 04b, 05), tests (test_grounded*, test_layout*, test_robustness*) or results/formatter/* were opened, no reader was
run on these texts, and `tools/layouts.py measure` / `record` were not run). Only tools/layouts.py (its interface and its
layouts' source, to avoid repeating them), tools/agreement.py (`_leg_parts`, `_attractions`), tools/layouts_v5.py ...
layouts_v12.py (their structure and layouts; generic helpers of v8, v9, v10 and v12 are imported) and the `EvalIndex`
class of star/evaluator.py (its lookup interface) were read. SEALED: this part is to be scored ONCE by the lead (via
tools/layouts.py, part 'heldout13', once registered there) and never tuned on before that score.

    python tools/layouts_v13.py check                    # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (the voice transcript's spoken
                                                         # numbers, times, dates and flight numbers turned back into
                                                         # digits, its follow-up questions and refusals; the Kanban
                                                         # board's columns, cards and archived cards; the pandas
                                                         # frame's wrapped column blocks and the tabulate grid's
                                                         # wrapped cells, cut by column position; the Hebrew / Finnish /
                                                         # Hungarian / Romanian labels and dates; the agent's event log
                                                         # replayed with its replace / remove events; the travel blog's
                                                         # bold names by the words before them, its backups skipped;
                                                         # the directions' chained stops; the footnotes resolved) into
                                                         # the plan's own values (venue 'Name, City', route, leg parts)
                                                         # and compared with the plan EXACTLY; then corruptions (a name
                                                         # deleted, lunches swapped, a day dropped, a decoy promoted, a
                                                         # flight time moved, a stay lengthened, ...) must be caught.
                                                         # 315 plans x 8 layouts = 2,520 renderings, 19,760
                                                         # corruptions, ~30 s
    python tools/layouts_v13.py check --limit 40         # the same on the first 40 known plans
    python tools/layouts_v13.py show voice_assistant --n 1   # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how chat models and tool-using agents answer "plan me a 3/5/7-day trip", in styles that none of
tools/layouts.py, tools/layouts_v5.py ... tools/layouts_v12.py has (see each renderer's docstring):

* `voice_assistant`      the answer as a voice assistant reads it out, transcribed (timestamped "[00:12] Aria: ..." or
                         bare "Assistant: ..." lines): "Day two. Thursday, March seventeenth. You're in Rockford.",
                         EVERY number spoken — flight numbers digit by digit or in pairs ("flight F three fifty-seven
                         thirty-six fifty-nine"), times "three forty p.m." / "noon", durations "three hours and eleven
                         minutes", costs "one hundred twenty dollars"; meals and stays in sentences; the user's
                         interruptions ("Sorry, what was lunch on day two again?" — answered again, consistently) and
                         DECOYS: the user's alternatives turned down ("Could we do Y for lunch on day two instead?" /
                         "I checked — Y is closed that day, so lunch on day two stays at X.")
* `kanban_board`         the plan as a Trello / Kanban board, grouped by BOOKING STATUS, not by day: a "Days" list (date
                         and route of each day), then "Booked" / "To book" / "No booking needed" lists whose cards are
                         sorted by kind ("✈️ **Flight · Day 1** — F1 · A → B · 15:40 → 17:04", "🍽️ **Meal · Day 2** —
                         Lunch - X · table for 2" in the drawn meal label, "🛏️ **Stay · Nights 1–2** — W · check-in ...
                         · check-out ...", "📍 **Sights · Day 2** — ..."); markdown lists with checkboxes or a plain-
                         text board ("=== BOOKED ===", "• [Meal | Day 2] *Lunch:* X"); DECOYS as ARCHIVED cards ("~~🍽️
                         **Meal · Day 2** — Lunch: Y~~ — closed that day")
* `code_interpreter_table` a code-interpreter agent's printout: EITHER `print(df)` of a pandas DataFrame too wide for
                         the console, wrapped into column blocks ("\\" after the header of each continued block),
                         right-aligned cells, the TravelPlanner fields raw (current_city 'from A to B', the
                         transportation string as the tool returned it), NaN for an empty slot; OR a `tabulate` grid
                         ("grid" "+---+" or "fancy_grid" "╒═══╤") with maxcolwidths: long names WRAPPED over several
                         lines inside their cell, one "• " line per sight, an empty cell for an empty slot
* `he_fi_hu_ro_labels`   the answer in Hebrew, Finnish, Hungarian or Romanian (drawn): "#### יום 2 · יום חמישי, 17 במרץ 2022
                         · Rockford", "#### Päivä 2 · torstai 17. maaliskuuta 2022 · ...", "#### 2. nap · 2022. március
                         17., csütörtök · ...", "#### Ziua 2 · joi, 17 martie 2022 · ..."; bold labels (תחבורה / ארוחת בוקר
                         / אטרקציות / ארוחת צהריים / ארוחת ערב / לינה, Matkustus / Aamiainen / Nähtävyydet / Lounas / Päivällinen
                         (= DINNER) / Majoitus, Utazás / Reggeli / Látnivalók / Ebéd (= LUNCH) / Vacsora / Szállás,
                         Transport / Mic dejun / Obiective turistice / Prânz / Cină / Cazare), in the order of the day or
                         the meals first; legs translated (Finnish times "15.40"), the venue placement's words translated
                         ("X ב-Rockford", "X kaupungissa Rockford", "X, Rockford városában", "X din Rockford"); names
                         verbatim
* `agent_event_log`      a planning agent's structured log, in the order the agent worked (routes, transport, stays,
                         meals, sights, then fixes): logfmt ("ts=... level=info op=add_meal day=2 meal=lunch name="X"
                         city=Rockford") or Python logging lines with call-like records ("... INFO planner:
                         add_meal(day=2, meal='lunch', name='X', city='Rockford')"); DECOYS: first picks replaced or
                         removed by later events ("op=replace_meal ... old="Y" new="X"", "op=remove_sight ...",
                         "op=replace_stay nights=1-2 ..."): the plan is the state after the log is replayed
* `travel_blog`          a travel-magazine post: "## Day 2 — Thursday, March 17: Rockford", an italic "*Getting there:*"
                         / "*Heading home:*" line, then "#### ☀️ Morning" / "#### 🌤️ Afternoon" / "#### 🌙 Evening"
                         paragraphs of prose in which every venue is bold and known only by the words before it
                         ("Start the day with breakfast at **X** — a cosy spot for Bakery, Desserts, about $25 a
                         head.", "Afterwards, wander over to **Y**.", "Your bed for the night: **W**"), adjectives,
                         cuisines, prices and room types around the names; DECOYS: backups ("If it's packed, **Y** is a
                         solid backup.")
* `directions_legs`      the day as turn-by-turn legs between stops, as a maps app lists them: "3. Dial A Cake → Burpee
                         Museum · 📍 sight · 🚶 9 min" — every stop named TWICE (as the end of one leg and the start of the
                         next), its role only in the tag after it; the day starts from last night's stay; on a travel
                         day the trip's leg ("✈️ Fly A → B · F1 · 15:40–17:04") stands between the stops in the city
                         left and those in the city reached, which start from "B (arrival)"
* `footnoted_slots`      day bullets that name only the SLOT ("- Lunch[^6]", "- Sightseeing[^3][^4]", or "- Lunch [6]"
                         with a "**Notes**" list): the venues only in the footnotes at the end ("[^6]: X (Chinese,
                         Seafood; about $30 per person)"), a stay's note shared by its nights; DECOYS: backups inside a
                         note ("... Backup if it's full: Y.") or a note nothing refers to ("considered for lunch on Day
                         2, not booked")

Phrasings (`HELDOUT13_PHRASES`, drawn per rendering by `Phr13`): venue placed as 'X at City', 'X — City, TX' (the state
only for cities the database places in a US state), 'X in City, Texas' (the full state name, ditto) or 'X, City' (the
words translated in he_fi_hu_ro_labels); several sights joined by ' ⇢ ', ' ⋅ ', ', after that ' or ' and then off to '
(the last two translated in he_fi_hu_ro_labels, spoken as ', then ' by the voice assistant); meal labels 'Lunch - X',
'*Lunch:* X', 'Lunch venue: X' or 'Lunch: X' (in the Kanban board's meal cards, and as the label word alone — '*Lunch*',
'Lunch venue', 'Lunch' — in the footnoted slots; the other layouts say their meals in their own words). Every rendering
states the whole plan: each day's route, the leg (flight number and times, or self-drive / taxi with duration and cost),
each meal's restaurant (or none: absent, or said to be none), each attraction and the accommodation; names are verbatim
(words are only added around them; logfmt and Python escape what they must); the noise (intros, interruptions,
refusals, archived cards, fix events, backups, notes nothing refers to, walking times) never contradicts the plan.
"""
from __future__ import annotations

import ast, datetime, random, re, sys, textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _POSTAL_OF, _name_city, known_plans, part_cli, selfcheck_part            # noqa: E402
from layouts_v8 import (_check_with, _common_mutations, _DAY_SPAN, _MEALS, _all_said, _blank, _cmp, _date, _dur_key, _get, _index,  # noqa: E402
                        _leg_key, _people, _put, _restaurant, _road_key, _said, _stay, _swap)
from layouts_v9 import _back, _revision_decoys, _rt  # noqa: E402
from layouts_v10 import _day_runs, _flight, _nm, _with_name  # noqa: E402
from layouts_v12 import _alt, _dix, _fd, _fmt, _span_text  # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT13_PHRASES = {
    'locative': ('at_city', 'emdash_st', 'in_full_state', 'comma'),  # 'X at City' | 'X — City, TX' | 'X in City, Texas' | 'X, City'
    'join': (' ⇢ ', ' ⋅ ', ', after that ', ' and then off to '),
    'meal_label': ('hyphen', 'italic', 'venue_word', 'colon'),     # 'Lunch - X' | '*Lunch:* X' | 'Lunch venue: X' | 'Lunch: X'
}
_FULL_STATE = {c: s for c, s in _index().city_state.items() if c in _POSTAL_OF and isinstance(s, str)}
_VT = {   # the placement's words per language: 'at', 'in City, State', 'in City' (no state known)
    'en': {'at': '{n} at {c}', 'full': '{n} in {c}, {S}', 'full0': '{n} in {c}'},
    'he': {'at': '{n} ב-{c}', 'full': '{n} ב-{c}, {S}', 'full0': '{n} ב-{c}'},
    'fi': {'at': '{n} kaupungissa {c}', 'full': '{n} kaupungissa {c}, {S}', 'full0': '{n} kaupungissa {c}'},
    'hu': {'at': '{n}, {c} városában', 'full': '{n}, {c} városában ({S})', 'full0': '{n}, {c} városában'},
    'ro': {'at': '{n} din {c}', 'full': '{n} din {c}, {S}', 'full0': '{n} din {c}'},
}


def _venue(ph, v: str, lg: str = 'en') -> str:
    "A venue 'Name, City' as `ph` places it (in language `lg`: its words for 'at' / 'in')."
    n, c = _name_city(v)
    if not c: return n
    if ph.loc == 'emdash_st': return f"{n} — {c}, {_POSTAL_OF[c]}" if c in _POSTAL_OF else f"{n} — {c}"
    if ph.loc == 'at_city': return _VT[lg]['at'].format(n=n, c=c)
    if ph.loc == 'in_full_state':
        return _VT[lg]['full'].format(n=n, c=c, S=_FULL_STATE[c]) if c in _FULL_STATE else _VT[lg]['full0'].format(n=n, c=c)
    return f"{n}, {c}"


def _tre(t: str) -> re.Pattern:
    "A placement template as a regex: the name greedy, the city and the state as short as they can be."
    out, pos = '', 0
    for m in re.finditer(r'\{(n|c|S)\}', t):
        out += re.escape(t[pos:m.start()]) + {'n': '(?P<n>.+)', 'c': '(?P<c>.+?)', 'S': '(?P<S>.+?)'}[m[1]]
        pos = m.end()
    return re.compile(out + re.escape(t[pos:]), re.S)


_VRE = {lg: {k: _tre(t) for k, t in T.items()} for lg, T in _VT.items()}


def _unvenue(ph, s: str, lg: str = 'en') -> str:
    "'Name, City' of a venue as `_venue` writes it; a placement that is not the drawn one is an error."
    bad = ValueError(f"venue {s!r} not placed as {ph.loc} ({lg})")
    if ph.loc == 'emdash_st':
        m = re.fullmatch(r'(.+) — (.+?), ([A-Z]{2})', s, re.S)
        if m and _POSTAL_OF.get(m[2]) == m[3]: return f"{m[1]}, {m[2]}"
        n, sep, c = s.rpartition(' — ')
        if not sep or not n or not c or c in _POSTAL_OF: raise bad
        return f"{n}, {c}"
    if ph.loc == 'at_city':
        m = _VRE[lg]['at'].fullmatch(s)
        if not m: raise bad
        return f"{m['n']}, {m['c']}"
    if ph.loc == 'in_full_state':
        m = _VRE[lg]['full'].fullmatch(s)
        if m and _FULL_STATE.get(m['c']) == m['S']: return f"{m['n']}, {m['c']}"
        m = _VRE[lg]['full0'].fullmatch(s)
        if not m or m['c'] in _FULL_STATE: raise bad
        return f"{m['n']}, {m['c']}"
    n, sep, c = s.rpartition(', ')
    if not sep or not n or not c: raise bad
    return s


def _unitems(ph, s: str, join=None, lg='en') -> list[str]: return [_unvenue(ph, x, lg) for x in s.split(join or ph.join)]


class Phr13(Phr):
    "`Phr` with the v13 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        if self.loc in HELDOUT13_PHRASES['locative']: return _venue(self, v)
        return super().venue(v)

    def meal_prefix(self, label: str) -> str:
        "The words before a meal's venue: 'Lunch - ' | '*Lunch:* ' | 'Lunch venue: ' | 'Lunch: '."
        if self.label == 'hyphen': return f"{label} - "
        if self.label == 'italic': return f"*{label}:* "
        if self.label == 'venue_word': return f"{label} venue: "
        return f"{label}: "

    def meal_word(self, label: str) -> str:
        "The label alone, before a reference: 'Lunch' | '*Lunch*' | 'Lunch venue' | 'Lunch'."
        return {'italic': f"*{label}*", 'venue_word': f"{label} venue"}.get(self.label, label)

    def meal(self, label: str, v: str) -> str: return self.meal_prefix(label) + self.venue(v)


PHR13 = Phr13


def _unmeal(ph, s: str):
    "(meal, the rest) of a text that starts with the drawn meal label, else None."
    for m in _MEALS:
        p = ph.meal_prefix(m.capitalize())
        if s.startswith(p): return m, s[len(p):]
    return None


def _leg(d): return _leg_parts(d['transportation']) if d['transportation'] != '-' else None


# ============================================================================================================ layouts
# voice_assistant ------------------------------------------------------------------------------------------------------
_ONES = ('zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen '
         'eighteen nineteen').split()
_TENS = '_ _ twenty thirty forty fifty sixty seventy eighty ninety'.split()


def _w(n: int) -> str:
    "A number in words: 120 -> 'one hundred twenty', 2377 -> 'two thousand three hundred seventy-seven'."
    if n < 20: return _ONES[n]
    if n < 100: return _TENS[n // 10] + (f"-{_ONES[n % 10]}" if n % 10 else '')
    if n < 1000: return f"{_ONES[n // 100]} hundred" + (f" {_w(n % 100)}" if n % 100 else '')
    return f"{_w(n // 1000)} thousand" + (f" {_w(n % 1000)}" if n % 1000 else '')


_WN = {_w(n): n for n in range(20000)}


def _unw(s: str) -> int:
    if s not in _WN: raise ValueError(f"number words {s!r}")
    return _WN[s]


def _ordw(n: int) -> str:
    "An ordinal in words: 'first', 'seventeenth', 'twenty-second', 'thirtieth'."
    irr = {1: 'first', 2: 'second', 3: 'third', 5: 'fifth', 8: 'eighth', 9: 'ninth', 12: 'twelfth'}
    if n in irr: return irr[n]
    if n > 20 and n % 10: return f"{_TENS[n // 10]}-{_ordw(n % 10)}"
    if n >= 20: return _TENS[n // 10][:-1] + 'ieth'
    return _w(n) + 'th'


def _say_t(t: str) -> str:
    "'15:40' -> 'three forty p.m.', '17:04' -> 'five oh four p.m.', '09:00' -> 'nine a.m.', 'noon', 'midnight'."
    h, m = map(int, t.split(':'))
    if (h, m) == (12, 0): return 'noon'
    if (h, m) == (0, 0): return 'midnight'
    mm = '' if m == 0 else f" oh {_ONES[m]}" if m < 10 else f" {_w(m)}"
    return f"{_w(h % 12 or 12)}{mm} {'a.m.' if h < 12 else 'p.m.'}"


_TW = {_say_t(f"{h:02d}:{m:02d}"): f"{h:02d}:{m:02d}" for h in range(24) for m in range(60)}


def _unsay_t(s: str) -> str:
    if s not in _TW: raise ValueError(f"spoken time {s!r}")
    return _TW[s]


def _say_fn(num: str, pairs: bool) -> str:
    "'F3573659' -> 'F three five seven three six five nine' or (pairs) 'F three fifty-seven thirty-six fifty-nine'."
    ds = num[1:]
    if not pairs: return 'F ' + ' '.join(_ONES[int(c)] for c in ds)
    groups = ([ds[0]] if len(ds) % 2 else []) + [ds[j:j + 2] for j in range(len(ds) % 2, len(ds), 2)]
    return 'F ' + ' '.join(_ONES[int(g)] if len(g) == 1 else f"oh {_ONES[int(g[1])]}" if g[0] == '0' else _w(int(g)) for g in groups)


def _unsay_fn(s: str) -> str:
    "The flight number of its spoken form (digit words, 'oh' + a digit word, or a two-digit number word each)."
    if not s.startswith('F '): raise ValueError(f"spoken flight {s!r}")
    toks, out, j = s[2:].split(' '), 'F', 0
    while j < len(toks):
        if toks[j] == 'oh':
            if j + 1 >= len(toks) or toks[j + 1] not in _ONES[:10]: raise ValueError(f"spoken flight {s!r}")
            out += '0' + str(_ONES.index(toks[j + 1])); j += 2; continue
        n = _unw(toks[j])
        if n >= 100: raise ValueError(f"spoken flight {s!r}")
        out += str(n); j += 1
    return out


_UNIT = {'day': 'day', 'hour': 'hour', 'min': 'minute'}


def _say_dur(s: str) -> str:
    "'3 hours 11 mins' -> 'three hours and eleven minutes'."
    ps = [f"{_w(n)} {_UNIT[u]}{'s' * (n != 1)}" for n, u in _dur_key(s)]
    return ps[0] if len(ps) == 1 else ', '.join(ps[:-1]) + ' and ' + ps[-1]


def _unsay_dur(s: str) -> str:
    out = []
    for p in re.split(r', | and ', s):
        m = re.fullmatch(r'(.+) (day|hour|minute)s?', p)
        if not m: raise ValueError(f"spoken duration {s!r}")
        out.append(f"{_unw(m[1])} {m[2][:3] if m[2] == 'minute' else m[2]}")
    back = ' '.join(out)
    if _say_dur(back) != s: raise ValueError(f"spoken duration {s!r} not as said")
    return back


def _say_cost(c: str) -> str: return f"{_w(int(c))} dollar{'s' * (int(c) != 1)}" if c.isdigit() else f"{c} dollars"


def _unsay_cost(s: str) -> str:
    m = re.fullmatch(r'(.+) dollars?', s)
    if not m or _say_cost(str(_unw(m[1]))) != s: raise ValueError(f"spoken cost {s!r}")
    return str(_unw(m[1]))


def _say_date(d: datetime.date) -> str: return f"{d:%A}, {d:%B} {_ordw(d.day)}"


_VA_NAMES = ('Assistant', 'Aria', 'Voice assistant')
_VA_USER = ('User', 'You')
_VA_INTRO = "Sure! Here's your {n}-day trip from {org} to {dest}. I'll go through it day by day."
_VA_OUTRO = ("That's the whole trip. Have a great time!", "And that's everything — safe travels!")
_VA_MEAL = {m: (f"{m.capitalize()} is at {{v}}.", f"For {m}, you'll head to {{v}}.") for m in _MEALS}
_VA_WHY_MEAL = ("is closed that day", "has no tables left at that time", "is over the food budget")
_VA_WHY_STAY = ("has no rooms left for those nights", "is over budget for those nights")
_VA_WHY_SIGHT = ("there isn't enough time that day", "it's too far from the rest of the day")


def _va_nights(a: int, b: int) -> str: return f"night {_w(a)}" if a == b else f"nights {_w(a)} to {_w(b)}"


def voice_assistant(plan, task, ph):
    """A voice assistant reading the plan aloud, transcribed: utterance lines "[00:12] Aria: ..." (timestamps) or "Voice
    assistant: ..." (none). EVERY number spoken: "Day two. Thursday, March seventeenth. You're in Rockford." / "...
    You're traveling from A to B.", "You'll fly on flight F three five seven ... (digit by digit, or 'F three fifty-seven
    thirty-six fifty-nine' in pairs, 'oh five' for 05). It leaves A at three forty p.m. and lands in B at five oh four
    p.m., local time.", "You'll drive yourself from A to B — that's about three hours and eleven minutes, and it costs
    about one hundred twenty dollars."; meals "Lunch is at X." / "For lunch, you'll head to X."; sights "After that,
    you'll visit X, then Y." or "Next stop: X." each; "Tonight you'll stay at W." / "You'll spend another night at W." /
    "No hotel tonight — you're heading home."; an empty meal "There's no lunch planned." or not said. The user cuts in:
    "Sorry, what was lunch on day two again?" (answered with the same name) and with DECOYS turned down ("Could we do Y
    for lunch on day two instead?" / "I checked — Y is closed that day, so lunch on day two stays at X."; "What about
    staying at Z instead?" / "Z has no rooms left ..., so you'll stay at W on nights one to two."; "Can we squeeze in S
    on day two?" / "Not this time — ..., so S stays off the list for day two.")."""
    r = ph.rng
    stamps, say_none, each, pairs = r.random() < 0.6, r.random() < 0.4, r.random() < 0.5, r.random() < 0.5
    me, you = r.choice(_VA_NAMES), r.choice(_VA_USER)
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 1))
    n = len(plan)
    utt = [(me, _VA_INTRO.format(n=_w(n), org=_get(task, 'org'), dest=_get(task, 'dest')))]
    for i, d in enumerate(plan):
        k = d['days']
        a, b = _rt(d['current_city']).partition(' → ')[::2]
        utt.append((me, f"Day {_w(k)}. {_say_date(_date(task, i))}. " + (f"You're traveling from {a} to {b}." if b else f"You're in {a}.")))
        if (p := _leg(d)):
            if p['mode'] == 'flight':
                utt.append((me, f"You'll fly on flight {_say_fn(p['number'], pairs)}. It leaves {p['a']} at {_say_t(p['dep'])} and "
                                f"lands in {p['b']} at {_say_t(p['arr'])}, local time."))
            else:
                utt.append((me, f"You'll {'take a taxi' if p['mode'] == 'taxi' else 'drive yourself'} from {p['a']} to {p['b']} — that's "
                                f"about {_say_dur(p['duration'])}, and it costs about {_say_cost(p['cost'])}."))
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if m == 'lunch' and at:
                utt += [(me, f"Next stop: {ph.venue(x)}.") for x in at] if each else [(me, f"After that, you'll visit {', then '.join(ph.venue(x) for x in at)}.")]
            if d[m] != '-': utt.append((me, r.choice(_VA_MEAL[m]).format(v=ph.venue(d[m]))))
            elif say_none: utt.append((me, f"There's no {m} planned."))
        acc = d['accommodation']
        if acc == '-': utt.append((me, "No hotel tonight — you're heading home." if i == n - 1 else "There's no hotel booked for tonight."))
        elif i and plan[i - 1]['accommodation'] == acc: utt.append((me, f"You'll spend another night at {ph.venue(acc)}."))
        else: utt.append((me, f"Tonight you'll stay at {ph.venue(acc)}."))
        asks = []
        for (j, m), y in meals.items():
            if j == i: asks.append([(you, f"Could we do {y} for {m} on day {_w(k)} instead?"),
                                    (me, f"I checked — {y} {r.choice(_VA_WHY_MEAL)}, so {m} on day {_w(k)} stays at {_nm(d[m])}.")])
        for (a0, b0), z in stays.items():
            if b0 == i: asks.append([(you, f"What about staying at {z} instead?"),
                                     (me, f"{z} {r.choice(_VA_WHY_STAY)}, so you'll stay at {_nm(acc)} on {_va_nights(plan[a0]['days'], k)}.")])
        for j, (_, x) in sights.items():
            if j == i: asks.append([(you, f"Can we squeeze in {_nm(x)} on day {_w(k)}?"),
                                    (me, f"Not this time — {r.choice(_VA_WHY_SIGHT)}, so {_nm(x)} stays off the list for day {_w(k)}.")])
        if r.random() < 0.25 and (ms := [m for m in _MEALS if d[m] != '-']):
            m = r.choice(ms)
            asks.append([(you, f"Sorry, what was {m} on day {_w(k)} again?"), (me, f"{m.capitalize()} on day {_w(k)} is at {ph.venue(d[m])}.")])
        r.shuffle(asks)
        utt += sum(asks, [])
    utt.append((me, r.choice(_VA_OUTRO)))
    out, t = [], 0
    for who, s in utt:
        out.append(f"[{t // 60:02d}:{t % 60:02d}] {who}: {s}" if stamps else f"{who}: {s}")
        t += max(3, len(s) // 14 + r.randrange(3))
    return '\n'.join(out)


# kanban_board ---------------------------------------------------------------------------------------------------------
_KB_INTRO = ("I've set the trip up as a Kanban board — cards move from “To book” to “Booked” as you go:",
             "Here's your trip as a Trello-style board (one card per thing to sort out):")
_KB_OUTRO = ("Drag the cards across as you book them.", "Archived cards are the options I dropped — kept for reference.")
_KB_COLS = {'booked': ('✅ Booked', 'BOOKED'), 'tobook': ('📋 To book', 'TO BOOK'), 'free': ('🎟️ No booking needed', 'NO BOOKING NEEDED'),
            'archived': ('🗃️ Archived', 'ARCHIVED')}
_KB_ICON = {'Flight': '✈️', 'Self-drive': '🚗', 'Taxi': '🚕', 'Stay': '🛏️', 'Meal': '🍽️', 'Sights': '📍', 'Sight': '📍'}
_KB_WHY = {'meal': ("closed that day", "no table for our time", "over the food budget"),
           'stay': ("no rooms left for those nights", "house rules don't fit", "over budget"),
           'sight': ("not enough time that day", "too far from the rest of the day")}


def _nights_tag(a: int, b: int) -> str: return f"Night {a}" if a == b else f"Nights {a}–{b}"


def _kb_line(md: bool, col: str, kind: str, tag: str, body: str, why: str | None = None) -> str:
    if md:
        core = f"{_KB_ICON[kind]} **{kind} · {tag}** — {body}"
        if col == 'archived': return f"- ~~{core}~~ — {why}"
        return {'booked': '- [x] ', 'tobook': '- [ ] ', 'free': '- '}[col] + core
    if col == 'archived': return f"• [{kind} | {tag}] (archived) {body} — {why}"
    return f"• [{kind} | {tag}] {body}"


def kanban_board(plan, task, ph):
    """The trip as a Kanban / Trello board, grouped by BOOKING STATUS: a "🗓️ Days" list ("**Day 2** · Thu, Mar 17 ·
    Rockford"), then "✅ Booked", "📋 To book", "🎟️ No booking needed" (each with its card count), cards sorted by kind
    (transport, stays, meals, sights) then day: "✈️ **Flight · Day 1** — F1 · A → B · 15:40 → 17:04", "🚗 **Self-drive ·
    Day 3** — A → B · 3 hours 11 mins · $120", "🛏️ **Stay · Nights 1–2** — W · check-in Wed, Mar 16 · check-out Fri, Mar
    18", "🍽️ **Meal · Day 2** — Lunch - X · table for 2" (booked; the drawn meal label) / "... — Lunch - X" (to book) /
    "... — Lunch - X · walk-in" (no booking), "📍 **Sights · Day 2** — X ⇢ Y" (the drawn join) or a "📍 **Sight · Day 2**"
    card per sight; an empty meal "Lunch - none planned" or no card. Markdown lists with checkboxes ("- [x] ", "- [ ] ",
    "- ") or a plain-text board in a ```text block ("=== BOOKED ===", "• [Meal | Day 2] Lunch - X"). DECOYS: "🗃️
    Archived" cards ("- ~~🍽️ **Meal · Day 2** — Lunch - Y~~ — closed that day", "• [Stay | Nights 1–2] (archived) Z —
    over budget")."""
    r = ph.rng
    md, say_none, per_sight = r.random() < 0.6, r.random() < 0.35, r.random() < 0.4
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 1))
    n, ppl = len(plan), _people(task)
    cards = []                                                   # (col, rank, day, pos, kind, tag, body, why)
    for i, d in enumerate(plan):
        k = d['days']
        if (p := _leg(d)):
            if p['mode'] == 'flight':
                cards.append(('booked' if r.random() < 0.8 else 'tobook', 0, k, 0, 'Flight', f"Day {k}",
                              f"{p['number']} · {p['a']} → {p['b']} · {p['dep']} → {p['arr']}", None))
            else:
                kind = 'Taxi' if p['mode'] == 'taxi' else 'Self-drive'
                col = 'free' if kind == 'Self-drive' or r.random() < 0.5 else 'booked'
                cards.append((col, 0, k, 0, kind, f"Day {k}", f"{p['a']} → {p['b']} · {p['duration']} · ${p['cost']}", None))
        for j, m in enumerate(_MEALS):
            M = m.capitalize()
            if d[m] == '-':
                if say_none: cards.append(('free', 2, k, j, 'Meal', f"Day {k}", ph.meal_prefix(M) + 'none planned', None))
                continue
            col = r.choice(('booked', 'booked', 'tobook', 'free'))
            cards.append((col, 2, k, j, 'Meal', f"Day {k}", ph.meal(M, d[m]) + {'booked': f" · table for {ppl}", 'tobook': '', 'free': ' · walk-in'}[col], None))
            if (i, m) in meals:
                cards.append(('archived', 2, k, j, 'Meal', f"Day {k}", ph.meal(M, _with_name(d[m], meals[(i, m)])), r.choice(_KB_WHY['meal'])))
        at = _attractions(d['attraction'])
        if at:
            col = 'free' if r.random() < 0.7 else 'tobook'
            if per_sight: cards += [(col, 3, k, j, 'Sight', f"Day {k}", ph.venue(x), None) for j, x in enumerate(at)]
            else: cards.append((col, 3, k, 0, 'Sights', f"Day {k}", ph.items(at), None))
        if i in sights: cards.append(('archived', 3, k, 9, 'Sight', f"Day {k}", ph.venue(sights[i][1]), r.choice(_KB_WHY['sight'])))
    for a, b, acc in _day_runs(plan):
        tag = _nights_tag(plan[a]['days'], plan[b]['days'])
        body = f"{ph.venue(acc)} · check-in {_fd(task, a, 'mon')} · check-out {_fmt(_date(task, b) + _DAY_SPAN, 'mon')}"
        cards.append(('booked' if r.random() < 0.7 else 'tobook', 1, plan[a]['days'], 0, 'Stay', tag, body, None))
        if (a, b) in stays: cards.append(('archived', 1, plan[a]['days'], 1, 'Stay', tag, ph.venue(_with_name(acc, stays[(a, b)])), r.choice(_KB_WHY['stay'])))
    out = [r.choice(_KB_INTRO), '']
    days = [(f"- **Day {d['days']}** · {_fd(task, i, 'mon')} · {_rt(d['current_city'])}" if md else
             f"• Day {d['days']} | {_fd(task, i, 'mon')} | {_rt(d['current_city'])}") for i, d in enumerate(plan)]
    d0, d1 = _date(task, 0), _date(task, n - 1)
    if md: out += [f"## 🗂️ {_get(task, 'org')} → {_get(task, 'dest')} · {_span_text(d0, d1)}, {d1.year}", '', f"### 🗓️ Days ({n})"] + days
    else: out += ['```text', f"BOARD: {_get(task, 'org')} → {_get(task, 'dest')} · {_span_text(d0, d1)}, {d1.year}", '', '=== DAYS ==='] + days
    for col in ('booked', 'tobook', 'free', 'archived'):
        cs = sorted((c for c in cards if c[0] == col), key=lambda c: c[1:4])
        if not cs: continue
        out += ['', f"### {_KB_COLS[col][0]} ({len(cs)})" if md else f"=== {_KB_COLS[col][1]} ==="]
        out += [_kb_line(md, col, c[4], c[5], c[6], c[7]) for c in cs]
    if not md: out.append('```')
    return '\n'.join(out + ['', r.choice(_KB_OUTRO)])


# code_interpreter_table -----------------------------------------------------------------------------------------------
_PD_COLS = ('day', 'date', 'current_city', 'transportation', 'breakfast', 'attraction', 'lunch', 'dinner', 'accommodation')
_TB_COLS = ('Day', 'Date', 'Route', 'Travel', 'Breakfast', 'Sights', 'Lunch', 'Dinner', 'Stay')
_CI_INTRO = {'pandas': ("I loaded the plan into a DataFrame to double-check it — here is what it printed:",
                        "Ran the itinerary through the code interpreter; the frame below is the final plan:"),
             'tabulate': ("I printed the plan as a grid with tabulate so it's easy to scan:",
                          "Ran the itinerary through the code interpreter; the table below is the final plan:")}
_CI_OUTRO = ("Every row is one day; empty cells mean nothing is planned for that slot.", "Let me know if you want it as a CSV file too.")
_PD_W = 80


def _pd_print(cols, rows) -> list[str]:
    "A DataFrame as `print(df)` shows it in an 80-column console: column blocks, '\\' after a continued block's header."
    w = [max([len(c)] + [len(r[j]) for r in rows]) for j, c in enumerate(cols)]
    iw = len(str(len(rows) - 1))
    blocks, cur, width = [], [], iw
    for j in range(len(cols)):
        if cur and width + 2 + w[j] > _PD_W: blocks.append(cur); cur, width = [], iw
        cur.append(j); width += 2 + w[j]
    blocks.append(cur)
    out = []
    for b, js in enumerate(blocks):
        more = b < len(blocks) - 1
        if b: out.append('')
        out.append(' ' * iw + ''.join('  ' + cols[j].rjust(w[j]) for j in js) + ('  \\' if more else ''))
        out += [str(i).ljust(iw) + ''.join('  ' + r[j].rjust(w[j]) for j in js) + ('  ' if more else '') for i, r in enumerate(rows)]
    return out


def _wrap(s: str, w: int) -> list[str]:
    "`s` wrapped at spaces to width `w` (as tabulate's maxcolwidths does), only where the lines join back into `s`."
    if len(s) <= w: return [s]
    ls = textwrap.wrap(s, w, break_long_words=False, break_on_hyphens=False)
    return ls if ls and ' '.join(ls) == s else [s]


def _sight_lines(vs: list[str], w: int) -> list[str]:
    out = []
    for v in vs:
        ls = _wrap('• ' + v, w)
        out += ls if ls[0].startswith('• ') and not any(x.startswith('• ') for x in ls[1:]) else ['• ' + v]
    return out


def _unsight_lines(ls: list[str]) -> list[str]:
    out = []
    for x in ls:
        if x.startswith('• '): out.append(x[2:])
        elif not out: raise ValueError(f"sight line {x!r} without a bullet")
        else: out[-1] += ' ' + x
    return out


_TB_STYLE = {'grid': dict(top='+-+', head='+=+', mid='+-+', bot='+-+', bar='|'),
             'fancy_grid': dict(top='╒═╤╕', head='╞═╪╡', mid='├─┼┤', bot='╘═╧╛', bar='│')}


def _tb_rule(st: str, w: list[int]) -> str:
    a, f, j, z = (st[0], st[1], st[2], st[3]) if len(st) == 4 else (st[0], st[1], st[2], st[0])
    return a + j.join(f * (x + 2) for x in w) + z


def _tb_print(style: str, head, rows) -> list[str]:
    "A tabulate grid: `rows` of cells, each cell a list of lines; the Day column right-aligned."
    S = _TB_STYLE[style]
    w = [max([len(h)] + [len(x) for r in rows for x in r[j]]) for j, h in enumerate(head)]
    line = lambda cells: S['bar'] + S['bar'].join(f" {(c.rjust if j == 0 else c.ljust)(w[j])} " for j, c in enumerate(cells)) + S['bar']
    out = [_tb_rule(S['top'], w), line(head), _tb_rule(S['head'], w)]
    for k, r in enumerate(rows):
        h = max(1, max(len(c) for c in r))
        out += [line([c[y] if y < len(c) else '' for c in r]) for y in range(h)]
        out.append(_tb_rule(S['mid'] if k < len(rows) - 1 else S['bot'], w))
    return out


def _tb_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"Flight {p['number']} {p['a']} → {p['b']} {p['dep']}–{p['arr']}"
    return f"{'Taxi' if p['mode'] == 'taxi' else 'Self-drive'} {p['a']} → {p['b']}, {p['duration']}, ${p['cost']}"


def code_interpreter_table(plan, task, ph):
    """A code-interpreter agent's printout of the plan. EITHER pandas: a ```python cell ("df = pd.DataFrame(rows)",
    "print(df)") and its output in a ```text block — the frame wider than the 80-column console, so printed in COLUMN
    BLOCKS (each with the index, "  \\" after a continued block's header, a blank line between blocks), cells right-
    aligned, the TravelPlanner fields raw (day, date, current_city 'from A to B', transportation as the tool returned it),
    venues in the drawn placement, the sights in the drawn join, NaN for an empty slot; OR tabulate: "print(tabulate(rows,
    headers=..., tablefmt='grid', maxcolwidths=18))" and a "grid" ("+-----+", "+=====+") or "fancy_grid" ("╒═══╤",
    "│", "╞═══╪", "├───┼", "╘═══╧") table, one row per day, long values WRAPPED at spaces over several lines in their cell,
    one "• " line per sight, an empty cell for an empty slot."""
    r = ph.rng
    use_pd = r.random() < 0.5
    out = [r.choice(_CI_INTRO['pandas' if use_pd else 'tabulate']), '']
    if use_pd:
        rows = []
        for i, d in enumerate(plan):
            v = lambda k: ph.venue(d[k]) if d[k] != '-' else 'NaN'
            rows.append([str(d['days']), _fd(task, i, 'iso'), d['current_city'], d['transportation'] if d['transportation'] != '-' else 'NaN',
                         v('breakfast'), ph.items(_attractions(d['attraction'])) or 'NaN', v('lunch'), v('dinner'), v('accommodation')])
        out += ['```python', 'import pandas as pd', '', 'df = pd.DataFrame(rows, columns=' + repr(list(_PD_COLS)) + ')', 'print(df)', '```',
                '', '```text'] + _pd_print(_PD_COLS, rows) + ['```']
    else:
        style, mw = r.choice(tuple(_TB_STYLE)), r.choice((16, 18, 22))
        rows = []
        for i, d in enumerate(plan):
            v = lambda k: _wrap(ph.venue(d[k]), mw) if d[k] != '-' else []
            rows.append([[str(d['days'])], [_fd(task, i, 'dm')], _wrap(_rt(d['current_city']), mw),
                         _wrap(_tb_leg(d['transportation']), mw) if d['transportation'] != '-' else [], v('breakfast'),
                         _sight_lines([ph.venue(x) for x in _attractions(d['attraction'])], mw), v('lunch'), v('dinner'), v('accommodation')])
        out += ['```python', 'from tabulate import tabulate', '',
                f"print(tabulate(rows, headers={list(_TB_COLS)!r}, tablefmt={style!r}, maxcolwidths={mw}))", '```', '', '```text']
        out += _tb_print(style, _TB_COLS, rows) + ['```']
    return '\n'.join(out + ['', r.choice(_CI_OUTRO)])


# he_fi_hu_ro_labels ---------------------------------------------------------------------------------------------------
_LG13 = {
    'he': dict(head='#### יום {k} · {date} · {route}', labels=('תחבורה', 'ארוחת בוקר', 'אטרקציות', 'ארוחת צהריים', 'ארוחת ערב', 'לינה'),
               none='אין', none_stay='אין (יום חזרה)',
               wd='יום שני|יום שלישי|יום רביעי|יום חמישי|יום שישי|שבת|יום ראשון'.split('|'),
               months='בינואר בפברואר במרץ באפריל במאי ביוני ביולי באוגוסט בספטמבר באוקטובר בנובמבר בדצמבר'.split(),
               date=lambda d, wd, mo: f"{wd}, {d.day} {mo} {d.year}", time=lambda t: t,
               flight='טיסה {n}: {a} → {b}, המראה {dep}, נחיתה {arr}', road='{how}: {a} → {b}, כ-{dur}, {cost} דולר',
               how={'drive': 'נהיגה עצמית', 'taxi': 'מונית'}, units={'day': 'יום', 'hour': 'שעות', 'min': 'דקות'},
               joins={', after that ': ', אחר כך ', ' and then off to ': ' ואז ל-'},
               intro=("הנה תוכנית הטיול שלך, יום אחר יום:", "זה המסלול המלא:"), outro="נסיעה טובה!"),
    'fi': dict(head='#### Päivä {k} · {date} · {route}', labels=('Matkustus', 'Aamiainen', 'Nähtävyydet', 'Lounas', 'Päivällinen', 'Majoitus'),
               none='ei ole', none_stay='ei ole (paluupäivä)',
               wd='maanantai tiistai keskiviikko torstai perjantai lauantai sunnuntai'.split(),
               months=('tammikuuta helmikuuta maaliskuuta huhtikuuta toukokuuta kesäkuuta heinäkuuta elokuuta syyskuuta lokakuuta '
                       'marraskuuta joulukuuta').split(),
               date=lambda d, wd, mo: f"{wd} {d.day}. {mo} {d.year}", time=lambda t: t.replace(':', '.'),
               flight='Lento {n}: {a} → {b}, lähtö {dep}, perillä {arr}', road='{how}: {a} → {b}, noin {dur}, {cost} USD',
               how={'drive': 'Omalla autolla', 'taxi': 'Taksi'}, units={'day': 'vrk', 'hour': 'h', 'min': 'min'},
               joins={', after that ': ', sen jälkeen ', ' and then off to ': ' ja sitten '},
               intro=("Tässä matkasuunnitelmasi päivä päivältä:", "Näin matka etenee:"), outro="Hyvää matkaa!"),
    'hu': dict(head='#### {k}. nap · {date} · {route}', labels=('Utazás', 'Reggeli', 'Látnivalók', 'Ebéd', 'Vacsora', 'Szállás'),
               none='nincs', none_stay='nincs (hazautazás napja)',
               wd='hétfő kedd szerda csütörtök péntek szombat vasárnap'.split(),
               months='január február március április május június július augusztus szeptember október november december'.split(),
               date=lambda d, wd, mo: f"{d.year}. {mo} {d.day}., {wd}", time=lambda t: t,
               flight='{n} járat: {a} → {b}, indulás {dep}, érkezés {arr}', road='{how}: {a} → {b}, kb. {dur}, {cost} USD',
               how={'drive': 'Saját autóval', 'taxi': 'Taxi'}, units={'day': 'nap', 'hour': 'óra', 'min': 'perc'},
               joins={', after that ': ', utána ', ' and then off to ': ', aztán '},
               intro=("Íme az útiterved napról napra:", "A teljes program:"), outro="Jó utat!"),
    'ro': dict(head='#### Ziua {k} · {date} · {route}', labels=('Transport', 'Mic dejun', 'Obiective turistice', 'Prânz', 'Cină', 'Cazare'),
               none='nu este cazul', none_stay='nu este cazul (ziua întoarcerii)',
               wd='luni marți miercuri joi vineri sâmbătă duminică'.split(),
               months='ianuarie februarie martie aprilie mai iunie iulie august septembrie octombrie noiembrie decembrie'.split(),
               date=lambda d, wd, mo: f"{wd}, {d.day} {mo} {d.year}", time=lambda t: t,
               flight='Zborul {n}: {a} → {b}, plecare {dep}, sosire {arr}', road='{how}: {a} → {b}, aprox. {dur}, {cost} USD',
               how={'drive': 'Cu mașina proprie', 'taxi': 'Taxi'}, units={'day': 'zi', 'hour': 'h', 'min': 'min'},
               joins={', after that ': ', după aceea ', ' and then off to ': ' și apoi la '},
               intro=("Iată itinerariul tău, zi cu zi:", "Programul complet al călătoriei:"), outro="Drum bun!"),
}
_LG_KEYS = ('leg', 'breakfast', 'attraction', 'lunch', 'dinner', 'accommodation')
_LG_ORDERS = {'day': (0, 1, 2, 3, 4, 5), 'meals_first': (0, 1, 3, 4, 2, 5)}


def _lg_date(lg, task, i) -> str:
    d, L = _date(task, i), _LG13[lg]
    return L['date'](d, L['wd'][d.weekday()], L['months'][d.month - 1])


def _lg_dur(lg, s) -> str: return ' '.join(f"{n} {_LG13[lg]['units'][u]}" for n, u in _dur_key(s))


def _lg_leg(lg, t) -> str:
    p, L = _leg_parts(t), _LG13[lg]
    if p['mode'] == 'flight': return L['flight'].format(n=p['number'], a=p['a'], b=p['b'], dep=L['time'](p['dep']), arr=L['time'](p['arr']))
    return L['road'].format(how=L['how'][p['mode']], a=p['a'], b=p['b'], dur=_lg_dur(lg, p['duration']), cost=p['cost'])


def he_fi_hu_ro_labels(plan, task, ph):
    """The answer in Hebrew, Finnish, Hungarian or Romanian (drawn): per day "#### יום 2 · יום חמישי, 17 במרץ 2022 ·
    Rockford" / "#### Päivä 2 · torstai 17. maaliskuuta 2022 · A → B" / "#### 2. nap · 2022. március 17., csütörtök ·
    ..." / "#### Ziua 2 · joi, 17 martie 2022 · ...", then "**Label:** value" lines (markdown hard breaks "  " at the ends
    in some renderings), in the order of the day or with the meals first: the leg ("טיסה F1: A → B, המראה 15:40, נחיתה
    17:04", "Lento F1: A → B, lähtö 15.40, perillä 17.04", "F1 járat: A → B, indulás 15:40, érkezés 17:04", "Zborul F1:
    A → B, plecare 15:40, sosire 17:04"; "Omalla autolla: A → B, noin 3 h 11 min, 120 USD", "Saját autóval: ..., kb. 3 óra
    11 perc, 120 USD", "Cu mașina proprie: ..., aprox. 3 h 11 min, 120 USD", "נהיגה עצמית: A → B, כ-3 שעות 11 דקות, 120
    דולר"), breakfast, the sights (the drawn join; word joins translated), lunch (Hungarian 'Ebéd'), dinner (Finnish
    'Päivällinen'), the stay; the placement's words translated ("X ב-Rockford", "X kaupungissa Rockford, Illinois", "X,
    Rockford városában (Illinois)", "X din Rockford"); an empty slot 'אין' / 'ei ole' / 'nincs' / 'nu este cazul' (the
    last day's stay '... (paluupäivä)' etc.) or its line left out; names verbatim."""
    r = ph.rng
    lg = r.choice(tuple(_LG13))
    L, say_none, hard = _LG13[lg], r.random() < 0.5, r.random() < 0.4
    order = _LG_ORDERS[r.choice(tuple(_LG_ORDERS))]
    join = L['joins'].get(ph.join, ph.join)
    out = [r.choice(L['intro'])]
    for i, d in enumerate(plan):
        out += ['', L['head'].format(k=d['days'], date=_lg_date(lg, task, i), route=_rt(d['current_city']))]
        at = _attractions(d['attraction'])
        vals = {'leg': _lg_leg(lg, d['transportation']) if d['transportation'] != '-' else None,
                'attraction': join.join(_venue(ph, x, lg) for x in at) or None,
                **{k: _venue(ph, d[k], lg) if d[k] != '-' else None for k in (*_MEALS, 'accommodation')}}
        lines = []
        for j in order:
            k, v = _LG_KEYS[j], vals[_LG_KEYS[j]]
            if v is None and not say_none: continue
            if v is None: v = L['none_stay'] if k == 'accommodation' and i == len(plan) - 1 else L['none']
            lines.append(f"**{L['labels'][j]}:** {v}")
        out += [x + '  ' for x in lines[:-1]] + lines[-1:] if hard else lines
    return '\n'.join(out + ['', L['outro']])


# agent_event_log ------------------------------------------------------------------------------------------------------
_EV_WHY = {'meal': ("closed that day", "no table at that time", "over the food budget"),
           'stay': ("no rooms left for those nights", "minimum stay too long", "over budget"),
           'sight': ("not enough time that day", "too far from the rest of the day")}
_EV_INTRO = ("Here's the planner agent's log for your trip; replaying it gives the final itinerary:",
             "Below is the agent's event log (the last state of each slot is the plan):")
_EV_OUTRO = ("Events at level warn are the agent's corrections; they are already applied above.", "Ask me if you want the plan as a table.")


_PY_KEY = {'from': 'origin', 'to': 'destination'}          # Python keyword arguments cannot be called 'from'


def _lf_val(v) -> str:
    "A logfmt value: bare when it has no space, '=', quote or backslash, else double-quoted with \\\" and \\\\."
    s = str(v)
    if s and not re.search(r'[\s="\\]', s): return s
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def _ev_events(plan, task, ph, r):
    "[(level, op, {field: value})] in the order the agent worked: routes, transport, stays, meals, sights, then fixes."
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 2))
    ev = [('info', 'start', dict(org=_get(task, 'org'), dest=_get(task, 'dest'), start=_fd(task, 0, 'iso'), days=len(plan),
                                 people=_people(task)))]
    for i, d in enumerate(plan):
        a, b = _rt(d['current_city']).partition(' → ')[::2]
        ev.append(('info', 'set_route', dict(day=d['days'], date=_fd(task, i, 'iso'), **({'from': a, 'to': b} if b else {'city': a}))))
    for d in plan:
        if (p := _leg(d)):
            if p['mode'] == 'flight':
                ev.append(('info', 'book_flight', dict(day=d['days'], number=p['number'], **{'from': p['a'], 'to': p['b']}, dep=p['dep'], arr=p['arr'])))
            else:
                ev.append(('info', 'book_ground', dict(day=d['days'], mode='taxi' if p['mode'] == 'taxi' else 'self-driving',
                                                       **{'from': p['a'], 'to': p['b']}, duration=p['duration'], cost=int(p['cost']))))
    fixes = []
    for a, b, acc in _day_runs(plan):
        nights = f"{plan[a]['days']}-{plan[b]['days']}" if a != b else str(plan[a]['days'])
        z = stays.get((a, b))
        ev.append(('info', 'book_stay', dict(nights=nights, name=z or _nm(acc), city=_name_city(acc)[1])))
        if z: fixes.append(('warn', 'replace_stay', dict(nights=nights, old=z, new=_nm(acc), city=_name_city(acc)[1], reason=r.choice(_EV_WHY['stay']))))
    for i, d in enumerate(plan):
        for m in _MEALS:
            if d[m] == '-': continue
            y = meals.get((i, m))
            ev.append(('info', 'add_meal', dict(day=d['days'], meal=m, name=y or _nm(d[m]), city=_name_city(d[m])[1])))
            if y: fixes.append(('warn', 'replace_meal', dict(day=d['days'], meal=m, old=y, new=_nm(d[m]), city=_name_city(d[m])[1],
                                                           reason=r.choice(_EV_WHY['meal']))))
    for i, d in enumerate(plan):
        at = [_name_city(x) for x in _attractions(d['attraction'])]
        if i in sights:
            pos, x = sights[i]
            at.insert(pos, _name_city(x))
            fixes.append(('warn', 'remove_sight', dict(day=d['days'], name=_nm(x), city=_name_city(x)[1], reason=r.choice(_EV_WHY['sight']))))
        ev += [('info', 'add_sight', dict(day=d['days'], name=nm, city=c)) for nm, c in at]
    r.shuffle(fixes)
    n_meals = sum(d[m] != '-' for d in plan for m in _MEALS)
    n_sights = sum(len(_attractions(d['attraction'])) for d in plan)
    return ev + fixes + [('info', 'finish', dict(days=len(plan), meals=n_meals, sights=n_sights, stays=len(_day_runs(plan))))]


def agent_event_log(plan, task, ph):
    """A planning agent's structured log in a ```text block, in the order the agent worked — a start record, one
    set_route per day (from / to, or city), book_flight (number, from, to, dep, arr) / book_ground (mode, from, to,
    duration, cost), book_stay per run of nights ("nights=1-2"), add_meal (day, meal, name, city), add_sight (in the order
    of the day), then the fixes at level warn, then a finish record with counts. EITHER logfmt ("ts=2022-03-09T09:14:03Z
    level=info op=add_meal day=2 meal=lunch name="Flying Mango" city=Rockford", values quoted where they hold a space, '='
    or a quote, '\\"' and '\\\\' escaped) OR Python logging ("2022-03-09 09:14:03,512 INFO planner: add_meal(day=2,
    meal='lunch', name='Flying Mango', city='Rockford')", the values as Python's repr writes them). DECOYS: first picks
    later fixed — "op=replace_meal day=2 meal=lunch old="Y" new="X" ... reason=...", "op=replace_stay nights=1-2 old=Z
    new=W ...", "op=remove_sight day=2 name=S ...": the plan is the state after the replay. (Python's records name the
    route's ends 'origin' and 'destination': 'from' is a keyword.)"""
    r = ph.rng
    lf = r.random() < 0.5
    ts = datetime.datetime.combine(_date(task, 0) - datetime.timedelta(days=r.randrange(3, 20)), datetime.time(9, r.randrange(60), r.randrange(60)))
    out = [r.choice(_EV_INTRO), '', '```text']
    for level, op, f in _ev_events(plan, task, ph, r):
        ts += datetime.timedelta(seconds=r.randrange(1, 40), milliseconds=r.randrange(1000))
        if lf:
            body = ' '.join(f"{k}={_lf_val(v)}" for k, v in f.items())
            msg = {'start': ' msg="planning started"', 'finish': ' msg="plan ready"'}.get(op, '')
            out.append(f"ts={ts:%Y-%m-%dT%H:%M:%S}Z level={level} agent=planner op={op}{msg} {body}")
        else:
            out.append(f"{ts:%Y-%m-%d %H:%M:%S},{ts.microsecond // 1000:03d} {level.upper():<7} planner: {op}(" +
                       ', '.join(f"{_PY_KEY.get(k, k)}={v!r}" for k, v in f.items()) + ')')
    return '\n'.join(out + ['```', '', r.choice(_EV_OUTRO)])


# travel_blog ----------------------------------------------------------------------------------------------------------
_BL_ADJ = ('cosy', 'buzzing', 'laid-back', 'no-frills', 'much-loved', 'tiny')
_BL_CUE = {'breakfast': ("Start the day with breakfast at ", "Fuel up over breakfast at "),
           'lunch': ("Lunch is a relaxed affair at ", "For lunch, grab a table at "),
           'dinner': ("Dinner is at ", "In the evening, sit down to dinner at "),
           'sight': ("Then spend some time at ", "Afterwards, wander over to ", "Next up: "),
           'stay': ("Your bed for the night: ", "Tonight you check in at "),
           'again': ("Then it's back to ",),
           'backup': ("If it's packed, ",)}
_BL_BACKUP_TAIL = " is a solid backup."
_BL_INTRO = ("# {n} Days in {dest}: A Slow-Travel Itinerary", "# {dest} in {n} Days — Where to Eat, What to See, Where to Sleep")


def _bl_food_tail(r, v: str) -> str:
    x = _restaurant(*_name_city(v))
    if not x: return '.'
    cost = f"about ${x.cost:,.0f} a head" if isinstance(x.cost, (int, float)) else 'fair prices'
    return r.choice((f" — a {r.choice(_BL_ADJ)} spot for {x.cuisines}, {cost}.", f" ({x.cuisines}; {cost})."))


def _bl_stay_tail(r, v: str) -> str:
    x = _stay(*_name_city(v))
    if not x: return '.'
    return f" — {str(x.room_type).lower()}, ${x.price:,.0f} a night." if isinstance(x.price, (int, float)) else '.'


def _bl_leg(t: str, last: bool) -> str:
    p = _leg_parts(t)
    lab = '*Heading home:*' if last else '*Getting there:*'
    if p['mode'] == 'flight':
        return f"{lab} catch flight {p['number']} out of {p['a']} at {p['dep']}; it lands in {p['b']} at {p['arr']}."
    return (f"{lab} {'a taxi takes you' if p['mode'] == 'taxi' else 'you drive yourself'} from {p['a']} to {p['b']} — "
            f"about {p['duration']}, ${p['cost']}.")


def travel_blog(plan, task, ph):
    """A travel-magazine post: a title and a "Highlights:" line (a few sights, plain), then per day "## Day 2 —
    Thursday, March 17: Rockford" (a travel day "St. Petersburg to Rockford"), an italic line for the leg ("*Getting
    there:* catch flight F1 out of A at 15:40; it lands in B at 17:04." / "*Heading home:* you drive yourself from A to B
    — about 3 hours 11 mins, $120.", after the evening on the last day), then "#### ☀️ Morning" (breakfast, the first
    half of the sights), "#### 🌤️ Afternoon" (lunch, the other sights) and "#### 🌙 Evening" (dinner, the stay)
    paragraphs of prose in which EVERY venue is bold and known only by the words just before it: "Start the day with
    breakfast at **X** — a cosy spot for Bakery, Desserts, about $25 a head.", "Lunch is a relaxed affair at **X**",
    "In the evening, sit down to dinner at **X**", "Afterwards, wander over to **Y**." / "Next up: **Y** ⇢ **Z**." (the
    drawn join between bold names), "Your bed for the night: **W** — private room, $120 a night." / "Then it's back to
    **W** for another night." / "No hotel tonight — you head home."; an empty meal "No dinner is planned — ..." or
    nothing. DECOYS: backups after a meal ("If it's packed, **Y** is a solid backup.")."""
    r = ph.rng
    meals = _revision_decoys(plan, r, (1, 1, 2))[0]
    say_none = r.random() < 0.4
    n = len(plan)
    at_all = list(dict.fromkeys(_nm(x) for d in plan for x in _attractions(d['attraction'])))
    out = [r.choice(_BL_INTRO).format(n=n, dest=_get(task, 'dest')), '']
    if at_all: out += ["Highlights: " + ', '.join(r.sample(at_all, min(2, len(at_all)))) + '.', '']
    for i, d in enumerate(plan):
        k, at = d['days'], _attractions(d['attraction'])
        h = (len(at) + 1) // 2
        out += [f"## Day {k} — {_fd(task, i, 'long')}: {_rt(d['current_city'], ' to ')}", '']
        leg = _bl_leg(d['transportation'], i == n - 1) if d['transportation'] != '-' else None
        if leg and i < n - 1: out += [leg, '']

        def meal(m):
            if d[m] == '-': return [f"No {m} is planned — pick something up on the way."] if say_none else []
            s = [f"{r.choice(_BL_CUE[m])}**{ph.venue(d[m])}**{_bl_food_tail(r, d[m])}"]
            if (i, m) in meals: s.append(f"{_BL_CUE['backup'][0]}**{ph.venue(_with_name(d[m], meals[(i, m)]))}**{_BL_BACKUP_TAIL}")
            return s

        def sights(xs):
            if not xs: return []
            if r.random() < 0.5: return [f"{r.choice(_BL_CUE['sight'])}**{ph.venue(x)}**." for x in xs]
            return [r.choice(_BL_CUE['sight']) + ph.join.join(f"**{ph.venue(x)}**" for x in xs) + '.']
        acc = d['accommodation']
        if acc == '-': stay = ["No hotel tonight — you head home." if i == n - 1 else "No hotel is booked for tonight."]
        elif i and plan[i - 1]['accommodation'] == acc: stay = [f"{_BL_CUE['again'][0]}**{ph.venue(acc)}** for another night."]
        else: stay = [f"{r.choice(_BL_CUE['stay'])}**{ph.venue(acc)}**{_bl_stay_tail(r, acc)}"]
        for head, ss in (('#### ☀️ Morning', meal('breakfast') + sights(at[:h])), ('#### 🌤️ Afternoon', meal('lunch') + sights(at[h:])),
                         ('#### 🌙 Evening', meal('dinner') + stay)):
            if ss: out += [head, ' '.join(ss), '']
        if leg and i == n - 1: out += [leg, '']
    return '\n'.join(out + [r.choice(("Have a wonderful trip!", "Bookmark this post for the road."))])


# directions_legs ------------------------------------------------------------------------------------------------------
_DR_TAG = {'breakfast': '🍳 breakfast', 'lunch': '🥪 lunch', 'dinner': '🍝 dinner', 'sight': '📍 sight',
           'checkin': '🛏 check in', 'again': '🛏 back for the night'}
_DR_MODES = ('🚶', '🚗', '🚕', '🚇')
_DR_INTRO = ("Here's each day as a route, stop by stop (times between stops are estimates):",
             "I've laid the trip out as directions — follow the legs in order:")
_DR_OUTRO = ("Open each leg in your maps app for live directions.", "Walking times assume an easy pace.")


def _dr_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ Fly {p['a']} → {p['b']} · {p['number']} · {p['dep']}–{p['arr']}"
    return f"{'🚕 Taxi' if p['mode'] == 'taxi' else '🚗 Drive'} {p['a']} → {p['b']} · {p['duration']} · ${p['cost']}"


def directions_legs(plan, task, ph):
    """Each day as turn-by-turn legs between its stops, as a maps app lists a multi-stop route: "### 🗺️ Day 2 · Thu 17
    Mar · Rockford", numbered legs "3. Dial A Cake at Rockford → Burpee Museum at Rockford · 📍 sight · 🚶 9 min": EVERY
    stop named twice, as the end of one leg and the start of the next, its role only in the tag after it (🍳 breakfast,
    📍 sight, 🥪 lunch, 🍝 dinner, 🛏 check in / 🛏 back for the night); the first leg starts from last night's stay or
    "Rockford (start)". On a travel day the trip's leg ("✈️ Fly A → B · F1 · 15:40–17:04", "🚗 Drive A → B · 3 hours 11
    mins · $120") stands between the stops in the city left and those in the city reached, and the next leg starts from
    "B (arrival)" (where that would reorder the sights: before all stops, or after them on the way home); a night with no
    stay "_(no overnight stay)_"; empty meals have no stop."""
    r = ph.rng
    n = len(plan)
    out = [r.choice(_DR_INTRO)]
    for i, d in enumerate(plan):
        out += ['', f"### 🗺️ Day {d['days']} · {_fd(task, i, 'dm')} · {_rt(d['current_city'])}"]
        leg, last = d['transportation'] != '-', i == n - 1
        route = _rt(d['current_city']).split(' → ')
        prev = plan[i - 1]['accommodation'] if i else '-'
        at = _attractions(d['attraction'])
        h = (len(at) + 1) // 2
        stops = ([('breakfast', d['breakfast'])] if d['breakfast'] != '-' else []) + [('sight', x) for x in at[:h]] + \
                ([('lunch', d['lunch'])] if d['lunch'] != '-' else []) + [('sight', x) for x in at[h:]] + \
                ([('dinner', d['dinner'])] if d['dinner'] != '-' else [])
        if d['accommodation'] != '-': stops.append(('again' if prev == d['accommodation'] else 'checkin', d['accommodation']))
        pre, post = stops, []
        if leg:                                              # the stops in the city left, the leg, the stops in the city reached
            pre = [x for x in stops if x[0] not in ('again', 'checkin') and _name_city(x[1])[1] == route[0]]
            post = [x for x in stops if x not in pre]
            if [x for x in pre + post if x[0] == 'sight'] != [x for x in stops if x[0] == 'sight']:
                pre, post = (stops, []) if last else ([], stops)
        origin = ph.venue(prev) if prev != '-' else f"{route[0]} (start)"
        k = 0
        for part, more in ((pre, leg), (post, False)):
            for tag, v in part:
                k += 1
                dest = ph.venue(v)
                out.append(f"{k}. {origin} → {dest} · {_DR_TAG[tag]} · {r.choice(_DR_MODES)} {r.randrange(3, 26)} min")
                origin = dest
            if more:
                out.append(_dr_leg(d['transportation']))
                origin = f"{route[-1]} (arrival)"
        if d['accommodation'] == '-' and not (last and leg and not post): out.append('_(no overnight stay)_')
    return '\n'.join(out + ['', r.choice(_DR_OUTRO)])


# footnoted_slots ------------------------------------------------------------------------------------------------------
_FN_INTRO = ("Here's the itinerary — each slot links to a note with the details:", "Day by day (details for every stop are in the notes below):")
_FN_OUTRO = ("Prices are from the listings and may change.", "Let me know if you want any stop swapped.")
_FN_SLOT = {'breakfast': 'Breakfast', 'lunch': 'Lunch', 'dinner': 'Dinner', 'attraction': 'Sightseeing', 'accommodation': 'Overnight',
            'leg': 'Travel'}


def _fn_details(kind: str, v: str, plan, a: int = 0, b: int = 0) -> str:
    n, c = _name_city(v)
    if kind in _MEALS:
        x = _restaurant(n, c)
        return f"{x.cuisines}; about ${x.cost:,.0f} per person" if x and isinstance(x.cost, (int, float)) else 'restaurant'
    if kind == 'accommodation':
        x = _stay(n, c)
        nights = f"night {plan[a]['days']}" if a == b else f"nights {plan[a]['days']}–{plan[b]['days']}"
        return (f"{str(x.room_type).lower()}, ${x.price:,.0f}/night; {nights}" if x and isinstance(x.price, (int, float)) else nights)
    return 'sight'


def _fn_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"Flight {p['number']}, {p['a']} → {p['b']}, {p['dep']}–{p['arr']}"
    return f"{'Taxi' if p['mode'] == 'taxi' else 'Self-drive'}, {p['a']} → {p['b']}, {p['duration']}, ${p['cost']}"


def footnoted_slots(plan, task, ph):
    """Day bullets that name only the SLOT, with a reference: Markdown footnotes ("- Breakfast[^2]", "- Sightseeing[^3][^4]",
    "- Lunch[^5]", "- Overnight[^1]", the meal words in the drawn label: '*Lunch*', 'Lunch venue', else 'Lunch') and the notes at the end
    after a "---" ("[^5]: X at Rockford (Chinese, Seafood; about $30 per person)"), or citation style ("- Lunch [5]" and
    "**Notes**" with "[5] X ..."); numbered in the order of first reference, a stay's note shared by its nights ("(private
    room, $120/night; nights 1–2)"); the leg on its own bullet ("- ✈️ Flight F1, A → B, 15:40–17:04") or as "Travel[^6]";
    "### Day 2 · Thursday 17 March 2022 · Rockford"; an empty meal "- Dinner — none" or no bullet. DECOYS: a backup
    inside a restaurant's note ("... Backup if it's full: Y at Rockford.") or a note nothing refers to ("[^9]: Y at
    Rockford — considered for lunch on Day 2, not booked.")."""
    r = ph.rng
    foot, say_none, leg_note = r.random() < 0.6, r.random() < 0.35, r.random() < 0.5
    meals = _revision_decoys(plan, r, (0, 1, 2))[0]
    orphan = {k: r.random() < 0.5 for k in meals}
    ref = (lambda j: f"[^{j}]") if foot else (lambda j: f" [{j}]")
    notes, key_of = [], {}

    def note(key, text):
        if key not in key_of: notes.append(text); key_of[key] = len(notes)
        return ref(key_of[key])
    run_of = {i: (a, b) for a, b, _ in _day_runs(plan) for i in range(a, b + 1)}
    out = [r.choice(_FN_INTRO)]
    for i, d in enumerate(plan):
        out += ['', f"### Day {d['days']} · {_fd(task, i, 'ukyear')} · {_rt(d['current_city'])}"]
        if d['transportation'] != '-':
            out.append(f"- {_FN_SLOT['leg']}{note(('leg', i), _fn_leg(d['transportation']) + '.')}" if leg_note else
                       f"- {'✈️' if d['transportation'].startswith('Flight') else '🚗'} {_fn_leg(d['transportation'])}")
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if m == 'lunch' and at:
                out.append(f"- {_FN_SLOT['attraction']}" + ''.join(note(('sight', i, j), f"{ph.venue(x)} ({_fn_details('sight', x, plan)}).")
                                                                   for j, x in enumerate(at)))
            if d[m] == '-':
                if say_none: out.append(f"- {ph.meal_word(m.capitalize())} — none")
                continue
            t = f"{ph.venue(d[m])} ({_fn_details(m, d[m], plan)})."
            if (i, m) in meals and not orphan[(i, m)]: t += f" Backup if it's full: {ph.venue(_with_name(d[m], meals[(i, m)]))}."
            out.append(f"- {ph.meal_word(m.capitalize())}{note((m, i), t)}")
        acc = d['accommodation']
        if acc != '-':
            a, b = run_of[i]
            t = f"{ph.venue(acc)} ({_fn_details('accommodation', acc, plan, a, b)})."
            out.append(f"- {_FN_SLOT['accommodation']}{note(('stay', a), t)}")
        elif say_none: out.append(f"- {_FN_SLOT['accommodation']} — none")
    for (i, m), y in meals.items():
        if orphan[(i, m)]:
            notes.append(f"{ph.venue(_with_name(plan[i][m], y))} — considered for {m} on Day {plan[i]['days']}, not booked.")
    out += ['', '---', ''] if foot else ['', '**Notes**', '']
    out += [f"[^{j}]: {t}" if foot else f"[{j}] {t}" for j, t in enumerate(notes, 1)]
    return '\n'.join(out + ['', r.choice(_FN_OUTRO)])


HELDOUT13_LAYOUTS = {f.__name__: f for f in (voice_assistant, kanban_board, code_interpreter_table, he_fi_hu_ro_labels,
                                              agent_event_log, travel_blog, directions_legs, footnoted_slots)}
"""Held-out part v13 (layouts and `HELDOUT13_PHRASES`, rendered with `Phr13`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr13(HELDOUT13_PHRASES, random.Random(f"heldout13:{name}:{t.idx}:{j}"), p)


def renderings13(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout13:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT13_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser below, written for the layout (not a general reader): each rendering is read back into
# the plan's own values — the route as current_city ('from A to B' | 'A'), the leg as its parts (flight number, cities,
# times; or mode, cities, duration, cost), each meal and the stay as 'Name, City' or '-', the sights as ['Name, City',
# ...] — and compared with the plan EXACTLY (`_cmp` of layouts_v8). Decoys (refused alternatives, archived cards, fixed
# log events, backups, notes nothing refers to) are resolved as the text says, and checked against what it states elsewhere.


def _tmpl_re(t: str, parts: dict) -> re.Pattern:
    "A '{x}' template as a regex, each placeholder replaced by its pattern in `parts` (named groups)."
    out, pos = '', 0
    for m in re.finditer(r'\{(\w+)\}', t):
        out += re.escape(t[pos:m.start()]) + f"(?P<{m[1]}>{parts[m[1]]})"
        pos = m.end()
    return re.compile(out + re.escape(t[pos:]), re.S)


def _day_of(days, k):
    return days[k - 1] if 1 <= k <= len(days) else None


# voice_assistant ------------------------------------------------------------------------------------------------------
_VA_LINE = re.compile(r'(?:\[(\d\d+):(\d\d)\] )?([^:\[\]]+): (.+)')
_VA_HEAD = re.compile(r"Day ([a-z-]+)\. (\w+, \w+ [a-z-]+)\. (?:You're in (.+)|You're traveling from (.+) to (.+))\.")
_VA_FL = re.compile(r"You'll fly on flight (F(?: [a-z-]+)+)\. It leaves (.+) at (.+?) and lands in (.+) at (.+), local time\.")
_VA_RD = re.compile(r"You'll (drive yourself|take a taxi) from (.+) to (.+) — that's about (.+), and it costs about (.+)\.")
_VA_MEAL_RE = [(m, re.compile('(?P<v>.+)'.join(map(re.escape, t.split('{v}'))), re.S)) for m in _MEALS for t in _VA_MEAL[m]]
_VA_ASK = (re.compile(r"Could we do (.+) for (breakfast|lunch|dinner) on day ([a-z-]+) instead\?"),
           re.compile(r"What about staying at (.+) instead\?"),
           re.compile(r"Can we squeeze in (.+) on day ([a-z-]+)\?"),
           re.compile(r"Sorry, what was (breakfast|lunch|dinner) on day ([a-z-]+) again\?"))
_VA_ANS = (re.compile(r"I checked — (.+) " + _alt(_VA_WHY_MEAL) + r", so (breakfast|lunch|dinner) on day ([a-z-]+) stays at (.+)\."),
           re.compile(r"(.+) " + _alt(_VA_WHY_STAY) + r", so you'll stay at (.+) on (?:night ([a-z-]+)|nights ([a-z-]+) to ([a-z-]+))\."),
           re.compile(r"Not this time — " + _alt(_VA_WHY_SIGHT) + r", so (.+) stays off the list for day ([a-z-]+)\."),
           re.compile(r"(Breakfast|Lunch|Dinner) on day ([a-z-]+) is at (.+)\."))


def _read_va(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    parsed = []
    for ln in lines:
        m = _VA_LINE.fullmatch(ln)
        if not m: raise ValueError(f"line {ln!r}")
        parsed.append(m)
    if len({m[1] is None for m in parsed}) != 1: errs.append('timestamps on some lines only')
    ts = [int(m[1]) * 60 + int(m[2]) for m in parsed if m[1] is not None]
    if ts != sorted(set(ts)) or (ts and ts[0] != 0): errs.append('timestamps out of order')
    me = parsed[0][3]
    who = {m[3] for m in parsed} - {me}
    if me not in _VA_NAMES or len(who) > 1 or who - set(_VA_USER): errs.append(f"speakers {me!r}, {who}")
    n = len(plan)
    if parsed[0][4] != _VA_INTRO.format(n=_w(n), org=_get(task, 'org'), dest=_get(task, 'dest')): errs.append('intro')
    if parsed[-1][3] != me or parsed[-1][4] not in _VA_OUTRO: errs.append('outro')
    days, saids, stays, any_none, ask = [], [], [], False, None
    for m in parsed[1:-1]:
        s = m[4]
        if m[3] != me:
            if ask is not None: errs.append(f"question {s!r} after an unanswered one")
            ask = next(((j, q) for j, rx in enumerate(_VA_ASK) if (q := rx.fullmatch(s))), None)
            if ask is None: errs.append(f"question {s!r}")
            elif not days or not stays[-1]: errs.append(f"question {s!r} inside a day")
            continue
        if ask is not None:                                  # the answer to the question just asked
            j, q = ask
            ask, a = None, _VA_ANS[j].fullmatch(s)
            g, k = days[-1], len(days)
            if not a: errs.append(f"answer {s!r} to {q[0]!r}"); continue
            if j == 0:
                if (a[1], a[2], a[3]) != (q[1], q[2], q[3]) or _unw(a[3]) != k or g[a[2]] in ('-', None) or _nm(g[a[2]]) != a[4] or a[1] == a[4]:
                    errs.append(f"refusal {s!r}")
            elif j == 1:
                lo, hi = (_unw(a[3]), _unw(a[3])) if a[3] else (_unw(a[4]), _unw(a[5]))
                if a[1] != q[1] or hi != k or lo > hi or a[1] == a[2] or (a[4] and lo == hi): errs.append(f"refusal {s!r}")
                for x in range(lo, hi + 1):
                    if (gx := _day_of(days, x)) is None or gx['accommodation'] in ('-', None) or _nm(gx['accommodation']) != a[2]:
                        errs.append(f"refusal {s!r}: night {x}")
            elif j == 2:
                if a[1] != q[1] or a[2] != q[2] or _unw(a[2]) != k or a[1] in [_nm(x) for x in g['attraction']]: errs.append(f"refusal {s!r}")
            else:
                if a[1].lower() != q[1] or a[2] != q[2] or _unw(a[2]) != k or g[q[1]] != _unvenue(ph, a[3]): errs.append(f"repeat {s!r}")
            continue
        if (h := _VA_HEAD.fullmatch(s)):
            k = len(days) + 1
            if _unw(h[1]) != k or h[2] != _say_date(_date(task, k - 1)): errs.append(f"head {s!r}")
            if days and not stays[-1]: errs.append(f"day {k - 1} without its night")
            days.append(_blank(h[3] if h[3] else f"from {h[4]} to {h[5]}")); saids.append([]); stays.append([])
            continue
        if not days: errs.append(f"{s!r} before the first day"); continue
        g, k, said = days[-1], len(days), saids[-1]
        if stays[-1]: errs.append(f"day {k}: {s!r} after the night")
        if (q := _VA_FL.fullmatch(s)): _put(g, 'leg', _flight(_unsay_fn(q[1]), q[2], q[4], _unsay_t(q[3]), _unsay_t(q[5])), errs)
        elif (q := _VA_RD.fullmatch(s)):
            _put(g, 'leg', _road_key('taxi' if q[1] == 'take a taxi' else 'drive', q[2], q[3], _unsay_dur(q[4]), _unsay_cost(q[5])), errs)
        elif (q := re.fullmatch(r"Next stop: (.+)\.", s)): g['attraction'].append(_unvenue(ph, q[1]))
        elif (q := re.fullmatch(r"After that, you'll visit (.+)\.", s)):
            if g['attraction']: errs.append(f"day {k}: sights twice")
            g['attraction'] = _unitems(ph, q[1], ', then ')
        elif (q := re.fullmatch(r"There's no (breakfast|lunch|dinner) planned\.", s)): _said(said, q[1], errs, f"day {k}: "); any_none = True
        elif (mm := next(((mm, q) for mm, rx in _VA_MEAL_RE if (q := rx.fullmatch(s))), None)):
            _said(said, mm[0], errs, f"day {k}: "); _put(g, mm[0], _unvenue(ph, mm[1]['v']), errs, f"day {k}: ")
        elif (q := re.fullmatch(r"(Tonight you'll stay at|You'll spend another night at) (.+)\.", s)):
            v, prev = _unvenue(ph, q[2]), days[-2]['accommodation'] if k > 1 else '-'
            if (q[1] == "You'll spend another night at") != (prev == v): errs.append(f"day {k}: {s!r}")
            g['accommodation'] = v; stays[-1].append(1)
        elif s in ("No hotel tonight — you're heading home.", "There's no hotel booked for tonight."):
            if (s[0:8] == 'No hotel') != (k == n): errs.append(f"day {k}: {s!r}")
            stays[-1].append(1)
        else: errs.append(f"day {k}: utterance {s!r}")
    if ask is not None: errs.append('a question without its answer')
    if days and not stays[-1]: errs.append('the last day without its night')
    if any_none: _all_said(saids, errs)
    return days, errs


# kanban_board ---------------------------------------------------------------------------------------------------------
_KB_KINDS = '(Flight|Self-drive|Taxi|Stay|Meal|Sights|Sight)'
_KB_TAG = r'(Day \d+|Nights? \d+(?:–\d+)?)'
_KB_WHYS = _alt(sum(_KB_WHY.values(), ()))
_KB_MD = re.compile(r'- (\[x\] |\[ \] |)(\S+) \*\*' + _KB_KINDS + ' · ' + _KB_TAG + r'\*\* — (.+)')
_KB_MD_ARCH = re.compile(r'- ~~(\S+) \*\*' + _KB_KINDS + ' · ' + _KB_TAG + r'\*\* — (.+)~~ — (' + _KB_WHYS[3:-1] + ')')
_KB_TXT = re.compile(r'• \[' + _KB_KINDS + r' \| ' + _KB_TAG + r'\] (.+)')
_KB_TXT_ARCH = re.compile(r'• \[' + _KB_KINDS + r' \| ' + _KB_TAG + r'\] \(archived\) (.+) — (' + _KB_WHYS[3:-1] + ')')


def _kb_span(tag: str) -> tuple[int, int]:
    m = re.fullmatch(r'(?:Day|Nights?) (\d+)(?:–(\d+))?', tag)
    a, b = int(m[1]), int(m[2] or m[1])
    if tag.startswith('Nights') != bool(m[2]) or (m[2] and b <= a): raise ValueError(f"tag {tag!r}")
    return a, b


def _read_kb(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    n = len(plan)
    md = not (len(lines) > 3 and lines[2] == '```text')
    if lines[0] not in _KB_INTRO or lines[1] != '' or lines[-1] not in _KB_OUTRO or lines[-2] != '': errs.append('intro / outro')
    d0, d1 = _date(task, 0), _date(task, n - 1)
    title = f"{_get(task, 'org')} → {_get(task, 'dest')} · {_span_text(d0, d1)}, {d1.year}"
    if md:
        body = lines[2:-2]
        if body[:3] != [f"## 🗂️ {title}", '', f"### 🗓️ Days ({n})"]: errs.append('board head')
        body = body[3:]
        heads = {f"### {v[0]}": k for k, v in _KB_COLS.items()}
    else:
        body = lines[2:-2]
        if body[:4] != ['```text', f"BOARD: {title}", '', '=== DAYS ==='] or body[-1] != '```': errs.append('board head')
        body = body[4:-1]
        heads = {f"=== {v[1]} ===": k for k, v in _KB_COLS.items()}
    ix = _dix(task, n, 'mon', extra=1)
    days, col, seen_cols, count, cards = [], 'days', [], {}, []
    for ln in body:
        if not ln: continue
        hk = next((k for h, k in heads.items() if ln == h or md and re.fullmatch(re.escape(h) + r' \((\d+)\)', ln)), None)
        if hk:
            if hk in seen_cols or seen_cols and list(_KB_COLS).index(hk) < list(_KB_COLS).index(seen_cols[-1]): errs.append(f"list {ln!r}")
            seen_cols.append(hk); col = hk
            if md: count[hk] = int(ln.rpartition('(')[2][:-1])
            continue
        if col == 'days':
            q = re.fullmatch(r'- \*\*Day (\d+)\*\* · (.+?) · (.+)', ln) if md else re.fullmatch(r'• Day (\d+) \| (.+?) \| (.+)', ln)
            if not q or int(q[1]) != len(days) + 1 or ix.get(q[2]) != len(days): errs.append(f"day {ln!r}"); continue
            days.append(_blank(_back(q[3])))
            continue
        if col == 'archived':
            q = (_KB_MD_ARCH if md else _KB_TXT_ARCH).fullmatch(ln)
            if not q: errs.append(f"archived card {ln!r}"); continue
            if md and q[1] != _KB_ICON[q[2]]: errs.append(f"icon {ln!r}")
            kind, tag, body_ = q.groups()[-4:-1]
            cards.append(('archived', kind, tag, body_)); continue
        q = (_KB_MD if md else _KB_TXT).fullmatch(ln)
        if not q: errs.append(f"card {ln!r}"); continue
        if md:
            if q[1] != {'booked': '[x] ', 'tobook': '[ ] ', 'free': ''}[col] or q[2] != _KB_ICON[q[3]]: errs.append(f"card {ln!r} in {col}")
            kind, tag, body_ = q[3], q[4], q[5]
        else: kind, tag, body_ = q[1], q[2], q[3]
        if body_.startswith('(archived) '): errs.append(f"archived card {ln!r} in {col}")
        cards.append((col, kind, tag, body_))
    for c in count:
        if count[c] != sum(x[0] == c for x in cards): errs.append(f"list {c}: {count[c]} cards said")
    said = [[] for _ in days]
    any_none = False
    for col, kind, tag, b in cards:
        a, z = _kb_span(tag)
        if (kind == 'Stay') != tag.startswith('Night'): errs.append(f"{kind} card tagged {tag!r}")
        g = _day_of(days, a)
        if g is None or z > len(days): errs.append(f"card {kind} · {tag} outside the trip"); continue
        if col == 'archived': continue
        if kind == 'Flight':
            q = re.fullmatch(r'(\S+) · (.+?) → (.+) · (\d\d:\d\d) → (\d\d:\d\d)', b)
            if not q or col == 'free': errs.append(f"day {a}: flight card {b!r} in {col}"); continue
            _put(g, 'leg', _flight(*q.groups()), errs, f"day {a}: ")
        elif kind in ('Self-drive', 'Taxi'):
            q = re.fullmatch(r'(.+?) → (.+?) · (.+?) · \$(\d+)', b)
            if not q or kind == 'Self-drive' and col != 'free': errs.append(f"day {a}: {kind} card {b!r} in {col}"); continue
            _put(g, 'leg', _road_key('taxi' if kind == 'Taxi' else 'drive', *q.groups()), errs, f"day {a}: ")
        elif kind == 'Stay':
            q = re.fullmatch(r'(.+) · check-in (.+?) · check-out (.+)', b)
            if not q or col == 'free' or q[2] != _fd(task, a - 1, 'mon') or q[3] != _fmt(_date(task, z - 1) + _DAY_SPAN, 'mon'):
                errs.append(f"stay card {b!r}"); continue
            for x in range(a, z + 1): _put(days[x - 1], 'accommodation', _unvenue(ph, q[1]), errs, f"night {x}: ")
        elif kind == 'Meal':
            mm = _unmeal(ph, b)
            if not mm: errs.append(f"day {a}: meal card {b!r}"); continue
            m, b = mm
            _said(said[a - 1], m, errs, f"day {a}: ")
            if b == 'none planned':
                if col != 'free': errs.append(f"day {a}: no {m} in {col}")
                any_none = True; continue
            suf = {'booked': f" · table for {_people(task)}", 'tobook': '', 'free': ' · walk-in'}[col]
            if suf and not b.endswith(suf) or not suf and re.search(r' · (?:walk-in|table for \d+)$', b): errs.append(f"day {a}: {m} card {b!r} in {col}"); continue
            _put(g, m, _unvenue(ph, b[:len(b) - len(suf)]), errs, f"day {a}: ")
        elif kind == 'Sights':
            if g['attraction']: errs.append(f"day {a}: sights twice")
            g['attraction'] = _unitems(ph, b)
        else: g['attraction'].append(_unvenue(ph, b))
        if col == 'booked' and kind in ('Sights', 'Sight'): errs.append(f"day {a}: sights booked")
    for col, kind, tag, b in cards:                          # archived: an option dropped, not what the plan keeps
        if col != 'archived': continue
        a, z = _kb_span(tag)
        mm = _unmeal(ph, b) if kind == 'Meal' else None
        y = _nm(_unvenue(ph, mm[1] if mm else b))
        if kind == 'Stay':
            for x in range(a, z + 1):
                g = _day_of(days, x)
                if g is None or g['accommodation'] in ('-', None) or _nm(g['accommodation']) == y: errs.append(f"archived stay {b!r}")
        elif kind == 'Meal' and mm:
            g = _day_of(days, a)
            if g is None or g[mm[0]] in ('-', None) or _nm(g[mm[0]]) == y: errs.append(f"archived meal {b!r}")
        elif kind == 'Sight':
            g = _day_of(days, a)
            if g is None or y in [_nm(x) for x in g['attraction']]: errs.append(f"archived sight {b!r}")
        else: errs.append(f"archived {kind} card")
    if any_none:
        for k, s in enumerate(said, 1):
            if sorted(s) != sorted(_MEALS): errs.append(f"day {k}: meals stated {s}")
    return days, errs


# code_interpreter_table -----------------------------------------------------------------------------------------------
def _blocks(lines) -> list[list[str]]:
    out = [[]]
    for ln in lines:
        if ln == '': out.append([])
        else: out[-1].append(ln)
    return [b for b in out if b]


def _read_pd(lines, n) -> tuple[dict, list]:
    "{column: [cell per row]} of `print(df)` lines (column blocks), and errors."
    errs, cols, iw = [], {}, len(str(n - 1))
    blocks = _blocks(lines)
    for bi, b in enumerate(blocks):
        more = bi < len(blocks) - 1
        head = b[0]
        if more != head.endswith('  \\'): errs.append(f"block {bi}: continuation mark")
        if more: head = head[:-3]
        if len(b) != n + 1: errs.append(f"block {bi}: {len(b) - 1} rows for {n}"); continue
        prev = iw
        if head[:iw] != ' ' * iw: errs.append(f"block {bi}: index header")
        for m in re.finditer(r'\S+', head):
            start, end = prev + 2, m.end()
            if head[prev:start] != '  ' or head[prev:end] != '  ' + m[0].rjust(end - start): errs.append(f"block {bi}: header {m[0]!r}")
            vals = []
            for j, ln in enumerate(b[1:]):
                if ln[:iw] != str(j).ljust(iw) or ln[prev:start] != '  ': errs.append(f"block {bi}: row {ln[:20]!r}")
                cell = ln[start:end]
                if len(cell) != end - start or cell.strip(' ') == '': errs.append(f"block {bi}: cell {cell!r}")
                vals.append(cell.lstrip(' '))
            if m[0] in cols: errs.append(f"column {m[0]!r} twice")
            cols[m[0]] = vals
            prev = end
        for ln in b[1:]:
            if len(ln) != prev + 2 * more or more and ln[prev:] != '  ': errs.append(f"block {bi}: row width")
    if list(cols) != list(_PD_COLS): errs.append(f"columns {list(cols)}")
    return cols, errs


def _read_tb(lines) -> tuple[list, list]:
    "[[cell lines] per column] per row of a tabulate grid, the header row first, and errors."
    errs = []
    style = 'grid' if lines[0].startswith('+') else 'fancy_grid'
    S = _TB_STYLE[style]
    junc = [j for j, ch in enumerate(lines[0]) if ch in '+╒╤╕']
    w = [b - a - 3 for a, b in zip(junc, junc[1:])]
    rule_set = {_tb_rule(S[k], w) for k in ('top', 'head', 'mid', 'bot')}
    rows, cur, got = [], [], []
    for ln in lines:
        if ln in rule_set:
            got.append(ln)
            if cur: rows.append(cur)
            cur = []
            continue
        if len(ln) != junc[-1] + 1 or any(ln[j] != S['bar'] for j in junc): raise ValueError(f"grid line {ln!r}")
        cur.append([ln[a + 1:b] for a, b in zip(junc, junc[1:])])
    if cur: errs.append('rows after the last rule')
    want = [_tb_rule(S[k], w) for k in ['top', 'head'] + ['mid'] * (len(rows) - 2) + ['bot']]
    if got != want: errs.append('rules')
    out = []
    for r_ in rows:
        cells = []
        for j in range(len(junc) - 1):
            ls = [x[j] for x in r_]
            if any(not (x.startswith(' ') and x.endswith(' ')) for x in ls): errs.append(f"cell {ls!r}")
            ls = [x[1:-1].strip(' ') if j == 0 else x[1:-1].rstrip(' ') for x in ls]
            while ls and ls[-1] == '': ls.pop()
            if '' in ls: errs.append(f"blank line inside cell {ls!r}")
            cells.append(ls)
        out.append(cells)
    return out, errs


_TB_FL = re.compile(r'Flight (\S+) (.+) → (.+) (\d\d:\d\d)–(\d\d:\d\d)')
_TB_RD = re.compile(r'(Taxi|Self-drive) (.+) → (.+), (.+), \$(\d+)')


def _read_ci(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    n = len(plan)
    if lines[0] not in sum(_CI_INTRO.values(), ()) or lines[1] != '' or lines[-1] not in _CI_OUTRO or lines[-2] != '' or lines[-3] != '```': errs.append('intro / outro')
    t0 = lines.index('```text')
    code, out = lines[2:t0], lines[t0 + 1:-3]
    days = []
    if code == ['```python', 'import pandas as pd', '', 'df = pd.DataFrame(rows, columns=' + repr(list(_PD_COLS)) + ')', 'print(df)', '```', '']:
        cols, e = _read_pd(out, n)
        errs += e
        if e: return days, errs
        for i in range(n):
            c = {k: v[i] for k, v in cols.items()}
            if c['day'] != str(i + 1) or c['date'] != _fd(task, i, 'iso'): errs.append(f"row {i}: day {c['day']!r} {c['date']!r}")
            g = _blank(c['current_city'])
            g['leg'] = None if c['transportation'] == 'NaN' else _leg_key(c['transportation'])
            for k in (*_MEALS, 'accommodation'): g[k] = '-' if c[k] == 'NaN' else _unvenue(ph, c[k])
            g['attraction'] = [] if c['attraction'] == 'NaN' else _unitems(ph, c['attraction'])
            days.append(g)
        return days, errs
    q = re.fullmatch(r"print\(tabulate\(rows, headers=(.+), tablefmt='(grid|fancy_grid)', maxcolwidths=(\d+)\)\)", code[3] if len(code) > 3 else '')
    if code[:3] != ['```python', 'from tabulate import tabulate', ''] or code[4:] != ['```', ''] or not q or q[1] != repr(list(_TB_COLS)):
        raise ValueError('code cell')
    mw = int(q[3])
    rows, e = _read_tb(out)
    errs += e
    if (out[0][0] == '+') != (q[2] == 'grid'): errs.append('table style')
    if [' '.join(c) for c in rows[0]] != list(_TB_COLS): errs.append(f"header {rows[0]}")
    ix = _dix(task, n, 'dm')
    for i, r_ in enumerate(rows[1:]):
        c = dict(zip(_TB_COLS, r_))
        for k, ls in c.items():
            if k != 'Sights' and len(ls) > 1 and any(len(x) > mw and ' ' in x for x in ls): errs.append(f"row {i}: {k} wrapped past {mw}")
        if c['Day'] != [str(i + 1)] or ix.get(' '.join(c['Date'])) != i: errs.append(f"row {i}: day {c['Day']} {c['Date']}")
        g = _blank(_back(' '.join(c['Route'])))
        tr = ' '.join(c['Travel'])
        if (qq := _TB_FL.fullmatch(tr)): g['leg'] = _flight(*qq.groups())
        elif (qq := _TB_RD.fullmatch(tr)): g['leg'] = _road_key('taxi' if qq[1] == 'Taxi' else 'drive', *qq.groups()[1:])
        elif tr: errs.append(f"row {i}: travel {tr!r}")
        for k, key in (('Breakfast', 'breakfast'), ('Lunch', 'lunch'), ('Dinner', 'dinner'), ('Stay', 'accommodation')):
            g[key] = _unvenue(ph, ' '.join(c[k])) if c[k] else '-'
        g['attraction'] = [_unvenue(ph, x) for x in _unsight_lines(c['Sights'])]
        days.append(g)
    return days, errs


# he_fi_hu_ro_labels ---------------------------------------------------------------------------------------------------
def _read_lg(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    lg = next((x for x, L in _LG13.items() if lines[0] in L['intro']), None)
    if lg is None: raise ValueError('intro in no language')
    L = _LG13[lg]
    if lines[-1] != L['outro'] or lines[-2] != '': errs.append('outro')
    join = L['joins'].get(ph.join, ph.join)
    tp = r'\d\d\.\d\d' if lg == 'fi' else r'\d\d:\d\d'
    fre = _tmpl_re(L['flight'], dict(n=r'\S+', a='.+?', b='.+', dep=tp, arr=tp))
    rre = _tmpl_re(L['road'], dict(how=_alt(L['how'].values()), a='.+?', b='.+', dur='.+', cost=r'\d+'))
    back_u = {v: k for k, v in L['units'].items()}
    label_key = dict(zip(L['labels'], _LG_KEYS))
    days, keys, hard, any_none = [], [], set(), False
    for ln in lines[1:-2]:
        if ln == '': continue
        k = len(days) + 1
        pre = L['head'].format(k=k, date=_lg_date(lg, task, k - 1), route='') if k <= len(plan) else None
        if pre and ln.startswith(pre):
            days.append(_blank(_back(ln[len(pre):]))); keys.append([])
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k = days[-1], len(days)
        hard.add(ln.endswith('  '))
        x = ln[:-2] if ln.endswith('  ') else ln
        q = re.fullmatch(r'\*\*(.+?):\*\* (.+)', x)
        if not q or q[1] not in label_key: errs.append(f"day {k}: line {ln!r}"); continue
        key, v = label_key[q[1]], q[2]
        if key in keys[-1]: errs.append(f"day {k}: {q[1]!r} twice")
        keys[-1].append(key)
        if v == L['none'] and not (key == 'accommodation' and k == len(plan)) or key == 'accommodation' and v == L['none_stay'] and k == len(plan):
            any_none = True; continue
        if key == 'leg':
            if (qq := fre.fullmatch(v)): g['leg'] = _flight(qq['n'], qq['a'], qq['b'], qq['dep'].replace('.', ':'), qq['arr'].replace('.', ':'))
            elif (qq := rre.fullmatch(v)):
                parts = re.findall(r'(\d+) (' + '|'.join(map(re.escape, sorted(back_u, key=len, reverse=True))) + r')(?= |$)', qq['dur'])
                if ' '.join(f"{a} {u}" for a, u in parts) != qq['dur']: errs.append(f"duration {qq['dur']!r}")
                g['leg'] = _road_key('taxi' if qq['how'] == L['how']['taxi'] else 'drive', qq['a'], qq['b'],
                                     ' '.join(f"{a} {back_u[u]}" for a, u in parts), qq['cost'])
            else: errs.append(f"day {k}: leg {v!r}")
        elif key == 'attraction': g['attraction'] = _unitems(ph, v, join, lg)
        else: g[key] = _unvenue(ph, v, lg)
    # the drawn order: the day's order or the meals first, the same every day; hard breaks on all lines but a day's last
    orders = [[_LG_KEYS[j] for j in o] for o in _LG_ORDERS.values()]
    fits = [o for o in orders if all(ks == [x for x in o if x in ks] for ks in keys)]
    if not fits: errs.append(f"labels out of order {keys}")
    if any_none and any(sorted(ks) != sorted(_LG_KEYS) for ks in keys): errs.append('some slots said to be none, others left out')
    day_lines = [[ln for ln in blk.split('\n') if ln] for blk in '\n'.join(lines[1:-2]).split('\n\n') if blk.strip()]
    ends = {ls[-1].endswith('  ') for ls in day_lines if len(ls) > 1}
    mids = {x.endswith('  ') for ls in day_lines for x in ls[1:-1]}
    if True in ends or len(mids) > 1: errs.append('hard line breaks')
    return days, errs


# agent_event_log ------------------------------------------------------------------------------------------------------
_EV_LF = re.compile(r'ts=(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)Z level=(info|warn) agent=planner op=(\w+)(?: msg="(planning started|plan ready)")? (.+)')
_EV_PY = re.compile(r'(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) (INFO|WARN) +planner: (\w+)\((.*)\)')
_EV_TOK = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^\s"]+)')


def _lf_fields(s: str) -> dict:
    out, pos = {}, 0
    for m in _EV_TOK.finditer(s):
        if m.start() != pos: raise ValueError(f"logfmt {s!r}")
        v = m[2]
        if v.startswith('"'): v = re.sub(r'\\(.)', r'\1', v[1:-1])
        if m[1] in out: raise ValueError(f"field {m[1]} twice")
        out[m[1]] = v
        pos = m.end() + 1
    if pos != len(s) + 1: raise ValueError(f"logfmt {s!r}")
    return out


def _py_fields(s: str) -> dict:
    call = ast.parse(f"f({s})", mode='eval').body
    if call.args: raise ValueError(f"positional arguments in {s!r}")
    return {k.arg: ast.literal_eval(k.value) for k in call.keywords}


def _nights_span(s) -> tuple[int, int]:
    m = re.fullmatch(r'(\d+)(?:-(\d+))?', str(s))
    if not m or m[2] and int(m[2]) <= int(m[1]): raise ValueError(f"nights {s!r}")
    return int(m[1]), int(m[2] or m[1])


def _read_ev(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    if lines[0] not in _EV_INTRO or lines[1:3] != ['', '```text'] or lines[-3:-1] != ['```', ''] or lines[-1] not in _EV_OUTRO:
        errs.append('intro / outro')
    recs, stamps = [], []
    lf = lines[3].startswith('ts=')
    for ln in lines[3:-3]:
        if lf:
            m = _EV_LF.fullmatch(ln)
            if not m: raise ValueError(f"log line {ln!r}")
            f = _lf_fields(m[5])
            if (m[4] is not None) != (m[3] in ('start', 'finish')) or m[4] and m[4] != {'start': 'planning started', 'finish': 'plan ready'}[m[3]]:
                errs.append(f"msg of {ln!r}")
            recs.append((m[2], m[3], f)); stamps.append(m[1])
        else:
            m = _EV_PY.fullmatch(ln)
            if not m or ln != f"{m[1]} {m[2]:<7} planner: {m[3]}({m[4]})": raise ValueError(f"log line {ln!r}")
            f = _py_fields(m[4])
            if ln != f"{m[1]} {m[2]:<7} planner: {m[3]}(" + ', '.join(f"{k}={v!r}" for k, v in f.items()) + ')': errs.append(f"repr of {ln!r}")
            if set(f) & set(_PY_KEY): errs.append(f"keyword {ln!r}")
            f = {({v: k for k, v in _PY_KEY.items()}).get(k, k): v for k, v in f.items()}
            recs.append((m[2].lower(), m[3], f)); stamps.append(m[1])
    if stamps != sorted(stamps) or len(set(stamps)) != len(stamps): errs.append('timestamps out of order')
    n = len(plan)
    days, fixing = [], False
    S = lambda v: str(v)
    for j, (level, op, f) in enumerate(recs):
        fix = op in ('replace_meal', 'replace_stay', 'remove_sight')
        if (level == 'warn') != fix: errs.append(f"{op} at level {level}")
        if fix: fixing = True
        elif fixing and op != 'finish': errs.append(f"{op} after the fixes")
        try:
            if op == 'start':
                if j or {k: S(v) for k, v in f.items()} != dict(org=S(_get(task, 'org')), dest=S(_get(task, 'dest')), start=_fd(task, 0, 'iso'),
                                                               days=S(n), people=S(_people(task))):
                    errs.append(f"start record {f}")
            elif op == 'set_route':
                k = int(f['day'])
                if k != len(days) + 1 or f['date'] != _fd(task, k - 1, 'iso') or set(f) not in ({'day', 'date', 'city'}, {'day', 'date', 'from', 'to'}):
                    errs.append(f"route {f}")
                days.append(_blank(f['city'] if 'city' in f else f"from {f['from']} to {f['to']}"))
            elif op == 'book_flight':
                _put(days[int(f['day']) - 1], 'leg', _flight(f['number'], f['from'], f['to'], f['dep'], f['arr']), errs, f"day {f['day']}: ")
            elif op == 'book_ground':
                if f['mode'] not in ('taxi', 'self-driving'): errs.append(f"mode {f['mode']!r}")
                _put(days[int(f['day']) - 1], 'leg', _road_key('taxi' if f['mode'] == 'taxi' else 'drive', f['from'], f['to'], f['duration'], S(f['cost'])),
                     errs, f"day {f['day']}: ")
            elif op == 'book_stay':
                a, b = _nights_span(f['nights'])
                for k in range(a, b + 1): _put(days[k - 1], 'accommodation', f"{f['name']}, {f['city']}", errs, f"night {k}: ")
            elif op == 'add_meal':
                if f['meal'] not in _MEALS: errs.append(f"meal {f['meal']!r}")
                _put(days[int(f['day']) - 1], f['meal'], f"{f['name']}, {f['city']}", errs, f"day {f['day']}: ")
            elif op == 'add_sight':
                if set(f) != {'day', 'name', 'city'}: errs.append(f"sight {f}")
                days[int(f['day']) - 1]['attraction'].append(f"{f['name']}, {f['city']}")
            elif op == 'replace_meal':
                g = days[int(f['day']) - 1]
                if f['reason'] not in _EV_WHY['meal'] or g[f['meal']] != f"{f['old']}, {f['city']}" or f['old'] == f['new']: errs.append(f"replace {f}")
                g[f['meal']] = f"{f['new']}, {f['city']}"
            elif op == 'replace_stay':
                a, b = _nights_span(f['nights'])
                if f['reason'] not in _EV_WHY['stay'] or f['old'] == f['new']: errs.append(f"replace {f}")
                for k in range(a, b + 1):
                    if days[k - 1]['accommodation'] != f"{f['old']}, {f['city']}": errs.append(f"replace {f}: night {k}")
                    days[k - 1]['accommodation'] = f"{f['new']}, {f['city']}"
            elif op == 'remove_sight':
                g, x = days[int(f['day']) - 1], f"{f['name']}, {f['city']}"
                if f['reason'] not in _EV_WHY['sight'] or x not in g['attraction']: errs.append(f"remove {f}")
                else: g['attraction'].remove(x)
            elif op == 'finish':
                if j != len(recs) - 1: errs.append('finish before the end')
                got = dict(days=S(len(days)), meals=S(sum(g[m] not in ('-', None) for g in days for m in _MEALS)),
                           sights=S(sum(len(g['attraction']) for g in days)),
                           stays=S(len([1 for k, g in enumerate(days) if g['accommodation'] != '-' and (k == 0 or days[k - 1]['accommodation'] != g['accommodation'])])))
                if {k: S(v) for k, v in f.items()} != got: errs.append(f"finish {f} != {got}")
            else: errs.append(f"op {op!r}")
        except (KeyError, IndexError) as e: errs.append(f"{op} {f}: {e!r}")
    if not recs or recs[-1][1] != 'finish' or recs[0][1] != 'start': errs.append('start / finish records')
    return days, errs


# travel_blog ----------------------------------------------------------------------------------------------------------
_BL_FL = re.compile(r"\*(Getting there|Heading home):\* catch flight (\S+) out of (.+) at (\d\d:\d\d); it lands in (.+) at (\d\d:\d\d)\.")
_BL_RD = re.compile(r"\*(Getting there|Heading home):\* (a taxi takes you|you drive yourself) from (.+) to (.+) — about (.+), \$(\d+)\.")
_BL_SECT = ('#### ☀️ Morning', '#### 🌤️ Afternoon', '#### 🌙 Evening')
_BL_ROLES = {0: ('breakfast', 'sight', 'backup'), 1: ('lunch', 'sight', 'backup'), 2: ('dinner', 'stay', 'again', 'backup')}


def _bl_para(para, sect, g, k, prev_acc, said, stay_seen, errs, ph):
    "Read one paragraph of section `sect` of day k into g: each bold name by the words just before it."
    toks = re.split(r'\*\*(.+?)\*\*', para)
    last = None
    for j in range(1, len(toks), 2):
        pre, v = toks[j - 1], toks[j]
        role = next((ro for ro, cues in _BL_CUE.items() for c in cues if pre.endswith(c) and (pre == c or pre[:-len(c)].endswith(' '))), None)
        if role is None and pre == ph.join and last == 'sight': role = 'sight'
        if role is None or role not in ('sight', 'backup', 'stay', 'again') + _MEALS or role not in _BL_ROLES[sect] and role != 'sight':
            errs.append(f"day {k}: {v!r} after {pre[-40:]!r}"); last = None; continue
        if role in _MEALS:
            _said(said, role, errs, f"day {k}: "); _put(g, role, _unvenue(ph, v), errs, f"day {k}: ")
        elif role == 'sight':
            if sect == 2: errs.append(f"day {k}: a sight in the evening")
            g['attraction'].append(_unvenue(ph, v))
        elif role == 'backup':
            if last not in _MEALS or not toks[j + 1].startswith(_BL_BACKUP_TAIL) or _nm(_unvenue(ph, v)) == _nm(g[last]): errs.append(f"day {k}: backup {v!r}")
            role = 'backup-done'
        else:
            x = _unvenue(ph, v)
            if (role == 'again') != (prev_acc == x) or role == 'again' and not toks[j + 1].startswith(' for another night.'): errs.append(f"day {k}: stay {v!r}")
            _put(g, 'accommodation', x, errs, f"day {k}: "); stay_seen.append(1)
        last = role
    plain = ''.join(toks[0::2])
    for m in _MEALS:
        if f"No {m} is planned — pick something up on the way." in plain:
            _said(said, m, errs, f"day {k}: ")
            if sect != {'breakfast': 0, 'lunch': 1, 'dinner': 2}[m]: errs.append(f"day {k}: no {m} in the wrong part of the day")
            yield m
    for s in ("No hotel tonight — you head home.", "No hotel is booked for tonight."):
        if s in plain:
            if sect != 2: errs.append(f"day {k}: {s!r}")
            stay_seen.append(s)


def _read_bl(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    n = len(plan)
    if lines[0] not in [t.format(n=n, dest=_get(task, 'dest')) for t in _BL_INTRO] or lines[1] != '': errs.append('title')
    if lines[-1] not in ("Have a wonderful trip!", "Bookmark this post for the road.") or lines[-2] != '': errs.append('outro')
    body, hl = lines[2:-2], None
    if body and body[0].startswith('Highlights: '): hl, body = body[0], body[2:]
    ix = _dix(task, n, 'long')
    days, saids, stays, any_none, state = [], [], [], False, None
    for ln in body:
        if (h := re.fullmatch(r'## Day (\d+) — (.+?): (.+)', ln)):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}")
            if days and not stays[-1]: errs.append(f"day {len(days)} without its night")
            days.append(_blank(_back(h[3], ' to '))); saids.append([]); stays.append([]); state = [-1, False, False]
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k = days[-1], len(days)
        if ln == '': continue
        if (q := _BL_FL.fullmatch(ln)) or (q := _BL_RD.fullmatch(ln)):
            if state[1]: errs.append(f"day {k}: two legs")
            if (q[1] == 'Heading home') != (k == n) or (k < n and state[0] != -1) or (k == n and (state[0] == -1 or state[2])):
                errs.append(f"day {k}: leg placed {ln!r}")      # before the sections; on the last day after them
            state[1] = True
            g['leg'] = _flight(q[2], q[3], q[5], q[4], q[6]) if q.re is _BL_FL else \
                _road_key('taxi' if q[2] == 'a taxi takes you' else 'drive', q[3], q[4], q[5], q[6])
            continue
        if ln in _BL_SECT:
            s = _BL_SECT.index(ln)
            if s <= state[0] or state[2] or k == n and state[1]: errs.append(f"day {k}: {ln!r} out of order")
            state[0], state[2] = s, True
            continue
        if not state[2]: errs.append(f"day {k}: paragraph {ln[:40]!r} without its section"); continue
        state[2] = False
        prev_acc = days[-2]['accommodation'] if k > 1 else '-'
        nones = list(_bl_para(ln, state[0], g, k, prev_acc, saids[-1], stays[-1], errs, ph))
        any_none = any_none or bool(nones)
    if days and not stays[-1]: errs.append('the last day without its night')
    if any(len(s) != 1 for s in stays): errs.append(f"nights stated {[len(s) for s in stays]}")
    if any_none: _all_said(saids, errs)
    if hl is not None:                                       # the highlights: one or two of the plan's sights, plain
        names = [_nm(x) for g in days for x in g['attraction']]
        if not any(hl == 'Highlights: ' + ', '.join(c) + '.' for c in [(a,) for a in names] + [(a, b) for a in names for b in names if a != b]):
            errs.append(f"highlights {hl!r}")
    return days, errs


# directions_legs ------------------------------------------------------------------------------------------------------
_DR_FL = re.compile(r'✈️ Fly (.+) → (.+) · (\S+) · (\d\d:\d\d)–(\d\d:\d\d)')
_DR_RD = re.compile(r'(🚕 Taxi|🚗 Drive) (.+) → (.+) · (.+) · \$(\d+)')
_DR_STEP = re.compile(r'(.+) · (' + '|'.join(_DR_TAG.values()) + r') · (?:' + '|'.join(_DR_MODES) + r') (\d+) min')


def _read_dr(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    n = len(plan)
    if lines[0] not in _DR_INTRO or lines[-1] not in _DR_OUTRO or lines[-2] != '': errs.append('intro / outro')
    ix = _dix(task, n, 'dm')
    back = {v: k for k, v in _DR_TAG.items()}
    days, st = [], None

    def close():                                             # a day ends with its night, "no overnight stay" or the way home
        if days and not (st['night'] or st['end'] or len(days) == n and st['last'] == 'leg'): errs.append(f"day {len(days)}: its night not stated")
    for ln in lines[1:-2]:
        if ln == '': continue
        if (h := re.fullmatch(r'### 🗺️ Day (\d+) · (.+?) · (.+)', ln)):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}")
            close()
            days.append(_blank(_back(h[3])))
            st = dict(leg=False, steps=0, origin=None, end=False, night=False, last=None, route=h[3].split(' → '))
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k = days[-1], len(days)
        prev = days[-2]['accommodation'] if k > 1 else '-'
        if st['end'] or st['night'] and not ln.startswith(('✈️ Fly ', '🚕 Taxi ', '🚗 Drive ')): errs.append(f"day {k}: {ln!r} after the night")
        if (q := _DR_FL.fullmatch(ln)) or (q := _DR_RD.fullmatch(ln)):
            if st['leg'] or st['night'] and k != n: errs.append(f"day {k}: leg placed {ln!r}")
            st['leg'], st['last'], st['origin'] = True, 'leg', f"{st['route'][-1]} (arrival)"
            g['leg'] = _flight(q[3], q[1], q[2], q[4], q[5]) if q.re is _DR_FL else \
                _road_key('taxi' if q[1] == '🚕 Taxi' else 'drive', q[2], q[3], q[4], q[5])
            continue
        if ln == '_(no overnight stay)_':
            if st['night'] or k == n and st['last'] == 'leg': errs.append(f"day {k}: {ln!r}")
            st['end'] = True; continue
        q = re.fullmatch(r'(\d+)\. (.+)', ln)
        if not q or int(q[1]) != st['steps'] + 1: errs.append(f"day {k}: line {ln!r}"); continue
        rest = q[2]
        starts = [st['origin']] if st['origin'] is not None else [ph.venue(prev)] if prev != '-' else [f"{st['route'][0]} (start)"]
        o = next((o for o in starts if rest.startswith(o + ' → ')), None)
        if o is None: errs.append(f"day {k}: leg {ln!r} does not start from {starts}"); continue
        qq = _DR_STEP.fullmatch(rest[len(o) + 3:])
        if not qq: errs.append(f"day {k}: leg {ln!r}"); continue
        st['steps'] += 1; st['origin'] = qq[1]; st['last'] = 'step'
        role, v = back[qq[2]], _unvenue(ph, qq[1])
        if role in _MEALS: _put(g, role, v, errs, f"day {k}: ")
        elif role == 'sight': g['attraction'].append(v)
        else:
            if (role == 'again') != (prev == v): errs.append(f"day {k}: {qq[2]!r} at {v!r}")
            _put(g, 'accommodation', v, errs, f"day {k}: ")
            st['night'] = True
    close()
    return days, errs


# footnoted_slots ------------------------------------------------------------------------------------------------------
_FN_FL = re.compile(r'Flight (\S+), (.+) → (.+), (\d\d:\d\d)–(\d\d:\d\d)')
_FN_RD = re.compile(r'(Taxi|Self-drive), (.+) → (.+), (.+), \$(\d+)')


def _fn_leg_back(s: str):
    if (q := _FN_FL.fullmatch(s)): return _flight(*q.groups())
    if (q := _FN_RD.fullmatch(s)): return _road_key('taxi' if q[1] == 'Taxi' else 'drive', *q.groups()[1:])
    raise ValueError(f"leg {s!r}")


def _read_fn(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    n = len(plan)
    if lines[0] not in _FN_INTRO or lines[-1] not in _FN_OUTRO or lines[-2] != '': errs.append('intro / outro')
    foot = '---' in lines
    sep = lines.index('---' if foot else '**Notes**')
    if lines[sep - 1:sep + 2] != ['', lines[sep], '']: errs.append('notes separator')
    notes = {}
    for ln in lines[sep + 2:-2]:
        q = re.fullmatch(r'\[\^(\d+)\]: (.+)', ln) if foot else re.fullmatch(r'\[(\d+)\] (.+)', ln)
        if not q or int(q[1]) != len(notes) + 1: errs.append(f"note {ln!r}"); continue
        notes[int(q[1])] = q[2]
    refs = re.compile(r'((?:\[\^\d+\])+)$') if foot else re.compile(r'((?: \[\d+\])+)$')
    slot = {ph.meal_word(m.capitalize()): m for m in _MEALS} | {'Sightseeing': 'attraction', 'Overnight': 'accommodation', 'Travel': 'leg'}
    ix = _dix(task, n, 'ukyear')
    days, saids, order, used, any_none = [], [], [], {}, False
    for ln in lines[1:sep - 1]:
        if ln == '': continue
        if (h := re.fullmatch(r'### Day (\d+) · (.+?) · (.+)', ln)):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h[3]))); saids.append([])
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k = days[-1], len(days)
        if (q := re.fullmatch(r'- (✈️|🚗) (.+)', ln)):
            _put(g, 'leg', _fn_leg_back(q[2]), errs, f"day {k}: ")
            if (q[1] == '✈️') != (g['leg'][0] == 'flight'): errs.append(f"day {k}: icon {ln!r}")
            continue
        if (q := re.fullmatch(r'- (.+) — none', ln)) and q[1] in slot and slot[q[1]] in (*_MEALS, 'accommodation'):
            if slot[q[1]] in _MEALS: _said(saids[-1], slot[q[1]], errs, f"day {k}: ")
            any_none = True; continue
        m = refs.search(ln)
        if not m or not ln.startswith('- ') or ln[2:m.start()] not in slot: errs.append(f"day {k}: line {ln!r}"); continue
        key, js = slot[ln[2:m.start()]], [int(x) for x in re.findall(r'\d+', m[1])]
        if key != 'attraction' and len(js) != 1: errs.append(f"day {k}: {len(js)} references for {key}")
        for j in js:
            if j not in used: order.append(j)
            used.setdefault(j, []).append((k, key))
            if j not in notes: errs.append(f"day {k}: reference {j} without its note"); continue
        vals = [notes.get(j, '') for j in js]
        if key == 'leg':
            if not vals[0].endswith('.'): errs.append(f"day {k}: travel note {vals[0]!r}")
            _put(g, 'leg', _fn_leg_back(vals[0][:-1]), errs, f"day {k}: ")
        elif key == 'attraction':
            if g['attraction']: errs.append(f"day {k}: sights twice")
            for v in vals:
                qq = re.fullmatch(r'(.+) \(sight\)\.', v)
                if not qq: errs.append(f"day {k}: sight note {v!r}"); continue
                g['attraction'].append(_unvenue(ph, qq[1]))
        elif key == 'accommodation':
            qq = re.fullmatch(r'(.+) \(([^()]*)\)\.', vals[0])
            if not qq: errs.append(f"day {k}: stay note {vals[0]!r}"); continue
            _put(g, 'accommodation', _unvenue(ph, qq[1]), errs, f"day {k}: ")
        else:
            _said(saids[-1], key, errs, f"day {k}: ")
            qq = re.fullmatch(r"(.+) \(([^()]*)\)\. Backup if it's full: (.+)\.", vals[0]) or re.fullmatch(r'(.+) \(([^()]*)\)\.', vals[0])
            if not qq: errs.append(f"day {k}: {key} note {vals[0]!r}"); continue
            v = _unvenue(ph, qq[1])
            if qq[2] != _fn_details(key, v, plan): errs.append(f"day {k}: {key} details {qq[2]!r}")
            if qq.re.groups == 3 and _nm(_unvenue(ph, qq[3])) == _nm(v): errs.append(f"day {k}: backup {qq[3]!r} is the pick")
            _put(g, key, v, errs, f"day {k}: ")
    if order != list(range(1, len(order) + 1)): errs.append(f"notes not numbered in order of reference {order}")
    for j, us in used.items():                                 # a note shared only by the nights of one stay
        if len(us) > 1:
            ks = [k for k, key in us]
            if {key for _, key in us} != {'accommodation'} or ks != list(range(ks[0], ks[0] + len(ks))): errs.append(f"note {j} shared by {us}")
        if us[0][1] == 'accommodation' and j in notes:
            qq = re.search(r'nights? (\d+)(?:–(\d+))?\)\.$', notes[j])
            ks = [k for k, _ in us]
            if not qq or (int(qq[1]), int(qq[2] or qq[1])) != (ks[0], ks[-1]) or bool(qq[2]) != (len(ks) > 1) or \
                    any(_day_of(days, x) and days[x - 1]['accommodation'] == days[ks[0] - 1]['accommodation'] for x in (ks[0] - 1, ks[-1] + 1)):
                errs.append(f"stay note {j}: nights {ks}")
    for j, t in notes.items():                                 # notes nothing refers to: options considered, not booked
        if j in used: continue
        qq = re.fullmatch(r'(.+) — considered for (breakfast|lunch|dinner) on Day (\d+), not booked\.', t)
        g = _day_of(days, int(qq[3])) if qq else None
        if not qq or g is None or g[qq[2]] in ('-', None) or _nm(g[qq[2]]) == _nm(_unvenue(ph, qq[1])) or j <= len(order): errs.append(f"note {j} {t!r}")
    if any_none: _all_said(saids, errs)
    return days, errs


_READERS = {'voice_assistant': _read_va, 'kanban_board': _read_kb, 'code_interpreter_table': _read_ci, 'he_fi_hu_ro_labels': _read_lg,
            'agent_event_log': _read_ev, 'travel_blog': _read_bl, 'directions_legs': _read_dr, 'footnoted_slots': _read_fn}


def _check_one(name, task, plan, text, ph) -> list[str]:
    "Errors of one rendering (`layouts_v8._check_with` with this part's readers)."
    return _check_with(_READERS, name, task, plan, text, ph)

# ---------------------------------------------------------------------------------------------------------- corruptions
def _first_line_sub(text, pred, a, b):
    "The text with `a` replaced by `b` in the first line `pred` accepts that holds `a`, else None."
    lines = text.split('\n')
    for j, ln in enumerate(lines):
        if a in ln and pred(ln):
            lines[j] = ln.replace(a, b, 1)
            return '\n'.join(lines)
    return None


def _relabel(name, ph, text):
    "The text with its first lunch made a dinner (its label, tag, cue or column), else None."
    if name == 'voice_assistant':
        for a, b in zip(_VA_MEAL['lunch'], _VA_MEAL['dinner']):
            a, b = a.split('{v}')[0], b.split('{v}')[0]
            if (s := _first_line_sub(text, lambda ln: True, ': ' + a, ': ' + b)): return s
        return None
    if name == 'kanban_board':
        a, b = ph.meal_prefix('Lunch'), ph.meal_prefix('Dinner')
        return _first_line_sub(text, lambda ln: '~~' not in ln and '(archived)' not in ln and ('Meal · Day' in ln or '[Meal | Day' in ln), a, b)
    if name == 'code_interpreter_table':
        lines = text.split('\n')
        for j, ln in enumerate(lines):
            for a, b in ((r'(?<= )( *)lunch(?= )', 'dinner'), (r'(?<=[|│] )Lunch( *)(?= [|│])', 'Dinner')):
                m = re.search(a, ln)
                if m and len(m[0]) >= len(b):
                    new = b.rjust(len(m[0])) if b == 'dinner' else b.ljust(len(m[0]))
                    lines[j] = ln[:m.start()] + new + ln[m.end():]
                    return '\n'.join(lines)
        return None
    if name == 'he_fi_hu_ro_labels':
        for L in _LG13.values():
            a, b = f"**{L['labels'][3]}:** ", f"**{L['labels'][4]}:** "
            if a in text and L['outro'] in text: return text.replace(a, b, 1)
        return None
    if name == 'agent_event_log':
        for a, b in (('meal=lunch ', 'meal=dinner '), ("meal='lunch'", "meal='dinner'")):
            if a in text: return text.replace(a, b, 1)
        return None
    if name == 'travel_blog':
        for a in _BL_CUE['lunch']:
            if a in text: return text.replace(a, _BL_CUE['dinner'][0], 1)
        return None
    if name == 'directions_legs': return text.replace(f" · {_DR_TAG['lunch']} · ", f" · {_DR_TAG['dinner']} · ", 1) if _DR_TAG['lunch'] in text else None
    if name == 'footnoted_slots':
        a, b = ph.meal_word('Lunch'), ph.meal_word('Dinner')
        for x, y in ((f"- {a}[^", f"- {b}[^"), (f"- {a} [", f"- {b} [")):
            if x in text: return text.replace(x, y, 1)
    return None


_DAY_HEAD = {'voice_assistant': r"(?:\[\d+:\d\d\] )?[^:\[\]]+: Day [a-z-]+\. ", 'he_fi_hu_ro_labels': r'#### ', 'travel_blog': r'## Day \d+ — ',
             'directions_legs': r'### 🗺️ Day \d+ · ', 'footnoted_slots': r'### Day \d+ · '}
_DAY_END = {'voice_assistant': r"(?:\[\d+:\d\d\] )?[^:\[\]]+: (?:That's the whole trip|And that's everything)", 'he_fi_hu_ro_labels': r'$^',
            'travel_blog': r'(?:Have a wonderful trip!|Bookmark this post)', 'directions_legs': r'$^', 'footnoted_slots': r'(?:---|\*\*Notes\*\*)$'}


def _drop_day(name, text, task, k=1):
    "The text without the k-th day (0-based) it states (the board: that day's list entry and cards; the log: its events)."
    lines = text.split('\n')
    if name == 'kanban_board':
        return '\n'.join(ln for ln in lines if not re.search(rf'\bDay {k + 1}(?:\*\*| \||\]|\*\* ·)', ln))
    if name == 'agent_event_log':
        return '\n'.join(ln for ln in lines if not re.search(rf"\bday={k + 1}\b", ln))
    if name == 'code_interpreter_table':
        if 'import pandas' in text:
            t0 = lines.index('```text')
            return '\n'.join(lines[:t0] + [ln for ln in lines[t0:] if not ln.startswith(f"{k}  ")])
        t0 = lines.index('```text')
        rules = [j for j in range(t0 + 1, len(lines)) if lines[j][:1] in '+╞├╘╒']
        a, b = rules[k + 1], rules[k + 2]                    # the rows of day k+1 are between its rules
        return '\n'.join(lines[:a] + lines[b:])
    out, skip, d = [], False, -1
    for ln in lines:
        if re.match(_DAY_HEAD[name], ln): d += 1; skip = d == k
        elif re.match(_DAY_END[name], ln): skip = False
        if not skip: out.append(ln)
    return '\n'.join(out)


def _time_shift(name, plan, text):
    "The first flight's departure moved a minute, in the line that states it (Finnish '15.40'; spoken by the assistant)."
    fl = [_leg_parts(d['transportation']) for d in plan if d['transportation'].startswith('Flight')]
    if not fl: return None
    p = fl[0]
    h, m = map(int, p['dep'].split(':'))
    new = f"{h:02d}:{(m + 1) % 60:02d}" if m < 59 else f"{h:02d}:{m - 1:02d}"
    lines = text.split('\n')
    for j, ln in enumerate(lines):
        if name == 'voice_assistant':
            a = f"It leaves {p['a']} at {_say_t(p['dep'])} and"
            if a in ln and (_say_fn(p['number'], True) in ln or _say_fn(p['number'], False) in ln):
                lines[j] = ln.replace(a, f"It leaves {p['a']} at {_say_t(new)} and", 1)
                return '\n'.join(lines)
            continue
        for a, b in ((p['dep'], new), (p['dep'].replace(':', '.'), new.replace(':', '.'))):
            if p['number'] in ln and a in ln:
                lines[j] = ln.replace(a, b, 1)
                return '\n'.join(lines)
    return None


def _decoy_promotions(name, plan, text, task, ph):
    "[(what, text)]: a decoy of the layout taken for the plan, coherently (the text then states the decoy as chosen)."
    out = []
    first_sight = lambda k: _nm(_attractions(plan[k - 1]['attraction'])[0]) if 1 <= k <= len(plan) and _attractions(plan[k - 1]['attraction']) else None
    if name == 'voice_assistant':
        for ln in text.split('\n'):
            q = None
            if (q := re.search(r": Could we do (.+) for (breakfast|lunch|dinner) on day ([a-z-]+) instead\?$", ln)):
                x = _nm(plan[_unw(q[3]) - 1][q[2]])
            elif (q := re.search(r": Can we squeeze in (.+) on day ([a-z-]+)\?$", ln)): x = first_sight(_unw(q[2]))
            elif (q := re.search(r": (.+) " + _alt(_VA_WHY_STAY) + r", so you'll stay at (.+) on nights? ", ln)): x = q[2]
            if q and x and (s := _swap(text, q[1], x)): out.append(("a refused alternative taken", s)); break
    if name == 'kanban_board':
        for ln in text.split('\n'):
            q = _KB_MD_ARCH.fullmatch(ln) or _KB_TXT_ARCH.fullmatch(ln)
            if not q: continue
            kind, tag, body = q.groups()[-4:-1]
            a, b = _kb_span(tag)
            mm = _unmeal(ph, body) if kind == 'Meal' else None
            y = _nm(_unvenue(ph, mm[1] if mm else body))
            x = first_sight(a) if kind == 'Sight' else _nm(plan[a - 1]['accommodation' if kind == 'Stay' else mm[0]])
            if x and (s := _swap(text, y, x)): out.append(("an archived card taken", s)); break
    if name == 'agent_event_log':
        lines = text.split('\n')
        for j, ln in enumerate(lines):
            if re.search(r"op=(?:replace_meal|replace_stay|remove_sight) |planner: (?:replace_meal|replace_stay|remove_sight)\(", ln):
                out.append(("a fix event dropped (the first pick kept)", '\n'.join(lines[:j] + lines[j + 1:]))); break
    if name == 'travel_blog':
        toks = re.split(r'\*\*(.+?)\*\*', text)
        for j in range(1, len(toks), 2):
            if toks[j - 1].endswith(_BL_CUE['backup'][0]) and j >= 2:
                if (s := _swap(text, _nm(_unvenue(ph, toks[j])), _nm(_unvenue(ph, toks[j - 2])))): out.append(("the backup taken", s)); break
    if name == 'footnoted_slots':
        for ln in text.split('\n'):
            if (q := re.search(r"^\[\^?\d+\]:? (.+) \(([^()]*)\)\. Backup if it's full: (.+)\.$", ln)):
                y, x = _nm(_unvenue(ph, q[3])), _nm(_unvenue(ph, q[1]))
            elif (q := re.search(r"^\[\^?\d+\]:? (.+) — considered for (breakfast|lunch|dinner) on Day (\d+), not booked\.$", ln)):
                y, x = _nm(_unvenue(ph, q[1])), _nm(plan[int(q[3]) - 1][q[2]])
            else: continue
            if (s := _swap(text, y, x)): out.append(("the backup taken", s)); break
    return out


def _longer_stay(name, text, task, n):
    "A stay made one night longer (the board's stay card; the log's book_stay; the footnoted stay's nights)."
    if name == 'kanban_board' and (m := re.search(r'(?m)Nights? (\d+)(?:–(\d+))?(\*\* — |\] )(.+) · check-out (.+)$', text)):
        a, b = int(m[1]), int(m[2] or m[1])
        co = _fmt(_date(task, b) + _DAY_SPAN, 'mon')
        return text[:m.start()] + f"Nights {a}–{b + 1}{m[3]}{m[4]} · check-out {co}" + text[m.end():]
    if name == 'agent_event_log' and (m := re.search(r"nights=(?:'|\")?(\d+)(?:-(\d+))?(?:'|\")?", text)):
        a, b = int(m[1]), int(m[2] or m[1])
        return text[:m.start()] + (f"nights='{a}-{b + 1}'" if "nights='" in m[0] else f"nights={a}-{b + 1}") + text[m.end():]
    if name == 'footnoted_slots' and (m := re.search(r'nights? (\d+)(?:–(\d+))?\)\.', text)):
        a, b = int(m[1]), int(m[2] or m[1])
        return text[:m.start()] + f"nights {a}–{b + 1})." + text[m.end():]
    return None


def mutations(name, plan, text, task, ph):
    """[(kind, what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a
    flight renumbered, sights of two days swapped, two stays swapped, a lunch labelled dinner (its label, tag, cue or
    column), a day dropped, a flight's departure moved (spoken by the assistant); per layout a decoy promoted (a refused
    alternative, an archived card, a backup or a note not booked taken, a fix event dropped) and a stay made a night
    longer (kanban_board, agent_event_log, footnoted_slots)."""
    out = _common_mutations(plan, text)
    if name == 'voice_assistant':                                # its flight numbers are spoken: renumber them spoken
        fl = [_leg_parts(d['transportation'])['number'] for d in plan if d['transportation'].startswith('Flight')]
        if fl:
            alt = fl[0][:-1] + str((int(fl[0][-1]) + 1) % 10)
            for pairs in (True, False):
                if _say_fn(fl[0], pairs) + '.' in text:
                    out.append(('flight renumbered', fl[0], text.replace(_say_fn(fl[0], pairs) + '.', _say_fn(alt, pairs) + '.')))
    if (s := _relabel(name, ph, text)): out.append(('a lunch labelled dinner', '', s))
    out.append(('a day dropped', 'day 2', _drop_day(name, text, task, 1)))
    if (s := _time_shift(name, plan, text)): out.append(("a flight's departure moved", '', s))
    out += [('decoy promoted', w, s) for w, s in _decoy_promotions(name, plan, text, task, ph)]
    if (s := _longer_stay(name, text, task, len(plan))): out.append(("a stay made a night longer", '', s))
    return [x for x in out if x[2] != text]


_HAS_DECOY = {'voice_assistant': lambda t: ' instead?' in t or ': Can we squeeze in ' in t,
              'kanban_board': lambda t: '(archived) ' in t or '- ~~' in t,
              'agent_event_log': lambda t: 'replace_' in t or 'remove_sight' in t,
              'travel_blog': lambda t: _BL_CUE['backup'][0] + '**' in t,
              'footnoted_slots': lambda t: "Backup if it's full: " in t or ', not booked.' in t}


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    "The part's self-check (`layouts.selfcheck_part`): failures + missed corruptions."
    return selfcheck_part(HELDOUT13_LAYOUTS, _phr, _check_one, mutations,
                          lambda lay, text: lay in _HAS_DECOY and _HAS_DECOY[lay](text), plans, mutate_every)


if __name__ == '__main__':
    part_cli(__doc__, HELDOUT13_LAYOUTS, _phr, selfcheck)
