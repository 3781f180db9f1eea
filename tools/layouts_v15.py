#!/usr/bin/env python
"""Held-out part v15 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their notebooks
(04a, 04b, 05), tests (test_grounded*, test_layout*, test_robustness*) or results/formatter/* were opened, no reader was
run on these texts, and `tools/layouts.py measure` / `record` were not run). Only tools/layouts.py (its interface and its
layouts' source, to avoid repeating them), tools/agreement.py (`_leg_parts`, `_attractions`) and tools/layouts_v5.py ...
layouts_v14.py (their structure, docstrings and layouts; generic helpers of v8, v9, v10, v12 and v13 are imported) were
read; star/evaluator.py was not opened (its `eval_index().city_state` is used as tools/layouts.py uses it). SEALED: this
part is to be scored ONCE by the lead (via tools/layouts.py, part 'heldout15', once registered there) and never tuned on
before that score.

    python tools/layouts_v15.py check                    # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (the Slack / Discord messages,
                                                         # reactions, "(edited)" marks, threads and closed polls; the
                                                         # wiki markup unescaped, its tables split outside the macros'
                                                         # braces, its strikethrough and its panel; the Mermaid nodes by
                                                         # shape and label, the day's order by its edges, the stays box
                                                         # and the dashed nodes; the diary's past-tense sentences found
                                                         # by a search over sentence ends (a 'Rockford, Ill.' that ends a
                                                         # sentence); the index by meal type or A–Z with its slot tags;
                                                         # the Norwegian / Croatian / Tagalog / Persian labels, dates,
                                                         # clocks, plurals and Persian digits; the corrections applied,
                                                         # inline and at the end; the texted bubbles, tapbacks, choices
                                                         # and '(2 nts)') into the plan's own values (venue 'Name, City',
                                                         # route, leg parts) and compared with the plan EXACTLY; then
                                                         # corruptions (a name deleted, lunches swapped, a day dropped, a
                                                         # decoy promoted, a flight time moved, a stay lengthened, ...)
                                                         # must be caught. 315 plans x 8 layouts = 2,520 renderings,
                                                         # 22,327 corruptions, ~15 s
    python tools/layouts_v15.py check --limit 40         # the same on the first 40 known plans (~2 s)
    python tools/layouts_v15.py show sms_terse --n 1     # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how chat models, tool-using agents and people write a 3/5/7-day trip plan, in styles that none of
tools/layouts.py, tools/layouts_v5.py ... tools/layouts_v14.py has (see each renderer's docstring):

* `slack_thread`         the plan posted to a Slack or Discord channel, one message per day, and agreed in its threads:
                         a channel line, Slack's date divider, headers "Priya Nair  9:43 AM" / "priya — 03/08/2022 9:43
                         AM", day messages in Slack mrkdwn ("*Day 2 · Thu, Mar 17 · Rockford*", "• ✈️ Flight F1 A → B ·
                         dep 15:40 · arr 17:04", "• Lunch ➤ X", "• 📍 A ➝ B", "• 🛏️ W") or Discord markdown, reaction
                         lines (":+1: 3  :tada: 1"), "(edited)", "💬 2 replies" with the thread indented under the
                         message; DECOYS: suggestions turned down in a thread ("could we do Y for lunch on day 2
                         instead? 😋" / "Y is fully booked that night — keeping X"), an edit explained ("edited:
                         switched lunch from Y to X (...)"), a poll bot's closed poll ("1️⃣ X — 3 votes ✅", "2️⃣ Y — 1
                         vote"), a hotel or a sight turned down
* `confluence_wiki`      a Confluence page / Jira description in Atlassian WIKI MARKUP: "h1.", "{info}", "{toc}", "h2. Day
                         2 — Thursday 17 March 2022 — Rockford", then "* *Travel:* Flight · F1 · A → B · 15:40–17:04",
                         "* Lunch ➤ X", "* *Sights:* ...", "* *Stay:* W" OR a "||Time||Item||Details||" table with a row
                         per item; names escaped as wiki markup needs ('\\|', '\\{', a '-' or '*' next to a space);
                         DECOYS: wiki strikethrough "-Y- X {status:colour=Yellow|title=CHANGED}", a struck sight (or
                         row), a closing "{panel:title=Considered, not booked}"
* `mermaid_flowchart`    the trip as a Mermaid FLOWCHART: a subgraph per day, a node per item (meals 'd2_lunch["🥪
                         Lunch<br/>X"]', sights as stadiums, the leg, the night a cylinder), the nodes declared in the
                         day's order OR grouped by kind — the ORDER of the day only in the edges ("d2_breakfast -->
                         d2_s1"), "D1 ==> D2"; the stays in the days or in their own "🏨 Stays" box ("W<br/>Nights
                         1–2"); '"' written '#quot;'; DECOYS: dashed nodes of class "dropped" hung off the kept choice
                         ('d2_lunch -.->|"not booked · closed that day"| x1')
* `trip_diary`           a traveller's DIARY written AFTER the trip, past tense, one paragraph a day ("Our flight, F1,
                         left A at 15:40 and landed in B at 17:04. Had lunch at X. Saw A ➝ B. Checked in at W." /
                         "Another night at W."); a period that ends a placement ('Rockford, Ill.') ends the sentence
                         too; DECOYS told as what did not happen ("We'd planned on Y for lunch, but it was closed, so we
                         ended up at X.", "Our booking at Z fell through (...), so we checked in at W instead.", "Never
                         made it to S — ran out of time.")
* `venue_index`          the trip organised by KIND, not by day: "Days and travel", then EITHER sections per meal type
                         across the days ("### 🥪 Lunches", "- Day 2: X" / "- Day 1: —"), sights and stays ("- Nights
                         1–2: W") OR one A–Z index of the places, each with the slots it fills ("- **Coco Bambu** ... —
                         dinner · Day 1; lunch · Day 3", "— sight · Day 2, 1st stop", "— stay · Nights 1–2"); DECOYS: a
                         "Shortlisted, not booked" list, or backups filed among the places in the A–Z ("— backup for
                         lunch · Day 2 — not booked (closed that day)")
* `no_hr_tl_fa_labels`   the answer in Norwegian (Bokmål), Croatian, Tagalog or Persian (drawn): "**Dag 2 – torsdag 17.
                         mars 2022 – Rockford**", "**Dan 2 – četvrtak, 17. ožujka 2022. – ...**", "**Araw 2 – Huwebes,
                         Marso 17, 2022 – ...**", "**روز ۲ – پنجشنبه ۱۷ مارس ۲۰۲۲ – ...**" (Persian digits, "از A به B"); labels
                         Reise / Frokost (Norwegian 'Frokost' is BREAKFAST, Danish LUNCH) / Severdigheter / Lunsj / Middag
                         (= dinner) / Overnatting, Prijevoz / Doručak / Znamenitosti / Ručak / Večera / Smještaj, Biyahe
                         / Almusal / Mga pasyalan / Tanghalian / Hapunan / Tutuluyan, حمل‌ونقل / صبحانه / جاهای دیدنی / ناهار / شام
                         / اقامت; label lines OR a timed list ("- kl. 08.00 · Frokost: X", "- 9:30 n.u. · Pasyalan: A");
                         legs with local clocks ("avgang kl. 15.40", "polijetanje u 15.40 h", "alis 3:40 n.h." — the
                         Tagalog 12-hour clock —, "حرکت ۱۵:۴۰"), Croatian plurals ("3 sata i 11 minuta"); DECOYS: italic
                         notes "_Vurdert, men ikke booket: Lunsj: Y (stengt den dagen)_"
* `self_correcting`      a streamed answer that CORRECTS ITSELF: numbered items per day, some taken back in the same
                         line ("2. Lunch ➤ Y … wait, Y is closed that day — scratch that. Lunch ➤ X", "3. Sights: A ➝ S ➝
                         B … actually, drop S — not enough time. Sights: A ➝ B", "Overnight: Z … wait, ...") and some
                         only AT THE END ("One more fix before you book:", "- Day 2 lunch: make it X, not Y — ...",
                         "- Nights 1–2: stay at W instead of Z — ..."), the days still naming the first pick; the
                         first picks are the DECOYS
* `sms_terse`            the plan TEXTED to a friend (SMS / iMessage transcript): "Me: d2 thu 3/17: Rockford", "Me: flt
                         F1 A->B 3:40p-5:04p", "Me: driving A->B, ~3h11m ($120)", "Me: bfast X", "Me: see A ➝ B", "Me:
                         din X", "Me: sleep @ W (2 nts)" then "Me: same hotel"; tapbacks quoting a bubble ('Jess:
                         Loved “din X”'); DECOYS: a choice put to the friend and settled ("Me: lunch Y or X?", "Jess:
                         X!!", "Me: ok X it is 👍"), a stay given up ("was gonna do Z but no rooms left so sleep @ W (2
                         nts)"), a sight skipped

Phrasings (`HELDOUT15_PHRASES`, drawn per rendering by `Phr15`): venue placed as 'X, City, Ill.' (the AP Stylebook's
state abbreviation, Texas / Ohio / ... spelled out; 'X, City' for a city the database places in no state), 'X (City
location)', 'X over in City' or 'X, City' (the words translated in no_hr_tl_fa_labels, with the Persian comma '،');
several sights joined by ' ➝ ', ' ⦁ ', ', then over to ' or ' followed by ' (the last two translated in
no_hr_tl_fa_labels); meal labels 'Lunch booked at X', 'Lunch ➤ X', 'Lunch choice: X' or 'Lunch: X' (in slack_thread,
confluence_wiki's bullets and self_correcting; the other layouts say their meals in their own words, icons, rows,
sections or abbreviations). Every rendering states the whole plan: each day's route, the leg (flight number and
times, or self-drive / taxi with duration and cost), each meal's restaurant (or none: absent, or said to be none), each
attraction and the accommodation; names are verbatim (words are only added around them; wiki markup and Mermaid escape
what they must); the noise (reactions, edits, threads, polls, struck items, panels, dashed nodes, plans that fell
through, shortlists, notes, first picks taken back, tapbacks, choices put to a friend) never contradicts the plan; every
rendering carries at least one decoy.
"""
from __future__ import annotations

import datetime, random, re, sys
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _POSTAL_OF, _name_city, known_plans, part_cli, selfcheck_part            # noqa: E402
from layouts_v8 import (_check_with, _common_mutations, _MEALS, _all_said, _blank, _cmp, _date, _dur_key, _get,  # noqa: E402
                        _put, _road_key, _said, _swap)
from layouts_v9 import _back, _revision_decoys, _rt, _timed  # noqa: E402
from layouts_v10 import _day_runs, _flight, _nm, _with_name  # noqa: E402
from layouts_v12 import _alt, _dix, _fd, _span_text  # noqa: E402
from layouts_v13 import _day_of, _first_line_sub, _tre, _unmeal  # noqa: E402

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT15_PHRASES = {
    'locative': ('ap_state', 'location', 'over_in', 'comma'),    # 'X, City, Ill.' | 'X (City location)' | 'X over in City' | 'X, City'
    'join': (' ➝ ', ' ⦁ ', ', then over to ', ' followed by '),
    'meal_label': ('booked', 'arrowhead', 'choice', 'colon'),    # 'Lunch booked at X' | 'Lunch ➤ X' | 'Lunch choice: X' | 'Lunch: X'
}
_AP = dict(zip('AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR '
               'PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(),
               'Ala. Alaska Ariz. Ark. Calif. Colo. Conn. Del. Fla. Ga. Hawaii Idaho Ill. Ind. Iowa Kan. Ky. La. Maine Md. Mass. '
               'Mich. Minn. Miss. Mo. Mont. Neb. Nev. N.H. N.J. N.M. N.Y. N.C. N.D. Ohio Okla. Ore. Pa. R.I. S.C. S.D. Tenn. '
               'Texas Utah Vt. Va. Wash. W.Va. Wis. Wyo.'.split()))
"""US postal code -> the AP Stylebook's abbreviation of the state (newspaper style: 'Rockford, Ill.'; eight states spelled out)."""
_AP_OF = {c: _AP[st] for c, st in _POSTAL_OF.items() if st in _AP}


@lru_cache(maxsize=1)
def _cities() -> frozenset:
    "The database's cities (`EvalIndex.city_state`): a venue placed without a state must end in one of them."
    from star.evaluator import eval_index
    return frozenset(dict(eval_index().city_state))
_AP_RE = re.compile(r'(?P<n>.+), (?P<c>[^,]+), (?P<S>' + _alt(sorted(set(_AP.values()), key=len, reverse=True)) + ')', re.S)

_VT15 = {   # the placement's words per language (the localized layout translates them; 'ap_state' stays as US addresses are written)
    'en': {'location': '{n} ({c} location)', 'over_in': '{n} over in {c}', 'comma': '{n}, {c}'},
    'nb': {'location': '{n} (lokasjon: {c})', 'over_in': '{n} borte i {c}', 'comma': '{n}, {c}'},
    'hr': {'location': '{n} (lokacija: {c})', 'over_in': '{n} tamo u {c}', 'comma': '{n}, {c}'},
    'tl': {'location': '{n} (lokasyon: {c})', 'over_in': '{n} doon sa {c}', 'comma': '{n}, {c}'},
    'fa': {'location': '{n} (مکان: {c})', 'over_in': '{n} در شهر {c}', 'comma': '{n}، {c}'},
}
_VRE15 = {lg: {k: _tre(t) for k, t in T.items()} for lg, T in _VT15.items()}


def _venue(ph, v: str, lg: str = 'en') -> str:
    "A venue 'Name, City' as `ph` places it (in language `lg`): 'ap_state' adds the state's AP abbreviation where the city has one."
    n, c = _name_city(v)
    if not c: return n
    if ph.loc == 'ap_state': return f"{n}, {c}, {_AP_OF[c]}" if c in _AP_OF else f"{n}, {c}"
    return _VT15[lg][ph.loc].format(n=n, c=c)


def _unvenue(ph, s: str, lg: str = 'en') -> str:
    "'Name, City' of a venue as `_venue` writes it; a placement that is not the drawn one is an error."
    if ph.loc == 'ap_state':
        if (m := _AP_RE.fullmatch(s)) and _AP_OF.get(m['c']) == m['S']: return f"{m['n']}, {m['c']}"
        n, _, c = s.rpartition(', ')
        if not n or not c or c in _AP_OF or c not in _cities(): raise ValueError(f"venue {s!r} not placed as ap_state")
        return s
    m = _VRE15[lg][ph.loc].fullmatch(s)
    if not m or not m['n'] or not m['c']: raise ValueError(f"venue {s!r} not placed as {ph.loc} ({lg})")
    return f"{m['n']}, {m['c']}"


def _unvenue_end(ph, s: str, lg: str = 'en') -> str:
    "`_unvenue` of a venue that ended a sentence: its period may be the sentence's ('Rockford, Ill.' + '.' is written once)."
    try: return _unvenue(ph, s, lg)
    except ValueError:
        return _unvenue(ph, s + '.', lg)


def _end(s: str) -> str: return s if s.endswith('.') else s + '.'


def _unitems(ph, s: str, join=None, lg='en') -> list[str]: return [_unvenue(ph, x, lg) for x in s.split(join or ph.join)]


class Phr15(Phr):
    "`Phr` with the v15 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        if self.loc in HELDOUT15_PHRASES['locative']: return _venue(self, v)
        return super().venue(v)

    def meal_prefix(self, label: str) -> str:
        "The words before a meal's venue: 'Lunch booked at ' | 'Lunch ➤ ' | 'Lunch choice: ' | 'Lunch: '."
        return {'booked': f"{label} booked at ", 'arrowhead': f"{label} ➤ ", 'choice': f"{label} choice: "}.get(self.label, f"{label}: ")

    def meal(self, label: str, v: str) -> str: return self.meal_prefix(label) + self.venue(v)


PHR15 = Phr15


def _nights_tag(a: int, b: int) -> str: return f"Night {a}" if a == b else f"Nights {a}–{b}"


def _untag(tag: str) -> tuple[int, int]:
    "(first, last) day number of 'Night 2' | 'Nights 1–2' (any case)."
    m = re.fullmatch(r'([Nn]ights?) (\d+)(?:–(\d+))?', tag)
    if not m: raise ValueError(f"tag {tag!r}")
    a, b = int(m[2]), int(m[3] or m[2])
    if m[1].lower().endswith('s') != bool(m[3]) or (m[3] and b <= a): raise ValueError(f"tag {tag!r}")
    return a, b


def _leg_en(t: str, sep=' → ') -> str:
    "A leg in plain English: 'Flight F1 A → B, 15:40 → 17:04' | 'Self-drive A → B, 3 hours 11 mins, $120' | 'Taxi ...'."
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"Flight {p['number']} {p['a']}{sep}{p['b']}, {p['dep']} → {p['arr']}"
    return f"{'Taxi' if p['mode'] == 'taxi' else 'Self-drive'} {p['a']}{sep}{p['b']}, {p['duration']}, ${p['cost']}"


_LEG_EN = (re.compile(r'Flight (?P<num>\S+) (?P<a>.+?) → (?P<b>.+), (?P<dep>\d\d:\d\d) → (?P<arr>\d\d:\d\d)'),
           re.compile(r'(?P<mode>Taxi|Self-drive) (?P<a>.+?) → (?P<b>.+), (?P<dur>\d[\w ]*?), \$(?P<cost>\d+)'))


def _unleg_en(s: str):
    "The leg key (`layouts_v8._leg_key`) of `_leg_en`'s text."
    if (q := _LEG_EN[0].fullmatch(s)): return _flight(q['num'], q['a'], q['b'], q['dep'], q['arr'])
    if (q := _LEG_EN[1].fullmatch(s)): return _road_key('taxi' if q['mode'] == 'Taxi' else 'drive', q['a'], q['b'], q['dur'], q['cost'])
    raise ValueError(f"leg {s!r}")


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


def _with_leg(d) -> list[tuple[int, str, str]]:
    """`layouts_v9._timed(d)` with the day's leg put where it happens: after what the day does in the city it leaves,
    before what it does in the city it reaches ((minute, 'leg', transportation); a flight at its departure time)."""
    items = _timed(d)
    if d['transportation'] == '-': return items
    p = _leg_parts(d['transportation'])
    at_a = [_name_city(x[2])[1] == p['a'] and p['a'] != p['b'] for x in items]
    h = sum(at_a)
    if any(at_a[h:]):                                      # the day goes back and forth: the leg at its time (a drive first)
        h = sum(x[0] < (int(p['dep'][:2]) * 60 + int(p['dep'][3:]) if p['mode'] == 'flight' else 0) for x in items)
    t0 = int(p['dep'][:2]) * 60 + int(p['dep'][3:]) if p['mode'] == 'flight' else (items[h - 1][0] + 30 if h else 450)
    return items[:h] + [(t0, 'leg', d['transportation'])] + items[h:]

# ============================================================================================================ layouts
# slack_thread ---------------------------------------------------------------------------------------------------------
_SL_PEOPLE = (('Priya Nair', 'priya'), ('Sam Lee', 'samlee'), ('Jordan Diaz', 'jdiaz'), ('Mia Chen', 'mia.c'), ('Omar Haddad', 'omarh'),
              ('Tess Olsen', 'tess'))
_SL_WHY = {'meal': ("closed that day", "fully booked that night", "over our food budget"), 'stay': "has no rooms left those nights",
           'sight': "not enough time"}
_SL_REACT = {'slack': (':+1:', ':tada:', ':airplane:', ':fork_and_knife:', ':heart_eyes:', ':white_check_mark:'),
             'discord': ('👍', '🎉', '✈️', '🍽️', '😍', '✅')}
_SL_INTRO = ("Final plan for {org} → {dest}, one message per day 🧵 — reply in the thread if anything's off.",
             "Okay team, here's the {org} → {dest} trip, day by day. Threads for questions please!")
_SL_BYE = ("looks great, booking my flight now 🙌", "perfect, thanks for putting this together!", "ship it 🚢")
_SL_ICON = {'flight': '✈️', 'drive': '🚗', 'taxi': '🚕'}


