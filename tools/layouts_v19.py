#!/usr/bin/env python
"""Held-out part v19 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their notebooks
(04a, 04b, 05), tests (test_grounded*, test_layout*, test_robustness*) or results/formatter/* were opened, nothing under
/work/m, /work/main or /work/wt and no git history was read, no reader was run on these texts, and `tools/layouts.py
measure` / `record` were not run). Only tools/layouts.py (its interface and its layouts' source, to avoid repeating them),
tools/agreement.py (`_leg_parts`, `_attractions`), tools/layouts_v18.py (in full) and tools/layouts_v5.py ... layouts_v17.py
(their docstrings, phrasings and the generic helpers imported here, from v8, v9, v10, v12, v13, v15, v16, v17 and v18)
were read; star/evaluator.py was not opened (its `eval_index()` is used only through those helpers: the cities through
layouts_v15's `_cities`, the states' full names through layouts_v10's `_STATE_OF`, the stays' prices through layouts_v18's
`_lodging`, as earlier parts use them). SEALED: this part is to be scored ONCE by the lead (via tools/layouts.py, part
'heldout19', once registered there) and never tuned on before that score.

    python tools/layouts_v19.py check                    # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (the brochure's day blocks, their
                                                         # meal codes against the meals read and the "includes" list
                                                         # recomputed; the hedged bullets with their hedges cut off; the
                                                         # Japanese / Chinese / Korean / Russian sentences, '。' with no
                                                         # space after it, plurals and durations; the Reddit post, its
                                                         # TL;DR recomputed and its comment threads; the key paths built
                                                         # into a tree, the stay records against the days' references
                                                         # and their dates; the week grid read down its columns; the
                                                         # story's chapters by their number words; the chat's turns) into
                                                         # the plan's own values (venue 'Name, City', route, leg parts)
                                                         # and compared with the plan EXACTLY; then corruptions (a name
                                                         # deleted, lunches swapped, a day dropped, a decoy promoted, a
                                                         # skipped sight planned, a flight time moved, a stay lengthened,
                                                         # ...) must be caught. 315 plans x 8 layouts = 2,520 renderings,
                                                         # 23,006 corruptions, ~20-40 s
    python tools/layouts_v19.py check --limit 40         # the same on the first 40 known plans (~5 s)
    python tools/layouts_v19.py show week_grid --n 1     # print renderings (--kind gold | synthetic | <violation>, --days 5)

The layouts imitate how tour operators, chat models, apps and people write a 3/5/7-day trip plan, in styles that none of
tools/layouts.py, tools/layouts_v5.py ... tools/layouts_v18.py has (see each renderer's docstring):

* `tour_brochure`        a TOUR OPERATOR's printed itinerary: an upper-case operator, a tour-code line, a meal-code key,
                         per day "DAY 2 · Thursday 17 March · Rockford (B, L, D)" — the included MEALS AS CODES after the
                         title — one paragraph of brochure sentences ("Fly from A to B on flight F1, departing at 15:40
                         and arriving at 17:04.", "Pick up your car and drive from A to B (approx. 3 hrs 11 mins; fuel
                         approx. $120).", "Stop for lunch at X.", "Sightseeing includes A ⟹ B.", "Lunch at leisure.")
                         and "Overnight: W (2 nights)" / "Overnight: as Day 1" / "W (night 2 of 2)"; then "YOUR TOUR
                         INCLUDES" (flights, stays by name and nights, meal and sight counts), "NOT INCLUDED" and the
                         DECOYS under "IMPORTANT NOTES" ("• Day 2: lunch is at X rather than Y — it is closed that day.",
                         "• Not included: S (Day 2) — not enough time.", "• Nights 1–2: Z was fully booked, so you stay
                         at W.")
* `hedged_llama`         a Llama-2 / Mistral answer, HEAVILY HEDGED: " Sure, I'd be happy to help ...!", plain "Day 2
                         (Thursday, March 17): Rockford" lines, "*" bullets with could / might / may ("* Transportation:
                         You could take flight F1, which departs A at 15:40 and arrives in B at 17:04. Please note ...",
                         "* Lunch => X. You might want to make a reservation ...", "* Sightseeing: A ⋄ B.", "*
                         Accommodation: W for 2 nights. However, ..." then "You could stay at the same place as the
                         previous night."), unrelated numbered tips and an "I'm just an AI" disclaimer; DECOYS as hedged
                         bullets ("* Alternatively, you could also consider Y for lunch — however, I haven't included it
                         in the itinerary, as ...", "* You might also have heard of S — I'd skip it this time, ...", "*
                         Another option for Nights 1–2 would have been Z, but ..., so I haven't included it.")
* `cjk_ru_prose`         PROSE in Japanese, Chinese, Korean or Russian (drawn), names in English: "**2日目 3月17日（木）：
                         Rockford**", "**第2天：3月17日 星期四（Rockford）**", "**2일차 — 3월 17일 (목) · Rockford**", "**День
                         2 — четверг, 17 марта (Rockford)**" and one paragraph — Japanese and Chinese sentences end in '。'
                         with NO space ("フライト F1 便で A を 15:40 に出発し、B には 17:04 に到着します。", "午餐推荐X。", "점심은 X에서
                         먹습니다.", "Обед в X." — Russian 'обед' is LUNCH), durations '3時間11分' / '3小时11分钟' / '3시간 11분' /
                         '3 ч 11 мин', nights '2泊' / '2晚' / '2박' / '2 ночи' (Russian plurals), unnamed nights
                         ("同じ宿にもう一泊します。", "仍住同一家酒店。", "Ночуем там же."), the placements translated (the city
                         BEFORE the name in "Rockford にある X", "位于Rockford的X", "Rockford에 있는 X"); DECOYS in brackets
                         ("（Y も候補でしたが、その日は定休日です。）", "（S这次不去了：时间不够。）", "(Z은(는) 만실이었습니다.)")
* `reddit_rate_my_plan`  a Reddit "rate my itinerary" post copied with its comments: "r/travel • Posted by u/...", a
                         title, per day "**Day 2 (Thu 3/17) — Rockford**" and casual lower-case lines ("- flying F1 —
                         leaves A 15:40, lands in B 17:04", "- driving myself A → B (about 3h 11m, ~$120 in gas)", "-
                         lunch => X", "- sights: A ⟹ B", "- staying at W for 2 nights", "- same place as last night"), an
                         "EDIT:", a TL;DR with counts, the vote bar; the DECOYS are other users' suggestions that OP
                         turns down in indented replies ("Have you looked at Y for lunch on day 2? way better than X
                         imo" / "    looked at it but it's closed that day, so I'm sticking with X", "don't skip S on
                         day 2!!", "Z is cheaper for nights 1–2 btw" / "    it was sold out when I checked, so W it is")
* `flat_key_paths`       a trip app's "Copy as text" export, NOT in a code block: one FLATTENED KEY PATH per line
                         ("days[1].items[2].name = Flying Mango"), ZERO-BASED indices, the route and transport as keys
                         (".transport.depart = 15:40", ".duration = 3 h 11 min", ".duration_min = 191"), the items in the
                         order of the day with ".type" / ".meal" and the name and city APART, ".unplanned = breakfast",
                         ".stay = stays[0]" — a REFERENCE to a stay record (check_in, check_out, nights) written once;
                         DECOYS as the app keeps them: ".alternatives[0].name = Y" with ".status = rejected — closed
                         that day", an attraction item with ".status = skipped — not enough time", a stay's alternative
* `week_grid`            a CALENDAR WEEK VIEW: one markdown table, a COLUMN PER DAY and a ROW PER HOUR ("| 08:00 |",
                         "🌅 early" / "🌃 late"), a day read DOWN its column: a "📍" route row, each item in the cell of
                         the hour it starts ('<br>' between several): "✈️ F1 · A 15:40 → B 17:04" (in its departure's
                         row), "🚗 A → B · 3 h 11 min · $120", "🥪 Lunch => X", "🎟️ A"; a "🛏️ night" row ("🏨 W · 2
                         nights", "🏨 same as Day 1", "night 2/2") and a "✏️ notes" row with the DECOYS ("✗ not Y for
                         lunch — closed that day", "✗ S — skipped, not enough time", "✗ Z for nights 1–2 — no rooms left")
* `second_person_chapters` the trip told as a STORY in the second person, present tense: "## Chapter Two — Thursday,
                         March 17: Rockford" (the day number a WORD), one paragraph mixing mood sentences without names
                         and the plan ("At 15:40, flight F1 lifts off from A; at 17:04 you touch down in B.", "Lunch
                         finds you at X.", "You wander through A ⟹ B.", "You check in at W, your home for two nights." —
                         the nights in words —, "Back in your room for the night, you fall asleep quickly."); DECOYS as
                         story sentences ("You had thought about Y instead, but it is closed today.", "You leave S for
                         another trip — ...", "You had hoped to stay at Z, but it was fully booked.")
* `chat_followups`       a ChatGPT conversation copied from the web page ("You said:" / "ChatGPT said:"), the plan
                         given ONE DAY PER TURN ("**Day 2 — Thursday, March 17 · Rockford**", "- ✈️ Flight F1: A → B,
                         departs 15:40, arrives 17:04", "- 📍 A", "- 🏨 Check in: W (2 nights)", "- 🏨 Same hotel as
                         last night") between the user's "next" turns; the DECOYS are the user's change requests that
                         the assistant turns down ("could we do Y for lunch on day 2 instead?" / "I'd keep X for lunch —
                         Y is closed that day. ...", "can we squeeze in S on day 2?", "what about Z instead of W?")

Phrasings (`HELDOUT19_PHRASES`, drawn per rendering by `Phr19`): venue placed as 'X (City metro)', 'X, found in City',
'X in City (Illinois)' (the state's full name; 'X in City' for a city the database places in no state) or 'X, City'
(translated in cjk_ru_prose: 'X（Rockford 市内）', 'Rockford にある X', '位于Rockford的X', 'X（Illinois州Rockford市）', 'X(Illinois주
Rockford)', 'X, что в Rockford', 'X (Rockford, штат Illinois)', ...; flat_key_paths keeps name and city in their own
keys); several sights joined by ' ⟹ ', ' ⋄ ', ', and afterwards ', ', moving on to ' (the last two translated in
cjk_ru_prose); meal labels 'Lunch: we eat at X', 'Lunch => X', 'Lunch: dine at X' or 'Lunch: X' (in hedged_llama,
reddit_rate_my_plan — the meal word lower-case —, week_grid and chat_followups; the other layouts say their meals in
sentences, codes or keys). Every rendering states the whole plan: each day's route, the leg (flight number and times, or
self-drive / taxi with duration and cost), each meal's restaurant (or none: absent, or said to be none), each attraction
and the accommodation (named, or 'the same place' as a night the text names, or a reference to a stay record); names
are verbatim (words are only added around them; markdown tables escape '|'); the noise (hedges, tips, disclaimers, mood
sentences, tour codes, the includes list, the TL;DR, votes, comments without names, approximate hours, statuses and
prices) never contradicts the plan; every rendering carries at least one decoy."""
from __future__ import annotations

import datetime, math, random, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _name_city, known_plans, part_cli, selfcheck_part            # noqa: E402
from layouts_v8 import (_cities as _ab, _cmp, _common_mutations, _MEALS, _blank, _date, _dur_key, _get, _norm, _people, _put,  # noqa: E402
                        _road_key, _said, _swap)
from layouts_v9 import _back, _rt  # noqa: E402
from layouts_v10 import _STATE_OF, _day_runs, _flight, _nm  # noqa: E402
from layouts_v12 import _alt  # noqa: E402
from layouts_v13 import _first_line_sub, _tre  # noqa: E402
from layouts_v15 import _cities, _with_leg  # noqa: E402
from layouts_v16 import _cut_lines, _mdesc, _mdunesc, _resolve, _shift, _split_cells  # noqa: E402
from layouts_v17 import _apply_nights, _decoys, _runs_of, _tmpl  # noqa: E402
from layouts_v18 import _bump, _df, _dur_min, _lo_route, _lodging, _night_of, _ns, _range, _same_as, _stays_of  # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT19_PHRASES = {
    'locative': ('metro', 'found_in', 'paren_state', 'comma'),   # 'X (City metro)' | 'X, found in City' | 'X in City (Illinois)' | 'X, City'
    'join': (' ⟹ ', ' ⋄ ', ', and afterwards ', ', moving on to '),
    'meal_label': ('we_eat', 'fat_arrow', 'dine_at', 'colon'),    # 'Lunch: we eat at X' | 'Lunch => X' | 'Lunch: dine at X' | 'Lunch: X'
}

_VT19 = {   # the placement's words per language ('state0': 'paren_state' for a city the database gives no US state)
    'en': {'metro': '{n} ({c} metro)', 'found_in': '{n}, found in {c}', 'state': '{n} in {c} ({S})', 'state0': '{n} in {c}'},
    'ja': {'metro': '{n}（{c} 市内）', 'found_in': '{c} にある {n}', 'state': '{n}（{S} 州 {c}）', 'state0': '{n}（{c}）'},
    'zh': {'metro': '{n}（{c}市区）', 'found_in': '位于{c}的{n}', 'state': '{n}（{S}州{c}市）', 'state0': '{n}（{c}市）'},
    'ko': {'metro': '{n}({c} 시내)', 'found_in': '{c}에 있는 {n}', 'state': '{n}({S}주 {c})', 'state0': '{n}({c})'},
    'ru': {'metro': '{n} (в черте {c})', 'found_in': '{n}, что в {c}', 'state': '{n} ({c}, штат {S})', 'state0': '{n} ({c})'},
}
_VRE19 = {lg: {k: _tre(t) for k, t in T.items()} for lg, T in _VT19.items()}
_JOIN19 = {   # the worded joins translated (the symbol joins are kept)
    'ja': {', and afterwards ': '、その後 ', ', moving on to ': '、続いて '},
    'zh': {', and afterwards ': '，之后', ', moving on to ': '，接着去'},
    'ko': {', and afterwards ': ', 그다음 ', ', moving on to ': ', 이어서 '},
    'ru': {', and afterwards ': ', а после этого ', ', moving on to ': ', затем '},
}


def _venue(ph, v: str, lg: str = 'en') -> str:
    "A venue 'Name, City' as `ph` places it (in language `lg`)."
    n, c = _name_city(v)
    if not c: return n
    if ph.loc == 'comma': return f"{n}, {c}"
    if ph.loc == 'paren_state':
        return _VT19[lg]['state'].format(n=n, c=c, S=_STATE_OF[c]) if c in _STATE_OF else _VT19[lg]['state0'].format(n=n, c=c)
    return _VT19[lg][ph.loc].format(n=n, c=c)


def _unvenue(ph, s: str, lg: str = 'en') -> str:
    "'Name, City' of a venue as `_venue` writes it; a placement that is not the drawn one is an error."
    bad = ValueError(f"venue {s!r} not placed as {ph.loc} ({lg})")
    if ph.loc == 'comma':
        n, sep, c = s.rpartition(', ')
        if not sep or not n or c not in _cities(): raise bad
        return f"{n}, {c}"
    if ph.loc == 'paren_state':
        m = _VRE19[lg]['state'].fullmatch(s)
        if m and m['n'] and _STATE_OF.get(m['c']) == m['S']: return f"{m['n']}, {m['c']}"
        m = _VRE19[lg]['state0'].fullmatch(s)
        if not m or not m['n'] or m['c'] in _STATE_OF or m['c'] not in _cities(): raise bad
        return f"{m['n']}, {m['c']}"
    m = _VRE19[lg][ph.loc].fullmatch(s)
    if not m or not m['n'] or m['c'] not in _cities(): raise bad
    return f"{m['n']}, {m['c']}"


def _ljoin(lg: str, J: str) -> str: return _JOIN19.get(lg, {}).get(J, J)


class Phr19(Phr):
    "`Phr` with the v19 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        if self.loc in HELDOUT19_PHRASES['locative']: return _venue(self, v)
        return super().venue(v)

    def items(self, vs: list[str]) -> str: return self.join.join(self.venue(a) for a in vs)

    def meal_prefix(self, label: str) -> str:
        "The words before a meal's venue: 'Lunch: we eat at ' | 'Lunch => ' | 'Lunch: dine at ' | 'Lunch: '."
        return {'we_eat': f"{label}: we eat at ", 'fat_arrow': f"{label} => ", 'dine_at': f"{label}: dine at "}.get(self.label, f"{label}: ")

    def meal(self, label: str, v: str) -> str: return self.meal_prefix(label) + self.venue(v)

    def unmeal(self, s: str, case=str.capitalize):
        "(meal, 'Name, City') of a text `meal` wrote with the meal word as `case` writes it, else None."
        for m in _MEALS:
            p = self.meal_prefix(case(m))
            if s.startswith(p) and len(s) > len(p): return m, _unvenue(self, s[len(p):])
        return None


PHR19 = Phr19

# -------------------------------------------------------------------------------------------------------------- helpers
_DECOY_LOG: dict[str, list] = {}
"""Rendered text -> [(y, x)]: each decoy name y and the plan's name x it stands against (written by the renderers, read only by
the corruptions, which promote a decoy; the readers never look at it)."""


def _log(text: str, pairs) -> str:
    if len(_DECOY_LOG) > 4000: _DECOY_LOG.clear()
    _DECOY_LOG[text] = [(y, x) for y, x in pairs if y and x and y != x]
    return text


