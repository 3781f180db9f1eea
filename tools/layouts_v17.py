#!/usr/bin/env python
"""Held-out part v17 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their notebooks
(04a, 04b, 05), tests (test_grounded*, test_layout*, test_robustness*) or results/formatter/* were opened, no reader was
run on these texts, and `tools/layouts.py measure` / `record` were not run). Only tools/layouts.py (its interface and its
layouts' source, to avoid repeating them), tools/agreement.py (`_leg_parts`, `_attractions`) and tools/layouts_v5.py ...
layouts_v16.py (their structure, docstrings and layouts; generic helpers of v8, v9, v10, v12, v13, v15 and v16 are
imported) were read; star/evaluator.py was not opened (its `eval_index().city_state` is used, through layouts_v15's
`_cities` and tools/layouts.py's `_POSTAL_OF`, as tools/layouts.py uses it). SEALED: this part is to be scored ONCE by
the lead (via tools/layouts.py, part 'heldout17', once registered there) and never tuned on before that score.

    python tools/layouts_v17.py check                    # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (the time-of-day bullets, themed
                                                         # titles and unnamed 'same hotel' nights; the summary table
                                                         # against the day paragraphs, read sentence by sentence; the
                                                         # days told apart by rules and dates alone; the open options
                                                         # and their picks, inline or at the end; the Spanish / French /
                                                         # German / Portuguese sentences, clocks and durations; the
                                                         # agent's tool calls parsed (Python literals, keyword calls,
                                                         # JSON) and its final answer checked against its own searches
                                                         # and bookings; the decimal numbering, the stays summary by its
                                                         # dates; the mixed items, stay blocks and their Location lines)
                                                         # into the plan's own values (venue 'Name, City', route, leg
                                                         # parts) and compared with the plan EXACTLY; then corruptions (a
                                                         # name deleted, lunches swapped, a day dropped, a decoy
                                                         # promoted, the other option picked, a flight time moved, a stay
                                                         # lengthened, ...) must be caught. 315 plans x 8 layouts = 2,520
                                                         # renderings, 24,048 corruptions, ~20-35 s
    python tools/layouts_v17.py check --limit 40         # the same on the first 40 known plans (~5 s)
    python tools/layouts_v17.py show agent_tool_json --n 1   # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how chat models, tool-using agents and people write a 3/5/7-day trip plan, in styles that none of
tools/layouts.py, tools/layouts_v5.py ... tools/layouts_v16.py has (see each renderer's docstring):

* `themed_time_of_day`   the GPT-4o / Gemini answer: "### Day 2: Exploring Rockford" — a THEMED title, no route, in some
                         renderings the first sight's name in it ("### Day 2: Burpee Museum of Natural History & More") —,
                         an italic "*Thursday, March 17 · Rockford*", then "- **Morning:**" / "- 🌅 **Morning**" / "-
                         *Morning*", Afternoon, Evening bullets holding the day's items ("  - Fly A → B on flight F1
                         (departs 3:40 PM, arrives 5:04 PM)", meals in the drawn label, "  - Explore X"); the stay NAMED
                         ONLY ON CHECK-IN ("Check in at W (2 nights)"), then "Overnight: same hotel as Day 1" / "Head back
                         to your hotel for the night"; DECOYS in italic sub-bullets ("*(Swapped in for Y — it's closed
                         that day.)*", "*(Skipped S — ...)*", "*(Z was the first choice, but it had no rooms left.)*")
* `glance_stays_prose`   a summary table ("| Day | Date | Route | Getting there | Where you sleep |") — the ONLY place the
                         stays are named ("W (2 nights)", "same as Day 1") and the travel cut to "✈️ F1 · 15:40–17:04" —
                         then "### Day by day" and ONE prose paragraph per day led by "**Day 2 — Thursday.**" (no date, no
                         route): the leg again in words, "Start the day with breakfast at X.", "Then see A ➔ B.", "Back to
                         the hotel for the night."; DECOYS as asides "(Y was my first thought for lunch, but ...)", "(I
                         left out S — ...)" and a note under the table "_(Nights 1–2: I'd looked at Z first, but ...)_"
* `rules_bold_dates`     NO day numbers: days told apart only by a bold date ("**Wednesday, March 16**", "**Wed 16 Mar**"
                         or the weekday alone) and '---' rules; the route after a dash or on an italic line; plain
                         lines ("✈ F1 · St. Petersburg 15:40 → Rockford 17:04", "🚗 A → B by car · 3 hr 11 min · ~$120"),
                         meal words drawn among Breakfast / Lunch / Dinner, Brekkie / Lunch / SUPPER, Coffee & breakfast
                         / Lunch break / Dinner, "Things to do: A ➔ B", "Sleep: W" every night; DECOYS "(Passed on Y —
                         closed that day.)" under the meal, the sights or the first night of a stay
* `slot_options_pick`    some slots left OPEN between two places ("- Lunch — **Option A:** X · **Option B:** Y", "- Lunch:
                         X *or* Y", "- Hotel (2 nights) — **Option A:** W · **Option B:** Z"; the plan's first or second)
                         and settled EITHER right below ("  - ➜ I'd go with **Option B** — better reviews.", "  - ➜ Pick:
                         **X** — ...") OR only in a closing "### ✅ Final picks" ("- Day 2 lunch → Option B", "→ **X**", "→
                         Option B (X)", "- Nights 1–2 hotel → Option A"); the option not picked is the DECOY, and "(skipping
                         S this time — not enough time)" after the sights
* `es_fr_de_pt_prose`    PROSE in Spanish, French, German or European Portuguese (drawn), names in English: "**Día 2 –
                         jueves 17 de marzo (Rockford)**" and one paragraph ("Sales en el vuelo F1 de A a B a las 15:40 y
                         llegas a las 17:04.", "Vol F1 de A à B : départ à 15h40, arrivée à 17h04.", "Mittagessen bei X.",
                         "Pequeno-almoço em X." — 'déjeuner' and 'almoço' are LUNCH, 'pequeno-almoço' BREAKFAST —,
                         "Übernachtung in W (2 Nächte).", then UNNAMED nights "Seguimos en el mismo alojamiento." / "Nuit au
                         même hôtel."), durations, clocks, the placement's words and the joins translated; DECOYS in
                         brackets ("(Habíamos pensado en Y, pero ese día cierra.)", "(S : pas le temps cette fois.)", "(Z
                         war ausgebucht.)")
* `agent_tool_json`      a tool-using agent's run: a LangChain AgentExecutor verbose log ("Invoking: `search_flights` with
                         `{'origin': ...}`" and one-line JSON results, "> Finished chain.") or a chat transcript ("🔧
                         **Tool call:** `search_restaurants(city="Rockford")`" and ```json blocks): flight / distance
                         look-ups, hotel / restaurant / attraction searches listing the plan's places AMONG OTHERS,
                         availability checks, bookings ({"check_in", "check_out"} → {"nights": 2}); then the final answer,
                         one line per day ("Day 2 (2022-03-17) — Rockford: Breakfast: try X; see A ➔ B; ...; stay at W.");
                         DECOYS: every search result not used and the first picks that fell through ("Y looks good for
                         lunch on day 2 — checking availability." / "Y is closed that day, so lunch on day 2 goes to X
                         instead.")
* `decimal_outline`      a numbered DOCUMENT: "## 1. Overview" (1.1 Travellers, 1.2 Dates, 1.3 Route), "## 2. Day-by-day
                         plan" with "### 2.2 Day 2 — Thursday 17 March 2022 — Rockford" and decimal items ("2.2.1 Breakfast
                         suggestion: X", "2.2.2 Sightseeing" with "2.2.2.1 A", "2.1.1 Transport: flight F1, A (dep. 15:40) →
                         B (arr. 17:04)", "2.1.4 Accommodation: W (night 1 of 2)"), "## 3. Accommodation summary" ("3.1 W —
                         2 nights, 16 March to 17 March (check-out Friday 18 March)") — in some renderings the ONLY place
                         of the stays —, "## 4. Considered but not booked" with the DECOYS ("4.1 Day 2, lunch: Y — closed
                         that day", "4.3 Nights 1–2: Z — no rooms left")
* `numbered_mixed`       a NUMBERED list of days ("1. **Wed, Mar 16 — St. Petersburg to Rockford**", the list number the
                         only day number) whose sub-items MIX labels and sentences, as Llama / Qwen / DeepSeek answers do:
                         "Fly from A to B on F1, leaving at 3:40 PM and landing at 5:04 PM.", "Dinner: try X", "Morning: A ➔
                         B", "In the afternoon, head to C.", name-free fillers; the stay as an item block with its NAME
                         AND CITY APART ("Stay: **W**" / "  - Location: Rockford" / "  - 2 nights (check-out Fri, Mar 18)"),
                         then "Same hotel as last night." / "Another night at **W**."; DECOYS "Note: skip Y — it's closed
                         that day.", "Not included: S — not enough time.", "Z was full, so this one instead."

Phrasings (`HELDOUT17_PHRASES`, drawn per rendering by `Phr17`): venue placed as 'X, right in City', 'X (City IL)' (the
state's postal code with NO comma; 'X (City)' for a city the database places in no state), 'X in downtown City' or 'X,
City' (the words translated in es_fr_de_pt_prose: 'X, en pleno City', 'X, dans le centre de City', 'X in der Innenstadt
von City', 'X, na baixa de City', ...; numbered_mixed's stays give the city a line of its own); several sights joined by
' ➔ ', ' ► ', ', then swing by ' or ', then on foot to ' (the last two translated in es_fr_de_pt_prose); meal labels
'Lunch: try X', 'Lunch suggestion: X', '**Lunch at X**' or 'Lunch: X' (everywhere but glance_stays_prose and
es_fr_de_pt_prose, which say their meals in sentences; with other meal words in rules_bold_dates: '**Supper at X**').
Every rendering states the whole plan: each day's route, the leg (flight number and times, or self-drive / taxi with
duration and cost), each meal's restaurant (or none: absent, or said to be none), each attraction and the accommodation
(named, or 'the same hotel' as a night the text names); names are verbatim (words are only added around them; the
markdown table escapes '|', the tool calls and JSON quote what they must); the noise (themed titles, asides, notes,
options not picked, search results, failed checks, the considered-but-not-booked section, fillers) never contradicts the
plan; every rendering carries at least one decoy."""
from __future__ import annotations

import ast, datetime, json, random, re, sys, zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _POSTAL_OF, _name_city, known_plans, part_cli, selfcheck_part            # noqa: E402
from layouts_v8 import _cities as _ab, _cmp, _common_mutations, _MEALS, _blank, _date, _dur_key, _get, _people, _put, _road_key, _said, _swap  # noqa: E402
from layouts_v9 import _back, _revision_decoys, _rt  # noqa: E402
from layouts_v10 import _day_runs, _flight, _nm, _with_name  # noqa: E402
from layouts_v12 import _alt, _fd  # noqa: E402
from layouts_v13 import _day_of, _first_line_sub, _tre  # noqa: E402
from layouts_v15 import _cities, _nights_tag, _untag, _with_leg  # noqa: E402
from layouts_v16 import _cut_lines, _mdesc, _mdunesc, _pm, _resolve, _shift, _split_cells, _un_pm  # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT17_PHRASES = {
    'locative': ('right_in', 'paren_st', 'in_downtown', 'comma'),   # 'X, right in City' | 'X (City IL)' | 'X in downtown City' | 'X, City'
    'join': (' ➔ ', ' ► ', ', then swing by ', ', then on foot to '),
    'meal_label': ('try', 'suggestion', 'bold_at', 'colon'),        # 'Lunch: try X' | 'Lunch suggestion: X' | '**Lunch at X**' | 'Lunch: X'
}

_VT17 = {   # the placement's words per language (the Spanish / French / German / Portuguese prose translates them)
    'en': {'right_in': '{n}, right in {c}', 'in_downtown': '{n} in downtown {c}', 'comma': '{n}, {c}'},
    'es': {'right_in': '{n}, en pleno {c}', 'in_downtown': '{n}, en el centro de {c}', 'comma': '{n}, {c}'},
    'fr': {'right_in': '{n}, en plein {c}', 'in_downtown': '{n}, dans le centre de {c}', 'comma': '{n}, {c}'},
    'de': {'right_in': '{n}, mitten in {c}', 'in_downtown': '{n} in der Innenstadt von {c}', 'comma': '{n}, {c}'},
    'pt': {'right_in': '{n}, em pleno {c}', 'in_downtown': '{n}, na baixa de {c}', 'comma': '{n}, {c}'},
}
_VRE17 = {lg: {k: _tre(t) for k, t in T.items()} for lg, T in _VT17.items()}
_PAREN_ST = re.compile(r'(?P<n>.+) \((?P<c>[^()]+?)(?: (?P<S>[A-Z]{2}))?\)', re.S)


def _venue(ph, v: str, lg: str = 'en') -> str:
    "A venue 'Name, City' as `ph` places it (in language `lg`): 'paren_st' adds the state's postal code, without a comma."
    n, c = _name_city(v)
    if not c: return n
    if ph.loc == 'paren_st': return f"{n} ({c} {_POSTAL_OF[c]})" if c in _POSTAL_OF else f"{n} ({c})"
    return _VT17[lg][ph.loc].format(n=n, c=c)


def _unvenue(ph, s: str, lg: str = 'en') -> str:
    "'Name, City' of a venue as `_venue` writes it; a placement that is not the drawn one is an error."
    if ph.loc == 'paren_st':
        m = _PAREN_ST.fullmatch(s)
        if not m: raise ValueError(f"venue {s!r} not placed as paren_st")
        if m['S'] is not None:
            if _POSTAL_OF.get(m['c']) != m['S']: raise ValueError(f"venue {s!r}: state")
        elif m['c'] in _POSTAL_OF or m['c'] not in _cities(): raise ValueError(f"venue {s!r}: city without its state")
        return f"{m['n']}, {m['c']}"
    m = _VRE17[lg][ph.loc].fullmatch(s)
    if not m or not m['n'] or not m['c']: raise ValueError(f"venue {s!r} not placed as {ph.loc} ({lg})")
    if ph.loc == 'comma' and m['c'] not in _cities(): raise ValueError(f"venue {s!r}: {m['c']!r} is no city")
    return f"{m['n']}, {m['c']}"


class Phr17(Phr):
    "`Phr` with the v17 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        if self.loc in HELDOUT17_PHRASES['locative']: return _venue(self, v)
        return super().venue(v)

    def meal_prefix(self, label: str) -> str:
        "The words before a meal's venue: 'Lunch: try ' | 'Lunch suggestion: ' | '**Lunch at ' | 'Lunch: '."
        return {'try': f"{label}: try ", 'suggestion': f"{label} suggestion: ", 'bold_at': f"**{label} at "}.get(self.label, f"{label}: ")

    def meal_suffix(self) -> str: return '**' if self.label == 'bold_at' else ''

    def meal(self, label: str, v: str) -> str: return self.meal_prefix(label) + self.venue(v) + self.meal_suffix()

    def unmeal(self, s: str, labels=None):
        "(meal, 'Name, City') of a text `meal` wrote (with the meal words `labels`, default Breakfast / Lunch / Dinner), else None."
        labels = labels or tuple(m.capitalize() for m in _MEALS)
        suf = self.meal_suffix()
        for m, lab in zip(_MEALS, labels):
            p = self.meal_prefix(lab)
            if s.startswith(p) and s.endswith(suf) and len(s) > len(p) + len(suf): return m, _unvenue(self, s[len(p):len(s) - len(suf)])
        return None


PHR17 = Phr17

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


def _ns(k: int) -> str: return 's' * (k != 1)


_DUR = {   # duration styles: unit words (singular, plural) for hours and minutes, the joiner between them
    'h_min': {'hour': ('h', 'h'), 'min': ('min', 'min'), 'and': ' '},
    'hr': {'hour': ('hr', 'hr'), 'min': ('min', 'min'), 'and': ' '},
    'compact': {'hour': ('h', 'h'), 'min': ('m', 'm'), 'and': '', 'tight': True},
    'words': {'hour': ('hour', 'hours'), 'min': ('minute', 'minutes'), 'and': ' and '},
    'es': {'hour': ('hora', 'horas'), 'min': ('minuto', 'minutos'), 'and': ' y '},
    'fr': {'hour': ('heure', 'heures'), 'min': ('minute', 'minutes'), 'and': ' et '},
    'de': {'hour': ('Std.', 'Std.'), 'min': ('Min.', 'Min.'), 'and': ' '},
    'pt': {'hour': ('hora', 'horas'), 'min': ('minuto', 'minutos'), 'and': ' e '},
}


def _dur(s: str, style: str) -> str:
    "A plan's duration ('3 hours 11 mins') in a style of `_DUR` ('3 h 11 min', '3h11m', '3 hours and 11 minutes', '3 horas y 11 minutos')."
    S, parts = _DUR[style], []
    for n, u in _dur_key(s):
        if u not in S: raise ValueError(f"duration unit {u!r}")
        w = S[u][n != 1]
        parts.append(f"{n}{w}" if S.get('tight') else f"{n} {w}")
    return S['and'].join(parts)


def _undur(s: str, style: str) -> str:
    "A duration `_dur` wrote, back as the plan writes it ('3 hours 11 mins'; compared by `layouts_v8._dur_key`)."
    S = _DUR[style]
    unit = lambda u: '(?P<%s>\\d+)%s(?:%s)' % (u, '' if S.get('tight') else ' ', '|'.join(map(re.escape, S[u])))
    rx = f"(?:{unit('hour')}(?:{re.escape(S['and'])}{unit('min')})?|{unit('min').replace('(?P<min>', '(?P<min2>')})"
    q = re.fullmatch(rx, s)
    if not q: raise ValueError(f"duration {s!r} not in style {style}")
    h, m = q['hour'], q['min'] or q['min2']
    out = ' '.join(x for x in ((f"{h} hours" if h else ''), (f"{m} mins" if m else '')) if x)
    if _dur(out, style) != s: raise ValueError(f"duration {s!r} not as {style} writes it")
    return out


def _tmpl(s: str, **kinds) -> tuple[str, str]:
    """A sentence template ('Desayuno en {v}.') as (regex, its literal start): each {name} a group, lazy free text unless
    `kinds` gives its pattern. Every template starts with literal text."""
    out, pos, first = '', 0, None
    for m in re.finditer(r'\{(\w+)\}', s):
        lit = s[pos:m.start()]
        if first is None: first = lit
        out += re.escape(lit) + f"(?P<{m[1]}>{kinds.get(m[1], '.+?')})"
        pos = m.end()
    if not (first if first is not None else s): raise ValueError(f"template {s!r} starts with a group")
    return out + re.escape(s[pos:]), first if first is not None else s


