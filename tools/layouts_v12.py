#!/usr/bin/env python
"""Held-out part v12 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their notebooks
(04a, 04b, 05), tests (test_grounded*, test_layout*, test_robustness*) or results/formatter/* were opened, no reader was
run on these texts, and `tools/layouts.py measure` / `record` were not run). Only tools/layouts.py (its interface and its
layouts' source, to avoid repeating them), tools/agreement.py (`_leg_parts`, `_attractions`), tools/layouts_v5.py ...
layouts_v11.py (their structure and layouts; generic helpers of v8, v9 and v10 are imported) and the `EvalIndex` class of
star/evaluator.py (its lookup interface) were read. SEALED: this part is to be scored ONCE by the lead (via
tools/layouts.py, part 'heldout12', once registered there) and never tuned on before that score.

    python tools/layouts_v12.py check                    # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (the thread's numbered posts and
                                                         # their corrections, the ReAct log's tentative picks and
                                                         # switches and its final answer, the booking checklist cross-
                                                         # checked with the day plan's #refs, the Swedish / Czech /
                                                         # Greek / Thai labels, dates (Buddhist era in Thai) and times,
                                                         # the 24-hour timeline whose meals are known only by the time
                                                         # of day, the box-drawing tree re-rendered from its parse, the
                                                         # callouts and their "not booked" warnings, the Markdown /
                                                         # HTML definition lists) into the plan's own values (venue
                                                         # 'Name, City', route, leg parts) and compared with the plan
                                                         # EXACTLY; then corruptions (a name deleted, lunches swapped, a
                                                         # day dropped, a decoy promoted, a flight time moved, a stay
                                                         # lengthened, ...) must be caught. 315 plans x 8 layouts =
                                                         # 2,520 renderings, 19,225 corruptions, ~30 s
    python tools/layouts_v12.py check --limit 40         # the same on the first 40 known plans
    python tools/layouts_v12.py show react_trace --n 1   # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how chat models and tool-using agents answer "plan me a 3/5/7-day trip", in styles that none of
tools/layouts.py, tools/layouts_v5.py ... tools/layouts_v11.py has (see each renderer's docstring):

* `tweet_thread`         the plan drafted as an X / Twitter thread: numbered posts ("3/11 📅 Day 2 (Thu 3/17): Rockford"
                         or a "**Post 3/11**" line above each post), each under 280 characters, a long day continued in
                         a "📅 Day 2 (cont.)" post; "✈️ F1 A → B, 15:40–17:04", "☕ / 🥪 / 🍝" meals in the drawn label,
                         "📍 X ➡️ Y", "🛏 W"; an intro post and a closing post with hashtags; in some renderings a
                         DECOY: a day post names a first pick that a later post corrects ("⚠️ Correction to 3/11: Day 2
                         lunch is at X, not Y — ...", "... for the nights of day 1–2 we're at W, not Z — ...")
* `react_trace`          a tool-using agent's ReAct log (Thought k / Action k / Observation k) in the TravelPlanner
                         tools' style — FlightSearch (the task's own flights), GoogleDistanceMatrix (the road row),
                         AccommodationSearch / RestaurantSearch / AttractionSearch (database rows printed as DataFrames:
                         many names the plan does not use), NotebookWrite, Planner — then "Final Answer:" with the plan
                         ("Day 2 | 2022-03-17 | Rockford", "  • Transport: Flight F1 (A → B), 15:40–17:04", meals in the
                         drawn label, "  • Sights: ...", "  • Stay: ..."); DECOYS: tentative picks ("Tentatively, Y for
                         Day 2 lunch.") later switched ("Re-checking: ... — switching Day 2 lunch from Y to X.")
* `booking_confirmations` an agent that booked the trip: a numbered checklist of bookings first ("3. ✅ **Lunch** · X ·
                         Thu, Mar 17 · table for 2 · ref `Q7K2ZD`", "☑️ ... walk-in", "☑️ **Self-drive** ... nothing to
                         book", stays with check-in → check-out and nights), DECOYS as failed bookings ("2. ❌ **Stay** ·
                         Y · ... · no availability → booked #3 instead"); then the day-by-day plan whose items point
                         back to the bookings ("- ✈️ Flight F1 (#1)" — the flight's route and times only in the
                         checklist —, "- 🥪 Lunch: X (#4)", "- 🛏️ W (#3)")
* `sv_cs_el_th_labels`   the answer in Swedish, Czech, Greek or Thai (drawn): "### Dag 2 · torsdag 17 mars 2022 · Rockford",
                         "### Den 2 · čtvrtek 17. března 2022 · ...", "### Ημέρα 2 · Πέμπτη 17 Μαρτίου 2022 · ...",
                         "### วันที่ 2 · วันพฤหัสบดีที่ 17 มีนาคม 2565 · ..." (the Buddhist-era year); "•" lines with
                         localized labels (Resa / Frukost / Sevärdheter / Lunch / Middag (= DINNER) / Boende, Doprava /
                         Snídaně / Památky / Oběd (= lunch) / Večeře / Ubytování, Μετακίνηση / Πρωινό / Αξιοθέατα /
                         Μεσημεριανό / Βραδινό / Διαμονή, การเดินทาง / อาหารเช้า / สถานที่เที่ยว / อาหารกลางวัน /
                         อาหารเย็น / ที่พัก), legs translated with Swedish times "15.40" and Thai "15:40 น.", durations
                         translated; the drawn venue placement's 'in' and 'USA' translated; names verbatim
* `clock_only_timeline`  per day a bold head, the leg on its own line, then a 24-HOUR TIMELINE with NO meal words: each
                         line a time range and a name ("07:30–08:15  X 📌 Rockford" in a ```text block, or "- `12:30–13:30`
                         Y"): the meals are known only by the time of day (morning, midday, evening slots), the sights
                         fill the hours between, the night "22:00  🛏 W"; an empty meal's slot "—" or left out
* `ascii_tree`           the whole trip as a box-drawing tree (```text, "├── ", "│   ", "└── ") as `tree` prints it: the
                         trip, its days, under each day the leg, meals in the drawn label, the sights (one line in the
                         drawn join, or a "📍 Sights" node with one child per sight) and the night; or grouped nodes
                         ("🚦 Getting there", "🍽️ Meals", "📍 Sights", "🛏️ Night"); in some renderings the stays only in a
                         closing "🛏️ Stays" branch ("W — Nights of Day 1–2 (check-out Fri 18 Mar)")
* `callout_blocks`       each day a GitHub alert / Obsidian callout ("> [!NOTE]" + "> **Day 2 · Thursday, March 17 ·
                         Rockford**", or "> [!abstract]- Day 2 · ..." collapsible) holding "> - " items ("✈️ Flight F1 from
                         A to B — departs 15:40, lands 17:04", meals in the drawn label, sights in one line or nested
                         ">   - " items, "🛏️ W"); DECOY callouts "> [!WARNING]" / "> [!warning] Considered, not booked"
                         ("> **Y** for lunch on Day 2 — ...; lunch stays at **X**."), "> [!TIP]" callouts without names
* `definition_list`      a definition list, Markdown Extra / Pandoc ("Getting there" / ":   ✈️ Flight F1, A → B, 15:40 →
                         17:04", "Lunch" / ":   X", "Sights" with one ":   " definition per sight, "Overnight") under
                         "## Day 2 — Thursday 17 March 2022 — Rockford", or HTML (```html, "<h3>", "<dl>", "<dt>", "<dd>",
                         names HTML-escaped as HTML must: '&' -> '&amp;', '<', '>'); meal terms in the drawn label word
                         ("Lunchtime"); an empty meal ":   —" or left out

Phrasings (`HELDOUT12_PHRASES`, drawn per rendering by `Phr12`): venue placed as 'X in City (TX)', 'X 📌 City',
'X, City, TX, USA' (the state only for cities the database places in a US state) or 'X, City' ('in' and 'USA' translated in
sv_cs_el_th_labels); several sights joined by ' ➡️ ', ' ❯ ', ', and from there ' or ', next ' (the last two translated in
sv_cs_el_th_labels; used where a layout puts the sights on one line); meal labels 'Grab lunch at X', '**Lunch** — X',
'Lunchtime: X' ('Breakfast time', 'Dinnertime') or 'Lunch: X' (everywhere but the translated labels, the timeline
without meal words, the booking checklist's categories and the definition terms, which take only the label word). Every
rendering states the whole plan: each day's route, the leg (flight number and times, or self-drive / taxi with duration
and cost), each meal's restaurant (or none: absent, or said to be none), each attraction and the accommodation; names
are verbatim (words are only added around them; HTML escapes what HTML must); the noise (intros, hashtags, the agent's
observations, failed bookings, warnings, tips, confirmation codes) never contradicts the plan.
"""
from __future__ import annotations

import datetime, math, random, re, string, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _POSTAL_OF, _name_city, known_plans, part_cli, selfcheck_part            # noqa: E402
from layouts_v8 import (_check_with, _common_mutations, _DAY_SPAN, _MEALS, _all_said, _blank, _cmp, _date, _get, _index, _people, _put,  # noqa: E402
                        _road_key, _said, _swap)
from layouts_v9 import _back, _nights, _revision_decoys, _rt  # noqa: E402
from layouts_v10 import _day_runs, _flight, _nm, _with_name  # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT12_PHRASES = {
    'locative': ('in_paren_st', 'pushpin', 'addr_usa', 'comma'),      # 'X in City (TX)' | 'X 📌 City' | 'X, City, TX, USA' | 'X, City'
    'join': (' ➡️ ', ' ❯ ', ', and from there ', ', next '),
    'meal_label': ('grab', 'bold_dash', 'time_word', 'colon'),        # 'Grab lunch at X' | '**Lunch** — X' | 'Lunchtime: X' | 'Lunch: X'
}
_IN = {'en': ' in ', 'sv': ' i ', 'cs': ' ve městě ', 'el': ' στην πόλη ', 'th': ' ใน '}
_USA = {'en': 'USA', 'sv': 'USA', 'cs': 'USA', 'el': 'ΗΠΑ', 'th': 'สหรัฐฯ'}
_TIME_WORD = {'Breakfast': 'Breakfast time', 'Lunch': 'Lunchtime', 'Dinner': 'Dinnertime'}


def _venue(ph, v: str, lg: str = 'en') -> str:
    "A venue 'Name, City' as `ph` places it (in language `lg`: its word for 'in' and for 'USA')."
    n, c = _name_city(v)
    if not c: return n
    st = _POSTAL_OF.get(c)
    if ph.loc == 'in_paren_st': return f"{n}{_IN[lg]}{c} ({st})" if st else f"{n}{_IN[lg]}{c}"
    if ph.loc == 'pushpin': return f"{n} 📌 {c}"
    if ph.loc == 'addr_usa': return f"{n}, {c}, {st}, {_USA[lg]}" if st else f"{n}, {c}, {_USA[lg]}"
    return f"{n}, {c}"


def _unvenue(ph, s: str, lg: str = 'en') -> str:
    "'Name, City' of a venue as `_venue` writes it; a placement that is not the drawn one is an error."
    if ph.loc == 'in_paren_st':
        m = re.fullmatch(r'(.+)' + re.escape(_IN[lg]) + r'(.+) \(([A-Z]{2})\)', s, re.S)
        if m and _POSTAL_OF.get(m[2]) == m[3]: return f"{m[1]}, {m[2]}"
        n, sep, c = s.rpartition(_IN[lg])
        if not sep or not n or c in _POSTAL_OF: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        return f"{n}, {c}"
    if ph.loc == 'pushpin':
        n, sep, c = s.rpartition(' 📌 ')
        if not sep or not n or not c: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        return f"{n}, {c}"
    if ph.loc == 'addr_usa':
        tail = ', ' + _USA[lg]
        if not s.endswith(tail): raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        rest = s[:-len(tail)]
        a, sep, st = rest.rpartition(', ')
        n, sep2, c = a.rpartition(', ')
        if sep and sep2 and n and _POSTAL_OF.get(c) == st: return a
        n, sep, c = rest.rpartition(', ')
        if not sep or not n or c in _POSTAL_OF: raise ValueError(f"venue {s!r}: city without its state")
        return rest
    if ', ' not in s: raise ValueError(f"venue {s!r} without its city")
    return s


class Phr12(Phr):
    "`Phr` with the v12 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        if self.loc in HELDOUT12_PHRASES['locative']: return _venue(self, v)
        return super().venue(v)

    def meal_prefix(self, label: str) -> str:
        "The words before a meal's venue: 'Grab lunch at ' | '**Lunch** — ' | 'Lunchtime: ' | 'Lunch: '."
        if self.label == 'grab': return f"Grab {label.lower()} at "
        if self.label == 'bold_dash': return f"**{label}** — "
        if self.label == 'time_word': return f"{_TIME_WORD.get(label, label)}: "
        return f"{label}: "

    def meal_word(self, label: str) -> str:
        "The label word alone (a definition term): 'Lunchtime' for 'time_word', else 'Lunch'."
        return _TIME_WORD.get(label, label) if self.label == 'time_word' else label

    def meal(self, label: str, v: str) -> str: return self.meal_prefix(label) + self.venue(v)


PHR12 = Phr12

# -------------------------------------------------------------------------------------------------------------- helpers
def _fmt(d: datetime.date, f: str) -> str:
    """'us' 'Thu 3/17' | 'mon' 'Thu, Mar 17' | 'dm' 'Thu 17 Mar' | 'slash' 'Thu 17/03' | 'long' 'Thursday, March 17' |
    'ukyear' 'Thursday 17 March 2022' | 'iso'."""
    return {'us': f"{d:%a} {d.month}/{d.day}", 'mon': f"{d:%a}, {d:%b} {d.day}", 'dm': f"{d:%a} {d.day} {d:%b}",
            'slash': f"{d:%a} {d:%d}/{d:%m}", 'long': f"{d:%A}, {d:%B} {d.day}", 'ukyear': f"{d:%A} {d.day} {d:%B} {d.year}",
            'iso': d.isoformat()}[f]


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


def _unitems(ph, s: str, join=None, lg='en') -> list[str]: return [_unvenue(ph, x, lg) for x in s.split(join or ph.join)]


def _alt(xs) -> str: return '(?:' + '|'.join(map(re.escape, xs)) + ')'


def _span_text(d0: datetime.date, d1: datetime.date) -> str:
    return f"{d0:%b} {d0.day}–{d1.day}" if d0.month == d1.month else f"{d0:%b} {d0.day}–{d1:%b} {d1.day}"


def _stay_once(seen: list, k: int, errs: list):
    if seen: errs.append(f"day {k}: stay stated twice")
    seen.append(True)


def _pairs(s: str, sep: str):
    "Every (left, right) split of `s` at one occurrence of `sep` (names may hold the separator)."
    out, j = [], s.find(sep)
    while j >= 0:
        out.append((s[:j], s[j + len(sep):]))
        j = s.find(sep, j + 1)
    return out