def _sl_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ Flight {p['number']} {p['a']} → {p['b']} · dep {p['dep']} · arr {p['arr']}"
    return f"{_SL_ICON[p['mode']]} {'Taxi' if p['mode'] == 'taxi' else 'Self-drive'} {p['a']} → {p['b']} · {p['duration']} · ${p['cost']}"


def _clock12(m: int) -> str:
    h = m // 60 % 24
    return f"{(h - 1) % 12 + 1}:{m % 60:02d} {'AM' if h < 12 else 'PM'}"


def slack_thread(plan, task, ph):
    """A Slack or Discord channel (drawn) where the plan is posted one message per day and agreed in threads: a channel
    line, Slack's date divider ("──────── Tuesday, March 8 ────────"), message headers "Priya Nair  9:43 AM" (Discord:
    "priya — 03/08/2022 9:43 AM"), the day messages in Slack's mrkdwn ("*Day 2 · Thu, Mar 17 · Rockford*", "• ✈️ Flight F1
    A → B · dep 15:40 · arr 17:04", "• Lunch ➤ X (Rockford location)" in the drawn meal label and placement, "• 📍 A ➝ B",
    "• 🛏️ W") or Discord's markdown ("**...**", "- "), reaction lines (":+1: 3  :tada: 1" / "👍 3  🎉 1"), "(edited)" marks,
    "💬 2 replies" / "🧵 2 messages" with the thread indented under the message. DECOYS, in the threads: a companion's
    suggestion turned down ("could we do Y for lunch on day 2 instead? 😋" / "Y is fully booked that night — keeping X"),
    an edit explained ("edited: switched lunch from Y to X (closed that day)", the message marked "(edited)"), a poll
    bot's closed poll whose losing options are the decoys ("*Poll · lunch on Day 2?* (closed)", "1️⃣ X — 3 votes ✅",
    "2️⃣ Y — 1 vote"), a hotel or a sight turned down ("what about Z for nights 1–2? looked cheaper" / "Z has no rooms left
    those nights — staying at W"; "can we squeeze in S on day 3?" / "not enough time — skipping S this trip")."""
    r = ph.rng
    plat = r.choice(('slack', 'discord'))
    say_none = r.random() < 0.3
    (org_n, org_h), *others = r.sample(_SL_PEOPLE, r.choice((2, 3)))
    B = '• ' if plat == 'slack' else '- '
    bold = (lambda s: f"*{s}*") if plat == 'slack' else (lambda s: f"**{s}**")
    d0 = _date(task, 0) - datetime.timedelta(days=r.choice((6, 8, 9, 13)))
    clock = [r.choice((540, 581, 615, 1230))]

    def head(who) -> str:
        clock[0] += r.randint(1, 3)
        name, handle = who
        return f"{name}  {_clock12(clock[0])}" if plat == 'slack' else f"{handle} — {d0:%m/%d/%Y} {_clock12(clock[0])}"

    def reacts() -> str:
        em = r.sample(_SL_REACT[plat], r.choice((1, 2)))
        return '  '.join(f"{e} {r.randint(1, 4)}" for e in em)

    meals, stays, sights = _decoys(plan, r)
    pairs = []
    n = len(plan)
    chan = re.sub(r'[^a-z0-9]+', '-', str(_get(task, 'dest')).lower()).strip('-') + '-trip'
    out = [f"#{chan}  ·  {len(others) + 1} members" if plat == 'slack' else f"#{chan} — {_get(task, 'org')} → {_get(task, 'dest')}"]
    if plat == 'slack': out.append(f"──────── {d0:%A, %B} {d0.day} ────────")
    out += ['', head((org_n, org_h)), r.choice(_SL_INTRO).format(org=_get(task, 'org'), dest=_get(task, 'dest')), reacts()]
    for i, d in enumerate(plan):
        k = d['days']
        body = [bold(f"Day {k} · {_fd(task, i, 'mon')} · {_rt(d['current_city'])}")]
        if d['transportation'] != '-': body.append(B + _sl_leg(d['transportation']))
        at = _attractions(d['attraction'])
        for m in _MEALS:
            if d[m] != '-': body.append(B + ph.meal(m.capitalize(), d[m]))
            elif say_none: body.append(f"{B}(no {m} planned)")
            if m == 'breakfast' and at: body.append(B + '📍 ' + ph.items(at))
        if d['accommodation'] != '-': body.append(f"{B}🛏️ {ph.venue(d['accommodation'])}")
        elif say_none: body.append(f"{B}🛏️ — (home)" if i == n - 1 else f"{B}🛏️ — (none)")
        replies, polls = [], []
        for (j, m), y in meals.items():
            if j != i: continue
            x = _nm(d[m])
            pairs.append((y, x))
            form = r.choice(('suggest', 'edit', 'poll'))
            if form == 'suggest':
                replies += [(r.choice(others), [f"could we do {y} for {m} on day {k} instead? 😋"]),
                            ((org_n, org_h), [f"{y} is {r.choice(_SL_WHY['meal'])} — keeping {x}"])]
            elif form == 'edit':
                if not body[-1].endswith(' (edited)'): body[-1] += ' (edited)'
                replies.append(((org_n, org_h), [f"edited: switched {m} from {y} to {x} ({r.choice(_SL_WHY['meal'])})"]))
            else:
                opts = [(x, r.randint(3, 5)), (y, r.randint(0, 2))]
                r.shuffle(opts)
                polls.append([bold(f"Poll · {m} on Day {k}?") + ' (closed)'] +
                             [f"{e} {o} — {v} vote{'s' * (v != 1)}{' ✅' if o == x else ''}" for e, (o, v) in zip(('1️⃣', '2️⃣'), opts)])
        for (a, b), z in stays.items():
            if a != i: continue
            w = _nm(d['accommodation'])
            pairs.append((z, w))
            replies += [(r.choice(others), [f"what about {z} for {_nights_tag(a + 1, b + 1).lower()}? looked cheaper"]),
                        ((org_n, org_h), [f"{z} {_SL_WHY['stay']} — staying at {w}"])]
        if i in sights:
            s = _nm(sights[i][1])
            pairs.append((s, _nm(at[0])))
            replies += [(r.choice(others), [f"can we squeeze in {s} on day {k}?"]),
                        ((org_n, org_h), [f"{_SL_WHY['sight']} — skipping {s} this trip"])]
        out += ['', head((org_n, org_h))] + body
        if r.random() < 0.7 or replies: out.append(reacts())
        if replies:
            out.append(f"💬 {len(replies)} repl{'ies' if len(replies) > 1 else 'y'}" if plat == 'slack' else f"🧵 {len(replies)} messages")
            for who, ls in replies:
                out.append('    ↳ ' + head(who))
                out += ['      ' + x for x in ls]
        for p in polls:
            clock[0] += 1
            out += ['', f"Polly  APP  {_clock12(clock[0])}" if plat == 'slack' else f"Poll Bot  BOT — {d0:%m/%d/%Y} {_clock12(clock[0])}"] + p
    out += ['', head(r.choice(others)), r.choice(_SL_BYE)]
    return _log('\n'.join(out), pairs)

# confluence_wiki ------------------------------------------------------------------------------------------------------
_CW_WHY = {'meal': ("closed that day", "no table at our time", "over the food budget"), 'stay': ("no rooms left", "over budget"),
           'sight': ("not enough time", "closed for renovation")}
_CW_TIMES = {'breakfast': '08:00', 'lunch': '12:30', 'dinner': '19:00'}


def _wesc(s: str) -> str:
    """Text as Confluence / Jira wiki markup needs it: '\\', '|', '[', ']', '{', '}' escaped, and a markup character
    ('-', '*', '_', '+', '^', '~', '?') next to a space or an end, where it could open or close an effect."""
    s = re.sub(r'([\\|\[\]{}])', r'\\\1', s)
    return re.sub(r'(?<!\S)([-*_+^~?])|([-*_+^~?])(?!\S)', lambda m: '\\' + (m[1] or m[2]), s)


def _wunesc(s: str) -> str: return re.sub(r'\\(.)', r'\1', s)


def _cw_leg(t: str, table: bool) -> tuple[str, str, str]:
    "(time cell, item, details) of a leg; the bullets use 'details' after the item."
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"{p['dep']}–{p['arr']}", 'Flight', f"{p['number']} · {p['a']} → {p['b']}"
    return '07:30', 'Taxi' if p['mode'] == 'taxi' else 'Self-drive', f"{p['a']} → {p['b']} · {p['duration']} · ${p['cost']}"


def confluence_wiki(plan, task, ph):
    """A Confluence page (or Jira description) in Atlassian WIKI MARKUP, as pasted from an agent that writes into the team
    space: "h1. A → B · Mar 16–18, 2022", an "{info}...{info}" macro, "{toc:maxLevel=2}", per day "h2. Day 2 — Thursday 17
    March 2022 — Rockford" and EITHER bullets ("* *Travel:* Flight · F1 · A → B · 15:40–17:04", "* Lunch ➤ X" in the drawn
    meal label and placement, "* *Sights:* A ➝ B", "* *Stay:* W") OR a wiki table ("||Time||Item||Details||", "|12:30|Lunch|X|",
    one row per sight, "|21:00|Overnight|W|", the flight "|15:40–17:04|Flight|F1 · A → B|"); names escaped as wiki markup
    needs ('\\|', '\\[', '\\{', a '-' or '*' next to a space); DECOYS: wiki strikethrough "-Y-" before the kept choice with a
    "{status:colour=Yellow|title=CHANGED}" macro, a struck sight "-S-" in the list (a struck row in the table), and a closing
    "{panel:title=Considered, not booked}" of options that were dropped ("* Day 2 lunch: Y — closed that day", "* Nights 1–2:
    Z — no rooms left", "* Day 3 sight: S — not enough time")."""
    r = ph.rng
    table, inline, say_none, toc = r.random() < 0.5, r.random() < 0.6, r.random() < 0.3, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    n, pairs, panel = len(plan), [], []
    d0, d1 = _date(task, 0), _date(task, n - 1)
    agreed = d0 - datetime.timedelta(days=r.choice((5, 9, 12)))
    out = [f"h1. {_get(task, 'org')} → {_get(task, 'dest')} · {_span_text(d0, d1)}, {d1.year}",
           "{info}Final itinerary, agreed on " + f"{agreed:%B} {agreed.day}." +
           (" Struck-through items were dropped." if inline and (meals or sights) else '') + "{info}"]
    if toc: out.append('{toc:maxLevel=2}')
    for i, d in enumerate(plan):
        k, at = d['days'], _attractions(d['attraction'])
        out += ['', f"h2. Day {k} — {_fd(task, i, 'ukyear')} — {_rt(d['current_city'])}"]
        md = {m: y for (j, m), y in meals.items() if j == i}
        for m, y in md.items():
            pairs.append((y, _nm(d[m])))
            if not inline: panel.append(f"* Day {k} {m}: {_wesc(ph.venue(_with_name(d[m], y)))} — {r.choice(_CW_WHY['meal'])}")
        sd = sights.get(i)
        if sd:
            pairs.append((_nm(sd[1]), _nm(at[0])))
            if not inline: panel.append(f"* Day {k} sight: {_wesc(ph.venue(sd[1]))} — {r.choice(_CW_WHY['sight'])}")
        for (a, b), z in stays.items():
            if a == i:
                pairs.append((z, _nm(d['accommodation'])))
                panel.append(f"* {_nights_tag(a + 1, b + 1)}: {_wesc(ph.venue(_with_name(d['accommodation'], z)))} — {r.choice(_CW_WHY['stay'])}")
        mv = lambda m: (f"-{_wesc(ph.venue(_with_name(d[m], md[m])))}- " if inline and m in md else '') + _wesc(ph.venue(d[m]))
        if table:
            rows = []
            if d['transportation'] != '-':
                tm, it, det = _cw_leg(d['transportation'], True)
                rows.append((tm, it, _wesc(det)))
            for t, kind, v in _timed(d):
                if kind == 'sight': rows.append((f"{t // 60:02d}:{t % 60:02d}", 'Sight', _wesc(ph.venue(v))))
                else: rows.append((_CW_TIMES[kind], kind.capitalize(), mv(kind) + (' {status:colour=Yellow|title=CHANGED}' if inline and kind in md else '')))
            if sd and inline:                                  # the struck sight: before the sight it preceded, else after the last
                srows = [j for j, x in enumerate(rows) if x[1] == 'Sight']
                rows.insert(srows[sd[0]] if sd[0] < len(srows) else srows[-1] + 1, ('—', '-Sight-', f"-{_wesc(ph.venue(sd[1]))}-"))
            if say_none:
                for m in _MEALS:
                    if d[m] == '-': rows.append(('—', m.capitalize(), '_on your own_'))
            if d['accommodation'] != '-': rows.append(('21:00', 'Overnight', _wesc(ph.venue(d['accommodation']))))
            elif say_none: rows.append(('—', 'Overnight', '_none — heading home_' if i == n - 1 else '_none_'))
            out += ['||Time||Item||Details||'] + [f"|{a}|{b}|{c}|" for a, b, c in rows]
        else:
            if d['transportation'] != '-':
                tm, it, det = _cw_leg(d['transportation'], False)
                out.append(f"* *Travel:* {it} · {_wesc(det)}" + (f" · {tm}" if it == 'Flight' else ''))
            for m in _MEALS:
                if d[m] != '-': out.append(f"* {ph.meal_prefix(m.capitalize())}{mv(m)}" + (' {status:colour=Yellow|title=CHANGED}' if inline and m in md else ''))
                elif say_none: out.append(f"* {m.capitalize()}: _on your own_")
                if m == 'breakfast' and at:
                    xs = [_wesc(ph.venue(v)) for v in at]
                    if sd and inline: xs.insert(sd[0], f"-{_wesc(ph.venue(sd[1]))}-")
                    out.append(f"* *Sights:* {ph.join.join(xs)}" + (' {status:colour=Grey|title=1 DROPPED}' if sd and inline else ''))
            if d['accommodation'] != '-': out.append(f"* *Stay:* {_wesc(ph.venue(d['accommodation']))}")
            elif say_none: out.append('* *Stay:* _none — heading home_' if i == n - 1 else '* *Stay:* _none_')
    if panel: out += ['', 'h2. Considered, not booked', '{panel:title=Considered, not booked|borderStyle=dashed}'] + panel + ['{panel}']
    return _log('\n'.join(out), pairs)


# mermaid_flowchart ----------------------------------------------------------------------------------------------------
_MM_ICON = {'breakfast': '🍳 Breakfast', 'lunch': '🥪 Lunch', 'dinner': '🍝 Dinner'}
_MM_WHY = {'meal': ("closed that day", "no table"), 'stay': ("no rooms left", "over budget"), 'sight': ("not enough time",)}
_MM_INTRO = ("Here's the trip as a flowchart — paste it into any Mermaid viewer (GitHub and Notion render it):",
             "I drew the itinerary as a Mermaid diagram, one box per day:")
_MM_OUTRO = ("Dashed boxes are options I looked at and dropped; solid boxes are the plan.", "Follow the arrows inside each day box; dashed = not booked.")


def _mq(s: str) -> str: return s.replace('"', '#quot;')


def _mm_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ Flight {p['number']}<br/>{p['a']} → {p['b']}<br/>{p['dep']} → {p['arr']}"
    return f"{_SL_ICON[p['mode']]} {'Taxi' if p['mode'] == 'taxi' else 'Self-drive'}<br/>{p['a']} → {p['b']}<br/>{p['duration']} · ${p['cost']}"


def mermaid_flowchart(plan, task, ph):
    """The trip as a Mermaid FLOWCHART (```mermaid, "flowchart TD" / "flowchart LR"): one subgraph per day
    ("subgraph D2["Day 2 · Thu 3/17 · Rockford"]"), a node per item ('d2_lunch["🥪 Lunch<br/>X (Rockford location)"]', sights
    as stadiums 'd2_s1(["📍 A"])', the leg 'd1_leg["✈️ Flight F1<br/>A → B<br/>15:40 → 17:04"]', the night a cylinder
    'd2_stay[("🛏️ Overnight<br/>W")]'), the nodes declared in the day's order OR grouped by kind, the ORDER of the day given
    only by the edges ("d2_breakfast --> d2_s1"), the days chained "D1 ==> D2"; in some renderings the stays in their own
    subgraph ('H["🏨 Stays"]', 'h1[("🛏️ W<br/>Nights 1–2")]') instead of the days; '"' in a name written '#quot;' as Mermaid
    needs; DECOYS: dashed nodes of class "dropped" hung off the kept choice by a dotted edge with a reason
    ('d2_lunch -.->|"not booked · closed that day"| x1', 'x1["🥪 Lunch?<br/>Y (Rockford location)"]:::dropped')."""
    r = ph.rng
    lr, grouped, shared = r.random() < 0.4, r.random() < 0.5, r.random() < 0.4
    meals, stays, sights = _decoys(plan, r)
    n, pairs, xs = len(plan), [], []
    I = '    '
    out = [r.choice(_MM_INTRO), '', '```mermaid', 'flowchart LR' if lr else 'flowchart TD',
           f"{I}%% {_get(task, 'org')} → {_get(task, 'dest')} · {n} days"]
    runs = _day_runs(plan)
    hid = {}
    for j, (a, b, acc) in enumerate(runs):
        for x in range(a, b + 1): hid[x] = f"h{j + 1}"
    for i, d in enumerate(plan):
        k, at = d['days'], _attractions(d['attraction'])
        chain, s = [], 0
        for t, kind, v in _with_leg(d):
            if kind == 'leg': chain.append((t, 'leg', f'd{k}_leg["{_mq(_mm_leg(v))}"]'))
            elif kind == 'sight':
                s += 1
                chain.append((t, f's{s}', f'd{k}_s{s}(["📍 {_mq(ph.venue(v))}"])'))
            else: chain.append((t, kind, f'd{k}_{kind}["{_MM_ICON[kind]}<br/>{_mq(ph.venue(v))}"]'))
        if d['accommodation'] != '-' and not shared: chain.append((1300, 'stay', f'd{k}_stay[("🛏️ Overnight<br/>{_mq(ph.venue(d["accommodation"]))}")]'))
        order = {'leg': 0, 'breakfast': 1, 'lunch': 2, 'dinner': 3, 'stay': 9}
        decl = sorted(chain, key=lambda x: (order.get(x[1], 5), x[0])) if grouped else chain
        title = f"Day {k} · {_fd(task, i, 'us')} · {_rt(d['current_city'])}"
        out.append(f'{I}subgraph D{k}["{_mq(title)}"]')
        out.append(f"{I}{I}direction {'TB' if lr else 'LR'}")
        out += [f"{I}{I}{x[2]}" for x in decl]
        out += [f"{I}{I}d{k}_{a[1]} --> d{k}_{b[1]}" for a, b in zip(chain, chain[1:])]
        out.append(f"{I}end")
        for (j, m), y in meals.items():
            if j == i:
                pairs.append((y, _nm(d[m])))
                xs.append((f'd{k}_{m}', r.choice(_MM_WHY['meal']), f'["{_MM_ICON[m]}?<br/>{_mq(ph.venue(_with_name(d[m], y)))}"]'))
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            xs.append((f'd{k}_s1', r.choice(_MM_WHY['sight']), f'(["📍 {_mq(ph.venue(sights[i][1]))}"])'))
        for (a, b), z in stays.items():
            if a == i:
                pairs.append((z, _nm(d['accommodation'])))
                xs.append((hid[i] if shared else f'd{k}_stay', r.choice(_MM_WHY['stay']), f'[("🛏️ {_mq(ph.venue(_with_name(d["accommodation"], z)))}")]'))
    if shared and runs:
        out.append(f'{I}subgraph H["🏨 Stays"]')
        for j, (a, b, acc) in enumerate(runs):
            out.append(f'{I}{I}h{j + 1}[("🛏️ {_mq(ph.venue(acc))}<br/>{_nights_tag(plan[a]["days"], plan[b]["days"])}")]')
        out.append(f"{I}end")
    out += [f"{I}D{a['days']} ==> D{b['days']}" for a, b in zip(plan, plan[1:])]
    if xs:
        out.append(f"{I}%% options we dropped")
        for j, (src, why, shape) in enumerate(xs):
            out += [f"{I}x{j + 1}{shape}:::dropped", f'{I}{src} -.->|"not booked · {why}"| x{j + 1}']
    out += [f"{I}classDef dropped stroke-dasharray: 5 5,color:#888", '```', '', r.choice(_MM_OUTRO)]
    return _log('\n'.join(out), pairs)