def _scan(par: str, templates: dict, ok=None) -> list[tuple[str, dict]]:
    """A paragraph of sentences read back by their templates (name -> `_tmpl`): the paragraph cut into sentences (each
    ending in '.', '!' or ')' before a space or the paragraph's end), each matching one template whose groups `ok(name,
    groups)` accepts (default: any), the shortest sentences first, backtracking where the rest does not read.
    [(template name, groups)]; raises ValueError where no cut reads."""
    rxs = [(k, re.compile(rx, re.S), st) for k, (rx, st) in templates.items()]
    ends = [e for e in range(1, len(par) + 1) if par[e - 1] in '.!)' and (e == len(par) or par[e] == ' ')]
    bad: set = set()

    def go(p):
        if p >= len(par): return []
        if p in bad: return None
        for k, rx, st in rxs:
            if not par.startswith(st, p): continue
            for e in ends:
                if e <= p: continue
                m = rx.fullmatch(par, p, e)
                if m and (ok is None or ok(k, m.groupdict())) and (rest := go(e + 1)) is not None: return [(k, m.groupdict())] + rest
        bad.add(p)
        return None
    out = go(0)
    if out is None: raise ValueError(f"paragraph not read: {par[:80]!r}")
    return out


def _ok_venues(ph, lg='en', sight_keys=('s',), venue_keys=('v',)):
    "A `_scan` check: the template's venue groups are placed as `ph` places them (sight groups split at the drawn join)."
    def ok(k, q):
        try:
            for key in venue_keys:
                if q.get(key) is not None: _unvenue(ph, q[key], lg)
            for key in sight_keys:
                if q.get(key) is not None: [_unvenue(ph, x, lg) for x in q[key].split(ph.join)]
            return True
        except ValueError: return False
    return ok


def _apply_nights(days, nights, errs):
    """The nights of the days read into their accommodation: ('start', N, 'Name, City') a stay's first of N nights,
    ('again', 'Name, City' or None) another night of the run (None: named no more, 'the same hotel'), ('named', v) a night
    named on its own, None no stay; a run cut short, overrun or contradicted is an error."""
    run = None
    for i, nt in enumerate(nights):
        pre = f"day {i + 1}: "
        if nt and nt[0] == 'start':
            if run and run[1] > 0: errs.append(f"{pre}a new stay inside a run")
            if nt[1] < 1: errs.append(f"{pre}{nt[1]} nights")
            run = [nt[2], nt[1] - 1]
            days[i]['accommodation'] = nt[2]
        elif nt and nt[0] == 'again':
            if not run or run[1] <= 0 or (nt[1] is not None and nt[1] != run[0]): errs.append(f"{pre}another night outside its run")
            else: run[1] -= 1; days[i]['accommodation'] = run[0]
        elif nt and nt[0] == 'named':
            if run and run[1] > 0: errs.append(f"{pre}a stay inside a run")
            run = None
            days[i]['accommodation'] = nt[1]
        elif run and run[1] > 0: errs.append(f"{pre}the run of {run[0]!r} stops short")
    if run and run[1] > 0: errs.append(f"the run of {run[0]!r} runs past the trip")


def _runs_of(plan) -> dict:
    "{first day index: (first, last day index, accommodation)} of the runs of nights with a stay."
    return {a: (a, b, acc) for a, b, acc in _day_runs(plan)}


def _run_start(plan, i) -> int:
    "The first day index of the run of nights that day i belongs to."
    return next(a for a, b, _ in _day_runs(plan) if a <= i <= b)


def _leg_en17(t: str) -> str:
    "A leg as the themed plan writes it: 'Fly A → B on flight F1 (departs 3:40 PM, arrives 5:04 PM)' | 'Drive yourself from A to B (about 3 hours and 11 minutes, ~$120)'."
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        return (f"Fly {p['a']} → {p['b']} on flight {p['number']} (departs {_pm(p['dep'])}, arrives {_pm(p['arr'])}"
                f"{', next day' if p['arr'] < p['dep'] else ''})")
    how = 'Take a taxi' if p['mode'] == 'taxi' else 'Drive yourself'
    return f"{how} from {p['a']} to {p['b']} (about {_dur(p['duration'], 'words')}, ~${p['cost']})"


_PM_T = r'\d{1,2}:\d\d [AP]M'
_LEG_EN17 = (re.compile(rf'Fly (?P<a>.+?) → (?P<b>.+) on flight (?P<num>\S+) \(departs (?P<dep>{_PM_T}), arrives (?P<arr>{_PM_T})(?P<nd>, next day)?\)'),
             re.compile(r'(?P<how>Take a taxi|Drive yourself) from (?P<a>.+?) to (?P<b>.+) \(about (?P<dur>.+?), ~\$(?P<cost>\d+)\)'))


def _unleg_en17(s: str):
    "The leg key of `_leg_en17`'s text, else None."
    if (q := _LEG_EN17[0].fullmatch(s)):
        dep, arr = _un_pm(q['dep']), _un_pm(q['arr'])
        if bool(q['nd']) != (arr < dep): raise ValueError(f"leg {s!r}: 'next day'")
        return _flight(q['num'], q['a'], q['b'], dep, arr)
    if (q := _LEG_EN17[1].fullmatch(s)):
        return _road_key('taxi' if q['how'] == 'Take a taxi' else 'drive', q['a'], q['b'], _undur(q['dur'], 'words'), q['cost'])
    return None

# ============================================================================================================ layouts
# themed_time_of_day ---------------------------------------------------------------------------------------------------
_TD_INTRO = ("Here's a {n}-day itinerary for your trip from {org} to {dest}! 🌟",
             "Absolutely — here's a day-by-day plan for your {n} days:", "Great choice! Below is a suggested {n}-day itinerary.")
_TD_PARTS = (('**Morning:**', '**Afternoon:**', '**Evening:**'), ('🌅 **Morning**', '☀️ **Afternoon**', '🌙 **Evening**'),
             ('*Morning*', '*Afternoon*', '*Evening*'))
_TD_VERBS = ('Visit', 'Explore', 'Head to', 'Spend some time at')
_TD_WHY = {'meal': ("it's closed that day", "it was fully booked", "it's a bit over budget"),
           'stay': ("it had no rooms left", "it's over budget"), 'sight': ("there isn't enough time", "it's closed for renovation")}
_TD_OUTRO = ("Let me know if you'd like to swap anything!", "Enjoy your trip! ✈️", "Feel free to adjust the pace to your liking.")
_TD_NIGHT = ("Overnight: same hotel as Day {a}", "Head back to your hotel for the night", "Another night at {v}")


def _td_titles(cc: str, i: int, n: int, at: list) -> tuple:
    "The titles a day may get: by its place in the trip, its travel and its first sight."
    a, b = _ab(cc)
    if a != b:
        if i == 0: return (f"Arrival in {b}", f"Travel to {b}")
        if i == n - 1: return ("Heading Home", f"Goodbye, {a}", "Travel Day")
        return (f"On to {b}", f"Travel to {b}")
    if at: return (f"Exploring {a}", f"{_nm(at[0])} & More", "Sights & Local Flavors", f"A Full Day in {a}")
    return (f"A Relaxed Day in {a}", "An Easy Day")


def themed_time_of_day(plan, task, ph):
    """The answer GPT-4o / Gemini most often give: an intro, then per day a heading with a THEMED title and no route ("### Day
    2: Exploring Rockford", "### Day 2: Burpee Museum of Natural History & More" — the first sight's name in the title —,
    "### Day 1: Arrival in Rockford", "### Day 3: Heading Home"), an italic subtitle with the date and the route ("*Thursday,
    March 17 · Rockford*", "*Wednesday, March 16 · St. Petersburg → Rockford*"), then bullets by TIME OF DAY ("- **Morning:**"
    / "- 🌅 **Morning**" / "- *Morning*", Afternoon, Evening; a part with nothing left out) holding nested items in the order
    of the day: the leg where it happens ("Fly A → B on flight F1 (departs 3:40 PM, arrives 5:04 PM)" with ", next day" for
    an arrival after midnight; "Drive yourself from A to B (about 3 hours and 11 minutes, ~$120)" / "Take a taxi ..."),
    meals in the drawn label and placement, sights behind a verb ("Visit X", "Explore X", "Head to X", "Spend some time at
    X"), one per bullet or a run joined by the drawn join; the stay named ONLY on check-in ("Check in at W (2 nights)" /
    "Check in: W — 2 nights"), the other nights "Overnight: same hotel as Day 1", "Head back to your hotel for the night"
    (no name) or "Another night at W"; an empty meal "Lunch: on your own" or left out; "No hotel tonight — you're home 🏠"
    on the last day or nothing. DECOYS in italic sub-bullets: "*(Swapped in for Y — it's closed that day.)*" under a
    meal, "*(Skipped S — there isn't enough time.)*" under the day's last sight, "*(Z was the first choice, but it had no
    rooms left.)*" under a check-in."""
    r = ph.rng
    parts, one_per_line, say_none = r.choice(_TD_PARTS), r.random() < 0.5, r.random() < 0.4
    meals, stays, sights = _decoys(plan, r)
    n, pairs, runs = len(plan), [], _runs_of(plan)
    out = [r.choice(_TD_INTRO).format(n=n, org=_get(task, 'org'), dest=_get(task, 'dest')), '']
    for i, d in enumerate(plan):
        at = _attractions(d['attraction'])
        out += [f"### Day {i + 1}: {r.choice(_td_titles(d['current_city'], i, n, at))}", f"*{_fd(task, i, 'long')} · {_rt(d['current_city'])}*"]
        ent, cur = [], 0
        for t, kind, v in _with_leg(d):
            cur = max(cur, 0 if t < 720 else 1 if t < 1020 else 2)
            if kind == 'leg': ent.append([cur, 'leg', _leg_en17(v), []])
            elif kind == 'sight':
                if not one_per_line and ent and ent[-1][1] == 'sight' and ent[-1][0] == cur: ent[-1][2] += ph.join + ph.venue(v)
                else: ent.append([cur, 'sight', f"{r.choice(_TD_VERBS)} {ph.venue(v)}", []])
            else:
                ent.append([cur, kind, ph.meal(kind.capitalize(), v), []])
                if (i, kind) in meals:
                    pairs.append((meals[(i, kind)], _nm(v)))
                    ent[-1][3].append(f"*(Swapped in for {meals[(i, kind)]} — {r.choice(_TD_WHY['meal'])}.)*")
        if i in sights:
            s = sights[i][1]
            pairs.append((_nm(s), _nm(at[0])))
            next(e for e in reversed(ent) if e[1] == 'sight')[3].append(f"*(Skipped {ph.venue(s)} — {r.choice(_TD_WHY['sight'])}.)*")
        if say_none: ent += [[j, 'none', f"{m.capitalize()}: on your own", []] for j, m in enumerate(_MEALS) if d[m] == '-']
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            subs = []
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc)))
                subs.append(f"*({stays[(a, b)]} was the first choice, but {r.choice(_TD_WHY['stay'])}.)*")
            ent.append([2, 'stay', r.choice((f"Check in at {ph.venue(acc)} ({N} night{_ns(N)})", f"Check in: {ph.venue(acc)} — {N} night{_ns(N)}")), subs])
        elif acc != '-': ent.append([2, 'stay', r.choice(_TD_NIGHT).format(a=_run_start(plan, i) + 1, v=ph.venue(acc)), []])
        elif i == n - 1 and r.random() < 0.5: ent.append([2, 'home', "No hotel tonight — you're home 🏠", []])
        for j in range(3):
            es = [e for e in ent if e[0] == j]
            if not es: continue
            out.append(f"- {parts[j]}")
            for e in es: out += [f"  - {e[2]}"] + [f"    - {x}" for x in e[3]]
        out.append('')
    return _log('\n'.join(out + [r.choice(_TD_OUTRO)]), pairs)

# glance_stays_prose --------------------------------------------------------------------------------------------------
_GP_INTRO = ("Here's your {n}-day plan at a glance, with the details for each day below.",
             "Sure — first a quick overview table, then each day in a few sentences.")
_GP_HEAD = '| Day | Date | Route | Getting there | Where you sleep |'
_GP_WHY = {'meal': ("it's closed that day", "it was fully booked", "it's a long detour"), 'stay': ("no rooms were left", "it was over budget"),
           'sight': ("there isn't enough time", "it's closed for renovation")}
_GP_OUTRO = ("Have a wonderful trip!", "Happy to tweak any of it — just ask.")
_GP_T = {   # sentence templates of the day paragraphs
    'fly': ("You fly out of {a} at {dep} on {num} and land in {b} at {arr}{nd}.", "Flight {num} leaves {a} at {dep} and gets into {b} at {arr}{nd}."),
    'drive': ("You drive yourself from {a} to {b}, roughly {dur} on the road (about ${cost} in fuel).",),
    'taxi': ("A taxi takes you from {a} to {b} in roughly {dur} (about ${cost}).",),
    'breakfast': ("Breakfast is at {v}.", "Start the day with breakfast at {v}.", "Grab breakfast at {v}."),
    'lunch': ("Lunch is at {v}.", "For lunch, head to {v}.", "Stop for lunch at {v}."),
    'dinner': ("Dinner is at {v}.", "In the evening, have dinner at {v}.", "Wrap up with dinner at {v}."),
    'sights': ("Then see {s}.", "Afterwards, visit {s}.", "Next up: {s}."),
    'none': ("No {m} is planned.", "You're on your own for {m}."),
    'start': ("Check in and get some rest.",), 'again': ("Back to the hotel for the night.",), 'home': ("Then it's home.",),
    'filler': ("Comfortable shoes recommended!", "It's a relaxed day.", "It's a long day, so pace yourself."),
    'dsight': ("(I left out {s} — {why}.)",), 'dmeal': ("({y} was my first thought for {m}, but {why}.)",),
}