# -------------------------------------------------------------------------------------------------------------- layouts
_TW_INTRO = ("Here's your itinerary as a ready-to-post thread (each post stays under 280 characters):",
             "Drafted the trip as an X/Twitter thread, as you asked — copy each block as one post:")
_TW_OUTRO = ("Want me to trim any post or add photo suggestions?", "Tip: schedule the thread in the app so the posts go out in order.")
_TW_TAGS = ('#travel #itinerary', '#roadtrip #budgettravel', '#travelthread #tripplanning')
_TW_WHY_MEAL = ('it turns out to be closed that day', "they couldn't take our reservation", 'it was over the food budget')
_TW_WHY_STAY = ('the first booking fell through', 'the listing was taken down', 'it had no rooms left for those nights')
_TW_ICON = {'breakfast': '☕', 'lunch': '🥪', 'dinner': '🍝'}
_TW_LIM = 280


def _tw_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ {p['number']} {p['a']} → {p['b']}, {p['dep']}–{p['arr']}"
    return f"{'🚕 taxi' if p['mode'] == 'taxi' else '🚗 self-drive'} {p['a']} → {p['b']} (~{p['duration']}, ${p['cost']})"


def _tw_intro(plan, task) -> str:
    n, ppl, budget = len(plan), _people(task), _get(task, 'budget')
    return (f"🧵 {n} days from {_get(task, 'org')} to {_get(task, 'dest')}, {_span_text(_date(task, 0), _date(task, n - 1))}, "
            f"{ppl} traveller{'s' * (ppl != 1)}" + (f", ${budget:,} budget" if isinstance(budget, (int, float)) else '') +
            ". The full plan, day by day 👇")


def tweet_thread(plan, task, ph):
    """The plan as an X / Twitter thread a chat model drafts for the user: an intro post ("🧵 3 days from A to B, Mar 16–18,
    ..."), then per day one post (or more: "📅 Day 2 (cont.)" when a day runs past 280 characters) — "📅 Day 2 (Thu 3/17):
    Rockford", "✈️ F1 A → B, 15:40–17:04" / "🚗 self-drive A → B (~3 hours 11 mins, $120)", "☕ Grab breakfast at X" (the
    drawn label), "📍 Y ➡️ Z" (the drawn join; one "📍" line per sight when long), "🥪 ...", "🍝 ...", "🛏 W" / "🛏 none,
    heading home"; an empty meal "🥪 no lunch planned" or left out. Posts numbered "3/11 " at the start or under a
    "**Post 3/11**" line. DECOYS: a day post with a first pick, corrected by a later post ("⚠️ Correction to 3/11: Day 2
    lunch is at X, not Y — ...", "⚠️ Correction to 2/11: for the nights of day 1–2 we're at W, not Z — ..."); a closing
    post with hashtags."""
    r = ph.rng
    hdr, say_none = r.random() < 0.5, r.random() < 0.4
    meals, stays, _ = _revision_decoys(plan, r, (0, 1, 1))
    stay_dec = lambda i: next((x for (a, b), x in stays.items() if a <= i <= b), None)
    n = len(plan)
    tweets, where = [[_tw_intro(plan, task)]], {}
    for i, d in enumerate(plan):
        lines = [(None, f"📅 Day {d['days']} ({_fd(task, i, 'us')}): {_rt(d['current_city'])}")]
        if d['transportation'] != '-': lines.append((None, _tw_leg(d['transportation'])))
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if m == 'lunch' and at:
                s = f"📍 {ph.items(at)}"
                lines += [(None, s)] if len(s) <= 200 else [(None, f"📍 {ph.venue(x)}") for x in at]
            if d[m] != '-':
                v = _with_name(d[m], meals[(i, m)]) if (i, m) in meals else d[m]
                lines.append((m, f"{_TW_ICON[m]} {ph.meal(m.capitalize(), v)}"))
            elif say_none: lines.append((m, f"{_TW_ICON[m]} no {m} planned"))
        acc = d['accommodation']
        if acc != '-': lines.append(('accommodation', f"🛏 {ph.venue(_with_name(acc, stay_dec(i)) if stay_dec(i) else acc)}"))
        else: lines.append(('accommodation', '🛏 none, heading home' if i == n - 1 else '🛏 none booked'))
        cur = []
        for key, s in lines:
            if len(cur) > 1 and len('\n'.join([x for _, x in cur] + [s])) + 8 > _TW_LIM:
                tweets.append([x for _, x in cur])
                cur = [(None, f"📅 Day {d['days']} (cont.)")]
            cur.append((key, s))
            if key: where[(i, key)] = len(tweets)
        tweets.append([x for _, x in cur])
    fixes = sorted([(i, 0, m, y) for (i, m), y in meals.items()] + [(a, 1, b, y) for (a, b), y in stays.items()])
    N = len(tweets) + len(fixes) + 1
    for i, kind, x, y in fixes:
        if kind == 0:
            tweets.append([f"⚠️ Correction to {where[(i, x)] + 1}/{N}: Day {plan[i]['days']} {x} is at {ph.venue(plan[i][x])}, "
                           f"not {y} — {r.choice(_TW_WHY_MEAL)}."])
        else:
            tweets.append([f"⚠️ Correction to {where[(i, 'accommodation')] + 1}/{N}: for the {_nights(plan, i, x).lower()} we're at "
                           f"{ph.venue(plan[i]['accommodation'])}, not {y} — {r.choice(_TW_WHY_STAY)}."])
    tweets.append([f"That's the whole trip ✨ Questions? Reply below. {r.choice(_TW_TAGS)}"])
    blocks = [('\n'.join([f"**Post {j}/{N}**"] + tw) if hdr else '\n'.join([f"{j}/{N} {tw[0]}"] + tw[1:]))
              for j, tw in enumerate(tweets, 1)]
    return '\n\n'.join([r.choice(_TW_INTRO)] + blocks + [r.choice(_TW_OUTRO)])


_RT_INTRO = ("Here's the full agent run (ReAct log) — the plan is the final answer at the end:",
             "Agent trace for your request, tool calls included; the last block is the answer:")
_RT_OUTRO = ("Let me know if you want the agent to re-plan any day.", "All prices come from the tools' results above.")
_RT_WHY_MEAL = ("it pushes the food budget too far", "it is closed on that day", "it repeats a cuisine from the day before")
_RT_WHY_STAY = ("its minimum stay is longer than our nights", "its house rules don't fit this trip", "it is over budget for those nights")
_RT_WHY_SIGHT = ("the day is too packed", "it needs more time than the day has")
_RT_NB = "The information has been recorded in Notebook, and its index is {}."
_RT_TABLES = (('Accommodations', 'AccommodationSearch', 'accommodations', ('NAME', 'price', 'room type', 'minimum nights', 'maximum occupancy'),
                lambda x: (x.name, x.price, x.room_type, x.min_nights, x.max_occupancy)),
              ('Restaurants', 'RestaurantSearch', 'restaurants', ('Name', 'Average Cost', 'Cuisines'), lambda x: (x.name, x.cost, x.cuisines)),
              ('Attractions', 'AttractionSearch', 'attractions', ('Name',), lambda x: (x,)))


def _rt_flights(ri, key: str) -> list[dict]:
    "The flight rows of the task's reference information under `key` ({key: [rows]} or [{'Description', 'Content'}] with a printed frame)."
    if isinstance(ri, dict): return [x for x in ri.get(key) or [] if isinstance(x, dict)] if isinstance(ri.get(key), list) else []
    for x in ri if isinstance(ri, list) else []:
        if isinstance(x, dict) and x.get('Description') == key and isinstance(x.get('Content'), str):
            ls = x['Content'].split('\n')
            if not ls or 'Flight Number' not in ls[0]: return []
            out = []
            for ln in ls[1:]:
                f = ln.split()
                if len(f) >= 4 and re.fullmatch(r'F\d+', f[0]): out.append({'Flight Number': f[0], 'Price': f[1], 'DepTime': f[2], 'ArrTime': f[3]})
            return out
    return []


def _rt_cell(x) -> str:
    if isinstance(x, float) and math.isnan(x): return 'NaN'
    return str(x)


def _rt_frame(rows, cols, more: int) -> list[str]:
    "A DataFrame as pandas prints it (index column, right-aligned cells), '[... N more rows]' when cut."
    head = [''] + list(cols)
    cells = [[str(j)] + [_rt_cell(row.get(c, '')) for c in cols] for j, row in rows]
    w = [max(len(x[k]) for x in cells + [head]) for k in range(len(head))]
    out = ['  '.join(h.rjust(w[k]) for k, h in enumerate(head)).rstrip()]
    out += ['  '.join(x[k].rjust(w[k]) for k in range(len(head))) for x in cells]
    return out + ([f"[... {more} more rows]"] if more else [])


def _rt_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"Flight {p['number']} ({p['a']} → {p['b']}), {p['dep']}–{p['arr']}"
    return f"{'Taxi' if p['mode'] == 'taxi' else 'Self-driving'} ({p['a']} → {p['b']}), {p['duration']}, ${p['cost']}"


def react_trace(plan, task, ph):
    """A ReAct agent's log (TravelPlanner's tools): "Thought k:" / "Action k:" / "Observation k:" — FlightSearch[A, B,
    2022-03-16] with the task's flights (its reference information) as a DataFrame, GoogleDistanceMatrix[A, B,
    self-driving] with the road row, AccommodationSearch / RestaurantSearch / AttractionSearch[City] (database rows, a
    few each, the plan's among others, "[... N more rows]"), NotebookWrite, Planner[query]; in a ```text block or bare.
    DECOYS, each its own step: tentative picks ("Thought 9: Tentatively, Y for Day 2 lunch.", "Tentatively, Z for the
    nights of day 1–2.", "Tentatively adding S to Day 2.") switched later ("Re-checking: it is closed on that day —
    switching Day 2 lunch from Y to X.", "Re-checking: ... — dropping S from Day 2."). Then "Final Answer:" and
    per day "Day 2 | 2022-03-17 | Rockford" with "  • Transport: Flight F1 (A → B), 15:40–17:04" / "Self-driving (A →
    B), 3 hours 11 mins, $120", meals in the drawn label, "  • Sights: X ❯ Y", "  • Stay: W" / "  • Stay: none"; an
    empty meal "  • (no lunch)" or left out."""
    r = ph.rng
    block, say_none = r.random() < 0.5, r.random() < 0.4
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 1))
    ri = _get(task, 'reference_information') or {}
    steps, nb = [], [0]

    def write(what, th=None):
        steps.append((th, f"NotebookWrite[{what}]", [_RT_NB.format(nb[0])])); nb[0] += 1

    for i, d in enumerate(plan):
        if d['transportation'] == '-': continue
        p, date = _leg_parts(d['transportation']), _fd(task, i, 'iso')
        if p['mode'] == 'flight':
            rows = list(enumerate(_rt_flights(ri, f"Flight from {p['a']} to {p['b']} on {date}")))
            if not any(x.get('Flight Number') == p['number'] for _, x in rows):
                fare = _index().flight_price(p['number'])
                rows.append((len(rows), {'Flight Number': p['number'], 'Price': fare if fare is not None else 'NaN',
                                         'DepTime': p['dep'], 'ArrTime': p['arr']}))
            keep = [x for x in rows if x[1].get('Flight Number') == p['number']]
            keep = sorted(keep + [x for x in rows if x not in keep][:max(0, 4 - len(keep))], key=lambda x: x[0])
            steps.append((f"I need a flight from {p['a']} to {p['b']} on {date}.", f"FlightSearch[{p['a']}, {p['b']}, {date}]",
                          _rt_frame(keep, ('Flight Number', 'Price', 'DepTime', 'ArrTime'), len(rows) - len(keep))))
            write(f"Flights from {p['a']} to {p['b']} on {date}", f"Flight {p['number']} fits the day; saving it.")
        else:
            mode = 'taxi' if p['mode'] == 'taxi' else 'self-driving'
            steps.append((f"Let me check {mode} from {p['a']} to {p['b']}.", f"GoogleDistanceMatrix[{p['a']}, {p['b']}, {mode}]",
                          [d['transportation']]))
            write(f"{mode.capitalize()} from {p['a']} to {p['b']}", "That works; saving it.")
    vs = [v for d in plan for v in [d[m] for m in (*_MEALS, 'accommodation')] + _attractions(d['attraction']) if v != '-']
    cities = list(dict.fromkeys(_name_city(v)[1] for v in vs if _name_city(v)[1]))
    wanted = {_nm(v) for v in vs} | set(meals.values()) | set(stays.values()) | {_nm(x) for _, x in sights.values()}
    for c in cities:
        for table, tool, key, cols, fields in _RT_TABLES:
            rows = [(j, dict(zip(cols, fields(x)))) for j, (_, x) in enumerate(getattr(_index(), key).get(c, ()))]
            keep = [x for x in rows if str(x[1][cols[0]]) in wanted]
            keep = sorted(keep + [x for x in rows if x not in keep][:max(0, 5 - len(keep))], key=lambda x: x[0])
            steps.append((f"Now {table.lower()} in {c}.", f"{tool}[{c}]",
                          _rt_frame(keep, cols, len(rows) - len(keep)) if rows else ['No valid information.']))
            write(f"{table} in {c}", "Saving these.")
            if table == 'Accommodations':
                for (a, b), y in stays.items():
                    if _name_city(plan[a]['accommodation'])[1] == c:
                        write(f"Tentative: {_nights(plan, a, b)} — {y}", f"Tentatively, {y} for the {_nights(plan, a, b).lower()}.")
            if table == 'Restaurants':
                for (i, m), y in meals.items():
                    if _name_city(plan[i][m])[1] == c:
                        write(f"Tentative: Day {plan[i]['days']} {m} — {y}", f"Tentatively, {y} for Day {plan[i]['days']} {m}.")
            if table == 'Attractions':
                for i, (_, x) in sights.items():
                    if _name_city(x)[1] == c:
                        write(f"Tentative: Day {plan[i]['days']} sight — {_nm(x)}", f"Tentatively adding {_nm(x)} to Day {plan[i]['days']}.")
    for (i, m), y in meals.items():
        write(f"Day {plan[i]['days']} {m}: {_nm(plan[i][m])}",
              f"Re-checking: {r.choice(_RT_WHY_MEAL)} — switching Day {plan[i]['days']} {m} from {y} to {_nm(plan[i][m])}.")
    for (a, b), y in stays.items():
        write(f"{_nights(plan, a, b)}: {_nm(plan[a]['accommodation'])}",
              f"Re-checking: {r.choice(_RT_WHY_STAY)} — switching the {_nights(plan, a, b).lower()} from {y} to {_nm(plan[a]['accommodation'])}.")
    for i, (_, x) in sights.items():
        write(f"Day {plan[i]['days']} sights: without {_nm(x)}", f"Re-checking: {r.choice(_RT_WHY_SIGHT)} — dropping {_nm(x)} from Day {plan[i]['days']}.")
    steps.append(("I have everything I need; handing the notebook to the planner.", f"Planner[{_get(task, 'query') or 'the trip'}]",
                  ["Plan drafted from the notebook."]))
    lines = []
    for k, (th, act, obs) in enumerate(steps, 1):
        lines += [f"Thought {k}: {th}", f"Action {k}: {act}"]
        lines += [f"Observation {k}: {obs[0]}"] if len(obs) == 1 else [f"Observation {k}:"] + obs
    final = ['Final Answer:']
    for i, d in enumerate(plan):
        final.append(f"Day {d['days']} | {_fd(task, i, 'iso')} | {_rt(d['current_city'])}")
        if d['transportation'] != '-': final.append(f"  • Transport: {_rt_leg(d['transportation'])}")
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if m == 'lunch' and at: final.append(f"  • Sights: {ph.items(at)}")
            if d[m] != '-': final.append(f"  • {ph.meal(m.capitalize(), d[m])}")
            elif say_none: final.append(f"  • (no {m})")
        final.append(f"  • Stay: {ph.venue(d['accommodation']) if d['accommodation'] != '-' else 'none'}")
    body = lines + final
    return '\n'.join([r.choice(_RT_INTRO), ''] + (['```text'] + body + ['```'] if block else body) + ['', r.choice(_RT_OUTRO)])