_DUR19 = {   # duration styles: (hour words, minute words, joiner, between a number and its unit)
    'words': (('hour', 'hours'), ('minute', 'minutes'), ' and ', ' '),
    'hm': (('h', 'h'), ('min', 'min'), ' ', ' '),
    'hrs': (('hr', 'hrs'), ('min', 'mins'), ' ', ' '),
    'short': (('h', 'h'), ('m', 'm'), ' ', ''),
    'ja': (('時間', '時間'), ('分', '分'), '', ''),
    'zh': (('小时', '小时'), ('分钟', '分钟'), '', ''),
    'ko': (('시간', '시간'), ('분', '분'), ' ', ''),
    'ru': (('ч', 'ч'), ('мин', 'мин'), ' ', ' '),
}


def _dur(s: str, style: str) -> str:
    "A plan's duration ('3 hours 11 mins') in a style of `_DUR19` ('3 hours and 11 minutes', '3 hrs 11 mins', '3時間11分', ...)."
    H, M, J, S = _DUR19[style]
    parts = []
    for n, u in _dur_key(s):
        if u == 'day': raise ValueError(f"duration {s!r}: days")
        parts.append(f"{n}{S}{(H if u == 'hour' else M)[n != 1]}")
    return J.join(parts)


def _undur(s: str, style: str) -> str:
    "A duration `_dur` wrote, back as the plan writes it ('3 hours 11 mins'; compared by `layouts_v8._dur_key`)."
    H, M, J, S = _DUR19[style]
    rx = rf"(?:(?P<h>\d+){S}{_alt(H)}(?:{re.escape(J)}(?P<m>\d+){S}{_alt(M)})?|(?P<m2>\d+){S}{_alt(M)})"
    q = re.fullmatch(rx, s)
    if not q: raise ValueError(f"duration {s!r} not in style {style}")
    h, m = q['h'], q['m'] or q['m2']
    out = ' '.join(x for x in ((f"{h} hours" if h else ''), (f"{m} mins" if m else '')) if x)
    if _dur(out, style) != s: raise ValueError(f"duration {s!r} not as {style} writes it")
    return out


def _scan19(par: str, templates: dict, ok=None, enders: str = '.!)', sep: str = ' ') -> list[tuple[str, dict]]:
    """A paragraph of sentences read back by their templates (name -> `_tmpl`), as `layouts_v17._scan` reads one, the
    sentences ending in a character of `enders` followed by `sep` (or the paragraph's end): '。' and '）' with no space
    after them in Japanese and Chinese; the shortest sentence that any template reads first (a decoy's free name never
    runs into the next sentence). [(template name, groups)]; raises ValueError where no cut reads."""
    rxs = [(k, re.compile(rx, re.S), st) for k, (rx, st) in templates.items()]
    ends = [e for e in range(1, len(par) + 1) if par[e - 1] in enders and (e == len(par) or par.startswith(sep, e))]
    bad: set = set()

    def go(p):
        if p >= len(par): return []
        if p in bad: return None
        cands = [(k, rx) for k, rx, st in rxs if par.startswith(st, p)]
        for e in ends:                       # the shortest sentence first, whichever template reads it
            if e <= p: continue
            for k, rx in cands:
                m = rx.fullmatch(par, p, e)
                if m and (ok is None or ok(k, m.groupdict())) and (rest := go(e + len(sep))) is not None: return [(k, m.groupdict())] + rest
        bad.add(p)
        return None
    out = go(0)
    if out is None: raise ValueError(f"paragraph not read: {par[:80]!r}")
    return out


def _ok19(ph, lg='en', J=None, venue_keys=('v',), sight_keys=('s',)):
    "A `_scan19` check: the template's venue groups placed as `ph` places them (sight groups split at the join `J`)."
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


def _rx(T: dict, **kinds) -> dict:
    "Sentence templates {kind: (template, ...)} as `_scan19` templates {kind + index: (regex, literal start)}."
    return {f"{k}{j}": _tmpl(t, **kinds) for k, ts in T.items() for j, t in enumerate(ts)}


def _pat(t: str, **kinds) -> re.Pattern:
    "A template ('{z} is cheaper for {tag} btw') as a regex: each {name} a group, lazy free text unless `kinds` gives its pattern."
    out, pos = '', 0
    for m in re.finditer(r'\{(\w+)\}', t):
        out += re.escape(t[pos:m.start()]) + f"(?P<{m[1]}>{kinds.get(m[1], '.+?')})"
        pos = m.end()
    return re.compile(out + re.escape(t[pos:]))


def _kind(key: str) -> str: return key.rstrip('0123456789')


def _nights_tag(a: int, b: int) -> str: return f"Night {a}" if a == b else f"Nights {a}–{b}"


def _untag(tag: str, errs) -> tuple[int, int]:
    "(first, last night) of 'Night 2' / 'Nights 1–2'."
    m = re.fullmatch(r'Nights? (\d+)(?:–(\d+))?', tag)
    a, b = int(m[1]), int(m[2] or m[1])
    if (b > a) != tag.startswith('Nights') or b < a: errs.append(f"tag {tag!r}")
    return a, b


def _run_of(plan) -> dict:
    "{day index: (first, last day index)} of the run of nights it belongs to."
    return {x: (a, b) for a, b, _ in _day_runs(plan) for x in range(a, b + 1)}


def _finish(days, nights, nofs, checks, errs):
    "The nights read applied ('Night j of N' / 'same as Day a' checked), then the decoys resolved against the plan read."
    for k, j, N in nofs:
        if N is None: _same_as(nights, k, j, errs, f"day {k}: ")
        else: _night_of(nights, k, j, N, errs, f"day {k}: ")
    _apply_nights(days, [None if x and x[0] == 'home' else x for x in nights], errs)
    _resolve(days, checks, errs)
    return days, errs


# ============================================================================================================ layouts
# tour_brochure --------------------------------------------------------------------------------------------------------
_TB_OPS = (('LAKESHORE JOURNEYS', 'LJ'), ('COMPASS & RAIL TOURS', 'CR'), ('BLUE MERIDIAN HOLIDAYS', 'BM'))
_TB_KEY = "Meal codes: B = breakfast · L = lunch · D = dinner. The meals shown after each day's title are included."
_TB_T = {
    'fly': ("Fly from {a} to {b} on flight {num}, departing at {dep} and arriving at {arr}{nd}.",
            "Transfer to the airport for flight {num} from {a} ({dep}) to {b} ({arr}{nd2})."),
    'drive': ("Pick up your car and drive from {a} to {b} (approx. {dur}; fuel approx. ${cost}).",),
    'taxi': ("A private taxi takes you from {a} to {b} (approx. {dur}; approx. ${cost}).",),
    'breakfast': ("Breakfast is served at {v}.", "Enjoy breakfast at {v}."),
    'lunch': ("Lunch is at {v}.", "Stop for lunch at {v}."),
    'dinner': ("Dinner tonight is at {v}.", "This evening, dinner at {v}."),
    'sights': ("Sightseeing includes {s}.", "Visits today: {s}."),
    'none_breakfast': ("Breakfast at leisure.",), 'none_lunch': ("Lunch at leisure.",), 'none_dinner': ("Dinner at leisure.",),
    'fill': ("The rest of the day is free to explore at your own pace.", "Your travel documents include a map of the area."),
}
_TB_RX = _rx(_TB_T, num=r'\S+', dep=r'\d\d:\d\d', arr=r'\d\d:\d\d', nd=r'(?: \(next day\))?', nd2=r'(?:, next day)?', cost=r'\d+')
_TB_WHY = {'meal': ("it is closed that day", "it could not take our group that day"), 'sight': ("not enough time", "closed for renovation")}
_TB_NOT = ("NOT INCLUDED", "• Travel insurance", "• Gratuities and personal expenses")
_TB_NOTE0 = "• All times are local and subject to change."


def _tb_includes(days) -> list[str]:
    "The 'YOUR TOUR INCLUDES' bullets of days read (or `_norm`-ed): flights by number, road legs, stays by name and nights, meals, sights."
    out = []
    fl = [g['leg'][1] for g in days if g['leg'] and g['leg'][0] == 'flight']
    if fl: out.append(f"• Flight{_ns(len(fl))} {', '.join(fl)}")
    rd = [g['leg'] for g in days if g['leg'] and g['leg'][0] != 'flight']
    if rd: out.append(f"• {len(rd)} road transfer{_ns(len(rd))} (self-drive or taxi)")
    if (st := _stays_of(days)): out.append("• Accommodation: " + '; '.join(f"{_nm(v)} ({N} night{_ns(N)})" for v, N in st))
    cnt = [(sum(g[m] not in ('-', None) for g in days), m) for m in _MEALS]
    if any(c for c, _ in cnt): out.append("• Meals: " + ', '.join(f"{c} {m}{'es' if m == 'lunch' and c != 1 else _ns(c)}" for c, m in cnt if c))
    if (k := sum(len(g['attraction']) for g in days)): out.append(f"• Entrance to {k} sight{_ns(k)}")
    return out


def tour_brochure(plan, task, ph):
    """A TOUR OPERATOR's printed itinerary: an upper-case operator name, "St. Petersburg to Rockford — 3-Day Independent
    Tour", a tour-code line, a meal-code key ("B = breakfast · L = lunch · D = dinner"), then per day a heading with the
    INCLUDED MEALS AS CODES after it ("DAY 2 · Thursday 17 March · Rockford (B, L, D)", "DAY 1 · ... · St. Petersburg –
    Rockford (D)", no codes on a day without meals), ONE paragraph of brochure sentences in the order of the day ("Fly from A
    to B on flight F1, departing at 15:40 and arriving at 17:04." / "Transfer to the airport for flight F1 from A (19:00) to
    B (22:43).", "Pick up your car and drive from A to B (approx. 3 hrs 11 mins; fuel approx. $120).", "Enjoy breakfast at
    X.", "Stop for lunch at X.", "Sightseeing includes A ⟹ B.", "Lunch at leisure." for an empty meal in some renderings,
    fillers without names) and an "Overnight:" line ("Overnight: W (2 nights)", then "Overnight: as Day 1" or "W (night 2
    of 2)", "Overnight: — (end of tour)"); then "YOUR TOUR INCLUDES" (flights by number, road transfers, the stays BY NAME
    with their nights, meal and sight counts), "NOT INCLUDED" and "IMPORTANT NOTES" with the DECOYS ("• Day 2: lunch is at
    X rather than Y — it is closed that day.", "• Not included: S (Day 2) — not enough time.", "• Nights 1–2: Z was fully
    booked, so you stay at W.")."""
    r = ph.rng
    op, code = r.choice(_TB_OPS)
    n, p = len(plan), _people(task)
    say_none, unnamed, fill = r.random() < 0.4, r.random() < 0.5, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    pairs, runs, run_of, notes = [], _runs_of(plan), _run_of(plan), []
    T = _TB_T
    out = [op, f"{_get(task, 'org')} to {_get(task, 'dest')} — {n}-Day Independent Tour",
           f"Tour code {code}-{_date(task, 0):%y%m%d}-{n}D · Departs {_df(task, 0, 'ukyear')} · {p} guest{_ns(p)}", '', _TB_KEY, '']
    for i, d in enumerate(plan):
        a0, b0 = _ab(d['current_city'])
        codes = ', '.join(m[0].upper() for m in _MEALS if d[m] != '-')
        head = f"DAY {i + 1} · {_df(task, i, 'uk')} · {a0 if a0 == b0 else f'{a0} – {b0}'}" + (f" ({codes})" if codes else '')
        at, s, run = _attractions(d['attraction']), [], []

        def flush():
            if run:
                s.append(r.choice(T['sights']).format(s=ph.join.join(run))); run.clear()
        for _, kind, v in _with_leg(d):
            if kind == 'sight': run.append(ph.venue(v)); continue
            flush()
            if kind == 'leg':
                q = _leg_parts(v)
                if q['mode'] == 'flight':
                    nd = q['arr'] < q['dep']
                    s.append(r.choice(T['fly']).format(num=q['number'], a=q['a'], b=q['b'], dep=q['dep'], arr=q['arr'],
                                                       nd=' (next day)' if nd else '', nd2=', next day' if nd else ''))
                else: s.append(T[q['mode']][0].format(a=q['a'], b=q['b'], dur=_dur(q['duration'], 'hrs'), cost=q['cost']))
                continue
            s.append(r.choice(T[kind]).format(v=ph.venue(v)))
            if (i, kind) in meals:
                pairs.append((meals[(i, kind)], _nm(v)))
                notes.append(f"• Day {i + 1}: {kind} is at {_nm(v)} rather than {meals[(i, kind)]} — {r.choice(_TB_WHY['meal'])}.")
        flush()
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            notes.append(f"• Not included: {ph.venue(sights[i][1])} (Day {i + 1}) — {r.choice(_TB_WHY['sight'])}.")
        if say_none: s += [T[f"none_{m}"][0] for m in _MEALS if d[m] == '-']
        if fill and (not s or r.random() < 0.3): s.append(r.choice(T['fill']))
        block = [head, ' '.join(s)] if s else [head]
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            block.append(f"Overnight: {ph.venue(acc)} ({N} night{_ns(N)})")
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc)))
                notes.append(f"• {_nights_tag(a + 1, b + 1)}: {stays[(a, b)]} was fully booked, so you stay at {_nm(acc)}.")
        elif acc != '-':
            a, b = run_of[i]
            block.append(f"Overnight: as Day {a + 1}" if unnamed else f"Overnight: {ph.venue(acc)} (night {i - a + 1} of {b - a + 1})")
        elif i == n - 1 and r.random() < 0.6: block.append("Overnight: — (end of tour)")
        out += block + ['']
    out += ["YOUR TOUR INCLUDES", *_tb_includes(_norm(plan)), '', *_TB_NOT, '', "IMPORTANT NOTES", *notes, _TB_NOTE0]
    return _log('\n'.join(out), pairs)


_TB_HEAD = re.compile(r'DAY (?P<k>\d+) · (?P<date>[A-Za-z]+ \d+ [A-Za-z]+) · (?P<route>.+?)(?: \((?P<codes>[BLD](?:, [BLD])*)\))?')
_TB_NOTE = {'meal': re.compile(r'• Day (?P<k>\d+): (?P<m>breakfast|lunch|dinner) is at (?P<x>.+) rather than (?P<y>.+) — ' + _alt(_TB_WHY['meal']) + r'\.'),
            'sight': re.compile(r'• Not included: (?P<s>.+) \(Day (?P<k>\d+)\) — ' + _alt(_TB_WHY['sight']) + r'\.'),
            'stay': re.compile(r'• (?P<tag>Nights? \d+(?:–\d+)?): (?P<z>.+) was fully booked, so you stay at (?P<w>.+)\.')}


def _read_tb(text, task, plan, ph):
    errs, n = [], len(plan)
    B = text.split('\n\n')
    head = B[0].split('\n')
    p = _people(task)
    if len(head) != 3 or head[0] not in [o for o, _ in _TB_OPS] or head[1] != f"{_get(task, 'org')} to {_get(task, 'dest')} — {n}-Day Independent Tour" \
            or head[2] != f"Tour code {dict(_TB_OPS).get(head[0])}-{_date(task, 0):%y%m%d}-{n}D · Departs {_df(task, 0, 'ukyear')} · {p} guest{_ns(p)}":
        errs.append('title')
    if B[1] != _TB_KEY: errs.append('meal key')
    days, nights, checks, nofs = [], [], [], []
    ok = _ok19(ph)
    j = 2
    while j < len(B) and B[j].startswith('DAY '):
        L = B[j].split('\n'); j += 1
        h = _TB_HEAD.fullmatch(L[0])
        k = len(days) + 1
        if not h or int(h['k']) != k or h['date'] != _df(task, k - 1, 'uk'): errs.append(f"head {L[0]!r}"); continue
        g = _blank(_back(h['route'], ' – '))
        days.append(g); nights.append(None)
        pre, said, last = f"day {k}: ", [], None
        rest = L[1:]
        if rest and not rest[0].startswith('Overnight: '):
            for key, q in _scan19(rest.pop(0), _TB_RX, ok):
                kind = _kind(key)
                if kind == 'fly':
                    nd = q.get('nd') or q.get('nd2')
                    if bool(nd) != (q['arr'] < q['dep']): errs.append(f"{pre}next day")
                    _put(g, 'leg', _flight(q['num'], q['a'], q['b'], q['dep'], q['arr']), errs, pre)
                elif kind in ('drive', 'taxi'): _put(g, 'leg', _road_key(kind, q['a'], q['b'], _undur(q['dur'], 'hrs'), q['cost']), errs, pre)
                elif kind in _MEALS: _said(said, kind, errs, pre); _put(g, kind, _unvenue(ph, q['v']), errs, pre)
                elif kind.startswith('none_'): _said(said, kind[5:], errs, pre)
                elif kind == 'sights':
                    if last == 'sights': errs.append(f"{pre}two sight sentences in a row")
                    g['attraction'] += [_unvenue(ph, x) for x in q['s'].split(ph.join)]
                last = kind
        if len(rest) > 1: errs.append(f"{pre}lines {rest!r}")
        for x in rest[:1]:
            if not x.startswith('Overnight: '): errs.append(f"{pre}line {x!r}"); continue
            x = x[len('Overnight: '):]
            if x == '— (end of tour)':
                if k != n: errs.append(f"{pre}end of tour before the end")
                nights[-1] = ('home',)
            elif (m := re.fullmatch(r'as Day (\d+)', x)): nights[-1] = ('again', None); nofs.append((k, int(m[1]), None))
            elif (m := re.fullmatch(r'(?P<v>.+) \(night (?P<j>\d+) of (?P<N>\d+)\)', x)):
                nights[-1] = ('again', _unvenue(ph, m['v'])); nofs.append((k, int(m['j']), int(m['N'])))
            elif (m := re.fullmatch(r'(?P<v>.+) \((?P<N>\d+) (?P<w>nights?)\)', x)) and (m['N'] == '1') == (m['w'] == 'night'):
                nights[-1] = ('start', int(m['N']), _unvenue(ph, m['v']))
            else: errs.append(f"{pre}overnight {x!r}")
        codes = ', '.join(m[0].upper() for m in _MEALS if g[m] != '-')
        if (h['codes'] or '') != codes: errs.append(f"{pre}meal codes {h['codes']!r} for {codes!r}")
    _finish(days, nights, nofs, checks, errs)
    tail = B[j:]
    if len(tail) != 3: return days, errs + [f"closing blocks {len(tail)}"]
    if tail[0].split('\n') != ["YOUR TOUR INCLUDES", *_tb_includes(days)]: errs.append(f"includes {tail[0][:80]!r}")
    if tail[1].split('\n') != list(_TB_NOT): errs.append('not included')
    N = tail[2].split('\n')
    if N[0] != "IMPORTANT NOTES" or N[-1] != _TB_NOTE0: errs.append('notes')
    for ln in N[1:-1]:
        if (q := _TB_NOTE['meal'].fullmatch(ln)):
            k, m = int(q['k']), q['m']
            if not (1 <= k <= len(days)) or days[k - 1][m] in ('-', None) or _nm(days[k - 1][m]) != q['x']: errs.append(f"note {ln!r}")
            checks.append(('meal', k, m, q['y'], None, 'rather than: '))
        elif (q := _TB_NOTE['sight'].fullmatch(ln)): checks.append(('sight', int(q['k']), *_name_city(_unvenue(ph, q['s'])), 'not included: '))
        elif (q := _TB_NOTE['stay'].fullmatch(ln)):
            a, b = _untag(q['tag'], errs)
            if not (1 <= a <= len(days)) or days[a - 1]['accommodation'] in ('-', None) or _nm(days[a - 1]['accommodation']) != q['w']: errs.append(f"note {ln!r}")
            checks.append(('stay', a, b, q['z'], None, 'fully booked: '))
        else: errs.append(f"note {ln!r}")
    _resolve(days, checks, errs)
    return days, errs

