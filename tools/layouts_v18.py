#!/usr/bin/env python
"""Held-out part v18 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their notebooks
(04a, 04b, 05), tests (test_grounded*, test_layout*, test_robustness*) or results/formatter/* were opened, no reader was
run on these texts, and `tools/layouts.py measure` / `record` were not run). Only tools/layouts.py (its interface and its
layouts' source, to avoid repeating them), tools/agreement.py (`_leg_parts`, `_attractions`) and tools/layouts_v5.py ...
layouts_v17.py (their structure, docstrings and layouts; generic helpers of v7, v8, v9, v10, v12, v13, v15, v16 and v17
are imported) were read; star/evaluator.py was not opened (its `eval_index()` is used only through those helpers: the
cities and states through layouts_v15's `_cities` and tools/layouts.py's `_POSTAL_OF`, restaurant / stay rows and fares
through layouts_v8's `_restaurant`, `_stay` and layouts_v7's `_index().flight_price`, as earlier parts use them). SEALED:
this part is to be scored ONCE by the lead (via tools/layouts.py, part 'heldout18', once registered there) and never
tuned on before that score.

    python tools/layouts_v18.py check                    # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (the four-column day tables and
                                                         # their Notes; the question-like sub-lists and the budget table
                                                         # recomputed from what was read; the agent's letter read sentence
                                                         # by sentence, days known by ordinal words; the task list with its
                                                         # progress counters and optional extras; the Italian / Dutch /
                                                         # Polish / Turkish sentences, clocks, durations and plurals; the
                                                         # citations checked against their sources; the lettered outline's
                                                         # letters and one-line meals; Gemini's bold lines, sentences and
                                                         # image tags) into the plan's own values (venue 'Name, City',
                                                         # route, leg parts) and compared with the plan EXACTLY; then
                                                         # corruptions (a name deleted, lunches swapped, a day dropped, a
                                                         # decoy promoted, a skipped sight visited, a flight time moved, a
                                                         # stay lengthened, ...) must be caught. 315 plans x 8 layouts =
                                                         # 2,520 renderings, 23,492 corruptions, ~15-30 s
    python tools/layouts_v18.py check --limit 40         # the same on the first 40 known plans (~3 s)
    python tools/layouts_v18.py show perplexity_citations --n 1   # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how chat models, travel agents and people write a 3/5/7-day trip plan, in styles that none of
tools/layouts.py, tools/layouts_v5.py ... tools/layouts_v17.py has (see each renderer's docstring):

* `time_activity_notes`  the schedule GPT-4o / Gemini give when asked for a table: per day "### 🗓️ Day 2 – Thursday, March
                         17: Rockford" and a FOUR-COLUMN table "| Time | Activity | Location | Notes |", a row per item at
                         12-hour times ('—' where the clock leaves the day): "| 3:40 PM | ✈️ Flight F1 | A → B | Arrives
                         5:04 PM (+1 day) |", "| 🚗 Self-drive | A → B | ~3 h 11 min · ~$120 fuel |", the meal word as the
                         ACTIVITY and the venue as the LOCATION ("| 12:30 PM | 🥪 Lunch | X | Chinese · ~$35 pp |"), "|
                         Explore | A | Allow ~1.5 hours |", "| 🏨 Check in | W | 2 nights · ~$243/night |" then "| 🏨
                         Overnight | Same as Day 1 | Night 2 of 2 |"; tips in quotes; DECOYS in the Notes column ("Backup:
                         Y if it's full", "Instead of S (closed for renovation)", "Z was sold out")
* `where_to_sublists`    a Claude-style answer: "# 3-Day Trip: A to B", an intro, per day "## Day 2 — Thursday, March 17:
                         Rockford", a filler sentence, then bold question-like sub-heads each with its own list —
                         "**Getting there:**" / "**Travel:**" / "**Getting home:**" (the leg in a sentence), "**What to
                         see:**" (a bullet per sight with a blurb, or one joined line), "**Where to eat:**" (a bullet
                         per meal in the drawn label), "**Where to stay:** W (2 nights, ~$243/night)" / "Same as Day 1"
                         / "W (night 2 of 2)" —, and a closing "## Budget breakdown" table naming the flights and the
                         stays with their nights; DECOYS in italics ("*(I passed on Y — it's closed that day.)*",
                         "*(Skipped S — not enough time.)*", "*(Z was my first pick, but it had no rooms left.)*")
* `agent_letter`         a travel agent's formal e-mail (From / To / Subject, "Dear Ms. Carter,", signature block): ONE
                         PARAGRAPH PER DAY with no heading and no day number, the day known by an ORDINAL and a British date
                         ("On your second day, Thursday 17 March, you will remain in Rockford." / "On Friday 18 March, your
                         final day, you will travel from Rockford to St. Petersburg."), formal future-tense sentences
                         ("Your flight, F1, departs A at 19:00 and arrives in B at 22:43.", "For lunch, I have booked a
                         table at X.", "You will then check in at W, where I have reserved 2 nights.", "You will return
                         to your accommodation for the night."); DECOYS as sentences ("Please note that Y, which you asked
                         about, is closed that day.", "Unfortunately, S is closed for renovation, so I have left it out.",
                         "Regrettably, Z had no availability for those dates.")
* `booked_checklist`     a markdown TASK LIST whose boxes mean BOOKING STATUS, not plan membership ("[x] = booked / paid,
                         [ ] = still to do"): "## ✈️ Day 1 · Wed, Mar 16 · A → B (2/3 done)" with a progress counter, "- [x]
                         ✈️ Flight F1 · A → B · dep 15:40 → arr 17:04", "- [ ] Lunch ~ X — walk-in, no reservation needed",
                         "- [ ] 🎟️ A — pay at the door", "- [ ] 🧳 Check out by 11:00", "- [x] 🏨 Check in at W — 2 nights,
                         paid" then "- [x] 🏨 Same hotel as last night"; the DECOYS under "### ➕ Optional extras (not part
                         of the plan)" ("- [ ] Y — backup for Day 2 lunch, only if the first choice is full", "- [ ] S —
                         only if you have a spare hour on Day 2", "- [ ] Z — fallback for Nights 1–2 ...")
* `it_nl_pl_tr_prose`    PROSE in Italian, Dutch, Polish or Turkish (drawn), names in English: "**Giorno 2 — giovedì 17
                         marzo (Rockford)**", "**Dag 2 — donderdag 17 maart (...)**", "**Dzień 2 — czwartek, 17 marca
                         (...)**", "**2. Gün — 17 Mart Perşembe (...)**" and one paragraph ("Volo F1 da A a B: decollo
                         alle 15:40, atterraggio alle 17:04.", "Vlucht F1 vertrekt om 15.40 uur uit A ...", "Obiad w X." —
                         Polish 'obiad' is LUNCH —, "Akşam yemeği için önerimiz X.", "Nocleg w W (2 noce)." with Polish
                         plurals, then UNNAMED nights "Si dorme di nuovo nello stesso alloggio." / "Aynı otelde kalmaya
                         devam ediyorsunuz."); DECOYS in brackets ("(Avevamo pensato a Y, ma quel giorno è chiuso.)",
                         "(S laten we deze keer schieten: te weinig tijd.)", "(Z nie miał wolnych miejsc.)")
* `perplexity_citations` a Perplexity-style answer with INLINE CITATIONS glued to every name ("- Lunch ~ X, Rockford
                         IL[5] — Chinese, ~$35 per person", "- **Sights:** A[6] ⟩ B[7]", "- **Travel:** Flight F1 departs A
                         at 15:40 and arrives in B at 17:04[2].", "- **Stay:** W[8] — 2 nights" then "same as Day 1"),
                         "## Good to know", a "**Sources**" list whose titles repeat the names ("[5] X — Rockford — Menu,
                         Prices & Reviews — Tripadvisor · tripadvisor.com") and "**Related**" questions; DECOYS cited like
                         the rest, in "Good to know" and in the sources ("- Y[9] is another option for Day 2 lunch, but
                         it's closed that day.", "- S[10] was left out of Day 2 — not enough time.", "- Z[11] was
                         considered for Nights 1–2, but it had no rooms left.")
* `lettered_outline`     a formal OUTLINE: "ITINERARY — A TO B", numbered days "2. Day 2 — Thursday, 17 March 2022 —
                         Rockford" with LETTERED items (a), (b), ... in section order (the letters shift where a section
                         is absent): "(a) Transport: flight F1, A (15:40) → B (17:04, next day).", "(b) Meals: X
                         (breakfast) · Y (lunch) · Z (dinner)." — all meals on ONE line, the meal word AFTER the venue,
                         "no lunch" for an empty one —, "(c) Sightseeing: (i) A; (ii) B.", "(d) Accommodation: W —
                         check-in, 2 nights." / "same as Day 1." / "W — night 2 of 2."; DECOYS as further lettered items
                         ("(e) Note: Y was considered for lunch, but it is closed that day.", "(e) Not included: S — not
                         enough time.", "(f) Note: Z was considered for the accommodation, but it had no rooms left.")
* `gemini_image_tags`    a Gemini-style answer: BOLD LINES, not headings, with a themed title and the date ("**Day 2:
                         Exploring Rockford (March 17)**", "**Day 3: Departure Day (March 18)**" — a travel day's route only
                         in its travel bullet), "[Image of Rockford skyline]" lines, "*" bullets with bold labels and
                         SENTENCES as values ("* **Lunch:** Enjoy lunch at X, known for its Chinese options.", "*
                         **Afternoon:** Visit A ↦ B. [Image of A]" — Gemini's inline image tags naming a sight again —,
                         "* **Accommodation:** Check into W for 2 nights." then "Return to your accommodation."); DECOYS
                         under "**Important Considerations:**" ("* **Alternative for Day 2 lunch:** Y is popular too, but
                         it's closed that day.", "* **Skipped on Day 2:** S — ...", "* **Accommodation note:** Z was
                         considered for Nights 1–2, but it had no rooms left.")

Phrasings (`HELDOUT18_PHRASES`, drawn per rendering by `Phr18`): venue placed as 'X, based in City', 'X in central City',
'X, City IL' (the state's postal code after the city, no comma; 'X, City' for a city the database places in no state)
or 'X, City' (the words translated in it_nl_pl_tr_prose: 'X, che si trova a City', 'X in het centrum van City', 'X, w
mieście City', 'X (City şehrinde)', 'X, City merkezinde', ...); several sights joined by ' ⟩ ', ' ↦ ', ', then a stroll
to ' or ', then a quick visit to ' (the last two translated in it_nl_pl_tr_prose); meal labels 'Lunch (recommended): X',
'Lunch — head to X', 'Lunch ~ X' or 'Lunch: X' (in where_to_sublists, booked_checklist and perplexity_citations; the other
layouts say their meals in table cells, sentences, bold labels or a word after the venue). Every rendering states the
whole plan: each day's route, the leg (flight number and times, or self-drive / taxi with duration and cost), each
meal's restaurant (or none: absent, or said to be none), each attraction and the accommodation (named, or 'the same
hotel' as a night the text names); names are verbatim (words are only added around them; markdown tables escape '|');
the noise (tips, fillers, blurbs, the budget table, the signature, progress counters, citations and sources, image tags,
ratings and prices) never contradicts the plan; every rendering carries at least one decoy."""
from __future__ import annotations

import functools, random, re, sys, zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _POSTAL_OF, _name_city, known_plans, part_cli, selfcheck_part            # noqa: E402
from layouts_v7 import _index  # noqa: E402
from layouts_v8 import (_cities as _ab, _cmp, _common_mutations, _MEALS, _blank, _date, _dur_key, _get, _norm, _people, _put,  # noqa: E402
                        _restaurant, _road_key, _said, _stay, _swap)
from layouts_v9 import _back, _rt  # noqa: E402
from layouts_v10 import _day_runs, _flight, _nm  # noqa: E402
from layouts_v12 import _alt  # noqa: E402
from layouts_v13 import _first_line_sub, _tre  # noqa: E402
from layouts_v15 import _cities, _with_leg  # noqa: E402
from layouts_v16 import _cut_lines, _mdesc, _mdunesc, _pm, _resolve, _shift, _split_cells, _un_pm  # noqa: E402
from layouts_v17 import _apply_nights, _decoys, _runs_of, _scan, _tmpl  # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT18_PHRASES = {
    'locative': ('based_in', 'central', 'city_st', 'comma'),   # 'X, based in City' | 'X in central City' | 'X, City IL' | 'X, City'
    'join': (' ⟩ ', ' ↦ ', ', then a stroll to ', ', then a quick visit to '),
    'meal_label': ('recommended', 'head_to', 'tilde', 'colon'),  # 'Lunch (recommended): X' | 'Lunch — head to X' | 'Lunch ~ X' | 'Lunch: X'
}

_VT18 = {   # the placement's words per language (the Italian / Dutch / Polish / Turkish prose translates them)
    'en': {'based_in': '{n}, based in {c}', 'central': '{n} in central {c}'},
    'it': {'based_in': '{n}, che si trova a {c}', 'central': '{n}, in centro a {c}'},
    'nl': {'based_in': '{n}, gevestigd in {c}', 'central': '{n} in het centrum van {c}'},
    'pl': {'based_in': '{n}, w mieście {c}', 'central': '{n} w centrum {c}'},
    'tr': {'based_in': '{n} ({c} şehrinde)', 'central': '{n}, {c} merkezinde'},
}
_VRE18 = {lg: {k: _tre(t) for k, t in T.items()} for lg, T in _VT18.items()}


def _venue(ph, v: str, lg: str = 'en') -> str:
    "A venue 'Name, City' as `ph` places it (in language `lg`): 'city_st' adds the state's postal code after the city, no comma."
    n, c = _name_city(v)
    if not c: return n
    if ph.loc == 'comma': return f"{n}, {c}"
    if ph.loc == 'city_st': return f"{n}, {c} {_POSTAL_OF[c]}" if c in _POSTAL_OF else f"{n}, {c}"
    return _VT18[lg][ph.loc].format(n=n, c=c)


def _unvenue(ph, s: str, lg: str = 'en') -> str:
    "'Name, City' of a venue as `_venue` writes it; a placement that is not the drawn one is an error."
    if ph.loc in ('comma', 'city_st'):
        n, sep, tail = s.rpartition(', ')
        if not sep or not n: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        if ph.loc == 'city_st' and (q := re.fullmatch(r'(.+) ([A-Z]{2})', tail)) and _POSTAL_OF.get(q[1]) == q[2]: return f"{n}, {q[1]}"
        if tail not in _cities() or (ph.loc == 'city_st' and tail in _POSTAL_OF): raise ValueError(f"venue {s!r}: city {tail!r}")
        return f"{n}, {tail}"
    m = _VRE18[lg][ph.loc].fullmatch(s)
    if not m or not m['n'] or m['c'] not in _cities(): raise ValueError(f"venue {s!r} not placed as {ph.loc} ({lg})")
    return f"{m['n']}, {m['c']}"


class Phr18(Phr):
    "`Phr` with the v18 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        if self.loc in HELDOUT18_PHRASES['locative']: return _venue(self, v)
        return super().venue(v)

    def meal_prefix(self, label: str) -> str:
        "The words before a meal's venue: 'Lunch (recommended): ' | 'Lunch — head to ' | 'Lunch ~ ' | 'Lunch: '."
        return {'recommended': f"{label} (recommended): ", 'head_to': f"{label} — head to ", 'tilde': f"{label} ~ "}.get(self.label, f"{label}: ")

    def meal(self, label: str, v: str) -> str: return self.meal_prefix(label) + self.venue(v)

    def unmeal(self, s: str):
        "(meal, 'Name, City') of a text `meal` wrote, else None."
        for m in _MEALS:
            p = self.meal_prefix(m.capitalize())
            if s.startswith(p) and len(s) > len(p): return m, _unvenue(self, s[len(p):])
        return None


PHR18 = Phr18

# -------------------------------------------------------------------------------------------------------------- helpers
_DECOY_LOG: dict[str, list] = {}
"""Rendered text -> [(y, x)]: each decoy name y and the plan's name x it stands against (written by the renderers, read only by
the corruptions, which promote a decoy; the readers never look at it)."""


def _log(text: str, pairs) -> str:
    if len(_DECOY_LOG) > 4000: _DECOY_LOG.clear()
    _DECOY_LOG[text] = [(y, x) for y, x in pairs if y and x and y != x]
    return text


def _ns(k: int) -> str: return 's' * (k != 1)


def _mins(t: str) -> int: return int(t[:2]) * 60 + int(t[3:])


def _hhmm(m: int) -> str: return f"{m // 60:02d}:{m % 60:02d}"


def _dur_min(s: str) -> int: return sum(n * {'day': 1440, 'hour': 60, 'min': 1}[u] for n, u in _dur_key(s))


_DUR18 = {   # duration styles: (hour words, minute words, joiner)
    'words': (('hour', 'hours'), ('minute', 'minutes'), ' and '),
    'hm': (('h', 'h'), ('min', 'min'), ' '),
    'it': (('ora', 'ore'), ('minuto', 'minuti'), ' e '),
    'nl': (('uur', 'uur'), ('minuut', 'minuten'), ' en '),
    'pl': (('godz.', 'godz.'), ('min', 'min'), ' '),
    'tr': (('saat', 'saat'), ('dakika', 'dakika'), ' '),
}


def _dur(s: str, style: str) -> str:
    "A plan's duration ('3 hours 11 mins') in a style of `_DUR18` ('3 hours and 11 minutes', '3 h 11 min', '3 ore e 11 minuti', ...)."
    H, M, J = _DUR18[style]
    parts = []
    for n, u in _dur_key(s):
        if u == 'day': raise ValueError(f"duration {s!r}: days")
        parts.append(f"{n} {(H if u == 'hour' else M)[n != 1]}")
    return J.join(parts)


def _undur(s: str, style: str) -> str:
    "A duration `_dur` wrote, back as the plan writes it ('3 hours 11 mins'; compared by `layouts_v8._dur_key`)."
    H, M, J = _DUR18[style]
    rx = rf"(?:(?P<h>\d+) {_alt(H)}(?:{re.escape(J)}(?P<m>\d+) {_alt(M)})?|(?P<m2>\d+) {_alt(M)})"
    q = re.fullmatch(rx, s)
    if not q: raise ValueError(f"duration {s!r} not in style {style}")
    h, m = q['h'], q['m'] or q['m2']
    out = ' '.join(x for x in ((f"{h} hours" if h else ''), (f"{m} mins" if m else '')) if x)
    if _dur(out, style) != s: raise ValueError(f"duration {s!r} not as {style} writes it")
    return out


def _df(task, i: int, f: str) -> str:
    """Day i's date: 'long' 'Thursday, March 17' | 'mon' 'Thu, Mar 17' | 'uk' 'Thursday 17 March' | 'ukyear' 'Thursday, 17 March
    2022' | 'md' 'March 17' | 'iso'."""
    d = _date(task, i)
    return {'long': f"{d:%A}, {d:%B} {d.day}", 'mon': f"{d:%a}, {d:%b} {d.day}", 'uk': f"{d:%A} {d.day} {d:%B}",
            'ukyear': f"{d:%A}, {d.day} {d:%B} {d.year}", 'md': f"{d:%B} {d.day}", 'iso': d.isoformat()}[f]


def _range(task, n: int) -> str:
    "'March 16–18, 2022' (or 'March 30 – April 1, 2022')."
    a, b = _date(task, 0), _date(task, n - 1)
    return f"{a:%B} {a.day}–{b.day}, {b.year}" if a.month == b.month else f"{a:%B} {a.day} – {b:%B} {b.day}, {b.year}"


def _h(s: str, salt: str) -> int: return zlib.crc32(f"{salt}:{s}".encode('utf-8'))


@functools.lru_cache(maxsize=None)
def _rest(v: str):
    "The database row of the restaurant 'Name, City' (None if unknown)."
    return _restaurant(*_name_city(v))