# trip_diary -----------------------------------------------------------------------------------------------------------
_TD_INTRO = ("Finally writing up our {org} → {dest} trip ({span}, {year}) while it's still fresh.",
             "Trip diary — {org} to {dest}, {span}, {year}. Notes from my phone, tidied up.")
_TD_OUTRO = ("Would go back in a heartbeat.", "Tired, happy, already planning the next one.", "")
_TD_MEAL = {'breakfast': ("Breakfast was at {v}.", "Started the day with breakfast at {v}."),
            'lunch': ("Lunch was at {v}.", "Had lunch at {v}."),
            'dinner': ("Dinner was at {v}.", "Ended the day with dinner at {v}.")}
_TD_SIGHTS = ("Saw {v}.", "Spent a few hours at {v}.", "Later we went to {v}.")
_TD_MEAL_WHY = ("closed", "packed — an hour's wait", "closed for a private event")
_TD_MEAL_DECOY = "We'd planned on {y} for {m}, but it was {why}, so we ended up at {v}."
_TD_STAY_WHY = ("double-booked", "the listing was cancelled", "no hot water")
_TD_STAY_DECOY = "Our booking at {z} fell through ({why}), so we checked in at {v} instead."
_TD_SIGHT_DECOY = "Never made it to {s} — ran out of time."
_TD_CHECKIN = ("Checked in at {v}.", "Our bed for the night: {v}.")
_TD_AGAIN = "Another night at {v}."
_TD_SKIP = "Skipped {m}."
_TD_HOME = ("Home late that night.", "Slept in our own beds that night.")


def _td_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"Our flight, {p['number']}, left {p['a']} at {p['dep']} and landed in {p['b']} at {p['arr']}."
    if p['mode'] == 'taxi': return f"Took a taxi from {p['a']} to {p['b']} ({p['duration']}, ${p['cost']})."
    return f"Drove ourselves from {p['a']} to {p['b']} — {p['duration']}, about ${p['cost']} in gas."


def trip_diary(plan, task, ph):
    """A traveller's DIARY written after the trip, in the PAST tense: an intro line, then per day "### Day 2 · Thursday,
    March 17 · Rockford" and ONE paragraph of sentences in the order the day went: the leg ("Our flight, F1, left A at
    15:40 and landed in B at 17:04." / "Drove ourselves from A to B — 3 hours 11 mins, about $120 in gas." / "Took a taxi
    ..."), meals ("Breakfast was at X.", "Had lunch at X.", "Ended the day with dinner at X."), the sights ("Saw A ➝ B.",
    "Spent a few hours at C."), the night ("Checked in at W." on a stay's first night, "Another night at W." after), an
    empty meal "Skipped lunch." or unsaid; names and placements inside the sentences, a period that ends a placement
    ('Rockford, Ill.') also ending the sentence. DECOYS in the same voice: plans that did not happen ("We'd planned on Y for
    lunch, but it was closed, so we ended up at X.", "Our booking at Z fell through (double-booked), so we checked in at W
    instead.", "Never made it to S — ran out of time.")."""
    r = ph.rng
    say_none, home = r.random() < 0.3, r.random() < 0.5
    meals, stays, sights = _decoys(plan, r)
    n, pairs = len(plan), []
    d0, d1 = _date(task, 0), _date(task, n - 1)
    out = [r.choice(_TD_INTRO).format(org=_get(task, 'org'), dest=_get(task, 'dest'), span=_span_text(d0, d1), year=d1.year)]
    runs = {a: (a, b, z) for (a, b), z in stays.items()}
    prev = None
    for i, d in enumerate(plan):
        k, at = d['days'], _attractions(d['attraction'])
        ss = []
        items = _with_leg(d)
        j = 0
        while j < len(items):
            t, kind, v = items[j]
            if kind == 'leg': ss.append(_td_leg(v))
            elif kind == 'sight':
                grp = [v]
                while j + 1 < len(items) and items[j + 1][1] == 'sight': j += 1; grp.append(items[j][2])
                ss.append(_end(r.choice(_TD_SIGHTS).format(v=ph.items(grp)).rstrip('.')))
            elif (i, kind) in meals:
                y = meals[(i, kind)]
                pairs.append((y, _nm(v)))
                ss.append(_end(_TD_MEAL_DECOY.format(y=y, m=kind, why=r.choice(_TD_MEAL_WHY), v=ph.venue(v))[:-1]))
            else: ss.append(_end(r.choice(_TD_MEAL[kind]).format(v=ph.venue(v))[:-1]))
            j += 1
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            ss.append(_TD_SIGHT_DECOY.format(s=ph.venue(sights[i][1])))
        if say_none:
            for m in _MEALS:
                if d[m] == '-': ss.append(_TD_SKIP.format(m=m))
        acc = d['accommodation']
        if acc != '-':
            if i in runs:
                pairs.append((runs[i][2], _nm(acc)))
                ss.append(_end(_TD_STAY_DECOY.format(z=runs[i][2], why=r.choice(_TD_STAY_WHY), v=ph.venue(acc))[:-1]))
            elif acc == prev: ss.append(_end(_TD_AGAIN.format(v=ph.venue(acc))[:-1]))
            else: ss.append(_end(r.choice(_TD_CHECKIN).format(v=ph.venue(acc))[:-1]))
        elif home and i == n - 1: ss.append(r.choice(_TD_HOME))
        prev = acc
        out += ['', f"### Day {k} · {_fd(task, i, 'long')} · {_rt(d['current_city'])}", '', ' '.join(ss)]
    if (o := r.choice(_TD_OUTRO)): out += ['', o]
    return _log('\n'.join(out), pairs)

# venue_index ----------------------------------------------------------------------------------------------------------
_VI_WHY = {'meal': ("closed that day", "no table for our time", "over the food budget"), 'stay': ("no rooms left", "over budget"),
           'sight': ("not enough time", "closed that week")}
_VI_INTRO = {'meal': "Here's the trip organised the way you asked — by meal, not by day:",
             'az': "Here's the trip as an A–Z of the places, each with the day (and meal) it's for — handy for booking:"}