# hedged_llama ---------------------------------------------------------------------------------------------------------
_HL_INTRO = (" Sure, I'd be happy to help you plan your trip! Here's a possible {n}-day itinerary from {org} to {dest} ({range}) for "
             "{p} traveler{s}, keeping in mind your budget of ${budget:,}:",
             " Of course! Planning a trip can be exciting, but it can also be a bit overwhelming. Here's a suggested {n}-day itinerary "
             "for your trip from {org} to {dest} ({range}):")
_HL_HEAD = "Day {k} ({date}): {route}"
_HL_TAIL = {'meal': ("You might want to make a reservation in advance, as it can get busy.", "It's a popular spot, but please check the opening hours before you go.",
                     "Please note that menus and prices may vary."),
            'sight': ("Some attractions may have limited opening hours, so please check ahead.", "Please note that admission fees may apply."),
            'stay': ("However, please keep in mind that prices and availability may vary.", "This is just a suggestion — you may want to compare a few options.")}
_HL_LEG = {'flight': "* Transportation: You could take flight {num}, which departs {a} at {dep} and arrives in {b} at {arr}{nd}. Please note that "
                     "flight schedules may change, so it's always a good idea to double-check with the airline.",
           'drive': "* Transportation: You could drive yourself from {a} to {b}, which would take approximately {dur} and cost around ${cost} in fuel "
                    "(depending on your vehicle).",
           'taxi': "* Transportation: You could take a taxi from {a} to {b}, which would take approximately {dur} and cost around ${cost} "
                   "(fares may vary)."}
_HL_NONE = "* {M}: I haven't included a specific {m} spot for this day — you may want to grab something on the go."
_HL_WHY = {'meal': ("it may be closed that day", "it tends to have very long waits"), 'sight': ("there likely isn't enough time", "it may be closed for renovation"),
           'stay': ("it appears to be fully booked", "it seems to be over budget")}
_HL_DEC = {'meal': "* Alternatively, you could also consider {y} for {m} — however, I haven't included it in the itinerary, as {why}.",
           'sight': "* You might also have heard of {s} — I'd skip it this time, since {why}.",
           'stay': "* Another option for {tag} would have been {z}, but {why}, so I haven't included it."}
_HL_TIPS = ("Pack comfortable walking shoes, as you may be doing a lot of walking.", "Consider purchasing travel insurance, just in case.",
            "Try the local cuisine — it's a great way to experience the culture!", "Keep a copy of your important documents in a safe place.",
            "Check the weather forecast before you go and pack accordingly.")
_HL_OUTRO = ("Please note that this is just a suggestion, and you may want to adjust the itinerary based on your personal preferences. "
             "I'm just an AI, I don't have access to real-time information, so prices and schedules may have changed. I hope this helps, "
             "and I wish you a wonderful trip!",
             "I hope this itinerary helps you make the most of your trip! However, please keep in mind that this is just a rough outline, "
             "and it's always a good idea to verify the details before booking. Have a great time!")


def _hl_route(cc: str) -> str:
    a, b = _ab(cc)
    return a if a == b else f"{a} to {b}"


def hedged_llama(plan, task, ph):
    """A Llama-2 / Mistral-style answer, HEAVILY HEDGED: a leading space and "Sure, I'd be happy to help ...!", then per day a
    plain line "Day 2 (Thursday, March 17): Rockford" ("... : St. Petersburg to Rockford") and "*" bullets full of could /
    might / may in the order of the day — "* Transportation: You could take flight F1, which departs A at 15:40 and
    arrives in B at 17:04. Please note that flight schedules may change, ...", "* You could drive yourself from A to B,
    which would take approximately 3 hours and 11 minutes and cost around $120 in fuel ...", meals in the drawn label with
    a hedge after them ("* Lunch => X. You might want to make a reservation in advance, ..."), "* Sightseeing: A ⟹ B. Some
    attractions may have limited opening hours, ...", "* Lunch: I haven't included a specific lunch spot for this day —
    ..." (some renderings), "* Accommodation: W for 2 nights. However, ..." then "W (night 2 of 2)" or UNNAMED "You could
    stay at the same place as the previous night.", "No hotel needed, as you'll be returning home." —; then unrelated general
    tips (a numbered list) and a disclaimer ("I'm just an AI, ..."). DECOYS as hedged bullets: "* Alternatively, you
    could also consider Y for lunch — however, I haven't included it in the itinerary, as it may be closed that day.", "*
    You might also have heard of S — I'd skip it this time, since there likely isn't enough time.", "* Another option
    for Nights 1–2 would have been Z, but it appears to be fully booked, so I haven't included it." """
    r = ph.rng
    n, p = len(plan), _people(task)
    say_none, unnamed = r.random() < 0.4, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    pairs, runs, run_of = [], _runs_of(plan), _run_of(plan)
    out = [r.choice(_HL_INTRO).format(n=n, org=_get(task, 'org'), dest=_get(task, 'dest'), range=_range(task, n), p=p, s=_ns(p),
                                      budget=_get(task, 'budget') or 0), '']
    for i, d in enumerate(plan):
        out += [_HL_HEAD.format(k=i + 1, date=_df(task, i, 'long'), route=_hl_route(d['current_city'])), '']
        at, run, said = _attractions(d['attraction']), [], []

        def flush():
            if run:
                out.append(f"* Sightseeing: {ph.join.join(run)}." + (f" {r.choice(_HL_TAIL['sight'])}" if r.random() < 0.6 else '')); run.clear()
                if i in sights and not said:
                    said.append(1); pairs.append((_nm(sights[i][1]), _nm(at[0])))
                    out.append(_HL_DEC['sight'].format(s=ph.venue(sights[i][1]), why=r.choice(_HL_WHY['sight'])))
        for _, kind, v in _with_leg(d):
            if kind == 'sight': run.append(ph.venue(v)); continue
            flush()
            if kind == 'leg':
                q = _leg_parts(v)
                out.append(_HL_LEG[q['mode']].format(num=q['number'], a=q['a'], b=q['b'], dep=q['dep'], arr=q['arr'], cost=q['cost'],
                                                     nd=' the next day' if q['mode'] == 'flight' and q['arr'] < q['dep'] else '',
                                                     dur=_dur(q['duration'], 'words') if q['mode'] != 'flight' else ''))
                continue
            out.append(f"* {ph.meal(kind.capitalize(), v)}." + (f" {r.choice(_HL_TAIL['meal'])}" if r.random() < 0.7 else ''))
            if (i, kind) in meals:
                pairs.append((meals[(i, kind)], _nm(v)))
                out.append(_HL_DEC['meal'].format(y=meals[(i, kind)], m=kind, why=r.choice(_HL_WHY['meal'])))
        flush()
        if say_none: out += [_HL_NONE.format(M=m.capitalize(), m=m) for m in _MEALS if d[m] == '-']
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            out.append(f"* Accommodation: {ph.venue(acc)} for {N} night{_ns(N)}." + (f" {r.choice(_HL_TAIL['stay'])}" if r.random() < 0.7 else ''))
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc)))
                out.append(_HL_DEC['stay'].format(tag=_nights_tag(a + 1, b + 1), z=stays[(a, b)], why=r.choice(_HL_WHY['stay'])))
        elif acc != '-':
            a, b = run_of[i]
            out.append("* Accommodation: You could stay at the same place as the previous night." if unnamed else
                       f"* Accommodation: {ph.venue(acc)} (night {i - a + 1} of {b - a + 1}).")
        elif i == n - 1 and r.random() < 0.6: out.append("* Accommodation: No hotel needed, as you'll be returning home.")
        out.append('')
    tips = r.sample(_HL_TIPS, r.choice((2, 3, 4)))
    out += ["Additionally, here are a few general tips that may be helpful:", ''] + [f"{j}. {t}" for j, t in enumerate(tips, 1)] + ['', r.choice(_HL_OUTRO)]
    return _log('\n'.join(out), pairs)


_HL_HEAD_RX = re.compile(r'Day (?P<k>\d+) \((?P<date>[A-Za-z]+, [A-Za-z]+ \d+)\): (?P<route>.+)')
_HL_LEG_RX = {k: re.compile(_tmpl(t[2:], num=r'\S+', dep=r'\d\d:\d\d', arr=r'\d\d:\d\d', nd=r'(?: the next day)?', cost=r'\d+')[0]) for k, t in _HL_LEG.items()}
_HL_NONE_RX = re.compile(re.escape(_HL_NONE).replace(r'\{M\}', '(Breakfast|Lunch|Dinner)').replace(r'\{m\}', '(breakfast|lunch|dinner)'))
_HL_DEC_RX = {'meal': re.compile(_tmpl(_HL_DEC['meal'], m='breakfast|lunch|dinner', why=_alt(_HL_WHY['meal']))[0]),
              'sight': re.compile(_tmpl(_HL_DEC['sight'], why=_alt(_HL_WHY['sight']))[0]),
              'stay': re.compile(_tmpl(_HL_DEC['stay'], tag=r'Nights? \d+(?:–\d+)?', why=_alt(_HL_WHY['stay']))[0])}


def _hl_cut(x: str, kind: str) -> str:
    "A bullet's text without its hedge: '... X. You might want ...' -> '... X' (the full stop after the name taken off)."
    for t in _HL_TAIL[kind]:
        if x.endswith('. ' + t): return x[:-len(t) - 2]
    if not x.endswith('.'): raise ValueError(f"bullet {x!r}")
    return x[:-1]