@functools.lru_cache(maxsize=None)
def _lodging(v: str):
    return _stay(*_name_city(v))


@functools.lru_cache(maxsize=None)
def _fare(num: str):
    try: return _index().flight_price(num)
    except Exception: return None   # noqa: BLE001 - a flight the database does not know has no fare


def _cuisine(v: str) -> str | None:
    "The first cuisine the database gives the restaurant 'Name, City' (None if none)."
    x = _rest(v)
    c = (x.cuisines or '').split(', ')[0].strip() if x and isinstance(x.cuisines, str) else ''
    return c if re.fullmatch(r"[A-Za-z][A-Za-z &'-]*", c or '') else None


def _night_of(nights, k: int, j: int, N: int, errs, pre=''):
    "Night j of N on day k (1-based): the run that starts on day k-j+1 has N nights and day k is inside it."
    a = k - j + 1
    if not (1 <= j <= N and a >= 1 and nights[a - 1] and nights[a - 1][0] == 'start' and nights[a - 1][1] == N
            and all(nights[x] and nights[x][0] == 'again' for x in range(a, k))):
        errs.append(f"{pre}night {j} of {N}")


def _same_as(nights, k: int, a: int, errs, pre=''):
    "'Same as Day a' on day k: day a starts the run that day k continues."
    if not (1 <= a < k and nights[a - 1] and nights[a - 1][0] == 'start' and all(nights[x] and nights[x][0] == 'again' for x in range(a, k))):
        errs.append(f"{pre}same as day {a}")


def _ok18(ph, lg='en', J=None, venue_keys=('v',), sight_keys=('s',)):
    "A `_scan` check: the template's venue groups placed as `ph` places them (sight groups split at the join `J`)."
    J = J or ph.join
    def ok(k, q):
        try:
            for key in venue_keys:
                if q.get(key) is not None: _unvenue(ph, q[key], lg)
            for key in sight_keys:
                if q.get(key) is not None: [_unvenue(ph, x, lg) for x in q[key].split(J)]
            return True
        except ValueError: return False
    return ok


def _bump(text: str, rx: str):
    "The text with group 1 of the first match of `rx` (a count of nights) made one more, else None."
    m = re.search(rx, text)
    return text[:m.start(1)] + str(int(m[1]) + 1) + text[m.end(1):] if m else None

# ============================================================================================================ layouts
# time_activity_notes --------------------------------------------------------------------------------------------------
_TA_INTRO = ("Here's a detailed {n}-day itinerary for your trip from {org} to {dest}. Each day is laid out as a schedule — the "
             "times are suggestions, so feel free to shift things around.",
             "Sure! Below is a day-by-day schedule for your {n}-day trip ({org} → {dest}).",
             "Here's your {n}-day plan in table form, one table per day:")
_TA_HEAD = ("### 🗓️ Day {k} – {date}: {route}", "### Day {k} ({date}) — {route}")
_TA_COLS = ('| Time | Activity | Location | Notes |', '|------|----------|----------|-------|')
_TA_MEAL_ACT = (('Breakfast', 'Lunch', 'Dinner'), ('🍳 Breakfast', '🥪 Lunch', '🍽️ Dinner'))
_TA_SIGHT_ACT = ('Explore', 'Visit', 'Sightseeing', '📍 Visit')
_TA_SIGHT_NOTE = ('Allow ~1.5 hours', 'Free entry', 'Great photo spot', 'Check opening hours')
_TA_FLIGHT_NOTE = ('', ' · be at the airport 2 hours early', ' · check-in closes 45 min before')
_TA_NONE = ('Free time — eat wherever you like', 'On your own')
_TA_TIPS = ("> 💡 **Tip:** Wear comfortable shoes — there's a fair bit of walking today.",
            "> 💡 **Tip:** Book dinner a day ahead on weekends.", "> 💡 **Tip:** Most museums close around 5 PM.")
_TA_WHY = {'meal': ("if it's full", "if there's a long wait"), 'sight': ("closed for renovation", "too far out for this day"),
           'stay': ("was sold out", "was over budget")}
_TA_OUTRO = ("Let me know if you'd like me to adjust the pace or swap any of the restaurants!", "Have a fantastic trip! ✈️")


def _ta_meal_notes(v: str) -> tuple:
    "The notes a meal row may carry: the restaurant's cuisine and price (from the database), a rating, a tip."
    x, c = _rest(v), _cuisine(v)
    out = [f"⭐ {3.8 + _h(v, 'r') % 12 / 10:.1f}", 'Reservations recommended']
    if c and x: out.insert(0, f"{c} · ~${x.cost} pp")
    return tuple(out)


def _clock(d) -> list[tuple]:
    """[(minute of the day or None, kind, value)] of the day in order, the leg included (a flight at its departure, the
    items before it counted back from it, those after it from its arrival) and the stay last ('stay'); None where the
    clock would leave the day ('Early' / 'Late')."""
    items = _with_leg(d)
    li = next((j for j, x in enumerate(items) if x[1] == 'leg'), None)
    if li is None: out = list(items)
    else:
        p = _leg_parts(items[li][2])
        pre, post = items[:li], items[li + 1:]
        if p['mode'] == 'flight':
            t0 = _mins(p['dep'])
            out = [(t0 - 120 - 75 * (len(pre) - 1 - j), k, v) for j, (_, k, v) in enumerate(pre)] + [(t0, 'leg', items[li][2])]
            t = _mins(p['arr']) + 1440 * (p['arr'] < p['dep']) + 45
        else:
            out = [(480 + 90 * j, k, v) for j, (_, k, v) in enumerate(pre)]
            t0 = 480 + 90 * len(pre)
            out.append((t0, 'leg', items[li][2]))
            t = t0 + _dur_min(p['duration']) + 30
        for _, k, v in post:
            t = max(t, {'lunch': 720, 'dinner': 1110}.get(k, 0))
            out.append((t, k, v)); t += 90
    if d['accommodation'] != '-': out.append((max(out[-1][0] + 60 if out else 0, 1260), 'stay', d['accommodation']))
    early = {'lunch': 660, 'dinner': 1020}
    return [(t if max(360, early.get(k, 0)) <= t < 1440 else None, k, v) for t, k, v in out]


def _ta_time(t) -> str: return _pm(_hhmm(t)) if t is not None else '—'


def time_activity_notes(plan, task, ph):
    """The table GPT-4o and Gemini most often give for "make me a schedule": an intro, then per day a heading ("### 🗓️ Day 2 –
    Thursday, March 17: Rockford" or "### Day 1 (Wednesday, March 16) — St. Petersburg → Rockford") and a FOUR-COLUMN table
    "| Time | Activity | Location | Notes |", one row per item in the order of the day at 12-hour times ('—' where the
    clock would run past midnight): the flight "| 3:40 PM | ✈️ Flight F1 | A → B | Arrives 5:04 PM (+1 day) · be at the
    airport 2 hours early |", a drive "| 8:00 AM | 🚗 Self-drive | A → B | ~3 h 11 min · ~$120 fuel |" or taxi; meals with
    the meal word (and an icon in some renderings) as the ACTIVITY and the venue, in the drawn placement, as the LOCATION,
    the notes from the database ("Chinese · ~$35 pp", "⭐ 4.4", "Reservations recommended"); an empty meal "| 12:30 PM |
    Lunch | — | On your own |" or no row; one row per sight ("Explore" / "Visit" / "Sightseeing"); the stay "| 9:00 PM | 🏨
    Check in | W | 2 nights · ~$243/night |", then "| 🏨 Overnight | W | Night 2 of 2 |" or UNNAMED "| 🏨 Overnight | Same
    as Day 1 | Night 2 of 2 |"; tip quotes under some tables; '|' in a name escaped '\\|'. DECOYS in the Notes column:
    "Backup: Y if it's full" on a meal, "Instead of S (closed for renovation)" on a sight, "Z was sold out" on a check-in."""
    r = ph.rng
    head, acts, say_none, unnamed = r.choice(_TA_HEAD), r.choice(_TA_MEAL_ACT), r.random() < 0.4, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    n, pairs, runs = len(plan), [], _runs_of(plan)
    out = [r.choice(_TA_INTRO).format(n=n, org=_get(task, 'org'), dest=_get(task, 'dest')), '']
    run_of = {}
    for a, b, _ in _day_runs(plan):
        for x in range(a, b + 1): run_of[x] = (a, b)
    for i, d in enumerate(plan):
        out += [head.format(k=i + 1, date=_df(task, i, 'long'), route=_rt(d['current_city'])), '', *_TA_COLS]
        at = _attractions(d['attraction'])
        si = 0
        rows = []
        for t, kind, v in _clock(d):
            row = None
            if kind == 'leg':
                p = _leg_parts(v)
                if p['mode'] == 'flight':
                    row = (_pm(p['dep']), f"✈️ Flight {p['number']}", f"{p['a']} → {p['b']}",
                           f"Arrives {_pm(p['arr'])}{' (+1 day)' if p['arr'] < p['dep'] else ''}{r.choice(_TA_FLIGHT_NOTE)}")
                else:
                    row = (_ta_time(t), '🚗 Self-drive' if p['mode'] == 'drive' else '🚕 Taxi', f"{p['a']} → {p['b']}",
                           f"~{_dur(p['duration'], 'hm')} · ~${p['cost']}{' fuel' if p['mode'] == 'drive' else ''}")
            elif kind in _MEALS:
                note = r.choice(_ta_meal_notes(v))
                if (i, kind) in meals:
                    note += f" · Backup: {meals[(i, kind)]} {r.choice(_TA_WHY['meal'])}"; pairs.append((meals[(i, kind)], _nm(v)))
                row = (_ta_time(t), acts[_MEALS.index(kind)], ph.venue(v), note)
            elif kind == 'sight':
                note = r.choice(_TA_SIGHT_NOTE)
                if i in sights and min(sights[i][0], len(at) - 1) == si:
                    note += f" · Instead of {_nm(sights[i][1])} ({r.choice(_TA_WHY['sight'])})"; pairs.append((_nm(sights[i][1]), _nm(v)))
                si += 1
                row = (_ta_time(t), r.choice(_TA_SIGHT_ACT), ph.venue(v), note)
            elif kind == 'stay':
                a, b = run_of[i]
                N = b - a + 1
                if i == a:
                    s = _lodging(v)
                    note = f"{N} night{_ns(N)}" + (f" · ~${round(s.price)}/night" if s and r.random() < 0.6 else '')
                    if (a, b) in stays: note += f" · {stays[(a, b)]} {r.choice(_TA_WHY['stay'])}"; pairs.append((stays[(a, b)], _nm(v)))
                    row = (_ta_time(t), '🏨 Check in', ph.venue(v), note)
                else:
                    row = (_ta_time(t), '🏨 Overnight', f"Same as Day {a + 1}" if unnamed else ph.venue(v), f"Night {i - a + 1} of {N}")
            rows.append(row)
        if say_none:           # an empty meal's row where the meal would be
            for m in _MEALS:
                if d[m] != '-': continue
                stop = (acts[2], '🏨 Check in', '🏨 Overnight') if m == 'lunch' else ('🏨 Check in', '🏨 Overnight')
                j = 0 if m == 'breakfast' else next((k for k, x in enumerate(rows) if x[1] in stop), len(rows))
                rows.insert(j, ({'breakfast': '8:00 AM', 'lunch': '12:30 PM', 'dinner': '7:00 PM'}[m], acts[_MEALS.index(m)], '—',
                                r.choice(_TA_NONE)))
        out += [f"| {' | '.join(_mdesc(c) for c in row)} |" for row in rows]
        if r.random() < 0.3: out += ['', r.choice(_TA_TIPS)]
        out.append('')
    return _log('\n'.join(out + [r.choice(_TA_OUTRO)]), pairs)


_TA_HEAD_RX = [re.compile(re.escape(h).replace(r'\{k\}', r'(?P<k>\d+)').replace(r'\{date\}', r'(?P<date>.+?)').replace(r'\{route\}', r'(?P<route>.+)'))
               for h in _TA_HEAD]
_TA_FL_NOTE = re.compile(r'Arrives (?P<arr>\d{1,2}:\d\d [AP]M)(?P<nd> \(\+1 day\))?' + _alt(_TA_FLIGHT_NOTE))
_TA_RD_NOTE = re.compile(r'~(?P<dur>.+?) · ~\$(?P<cost>\d+)(?P<fuel> fuel)?')


def _cells(ln: str, k: int):
    "The k cells of a markdown table row written '| a | b |' (the one-space padding taken off, '\\|' unescaped), else None."
    c = _split_cells(ln)
    if len(c) != k + 2 or c[0] or c[-1] or any(len(x) < 2 or x[0] != ' ' or x[-1] != ' ' for x in c[1:-1]): return None
    return [_mdunesc(x[1:-1]) for x in c[1:-1]]


def _read_ta(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    if L[0] not in [t.format(n=n, org=_get(task, 'org'), dest=_get(task, 'dest')) for t in _TA_INTRO]: errs.append('intro')
    if L[-1] not in _TA_OUTRO: errs.append('outro')
    days, nights, checks, saids, acts, nofs = [], [], [], [], None, []
    for ln in L[1:-1]:
        if ln == '' or ln in _TA_TIPS: continue
        if (h := _TA_HEAD_RX[0].fullmatch(ln) or _TA_HEAD_RX[1].fullmatch(ln)):
            k = len(days) + 1
            if int(h['k']) != k or h['date'] != _df(task, k - 1, 'long'): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h['route']))); nights.append(None); saids.append([]); continue
        if not days: errs.append(f"line {ln!r}"); continue
        if ln in _TA_COLS: continue
        k, g, pre = len(days), days[-1], f"day {len(days)}: "
        c = _cells(ln, 4)
        if c is None: errs.append(f"{pre}row {ln!r}"); continue
        tm, act, loc, note = c
        if nights[-1] is not None: errs.append(f"{pre}{act!r} after the night")
        if (q := re.fullmatch(r'✈️ Flight (\S+)', act)):
            a, _, b = loc.partition(' → ')
            nq = _TA_FL_NOTE.fullmatch(note)
            if not nq: errs.append(f"{pre}flight note {note!r}"); continue
            dep, arr = _un_pm(tm), _un_pm(nq['arr'])
            if bool(nq['nd']) != (arr < dep): errs.append(f"{pre}+1 day")
            _put(g, 'leg', _flight(q[1], a, b, dep, arr), errs, pre)
        elif act in ('🚗 Self-drive', '🚕 Taxi'):
            a, _, b = loc.partition(' → ')
            nq = _TA_RD_NOTE.fullmatch(note)
            mode = 'drive' if act == '🚗 Self-drive' else 'taxi'
            if not nq or bool(nq['fuel']) != (mode == 'drive'): errs.append(f"{pre}road note {note!r}"); continue
            _put(g, 'leg', _road_key(mode, a, b, _undur(nq['dur'], 'hm'), nq['cost']), errs, pre)
        elif any(act in A for A in _TA_MEAL_ACT):
            A = next(A for A in _TA_MEAL_ACT if act in A)
            if acts not in (None, A): errs.append(f"{pre}meal words mixed")
            acts = A
            m = _MEALS[A.index(act)]
            _said(saids[-1], m, errs, pre)
            if loc == '—':
                if note not in _TA_NONE: errs.append(f"{pre}{m} note {note!r}")
                continue
            v = _unvenue(ph, loc)
            base, _, dec = note.partition(' · Backup: ')
            if base not in _ta_meal_notes(v): errs.append(f"{pre}{m} note {note!r}")
            if dec:
                q = re.fullmatch(r'(?P<y>.+) ' + _alt(_TA_WHY['meal']), dec)
                if not q: errs.append(f"{pre}backup {dec!r}")
                else: checks.append(('meal', k, m, q['y'], None, 'backup: '))
            _put(g, m, v, errs, pre)
        elif act in _TA_SIGHT_ACT:
            g['attraction'].append(_unvenue(ph, loc))
            base, _, dec = note.partition(' · Instead of ')
            if base not in _TA_SIGHT_NOTE: errs.append(f"{pre}sight note {note!r}")
            if dec:
                q = re.fullmatch(r'(?P<s>.+) \(' + _alt(_TA_WHY['sight']) + r'\)', dec)
                if not q: errs.append(f"{pre}instead of {dec!r}")
                else: checks.append(('sight', k, q['s'], None, 'instead of: '))
        elif act == '🏨 Check in':
            q = re.fullmatch(r'(?P<N>\d+) (?P<w>nights?)(?: · ~\$\d+/night)?(?: · (?P<z>.+) ' + _alt(_TA_WHY['stay']) + ')?', note)
            if not q or (q['N'] == '1') != (q['w'] == 'night'): errs.append(f"{pre}check-in note {note!r}"); continue
            v = _unvenue(ph, loc)
            nights[-1] = ('start', int(q['N']), v)
            if q['z']: checks.append(('stay', k, k + int(q['N']) - 1, q['z'], None, 'sold out: '))
        elif act == '🏨 Overnight':
            q = re.fullmatch(r'Night (\d+) of (\d+)', note)
            if not q: errs.append(f"{pre}overnight note {note!r}"); continue
            if (s := re.fullmatch(r'Same as Day (\d+)', loc)): nights[-1] = ('again', None); nofs.append((k, int(s[1]), None))
            else: nights[-1] = ('again', _unvenue(ph, loc))
            nofs.append((k, int(q[1]), int(q[2])))
        else: errs.append(f"{pre}activity {act!r}")
    for k, j, N in nofs:
        if N is None: _same_as(nights, k, j, errs, f"day {k}: ")
        else: _night_of(nights, k, j, N, errs, f"day {k}: ")
    _apply_nights(days, nights, errs)
    _resolve(days, checks, errs)
    return days, errs

# where_to_sublists ----------------------------------------------------------------------------------------------------
_WT_INTRO = ("Here's a complete itinerary for your {n}-day trip ({range}) for {p} traveler{s}. I've kept everything within your "
             "${budget:,} budget and grouped each day into what to see, where to eat and where to stay.",
             "Below is a {n}-day plan ({range}). For each day you'll find the travel, what to see, where to eat and where to "
             "stay, with a budget breakdown at the end.")
_WT_FILL = {'first': ("A travel day — take it easy once you arrive.", "Arrival day: settle in and get your bearings."),
            'last': ("Your last day — enjoy the morning, then head home.", "Time to wrap up the trip."),
            'move': ("A travel day between cities.", "On the move today."),
            'stay': ("A full day to explore.", "A relaxed day at your own pace.", "This is your big sightseeing day.")}
_WT_FILLS = frozenset(sum(_WT_FILL.values(), ()))
_WT_LEG_LABEL = ('Getting there', 'Travel', 'Getting home')
_WT_BLURB = (' — a good first stop', ' — allow about two hours', ' — best in the morning light', '')
_WT_WHY = {'meal': ("it's closed that day", "the reviews mention long waits"), 'sight': ("not enough time", "closed for renovation"),
           'stay': ("had no rooms left", "was over budget")}
_WT_OUTRO = ("Want me to swap in cheaper restaurants or add more free activities?",
             "Happy to adjust any of this — just tell me what you'd like to change.")
_WT_BUDGET_HEAD = ('## Budget breakdown', '', '| Category | Details | Estimated cost |', '|---|---|---|')


def _wt_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        return f"Flight {p['number']} from {p['a']} to {p['b']}, departing {p['dep']} and arriving {p['arr']}{' (next day)' if p['arr'] < p['dep'] else ''}."
    if p['mode'] == 'drive': return f"Self-drive from {p['a']} to {p['b']} — about {_dur(p['duration'], 'words')}, roughly ${p['cost']} in fuel."
    return f"Taxi from {p['a']} to {p['b']} — about {_dur(p['duration'], 'words')}, roughly ${p['cost']}."