_BK_INTRO = ("All booked ✅ — here's the checklist of reservations, then the plan day by day.",
             "I went ahead and made the bookings. Confirmation numbers first, the itinerary after:")
_BK_OUTRO = ("Reply \"cancel #N\" to cancel any booking.", "Confirmations were also sent to your e-mail.")
_BK_WHY = ("fully booked", "no availability", "not taking reservations that day")
_BK_ICON = {'breakfast': '🍳', 'lunch': '🥪', 'dinner': '🍝'}
_BK_CODE = string.ascii_uppercase + string.digits


def _bk_span(task, a: int, b: int) -> str:
    return f"{_fd(task, a, 'mon')} → {_fmt(_date(task, b) + _DAY_SPAN, 'mon')} ({b - a + 1} night{'s' * (b > a)})"


def booking_confirmations(plan, task, ph):
    """An agent that made the bookings: "**Bookings**", a numbered checklist in the order of the trip — "1. ✅ **Flight
    F1** · A → B · Wed, Mar 16 · 15:40 → 17:04 · 2 seats · ref `Q7K2ZD`", "✅ **Taxi** · A → B · ... · ~3 hours 11 mins ·
    $120 · ref `...`" / "☑️ **Self-drive** · ... · ~$120 fuel · nothing to book", "✅ **Stay** · W · Wed, Mar 16 → Fri, Mar
    18 (2 nights) · ref `...`", "✅ **Lunch** · X · Thu, Mar 17 · table for 2 · ref `...`" / "☑️ **Lunch** · X · ... ·
    walk-in, no reservation needed"; DECOYS as failed bookings just before their replacement ("❌ **Lunch** · Y · Thu,
    Mar 17 · fully booked → booked #5 instead"). Then "**Day by day**": "**Day 2 — Thu, Mar 17 — Rockford**" and items
    that point back to the checklist: "- ✈️ Flight F1 (#1)" (route and times only in the checklist), "- 🚗 Self-drive A
    → B (#1)", "- 🥪 Grab lunch at X (#5)" (the drawn label), "- 📍 S ➡️ T", "- 🛏️ W (#2)" / "- 🛏️ no stay — last day";
    an empty meal "- 🥪 no lunch booked" or left out."""
    r = ph.rng
    say_none = r.random() < 0.4
    meals, stays, _ = _revision_decoys(plan, r, (0, 1, 1))
    ppl, n = _people(task), len(plan)
    code = lambda: ''.join(r.choice(_BK_CODE) for _ in range(6))
    bk, ref, runs = [], {}, {a: (a, b, acc) for a, b, acc in _day_runs(plan)}
    for i, d in enumerate(plan):
        ds = _fd(task, i, 'mon')
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            if p['mode'] == 'flight':
                bk.append(f"✅ **Flight {p['number']}** · {p['a']} → {p['b']} · {ds} · {p['dep']} → {p['arr']} · {ppl} seat{'s' * (ppl != 1)} · ref `{code()}`")
            elif p['mode'] == 'taxi': bk.append(f"✅ **Taxi** · {p['a']} → {p['b']} · {ds} · ~{p['duration']} · ${p['cost']} · ref `{code()}`")
            else: bk.append(f"☑️ **Self-drive** · {p['a']} → {p['b']} · {ds} · ~{p['duration']} · ~${p['cost']} fuel · nothing to book")
            ref[(i, 'leg')] = len(bk)
        if i in runs:
            a, b, acc = runs[i]
            if (a, b) in stays:
                bk.append(f"❌ **Stay** · {ph.venue(_with_name(acc, stays[(a, b)]))} · {_bk_span(task, a, b)} · {r.choice(_BK_WHY)} → booked #{len(bk) + 2} instead")
            bk.append(f"✅ **Stay** · {ph.venue(acc)} · {_bk_span(task, a, b)} · ref `{code()}`")
            for j in range(a, b + 1): ref[(j, 'accommodation')] = len(bk)
        for m in _MEALS:
            if d[m] == '-': continue
            M = m.capitalize()
            if (i, m) in meals:
                bk.append(f"❌ **{M}** · {ph.venue(_with_name(d[m], meals[(i, m)]))} · {ds} · {r.choice(_BK_WHY)} → booked #{len(bk) + 2} instead")
            bk.append(f"✅ **{M}** · {ph.venue(d[m])} · {ds} · table for {ppl} · ref `{code()}`" if r.random() < 0.7 else
                      f"☑️ **{M}** · {ph.venue(d[m])} · {ds} · walk-in, no reservation needed")
            ref[(i, m)] = len(bk)
    out = [r.choice(_BK_INTRO), '', '**Bookings**', ''] + [f"{j}. {x}" for j, x in enumerate(bk, 1)] + ['', '**Day by day**']
    for i, d in enumerate(plan):
        out += ['', f"**Day {d['days']} — {_fd(task, i, 'mon')} — {_rt(d['current_city'])}**"]
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            out.append(f"- ✈️ Flight {p['number']} (#{ref[(i, 'leg')]})" if p['mode'] == 'flight' else
                       f"- {'🚕 Taxi' if p['mode'] == 'taxi' else '🚗 Self-drive'} {p['a']} → {p['b']} (#{ref[(i, 'leg')]})")
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if m == 'lunch' and at: out.append(f"- 📍 {ph.items(at)}")
            if d[m] != '-': out.append(f"- {_BK_ICON[m]} {ph.meal(m.capitalize(), d[m])} (#{ref[(i, m)]})")
            elif say_none: out.append(f"- {_BK_ICON[m]} no {m} booked")
        acc = d['accommodation']
        out.append(f"- 🛏️ {ph.venue(acc)} (#{ref[(i, 'accommodation')]})" if acc != '-' else
                   f"- 🛏️ no stay — {'last day' if i == n - 1 else 'none booked'}")
    return '\n'.join(out + ['', r.choice(_BK_OUTRO)])


_LG12 = {
    'sv': dict(head='### Dag {k} · {date} · {route}', labels=('Resa', 'Frukost', 'Sevärdheter', 'Lunch', 'Middag', 'Boende'),
               none='inget planerat', none_stay='inget (hemresedag)',
               wd='måndag tisdag onsdag torsdag fredag lördag söndag'.split(),
               months='januari februari mars april maj juni juli augusti september oktober november december'.split(),
               date=lambda d, wd, mo: f"{wd} {d.day} {mo} {d.year}", time=lambda t: t.replace(':', '.'),
               flight='Flyg {n}: {a} → {b}, avgång {dep}, ankomst {arr}', road='{how}: {a} → {b}, ca {dur}, {cost} USD',
               how={'drive': 'Egen bil', 'taxi': 'Taxi'}, units={'day': 'dygn', 'hour': 'tim', 'min': 'min'},
               joins={', and from there ': ', och därifrån ', ', next ': ', sedan '},
               intro=("Här är din resplan dag för dag:", "Så här ser resan ut:"), outro="Trevlig resa!"),
    'cs': dict(head='### Den {k} · {date} · {route}', labels=('Doprava', 'Snídaně', 'Památky', 'Oběd', 'Večeře', 'Ubytování'),
               none='nic v plánu', none_stay='žádné (den návratu)',
               wd='pondělí úterý středa čtvrtek pátek sobota neděle'.split(),
               months='ledna února března dubna května června července srpna září října listopadu prosince'.split(),
               date=lambda d, wd, mo: f"{wd} {d.day}. {mo} {d.year}", time=lambda t: t,
               flight='Let {n}: {a} → {b}, odlet {dep}, přílet {arr}', road='{how}: {a} → {b}, asi {dur}, {cost} USD',
               how={'drive': 'Vlastním autem', 'taxi': 'Taxi'}, units={'day': 'd', 'hour': 'h', 'min': 'min'},
               joins={', and from there ': ', a odtud ', ', next ': ', potom '},
               intro=("Tady je váš plán cesty den po dni:", "Program cesty:"), outro="Šťastnou cestu!"),
    'el': dict(head='### Ημέρα {k} · {date} · {route}', labels=('Μετακίνηση', 'Πρωινό', 'Αξιοθέατα', 'Μεσημεριανό', 'Βραδινό', 'Διαμονή'),
               none='κανένα', none_stay='καμία (ημέρα επιστροφής)',
               wd='Δευτέρα Τρίτη Τετάρτη Πέμπτη Παρασκευή Σάββατο Κυριακή'.split(),
               months='Ιανουαρίου Φεβρουαρίου Μαρτίου Απριλίου Μαΐου Ιουνίου Ιουλίου Αυγούστου Σεπτεμβρίου Οκτωβρίου Νοεμβρίου Δεκεμβρίου'.split(),
               date=lambda d, wd, mo: f"{wd} {d.day} {mo} {d.year}", time=lambda t: t,
               flight='Πτήση {n}: {a} → {b}, αναχώρηση {dep}, άφιξη {arr}', road='{how}: {a} → {b}, περίπου {dur}, {cost} δολάρια',
               how={'drive': 'Με δικό σας αυτοκίνητο', 'taxi': 'Ταξί'}, units={'day': 'ημ.', 'hour': 'ώρ.', 'min': 'λεπ.'},
               joins={', and from there ': ', και από εκεί ', ', next ': ', μετά '},
               intro=("Ορίστε το πρόγραμμα του ταξιδιού σας, μέρα με τη μέρα:", "Το πλάνο του ταξιδιού:"), outro="Καλό ταξίδι!"),
    'th': dict(head='### วันที่ {k} · {date} · {route}', labels=('การเดินทาง', 'อาหารเช้า', 'สถานที่เที่ยว', 'อาหารกลางวัน', 'อาหารเย็น', 'ที่พัก'),
               none='ไม่มี', none_stay='ไม่มี (วันเดินทางกลับ)',
               wd='จันทร์ อังคาร พุธ พฤหัสบดี ศุกร์ เสาร์ อาทิตย์'.split(),
               months='มกราคม กุมภาพันธ์ มีนาคม เมษายน พฤษภาคม มิถุนายน กรกฎาคม สิงหาคม กันยายน ตุลาคม พฤศจิกายน ธันวาคม'.split(),
               date=lambda d, wd, mo: f"วัน{wd}ที่ {d.day} {mo} {d.year + 543}", time=lambda t: f"{t} น.",
               flight='เที่ยวบิน {n}: {a} → {b} ออกเดินทาง {dep} ถึง {arr}', road='{how}: {a} → {b} ประมาณ {dur} ค่าใช้จ่าย {cost} ดอลลาร์',
               how={'drive': 'ขับรถเอง', 'taxi': 'แท็กซี่'}, units={'day': 'วัน', 'hour': 'ชั่วโมง', 'min': 'นาที'},
               joins={', and from there ': ' แล้วต่อไปที่ ', ', next ': ' ต่อด้วย '},
               intro=("นี่คือแผนการเดินทางของคุณแบบวันต่อวัน:", "แผนเที่ยวทั้งหมดมีดังนี้:"), outro="ขอให้เดินทางอย่างมีความสุข!"),
}
_LG_KEYS = ('leg', 'breakfast', 'attraction', 'lunch', 'dinner', 'accommodation')


def _lg_date(lg, task, i) -> str:
    d, L = _date(task, i), _LG12[lg]
    return L['date'](d, L['wd'][d.weekday()], L['months'][d.month - 1])


def _lg_dur(lg, s) -> str:
    from layouts_v8 import _dur_key
    return ' '.join(f"{n} {_LG12[lg]['units'][u]}" for n, u in _dur_key(s))


def _lg_leg(lg, t) -> str:
    p, L = _leg_parts(t), _LG12[lg]
    if p['mode'] == 'flight': return L['flight'].format(n=p['number'], a=p['a'], b=p['b'], dep=L['time'](p['dep']), arr=L['time'](p['arr']))
    return L['road'].format(how=L['how'][p['mode']], a=p['a'], b=p['b'], dur=_lg_dur(lg, p['duration']), cost=p['cost'])


def sv_cs_el_th_labels(plan, task, ph):
    """The answer in Swedish, Czech, Greek or Thai (drawn): per day "### Dag 2 · torsdag 17 mars 2022 · Rockford" / "###
    Den 2 · čtvrtek 17. března 2022 · A → B" / "### Ημέρα 2 · Πέμπτη 17 Μαρτίου 2022 · ..." / "### วันที่ 2 ·
    วันพฤหัสบดีที่ 17 มีนาคม 2565 · ..." (Buddhist-era year), then "• Label: value" lines in the order of the day: the leg
    ("Flyg F1: A → B, avgång 15.40, ankomst 17.04", "Let F1: ..., odlet 15:40, přílet 17:04", "Πτήση F1: ..., αναχώρηση
    15:40, άφιξη 17:04", "เที่ยวบิน F1: A → B ออกเดินทาง 15:40 น. ถึง 17:04 น."; "Egen bil: A → B, ca 3 tim 11 min, 120
    USD", "Vlastním autem: ..., asi 3 h 11 min, 120 USD", "Με δικό σας αυτοκίνητο: ..., περίπου 3 ώρ. 11 λεπ., 120
    δολάρια", "ขับรถเอง: A → B ประมาณ 3 ชั่วโมง 11 นาที ค่าใช้จ่าย 120 ดอลลาร์"), breakfast, sights (the drawn join; word
    joins translated), lunch, dinner (Swedish 'Middag' is DINNER, Czech 'Oběd' is LUNCH), stay; the venue placement's
    'in' and 'USA' translated ("X i Rockford (IL)", "X ve městě Rockford (IL)", "X στην πόλη Rockford (IL)", "X ใน
    Rockford (IL)", "X, Rockford, IL, ΗΠΑ"); an empty slot 'inget planerat' / 'nic v plánu' / 'κανένα' / 'ไม่มี' (the
    last day's stay '... (hemresedag)') or its line left out; names verbatim."""
    r = ph.rng
    lg = r.choice(tuple(_LG12))
    L, say_none = _LG12[lg], r.random() < 0.5
    join = L['joins'].get(ph.join, ph.join)
    out = [r.choice(L['intro'])]
    for i, d in enumerate(plan):
        out += ['', L['head'].format(k=d['days'], date=_lg_date(lg, task, i), route=_rt(d['current_city']))]
        at = _attractions(d['attraction'])
        vals = {'leg': _lg_leg(lg, d['transportation']) if d['transportation'] != '-' else None,
                'attraction': join.join(_venue(ph, x, lg) for x in at) or None,
                **{k: _venue(ph, d[k], lg) if d[k] != '-' else None for k in (*_MEALS, 'accommodation')}}
        for lab, k in zip(L['labels'], _LG_KEYS):
            v = vals[k]
            if v is None and not say_none: continue
            if v is None: v = L['none_stay'] if k == 'accommodation' and i == len(plan) - 1 else L['none']
            out.append(f"• {lab}: {v}")
    return '\n'.join(out + ['', L['outro']])