def _read_hl(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    p = _people(task)
    if L[0] not in [t.format(n=n, org=_get(task, 'org'), dest=_get(task, 'dest'), range=_range(task, n), p=p, s=_ns(p), budget=_get(task, 'budget') or 0)
                    for t in _HL_INTRO]: errs.append('intro')
    try: ti = L.index("Additionally, here are a few general tips that may be helpful:")
    except ValueError: return [], ['no tips']
    tips = L[ti + 2:-2]
    if L[ti + 1] != '' or L[-2] != '' or L[-1] not in _HL_OUTRO or not 2 <= len(tips) <= 4 or \
            any(ln != f"{j}. {ln.partition('. ')[2]}" or ln.partition('. ')[2] not in _HL_TIPS for j, ln in enumerate(tips, 1)): errs.append('tips')
    days, nights, checks, saids, nofs = [], [], [], [], []
    last = None
    for ln in L[1:ti]:
        if ln == '': continue
        if (h := _HL_HEAD_RX.fullmatch(ln)):
            k = len(days) + 1
            if int(h['k']) != k or h['date'] != _df(task, k - 1, 'long'): errs.append(f"head {ln!r}")
            days.append(_blank(_lo_route(h['route']))); nights.append(None); saids.append([]); last = None; continue
        if not days or not ln.startswith('* '): errs.append(f"line {ln!r}"); continue
        k, g, pre = len(days), days[-1], f"day {len(days)}: "
        if nights[-1] is not None and not _HL_DEC_RX['stay'].fullmatch(ln): errs.append(f"{pre}{ln!r} after the night")
        x = ln[2:]
        if ln.startswith('* Transportation: '):
            for mode, rx in _HL_LEG_RX.items():
                if (q := rx.fullmatch(ln[2:])):
                    if mode == 'flight':
                        if bool(q['nd']) != (q['arr'] < q['dep']): errs.append(f"{pre}next day")
                        _put(g, 'leg', _flight(q['num'], q['a'], q['b'], q['dep'], q['arr']), errs, pre)
                    else: _put(g, 'leg', _road_key(mode, q['a'], q['b'], _undur(q['dur'], 'words'), q['cost']), errs, pre)
                    break
            else: errs.append(f"{pre}transportation {ln!r}")
            last = 'leg'
        elif ln.startswith('* Sightseeing: '):
            if last == 'sights': errs.append(f"{pre}two sight bullets in a row")
            g['attraction'] += [_unvenue(ph, v) for v in _hl_cut(x[len('Sightseeing: '):], 'sight').split(ph.join)]; last = 'sights'
        elif ln.startswith('* Accommodation: '):
            x = x[len('Accommodation: '):]
            if x == "No hotel needed, as you'll be returning home.":
                if k != n: errs.append(f"{pre}home before the end")
                nights[-1] = ('home',)
            elif x == "You could stay at the same place as the previous night.":
                nights[-1] = ('again', None)     # the run read so far continues (`_apply_nights`)
            elif (m := re.fullmatch(r'(?P<v>.+) \(night (?P<j>\d+) of (?P<N>\d+)\)\.', x)):
                nights[-1] = ('again', _unvenue(ph, m['v'])); nofs.append((k, int(m['j']), int(m['N'])))
            elif (m := re.fullmatch(r'(?P<v>.+) for (?P<N>\d+) (?P<w>nights?)', _hl_cut(x, 'stay'))) and (m['N'] == '1') == (m['w'] == 'night'):
                nights[-1] = ('start', int(m['N']), _unvenue(ph, m['v'])); last = 'start'
            else: errs.append(f"{pre}accommodation {x!r}")
        elif (q := _HL_DEC_RX['meal'].fullmatch(ln)):
            if last != q['m']: errs.append(f"{pre}meal alternative after {last}")
            checks.append(('meal', k, q['m'], q['y'], None, 'alternatively: '))
        elif (q := _HL_DEC_RX['sight'].fullmatch(ln)):
            if last != 'sights': errs.append(f"{pre}sight aside after {last}")
            checks.append(('sight', k, *_name_city(_unvenue(ph, q['s'])), 'heard of: '))
        elif (q := _HL_DEC_RX['stay'].fullmatch(ln)):
            a, b = _untag(q['tag'], errs)
            if last != 'start' or a != k: errs.append(f"{pre}stay option after {last}")
            checks.append(('stay', a, b, q['z'], None, 'another option: '))
        elif (q := _HL_NONE_RX.fullmatch(ln)) and q[1].lower() == q[2]:
            _said(saids[-1], q[2], errs, pre)
        else:
            mm = ph.unmeal(_hl_cut(x, 'meal'))
            if not mm: errs.append(f"{pre}line {ln!r}"); continue
            _said(saids[-1], mm[0], errs, pre); _put(g, mm[0], mm[1], errs, pre); last = mm[0]
    return _finish(days, nights, nofs, checks, errs)

# cjk_ru_prose ---------------------------------------------------------------------------------------------------------
_LG19 = {
    'ja': {'intro': "以下は日ごとの旅行プランです（店名・施設名は英語のまま記載しています）。", 'outro': "素敵な旅になりますように！",
           'head': "**{k}日目 {date}：{route}**", 'wd': "月火水木金土日", 'ends': ('。）', ''),
           'T': {'fly': ("飛行機で {a} から {b} へ移動します（{num} 便、{dep} 発 → {arr} 着{nd2}）。",
                         "フライト {num} 便で {a} を {dep} に出発し、{b} には{nd} {arr} に到着します。"),
                 'drive': ("レンタカーで {a} から {b} へ移動します（所要約 {dur}、ガソリン代約 {cost} ドル）。",),
                 'taxi': ("タクシーで {a} から {b} へ移動します（所要約 {dur}、料金約 {cost} ドル）。",),
                 'breakfast': ("朝食は {v} で。", "朝ごはんは {v} でどうぞ。"), 'lunch': ("昼食は {v} で。", "お昼は {v} がおすすめです。"),
                 'dinner': ("夕食は {v} で。", "夜は {v} でディナーを。"), 'sights': ("観光スポット：{s}。", "続いて {s} を巡ります。"),
                 'none_breakfast': ("朝食は各自で。",), 'none_lunch': ("昼食は各自で。",), 'none_dinner': ("夕食は各自で。",),
                 'start': ("宿泊は {v}（{N}泊）。",), 'again': ("引き続き {v} に宿泊します。", "同じ宿にもう一泊します。"),
                 'home': ("この日のうちに帰宅します。",), 'dmeal': ("（{y} も候補でしたが、{why}。）",),
                 'dsight': ("（{s} は{why}ため、今回は見送りました。）",), 'dstay': ("（{z} は満室でした。）",)},
           'nd': '翌日', 'nd2': '・翌日', 'why': {'meal': ("その日は定休日です", "予約が取れませんでした"), 'sight': ("時間が足りない", "改装工事中の")}},
    'zh': {'intro': "以下是逐日行程安排（餐厅、景点和住宿名称保留英文原名）：", 'outro': "祝旅途愉快！",
           'head': "**第{k}天：{date}（{route}）**", 'wd': "一二三四五六日", 'ends': ('。）', ''),
           'T': {'fly': ("乘坐{num}航班从{a}出发（{dep}起飞），{nd}{arr}抵达{b}。", "航班{num}：{dep}从{a}起飞，{nd}{arr}降落在{b}。"),
                 'drive': ("自驾从{a}前往{b}，约{dur}，油费约{cost}美元。",), 'taxi': ("乘出租车从{a}前往{b}，约{dur}，车费约{cost}美元。",),
                 'breakfast': ("早餐在{v}。", "早餐推荐{v}。"), 'lunch': ("午餐在{v}。", "午餐推荐{v}。"), 'dinner': ("晚餐在{v}。", "晚上在{v}吃晚餐。"),
                 'sights': ("游览{s}。", "接着参观{s}。"),
                 'none_breakfast': ("早餐自理。",), 'none_lunch': ("午餐自理。",), 'none_dinner': ("晚餐自理。",),
                 'start': ("入住{v}（{N}晚）。",), 'again': ("继续入住{v}。", "仍住同一家酒店。"), 'home': ("当天返回家中。",),
                 'dmeal': ("（原本考虑过{y}，但{why}。）",), 'dsight': ("（{s}这次不去了：{why}。）",), 'dstay': ("（{z}已经订满了。）",)},
           'nd': '次日', 'nd2': '', 'why': {'meal': ("当天不营业", "已经没有空位了"), 'sight': ("时间不够", "正在装修")}},
    'ko': {'intro': "아래는 날짜별 여행 일정입니다(식당·명소·숙소 이름은 영어 원문 그대로 적었습니다).", 'outro': "즐거운 여행 되세요!",
           'head': "**{k}일차 — {date} · {route}**", 'wd': "월화수목금토일", 'ends': ('.!)', ' '),
           'T': {'fly': ("항공편 {num}으로 {a}에서 {dep}에 출발해 {b}에 {nd}{arr}에 도착합니다.", "비행기로 이동합니다: {num}편, {a} {dep} 출발, {b} {arr} 도착{nd2}."),
                 'drive': ("직접 운전해서 {a}에서 {b}까지 이동합니다(약 {dur}, 기름값 약 {cost}달러).",),
                 'taxi': ("택시로 {a}에서 {b}까지 이동합니다(약 {dur}, 요금 약 {cost}달러).",),
                 'breakfast': ("아침은 {v}에서 먹습니다.", "아침 식사는 {v}에서 하세요."), 'lunch': ("점심은 {v}에서 먹습니다.", "점심 식사는 {v}에서 하세요."),
                 'dinner': ("저녁은 {v}에서 먹습니다.", "저녁 식사는 {v}에서 하세요."), 'sights': ("관광: {s}.", "이어서 {s}을(를) 둘러봅니다."),
                 'none_breakfast': ("아침은 자유롭게 해결합니다.",), 'none_lunch': ("점심은 자유롭게 해결합니다.",), 'none_dinner': ("저녁은 자유롭게 해결합니다.",),
                 'start': ("숙소는 {v}입니다({N}박).",), 'again': ("오늘도 {v}에서 묵습니다.", "같은 숙소에서 하룻밤 더 묵습니다."),
                 'home': ("이날 집으로 돌아갑니다.",), 'dmeal': ("({y}도 생각했지만 {why}.)",),
                 'dsight': ("({s}은(는) {why} 이번에는 빼기로 했습니다.)",), 'dstay': ("({z}은(는) 만실이었습니다.)",)},
           'nd': '다음 날 ', 'nd2': ' (다음 날)', 'why': {'meal': ("그날은 휴무입니다", "빈자리가 없었습니다"), 'sight': ("시간이 부족해서", "공사 중이라서")}},
    'ru': {'intro': "Вот план поездки по дням (названия мест оставлены на английском):", 'outro': "Хорошей поездки!",
           'head': "**День {k} — {date} ({route})**", 'ends': ('.!)', ' '),
           'wd': "понедельник вторник среда четверг пятница суббота воскресенье".split(),
           'mo': "января февраля марта апреля мая июня июля августа сентября октября ноября декабря".split(),
           'T': {'fly': ("Рейс {num}: вылет из {a} в {dep}, прилёт в {b} в {arr}{nd}.", "Летим рейсом {num} из {a} в {b}: вылет в {dep}, посадка в {arr}{nd}."),
                 'drive': ("На своей машине из {a} в {b}: около {dur}, бензин примерно {cost} USD.",),
                 'taxi': ("На такси из {a} в {b}: около {dur}, примерно {cost} USD.",),
                 'breakfast': ("Завтрак в {v}.", "День начинается с завтрака в {v}."), 'lunch': ("Обед в {v}.", "Обедаем в {v}."),
                 'dinner': ("Ужин в {v}.", "Вечером ужинаем в {v}."), 'sights': ("Осмотр достопримечательностей: {s}.", "Затем посещаем {s}."),
                 'none_breakfast': ("Завтрак — самостоятельно.",), 'none_lunch': ("Обед — самостоятельно.",), 'none_dinner': ("Ужин — самостоятельно.",),
                 'start': ("Ночлег в {v} ({N} {nights}).",), 'again': ("Ещё одна ночь в {v}.", "Ночуем там же."), 'home': ("Возвращение домой.",),
                 'dmeal': ("(Думали о {y}, но {why}.)",), 'dsight': ("({s} пропускаем: {why}.)",), 'dstay': ("(В {z} не было свободных мест.)",)},
           'nd': ' (на следующий день)', 'nd2': '', 'why': {'meal': ("в этот день там закрыто", "свободных столиков не было"), 'sight': ("не хватает времени", "там ремонт")}},
}
_LG_MONEY = {'ja': 'ドル', 'zh': '美元', 'ko': '달러', 'ru': 'USD'}


def _lnights(lg: str, N: int) -> str:
    "Russian 'ночь' / 'ночи' / 'ночей' after N (the other languages count nights with a suffix: '2泊', '2晚', '2박')."
    return 'ночь' if N % 10 == 1 and N % 100 != 11 else 'ночи' if N % 10 in (2, 3, 4) and N % 100 not in (12, 13, 14) else 'ночей'


def _ldate(lg: str, task, i: int) -> str:
    L, d = _LG19[lg], _date(task, i)
    if lg == 'ru': return f"{L['wd'][d.weekday()]}, {d.day} {L['mo'][d.month - 1]}"
    return {'ja': f"{d.month}月{d.day}日（{L['wd'][d.weekday()]}）", 'zh': f"{d.month}月{d.day}日 星期{L['wd'][d.weekday()]}",
            'ko': f"{d.month}월 {d.day}일 ({L['wd'][d.weekday()]})"}[lg]


def cjk_ru_prose(plan, task, ph):
    """PROSE in Japanese, Chinese, Korean or Russian (drawn), the venue names left in English: a bold head per day ("**2日目：3月17日
    （木）（Rockford）**", "**第2天：3月17日 星期四（Rockford）**", "**2일차 — 3월 17일 (목) · Rockford**", "**День 2 — четверг, 17 марта
    (Rockford)**"; a travel day "St. Petersburg → Rockford") and ONE paragraph in the order of the day — the Japanese and
    Chinese sentences ending in '。' with NO SPACE after them: the leg ("フライト F1 便で A を 15:40 に出発し、B には 17:04 に到着します。",
    "乘坐F1航班从A出发（15:40起飞），17:04抵达B。", "항공편 F1으로 A에서 15:40에 출발해 B에 17:04에 도착합니다.", "Рейс F1: вылет из A в
    15:40, прилёт в B в 17:04."; after midnight '翌日' / '次日' / '다음 날' / '(на следующий день)'; drives and taxis with
    '3時間11分', '3小时11分钟', '3시간 11분', '3 ч 11 мин' and the cost in ドル / 美元 / 달러 / USD), meals ("昼食は X で。", "午餐推荐X。",
    "점심은 X에서 먹습니다.", "Обед в X." — Russian 'обед' is LUNCH, 'ужин' dinner), sights in the drawn join (the worded joins
    translated: '、その後 ', '，接着去', ', 이어서 ', ', а после этого '), the stay with its nights ("宿泊は W（2泊）。", "入住W（2晚）。",
    "숙소는 W입니다(2박).", "Ночлег в W (2 ночи)." — Russian plurals ночь / ночи / ночей) and later "引き続き W に宿泊します。" or UNNAMED
    ("同じ宿にもう一泊します。", "仍住同一家酒店。", "같은 숙소에서 하룻밤 더 묵습니다.", "Ночуем там же."), an empty meal ("昼食は各自で。", "午餐自理。",
    "점심은 자유롭게 해결합니다.", "Обед — самостоятельно.") in some renderings; the placements translated ("X（Rockford 市内）", "Rockford
    にある X", "位于Rockford的X", "X（Illinois州Rockford市）", "Rockford에 있는 X", "X, что в Rockford", "X (Rockford, штат Illinois)" —
    the city BEFORE the name in some). DECOYS in brackets: "（Y も候補でしたが、その日は定休日です。）", "（S这次不去了：时间不够。）",
    "(Z은(는) 만실이었습니다.)", "(Думали о Y, но в этот день там закрыто.)"."""
    r = ph.rng
    lg = r.choice(tuple(_LG19))
    L, T = _LG19[lg], _LG19[lg]['T']
    say_none = r.random() < 0.4
    meals, stays, sights = _decoys(plan, r)
    n, pairs, runs = len(plan), [], _runs_of(plan)
    V = lambda v: _venue(ph, v, lg)
    J = _ljoin(lg, ph.join)
    out = [L['intro'], '']
    for i, d in enumerate(plan):
        at, s, run, said = _attractions(d['attraction']), [], [], []

        def flush():
            if run:
                s.append(r.choice(T['sights']).format(s=J.join(run))); run.clear()
                if i in sights and not said:
                    said.append(1); pairs.append((_nm(sights[i][1]), _nm(at[0])))
                    s.append(T['dsight'][0].format(s=V(sights[i][1]), why=r.choice(L['why']['sight'])))
        for _, kind, v in _with_leg(d):
            if kind == 'sight': run.append(V(v)); continue
            flush()
            if kind == 'leg':
                q = _leg_parts(v)
                if q['mode'] == 'flight':
                    nd = q['arr'] < q['dep']
                    s.append(r.choice(T['fly']).format(num=q['number'], a=q['a'], b=q['b'], dep=q['dep'], arr=q['arr'],
                                                       nd=L['nd'] if nd else '', nd2=L['nd2'] if nd else ''))
                else: s.append(T[q['mode']][0].format(a=q['a'], b=q['b'], dur=_dur(q['duration'], lg), cost=q['cost']))
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
        sp = L['ends'][1]
        out += [L['head'].format(k=i + 1, date=_ldate(lg, task, i), route=_rt(d['current_city'])), sp.join(s), '']
    return _log('\n'.join(out + [L['outro']]), pairs)


def _lg_rx(lg):
    L = _LG19[lg]
    kinds = dict(num=r'[A-Z0-9]+', dep=r'\d\d:\d\d', arr=r'\d\d:\d\d', nd=f"(?:{re.escape(L['nd'])})?", nd2=f"(?:{re.escape(L['nd2'])})?" if L['nd2'] else '',
                 cost=r'\d+', N=r'\d+', nights=r'\S+', why=_alt(L['why']['meal'] + L['why']['sight']))
    return _rx(L['T'], **kinds)


_LG_RX = {lg: _lg_rx(lg) for lg in _LG19}


def _lang(text: str): return next((lg for lg, L in _LG19.items() if text.startswith(L['intro'] + '\n')), None)


def _read_lg(text, task, plan, ph):
    errs, n = [], len(plan)
    lg = _lang(text)
    if lg is None: return [], ['no known intro']
    L, P = _LG19[lg], text.split('\n\n')
    if P[-1] != L['outro']: errs.append('outro')
    head = re.compile(re.escape(L['head']).replace(r'\{k\}', r'(?P<k>\d+)').replace(r'\{date\}', r'(?P<date>.+?)').replace(r'\{route\}', r'(?P<route>.+)'))
    days, nights, checks = [], [], []
    J = _ljoin(lg, ph.join)
    ok = _ok19(ph, lg, J)
    for par in P[1:-1]:
        hd, _, body = par.partition('\n')
        h = head.fullmatch(hd)
        k = len(days) + 1
        if not h or int(h['k']) != k or h['date'] != _ldate(lg, task, k - 1): errs.append(f"head {hd!r}"); continue
        g = _blank(_back(h['route']))
        days.append(g); nights.append(None)
        pre, said, last = f"day {k}: ", [], None
        for key, q in (_scan19(body, _LG_RX[lg], ok, *L['ends']) if body else []):
            kind = _kind(key)
            if nights[-1] is not None and kind != 'dstay': errs.append(f"{pre}{kind} after the night")
            if kind == 'fly':
                if bool(q.get('nd') or q.get('nd2')) != (q['arr'] < q['dep']): errs.append(f"{pre}next day")
                _put(g, 'leg', _flight(q['num'], q['a'], q['b'], q['dep'], q['arr']), errs, pre)
            elif kind in ('drive', 'taxi'):
                if q['a'] not in _cities() or q['b'] not in _cities(): errs.append(f"{pre}cities {q['a']!r} {q['b']!r}")
                _put(g, 'leg', _road_key(kind, q['a'], q['b'], _undur(q['dur'], lg), q['cost']), errs, pre)
            elif kind in _MEALS: _said(said, kind, errs, pre); _put(g, kind, _unvenue(ph, q['v'], lg), errs, pre)
            elif kind.startswith('none_'): _said(said, kind[5:], errs, pre)
            elif kind == 'sights': g['attraction'] += [_unvenue(ph, x, lg) for x in q['s'].split(J)]
            elif kind == 'start':
                N = int(q['N'])
                if lg == 'ru' and q['nights'] != _lnights(lg, N): errs.append(f"{pre}{N} {q['nights']}")
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
    return _finish(days, nights, [], checks, errs)

# reddit_rate_my_plan --------------------------------------------------------------------------------------------------
_RD_USERS = ('budget_wanderer_22', 'throwaway_trip_q', 'katie_goes_places', 'mjolnir_miles')
_RD_OTHERS = ('midwest_foodie', 'museumhopper88', 'hoteltips_', 'ok_but_why', 'sandwich_diplomat', 'gravel_and_grits', 'nomad_nora')
_RD_INTRO = ("Hey all! First time planning a trip on my own, would love some feedback before I book everything. Here's what I have so far:",
             "Long-time lurker, first post. Here's my plan — roast it (gently) 😅")
_RD_ASIDES = ("- (this is the day I'm most excited about tbh)", "- (any tips for this day welcome!)")
_RD_EDIT = "EDIT: wow, thanks for all the suggestions!! Replied to most of them below — the plan above is what I'm going with."
_RD_FOOT = "▲ {up} ▼ · {c} comments · Share · Save"
_RD_GENERIC = ("Looks solid! Have fun 🙂", "Bring a jacket, it gets cold at night.", "Saving this for my own trip lol",
               "Honestly this is a pretty good plan for a first trip.")
_RD_ASK = {'meal': "Have you looked at {y} for {m} on day {k}? way better than {x} imo",
           'sight': "don't skip {s} on day {k}!!", 'stay': "{z} is cheaper for {tag} btw"}
_RD_WHY = {'meal': ("looked at it but it's closed that day", "tried to book but they had no tables"),
           'sight': ("not enough time sadly", "it's closed for renovation rn"), 'stay': ("it was sold out when I checked", "it was over budget for us")}
_RD_REPLY = {'meal': "{why}, so I'm sticking with {x}", 'sight': "{why}, maybe next time", 'stay': "{why}, so {w} it is"}


def _rd_tldr(days) -> str:
    "The TL;DR of days read (or `_norm`-ed): days, flights, road legs, places to stay, sights."
    F = sum(1 for g in days if g['leg'] and g['leg'][0] == 'flight')
    R = sum(1 for g in days if g['leg'] and g['leg'][0] != 'flight')
    S, K = len({v for v, _ in _stays_of(days)}), sum(len(g['attraction']) for g in days)
    return "TL;DR: " + ', '.join([f"{len(days)} days"] + [f"{c} {w if c == 1 else pl}" for c, w, pl in
                                  ((F, 'flight', 'flights'), (R, 'road trip', 'road trips'), (S, 'place to stay', 'places to stay'), (K, 'sight', 'sights')) if c])


def _rd_date(task, i: int) -> str:
    d = _date(task, i)
    return f"{d:%a} {d.month}/{d.day}"


def reddit_rate_my_plan(plan, task, ph):
    """A REDDIT post asking for feedback, copied with its comments: "r/travel • Posted by u/... • 5h", the title "[Itinerary] 3
    days St. Petersburg → Rockford (March 16–18, 2022), 1 person, $1,700 budget — rate my plan?", a casual intro, then per
    day "**Day 2 (Thu 3/17) — Rockford**" and lower-case dash lines in the order of the day ("- flying F1 — leaves A 15:40,
    lands in B 17:04", "- driving myself A → B (about 3h 11m, ~$120 in gas)", "- taxi A → B (...)", meals with a LOWER-CASE
    meal word in the drawn label ("- lunch => X", "- breakfast: we eat at X"), "- sights: A ⟹ B", "- dinner: nothing planned,
    will wing it" (some renderings), "- staying at W for 2 nights" then "- same place as last night" or "- W again (night 2
    of 2)", "- heading home, no hotel needed", asides without names); an optional "EDIT:", a "TL;DR" that counts the
    days, flights, road trips, places to stay and sights, the vote bar, and the COMMENTS, replies indented: the DECOYS are
    other users' suggestions that OP turns down ("Have you looked at Y for lunch on day 2? way better than X imo" /
    "    looked at it but it's closed that day, so I'm sticking with X", "don't skip S on day 2!!" / "    not enough time
    sadly, maybe next time", "Z is cheaper for nights 1–2 btw" / "    it was sold out when I checked, so W it is"), among
    comments without names."""
    r = ph.rng
    n, p = len(plan), _people(task)
    op, say_none, unnamed = r.choice(_RD_USERS), r.random() < 0.4, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    pairs, runs, run_of, asks = [], _runs_of(plan), _run_of(plan), []
    org, dest = _get(task, 'org'), _get(task, 'dest')
    out = [f"r/travel • Posted by u/{op} • {r.randint(10, 20)}h",
           f"[Itinerary] {n} days {org} → {dest} ({_range(task, n)}), {p} {'person' if p == 1 else 'people'}, ${_get(task, 'budget') or 0:,} budget — rate my plan?",
           '', r.choice(_RD_INTRO), '']
    for i, d in enumerate(plan):
        out.append(f"**Day {i + 1} ({_rd_date(task, i)}) — {_rt(d['current_city'])}**")
        at, run = _attractions(d['attraction']), []

        def flush():
            if run: out.append(f"- sights: {ph.join.join(run)}"); run.clear()
        for _, kind, v in _with_leg(d):
            if kind == 'sight': run.append(ph.venue(v)); continue
            flush()
            if kind == 'leg':
                q = _leg_parts(v)
                if q['mode'] == 'flight':
                    out.append(f"- flying {q['number']} — leaves {q['a']} {q['dep']}, lands in {q['b']} {q['arr']}{' (next day)' if q['arr'] < q['dep'] else ''}")
                elif q['mode'] == 'drive': out.append(f"- driving myself {q['a']} → {q['b']} (about {_dur(q['duration'], 'short')}, ~${q['cost']} in gas)")
                else: out.append(f"- taxi {q['a']} → {q['b']} (about {_dur(q['duration'], 'short')}, ~${q['cost']})")
                continue
            out.append(f"- {ph.meal(kind, v)}")
            if (i, kind) in meals:
                pairs.append((meals[(i, kind)], _nm(v)))
                asks.append(('meal', dict(y=meals[(i, kind)], m=kind, k=i + 1, x=_nm(v))))
        flush()
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            asks.append(('sight', dict(s=_nm(sights[i][1]), k=i + 1)))
        if say_none: out += [f"- {m}: nothing planned, will wing it" for m in _MEALS if d[m] == '-']
        if r.random() < 0.15: out.append(r.choice(_RD_ASIDES))
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            out.append(f"- staying at {ph.venue(acc)} for {N} night{_ns(N)}")
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc)))
                asks.append(('stay', dict(z=stays[(a, b)], tag=_nights_tag(a + 1, b + 1).lower(), w=_nm(acc))))
        elif acc != '-':
            a, b = run_of[i]
            out.append("- same place as last night" if unnamed else f"- {ph.venue(acc)} again (night {i - a + 1} of {b - a + 1})")
        elif i == n - 1 and r.random() < 0.6: out.append("- heading home, no hotel needed")
        out.append('')
    if asks and r.random() < 0.5: out += [_RD_EDIT, '']
    out += [_rd_tldr(_norm(plan)), '', _RD_FOOT.format(up=r.randint(5, 300), c=r.randint(len(asks) * 2 + 1, 60)), '']
    coms = [('ask', x) for x in asks] + [('gen', g) for g in r.sample(_RD_GENERIC, r.choice((1, 2)))]
    r.shuffle(coms)
    who = r.sample(_RD_OTHERS, len(coms))
    for (c, x), u in zip(coms, who):
        out.append(f"u/{u} · {(age := r.randint(1, 9))}h · {r.randint(1, 99)} points")
        if c == 'gen': out += [x, '']; continue
        kind, kw = x
        out += [_RD_ASK[kind].format(**kw), '', f"    u/{op} (OP) · {r.randint(1, age)}h · {r.randint(1, 40)} points",
                "    " + _RD_REPLY[kind].format(why=r.choice(_RD_WHY[kind]), **kw), '']
    return _log('\n'.join(out).rstrip('\n'), pairs)