_WT_LEG_RX = (re.compile(r'Flight (?P<num>\S+) from (?P<a>.+?) to (?P<b>.+), departing (?P<dep>\d\d:\d\d) and arriving (?P<arr>\d\d:\d\d)(?P<nd> \(next day\))?\.'),
              re.compile(r'(?P<how>Self-drive|Taxi) from (?P<a>.+?) to (?P<b>.+) — about (?P<dur>.+?), roughly \$(?P<cost>\d+)(?P<fuel> in fuel)?\.'))


def _unleg_wt(s: str):
    if (q := _WT_LEG_RX[0].fullmatch(s)):
        if bool(q['nd']) != (q['arr'] < q['dep']): raise ValueError(f"leg {s!r}: next day")
        return _flight(q['num'], q['a'], q['b'], q['dep'], q['arr'])
    if (q := _WT_LEG_RX[1].fullmatch(s)) and bool(q['fuel']) == (q['how'] == 'Self-drive'):
        return _road_key('drive' if q['how'] == 'Self-drive' else 'taxi', q['a'], q['b'], _undur(q['dur'], 'words'), q['cost'])
    raise ValueError(f"leg {s!r}")


def _stays_of(days) -> list[tuple[str, int]]:
    "[(accommodation, nights)] of the runs of nights of days read (or `_norm`-ed)."
    out = []
    for j, g in enumerate(days):
        a = g['accommodation']
        if a in ('-', None): continue
        if out and out[-1][0] == a and days[j - 1]['accommodation'] == a: out[-1][1] += 1
        else: out.append([a, 1])
    return [tuple(x) for x in out]


def _wt_budget(days, task) -> list[str]:
    "The budget table's rows for days read (or `_norm`-ed): flights, road legs, stays by name and nights, meals, sights, total."
    p, rows, total = _people(task), [], 0
    fl = [g['leg'][1] for g in days if g['leg'] and g['leg'][0] == 'flight']
    rd = [g['leg'] for g in days if g['leg'] and g['leg'][0] != 'flight']
    if fl:
        c = sum(_fare(x) or 0 for x in fl) * p; total += c
        rows.append(('✈️ Flights', f"{' · '.join(fl)} ({p} traveler{_ns(p)})", f"~${c:,}"))
    if rd:
        c = sum(int(x[4]) for x in rd); total += c
        rows.append(('🚗 Ground transport', f"{len(rd)} road leg{_ns(len(rd))}", f"~${c:,}"))
    if (st := _stays_of(days)):
        c = sum(round((_lodging(v).price if _lodging(v) else 0) * N) for v, N in st); total += c
        rows.append(('🏨 Accommodation', ' · '.join(f"{_nm(v)} ({N} night{_ns(N)})" for v, N in st), f"~${c:,}"))
    ms = [g[m] for g in days for m in _MEALS if g[m] not in ('-', None)]
    if ms:
        c = sum(_rest(v).cost if _rest(v) else 0 for v in ms) * p; total += c
        rows.append(('🍽️ Food', f"{len(ms)} meal{_ns(len(ms))}", f"~${c:,}"))
    if (k := sum(len(g['attraction']) for g in days)): rows.append(('🎟️ Attractions', f"{k} sight{_ns(k)}", 'mostly free'))
    rows.append(('**Total**', '', f"**~${total:,}**"))
    return [f"| {' | '.join(_mdesc(c) for c in row)} |".replace('|  |', '| |') for row in rows]


def where_to_sublists(plan, task, ph):
    """A Claude-style answer: "# 3-Day Trip: A to B", an intro paragraph (dates, travellers, budget), then per day "## Day 2 —
    Thursday, March 17: Rockford", a filler sentence without names in some renderings ("A full day to explore."), and bold
    QUESTION-LIKE SUB-HEADS each followed by its own list: "**Getting there:**" / "**Travel:**" / "**Getting home:**" and the
    leg in a sentence ("Flight F1 from A to B, departing 15:40 and arriving 17:04.", "Self-drive from A to B — about 3 hours
    and 11 minutes, roughly $120 in fuel."), "**What to see:**" with one bullet per sight (a short blurb after an em dash in
    some) or the sights on the same line in the drawn join, "**Where to eat:**" with a bullet per meal in the drawn label
    ("- Lunch ~ X"; an empty meal "- Lunch: on your own" or no bullet), "**Where to stay:** W (2 nights, ~$243/night)", then
    "**Where to stay:** W (night 2 of 2)" or UNNAMED "Same as Day 1", "— (you're heading home)" or nothing on the last day;
    '---' rules between days in some renderings; a closing "## Budget breakdown" table (flights by number, road legs, the
    stays BY NAME with their nights, meals, sights, prices from the database) and an offer to adjust. DECOYS in italics:
    "  - *(I passed on Y — it's closed that day.)*" under a meal, "*(Skipped S — not enough time.)*" after the sights,
    "*(Z was my first pick, but it had no rooms left.)*" under a stay."""
    r = ph.rng
    p, n = _people(task), len(plan)
    say_none, rules, unnamed, fill = r.random() < 0.4, r.random() < 0.5, r.random() < 0.5, r.random() < 0.7
    meals, stays, sights = _decoys(plan, r)
    pairs, runs = [], _runs_of(plan)
    run_of = {x: (a, b) for a, b, _ in _day_runs(plan) for x in range(a, b + 1)}
    out = [f"# {n}-Day Trip: {_get(task, 'org')} to {_get(task, 'dest')}", '',
           r.choice(_WT_INTRO).format(n=n, range=_range(task, n), p=p, s=_ns(p), budget=_get(task, 'budget') or 0), '']
    for i, d in enumerate(plan):
        if rules and i: out += ['---', '']
        out += [f"## Day {i + 1} — {_df(task, i, 'long')}: {_rt(d['current_city'])}", '']
        travel = d['transportation'] != '-'
        if fill: out += [r.choice(_WT_FILL['first' if travel and i == 0 else 'last' if travel and i == n - 1 else 'move' if travel else 'stay']), '']
        if travel: out += [f"**{_WT_LEG_LABEL[0 if i == 0 else 2 if i == n - 1 else 1]}:** {_wt_leg(d['transportation'])}", '']
        at = _attractions(d['attraction'])
        if at:
            dec = None
            if i in sights:
                pairs.append((_nm(sights[i][1]), _nm(at[0])))
                dec = f"*(Skipped {ph.venue(sights[i][1])} — {r.choice(_WT_WHY['sight'])}.)*"
            if r.random() < 0.5:
                out += ["**What to see:**"] + [f"- {ph.venue(a)}{r.choice(_WT_BLURB[j > 0:])}" for j, a in enumerate(at)] + ([f"  - {dec}"] if dec else []) + ['']
            else: out += [f"**What to see:** {ph.items(at)}"] + ([dec] if dec else []) + ['']
        elif r.random() < 0.3: out += ["**What to see:** Nothing scheduled today.", '']
        eat = []
        for m in _MEALS:
            if d[m] == '-':
                if say_none: eat.append(f"- {m.capitalize()}: on your own")
                continue
            eat.append(f"- {ph.meal(m.capitalize(), d[m])}")
            if (i, m) in meals:
                pairs.append((meals[(i, m)], _nm(d[m])))
                eat.append(f"  - *(I passed on {meals[(i, m)]} — {r.choice(_WT_WHY['meal'])}.)*")
        if eat: out += ["**Where to eat:**"] + eat + ['']
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N, s = b - a + 1, _lodging(acc)
            out.append(f"**Where to stay:** {ph.venue(acc)} ({N} night{_ns(N)}{f', ~${round(s.price)}/night' if s else ''})")
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc)))
                out.append(f"*({stays[(a, b)]} was my first pick, but it {r.choice(_WT_WHY['stay'])}.)*")
            out.append('')
        elif acc != '-':
            a, b = run_of[i]
            out += [f"**Where to stay:** Same as Day {a + 1}" if unnamed else f"**Where to stay:** {ph.venue(acc)} (night {i - a + 1} of {b - a + 1})", '']
        elif i == n - 1 and r.random() < 0.5: out += ["**Where to stay:** — (you're heading home)", '']
    out += ['---', '', *_WT_BUDGET_HEAD, *_wt_budget(_norm(plan), task), '', r.choice(_WT_OUTRO)]
    return _log('\n'.join(out), pairs)


_WT_HEAD = re.compile(r'## Day (?P<k>\d+) — (?P<date>[A-Za-z]+, [A-Za-z]+ \d+): (?P<route>.+)')
_WT_DEC = {'meal': re.compile(r'  - \*\(I passed on (?P<y>.+) — ' + _alt(_WT_WHY['meal']) + r'\.\)\*'),
           'sight': re.compile(r'(?:  - )?\*\(Skipped (?P<s>.+) — ' + _alt(_WT_WHY['sight']) + r'\.\)\*'),
           'stay': re.compile(r'\*\((?P<z>.+) was my first pick, but it ' + _alt(_WT_WHY['stay']) + r'\.\)\*')}


def _read_wt(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    p = _people(task)
    if L[0] != f"# {n}-Day Trip: {_get(task, 'org')} to {_get(task, 'dest')}": errs.append('title')
    if L[2] not in [t.format(n=n, range=_range(task, n), p=p, s=_ns(p), budget=_get(task, 'budget') or 0) for t in _WT_INTRO]: errs.append('intro')
    if L[-1] not in _WT_OUTRO: errs.append('outro')
    try: bi = L.index(_WT_BUDGET_HEAD[0])
    except ValueError: return [], ['no budget table']
    days, nights, checks, saids, nofs = [], [], [], [], []
    mode, last = None, None
    for ln in L[3:bi]:
        if ln in ('', '---'): continue
        if (h := _WT_HEAD.fullmatch(ln)):
            k = len(days) + 1
            if int(h['k']) != k or h['date'] != _df(task, k - 1, 'long'): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h['route']))); nights.append(None); saids.append([]); mode = last = None; continue
        if not days: errs.append(f"line {ln!r}"); continue
        k, g, pre = len(days), days[-1], f"day {len(days)}: "
        if ln in _WT_FILLS:
            if mode is not None or last is not None: errs.append(f"{pre}filler late")
            continue
        if nights[-1] is not None and not _WT_DEC['stay'].fullmatch(ln): errs.append(f"{pre}{ln!r} after the night")
        if (q := re.fullmatch(r'\*\*(' + '|'.join(_WT_LEG_LABEL) + r'):\*\* (.+)', ln)):
            want = _WT_LEG_LABEL[0 if k == 1 else 2 if k == n else 1]
            if q[1] != want: errs.append(f"{pre}leg label {q[1]!r}")
            _put(g, 'leg', _unleg_wt(q[2]), errs, pre); mode = None; last = 'leg'
        elif ln == '**What to see:**': mode = last = 'see'
        elif ln == '**What to see:** Nothing scheduled today.': mode = None; last = 'nosee'
        elif ln.startswith('**What to see:** '):
            g['attraction'] += [_unvenue(ph, x) for x in ln[len('**What to see:** '):].split(ph.join)]; mode = None; last = 'see'
        elif ln == '**Where to eat:**': mode = last = 'eat'
        elif ln.startswith('**Where to stay:** '):
            x = ln[len('**Where to stay:** '):]
            mode = None
            if x == "— (you're heading home)":
                if k != n: errs.append(f"{pre}home before the end")
                last = 'home'; nights[-1] = ('home',)
            elif (q := re.fullmatch(r'Same as Day (\d+)', x)): nofs.append((k, int(q[1]), None)); nights[-1] = ('again', None)
            elif (q := re.fullmatch(r'(?P<v>.+) \(night (?P<j>\d+) of (?P<N>\d+)\)', x)):
                nights[-1] = ('again', _unvenue(ph, q['v'])); nofs.append((k, int(q['j']), int(q['N'])))
            elif (q := re.fullmatch(r'(?P<v>.+) \((?P<N>\d+) (?P<w>nights?)(?:, ~\$\d+/night)?\)', x)):
                if (q['N'] == '1') != (q['w'] == 'night'): errs.append(f"{pre}{x!r}")
                nights[-1] = ('start', int(q['N']), _unvenue(ph, q['v'])); last = 'start'
            else: errs.append(f"{pre}stay {x!r}")
        elif (q := _WT_DEC['stay'].fullmatch(ln)):
            if last != 'start': errs.append(f"{pre}stay note after {last}")
            else: checks.append(('stay', k, k + nights[-1][1] - 1, q['z'], None, 'first pick: '))
            last = 'dstay'
        elif (q := _WT_DEC['sight'].fullmatch(ln)):
            if last != 'see' or ln.startswith('  - ') != (mode == 'see'): errs.append(f"{pre}sight note after {last}")
            checks.append(('sight', k, *_name_city(_unvenue(ph, q['s'])), 'skipped: ')); last = 'dsight'
        elif (q := _WT_DEC['meal'].fullmatch(ln)):
            if mode != 'eat' or last not in _MEALS: errs.append(f"{pre}meal note after {last}")
            else: checks.append(('meal', k, last, q['y'], None, 'passed on: '))
            last = 'dmeal'
        elif ln.startswith('- ') and mode == 'see':
            x = ln[2:]
            bl = next(b for b in _WT_BLURB if x.endswith(b))
            g['attraction'].append(_unvenue(ph, x[:len(x) - len(bl)] if bl else x))
        elif ln.startswith('- ') and mode == 'eat':
            x = ln[2:]
            if (q := re.fullmatch(r'(Breakfast|Lunch|Dinner): on your own', x)): _said(saids[-1], q[1].lower(), errs, pre); last = 'none'; continue
            mm = ph.unmeal(x)
            if not mm: errs.append(f"{pre}meal {x!r}"); continue
            if last in _MEALS + ('none', 'dmeal') and saids[-1] and _MEALS.index(mm[0]) <= _MEALS.index(saids[-1][-1]): errs.append(f"{pre}meal order")
            _said(saids[-1], mm[0], errs, pre); _put(g, mm[0], mm[1], errs, pre); last = mm[0]
        else: errs.append(f"{pre}line {ln!r}")
    for k, j, N in nofs:
        if N is None: _same_as(nights, k, j, errs, f"day {k}: ")
        else: _night_of(nights, k, j, N, errs, f"day {k}: ")
    _apply_nights(days, [None if x and x[0] == 'home' else x for x in nights], errs)
    if L[bi:bi + 4] != list(_WT_BUDGET_HEAD): errs.append('budget head')
    rows = L[bi + 4:L.index('', bi + 4) if '' in L[bi + 4:] else len(L)]
    if rows != _wt_budget(days, task): errs.append(f"budget table {rows[:3]!r}")
    _resolve(days, checks, errs)
    return days, errs

# agent_letter ---------------------------------------------------------------------------------------------------------
_AL_AGENTS = (('Claire Dubois', 'Senior Travel Consultant', 'Blue Compass Travel', 'claire.dubois@bluecompass-travel.com', '+1 (312) 555-0148'),
              ('Marcus Hale', 'Travel Advisor', 'Northbound Journeys', 'm.hale@northbound-journeys.com', '+1 (646) 555-0193'),
              ('Priya Raman', 'Itinerary Specialist', 'Wayfarer & Co. Travel', 'priya@wayfarerco.travel', '+1 (415) 555-0121'))
_AL_CLIENTS = ('Ms. Carter', 'Mr. Okafor', 'Mr. and Mrs. Lindqvist', 'Dr. Moreno')
_AL_ORD = ('first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh')
_AL_INTRO = ("Thank you for booking with {agency}. I am delighted to confirm the arrangements for your {n}-day trip from {org} to "
             "{dest} for {p} traveller{s}. Please review the details below and let me know if anything needs changing.",
             "Further to our conversation, please find below the itinerary I have put together for your {n}-day trip to {dest}. "
             "All reservations are for {p} traveller{s}.")
_AL_CLOSE = ("Your e-tickets and vouchers are attached to this e-mail. Should you wish to make any changes, simply reply to this message "
             "and I will be happy to help.",
             "The total cost of the arrangements is within your budget of ${budget:,}. Please do not hesitate to contact me should you "
             "have any questions.")
_AL_SIGN = ('Kind regards,', 'Warm regards,', 'With best wishes,')
_AL_T = {   # sentence templates of the day paragraphs
    'open_move': ("On your {ord} day, {date}, you will travel from {a} to {b}.", "On {date}, your {ord} day, you will travel from {a} to {b}."),
    'open_stay': ("On your {ord} day, {date}, you will remain in {c}.", "On {date}, your {ord} day, you will stay in {c}."),
    'fly': ("Your flight, {num}, departs {a} at {dep} and arrives in {b} at {arr}{nd}.",
            "Flight {num} leaves {a} at {dep}, landing in {b} at {arr}{nd}."),
    'drive': ("You will drive yourself from {a} to {b}, a journey of approximately {dur} (estimated fuel cost ${cost}).",),
    'taxi': ("A taxi will take you from {a} to {b}, a journey of approximately {dur} (estimated fare ${cost}).",),
    'breakfast': ("Your day begins with breakfast at {v}.", "Breakfast is at {v}.", "I recommend breakfast at {v}."),
    'lunch': ("Lunch is reserved at {v}.", "For lunch, I have booked a table at {v}."),
    'dinner': ("Dinner is reserved at {v}.", "In the evening, you will dine at {v}."),
    'sights': ("You will visit {s}.", "During the day you will have time to see {s}."),
    'none_breakfast': ("You are free to arrange breakfast yourself.",), 'none_lunch': ("You are free to arrange lunch yourself.",),
    'none_dinner': ("You are free to arrange dinner yourself.",),
    'start': ("You will then check in at {v}, where I have reserved {N} {nights}.", "I have reserved {N} {nights} for you at {v}."),
    'again': ("You will spend another night at {v}.", "You will return to your accommodation for the night."),
    'home': ("No accommodation is required, as you return home that evening.",),
    'dmeal': ("Please note that {y}, which you asked about, {why}.",),
    'dsight': ("Unfortunately, {s} {why}, so I have left it out.",),
    'dstay': ("Regrettably, {z} had no availability for those dates.",),
}
_AL_WHY = {'meal': ("is closed that day", "was fully booked"), 'sight': ("is closed for renovation", "does not fit into the schedule")}


def _al_ord(i: int, n: int, final: bool) -> str: return 'final' if final and i == n - 1 else _AL_ORD[i]