def _gp_travel(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ {p['number']} · {p['dep']}–{p['arr']}" + (' (+1)' if p['arr'] < p['dep'] else '')
    return f"{'🚕 taxi' if p['mode'] == 'taxi' else '🚗 self-drive'} · {_dur(p['duration'], 'h_min')} · ${p['cost']}"


def _gp_leg_sentence(t: str, r) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        return r.choice(_GP_T['fly']).format(a=p['a'], b=p['b'], num=p['number'], dep=p['dep'], arr=p['arr'], nd=' the next day' if p['arr'] < p['dep'] else '')
    return _GP_T[p['mode']][0].format(a=p['a'], b=p['b'], dur=_dur(p['duration'], 'words'), cost=p['cost'])


def glance_stays_prose(plan, task, ph):
    """A summary table first, then a paragraph of prose per day (as Claude and GPT-4o write "at a glance" answers): "| Day |
    Date | Route | Getting there | Where you sleep |", a row per day ("| 2 | Thu 3/17 | Rockford | — | same as Day 1 |",
    dates 'Thu 3/17' or 'Thu, Mar 17'), the travel cut to "✈️ F1 · 15:40–17:04" ("(+1)" for an arrival after midnight) or
    "🚗 self-drive · 3 h 11 min · $120" / "🚕 taxi · ..." (its cities only in the Route column), and THE ONLY NAMES OF THE
    STAYS: "W (2 nights)" on a stay's first night then "same as Day 1", or the name repeated every night; "—" (or "— (heading
    home)") for none; '|' escaped. Then "### Day by day" and per day ONE paragraph led by "**Day 2 — Thursday.**" (no
    date, no route), sentences in the order of the day: the leg again in words ("You fly out of A at 15:40 on F1 and land in
    B at 17:04.", "Flight F1 leaves A at ... and gets into B at ... the next day.", "You drive yourself from A to B, roughly
    3 hours and 11 minutes on the road (about $120 in fuel).", "A taxi takes you ..."), meals in sentences with the drawn
    placement ("Start the day with breakfast at X.", "For lunch, head to X.", "Wrap up with dinner at X."), sights as
    "Then see A ➔ B." (the drawn join), "No lunch is planned." / "You're on your own for lunch." for an empty meal (some
    renderings), the night only as "Check in and get some rest." / "Back to the hotel for the night." / "Then it's home.",
    name-free fillers ("It's a relaxed day."). DECOYS: asides in the prose "(Y was my first thought for lunch, but it's
    closed that day.)", "(I left out S — there isn't enough time.)", and an italic line under the table "_(Nights 1–2: I'd
    looked at Z first, but no rooms were left.)_"."""
    r = ph.rng
    dform, sform, say_none = r.choice(('us', 'mon')), r.choice(('count', 'repeat')), r.random() < 0.4
    meals, stays, sights = _decoys(plan, r)
    n, pairs, runs = len(plan), [], _runs_of(plan)
    out = [r.choice(_GP_INTRO).format(n=n), '', _GP_HEAD, '|---|---|---|---|---|']
    for i, d in enumerate(plan):
        acc = d['accommodation']
        if acc == '-': sleep = r.choice(('—', '— (heading home)')) if i == n - 1 else '—'
        elif sform == 'repeat': sleep = _mdesc(ph.venue(acc))
        elif i in runs: N = runs[i][1] - i + 1; sleep = f"{_mdesc(ph.venue(acc))} ({N} night{_ns(N)})"
        else: sleep = f"same as Day {_run_start(plan, i) + 1}"
        trav = _gp_travel(d['transportation']) if d['transportation'] != '-' else '—'
        out.append(f"| {i + 1} | {_fd(task, i, dform)} | {_rt(d['current_city'])} | {trav} | {sleep} |")
    for (a, b), z in stays.items():
        pairs.append((z, _nm(plan[a]['accommodation'])))
        out += ['', f"_({_nights_tag(a + 1, b + 1)}: I'd looked at {z} first, but {r.choice(_GP_WHY['stay'])}.)_"]
    out += ['', '### Day by day', '']
    for i, d in enumerate(plan):
        at = _attractions(d['attraction'])
        s, run = [], []
        def flush():
            if run: s.append(r.choice(_GP_T['sights']).format(s=ph.join.join(run))); run.clear()
        for t, kind, v in _with_leg(d):
            if kind == 'sight': run.append(ph.venue(v)); continue
            flush()
            if kind == 'leg': s.append(_gp_leg_sentence(v, r)); continue
            s.append(r.choice(_GP_T[kind]).format(v=ph.venue(v)))
            if (i, kind) in meals:
                pairs.append((meals[(i, kind)], _nm(v)))
                s.append(_GP_T['dmeal'][0].format(y=meals[(i, kind)], m=kind, why=r.choice(_GP_WHY['meal'])))
        flush()
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            s.append(_GP_T['dsight'][0].format(s=ph.venue(sights[i][1]), why=r.choice(_GP_WHY['sight'])))
        if say_none:
            s += [r.choice(_GP_T['none']).format(m=m) for m in _MEALS if d[m] == '-']
        if r.random() < 0.3: s.insert(r.choice((0, len(s))), r.choice(_GP_T['filler']))
        acc = d['accommodation']
        new = acc != '-' and (i == 0 or plan[i - 1]['accommodation'] != acc)
        if acc != '-': s.append(_GP_T['start' if new else 'again'][0])
        elif i == n - 1 and r.random() < 0.5: s.append(_GP_T['home'][0])
        out += [f"**Day {i + 1} — {_date(task, i):%A}.** " + ' '.join(s), '']
    return _log('\n'.join(out + [r.choice(_GP_OUTRO)]), pairs)


# rules_bold_dates -----------------------------------------------------------------------------------------------------
_RB_INTRO = ("Here's the plan, day by day:", "Okay, here's what I'd do — one block per day.", "Your itinerary:")
_RB_DATE = ('long', 'dm', 'weekday')
_RB_WORDS = (('Breakfast', 'Lunch', 'Dinner'), ('Brekkie', 'Lunch', 'Supper'), ('Coffee & breakfast', 'Lunch break', 'Dinner'))
_RB_SIGHTS = ('Things to do', 'See', 'On the list')
_RB_STAY = ('Sleep', 'Bed', 'Home base', 'Overnight')
_RB_NONE = ('{w}: skipped', '{w}: —', 'No {lw} planned')
_RB_WHY = {'meal': ("closed that day", "no tables left", "too far off the route"), 'stay': ("no rooms left", "over budget"),
           'sight': ("not enough time", "closed for renovation")}
_RB_OUTRO = ("That's it — safe travels!", "Enjoy!")


def _rb_date(task, i: int, form: str) -> str: return f"{_date(task, i):%A}" if form == 'weekday' else _fd(task, i, form)


def _rb_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈ {p['number']} · {p['a']} {p['dep']} → {p['b']} {p['arr']}" + (' (+1)' if p['arr'] < p['dep'] else '')
    return f"{'🚕' if p['mode'] == 'taxi' else '🚗'} {p['a']} → {p['b']} by {'taxi' if p['mode'] == 'taxi' else 'car'} · {_dur(p['duration'], 'hr')} · ~${p['cost']}"


def rules_bold_dates(plan, task, ph):
    """Days told apart ONLY by a bold date and a horizontal rule ('---') between them, as people paste plans into notes
    apps: NO day numbers anywhere; the date "**Wednesday, March 16**", "**Wed 16 Mar**" or the weekday alone ("**Wednesday**")
    and the route after a dash on the same line ("**Thursday, March 17** — Rockford") or on its own italic line
    ("_St. Petersburg → Rockford_"); then plain lines, no bullets, in the order of the day: the leg with each time next to
    its city ("✈ F1 · St. Petersburg 15:40 → Rockford 17:04", "(+1)" for an arrival after midnight; "🚗 A → B by car · 3 hr
    11 min · ~$120", "🚕 A → B by taxi · ..."), meals under one of three sets of words (Breakfast / Lunch / Dinner,
    Brekkie / Lunch / SUPPER, Coffee & breakfast / Lunch break / Dinner) in the drawn label and placement ("Supper: try X",
    "**Lunch break at X**"), each run of sights on a line "Things to do: A ➔ B" / "See: ..." / "On the list: ..." (two such
    lines on a day whose sights come before and after lunch), the stay named EVERY night ("Sleep: W", "Bed:", "Home base:",
    "Overnight:"); an empty meal "Supper: skipped", "Supper: —" or "No supper planned" (some renderings) or nothing, the
    last night "Sleep: — (home)" or nothing. DECOYS: "(Passed on Y — closed that day.)" under a meal, "(Passed on S —
    not enough time.)" under the last sights line, "(Passed on Z — no rooms left.)" under the first night of a stay (for
    the nights it is kept)."""
    r = ph.rng
    dform, inline, words = r.choice(_RB_DATE), r.random() < 0.5, r.choice(_RB_WORDS)
    slab, nlab, say_none, nform = r.choice(_RB_SIGHTS), r.choice(_RB_STAY), r.random() < 0.4, r.choice(_RB_NONE)
    meals, stays, sights = _decoys(plan, r)
    n, pairs, runs = len(plan), [], _runs_of(plan)
    W = dict(zip(_MEALS, words))
    out = [r.choice(_RB_INTRO)]
    for i, d in enumerate(plan):
        at = _attractions(d['attraction'])
        date = f"**{_rb_date(task, i, dform)}**"
        ls = [f"{date} — {_rt(d['current_city'])}"] if inline else [date, f"_{_rt(d['current_city'])}_"]
        run = []
        def flush():
            if run: ls.append(f"{slab}: {ph.join.join(run)}"); run.clear()
        for t, kind, v in _with_leg(d):
            if kind == 'sight': run.append(ph.venue(v)); continue
            flush()
            if kind == 'leg': ls.append(_rb_leg(v)); continue
            ls.append(ph.meal(W[kind], v))
            if (i, kind) in meals:
                pairs.append((meals[(i, kind)], _nm(v)))
                ls.append(f"(Passed on {meals[(i, kind)]} — {r.choice(_RB_WHY['meal'])}.)")
        flush()
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            j = max(j for j, x in enumerate(ls) if x.startswith(slab + ': '))
            ls.insert(j + 1, f"(Passed on {ph.venue(sights[i][1])} — {r.choice(_RB_WHY['sight'])}.)")
        if say_none: ls += [nform.format(w=W[m], lw=W[m].lower()) for m in _MEALS if d[m] == '-']
        acc = d['accommodation']
        if acc != '-':
            ls.append(f"{nlab}: {ph.venue(acc)}")
            if i in runs and (i, runs[i][1]) in stays:
                z = stays[(i, runs[i][1])]
                pairs.append((z, _nm(acc)))
                ls.append(f"(Passed on {z} — {r.choice(_RB_WHY['stay'])}.)")
        elif i == n - 1 and r.random() < 0.5: ls.append(f"{nlab}: — (home)")
        out += ['', '\n'.join(ls)] + (['', '---'] if i < n - 1 else [])
    return _log('\n'.join(out + ['', r.choice(_RB_OUTRO)]), pairs)


# slot_options_pick ----------------------------------------------------------------------------------------------------
_SO_INTRO = {'end': "Here's the plan. Where two places looked equally good I've listed both as options — my picks are at the end.",
             'inline': "Here's the plan. Where two places looked equally good I've listed both, with my pick right below."}
_SO_WHY = ("closer to the sights", "better reviews", "a little cheaper", "open later")
_SO_SKIP = ("not enough time", "closed for renovation")
_SO_OUTRO = ("Want me to book anything?", "Let me know if you'd rather switch any of the picks.")


def _so_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        return f"Travel: flight {p['number']}, {p['a']} → {p['b']}, wheels up {p['dep']}, landing {p['arr']}" + (' (next day)' if p['arr'] < p['dep'] else '')
    return f"Travel: {'taxi' if p['mode'] == 'taxi' else 'self-drive'}, {p['a']} → {p['b']}, {_dur(p['duration'], 'compact')} (${p['cost']})"


def slot_options_pick(plan, task, ph):
    """A plan that leaves some slots OPEN between two places and settles them later, as assistants do when they cannot
    decide: day sections "#### Day 2 · Thu, Mar 17 · Rockford" with bullets — "- Travel: flight F1, A → B, wheels up 15:40,
    landing 17:04" ("(next day)" for an arrival after midnight) / "- Travel: self-drive, A → B, 3h11m ($120)" / "taxi",
    meals in the drawn label and placement, "- Sightseeing: A ➔ B" (the drawn join), "- Hotel (2 nights): W" on a stay's
    first night and "- Hotel: same as Day 1" after, "- Hotel: none (travel home)" or nothing on the last day, "- Lunch:
    none planned" for an empty meal (some renderings) — where one to two meals and sometimes a stay are written as TWO
    options: "- Lunch — **Option A:** X · **Option B:** Y" or "- Lunch: X *or* Y" (the plan's place first or second,
    drawn), "- Hotel (2 nights) — **Option A:** W · **Option B:** Z"; the choice is made EITHER right below ("  - ➜ I'd go
    with **Option B** — better reviews." / "  - ➜ Pick: **X** — ...") OR only in a closing "### ✅ Final picks" list ("- Day
    2 lunch → Option B", "- Day 2 lunch → **X**", "- Day 2 lunch → Option B (X)", "- Nights 1–2 hotel → Option A"), so the
    days alone do not say which place is planned. DECOYS: the option not picked, and a sight left out at the end of the
    sights line "(skipping S this time — not enough time)"."""
    r = ph.rng
    mode, say_none, orform = r.choice(('end', 'inline')), r.random() < 0.4, r.random() < 0.3
    meals, stays, sights = _decoys(plan, r, (1, 2))
    n, pairs, runs, picks = len(plan), [], _runs_of(plan), []
    out = [_SO_INTRO[mode], '']

    def options(label, v, y, tag):
        "The option line(s) and the pick, for the plan's venue v and the decoy name y (same city)."
        yv = _with_name(v, y)
        first = r.random() < 0.5
        a, b = (v, yv) if first else (yv, v)
        pairs.append((y, _nm(v)))
        if orform: lines = [f"- {label}: {ph.venue(a)} *or* {ph.venue(b)}"]
        else: lines = [f"- {label} — **Option A:** {ph.venue(a)} · **Option B:** {ph.venue(b)}"]
        letter = 'A' if first else 'B'
        how = 'name' if orform else r.choice(('letter', 'name', 'both'))
        if mode == 'inline':
            lines.append(f"  - ➜ I'd go with **Option {letter}** — {r.choice(_SO_WHY)}." if how == 'letter' else
                         f"  - ➜ Pick: **{_nm(v)}** — {r.choice(_SO_WHY)}.")
        else:
            picks.append(f"- {tag} → " + {'letter': f"Option {letter}", 'name': f"**{_nm(v)}**", 'both': f"Option {letter} ({_nm(v)})"}[how])
        return lines

    for i, d in enumerate(plan):
        k = i + 1
        out.append(f"#### Day {k} · {_fd(task, i, 'mon')} · {_rt(d['current_city'])}")
        at = _attractions(d['attraction'])
        if d['transportation'] != '-': out.append(f"- {_so_leg(d['transportation'])}")
        for m in _MEALS:
            if d[m] == '-':
                if say_none: out.append(f"- {m.capitalize()}: none planned")
            elif (i, m) in meals: out += options(m.capitalize(), d[m], meals[(i, m)], f"Day {k} {m}")
            else: out.append(f"- {ph.meal(m.capitalize(), d[m])}")
            if m == 'breakfast' and at:
                skip = f" (skipping {ph.venue(sights[i][1])} this time — {r.choice(_SO_SKIP)})" if i in sights else ''
                if skip: pairs.append((_nm(sights[i][1]), _nm(at[0])))
                out.append(f"- Sightseeing: {ph.items(at)}{skip}")
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            label = f"Hotel ({N} night{_ns(N)})"
            if (a, b) in stays: out += options(label, acc, stays[(a, b)], f"{_nights_tag(a + 1, b + 1)} hotel")
            else: out.append(f"- {label}: {ph.venue(acc)}")
        elif acc != '-': out.append(f"- Hotel: same as Day {_run_start(plan, i) + 1}")
        elif i == n - 1 and r.random() < 0.5: out.append("- Hotel: none (travel home)")
        out.append('')
    if picks: out += ['### ✅ Final picks'] + picks + ['']
    return _log('\n'.join(out + [r.choice(_SO_OUTRO)]), pairs)


# es_fr_de_pt_prose ----------------------------------------------------------------------------------------------------
_LG17 = {
    'es': {'intro': "Aquí tienes el itinerario día a día (los nombres de los sitios van tal cual):", 'outro': "¡Buen viaje!",
           'head': "**Día {k} – {date} ({route})**", 'date': "{wd} {d} de {mo}",
           'wd': "lunes martes miércoles jueves viernes sábado domingo".split(),
           'mo': "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split(),
           'clock': r'\d\d:\d\d', 'nights': ('noche', 'noches'), 'nd': ' del día siguiente',
           'join': {', then swing by ': ', luego pasa por ', ', then on foot to ': ', y a pie hasta '},
           'T': {'fly': ("Sales en el vuelo {num} de {a} a {b} a las {dep} y llegas a las {arr}{nd}.",
                         "Vuelo {num} de {a} a {b}: salida a las {dep}, llegada a las {arr}{nd}."),
                 'drive': ("Vas en coche propio de {a} a {b} (aprox. {dur}, {cost} $).",), 'taxi': ("Tomas un taxi de {a} a {b} (aprox. {dur}, {cost} $).",),
                 'breakfast': ("Desayuno en {v}.", "Para desayunar, {v}."), 'lunch': ("Almuerzo en {v}.", "Para almorzar, {v}."),
                 'dinner': ("Cena en {v}.", "Para cenar, {v}."), 'sights': ("Visita a {s}.", "Luego toca visitar {s}."),
                 'none_breakfast': ("Desayuno libre.",), 'none_lunch': ("Almuerzo libre.",), 'none_dinner': ("Cena libre.",),
                 'start': ("Te alojas en {v} ({N} {nights}).",), 'again': ("Otra noche en {v}.", "Seguimos en el mismo alojamiento."),
                 'home': ("Vuelta a casa.",), 'dmeal': ("(Habíamos pensado en {y}, pero {why}.)",), 'dsight': ("({s} se queda fuera: {why}.)",),
                 'dstay': ("({z} no tenía habitaciones libres.)",)},
           'why': {'meal': ("ese día cierra", "no quedaban mesas"), 'sight': ("no da tiempo", "está cerrado por obras")}},
    'fr': {'intro': "Voici l'itinéraire jour par jour (les noms des lieux sont laissés en version originale) :", 'outro': "Bon voyage !",
           'head': "**Jour {k} – {date} ({route})**", 'date': "{wd} {d} {mo}",
           'wd': "lundi mardi mercredi jeudi vendredi samedi dimanche".split(),
           'mo': "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
           'clock': r'\d{1,2}h\d\d', 'nights': ('nuit', 'nuits'), 'nd': ' (le lendemain)',
           'join': {', then swing by ': ', puis passage par ', ', then on foot to ': ", puis à pied jusqu'à "},
           'T': {'fly': ("Vol {num} de {a} à {b} : départ à {dep}, arrivée à {arr}{nd}.",
                         "Vous prenez le vol {num} au départ de {a} à {dep} ; arrivée à {b} à {arr}{nd}."),
                 'drive': ("Trajet en voiture de {a} à {b} (environ {dur}, {cost} $).",), 'taxi': ("Taxi de {a} à {b} (environ {dur}, {cost} $).",),
                 'breakfast': ("Petit-déjeuner chez {v}.",), 'lunch': ("Déjeuner chez {v}.", "Pour le déjeuner, direction {v}."),
                 'dinner': ("Dîner chez {v}.", "Le soir, dîner chez {v}."), 'sights': ("Visites : {s}.", "Au programme : {s}."),
                 'none_breakfast': ("Pas de petit-déjeuner prévu.",), 'none_lunch': ("Pas de déjeuner prévu.",), 'none_dinner': ("Pas de dîner prévu.",),
                 'start': ("Nuit à {v} ({N} {nights}).",), 'again': ("Encore une nuit à {v}.", "Nuit au même hôtel."),
                 'home': ("Retour à la maison.",), 'dmeal': ("(Nous avions envisagé {y}, mais {why}.)",), 'dsight': ("({s} : {why}.)",),
                 'dstay': ("({z} était complet.)",)},
           'why': {'meal': ("c'est fermé ce jour-là", "c'était complet"), 'sight': ("pas le temps cette fois", "fermé pour travaux")}},
    'de': {'intro': "Hier ist der Reiseplan Tag für Tag (die Namen der Orte im Original):", 'outro': "Gute Reise!",
           'head': "**Tag {k} – {date} ({route})**", 'date': "{wd}, {d}. {mo}",
           'wd': "Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag".split(),
           'mo': "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split(),
           'clock': r'\d\d:\d\d', 'nights': ('Nacht', 'Nächte'), 'nd': ' (am nächsten Tag)',
           'join': {', then swing by ': ', dann weiter zu ', ', then on foot to ': ', dann zu Fuß zu '},
           'T': {'fly': ("Flug {num} von {a} nach {b}, Abflug {dep} Uhr, Ankunft {arr} Uhr{nd}.",
                         "Mit Flug {num} geht es um {dep} Uhr von {a} nach {b}, Landung um {arr} Uhr{nd}."),
                 'drive': ("Mit dem eigenen Auto von {a} nach {b} (ca. {dur}, {cost} USD).",), 'taxi': ("Mit dem Taxi von {a} nach {b} (ca. {dur}, {cost} USD).",),
                 'breakfast': ("Frühstück bei {v}.",), 'lunch': ("Mittagessen bei {v}.", "Zum Mittagessen geht es zu {v}."),
                 'dinner': ("Abendessen bei {v}.", "Am Abend essen wir bei {v}."), 'sights': ("Besichtigungen: {s}.", "Auf dem Programm: {s}."),
                 'none_breakfast': ("Kein Frühstück eingeplant.",), 'none_lunch': ("Kein Mittagessen eingeplant.",), 'none_dinner': ("Kein Abendessen eingeplant.",),
                 'start': ("Übernachtung in {v} ({N} {nights}).",), 'again': ("Noch eine Nacht in {v}.", "Übernachtung wieder in derselben Unterkunft."),
                 'home': ("Rückkehr nach Hause.",), 'dmeal': ("(Eigentlich war {y} geplant, aber {why}.)",), 'dsight': ("({s} lassen wir weg: {why}.)",),
                 'dstay': ("({z} war ausgebucht.)",)},
           'why': {'meal': ("dort ist an dem Tag geschlossen", "es war ausgebucht"), 'sight': ("keine Zeit", "wegen Umbau geschlossen")}},
    'pt': {'intro': "Aqui está o roteiro dia a dia (os nomes dos locais ficam no original):", 'outro': "Boa viagem!",
           'head': "**Dia {k} – {date} ({route})**", 'date': "{wd}, {d} de {mo}",
           'wd': "segunda-feira terça-feira quarta-feira quinta-feira sexta-feira sábado domingo".split(),
           'mo': "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro".split(),
           'clock': r'\d\dh\d\d', 'nights': ('noite', 'noites'), 'nd': ' (do dia seguinte)',
           'join': {', then swing by ': ', depois passa por ', ', then on foot to ': ', e a pé até '},
           'T': {'fly': ("Voo {num} de {a} para {b}: partida às {dep}, chegada às {arr}{nd}.",
                         "Apanha o voo {num} em {a} às {dep} e chega a {b} às {arr}{nd}."),
                 'drive': ("De carro próprio de {a} para {b} (cerca de {dur}, {cost} USD).",), 'taxi': ("De táxi de {a} para {b} (cerca de {dur}, {cost} USD).",),
                 'breakfast': ("Pequeno-almoço em {v}.",), 'lunch': ("Almoço em {v}.", "Para o almoço, {v}."),
                 'dinner': ("Jantar em {v}.", "Ao fim do dia, jantar em {v}."), 'sights': ("Visitas: {s}.", "No programa: {s}."),
                 'none_breakfast': ("Sem pequeno-almoço previsto.",), 'none_lunch': ("Sem almoço previsto.",), 'none_dinner': ("Sem jantar previsto.",),
                 'start': ("Dormida em {v} ({N} {nights}).",), 'again': ("Mais uma noite em {v}.", "Noite no mesmo alojamento."),
                 'home': ("Regresso a casa.",), 'dmeal': ("(Tínhamos pensado em {y}, mas {why}.)",), 'dsight': ("({s} fica de fora: {why}.)",),
                 'dstay': ("({z} estava esgotado.)",)},
           'why': {'meal': ("fecha nesse dia", "estava lotado"), 'sight': ("não há tempo", "está fechado para obras")}},
}


def _lclock(lg: str, t: str) -> str:
    "'15:40' as `lg` writes it: 15:40 (es, de — 'Uhr' in the sentence), 15h40 (fr: 9h35, pt: 09h35)."
    if lg == 'fr': return f"{int(t[:2])}h{t[3:]}"
    if lg == 'pt': return t.replace(':', 'h')
    return t


def _unlclock(lg: str, s: str) -> str:
    t = f"{int(s.split('h')[0]):02d}:{s.split('h')[1]}" if lg in ('fr', 'pt') else s
    if _lclock(lg, t) != s: raise ValueError(f"clock {s!r} ({lg})")
    return t


def _ldate17(lg: str, task, i: int) -> str:
    L, d = _LG17[lg], _date(task, i)
    return L['date'].format(wd=L['wd'][d.weekday()], d=d.day, mo=L['mo'][d.month - 1])


def _ljoin17(lg: str, ph) -> str: return _LG17[lg]['join'].get(ph.join, ph.join)


def es_fr_de_pt_prose(plan, task, ph):
    """The answer written as PROSE in Spanish, French, German or European Portuguese (drawn), the venue names left in
    English: a bold head per day ("**Día 2 – jueves 17 de marzo (Rockford)**", "**Jour 2 – jeudi 17 mars (...)**", "**Tag 2 –
    Donnerstag, 17. März (...)**", "**Dia 2 – quinta-feira, 17 de março (...)**"; a travel day "(St. Petersburg → Rockford)")
    and ONE paragraph of sentences in the order of the day: the leg ("Sales en el vuelo F1 de A a B a las 15:40 y llegas a
    las 17:04.", "Vol F1 de A à B : départ à 15h40, arrivée à 17h04.", "Flug F1 von A nach B, Abflug 15:40 Uhr, Ankunft
    17:04 Uhr.", "Apanha o voo F1 em A às 15h40 e chega a B às 17h04."; an arrival after midnight "del día siguiente" / "(le
    lendemain)" / "(am nächsten Tag)" / "(do dia seguinte)"; "Vas en coche propio de A a B (aprox. 3 horas y 11 minutos, 120
    $).", "Mit dem Taxi von A nach B (ca. 3 Std. 11 Min., 120 USD).", durations translated), meals ("Desayuno en X." /
    "Para almorzar, X.", "Déjeuner chez X." — French 'déjeuner' is LUNCH —, "Mittagessen bei X.", "Pequeno-almoço em X." —
    European Portuguese 'pequeno-almoço' is BREAKFAST, 'almoço' LUNCH), sights ("Visita a A ➔ B.", "Au programme : ...",
    "Besichtigungen: ...", "No programa: ...") in the drawn join (the last two translated: ', luego pasa por ', ", puis à
    pied jusqu'à ", ', dann weiter zu ', ...), the stay named on its first night with its nights ("Te alojas en W (2
    noches).", "Nuit à W (2 nuits).", "Übernachtung in W (2 Nächte).", "Dormida em W (2 noites).") and after it "Otra
    noche en W." or UNNAMED ("Seguimos en el mismo alojamiento.", "Nuit au même hôtel.", "Übernachtung wieder in derselben
    Unterkunft.", "Noite no mesmo alojamento."), "Vuelta a casa." or nothing on the last day; an empty meal "Cena libre." /
    "Pas de dîner prévu." / "Kein Abendessen eingeplant." / "Sem jantar previsto." (some renderings) or nothing; the
    drawn placement's words translated ("X, en pleno Rockford", "X, dans le centre de Rockford", "X in der Innenstadt
    von Rockford", "X, na baixa de Rockford"; 'X (Rockford IL)' and 'X, Rockford' as in English). DECOYS in brackets:
    "(Habíamos pensado en Y, pero ese día cierra.)" after a meal, "(S se queda fuera: no da tiempo.)" after the sights,
    "(Z no tenía habitaciones libres.)" after a stay's first night (and the same in French, German, Portuguese)."""
    r = ph.rng
    lg = r.choice(tuple(_LG17))
    L, T = _LG17[lg], _LG17[lg]['T']
    say_none = r.random() < 0.4
    meals, stays, sights = _decoys(plan, r)
    n, pairs, runs = len(plan), [], _runs_of(plan)
    V = lambda v: _venue(ph, v, lg)
    out = [L['intro'], '']
    for i, d in enumerate(plan):
        at = _attractions(d['attraction'])
        s, run = [], []
        def flush():
            if run: s.append(r.choice(T['sights']).format(s=_ljoin17(lg, ph).join(run))); run.clear()
        for t, kind, v in _with_leg(d):
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
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            s.insert(max(j for j, x in enumerate(s) if any(x.startswith(y.split('{')[0]) for y in T['sights'])) + 1,
                     T['dsight'][0].format(s=V(sights[i][1]), why=r.choice(L['why']['sight'])))
        if say_none: s += [T[f"none_{m}"][0] for m in _MEALS if d[m] == '-']
        acc = d['accommodation']
        if i in runs:
            a, b, _ = runs[i]
            N = b - a + 1
            s.append(T['start'][0].format(v=V(acc), N=N, nights=L['nights'][N != 1]))
            if (a, b) in stays:
                pairs.append((stays[(a, b)], _nm(acc)))
                s.append(T['dstay'][0].format(z=stays[(a, b)]))
        elif acc != '-': s.append(r.choice(T['again']).format(v=V(acc)))
        elif i == n - 1 and r.random() < 0.5: s.append(T['home'][0])
        out += [L['head'].format(k=i + 1, date=_ldate17(lg, task, i), route=_rt(d['current_city'])), ' '.join(s), '']
    return _log('\n'.join(out + [L['outro']]), pairs)


# agent_tool_json ------------------------------------------------------------------------------------------------------
_AG_FINAL = {'langchain': 'Here is the final itinerary:', 'chatml': '**Final answer**'}
_AG_WHY = {'meal': ("closed that day", "fully booked"), 'stay': ("no rooms left",), 'sight': ("there isn't time", "it's closed for renovation")}


def _ag_final(text: str) -> str:
    "The agent's final answer (what follows the last final-answer marker), '' without one."
    j = max(text.rfind('\n' + m + '\n') for m in _AG_FINAL.values())
    return text[j:] if j >= 0 else ''


def _rating(name: str) -> float: return round(3.8 + zlib.crc32(f"r:{name}".encode('utf-8')) % 12 / 10, 1)


def _ag_call(style: str, name: str, args: dict) -> str:
    if style == 'langchain': return f"Invoking: `{name}` with `{args!r}`"
    return f"🔧 **Tool call:** `{name}(" + ', '.join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in args.items()) + ")`"