_RD_HEAD = re.compile(r'\*\*Day (?P<k>\d+) \((?P<date>[A-Z][a-z]{2} \d+/\d+)\) — (?P<route>.+)\*\*')
_RD_FL = re.compile(r'- flying (?P<num>\S+) — leaves (?P<a>.+?) (?P<dep>\d\d:\d\d), lands in (?P<b>.+) (?P<arr>\d\d:\d\d)(?P<nd> \(next day\))?')
_RD_RD = re.compile(r'- (?P<how>driving myself|taxi) (?P<a>.+?) → (?P<b>.+) \(about (?P<dur>.+?), ~\$(?P<cost>\d+)(?P<gas> in gas)?\)')
_RD_COM = re.compile(r'u/(?P<u>\S+) · \d+h · \d+ points')
_RD_ASK_RX = {'meal': _pat(_RD_ASK['meal'], m='breakfast|lunch|dinner', k=r'\d+'), 'sight': _pat(_RD_ASK['sight'], k=r'\d+'),
              'stay': _pat(_RD_ASK['stay'], tag=r'nights? \d+(?:–\d+)?')}
_RD_REPLY_RX = {k: _pat('    ' + t, why=_alt(_RD_WHY[k])) for k, t in _RD_REPLY.items()}


def _read_rd(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    p, org, dest = _people(task), _get(task, 'org'), _get(task, 'dest')
    q = re.fullmatch(r'r/travel • Posted by u/(\S+) • \d+h', L[0])
    op = q[1] if q else None
    title = f"[Itinerary] {n} days {org} → {dest} ({_range(task, n)}), {p} {'person' if p == 1 else 'people'}, ${_get(task, 'budget') or 0:,} budget — rate my plan?"
    if op not in _RD_USERS or L[1] != title or L[2] != '' or L[3] not in _RD_INTRO: errs.append('post head')
    try: ti = next(j for j, ln in enumerate(L) if ln.startswith('TL;DR: '))
    except StopIteration: return [], ['no TL;DR']
    days, nights, checks, saids, nofs = [], [], [], [], []
    last = None
    for ln in L[4:ti]:
        if ln in ('', _RD_EDIT) or ln in _RD_ASIDES: continue
        if (h := _RD_HEAD.fullmatch(ln)):
            k = len(days) + 1
            if int(h['k']) != k or h['date'] != _rd_date(task, k - 1): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h['route']))); nights.append(None); saids.append([]); last = None; continue
        if not days: errs.append(f"line {ln!r}"); continue
        k, g, pre = len(days), days[-1], f"day {len(days)}: "
        if nights[-1] is not None: errs.append(f"{pre}{ln!r} after the night")
        if (q := _RD_FL.fullmatch(ln)):
            if bool(q['nd']) != (q['arr'] < q['dep']): errs.append(f"{pre}next day")
            _put(g, 'leg', _flight(q['num'], q['a'], q['b'], q['dep'], q['arr']), errs, pre)
        elif (q := _RD_RD.fullmatch(ln)) and bool(q['gas']) == (q['how'] == 'driving myself'):
            _put(g, 'leg', _road_key('drive' if q['gas'] else 'taxi', q['a'], q['b'], _undur(q['dur'], 'short'), q['cost']), errs, pre)
        elif ln.startswith('- sights: '):
            if last == 'sights': errs.append(f"{pre}two sight lines in a row")
            g['attraction'] += [_unvenue(ph, x) for x in ln[len('- sights: '):].split(ph.join)]; last = 'sights'; continue
        elif (q := re.fullmatch(r'- (breakfast|lunch|dinner): nothing planned, will wing it', ln)): _said(saids[-1], q[1], errs, pre)
        elif (q := re.fullmatch(r'- staying at (?P<v>.+) for (?P<N>\d+) (?P<w>nights?)', ln)) and (q['N'] == '1') == (q['w'] == 'night'):
            nights[-1] = ('start', int(q['N']), _unvenue(ph, q['v']))
        elif ln == '- same place as last night': nights[-1] = ('again', None)
        elif (q := re.fullmatch(r'- (?P<v>.+) again \(night (?P<j>\d+) of (?P<N>\d+)\)', ln)):
            nights[-1] = ('again', _unvenue(ph, q['v'])); nofs.append((k, int(q['j']), int(q['N'])))
        elif ln == '- heading home, no hotel needed':
            if k != n: errs.append(f"{pre}home before the end")
            nights[-1] = ('home',)
        elif ln.startswith('- ') and (mm := ph.unmeal(ln[2:], str.lower)):
            _said(saids[-1], mm[0], errs, pre); _put(g, mm[0], mm[1], errs, pre)
        else: errs.append(f"{pre}line {ln!r}")
        last = None
    _finish(days, nights, nofs, [], errs)
    if L[ti] != _rd_tldr(days): errs.append(f"tl;dr {L[ti]!r}")
    if L[ti + 1] != '' or not re.fullmatch(r'▲ \d+ ▼ · \d+ comments · Share · Save', L[ti + 2]) or L[ti + 3] != '': errs.append('vote bar')
    C = '\n'.join(L[ti + 4:]).split('\n\n')
    j = 0
    while j < len(C):
        head, _, body = C[j].partition('\n')
        if not _RD_COM.fullmatch(head) or '\n' in body: errs.append(f"comment {C[j][:60]!r}"); j += 1; continue
        j += 1
        if body in _RD_GENERIC: continue
        kind = next((kd for kd, rx in _RD_ASK_RX.items() if rx.fullmatch(body)), None)
        rep = C[j].split('\n') if j < len(C) else []
        j += 1
        if kind is None or len(rep) != 2 or rep[0] != f"    u/{op} (OP) · {rep[0].split(' · ', 1)[-1]}" or \
                not re.fullmatch(r'    u/\S+ \(OP\) · \d+h · \d+ points', rep[0]) or not (rq := _RD_REPLY_RX[kind].fullmatch(rep[1])):
            errs.append(f"suggestion {body!r}"); continue
        q = _RD_ASK_RX[kind].fullmatch(body).groupdict()
        if kind == 'meal':
            k, m = int(q['k']), q['m']
            if rq['x'] != q['x'] or not (1 <= k <= len(days)) or days[k - 1][m] in ('-', None) or _nm(days[k - 1][m]) != q['x']: errs.append(f"suggestion {body!r}")
            checks.append(('meal', k, m, q['y'], None, 'suggested: '))
        elif kind == 'sight': checks.append(('sight', int(q['k']), q['s'], None, 'suggested: '))
        else:
            a, b = _untag(q['tag'].capitalize(), errs)
            if not (1 <= a <= len(days)) or days[a - 1]['accommodation'] in ('-', None) or _nm(days[a - 1]['accommodation']) != rq['w']: errs.append(f"suggestion {body!r}")
            checks.append(('stay', a, b, q['z'], None, 'suggested: '))
    _resolve(days, checks, errs)
    return days, errs

# flat_key_paths -------------------------------------------------------------------------------------------------------
_FK_APPS = ('Roamly', 'Tripsy', 'Wayfarer Planner')
_FK_WHY = {'meal': ("closed that day", "no tables left"), 'sight': ("not enough time", "closed for renovation"), 'stay': ("no rooms left", "over budget")}


def flat_key_paths(plan, task, ph):
    """A trip app's "Copy as text" export pasted into the chat, NOT in a code block: one FLATTENED KEY PATH per line with its
    value ("days[1].items[2].name = Flying Mango") as `gron` / a properties dump prints it — ZERO-BASED indices (days[0] is
    Day 1), trip fields (title, travellers, budget, start, end), the day's date and route ("days[1].route.city = Rockford"
    or ".route.from" / ".route.to"), its transport (".transport.mode = flight", ".flight_no", ".depart", ".arrive",
    ".arrive_next_day = true"; "self-drive" / "taxi" with ".duration = 3 h 11 min", ".duration_min = 191", ".cost_usd"),
    its items IN THE ORDER OF THE DAY (".type = restaurant" with ".meal = lunch", or "attraction"; ".name" and ".city" apart,
    no placement; a ".status = planned" / "booked" line in some renderings), ".unplanned = breakfast, lunch" for empty meals
    (some renderings) and ".stay = stays[0]" — a REFERENCE to a "stays[...]" record (name, city, check_in, check_out,
    nights) written once, before or after the days — or "(none)". DECOYS as the app keeps them: an item's
    ".alternatives[0].name = Y" with ".alternatives[0].status = rejected — closed that day", an attraction item whose
    ".status = skipped — not enough time", a stay's ".alternatives[0]" ("rejected — no rooms left")."""
    r = ph.rng
    n, p = len(plan), _people(task)
    say_none, status, stays_first = r.random() < 0.4, r.random() < 0.5, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    pairs, runs = [], _day_runs(plan)
    sid = {x: j for j, (a, b, _) in enumerate(runs) for x in range(a, b + 1)}
    head = [f"Exported from {r.choice(_FK_APPS)} · {n} days · {_date(task, 0).isoformat()} → {_date(task, n - 1).isoformat()}", '',
            f"trip.title = {_get(task, 'org')} to {_get(task, 'dest')}", f"trip.travellers = {p}", f"trip.budget_usd = {_get(task, 'budget') or 0}",
            f"trip.start = {_date(task, 0).isoformat()}", f"trip.end = {_date(task, n - 1).isoformat()}"]
    S = []
    for j, (a, b, acc) in enumerate(runs):
        nm, c = _name_city(acc)
        S += [f"stays[{j}].name = {nm}", f"stays[{j}].city = {c}", f"stays[{j}].check_in = {_date(task, a).isoformat()}",
              f"stays[{j}].check_out = {(_date(task, b) + datetime.timedelta(days=1)).isoformat()}", f"stays[{j}].nights = {b - a + 1}"]
        if (s := _lodging(acc)) and r.random() < 0.5: S.append(f"stays[{j}].price_per_night_usd = {round(s.price)}")
        if (a, b) in stays:
            pairs.append((stays[(a, b)], nm))
            S += [f"stays[{j}].alternatives[0].name = {stays[(a, b)]}", f"stays[{j}].alternatives[0].status = rejected — {r.choice(_FK_WHY['stay'])}"]
    D = []
    for i, d in enumerate(plan):
        k = f"days[{i}]"
        D.append(f"{k}.date = {_date(task, i).isoformat()}")
        a0, b0 = _ab(d['current_city'])
        D += [f"{k}.route.city = {a0}"] if a0 == b0 else [f"{k}.route.from = {a0}", f"{k}.route.to = {b0}"]
        if d['transportation'] != '-':
            q = _leg_parts(d['transportation'])
            t = f"{k}.transport"
            if q['mode'] == 'flight':
                D += [f"{t}.mode = flight", f"{t}.flight_no = {q['number']}", f"{t}.from = {q['a']}", f"{t}.to = {q['b']}", f"{t}.depart = {q['dep']}",
                      f"{t}.arrive = {q['arr']}"] + ([f"{t}.arrive_next_day = true"] if q['arr'] < q['dep'] else [])
            else:
                D += [f"{t}.mode = {'self-drive' if q['mode'] == 'drive' else 'taxi'}", f"{t}.from = {q['a']}", f"{t}.to = {q['b']}",
                      f"{t}.duration = {_dur(q['duration'], 'hm')}", f"{t}.duration_min = {_dur_min(q['duration'])}", f"{t}.cost_usd = {q['cost']}"]
        items = [(kind, v) for _, kind, v in _with_leg(d) if kind != 'leg']
        if i in sights:
            pos = min(sights[i][0], sum(kd == 'sight' for kd, _ in items))
            at_idx = [j for j, (kd, _) in enumerate(items) if kd == 'sight']
            ins = at_idx[pos] if pos < len(at_idx) else (at_idx[-1] + 1)
            items.insert(ins, ('skip', sights[i][1]))
            pairs.append((_nm(sights[i][1]), _nm(_attractions(d['attraction'])[0])))
        for j, (kind, v) in enumerate(items):
            it = f"{k}.items[{j}]"
            nm, c = _name_city(v)
            D += [f"{it}.type = restaurant", f"{it}.meal = {kind}"] if kind in _MEALS else [f"{it}.type = attraction"]
            D += [f"{it}.name = {nm}", f"{it}.city = {c}"]
            if kind == 'skip': D.append(f"{it}.status = skipped — {r.choice(_FK_WHY['sight'])}")
            elif status: D.append(f"{it}.status = {'booked' if kind in _MEALS and r.random() < 0.5 else 'planned'}")
            if (i, kind) in meals:
                pairs.append((meals[(i, kind)], nm))
                D += [f"{it}.alternatives[0].name = {meals[(i, kind)]}", f"{it}.alternatives[0].status = rejected — {r.choice(_FK_WHY['meal'])}"]
        if say_none and (miss := [m for m in _MEALS if d[m] == '-']): D.append(f"{k}.unplanned = {', '.join(miss)}")
        if i in sid: D.append(f"{k}.stay = stays[{sid[i]}]")
        elif r.random() < 0.5: D.append(f"{k}.stay = (none)")
    return _log('\n'.join(head + (S + D if stays_first else D + S)), pairs)