def agent_letter(plan, task, ph):
    """A travel agent's formal e-mail to the client: "From:" / "To:" / "Subject: Your itinerary — A to B, March 16–18, 2022",
    "Dear Ms. Carter,", an intro paragraph, then ONE PARAGRAPH PER DAY with NO heading and NO day number: the day known by an
    ORDINAL word and a British date in its first sentence ("On your second day, Thursday 17 March, you will remain in
    Rockford." / "On Friday 18 March, your final day, you will travel from Rockford to St. Petersburg."), then formal
    future-tense sentences in the order of the day: "Your flight, F1, departs A at 19:00 and arrives in B at 22:43." (or
    "Flight F1 leaves A at ..., landing in B at ... the following day."), "You will drive yourself from A to B, a journey of
    approximately 3 hours and 11 minutes (estimated fuel cost $120).", "Breakfast is at X." / "For lunch, I have booked a
    table at X." / "In the evening, you will dine at X.", "You will visit A ⟩ B." (the drawn join), "You are free to
    arrange lunch yourself." for an empty meal (some renderings), the stay "You will then check in at W, where I have reserved 2 nights."
    and later "You will spend another night at W." or UNNAMED "You will return to your accommodation for the night.", "No
    accommodation is required, as you return home that evening."; a closing paragraph, a sign-off and a signature block.
    DECOYS as sentences: "Please note that Y, which you asked about, is closed that day." after a meal, "Unfortunately, S is
    closed for renovation, so I have left it out." after the sights, "Regrettably, Z had no availability for those dates."
    after a check-in."""
    r = ph.rng
    name, title, agency, mail, phone = r.choice(_AL_AGENTS)
    client, final, say_none = r.choice(_AL_CLIENTS), r.random() < 0.6, r.random() < 0.4
    meals, stays, sights = _decoys(plan, r)
    n, p, pairs, runs = len(plan), _people(task), [], _runs_of(plan)
    T = _AL_T
    out = [f"From: {name} <{mail}>", f"To: {client}", f"Subject: Your itinerary — {_get(task, 'org')} to {_get(task, 'dest')}, {_range(task, n)}", '',
           f"Dear {client},", '', r.choice(_AL_INTRO).format(agency=agency, n=n, org=_get(task, 'org'), dest=_get(task, 'dest'), p=p, s=_ns(p)), '']
    for i, d in enumerate(plan):
        a, b = _ab(d['current_city'])
        o = dict(ord=_al_ord(i, n, final), date=_df(task, i, 'uk'))
        s = [r.choice(T['open_move']).format(a=a, b=b, **o) if a != b else r.choice(T['open_stay']).format(c=a, **o)]
        at = _attractions(d['attraction'])
        run = []
        def flush():
            if run:
                s.append(r.choice(T['sights']).format(s=ph.join.join(run))); run.clear()
                if i in sights:
                    pairs.append((_nm(sights[i][1]), _nm(at[0])))
                    s.append(T['dsight'][0].format(s=ph.venue(sights[i][1]), why=r.choice(_AL_WHY['sight'])))
        for _, kind, v in _with_leg(d):
            if kind == 'sight': run.append(ph.venue(v)); continue
            flush()
            if kind == 'leg':
                q = _leg_parts(v)
                if q['mode'] == 'flight':
                    s.append(r.choice(T['fly']).format(num=q['number'], a=q['a'], b=q['b'], dep=q['dep'], arr=q['arr'],
                                                       nd=' the following day' if q['arr'] < q['dep'] else ''))
                else: s.append(T[q['mode']][0].format(a=q['a'], b=q['b'], dur=_dur(q['duration'], 'words'), cost=q['cost']))
                continue
            s.append(r.choice(T[kind]).format(v=ph.venue(v)))
            if (i, kind) in meals:
                pairs.append((meals[(i, kind)], _nm(v)))
                s.append(T['dmeal'][0].format(y=meals[(i, kind)], why=r.choice(_AL_WHY['meal'])))
        flush()
        if say_none: s += [T[f"none_{m}"][0] for m in _MEALS if d[m] == '-']
        acc = d['accommodation']
        if i in runs:
            a0, b0, _ = runs[i]
            N = b0 - a0 + 1
            s.append(r.choice(T['start']).format(v=ph.venue(acc), N=N, nights=f"night{_ns(N)}"))
            if (a0, b0) in stays:
                pairs.append((stays[(a0, b0)], _nm(acc)))
                s.append(T['dstay'][0].format(z=stays[(a0, b0)]))
        elif acc != '-': s.append(r.choice(T['again']).format(v=ph.venue(acc)))
        elif i == n - 1 and r.random() < 0.6: s.append(T['home'][0])
        out += [' '.join(s), '']
    out += [r.choice(_AL_CLOSE).format(budget=_get(task, 'budget') or 0), '', r.choice(_AL_SIGN), name, f"{title} | {agency}", phone]
    return _log('\n'.join(out), pairs)


_AL_RX = {f"{k}{j}": _tmpl(t, num=r'\S+', dep=r'\d\d:\d\d', arr=r'\d\d:\d\d', nd=r'(?: the following day)?', cost=r'\d+', N=r'\d+',
                           nights=r'nights?', ord='|'.join(_AL_ORD + ('final',)), date=r'[A-Z][a-z]+ \d+ [A-Z][a-z]+',
                           why=_alt(_AL_WHY['meal'] + _AL_WHY['sight']))
          for k, ts in _AL_T.items() for j, t in enumerate(ts)}


def _read_al(text, task, plan, ph):
    errs, n = [], len(plan)
    P = text.split('\n\n')
    head, greet, intro = P[0].split('\n'), P[1], P[2]
    ag = next((x for x in _AL_AGENTS if head[0] == f"From: {x[0]} <{x[3]}>"), None)
    if not ag or len(head) != 3 or head[1][4:] not in _AL_CLIENTS or head[2] != f"Subject: Your itinerary — {_get(task, 'org')} to {_get(task, 'dest')}, {_range(task, n)}":
        errs.append('header')
    if greet != f"Dear {head[1][4:]},": errs.append('greeting')
    p = _people(task)
    if intro not in [t.format(agency=ag[2] if ag else '', n=n, org=_get(task, 'org'), dest=_get(task, 'dest'), p=p, s=_ns(p)) for t in _AL_INTRO]:
        errs.append('intro')
    body = [x for x in P[3:] if x.startswith('On ')]
    rest = P[3 + len(body):]
    if P[3:3 + len(body)] != body or len(rest) != 2 or rest[0] not in [c.format(budget=_get(task, 'budget') or 0) for c in _AL_CLOSE] \
            or not ag or rest[1] not in [f"{x}\n{ag[0]}\n{ag[1]} | {ag[2]}\n{ag[4]}" for x in _AL_SIGN]:
        errs.append('closing')
    days, nights, checks = [], [], []
    ok = _ok18(ph)
    for par in body:
        k = len(days) + 1
        pre = f"day {k}: "
        g = _blank()
        days.append(g); nights.append(None)
        said, last = [], None
        for j, (key, q) in enumerate(_scan(par, _AL_RX, ok)):
            kind = key.rstrip('0123456789')
            if (j == 0) != kind.startswith('open_'): errs.append(f"{pre}{kind} at sentence {j}"); continue
            if nights[-1] is not None and kind != 'dstay': errs.append(f"{pre}{kind} after the night")
            if kind.startswith('open_'):
                want = _al_ord(k - 1, n, True)
                if q['ord'] not in (_AL_ORD[k - 1], want) or q['date'] != _df(task, k - 1, 'uk'): errs.append(f"{pre}opening")
                g['current_city'] = f"from {q['a']} to {q['b']}" if kind == 'open_move' else q['c']
                if kind == 'open_move' and q['a'] == q['b']: errs.append(f"{pre}route")
            elif kind == 'fly':
                if bool(q['nd']) != (q['arr'] < q['dep']): errs.append(f"{pre}next day")
                _put(g, 'leg', _flight(q['num'], q['a'], q['b'], q['dep'], q['arr']), errs, pre)
            elif kind in ('drive', 'taxi'): _put(g, 'leg', _road_key(kind, q['a'], q['b'], _undur(q['dur'], 'words'), q['cost']), errs, pre)
            elif kind in _MEALS: _said(said, kind, errs, pre); _put(g, kind, _unvenue(ph, q['v']), errs, pre)
            elif kind.startswith('none_'): _said(said, kind[5:], errs, pre)
            elif kind == 'sights': g['attraction'] += [_unvenue(ph, x) for x in q['s'].split(ph.join)]
            elif kind == 'start':
                N = int(q['N'])
                if q['nights'] != f"night{_ns(N)}": errs.append(f"{pre}{N} {q['nights']}")
                nights[-1] = ('start', N, _unvenue(ph, q['v']))
            elif kind == 'again': nights[-1] = ('again', _unvenue(ph, q['v']) if q.get('v') else None)
            elif kind == 'home':
                if k != n: errs.append(f"{pre}home before the end")
                nights[-1] = ('home',)
            elif kind == 'dmeal':
                if last not in _MEALS or q['why'] not in _AL_WHY['meal']: errs.append(f"{pre}meal note after {last}")
                else: checks.append(('meal', k, last, q['y'], None, 'asked about: '))
            elif kind == 'dsight':
                if last != 'sights' or q['why'] not in _AL_WHY['sight']: errs.append(f"{pre}sight note after {last}")
                checks.append(('sight', k, *_name_city(_unvenue(ph, q['s'])), 'left out: '))
            elif kind == 'dstay':
                if last != 'start': errs.append(f"{pre}stay note after {last}")
                else: checks.append(('stay', k, k + nights[-1][1] - 1, q['z'], None, 'no availability: '))
            last = kind
    _apply_nights(days, [None if x and x[0] == 'home' else x for x in nights], errs)
    _resolve(days, checks, errs)
    return days, errs

# booked_checklist -----------------------------------------------------------------------------------------------------
_BC_INTRO = ("Here's everything as a checklist, day by day. **[x]** = booked / paid, **[ ]** = still to do (book or pay on the day).",
             "Your trip as a to-do list ✅ — ticked items are already booked; open boxes are things to sort out on the day.")
_BC_PREP = ("### Before you go", "- [x] Travel insurance", "- [ ] Download offline maps", "- [ ] Share this itinerary with someone at home")
_BC_HEAD = re.compile(r'## (?P<icon>✈️|🚗|🚕|📍) Day (?P<k>\d+) · (?P<date>[A-Z][a-z]{2}, [A-Z][a-z]{2} \d+) · (?P<route>.+) \((?P<done>\d+)/(?P<tot>\d+) done\)')
_BC_MEAL_X = ('table for {p} at {t}', 'booked for {p} · {t}')
_BC_MEAL_O = ('walk-in, no reservation needed', 'reserve a day ahead')
_BC_SIGHT = {'x': ('tickets booked',), ' ': ('pay at the door', 'free entry', 'check opening hours')}
_BC_EXTRA_HEAD = "### ➕ Optional extras (not part of the plan)"
_BC_FILLER = ("- [ ] A sunset walk — any evening", "- [ ] Souvenir shopping — if there's time")
_BC_OUTRO = ("Tick things off as you go! 🙌", "I'll keep this list updated if anything changes.")


def _bc_meal_note(p: int, m: str, x: bool, r) -> str:
    t = {'breakfast': '8:30 AM', 'lunch': '12:30 PM', 'dinner': '7:00 PM'}[m]
    return r.choice(_BC_MEAL_X).format(p=p, t=t) if x else r.choice(_BC_MEAL_O)


def booked_checklist(plan, task, ph):
    """The trip as a markdown TASK LIST whose boxes mean BOOKING STATUS, not plan membership: an intro with the legend ("[x] =
    booked / paid, [ ] = still to do"), an optional "### Before you go" list without names, then per day "## ✈️ Day 1 · Wed,
    Mar 16 · St. Petersburg → Rockford (2/3 done)" (a progress counter, the icon of the day's leg or 📍) and one item per
    thing in the order of the day: "- [x] ✈️ Flight F1 · A → B · dep 15:40 → arr 17:04 (+1) · e-ticket in your inbox", "- [ ]
    🚗 Drive A → B · ~3 h 11 min · ~$120 fuel — fill up the night before", "- [ ] 🚕 Taxi ...", meals in the drawn label
    with a note ("- [x] Lunch ~ X — table for 2 at 12:30 PM", "- [ ] Dinner: X — walk-in, no reservation needed"), an empty
    meal "- [ ] Lunch — nothing planned yet" (some renderings), sights "- [ ] 🎟️ A — pay at the door" / "- [x] 🎟️ A — tickets
    booked", "- [ ] 🧳 Check out by 11:00" after a stay ends, the stay "- [x] 🏨 Check in at W — 2 nights, paid", then "- [x] 🏨
    Night 2 of 2 at W" or UNNAMED "- [x] 🏨 Same hotel as last night"; the DECOYS under a closing "### ➕ Optional extras (not
    part of the plan)": "- [ ] Y — backup for Day 2 lunch, only if the first choice is full", "- [ ] S — only if you have a
    spare hour on Day 2", "- [ ] Z — fallback for Nights 1–2 if the booking falls through" (and nameless fillers)."""
    r = ph.rng
    p, n = _people(task), len(plan)
    say_none, unnamed = r.random() < 0.4, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    pairs, runs, extras = [], _runs_of(plan), []
    run_of = {x: (a, b) for a, b, _ in _day_runs(plan) for x in range(a, b + 1)}
    out = [r.choice(_BC_INTRO), '']
    if r.random() < 0.4: out += [*_BC_PREP, '']
    for i, d in enumerate(plan):
        items = []
        if i and plan[i - 1]['accommodation'] != '-' and (i - 1) in run_of and run_of[i - 1][1] == i - 1 and r.random() < 0.6:
            items.append(('o', '🧳 Check out by 11:00'))
        for _, kind, v in _with_leg(d):
            if kind == 'leg':
                q = _leg_parts(v)
                if q['mode'] == 'flight':
                    items.append(('x', f"✈️ Flight {q['number']} · {q['a']} → {q['b']} · dep {q['dep']} → arr {q['arr']}"
                                       f"{' (+1)' if q['arr'] < q['dep'] else ''} · e-ticket in your inbox"))
                elif q['mode'] == 'drive':
                    items.append(('o', f"🚗 Drive {q['a']} → {q['b']} · ~{_dur(q['duration'], 'hm')} · ~${q['cost']} fuel — fill up the night before"))
                else: items.append(('o', f"🚕 Taxi {q['a']} → {q['b']} · ~{_dur(q['duration'], 'hm')} · ~${q['cost']} — book it the morning of"))
            elif kind in _MEALS:
                x = _h(f"{v}:{i}:{kind}", 'bk') % 3 != 0
                items.append(('x' if x else 'o', f"{ph.meal(kind.capitalize(), v)} — {_bc_meal_note(p, kind, x, r)}"))
                if (i, kind) in meals:
                    pairs.append((meals[(i, kind)], _nm(v)))
                    extras.append(f"- [ ] {meals[(i, kind)]} — backup for Day {i + 1} {kind}, only if the first choice is full")
            else:
                x = r.random() < 0.3
                items.append(('x' if x else 'o', f"🎟️ {ph.venue(v)} — {r.choice(_BC_SIGHT['x' if x else ' '])}"))
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(_attractions(d['attraction'])[0])))
            extras.append(f"- [ ] {ph.venue(sights[i][1])} — only if you have a spare hour on Day {i + 1}")
        if say_none: items += [('o', f"{m.capitalize()} — nothing planned yet") for m in _MEALS if d[m] == '-']
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            items.append(('x', f"🏨 Check in at {ph.venue(acc)} — {N} night{_ns(N)}, paid"))
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc)))
                extras.append(f"- [ ] {stays[(a, b)]} — fallback for {'Night' if a == b else 'Nights'} {a + 1}{'' if a == b else f'–{b + 1}'} if the booking falls through")
        elif acc != '-':
            a, b = run_of[i]
            items.append(('x', "🏨 Same hotel as last night" if unnamed else f"🏨 Night {i - a + 1} of {b - a + 1} at {ph.venue(acc)}"))
        lg = _leg_parts(d['transportation'])['mode'] if d['transportation'] != '-' else None
        icon = {'flight': '✈️', 'drive': '🚗', 'taxi': '🚕', None: '📍'}[lg]
        done = sum(s == 'x' for s, _ in items)
        out += [f"## {icon} Day {i + 1} · {_df(task, i, 'mon')} · {_rt(d['current_city'])} ({done}/{len(items)} done)"]
        out += [f"- [{'x' if s == 'x' else ' '}] {t}" for s, t in items] + ['']
    if extras or r.random() < 0.5:
        ex = extras + ([r.choice(_BC_FILLER)] if r.random() < 0.5 or not extras else [])
        out += [_BC_EXTRA_HEAD] + ex + ['']
    return _log('\n'.join(out + [r.choice(_BC_OUTRO)]), pairs)


_BC_FL = re.compile(r'✈️ Flight (?P<num>\S+) · (?P<a>.+?) → (?P<b>.+) · dep (?P<dep>\d\d:\d\d) → arr (?P<arr>\d\d:\d\d)(?P<nd> \(\+1\))? · e-ticket in your inbox')
_BC_RD = (re.compile(r'🚗 Drive (?P<a>.+?) → (?P<b>.+) · ~(?P<dur>.+?) · ~\$(?P<cost>\d+) fuel — fill up the night before'),
          re.compile(r'🚕 Taxi (?P<a>.+?) → (?P<b>.+) · ~(?P<dur>.+?) · ~\$(?P<cost>\d+) — book it the morning of'))
_BC_EX = {'meal': re.compile(r'- \[ \] (?P<y>.+) — backup for Day (?P<k>\d+) (?P<m>breakfast|lunch|dinner), only if the first choice is full'),
          'sight': re.compile(r'- \[ \] (?P<s>.+) — only if you have a spare hour on Day (?P<k>\d+)'),
          'stay': re.compile(r'- \[ \] (?P<z>.+) — fallback for (?P<tag>Nights? \d+(?:–\d+)?) if the booking falls through')}


def _read_bc(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    p = _people(task)
    if L[0] not in _BC_INTRO: errs.append('intro')
    if L[-1] not in _BC_OUTRO: errs.append('outro')
    days, nights, checks, saids, nofs = [], [], [], [], []
    body, j = L[2:-1], 0
    if body[:len(_BC_PREP)] == list(_BC_PREP): body = body[len(_BC_PREP) + 1:]
    counts, extras = [], False
    for ln in body:
        if ln == '': continue
        if ln == _BC_EXTRA_HEAD: extras = True; continue
        if extras:
            if ln in _BC_FILLER: continue
            if (q := _BC_EX['meal'].fullmatch(ln)): checks.append(('meal', int(q['k']), q['m'], q['y'], None, 'backup: '))
            elif (q := _BC_EX['stay'].fullmatch(ln)):
                m = re.fullmatch(r'Nights? (\d+)(?:–(\d+))?', q['tag'])
                a, b = int(m[1]), int(m[2] or m[1])
                if (b > a) != q['tag'].startswith('Nights'): errs.append(f"tag {q['tag']!r}")
                checks.append(('stay', a, b, q['z'], None, 'fallback: '))
            elif (q := _BC_EX['sight'].fullmatch(ln)): checks.append(('sight', int(q['k']), *_name_city(_unvenue(ph, q['s'])), 'spare hour: '))
            else: errs.append(f"extra {ln!r}")
            continue
        if (h := _BC_HEAD.fullmatch(ln)):
            k = len(days) + 1
            if int(h['k']) != k or h['date'] != _df(task, k - 1, 'mon'): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h['route']))); nights.append(None); saids.append([])
            counts.append([int(h['done']), int(h['tot']), 0, 0, h['icon']]); continue
        if not days: errs.append(f"line {ln!r}"); continue
        k, g, pre = len(days), days[-1], f"day {len(days)}: "
        q = re.fullmatch(r'- \[(x| )\] (.+)', ln)
        if not q: errs.append(f"{pre}line {ln!r}"); continue
        x, s = q[1] == 'x', q[2]
        counts[-1][2] += x; counts[-1][3] += 1
        if nights[-1] is not None: errs.append(f"{pre}{s!r} after the night")
        if s == '🧳 Check out by 11:00':
            if x or k == 1 or nights[k - 2] is None or g['leg'] or g['attraction'] or saids[-1]: errs.append(f"{pre}check-out")
        elif (q := _BC_FL.fullmatch(s)):
            if not x or bool(q['nd']) != (q['arr'] < q['dep']): errs.append(f"{pre}flight {s!r}")
            _put(g, 'leg', _flight(q['num'], q['a'], q['b'], q['dep'], q['arr']), errs, pre)
        elif (q := _BC_RD[0].fullmatch(s) or _BC_RD[1].fullmatch(s)):
            if x: errs.append(f"{pre}road leg ticked")
            _put(g, 'leg', _road_key('drive' if s.startswith('🚗') else 'taxi', q['a'], q['b'], _undur(q['dur'], 'hm'), q['cost']), errs, pre)
        elif (q := re.fullmatch(r'(Breakfast|Lunch|Dinner) — nothing planned yet', s)):
            if x: errs.append(f"{pre}nothing ticked")
            _said(saids[-1], q[1].lower(), errs, pre)
        elif s.startswith('🎟️ '):
            v, _, note = s[3:].rpartition(' — ')
            if note not in _BC_SIGHT['x' if x else ' ']: errs.append(f"{pre}sight note {note!r}")
            g['attraction'].append(_unvenue(ph, v))
        elif (q := re.fullmatch(r'🏨 Check in at (?P<v>.+) — (?P<N>\d+) (?P<w>nights?), paid', s)):
            if not x or (q['N'] == '1') != (q['w'] == 'night'): errs.append(f"{pre}check-in {s!r}")
            nights[-1] = ('start', int(q['N']), _unvenue(ph, q['v']))
        elif s == '🏨 Same hotel as last night':
            if not x: errs.append(f"{pre}night not ticked")
            nights[-1] = ('again', None)
        elif (q := re.fullmatch(r'🏨 Night (?P<j>\d+) of (?P<N>\d+) at (?P<v>.+)', s)):
            if not x: errs.append(f"{pre}night not ticked")
            nights[-1] = ('again', _unvenue(ph, q['v'])); nofs.append((k, int(q['j']), int(q['N'])))
        else:
            v, _, note = s.rpartition(' — ')
            mm = ph.unmeal(v) if v else None
            if not mm: errs.append(f"{pre}item {s!r}"); continue
            want = _BC_MEAL_X if x else _BC_MEAL_O
            t = {'breakfast': '8:30 AM', 'lunch': '12:30 PM', 'dinner': '7:00 PM'}[mm[0]]
            if note not in [w.format(p=p, t=t) for w in want]: errs.append(f"{pre}meal note {note!r}")
            _said(saids[-1], mm[0], errs, pre); _put(g, mm[0], mm[1], errs, pre)
    for k, (done, tot, x, t, icon) in enumerate(counts, 1):
        if (done, tot) != (x, t): errs.append(f"day {k}: {done}/{tot} done, {x}/{t} ticked")
        lg = days[k - 1]['leg']
        if icon != {'flight': '✈️', 'drive': '🚗', 'taxi': '🚕', None: '📍'}[lg[0] if lg else None]: errs.append(f"day {k}: icon")
    for k, j, N in nofs: _night_of(nights, k, j, N, errs, f"day {k}: ")
    _apply_nights(days, nights, errs)
    _resolve(days, checks, errs)
    return days, errs