_VI_HEAD = {'breakfast': '### 🍳 Breakfasts', 'lunch': '### 🥪 Lunches', 'dinner': '### 🍝 Dinners'}
_ORD = ('1st', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th')


def _vi_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈️ {p['number']}, {p['dep']} → {p['arr']}"
    return f"{_SL_ICON[p['mode']]} {'taxi' if p['mode'] == 'taxi' else 'self-drive'}, {p['duration']}, ${p['cost']}"


def _bold_name(ph, v: str) -> str:
    "The placed venue with its name in bold ('**X** (Rockford location)')."
    n = _nm(v)
    s = ph.venue(v)
    return f"**{n}**{s[len(n):]}"


def venue_index(plan, task, ph):
    """The trip organised by KIND, not by day: first "### 🧭 Days and travel" ("- **Day 1** (Wed 3/16): A → B · ✈️ F1, 15:40 →
    17:04", "- **Day 2** (Thu 3/17): Rockford"), then EITHER sections per meal type across the days ("### 🍳 Breakfasts" /
    "### 🥪 Lunches" / "### 🍝 Dinners", a line per day "- Day 2: X (Rockford location)" or "- Day 1: —"), "### 📍 Sights" ("-
    Day 2: A ➝ B") and "### 🛏️ Stays" ("- Nights 1–2: W") OR one A–Z index of every place, alphabetical, each with the slots
    it fills ("- **Coco Bambu** (Rockford location) — dinner · Day 1; lunch · Day 3", "- **Burpee Museum** ... — sight · Day 2,
    1st stop", "- **W** ... — stay · Nights 1–2"); DECOYS: a closing "### 📝 Shortlisted, not booked" list ("- Lunch, Day 2: Y —
    closed that day", "- Nights 1–2: Z — no rooms left", "- Sight, Day 3: S — not enough time"), or, in the A–Z index, the
    backups filed among the places ("- **Y** (Rockford location) — backup for lunch · Day 2 — not booked (closed that day)")."""
    r = ph.rng
    kind = r.choice(('meal', 'az'))
    meals, stays, sights = _decoys(plan, r)
    n, pairs = len(plan), []
    out = [_VI_INTRO[kind], '', '### 🧭 Days and travel']
    for i, d in enumerate(plan):
        out.append(f"- **Day {d['days']}** ({_fd(task, i, 'us')}): {_rt(d['current_city'])}" +
                   (f" · {_vi_leg(d['transportation'])}" if d['transportation'] != '-' else ''))
    runs = _day_runs(plan)
    short = []
    for (i, m), y in meals.items():
        pairs.append((y, _nm(plan[i][m])))
        short.append(((i, 0), f"{m.capitalize()}, Day {plan[i]['days']}", _with_name(plan[i][m], y), r.choice(_VI_WHY['meal']), f"backup for {m} · Day {plan[i]['days']}"))
    for (a, b), z in stays.items():
        pairs.append((z, _nm(plan[a]['accommodation'])))
        tag = _nights_tag(plan[a]['days'], plan[b]['days'])
        short.append(((a, 1), tag, _with_name(plan[a]['accommodation'], z), r.choice(_VI_WHY['stay']), f"backup stay · {tag}"))
    for i, (pos, s) in sights.items():
        pairs.append((_nm(s), _nm(_attractions(plan[i]['attraction'])[0])))
        short.append(((i, 2), f"Sight, Day {plan[i]['days']}", s, r.choice(_VI_WHY['sight']), f"optional sight · Day {plan[i]['days']}"))
    short.sort(key=lambda x: x[0])
    if kind == 'meal':
        for m in _MEALS:
            out += ['', _VI_HEAD[m]] + [f"- Day {d['days']}: " + (ph.venue(d[m]) if d[m] != '-' else '—') for d in plan]
        out += ['', '### 📍 Sights'] + [f"- Day {d['days']}: " + (ph.items(_attractions(d['attraction'])) or '—') for d in plan]
        out += ['', '### 🛏️ Stays'] + [f"- {_nights_tag(plan[a]['days'], plan[b]['days'])}: {ph.venue(acc)}" for a, b, acc in runs]
        if short: out += ['', '### 📝 Shortlisted, not booked'] + [f"- {lab}: {ph.venue(v)} — {why}" for _, lab, v, why, _ in short]
    else:
        slots = {}
        for d in plan:
            for m in _MEALS:
                if d[m] != '-': slots.setdefault(d[m], []).append(f"{m} · Day {d['days']}")
            for j, x in enumerate(_attractions(d['attraction'])): slots.setdefault(x, []).append(f"sight · Day {d['days']}, {_ORD[j]} stop")
        for a, b, acc in runs: slots.setdefault(acc, []).append(f"stay · {_nights_tag(plan[a]['days'], plan[b]['days'])}")
        entries = [(_nm(v).lower(), 0, f"- {_bold_name(ph, v)} — {'; '.join(ss)}") for v, ss in slots.items()]
        entries += [(_nm(v).lower(), 1, f"- {_bold_name(ph, v)} — {tag} — not booked ({why})") for _, _, v, why, tag in short]
        out += ['', '### 🔤 Places A–Z'] + [e for _, _, e in sorted(entries, key=lambda x: (x[0], x[1]))]
    return _log('\n'.join(out), pairs)

# no_hr_tl_fa_labels ---------------------------------------------------------------------------------------------------
_FA_DIGITS = str.maketrans('0123456789', '۰۱۲۳۴۵۶۷۸۹')
_FA_BACK = str.maketrans('۰۱۲۳۴۵۶۷۸۹', '0123456789')


def _fa(x) -> str: return str(x).translate(_FA_DIGITS)


def _slavic(n: int, one: str, few: str, many: str) -> str:
    "Croatian plural: 1, 21, 31 ... -> one; 2-4, 22-24 ... -> few; else many."
    return one if n % 10 == 1 and n % 100 != 11 else few if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else many


def _tl_time(t: str) -> str:
    "Tagalog clock: 12-hour, 'n.m.' (madaling-araw, 0-5), 'n.u.' (umaga), 'n.t.' (tanghali, 12), 'n.h.' (hapon), 'n.g.' (gabi)."
    h, m = int(t[:2]), int(t[3:])
    suf = 'n.m.' if h < 6 else 'n.u.' if h < 12 else 'n.t.' if h == 12 else 'n.h.' if h < 18 else 'n.g.'
    return f"{(h - 1) % 12 + 1}:{m:02d} {suf}"


def _tl_untime(s: str) -> str:
    m = re.fullmatch(r'(\d{1,2}):(\d\d) (n\.[mutgh]\.)', s)
    if not m: raise ValueError(f"time {s!r}")
    h = int(m[1]) % 12
    h += 12 if m[3] in ('n.t.', 'n.h.', 'n.g.') else 0
    out = f"{h:02d}:{m[2]}"
    if _tl_time(out) != s: raise ValueError(f"time {s!r}")
    return out


_LG15 = {
    'nb': dict(name='Norwegian', intro="Her er reiseplanen, dag for dag:", outro="God tur! Si fra om noe bør endres.",
               days='mandag tirsdag onsdag torsdag fredag lørdag søndag'.split(),
               months='januar februar mars april mai juni juli august september oktober november desember'.split(),
               date=lambda wd, d, mo, y: f"{wd} {d}. {mo} {y}", head="**Dag {k} – {date} – {route}**", route=('{a} → {b}', '{c}'),
               lab=('Reise', 'Frokost', 'Severdigheter', 'Lunsj', 'Middag', 'Overnatting', 'Severdighet'), none='ikke planlagt',
               time=lambda t: f"kl. {t[:2]}.{t[3:]}", untime=r'kl\. (\d\d)\.(\d\d)',
               flight="Fly {num}: {a} → {b}, avgang {dep}, ankomst {arr}", drive="Egen bil: {a} → {b}, ca. {dur}, {cost} USD",
               taxi="Taxi: {a} → {b}, ca. {dur}, {cost} USD",
               dur={'day': ('døgn', 'døgn'), 'hour': ('time', 'timer'), 'min': ('minutt', 'minutter')}, dur_join=' og ',
               join={', then over to ': ', deretter videre til ', ' followed by ': ' etterfulgt av '},
               note="_Vurdert, men ikke booket: {slot}: {v} ({why})_", nights=('natt', 'netter'),
               why={'meal': 'stengt den dagen', 'stay': 'ingen ledige rom', 'sight': 'ikke tid nok'}),
    'hr': dict(name='Croatian', intro="Evo plana puta, dan po dan:", outro="Sretan put! Javite ako nešto treba promijeniti.",
               days='ponedjeljak utorak srijeda četvrtak petak subota nedjelja'.split(),
               months='siječnja veljače ožujka travnja svibnja lipnja srpnja kolovoza rujna listopada studenoga prosinca'.split(),
               date=lambda wd, d, mo, y: f"{wd}, {d}. {mo} {y}.", head="**Dan {k} – {date} – {route}**", route=('{a} → {b}', '{c}'),
               lab=('Prijevoz', 'Doručak', 'Znamenitosti', 'Ručak', 'Večera', 'Smještaj', 'Znamenitost'), none='nema',
               time=lambda t: f"{int(t[:2])}.{t[3:]} h", untime=r'(\d{1,2})\.(\d\d) h',
               flight="Let {num}: {a} → {b}, polijetanje u {dep}, slijetanje u {arr}", drive="Vlastiti automobil: {a} → {b}, oko {dur}, {cost} USD",
               taxi="Taksi: {a} → {b}, oko {dur}, {cost} USD",
               dur={'day': ('dan', 'dana', 'dana'), 'hour': ('sat', 'sata', 'sati'), 'min': ('minuta', 'minute', 'minuta')}, dur_join=' i ',
               join={', then over to ': ', zatim do ', ' followed by ': ' pa onda '},
               note="_Razmotreno, ali nije rezervirano: {slot}: {v} ({why})_", nights=('noć', 'noći'),
               why={'meal': 'zatvoreno taj dan', 'stay': 'nema slobodnih soba', 'sight': 'nema dovoljno vremena'}),
    'tl': dict(name='Tagalog', intro="Narito ang plano ng biyahe, araw-araw:", outro="Ingat sa biyahe! Sabihan lang ako kung may babaguhin.",
               days='Lunes Martes Miyerkules Huwebes Biyernes Sabado Linggo'.split(),
               months='Enero Pebrero Marso Abril Mayo Hunyo Hulyo Agosto Setyembre Oktubre Nobyembre Disyembre'.split(),
               date=lambda wd, d, mo, y: f"{wd}, {mo} {d}, {y}", head="**Araw {k} – {date} – {route}**", route=('{a} → {b}', '{c}'),
               lab=('Biyahe', 'Almusal', 'Mga pasyalan', 'Tanghalian', 'Hapunan', 'Tutuluyan', 'Pasyalan'), none='wala',
               time=_tl_time, untime=None,
               flight="Lipad {num}: {a} → {b}, alis {dep}, dating {arr}", drive="Sariling sasakyan: {a} → {b}, mga {dur}, ${cost}",
               taxi="Taxi: {a} → {b}, mga {dur}, ${cost}",
               dur={'day': ('araw', 'araw'), 'hour': ('oras', 'oras'), 'min': ('minuto', 'minuto')}, dur_join=' at ',
               join={', then over to ': ', tapos papunta sa ', ' followed by ': ' at saka '},
               note="_Pinag-isipan pero hindi na-book: {slot}: {v} ({why})_", nights=('gabi', 'gabi'),
               why={'meal': 'sarado nang araw na iyon', 'stay': 'wala nang bakanteng kuwarto', 'sight': 'kulang sa oras'}),
    'fa': dict(name='Persian', intro="برنامهٔ سفر، روز به روز:", outro="سفر خوش! اگر چیزی باید عوض شود بگویید.",
               days='دوشنبه سه‌شنبه چهارشنبه پنجشنبه جمعه شنبه یکشنبه'.split(),
               months='ژانویه فوریه مارس آوریل مه ژوئن ژوئیه اوت سپتامبر اکتبر نوامبر دسامبر'.split(),
               date=lambda wd, d, mo, y: f"{wd} {_fa(d)} {mo} {_fa(y)}", head="**روز {k} – {date} – {route}**", route=('از {a} به {b}', '{c}'),
               lab=('حمل‌ونقل', 'صبحانه', 'جاهای دیدنی', 'ناهار', 'شام', 'اقامت', 'جای دیدنی'), none='ندارد',
               time=lambda t: _fa(t), untime=r'([۰-۹]{2}):([۰-۹]{2})',
               flight="پرواز {num}: از {a} به {b}، حرکت {dep}، رسیدن {arr}", drive="خودروی شخصی: از {a} به {b}، حدود {dur}، {cost} دلار",
               taxi="تاکسی: از {a} به {b}، حدود {dur}، {cost} دلار",
               dur={'day': ('روز', 'روز'), 'hour': ('ساعت', 'ساعت'), 'min': ('دقیقه', 'دقیقه')}, dur_join=' و ',
               join={', then over to ': '، سپس به ', ' followed by ': ' و بعد '},
               note="_بررسی شد ولی رزرو نشد: {slot}: {v} ({why})_", nights=('شب', 'شب‌های'),
               why={'meal': 'آن روز تعطیل است', 'stay': 'اتاق خالی ندارد', 'sight': 'وقت کافی نیست'}),
}


def _lg_num(lg, x) -> str: return _fa(x) if lg == 'fa' else str(x)


def _lg_dur(lg, s: str) -> str:
    L = _LG15[lg]
    parts = []
    for n, u in _dur_key(s):
        forms = L['dur'][u]
        w = _slavic(n, *forms) if len(forms) == 3 else forms[0] if n == 1 else forms[1]
        parts.append(f"{_lg_num(lg, n)} {w}")
    return L['dur_join'].join(parts)


def _lg_date(lg, task, i) -> str:
    d = _date(task, i)
    L = _LG15[lg]
    return L['date'](L['days'][d.weekday()], d.day, L['months'][d.month - 1], d.year)


def _lg_route(lg, cc) -> str:
    L = _LG15[lg]
    if cc.startswith('from ') and ' to ' in cc:
        a, _, b = cc[5:].partition(' to ')
        return L['route'][0].format(a=a, b=b)
    return L['route'][1].format(c=cc)


def _lg_leg(lg, t) -> str:
    L, p = _LG15[lg], _leg_parts(t)
    if p['mode'] == 'flight': return L['flight'].format(num=p['number'], a=p['a'], b=p['b'], dep=L['time'](p['dep']), arr=L['time'](p['arr']))
    return L[p['mode']].format(a=p['a'], b=p['b'], dur=_lg_dur(lg, p['duration']), cost=_lg_num(lg, p['cost']))


def _lg_join(lg, ph) -> str: return _LG15[lg]['join'].get(ph.join, ph.join)


def no_hr_tl_fa_labels(plan, task, ph):
    """The answer in Norwegian (Bokmål), Croatian, Tagalog or Persian (drawn): per day a bold head "**Dag 2 – torsdag 17. mars
    2022 – Rockford**", "**Dan 2 – četvrtak, 17. ožujka 2022. – ...**", "**Araw 2 – Huwebes, Marso 17, 2022 – ...**", "**روز ۲ –
    پنجشنبه ۱۷ مارس ۲۰۲۲ – ...**" (Persian digits; a travel day "از A به B"), then "- " lines with localized labels: Reise /
    Frokost (Norwegian 'Frokost' is BREAKFAST, unlike Danish) / Severdigheter / Lunsj / Middag (= dinner) / Overnatting,
    Prijevoz / Doručak / Znamenitosti / Ručak / Večera / Smještaj, Biyahe / Almusal / Mga pasyalan / Tanghalian / Hapunan /
    Tutuluyan, حمل‌ونقل / صبحانه / جاهای دیدنی / ناهار / شام / اقامت; EITHER label lines (the sights joined in the drawn join,
    translated) OR a timed list ("- kl. 08.00 · Frokost: X", "- 9:30 n.u. · Pasyalan: A", one line per sight under the
    singular label); legs translated with local times ("Fly F1: A → B, avgang kl. 15.40, ankomst kl. 17.04", "Let F1: ...,
    polijetanje u 15.40 h, ...", "Lipad F1: ..., alis 3:40 n.h., dating 5:04 n.h." (the Tagalog 12-hour clock), "پرواز F1: از A به
    B، حرکت ۱۵:۴۰، رسیدن ۱۷:۰۴"), durations with Croatian plurals ("3 sata i 11 minuta") and Persian digits; the placement's
    words translated ('X (lokasjon: City)', 'X tamo u City', 'X doon sa City', 'X، City' with the Persian comma); an empty
    meal 'ikke planlagt' / 'nema' / 'wala' / 'ندارد' or left out; DECOYS: italic notes "_Vurdert, men ikke booket: Lunsj: Y
    (stengt den dagen)_" (and "Overnatting, netter 1–2: Z", "Severdighet: S") under the day."""
    r = ph.rng
    lg, timed, say_none = r.choice(tuple(_LG15)), r.random() < 0.5, r.random() < 0.35
    L = _LG15[lg]
    meals, stays, sights = _decoys(plan, r)
    n, pairs = len(plan), []
    V = lambda v: _venue(ph, v, lg)
    out = [L['intro']]
    lab = dict(zip(('leg', 'breakfast', 'sights', 'lunch', 'dinner', 'stay', 'sight'), L['lab']))
    for i, d in enumerate(plan):
        k, at = d['days'], _attractions(d['attraction'])
        out += ['', L['head'].format(k=_lg_num(lg, k), date=_lg_date(lg, task, i), route=_lg_route(lg, d['current_city']))]
        if d['transportation'] != '-': out.append(f"- {lab['leg']}: {_lg_leg(lg, d['transportation'])}")
        if timed:
            for t, kind, v in _timed(d):
                out.append(f"- {L['time'](f'{t // 60:02d}:{t % 60:02d}')} · {lab[kind]}: {V(v)}")
            if say_none: out += [f"- {lab[m]}: {L['none']}" for m in _MEALS if d[m] == '-']
        else:
            for m in _MEALS:
                if d[m] != '-': out.append(f"- {lab[m]}: {V(d[m])}")
                elif say_none: out.append(f"- {lab[m]}: {L['none']}")
                if m == 'breakfast' and at: out.append(f"- {lab['sights']}: {_lg_join(lg, ph).join(V(x) for x in at)}")
        if d['accommodation'] != '-': out.append(f"- {lab['stay']}: {V(d['accommodation'])}")
        elif say_none: out.append(f"- {lab['stay']}: {L['none']}")
        for (j, m), y in meals.items():
            if j == i:
                pairs.append((y, _nm(d[m])))
                out.append(L['note'].format(slot=lab[m], v=V(_with_name(d[m], y)), why=L['why']['meal']))
        for (a, b), z in stays.items():
            if a == i:
                pairs.append((z, _nm(d['accommodation'])))
                nt = f"{L['nights'][0]} {_lg_num(lg, a + 1)}" if a == b else f"{L['nights'][1]} {_lg_num(lg, a + 1)}–{_lg_num(lg, b + 1)}"
                out.append(L['note'].format(slot=f"{lab['stay']}{'، ' if lg == 'fa' else ', '}{nt}", v=V(_with_name(d['accommodation'], z)), why=L['why']['stay']))
        if i in sights:
            pairs.append((_nm(sights[i][1]), _nm(at[0])))
            out.append(L['note'].format(slot=lab['sight'], v=V(sights[i][1]), why=L['why']['sight']))
    return _log('\n'.join(out + ['', L['outro']]), pairs)

# self_correcting ------------------------------------------------------------------------------------------------------
_SC_INTRO = ("Sure! Here's the plan — I'm checking availability as I write, so bear with a couple of fixes along the way.",
             "Okay, let me lay it out day by day (I'll correct anything that doesn't check out as I go).")
_SC_WHY = {'meal': ("closed that day", "fully booked", "over the food budget"), 'stay': "has no rooms left those nights",
           'sight': ("not enough time", "closed that week")}
_SC_LATE = ("One more fix before you book:", "Last corrections, then it's final:")
_SC_OUTRO = ("That's the final plan — everything above with the corrections applied.", "With those fixes, it's ready to book.")


def self_correcting(plan, task, ph):
    """A streamed answer that CORRECTS ITSELF as it goes, as chat models do when they check while writing: per day "**Day 2
    — Thu, Mar 17 — Rockford**" and a numbered list ("1. Flight F1 A → B, 15:40 → 17:04", "2. Lunch ➤ X" in the drawn meal
    label and placement, "3. Sights: A ➝ B", "4. Overnight: W"), in which some items are taken back in the same line ("2.
    Lunch ➤ Y (Rockford location) … wait, Y is closed that day — scratch that. Lunch ➤ X (Rockford location)", "3. Sights: A ➝
    S ➝ B … actually, drop S — not enough time. Sights: A ➝ B", "4. Overnight: Z … wait, Z has no rooms left those nights —
    scratch that. Overnight: W"), and some only AT THE END, after the days ("One more fix before you book:", "- Day 2 lunch:
    make it X, not Y — over the food budget.", "- Nights 1–2: stay at W instead of Z — Z has no rooms left those nights."):
    the days then still name the first pick; the plan is the days with the corrections applied. The first picks are the
    DECOYS; an empty meal "No lunch planned" or left out."""
    r = ph.rng
    say_none = r.random() < 0.3
    meals, stays, sights = _decoys(plan, r, (1, 2, 2))
    n, pairs, late = len(plan), [], []
    mform = {key: r.choice(('inline', 'late')) for key in meals}
    sform = {key: r.choice(('inline', 'late')) for key in stays}
    shown = [dict(d) for d in plan]                          # what the days say (a late-corrected slot shows its first pick)
    for (i, m), y in meals.items():
        pairs.append((y, _nm(plan[i][m])))
        if mform[(i, m)] == 'late':
            shown[i][m] = _with_name(plan[i][m], y)
            late.append(((i, 0, m), f"- Day {plan[i]['days']} {m}: make it {_nm(plan[i][m])}, not {y} — {r.choice(_SC_WHY['meal'])}."))
    for (a, b), z in stays.items():
        w = plan[a]['accommodation']
        pairs.append((z, _nm(w)))
        if sform[(a, b)] == 'late':
            for x in range(a, b + 1): shown[x]['accommodation'] = _with_name(w, z)
            late.append(((a, 1, ''), f"- {_nights_tag(plan[a]['days'], plan[b]['days'])}: stay at {_nm(w)} instead of {z} — {z} {_SC_WHY['stay']}."))
    out = [r.choice(_SC_INTRO)]
    for i, d in enumerate(plan):
        g, k, at = shown[i], d['days'], _attractions(d['attraction'])
        items = []
        if d['transportation'] != '-': items.append(_leg_en(d['transportation']))
        for m in _MEALS:
            if g[m] != '-':
                s = ph.meal(m.capitalize(), g[m])
                if mform.get((i, m)) == 'inline':
                    y = meals[(i, m)]
                    s = f"{ph.meal(m.capitalize(), _with_name(d[m], y))} … wait, {y} is {r.choice(_SC_WHY['meal'])} — scratch that. {s}"
                items.append(s)
            elif say_none: items.append(f"No {m} planned")
            if m == 'breakfast' and at:
                s = f"Sights: {ph.items(at)}"
                if i in sights:
                    pos, x = sights[i]
                    pairs.append((_nm(x), _nm(at[0])))
                    s = f"Sights: {ph.items(at[:pos] + [x] + at[pos:])} … actually, drop {_nm(x)} — {r.choice(_SC_WHY['sight'])}. {s}"
                items.append(s)
        acc = g['accommodation']
        if acc != '-':
            s = f"Overnight: {ph.venue(acc)}"
            run = next(((a, b) for (a, b) in stays if a == i and sform[(a, b)] == 'inline'), None)
            if run: s = f"Overnight: {ph.venue(_with_name(acc, stays[run]))} … wait, {stays[run]} {_SC_WHY['stay']} — scratch that. {s}"
            items.append(s)
        elif say_none: items.append("No hotel — heading home" if i == n - 1 else "No hotel booked")
        out += ['', f"**Day {k} — {_fd(task, i, 'mon')} — {_rt(d['current_city'])}**"] + [f"{j}. {x}" for j, x in enumerate(items, 1)]
    if late: out += ['', r.choice(_SC_LATE)] + [x for _, x in sorted(late)]
    return _log('\n'.join(out + ['', r.choice(_SC_OUTRO)]), pairs)


# sms_terse ------------------------------------------------------------------------------------------------------------
_SM_FRIENDS = ('Jess', 'Mom', 'Kai', 'Dev', 'Nora')
_SM_ABBR = {'breakfast': 'bfast', 'lunch': 'lunch', 'dinner': 'din'}
_SM_PICK = ("{x}!!", "{x} pls", "ooh {x}", "{x} obvs")
_SM_WHY = {'stay': ("no rooms left", "it was $$$"), 'sight': ("no time", "closed that wk")}
_SM_TAP = ('Liked', 'Loved', 'Laughed at', 'Emphasized')


def _t12(t: str) -> str:
    "'15:40' as texted: '3:40p' (12-hour, a / p)."
    h, m = int(t[:2]), int(t[3:])
    return f"{(h - 1) % 12 + 1}:{m:02d}{'a' if h < 12 else 'p'}"


def _un_t12(s: str) -> str:
    m = re.fullmatch(r'(\d{1,2}):(\d\d)([ap])', s)
    if not m or not 1 <= int(m[1]) <= 12: raise ValueError(f"time {s!r}")
    return f"{int(m[1]) % 12 + (12 if m[3] == 'p' else 0):02d}:{m[2]}"


def _dur_compact(s: str) -> str: return ''.join(f"{n}{u[0]}" for n, u in _dur_key(s)).replace('h', 'h').replace('m', 'm')


def _un_dur_compact(s: str) -> tuple:
    if not re.fullmatch(r'(?:\d+d)?(?:\d+h)?(?:\d+m)?', s) or not s: raise ValueError(f"duration {s!r}")
    return tuple((int(n), {'d': 'day', 'h': 'hour', 'm': 'min'}[u]) for n, u in re.findall(r'(\d+)([dhm])', s))


def _sm_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"flt {p['number']} {p['a']}->{p['b']} {_t12(p['dep'])}-{_t12(p['arr'])}"
    return f"{'taxi' if p['mode'] == 'taxi' else 'driving'} {p['a']}->{p['b']}, ~{_dur_compact(p['duration'])} (${p['cost']})"


def sms_terse(plan, task, ph):
    """The plan TEXTED to a friend or family member, SMS / iMessage style (as an export or a screenshot transcript): a
    date-time line ("Thu, Mar 10 · 8:12 PM"), then short bubbles "Me: ..." / "Jess: ..." with abbreviations and lowercase
    words around verbatim names: "Me: d2 thu 3/17: Rockford" (a travel day "St. Petersburg->Rockford"), "Me: flt F1
    A->B 3:40p-5:04p" (12-hour 'a' / 'p'), "Me: driving A->B, ~3h11m ($120)", "Me: bfast X", "Me: see A ➝ B", "Me: lunch X",
    "Me: din X", "Me: sleep @ W (2 nts)" on a stay's first night, then "Me: same hotel"; the friend's tapbacks quoting a
    bubble ('Jess: Loved “din X”'); DECOYS: a choice put to the friend and settled in the replies ("Me: lunch Y or X?",
    "Jess: X!!", "Me: ok X it is 👍"), a stay given up ("Me: was gonna do Z but no rooms left so sleep @ W (2 nts)"), a
    sight skipped ("Me: skipping S, no time"); an empty meal "Me: no lunch planned" or unsaid."""
    r = ph.rng
    F = r.choice(_SM_FRIENDS)
    say_none = r.random() < 0.3
    meals, stays, sights = _decoys(plan, r)
    n, pairs = len(plan), []
    d0 = _date(task, 0) - datetime.timedelta(days=r.choice((4, 6, 11)))
    t0 = r.choice((1212, 1265, 1318))
    out = [f"{d0:%a, %b} {d0.day} · {_clock12(t0)}", f"Me: ok {str(_get(task, 'dest'))} plan 🧵 ({n} days)"]
    runs = {a: (a, b, acc) for a, b, acc in _day_runs(plan)}
    stay_of = {x: acc for a, b, acc in _day_runs(plan) for x in range(a, b + 1)}

    def me(s):
        out.append(f"Me: {s}")
        if r.random() < 0.12: out.append(f"{F}: {r.choice(_SM_TAP)} “{s}”")
    for i, d in enumerate(plan):
        k, at = d['days'], _attractions(d['attraction'])
        dd = _date(task, i)
        cc = d['current_city']
        route = cc[5:].replace(' to ', '->', 1) if cc.startswith('from ') and ' to ' in cc else cc
        me(f"d{k} {dd:%a}".lower() + f" {dd.month}/{dd.day}: {route}")
        if d['transportation'] != '-': me(_sm_leg(d['transportation']))
        for m in _MEALS:
            if d[m] != '-':
                if (i, m) in meals:
                    y, x = meals[(i, m)], _nm(d[m])
                    pairs.append((y, x))
                    opts = [ph.venue(_with_name(d[m], y)), ph.venue(d[m])]
                    r.shuffle(opts)
                    me(f"{_SM_ABBR[m]} {opts[0]} or {opts[1]}?")
                    out.append(f"{F}: " + r.choice(_SM_PICK).format(x=x))
                    me(f"ok {x} it is 👍")
                else: me(f"{_SM_ABBR[m]} {ph.venue(d[m])}")
            elif say_none: me(f"no {_SM_ABBR[m]} planned")
            if m == 'breakfast' and at:
                me(f"see {ph.items(at)}")
                if i in sights:
                    s = _nm(sights[i][1])
                    pairs.append((s, _nm(at[0])))
                    me(f"skipping {s}, {r.choice(_SM_WHY['sight'])}")
        if i in runs:
            a, b, acc = runs[i]
            nts = f"({b - a + 1} nt{'s' * (b > a)})"
            if (a, b) in stays:
                z = stays[(a, b)]
                pairs.append((z, _nm(acc)))
                me(f"was gonna do {z} but {r.choice(_SM_WHY['stay'])} so sleep @ {ph.venue(acc)} {nts}")
            else: me(f"sleep @ {ph.venue(acc)} {nts}")
        elif i in stay_of: me("same hotel")
        elif i == n - 1 and say_none: me("home that night")
    out += [f"{F}: 😍😍 cant wait", "Me: ❤️"]
    return _log('\n'.join(out), pairs)


HELDOUT15_LAYOUTS = {f.__name__: f for f in (slack_thread, confluence_wiki, mermaid_flowchart, trip_diary, venue_index,
                                              no_hr_tl_fa_labels, self_correcting, sms_terse)}
"""Held-out part v15 (layouts and `HELDOUT15_PHRASES`, rendered with `Phr15`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr15(HELDOUT15_PHRASES, random.Random(f"heldout15:{name}:{t.idx}:{j}"), p)


def renderings15(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout15:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT15_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser below, written for the layout (not a general reader): each rendering is read back into
# the plan's own values — the route as current_city ('from A to B' | 'A'), the leg as its parts (flight number, cities,
# times; or mode, cities, duration, cost), each meal and the stay as 'Name, City' or '-', the sights as ['Name, City',
# ...] — and compared with the plan EXACTLY (`_cmp` of layouts_v8). Decoys (thread replies and polls, struck items and
# the panel, dropped nodes, plans that fell through, the shortlist and backups, notes, first picks taken back, choices
# put to a friend) are resolved as the text says, and checked against what it states elsewhere.


def _meal_check(days, k, m, y, x, errs, where=''):
    "A decoy `y` against the kept choice `x` (bare names) of day k's meal m: x is the day's meal, y another name."
    g = _day_of(days, k)
    if g is None or g[m] in ('-', None) or _nm(g[m]) != x or y == x: errs.append(f"{where}decoy {y!r} / {x!r} for day {k} {m}")


def _stay_check(days, a, b, z, w, errs, where=''):
    "A stay decoy `z` against the kept stay `w` (bare names) for the nights a..b: the run a..b is w's, exactly."
    ok = all(_day_of(days, x) and days[x - 1]['accommodation'] not in ('-', None) and _nm(days[x - 1]['accommodation']) == w for x in range(a, b + 1))
    acc = days[a - 1]['accommodation'] if ok else None
    if not ok or z == w or any(_day_of(days, x) and days[x - 1]['accommodation'] == acc for x in (a - 1, b + 1)):
        errs.append(f"{where}stay decoy {z!r} / {w!r} for nights {a}–{b}")


def _sight_check(days, k, s, errs, where=''):
    "A sight decoy `s` (bare name) of day k: not among the day's sights, and the day has sights."
    g = _day_of(days, k)
    if g is None or not g['attraction'] or s in [_nm(x) for x in g['attraction']]: errs.append(f"{where}sight decoy {s!r} on day {k}")


# slack_thread ---------------------------------------------------------------------------------------------------------
_SL_HDR = {'slack': re.compile(r'(?P<a>[A-Z]\w+ [A-Z]\w+)  (?P<t>\d{1,2}:\d\d [AP]M)'),
           'discord': re.compile(r'(?P<a>[\w.]+) — (?P<d>\d\d/\d\d/\d{4}) (?P<t>\d{1,2}:\d\d [AP]M)')}
_SL_BOT = {'slack': re.compile(r'Polly  APP  \d{1,2}:\d\d [AP]M'), 'discord': re.compile(r'Poll Bot  BOT — \d\d/\d\d/\d{4} \d{1,2}:\d\d [AP]M')}
_SL_REACT_RE = {p: re.compile(f"(?:{_alt(e)} [1-4])(?:  {_alt(e)} [1-4])?") for p, e in _SL_REACT.items()}
_SL_FL = re.compile(r'✈️ Flight (\S+) (.+?) → (.+) · dep (\d\d:\d\d) · arr (\d\d:\d\d)')
_SL_RD = re.compile(r'(🚗|🚕) (Self-drive|Taxi) (.+?) → (.+) · (.+?) · \$(\d+)')
_SL_R = {'suggest': re.compile(r'could we do (?P<y>.+) for (?P<m>breakfast|lunch|dinner) on day (?P<k>\d+) instead\? 😋'),
         'keep': re.compile(r'(?P<y>.+) is ' + _alt(_SL_WHY['meal']) + r' — keeping (?P<x>.+)'),
         'edit': re.compile(r'edited: switched (?P<m>breakfast|lunch|dinner) from (?P<y>.+) to (?P<x>.+) \(' + _alt(_SL_WHY['meal']) + r'\)'),
         'stay': re.compile(r'what about (?P<z>.+) for (?P<t>nights? \d+(?:–\d+)?)\? looked cheaper'),
         'stay2': re.compile(r'(?P<z>.+) ' + re.escape(_SL_WHY['stay']) + r' — staying at (?P<w>.+)'),
         'sight': re.compile(r'can we squeeze in (?P<s>.+) on day (?P<k>\d+)\?'),
         'sight2': re.compile(re.escape(_SL_WHY['sight']) + r' — skipping (?P<s>.+) this trip'),
         'poll': re.compile(r'(?P<e>1️⃣|2️⃣) (?P<o>.+) — (?P<v>\d) votes?(?P<w> ✅)?')}


def _read_sl(text, task, plan, ph):
    errs, n = [], len(plan)
    blocks = text.split('\n\n')
    top = blocks[0].split('\n')
    plat = 'slack' if top[0].endswith(' members') else 'discord'
    B = '• ' if plat == 'slack' else '- '
    mk = '*' if plat == 'slack' else '**'
    dest = str(_get(task, 'dest'))
    chan = re.sub(r'[^a-z0-9]+', '-', dest.lower()).strip('-') + '-trip'
    if plat == 'slack':
        if not re.fullmatch(re.escape(f"#{chan}  ·  ") + r'[23] members', top[0]) or len(top) != 2 or \
                not re.fullmatch(r'──────── \w+, \w+ \d+ ────────', top[1]): errs.append('channel head')
    elif top != [f"#{chan} — {_get(task, 'org')} → {dest}"]: errs.append('channel head')
    ix = _dix(task, n, 'mon')
    days, saids, stays, checks, organizer, last_day, any_none = [], [], [], [], None, 0, False
    msgs = blocks[1:]
    for bi, blk in enumerate(msgs):
        ls = blk.split('\n')
        if _SL_BOT[plat].fullmatch(ls[0]):                  # a poll, after the day it is about
            q = re.fullmatch(re.escape(mk + 'Poll · ') + r'(breakfast|lunch|dinner) on Day (\d+)\?' + re.escape(mk) + r' \(closed\)', ls[1]) if len(ls) > 1 else None
            if not q or int(q[2]) != last_day or len(ls) != 4: errs.append(f"poll {ls[1:2]!r}"); continue
            opts = [_SL_R['poll'].fullmatch(x) for x in ls[2:]]
            if not all(opts) or [o['e'] for o in opts] != ['1️⃣', '2️⃣']: errs.append('poll options'); continue
            win = [o for o in opts if o['w']]
            if len(win) != 1 or int(win[0]['v']) <= max(int(o['v']) for o in opts if not o['w']): errs.append('poll winner'); continue
            lose = next(o for o in opts if not o['w'])
            checks.append(('meal', int(q[2]), q[1], lose['o'], win[0]['o'], 'poll: '))
            continue
        h = _SL_HDR[plat].fullmatch(ls[0])
        if not h: errs.append(f"message head {ls[0]!r}"); continue
        body, reacts, thread, replies = [], None, None, []
        for x in ls[1:]:
            if x.startswith('    ↳ '):
                if (rh := _SL_HDR[plat].fullmatch(x[6:])) is None or thread is None: errs.append(f"reply head {x!r}"); continue
                replies.append((rh['a'], []))
            elif x.startswith('      '):
                if not replies: errs.append(f"reply line {x!r}"); continue
                replies[-1][1].append(x[6:])
            elif (q := re.fullmatch(r'💬 (\d+) repl(?:y|ies)' if plat == 'slack' else r'🧵 (\d+) messages', x)):
                if thread is not None: errs.append('two threads')
                thread = int(q[1])
                if plat == 'slack' and (thread == 1) != x.endswith('reply'): errs.append(f"thread count {x!r}")
            elif _SL_REACT_RE[plat].fullmatch(x):
                if reacts is not None or thread is not None: errs.append(f"reactions {x!r}")
                reacts = x
            else:
                if reacts is not None or thread is not None: errs.append(f"body line after the reactions {x!r}")
                body.append(x)
        if thread is not None and thread != len(replies): errs.append(f"thread of {thread} with {len(replies)} replies")
        if any(len(b) != 1 for _, b in replies): errs.append('reply of several lines')
        if bi == 0:
            organizer = h['a']
            if body not in [[t.format(org=_get(task, 'org'), dest=dest)] for t in _SL_INTRO] or replies: errs.append('intro')
            continue
        if bi == len(msgs) - 1 and body and body[0] in _SL_BYE:
            if h['a'] == organizer or len(body) != 1 or replies or reacts: errs.append('closing message')
            continue
        hd = re.fullmatch(re.escape(mk + 'Day ') + r'(\d+) · (.+?) · (.+?)' + re.escape(mk), body[0]) if body else None
        if not hd or h['a'] != organizer: errs.append(f"message {body[:1]!r}"); continue
        k = int(hd[1])
        if k != len(days) + 1 or ix.get(hd[2]) != len(days): errs.append(f"day head {body[0]!r}")
        last_day = k
        g = _blank(_back(hd[3]))
        days.append(g); saids.append([]); stays.append(0)
        edited = body[-1].endswith(' (edited)')
        if edited: body[-1] = body[-1][:-len(' (edited)')]
        pre = f"day {k}: "
        for x in body[1:]:
            if not x.startswith(B): errs.append(f"{pre}line {x!r}"); continue
            x = x[len(B):]
            if stays[-1]: errs.append(f"{pre}{x!r} after the stay")
            if x.startswith('✈️ '):
                if not (q := _SL_FL.fullmatch(x)): errs.append(f"{pre}flight {x!r}"); continue
                _put(g, 'leg', _flight(*q.groups()), errs, pre)
            elif x.startswith(('🚗 ', '🚕 ')):
                if not (q := _SL_RD.fullmatch(x)) or (q[1] == '🚕') != (q[2] == 'Taxi'): errs.append(f"{pre}road {x!r}"); continue
                _put(g, 'leg', _road_key('taxi' if q[2] == 'Taxi' else 'drive', *q.groups()[2:]), errs, pre)
            elif x.startswith('📍 '):
                if g['attraction'] or set(saids[-1]) - {'breakfast'} or 'breakfast' not in saids[-1] and g['breakfast'] != '-': errs.append(f"{pre}sights placed")
                g['attraction'] = _unitems(ph, x[2:])
            elif x.startswith('🛏️ '):
                stays[-1] += 1
                v = x[3:]
                if v in ('— (home)', '— (none)'):
                    if (v == '— (home)') != (k == n): errs.append(f"{pre}stay {v!r}")
                else: _put(g, 'accommodation', _unvenue(ph, v), errs, pre)
            elif (q := re.fullmatch(r'\(no (breakfast|lunch|dinner) planned\)', x)): _said(saids[-1], q[1], errs, pre); any_none = True
            elif (mm := _unmeal(ph, x)):
                m, v = mm
                if saids[-1] and _MEALS.index(saids[-1][-1]) >= _MEALS.index(m): errs.append(f"{pre}meals out of order")
                _said(saids[-1], m, errs, pre)
                _put(g, m, _unvenue(ph, v), errs, pre)
            else: errs.append(f"{pre}line {x!r}")
        j, had_edit = 0, False
        while j < len(replies):
            (a1, (t1,)), nxt = replies[j], replies[j + 1] if j + 1 < len(replies) else None
            t2 = nxt[1][0] if nxt else ''
            if (q := _SL_R['edit'].fullmatch(t1)) and a1 == organizer:
                checks.append(('meal', k, q['m'], q['y'], q['x'], 'edit: ')); had_edit = True; j += 1; continue
            if nxt is None or a1 == organizer or nxt[0] != organizer: errs.append(f"{pre}reply {t1!r}"); j += 1; continue
            if (q := _SL_R['suggest'].fullmatch(t1)) and (q2 := _SL_R['keep'].fullmatch(t2)) and q2['y'] == q['y'] and int(q['k']) == k:
                checks.append(('meal', k, q['m'], q['y'], q2['x'], 'thread: '))
            elif (q := _SL_R['stay'].fullmatch(t1)) and (q2 := _SL_R['stay2'].fullmatch(t2)) and q2['z'] == q['z']:
                a, b = _untag(q['t'])
                if a != k: errs.append(f"{pre}stay reply for {q['t']}")
                checks.append(('stay', a, b, q['z'], q2['w'], 'thread: '))
            elif (q := _SL_R['sight'].fullmatch(t1)) and (q2 := _SL_R['sight2'].fullmatch(t2)) and q2['s'] == q['s'] and int(q['k']) == k:
                checks.append(('sight', k, q['s'], 'thread: '))
            else: errs.append(f"{pre}replies {t1!r} / {t2!r}")
            j += 2
        if had_edit != edited: errs.append(f"{pre}(edited) without its explanation, or the other way round")
    if any(s != 1 for s in stays[:-1]) or (stays and stays[-1] > 1): errs.append(f"stays stated {stays}")
    if any_none: _all_said(saids, errs)
    _run_checks(days, checks, errs)
    return days, errs


def _run_checks(days, checks, errs):
    for c in checks:
        if c[0] == 'meal': _meal_check(days, c[1], c[2], c[3], c[4], errs, c[5])
        elif c[0] == 'stay': _stay_check(days, c[1], c[2], c[3], c[4], errs, c[5])
        else: _sight_check(days, c[1], c[2], errs, c[3])

# confluence_wiki ------------------------------------------------------------------------------------------------------
_CW_FL = re.compile(r'(?P<num>\S+) · (?P<a>.+?) → (?P<b>.+)')
_CW_RD = re.compile(r'(?P<a>.+?) → (?P<b>.+) · (?P<dur>.+?) · \$(?P<cost>\d+)')
_CW_CHANGED, _CW_DROPPED = ' {status:colour=Yellow|title=CHANGED}', ' {status:colour=Grey|title=1 DROPPED}'


def _w_cells(row: str) -> list[str]:
    "A wiki table row split at its cell bars: not an escaped '\\|', nor a '|' inside a macro's braces ('{status:...|...}')."
    out, cur, depth, j = [], '', 0, 0
    while j < len(row):
        c = row[j]
        if c == '\\': cur += row[j:j + 2]; j += 2; continue
        if c == '{': depth += 1
        elif c == '}': depth -= 1
        if c == '|' and depth == 0: out.append(cur); cur = ''
        else: cur += c
        j += 1
    return out + [cur]


def _w_strike(s: str):
    "(struck text, the rest) of wiki text that opens with '-text-' (the closing '-' the first unescaped one before a space or the end), else (None, s)."
    if not s.startswith('-'): return None, s
    j = 1
    while j < len(s):
        if s[j] == '\\': j += 2; continue
        if s[j] == '-' and (j + 1 == len(s) or s[j + 1] == ' '): return s[1:j], s[j + 2:]
        j += 1
    raise ValueError(f"unclosed strikethrough {s!r}")


def _cw_venue(ph, s: str) -> str: return _unvenue(ph, _wunesc(s))


def _read_cw(text, task, plan, ph):
    errs, lines, n = [], text.split('\n'), len(plan)
    d0, d1 = _date(task, 0), _date(task, n - 1)
    if lines[0] != f"h1. {_get(task, 'org')} → {_get(task, 'dest')} · {_span_text(d0, d1)}, {d1.year}": errs.append('h1')
    info = re.fullmatch(r'\{info\}Final itinerary, agreed on \w+ \d+\.( Struck-through items were dropped\.)?\{info\}', lines[1])
    if not info: errs.append('info')
    j = 3 if lines[2] == '{toc:maxLevel=2}' else 2
    ix = _dix(task, n, 'ukyear')
    days, saids, stays, checks, struck, any_none = [], [], [], [], 0, False
    sec, table = None, None
    for ln in lines[j:]:
        if ln == '': sec = None; continue
        if (h := re.fullmatch(r'h2\. Day (\d+) — (.+?) — (.+)', ln)):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h[3]))); saids.append([]); stays.append(0); sec, table = 'day', None
            continue
        if ln == 'h2. Considered, not booked': sec = 'h2panel'; continue
        if sec == 'h2panel':
            if ln != '{panel:title=Considered, not booked|borderStyle=dashed}': errs.append('panel head')
            sec = 'panel'; continue
        if sec == 'panel':
            if ln == '{panel}': sec = 'done'; continue
            if (q := re.fullmatch(r'\* Day (\d+) (breakfast|lunch|dinner): (.+) — ' + _alt(_CW_WHY['meal']), ln)):
                y = _cw_venue(ph, q[3]); g = _day_of(days, int(q[1]))
                if g and g[q[2]] not in ('-', None) and _name_city(g[q[2]])[1] != _name_city(y)[1]: errs.append(f"panel city {ln!r}")
                checks.append(('meal', int(q[1]), q[2], _nm(y), _nm(g[q[2]]) if g and g[q[2]] not in ('-', None) else None, 'panel: '))
            elif (q := re.fullmatch(r'\* (Nights? \d+(?:–\d+)?): (.+) — ' + _alt(_CW_WHY['stay']), ln)):
                a, b = _untag(q[1]); z = _cw_venue(ph, q[2]); g = _day_of(days, a)
                checks.append(('stay', a, b, _nm(z), _nm(g['accommodation']) if g and g['accommodation'] not in ('-', None) else None, 'panel: '))
            elif (q := re.fullmatch(r'\* Day (\d+) sight: (.+) — ' + _alt(_CW_WHY['sight']), ln)):
                checks.append(('sight', int(q[1]), _nm(_cw_venue(ph, q[2])), 'panel: '))
            else: errs.append(f"panel line {ln!r}")
            continue
        if sec != 'day' or not days: errs.append(f"line {ln!r}"); continue
        g, k = days[-1], len(days)
        pre = f"day {k}: "
        if ln == '||Time||Item||Details||':
            if table is not None: errs.append(f"{pre}two tables")
            table = []; continue
        if table is not None:
            cells = _w_cells(ln)
            if len(cells) != 5 or cells[0] or cells[-1]: errs.append(f"{pre}row {ln!r}"); continue
            tm, item, det = cells[1:4]
            if stays[-1]: errs.append(f"{pre}row after the night")
            if item == 'Flight':
                q, t = _CW_FL.fullmatch(_wunesc(det)), re.fullmatch(r'(\d\d:\d\d)–(\d\d:\d\d)', tm)
                if not q or not t: errs.append(f"{pre}flight {ln!r}"); continue
                _put(g, 'leg', _flight(q['num'], q['a'], q['b'], t[1], t[2]), errs, pre)
            elif item in ('Self-drive', 'Taxi'):
                q = _CW_RD.fullmatch(_wunesc(det))
                if not q or tm != '07:30': errs.append(f"{pre}road {ln!r}"); continue
                _put(g, 'leg', _road_key('taxi' if item == 'Taxi' else 'drive', q['a'], q['b'], q['dur'], q['cost']), errs, pre)
            elif item in ('Breakfast', 'Lunch', 'Dinner'):
                m = item.lower()
                _said(saids[-1], m, errs, pre)
                if det == '_on your own_':
                    any_none = True
                    if tm != '—': errs.append(f"{pre}{ln!r}")
                    continue
                if tm != _CW_TIMES[m]: errs.append(f"{pre}{m} at {tm}")
                y, rest = _w_strike(det)
                if y is not None:
                    struck += 1
                    if not rest.endswith(_CW_CHANGED): errs.append(f"{pre}changed without its status")
                    rest = rest[:-len(_CW_CHANGED)]
                    checks.append(('meal', k, m, _nm(_cw_venue(ph, y)), None, 'struck: '))
                    if _name_city(_cw_venue(ph, y))[1] != _name_city(_cw_venue(ph, rest))[1]: errs.append(f"{pre}struck city")
                elif rest.endswith(_CW_CHANGED): errs.append(f"{pre}status without a change")
                _put(g, m, _cw_venue(ph, rest), errs, pre)
            elif item == 'Sight':
                if any(m in saids[-1] for m in ('dinner',)) and g['dinner'] != '-': errs.append(f"{pre}sight after dinner")
                g['attraction'].append(_cw_venue(ph, det))
            elif item == '-Sight-':
                y, rest = _w_strike(det)
                if tm != '—' or rest or y is None: errs.append(f"{pre}struck row {ln!r}")
                struck += 1
                checks.append(('sight', k, _nm(_cw_venue(ph, y)), 'struck: '))
            elif item == 'Overnight':
                stays[-1] += 1
                if det in ('_none — heading home_', '_none_'):
                    if (det == '_none — heading home_') != (k == n) or tm != '—': errs.append(f"{pre}night {ln!r}")
                else:
                    if tm != '21:00': errs.append(f"{pre}night at {tm}")
                    _put(g, 'accommodation', _cw_venue(ph, det), errs, pre)
            else: errs.append(f"{pre}row {ln!r}")
            continue
        if stays[-1]: errs.append(f"{pre}{ln!r} after the stay")
        if ln.startswith('* *Travel:* '):
            x = ln[len('* *Travel:* '):]
            if (q := re.fullmatch(r'Flight · (.+) · (\d\d:\d\d)–(\d\d:\d\d)', x)) and (f := _CW_FL.fullmatch(_wunesc(q[1]))):
                _put(g, 'leg', _flight(f['num'], f['a'], f['b'], q[2], q[3]), errs, pre)
            elif (q := re.fullmatch(r'(Self-drive|Taxi) · (.+)', x)) and (f := _CW_RD.fullmatch(_wunesc(q[2]))):
                _put(g, 'leg', _road_key('taxi' if q[1] == 'Taxi' else 'drive', f['a'], f['b'], f['dur'], f['cost']), errs, pre)
            else: errs.append(f"{pre}travel {x!r}")
        elif ln.startswith('* *Sights:* '):
            x = ln[len('* *Sights:* '):]
            if g['attraction'] or set(saids[-1]) != {'breakfast'} and (saids[-1] or g['breakfast'] != '-'): errs.append(f"{pre}sights placed")
            dropped = x.endswith(_CW_DROPPED)
            if dropped: x = x[:-len(_CW_DROPPED)]
            xs = x.split(ph.join)
            gone = [s for s in xs if s.startswith('-')]
            if len(gone) != dropped: errs.append(f"{pre}struck sights {gone} / status")
            for s in gone:
                y, rest = _w_strike(s)
                if rest: errs.append(f"{pre}struck sight {s!r}")
                struck += 1
                checks.append(('sight', k, _nm(_cw_venue(ph, y)), 'struck: '))
            g['attraction'] = [_cw_venue(ph, s) for s in xs if not s.startswith('-')]
        elif ln.startswith('* *Stay:* '):
            x = ln[len('* *Stay:* '):]
            stays[-1] += 1
            if x in ('_none — heading home_', '_none_'):
                if (x == '_none — heading home_') != (k == n): errs.append(f"{pre}stay {x!r}")
            else: _put(g, 'accommodation', _cw_venue(ph, x), errs, pre)
        elif (q := re.fullmatch(r'\* (Breakfast|Lunch|Dinner): _on your own_', ln)):
            _said(saids[-1], q[1].lower(), errs, pre); any_none = True
        elif ln.startswith('* ') and (mm := _unmeal(ph, ln[2:])):
            m, x = mm
            if saids[-1] and _MEALS.index(saids[-1][-1]) >= _MEALS.index(m): errs.append(f"{pre}meals out of order")
            _said(saids[-1], m, errs, pre)
            y, rest = _w_strike(x)
            if y is not None:
                struck += 1
                if not rest.endswith(_CW_CHANGED): errs.append(f"{pre}changed without its status")
                rest = rest[:-len(_CW_CHANGED)]
                checks.append(('meal', k, m, _nm(_cw_venue(ph, y)), None, 'struck: '))
                if _name_city(_cw_venue(ph, y))[1] != _name_city(_cw_venue(ph, rest))[1]: errs.append(f"{pre}struck city")
            elif rest.endswith(_CW_CHANGED): errs.append(f"{pre}status without a change")
            _put(g, m, _cw_venue(ph, rest), errs, pre)
        else: errs.append(f"{pre}line {ln!r}")
    if sec not in (None, 'done', 'day'): errs.append('unclosed panel')
    if info and bool(info[1]) != bool(struck): errs.append('the info line and the struck items')
    if any(s > 1 for s in stays) or any(s == 0 for s in stays[:-1]): errs.append(f"stays stated {stays}")
    if any_none: _all_said(saids, errs)
    for c in checks:                                   # a struck meal stands against the day's kept meal
        if c[0] == 'meal' and c[4] is None:
            g = _day_of(days, c[1])
            c_x = _nm(g[c[2]]) if g and g[c[2]] not in ('-', None) else None
            _meal_check(days, c[1], c[2], c[3], c_x, errs, c[5])
        elif c[0] in ('meal', 'stay', 'sight'): _run_checks(days, [c], errs)
    return days, errs

# mermaid_flowchart ----------------------------------------------------------------------------------------------------
_MM_NODE = re.compile(r'(?P<id>\w+)(?P<o>\[\(|\(\[|\[)"(?P<l>[^"]*)"(?P<c>\)\]|\]\)|\])(?P<cls>:::dropped)?')
_MM_EDGE = re.compile(r'(?P<a>\w+) (?:(?P<e>-->|==>)|-\.->\|"not booked · (?P<why>[^"]+)"\|) (?P<b>\w+)')
_MM_SHAPE = {'[': ']', '([': '])', '[(': ')]'}
_MM_KIND = {v: k for k, v in _MM_ICON.items()}


def _mm_unq(s: str) -> str: return s.replace('#quot;', '"')


def _mm_unleg(label: str):
    xs = label.split('<br/>')
    if len(xs) != 3: raise ValueError(f"leg {label!r}")
    a, _, b = xs[1].partition(' → ')
    if (q := re.fullmatch(r'✈️ Flight (\S+)', xs[0])):
        t = re.fullmatch(r'(\d\d:\d\d) → (\d\d:\d\d)', xs[2])
        return _flight(q[1], a, b, t[1], t[2])
    q, t = re.fullmatch(r'(🚗 Self-drive|🚕 Taxi)', xs[0]), re.fullmatch(r'(.+) · \$(\d+)', xs[2])
    return _road_key('taxi' if 'Taxi' in q[1] else 'drive', a, b, t[1], t[2])


def _read_mm(text, task, plan, ph):
    errs, lines, n = [], text.split('\n'), len(plan)
    if lines[0] not in _MM_INTRO or lines[1:3] != ['', '```mermaid'] or lines[-3:-1] != ['```', ''] or lines[-1] not in _MM_OUTRO:
        errs.append('frame')
    body = lines[3:-3]
    if body[0] not in ('flowchart TD', 'flowchart LR') or body[1] != f"    %% {_get(task, 'org')} → {_get(task, 'dest')} · {n} days":
        errs.append('chart head')
    lr = body[0] == 'flowchart LR'
    ix = _dix(task, n, 'us')
    nodes, where, edges, chains, sub, days, dropped_at = {}, {}, [], [], None, [], None
    for j, ln in enumerate(body[2:]):
        x = ln.strip()
        ind = len(ln) - len(x)
        if x == '%% options we dropped': dropped_at = j; continue
        if (q := re.fullmatch(r'subgraph (\w+)\["(.+)"\]', x)):
            if sub is not None or ind != 4: errs.append(f"subgraph {x!r}")
            sub = q[1]
            if sub == 'H':
                if q[2] != '🏨 Stays': errs.append('stays subgraph')
            elif (h := re.fullmatch(r'Day (\d+) · (.+?) · (.+)', _mm_unq(q[2]))) and sub == f"D{h[1]}" and int(h[1]) == len(days) + 1 and ix.get(h[2]) == len(days):
                days.append(_blank(_back(h[3]))); chains.append([])
            else: errs.append(f"subgraph {x!r}")
            continue
        if x == 'end':
            if sub is None: errs.append('end')
            sub = None; continue
        if x.startswith('direction '):
            if sub is None or sub == 'H' or x != f"direction {'TB' if lr else 'LR'}": errs.append(f"{x!r}")
            continue
        if x == 'classDef dropped stroke-dasharray: 5 5,color:#888': continue
        if (q := _MM_NODE.fullmatch(x)):
            if _MM_SHAPE[q['o']] != q['c'] or q['id'] in nodes: errs.append(f"node {x!r}")
            if bool(q['cls']) != (dropped_at is not None and sub is None): errs.append(f"node {x!r} placed")
            nodes[q['id']] = (q['o'], _mm_unq(q['l']), bool(q['cls']))
            where[q['id']] = sub
            continue
        if (q := _MM_EDGE.fullmatch(x)):
            edges.append((q['a'], q['e'] or 'dropped', q['b'], q['why'], sub)); continue
        errs.append(f"line {x!r}")
    dnodes = {k: [i for i, s in where.items() if s == f"D{k + 1}"] for k in range(len(days))}
    for k, g in enumerate(days):
        pre = f"day {k + 1}: "
        ids = dnodes[k]
        nxt = {}
        for a, e, b, _, s in edges:
            if e == '-->':
                if s != f"D{k + 1}" and (a in ids or b in ids): errs.append(f"{pre}edge {a} --> {b} outside the day")
                if a in ids:
                    if b not in ids or a in nxt: errs.append(f"{pre}edge {a} --> {b}")
                    nxt[a] = b
        starts = [i for i in ids if i not in nxt.values()]
        if len(starts) != 1: errs.append(f"{pre}{len(starts)} starts"); continue
        seq, cur = [], starts[0]
        while cur is not None and len(seq) <= len(ids):
            seq.append(cur); cur = nxt.get(cur)
        if sorted(seq) != sorted(ids): errs.append(f"{pre}the chain does not cover the day")
        saids = []
        for i in seq:
            o, lab, _ = nodes[i]
            if g['accommodation'] != '-': errs.append(f"{pre}{i} after the night")
            if o == '(["' or o == '([':
                if not lab.startswith('📍 '): errs.append(f"{pre}sight {lab!r}")
                g['attraction'].append(_unvenue(ph, lab[2:]))
            elif o == '[(':
                if not lab.startswith('🛏️ Overnight<br/>'): errs.append(f"{pre}stay {lab!r}")
                g['accommodation'] = _unvenue(ph, lab[len('🛏️ Overnight<br/>'):])
            elif lab.startswith(('✈️ ', '🚗 ', '🚕 ')): _put(g, 'leg', _mm_unleg(lab), errs, pre)
            elif (m := _MM_KIND.get(lab.split('<br/>')[0])) and lab.count('<br/>') == 1:
                if saids and _MEALS.index(saids[-1]) >= _MEALS.index(m): errs.append(f"{pre}meals out of order")
                _said(saids, m, errs, pre)
                _put(g, m, _unvenue(ph, lab.split('<br/>')[1]), errs, pre)
            else: errs.append(f"{pre}node {lab!r}")
    hs = [i for i, s in where.items() if s == 'H']
    if hs and any(g['accommodation'] != '-' for g in days): errs.append('stays in the days and in their own box')
    for i in hs:
        o, lab, _ = nodes[i]
        q = re.fullmatch(r'🛏️ (.+)<br/>(Nights? \d+(?:–\d+)?)', lab)
        if o != '[(' or not q: errs.append(f"stay node {lab!r}"); continue
        a, b = _untag(q[2])
        for x in range(a, b + 1):
            g = _day_of(days, x)
            if g is None: errs.append(f"stay {lab!r}: day {x}"); continue
            _put(g, 'accommodation', _unvenue(ph, q[1]), errs, f"day {x}: ")
        for x in (a - 1, b + 1):
            g = _day_of(days, x)
            if g is not None and g['accommodation'] == _unvenue(ph, q[1]): errs.append(f"stay {lab!r} split")
    links = [(a, b) for a, e, b, _, s in edges if e == '==>']
    if links != [(f"D{k}", f"D{k + 1}") for k in range(1, len(days))] or any(s is not None for a, e, b, _, s in edges if e == '==>'):
        errs.append(f"day links {links}")
    dropped = {i for i, v in nodes.items() if v[2]}
    seen = set()
    for a, e, b, why, s in edges:
        if e != 'dropped': continue
        if b not in dropped or b in seen or a not in nodes or nodes[a][2] or s is not None: errs.append(f"dropped edge {a} -> {b}"); continue
        seen.add(b)
        src, dst = nodes[a], nodes[b]
        sday = int(m[1]) if (m := re.fullmatch(r'D(\d+)', where[a] or '')) else None
        if src[0] == '[(' and dst[0] == '[(' and why in _MM_WHY['stay']:
            q = re.fullmatch(r'🛏️ (.+)', dst[1])
            z = _nm(_unvenue(ph, q[1]))
            if where[a] == 'H':
                a1, b1 = _untag(re.fullmatch(r'🛏️ (.+)<br/>(Nights? \d+(?:–\d+)?)', src[1])[2])
            else:
                a1 = sday
                w = days[a1 - 1]['accommodation']
                b1 = a1
                while _day_of(days, b1 + 1) and days[b1]['accommodation'] == w: b1 += 1
                if _day_of(days, a1 - 1) and days[a1 - 2]['accommodation'] == w: errs.append(f"stay decoy {z!r} not on the first night")
            _stay_check(days, a1, b1, z, _nm(days[a1 - 1]['accommodation']) if _day_of(days, a1) and days[a1 - 1]['accommodation'] != '-' else None, errs, 'dropped: ')
        elif src[0] == '([' and dst[0] == '([' and why in _MM_WHY['sight'] and sday:
            _sight_check(days, sday, _nm(_unvenue(ph, dst[1][2:])), errs, 'dropped: ')
        elif src[0] == '[' and dst[0] == '[' and why in _MM_WHY['meal'] and sday and (m := _MM_KIND.get(src[1].split('<br/>')[0])):
            q = re.fullmatch(re.escape(_MM_ICON[m]) + r'\?<br/>(.+)', dst[1])
            y = _unvenue(ph, q[1])
            g = days[sday - 1]
            if _name_city(y)[1] != _name_city(g[m])[1]: errs.append(f"dropped {m} city")
            _meal_check(days, sday, m, _nm(y), _nm(g[m]) if g[m] != '-' else None, errs, 'dropped: ')
        else: errs.append(f"dropped edge {a} -> {b}")
    if seen != dropped: errs.append('a dropped node without its edge')
    return days, errs

# trip_diary -----------------------------------------------------------------------------------------------------------
def _td_templates():
    "[(kind, regex)] of the diary's sentences (a venue as (?P<v>.+): the sentence's end decides where it stops)."
    V = r'(?P<v>.+)'
    T = [('leg_f', re.compile(r'Our flight, (?P<num>\S+), left (?P<a>.+?) at (?P<dep>\d\d:\d\d) and landed in (?P<b>.+?) at (?P<arr>\d\d:\d\d)\.')),
         ('leg_t', re.compile(r'Took a taxi from (?P<a>.+?) to (?P<b>.+?) \((?P<dur>[^,()]+), \$(?P<cost>\d+)\)\.')),
         ('leg_d', re.compile(r'Drove ourselves from (?P<a>.+?) to (?P<b>.+?) — (?P<dur>[^,]+), about \$(?P<cost>\d+) in gas\.')),
         ('meal_decoy', re.compile(re.escape("We'd planned on ") + r'(?P<y>.+?) for (?P<m>breakfast|lunch|dinner), but it was ' + _alt(_TD_MEAL_WHY) +
                                   ', so we ended up at ' + V + r'\.')),
         ('stay_decoy', re.compile(r'Our booking at (?P<z>.+?) fell through \(' + _alt(_TD_STAY_WHY) + r'\), so we checked in at ' + V + r' instead\.')),
         ('sight_decoy', re.compile(r'Never made it to (?P<v>.+) — ran out of time\.')),
         ('again', re.compile(r'Another night at ' + V + r'\.')),
         ('skip', re.compile(r'Skipped (?P<m>breakfast|lunch|dinner)\.')),
         ('home', re.compile(_alt(_TD_HOME)))]
    T += [(f"meal_{m}", re.compile(re.escape(t[:t.index('{v}')]) + V + r'\.')) for m, ts in _TD_MEAL.items() for t in ts]
    T += [('sights', re.compile(re.escape(t[:t.index('{v}')]) + V + r'\.')) for t in _TD_SIGHTS]
    T += [('checkin', re.compile(re.escape(t[:t.index('{v}')]) + V + r'\.')) for t in _TD_CHECKIN]
    return T


_TD_T = _td_templates()
_TD_STARTS = tuple(sorted({re.sub(r'\\(.)', r'\1', rx.pattern.split('(')[0])[:12] for _, rx in _TD_T if rx.pattern.split('(')[0]} | set(_TD_HOME)))


def _td_sentences(par: str):
    "[(kind, match)] covering the paragraph, sentence by sentence (a sentence ends at '.' before a known sentence start or the end)."
    ends = [j + 1 for j, c in enumerate(par) if c == '.' and (j + 1 == len(par) or par[j + 1] == ' ' and par.startswith(_TD_STARTS, j + 2))]
    memo = {}

    def go(p):
        if p == len(par) + 1 or p == len(par): return []
        if p in memo: return memo[p]
        memo[p] = None
        for e in ends:
            if e <= p: continue
            for kind, rx in _TD_T:
                if (m := rx.fullmatch(par, p, e)) and (rest := go(e + 1)) is not None:
                    memo[p] = [(kind, m)] + rest
                    return memo[p]
        return None
    out = go(0)
    if out is None: raise ValueError(f"paragraph does not parse: {par[:80]!r}")
    return out


def _read_td(text, task, plan, ph):
    errs, n = [], len(plan)
    paras = text.split('\n\n')
    d0, d1 = _date(task, 0), _date(task, n - 1)
    if paras[0] not in [t.format(org=_get(task, 'org'), dest=_get(task, 'dest'), span=_span_text(d0, d1), year=d1.year) for t in _TD_INTRO]:
        errs.append('intro')
    ix = _dix(task, n, 'long')
    days, checks, saids, any_none = [], [], [], False
    body = paras[1:]
    if body and body[-1] in _TD_OUTRO: body = body[:-1]
    if len(body) % 2: errs.append('days and paragraphs')
    for hd, par in zip(body[::2], body[1::2]):
        h = re.fullmatch(r'### Day (\d+) · (.+?) · (.+)', hd)
        if not h or int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {hd!r}"); continue
        k = int(h[1])
        g = _blank(_back(h[3]))
        days.append(g); saids.append([])
        pre = f"day {k}: "
        stay_said, leg_at, sights_done = 0, None, False
        for kind, m in _td_sentences(par):
            if stay_said and kind not in ('sight_decoy', 'skip', 'home'): errs.append(f"{pre}{kind} after the night")
            if kind.startswith('leg_'):
                if kind == 'leg_f': _put(g, 'leg', _flight(m['num'], m['a'], m['b'], m['dep'], m['arr']), errs, pre)
                else: _put(g, 'leg', _road_key('taxi' if kind == 'leg_t' else 'drive', m['a'], m['b'], m['dur'], m['cost']), errs, pre)
            elif kind.startswith('meal_') or kind == 'meal_decoy':
                mm = m['m'] if kind == 'meal_decoy' else kind[5:]
                if saids[-1] and _MEALS.index(saids[-1][-1]) >= _MEALS.index(mm): errs.append(f"{pre}meals out of order")
                _said(saids[-1], mm, errs, pre)
                _put(g, mm, _unvenue_end(ph, m['v']), errs, pre)
                if kind == 'meal_decoy': checks.append(('meal', k, mm, m['y'], _nm(g[mm]), 'planned: '))
            elif kind == 'sights':
                if sights_done: errs.append(f"{pre}sights after the sight decoy")
                xs = m['v'].split(ph.join)
                g['attraction'] += [_unvenue(ph, x) for x in xs[:-1]] + [_unvenue_end(ph, xs[-1])]
            elif kind == 'sight_decoy':
                sights_done = True
                checks.append(('sight', k, _nm(_unvenue(ph, m['v'])), 'never made it: '))
            elif kind == 'skip':
                if g[m['m']] != '-': errs.append(f"{pre}skipped {m['m']}")
                _said(saids[-1], m['m'], errs, pre); any_none = True
            elif kind in ('checkin', 'again', 'stay_decoy'):
                stay_said += 1
                v = _unvenue_end(ph, m['v']) if kind != 'stay_decoy' else _unvenue(ph, m['v'])
                _put(g, 'accommodation', v, errs, pre)
                prev = days[-2]['accommodation'] if len(days) > 1 else '-'
                if (kind == 'again') != (prev == v): errs.append(f"{pre}{kind} after {prev!r}")
                if kind == 'stay_decoy': checks.append(('stay_first', k, m['z'], _nm(v)))
            elif kind == 'home':
                if k != n: errs.append(f"{pre}home before the last day")
                stay_said += 1
        if stay_said > 1: errs.append(f"{pre}{stay_said} nights")
    if any_none: _all_said(saids, errs)
    for c in checks:
        if c[0] == 'stay_first':
            k, z, w = c[1:]
            b = k
            while _day_of(days, b + 1) and days[b]['accommodation'] == days[k - 1]['accommodation']: b += 1
            _stay_check(days, k, b, z, w, errs, 'fell through: ')
        else: _run_checks(days, [c], errs)
    return days, errs

# venue_index ----------------------------------------------------------------------------------------------------------
_VI_SLOT = r'(?:(?:breakfast|lunch|dinner) · Day \d+|sight · Day \d+, \d+(?:st|nd|rd|th) stop|stay · Nights? \d+(?:–\d+)?)'
_VI_ENTRY = re.compile(r'- \*\*(?P<n>.+?)\*\*(?P<rest>.*?) — (?P<slots>' + _VI_SLOT + r'(?:; ' + _VI_SLOT + r')*)')
_VI_BACKUP = re.compile(r'- \*\*(?P<n>.+?)\*\*(?P<rest>.*?) — (?P<tag>backup for (?:breakfast|lunch|dinner) · Day \d+|backup stay · Nights? \d+(?:–\d+)?|'
                        r'optional sight · Day \d+) — not booked \((?P<why>' + '|'.join(map(re.escape, sum(_VI_WHY.values(), ()))) + r')\)')
_VI_SHORT = re.compile(r'- (?P<lab>(?:Breakfast|Lunch|Dinner|Sight), Day \d+|Nights? \d+(?:–\d+)?): (?P<v>.+) — (?P<why>' +
                       '|'.join(map(re.escape, sum(_VI_WHY.values(), ()))) + ')')


def _vi_unleg(s: str, cc: str):
    a, b = (cc[5:].split(' to ', 1) if cc.startswith('from ') else (cc, cc))
    if (q := re.fullmatch(r'✈️ (\S+), (\d\d:\d\d) → (\d\d:\d\d)', s)): return _flight(q[1], a, b, q[2], q[3])
    if (q := re.fullmatch(r'(🚗 self-drive|🚕 taxi), (.+), \$(\d+)', s)): return _road_key('taxi' if 'taxi' in q[1] else 'drive', a, b, q[2], q[3])
    raise ValueError(f"leg {s!r}")


def _vi_decoy(days, kind, k_or_nights, name, errs, city=None):
    if kind in _MEALS:
        g = _day_of(days, k_or_nights)
        x = _nm(g[kind]) if g and g[kind] not in ('-', None) else None
        if g and x and city is not None and _name_city(g[kind])[1] != city: errs.append(f"shortlist city of {name!r}")
        _meal_check(days, k_or_nights, kind, name, x, errs, 'shortlist: ')
    elif kind == 'stay':
        a, b = k_or_nights
        g = _day_of(days, a)
        _stay_check(days, a, b, name, _nm(g['accommodation']) if g and g['accommodation'] not in ('-', None) else None, errs, 'shortlist: ')
    else: _sight_check(days, k_or_nights, name, errs, 'shortlist: ')


def _read_vi(text, task, plan, ph):
    errs, lines, n = [], text.split('\n'), len(plan)
    kind = next((k for k, v in _VI_INTRO.items() if lines[0] == v), None)
    if kind is None or lines[1:3] != ['', '### 🧭 Days and travel']: raise ValueError('intro')
    ix = _dix(task, n, 'us')
    days, j = [], 3
    while j < len(lines) and lines[j]:
        q = re.fullmatch(r'- \*\*Day (\d+)\*\* \((.+?)\): (.+?)(?: · (.+))?', lines[j])
        if not q or int(q[1]) != len(days) + 1 or ix.get(q[2]) != len(days): errs.append(f"day line {lines[j]!r}"); j += 1; continue
        g = _blank(_back(q[3]))
        if q[4]: g['leg'] = _vi_unleg(q[4], g['current_city'])
        days.append(g); j += 1
    secs, cur = {}, None
    for ln in lines[j:]:
        if ln == '': cur = None; continue
        if ln.startswith('### '):
            if ln in secs or cur is not None: errs.append(f"section {ln!r}")
            cur = ln; secs[ln] = []; continue
        if cur is None: errs.append(f"line {ln!r}"); continue
        secs[cur].append(ln)
    decoys = []
    if kind == 'meal':
        want = [_VI_HEAD[m] for m in _MEALS] + ['### 📍 Sights', '### 🛏️ Stays']
        if list(secs)[:5] != want or list(secs)[5:] not in ([], ['### 📝 Shortlisted, not booked']): errs.append(f"sections {list(secs)}")
        for m in _MEALS:
            ls = secs.get(_VI_HEAD[m], [])
            if len(ls) != n: errs.append(f"{m}: {len(ls)} lines")
            for k, ln in enumerate(ls, 1):
                q = re.fullmatch(r'- Day (\d+): (.+)', ln)
                if not q or int(q[1]) != k or not _day_of(days, k): errs.append(f"{m} line {ln!r}"); continue
                if q[2] != '—': days[k - 1][m] = _unvenue(ph, q[2])
        ls = secs.get('### 📍 Sights', [])
        if len(ls) != n: errs.append(f"sights: {len(ls)} lines")
        for k, ln in enumerate(ls, 1):
            q = re.fullmatch(r'- Day (\d+): (.+)', ln)
            if not q or int(q[1]) != k or not _day_of(days, k): errs.append(f"sights line {ln!r}"); continue
            if q[2] != '—': days[k - 1]['attraction'] = _unitems(ph, q[2])
        last = 0
        for ln in secs.get('### 🛏️ Stays', []):
            q = re.fullmatch(r'- (Nights? \d+(?:–\d+)?): (.+)', ln)
            if not q: errs.append(f"stay line {ln!r}"); continue
            a, b = _untag(q[1])
            if a <= last: errs.append(f"stays out of order")
            last = b
            for x in range(a, b + 1):
                if not _day_of(days, x): errs.append(f"stay night {x}"); continue
                _put(days[x - 1], 'accommodation', _unvenue(ph, q[2]), errs, f"day {x}: ")
        for ln in secs.get('### 📝 Shortlisted, not booked', []):
            q = _VI_SHORT.fullmatch(ln)
            if not q: errs.append(f"shortlist line {ln!r}"); continue
            v = _unvenue(ph, q['v'])
            if (t := re.fullmatch(r'(Breakfast|Lunch|Dinner|Sight), Day (\d+)', q['lab'])):
                kk = t[1].lower()
                if q['why'] not in _VI_WHY['meal' if kk != 'sight' else 'sight']: errs.append(f"why {ln!r}")
                decoys.append((kk, int(t[2]), _nm(v), _name_city(v)[1]))
            else:
                if q['why'] not in _VI_WHY['stay']: errs.append(f"why {ln!r}")
                decoys.append(('stay', _untag(q['lab']), _nm(v), None))
    else:
        if list(secs) != ['### 🔤 Places A–Z']: errs.append(f"sections {list(secs)}")
        keys, sights = [], {}
        for ln in secs.get('### 🔤 Places A–Z', []):
            if (q := _VI_BACKUP.fullmatch(ln)):
                v = _unvenue(ph, q['n'] + q['rest'])
                if _nm(v) != q['n']: errs.append(f"bold name {ln!r}")
                keys.append((q['n'].lower(), 1))
                t = q['tag']
                if (u := re.fullmatch(r'backup for (breakfast|lunch|dinner) · Day (\d+)', t)):
                    if q['why'] not in _VI_WHY['meal']: errs.append(f"why {ln!r}")
                    decoys.append((u[1], int(u[2]), q['n'], _name_city(v)[1]))
                elif (u := re.fullmatch(r'backup stay · (Nights? \d+(?:–\d+)?)', t)):
                    if q['why'] not in _VI_WHY['stay']: errs.append(f"why {ln!r}")
                    decoys.append(('stay', _untag(u[1]), q['n'], None))
                else:
                    if q['why'] not in _VI_WHY['sight']: errs.append(f"why {ln!r}")
                    decoys.append(('sight', int(re.search(r'\d+', t)[0]), q['n'], None))
                continue
            q = _VI_ENTRY.fullmatch(ln)
            if not q: errs.append(f"entry {ln!r}"); continue
            v = _unvenue(ph, q['n'] + q['rest'])
            if _nm(v) != q['n']: errs.append(f"bold name {ln!r}")
            keys.append((q['n'].lower(), 0))
            for sl in q['slots'].split('; '):
                if (u := re.fullmatch(r'(breakfast|lunch|dinner) · Day (\d+)', sl)):
                    g = _day_of(days, int(u[2]))
                    if g is None: errs.append(f"slot {sl!r}"); continue
                    _put(g, u[1], v, errs, f"day {u[2]}: ")
                elif (u := re.fullmatch(r'sight · Day (\d+), (\d+)(?:st|nd|rd|th) stop', sl)):
                    k, o = int(u[1]), int(u[2])
                    if _ORD[o - 1] != sl.rsplit(', ', 1)[1][:-5] or (k, o) in sights: errs.append(f"slot {sl!r}")
                    sights[(k, o)] = v
                else:
                    a, b = _untag(sl[len('stay · '):])
                    for x in range(a, b + 1):
                        if not _day_of(days, x): errs.append(f"stay night {x}"); continue
                        _put(days[x - 1], 'accommodation', v, errs, f"day {x}: ")
                    for x in (a - 1, b + 1):
                        if _day_of(days, x) and days[x - 1]['accommodation'] == v: errs.append(f"stay {sl!r} split")
        if keys != sorted(keys): errs.append('the index is not in A–Z order')
        for (k, o), v in sorted(sights.items()):
            g = _day_of(days, k)
            if g is None or len(g['attraction']) != o - 1: errs.append(f"sight {k}/{o}"); continue
            g['attraction'].append(v)
    for kk, where, name, city in decoys: _vi_decoy(days, kk, where, name, errs, city)
    return days, errs

# no_hr_tl_fa_labels ---------------------------------------------------------------------------------------------------
_LG_TIME_RE = {'nb': r'kl\. \d\d\.\d\d', 'hr': r'\d{1,2}\.\d\d h', 'tl': r'\d{1,2}:\d\d n\.[mutgh]\.', 'fa': r'[۰-۹]{2}:[۰-۹]{2}'}


def _lg_untime(lg, s: str) -> str:
    if lg == 'tl': return _tl_untime(s)
    if lg == 'fa': out = s.translate(_FA_BACK)
    else:
        m = re.fullmatch(_LG15[lg]['untime'], s)
        out = f"{int(m[1]):02d}:{m[2]}"
    if _LG15[lg]['time'](out) != s: raise ValueError(f"time {s!r}")
    return out


def _lg_undur(lg, s: str) -> tuple:
    "A translated duration back to ((n, unit), ...), its words and plurals checked."
    out = []
    for part in s.split(_LG15[lg]['dur_join']):
        m = re.fullmatch(r'([0-9۰-۹]+) (\S+)', part)
        if not m: raise ValueError(f"duration {s!r}")
        k = int(m[1].translate(_FA_BACK))
        u = next((u for u, fs in _LG15[lg]['dur'].items() if m[2] in fs), None)
        if u is None or _lg_num(lg, k) != m[1]: raise ValueError(f"duration {s!r}")
        out.append((k, u))
    return tuple(out)


@lru_cache(maxsize=None)
def _lg_res(lg):
    L = _LG15[lg]
    T, D, C = _LG_TIME_RE[lg], r'.+?', r'[0-9۰-۹]+'
    mk = lambda t, parts: re.compile(''.join(re.escape(x) if i % 2 == 0 else f"(?P<{x}>{parts[x]})" for i, x in enumerate(re.split(r'\{(\w+)\}', t))))
    legp = {'num': r'\S+', 'a': r'.+?', 'b': r'.+?', 'dep': T, 'arr': T, 'dur': D, 'cost': C}
    lab = L['lab']
    return {'flight': mk(L['flight'], legp), 'drive': mk(L['drive'], legp), 'taxi': mk(L['taxi'], legp),
            'head': mk(L['head'], {'k': r'[0-9۰-۹]+', 'date': r'.+?', 'route': r'.+'}),
            'note': mk(L['note'], {'slot': r'.+?', 'v': r'.+', 'why': _alt(L['why'].values())}),
            'line': re.compile(r'- (?:(?P<t>' + T + r') · )?(?P<lab>' + _alt(lab) + r'): (?P<v>.+)'),
            'route': mk(L['route'][0], {'a': r'.+?', 'b': r'.+'})}


def _read_lg(text, task, plan, ph):
    errs, lines, n = [], text.split('\n'), len(plan)
    lg = next((k for k, L in _LG15.items() if lines[0] == L['intro']), None)
    if lg is None: raise ValueError('intro')
    L, R = _LG15[lg], _lg_res(lg)
    if lines[-2:] != ['', L['outro']]: errs.append('outro')
    lab = dict(zip(L['lab'], ('leg', 'breakfast', 'sights', 'lunch', 'dinner', 'stay', 'sight')))
    dates = {_lg_date(lg, task, i): i for i in range(n)}
    days, saids, stays, checks, timed, any_none = [], [], [], [], set(), False
    for ln in lines[1:-2]:
        if ln == '': continue
        if (h := R['head'].fullmatch(ln)):
            k = int(h['k'].translate(_FA_BACK))
            if _lg_num(lg, k) != h['k'] or k != len(days) + 1 or dates.get(h['date']) != len(days): errs.append(f"head {ln!r}")
            q = R['route'].fullmatch(h['route'])
            days.append(_blank(f"from {q['a']} to {q['b']}" if q else h['route'])); saids.append([]); stays.append(0)
            continue
        if not days: errs.append(f"line {ln!r}"); continue
        g, k = days[-1], len(days)
        pre = f"day {k}: "
        if (q := R['note'].fullmatch(ln)):
            v, slot = _unvenue(ph, q['v'], lg), q['slot']
            if slot in lab and lab[slot] in _MEALS:
                m = lab[slot]
                if q['why'] != L['why']['meal'] or g[m] in ('-', None) or _name_city(g[m])[1] != _name_city(v)[1]: errs.append(f"{pre}note {ln!r}")
                checks.append(('meal', k, m, _nm(v), _nm(g[m]) if g[m] not in ('-', None) else None, 'note: '))
            elif slot == L['lab'][6]:
                if q['why'] != L['why']['sight']: errs.append(f"{pre}note {ln!r}")
                checks.append(('sight', k, _nm(v), 'note: '))
            else:
                sep = '، ' if lg == 'fa' else ', '
                u = re.fullmatch(re.escape(L['lab'][5] + sep) + r'(\S+) ([0-9۰-۹]+)(?:–([0-9۰-۹]+))?', slot)
                if not u or q['why'] != L['why']['stay']: errs.append(f"{pre}note {ln!r}"); continue
                a, b = int(u[2].translate(_FA_BACK)), int((u[3] or u[2]).translate(_FA_BACK))
                if u[1] != L['nights'][1 if u[3] else 0] or a != k or (u[3] and b <= a): errs.append(f"{pre}note nights {ln!r}")
                checks.append(('stay_k', a, b, _nm(v)))
            continue
        if not (q := R['line'].fullmatch(ln)): errs.append(f"{pre}line {ln!r}"); continue
        what, v, t = lab[q['lab']], q['v'], q['t']
        if stays[-1]: errs.append(f"{pre}{ln!r} after the stay")
        if what == 'leg':
            if t: errs.append(f"{pre}timed leg")
            for mode in ('flight', 'drive', 'taxi'):
                if (u := R[mode].fullmatch(v)):
                    if mode == 'flight': _put(g, 'leg', _flight(u['num'], u['a'], u['b'], _lg_untime(lg, u['dep']), _lg_untime(lg, u['arr'])), errs, pre)
                    else:
                        c = u['cost'].translate(_FA_BACK)
                        if _lg_num(lg, c) != u['cost']: errs.append(f"{pre}cost digits")
                        g['leg'] = (mode, u['a'], u['b'], _lg_undur(lg, u['dur']), c)
                    break
            else: errs.append(f"{pre}leg {v!r}")
            continue
        if v == L['none']:
            if t: errs.append(f"{pre}timed none")
            if what == 'stay': stays[-1] += 1
            elif what in _MEALS: _said(saids[-1], what, errs, pre); any_none = True
            else: errs.append(f"{pre}{ln!r}")
            continue
        if what == 'stay':
            if t: errs.append(f"{pre}timed stay")
            stays[-1] += 1
            _put(g, 'accommodation', _unvenue(ph, v, lg), errs, pre)
        elif what in _MEALS:
            if saids[-1] and _MEALS.index(saids[-1][-1]) >= _MEALS.index(what): errs.append(f"{pre}meals out of order")
            _said(saids[-1], what, errs, pre)
            _put(g, what, _unvenue(ph, v, lg), errs, pre)
        elif what == 'sights':
            if t or g['attraction']: errs.append(f"{pre}sights line")
            g['attraction'] = _unitems(ph, v, _lg_join(lg, ph), lg)
        else: g['attraction'].append(_unvenue(ph, v, lg))
        if t: timed.add((k, what, len(g['attraction']), _lg_untime(lg, t)))
        elif what in ('sight',) or (timed and what != 'stay'): errs.append(f"{pre}untimed {what}")
    for k, g in enumerate(days, 1):                       # a timed list: the clock of each item as the day's shape gives it
        if not any(x[0] == k for x in timed): continue
        want = {(kind, f"{t // 60:02d}:{t % 60:02d}") for t, kind, v in _timed({**{m: g[m] for m in _MEALS}, 'attraction': ';'.join(g['attraction']) + ';' if g['attraction'] else '-'})}
        got = {(w, t) for kk, w, _, t in timed if kk == k}
        if want != got: errs.append(f"day {k}: times {sorted(got)} != {sorted(want)}")
    if any(s != 1 for s in stays[:-1]) or (stays and stays[-1] > 1): errs.append(f"stays stated {stays}")
    if any_none: _all_said(saids, errs)
    for c in checks:
        if c[0] == 'stay_k':
            a, b, z = c[1:]
            g = _day_of(days, a)
            _stay_check(days, a, b, z, _nm(g['accommodation']) if g and g['accommodation'] not in ('-', None) else None, errs, 'note: ')
        else: _run_checks(days, [c], errs)
    return days, errs

# self_correcting ------------------------------------------------------------------------------------------------------
_SC_MEAL_FIX = re.compile(r'(?P<a>.+) … wait, (?P<y>.+?) is ' + _alt(_SC_WHY['meal']) + r' — scratch that\. (?P<b>.+)')
_SC_STAY_FIX = re.compile(r'Overnight: (?P<a>.+) … wait, (?P<y>.+?) ' + re.escape(_SC_WHY['stay']) + r' — scratch that\. Overnight: (?P<b>.+)')
_SC_SIGHT_FIX = re.compile(r'Sights: (?P<a>.+) … actually, drop (?P<s>.+?) — ' + _alt(_SC_WHY['sight']) + r'\. Sights: (?P<b>.+)')
_SC_LATE_MEAL = re.compile(r'- Day (?P<k>\d+) (?P<m>breakfast|lunch|dinner): make it (?P<x>.+), not (?P<y>.+) — ' + _alt(_SC_WHY['meal']) + r'\.')
_SC_LATE_STAY = re.compile(r'- (?P<t>Nights? \d+(?:–\d+)?): stay at (?P<w>.+) instead of (?P<z>.+) — (?P<z2>.+) ' + re.escape(_SC_WHY['stay']) + r'\.')


def _read_sc(text, task, plan, ph):
    errs, lines, n = [], text.split('\n'), len(plan)
    if lines[0] not in _SC_INTRO or lines[-1] not in _SC_OUTRO or lines[-2] != '': errs.append('frame')
    ix = _dix(task, n, 'mon')
    days, saids, stays, late, any_none, in_late = [], [], [], [], False, False
    for ln in lines[1:-2]:
        if ln == '': continue
        if ln in _SC_LATE:
            if in_late: errs.append('two correction lists')
            in_late = True; continue
        if in_late:
            if (q := _SC_LATE_MEAL.fullmatch(ln)): late.append(('meal', q))
            elif (q := _SC_LATE_STAY.fullmatch(ln)) and q['z'] == q['z2']: late.append(('stay', q))
            else: errs.append(f"correction {ln!r}")
            continue
        if (h := re.fullmatch(r'\*\*Day (\d+) — (.+?) — (.+)\*\*', ln)):
            if int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}")
            days.append(_blank(_back(h[3]))); saids.append([]); stays.append(0); continue
        if not days or not (q := re.fullmatch(r'(\d+)\. (.+)', ln)): errs.append(f"line {ln!r}"); continue
        g, k, x = days[-1], len(days), q[2]
        pre = f"day {k}: "
        j = sum(1 for _ in saids[-1]) + bool(g['leg']) + bool(g['attraction']) + stays[-1] + 1
        if int(q[1]) != j: errs.append(f"{pre}item {q[1]} numbered {j}")
        if stays[-1]: errs.append(f"{pre}{x!r} after the stay")
        if x.startswith(('Flight ', 'Self-drive ', 'Taxi ')): _put(g, 'leg', _unleg_en(x), errs, pre); continue
        if (u := _SC_SIGHT_FIX.fullmatch(x)):
            a, b = _unitems(ph, u['a']), _unitems(ph, u['b'])
            gone = [v for v in a if v not in b]
            if len(gone) != 1 or _nm(gone[0]) != u['s'] or [v for v in a if v != gone[0]] != b: errs.append(f"{pre}sight fix {x!r}")
            x = 'Sights: ' + u['b']
        if x.startswith('Sights: '):
            if g['attraction'] or set(saids[-1]) - {'breakfast'} or 'breakfast' not in saids[-1] and g['breakfast'] != '-': errs.append(f"{pre}sights placed")
            g['attraction'] = _unitems(ph, x[8:]); continue
        if (u := _SC_STAY_FIX.fullmatch(x)):
            z, w = _unvenue(ph, u['a']), _unvenue(ph, u['b'])
            if _nm(z) != u['y'] or _name_city(z)[1] != _name_city(w)[1]: errs.append(f"{pre}stay fix {x!r}")
            late.append(('stay_inline', k, u['y'], _nm(w)))
            x = 'Overnight: ' + u['b']
        if x.startswith('Overnight: '):
            stays[-1] += 1
            _put(g, 'accommodation', _unvenue(ph, x[11:]), errs, pre); continue
        if x in ('No hotel — heading home', 'No hotel booked'):
            stays[-1] += 1
            if (x == 'No hotel — heading home') != (k == n): errs.append(f"{pre}{x!r}")
            continue
        if (u := re.fullmatch(r'No (breakfast|lunch|dinner) planned', x)): _said(saids[-1], u[1], errs, pre); any_none = True; continue
        if (u := _SC_MEAL_FIX.fullmatch(x)):
            ma, mb = _unmeal(ph, u['a']), _unmeal(ph, u['b'])
            if not ma or not mb or ma[0] != mb[0]: errs.append(f"{pre}meal fix {x!r}"); continue
            y, v = _unvenue(ph, ma[1]), _unvenue(ph, mb[1])
            if _nm(y) != u['y'] or _name_city(y)[1] != _name_city(v)[1] or _nm(y) == _nm(v): errs.append(f"{pre}meal fix {x!r}")
            x = u['b']
        if (mm := _unmeal(ph, x)):
            m, v = mm
            if saids[-1] and _MEALS.index(saids[-1][-1]) >= _MEALS.index(m): errs.append(f"{pre}meals out of order")
            _said(saids[-1], m, errs, pre)
            _put(g, m, _unvenue(ph, v), errs, pre)
        else: errs.append(f"{pre}item {x!r}")
    if any(s != 1 for s in stays[:-1]) or (stays and stays[-1] > 1): errs.append(f"stays stated {stays}")
    if any_none: _all_said(saids, errs)
    order = []
    for c in late:                                         # the corrections at the end, applied to what the days say
        if c[0] == 'meal':
            q = c[1]
            k, m = int(q['k']), q['m']
            g = _day_of(days, k)
            if g is None or g[m] in ('-', None) or _nm(g[m]) != q['y'] or q['x'] == q['y']: errs.append(f"late fix {q[0]!r}"); continue
            g[m] = _with_name(g[m], q['x']); order.append((k - 1, 0))
        elif c[0] == 'stay':
            q = c[1]
            a, b = _untag(q['t'])
            olds = {days[x - 1]['accommodation'] if _day_of(days, x) else None for x in range(a, b + 1)}
            old = olds.pop() if len(olds) == 1 else None
            if old in (None, '-') or _nm(old) != q['z'] or q['w'] == q['z'] or any(_day_of(days, x) and days[x - 1]['accommodation'] == old for x in (a - 1, b + 1)):
                errs.append(f"late fix {q[0]!r}"); continue
            for x in range(a, b + 1): days[x - 1]['accommodation'] = _with_name(old, q['w'])
            order.append((a - 1, 1))
    if order != sorted(order): errs.append('corrections out of order')
    for c in late:
        if c[0] == 'stay_inline':
            k, z, w = c[1:]
            b = k
            while _day_of(days, b + 1) and days[b]['accommodation'] == days[k - 1]['accommodation']: b += 1
            _stay_check(days, k, b, z, w, errs, 'scratched: ')
    return days, errs


# sms_terse ------------------------------------------------------------------------------------------------------------
_SM_FL = re.compile(r'flt (\S+) (.+?)->(.+) (\d{1,2}:\d\d[ap])-(\d{1,2}:\d\d[ap])')
_SM_RD = re.compile(r'(driving|taxi) (.+?)->(.+), ~(\S+) \(\$(\d+)\)')
_SM_ABBR_BACK = {v: k for k, v in _SM_ABBR.items()}
_SM_PICKS = [re.compile(re.escape(t).replace(re.escape('{x}'), '(?P<x>.+)')) for t in _SM_PICK]


def _read_sm(text, task, plan, ph):
    errs, lines, n = [], text.split('\n'), len(plan)
    if not re.fullmatch(r'\w{3}, \w{3} \d{1,2} · \d{1,2}:\d\d [AP]M', lines[0]) or lines[1] != f"Me: ok {_get(task, 'dest')} plan 🧵 ({n} days)":
        errs.append('head')
    F = lines[-2].split(': ', 1)[0]
    if F not in _SM_FRIENDS or lines[-2:] != [f"{F}: 😍😍 cant wait", "Me: ❤️"]: errs.append('end')
    msgs = []                                             # (who, text), tapbacks checked against the bubble they quote
    for ln in lines[2:-2]:
        who, _, s = ln.partition(': ')
        if who == F and (q := re.fullmatch(_alt(_SM_TAP) + r' “(.+)”', s)):
            if not msgs or msgs[-1] != ('Me', q[1]): errs.append(f"tapback {ln!r}")
            continue
        if who not in ('Me', F): errs.append(f"line {ln!r}"); continue
        msgs.append((who, s))
    days, saids, checks, runs, any_none = [], [], [], {}, False
    j = 0
    while j < len(msgs):
        who, s = msgs[j]
        j += 1
        if who != 'Me': errs.append(f"out of turn: {s!r}"); continue
        if (h := re.fullmatch(r'd(\d+) (\w{3}) (\d+)/(\d+): (.+)', s)):
            k = int(h[1]); dd = _date(task, k - 1)
            if k != len(days) + 1 or (h[2], int(h[3]), int(h[4])) != (f"{dd:%a}".lower(), dd.month, dd.day) or k > n: errs.append(f"day {s!r}")
            a, _, b = h[5].partition('->')
            days.append(_blank(f"from {a} to {b}" if b else a)); saids.append([]); continue
        if not days: errs.append(f"bubble {s!r}"); continue
        g, k = days[-1], len(days)
        pre = f"day {k}: "
        if g['accommodation'] != '-' or k in runs: errs.append(f"{pre}{s!r} after the night")
        if (q := _SM_FL.fullmatch(s)): _put(g, 'leg', _flight(q[1], q[2], q[3], _un_t12(q[4]), _un_t12(q[5])), errs, pre)
        elif (q := _SM_RD.fullmatch(s)): g['leg'] = ('taxi' if q[1] == 'taxi' else 'drive', q[2], q[3], _un_dur_compact(q[4]), q[5])
        elif s.startswith('see '):
            if g['attraction'] or set(saids[-1]) - {'breakfast'} or 'breakfast' not in saids[-1] and g['breakfast'] != '-': errs.append(f"{pre}sights placed")
            g['attraction'] = _unitems(ph, s[4:])
        elif (q := re.fullmatch(r'skipping (.+), ' + _alt(_SM_WHY['sight']), s)): checks.append(('sight', k, q[1], 'skipped: '))
        elif (q := re.fullmatch(r'no (bfast|lunch|din) planned', s)): _said(saids[-1], _SM_ABBR_BACK[q[1]], errs, pre); any_none = True
        elif s in ('same hotel', 'home that night'):
            prev = days[-2]['accommodation'] if len(days) > 1 else '-'
            if s == 'same hotel':
                if prev == '-': errs.append(f"{pre}same hotel after none")
                g['accommodation'] = prev
            elif k != n: errs.append(f"{pre}home before the last day")
            runs[k] = None
        elif (q := re.fullmatch(r'(?:was gonna do (?P<z>.+?) but ' + _alt(_SM_WHY['stay']) + r' so )?sleep @ (?P<v>.+) \((?P<c>\d+) nts?\)', s)):
            if (q['c'] == '1') != s.endswith('(1 nt)'): errs.append(f"{pre}{s!r}")
            g['accommodation'] = _unvenue(ph, q['v'])
            runs[k] = int(q['c'])
            if q['z']: checks.append(('stay_first', k, q['z'], _nm(g['accommodation'])))
        elif (q := re.fullmatch(r'(bfast|lunch|din) (.+)', s)):
            m = _SM_ABBR_BACK[q[1]]
            if saids[-1] and _MEALS.index(saids[-1][-1]) >= _MEALS.index(m): errs.append(f"{pre}meals out of order")
            _said(saids[-1], m, errs, pre)
            if s.endswith('?') and j < len(msgs) and msgs[j][0] == F:
                x = next((u['x'] for rx in _SM_PICKS if (u := rx.fullmatch(msgs[j][1]))), None)
                ok = j + 1 < len(msgs) and msgs[j + 1] == ('Me', f"ok {x} it is 👍")
                opts = q[2][:-1]
                cands = []
                for c in [c.start() for c in re.finditer(' or ', opts)]:
                    try: cands.append((_unvenue(ph, opts[:c]), _unvenue(ph, opts[c + 4:])))
                    except ValueError: pass
                hit = [(o1, o2) for o1, o2 in cands if x in (_nm(o1), _nm(o2)) and _nm(o1) != _nm(o2)]
                if x is None or not ok or len(hit) != 1: errs.append(f"{pre}choice {s!r}"); j += 2; continue
                o1, o2 = hit[0]
                chosen, other = (o1, o2) if _nm(o1) == x else (o2, o1)
                if _name_city(chosen)[1] != _name_city(other)[1]: errs.append(f"{pre}choice cities")
                g[m] = chosen
                j += 2
            else: g[m] = _unvenue(ph, q[2])
        else: errs.append(f"{pre}bubble {s!r}")
    stay_of = [g['accommodation'] for g in days]
    for k, c in runs.items():                              # a run's stated nights: the 'same hotel' days after it
        if c is None: continue
        b = k
        while b < len(days) and (b + 1) in runs and runs[b + 1] is None and stay_of[b] == stay_of[k - 1] and stay_of[b] != '-': b += 1
        if b - k + 1 != c: errs.append(f"day {k}: {c} nights stated, {b - k + 1} follow")
    if any_none: _all_said(saids, errs)
    for c in checks:
        if c[0] == 'stay_first':
            k, z, w = c[1:]
            b = k
            while _day_of(days, b + 1) and days[b]['accommodation'] == days[k - 1]['accommodation']: b += 1
            _stay_check(days, k, b, z, w, errs, 'gave up: ')
        else: _run_checks(days, [c], errs)
    return days, errs

_READERS = {'slack_thread': _read_sl, 'confluence_wiki': _read_cw, 'mermaid_flowchart': _read_mm, 'trip_diary': _read_td, 'venue_index': _read_vi, 'no_hr_tl_fa_labels': _read_lg, 'self_correcting': _read_sc, 'sms_terse': _read_sm}
_BRACES = {'confluence_wiki', 'mermaid_flowchart'}            # layouts whose syntax has brackets / braces: only None / nan / null are placeholders


def _check_one(name, task, plan, text, ph) -> list[str]:
    "Errors of one rendering (`layouts_v8._check_with` with this part's readers; brackets and braces allowed in the wiki and Mermaid)."
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


def _lang_of(text: str) -> str | None: return next((k for k, L in _LG15.items() if text.startswith(L['intro'] + '\n')), None)


def _relabel(name, ph, text):
    "The text with its first lunch made a dinner (its label, word, icon, row, section or abbreviation), else None."
    L, D = ph.meal_prefix('Lunch'), ph.meal_prefix('Dinner')
    if name == 'slack_thread': return _first_line_sub(text, lambda ln: ln.startswith(('• ' + L, '- ' + L)), L, D)
    if name == 'confluence_wiki':
        return (_first_line_sub(text, lambda ln: ln.startswith('* ' + L), L, D) or
                _first_line_sub(text, lambda ln: '_on your own_' not in ln, '|Lunch|', '|Dinner|'))
    if name == 'mermaid_flowchart': return _first_line_sub(text, lambda ln: ':::dropped' not in ln, '🥪 Lunch<br/>', '🍝 Dinner<br/>')
    if name == 'trip_diary':
        subs = [('Lunch was at ', 'Dinner was at '), ('Had lunch at ', 'Ended the day with dinner at '), (' for lunch, but it was ', ' for dinner, but it was ')]
        hits = sorted((text.find(a), a, b) for a, b in subs if a in text)
        return text.replace(hits[0][1], hits[0][2], 1) if hits else None
    if name == 'venue_index':
        if '### 🥪 Lunches' in text: return text.replace('### 🥪 Lunches', '\0').replace('### 🍝 Dinners', '### 🥪 Lunches').replace('\0', '### 🍝 Dinners')
        return _first_line_sub(text, lambda ln: 'backup for' not in ln, '— lunch · Day', '— dinner · Day') or \
            _first_line_sub(text, lambda ln: 'backup for' not in ln, '; lunch · Day', '; dinner · Day')
    if name == 'no_hr_tl_fa_labels':
        lab = _LG15[_lang_of(text)]['lab']
        return _first_line_sub(text, lambda ln: ln.startswith('- ') and f"{lab[3]}: " in ln, f"{lab[3]}: ", f"{lab[4]}: ")
    if name == 'self_correcting': return _first_line_sub(text, lambda ln: bool(re.match(r'\d+\. ', ln)), '. ' + L, '. ' + D)
    if name == 'sms_terse': return _first_line_sub(text, lambda ln: ln.startswith('Me: lunch '), 'Me: lunch ', 'Me: din ')
    return None


def _drop_day(name, text, task, k=1):
    "The text without the k-th day (0-based) it states: its message, section, box, paragraph, lines or bubbles."
    kk, lines = k + 1, text.split('\n')
    if name == 'slack_thread':
        bl = text.split('\n\n')
        return '\n\n'.join(b for b in bl if not (len(b.split('\n')) > 1 and re.match(rf'\*{{1,2}}(?:Day {kk} · |Poll · \w+ on Day {kk}\?)', b.split('\n')[1])))
    if name in ('confluence_wiki', 'self_correcting', 'no_hr_tl_fa_labels'):
        if name == 'confluence_wiki': head = lambda ln: ln.startswith('h2. ')
        elif name == 'self_correcting': head = lambda ln: ln.startswith('**Day ') or ln in _SC_LATE or ln in _SC_OUTRO
        else:
            R = _lg_res(_lang_of(text))['head']
            head = lambda ln: bool(R.fullmatch(ln)) or ln == _LG15[_lang_of(text)]['outro']
        is_k = {'confluence_wiki': lambda ln: ln.startswith(f"h2. Day {kk} — "), 'self_correcting': lambda ln: ln.startswith(f"**Day {kk} — ")}.get(
            name, lambda ln: (m := _lg_res(_lang_of(text))['head'].fullmatch(ln)) is not None and m['k'].translate(_FA_BACK) == str(kk))
        out, skip = [], False
        for ln in lines:
            if head(ln): skip = is_k(ln)
            if not skip: out.append(ln)
        return '\n'.join(out)
    if name == 'mermaid_flowchart':
        out, skip = [], False
        for ln in lines:
            if ln.strip().startswith(f'subgraph D{kk}["'): skip = True
            if not skip and not re.search(rf'\bD{kk}\b', ln): out.append(ln)
            if skip and ln.strip() == 'end': skip = False
        return '\n'.join(out)
    if name == 'trip_diary':
        ps = text.split('\n\n')
        j = next((j for j, p in enumerate(ps) if p.startswith(f"### Day {kk} · ")), None)
        return '\n\n'.join(ps[:j] + ps[j + 2:]) if j is not None else text
    if name == 'venue_index': return '\n'.join(ln for ln in lines if not re.search(rf'\b(?:Day|Night) {kk}\b|Nights {kk}–|–{kk}\b', ln))
    if name == 'sms_terse':
        out, skip = [], False
        for ln in lines:
            if re.match(r'Me: d\d+ \w{3} \d+/\d+: ', ln): skip = ln.startswith(f"Me: d{kk} ")
            elif ln.endswith('😍😍 cant wait'): skip = False
            if not skip: out.append(ln)
        return '\n'.join(out)
    return text


def _time_shift(name, plan, text):
    "The first flight's departure moved a minute, in the layout's clock, on the line that names the flight."
    fl = [_leg_parts(d['transportation']) for d in plan if d['transportation'].startswith('Flight')]
    if not fl: return None
    p = fl[0]
    fmt = (_LG15[_lang_of(text)]['time'] if name == 'no_hr_tl_fa_labels' else _t12 if name == 'sms_terse' else (lambda t: t))
    return _first_line_sub(text, lambda ln: p['number'] in ln, fmt(p['dep']), fmt(_shift(p['dep'])))


def _decoy_promotions(name, plan, text, task, ph):
    "[(what, text)]: a decoy taken for the plan, coherently (its name and the kept one's traded), and the layout's own ways."
    out = []
    for y, x in _DECOY_LOG.get(text, []):
        if (s := _swap(text, y, x)): out.append(("a decoy's name traded with the kept one", s)); break
    if name == 'slack_thread' and (m := re.search(r'\n1️⃣ (.+) — \d votes?( ✅)?\n2️⃣ (.+) — \d votes?( ✅)?', text)):
        a, b = m.group(1), m.group(3)
        seg = m.group(0).replace(f"1️⃣ {a} — ", '1️⃣ \0 — ').replace(f"2️⃣ {b} — ", f"2️⃣ {a} — ").replace('\0', b)
        out.append(("the poll's losing option made the winner", text[:m.start()] + seg + text[m.end():]))
    if name == 'sms_terse':
        lines = text.split('\n')
        for j, ln in enumerate(lines):
            if (q := re.fullmatch(r'Me: (bfast|lunch|din) (.+) or (.+)\?', ln)) and j + 2 < len(lines):
                x = lines[j + 2][len('Me: ok '):-len(' it is 👍')]
                opts = [q[2], q[3]]
                other = next((_nm(_unvenue(ph, o)) for o in opts if _nm(_unvenue(ph, o)) != x), None) if all(
                    _try_unvenue(ph, o) for o in opts) else None
                if other:
                    lines[j + 1] = lines[j + 1].replace(x, other, 1); lines[j + 2] = f"Me: ok {other} it is 👍"
                    out.append(("the friend picks the other option", '\n'.join(lines))); break
    if name == 'self_correcting':
        lines = text.split('\n')
        for j, ln in enumerate(lines):
            if _SC_LATE_MEAL.fullmatch(ln) or _SC_LATE_STAY.fullmatch(ln):
                out.append(("a correction at the end dropped (the first pick kept)", '\n'.join(lines[:j] + lines[j + 1:]))); break
        for j, ln in enumerate(lines):
            if ' … wait, ' in ln:
                q = re.fullmatch(r'(\d+\. )(.+?) … wait, .+ — scratch that\. (.+)', ln)
                if q: lines[j] = q[1] + q[2]; out.append(("an item taken back kept (its correction lost)", '\n'.join(lines))); break
    return out


def _try_unvenue(ph, s):
    try: return _unvenue(ph, s)
    except ValueError: return None


def _longer_stay(name, text, task, n):
    "A stay made one night longer where a layout states a run of nights (the stays list or index, the stays box, '(2 nts)', a correction)."
    pat = {'venue_index': r'(?m)^(?:- |.* — stay · )(Nights?) (\d+)(?:–(\d+))?(?=[:;]| —|$)', 'mermaid_flowchart': r'<br/>(Nights?) (\d+)(?:–(\d+))?(?="\)\])',
           'self_correcting': r'(?m)^- (Nights?) (\d+)(?:–(\d+))?(?=: stay at )', 'confluence_wiki': r'(?m)^\* (Nights?) (\d+)(?:–(\d+))?(?=: )',
           'slack_thread': r'for (nights?) (\d+)(?:–(\d+))?(?=\? looked cheaper)'}.get(name)
    if name == 'sms_terse' and (m := re.search(r'\((\d+) nts?\)', text)):
        return text[:m.start()] + f"({int(m[1]) + 1} nts)" + text[m.end():]
    if not pat or not (m := re.search(pat, text)): return None
    a, b = int(m[2]), int(m[3] or m[2])
    word = 'Nights' if m[1][0] == 'N' else 'nights'
    return text[:m.start(1)] + f"{word} {a}–{b + 1}" + text[m.end():]


def mutations(name, plan, text, task, ph):
    """[(kind, what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a
    flight renumbered, sights of two days swapped, two stays swapped, a lunch labelled dinner (its label, word, icon, row,
    section or abbreviation), a day dropped, a flight's departure moved (in the layout's clock: Tagalog 'n.h.', Persian
    digits, '3:40p'); decoys promoted (a decoy's name traded with the kept one; the poll's loser made the winner, the friend
    picking the other option, a correction at the end dropped, an item taken back kept) and a stay made a night longer
    where a run of nights is stated (venue_index, mermaid_flowchart's stays box, self_correcting's corrections, the wiki's
    panel, a thread reply, the texted '(2 nts)')."""
    out = _common_mutations(plan, text)
    if (s := _relabel(name, ph, text)): out.append(('a lunch labelled dinner', '', s))
    out.append(('a day dropped', 'day 2', _drop_day(name, text, task, 1)))
    if (s := _time_shift(name, plan, text)): out.append(("a flight's departure moved", '', s))
    out += [('decoy promoted', w, s) for w, s in _decoy_promotions(name, plan, text, task, ph)]
    if (s := _longer_stay(name, text, task, len(plan))): out.append(("a stay made a night longer", '', s))
    return [x for x in out if x[2] != text]


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    "The part's self-check (`layouts.selfcheck_part`): failures + missed corruptions."
    return selfcheck_part(HELDOUT15_LAYOUTS, _phr, _check_one, mutations, lambda lay, text: bool(_DECOY_LOG.get(text)), plans, mutate_every)


if __name__ == '__main__':
    part_cli(__doc__, HELDOUT15_LAYOUTS, _phr, selfcheck)