def _fk_tree(lines) -> dict:
    "Key-path lines ('days[1].items[0].name = X') as a nested dict / list tree; an index out of sequence or a key given twice is an error."
    root: dict = {}
    for ln in lines:
        key, sep, val = ln.partition(' = ')
        if not sep or not re.fullmatch(r'[a-z_]+(?:\[\d+\])?(?:\.[a-z_]+(?:\[\d+\])?)*', key): raise ValueError(f"line {ln!r}")
        toks = [t for part in key.split('.') for t in re.findall(r'[a-z_]+|\[\d+\]', part)]
        node = root
        for j, t in enumerate(toks):
            last = j == len(toks) - 1
            if t.startswith('['):
                x = int(t[1:-1])
                if not isinstance(node, list) or x > len(node): raise ValueError(f"index {key!r}")
                if x == len(node): node.append({})
                if last: raise ValueError(f"key {key!r}")
                node = node[x]
            else:
                nxt = toks[j + 1] if not last else None
                if last:
                    if not isinstance(node, dict) or t in node: raise ValueError(f"key {key!r} twice")
                    node[t] = val
                else:
                    node = node.setdefault(t, [] if nxt.startswith('[') else {})
    return root


def _read_fk(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    iso = lambda i: _date(task, i).isoformat()
    if not re.fullmatch(rf"Exported from (?:{'|'.join(map(re.escape, _FK_APPS))}) · {n} days · {iso(0)} → {iso(n - 1)}", L[0]) or L[1] != '': errs.append('header')
    T = _fk_tree(L[2:])
    want = {'title': f"{_get(task, 'org')} to {_get(task, 'dest')}", 'travellers': str(_people(task)), 'budget_usd': str(_get(task, 'budget') or 0),
            'start': iso(0), 'end': iso(n - 1)}
    if T.get('trip') != want: errs.append(f"trip {T.get('trip')!r}")
    if set(T) - {'trip', 'stays', 'days'}: errs.append(f"keys {sorted(T)}")
    days, checks, refs = [], [], {}
    for i, D in enumerate(T.get('days', [])):
        k, pre = i + 1, f"day {i + 1}: "
        if set(D) - {'date', 'route', 'transport', 'items', 'unplanned', 'stay'} or D.get('date') != iso(i): errs.append(f"{pre}keys / date")
        R = D.get('route', {})
        g = _blank(R['city'] if set(R) == {'city'} else f"from {R['from']} to {R['to']}" if set(R) == {'from', 'to'} and R['from'] != R['to'] else None)
        days.append(g)
        if g['current_city'] is None: errs.append(f"{pre}route {R!r}")
        if (t := D.get('transport')):
            if t.get('mode') == 'flight' and set(t) <= {'mode', 'flight_no', 'from', 'to', 'depart', 'arrive', 'arrive_next_day'}:
                if t.get('arrive_next_day', 'false') != ('true' if t['arrive'] < t['depart'] else 'false') or t.get('arrive_next_day') == 'false': errs.append(f"{pre}next day")
                g['leg'] = _flight(t['flight_no'], t['from'], t['to'], t['depart'], t['arrive'])
            elif t.get('mode') in ('self-drive', 'taxi') and set(t) == {'mode', 'from', 'to', 'duration', 'duration_min', 'cost_usd'}:
                dur = _undur(t['duration'], 'hm')
                if str(_dur_min(dur)) != t['duration_min'] or not t['cost_usd'].isdigit(): errs.append(f"{pre}duration / cost {t!r}")
                g['leg'] = _road_key('drive' if t['mode'] == 'self-drive' else 'taxi', t['from'], t['to'], dur, t['cost_usd'])
            else: errs.append(f"{pre}transport {t!r}")
        said = []
        for it in D.get('items', []):
            v = f"{it.get('name')}, {it.get('city')}"
            if it.get('city') not in _cities() or not it.get('name'): errs.append(f"{pre}item {it!r}")
            st = it.get('status', '')
            if it.get('type') == 'restaurant' and set(it) <= {'type', 'meal', 'name', 'city', 'status', 'alternatives'} and it.get('meal') in _MEALS \
                    and st in ('', 'planned', 'booked'):
                _said(said, it['meal'], errs, pre); _put(g, it['meal'], v, errs, pre)
                for alt in it.get('alternatives', []):
                    m = re.fullmatch(r'rejected — ' + _alt(_FK_WHY['meal']), alt.get('status', ''))
                    if set(alt) != {'name', 'status'} or not m: errs.append(f"{pre}alternative {alt!r}")
                    checks.append(('meal', k, it['meal'], alt['name'], None, 'alternative: '))
            elif it.get('type') == 'attraction' and set(it) <= {'type', 'name', 'city', 'status'}:
                if st in ('', 'planned'): g['attraction'].append(v)
                elif re.fullmatch(r'skipped — ' + _alt(_FK_WHY['sight']), st): checks.append(('sight', k, it['name'], it['city'], 'skipped: '))
                else: errs.append(f"{pre}status {st!r}")
            else: errs.append(f"{pre}item {it!r}")
        if 'unplanned' in D:
            for m in D['unplanned'].split(', '):
                if m not in _MEALS: errs.append(f"{pre}unplanned {m!r}")
                else: _said(said, m, errs, pre)
        s = D.get('stay')
        if s is not None and s != '(none)':
            q = re.fullmatch(r'stays\[(\d+)\]', s)
            if not q: errs.append(f"{pre}stay {s!r}")
            else: refs.setdefault(int(q[1]), []).append(i)
    stays = T.get('stays', [])
    for j, S in enumerate(stays):
        if set(S) - {'name', 'city', 'check_in', 'check_out', 'nights', 'price_per_night_usd', 'alternatives'}: errs.append(f"stay {j} keys")
        ds = refs.pop(j, [])
        if not ds or ds != list(range(ds[0], ds[-1] + 1)) or S.get('check_in') != iso(ds[0]) or \
                S.get('check_out') != (_date(task, ds[-1]) + datetime.timedelta(days=1)).isoformat() or S.get('nights') != str(len(ds)):
            errs.append(f"stay {j}: nights {ds} / {S.get('check_in')}–{S.get('check_out')} / {S.get('nights')}"); continue
        if S.get('city') not in _cities(): errs.append(f"stay {j}: city")
        for x in ds: days[x]['accommodation'] = f"{S.get('name')}, {S.get('city')}"
        for alt in S.get('alternatives', []):
            if set(alt) != {'name', 'status'} or not re.fullmatch(r'rejected — ' + _alt(_FK_WHY['stay']), alt.get('status', '')): errs.append(f"stay {j} alternative")
            checks.append(('stay', ds[0] + 1, ds[-1] + 1, alt.get('name'), None, 'alternative: '))
    if refs: errs.append(f"references to missing stays {sorted(refs)}")
    for j in range(1, len(stays)):          # the records in the order of their nights
        if stays[j].get('check_in', '') < stays[j - 1].get('check_in', ''): errs.append(f"stay {j} out of order")
    _resolve(days, checks, errs)
    return days, errs

# week_grid ------------------------------------------------------------------------------------------------------------
_WG_INTRO = ("Here's the whole trip as a week view — one column per day, times are approximate start times:",
             "Calendar view of your trip (like a week view in Google Calendar — read each column top to bottom):")
_WG_LEGEND = "Legend: ✈️ flight · 🚗 self-drive · 🚕 taxi · 🎟️ sight · 🏨 stay · ✗ looked at, not booked"
_WG_ICON = {'breakfast': '🍳', 'lunch': '🥪', 'dinner': '🍝'}
_WG_WHY = {'meal': ("closed that day", "fully booked"), 'sight': ("not enough time", "closed for renovation"), 'stay': ("no rooms left", "over budget")}
_FLOOR = {'breakfast': 8, 'lunch': 12, 'dinner': 18}


def _slots(d) -> list[tuple]:
    """[(hour 0-23, 'early' or 'late', kind, value)] of a day's items in its order (`layouts_v15._with_leg`): a flight at its
    departure hour, the items before it from 08:00 (or, where they do not fit, an hour apart back from it), those after it
    from the hour after its arrival; a day without a flight from 08:00, meals not before 08:00 / 12:00 / 18:00 and a drive taking its hours; 'early' and 'late' where
    the clock would leave the day."""
    items = _with_leg(d)
    li = next((j for j, x in enumerate(items) if x[1] == 'leg'), None)
    out, h, rest = [], 8, items
    if li is not None and (p := _leg_parts(items[li][2]))['mode'] == 'flight':
        h0, pre, fw = int(p['dep'][:2]), items[:li], []
        for _, k, v in pre:
            fw.append((max(h, _FLOOR.get(k, 0)), k, v)); h = fw[-1][0] + 1
        if fw and fw[-1][0] >= h0:         # no room from 08:00: an hour apart back from the departure
            fw = [(h0 - len(pre) + j if h0 - len(pre) + j >= 0 else 'early', k, v) for j, (_, k, v) in enumerate(pre)]
        out = fw + [(h0, 'leg', items[li][2])]
        h, rest = (int(p['arr'][:2]) + 1 if p['arr'] >= p['dep'] else 24), items[li + 1:]
    for _, k, v in rest:
        h = max(h, _FLOOR.get(k, 0))
        out.append((h if h <= 23 else 'late', k, v))
        h += max(1, math.ceil(_dur_min(_leg_parts(v)['duration']) / 60)) if k == 'leg' else 1
    return out


def _wg_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ {p['number']} · {p['a']} {p['dep']} → {p['b']} {p['arr']}{' (+1)' if p['arr'] < p['dep'] else ''}"
    return f"{'🚗' if p['mode'] == 'drive' else '🚕'} {p['a']} → {p['b']} · {_dur(p['duration'], 'hm')} · ${p['cost']}"


def _wg_row(label: str, cells) -> str: return '| ' + ' | '.join([label] + [_mdesc(c) if c else '' for c in cells]).replace('|  |', '| |') + ' |'


def week_grid(plan, task, ph):
    """The trip as a CALENDAR WEEK VIEW: ONE markdown table with a COLUMN PER DAY ("| | **Day 2** · Thu 3/17 | ...") and a ROW
    PER HOUR ("| 08:00 | ... |", plus "🌅 early" / "🌃 late" rows where the clock leaves the day), so a day is read DOWN its
    column: a "📍" row with each day's route, then each item in the cell of the hour it starts (several in one cell split by
    '<br>'): "✈️ F1 · A 15:40 → B 17:04" (in the row of its departure hour; "(+1)" after midnight), "🚗 A → B · 3 h 11 min ·
    $120", "🚕 ...", meals with an icon and the drawn label ("🥪 Lunch => X"), "🎟️ A" per sight; a "🛏️ night" row ("🏨 W · 2
    nights", then "🏨 same as Day 1" or "🏨 W · night 2/2", '—'), a "✏️ notes" row with the DECOYS ("✗ not Y for lunch —
    closed that day", "✗ S — skipped, not enough time", "✗ Z for nights 1–2 — no rooms left"), and a legend line."""
    r = ph.rng
    n = len(plan)
    unnamed = r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    pairs, runs, run_of = [], _runs_of(plan), _run_of(plan)
    cols, nights, notes = [], [], []
    for i, d in enumerate(plan):
        col = {}
        for h, kind, v in _slots(d):
            x = _wg_leg(v) if kind == 'leg' else f"🎟️ {ph.venue(v)}" if kind == 'sight' else f"{_WG_ICON[kind]} {ph.meal(kind.capitalize(), v)}"
            col.setdefault(h, []).append(x)
        cols.append(col)
        nt = []
        for m in _MEALS:
            if (i, m) in meals:
                pairs.append((meals[(i, m)], _nm(d[m]))); nt.append(f"✗ not {meals[(i, m)]} for {m} — {r.choice(_WG_WHY['meal'])}")
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(_attractions(d['attraction'])[0])))
            nt.append(f"✗ {ph.venue(sights[i][1])} — skipped, {r.choice(_WG_WHY['sight'])}")
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            nights.append(f"🏨 {ph.venue(acc)} · {N} night{_ns(N)}")
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc))); nt.append(f"✗ {stays[(a, b)]} for {_nights_tag(a + 1, b + 1).lower()} — {r.choice(_WG_WHY['stay'])}")
        elif acc != '-':
            a, b = run_of[i]
            nights.append(f"🏨 same as Day {a + 1}" if unnamed else f"🏨 {ph.venue(acc)} · night {i - a + 1}/{b - a + 1}")
        else: nights.append('—')
        notes.append(nt)
    hours = sorted({h for c in cols for h in c}, key=lambda h: -1 if h == 'early' else 24 if h == 'late' else h)
    out = [r.choice(_WG_INTRO), '', _wg_row('', [f"**Day {i + 1}** · {_rd_date(task, i)}" for i in range(n)]).replace('|  |', '| |'),
           '|' + '---|' * (n + 1), _wg_row('📍', [_rt(d['current_city']) for d in plan])]
    for h in hours:
        lab = '🌅 early' if h == 'early' else '🌃 late' if h == 'late' else f"{h:02d}:00"
        out.append('| ' + ' | '.join([lab] + ['<br>'.join(_mdesc(x) for x in c.get(h, [])) for c in cols]) + ' |')
    out += [_wg_row('🛏️ night', nights), '| ' + ' | '.join(['✏️ notes'] + ['<br>'.join(_mdesc(x) for x in nt) for nt in notes]) + ' |', '', _WG_LEGEND]
    return _log('\n'.join(out), pairs)


def _wg_cells(ln: str) -> list[str]:
    "A table row's cells, stripped, '\\|' unescaped (the first, the row label, included)."
    c = _split_cells(ln)
    if len(c) < 3 or c[0] or c[-1].strip(): raise ValueError(f"row {ln!r}")
    return [x.strip() for x in c[1:-1]]