# it_nl_pl_tr_prose ----------------------------------------------------------------------------------------------------
_LG18 = {
    'it': {'intro': "Ecco l'itinerario giorno per giorno (i nomi dei locali sono lasciati in originale):", 'outro': "Buon viaggio!",
           'head': "**Giorno {k} — {date} ({route})**", 'date': "{wd} {d} {mo}",
           'wd': "lunedì martedì mercoledì giovedì venerdì sabato domenica".split(),
           'mo': "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre".split(),
           'clock': r'\d\d:\d\d', 'nd': ' del giorno dopo',
           'join': {', then a stroll to ': ', poi una passeggiata fino a ', ', then a quick visit to ': ', poi una breve visita a '},
           'T': {'fly': ("Partenza con il volo {num} da {a} alle {dep}, arrivo a {b} alle {arr}{nd}.",
                         "Volo {num} da {a} a {b}: decollo alle {dep}, atterraggio alle {arr}{nd}."),
                 'drive': ("Si va in auto da {a} a {b}: circa {dur}, con una spesa di circa {cost} dollari.",),
                 'taxi': ("Taxi da {a} a {b}: circa {dur}, circa {cost} dollari.",),
                 'breakfast': ("Colazione da {v}.", "La giornata comincia con la colazione da {v}."),
                 'lunch': ("Pranzo da {v}.", "Per pranzo, {v}."), 'dinner': ("Cena da {v}.", "La sera si cena da {v}."),
                 'sights': ("Da visitare: {s}.", "Poi si visitano {s}."),
                 'none_breakfast': ("Colazione libera.",), 'none_lunch': ("Pranzo libero.",), 'none_dinner': ("Cena libera.",),
                 'start': ("Pernottamento presso {v} ({N} {nights}).",),
                 'again': ("Un'altra notte presso {v}.", "Si dorme di nuovo nello stesso alloggio."), 'home': ("Rientro a casa.",),
                 'dmeal': ("(Avevamo pensato a {y}, ma {why}.)",), 'dsight': ("({s} resta fuori: {why}.)",), 'dstay': ("({z} era al completo.)",)},
           'why': {'meal': ("quel giorno è chiuso", "era tutto prenotato"), 'sight': ("non c'è abbastanza tempo", "è chiuso per lavori")}},
    'nl': {'intro': "Hier is de reisplanning per dag (de namen van de adressen zijn niet vertaald):", 'outro': "Goede reis!",
           'head': "**Dag {k} — {date} ({route})**", 'date': "{wd} {d} {mo}",
           'wd': "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag".split(),
           'mo': "januari februari maart april mei juni juli augustus september oktober november december".split(),
           'clock': r'\d\d\.\d\d', 'nd': ' (de volgende dag)',
           'join': {', then a stroll to ': ', dan een wandeling naar ', ', then a quick visit to ': ', dan kort langs '},
           'T': {'fly': ("Je vliegt met vlucht {num} van {a} naar {b}: vertrek om {dep} uur, aankomst om {arr} uur{nd}.",
                         "Vlucht {num} vertrekt om {dep} uur uit {a} en landt om {arr} uur in {b}{nd}."),
                 'drive': ("Je rijdt zelf van {a} naar {b}, ongeveer {dur} (circa {cost} dollar aan brandstof).",),
                 'taxi': ("Met de taxi van {a} naar {b}, ongeveer {dur} (circa {cost} dollar).",),
                 'breakfast': ("Ontbijt bij {v}.", "De dag begint met een ontbijt bij {v}."),
                 'lunch': ("Lunch bij {v}.", "Voor de lunch ga je naar {v}."), 'dinner': ("Diner bij {v}.", "'s Avonds eet je bij {v}."),
                 'sights': ("Bezienswaardigheden: {s}.", "Daarna bezoek je {s}."),
                 'none_breakfast': ("Geen ontbijt gepland.",), 'none_lunch': ("Geen lunch gepland.",), 'none_dinner': ("Geen diner gepland.",),
                 'start': ("Je overnacht in {v} ({N} {nights}).",),
                 'again': ("Nog een nacht in {v}.", "Je slaapt weer in hetzelfde hotel."), 'home': ("Terug naar huis.",),
                 'dmeal': ("(Ons eerste idee was {y}, maar {why}.)",), 'dsight': ("({s} laten we deze keer schieten: {why}.)",),
                 'dstay': ("({z} zat helemaal vol.)",)},
           'why': {'meal': ("het is die dag gesloten", "er was geen tafel meer vrij"), 'sight': ("te weinig tijd", "gesloten wegens verbouwing")}},
    'pl': {'intro': "Oto plan podróży dzień po dniu (nazwy miejsc zostawiam w oryginale):", 'outro': "Udanej podróży!",
           'head': "**Dzień {k} — {date} ({route})**", 'date': "{wd}, {d} {mo}",
           'wd': "poniedziałek wtorek środa czwartek piątek sobota niedziela".split(),
           'mo': "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia".split(),
           'clock': r'\d\d:\d\d', 'nd': ' następnego dnia',
           'join': {', then a stroll to ': ', potem spacer do ', ', then a quick visit to ': ', potem krótka wizyta w '},
           'T': {'fly': ("Lot {num} z {a} do {b}: wylot o {dep}, przylot o {arr}{nd}.",
                         "Wylatujesz z {a} o {dep} lotem {num} i lądujesz w {b} o {arr}{nd}."),
                 'drive': ("Jedziesz własnym autem z {a} do {b}, ok. {dur} (paliwo ok. {cost} USD).",),
                 'taxi': ("Taksówką z {a} do {b}, ok. {dur} (ok. {cost} USD).",),
                 'breakfast': ("Śniadanie w {v}.", "Dzień zaczynasz od śniadania w {v}."),
                 'lunch': ("Obiad w {v}.", "Na obiad idziesz do {v}."), 'dinner': ("Kolacja w {v}.", "Wieczorem kolacja w {v}."),
                 'sights': ("Do zobaczenia: {s}.", "Potem zwiedzanie: {s}."),
                 'none_breakfast': ("Śniadanie we własnym zakresie.",), 'none_lunch': ("Obiad we własnym zakresie.",),
                 'none_dinner': ("Kolacja we własnym zakresie.",),
                 'start': ("Nocleg w {v} ({N} {nights}).",),
                 'again': ("Kolejna noc w {v}.", "Nocleg w tym samym miejscu."), 'home': ("Powrót do domu.",),
                 'dmeal': ("(Rozważaliśmy {y}, ale {why}.)",), 'dsight': ("({s} odpada: {why}.)",), 'dstay': ("({z} nie miał wolnych miejsc.)",)},
           'why': {'meal': ("tego dnia jest zamknięte", "nie było wolnych stolików"), 'sight': ("zabraknie czasu", "trwa remont")}},
    'tr': {'intro': "İşte gün gün seyahat planınız (mekân adları orijinal haliyle bırakıldı):", 'outro': "İyi yolculuklar!",
           'head': "**{k}. Gün — {date} ({route})**", 'date': "{d} {mo} {wd}",
           'wd': "Pazartesi Salı Çarşamba Perşembe Cuma Cumartesi Pazar".split(),
           'mo': "Ocak Şubat Mart Nisan Mayıs Haziran Temmuz Ağustos Eylül Ekim Kasım Aralık".split(),
           'clock': r'\d\d\.\d\d', 'nd': ' (ertesi gün)',
           'join': {', then a stroll to ': ', ardından yürüyerek ', ', then a quick visit to ': ', ardından kısa bir ziyaretle '},
           'T': {'fly': ("Uçuş {num}: {a} → {b}, kalkış saati {dep}, varış saati {arr}{nd}.",
                         "Uçuş bilgisi: {num}, {a} kalkış {dep}, {b} varış {arr}{nd}."),
                 'drive': ("Kendi aracınızla {a} → {b}: yaklaşık {dur}, yakıt yaklaşık {cost} USD.",),
                 'taxi': ("Taksiyle {a} → {b}: yaklaşık {dur}, yaklaşık {cost} USD.",),
                 'breakfast': ("Kahvaltı için önerimiz {v}.", "Güne kahvaltıyla başlıyorsunuz: {v}."),
                 'lunch': ("Öğle yemeği için önerimiz {v}.", "Öğle yemeği: {v}."),
                 'dinner': ("Akşam yemeği için önerimiz {v}.", "Akşam yemeği: {v}."),
                 'sights': ("Gezilecek yerler: {s}.", "Ardından sırasıyla şu yerleri geziyorsunuz: {s}."),
                 'none_breakfast': ("Kahvaltı planlanmadı.",), 'none_lunch': ("Öğle yemeği planlanmadı.",), 'none_dinner': ("Akşam yemeği planlanmadı.",),
                 'start': ("Konaklama: {v} ({N} {nights}).",),
                 'again': ("Bir gece daha: {v}.", "Aynı otelde kalmaya devam ediyorsunuz."), 'home': ("Eve dönüş.",),
                 'dmeal': ("(İlk tercihimiz {y} idi, ancak {why}.)",), 'dsight': ("({s} bu sefer programa girmedi: {why}.)",),
                 'dstay': ("({z} tamamen doluydu.)",)},
           'why': {'meal': ("o gün kapalı", "boş masa kalmamıştı"), 'sight': ("zaman yetmiyor", "restorasyon nedeniyle kapalı")}},
}


def _lnights(lg: str, N: int) -> str:
    "'2 notti', '1 nacht', '2 noce' / '5 nocy' (Polish plurals), '2 gece'."
    if lg == 'it': return 'notte' if N == 1 else 'notti'
    if lg == 'nl': return 'nacht' if N == 1 else 'nachten'
    if lg == 'tr': return 'gece'
    return 'noc' if N == 1 else 'noce' if N % 10 in (2, 3, 4) and N % 100 not in (12, 13, 14) else 'nocy'


def _lclock(lg: str, t: str) -> str: return t.replace(':', '.') if lg in ('nl', 'tr') else t


def _unlclock(lg: str, s: str) -> str:
    t = s.replace('.', ':')
    if _lclock(lg, t) != s or not re.fullmatch(r'\d\d:\d\d', t): raise ValueError(f"clock {s!r} ({lg})")
    return t


def _ldate(lg: str, task, i: int) -> str:
    L, d = _LG18[lg], _date(task, i)
    return L['date'].format(wd=L['wd'][d.weekday()], d=d.day, mo=L['mo'][d.month - 1])


def _ljoin(lg: str, ph) -> str: return _LG18[lg]['join'].get(ph.join, ph.join)


def it_nl_pl_tr_prose(plan, task, ph):
    """The answer written as PROSE in Italian, Dutch, Polish or Turkish (drawn), the venue names left in English: a bold head
    per day ("**Giorno 2 — giovedì 17 marzo (Rockford)**", "**Dag 2 — donderdag 17 maart (...)**", "**Dzień 2 — czwartek, 17
    marca (...)**", "**2. Gün — 17 Mart Perşembe (...)**"; a travel day "(St. Petersburg → Rockford)") and ONE paragraph of
    sentences in the order of the day: the leg ("Partenza con il volo F1 da A alle 15:40, arrivo a B alle 17:04.", "Vlucht
    F1 vertrekt om 15.40 uur uit A en landt om 17.04 uur in B.", "Wylatujesz z A o 15:40 lotem F1 i lądujesz w B o 17:04.",
    "Uçuş F1: A → B, kalkış saati 15.40, varış saati 17.04."; an arrival after midnight "del giorno dopo" / "(de volgende
    dag)" / "następnego dnia" / "(ertesi gün)"; drives and taxis with translated durations "3 ore e 11 minuti", "3 uur en 11
    minuten", "3 godz. 11 min", "3 saat 11 dakika"), meals ("Colazione da X.", "Voor de lunch ga je naar X.", "Obiad w X." —
    Polish 'obiad' is the midday meal, LUNCH; 'kolacja' dinner —, "Akşam yemeği için önerimiz X."), sights in the drawn join
    (the worded joins translated: ', poi una passeggiata fino a ', ', dan kort langs ', ', potem spacer do ', ', ardından
    yürüyerek '), the stay named on its first night with its nights ("Pernottamento presso W (2 notti).", "Je overnacht in
    W (2 nachten).", "Nocleg w W (2 noce)." — Polish plurals noc / noce / nocy —, "Konaklama: W (2 gece).") and after it
    "Un'altra notte presso W." or UNNAMED ("Si dorme di nuovo nello stesso alloggio.", "Je slaapt weer in hetzelfde hotel.",
    "Nocleg w tym samym miejscu.", "Aynı otelde kalmaya devam ediyorsunuz."), a return home on the last day or nothing; an
    empty meal "Pranzo libero." / "Geen lunch gepland." / "Obiad we własnym zakresie." / "Öğle yemeği planlanmadı." (some
    renderings) or nothing; the placement's words translated ("X, che si trova a Rockford", "X in het centrum van Rockford",
    "X, w mieście Rockford", "X (Rockford şehrinde)", "X, Rockford merkezinde"; 'X, Rockford IL' and 'X, Rockford' as in
    English). DECOYS in brackets: "(Avevamo pensato a Y, ma quel giorno è chiuso.)", "(S laten we deze keer schieten: te weinig
    tijd.)", "(Z nie miał wolnych miejsc.)", "(İlk tercihimiz Y idi, ancak o gün kapalı.)"."""
    r = ph.rng
    lg = r.choice(tuple(_LG18))
    L, T = _LG18[lg], _LG18[lg]['T']
    say_none = r.random() < 0.4
    meals, stays, sights = _decoys(plan, r)
    n, pairs, runs = len(plan), [], _runs_of(plan)
    V = lambda v: _venue(ph, v, lg)
    out = [L['intro'], '']
    for i, d in enumerate(plan):
        at = _attractions(d['attraction'])
        s, run = [], []
        def flush():
            if run:
                s.append(r.choice(T['sights']).format(s=_ljoin(lg, ph).join(run))); run.clear()
                if i in sights:
                    pairs.append((_nm(sights[i][1]), _nm(at[0])))
                    s.append(T['dsight'][0].format(s=V(sights[i][1]), why=r.choice(L['why']['sight'])))
        for _, kind, v in _with_leg(d):
            if kind == 'sight': run.append(V(v)); continue
            flush()
            if kind == 'leg':
                p = _leg_parts(v)
                if p['mode'] == 'flight':
                    s.append(r.choice(T['fly']).format(num=p['number'], a=p['a'], b=p['b'], dep=_lclock(lg, p['dep']), arr=_lclock(lg, p['arr']),
                                                       nd=L['nd'] if p['arr'] < p['dep'] else ''))
                else: s.append(T[p['mode']][0].format(a=p['a'], b=p['b'], dur=_dur(p['duration'], lg), cost=p['cost']))
                continue
            s.append(r.choice(T[kind]).format(v=V(v)))
            if (i, kind) in meals:
                pairs.append((meals[(i, kind)], _nm(v)))
                s.append(T['dmeal'][0].format(y=meals[(i, kind)], why=r.choice(L['why']['meal'])))
        flush()
        if say_none: s += [T[f"none_{m}"][0] for m in _MEALS if d[m] == '-']
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            s.append(T['start'][0].format(v=V(acc), N=N, nights=_lnights(lg, N)))
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc)))
                s.append(T['dstay'][0].format(z=stays[(a, b)]))
        elif acc != '-': s.append(r.choice(T['again']).format(v=V(acc)))
        elif i == n - 1 and r.random() < 0.5: s.append(T['home'][0])
        out += [L['head'].format(k=i + 1, date=_ldate(lg, task, i), route=_rt(d['current_city'])), ' '.join(s), '']
    return _log('\n'.join(out + [L['outro']]), pairs)


def _lg_rx(lg):
    L = _LG18[lg]
    kinds = dict(num=r'\S+', dep=L['clock'], arr=L['clock'], nd=f"(?:{re.escape(L['nd'])})?", cost=r'\d+', N=r'\d+', nights=r'\S+',
                 why=_alt(L['why']['meal'] + L['why']['sight']))
    return {f"{k}{j}": _tmpl(t, **kinds) for k, ts in L['T'].items() for j, t in enumerate(ts)}


_LG_RX = {lg: _lg_rx(lg) for lg in _LG18}


def _lang(text: str): return next((lg for lg, L in _LG18.items() if text.startswith(L['intro'] + '\n')), None)