def _ag_result(style: str, res) -> list[str]:
    if style == 'langchain': return ['', '', json.dumps(res, ensure_ascii=False)]
    return ['```json', json.dumps(res, ensure_ascii=False, indent=2), '```']


def _ag_clauses(d, ph, say_none: bool, last: bool, say_home: bool) -> list[str]:
    "The final answer's clauses of a day, in the order of the day."
    out, run = [], []
    def flush():
        if run: out.append(f"see {ph.join.join(run)}"); run.clear()
    for t, kind, v in _with_leg(d):
        if kind == 'sight': run.append(ph.venue(v)); continue
        flush()
        if kind == 'leg':
            p = _leg_parts(v)
            out.append(f"fly {p['a']} → {p['b']} on {p['number']}, {p['dep']}–{p['arr']}" + (' (+1)' if p['arr'] < p['dep'] else '') if p['mode'] == 'flight' else
                       f"{'taxi' if p['mode'] == 'taxi' else 'drive'} {p['a']} → {p['b']} ({p['duration']}, ${p['cost']})")
        else: out.append(ph.meal(kind.capitalize(), v))
    flush()
    if say_none: out += [f"no {m}" for m in _MEALS if d[m] == '-']
    if d['accommodation'] != '-': out.append(f"stay at {ph.venue(d['accommodation'])}")
    elif last and say_home: out.append("no hotel (heading home)")
    return out


def agent_tool_json(plan, task, ph):
    """A tool-using agent's run pasted whole: the tool calls with their JSON results interleaved with the agent's own
    remarks, then its final answer — EITHER a LangChain AgentExecutor verbose log ("> Entering new AgentExecutor
    chain...", "Invoking: `search_flights` with `{'origin': 'A', 'destination': 'B', 'date': '2022-03-16'}`", the result
    as one line of JSON, "> Finished chain.") OR a chat transcript ("🔧 **Tool call:** `search_restaurants(city="Rockford")`"
    and a ```json block). The calls: search_flights / get_distance (mode "self-driving" or "taxi", the duration and cost)
    per leg, then per city search_hotels, search_restaurants and search_attractions whose results list the plan's places
    AMONG OTHERS (names with a rating, shuffled), check_availability for the first picks that fall through ({"available":
    false, "reason": ...}) and book_hotel per stay ({"check_in": ..., "check_out": ...} → {"status": "confirmed",
    "nights": 2}). The final answer, after "Here is the final itinerary:" or "**Final answer**", one line per day: "Day 2
    (2022-03-17) — Rockford: Breakfast: try X (Rockford IL); see A ➔ B; Lunch suggestion: Y; ...; stay at W." — clauses in
    the order of the day ("fly A → B on F1, 15:40–17:04" with "(+1)" for an arrival after midnight, "drive A → B (3 hours
    11 mins, $120)", "taxi ...", meals in the drawn label and placement, "see ..." in the drawn join, "no dinner" in some
    renderings, "stay at W" every night, "no hotel (heading home)" or nothing on the last day). DECOYS: every search
    result the plan does not use, and the agent's first picks that fell through ("Y looks good for lunch on day 2 —
    checking availability." / "Y is closed that day, so lunch on day 2 goes to X instead.", "Z looks good for nights
    1–2 — ..." / "Z has no rooms left, so nights 1–2 are at W.", "S would be nice on day 2, but there isn't time —
    skipping it.")."""
    r = ph.rng
    style, say_none, say_home = r.choice(('langchain', 'chatml')), r.random() < 0.4, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r, (1, 2))
    more_m, more_s, more_a = _decoys(plan, random.Random(r.random()), (3,))
    n, pairs, out = len(plan), [], []
    iso = lambda i: _date(task, i).isoformat()
    say = (lambda s: out.append(s)) if style == 'langchain' else (lambda s: out.extend(['', s, '']))
    def call(name, args, res):
        out.append(_ag_call(style, name, args)); out.extend(_ag_result(style, res))
    out.append('> Entering new AgentExecutor chain...' if style == 'langchain' else f"**User:** Plan a {n}-day trip from {_get(task, 'org')} to {_get(task, 'dest')}.")
    out.append('')
    for i, d in enumerate(plan):
        if d['transportation'] == '-': continue
        p = _leg_parts(d['transportation'])
        if p['mode'] == 'flight':
            call('search_flights', {'origin': p['a'], 'destination': p['b'], 'date': iso(i)},
                 [{'flight_number': p['number'], 'from': p['a'], 'to': p['b'], 'dep_time': p['dep'], 'arr_time': p['arr']}])
        else:
            call('get_distance', {'origin': p['a'], 'destination': p['b'], 'mode': 'taxi' if p['mode'] == 'taxi' else 'self-driving'},
                 {'origin': p['a'], 'destination': p['b'], 'duration': p['duration'], 'cost': int(p['cost'])})
    cities = list(dict.fromkeys(_name_city(v)[1] for d in plan for k in (*_MEALS, 'accommodation') for v in [d[k]] if v != '-') |
                  dict.fromkeys(_name_city(a)[1] for d in plan for a in _attractions(d['attraction'])))
    extra = {'hotels': {}, 'restaurants': {}, 'attractions': {}}
    for (i, m), y in list(meals.items()) + list(more_m.items()): extra['restaurants'].setdefault(_name_city(plan[i][m])[1], []).append(y)
    for (a, b), z in list(stays.items()) + list(more_s.items()): extra['hotels'].setdefault(_name_city(plan[a]['accommodation'])[1], []).append(z)
    for i, (pos, s) in list(sights.items()) + list(more_a.items()): extra['attractions'].setdefault(_name_city(s)[1], []).append(_nm(s))
    for c in cities:
        for tool, keys in (('hotels', ('accommodation',)), ('restaurants', _MEALS), ('attractions', ('attraction',))):
            names = [_nm(v) for d in plan for k in keys for v in (_attractions(d[k]) if k == 'attraction' else [d[k]]) if v != '-' and _name_city(v)[1] == c]
            names = list(dict.fromkeys(names + extra[tool].get(c, [])))
            if not names: continue
            r.shuffle(names)
            call(f"search_{tool}", {'city': c}, [{'name': x, 'rating': _rating(x)} for x in names])
    for (i, m), y in meals.items():
        x = _nm(plan[i][m])
        pairs.append((y, x))
        why = r.choice(_AG_WHY['meal'])
        say(f"{y} looks good for {m} on day {i + 1} — checking availability.")
        call('check_availability', {'name': y, 'date': iso(i)}, {'name': y, 'date': iso(i), 'available': False, 'reason': why})
        say(f"{y} is {why}, so {m} on day {i + 1} goes to {x} instead.")
    for (a, b), z in stays.items():
        w = _nm(plan[a]['accommodation'])
        pairs.append((z, w))
        say(f"{z} looks good for {_nights_tag(a + 1, b + 1).lower()} — checking availability.")
        call('check_availability', {'name': z, 'check_in': iso(a), 'check_out': iso(b + 1)},
             {'name': z, 'available': False, 'reason': 'no rooms left'})
        say(f"{z} has no rooms left, so {_nights_tag(a + 1, b + 1).lower()} are at {w}.")
    for i, (pos, s) in sights.items():
        pairs.append((_nm(s), _nm(_attractions(plan[i]['attraction'])[0])))
        say(f"{_nm(s)} would be nice on day {i + 1}, but {r.choice(_AG_WHY['sight'])} — skipping it.")
    for a, b, acc in _day_runs(plan):
        call('book_hotel', {'name': _nm(acc), 'city': _name_city(acc)[1], 'check_in': iso(a), 'check_out': iso(b + 1)},
             {'status': 'confirmed', 'name': _nm(acc), 'nights': b - a + 1})
    out += ['', _AG_FINAL[style]]
    for i, d in enumerate(plan):
        out.append(f"Day {i + 1} ({iso(i)}) — {_rt(d['current_city'])}: " + '; '.join(_ag_clauses(d, ph, say_none, i == n - 1, say_home)) + '.')
    out += ['', '> Finished chain.' if style == 'langchain' else 'Have a great trip!']
    return _log('\n'.join(out), pairs)


# decimal_outline ------------------------------------------------------------------------------------------------------
_DO_WHY = {'meal': ("closed that day", "no table at our time"), 'stay': ("no rooms left", "over budget"), 'sight': ("not enough time", "closed for renovation")}


def _dm(d: datetime.date) -> str: return f"{d.day} {d:%B}"


def _do_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        return f"Transport: flight {p['number']}, {p['a']} (dep. {p['dep']}) → {p['b']} (arr. {p['arr']}{', +1 day' if p['arr'] < p['dep'] else ''})"
    return f"Transport: {'taxi' if p['mode'] == 'taxi' else 'self-drive'}, {p['a']} → {p['b']}, approx. {_dur(p['duration'], 'hr')}, ${p['cost']}"


def _do_route(plan) -> str:
    cs = []
    for d in plan:
        for c in _ab(d['current_city']):
            if not cs or cs[-1] != c: cs.append(c)
    return ' → '.join(cs)


def _do_stay_line(task, a: int, b: int, v: str) -> str:
    N = b - a + 1
    first, last, out = _date(task, a), _date(task, b), _date(task, b + 1)
    span = _dm(first) if N == 1 else f"{_dm(first)} to {_dm(last)}"
    return f"{v} — {N} night{_ns(N)}, {span} (check-out {out:%A} {_dm(out)})"