def _read_wg(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    if L[0] not in _WG_INTRO or L[1] != '' or L[-2:] != ['', _WG_LEGEND]: errs.append('intro / legend')
    rows = [_wg_cells(ln) for ln in L[2:-2]]
    hd = rows[0]
    N = len(hd) - 1
    if hd[0] != '' or hd[1:] != [f"**Day {i + 1}** · {_rd_date(task, i)}" for i in range(N)]: errs.append(f"header {hd!r}")
    if L[3] != '|' + '---|' * (N + 1): errs.append('rule')
    rows = rows[2:]
    if any(len(x) != N + 1 for x in rows): raise ValueError('ragged table')
    lab = [x[0] for x in rows]
    if not lab or lab[0] != '📍' or lab[-2:] != ['🛏️ night', '✏️ notes']: errs.append(f"row labels {lab!r}")
    hrs = [-1 if x == '🌅 early' else 24 if x == '🌃 late' else int(x[:2]) if re.fullmatch(r'\d\d:00', x) and int(x[:2]) < 24 else None for x in lab[1:-2]]
    if None in hrs or hrs != sorted(set(hrs)): errs.append(f"hours {lab[1:-2]!r}")
    days, nights, checks, nofs = [], [], [], []
    for i in range(N):
        k, pre = i + 1, f"day {i + 1}: "
        g = _blank(_back(_mdunesc(rows[0][k])))
        days.append(g)
        said = []
        for h, row in zip(hrs, rows[1:-2]):
            for x in (_mdunesc(y) for y in row[k].split('<br>')) if row[k] else []:
                if (q := re.fullmatch(r'✈️ (?P<num>\S+) · (?P<a>.+?) (?P<dep>\d\d:\d\d) → (?P<b>.+) (?P<arr>\d\d:\d\d)(?P<nd> \(\+1\))?', x)):
                    if bool(q['nd']) != (q['arr'] < q['dep']) or h != int(q['dep'][:2]): errs.append(f"{pre}flight {x!r} at {h}")
                    _put(g, 'leg', _flight(q['num'], q['a'], q['b'], q['dep'], q['arr']), errs, pre)
                elif (q := re.fullmatch(r'(?P<i>🚗|🚕) (?P<a>.+?) → (?P<b>.+) · (?P<dur>.+?) · \$(?P<cost>\d+)', x)):
                    _put(g, 'leg', _road_key('drive' if q['i'] == '🚗' else 'taxi', q['a'], q['b'], _undur(q['dur'], 'hm'), q['cost']), errs, pre)
                elif x.startswith('🎟️ '): g['attraction'].append(_unvenue(ph, x[3:]))
                elif (mm := ph.unmeal(x.partition(' ')[2])) and x.partition(' ')[0] == _WG_ICON[mm[0]]:
                    _said(said, mm[0], errs, pre); _put(g, mm[0], mm[1], errs, pre)
                else: errs.append(f"{pre}cell item {x!r}")
        x = _mdunesc(rows[-2][k])
        nights.append(None)
        if x == '—': pass
        elif (q := re.fullmatch(r'🏨 same as Day (\d+)', x)): nights[-1] = ('again', None); nofs.append((k, int(q[1]), None))
        elif (q := re.fullmatch(r'🏨 (?P<v>.+) · night (?P<j>\d+)/(?P<N>\d+)', x)): nights[-1] = ('again', _unvenue(ph, q['v'])); nofs.append((k, int(q['j']), int(q['N'])))
        elif (q := re.fullmatch(r'🏨 (?P<v>.+) · (?P<N>\d+) (?P<w>nights?)', x)) and (q['N'] == '1') == (q['w'] == 'night'):
            nights[-1] = ('start', int(q['N']), _unvenue(ph, q['v']))
        else: errs.append(f"{pre}night {x!r}")
        for y in (_mdunesc(y) for y in rows[-1][k].split('<br>')) if rows[-1][k] else []:
            if (q := re.fullmatch(r'✗ not (?P<y>.+) for (?P<m>breakfast|lunch|dinner) — ' + _alt(_WG_WHY['meal']), y)): checks.append(('meal', k, q['m'], q['y'], None, 'not: '))
            elif (q := re.fullmatch(r'✗ (?P<s>.+) — skipped, ' + _alt(_WG_WHY['sight']), y)): checks.append(('sight', k, *_name_city(_unvenue(ph, q['s'])), 'skipped: '))
            elif (q := re.fullmatch(r'✗ (?P<z>.+) for (?P<tag>nights? \d+(?:–\d+)?) — ' + _alt(_WG_WHY['stay']), y)):
                a, b = _untag(q['tag'].capitalize(), errs)
                if a != k: errs.append(f"{pre}stay note for night {a}")
                checks.append(('stay', a, b, q['z'], None, 'looked at: '))
            else: errs.append(f"{pre}note {y!r}")
    return _finish(days, nights, nofs, checks, errs)

# second_person_chapters -----------------------------------------------------------------------------------------------
_SP_NUM = ('One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten')
_SP_T = {
    'fly': ("At {dep}, flight {num} lifts off from {a}; at {arr}{nd} you touch down in {b}.",
            "Flight {num} carries you from {a} to {b}, leaving at {dep} and landing at {arr}{nd}."),
    'drive': ("You drive yourself from {a} to {b} — about {dur} on the road and roughly ${cost} in fuel.",),
    'taxi': ("A taxi takes you from {a} to {b} — about {dur}, for roughly ${cost}.",),
    'breakfast': ("You start the day with breakfast at {v}.", "Breakfast is at {v}, where the coffee is strong."),
    'lunch': ("Lunch finds you at {v}.", "At midday you sit down for lunch at {v}."),
    'dinner': ("Dinner is at {v}, and you linger over dessert.", "The evening ends with dinner at {v}."),
    'sights': ("You wander through {s}.", "The hours slip by at {s}."),
    'none_breakfast': ("You skip breakfast today.",), 'none_lunch': ("You skip lunch today.",), 'none_dinner': ("You skip dinner tonight.",),
    'start': ("You check in at {v}, your home for {Nw} {nights}.",),
    'again': ("You fall asleep once more at {v}.", "Back in your room for the night, you fall asleep quickly."),
    'home': ("By nightfall you are home again.",),
    'flavour': ("The sky is a clean, bright blue.", "A light breeze follows you down the street.", "You take a moment to simply look around.",
                "Your feet are tired, but you are smiling."),
    'dmeal': ("You had thought about {y} instead, but {why}.",),
    'dsight': ("You leave {s} for another trip — {why}.",),
    'dstay': ("You had hoped to stay at {z}, but it was fully booked.",),
}
_SP_WHY = {'meal': ("it is closed today", "there was not a table to be had"), 'sight': ("there is not enough time", "it is closed for renovation")}
_SP_RX = _rx(_SP_T, num=r'\S+', dep=r'\d\d:\d\d', arr=r'\d\d:\d\d', nd=r'(?: \(the next day\))?', cost=r'\d+', Nw='|'.join(w.lower() for w in _SP_NUM),
             nights=r'nights?', why=_alt(_SP_WHY['meal'] + _SP_WHY['sight']))
_SP_END = ('*The End.*', '— The End —')


def second_person_chapters(plan, task, ph):
    """The trip told as a STORY in the second person, present tense, as a chat model writes it when asked for "a story of my
    trip": "# Your Trip, Told as a Story: A to B", an italic subtitle, then one CHAPTER per day whose number is a WORD
    ("## Chapter Two — Thursday, March 17: Rockford", "## Chapter One — ...: St. Petersburg to Rockford") and one paragraph of
    story sentences in the order of the day, among sentences of mood without names ("The sky is a clean, bright blue."): "At
    15:40, flight F1 lifts off from A; at 17:04 you touch down in B.", "You drive yourself from A to B — about 3 hours and
    11 minutes on the road and roughly $120 in fuel.", "You start the day with breakfast at X.", "Lunch finds you at X.",
    "The evening ends with dinner at X.", "You wander through A ⟹ B.", "You skip lunch today." (some renderings), "You check
    in at W, your home for two nights." (the nights in WORDS), then "You fall asleep once more at W." or UNNAMED "Back in your
    room for the night, you fall asleep quickly.", "By nightfall you are home again."; "*The End.*". DECOYS as story
    sentences: "You had thought about Y instead, but it is closed today.", "You leave S for another trip — there is not
    enough time.", "You had hoped to stay at Z, but it was fully booked." """
    r = ph.rng
    n = len(plan)
    say_none, mood = r.random() < 0.4, r.choice((0.15, 0.3))
    meals, stays, sights = _decoys(plan, r)
    pairs, runs, T = [], _runs_of(plan), _SP_T
    out = [f"# Your Trip, Told as a Story: {_get(task, 'org')} to {_get(task, 'dest')}", '',
           f"*{_SP_NUM[n - 1].capitalize()} days, {_range(task, n)} — written in the second person, as you asked.*", '']
    for i, d in enumerate(plan):
        at, s, run, said = _attractions(d['attraction']), [], [], []
        mo = lambda: s.append(r.choice(T['flavour'])) if r.random() < mood else None

        def flush():
            if run:
                s.append(r.choice(T['sights']).format(s=ph.join.join(run))); run.clear()
                if i in sights and not said:
                    said.append(1); pairs.append((_nm(sights[i][1]), _nm(at[0])))
                    s.append(T['dsight'][0].format(s=ph.venue(sights[i][1]), why=r.choice(_SP_WHY['sight'])))
                mo()
        mo()
        if say_none and d['breakfast'] == '-': s.append(T['none_breakfast'][0])
        for _, kind, v in _with_leg(d):
            if kind == 'sight': run.append(ph.venue(v)); continue
            flush()
            if kind == 'leg':
                q = _leg_parts(v)
                if q['mode'] == 'flight':
                    s.append(r.choice(T['fly']).format(num=q['number'], a=q['a'], b=q['b'], dep=q['dep'], arr=q['arr'],
                                                       nd=' (the next day)' if q['arr'] < q['dep'] else ''))
                else: s.append(T[q['mode']][0].format(a=q['a'], b=q['b'], dur=_dur(q['duration'], 'words'), cost=q['cost']))
                mo(); continue
            s.append(r.choice(T[kind]).format(v=ph.venue(v)))
            if (i, kind) in meals:
                pairs.append((meals[(i, kind)], _nm(v)))
                s.append(T['dmeal'][0].format(y=meals[(i, kind)], why=r.choice(_SP_WHY['meal'])))
        flush()
        if say_none: s += [T[f"none_{m}"][0] for m in _MEALS[1:] if d[m] == '-']
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            s.append(T['start'][0].format(v=ph.venue(acc), Nw=_SP_NUM[N - 1].lower() if N <= len(_SP_NUM) else N, nights=f"night{_ns(N)}"))
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc))); s.append(T['dstay'][0].format(z=stays[(a, b)]))
        elif acc != '-': s.append(r.choice(T['again']).format(v=ph.venue(acc)))
        elif i == n - 1 and r.random() < 0.6: s.append(T['home'][0])
        out += [f"## Chapter {_SP_NUM[i]} — {_df(task, i, 'long')}: {_hl_route(d['current_city'])}", '', ' '.join(s) or r.choice(T['flavour']), '']
    return _log('\n'.join(out + [r.choice(_SP_END)]), pairs)


_SP_HEAD = re.compile(r'## Chapter (?P<w>[A-Z][a-z]+) — (?P<date>[A-Za-z]+, [A-Za-z]+ \d+): (?P<route>.+)')


def _read_sp(text, task, plan, ph):
    errs, n, P = [], len(plan), text.split('\n\n')
    if P[0] != f"# Your Trip, Told as a Story: {_get(task, 'org')} to {_get(task, 'dest')}" or \
            P[1] != f"*{_SP_NUM[n - 1].capitalize()} days, {_range(task, n)} — written in the second person, as you asked.*" or P[-1] not in _SP_END:
        errs.append('title / end')
    days, nights, checks = [], [], []
    ok = _ok19(ph)
    body = P[2:-1]
    if len(body) % 2: errs.append('chapters'); body = body[:-1]
    for hd, par in zip(body[::2], body[1::2]):
        h = _SP_HEAD.fullmatch(hd)
        k = len(days) + 1
        if not h or h['w'] != _SP_NUM[k - 1] or h['date'] != _df(task, k - 1, 'long'): errs.append(f"head {hd!r}"); continue
        g = _blank(_lo_route(h['route']))
        days.append(g); nights.append(None)
        pre, said, last = f"day {k}: ", [], None
        for key, q in _scan19(par, _SP_RX, ok):
            kind = _kind(key)
            if kind == 'flavour': continue
            if nights[-1] is not None and kind != 'dstay': errs.append(f"{pre}{kind} after the night")
            if kind == 'fly':
                if bool(q['nd']) != (q['arr'] < q['dep']): errs.append(f"{pre}next day")
                _put(g, 'leg', _flight(q['num'], q['a'], q['b'], q['dep'], q['arr']), errs, pre)
            elif kind in ('drive', 'taxi'): _put(g, 'leg', _road_key(kind, q['a'], q['b'], _undur(q['dur'], 'words'), q['cost']), errs, pre)
            elif kind in _MEALS: _said(said, kind, errs, pre); _put(g, kind, _unvenue(ph, q['v']), errs, pre)
            elif kind.startswith('none_'): _said(said, kind[5:], errs, pre)
            elif kind == 'sights': g['attraction'] += [_unvenue(ph, x) for x in q['s'].split(ph.join)]
            elif kind == 'start':
                N = [w.lower() for w in _SP_NUM].index(q['Nw']) + 1
                if q['nights'] != f"night{_ns(N)}": errs.append(f"{pre}{N} {q['nights']}")
                nights[-1] = ('start', N, _unvenue(ph, q['v']))
            elif kind == 'again': nights[-1] = ('again', _unvenue(ph, q['v']) if q.get('v') else None)
            elif kind == 'home':
                if k != n: errs.append(f"{pre}home before the end")
                nights[-1] = ('home',)
            elif kind == 'dmeal':
                if last not in _MEALS or q['why'] not in _SP_WHY['meal']: errs.append(f"{pre}meal aside after {last}")
                else: checks.append(('meal', k, last, q['y'], None, 'thought about: '))
            elif kind == 'dsight':
                if last != 'sights' or q['why'] not in _SP_WHY['sight']: errs.append(f"{pre}sight aside after {last}")
                checks.append(('sight', k, *_name_city(_unvenue(ph, q['s'])), 'another trip: '))
            elif kind == 'dstay':
                if last != 'start': errs.append(f"{pre}stay aside after {last}")
                else: checks.append(('stay', k, k + nights[-1][1] - 1, q['z'], None, 'hoped: '))
            last = kind
    return _finish(days, nights, [], checks, errs)

# chat_followups -------------------------------------------------------------------------------------------------------
_CF_OPEN = ("plan a {n} day trip from {org} to {dest}, {range}, {p} {who}, budget ${budget:,}. go day by day, I'll ask for the next one",
            "can you help me plan {org} -> {dest} ({range})? {n} days, {p} {who}, ${budget:,} total. one day at a time please")
_CF_HELLO = ("Absolutely — let's take it one day at a time.", "Sure! Here's the first day; just say the word and I'll do the next.")
_CF_NEXT = ("yes", "yes please", "next", "ok, next day", "go on")
_CF_ASKNEXT = ("Want me to keep going with Day {k}?", "Shall I do Day {k}?")
_CF_LAST = ("That's the whole trip! Want me to add a packing list?", "And that's everything — have a great trip!")
_CF_ASK = {'meal': "could we do {y} for {m} on day {k} instead?", 'sight': "can we squeeze in {s} on day {k}?", 'stay': "what about {z} instead of {w}?"}
_CF_WHY = {'meal': ("closed that day", "fully booked that day"), 'sight': ("there isn't enough time that day", "it's closed for renovation"),
           'stay': ("has no rooms left", "is over your budget")}
_CF_REPLY = {'meal': "I'd keep {x} for {m} — {y} is {why}. The rest of Day {k} stays as it is.", 'sight': "I'd leave {s} out — {why}.",
             'stay': "{z} {why} for {tag}, so {w} it is."}


def chat_followups(plan, task, ph):
    """A ChatGPT conversation copied from the web page ("You said:" / "ChatGPT said:" lines) in which the user asked for the
    plan ONE DAY AT A TIME: the request, then an assistant turn per day ("**Day 2 — Thursday, March 17 · Rockford**" and
    dash items in the order of the day: "- ✈️ Flight F1: A → B, departs 15:40, arrives 17:04", "- 🚗 Self-drive A → B: ~3 hrs
    11 mins, ~$120 fuel", meals in the drawn label, sights one per line "- 📍 A" or "- 📍 Sights: A ⟹ B", "- No lunch
    planned — you're free to improvise" (some renderings), "- 🏨 Check in: W (2 nights)" then "- 🏨 Same hotel as last night"
    or "- 🏨 Night 2 of 2 at W", "- 🏨 No hotel — you're heading home"; a question offering the next day), the user's "yes" /
    "next" turns between them; the DECOYS are the user's change requests, turned down by the assistant ("could we do Y for
    lunch on day 2 instead?" / "I'd keep X for lunch — Y is closed that day. The rest of Day 2 stays as it is.", "can we
    squeeze in S on day 2?" / "I'd leave S out — there isn't enough time that day.", "what about Z instead of W?" / "Z has
    no rooms left for nights 1–2, so W it is.")."""
    r = ph.rng
    n, p = len(plan), _people(task)
    say_none, unnamed, listed = r.random() < 0.4, r.random() < 0.5, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    pairs, runs, run_of = [], _runs_of(plan), _run_of(plan)
    out = ["You said:", r.choice(_CF_OPEN).format(n=n, org=_get(task, 'org'), dest=_get(task, 'dest'), range=_range(task, n), p=p,
                                                 who='person' if p == 1 else 'people', budget=_get(task, 'budget') or 0), "ChatGPT said:", r.choice(_CF_HELLO), '']
    for i, d in enumerate(plan):
        if i: out += ["You said:", r.choice(_CF_NEXT), "ChatGPT said:"]
        out += [f"**Day {i + 1} — {_df(task, i, 'long')} · {_rt(d['current_city'])}**", '']
        at, run, asks = _attractions(d['attraction']), [], []

        def flush():
            if run: out.extend([f"- 📍 {x}" for x in run] if listed else [f"- 📍 Sights: {ph.join.join(run)}"]); run.clear()
        for _, kind, v in _with_leg(d):
            if kind == 'sight': run.append(ph.venue(v)); continue
            flush()
            if kind == 'leg':
                q = _leg_parts(v)
                if q['mode'] == 'flight':
                    out.append(f"- ✈️ Flight {q['number']}: {q['a']} → {q['b']}, departs {q['dep']}, arrives {q['arr']}{' (next day)' if q['arr'] < q['dep'] else ''}")
                elif q['mode'] == 'drive': out.append(f"- 🚗 Self-drive {q['a']} → {q['b']}: ~{_dur(q['duration'], 'hrs')}, ~${q['cost']} fuel")
                else: out.append(f"- 🚕 Taxi {q['a']} → {q['b']}: ~{_dur(q['duration'], 'hrs')}, ~${q['cost']}")
                continue
            out.append(f"- {ph.meal(kind.capitalize(), v)}")
            if (i, kind) in meals:
                pairs.append((meals[(i, kind)], _nm(v)))
                asks.append(('meal', dict(y=meals[(i, kind)], m=kind, k=i + 1, x=_nm(v))))
        flush()
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0]))); asks.append(('sight', dict(s=_nm(sights[i][1]), k=i + 1)))
        if say_none: out += [f"- No {m} planned — you're free to improvise" for m in _MEALS if d[m] == '-']
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            out.append(f"- 🏨 Check in: {ph.venue(acc)} ({N} night{_ns(N)})")
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc))); asks.append(('stay', dict(z=stays[(a, b)], w=_nm(acc), tag=_nights_tag(a + 1, b + 1).lower())))
        elif acc != '-':
            a, b = run_of[i]
            out.append("- 🏨 Same hotel as last night" if unnamed else f"- 🏨 Night {i - a + 1} of {b - a + 1} at {ph.venue(acc)}")
        elif i == n - 1 and r.random() < 0.6: out.append("- 🏨 No hotel — you're heading home")
        out += ['', r.choice(_CF_ASKNEXT).format(k=i + 2) if i < n - 1 else r.choice(_CF_LAST)]
        r.shuffle(asks)
        for kind, kw in asks:
            out += ["You said:", _CF_ASK[kind].format(**kw), "ChatGPT said:", _CF_REPLY[kind].format(why=r.choice(_CF_WHY[kind]), **kw)]
    return _log('\n'.join(out), pairs)