def _read_lg(text, task, plan, ph):
    errs, n = [], len(plan)
    lg = _lang(text)
    if lg is None: return [], ['no known intro']
    L, P = _LG18[lg], text.split('\n\n')
    if P[-1] != L['outro']: errs.append('outro')
    head = re.compile(re.escape(L['head']).replace(r'\{k\}', r'(?P<k>\d+)').replace(r'\{date\}', r'(?P<date>.+?)').replace(r'\{route\}', r'(?P<route>.+)'))
    days, nights, checks = [], [], []
    J = _ljoin(lg, ph)
    ok = _ok18(ph, lg, J)
    for par in P[1:-1]:
        hd, _, body = par.partition('\n')
        h = head.fullmatch(hd)
        k = len(days) + 1
        if not h or int(h['k']) != k or h['date'] != _ldate(lg, task, k - 1): errs.append(f"head {hd!r}"); continue
        g = _blank(_back(h['route']))
        days.append(g); nights.append(None)
        pre, said, last = f"day {k}: ", [], None
        for key, q in _scan(body, _LG_RX[lg], ok):
            kind = key.rstrip('0123456789')
            if nights[-1] is not None and kind != 'dstay': errs.append(f"{pre}{kind} after the night")
            if kind == 'fly':
                dep, arr = _unlclock(lg, q['dep']), _unlclock(lg, q['arr'])
                if bool(q['nd']) != (arr < dep): errs.append(f"{pre}next day")
                _put(g, 'leg', _flight(q['num'], q['a'], q['b'], dep, arr), errs, pre)
            elif kind in ('drive', 'taxi'): _put(g, 'leg', _road_key(kind, q['a'], q['b'], _undur(q['dur'], lg), q['cost']), errs, pre)
            elif kind in _MEALS: _said(said, kind, errs, pre); _put(g, kind, _unvenue(ph, q['v'], lg), errs, pre)
            elif kind.startswith('none_'): _said(said, kind[5:], errs, pre)
            elif kind == 'sights': g['attraction'] += [_unvenue(ph, x, lg) for x in q['s'].split(J)]
            elif kind == 'start':
                N = int(q['N'])
                if q['nights'] != _lnights(lg, N): errs.append(f"{pre}{N} {q['nights']}")
                nights[-1] = ('start', N, _unvenue(ph, q['v'], lg))
            elif kind == 'again': nights[-1] = ('again', _unvenue(ph, q['v'], lg) if q.get('v') else None)
            elif kind == 'home':
                if k != n: errs.append(f"{pre}home before the end")
                nights[-1] = ('home',)
            elif kind == 'dmeal':
                if last not in _MEALS or q['why'] not in L['why']['meal']: errs.append(f"{pre}meal aside after {last}")
                else: checks.append(('meal', k, last, q['y'], None, 'aside: '))
            elif kind == 'dsight':
                if last != 'sights' or q['why'] not in L['why']['sight']: errs.append(f"{pre}sight aside after {last}")
                checks.append(('sight', k, *_name_city(_unvenue(ph, q['s'], lg)), 'aside: '))
            elif kind == 'dstay':
                if last != 'start': errs.append(f"{pre}stay aside after {last}")
                else: checks.append(('stay', k, k + nights[-1][1] - 1, q['z'], None, 'aside: '))
            last = kind
    _apply_nights(days, [None if x and x[0] == 'home' else x for x in nights], errs)
    _resolve(days, checks, errs)
    return days, errs

# perplexity_citations -------------------------------------------------------------------------------------------------
_PX_INTRO = ("Here's a {n}-day itinerary from {org} to {dest} ({range}), built from current flight, restaurant and lodging listings{c}.",
             "A {n}-day trip from {org} to {dest} ({range}) can fit the budget with the choices below{c}.")
_PX_SUF = {'meal': ('Menu, Prices & Reviews — Tripadvisor', 'Yelp'), 'sight': ('Things to Do — Tripadvisor', 'Wikipedia'), 'stay': ('Airbnb',)}
_PX_DOM = {'Menu, Prices & Reviews — Tripadvisor': 'tripadvisor.com', 'Yelp': 'yelp.com', 'Things to Do — Tripadvisor': 'tripadvisor.com',
           'Wikipedia': 'en.wikipedia.org', 'Airbnb': 'airbnb.com'}
_PX_TIPS = ("Book restaurant tables a day ahead on weekends{c}.", "Most museums close by 5 PM, so plan the sights for the morning{c}.")
_PX_WHY = {'meal': ("it's closed that day", "reviews mention long waits"), 'sight': ("not enough time", "closed for renovation"),
           'stay': ("had no rooms left", "was over budget")}
_PX_RELATED = ("What are the best free things to do in {dest}?", "How early should I get to the airport for a domestic flight?",
               "Is {dest} walkable without a car?")


class _Sources:
    "The numbered sources of an answer, each cited as [k] from its first use on."
    def __init__(self): self.num, self.lines = {}, []

    def cite(self, key, title: str, dom: str) -> str:
        if key not in self.num:
            self.lines.append(f"[{len(self.lines) + 1}] {title} · {dom}"); self.num[key] = len(self.lines)
        return f"[{self.num[key]}]"


def _px_venue_src(S, kind: str, v: str) -> str:
    n, c = _name_city(v)
    suf = _PX_SUF[kind][_h(v, 'px') % len(_PX_SUF[kind])]
    return S.cite(('venue', kind, v), f"{n} — {c} — {suf}", _PX_DOM[suf])


def _px_leg(t: str) -> tuple[str, str, str]:
    "(the leg's sentence without its citation and full stop, its source title, domain)."
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        return (f"Flight {p['number']} departs {p['a']} at {p['dep']} and arrives in {p['b']} at {p['arr']}{' the next day' if p['arr'] < p['dep'] else ''}",
                f"Flight {p['number']}: {p['a']} → {p['b']} — Google Flights", 'google.com')
    if p['mode'] == 'drive':
        return (f"Self-drive from {p['a']} to {p['b']}, about {_dur(p['duration'], 'hm')} and ~${p['cost']} in fuel",
                f"{p['a']} to {p['b']} — driving directions — Google Maps", 'google.com')
    return (f"Taxi from {p['a']} to {p['b']}, about {_dur(p['duration'], 'hm')}, ~${p['cost']}", f"{p['a']} to {p['b']} — taxi fare estimate — Google Maps", 'google.com')


def _px_tail(v: str, r) -> str:
    x, c = _rest(v), _cuisine(v)
    opts = [f" — rated {3.8 + _h(v, 'r') % 12 / 10:.1f}/5", '']
    if x and c: opts.append(f" — {c}, ~${x.cost} per person")
    return r.choice(opts)


def perplexity_citations(plan, task, ph):
    """A Perplexity-style answer with INLINE CITATIONS glued to the names: an intro sentence ending in "[1]", then per day
    "## Day 2: Rockford (Thu, Mar 17)" and bullets whose every name carries its source number right after it — "- **Travel:**
    Flight F1 departs A at 15:40 and arrives in B at 17:04[2].", meals in the drawn label ("- Lunch ~ X, Rockford IL[5] —
    Chinese, ~$35 per person", "... — rated 4.4/5"), "- **Sights:** A[6] ⟩ B[7]" or a "- **Sights:**" bullet with one "  -
    A[6]" per sight, "- **Stay:** W[8] — 2 nights, ~$243/night", then "- **Stay:** W[8] (night 2 of 2)" or UNNAMED "- **Stay:**
    same as Day 1", an empty meal "- Lunch: none planned" (some renderings); a "## Good to know" list; a "**Sources**" list
    ("[5] X — Rockford — Menu, Prices & Reviews — Tripadvisor · tripadvisor.com", "[2] Flight F1: A → B — Google Flights ·
    google.com") whose titles repeat the names; "**Related**" follow-up questions. DECOYS in "Good to know", cited like the
    rest and in the sources too: "- Y[9] is another option for Day 2 lunch, but it's closed that day.", "- S[10] was left
    out of Day 2 — not enough time.", "- Z[11] was considered for Nights 1–2, but it had no rooms left." """
    r = ph.rng
    n, S = len(plan), _Sources()
    say_none, unnamed, listed = r.random() < 0.4, r.random() < 0.5, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    pairs, runs, notes = [], _runs_of(plan), []
    run_of = {x: (a, b) for a, b, _ in _day_runs(plan) for x in range(a, b + 1)}
    dest = _get(task, 'dest')
    g1 = lambda: S.cite(('guide',), f"{dest} travel guide — Wikivoyage", 'en.wikivoyage.org')
    out = [r.choice(_PX_INTRO).format(n=n, org=_get(task, 'org'), dest=dest, range=_range(task, n), c=g1()), '']
    for i, d in enumerate(plan):
        out.append(f"## Day {i + 1}: {_rt(d['current_city'])} ({_df(task, i, 'mon')})")
        at = _attractions(d['attraction'])
        run = []
        def flush():
            if not run: return
            cs = [ph.venue(a) + _px_venue_src(S, 'sight', a) for a in run]
            out.extend([f"- **Sights:** {ph.join.join(cs)}"] if not listed else ["- **Sights:**"] + [f"  - {x}" for x in cs])
            run.clear()
        for _, kind, v in _with_leg(d):
            if kind == 'sight': run.append(v); continue
            flush()
            if kind == 'leg':
                sent, title, dom = _px_leg(v)
                out.append(f"- **Travel:** {sent}{S.cite(('leg', v), title, dom)}.")
                continue
            out.append(f"- {ph.meal(kind.capitalize(), v)}{_px_venue_src(S, 'meal', v)}{_px_tail(v, r)}")
            if (i, kind) in meals:
                y = meals[(i, kind)]
                pairs.append((y, _nm(v)))
                notes.append(lambda y=y, c=_name_city(v)[1], k=i + 1, m=kind, why=r.choice(_PX_WHY['meal']):
                             f"- {y}{_px_venue_src(S, 'meal', f'{y}, {c}')} is another option for Day {k} {m}, but {why}.")
        flush()
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            notes.append(lambda x=sights[i][1], k=i + 1, why=r.choice(_PX_WHY['sight']):
                         f"- {ph.venue(x)}{_px_venue_src(S, 'sight', x)} was left out of Day {k} — {why}.")
        if say_none: out += [f"- {m.capitalize()}: none planned" for m in _MEALS if d[m] == '-']
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N, s = b - a + 1, _lodging(acc)
            out.append(f"- **Stay:** {ph.venue(acc)}{_px_venue_src(S, 'stay', acc)} — {N} night{_ns(N)}{f', ~${round(s.price)}/night' if s else ''}")
            if (a, b) in stays:
                z = stays[(a, b)]
                pairs.append((z, _nm(acc)))
                tag = f"Night {a + 1}" if a == b else f"Nights {a + 1}–{b + 1}"
                notes.append(lambda z=z, c=_name_city(acc)[1], tag=tag, why=r.choice(_PX_WHY['stay']):
                             f"- {z}{_px_venue_src(S, 'stay', f'{z}, {c}')} was considered for {tag}, but it {why}.")
        elif acc != '-':
            a, b = run_of[i]
            out.append(f"- **Stay:** same as Day {a + 1}" if unnamed else
                       f"- **Stay:** {ph.venue(acc)}{_px_venue_src(S, 'stay', acc)} (night {i - a + 1} of {b - a + 1})")
        out.append('')
    tips = [f"- {t.format(c=g1())}" for t in _PX_TIPS if r.random() < 0.6]
    notes = [f() for f in notes]     # cited after the days: the numbers run in the order of the text
    out += ['## Good to know'] + notes + tips + (['- Prices change often — check before you book.'] if not notes and not tips else []) + ['']
    out += ['**Sources**'] + S.lines + ['', '**Related**'] + [f"- {q.format(dest=dest)}" for q in _PX_RELATED if r.random() < 0.7]
    return _log('\n'.join(out), pairs)


_PX_CITE = re.compile(r'(?P<b>.+?)\[(?P<c>\d+)\](?P<t>.*)')
_PX_HEAD = re.compile(r'## Day (?P<k>\d+): (?P<route>.+) \((?P<date>[A-Z][a-z]{2}, [A-Z][a-z]{2} \d+)\)')
_PX_NOTE = {'meal': re.compile(r'- (?P<y>.+?)\[(?P<c>\d+)\] is another option for Day (?P<k>\d+) (?P<m>breakfast|lunch|dinner), but ' + _alt(_PX_WHY['meal']) + r'\.'),
            'sight': re.compile(r'- (?P<s>.+?)\[(?P<c>\d+)\] was left out of Day (?P<k>\d+) — ' + _alt(_PX_WHY['sight']) + r'\.'),
            'stay': re.compile(r'- (?P<z>.+?)\[(?P<c>\d+)\] was considered for (?P<tag>Nights? \d+(?:–\d+)?), but it ' + _alt(_PX_WHY['stay']) + r'\.')}


def _read_px(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    dest = _get(task, 'dest')
    try: gi, si, ri = L.index('## Good to know'), L.index('**Sources**'), L.index('**Related**')
    except ValueError: return [], ['sections']
    src = {}
    for j, ln in enumerate(L[si + 1:ri - 1], 1):
        q = re.fullmatch(r'\[(\d+)\] (.+) · (\S+)', ln)
        if not q or int(q[1]) != j: errs.append(f"source {ln!r}"); continue
        src[j] = (q[2], q[3])
    if L[ri - 1] != '' or any(ln[2:] not in [x.format(dest=dest) for x in _PX_RELATED] or not ln.startswith('- ') for ln in L[ri + 1:]): errs.append('related')
    cited = set()

    def cite(c: str, title: str | None = None, kind: str | None = None, v: str | None = None):
        "Source c is cited for `title` (a leg's) or for the venue v ('Name, City') of `kind`."
        k = int(c)
        if k not in cited and k != len(cited) + 1: errs.append(f"source [{k}] cited out of order")
        cited.add(k)
        if k not in src: errs.append(f"source [{k}] missing"); return
        t, dom = src[k]
        if title is not None:
            if t != title or dom != 'google.com': errs.append(f"source [{k}] {t!r}")
        else:
            nm_, c_ = _name_city(v)
            suf = next((s for s in _PX_SUF[kind] if t == f"{nm_} — {c_} — {s}"), None)
            if suf is None or _PX_DOM[suf] != dom: errs.append(f"source [{k}] {t!r} for {v!r}")

    guide = f"{dest} travel guide — Wikivoyage"
    intro = [t.format(n=n, org=_get(task, 'org'), dest=dest, range=_range(task, n), c='[1]') for t in _PX_INTRO]
    if L[0] not in intro or src.get(1) != (guide, 'en.wikivoyage.org'): errs.append('intro')
    cited.add(1)
    days, nights, checks, saids, nofs = [], [], [], [], []
    mode = None
    for ln in L[2:gi]:
        if ln == '': continue
        if (h := _PX_HEAD.fullmatch(ln)):
            k = len(days) + 1
            if int(h['k']) != k or h['date'] != _df(task, k - 1, 'mon'): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h['route']))); nights.append(None); saids.append([]); mode = None; continue
        if not days: errs.append(f"line {ln!r}"); continue
        k, g = len(days), days[-1]
        pre = f"day {k}: "
        if nights[-1] is not None: errs.append(f"{pre}{ln!r} after the night")
        if ln.startswith('  - ') and mode == 'sights':
            q = _PX_CITE.fullmatch(ln[4:])
            if not q or q['t']: errs.append(f"{pre}sight {ln!r}"); continue
            v = _unvenue(ph, q['b']); cite(q['c'], kind='sight', v=v); g['attraction'].append(v); continue
        mode = None
        if ln.startswith('- **Travel:** '):
            q = _PX_CITE.fullmatch(ln[len('- **Travel:** '):])
            if not q or q['t'] != '.': errs.append(f"{pre}travel {ln!r}"); continue
            key = None
            if (m := re.fullmatch(r'Flight (?P<num>\S+) departs (?P<a>.+?) at (?P<dep>\d\d:\d\d) and arrives in (?P<b>.+) at (?P<arr>\d\d:\d\d)(?P<nd> the next day)?', q['b'])):
                if bool(m['nd']) != (m['arr'] < m['dep']): errs.append(f"{pre}next day")
                key, title = _flight(m['num'], m['a'], m['b'], m['dep'], m['arr']), f"Flight {m['num']}: {m['a']} → {m['b']} — Google Flights"
            elif (m := re.fullmatch(r'Self-drive from (?P<a>.+?) to (?P<b>.+), about (?P<dur>.+?) and ~\$(?P<cost>\d+) in fuel', q['b'])):
                key, title = _road_key('drive', m['a'], m['b'], _undur(m['dur'], 'hm'), m['cost']), f"{m['a']} to {m['b']} — driving directions — Google Maps"
            elif (m := re.fullmatch(r'Taxi from (?P<a>.+?) to (?P<b>.+), about (?P<dur>.+?), ~\$(?P<cost>\d+)', q['b'])):
                key, title = _road_key('taxi', m['a'], m['b'], _undur(m['dur'], 'hm'), m['cost']), f"{m['a']} to {m['b']} — taxi fare estimate — Google Maps"
            if key is None: errs.append(f"{pre}travel {ln!r}"); continue
            cite(q['c'], title=title); _put(g, 'leg', key, errs, pre)
        elif ln == '- **Sights:**': mode = 'sights'
        elif ln.startswith('- **Sights:** '):
            for x in ln[len('- **Sights:** '):].split(ph.join):
                q = _PX_CITE.fullmatch(x)
                if not q or q['t']: errs.append(f"{pre}sight {x!r}"); continue
                v = _unvenue(ph, q['b']); cite(q['c'], kind='sight', v=v); g['attraction'].append(v)
        elif ln.startswith('- **Stay:** '):
            x = ln[len('- **Stay:** '):]
            if (q := re.fullmatch(r'same as Day (\d+)', x)): nights[-1] = ('again', None); nofs.append((k, int(q[1]), None)); continue
            q = _PX_CITE.fullmatch(x)
            if not q: errs.append(f"{pre}stay {x!r}"); continue
            v = _unvenue(ph, q['b']); cite(q['c'], kind='stay', v=v)
            if (m := re.fullmatch(r' \(night (\d+) of (\d+)\)', q['t'])): nights[-1] = ('again', v); nofs.append((k, int(m[1]), int(m[2])))
            elif (m := re.fullmatch(r' — (\d+) (nights?)(?:, ~\$\d+/night)?', q['t'])) and (m[1] == '1') == (m[2] == 'night'):
                nights[-1] = ('start', int(m[1]), v)
            else: errs.append(f"{pre}stay {x!r}")
        elif (q := re.fullmatch(r'- (Breakfast|Lunch|Dinner): none planned', ln)): _said(saids[-1], q[1].lower(), errs, pre)
        elif ln.startswith('- ') and (q := _PX_CITE.fullmatch(ln[2:])):
            mm = ph.unmeal(q['b'])
            if not mm: errs.append(f"{pre}line {ln!r}"); continue
            v = mm[1]
            if q['t'] not in _px_tails(v): errs.append(f"{pre}meal tail {q['t']!r}")
            cite(q['c'], kind='meal', v=v)
            _said(saids[-1], mm[0], errs, pre); _put(g, mm[0], v, errs, pre)
        else: errs.append(f"{pre}line {ln!r}")
    for k, j, N in nofs:
        if N is None: _same_as(nights, k, j, errs, f"day {k}: ")
        else: _night_of(nights, k, j, N, errs, f"day {k}: ")
    _apply_nights(days, nights, errs)
    for ln in L[gi + 1:si - 1]:
        if (q := _PX_NOTE['meal'].fullmatch(ln)):
            k, m = int(q['k']), q['m']
            kept = days[k - 1][m] if 1 <= k <= len(days) and days[k - 1][m] not in ('-', None) else None
            if kept: cite(q['c'], kind='meal', v=f"{q['y']}, {_name_city(kept)[1]}")
            checks.append(('meal', k, m, q['y'], None, 'another option: '))
        elif (q := _PX_NOTE['sight'].fullmatch(ln)):
            v = _unvenue(ph, q['s']); cite(q['c'], kind='sight', v=v)
            checks.append(('sight', int(q['k']), *_name_city(v), 'left out: '))
        elif (q := _PX_NOTE['stay'].fullmatch(ln)):
            m = re.fullmatch(r'Nights? (\d+)(?:–(\d+))?', q['tag'])
            a, b = int(m[1]), int(m[2] or m[1])
            if (b > a) != q['tag'].startswith('Nights'): errs.append(f"tag {q['tag']!r}")
            kept = days[a - 1]['accommodation'] if 1 <= a <= len(days) and days[a - 1]['accommodation'] not in ('-', None) else None
            if kept: cite(q['c'], kind='stay', v=f"{q['z']}, {_name_city(kept)[1]}")
            checks.append(('stay', a, b, q['z'], None, 'considered: '))
        elif ln[2:] in [t.format(c='[1]') for t in _PX_TIPS] + ['Prices change often — check before you book.'] and ln.startswith('- '): pass
        else: errs.append(f"note {ln!r}")
    if L[si - 1] != '' or cited != set(src): errs.append(f"sources cited {sorted(cited)} of {len(src)}")
    _resolve(days, checks, errs)
    return days, errs


def _px_tails(v: str) -> list[str]:
    x, c = _rest(v), _cuisine(v)
    return [f" — rated {3.8 + _h(v, 'r') % 12 / 10:.1f}/5", ''] + ([f" — {c}, ~${x.cost} per person"] if x and c else [])