def decimal_outline(plan, task, ph):
    """The plan as a numbered DOCUMENT (a Word / Google Docs export, or an agent's report): "# Trip plan: A → B, March
    16–18, 2022", "## 1. Overview" ("1.1 Travellers: 1", "1.2 Dates: Wednesday 16 March – Friday 18 March 2022 (3 days)",
    "1.3 Route: A → B → A"), "## 2. Day-by-day plan" with "### 2.2 Day 2 — Thursday 17 March 2022 — Rockford" and
    DECIMAL-numbered items ("2.2.1 Breakfast suggestion: X", "2.2.2 Sightseeing: A ➔ B" or "2.2.2 Sightseeing" with
    "2.2.2.1 A", "2.2.2.2 B" under it, "2.1.1 Transport: flight F1, A (dep. 15:40) → B (arr. 17:04)" — ", +1 day" for an
    arrival after midnight —, "Transport: self-drive, A → B, approx. 3 hr 11 min, $120", "2.1.4 Accommodation: W (night 1
    of 2)"), meals in the drawn label and placement, "2.3.2 Lunch: not planned" in some renderings; "## 3. Accommodation
    summary" ("3.1 W — 2 nights, 16 March to 17 March (check-out Friday 18 March)") — in some renderings the ONLY place of the
    stays, the days naming none; "## 4. Considered but not booked" with the DECOYS ("4.1 Day 2, lunch: Y — closed that
    day", "4.2 Day 2, sightseeing: S — not enough time", "4.3 Nights 1–2: Z — no rooms left")."""
    r = ph.rng
    in_days, sub_sights, say_none = r.random() < 0.5, r.random() < 0.5, r.random() < 0.4
    meals, stays, sights = _decoys(plan, r)
    n, pairs, runs = len(plan), [], _runs_of(plan)
    d0, d1 = _date(task, 0), _date(task, n - 1)
    out = [f"# Trip plan: {_get(task, 'org')} → {_get(task, 'dest')}, {d0:%B} {d0.day}–" + (f"{d1.day}" if d0.month == d1.month else f"{d1:%B} {d1.day}") + f", {d1.year}",
           '', '## 1. Overview', f"1.1 Travellers: {_people(task)}", f"1.2 Dates: {d0:%A} {_dm(d0)} – {d1:%A} {_dm(d1)} {d1.year} ({n} days)",
           f"1.3 Route: {_do_route(plan)}", '', '## 2. Day-by-day plan']
    for i, d in enumerate(plan):
        out += ['', f"### 2.{i + 1} Day {i + 1} — {_fd(task, i, 'ukyear')} — {_rt(d['current_city'])}"]
        items, run = [], []
        def flush():
            if not run: return
            if sub_sights: items.append(('Sightseeing', [ph.venue(v) for v in run]))
            else: items.append((f"Sightseeing: {ph.join.join(ph.venue(v) for v in run)}", []))
            run.clear()
        for t, kind, v in _with_leg(d):
            if kind == 'sight': run.append(v); continue
            flush()
            items.append((_do_leg(v) if kind == 'leg' else ph.meal(kind.capitalize(), v), []))
        flush()
        if say_none: items += [(f"{m.capitalize()}: not planned", []) for m in _MEALS if d[m] == '-']
        if in_days and d['accommodation'] != '-':
            a = _run_start(plan, i)
            b = runs[a][1]
            items.append((f"Accommodation: {ph.venue(d['accommodation'])} (night {i - a + 1} of {b - a + 1})", []))
        for j, (x, subs) in enumerate(items, 1):
            out.append(f"2.{i + 1}.{j} {x}")
            out += [f"2.{i + 1}.{j}.{jj} {s}" for jj, s in enumerate(subs, 1)]
    out += ['', '## 3. Accommodation summary']
    out += [f"3.{j} {_do_stay_line(task, a, b, ph.venue(acc))}" for j, (a, b, acc) in enumerate(_day_runs(plan), 1)] or ['3.1 None — no overnight stay.']
    dec = []
    for (i, m), y in sorted(meals.items()):
        pairs.append((y, _nm(plan[i][m]))); dec.append(f"Day {i + 1}, {m}: {y} — {r.choice(_DO_WHY['meal'])}")
    for i, (pos, s) in sorted(sights.items()):
        pairs.append((_nm(s), _nm(_attractions(plan[i]['attraction'])[0]))); dec.append(f"Day {i + 1}, sightseeing: {ph.venue(s)} — {r.choice(_DO_WHY['sight'])}")
    for (a, b), z in sorted(stays.items()):
        pairs.append((z, _nm(plan[a]['accommodation']))); dec.append(f"{_nights_tag(a + 1, b + 1)}: {z} — {r.choice(_DO_WHY['stay'])}")
    if dec: out += ['', '## 4. Considered but not booked'] + [f"4.{j} {x}" for j, x in enumerate(dec, 1)]
    return _log('\n'.join(out), pairs)


# numbered_mixed -------------------------------------------------------------------------------------------------------
_NX_INTRO = "Sure! Here's a {n}-day plan for {p} traveller{s}, {org} → {dest}."
_NX_FILL = ("Wear comfortable shoes.", "Keep some cash handy.", "Get some rest — tomorrow is a busy one!")
_NX_WHY = {'meal': ("it doesn't open until late", "it's closed that day"), 'stay': ("was full", "was over budget"), 'sight': ("not enough time", "closed for renovation")}
_NX_OUTRO = ("Let me know if you want me to adjust anything!", "Have fun! 😊")


def _nx_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight':
        return f"Fly from {p['a']} to {p['b']} on {p['number']}, leaving at {_pm(p['dep'])} and landing at {_pm(p['arr'])}{' the next day' if p['arr'] < p['dep'] else ''}."
    how = 'Take a taxi' if p['mode'] == 'taxi' else 'Drive'
    return f"{how} from {p['a']} to {p['b']} — about {_dur(p['duration'], 'words')} (≈${p['cost']}{' for fuel' if p['mode'] != 'taxi' else ''})."


def numbered_mixed(plan, task, ph):
    """A NUMBERED list of days (the list number the only day number) whose sub-items MIX labelled items and free
    sentences, as Llama / Qwen / DeepSeek chat answers do: "1. **Wed, Mar 16 — St. Petersburg to Rockford**" ("2.
    **Thu, Mar 17 — Rockford**"), then "   - " items in the order of the day: the leg as a sentence in 12-hour time ("Fly
    from A to B on F1, leaving at 3:40 PM and landing at 5:04 PM." — "the next day" after midnight —, "Drive from A to B —
    about 3 hours and 11 minutes (≈$120 for fuel).", "Take a taxi ..."), meals in the drawn label and placement, the sights
    before lunch as a label ("Morning: A ➔ B") and after it as a sentence ("In the afternoon, head to C." / "After lunch,
    explore C."), name-free fillers ("Wear comfortable shoes."), "No lunch planned — grab something on the go." in some
    renderings; the stay as an item block on its first night — "Stay: **W**" (the name bare, in bold) with sub-bullets
    "Location: Rockford" and "2 nights (check-out Fri, Mar 18)" — then "Same hotel as last night." or "Another night at
    **W**." DECOYS: a sub-bullet under a meal "Note: skip Y — it's closed that day.", an item "Not included: S — not enough
    time." after the sights, a sub-bullet under the stay "Z was full, so this one instead."."""
    r = ph.rng
    say_none = r.random() < 0.4
    meals, stays, sights = _decoys(plan, r)
    n, pairs, runs = len(plan), [], _runs_of(plan)
    P = _people(task)
    out = [_NX_INTRO.format(n=n, p=P, s=_ns(P), org=_get(task, 'org'), dest=_get(task, 'dest')), '']
    for i, d in enumerate(plan):
        a, b = _ab(d['current_city'])
        out.append(f"{i + 1}. **{_fd(task, i, 'mon')} — {a if a == b else f'{a} to {b}'}**")
        at = _attractions(d['attraction'])
        items, run, seen_lunch = [], [], False
        def flush():
            if not run: return
            x = ph.join.join(ph.venue(v) for v in run)
            items.append((f"Morning: {x}" if not seen_lunch else r.choice((f"In the afternoon, head to {x}.", f"After lunch, explore {x}.")), []))
            run.clear()
        for t, kind, v in _with_leg(d):
            if kind == 'sight': run.append(v); continue
            flush()
            if kind == 'leg': items.append((_nx_leg(v), [])); continue
            seen_lunch |= kind in ('lunch', 'dinner')
            subs = []
            if (i, kind) in meals:
                pairs.append((meals[(i, kind)], _nm(v))); subs.append(f"Note: skip {meals[(i, kind)]} — {r.choice(_NX_WHY['meal'])}.")
            items.append((ph.meal(kind.capitalize(), v), subs))
        flush()
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            j = max(j for j, (x, _) in enumerate(items) if x.startswith(('Morning: ', 'In the afternoon, head to ', 'After lunch, explore ')))
            items.insert(j + 1, (f"Not included: {ph.venue(sights[i][1])} — {r.choice(_NX_WHY['sight'])}.", []))
        if say_none: items += [(f"No {m} planned — grab something on the go.", []) for m in _MEALS if d[m] == '-']
        if r.random() < 0.4: items.append((r.choice(_NX_FILL[:len(_NX_FILL) - (i == n - 1)]), []))
        acc = d['accommodation']
        if i in runs:
            a0, b0, _ = runs[i]
            N = b0 - a0 + 1
            subs = [f"Location: {_name_city(acc)[1]}", f"{N} night{_ns(N)} (check-out {_fd(task, b0 + 1, 'mon')})"]
            if (a0, b0) in stays:
                pairs.append((stays[(a0, b0)], _nm(acc))); subs.append(f"{stays[(a0, b0)]} {r.choice(_NX_WHY['stay'])}, so this one instead.")
            items.append((f"Stay: **{_nm(acc)}**", subs))
        elif acc != '-': items.append((r.choice(("Same hotel as last night.", f"Another night at **{_nm(acc)}**.")), []))
        for x, subs in items: out += [f"   - {x}"] + [f"     - {s}" for s in subs]
    return _log('\n'.join(out + ['', r.choice(_NX_OUTRO)]), pairs)


HELDOUT17_LAYOUTS = {f.__name__: f for f in (themed_time_of_day, glance_stays_prose, rules_bold_dates, slot_options_pick,
                                              es_fr_de_pt_prose, agent_tool_json, decimal_outline, numbered_mixed)}