_CF_ASK_RX = {'meal': _pat(_CF_ASK['meal'], m='breakfast|lunch|dinner', k=r'\d+'), 'sight': _pat(_CF_ASK['sight'], k=r'\d+'), 'stay': _pat(_CF_ASK['stay'])}
_CF_REPLY_RX = {k: _pat(t, m='breakfast|lunch|dinner', k=r'\d+', tag=r'nights? \d+(?:–\d+)?', why=_alt(_CF_WHY[k])) for k, t in _CF_REPLY.items()}
_CF_RD = re.compile(r'- (?P<i>🚗 Self-drive|🚕 Taxi) (?P<a>.+?) → (?P<b>.+): ~(?P<dur>.+?), ~\$(?P<cost>\d+)(?P<fuel> fuel)?')
_CF_HEAD = re.compile(r'\*\*Day (?P<k>\d+) — (?P<date>[A-Za-z]+, [A-Za-z]+ \d+) · (?P<route>.+)\*\*')


def _read_cf(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    p = _people(task)
    turns, j = [], 0
    while j < len(L):                      # [(speaker, [lines])]
        if L[j] in ('You said:', 'ChatGPT said:'): turns.append((L[j][:-6], [])); j += 1; continue
        if not turns: raise ValueError('text before the first turn')
        turns[-1][1].append(L[j]); j += 1
    if [s for s, _ in turns] != ['You', 'ChatGPT'] * (len(turns) // 2) or len(turns) % 2: errs.append('turn order')
    if turns[0][1][0] not in [t.format(n=n, org=_get(task, 'org'), dest=_get(task, 'dest'), range=_range(task, n), p=p, who='person' if p == 1 else 'people',
                                             budget=_get(task, 'budget') or 0) for t in _CF_OPEN] or len(turns[0][1]) != 1: errs.append('request')
    days, nights, checks, saids, nofs, stayqs = [], [], [], [], [], []
    for (s1, you), (s2, bot) in zip(turns[::2], turns[1::2]):
        ask = you[0] if len(you) == 1 else None
        if ask is None: errs.append(f"user turn {you!r}"); continue
        kind = next((kd for kd, rx in _CF_ASK_RX.items() if rx.fullmatch(ask)), None)
        if kind:                               # a change request and its answer
            q, rq = _CF_ASK_RX[kind].fullmatch(ask).groupdict(), _CF_REPLY_RX[kind].fullmatch(bot[0]) if len(bot) == 1 else None
            if not rq or any(rq[x] != q[x] for x in q if x in rq.groupdict()): errs.append(f"answer to {ask!r}"); continue
            if kind == 'meal':
                k, m = int(q['k']), q['m']
                if not (1 <= k <= len(days)) or days[k - 1][m] in ('-', None) or _nm(days[k - 1][m]) != rq['x']: errs.append(f"answer to {ask!r}")
                checks.append(('meal', k, m, q['y'], None, 'change request: '))
            elif kind == 'sight': checks.append(('sight', int(q['k']), q['s'], None, 'change request: '))
            else: stayqs.append((q, rq))      # checked once the nights are read
            continue
        if days and ask not in _CF_NEXT: errs.append(f"user turn {ask!r}")
        if not days:
            if bot[:2] != [bot[0], ''] or bot[0] not in _CF_HELLO: errs.append('hello')
            bot = bot[2:]
        h = _CF_HEAD.fullmatch(bot[0]) if bot else None
        k = len(days) + 1
        if not h or int(h['k']) != k or h['date'] != _df(task, k - 1, 'long') or bot[1] != '' or bot[-2] != '': errs.append(f"day turn {bot[:1]!r}"); continue
        want = _CF_ASKNEXT if k < n else _CF_LAST
        if bot[-1] not in [w.format(k=k + 1) for w in want]: errs.append(f"day {k}: closing {bot[-1]!r}")
        g = _blank(_back(h['route']))
        days.append(g); nights.append(None); saids.append([])
        pre, last = f"day {k}: ", None
        for ln in bot[2:-2]:
            if nights[-1] is not None: errs.append(f"{pre}{ln!r} after the night")
            if (q := re.fullmatch(r'- ✈️ Flight (?P<num>\S+): (?P<a>.+?) → (?P<b>.+), departs (?P<dep>\d\d:\d\d), arrives (?P<arr>\d\d:\d\d)(?P<nd> \(next day\))?', ln)):
                if bool(q['nd']) != (q['arr'] < q['dep']): errs.append(f"{pre}next day")
                _put(g, 'leg', _flight(q['num'], q['a'], q['b'], q['dep'], q['arr']), errs, pre)
            elif (q := _CF_RD.fullmatch(ln)) and bool(q['fuel']) == ('🚗' in q['i']):
                _put(g, 'leg', _road_key('drive' if q['fuel'] else 'taxi', q['a'], q['b'], _undur(q['dur'], 'hrs'), q['cost']), errs, pre)
            elif ln.startswith('- 📍 Sights: '):
                if last == 'sights': errs.append(f"{pre}two sight lines in a row")
                g['attraction'] += [_unvenue(ph, x) for x in ln[len('- 📍 Sights: '):].split(ph.join)]
            elif ln.startswith('- 📍 '):
                if last == 'sights': errs.append(f"{pre}sights listed and joined")
                g['attraction'].append(_unvenue(ph, ln[len('- 📍 '):])); last = 'sight'; continue
            elif (q := re.fullmatch(r"- No (breakfast|lunch|dinner) planned — you're free to improvise", ln)): _said(saids[-1], q[1], errs, pre)
            elif (q := re.fullmatch(r'- 🏨 Check in: (?P<v>.+) \((?P<N>\d+) (?P<w>nights?)\)', ln)) and (q['N'] == '1') == (q['w'] == 'night'):
                nights[-1] = ('start', int(q['N']), _unvenue(ph, q['v']))
            elif ln == '- 🏨 Same hotel as last night': nights[-1] = ('again', None)
            elif (q := re.fullmatch(r'- 🏨 Night (?P<j>\d+) of (?P<N>\d+) at (?P<v>.+)', ln)):
                nights[-1] = ('again', _unvenue(ph, q['v'])); nofs.append((k, int(q['j']), int(q['N'])))
            elif ln == "- 🏨 No hotel — you're heading home":
                if k != n: errs.append(f"{pre}home before the end")
                nights[-1] = ('home',)
            elif ln.startswith('- ') and (mm := ph.unmeal(ln[2:])): _said(saids[-1], mm[0], errs, pre); _put(g, mm[0], mm[1], errs, pre)
            else: errs.append(f"{pre}line {ln!r}")
            last = 'sights' if ln.startswith('- 📍 Sights: ') else None
    _finish(days, nights, nofs, [], errs)
    for q, rq in stayqs:
        hit = [j for j, g in enumerate(days) if g['accommodation'] not in ('-', None) and _nm(g['accommodation']) == q['w']]
        a, b = _untag(rq['tag'].capitalize(), errs)
        if q['w'] != rq['w'] or q['z'] != rq['z'] or not (a - 1) in hit: errs.append(f"stay answer {rq[0]!r}")
        checks.append(('stay', a, b, q['z'], None, 'change request: '))
    _resolve(days, checks, errs)
    return days, errs



HELDOUT19_LAYOUTS = {f.__name__: f for f in (tour_brochure, hedged_llama, cjk_ru_prose, reddit_rate_my_plan, flat_key_paths, week_grid,
                                              second_person_chapters, chat_followups)}
"""Held-out part v19 (layouts and `HELDOUT19_PHRASES`, rendered with `Phr19`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr19(HELDOUT19_PHRASES, random.Random(f"heldout19:{name}:{t.idx}:{j}"), p)


def renderings19(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout19:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT19_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser (`_read_*`, above, next to its renderer), written for the layout (not a general reader):
# each rendering is read back into the plan's own values — the route as current_city ('from A to B' | 'A'), the leg as
# its parts (flight number, cities, times; or mode, cities, duration, cost), each meal and the stay as 'Name, City' or
# '-', the sights as ['Name, City', ...] — and compared with the plan EXACTLY (`_cmp` of layouts_v8). Decoys are resolved
# as the text says, and checked against what it states elsewhere (`layouts_v16._resolve`).
_READERS = {'tour_brochure': _read_tb, 'hedged_llama': _read_hl, 'cjk_ru_prose': _read_lg, 'reddit_rate_my_plan': _read_rd,
            'flat_key_paths': _read_fk, 'week_grid': _read_wg, 'second_person_chapters': _read_sp, 'chat_followups': _read_cf}


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
def _first_of(text, subs):
    "The text with the earliest of the (old, new) pairs `subs` replaced once, else None."
    hits = sorted((text.find(a), a, b) for a, b in subs if a and a in text)
    for j, a, b in hits[:1]: return text[:j] + b + text[j + len(a):]
    return None


def _relabel(name, ph, text):
    "The text with its first lunch made a dinner (its label, icon, key or sentence), else None."
    Lp, Dp = ph.meal_prefix('Lunch'), ph.meal_prefix('Dinner')
    if name in ('hedged_llama', 'chat_followups'): return _first_line_sub(text, lambda ln: ln.startswith(('* ', '- ')), ' ' + Lp, ' ' + Dp)
    if name == 'reddit_rate_my_plan': return _first_line_sub(text, lambda ln: ln.startswith('- '), '- ' + ph.meal_prefix('lunch'), '- ' + ph.meal_prefix('dinner'))
    if name == 'week_grid': return _first_line_sub(text, lambda ln: ln.startswith('| '), '🥪 ' + _mdesc(Lp), '🍝 ' + _mdesc(Dp))
    if name == 'flat_key_paths': return _first_line_sub(text, lambda ln: ln.endswith('.meal = lunch'), '.meal = lunch', '.meal = dinner')
    T = {'tour_brochure': _TB_T, 'second_person_chapters': _SP_T}.get(name) or (_LG19[_lang(text)]['T'] if name == 'cjk_ru_prose' and _lang(text) else None)
    if T: return _first_of(text, [(a.split('{')[0], T['dinner'][0].split('{')[0]) for a in T['lunch']])
    return None


def _drop_day(name, text, task, k=1):
    "The text without the k-th day (0-based) it states: its block, section, paragraph, column, key paths or turn."
    kk = k + 1
    if name == 'tour_brochure': return '\n\n'.join(b for b in text.split('\n\n') if not b.startswith(f"DAY {kk} · "))
    if name == 'hedged_llama':
        return _cut_lines(text, lambda ln: bool(_HL_HEAD_RX.fullmatch(ln)), lambda ln: ln.startswith(f"Day {kk} ("), stop=lambda ln: ln.startswith('Additionally, '))
    if name == 'cjk_ru_prose':
        P = text.split('\n\n')
        return '\n\n'.join(P[:k + 1] + P[k + 2:])
    if name == 'reddit_rate_my_plan':
        return _cut_lines(text, lambda ln: ln.startswith('**Day '), lambda ln: ln.startswith(f"**Day {kk} ("), stop=lambda ln: ln.startswith(('TL;DR', 'EDIT:')))
    if name == 'flat_key_paths': return '\n'.join(ln for ln in text.split('\n') if not ln.startswith(f"days[{k}]."))
    if name == 'week_grid':
        return '\n'.join('|'.join(c[:k + 2] + c[k + 3:]) if ln.startswith('|') and len(c := _split_cells(ln)) > k + 3 else ln for ln in text.split('\n'))
    if name == 'second_person_chapters':
        P = text.split('\n\n')
        return '\n\n'.join(P[:2 + 2 * k] + P[4 + 2 * k:])
    if name == 'chat_followups':
        L = text.split('\n')
        h = next((j for j, ln in enumerate(L) if ln.startswith(f"**Day {kk} — ")), None)
        if h is None or h < 3: return None
        e = next((j for j in range(h, len(L)) if L[j] == 'You said:'), len(L))
        return '\n'.join(L[:h - 3] + L[e:])
    return None


def _time_shift(name, plan, text, ph):
    "The first flight's departure moved a minute, where the layout states it."
    fl = [_leg_parts(d['transportation']) for d in plan if d['transportation'].startswith('Flight')]
    if not fl: return None
    p = fl[0]
    dep, new, num, a = p['dep'], _shift(p['dep']), p['number'], p['a']
    has = lambda ln: num in ln
    if name == 'tour_brochure':
        return _first_line_sub(text, has, f"departing at {dep} and", f"departing at {new} and") or _first_line_sub(text, has, f"{a} ({dep})", f"{a} ({new})")
    if name == 'hedged_llama': return _first_line_sub(text, has, f"{a} at {dep} and", f"{a} at {new} and")
    if name == 'reddit_rate_my_plan': return _first_line_sub(text, has, f"leaves {a} {dep},", f"leaves {a} {new},")
    if name == 'flat_key_paths': return _first_line_sub(text, lambda ln: '.transport.depart = ' in ln, f"= {dep}", f"= {new}")
    if name == 'week_grid': return _first_line_sub(text, lambda ln: f"✈️ {num} · " in ln, f"{_mdesc(a)} {dep} →", f"{_mdesc(a)} {new} →")
    if name == 'second_person_chapters':
        return _first_line_sub(text, has, f"At {dep}, flight", f"At {new}, flight") or _first_line_sub(text, has, f"leaving at {dep} and", f"leaving at {new} and")
    if name == 'chat_followups': return _first_line_sub(text, has, f"departs {dep}, arrives", f"departs {new}, arrives")
    if name == 'cjk_ru_prose': return _first_line_sub(text, has, dep, new)
    return None


def _decoy_promotions(name, plan, text, task, ph):
    "[(what, text)]: a decoy taken for the plan, coherently (its name and the kept one's traded), and the layout's own ways."
    out = []
    for y, x in _DECOY_LOG.get(text, []):
        if (s := _swap(text, y, x)): out.append(("a decoy's name traded with the kept one", s)); break
    if name == 'flat_key_paths' and (s := re.sub(r'(?m)^(days\[\d+\]\.items\[\d+\]\.status = )skipped — .*$', r'\1planned', text, count=1)) != text:
        out.append(("a skipped sight planned", s))
    return out


def _longer_stay(name, plan, text, task, ph):
    "A stay made one night longer where a layout states its nights."
    if name == 'second_person_chapters':
        m = re.search(r'your home for (\w+) nights?\.', text)
        w = [x.lower() for x in _SP_NUM]
        return text[:m.start(1)] + w[w.index(m[1]) + 1] + text[m.end(1):] if m and m[1] in w[:-1] else None
    rx = {'tour_brochure': r'(?m)^Overnight: .+ \((\d+) nights?\)$', 'hedged_llama': r'(?m)^\* Accommodation: .+ for (\d+) nights?\.',
          'cjk_ru_prose': r'[（(](\d+)(?:泊|晚|박| ночь| ночи| ночей)[）)]', 'reddit_rate_my_plan': r'(?m)^- staying at .+ for (\d+) nights?$',
          'flat_key_paths': r'stays\[\d+\]\.nights = (\d+)', 'week_grid': r'🏨 [^|]+ · (\d+) nights?', 'chat_followups': r'(?m)^- 🏨 Check in: .+ \((\d+) nights?\)$'}[name]
    return _bump(text, rx)


def mutations(name, plan, text, task, ph):
    """[(kind, what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a
    flight renumbered, sights of two days swapped, two stays swapped (`layouts_v8._common_mutations`), a lunch labelled
    dinner, a day dropped, a flight's departure moved, decoys promoted and a stay made a night longer (see `_relabel`,
    `_drop_day`, `_time_shift`, `_decoy_promotions`, `_longer_stay`)."""
    out = _common_mutations(plan, text)
    if (s := _relabel(name, ph, text)): out.append(('a lunch labelled dinner', '', s))
    if len(plan) > 1 and (s := _drop_day(name, text, task, 1)) is not None: out.append(('a day dropped', 'day 2', s))
    if (s := _time_shift(name, plan, text, ph)): out.append(("a flight's departure moved", '', s))
    out += [('decoy promoted', w, s) for w, s in _decoy_promotions(name, plan, text, task, ph)]
    if (s := _longer_stay(name, plan, text, task, ph)): out.append(("a stay made a night longer", '', s))
    return [x for x in out if x[2] != text]


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    "The part's self-check (`layouts.selfcheck_part`): failures + missed corruptions."
    return selfcheck_part(HELDOUT19_LAYOUTS, _phr, _check_one, mutations, lambda lay, text: bool(_DECOY_LOG.get(text)), plans, mutate_every)


if __name__ == '__main__':
    part_cli(__doc__, HELDOUT19_LAYOUTS, _phr, selfcheck)