# lettered_outline -----------------------------------------------------------------------------------------------------
_LO_ROMAN = ('i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii')
_LO_FOOT = ("All times are local.", "Prepared by TripDesk — reply to this message to change anything.")
_LO_WHY = {'meal': ("it is closed that day", "it was fully booked"), 'sight': ("not enough time", "closed for renovation"),
           'stay': ("it had no rooms left", "it was over budget")}


def _lo_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        return f"flight {p['number']}, {p['a']} ({p['dep']}) → {p['b']} ({p['arr']}{', next day' if p['arr'] < p['dep'] else ''})."
    return f"{'self-drive' if p['mode'] == 'drive' else 'taxi'}, {p['a']} → {p['b']}, approx. {_dur(p['duration'], 'hm')}, about ${p['cost']}."


_LO_LEG_RX = (re.compile(r'flight (?P<num>\S+), (?P<a>.+?) \((?P<dep>\d\d:\d\d)\) → (?P<b>.+) \((?P<arr>\d\d:\d\d)(?P<nd>, next day)?\)\.'),
              re.compile(r'(?P<how>self-drive|taxi), (?P<a>.+?) → (?P<b>.+), approx\. (?P<dur>.+?), about \$(?P<cost>\d+)\.'))


def lettered_outline(plan, task, ph):
    """A formal OUTLINE as an agency document or a structured-output answer: an upper-case title "ITINERARY — ST. PETERSBURG
    TO ROCKFORD", a line "3 days · March 16–18, 2022 · 1 traveller", then numbered days "2. Day 2 — Thursday, 17 March 2022
    — Rockford" ("... — St. Petersburg to Rockford" on a travel day) whose items are LETTERED (a), (b), (c) in the order
    the sections occur (the letters shift where a section is absent): "(a) Transport: flight F1, A (15:40) → B (17:04, next
    day)." / "self-drive, A → B, approx. 3 h 11 min, about $120.", "(b) Meals: X (breakfast) · Y (lunch) · Z (dinner)." —
    ALL MEALS ON ONE LINE, the meal word AFTER the venue in brackets, ' · ' or '; ' between them, an empty meal "no lunch"
    (some renderings) or nothing —, "(c) Sightseeing: (i) A; (ii) B; (iii) C." (roman sub-items) or the sights in the drawn
    join, "(d) Accommodation: W — check-in, 2 nights." then "W — night 2 of 2." or UNNAMED "same as Day 1.", "none (return
    journey)." or nothing on the last day; a footer line. DECOYS as further lettered items: "(e) Note: Y was considered for
    lunch, but it is closed that day.", "(e) Not included: S — not enough time.", "(e) Note: Z was considered for the
    accommodation, but it had no rooms left." """
    r = ph.rng
    n, p = len(plan), _people(task)
    sep, roman, say_none, unnamed = r.choice((' · ', '; ')), r.random() < 0.5, r.random() < 0.4, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    pairs, runs = [], _runs_of(plan)
    run_of = {x: (a, b) for a, b, _ in _day_runs(plan) for x in range(a, b + 1)}
    out = [f"ITINERARY — {_get(task, 'org').upper()} TO {_get(task, 'dest').upper()}", f"{n} days · {_range(task, n)} · {p} traveller{_ns(p)}", '']
    for i, d in enumerate(plan):
        a0, b0 = _ab(d['current_city'])
        out.append(f"{i + 1}. Day {i + 1} — {_df(task, i, 'ukyear')} — {a0 if a0 == b0 else f'{a0} to {b0}'}")
        items, notes = [], []
        if d['transportation'] != '-': items.append(f"Transport: {_lo_leg(d['transportation'])}")
        ms = [f"{ph.venue(d[m])} ({m})" if d[m] != '-' else f"no {m}" for m in _MEALS if d[m] != '-' or say_none]
        if any(d[m] != '-' for m in _MEALS): items.append(f"Meals: {sep.join(ms)}.")
        elif say_none: items.append("Meals: none planned.")
        for m in _MEALS:
            if (i, m) in meals:
                pairs.append((meals[(i, m)], _nm(d[m])))
                notes.append(f"Note: {meals[(i, m)]} was considered for {m}, but {r.choice(_LO_WHY['meal'])}.")
        if (at := _attractions(d['attraction'])):
            items.append("Sightseeing: " + ('; '.join(f"({_LO_ROMAN[j]}) {ph.venue(x)}" for j, x in enumerate(at)) if roman and len(at) > 1 else
                                            ph.items(at)) + '.')
            if i in sights:
                pairs.append((_nm(sights[i][1]), _nm(at[0])))
                notes.append(f"Not included: {ph.venue(sights[i][1])} — {r.choice(_LO_WHY['sight'])}.")
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            items.append(f"Accommodation: {ph.venue(acc)} — check-in, {N} night{_ns(N)}.")
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc)))
                notes.append(f"Note: {stays[(a, b)]} was considered for the accommodation, but {r.choice(_LO_WHY['stay'])}.")
        elif acc != '-':
            a, b = run_of[i]
            items.append(f"Accommodation: same as Day {a + 1}." if unnamed else f"Accommodation: {ph.venue(acc)} — night {i - a + 1} of {b - a + 1}.")
        elif i == n - 1 and r.random() < 0.5: items.append("Accommodation: none (return journey).")
        out += [f"   ({chr(97 + j)}) {x}" for j, x in enumerate(items + notes)]
    return _log('\n'.join(out + ['', r.choice(_LO_FOOT)]), pairs)


_LO_DAY = re.compile(r'(?P<j>\d+)\. Day (?P<k>\d+) — (?P<date>[A-Za-z]+, \d+ [A-Za-z]+ \d{4}) — (?P<route>.+)')
_LO_ITEM = re.compile(r'   \((?P<l>[a-z])\) (?P<w>Transport|Meals|Sightseeing|Accommodation|Note|Not included): (?P<x>.+)')


def _lo_route(s: str) -> str:
    if s in _cities(): return s
    for m in re.finditer(' to ', s):
        a, b = s[:m.start()], s[m.end():]
        if a in _cities() and b in _cities() and a != b: return f"from {a} to {b}"
    raise ValueError(f"route {s!r}")


def _read_lo(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    p = _people(task)
    if L[:3] != [f"ITINERARY — {_get(task, 'org').upper()} TO {_get(task, 'dest').upper()}", f"{n} days · {_range(task, n)} · {p} traveller{_ns(p)}", '']:
        errs.append('title')
    if L[-2:] != ['', L[-1]] or L[-1] not in _LO_FOOT: errs.append('footer')
    days, nights, checks, saids, nofs = [], [], [], [], []
    letter, sect = 0, None
    for ln in L[3:-2]:
        if (h := _LO_DAY.fullmatch(ln)):
            k = len(days) + 1
            if int(h['j']) != k or int(h['k']) != k or h['date'] != _df(task, k - 1, 'ukyear'): errs.append(f"head {ln!r}")
            days.append(_blank(_lo_route(h['route']))); nights.append(None); saids.append([]); letter, sect = 0, -1; continue
        q = _LO_ITEM.fullmatch(ln)
        if not q or not days: errs.append(f"line {ln!r}"); continue
        k, g, pre = len(days), days[-1], f"day {len(days)}: "
        if ord(q['l']) - 97 != letter: errs.append(f"{pre}letter {q['l']}")
        letter += 1
        w, x = q['w'], q['x']
        order = ('Transport', 'Meals', 'Sightseeing', 'Accommodation', 'Note', 'Not included')
        o = min(order.index(w), 4)
        if o < sect or (o == sect and o < 4): errs.append(f"{pre}{w} out of order")
        sect = o
        if w == 'Transport':
            if (m := _LO_LEG_RX[0].fullmatch(x)):
                if bool(m['nd']) != (m['arr'] < m['dep']): errs.append(f"{pre}next day")
                _put(g, 'leg', _flight(m['num'], m['a'], m['b'], m['dep'], m['arr']), errs, pre)
            elif (m := _LO_LEG_RX[1].fullmatch(x)):
                _put(g, 'leg', _road_key('drive' if m['how'] == 'self-drive' else 'taxi', m['a'], m['b'], _undur(m['dur'], 'hm'), m['cost']), errs, pre)
            else: errs.append(f"{pre}transport {x!r}")
        elif w == 'Meals':
            if x == 'none planned.': _ = [_said(saids[-1], m, errs, pre) for m in _MEALS]; continue
            if not x.endswith('.'): errs.append(f"{pre}meals {x!r}"); continue
            parts = re.findall(r'(?:^|(?: · |; ))(?:no (breakfast|lunch|dinner)|(.+?) \((breakfast|lunch|dinner)\))(?=$| · |; )', x[:-1])
            if ''.join(f"{'' if j == 0 else ' · ' if ' · ' in x else '; '}{f'no {a}' if a else f'{b} ({c})'}" for j, (a, b, c) in enumerate(parts)) != x[:-1]:
                errs.append(f"{pre}meals {x!r}"); continue
            for a, b, c in parts:
                m = a or c
                if saids[-1] and _MEALS.index(m) <= _MEALS.index(saids[-1][-1]): errs.append(f"{pre}meal order")
                _said(saids[-1], m, errs, pre)
                if not a: _put(g, m, _unvenue(ph, b), errs, pre)
        elif w == 'Sightseeing':
            if not x.endswith('.'): errs.append(f"{pre}sights {x!r}"); continue
            x = x[:-1]
            if x.startswith('(i) ') and '; (ii) ' in x:
                xs = re.split(r'; \((?:[ivx]+)\) ', x[4:])
                if '; '.join(f"({_LO_ROMAN[j]}) {v}" for j, v in enumerate(xs)) != x: errs.append(f"{pre}roman {x!r}")
            else: xs = x.split(ph.join)
            g['attraction'] += [_unvenue(ph, v) for v in xs]
        elif w == 'Accommodation':
            if x == 'none (return journey).':
                if k != n: errs.append(f"{pre}return before the end")
            elif (m := re.fullmatch(r'same as Day (\d+)\.', x)): nights[-1] = ('again', None); nofs.append((k, int(m[1]), None))
            elif (m := re.fullmatch(r'(?P<v>.+) — night (?P<j>\d+) of (?P<N>\d+)\.', x)):
                nights[-1] = ('again', _unvenue(ph, m['v'])); nofs.append((k, int(m['j']), int(m['N'])))
            elif (m := re.fullmatch(r'(?P<v>.+) — check-in, (?P<N>\d+) (?P<w>nights?)\.', x)) and (m['N'] == '1') == (m['w'] == 'night'):
                nights[-1] = ('start', int(m['N']), _unvenue(ph, m['v']))
            else: errs.append(f"{pre}accommodation {x!r}")
        elif w == 'Note':
            if (m := re.fullmatch(r'(?P<y>.+) was considered for (?P<m>breakfast|lunch|dinner), but ' + _alt(_LO_WHY['meal']) + r'\.', x)):
                checks.append(('meal', k, m['m'], m['y'], None, 'considered: '))
            elif (m := re.fullmatch(r'(?P<z>.+) was considered for the accommodation, but ' + _alt(_LO_WHY['stay']) + r'\.', x)):
                if not nights[-1] or nights[-1][0] != 'start': errs.append(f"{pre}stay note without a check-in")
                else: checks.append(('stay', k, k + nights[-1][1] - 1, m['z'], None, 'considered: '))
            else: errs.append(f"{pre}note {x!r}")
        else:
            m = re.fullmatch(r'(?P<s>.+) — ' + _alt(_LO_WHY['sight']) + r'\.', x)
            if not m: errs.append(f"{pre}not included {x!r}"); continue
            checks.append(('sight', k, *_name_city(_unvenue(ph, m['s'])), 'not included: '))
    for k, j, N in nofs:
        if N is None: _same_as(nights, k, j, errs, f"day {k}: ")
        else: _night_of(nights, k, j, N, errs, f"day {k}: ")
    _apply_nights(days, nights, errs)
    _resolve(days, checks, errs)
    return days, errs

# gemini_image_tags ----------------------------------------------------------------------------------------------------
_GM_INTRO = ("Okay, here's a possible {n}-day itinerary for your trip from {org} to {dest}, keeping your ${budget:,} budget in mind.",
             "Here's a {n}-day itinerary for a trip from {org} to {dest}:")
_GM_OUTRO = ("I hope this helps you plan a memorable trip!", "Enjoy your trip to {dest}!")
_GM_MEAL = {'breakfast': ("Start your day with breakfast at", "Grab breakfast at"), 'lunch': ("Have lunch at", "Enjoy lunch at"),
            'dinner': ("Enjoy dinner at", "Have dinner at")}
_GM_BLURB = (" — a local favorite", " — great value for money", '')
_GM_SIGHT = ("Visit", "Explore", "Head to")
_GM_NONE = "On your own — grab something quick between sights."
_GM_WHY = {'meal': ("it's closed that day", "it often has long waits"), 'sight': ("there isn't enough time", "it's closed for renovation"),
           'stay': ("had no rooms left", "was over budget")}
_GM_GENERIC = ("* **Budget:** This plan keeps costs well within your ${budget:,} budget.", "* **Booking:** Reserve flights and accommodation early.")


def _gm_titles(cc: str, i: int, n: int, has_sights: bool) -> tuple:
    a, b = _ab(cc)
    if a != b: return (f"Arrival in {b}", f"Travel to {b}") if i == 0 else (f"Heading Home to {b}", "Departure Day") if i == n - 1 else (f"On to {b}", f"Travel to {b}")
    return (f"Exploring {a}", f"Sights & Local Eats in {a}", f"A Full Day in {a}") if has_sights else (f"A Relaxed Day in {a}",)


def _gm_meal_tails(v: str) -> list[str]:
    c = _cuisine(v)
    return list(_GM_BLURB) + ([f", known for its {c} options"] if c else [])


def gemini_image_tags(plan, task, ph):
    """A Gemini-style answer: "Okay, here's a possible 3-day itinerary ...", then per day a BOLD LINE (not a heading) with a
    themed title and the date in brackets ("**Day 2: Exploring Rockford (March 17)**", "**Day 1: Arrival in Rockford (March
    16)**", "**Day 3: Departure Day (March 18)**" — the route of a travel day only in its travel bullet), an IMAGE TAG line
    "[Image of Rockford skyline]" under some stay days, and "*" bullets with bold labels and SENTENCES as values, in the
    order of the day: "* **Travel:** Take flight F1 from A, departing at 3:40 PM, and arrive in B at 5:04 PM." ("Drive from
    A to B (approx. 3 hours and 11 minutes; fuel about $120)."), "* **Lunch:** Enjoy lunch at X, known for its Chinese
    options." (or "— a local favorite"), "* **Morning:** / **Afternoon:** / **Evening:** Visit A ↦ B. [Image of A]" — the
    sights' part of the day by the meals around them, Gemini's inline image tags naming a sight again —, an empty meal "*
    **Lunch:** On your own — ..." (some renderings), "* **Accommodation:** Check into W for 2 nights." then "Return to W for
    the night." or UNNAMED "Return to your accommodation.", "No hotel needed — you'll be heading home." (some last days); then
    "**Important Considerations:**" with the DECOYS ("* **Alternative for Day 2 lunch:** Y is popular too, but it's closed
    that day.", "* **Skipped on Day 2:** S — there isn't enough time.", "* **Accommodation note:** Z was considered for
    Nights 1–2, but it had no rooms left.") among generic notes, and a closing wish."""
    r = ph.rng
    n = len(plan)
    say_none, unnamed, city_img = r.random() < 0.4, r.random() < 0.5, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    pairs, runs, notes = [], _runs_of(plan), []
    dest = _get(task, 'dest')
    out = [r.choice(_GM_INTRO).format(n=n, org=_get(task, 'org'), dest=dest, budget=_get(task, 'budget') or 0), '']
    for i, d in enumerate(plan):
        at = _attractions(d['attraction'])
        a0, b0 = _ab(d['current_city'])
        out += [f"**Day {i + 1}: {r.choice(_gm_titles(d['current_city'], i, n, bool(at)))} ({_df(task, i, 'md')})**", '']
        if a0 == b0 and city_img: out += [f"[Image of {a0} {r.choice(('skyline', 'downtown'))}]", '']
        seen, run = set(), []
        def flush():
            if not run: return
            part = 'Evening' if 'dinner' in seen else 'Afternoon' if 'lunch' in seen else 'Morning'
            tags = ''.join(f" [Image of {_nm(x)}]" for j, x in enumerate(run) if j == 0 or r.random() < 0.3)
            out.append(f"* **{part}:** {r.choice(_GM_SIGHT)} {ph.join.join(ph.venue(x) for x in run)}.{tags}")
            run.clear()
        for _, kind, v in _with_leg(d):
            if kind == 'sight': run.append(v); continue
            flush()
            if kind == 'leg':
                q = _leg_parts(v)
                if q['mode'] == 'flight':
                    out.append(f"* **Travel:** Take flight {q['number']} from {q['a']}, departing at {_pm(q['dep'])}, and arrive in {q['b']} at "
                               f"{_pm(q['arr'])}{' the next day' if q['arr'] < q['dep'] else ''}.")
                elif q['mode'] == 'drive':
                    out.append(f"* **Travel:** Drive from {q['a']} to {q['b']} (approx. {_dur(q['duration'], 'words')}; fuel about ${q['cost']}).")
                else: out.append(f"* **Travel:** Take a taxi from {q['a']} to {q['b']} (approx. {_dur(q['duration'], 'words')}; about ${q['cost']}).")
                continue
            seen.add(kind)
            out.append(f"* **{kind.capitalize()}:** {r.choice(_GM_MEAL[kind])} {ph.venue(v)}{r.choice(_gm_meal_tails(v))}.")
            if (i, kind) in meals:
                pairs.append((meals[(i, kind)], _nm(v)))
                notes.append(f"* **Alternative for Day {i + 1} {kind}:** {meals[(i, kind)]} is popular too, but {r.choice(_GM_WHY['meal'])}.")
        flush()
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            notes.append(f"* **Skipped on Day {i + 1}:** {ph.venue(sights[i][1])} — {r.choice(_GM_WHY['sight'])}.")
        if say_none: out += [f"* **{m.capitalize()}:** {_GM_NONE}" for m in _MEALS if d[m] == '-']
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            out.append(f"* **Accommodation:** Check into {ph.venue(acc)} for {N} night{_ns(N)}.")
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc)))
                tag = f"Night {a + 1}" if a == b else f"Nights {a + 1}–{b + 1}"
                notes.append(f"* **Accommodation note:** {stays[(a, b)]} was considered for {tag}, but it {r.choice(_GM_WHY['stay'])}.")
        elif acc != '-':
            out.append("* **Accommodation:** Return to your accommodation." if unnamed else f"* **Accommodation:** Return to {ph.venue(acc)} for the night.")
        elif i == n - 1 and r.random() < 0.5: out.append("* **Accommodation:** No hotel needed — you'll be heading home.")
        out.append('')
    gen = [x.format(budget=_get(task, 'budget') or 0) for x in _GM_GENERIC if r.random() < 0.6]
    out += ['**Important Considerations:**', ''] + notes + gen + (['* **Weather:** Check the forecast before you go.'] if not notes and not gen else []) + ['']
    return _log('\n'.join(out + [r.choice(_GM_OUTRO).format(dest=dest)]), pairs)