_CL_INTRO = ("Here's the schedule in 24-hour time, one block per day:", "Your days, hour by hour (24h clock):")
_CL_OUTRO = ("Times are approximate — shift them to taste.", "Leave some slack around the travel legs.")
_CL_B, _CL_L, _CL_D, _CL_N = (450, 480, 510), (735, 750, 780), (1110, 1140, 1170), (1290, 1320, 1350)
_CL_AM, _CL_PM = (570, 720), (870, 1080)          # the sights' windows: 09:30–12:00 and 14:30–18:00


def _hm(t: int) -> str: return f"{t // 60:02d}:{t % 60:02d}"


def _cl_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ {p['number']} · {p['a']} → {p['b']} · {p['dep']}–{p['arr']}"
    return f"{'🚕' if p['mode'] == 'taxi' else '🚗'} {p['a']} → {p['b']} · {'taxi' if p['mode'] == 'taxi' else 'self-drive'} · {p['duration']} · ${p['cost']}"


def _cl_spread(window, k: int) -> list[tuple[int, int]]:
    "k (start, end) slots in the window, a quarter of an hour between them."
    if not k: return []
    a, b = window
    step = max(15, (b - a) // k // 15 * 15)
    return [(a + j * step, a + (j + 1) * step - 15) for j in range(k)]


def clock_only_timeline(plan, task, ph):
    """Per day a bold head "**Day 2 — Thu 17/03 — Rockford**", the leg on its own line ("✈️ F1 · A → B · 15:40–17:04",
    "🚗 A → B · self-drive · 3 hours 11 mins · $120"), then a 24-HOUR TIMELINE WITHOUT MEAL WORDS — in a ```text block
    ("07:30–08:15  X 📌 Rockford", columns aligned) or as bullets ("- `07:30–08:15` X 📌 Rockford"): breakfast in the
    morning slot (07:30 / 08:00 / 08:30, 45 minutes), the first half of the sights between 09:30 and 12:00, lunch at
    midday (12:15 / 12:30 / 13:00, an hour), the other sights between 14:30 and 18:00, dinner in the evening (18:30 / 19:00
    / 19:30, 90 minutes), the night "22:00  🛏 W" (21:30 / 22:00 / 22:30); the meals are known only by their time of day;
    an empty meal's slot "—" or left out, no stay "🛏 —" or left out."""
    r = ph.rng
    code, say_none = r.random() < 0.5, r.random() < 0.4
    b0, l0, d0, n0 = r.choice(_CL_B), r.choice(_CL_L), r.choice(_CL_D), r.choice(_CL_N)
    out = [r.choice(_CL_INTRO)]
    for i, d in enumerate(plan):
        out += ['', f"**Day {d['days']} — {_fd(task, i, 'slash')} — {_rt(d['current_city'])}**"]
        if d['transportation'] != '-': out.append(_cl_leg(d['transportation']))
        at = _attractions(d['attraction'])
        h = (len(at) + 1) // 2
        rows = []
        meal = lambda m, a, b: rows.append((f"{_hm(a)}–{_hm(b)}", ph.venue(d[m]))) if d[m] != '-' else (
            rows.append((f"{_hm(a)}–{_hm(b)}", '—')) if say_none else None)
        meal('breakfast', b0, b0 + 45)
        rows += [(f"{_hm(a)}–{_hm(b)}", ph.venue(x)) for (a, b), x in zip(_cl_spread(_CL_AM, h), at[:h])]
        meal('lunch', l0, l0 + 60)
        rows += [(f"{_hm(a)}–{_hm(b)}", ph.venue(x)) for (a, b), x in zip(_cl_spread(_CL_PM, len(at) - h), at[h:])]
        meal('dinner', d0, d0 + 90)
        if d['accommodation'] != '-': rows.append((_hm(n0), f"🛏 {ph.venue(d['accommodation'])}"))
        elif say_none: rows.append((_hm(n0), '🛏 —'))
        if code: out += ['```text'] + [f"{t:<11}  {x}" for t, x in rows] + ['```']
        else: out += [f"- `{t}` {x}" for t, x in rows]
    return '\n'.join(out + ['', r.choice(_CL_OUTRO)])


_TR_INTRO = ("Here's the whole trip as a tree:", "Itinerary overview (tree view):")
_TR_OUTRO = ("Collapse or expand any branch as you like.", "Happy travels!")


def _tree_lines(node, prefix: str = '', last: bool = True, root: bool = True) -> list[str]:
    "A (label, children) tree as `tree` prints it."
    label, kids = node
    out = [label] if root else [prefix + ('└── ' if last else '├── ') + label]
    sub = '' if root else prefix + ('    ' if last else '│   ')
    for j, k in enumerate(kids): out += _tree_lines(k, sub, j == len(kids) - 1, False)
    return out


def _tr_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ Flight {p['number']} · {p['a']} → {p['b']} · {p['dep']} → {p['arr']}"
    return f"{'🚕 Taxi' if p['mode'] == 'taxi' else '🚗 Self-drive'} · {p['a']} → {p['b']} · {p['duration']} · ${p['cost']}"


def ascii_tree(plan, task, ph):
    """The trip as a box-drawing tree in a ```text block ("├── ", "│   ", "└── ", as the `tree` command prints): the root
    ("🧳 3-day trip · Mar 16–18, 2022 · 2 travellers"), a node per day ("Day 2 · Thu 17 Mar · Rockford") and under it
    EITHER the items as leaves — the leg ("✈️ Flight F1 · A → B · 15:40 → 17:04"), the meals in the drawn label, the
    sights in one leaf in the drawn join ("📍 X ➡️ Y") or as a "📍 Sights" node with a leaf per sight, "🛏️ W" — OR grouped
    nodes "🚦 Getting there", "🍽️ Meals", "📍 Sights", "🛏️ Night"; an empty meal "(no lunch)" or left out; in some
    renderings the stays only in a last branch "🛏️ Stays" ("W — Nights of Day 1–2 (check-out Fri 18 Mar)")."""
    r = ph.rng
    grouped, sight_node, stays_top, say_none = r.random() < 0.35, r.random() < 0.5, r.random() < 0.3, r.random() < 0.4
    n, ppl = len(plan), _people(task)
    d0, d1 = _date(task, 0), _date(task, n - 1)
    root = (f"🧳 {n}-day trip · {_span_text(d0, d1)}, {d1.year} · {ppl} traveller{'s' * (ppl != 1)}", [])
    for i, d in enumerate(plan):
        at = _attractions(d['attraction'])
        leg = [(_tr_leg(d['transportation']), [])] if d['transportation'] != '-' else []
        ms = {m: [(ph.meal(m.capitalize(), d[m]) if d[m] != '-' else f"(no {m})", [])] if d[m] != '-' or say_none else []
              for m in _MEALS}
        stay = ph.venue(d['accommodation']) if d['accommodation'] != '-' else '— (no stay)' if say_none else None
        if grouped:
            kids = ([('🚦 Getting there', leg)] if leg else []) + ([('🍽️ Meals', sum(ms.values(), []))] if any(ms.values()) else []) + \
                   ([('📍 Sights', [(ph.venue(x), []) for x in at])] if at else []) + \
                   ([('🛏️ Night', [(stay, [])])] if stay and not stays_top else [])
        else:
            sights = ([('📍 Sights', [(ph.venue(x), []) for x in at])] if sight_node else [(f"📍 {ph.items(at)}", [])]) if at else []
            kids = leg + ms['breakfast'] + sights + ms['lunch'] + ms['dinner'] + ([(f"🛏️ {stay}", [])] if stay and not stays_top else [])
        root[1].append((f"Day {d['days']} · {_fd(task, i, 'dm')} · {_rt(d['current_city'])}", kids))
    if stays_top:
        root[1].append(('🛏️ Stays', [(f"{ph.venue(acc)} — {_nights(plan, a, b)} (check-out {_fmt(_date(task, b) + _DAY_SPAN, 'dm')})", [])
                                     for a, b, acc in _day_runs(plan)] or [('— (no overnight stay)', [])]))
    return '\n'.join([r.choice(_TR_INTRO), '', '```text'] + _tree_lines(root) + ['```', '', r.choice(_TR_OUTRO)])


_CO_INTRO = ("Here's your plan — each day is a callout (renders nicely on GitHub and in Obsidian):",
             "Day-by-day itinerary below; the warning boxes list what I looked at and did not book.")
_CO_OUTRO = ("Want me to export this as a note?", "Let me know if anything should change.")
_CO_TIPS = ("Book the popular restaurants a day ahead.", "Keep some cash for parking and tips.",
            "Check opening hours the evening before — they change often.", "Download offline maps before you go.")
_CO_WHY_MEAL = ("closed that day", "over the food budget", "a long detour from the day's route")
_CO_WHY_STAY = ("no rooms left for those nights", "house rules that don't fit", "over budget for those nights")
_CO_WHY_SIGHT = ("not enough time that day", "too far from the rest of the day")
_CO_ICON = {'breakfast': '🍳', 'lunch': '🥪', 'dinner': '🍝'}


def _co_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ Flight {p['number']} from {p['a']} to {p['b']} — departs {p['dep']}, lands {p['arr']}"
    return (f"{'🚕 Taxi' if p['mode'] == 'taxi' else '🚗 Drive yourself'} from {p['a']} to {p['b']} — about {p['duration']}, "
            f"{'' if p['mode'] == 'taxi' else '~'}${p['cost']}")


def callout_blocks(plan, task, ph):
    """Each day a callout: GitHub alerts ("> [!NOTE]" then "> **Day 2 · Thursday, March 17 · Rockford**") or Obsidian
    ("> [!abstract]- Day 2 · Thursday, March 17 · Rockford", collapsed), then "> - " items in the order of the day: "✈️
    Flight F1 from A to B — departs 15:40, lands 17:04" / "🚗 Drive yourself from A to B — about 3 hours 11 mins, ~$120",
    "🍳 Grab breakfast at X" (the drawn label), the sights on one line ("📍 Y ❯ Z") or nested ("> - 📍 Sights:" and ">   -
    Y"), "🥪 ...", "🍝 ...", "🛏️ W" / "🛏️ no stay (last day)"; an empty meal "🥪 no lunch" or left out. DECOYS in warning
    callouts after a day ("> [!WARNING]" / "> [!warning] Considered, not booked": "> **Y** for lunch on Day 2 — closed
    that day; lunch stays at **X**.", "> **Z** for the nights of day 1–2 — ...; you stay at **W**.", "> **S** on Day 2
    — ...; left out."); tip callouts ("> [!TIP]") without names."""
    r = ph.rng
    obs, nested, say_none = r.random() < 0.5, r.random() < 0.5, r.random() < 0.4
    meals, stays, sights = _revision_decoys(plan, r, (0, 1, 1))
    n = len(plan)
    tips = r.sample(range(n), min(n, r.choice((0, 1, 2))))
    blocks = [r.choice(_CO_INTRO)]
    for i, d in enumerate(plan):
        title = f"Day {d['days']} · {_fd(task, i, 'long')} · {_rt(d['current_city'])}"
        lines = [f"> [!abstract]- {title}"] if obs else ['> [!NOTE]', f"> **{title}**"]
        if d['transportation'] != '-': lines.append(f"> - {_co_leg(d['transportation'])}")
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if m == 'lunch' and at:
                lines += (['> - 📍 Sights:'] + [f">   - {ph.venue(x)}" for x in at]) if nested else [f"> - 📍 {ph.items(at)}"]
            if d[m] != '-': lines.append(f"> - {_CO_ICON[m]} {ph.meal(m.capitalize(), d[m])}")
            elif say_none: lines.append(f"> - {_CO_ICON[m]} no {m}")
        acc = d['accommodation']
        lines.append(f"> - 🛏️ {ph.venue(acc)}" if acc != '-' else f"> - 🛏️ no stay ({'last day' if i == n - 1 else 'none booked'})")
        blocks.append('\n'.join(lines))
        warn = [f"> **{y}** for {m} on Day {d['days']} — {r.choice(_CO_WHY_MEAL)}; {m} stays at **{_nm(d[m])}**."
                for (j, m), y in meals.items() if j == i]
        warn += [f"> **{y}** for the {_nights(plan, a, b).lower()} — {r.choice(_CO_WHY_STAY)}; you stay at **{_nm(plan[a]['accommodation'])}**."
                 for (a, b), y in stays.items() if b == i]
        warn += [f"> **{_nm(x)}** on Day {d['days']} — {r.choice(_CO_WHY_SIGHT)}; left out." for j, (_, x) in sights.items() if j == i]
        if warn: blocks.append('\n'.join((['> [!warning] Considered, not booked'] if obs else ['> [!WARNING]']) + warn))
        if i in tips: blocks.append('\n'.join(['> [!tip] Tip' if obs else '> [!TIP]', f"> {r.choice(_CO_TIPS)}"]))
    return '\n\n'.join(blocks + [r.choice(_CO_OUTRO)])


_DL_INTRO = ("Here's the itinerary as a definition list (Pandoc / Markdown Extra):", "Day-by-day plan, each item under its term:")
_DL_HINTRO = ("Here's the itinerary as an HTML definition list you can paste into a page:", "As HTML (a <dl> per day):")
_DL_OUTRO = ("Enjoy the trip!", "Tell me if you'd like it as a table instead.")


def _esc(s: str) -> str: return s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def _unesc(s: str) -> str:
    if re.search(r'&(?!amp;|lt;|gt;)', s): raise ValueError(f"unescaped '&' in {s!r}")
    if '<' in s or '>' in s: raise ValueError(f"raw markup in {s!r}")
    return s.replace('&lt;', '<').replace('&gt;', '>').replace('&amp;', '&')


def _dl_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ Flight {p['number']}, {p['a']} → {p['b']}, {p['dep']} → {p['arr']}"
    return f"{'🚕 Taxi' if p['mode'] == 'taxi' else '🚗 Self-drive'}, {p['a']} → {p['b']}, {p['duration']}, ${p['cost']}"


def definition_list(plan, task, ph):
    """A definition list per day. Markdown Extra / Pandoc: "## Day 2 — Thursday 17 March 2022 — Rockford", then terms
    each followed by ":   " definitions — "Getting there" / ":   ✈️ Flight F1, A → B, 15:40 → 17:04" ("🚗 Self-drive, A →
    B, 3 hours 11 mins, $120"), the meal terms in the drawn label word ("Breakfast", or "Breakfast time" / "Lunchtime" /
    "Dinnertime") with the venue, "Sights" with ONE definition per sight, "Overnight"; or HTML in a ```html block
    ("<h3>...</h3>", "<dl>", "  <dt>Lunch</dt>", "  <dd>X</dd>", "</dl>"; '&', '<', '>' escaped as HTML must); an empty
    meal ":   —" / "<dd>—</dd>" or left out, no stay "—" or left out."""
    r = ph.rng
    use_html, say_none = r.random() < 0.4, r.random() < 0.4
    out = [r.choice(_DL_HINTRO if use_html else _DL_INTRO), '']
    if use_html: out.append('```html')
    for i, d in enumerate(plan):
        head = f"Day {d['days']} — {_fd(task, i, 'ukyear')} — {_rt(d['current_city'])}"
        items = []
        if d['transportation'] != '-': items.append(('Getting there', [_dl_leg(d['transportation'])]))
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if m == 'lunch' and at: items.append(('Sights', [ph.venue(x) for x in at]))
            if d[m] != '-' or say_none: items.append((ph.meal_word(m.capitalize()), [ph.venue(d[m]) if d[m] != '-' else '—']))
        if d['accommodation'] != '-' or say_none:
            items.append(('Overnight', [ph.venue(d['accommodation']) if d['accommodation'] != '-' else '—']))
        if use_html:
            out += [f"<h3>{_esc(head)}</h3>", '<dl>']
            for t, ds in items: out += [f"  <dt>{t}</dt>"] + [f"  <dd>{_esc(x)}</dd>" for x in ds]
            out += ['</dl>']
        else:
            out += [f"## {head}", '']
            for t, ds in items: out += [t] + [f":   {x}" for x in ds] + ['']
    if use_html: out += ['```', '']
    return '\n'.join(out + [r.choice(_DL_OUTRO)])


HELDOUT12_LAYOUTS = {f.__name__: f for f in (tweet_thread, react_trace, booking_confirmations, sv_cs_el_th_labels,
                                              clock_only_timeline, ascii_tree, callout_blocks, definition_list)}
"""Held-out part v12 (layouts and `HELDOUT12_PHRASES`, rendered with `Phr12`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr12(HELDOUT12_PHRASES, random.Random(f"heldout12:{name}:{t.idx}:{j}"), p)


def renderings12(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout12:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT12_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser below, written for the layout (not a general reader): each rendering is read back into
# the plan's own values — the route as current_city ('from A to B' | 'A'), the leg as its parts (flight number, cities,
# times; or mode, cities, duration, cost), each meal and the stay as 'Name, City' or '-', the sights as ['Name, City',
# ...] — and compared with the plan EXACTLY (`_cmp` of layouts_v8). Decoys (corrected posts, tentative picks switched,
# failed bookings, warnings) are resolved as the text says, and checked against what the text states elsewhere.


# tweet_thread ---------------------------------------------------------------------------------------------------------
_TW_HEAD = re.compile(r'📅 Day (\d+) \((.+?)\): (.+)')
_TW_CONT = re.compile(r'📅 Day (\d+) \(cont\.\)')
_TW_FL = re.compile(r'✈️ (\S+) (.+) → (.+), (\d\d:\d\d)–(\d\d:\d\d)')
_TW_RD = re.compile(r'(🚕 taxi|🚗 self-drive) (.+) → (.+) \(~(.+), \$(\d+)\)')
_TW_FIX_MEAL = re.compile(r'⚠️ Correction to (\d+)/(\d+): Day (\d+) (breakfast|lunch|dinner) is at (.+), not (.+) — ' + _alt(_TW_WHY_MEAL) + r'\.')
_TW_FIX_STAY = re.compile(r"⚠️ Correction to (\d+)/(\d+): for the nights? of day (\d+)(?:–(\d+))? we're at (.+), not (.+) — " + _alt(_TW_WHY_STAY) + r'\.')


def _tw_posts(text):
    "(intro, [(number, total, lines of the post)], outro, header style) of a thread rendering."
    blocks = text.split('\n\n')
    posts, hdr = [], set()
    for b in blocks[1:-1]:
        ls = b.split('\n')
        if (m := re.fullmatch(r'\*\*Post (\d+)/(\d+)\*\*', ls[0])): posts.append((int(m[1]), int(m[2]), ls[1:])); hdr.add(True)
        elif (m := re.fullmatch(r'(\d+)/(\d+) (.+)', ls[0])): posts.append((int(m[1]), int(m[2]), [m[3]] + ls[1:])); hdr.add(False)
        else: raise ValueError(f"post {ls[0]!r} not numbered")
    return blocks[0], posts, blocks[-1], hdr


def _read_tw(text, task, plan, ph):
    errs = []
    intro, posts, outro, hdr = _tw_posts(text)
    if intro not in _TW_INTRO or outro not in _TW_OUTRO: errs.append('intro / outro')
    if len(hdr) != 1: errs.append('mixed post numbering')
    N = len(posts)
    if [(j, n) for j, n, _ in posts] != [(j, N) for j in range(1, N + 1)]: errs.append(f"posts numbered {[(j, n) for j, n, _ in posts]}")
    if N < 3 or posts[0][2] != [_tw_intro(plan, task)]: errs.append('intro post')
    if not re.fullmatch(r"That's the whole trip ✨ Questions\? Reply below\. " + _alt(_TW_TAGS), '\n'.join(posts[-1][2])): errs.append('closing post')
    ix = _dix(task, len(plan), 'us')
    days, saids, stays, stated, any_none, fixing = [], [], [], {}, False, False
    day = lambda k: days[k - 1] if 1 <= k <= len(days) else None
    for j, _, ls in posts[1:-1]:
        if ls[0].startswith('⚠️ Correction to '):
            fixing = True
            if len(ls) != 1: errs.append(f"post {j}: correction with more lines"); continue
            if (q := _TW_FIX_MEAL.fullmatch(ls[0])):
                k, m, g = int(q[3]), q[4], day(int(q[3]))
                if int(q[2]) != N or g is None or g[m] in ('-', None) or _nm(g[m]) != q[6] or stated.get((k, m)) != int(q[1]):
                    errs.append(f"post {j}: {ls[0]!r} does not correct what post {q[1]} says"); continue
                g[m] = _unvenue(ph, q[5])
                if _nm(g[m]) == q[6]: errs.append(f"post {j}: corrected to itself")
            elif (q := _TW_FIX_STAY.fullmatch(ls[0])):
                a, b = int(q[3]), int(q[4] or q[3])
                if int(q[2]) != N or stated.get((a, 'accommodation')) != int(q[1]) or q[4] and b <= a: errs.append(f"post {j}: {ls[0]!r}"); continue
                x = _unvenue(ph, q[5])
                for k in range(a, b + 1):
                    if (g := day(k)) is None or g['accommodation'] == '-' or _nm(g['accommodation']) != q[6]:
                        errs.append(f"post {j}: night {k} is not at {q[6]!r}"); continue
                    g['accommodation'] = x
                for k in (a - 1, b + 1):
                    if (g := day(k)) is not None and g['accommodation'] != '-' and _nm(g['accommodation']) == q[6]:
                        errs.append(f"post {j}: night {k} also at {q[6]!r}")
                if _nm(x) == q[6]: errs.append(f"post {j}: corrected to itself")
            else: errs.append(f"post {j}: {ls[0]!r}")
            continue
        if fixing: errs.append(f"post {j}: a day after the corrections")
        if (h := _TW_HEAD.fullmatch(ls[0])):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ls[0]!r}")
            days.append(_blank(_back(h[3]))); saids.append([]); stays.append([])
        elif not ((c := _TW_CONT.fullmatch(ls[0])) and days and int(c[1]) == len(days)): errs.append(f"post {j}: head {ls[0]!r}"); continue
        g, k, said = days[-1], len(days), saids[-1]
        for x in ls[1:]:
            icon, _, v = x.partition(' ')
            if (q := _TW_FL.fullmatch(x)): _put(g, 'leg', _flight(*q.groups()), errs)
            elif (q := _TW_RD.fullmatch(x)): _put(g, 'leg', _road_key('taxi' if q[1] == '🚕 taxi' else 'drive', *q.groups()[1:]), errs)
            elif icon == '📍': g['attraction'] += _unitems(ph, v)
            elif icon == '🛏':
                _stay_once(stays[-1], k, errs)
                if v == 'none, heading home' and k == len(plan) or v == 'none booked': continue
                _put(g, 'accommodation', _unvenue(ph, v), errs, f"day {k}: "); stated[(k, 'accommodation')] = j
            elif icon in _TW_ICON.values():
                mm = (q[1], None) if (q := re.fullmatch(r'no (breakfast|lunch|dinner) planned', v)) else _unmeal(ph, v)
                if not mm or _TW_ICON[mm[0]] != icon: errs.append(f"day {k}: meal {x!r}"); continue
                _said(said, mm[0], errs, f"day {k}: ")
                if mm[1] is None: any_none = True
                else: _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: "); stated[(k, mm[0])] = j
            else: errs.append(f"day {k}: line {x!r}")
    if any(not s for s in stays): errs.append('a day without its stay line')
    if any_none: _all_said(saids, errs)
    return days, errs


# react_trace ----------------------------------------------------------------------------------------------------------
_RT_FL = re.compile(r'  • Transport: Flight (\S+) \((.+) → (.+)\), (\d\d:\d\d)–(\d\d:\d\d)')
_RT_RD = re.compile(r'  • Transport: (Self-driving|Taxi) \((.+) → (.+)\), (.+), \$(\d+)')
_RT_PLAIN = [re.compile(x) for x in (r'I need a flight from .+ to .+ on \d{4}-\d\d-\d\d\.', r'Flight \S+ fits the day; saving it\.',
                                      r'Let me check (?:self-driving|taxi) from .+ to .+\.', r'That works; saving it\.',
                                      r'Now (?:accommodations|restaurants|attractions) in .+\.', r'Saving these\.',
                                      r"I have everything I need; handing the notebook to the planner\.")]
_RT_TENT = (re.compile(r'Tentatively, (.+) for Day (\d+) (breakfast|lunch|dinner)\.'),
            re.compile(r'Tentatively, (.+) for the nights? of day (\d+)(?:–(\d+))?\.'),
            re.compile(r'Tentatively adding (.+) to Day (\d+)\.'))
_RT_SWITCH = (re.compile(r'Re-checking: ' + _alt(_RT_WHY_MEAL) + r' — switching Day (\d+) (breakfast|lunch|dinner) from (.+)\.'),
              re.compile(r'Re-checking: ' + _alt(_RT_WHY_STAY) + r' — switching the nights? of day (\d+)(?:–(\d+))? from (.+)\.'),
              re.compile(r'Re-checking: ' + _alt(_RT_WHY_SIGHT) + r' — dropping (.+) from Day (\d+)\.'))


def _rt_split(text):
    "(trace lines, final-answer lines, errors) of a ReAct rendering."
    errs, lines = [], text.split('\n')
    if lines[0] not in _RT_INTRO or lines[1] != '' or lines[-1] not in _RT_OUTRO or lines[-2] != '': errs.append('intro / outro')
    body = lines[2:-2]
    if body and body[0] == '```text':
        if body[-1] != '```': errs.append('unclosed block')
        body = body[1:-1]
    fa = [j for j, ln in enumerate(body) if ln == 'Final Answer:']
    if len(fa) != 1: raise ValueError(f"{len(fa)} final answers")
    return body[:fa[0]], body[fa[0] + 1:], errs


def _read_rt(text, task, plan, ph):
    trace, final, errs = _rt_split(text)
    k, last, thoughts = 0, 'Observation', []
    for ln in trace:
        if (m := re.match(r'(Thought|Action|Observation) (\d+):(.*)', ln)):
            want = {'Observation': 'Thought', 'Thought': 'Action', 'Action': 'Observation'}[last]
            k += m[1] == 'Thought'
            if m[1] != want or int(m[2]) != k: errs.append(f"step {ln!r} out of order")
            last = m[1]
            if m[1] == 'Thought': thoughts.append(m[3][1:])
            continue
        if last != 'Observation': errs.append(f"line {ln!r} outside an observation")
    if last != 'Observation': errs.append('a step without its observation')
    tent, sw = [], []
    for th in thoughts:
        if any(p.fullmatch(th) for p in _RT_PLAIN): continue
        if (q := _RT_TENT[0].fullmatch(th)): tent.append(('meal', int(q[2]), q[3], q[1]))
        elif (q := _RT_TENT[1].fullmatch(th)): tent.append(('stay', int(q[2]), int(q[3] or q[2]), q[1]))
        elif (q := _RT_TENT[2].fullmatch(th)): tent.append(('sight', int(q[2]), None, q[1]))
        elif (q := _RT_SWITCH[0].fullmatch(th)): sw.append(('meal', int(q[1]), q[2], q[3]))
        elif (q := _RT_SWITCH[1].fullmatch(th)): sw.append(('stay', int(q[1]), int(q[2] or q[1]), q[3]))
        elif (q := _RT_SWITCH[2].fullmatch(th)): sw.append(('sight', int(q[2]), None, q[1]))
        else: errs.append(f"thought {th!r}")
    days, saids, stays, any_none = [], [], [], False
    ix = _dix(task, len(plan), 'iso')
    for ln in final:
        if (h := re.fullmatch(r'Day (\d+) \| (\S+) \| (.+)', ln)):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h[3]))); saids.append([]); stays.append([])
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k, said = days[-1], len(days), saids[-1]
        if (q := _RT_FL.fullmatch(ln)): _put(g, 'leg', _flight(*q.groups()), errs)
        elif (q := _RT_RD.fullmatch(ln)): _put(g, 'leg', _road_key('taxi' if q[1] == 'Taxi' else 'drive', *q.groups()[1:]), errs)
        elif ln.startswith('  • Sights: '):
            if g['attraction']: errs.append(f"day {k}: sights twice")
            g['attraction'] = _unitems(ph, ln[12:])
        elif ln.startswith('  • Stay: '):
            _stay_once(stays[-1], k, errs)
            if ln[10:] != 'none': _put(g, 'accommodation', _unvenue(ph, ln[10:]), errs, f"day {k}: ")
        elif (q := re.fullmatch(r'  • \(no (breakfast|lunch|dinner)\)', ln)): any_none = True; _said(said, q[1], errs, f"day {k}: ")
        elif ln.startswith('  • ') and (mm := _unmeal(ph, ln[4:])):
            _said(said, mm[0], errs, f"day {k}: ")
            _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
        else: errs.append(f"day {k}: line {ln!r}")
    if any(not s for s in stays): errs.append('a day without its stay line')
    if any_none: _all_said(saids, errs)
    day = lambda k: days[k - 1] if 1 <= k <= len(days) else None
    done = []
    for kind, a, b, s in sw:                                   # each switch: from a tentative pick to the final answer's
        if kind == 'sight':
            if (g := day(a)) is None or s in [_nm(x) for x in g['attraction']]: errs.append(f"dropped {s!r} is in day {a}")
            y = s
        else:
            nights = [a] if kind == 'meal' else list(range(a, b + 1))
            key = b if kind == 'meal' else 'accommodation'
            finals = {_nm(day(k)[key]) if day(k) and day(k)[key] not in ('-', None) else None for k in nights}
            ys = [y for y, x in _pairs(s, ' to ') if {x} == finals and y != x]
            if len(ys) != 1: errs.append(f"switch {(kind, a, b, s)!r} does not end at the final answer's {finals}"); continue
            y = ys[0]
        done.append((kind, a, b if kind != 'sight' else None, y))
    if sorted(done, key=repr) != sorted(tent, key=repr): errs.append(f"tentative picks {tent} vs switches {done}")
    return days, errs


# booking_confirmations ------------------------------------------------------------------------------------------------
_BK_LINE = re.compile(r'(\d+)\. (✅|☑️|❌) \*\*(Flight \S+|Taxi|Self-drive|Stay|Breakfast|Lunch|Dinner)\*\* · (.+)')
_BK_REF = r' · ref `[A-Z0-9]{6}`'
_BK_WHYS = _alt(_BK_WHY)


def _bk_parse(n, st, kind, rest, ix, ppl, ph) -> dict:
    "A booking line's fields: kind, status, day index (stays: first and last night), leg or venue, replacement."
    b = {'n': n, 'st': st, 'kind': kind, 'repl': None}
    if kind.startswith('Flight ') and st == '✅' and (q := re.fullmatch(
            r'([^·]+) → ([^·]+) · ([^·]+) · (\d\d:\d\d) → (\d\d:\d\d) · (\d+) seats?' + _BK_REF, rest)) and int(q[6]) == ppl:
        b.update(day=ix.get(q[3]), leg=_flight(kind[7:], q[1], q[2], q[4], q[5]))
    elif kind == 'Taxi' and st == '✅' and (q := re.fullmatch(r'([^·]+) → ([^·]+) · ([^·]+) · ~([^·]+) · \$(\d+)' + _BK_REF, rest)):
        b.update(day=ix.get(q[3]), leg=_road_key('taxi', q[1], q[2], q[4], q[5]))
    elif kind == 'Self-drive' and st == '☑️' and (q := re.fullmatch(r'([^·]+) → ([^·]+) · ([^·]+) · ~([^·]+) · ~\$(\d+) fuel · nothing to book', rest)):
        b.update(day=ix.get(q[3]), leg=_road_key('drive', q[1], q[2], q[4], q[5]))
    elif kind == 'Stay' and (q := re.fullmatch(r'(.+) · ([^·]+) → ([^·]+) \((\d+) nights?\)' + (_BK_REF if st == '✅' else
                                                 r' · ' + _BK_WHYS + r' → booked #(\d+) instead'), rest)):
        a, o = ix.get(q[2]), ix.get(q[3])
        if a is None or o is None or o - a != int(q[4]) or o <= a: raise ValueError(f"booking {n}: dates {q[2]!r} → {q[3]!r} ({q[4]})")
        b.update(day=a, last=o - 1, venue=_unvenue(ph, q[1]), repl=int(q[5]) if st == '❌' else None)
        if st == '☑️': raise ValueError(f"booking {n}: a stay not booked")
    elif kind in ('Breakfast', 'Lunch', 'Dinner') and (q := re.fullmatch(r'(.+) · ([^·]+) · ' + {
            '✅': r'table for (\d+)' + _BK_REF, '☑️': r'walk-in, no reservation needed', '❌': _BK_WHYS + r' → booked #(\d+) instead'}[st], rest)):
        if st == '✅' and int(q[3]) != ppl: raise ValueError(f"booking {n}: table for {q[3]}")
        b.update(day=ix.get(q[2]), venue=_unvenue(ph, q[1]), repl=int(q[3]) if st == '❌' else None)
    else: raise ValueError(f"booking {n}: {st} {kind} · {rest!r}")
    if b['day'] is None: raise ValueError(f"booking {n}: date")
    return b


def _read_bk(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    n, ppl = len(plan), _people(task)
    ix = _dix(task, n, 'mon', extra=1)
    if lines[:4] != [lines[0], '', '**Bookings**', ''] or lines[0] not in _BK_INTRO: errs.append('intro')
    if lines[-2:] != ['', lines[-1]] or lines[-1] not in _BK_OUTRO: errs.append('outro')
    j, bk = 4, {}
    while j < len(lines) and lines[j]:
        m = _BK_LINE.fullmatch(lines[j])
        if not m or int(m[1]) != len(bk) + 1: errs.append(f"booking line {lines[j]!r}"); j += 1; continue
        bk[int(m[1])] = _bk_parse(int(m[1]), m[2], m[3], m[4], ix, ppl, ph)
        j += 1
    if lines[j:j + 2] != ['', '**Day by day**']: errs.append('no day plan')
    order = [b['day'] for b in bk.values()]
    if order != sorted(order): errs.append('bookings out of order')
    for b in bk.values():
        if b['st'] != '❌': continue
        c = bk.get(b['repl'])
        if b['repl'] != b['n'] + 1 or not c or c['st'] == '❌' or c['kind'] != b['kind'] or c['day'] != b['day'] or \
                c.get('last') != b.get('last') or _nm(c['venue']) == _nm(b['venue']) or _name_city(c['venue'])[1] != _name_city(b['venue'])[1]:
            errs.append(f"failed booking {b['n']} not replaced by the next one")
    days, saids, stays, any_none, used = [], [], [], False, {}
    for ln in lines[j + 2:-2]:
        if (h := re.fullmatch(r'\*\*Day (\d+) — (.+?) — (.+)\*\*', ln)):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h[3]))); saids.append([]); stays.append([])
            continue
        if not ln: continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k, said, i = days[-1], len(days), saids[-1], len(days) - 1
        ref = lambda x: (used.__setitem__(int(x), used.get(int(x), 0) + 1), bk.get(int(x), {}))[1]
        if (q := re.fullmatch(r'- ✈️ Flight (\S+) \(#(\d+)\)', ln)):
            b = ref(q[2])
            if b.get('kind') != f"Flight {q[1]}" or b.get('day') != i: errs.append(f"day {k}: {ln!r} points to {b}"); continue
            _put(g, 'leg', b['leg'], errs)
        elif (q := re.fullmatch(r'- (🚕 Taxi|🚗 Self-drive) (.+) → (.+) \(#(\d+)\)', ln)):
            b = ref(q[4])
            if b.get('kind') != q[1][2:] or b.get('day') != i or b['leg'][1:3] != (q[2], q[3]): errs.append(f"day {k}: {ln!r} points to {b}"); continue
            _put(g, 'leg', b['leg'], errs)
        elif ln.startswith('- 📍 '):
            if g['attraction']: errs.append(f"day {k}: sights twice")
            g['attraction'] = _unitems(ph, ln[4:])
        elif (q := re.fullmatch(r'- 🛏️ no stay — (last day|none booked)', ln)):
            _stay_once(stays[-1], k, errs)
            if (q[1] == 'last day') != (k == n): errs.append(f"day {k}: {ln!r}")
        elif (q := re.fullmatch(r'- 🛏️ (.+) \(#(\d+)\)', ln)):
            _stay_once(stays[-1], k, errs)
            b, v = ref(q[2]), _unvenue(ph, q[1])
            if b.get('kind') != 'Stay' or b['st'] == '❌' or not b['day'] <= i <= b['last'] or b['venue'] != v:
                errs.append(f"day {k}: {ln!r} points to {b}"); continue
            _put(g, 'accommodation', v, errs, f"day {k}: ")
        elif (q := re.fullmatch(r'- (🍳|🥪|🍝) no (breakfast|lunch|dinner) booked', ln)) and _BK_ICON[q[2]] == q[1]:
            any_none = True; _said(said, q[2], errs, f"day {k}: ")
        elif (q := re.fullmatch(r'- (🍳|🥪|🍝) (.+) \(#(\d+)\)', ln)) and (mm := _unmeal(ph, q[2])) and _BK_ICON[mm[0]] == q[1]:
            _said(said, mm[0], errs, f"day {k}: ")
            b, v = ref(q[3]), _unvenue(ph, mm[1])
            if b.get('kind') != mm[0].capitalize() or b['st'] == '❌' or b['day'] != i or b['venue'] != v:
                errs.append(f"day {k}: {ln!r} points to {b}"); continue
            _put(g, mm[0], v, errs, f"day {k}: ")
        else: errs.append(f"day {k}: line {ln!r}")
    for b in bk.values():
        want = 0 if b['st'] == '❌' else b['last'] - b['day'] + 1 if b['kind'] == 'Stay' else 1
        if used.get(b['n'], 0) != want: errs.append(f"booking {b['n']} referred to {used.get(b['n'], 0)} times, not {want}")
    if any(not s for s in stays): errs.append('a day without its stay line')
    if any_none: _all_said(saids, errs)
    return days, errs


# sv_cs_el_th_labels ---------------------------------------------------------------------------------------------------
def _tpl_re(tpl: str, **groups) -> str:
    "A regex of a template ('{a} → {b}') with each {name} a group."
    s = re.escape(tpl)
    for k, g in groups.items(): s = s.replace(re.escape('{' + k + '}'), f"(?P<{k}>{g})")
    return s


_LG_TIME = {'sv': (r'\d\d\.\d\d', lambda s: s.replace('.', ':')), 'cs': (r'\d\d:\d\d', str), 'el': (r'\d\d:\d\d', str),
            'th': (r'\d\d:\d\d น\.', lambda s: s[:-3])}


def _read_lg(text, task, plan, ph):
    lg = next((lg for lg in _LG12 if text.split('\n')[0] in _LG12[lg]['intro']), None)
    if lg is None: return [], ['language not found']
    L, errs, days, seen, any_none = _LG12[lg], [], [], [], False
    join = L['joins'].get(ph.join, ph.join)
    tre, tback = _LG_TIME[lg]
    fre = _tpl_re(L['flight'], n=r'\S+', a='.+', b='.+', dep=tre, arr=tre)
    rre = _tpl_re(L['road'], how=_alt(L['how'].values()), a='.+', b='.+', dur='.+', cost=r'\d+')
    labels = dict(zip(L['labels'], _LG_KEYS))
    back = {w: u for u, w in L['units'].items()}
    for ln in text.split('\n')[1:]:
        if ln.startswith('### '):
            want = L['head'].format(k=len(days) + 1, date=_lg_date(lg, task, len(days)), route='') if len(days) < len(plan) else None
            if not want or not ln.startswith(want): errs.append(f"head {ln!r}"); continue
            days.append(_blank(_back(ln[len(want):]))); seen.append([])
            continue
        if not ln.strip() or ln == L['outro']: continue
        lab, sep, v = ln[2:].partition(': ')
        if not days or not ln.startswith('• ') or not sep or lab not in labels: errs.append(f"line {ln!r}"); continue
        key, g, k = labels[lab], days[-1], len(days)
        if seen[-1] and _LG_KEYS.index(key) <= _LG_KEYS.index(seen[-1][-1]): errs.append(f"day {k}: {key} out of order")
        seen[-1].append(key)
        if v == L['none'] and not (key == 'accommodation' and k == len(plan)) or key == 'accommodation' and v == L['none_stay'] and k == len(plan):
            any_none = True; continue
        if key == 'leg':
            if (q := re.fullmatch(fre, v)): g['leg'] = _flight(q['n'], q['a'], q['b'], tback(q['dep']), tback(q['arr']))
            elif (q := re.fullmatch(rre, v)):
                parts = re.findall(r'(\d+) (' + '|'.join(map(re.escape, sorted(back, key=len, reverse=True))) + r')(?= |$)', q['dur'])
                if ' '.join(f"{a} {u}" for a, u in parts) != q['dur']: errs.append(f"duration {q['dur']!r}")
                dur = ' '.join(f"{a} {back[u]}" for a, u in parts)
                g['leg'] = _road_key('taxi' if q['how'] == L['how']['taxi'] else 'drive', q['a'], q['b'], dur, q['cost'])
            else: errs.append(f"day {k}: leg {v!r}")
        elif key == 'attraction': g['attraction'] = _unitems(ph, v, join, lg)
        else: g[key] = _unvenue(ph, v, lg)
    if any_none:
        for k, s in enumerate(seen, 1):
            if s != list(_LG_KEYS): errs.append(f"day {k}: labels {s}")
    return days, errs


# clock_only_timeline --------------------------------------------------------------------------------------------------
def _mins(t: str) -> int:
    h, m = map(int, t.split(':'))
    if h > 23 or m > 59: raise ValueError(f"time {t!r}")
    return 60 * h + m


def _read_cl(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    if lines[0] not in _CL_INTRO or lines[-1] not in _CL_OUTRO or lines[-2] != '': errs.append('intro / outro')
    ix = _dix(task, len(plan), 'slash')
    days, saids, stays, rows, any_none, code, modes = [], [], [], [], False, False, set()
    for ln in lines[1:-2]:
        if (h := re.fullmatch(r'\*\*Day (\d+) — (.+?) — (.+)\*\*', ln)):
            if code: errs.append('head inside a block')
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h[3]))); saids.append([]); stays.append([]); rows.append([])
            continue
        if not ln and not code: continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k = days[-1], len(days)
        if ln in ('```text', '```'):
            if (ln == '```text') == code or (ln == '```text' and rows[-1]): errs.append(f"day {k}: fence {ln!r}")
            code = ln == '```text'; modes.add('code'); continue
        if (q := re.fullmatch(r'✈️ (\S+) · (.+) → (.+) · (\d\d:\d\d)–(\d\d:\d\d)', ln)) and not code and not rows[-1]:
            _put(g, 'leg', _flight(*q.groups()), errs); continue
        if (q := re.fullmatch(r'(🚕|🚗) (.+) → (.+) · (taxi|self-drive) · (.+) · \$(\d+)', ln)) and not code and not rows[-1]:
            if (q[1] == '🚕') != (q[4] == 'taxi'): errs.append(f"day {k}: {ln!r}")
            _put(g, 'leg', _road_key('taxi' if q[4] == 'taxi' else 'drive', *q.groups()[1:3], q[5], q[6]), errs); continue
        q = re.fullmatch(r'(\d\d:\d\d(?:–\d\d:\d\d)?) +(.+)', ln) if code else re.fullmatch(r'- `(\d\d:\d\d(?:–\d\d:\d\d)?)` (.+)', ln)
        if not code: modes.add('bullets')
        if not q or (code and ln != f"{q[1]:<11}  {q[2]}"): errs.append(f"day {k}: line {ln!r}"); continue
        t = [_mins(x) for x in q[1].split('–')]
        if rows[-1] and (t[0] < rows[-1][-1] or len(t) == 2 and t[1] <= t[0]): errs.append(f"day {k}: {q[1]} out of order")
        rows[-1].append(t[-1])
        x = q[2]
        if x.startswith('🛏 '):
            _stay_once(stays[-1], k, errs)
            if len(t) != 1 or t[0] < 1260: errs.append(f"day {k}: night at {q[1]}")
            if x == '🛏 —': any_none = True
            else: _put(g, 'accommodation', _unvenue(ph, x[2:]), errs, f"day {k}: ")
            continue
        if len(t) != 2 or stays[-1]: errs.append(f"day {k}: {ln!r}"); continue
        s = t[0]
        slot = 'breakfast' if s < _CL_AM[0] else 'sight' if s < _CL_AM[1] else 'lunch' if s < _CL_PM[0] else 'sight' if s < _CL_PM[1] else \
            'dinner' if s < 1260 else None
        if slot is None: errs.append(f"day {k}: {ln!r} at night")
        elif slot == 'sight':
            if x == '—': errs.append(f"day {k}: an empty sight")
            else: g['attraction'].append(_unvenue(ph, x))
        else:
            _said(saids[-1], slot, errs, f"day {k}: ")
            if x == '—': any_none = True
            else: _put(g, slot, _unvenue(ph, x), errs, f"day {k}: ")
    if code: errs.append('unclosed block')
    if len(modes) != 1: errs.append(f"timeline modes {modes}")
    if any_none:
        _all_said(saids, errs)
        if any(not s for s in stays): errs.append('a day without its night line')
    return days, errs


# ascii_tree -----------------------------------------------------------------------------------------------------------
def _parse_tree(lines) -> list:
    "[label, [children]] of `tree` lines; the tree printed back must be the lines."
    root = [lines[0], []]
    stack = [root]
    for ln in lines[1:]:
        m = re.fullmatch(r'((?:│   |    )*)(├── |└── )(.*)', ln)
        if not m: raise ValueError(f"tree line {ln!r}")
        d = len(m[1]) // 4 + 1
        if d > len(stack): raise ValueError(f"tree line {ln!r} too deep")
        node = [m[3], []]
        stack[d - 1][1].append(node)
        del stack[d:]
        stack.append(node)
    tup = lambda x: (x[0], [tup(c) for c in x[1]])
    if _tree_lines(tup(root)) != list(lines): raise ValueError('tree lines not as `tree` prints them')
    return root


_TR_FL = re.compile(r'✈️ Flight (\S+) · (.+) → (.+) · (\d\d:\d\d) → (\d\d:\d\d)')
_TR_RD = re.compile(r'(🚕 Taxi|🚗 Self-drive) · (.+) → (.+) · (.+) · \$(\d+)')
_TR_GROUPS = ('🚦 Getting there', '🍽️ Meals', '📍 Sights', '🛏️ Night')


def _read_tree(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    if lines[0] not in _TR_INTRO or lines[1:3] != ['', '```text'] or lines[-3:-1] != ['```', ''] or lines[-1] not in _TR_OUTRO:
        errs.append('intro / outro')
    root = _parse_tree(lines[3:-3])
    n, ppl = len(plan), _people(task)
    d0, d1 = _date(task, 0), _date(task, n - 1)
    if root[0] != f"🧳 {n}-day trip · {_span_text(d0, d1)}, {d1.year} · {ppl} traveller{'s' * (ppl != 1)}": errs.append(f"root {root[0]!r}")
    kids = root[1]
    stays_top = bool(kids) and kids[-1][0] == '🛏️ Stays'
    ix = _dix(task, n, 'dm')
    days, saids, stays, any_none, grouped = [], [], [], False, set()
    for lab, items in kids[:-1] if stays_top else kids:
        h = re.fullmatch(r'Day (\d+) · (.+?) · (.+)', lab)
        if not h or int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"day node {lab!r}"); continue
        g, k, said = _blank(_back(h[3])), len(days) + 1, []
        days.append(g); saids.append(said); stays.append([])
        rank = []

        def leaf(x, where):
            nonlocal any_none
            if (q := _TR_FL.fullmatch(x)) and where in ('day', '🚦 Getting there'): _put(g, 'leg', _flight(*q.groups()), errs); return 0
            if (q := _TR_RD.fullmatch(x)) and where in ('day', '🚦 Getting there'):
                _put(g, 'leg', _road_key('taxi' if q[1] == '🚕 Taxi' else 'drive', *q.groups()[1:]), errs); return 0
            if where == '📍 Sights': g['attraction'].append(_unvenue(ph, x)); return 2
            if where == 'day' and x.startswith('📍 '): g['attraction'] += _unitems(ph, x[2:]); return 2
            if where in ('day', '🛏️ Night') and (x.startswith('🛏️ ') or where == '🛏️ Night'):
                v = x[3:] if where == 'day' else x
                _stay_once(stays[-1], k, errs)
                if v == '— (no stay)': any_none = True
                else: _put(g, 'accommodation', _unvenue(ph, v), errs, f"day {k}: ")
                return 6
            if where in ('day', '🍽️ Meals'):
                mm = (q[1], None) if (q := re.fullmatch(r'\(no (breakfast|lunch|dinner)\)', x)) else _unmeal(ph, x)
                if mm:
                    _said(said, mm[0], errs, f"day {k}: ")
                    if mm[1] is None: any_none = True
                    else: _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
                    return {'breakfast': 1, 'lunch': 3, 'dinner': 4}[mm[0]]
            errs.append(f"day {k}: {x!r} under {where!r}")
            return -1

        for lab2, sub in items:
            if lab2 in _TR_GROUPS and (sub or lab2 == '📍 Sights'):
                if lab2 != '📍 Sights': grouped.add(True)
                if not sub: errs.append(f"day {k}: empty {lab2!r}")
                rs = [leaf(x, lab2) for x, s2 in sub]
                if any(s2 for _, s2 in sub): errs.append(f"day {k}: nested too deep")
                if lab2 == '🛏️ Night' and len(sub) != 1: errs.append(f"day {k}: {len(sub)} nights")
                rank.append({'🚦 Getting there': 0, '🍽️ Meals': 1, '📍 Sights': 2, '🛏️ Night': 6}[lab2])
                if lab2 == '🍽️ Meals' and rs != sorted(rs): errs.append(f"day {k}: meals out of order")
            else:
                if sub: errs.append(f"day {k}: {lab2!r} has children")
                grouped.add(False)
                rank.append(leaf(lab2, 'day'))
        if rank != sorted(rank) or len(set(rank)) != len(rank): errs.append(f"day {k}: items out of order {rank}")
    if grouped == {True, False}:
        errs.append('grouped and flat days mixed')
    if stays_top:
        if any(stays): errs.append('stays in the days and in the Stays branch')
        runs = kids[-1][1]
        if runs == [('— (no overnight stay)', [])] or runs == [['— (no overnight stay)', []]]: runs = []
        for lab, sub in runs:
            q = re.fullmatch(r'(.+) — Nights? of Day (\d+)(?:–(\d+))? \(check-out (.+)\)', lab)
            if not q or sub: errs.append(f"stay {lab!r}"); continue
            a, b = int(q[2]), int(q[3] or q[2])
            if q[3] and b <= a or q[4] != _fmt(_date(task, b - 1) + _DAY_SPAN, 'dm'): errs.append(f"stay {lab!r}: dates")
            for i in range(a - 1, b):
                if i >= len(days): errs.append(f"stay {lab!r} after the trip"); break
                _put(days[i], 'accommodation', _unvenue(ph, q[1]), errs, f"night {i + 1}: ")
    elif any_none and any(not s for s in stays): errs.append('a day without its night')
    if any_none: _all_said(saids, errs)
    return days, errs


# callout_blocks -------------------------------------------------------------------------------------------------------
_CO_FL = re.compile(r'✈️ Flight (\S+) from (.+) to (.+) — departs (\d\d:\d\d), lands (\d\d:\d\d)')
_CO_RD = re.compile(r'(🚕 Taxi|🚗 Drive yourself) from (.+) to (.+) — about (.+), (~?)\$(\d+)')
_CO_WARN = (re.compile(r'> \*\*(.+)\*\* for (breakfast|lunch|dinner) on Day (\d+) — ' + _alt(_CO_WHY_MEAL) + r'; \2 stays at \*\*(.+)\*\*\.'),
            re.compile(r'> \*\*(.+)\*\* for the nights? of day (\d+)(?:–(\d+))? — ' + _alt(_CO_WHY_STAY) + r'; you stay at \*\*(.+)\*\*\.'),
            re.compile(r'> \*\*(.+)\*\* on Day (\d+) — ' + _alt(_CO_WHY_SIGHT) + r'; left out\.'))


def _read_co(text, task, plan, ph):
    errs, blocks = [], text.split('\n\n')
    if blocks[0] not in _CO_INTRO or blocks[-1] not in _CO_OUTRO: errs.append('intro / outro')
    n, ix = len(plan), _dix(task, len(plan), 'long')
    days, saids, stays, any_none, styles, warns = [], [], [], False, set(), []
    for b in blocks[1:-1]:
        ls = b.split('\n')
        if any(not x.startswith('>') for x in ls): errs.append(f"block {ls[0]!r} not quoted"); continue
        if ls[0] in ('> [!TIP]', '> [!tip] Tip'):
            styles.add(ls[0] == '> [!tip] Tip')
            if len(ls) != 2 or ls[1][2:] not in _CO_TIPS or not days: errs.append(f"tip {ls}")
            continue
        if ls[0] in ('> [!WARNING]', '> [!warning] Considered, not booked'):
            styles.add(ls[0] != '> [!WARNING]')
            if not days or len(ls) < 2: errs.append(f"warning {ls}")
            warns += [(len(days), x) for x in ls[1:]]
            continue
        if (h := re.fullmatch(r'> \[!abstract\]- (.+)', ls[0])): title, items = h[1], ls[1:]; styles.add(True)
        elif ls[0] == '> [!NOTE]' and len(ls) > 1 and (h := re.fullmatch(r'> \*\*(.+)\*\*', ls[1])): title, items = h[1], ls[2:]; styles.add(False)
        else: errs.append(f"block {ls[0]!r}"); continue
        h = re.fullmatch(r'Day (\d+) · (.+?) · (.+)', title)
        if not h or int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"title {title!r}"); continue
        g, k, said, nest = _blank(_back(h[3])), len(days) + 1, [], False
        days.append(g); saids.append(said); stays.append([])
        for x in items:
            if x.startswith('>   - '):
                if not nest: errs.append(f"day {k}: nested {x!r} outside the sights")
                else: g['attraction'].append(_unvenue(ph, x[6:]))
                continue
            if not x.startswith('> - '): errs.append(f"day {k}: line {x!r}"); continue
            x, nest = x[4:], False
            icon, _, v = x.partition(' ')
            if (q := _CO_FL.fullmatch(x)): _put(g, 'leg', _flight(*q.groups()), errs)
            elif (q := _CO_RD.fullmatch(x)):
                if (q[5] == '~') == (q[1] == '🚕 Taxi'): errs.append(f"day {k}: {x!r}")
                _put(g, 'leg', _road_key('taxi' if q[1] == '🚕 Taxi' else 'drive', q[2], q[3], q[4], q[6]), errs)
            elif x == '📍 Sights:':
                if g['attraction']: errs.append(f"day {k}: sights twice")
                nest = True
            elif icon == '📍':
                if g['attraction']: errs.append(f"day {k}: sights twice")
                g['attraction'] = _unitems(ph, v)
            elif icon == '🛏️':
                _stay_once(stays[-1], k, errs)
                if v in ('no stay (last day)', 'no stay (none booked)'):
                    if (v == 'no stay (last day)') != (k == n): errs.append(f"day {k}: {x!r}")
                else: _put(g, 'accommodation', _unvenue(ph, v), errs, f"day {k}: ")
            elif icon in _CO_ICON.values():
                mm = (q[1], None) if (q := re.fullmatch(r'no (breakfast|lunch|dinner)', v)) else _unmeal(ph, v)
                if not mm or _CO_ICON[mm[0]] != icon: errs.append(f"day {k}: meal {x!r}"); continue
                _said(said, mm[0], errs, f"day {k}: ")
                if mm[1] is None: any_none = True
                else: _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
            else: errs.append(f"day {k}: item {x!r}")
        if nest and not g['attraction']: errs.append(f"day {k}: an empty sights list")
    if len(styles) > 1: errs.append('GitHub and Obsidian callouts mixed')
    day = lambda k: days[k - 1] if 1 <= k <= len(days) else None
    for after, x in warns:                                   # each warning: right after its day, naming the plan's choice
        if (q := _CO_WARN[0].fullmatch(x)):
            g = day(int(q[3]))
            if int(q[3]) != after or g is None or g[q[2]] in ('-', None) or _nm(g[q[2]]) != q[4] or q[1] == q[4]: errs.append(f"warning {x!r}")
        elif (q := _CO_WARN[1].fullmatch(x)):
            a, b = int(q[2]), int(q[3] or q[2])
            ok = b == after and (not q[3] or b > a) and q[1] != q[4]
            for k in range(a, b + 1):
                ok = ok and (g := day(k)) is not None and g['accommodation'] not in ('-', None) and _nm(g['accommodation']) == q[4]
            if not ok: errs.append(f"warning {x!r}")
        elif (q := _CO_WARN[2].fullmatch(x)):
            g = day(int(q[2]))
            if int(q[2]) != after or g is None or q[1] in [_nm(v) for v in g['attraction']]: errs.append(f"warning {x!r}")
        else: errs.append(f"warning line {x!r}")
    if any(not s for s in stays): errs.append('a day without its stay line')
    if any_none: _all_said(saids, errs)
    return days, errs


# definition_list ------------------------------------------------------------------------------------------------------
_DL_FL = re.compile(r'✈️ Flight (\S+), (.+) → ([^,]+), (\d\d:\d\d) → (\d\d:\d\d)')
_DL_RD = re.compile(r'(🚕 Taxi|🚗 Self-drive), (.+) → ([^,]+), (.+), \$(\d+)')


def _read_dl(text, task, plan, ph):
    errs, lines = [], text.split('\n')
    use_html = lines[0] in _DL_HINTRO
    if lines[0] not in (_DL_HINTRO if use_html else _DL_INTRO) or lines[1] != '' or lines[-1] not in _DL_OUTRO: errs.append('intro / outro')
    ix = _dix(task, len(plan), 'ukyear')
    sections = []                                            # [(head, [(term, [definitions])])]
    if use_html:
        if lines[2] != '```html' or lines[-3:-1] != ['```', '']: errs.append('no html block')
        inside = False
        for ln in lines[3:-3]:
            if (q := re.fullmatch(r'<h3>(.+)</h3>', ln)):
                if inside: errs.append('<h3> inside a <dl>')
                sections.append((_unesc(q[1]), [])); continue
            if ln == '<dl>' and sections and not inside and not sections[-1][1]: inside = True; continue
            if ln == '</dl>' and inside: inside = False; continue
            if inside and (q := re.fullmatch(r'  <dt>(.+)</dt>', ln)): sections[-1][1].append((q[1], [])); continue
            if inside and (q := re.fullmatch(r'  <dd>(.+)</dd>', ln)) and sections[-1][1]: sections[-1][1][-1][1].append(_unesc(q[1])); continue
            errs.append(f"html line {ln!r}")
        if inside: errs.append('unclosed <dl>')
    else:
        prev = ''
        for ln in lines[2:-1]:
            if ln.startswith('## '):
                if prev != '': errs.append(f"head {ln!r} not after a blank line")
                sections.append((ln[3:], []))
            elif ln.startswith(':   '):
                if not sections or not sections[-1][1] or not (prev == sections[-1][1][-1][0] or prev.startswith(':   ')): errs.append(f"definition {ln!r}")
                else: sections[-1][1][-1][1].append(ln[4:])
            elif ln:
                if not sections or prev != '': errs.append(f"term {ln!r}")
                else: sections[-1][1].append((ln, []))
            prev = ln
    terms = {'Getting there': 'leg', **{ph.meal_word(m.capitalize()): m for m in _MEALS}, 'Sights': 'attraction', 'Overnight': 'accommodation'}
    days, saids, any_none = [], [], False
    for head, items in sections:
        h = re.fullmatch(r'Day (\d+) — (.+?) — (.+)', head)
        if not h or int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {head!r}"); continue
        g, k, said, seen = _blank(_back(h[3])), len(days) + 1, [], []
        days.append(g); saids.append(said)
        for t, ds in items:
            key = terms.get(t)
            if key is None or not ds: errs.append(f"day {k}: term {t!r} with {ds}"); continue
            if seen and _LG_KEYS.index(key) <= _LG_KEYS.index(seen[-1]): errs.append(f"day {k}: {t!r} out of order")
            seen.append(key)
            if key == 'attraction': g['attraction'] = [_unvenue(ph, x) for x in ds]; continue
            if len(ds) != 1: errs.append(f"day {k}: {len(ds)} definitions of {t!r}"); continue
            v = ds[0]
            if key in _MEALS: _said(said, key, errs, f"day {k}: ")
            if key == 'leg':
                if (q := _DL_FL.fullmatch(v)): g['leg'] = _flight(*q.groups())
                elif (q := _DL_RD.fullmatch(v)): g['leg'] = _road_key('taxi' if q[1] == '🚕 Taxi' else 'drive', *q.groups()[1:])
                else: errs.append(f"day {k}: leg {v!r}")
            elif v == '—': any_none = True
            else: g[key] = _unvenue(ph, v)
    if any_none: _all_said(saids, errs)
    return days, errs


_READERS = {'tweet_thread': _read_tw, 'react_trace': _read_rt, 'booking_confirmations': _read_bk, 'sv_cs_el_th_labels': _read_lg,
            'clock_only_timeline': _read_cl, 'ascii_tree': _read_tree, 'callout_blocks': _read_co, 'definition_list': _read_dl}


def _check_one(name, task, plan, text, ph) -> list[str]:
    "Errors of one rendering (`layouts_v8._check_with` with this part's readers)."
    return _check_with(_READERS, name, task, plan, text, ph)

# ---------------------------------------------------------------------------------------------------------- corruptions
def _tw_rebuild(text, drop):
    "A thread without the posts `drop(lines)` selects, renumbered (corrections' references too; one to a dropped post -> 0)."
    intro, posts, outro, hdr = _tw_posts(text)
    keep = [p for p in posts if not drop(p[2])]
    new_of, N = {p[0]: k for k, p in enumerate(keep, 1)}, len(keep)
    out = []
    for k, (_, _, ls) in enumerate(keep, 1):
        ls = [re.sub(r'^⚠️ Correction to (\d+)/\d+:', lambda m: f"⚠️ Correction to {new_of.get(int(m[1]), 0)}/{N}:", x) for x in ls]
        out.append('\n'.join([f"**Post {k}/{N}**"] + ls) if True in hdr else '\n'.join([f"{k}/{N} {ls[0]}"] + ls[1:]))
    return '\n\n'.join([intro] + out + [outro])


def _relabel(name, ph, text):
    "The text with its first lunch made a dinner (label and, where a layout has one, icon; the timeline: its time), else None."
    L, D = ph.meal_prefix('Lunch'), ph.meal_prefix('Dinner')
    if name == 'sv_cs_el_th_labels':
        lab = next((x['labels'] for x in _LG12.values() if f"• {x['labels'][3]}: " in text), None)
        return text.replace(f"• {lab[3]}: ", f"• {lab[4]}: ", 1) if lab else None
    if name == 'clock_only_timeline':
        m = re.search(r'(?m)^(?:- `)?(1[23]:\d\d–1[34]:\d\d)(?=`? +[^—])', text)
        return text[:m.start(1)] + '19:45–21:00' + text[m.end(1):] if m else None
    if name == 'definition_list':
        a, b = ph.meal_word('Lunch'), ph.meal_word('Dinner')
        for x, y in ((f"<dt>{a}</dt>", f"<dt>{b}</dt>"), (f"\n{a}\n:   ", f"\n{b}\n:   ")):
            if x in text: return text.replace(x, y, 1)
        return None
    a, b = {'tweet_thread': (f"🥪 {L}", f"🍝 {D}"), 'react_trace': (f"  • {L}", f"  • {D}"), 'booking_confirmations': (f"- 🥪 {L}", f"- 🍝 {D}"),
            'ascii_tree': (f"── {L}", f"── {D}"), 'callout_blocks': (f"> - 🥪 {L}", f"> - 🍝 {D}")}[name]
    return text.replace(a, b, 1) if a in text else None


_DAY_HEAD = {'react_trace': r'Day \d+ \| ', 'booking_confirmations': r'\*\*Day \d+ — ', 'sv_cs_el_th_labels': r'### ',
             'clock_only_timeline': r'\*\*Day \d+ — ', 'ascii_tree': r'[├└]── Day \d+ · ', 'callout_blocks': r'> \[!(?:NOTE|abstract)\]',
             'definition_list': r'(?:## |<h3>)Day \d+ — '}


def _drop_day(name, text, task, k=1):
    "The text without the k-th day (0-based) it states: its lines up to the next day's head (the thread: its posts)."
    if name == 'tweet_thread': return _tw_rebuild(text, lambda ls: ls[0].startswith(f"📅 Day {k + 1} ("))
    out, skip, d = [], False, -1
    for ln in text.split('\n'):
        if re.match(_DAY_HEAD[name], ln): d += 1; skip = d == k
        if not skip: out.append(ln)
    return '\n'.join(out)


def _time_shift(name, plan, text):
    "The first flight's departure moved a minute, in the line of the plan that states it (Swedish '15.40' too)."
    fl = [_leg_parts(d['transportation']) for d in plan if d['transportation'].startswith('Flight')]
    if not fl: return None
    dep, num = fl[0]['dep'], fl[0]['number']
    h, m = map(int, dep.split(':'))
    new = f"{h:02d}:{(m + 1) % 60:02d}" if m < 59 else f"{h:02d}:{m - 1:02d}"
    lines = text.split('\n')
    start = lines.index('Final Answer:') if name == 'react_trace' and 'Final Answer:' in lines else 0
    for j in range(start, len(lines)):
        for a, b in ((dep, new), (dep.replace(':', '.'), new.replace(':', '.'))):
            if num in lines[j] and a in lines[j]:
                lines[j] = lines[j].replace(a, b, 1)
                return '\n'.join(lines)
    return None


def _decoy_promotions(name, plan, text, task, ph):
    "[(what, text)]: a decoy of the layout taken for the plan, coherently (the text then states the decoy as chosen)."
    out, lines = [], text.split('\n')
    if name == 'tweet_thread' and '⚠️ Correction to ' in text:
        first = next(p[2][0] for p in _tw_posts(text)[1] if p[2][0].startswith('⚠️ Correction to '))
        out.append(("a correction dropped (the first pick kept)", _tw_rebuild(text, lambda ls: ls[0] == first)))
    if name == 'react_trace' and 'Final Answer:' in lines:
        fa = lines.index('Final Answer:')
        for ln in lines[:fa]:
            q = _RT_SWITCH[0].search(ln) or _RT_SWITCH[1].search(ln)
            if not q: continue
            meal = q.re is _RT_SWITCH[0]
            a, b = int(q[1]), (int(q[1]) if meal else int(q[2] or q[1]))
            x = _nm(plan[a - 1][q[2]] if meal else plan[a - 1]['accommodation'])
            y = next((y for y, xx in _pairs(q[3], ' to ') if xx == x), None)
            if y is None: continue
            new, k = list(lines), 0
            for j in range(fa + 1, len(new)):
                if (h := re.match(r'Day (\d+) \| ', new[j])): k = int(h[1]); continue
                if a <= k <= b and (new[j].startswith('  • Stay: ') if not meal else new[j].startswith(f"  • {ph.meal_prefix(q[2].capitalize())}")):
                    new[j] = new[j].replace(x, y, 1)
            out.append(("the tentative pick kept in the final answer", '\n'.join(new)))
            break
    if name == 'booking_confirmations':
        dt = r'[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}'
        bname = lambda m: _nm(_unvenue(ph, re.match(rf'(.+) · {dt} → {dt} \(' if m[3] == 'Stay' else rf'(.+) · {dt} · ', m[4])[1]))
        for j, ln in enumerate(lines):
            if (m := _BK_LINE.fullmatch(ln)) and m[2] == '❌' and (c := _BK_LINE.fullmatch(lines[j + 1])):
                nb, y, x = int(c[1]), bname(m), bname(c)
                new = list(lines)
                new[j] = ln.replace(y, x, 1); new[j + 1] = new[j + 1].replace(x, y, 1)
                for i in range(j + 2, len(new)):
                    if new[i].endswith(f"(#{nb})"): new[i] = new[i].replace(x, y, 1)
                out.append(("the failed booking taken", '\n'.join(new)))
                break
    if name == 'callout_blocks':
        for j, ln in enumerate(lines):
            q = _CO_WARN[0].fullmatch(ln) or _CO_WARN[1].fullmatch(ln)
            if not q: continue
            meal = q.re is _CO_WARN[0]
            a, b = (int(q[3]), int(q[3])) if meal else (int(q[2]), int(q[3] or q[2]))
            y, x = q[1], q[4]
            new, k = list(lines), 0
            for i, ln2 in enumerate(new):
                if (h := re.search(r'Day (\d+) · ', ln2)) and ln2.startswith(('> **Day', '> [!abstract]')): k = int(h[1]); continue
                if a <= k <= b and (ln2.startswith('> - 🛏️ ') if not meal else ln2.startswith(f"> - {_CO_ICON[q[2]]} {ph.meal_prefix(q[2].capitalize())}")):
                    new[i] = ln2.replace(x, y, 1)
            new[j] = ln.replace(f"**{y}**", '\0').replace(f"**{x}**", f"**{y}**").replace('\0', f"**{x}**")
            out.append(("the rejected alternative taken", '\n'.join(new)))
            break
    return out


def _longer_stay(name, text, task, n):
    "A stay made one night longer (booking_confirmations: its check-out and nights; ascii_tree: its Stays entry)."
    if name == 'booking_confirmations' and (m := re.search(r'(?m)^\d+\. ✅ \*\*Stay\*\* · .+ → (.+?) \((\d+) nights?\)', text)):
        ix = _dix(task, n, 'mon', extra=2)
        if m[1] in ix:
            return text[:m.start(1)] + f"{_fd(task, ix[m[1]] + 1, 'mon')} ({int(m[2]) + 1} nights)" + text[m.end():]
    if name == 'ascii_tree' and (m := re.search(r' — Nights? of Day (\d+)(?:–(\d+))? \(check-out (.+?)\)', text)):
        a, b = int(m[1]), int(m[2] or m[1])
        return text[:m.start()] + f" — Nights of Day {a}–{b + 1} (check-out {_fmt(_date(task, b) + _DAY_SPAN, 'dm')})" + text[m.end():]
    return None


def mutations(name, plan, text, task, ph):
    """[(kind, what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a
    flight renumbered, sights of two days swapped, two stays swapped, a lunch labelled dinner (the timeline: moved to the
    evening), a day dropped, a flight's departure moved; per layout a decoy promoted (a correction dropped, a tentative
    pick kept, a failed booking taken, a rejected alternative taken) and a stay made a night longer (booking_confirmations,
    ascii_tree)."""
    out = _common_mutations(plan, text)
    if (s := _relabel(name, ph, text)): out.append(('a lunch labelled dinner', '', s))
    out.append(('a day dropped', 'day 2', _drop_day(name, text, task, 1)))
    if (s := _time_shift(name, plan, text)): out.append(("a flight's departure moved", '', s))
    out += [('decoy promoted', w, s) for w, s in _decoy_promotions(name, plan, text, task, ph)]
    if (s := _longer_stay(name, text, task, len(plan))): out.append(("a stay made a night longer", '', s))
    return [x for x in out if x[2] != text]


_HAS_DECOY = {'tweet_thread': lambda t: '⚠️ Correction to ' in t, 'react_trace': lambda t: ': Tentatively' in t,
              'booking_confirmations': lambda t: '. ❌ **' in t, 'callout_blocks': lambda t: '[!WARNING]' in t or '[!warning]' in t}


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    "The part's self-check (`layouts.selfcheck_part`): failures + missed corruptions."
    return selfcheck_part(HELDOUT12_LAYOUTS, _phr, _check_one, mutations,
                          lambda lay, text: lay in _HAS_DECOY and _HAS_DECOY[lay](text), plans, mutate_every)


if __name__ == '__main__':
    part_cli(__doc__, HELDOUT12_LAYOUTS, _phr, selfcheck)