"""Held-out part v17 (layouts and `HELDOUT17_PHRASES`, rendered with `Phr17`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr17(HELDOUT17_PHRASES, random.Random(f"heldout17:{name}:{t.idx}:{j}"), p)


def renderings17(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout17:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT17_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser below, written for the layout (not a general reader): each rendering is read back into
# the plan's own values — the route as current_city ('from A to B' | 'A'), the leg as its parts (flight number, cities,
# times; or mode, cities, duration, cost), each meal and the stay as 'Name, City' or '-', the sights as ['Name, City',
# ...] — and compared with the plan EXACTLY (`_cmp` of layouts_v8). Decoys are resolved as the text says, and checked
# against what it states elsewhere (`layouts_v16._resolve`).

# themed_time_of_day ---------------------------------------------------------------------------------------------------
_TD_DEC = {'meal': re.compile(r'\*\(Swapped in for (?P<v>.+) — ' + _alt(_TD_WHY['meal']) + r'\.\)\*'),
           'sight': re.compile(r'\*\(Skipped (?P<v>.+) — ' + _alt(_TD_WHY['sight']) + r'\.\)\*'),
           'stay': re.compile(r'\*\((?P<v>.+) was the first choice, but ' + _alt(_TD_WHY['stay']) + r'\.\)\*')}
_TD_START = (re.compile(r'Check in at (?P<v>.+) \((?P<N>\d+) (?P<w>nights?)\)'), re.compile(r'Check in: (?P<v>.+) — (?P<N>\d+) (?P<w>nights?)'))


def _read_td(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    if L[0] not in [t.format(n=n, org=_get(task, 'org'), dest=_get(task, 'dest')) for t in _TD_INTRO]: errs.append('intro')
    if L[-1] not in _TD_OUTRO: errs.append('outro')
    days, nights, saids, titles, checks, refs = [], [], [], [], [], []
    partset, part_i, last, g = None, -1, None, None
    for ln in L[2:-1]:
        if ln == '': continue
        if (h := re.fullmatch(r'### Day (\d+): (.+)', ln)):
            if int(h[1]) != len(days) + 1: errs.append(f"head {ln!r}")
            days.append(None); titles.append(h[2]); nights.append(None); saids.append([]); part_i, last, g = -1, None, None
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        k, pre = len(days), f"day {len(days)}: "
        if g is None:
            q = re.fullmatch(r'\*(.+) · (.+)\*', ln)
            if not q or q[1] != _fd(task, k - 1, 'long'): errs.append(f"{pre}subtitle {ln!r}")
            g = days[-1] = _blank(_back(q[2]) if q else None)
            continue
        if ln.startswith('- '):
            ps = next((P for P in _TD_PARTS if ln[2:] in P), None)
            if ps is None: errs.append(f"{pre}part {ln!r}"); continue
            if partset not in (None, ps): errs.append(f"{pre}part labels mixed")
            partset = ps
            if ps.index(ln[2:]) <= part_i: errs.append(f"{pre}parts out of order")
            part_i = ps.index(ln[2:])
            continue
        if ln.startswith('    - '):
            x, kind = ln[6:], 'meal' if last in _MEALS else last
            q = _TD_DEC[kind].fullmatch(x) if kind in _TD_DEC else None
            if not q: errs.append(f"{pre}note {x!r}"); continue
            if kind == 'meal': checks.append(('meal', k, last, q['v'], None, 'swapped: '))
            elif kind == 'sight': checks.append(('sight', k, *_name_city(_unvenue(ph, q['v'])), 'skipped: '))
            elif nights[-1] and nights[-1][0] == 'start': checks.append(('stay', k, k + nights[-1][1] - 1, q['v'], None, 'first choice: '))
            else: errs.append(f"{pre}note {x!r}")
            last = 'note'
            continue
        if not ln.startswith('  - ') or part_i < 0: errs.append(f"{pre}line {ln!r}"); continue
        x = ln[4:]
        if nights[-1] is not None or last == 'home': errs.append(f"{pre}{x!r} after the night")
        if (key := _unleg_en17(x)) is not None: _put(g, 'leg', key, errs, pre); last = 'leg'
        elif (q := re.fullmatch(r'(Breakfast|Lunch|Dinner): on your own', x)): _said(saids[-1], q[1].lower(), errs, pre); last = 'none'
        elif (mm := ph.unmeal(x)):
            _said(saids[-1], mm[0], errs, pre)
            _put(g, mm[0], mm[1], errs, pre); last = mm[0]
        elif (q := _TD_START[0].fullmatch(x) or _TD_START[1].fullmatch(x)):
            if (q['N'] == '1') != (q['w'] == 'night'): errs.append(f"{pre}{x!r}")
            nights[-1] = ('start', int(q['N']), _unvenue(ph, q['v'])); last = 'stay'
        elif (q := re.fullmatch(r'Overnight: same hotel as Day (\d+)', x)): nights[-1] = ('again', None); refs.append((k, int(q[1]))); last = 'night'
        elif x == 'Head back to your hotel for the night': nights[-1] = ('again', None); last = 'night'
        elif x.startswith('Another night at '): nights[-1] = ('again', _unvenue(ph, x[len('Another night at '):])); last = 'night'
        elif x == "No hotel tonight — you're home 🏠":
            if k != n: errs.append(f"{pre}home before the end")
            last = 'home'
        elif (verb := next((v for v in _TD_VERBS if x.startswith(v + ' ')), None)):
            g['attraction'] += [_unvenue(ph, s) for s in x[len(verb) + 1:].split(ph.join)]; last = 'sight'
        else: errs.append(f"{pre}item {x!r}")
    days = [x or _blank() for x in days]
    for k, a in refs:
        if not (1 <= a < k and nights[a - 1] and nights[a - 1][0] == 'start' and all(nights[j] and nights[j][0] == 'again' for j in range(a, k))):
            errs.append(f"day {k}: 'same hotel as Day {a}'")
    _apply_nights(days, nights, errs)
    for i, (g, t) in enumerate(zip(days, titles)):
        if t not in _td_titles(g['current_city'] or '', i, len(days), [a for a in g['attraction']]): errs.append(f"day {i + 1}: title {t!r}")
    _resolve(days, checks, errs)
    return days, errs

# glance_stays_prose ---------------------------------------------------------------------------------------------------
_GP_TRAV = (re.compile(r'✈️ (?P<num>\S+) · (?P<dep>\d\d:\d\d)–(?P<arr>\d\d:\d\d)(?P<nd> \(\+1\))?'),
            re.compile(r'(?P<how>🚕 taxi|🚗 self-drive) · (?P<dur>.+?) · \$(?P<cost>\d+)'))
_GP_RX = {f"{k}{j}": _tmpl(t, dep=r'\d\d:\d\d', arr=r'\d\d:\d\d', num=r'\S+', nd=r'(?: the next day)?', cost=r'\d+', m='breakfast|lunch|dinner',
                           why=_alt(_GP_WHY['meal'] + _GP_WHY['sight']))
          for k, ts in _GP_T.items() for j, t in enumerate(ts)}


def _read_gp(text, task, plan, ph):
    errs, n = [], len(plan)
    P = text.split('\n\n')
    if P[0] not in [t.format(n=n) for t in _GP_INTRO]: errs.append('intro')
    if P[-1] not in _GP_OUTRO: errs.append('outro')
    rows = P[1].split('\n')
    if rows[:2] != [_GP_HEAD, '|---|---|---|---|---|']: errs.append('table head')
    days, nights, refs, legs, checks = [], [], [], [], []
    dform = 'us' if rows[2:] and rows[2].split(' | ')[1] == _fd(task, 0, 'us') else 'mon'
    for j, row in enumerate(rows[2:]):
        cells = [c.strip() for c in _split_cells(row)[1:-1]]
        if len(cells) != 5 or not row.startswith('| ') or not row.endswith(' |'): errs.append(f"row {row!r}"); continue
        num, date, route, trav, sleep = cells
        pre = f"row {j + 1}: "
        if num != str(j + 1) or date != _fd(task, j, dform): errs.append(f"{pre}day {num} {date}")
        g = _blank(_back(route))
        a, b = _ab(g['current_city'])
        if (q := _GP_TRAV[0].fullmatch(trav)):
            if bool(q['nd']) != (q['arr'] < q['dep']): errs.append(f"{pre}(+1)")
            g['leg'] = _flight(q['num'], a, b, q['dep'], q['arr'])
        elif (q := _GP_TRAV[1].fullmatch(trav)): g['leg'] = _road_key('taxi' if 'taxi' in q['how'] else 'drive', a, b, _undur(q['dur'], 'h_min'), q['cost'])
        elif trav != '—': errs.append(f"{pre}travel {trav!r}")
        legs.append(g['leg']); g['leg'] = None
        if sleep in ('—', '— (heading home)'):
            if sleep != '—' and j + 1 != n: errs.append(f"{pre}heading home before the end")
            nights.append(None)
        elif (q := re.fullmatch(r'same as Day (\d+)', sleep)): nights.append(('again', None)); refs.append((j + 1, int(q[1])))
        elif (q := re.fullmatch(r'(?P<v>.+) \((?P<N>\d+) (?P<w>nights?)\)', sleep)):
            if (q['N'] == '1') != (q['w'] == 'night'): errs.append(f"{pre}{sleep!r}")
            nights.append(('start', int(q['N']), _unvenue(ph, _mdunesc(q['v']))))
        else: nights.append(('named', _unvenue(ph, _mdunesc(sleep))))
        days.append(g)
    kinds = {x[0] for x in nights if x}
    if not kinds <= {'start', 'again'} and not kinds <= {'named'}: errs.append(f"stays written both ways {kinds}")
    for k, a in refs:
        if not (1 <= a < k and nights[a - 1] and nights[a - 1][0] == 'start' and all(nights[x] and nights[x][0] == 'again' for x in range(a, k - 1))):
            errs.append(f"day {k}: 'same as Day {a}'")
    _apply_nights(days, nights, errs)
    j = 2
    while j < len(P) and P[j].startswith('_('):
        q = re.fullmatch(r"_\((?P<t>Nights? \d+(?:–\d+)?): I'd looked at (?P<z>.+) first, but " + _alt(_GP_WHY['stay']) + r"\.\)_", P[j])
        if not q: errs.append(f"note {P[j]!r}")
        else: a, b = _untag(q['t']); checks.append(('stay', a, b, q['z'], None, 'looked at: '))
        j += 1
    if P[j] != '### Day by day': errs.append('details head')
    paras = P[j + 1:-1]
    if len(paras) != len(days): errs.append(f"{len(paras)} paragraphs for {len(days)} rows")
    for i, (par, g) in enumerate(zip(paras, days)):
        k, pre = i + 1, f"day {i + 1}: "
        h = re.match(r'\*\*Day (\d+) — (\w+)\.\*\* ', par)
        if not h or h[1] != str(k) or h[2] != f"{_date(task, i):%A}": errs.append(f"{pre}lead {par[:30]!r}"); continue
        said, leg, stay_s, last = [], None, None, None
        for key, q in _scan(par[h.end():], _GP_RX, _ok_venues(ph)):
            kind = key.rstrip('0123456789')
            if kind == 'fly': leg = _flight(q['num'], q['a'], q['b'], q['dep'], q['arr'])
            elif kind in ('drive', 'taxi'): leg = _road_key(kind, q['a'], q['b'], _undur(q['dur'], 'words'), q['cost'])
            elif kind in _MEALS: _said(said, kind, errs, pre); _put(g, kind, _unvenue(ph, q['v']), errs, pre)
            elif kind == 'sights': g['attraction'] += [_unvenue(ph, x) for x in q['s'].split(ph.join)]
            elif kind == 'none': _said(said, q['m'], errs, pre)
            elif kind in ('start', 'again', 'home'): stay_s = kind
            elif kind == 'dmeal':
                if last != q['m']: errs.append(f"{pre}aside about {q['m']} after {last}")
                checks.append(('meal', k, q['m'], q['y'], None, 'first thought: '))
            elif kind == 'dsight': checks.append(('sight', k, *_name_city(_unvenue(ph, q['s'])), 'left out: '))
            if kind == 'fly' and q['nd'] != (' the next day' if q['arr'] < q['dep'] else ''): errs.append(f"{pre}'the next day'")
            if stay_s and kind not in ('start', 'again', 'home'): errs.append(f"{pre}{kind} after the night")
            last = kind
        if leg != legs[i]: errs.append(f"{pre}leg {leg} in the prose, {legs[i]} in the table")
        g['leg'] = legs[i]
        acc, prev = g['accommodation'], days[i - 1]['accommodation'] if i else '-'
        want = ('start' if acc != prev else 'again') if acc != '-' else stay_s if stay_s == 'home' and k == n else None
        if stay_s != want: errs.append(f"{pre}night sentence {stay_s!r} for {want!r}")
    _resolve(days, checks, errs)
    return days, errs


# rules_bold_dates -----------------------------------------------------------------------------------------------------
_RB_FL = re.compile(r'✈ (?P<num>\S+) · (?P<a>.+?) (?P<dep>\d\d:\d\d) → (?P<b>.+) (?P<arr>\d\d:\d\d)(?P<nd> \(\+1\))?')
_RB_RD = re.compile(r'(?P<icon>🚕|🚗) (?P<a>.+?) → (?P<b>.+) by (?P<how>taxi|car) · (?P<dur>.+?) · ~\$(?P<cost>\d+)')
_RB_DEC = re.compile(r'\(Passed on (?P<v>.+) — (?P<why>' + '|'.join(map(re.escape, sum(_RB_WHY.values(), ()))) + r')\.\)')


def _read_rb(text, task, plan, ph):
    errs, n = [], len(plan)
    P = text.split('\n\n')
    if P[0] not in _RB_INTRO: errs.append('intro')
    if P[-1] not in _RB_OUTRO: errs.append('outro')
    blocks = P[1:-1:2]
    if P[2:-1:2] != ['---'] * (len(blocks) - 1): errs.append('rules between the days')
    days, nights, checks, sdec = [], [], [], []
    forms = set()
    lines = text.split('\n')
    uses = lambda u: any(x.startswith(ph.meal_prefix(u)) or x in [nf.format(w=u, lw=u.lower()) for nf in _RB_NONE] for x in lines)
    words = next((W for W in _RB_WORDS[::-1] if any(uses(u) for u in W if sum(u in V for V in _RB_WORDS) == 1)), _RB_WORDS[0])
    for bi, blk in enumerate(blocks):
        ls = blk.split('\n')
        h = re.fullmatch(r'\*\*(?P<d>.+?)\*\*(?: — (?P<r>.+))?', ls[0])
        if not h: errs.append(f"head {ls[0]!r}"); continue
        if h['r'] is None:
            q = re.fullmatch(r'_(.+)_', ls[1]) if len(ls) > 1 else None
            route, body = (q[1] if q else None), ls[2:]
            forms.add('line')
        else: route, body = h['r'], ls[1:]; forms.add('inline')
        form = next((f for f in _RB_DATE if _rb_date(task, bi, f) == h['d']), None)
        if form is None: errs.append(f"date {h['d']!r} for day {bi + 1}")
        forms.add(form)
        g = _blank(_back(route) if route else None)
        days.append(g); nights.append(None)
        k, pre, said, last = len(days), f"day {len(days)}: ", [], None
        for x in body:
            if nights[-1] is not None and not (last == 'stay' and x.startswith('(Passed on ')): errs.append(f"{pre}{x!r} after the night")
            if (q := _RB_DEC.fullmatch(x)):
                if last in _MEALS and q['why'] in _RB_WHY['meal']: checks.append(('meal', k, last, q['v'], None, 'passed on: '))
                elif last == 'sight' and q['why'] in _RB_WHY['sight']: checks.append(('sight', k, *_name_city(_unvenue(ph, q['v'])), 'passed on: '))
                elif last == 'stay' and q['why'] in _RB_WHY['stay']: sdec.append((k, q['v']))
                else: errs.append(f"{pre}{x!r}")
                last = 'note'; continue
            if (q := _RB_FL.fullmatch(x)):
                if bool(q['nd']) != (q['arr'] < q['dep']): errs.append(f"{pre}(+1)")
                _put(g, 'leg', _flight(q['num'], q['a'], q['b'], q['dep'], q['arr']), errs, pre); last = 'leg'
            elif (q := _RB_RD.fullmatch(x)):
                if (q['icon'] == '🚕') != (q['how'] == 'taxi'): errs.append(f"{pre}icon {x!r}")
                _put(g, 'leg', _road_key('taxi' if q['how'] == 'taxi' else 'drive', q['a'], q['b'], _undur(q['dur'], 'hr'), q['cost']), errs, pre); last = 'leg'
            elif (lab := next((s for s in _RB_SIGHTS if x.startswith(s + ': ')), None)):
                forms.add(('sights', lab))
                g['attraction'] += [_unvenue(ph, s) for s in x[len(lab) + 2:].split(ph.join)]; last = 'sight'
            elif (lab := next((s for s in _RB_STAY if x.startswith(s + ': ')), None)):
                forms.add(('stay', lab))
                if x == f"{lab}: — (home)":
                    if k != n: errs.append(f"{pre}home before the end")
                    nights[-1] = ('home',)
                else: nights[-1] = ('named', _unvenue(ph, x[len(lab) + 2:]))
                last = 'stay'
            elif (m := next((m for m, w in zip(_MEALS, words) for nf in _RB_NONE if x == nf.format(w=w, lw=w.lower())), None)):
                forms.add(next(nf for nf in _RB_NONE for w in words if x == nf.format(w=w, lw=w.lower())))
                _said(said, m, errs, pre); last = 'none'
            elif (mm := ph.unmeal(x, words)):
                _said(said, mm[0], errs, pre); _put(g, mm[0], mm[1], errs, pre); last = mm[0]
            else: errs.append(f"{pre}line {x!r}")
    if len({f for f in forms if isinstance(f, tuple) and len(f) == 2 and f[0] == 'stay'}) > 1 or \
            len({f for f in forms if isinstance(f, tuple) and len(f) == 2 and f[0] == 'sights'}) > 1 or \
            len(forms & set(_RB_DATE)) > 1 or len(forms & {'line', 'inline'}) > 1 or len(forms & set(_RB_NONE)) > 1:
        errs.append(f"forms mixed: {forms}")
    _apply_nights(days, [x if x and x[0] != 'home' else None for x in nights], errs)
    for k, z in sdec:
        acc = days[k - 1]['accommodation']
        b = k
        while b < len(days) and days[b]['accommodation'] == acc: b += 1
        checks.append(('stay', k, b, z, None, 'passed on: '))
    _resolve(days, checks, errs)
    return days, errs


# slot_options_pick ----------------------------------------------------------------------------------------------------
_SO_FL = re.compile(r'Travel: flight (?P<num>\S+), (?P<a>.+?) → (?P<b>.+), wheels up (?P<dep>\d\d:\d\d), landing (?P<arr>\d\d:\d\d)(?P<nd> \(next day\))?')
_SO_RD = re.compile(r'Travel: (?P<how>taxi|self-drive), (?P<a>.+?) → (?P<b>.+), (?P<dur>\S+) \(\$(?P<cost>\d+)\)')
_SO_OPT = (re.compile(r'(?P<lab>Breakfast|Lunch|Dinner|Hotel \(\d+ nights?\)) — \*\*Option A:\*\* (?P<a>.+) · \*\*Option B:\*\* (?P<b>.+)'),
           re.compile(r'(?P<lab>Breakfast|Lunch|Dinner|Hotel \(\d+ nights?\)): (?P<a>.+) \*or\* (?P<b>.+)'))
_SO_PICK = re.compile(r'- (?:Day (?P<k>\d+) (?P<m>breakfast|lunch|dinner)|(?P<t>Nights? \d+(?:–\d+)?) hotel) → '
                      r'(?:Option (?P<L>[AB])(?: \((?P<n1>.+)\))?|\*\*(?P<n2>.+)\*\*)')
_SO_INL = (re.compile(r"  - ➜ I'd go with \*\*Option (?P<L>[AB])\*\* — " + _alt(_SO_WHY) + r'\.'),
           re.compile(r'  - ➜ Pick: \*\*(?P<n>.+)\*\* — ' + _alt(_SO_WHY) + r'\.'))


def _so_choose(opt, letter, name, errs, where):
    "The option picked (by its letter, its name, or both, which must agree), else None."
    a, b = opt
    by_l = {'A': a, 'B': b}.get(letter) if letter else None
    by_n = [v for v in (a, b) if _nm(v) == name] if name else None
    if by_n is not None and len(by_n) != 1: errs.append(f"{where}pick {name!r} is no option"); return None
    if by_l and by_n and by_l != by_n[0]: errs.append(f"{where}pick's letter and name disagree"); return None
    return by_l or (by_n[0] if by_n else None)


def _read_so(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    mode = next((m for m, t in _SO_INTRO.items() if L[0] == t), None)
    if mode is None: errs.append('intro')
    if L[-1] not in _SO_OUTRO: errs.append('outro')
    days, nights, checks, refs, opts = [], [], [], [], {}     # opts: (day, slot) -> [(a, b), chosen, orform]
    saids, in_picks, picked = [], False, set()
    for ln in L[2:-1]:
        if ln == '': continue
        if (h := re.fullmatch(r'#### Day (\d+) · (.+?) · (.+)', ln)):
            if int(h[1]) != len(days) + 1 or h[2] != _fd(task, len(days), 'mon') or in_picks: errs.append(f"head {ln!r}")
            days.append(_blank(_back(h[3]))); nights.append(None); saids.append([]); last = None
            continue
        if ln == '### ✅ Final picks':
            if mode != 'end' or in_picks: errs.append('picks section')
            in_picks = True; continue
        if in_picks:
            q = _SO_PICK.fullmatch(ln)
            if not q: errs.append(f"pick {ln!r}"); continue
            key = (int(q['k']), q['m']) if q['k'] else (_untag(q['t'])[0], 'stay')
            if key not in opts or key in picked: errs.append(f"pick {ln!r} for no open slot"); continue
            picked.add(key)
            if opts[key][2] and q['L']: errs.append(f"pick by letter of an 'or' slot {ln!r}")
            if q['t'] and _untag(q['t'])[1] != key[0] + opts[key][3] - 1: errs.append(f"pick {ln!r}: nights")
            opts[key][1] = _so_choose(opts[key][0], q['L'], q['n1'] or q['n2'], errs, 'picks: ')
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k, pre = days[-1], len(days), f"day {len(days)}: "
        if ln.startswith('  - ➜ '):
            q0, q1 = _SO_INL[0].fullmatch(ln), _SO_INL[1].fullmatch(ln)
            if mode != 'inline' or not last or last not in opts or last in picked or not (q0 or q1): errs.append(f"{pre}pick {ln!r}"); continue
            if opts[last][2] and q0: errs.append(f"{pre}pick by letter of an 'or' slot")
            picked.add(last)
            opts[last][1] = _so_choose(opts[last][0], q0 and q0['L'], q1 and q1['n'], errs, pre)
            continue
        if not ln.startswith('- '): errs.append(f"{pre}line {ln!r}"); continue
        x, last = ln[2:], None
        if nights[-1] is not None: errs.append(f"{pre}{x!r} after the hotel")
        if (q := _SO_FL.fullmatch(x)):
            if bool(q['nd']) != (q['arr'] < q['dep']): errs.append(f"{pre}(next day)")
            _put(g, 'leg', _flight(q['num'], q['a'], q['b'], q['dep'], q['arr']), errs, pre)
        elif (q := _SO_RD.fullmatch(x)):
            _put(g, 'leg', _road_key('taxi' if q['how'] == 'taxi' else 'drive', q['a'], q['b'], _undur(q['dur'], 'compact'), q['cost']), errs, pre)
        elif x.startswith('Sightseeing: '):
            y = x[len('Sightseeing: '):]
            if (q := re.fullmatch(r'(?P<s>.+) \(skipping (?P<v>.+) this time — ' + _alt(_SO_SKIP) + r'\)', y)):
                y = q['s']; checks.append(('sight', k, *_name_city(_unvenue(ph, q['v'])), 'skipping: '))
            if g['attraction'] or any(m in saids[-1] for m in ('lunch', 'dinner')): errs.append(f"{pre}sights placed")
            g['attraction'] = [_unvenue(ph, s) for s in y.split(ph.join)]
        elif (q := re.fullmatch(r'(Breakfast|Lunch|Dinner): none planned', x)): _said(saids[-1], q[1].lower(), errs, pre)
        elif (q := _SO_OPT[0].fullmatch(x) or _SO_OPT[1].fullmatch(x)):
            orform = bool(_SO_OPT[1].fullmatch(x)) and not _SO_OPT[0].fullmatch(x)
            a, b = _unvenue(ph, q['a']), _unvenue(ph, q['b'])
            if _name_city(a)[1] != _name_city(b)[1] or a == b: errs.append(f"{pre}options {x!r}")
            if q['lab'] in ('Breakfast', 'Lunch', 'Dinner'):
                m = q['lab'].lower()
                _said(saids[-1], m, errs, pre)
                last = (k, m); opts[last] = [(a, b), None, orform, 0]
            else:
                N = int(re.search(r'\d+', q['lab'])[0])
                if (N == 1) != q['lab'].endswith('night)'): errs.append(f"{pre}{q['lab']!r}")
                last = (k, 'stay'); opts[last] = [(a, b), None, orform, N]
                nights[-1] = ('open', N)
        elif (q := re.fullmatch(r'Hotel \((?P<N>\d+) (?P<w>nights?)\): (?P<v>.+)', x)):
            if (q['N'] == '1') != (q['w'] == 'night'): errs.append(f"{pre}{x!r}")
            nights[-1] = ('start', int(q['N']), _unvenue(ph, q['v']))
        elif (q := re.fullmatch(r'Hotel: same as Day (\d+)', x)): nights[-1] = ('again', None); refs.append((k, int(q[1])))
        elif x == 'Hotel: none (travel home)':
            if k != n: errs.append(f"{pre}travel home before the end")
        elif (mm := ph.unmeal(x)):
            _said(saids[-1], mm[0], errs, pre); _put(g, mm[0], mm[1], errs, pre)
        else: errs.append(f"{pre}item {x!r}")
    if set(opts) != picked: errs.append(f"open slots not picked: {sorted(set(opts) - picked)}")
    for (k, slot), (ab, chosen, _, N) in opts.items():
        if chosen is None: continue
        other = ab[1] if chosen == ab[0] else ab[0]
        if slot == 'stay':
            nights[k - 1] = ('start', N, chosen)
            checks.append(('stay', k, k + N - 1, *_name_city(other), 'option: '))
        else:
            _put(days[k - 1], slot, chosen, errs, f"day {k}: ")
            checks.append(('meal', k, slot, *_name_city(other), 'option: '))
    nights = [None if x and x[0] == 'open' else x for x in nights]
    for k, a in refs:
        if not (1 <= a < k and nights[a - 1] and nights[a - 1][0] == 'start' and all(nights[j] and nights[j][0] == 'again' for j in range(a, k - 1))):
            errs.append(f"day {k}: 'same as Day {a}'")
    _apply_nights(days, nights, errs)
    _resolve(days, checks, errs)
    return days, errs


# es_fr_de_pt_prose ----------------------------------------------------------------------------------------------------
def _lg_rx17(lg):
    L = _LG17[lg]
    kinds = dict(num=r'\S+', dep=L['clock'], arr=L['clock'], nd=f"(?:{re.escape(L['nd'])})?", cost=r'\d+', N=r'\d+', nights=_alt(L['nights']),
                 why=_alt(L['why']['meal'] + L['why']['sight']))
    return {f"{k}{j}": _tmpl(t, **kinds) for k, ts in L['T'].items() for j, t in enumerate(ts)}


_LG_RX17 = {lg: _lg_rx17(lg) for lg in _LG17}


def _lang17(text: str): return next((lg for lg, L in _LG17.items() if text.startswith(L['intro'] + '\n')), None)


def _read_lg(text, task, plan, ph):
    errs, n = [], len(plan)
    lg = _lang17(text)
    if lg is None: return [], ['no known intro']
    L, P = _LG17[lg], text.split('\n\n')
    if P[-1] != L['outro']: errs.append('outro')
    head = re.compile(re.escape(L['head']).replace(r'\{k\}', r'(?P<k>\d+)').replace(r'\{date\}', r'(?P<date>.+?)').replace(r'\{route\}', r'(?P<route>.+)'))
    days, nights, checks = [], [], []
    J = _ljoin17(lg, ph)
    ok = lambda k, q: _ok_venues(ph, lg)(k, {**q, 's': None}) and (q.get('s') is None or _ok_sights17(ph, lg, q['s'], J))
    for par in P[1:-1]:
        hd, _, body = par.partition('\n')
        h = head.fullmatch(hd)
        k = len(days) + 1
        if not h or int(h['k']) != k or h['date'] != _ldate17(lg, task, k - 1): errs.append(f"head {hd!r}"); continue
        g = _blank(_back(h['route']))
        days.append(g); nights.append(None)
        pre, said, last = f"day {k}: ", [], None
        for key, q in _scan(body, _LG_RX17[lg], ok):
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
                if q['nights'] != L['nights'][N != 1]: errs.append(f"{pre}{N} {q['nights']}")
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


def _ok_sights17(ph, lg, s, J) -> bool:
    try: [_unvenue(ph, x, lg) for x in s.split(J)]; return True
    except ValueError: return False


# agent_tool_json ------------------------------------------------------------------------------------------------------
_AG_LC = re.compile(r'Invoking: `(?P<f>\w+)` with `(?P<a>\{.*\})`')
_AG_CM = re.compile(r'🔧 \*\*Tool call:\*\* `(?P<f>\w+)\((?P<a>.*)\)`')
_AG_SAY = (re.compile(r'(?P<y>.+) looks good for (?P<m>breakfast|lunch|dinner) on day (?P<k>\d+) — checking availability\.'),
           re.compile(r'(?P<y>.+) is (?P<why>' + '|'.join(map(re.escape, _AG_WHY['meal'])) + r'), so (?P<m>breakfast|lunch|dinner) on day (?P<k>\d+) goes to (?P<x>.+) instead\.'),
           re.compile(r'(?P<z>.+) looks good for (?P<t>nights? \d+(?:–\d+)?) — checking availability\.'),
           re.compile(r'(?P<z>.+) has no rooms left, so (?P<t>nights? \d+(?:–\d+)?) are at (?P<w>.+)\.'),
           re.compile(r'(?P<s>.+) would be nice on day (?P<k>\d+), but ' + _alt(_AG_WHY['sight']) + r' — skipping it\.'))
_AG_FL = re.compile(r'fly (?P<a>.+?) → (?P<b>.+) on (?P<num>\S+), (?P<dep>\d\d:\d\d)–(?P<arr>\d\d:\d\d)(?P<nd> \(\+1\))?')
_AG_RD = re.compile(r'(?P<how>drive|taxi) (?P<a>.+?) → (?P<b>.+) \((?P<dur>.+?), \$(?P<cost>\d+)\)')


def _ag_args(style: str, s: str) -> dict:
    if style == 'langchain': return ast.literal_eval(s)
    node = ast.parse(f"f({s})", mode='eval').body
    if node.args: raise ValueError(f"positional arguments in {s!r}")
    return {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords}


def _read_ag(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    style = 'langchain' if L[0] == '> Entering new AgentExecutor chain...' else 'chatml'
    if style == 'chatml' and L[0] != f"**User:** Plan a {n}-day trip from {_get(task, 'org')} to {_get(task, 'dest')}.": errs.append('first line')
    if L[-1] != ('> Finished chain.' if style == 'langchain' else 'Have a great trip!'): errs.append('last line')
    fin = L.index(_AG_FINAL[style])
    calls, says, j = [], [], 2
    while j < fin:
        ln = L[j]
        if ln == '': j += 1; continue
        q = (_AG_LC if style == 'langchain' else _AG_CM).fullmatch(ln)
        if q:
            args = _ag_args(style, q['a'])
            if style == 'langchain':
                if L[j + 1:j + 3] != ['', '']: errs.append(f"result of {ln!r}")
                res, j = json.loads(L[j + 3]), j + 4
            else:
                e = L.index('```', j + 2)
                if L[j + 1] != '```json': errs.append(f"result of {ln!r}")
                res, j = json.loads('\n'.join(L[j + 2:e])), e + 1
            calls.append((q['f'], args, res)); continue
        says.append((len(calls), ln)); j += 1
    iso = lambda i: _date(task, i).isoformat()
    days, checks, found = [], [], {}
    for f, a, res in calls:
        if f in ('search_hotels', 'search_restaurants', 'search_attractions'):
            if set(a) != {'city'} or any(set(x) != {'name', 'rating'} or x['rating'] != _rating(x['name']) for x in res): errs.append(f"{f} {a}")
            found.setdefault((f, a['city']), set()).update(x['name'] for x in res)
    for ln in L[fin + 1:-2]:
        h = re.fullmatch(r'Day (?P<k>\d+) \((?P<d>[\d-]+)\) — (?P<r>.+?): (?P<c>.+)\.', ln)
        k = len(days) + 1
        if not h or int(h['k']) != k or h['d'] != iso(k - 1): errs.append(f"final line {ln!r}"); continue
        g = _blank(_back(h['r']))
        days.append(g)
        pre, said, night = f"day {k}: ", [], False
        for c in h['c'].split('; '):
            if night: errs.append(f"{pre}{c!r} after the night")
            if (q := _AG_FL.fullmatch(c)):
                if bool(q['nd']) != (q['arr'] < q['dep']): errs.append(f"{pre}(+1)")
                leg = {'flight_number': q['num'], 'from': q['a'], 'to': q['b'], 'dep_time': q['dep'], 'arr_time': q['arr']}
                if not any(f == 'search_flights' and a == {'origin': q['a'], 'destination': q['b'], 'date': iso(k - 1)} and res == [leg] for f, a, res in calls):
                    errs.append(f"{pre}flight {c!r} not as searched")
                _put(g, 'leg', _flight(q['num'], q['a'], q['b'], q['dep'], q['arr']), errs, pre)
            elif (q := _AG_RD.fullmatch(c)):
                mode = 'taxi' if q['how'] == 'taxi' else 'self-driving'
                want = {'origin': q['a'], 'destination': q['b'], 'duration': q['dur'], 'cost': int(q['cost'])}
                if not any(f == 'get_distance' and a == {'origin': q['a'], 'destination': q['b'], 'mode': mode} and res == want for f, a, res in calls):
                    errs.append(f"{pre}road leg {c!r} not as looked up")
                _put(g, 'leg', _road_key('taxi' if q['how'] == 'taxi' else 'drive', q['a'], q['b'], q['dur'], q['cost']), errs, pre)
            elif (q := re.fullmatch(r'no (breakfast|lunch|dinner)', c)): _said(said, q[1], errs, pre)
            elif c.startswith('see '): g['attraction'] += [_unvenue(ph, x) for x in c[4:].split(ph.join)]
            elif c.startswith('stay at '): g['accommodation'] = _unvenue(ph, c[8:]); night = True
            elif c == 'no hotel (heading home)':
                if k != n: errs.append(f"{pre}heading home before the end")
                night = True
            elif (mm := ph.unmeal(c)): _said(said, mm[0], errs, pre); _put(g, mm[0], mm[1], errs, pre)
            else: errs.append(f"{pre}clause {c!r}")
        for key, vs in (('search_restaurants', [g[m] for m in _MEALS]), ('search_attractions', g['attraction']), ('search_hotels', [g['accommodation']])):
            for v in vs:
                if v not in ('-', None) and _nm(v) not in found.get((key, _name_city(v)[1]), ()): errs.append(f"{pre}{_nm(v)!r} not in {key}")
    runs = []
    for i, g in enumerate(days):
        acc = g['accommodation']
        if acc == '-': continue
        if runs and runs[-1][2] == acc and runs[-1][1] == i - 1: runs[-1][1] = i
        else: runs.append([i, i, acc])
    booked = [(a['check_in'], a['check_out'], f"{a['name']}, {a['city']}", res) for f, a, res in calls if f == 'book_hotel']
    want = [(iso(a), iso(b + 1), acc, {'status': 'confirmed', 'name': _nm(acc), 'nights': b - a + 1}) for a, b, acc in runs]
    if booked != want: errs.append(f"bookings {booked} for the stays {want}")
    it = iter(says)
    pending = None
    for pos, s in says:
        q = next(((idx, q) for idx, rx in enumerate(_AG_SAY) if (q := rx.fullmatch(s))), None)
        if q is None: errs.append(f"remark {s!r}"); continue
        idx, q = q
        if idx in (0, 2):
            nm_, c = (q['y'], None) if idx == 0 else (q['z'], None)
            f, a, res = calls[pos] if pos < len(calls) else (None, {}, {})
            if f != 'check_availability' or a.get('name') != nm_ or res.get('available') is not False: errs.append(f"remark {s!r} without its check")
            pending = (idx, q, res.get('reason'))
        elif idx == 1:
            if not pending or pending[0] != 0 or pending[1]['y'] != q['y'] or pending[1]['m'] != q['m'] or pending[1]['k'] != q['k'] or pending[2] != q['why']:
                errs.append(f"remark {s!r}")
            k = int(q['k'])
            g = _day_of(days, k)
            if not g or g[q['m']] in ('-', None) or _nm(g[q['m']]) != q['x']: errs.append(f"remark {s!r}: not the plan's")
            checks.append(('meal', k, q['m'], q['y'], None, 'checked: ')); pending = None
        elif idx == 3:
            if not pending or pending[0] != 2 or pending[1]['z'] != q['z'] or pending[1]['t'] != q['t'] or pending[2] != 'no rooms left': errs.append(f"remark {s!r}")
            a, b = _untag(q['t'])
            g = _day_of(days, a)
            if not g or g['accommodation'] in ('-', None) or _nm(g['accommodation']) != q['w']: errs.append(f"remark {s!r}: not the plan's")
            checks.append(('stay', a, b, q['z'], None, 'checked: ')); pending = None
        else: checks.append(('sight', int(q['k']), q['s'], None, 'remark: '))
    if pending: errs.append('a check without its outcome')
    _resolve(days, checks, errs)
    return days, errs


# decimal_outline ------------------------------------------------------------------------------------------------------
_DO_FL = re.compile(r'Transport: flight (?P<num>\S+), (?P<a>.+?) \(dep\. (?P<dep>\d\d:\d\d)\) → (?P<b>.+) \(arr\. (?P<arr>\d\d:\d\d)(?P<nd>, \+1 day)?\)')
_DO_RD = re.compile(r'Transport: (?P<how>taxi|self-drive), (?P<a>.+?) → (?P<b>.+), approx\. (?P<dur>.+?), \$(?P<cost>\d+)')
_DO_DEC = (re.compile(r'Day (?P<k>\d+), (?P<m>breakfast|lunch|dinner): (?P<v>.+) — ' + _alt(_DO_WHY['meal'])),
           re.compile(r'Day (?P<k>\d+), sightseeing: (?P<v>.+) — ' + _alt(_DO_WHY['sight'])),
           re.compile(r'(?P<t>Nights? \d+(?:–\d+)?): (?P<v>.+) — ' + _alt(_DO_WHY['stay'])))


def _read_do(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    d0, d1 = _date(task, 0), _date(task, n - 1)
    head = [f"# Trip plan: {_get(task, 'org')} → {_get(task, 'dest')}, {d0:%B} {d0.day}–" + (f"{d1.day}" if d0.month == d1.month else f"{d1:%B} {d1.day}") + f", {d1.year}",
            '', '## 1. Overview', f"1.1 Travellers: {_people(task)}", f"1.2 Dates: {d0:%A} {_dm(d0)} – {d1:%A} {_dm(d1)} {d1.year} ({n} days)"]
    if L[:5] != head: errs.append('head / overview')
    route = L[5][len('1.3 Route: '):] if L[5].startswith('1.3 Route: ') else None
    if L[6:8] != ['', '## 2. Day-by-day plan']: errs.append('section 2')
    days, nights, checks, summary, sec, item = [], [], [], [], 2, None
    said = []
    for ln in L[8:]:
        if ln == '': continue
        if ln in ('## 3. Accommodation summary', '## 4. Considered but not booked'):
            if int(ln[3]) != sec + 1: errs.append(f"section {ln!r}")
            sec = int(ln[3]); item = 0; continue
        if sec == 2:
            if (h := re.fullmatch(r'### 2\.(\d+) Day (\d+) — (.+?) — (.+)', ln)):
                k = len(days) + 1
                if int(h[1]) != k or int(h[2]) != k or h[3] != _fd(task, k - 1, 'ukyear'): errs.append(f"day head {ln!r}")
                days.append(_blank(_back(h[4]))); nights.append(None); said.append([]); item, sub = 0, None
                continue
            if not days: errs.append(f"line {ln!r}"); continue
            k, g, pre = len(days), days[-1], f"day {len(days)}: "
            q = re.fullmatch(r'2\.(\d+)\.(\d+)(?:\.(\d+))? (.+)', ln)
            if not q or int(q[1]) != k: errs.append(f"{pre}line {ln!r}"); continue
            x = q[4]
            if q[3]:
                if sub is None or int(q[2]) != item or int(q[3]) != sub + 1: errs.append(f"{pre}numbering {ln!r}")
                g['attraction'].append(_unvenue(ph, x)); sub = (sub or 0) + 1; continue
            if int(q[2]) != item + 1: errs.append(f"{pre}numbering {ln!r}")
            if sub == 0: errs.append(f"{pre}an empty sightseeing item")
            item, sub = item + 1, None
            if nights[-1] is not None: errs.append(f"{pre}{x!r} after the night")
            if (f := _DO_FL.fullmatch(x)):
                if bool(f['nd']) != (f['arr'] < f['dep']): errs.append(f"{pre}+1 day")
                _put(g, 'leg', _flight(f['num'], f['a'], f['b'], f['dep'], f['arr']), errs, pre)
            elif (f := _DO_RD.fullmatch(x)):
                _put(g, 'leg', _road_key('taxi' if f['how'] == 'taxi' else 'drive', f['a'], f['b'], _undur(f['dur'], 'hr'), f['cost']), errs, pre)
            elif x == 'Sightseeing': sub = 0
            elif x.startswith('Sightseeing: '): g['attraction'] += [_unvenue(ph, y) for y in x[len('Sightseeing: '):].split(ph.join)]
            elif (f := re.fullmatch(r'(Breakfast|Lunch|Dinner): not planned', x)): _said(said[-1], f[1].lower(), errs, pre)
            elif (f := re.fullmatch(r'Accommodation: (?P<v>.+) \(night (?P<j>\d+) of (?P<N>\d+)\)', x)):
                j, N = int(f['j']), int(f['N'])
                nights[-1] = ('start', N, _unvenue(ph, f['v'])) if j == 1 else ('again', _unvenue(ph, f['v']), j, N)
            elif (mm := ph.unmeal(x)): _said(said[-1], mm[0], errs, pre); _put(g, mm[0], mm[1], errs, pre)
            else: errs.append(f"{pre}item {x!r}")
            continue
        q = re.fullmatch(rf'{sec}\.(\d+) (.+)', ln)
        if not q or int(q[1]) != item + 1: errs.append(f"section {sec}: line {ln!r}"); continue
        item += 1
        if sec == 3:
            if q[2] == 'None — no overnight stay.': summary.append(None); continue
            f = re.fullmatch(r'(?P<v>.+) — (?P<N>\d+) (?P<w>nights?), (?P<span>.+?) \(check-out (?P<out>.+)\)', q[2])
            if not f: errs.append(f"summary {q[2]!r}"); continue
            N = int(f['N'])
            a = next((i for i in range(n) if f['span'] == (_dm(_date(task, i)) if N == 1 else f"{_dm(_date(task, i))} to {_dm(_date(task, i + N - 1))}")), None)
            if a is None or (N == 1) != (f['w'] == 'night') or f['out'] != f"{_date(task, a + N):%A} {_dm(_date(task, a + N))}":
                errs.append(f"summary dates {q[2]!r}"); continue
            summary.append((a, a + N - 1, _unvenue(ph, f['v'])))
        else:
            for idx, rx in enumerate(_DO_DEC):
                if (f := rx.fullmatch(q[2])): break
            else: errs.append(f"not booked {q[2]!r}"); continue
            if idx == 0: checks.append(('meal', int(f['k']), f['m'], f['v'], None, 'not booked: '))
            elif idx == 1: checks.append(('sight', int(f['k']), *_name_city(_unvenue(ph, f['v'])), 'not booked: '))
            else: checks.append(('stay', *_untag(f['t']), f['v'], None, 'not booked: '))
    runs = [x for x in summary if x]
    if summary == [None] and any(nights): errs.append("'no overnight stay' and nights in the days")
    if any(nights):
        raw = list(nights)
        for i, nt in enumerate(raw):                    # 'night j of N' follows its run exactly
            if nt and nt[0] == 'again':
                prev = raw[i - 1] if i else None
                pj = 1 if prev and prev[0] == 'start' else prev[2] if prev and prev[0] == 'again' else None
                pN = prev[1] if prev and prev[0] == 'start' else prev[3] if prev else None
                pv = prev[2] if prev and prev[0] == 'start' else prev[1] if prev else None
                if pj is None or nt[2] != pj + 1 or nt[3] != pN or nt[1] != pv: errs.append(f"day {i + 1}: night {nt[2]} of {nt[3]}")
                nights[i] = ('again', nt[1])
        _apply_nights(days, nights, errs)
        got = [(a, b, acc) for a, b, acc in _day_runs(days)]
        if got != runs: errs.append(f"summary {runs} against the days {got}")
    else:
        for a, b, v in runs:
            for i in range(a, b + 1):
                if i >= len(days) or days[i]['accommodation'] != '-': errs.append(f"summary: night {i + 1}"); continue
                days[i]['accommodation'] = v
        if [(a, b) for a, b, _ in runs] != [(a, b) for a, b, _ in _day_runs(days)]: errs.append('summary runs')
    want_route = []
    for g in days:
        for c in _ab(g['current_city'] or ''):
            if not want_route or want_route[-1] != c: want_route.append(c)
    if route != ' → '.join(want_route): errs.append(f"route {route!r}")
    _resolve(days, checks, errs)
    return days, errs


# numbered_mixed -------------------------------------------------------------------------------------------------------
_NX_FL = re.compile(rf'Fly from (?P<a>.+?) to (?P<b>.+) on (?P<num>\S+), leaving at (?P<dep>{_PM_T}) and landing at (?P<arr>{_PM_T})(?P<nd> the next day)?\.')
_NX_RD = re.compile(r'(?P<how>Take a taxi|Drive) from (?P<a>.+?) to (?P<b>.+) — about (?P<dur>.+?) \(≈\$(?P<cost>\d+)(?P<fuel> for fuel)?\)\.')
_NX_SIGHTS = ('Morning: ', 'In the afternoon, head to ', 'After lunch, explore ')


def _read_nx(text, task, plan, ph):
    errs, n, L = [], len(plan), text.split('\n')
    P = _people(task)
    if L[0] != _NX_INTRO.format(n=n, p=P, s=_ns(P), org=_get(task, 'org'), dest=_get(task, 'dest')): errs.append('intro')
    if L[-1] not in _NX_OUTRO: errs.append('outro')
    days, nights, checks, names, said = [], [], [], [], []
    last, block = None, None
    for ln in L[2:-2]:
        if (h := re.fullmatch(r'(\d+)\. \*\*(.+?) — (.+)\*\*', ln)):
            k = len(days) + 1
            if int(h[1]) != k or h[2] != _fd(task, k - 1, 'mon'): errs.append(f"day head {ln!r}")
            days.append(_blank(_back(h[3], ' to '))); nights.append(None); said.append([]); last, block = None, None
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        k, g, pre = len(days), days[-1], f"day {len(days)}: "
        if ln.startswith('     - '):
            x = ln[7:]
            if last in _MEALS and (q := re.fullmatch(r'Note: skip (?P<y>.+) — ' + _alt(_NX_WHY['meal']) + r'\.', x)):
                checks.append(('meal', k, last, q['y'], None, 'skip: ')); last = 'note'
            elif last == 'stay' and block is not None:
                if (q := re.fullmatch(r'Location: (.+)', x)) and block['city'] is None and block['N'] is None: block['city'] = q[1]
                elif (q := re.fullmatch(r'(\d+) (nights?) \(check-out (.+)\)', x)) and block['city'] and block['N'] is None:
                    N = int(q[1])
                    if (N == 1) != (q[2] == 'night') or q[3] != _fd(task, k - 1 + N, 'mon'): errs.append(f"{pre}{x!r}")
                    block['N'] = N
                elif (q := re.fullmatch(r'(?P<z>.+) ' + _alt(_NX_WHY['stay']) + r', so this one instead\.', x)) and block['N']:
                    checks.append(('stay', k, k + block['N'] - 1, q['z'], None, 'instead: '))
                else: errs.append(f"{pre}stay detail {x!r}")
            else: errs.append(f"{pre}sub-item {x!r}")
            continue
        if not ln.startswith('   - '): errs.append(f"{pre}line {ln!r}"); continue
        x = ln[5:]
        if nights[-1] is not None: errs.append(f"{pre}{x!r} after the night")
        last = None
        if (q := _NX_FL.fullmatch(x)):
            dep, arr = _un_pm(q['dep']), _un_pm(q['arr'])
            if bool(q['nd']) != (arr < dep): errs.append(f"{pre}the next day")
            _put(g, 'leg', _flight(q['num'], q['a'], q['b'], dep, arr), errs, pre)
        elif (q := _NX_RD.fullmatch(x)):
            if bool(q['fuel']) == (q['how'] == 'Take a taxi'): errs.append(f"{pre}{x!r}")
            _put(g, 'leg', _road_key('taxi' if q['how'] == 'Take a taxi' else 'drive', q['a'], q['b'], _undur(q['dur'], 'words'), q['cost']), errs, pre)
        elif (lab := next((s for s in _NX_SIGHTS if x.startswith(s)), None)):
            y = x[len(lab):]
            if lab != 'Morning: ':
                if not y.endswith('.'): errs.append(f"{pre}{x!r}")
                y = y[:-1]
            if (lab == 'Morning: ') == any(m in said[-1] for m in ('lunch', 'dinner')): errs.append(f"{pre}{lab!r} placed")
            g['attraction'] += [_unvenue(ph, s) for s in y.split(ph.join)]; last = 'sight'
        elif (q := re.fullmatch(r'Not included: (?P<v>.+) — ' + _alt(_NX_WHY['sight']) + r'\.', x)):
            if not g['attraction']: errs.append(f"{pre}{x!r} before the sights")
            checks.append(('sight', k, *_name_city(_unvenue(ph, q['v'])), 'not included: '))
        elif (q := re.fullmatch(r'No (breakfast|lunch|dinner) planned — grab something on the go\.', x)): _said(said[-1], q[1], errs, pre)
        elif x in _NX_FILL:
            if x == _NX_FILL[-1] and k == n: errs.append(f"{pre}'tomorrow' on the last day")
        elif (q := re.fullmatch(r'Stay: \*\*(.+)\*\*', x)):
            block = {'name': q[1], 'city': None, 'N': None}; nights[-1] = ('block', block); last = 'stay'
        elif x == 'Same hotel as last night.': nights[-1] = ('again', None)
        elif (q := re.fullmatch(r'Another night at \*\*(.+)\*\*\.', x)): nights[-1] = ('again', None); names.append((k, q[1]))
        elif (mm := ph.unmeal(x)):
            _said(said[-1], mm[0], errs, pre)
            if mm[0] in ('lunch', 'dinner') and last is None: pass
            _put(g, mm[0], mm[1], errs, pre); last = mm[0]
        else: errs.append(f"{pre}item {x!r}")
    for i, nt in enumerate(nights):
        if nt and nt[0] == 'block':
            b = nt[1]
            if not b['city'] or not b['N'] or b['city'] not in _cities(): errs.append(f"day {i + 1}: stay block {b}"); nights[i] = None
            else: nights[i] = ('start', b['N'], f"{b['name']}, {b['city']}")
    _apply_nights(days, nights, errs)
    for k, nm_ in names:
        if _nm(days[k - 1]['accommodation']) != nm_: errs.append(f"day {k}: another night at {nm_!r}")
    _resolve(days, checks, errs)
    return days, errs


_READERS = {'themed_time_of_day': _read_td, 'glance_stays_prose': _read_gp, 'rules_bold_dates': _read_rb, 'slot_options_pick': _read_so,
            'es_fr_de_pt_prose': _read_lg, 'agent_tool_json': _read_ag, 'decimal_outline': _read_do, 'numbered_mixed': _read_nx}


def _check_one(name, task, plan, text, ph) -> list[str]:
    """Errors of one rendering (empty = it states exactly the plan, as far as this reader-free check can tell): a
    placeholder the plan does not have ('None', 'nan', 'null', braces; in agent_tool_json only in its final answer, the
    tool results being JSON), the reader's own errors, any difference from the plan (`layouts_v8._cmp`), or a text that
    does not parse back."""
    errs = []
    plan_text = ' '.join(str(v) for d in plan for v in d.values())
    body = _ag_final(text) if name == 'agent_tool_json' else text
    for bad in (r'\bNone\b', r'\bnan\b', r'\bnull\b', '[{}]'):
        if re.search(bad, body) and not re.search(bad, plan_text): errs.append(f"{bad!r} in the text")
    try:
        got, e = _READERS[name](text, task, plan, ph)
        return errs + e + _cmp(plan, got)
    except (IndexError, KeyError, ValueError, TypeError, AttributeError, AssertionError, StopIteration, SyntaxError, json.JSONDecodeError) as e:
        return errs + [f"does not parse back: {e!r}"]

# ---------------------------------------------------------------------------------------------------------- corruptions
def _bump(text: str, rx: str):
    "The text with group 1 of the first match of `rx` (a count of nights) made one more, else None."
    m = re.search(rx, text)
    return text[:m.start(1)] + str(int(m[1]) + 1) + text[m.end(1):] if m else None


def _relabel(name, ph, text):
    "The text with its first lunch made a dinner (its label, word, row, key or sentence), else None."
    Lp, Dp = ph.meal_prefix('Lunch'), ph.meal_prefix('Dinner')
    if name == 'themed_time_of_day': return _first_line_sub(text, lambda ln: ln.startswith('  - '), '  - ' + Lp, '  - ' + Dp)
    if name == 'glance_stays_prose':
        subs = [(a.replace('{v}.', ''), b.replace('{v}.', '')) for a, b in zip(_GP_T['lunch'], _GP_T['dinner'])]
        subs = [(text.find(a), a, b) for a, b in subs if a in text]
        for j, a, b in sorted(subs)[:1]: return text[:j] + b + text[j + len(a):]
    if name == 'rules_bold_dates':
        for W in _RB_WORDS:
            if (s := _first_line_sub(text, lambda ln: True, ph.meal_prefix(W[1]), ph.meal_prefix(W[2]))): return s
    if name == 'slot_options_pick':
        for a, b in (('- ' + Lp, '- ' + Dp), ('- Lunch — ', '- Dinner — '), ('- Lunch: ', '- Dinner: ')):
            if (s := _first_line_sub(text, lambda ln: True, a, b)): return s
    if name == 'es_fr_de_pt_prose' and (lg := _lang17(text)):
        T = _LG17[lg]['T']
        subs = [(a.split('{')[0], b.split('{')[0]) for a, b in zip(T['lunch'], T['dinner'])]
        subs = [(text.find(a), a, b) for a, b in subs if a in text]
        for j, a, b in sorted(subs)[:1]: return text[:j] + b + text[j + len(a):]
    if name == 'agent_tool_json':
        fin = _ag_final(text)
        return fin and Lp in fin and text[:len(text) - len(fin)] + fin.replace(Lp, Dp, 1)
    if name == 'decimal_outline':
        return _first_line_sub(text, lambda ln: bool(re.match(r'2\.\d+\.\d+ ', ln)) and not ln.endswith(': not planned'), ' ' + Lp, ' ' + Dp)
    if name == 'numbered_mixed': return _first_line_sub(text, lambda ln: ln.startswith('   - '), '   - ' + Lp, '   - ' + Dp)
    return None


def _drop_day(name, text, task, k=1):
    "The text without the k-th day (0-based) it states: its section, block, paragraph, row or line."
    kk = k + 1
    if name == 'themed_time_of_day':
        return _cut_lines(text, lambda ln: ln.startswith('### Day '), lambda ln: ln.startswith(f"### Day {kk}: "), stop=lambda ln: ln in _TD_OUTRO)
    if name == 'glance_stays_prose':
        return '\n'.join(ln for ln in text.split('\n') if not ln.startswith((f"| {kk} | ", f"**Day {kk} — ")))
    if name == 'rules_bold_dates':
        P = text.split('\n\n')
        return '\n\n'.join(P[:1 + 2 * k] + P[3 + 2 * k:])
    if name == 'slot_options_pick':
        return _cut_lines(text, lambda ln: ln.startswith(('#### Day ', '### ✅')), lambda ln: ln.startswith(f"#### Day {kk} · "))
    if name == 'es_fr_de_pt_prose':
        P = text.split('\n\n')
        return '\n\n'.join(P[:k + 1] + P[k + 2:])
    if name == 'agent_tool_json':
        fin = _ag_final(text)
        return text[:len(text) - len(fin)] + '\n'.join(ln for ln in fin.split('\n') if not ln.startswith(f"Day {kk} ("))
    if name == 'decimal_outline':
        return _cut_lines(text, lambda ln: ln.startswith(('### 2.', '## ')), lambda ln: ln.startswith(f"### 2.{kk} Day "))
    if name == 'numbered_mixed':
        return _cut_lines(text, lambda ln: bool(re.match(r'\d+\. \*\*', ln)), lambda ln: ln.startswith(f"{kk}. **"), stop=lambda ln: ln == '')
    return None


def _time_shift(name, plan, text, ph):
    "The first flight's departure moved a minute, in the layout's clock, where the layout states it."
    fl = [_leg_parts(d['transportation']) for d in plan if d['transportation'].startswith('Flight')]
    if not fl: return None
    p = fl[0]
    dep, new, num = p['dep'], _shift(p['dep']), p['number']
    if name == 'themed_time_of_day': return _first_line_sub(text, lambda ln: f" on flight {num} " in ln, f"departs {_pm(dep)}", f"departs {_pm(new)}")
    if name == 'glance_stays_prose':
        s = _first_line_sub(text, lambda ln: f"✈️ {num} · " in ln, f" · {dep}–", f" · {new}–")
        return s and (_first_line_sub(s, lambda ln: num in ln, f"{p['a']} at {dep} on {num}", f"{p['a']} at {new} on {num}") or
                      _first_line_sub(s, lambda ln: num in ln, f"{num} leaves {p['a']} at {dep}", f"{num} leaves {p['a']} at {new}"))
    if name == 'rules_bold_dates': return _first_line_sub(text, lambda ln: ln.startswith(f"✈ {num} · "), f" {p['a']} {dep} → ", f" {p['a']} {new} → ")
    if name == 'slot_options_pick': return _first_line_sub(text, lambda ln: f"flight {num}, " in ln, f"wheels up {dep}", f"wheels up {new}")
    if name == 'es_fr_de_pt_prose' and (lg := _lang17(text)):
        return _first_line_sub(text, lambda ln: f" {num} " in ln, f" {_lclock(lg, dep)}", f" {_lclock(lg, new)}")
    if name == 'agent_tool_json':
        s = text.replace(f'"flight_number": "{num}", "from": "{p["a"]}", "to": "{p["b"]}", "dep_time": "{dep}"',
                         f'"flight_number": "{num}", "from": "{p["a"]}", "to": "{p["b"]}", "dep_time": "{new}"', 1)
        s = s.replace(f'"flight_number": "{num}",\n    "from": "{p["a"]}",\n    "to": "{p["b"]}",\n    "dep_time": "{dep}"',
                      f'"flight_number": "{num}",\n    "from": "{p["a"]}",\n    "to": "{p["b"]}",\n    "dep_time": "{new}"', 1)
        return s.replace(f" on {num}, {dep}–", f" on {num}, {new}–", 1)
    if name == 'decimal_outline': return _first_line_sub(text, lambda ln: f"flight {num}, " in ln, f"(dep. {dep})", f"(dep. {new})")
    if name == 'numbered_mixed': return _first_line_sub(text, lambda ln: f" on {num}, " in ln, f"leaving at {_pm(dep)}", f"leaving at {_pm(new)}")
    return None


def _decoy_promotions(name, plan, text, task, ph):
    "[(what, text)]: a decoy taken for the plan, coherently (its name and the kept one's traded), and the layout's own ways."
    out = []
    for y, x in _DECOY_LOG.get(text, []):
        if (s := _swap(text, y, x)): out.append(("a decoy's name traded with the kept one", s)); break
    lines = text.split('\n')
    if name == 'themed_time_of_day':
        for j, ln in enumerate(lines):
            if (q := _TD_DEC['sight'].fullmatch(ln[6:])) and ln.startswith('    - '):
                out.append(("a skipped sight visited", '\n'.join(lines[:j] + [f"  - Visit {q['v']}"] + lines[j + 1:]))); break
    if name == 'glance_stays_prose':
        if (q := re.search(r'\(I left out (.+?) — ' + _alt(_GP_WHY['sight']) + r'\.\)', text)):
            out.append(("a left-out sight seen", text[:q.start()] + f"Then see {q[1]}." + text[q.end():]))
    if name == 'rules_bold_dates':
        for j, ln in enumerate(lines):
            if (q := _RB_DEC.fullmatch(ln)) and q['why'] in _RB_WHY['sight'] and (lab := re.match(r'(.+?): ', lines[j - 1])):
                out.append(("a passed-on sight kept", '\n'.join(lines[:j] + [f"{lab[1]}: {q['v']}"] + lines[j + 1:]))); break
    if name == 'slot_options_pick':
        for j, ln in enumerate(lines):
            if ln.startswith(('- Day ', '- Night', "  - ➜ I'd go with **Option ")) and ' Option ' in ln and ('→ Option' in ln or '➜' in ln):
                flip = ln.replace('Option A', '\0').replace('Option B', 'Option A').replace('\0', 'Option B')
                if (q := re.search(r' \((.+)\)$', flip)) and ln.startswith('- '): flip = flip[:q.start()]
                out.append(("the other option picked", '\n'.join(lines[:j] + [flip] + lines[j + 1:]))); break
    if name == 'es_fr_de_pt_prose' and (lg := _lang17(text)):
        rx, _ = _LG_RX17[lg]['dsight0']
        if (q := re.search(rx, text)):
            out.append(("a left-out sight visited", text[:q.start()] + _LG17[lg]['T']['sights'][0].format(s=q['s']) + text[q.end():]))
    if name == 'agent_tool_json':
        fin = _ag_final(text)
        for y, x in _DECOY_LOG.get(text, []):
            if x in fin and y not in fin:
                out.append(("a checked-out first pick in the final answer", text[:len(text) - len(fin)] + fin.replace(x, y))); break
    if name == 'numbered_mixed':
        for j, ln in enumerate(lines):
            if (q := re.fullmatch(r'   - Not included: (?P<v>.+) — ' + _alt(_NX_WHY['sight']) + r'\.', ln)):
                lab = next(s for s in _NX_SIGHTS if lines[j - 1].startswith('   - ' + s))
                out.append(("a sight not included visited", '\n'.join(lines[:j] + [f"   - {lab}{q['v']}{'' if lab == 'Morning: ' else '.'}"] + lines[j + 1:])))
                break
    return out


def _longer_stay(name, plan, text, task, ph):
    "A stay made one night longer where a layout states its nights (or names it once more)."
    if name == 'themed_time_of_day': return _bump(text, r'(?m)^  - Check in(?: at .+ \(|: .+ — )(\d+) nights?\)?$')
    if name == 'glance_stays_prose':
        if (s := _bump(text, r'(?m)^\| \d+ \| .+ \((\d+) nights?\) \|$')): return s
        rows = [ln for ln in text.split('\n') if re.match(r'\| \d+ \| ', ln)]
        if len(rows) > 1 and rows[-1].endswith((' | — |', ' | — (heading home) |')):
            last = _split_cells(rows[-1])
            return text.replace(rows[-1], '|'.join(last[:5] + [_split_cells(rows[-2])[5], '']))
    if name == 'rules_bold_dates':
        P = text.split('\n\n')
        prev = [ln for ln in P[-4].split('\n') if ln.startswith(tuple(f"{s}: " for s in _RB_STAY))]
        if not prev: return None
        last = [ln for ln in P[-2].split('\n') if not ln.endswith(': — (home)')]
        return '\n\n'.join(P[:-2] + ['\n'.join(last + prev[-1:])] + P[-1:])
    if name == 'slot_options_pick': return _bump(text, r'(?m)^- Hotel \((\d+) nights?\)')
    if name == 'es_fr_de_pt_prose': return _bump(text, r'\((\d+) (?:noches?|nuits?|Nacht|Nächte|noites?)\)\.')
    if name == 'agent_tool_json':
        m = re.search(r"book_hotel.*check_out(?:'|\")?(?::|=) ?['\"](\d{4}-\d\d-\d\d)['\"]", text)
        if not m: return None
        d = datetime.date.fromisoformat(m[1]) + datetime.timedelta(days=1)
        s = text[:m.start(1)] + d.isoformat() + text[m.end(1):]
        return _bump(s, r'"nights": (\d+)')
    if name == 'decimal_outline': return _bump(text, r'(?m)^3\.\d+ .+ — (\d+) nights?, ')
    if name == 'numbered_mixed': return _bump(text, r'(?m)^     - (\d+) nights? \(check-out ')
    return None


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
    return selfcheck_part(HELDOUT17_LAYOUTS, _phr, _check_one, mutations, lambda lay, text: bool(_DECOY_LOG.get(text)), plans, mutate_every)


if __name__ == '__main__':
    part_cli(__doc__, HELDOUT17_LAYOUTS, _phr, selfcheck)