_GM_HEAD = re.compile(r'\*\*Day (?P<k>\d+): (?P<t>.+) \((?P<date>[A-Z][a-z]+ \d+)\)\*\*')
_GM_FL = re.compile(r'Take flight (?P<num>\S+) from (?P<a>.+?), departing at (?P<dep>\d{1,2}:\d\d [AP]M), and arrive in (?P<b>.+) at (?P<arr>\d{1,2}:\d\d [AP]M)(?P<nd> the next day)?\.')
_GM_RD = re.compile(r'(?P<how>Drive|Take a taxi) from (?P<a>.+?) to (?P<b>.+) \(approx\. (?P<dur>.+?); (?P<fuel>fuel )?about \$(?P<cost>\d+)\)\.')
_GM_NOTE = {'meal': re.compile(r'\* \*\*Alternative for Day (?P<k>\d+) (?P<m>breakfast|lunch|dinner):\*\* (?P<y>.+) is popular too, but ' + _alt(_GM_WHY['meal']) + r'\.'),
            'sight': re.compile(r'\* \*\*Skipped on Day (?P<k>\d+):\*\* (?P<s>.+) — ' + _alt(_GM_WHY['sight']) + r'\.'),
            'stay': re.compile(r'\* \*\*Accommodation note:\*\* (?P<z>.+) was considered for (?P<tag>Nights? \d+(?:–\d+)?), but it ' + _alt(_GM_WHY['stay']) + r'\.')}


def _read_gm(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    dest = _get(task, 'dest')
    if L[0] not in [t.format(n=n, org=_get(task, 'org'), dest=dest, budget=_get(task, 'budget') or 0) for t in _GM_INTRO]: errs.append('intro')
    if L[-1] not in [t.format(dest=dest) for t in _GM_OUTRO]: errs.append('outro')
    try: ci = L.index('**Important Considerations:**')
    except ValueError: return [], ['no considerations']
    days, nights, checks, saids, titles, imgs = [], [], [], [], [], []
    for ln in L[1:ci]:
        if ln == '': continue
        if (h := _GM_HEAD.fullmatch(ln)):
            k = len(days) + 1
            if int(h['k']) != k or h['date'] != _df(task, k - 1, 'md'): errs.append(f"head {ln!r}")
            days.append(_blank()); nights.append(None); saids.append([]); titles.append(h['t']); imgs.append(None); continue
        if not days: errs.append(f"line {ln!r}"); continue
        k, g, pre = len(days), days[-1], f"day {len(days)}: "
        if (q := re.fullmatch(r'\[Image of (.+) (?:skyline|downtown)\]', ln)):
            if imgs[-1] is not None or g['leg'] or g['attraction'] or saids[-1]: errs.append(f"{pre}city image")
            imgs[-1] = q[1]; continue
        q = re.fullmatch(r'\* \*\*(Travel|Breakfast|Lunch|Dinner|Morning|Afternoon|Evening|Accommodation):\*\* (.+)', ln)
        if not q: errs.append(f"{pre}line {ln!r}"); continue
        w, x = q[1], q[2]
        if nights[-1] is not None: errs.append(f"{pre}{w} after the night")
        if w == 'Travel':
            if (m := _GM_FL.fullmatch(x)):
                dep, arr = _un_pm(m['dep']), _un_pm(m['arr'])
                if bool(m['nd']) != (arr < dep): errs.append(f"{pre}next day")
                _put(g, 'leg', _flight(m['num'], m['a'], m['b'], dep, arr), errs, pre)
            elif (m := _GM_RD.fullmatch(x)) and bool(m['fuel']) == (m['how'] == 'Drive'):
                _put(g, 'leg', _road_key('drive' if m['how'] == 'Drive' else 'taxi', m['a'], m['b'], _undur(m['dur'], 'words'), m['cost']), errs, pre)
            else: errs.append(f"{pre}travel {x!r}")
        elif w in ('Breakfast', 'Lunch', 'Dinner'):
            m_ = w.lower()
            _said(saids[-1], m_, errs, pre)
            if x == _GM_NONE: continue
            verb = next((vb for vb in _GM_MEAL[m_] if x.startswith(vb + ' ')), None)
            if verb is None or not x.endswith('.'): errs.append(f"{pre}{m_} {x!r}"); continue
            body = x[len(verb) + 1:-1]
            v = None
            if (c := re.fullmatch(r'(?P<v>.+), known for its (?P<c>.+) options', body)):
                try:
                    v = _unvenue(ph, c['v'])
                    if _cuisine(v) != c['c']: v = None
                except ValueError: v = None
            if v is None:
                bl = next(b for b in _GM_BLURB if body.endswith(b))
                v = _unvenue(ph, body[:len(body) - len(bl)] if bl else body)
            _put(g, m_, v, errs, pre)
        elif w in ('Morning', 'Afternoon', 'Evening'):
            want = 'Evening' if g['dinner'] != '-' else 'Afternoon' if g['lunch'] != '-' else 'Morning'
            if w != want: errs.append(f"{pre}{w} for {want}")
            m = re.fullmatch(r'(?P<verb>' + '|'.join(_GM_SIGHT) + r') (?P<s>.+?)\.(?P<tags>(?: \[Image of [^\[\]]+\])+)', x)
            if not m: errs.append(f"{pre}sights {x!r}"); continue
            vs = [_unvenue(ph, s) for s in m['s'].split(ph.join)]
            tags = re.findall(r' \[Image of ([^\[\]]+)\]', m['tags'])
            if not tags or tags[0] != _nm(vs[0]) or any(t not in [_nm(v) for v in vs] for t in tags) or len(set(tags)) != len(tags):
                errs.append(f"{pre}image tags {tags!r}")
            g['attraction'] += vs
        else:
            if (m := re.fullmatch(r'Check into (?P<v>.+) for (?P<N>\d+) (?P<w>nights?)\.', x)) and (m['N'] == '1') == (m['w'] == 'night'):
                nights[-1] = ('start', int(m['N']), _unvenue(ph, m['v']))
            elif x == 'Return to your accommodation.': nights[-1] = ('again', None)
            elif (m := re.fullmatch(r'Return to (?P<v>.+) for the night\.', x)): nights[-1] = ('again', _unvenue(ph, m['v']))
            elif x == "No hotel needed — you'll be heading home.":
                if k != n: errs.append(f"{pre}home before the end")
                nights[-1] = ('home',)
            else: errs.append(f"{pre}accommodation {x!r}")
    for g in days:    # the route: a travel day's from its leg, a day in one city from its title
        if g['leg']:
            a, b = g['leg'][2:4] if g['leg'][0] == 'flight' else g['leg'][1:3]
            g['current_city'] = f"from {a} to {b}"
    for i, (g, t) in enumerate(zip(days, titles)):
        if not g['leg']:
            c = next((c for c in (t.removeprefix('Exploring ').removeprefix('Sights & Local Eats in ').removeprefix('A Full Day in ')
                                  .removeprefix('A Relaxed Day in '),) if c in _cities()), None)
            g['current_city'] = c
        if g['current_city'] is None or t not in _gm_titles(g['current_city'], i, len(days), bool(g['attraction'])): errs.append(f"day {i + 1}: title {t!r}")
        if imgs[i] is not None and imgs[i] != g['current_city']: errs.append(f"day {i + 1}: city image {imgs[i]!r}")
    for ln in L[ci + 2:-2]:
        if (q := _GM_NOTE['meal'].fullmatch(ln)): checks.append(('meal', int(q['k']), q['m'], q['y'], None, 'alternative: '))
        elif (q := _GM_NOTE['sight'].fullmatch(ln)): checks.append(('sight', int(q['k']), *_name_city(_unvenue(ph, q['s'])), 'skipped: '))
        elif (q := _GM_NOTE['stay'].fullmatch(ln)):
            m = re.fullmatch(r'Nights? (\d+)(?:–(\d+))?', q['tag'])
            a, b = int(m[1]), int(m[2] or m[1])
            if (b > a) != q['tag'].startswith('Nights'): errs.append(f"tag {q['tag']!r}")
            checks.append(('stay', a, b, q['z'], None, 'considered: '))
        elif ln in [x.format(budget=_get(task, 'budget') or 0) for x in _GM_GENERIC] + ['* **Weather:** Check the forecast before you go.']: pass
        else: errs.append(f"note {ln!r}")
    if L[ci + 1] != '' or L[-2] != '': errs.append('considerations')
    _apply_nights(days, [None if x and x[0] == 'home' else x for x in nights], errs)
    _resolve(days, checks, errs)
    return days, errs


HELDOUT18_LAYOUTS = {f.__name__: f for f in (time_activity_notes, where_to_sublists, agent_letter, booked_checklist, it_nl_pl_tr_prose,
                                              perplexity_citations, lettered_outline, gemini_image_tags)}
"""Held-out part v18 (layouts and `HELDOUT18_PHRASES`, rendered with `Phr18`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr18(HELDOUT18_PHRASES, random.Random(f"heldout18:{name}:{t.idx}:{j}"), p)


def renderings18(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout18:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT18_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser (`_read_*`, above, next to its renderer), written for the layout (not a general reader):
# each rendering is read back into the plan's own values — the route as current_city ('from A to B' | 'A'), the leg as
# its parts (flight number, cities, times; or mode, cities, duration, cost), each meal and the stay as 'Name, City' or
# '-', the sights as ['Name, City', ...] — and compared with the plan EXACTLY (`_cmp` of layouts_v8). Decoys are resolved
# as the text says, and checked against what it states elsewhere (`layouts_v16._resolve`).
_READERS = {'time_activity_notes': _read_ta, 'where_to_sublists': _read_wt, 'agent_letter': _read_al, 'booked_checklist': _read_bc,
            'it_nl_pl_tr_prose': _read_lg, 'perplexity_citations': _read_px, 'lettered_outline': _read_lo, 'gemini_image_tags': _read_gm}


def _check_one(name, task, plan, text, ph) -> list[str]:
    """Errors of one rendering (empty = it states exactly the plan, as far as this reader-free check can tell): a
    placeholder the plan does not have ('None', 'nan', 'null', braces), the reader's own errors, any difference from the
    plan (`layouts_v8._cmp`), or a text that does not parse back."""
    errs = []
    plan_text = ' '.join(str(v) for d in plan for v in d.values())
    for bad in (r'\bNone\b', r'\bnan\b', r'\bnull\b', '[{}]'):
        if re.search(bad, text) and not re.search(bad, plan_text): errs.append(f"{bad!r} in the text")
    try:
        got, e = _READERS[name](text, task, plan, ph)
        return errs + e + _cmp(plan, got)
    except (IndexError, KeyError, ValueError, TypeError, AttributeError, AssertionError, StopIteration) as e:
        return errs + [f"does not parse back: {e!r}"]

# ---------------------------------------------------------------------------------------------------------- corruptions
def _relabel(name, ph, text):
    "The text with its first lunch made a dinner (its label, word, row or sentence), else None."
    Lp, Dp = ph.meal_prefix('Lunch'), ph.meal_prefix('Dinner')
    if name == 'time_activity_notes':
        for a, b in (('| 🥪 Lunch |', '| 🍽️ Dinner |'), ('| Lunch |', '| Dinner |')):
            if (s := _first_line_sub(text, lambda ln: ln.startswith('| '), a, b)): return s
    if name in ('where_to_sublists', 'perplexity_citations'): return _first_line_sub(text, lambda ln: ln.startswith('- '), '- ' + Lp, '- ' + Dp)
    if name == 'booked_checklist': return _first_line_sub(text, lambda ln: ln.startswith('- ['), '] ' + Lp, '] ' + Dp)
    if name == 'agent_letter':
        subs = [(a.split('{')[0], b.split('{')[0]) for a, b in zip(_AL_T['lunch'], _AL_T['dinner'])]
        subs = [(text.find(a), a, b) for a, b in subs if a in text]
        for j, a, b in sorted(subs)[:1]: return text[:j] + b + text[j + len(a):]
    if name == 'it_nl_pl_tr_prose' and (lg := _lang(text)):
        T = _LG18[lg]['T']
        subs = [(a.split('{')[0], b.split('{')[0]) for a, b in zip(T['lunch'], T['dinner'])]
        subs = [(text.find(a), a, b) for a, b in subs if a in text]
        for j, a, b in sorted(subs)[:1]: return text[:j] + b + text[j + len(a):]
    if name == 'lettered_outline': return _first_line_sub(text, lambda ln: ') Meals: ' in ln, ' (lunch)', ' (dinner)')
    if name == 'gemini_image_tags':
        for a, b in (('* **Lunch:** Have lunch at', '* **Dinner:** Have dinner at'), ('* **Lunch:** Enjoy lunch at', '* **Dinner:** Enjoy dinner at')):
            if (s := _first_line_sub(text, lambda ln: True, a, b)): return s
    return None


def _drop_day(name, text, task, k=1):
    "The text without the k-th day (0-based) it states: its section, paragraph, block or lines."
    kk = k + 1
    if name == 'time_activity_notes':
        return _cut_lines(text, lambda ln: ln.startswith('### '), lambda ln: bool(re.match(rf'### (?:🗓️ )?Day {kk}\b', ln)), stop=lambda ln: ln in _TA_OUTRO)
    if name == 'where_to_sublists': return _cut_lines(text, lambda ln: ln.startswith('## '), lambda ln: ln.startswith(f"## Day {kk} — "))
    if name == 'agent_letter':
        P = text.split('\n\n')
        return '\n\n'.join(P[:3 + k] + P[4 + k:])
    if name == 'booked_checklist':
        return _cut_lines(text, lambda ln: ln.startswith('## '), lambda ln: bool(re.match(rf'## \S+ Day {kk} · ', ln)),
                          stop=lambda ln: ln.startswith('### ') or ln in _BC_OUTRO)
    if name == 'it_nl_pl_tr_prose':
        P = text.split('\n\n')
        return '\n\n'.join(P[:k + 1] + P[k + 2:])
    if name == 'perplexity_citations': return _cut_lines(text, lambda ln: ln.startswith('## '), lambda ln: ln.startswith(f"## Day {kk}: "))
    if name == 'lettered_outline':
        return _cut_lines(text, lambda ln: bool(re.match(r'\d+\. Day ', ln)), lambda ln: ln.startswith(f"{kk}. Day {kk} — "), stop=lambda ln: ln == '')
    if name == 'gemini_image_tags':
        return _cut_lines(text, lambda ln: ln.startswith('**Day '), lambda ln: ln.startswith(f"**Day {kk}: "), stop=lambda ln: ln == '**Important Considerations:**')
    return None


def _time_shift(name, plan, text, ph):
    "The first flight's departure moved a minute, in the layout's clock, where the layout states it."
    fl = [_leg_parts(d['transportation']) for d in plan if d['transportation'].startswith('Flight')]
    if not fl: return None
    p = fl[0]
    dep, new, num, a = p['dep'], _shift(p['dep']), p['number'], p['a']
    if name == 'time_activity_notes': return _first_line_sub(text, lambda ln: f"| ✈️ Flight {num} |" in ln, f"| {_pm(dep)} |", f"| {_pm(new)} |")
    if name == 'where_to_sublists': return _first_line_sub(text, lambda ln: f"Flight {num} from " in ln, f"departing {dep} and", f"departing {new} and")
    if name == 'agent_letter': return _first_line_sub(text, lambda ln: num in ln, f"{a} at {dep}", f"{a} at {new}")
    if name == 'booked_checklist': return _first_line_sub(text, lambda ln: f"Flight {num} · " in ln, f"dep {dep} → arr", f"dep {new} → arr")
    if name == 'it_nl_pl_tr_prose' and (lg := _lang(text)):
        return _first_line_sub(text, lambda ln: f" {num}" in ln, _lclock(lg, dep), _lclock(lg, new))
    if name == 'perplexity_citations': return _first_line_sub(text, lambda ln: f"Flight {num} departs" in ln, f"{a} at {dep} and", f"{a} at {new} and")
    if name == 'lettered_outline': return _first_line_sub(text, lambda ln: f"flight {num}, " in ln, f"{a} ({dep}) →", f"{a} ({new}) →")
    if name == 'gemini_image_tags': return _first_line_sub(text, lambda ln: f"flight {num} from" in ln, f"departing at {_pm(dep)},", f"departing at {_pm(new)},")
    return None


def _decoy_promotions(name, plan, text, task, ph):
    "[(what, text)]: a decoy taken for the plan, coherently (its name and the kept one's traded), and the layout's own ways."
    out = []
    for y, x in _DECOY_LOG.get(text, []):
        if (s := _swap(text, y, x)): out.append(("a decoy's name traded with the kept one", s)); break
    lines = text.split('\n')
    if name == 'lettered_outline':
        for j, ln in enumerate(lines):
            if (q := re.fullmatch(r'(   \([a-z]\) )Not included: (?P<s>.+) — ' + _alt(_LO_WHY['sight']) + r'\.', ln)):
                out.append(("a sight not included visited", '\n'.join(lines[:j] + [f"{q[1]}Sightseeing: {q['s']}."] + lines[j + 1:]))); break
    if name == 'booked_checklist' and _BC_EXTRA_HEAD in lines:
        j = lines.index(_BC_EXTRA_HEAD)
        if any(_BC_EX['meal'].fullmatch(ln) or _BC_EX['sight'].fullmatch(ln) for ln in lines[j + 1:]):
            out.append(("the optional extras taken into the last day", '\n'.join(lines[:j - 1] + lines[j + 1:])))
    if name == 'gemini_image_tags':
        for j, ln in enumerate(lines):
            if (q := _GM_NOTE['sight'].fullmatch(ln)):
                k = int(q['k'])
                h = next(x for x, l2 in enumerate(lines) if l2.startswith(f"**Day {k}: "))
                e = next(x for x in range(h + 2, len(lines)) if lines[x] == '')
                new = lines[:e] + [f"* **Evening:** Visit {q['s']}. [Image of {_nm(_unvenue(ph, q['s']))}]"] + lines[e:]
                out.append(("a skipped sight visited", '\n'.join(new[:j + 1] + new[j + 2:]))); break
    return out


def _longer_stay(name, plan, text, task, ph):
    "A stay made one night longer where a layout states its nights."
    rx = {'time_activity_notes': r'(?m)^\| [^\n]* \| 🏨 Check in \| [^\n]* \| (\d+) nights?',
          'where_to_sublists': r'(?m)^\*\*Where to stay:\*\* .+ \((\d+) nights?', 'agent_letter': r'reserved (\d+) nights?',
          'booked_checklist': r'🏨 Check in at .+ — (\d+) nights?, paid',
          'it_nl_pl_tr_prose': r'\((\d+) (?:notte|notti|nacht|nachten|noc|noce|nocy|gece)\)\.',
          'perplexity_citations': r'- \*\*Stay:\*\* .+ — (\d+) nights?', 'lettered_outline': r'— check-in, (\d+) nights?\.',
          'gemini_image_tags': r'Check into .+ for (\d+) nights?\.'}[name]
    return _bump(text, rx)


def mutations(name, plan, text, task, ph):
    """[(kind, what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a
    flight renumbered, sights of two days swapped, two stays swapped (`layouts_v8._common_mutations`), a lunch labelled
    dinner, a day dropped, a flight's departure moved (in the layout's clock), decoys promoted and a stay made a night
    longer (see `_relabel`, `_drop_day`, `_time_shift`, `_decoy_promotions`, `_longer_stay`)."""
    out = _common_mutations(plan, text)
    if (s := _relabel(name, ph, text)): out.append(('a lunch labelled dinner', '', s))
    if (s := _drop_day(name, text, task, 1)) is not None: out.append(('a day dropped', 'day 2', s))
    if (s := _time_shift(name, plan, text, ph)): out.append(("a flight's departure moved", '', s))
    out += [('decoy promoted', w, s) for w, s in _decoy_promotions(name, plan, text, task, ph)]
    if (s := _longer_stay(name, plan, text, task, ph)): out.append(("a stay made a night longer", '', s))
    return [x for x in out if x[2] != text]


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    "The part's self-check (`layouts.selfcheck_part`): failures + missed corruptions."
    return selfcheck_part(HELDOUT18_LAYOUTS, _phr, _check_one, mutations, lambda lay, text: bool(_DECOY_LOG.get(text)), plans, mutate_every)


if __name__ == '__main__':
    part_cli(__doc__, HELDOUT18_LAYOUTS, _phr, selfcheck)
