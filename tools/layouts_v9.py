#!/usr/bin/env python
"""Held-out part v9 of the plan-layout test (issue 48): eight NEW layouts and phrasings of known plans, for the reader.

Written 2026-12-06 by a hand that did not read the reader (no star/formatter.py, star/grounded.py, star/plan.py, their
notebooks (04a, 04b, 05), tests (test_grounded*, test_layout*, test_robustness) or results/formatter/* were opened, no
reader was run on these texts, and `tools/layouts.py measure` / `record` were not run). Only tools/layouts.py (its
interface and its layouts' source, to avoid repeating them), tools/agreement.py (`_leg_parts`, `_attractions`) and
tools/layouts_v5.py ... layouts_v8.py (their structure; the generic helpers of v8 are imported) were read. SEALED: this
part is to be scored ONCE by the lead (via tools/layouts.py, part 'heldout9', once registered there) and never tuned on
before that score.

    python tools/layouts_v9.py check                     # self-check, no reader: each rendering read back by a parser
                                                         # written for its own layout (LaTeX unescaped, the Mermaid
                                                         # tasks and their dates, strikes and diffs resolved, the CJK
                                                         # labels, the FAQ answers with their refusals, the collapsed
                                                         # days, the numbered steps with check-in / check-out) into
                                                         # the plan's own values (venue 'Name, City', route, leg
                                                         # parts) and compared with the plan EXACTLY; then
                                                         # corruptions (a name deleted, lunches swapped, a day
                                                         # dropped, a struck or removed item restored, a refused swap
                                                         # accepted, a stay lengthened, ...) must be caught.
                                                         # 315 plans x 8 layouts = 2,520 renderings, 19,483
                                                         # corruptions, ~15 s
    python tools/layouts_v9.py check --limit 40          # the same on the first 40 known plans
    python tools/layouts_v9.py show mermaid_gantt --n 1  # print renderings (--kind gold | synthetic | <violation>)

The layouts imitate how chat models and tool-using agents answer "plan me a 3/5/7-day trip", in styles that none of
tools/layouts.py, tools/layouts_v5.py ... tools/layouts_v8.py has (see each renderer's docstring):

* `latex_doc`              a LaTeX document (```latex / ```tex block, "paste into Overleaf"), a `\\section*{Day 2 ---
                           Thursday, 17 March 2022: Rockford}` per day, then EITHER an itemize ("\\item \\textbf{Travel:}
                           Flight F1 from A to B, 15:40--17:04", meals in the drawn label made bold, "\\item
                           \\textbf{Sightseeing:} ...", "\\item \\textbf{Overnight:} ...") OR a booktabs tabular (Time &
                           What & Where & City, one row per item, the city in its own column); names and cities LaTeX-
                           escaped as LaTeX needs ('&' -> '\\&', '$' -> '\\$', '#', '%', '_', braces, '~', '^')
* `mermaid_gantt`          a Mermaid gantt chart (```mermaid): "section Day 2 · Rockford", tasks "✈ Flight F1 A → B
                           :crit, d1leg, 2022-03-16 15:40, 2022-03-16 17:04", "🚗 Self-drive A → B · 3 hours 11 mins ·
                           $120 :d1leg, 2022-03-16 07:30, 191m", "Breakfast — X (City) :d1e0, 2022-03-16 08:00, 45m",
                           "Visit X ..."; the stays either as "🛏 Overnight — X" tasks in each day or as multi-day bars
                           in a closing "section 🏨 Stays" (check-in 15:00 .. check-out date 11:00)
* `strikethrough_revision` a plan revised in the answer: day sections whose revised slots show the old choice struck
                           ("Lunch: ~~Y (City)~~ X (City) — _Y is closed that day_", "**Stay:** ~~Y~~ X", a sight struck
                           inside the sights line "A ➜ ~~Y~~ ➜ B"); the struck items are DECOYS; in some renderings a
                           closing "**What changed:** Day 2 lunch: Y → X; ..."
* `unified_diff`           "here's the change as a diff against the version I sent before": a ```diff block (git header
                           in some renderings, one full-context hunk "@@ -1,40 +1,41 @@") of the itinerary file; '-'
                           lines are the DECOYS (a replaced meal, a removed sight, a replaced hotel), '+' and ' ' lines
                           the final plan; every meal stated ("- (no breakfast)"), sights one per line
* `cjk_labels`             the answer in Japanese, Simplified Chinese or Korean (drawn): "### 2日目 — 2022年3月17日（木）｜
                           Rockford", "### 第2天 — 2022年3月17日（星期四）｜Rockford", "### 2일차 — 2022년 3월 17일 (목) |
                           Rockford"; labels 移動 / 朝食 / 観光 / 昼食 / 夕食 / 宿泊, 交通 / 早餐 / 景点 / 午餐 / 晚餐 / 住宿,
                           이동 / 아침 / 관광 / 점심 / 저녁 / 숙소 (full-width colons in ja / zh), flights "フライト F1（A
                           15:40発 → B 17:04着）", road legs with translated durations ("3時間11分", "3小时11分钟", "3시간
                           11분") and costs ("120ドル", "120美元", "$120"); an empty slot なし / 无 / 없음; names verbatim
* `faq_answers`            the plan as an FAQ: "### ❓ Where are we each day?", "How do we get around?", "Where do we
                           sleep?" (by runs of nights), "What are we eating?" (a line per day, the missing meals named),
                           "What will we see?", then one to three follow-up questions about DECOYS answered with a clear
                           no ("### ❓ Could we have lunch at Y on Day 2 instead?" / "No — Y is not in the plan; lunch on
                           Day 2 stays at X (...)."; "Should we add Y?"; "What about staying at Y?")
* `details_collapsible`    one HTML `<details>` block per day as assistants emit for long answers ("<details open>" on
                           Day 1 in some renderings): "<summary><b>Day 2 · Thu, Mar 17 · Rockford</b> · 🛏 X</summary>"
                           (the night's stay IN the summary line in most renderings, else a "- 🛏 X" bullet), then
                           emoji bullets ("- ✈️ Flight F1: A → B · 15:40 → 17:04", "- 🥪 Lunch stop: X", "- 📍 A ➜ B")
* `global_steps`           the whole trip as ONE numbered list of steps, numbered across days: "1. **Day 1 (Wed 3/16)**
                           — travel day: A → B", "2. **Day 1, 15:40** — ✈️ Fly A → B on F1 (lands 17:04)", "5. **Day 1,
                           night** — 🏨 Check in at X (2 nights)", "9. **Day 3, morning** — 🧳 Check out of X"; the stay
                           is stated only by check-in (with its nights) and check-out steps

Phrasings (`HELDOUT9_PHRASES`, drawn per rendering by `Phr9`): venue placed as 'X (City, ST)' (the state's postal code
inside the brackets), 'X _(City)_' (italic), 'X, in City' or 'X, City'; several sights joined by ' ➜ ', '; next, ',
' ‖ ', ' and then '; meal labels 'Lunch stop: X', 'LUNCH: X', 'Eat lunch at X' or 'Lunch: X' (the venue placement
everywhere but the LaTeX tabular, translated in cjk_labels and without markdown in mermaid_gantt; the joins in
latex_doc, strikethrough_revision, cjk_labels (translated), faq_answers and details_collapsible; the meal labels in
latex_doc (itemize), strikethrough_revision, unified_diff, faq_answers, details_collapsible and global_steps). Every
rendering states the whole plan: each day's route, the leg (flight number and times, or self-drive / taxi with
duration and cost), each meal's restaurant (or none: absent, or said to be none), each attraction and the
accommodation; names are verbatim (words are only added around them; LaTeX escapes what LaTeX needs); the noise
(intros, struck or removed items, refused alternatives, change summaries, comments) never contradicts the final plan.
"""
from __future__ import annotations

import datetime, random, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'tools'))

from agreement import _attractions, _leg_parts                          # noqa: E402
from layouts import Phr, _POSTAL_OF, _name_city, known_plans, part_cli, selfcheck_part            # noqa: E402
from layouts_v8 import (_common_mutations, _DAY_SPAN, _MEALS, _all_said, _blank, _cc, _cities, _cmp, _date, _decoy, _dur_key, _get,  # noqa: E402
                        _minutes, _people, _put, _road_key, _runs, _said, _sequence, _swap, _used)

# ------------------------------------------------------------------------------------------------------------ phrasings
HELDOUT9_PHRASES = {
    'locative': ('paren_postal', 'italic_paren', 'comma_in', 'comma'),   # 'X (City, ST)' | 'X _(City)_' | 'X, in City' | 'X, City'
    'join': (' ➜ ', '; next, ', ' ‖ ', ' and then '),
    'meal_label': ('stop', 'upper', 'imperative', 'colon'),             # 'Lunch stop: X' | 'LUNCH: X' | 'Eat lunch at X' | 'Lunch: X'
}


class Phr9(Phr):
    "`Phr` with the v9 phrasing modes (the modes of `Phr` still work)."
    def venue(self, v: str) -> str:
        n, c = _name_city(v)
        if c and self.loc == 'paren_postal': return f"{n} ({c}, {_POSTAL_OF[c]})" if c in _POSTAL_OF else f"{n} ({c})"
        if c and self.loc == 'italic_paren': return f"{n} _({c})_"
        if c and self.loc == 'comma_in': return f"{n}, in {c}"
        return super().venue(v)

    def plain(self, v: str) -> str:
        "The venue without markdown ('X (City)' for the italic placement), for Mermaid."
        n, c = _name_city(v)
        return f"{n} ({c})" if c and self.loc == 'italic_paren' else self.venue(v)

    def meal_prefix(self, label: str) -> str:
        "The words before a meal's venue: 'Lunch stop: ' | 'LUNCH: ' | 'Eat lunch at ' | 'Lunch: '."
        return {'stop': f"{label} stop: ", 'upper': f"{label.upper()}: ", 'imperative': f"Eat {label.lower()} at "}.get(self.label, f"{label}: ")

    def meal(self, label: str, v: str) -> str: return self.meal_prefix(label) + self.venue(v)


PHR9 = Phr9

# -------------------------------------------------------------------------------------------------------------- helpers
def _fmt(task, i: int, f: str) -> str:
    "'tex' 'Wednesday, 16 March 2022' | 'long' 'Wednesday, March 16' | 'short' 'Wed 3/16' | 'mon' 'Wed, Mar 16' | 'dm' | 'iso'."
    d = _date(task, i)
    return {'tex': f"{d:%A}, {d.day} {d:%B} {d.year}", 'long': f"{d:%A}, {d:%B} {d.day}", 'short': f"{d:%a} {d.month}/{d.day}",
            'mon': f"{d:%a}, {d:%b} {d.day}", 'dm': f"{d:%a} {d.day} {d:%b}", 'iso': d.isoformat()}[f]


def _dates(task, n: int, f: str) -> dict: return {_fmt(task, i, f): i for i in range(n)}


def _rt(cc: str, sep: str = ' → ') -> str:
    a, b = _cities(cc)
    return a if a == b else f"{a}{sep}{b}"


def _back(s: str, sep: str = ' → ', un=lambda x: x) -> str:
    "A route written with `sep` back to a current_city value."
    xs = s.split(sep)
    if len(xs) > 2: raise ValueError(f"route {s!r}")
    return _cc(un(xs[0]), un(xs[-1]))


def _two(s: str, sep: str) -> list[str]:
    xs = s.split(sep)
    if len(xs) != 2: raise ValueError(f"{s!r} not two parts around {sep!r}")
    return xs


def _hm(t: int) -> str: return f"{t // 60 % 24:02d}:{t % 60:02d}"


def _timed(d) -> list[tuple[int, str, str]]:
    """[(minute of the day, kind, value)] of the day's meals and sights in the order of the day: breakfast 08:00, the first
    half of the sights from 09:30 an hour apart, lunch 12:30, the other sights from 14:00 90 minutes apart, dinner 19:00."""
    seq = _sequence(d)
    h = (sum(k == 'sight' for k, _ in seq) + 1) // 2
    out, k = [], 0
    for kind, v in seq:
        if kind == 'sight': t = 570 + 60 * k if k < h else 840 + 90 * (k - h); k += 1
        else: t = {'breakfast': 480, 'lunch': 750, 'dinner': 1140}[kind]
        out.append((t, kind, v))
    return out


def _nights(plan, a: int, b: int) -> str:
    return f"Night of Day {plan[a]['days']}" if a == b else f"Nights of Day {plan[a]['days']}–{plan[b]['days']}"


def _unvenue(ph, s: str, plain: bool = False) -> str:
    "'Name, City' of a venue as `ph` places it (`plain`: as `Phr9.plain` writes it)."
    if ph.loc == 'paren_postal' or (plain and ph.loc == 'italic_paren'):
        m = re.fullmatch(r'(.+) \(([^()]+)\)', s, re.S)
        if not m: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        c, sep, st = m[2].rpartition(', ')
        if ph.loc == 'paren_postal' and sep and c in _POSTAL_OF and _POSTAL_OF[c] == st: return f"{m[1]}, {c}"
        if ph.loc == 'paren_postal' and m[2] in _POSTAL_OF: raise ValueError(f"venue {s!r} without its state")
        return f"{m[1]}, {m[2]}"
    if ph.loc == 'italic_paren':
        m = re.fullmatch(r'(.+) _\(([^()]+)\)_', s, re.S)
        if not m: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        return f"{m[1]}, {m[2]}"
    if ph.loc == 'comma_in':
        n, sep, c = s.rpartition(', in ')
        if not sep: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        return f"{n}, {c}"
    return s


def _unitems(ph, s: str, join: str | None = None, plain: bool = False) -> list[str]:
    return [_unvenue(ph, x, plain) for x in s.split(join or ph.join)]


def _unmeal(ph, s: str):
    "(meal, the rest) of a text that starts with the drawn meal label, else None."
    for m in _MEALS:
        p = ph.meal_prefix(m.capitalize())
        if s.startswith(p): return m, s[len(p):]
    return None


def _leg_back(q, taxi: str) -> tuple:
    "A road leg's key from a match whose groups are (mode word, a, b, duration, cost); `taxi` is the taxi's word."
    return _road_key('taxi' if q[1] == taxi else 'drive', q[2], q[3], q[4], q[5])

# -------------------------------------------------------------------------------------------------------------- layouts
_TEX = {'\\': r'\textbackslash{}', '&': r'\&', '%': r'\%', '$': r'\$', '#': r'\#', '_': r'\_', '{': r'\{', '}': r'\}',
        '~': r'\textasciitilde{}', '^': r'\textasciicircum{}'}
_UNTEX = {v: k for k, v in _TEX.items()}
_TEXARROW = ' $\\rightarrow$ '


def _tex(s) -> str: return re.sub(r'[\\&%$#_{}~^]', lambda m: _TEX[m[0]], str(s))


def _untex(s: str) -> str:
    return re.sub(r'\\textbackslash\{\}|\\textasciitilde\{\}|\\textasciicircum\{\}|\\[&%$#_{}]', lambda m: _UNTEX[m[0]], s)


def _tvenue(ph, v: str) -> str:
    "A venue as `ph` places it, in LaTeX (the italic placement as \\textit)."
    n, c = _name_city(v)
    if c and ph.loc == 'italic_paren': return f"{_tex(n)} \\textit{{({_tex(c)})}}"
    return _tex(ph.venue(v))


def _untvenue(ph, s: str) -> str:
    if ph.loc == 'italic_paren':
        m = re.fullmatch(r'(.+) \\textit\{\((.+)\)\}', s)
        if not m: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        return f"{_untex(m[1])}, {_untex(m[2])}"
    return _unvenue(ph, _untex(s))


def _tmeal(ph, label: str) -> str:
    "The drawn meal label in LaTeX: bold ('\\textbf{Lunch stop:} '), the imperative plain ('Eat lunch at ')."
    p = ph.meal_prefix(label)
    return p if ph.label == 'imperative' else f"\\textbf{{{p.strip()}}} "


_TEX_HEAD = ('\\begin{tabular}{@{}llll@{}}', '\\toprule', '\\textbf{Time} & \\textbf{What} & \\textbf{Where} & \\textbf{City} \\\\', '\\midrule')


def _tex_items(d, ph, say_none) -> list[str]:
    out = ['\\begin{itemize}']
    if d['transportation'] != '-':
        p = _leg_parts(d['transportation'])
        out.append("  \\item \\textbf{Travel:} " + (
            f"Flight {p['number']} from {_tex(p['a'])} to {_tex(p['b'])}, {p['dep']}--{p['arr']}" if p['mode'] == 'flight' else
            f"{'Taxi' if p['mode'] == 'taxi' else 'Self-drive'} from {_tex(p['a'])} to {_tex(p['b'])} ({p['duration']}, \\${p['cost']})"))
    for m in _MEALS:
        if m == 'lunch' and (at := _attractions(d['attraction'])):
            out.append("  \\item \\textbf{Sightseeing:} " + ph.join.join(_tvenue(ph, x) for x in at))
        if d[m] != '-': out.append(f"  \\item {_tmeal(ph, m.capitalize())}{_tvenue(ph, d[m])}")
        elif say_none: out.append(f"  \\item \\textit{{No {m} planned.}}")
    acc = d['accommodation']
    out.append("  \\item \\textbf{Overnight:} " + (_tvenue(ph, acc) if acc != '-' else 'none --- last day, heading home'))
    return out + ['\\end{itemize}']


def _tex_rows(d) -> list[str]:
    out = list(_TEX_HEAD)
    if d['transportation'] != '-':
        p = _leg_parts(d['transportation'])
        route = f"{_tex(p['a'])}{_TEXARROW}{_tex(p['b'])}"
        out.append(f"{p['dep']}--{p['arr']} & Flight {p['number']} & {route} & --- \\\\" if p['mode'] == 'flight' else
                   f"07:30 & {'Taxi' if p['mode'] == 'taxi' else 'Self-drive'}, {p['duration']}, \\${p['cost']} & {route} & --- \\\\")
    for t, kind, v in _timed(d):
        n, c = _name_city(v)
        out.append(f"{_hm(t)} & {'Sightseeing' if kind == 'sight' else kind.capitalize()} & {_tex(n)} & {_tex(c)} \\\\")
    n, c = _name_city(d['accommodation'])
    out.append(f"night & Overnight & {_tex(n)} & {_tex(c)} \\\\" if d['accommodation'] != '-' else
               "night & Overnight & \\textit{none (last day)} & --- \\\\")
    return out + ['\\bottomrule', '\\end{tabular}']


_TEX_INTRO = ("Here's the itinerary as a LaTeX document — paste it into Overleaf and compile:",
              "Sure! Below is the trip in LaTeX, one section per day, ready to print:")
_TEX_OUTRO = ("Compile with pdflatex; booktabs is only needed for the tables.", "Let me know if you'd like a cover page or a map.")


def latex_doc(plan, task, ph):
    """A LaTeX document in a ```latex (or ```tex) block — \\documentclass ... \\maketitle in some renderings, a bare body
    in others — with "\\section*{Day 2 --- Thursday, 17 March 2022: Rockford}" (or "A $\\rightarrow$ B") per day, then
    EITHER an itemize (\\item \\textbf{Travel:} Flight F1 from A to B, 15:40--17:04 / Self-drive from A to B (3 hours 11
    mins, \\$120); the meals in the drawn label, bold ('\\textbf{Lunch stop:} X') or 'Eat lunch at X', an empty meal
    "\\textit{No lunch planned.}" or left out; "\\textbf{Sightseeing:}" with the drawn join; "\\textbf{Overnight:} X" or
    "none --- last day, heading home") OR a booktabs tabular Time & What & Where & City, one row per item (the flight
    "15:40--17:04 & Flight F1 & A $\\rightarrow$ B & ---", meals and sights at suggested times, "night & Overnight & X &
    City"); names and cities escaped as LaTeX needs."""
    r = ph.rng
    style = r.choice(('itemize', 'tabular', 'itemize'))
    full, fence, say_none = r.random() < 0.6, r.choice(('```latex', '```tex')), r.random() < 0.5
    org, dest = _get(task, 'org') or '', _get(task, 'dest') or ''
    out = [r.choice(_TEX_INTRO), '', fence]
    if full:
        out += ['\\documentclass[11pt]{article}', '\\usepackage[margin=2cm]{geometry}', '\\usepackage{booktabs}',
                f"\\title{{{_tex(org)} to {_tex(dest)}: a {len(plan)}-day itinerary}}", '\\date{}', '\\begin{document}',
                '\\maketitle', '']
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        route = _tex(a) if a == b else f"{_tex(a)}{_TEXARROW}{_tex(b)}"
        out.append(f"\\section*{{Day {d['days']} --- {_fmt(task, i, 'tex')}: {route}}}")
        out += (_tex_items(d, ph, say_none) if style == 'itemize' else _tex_rows(d)) + ['']
    if full: out.append('\\end{document}')
    return '\n'.join(out + ['```', '', r.choice(_TEX_OUTRO)])


def _mm_title(ph, kind, v) -> str: return f"Visit {ph.plain(v)}" if kind == 'sight' else f"{kind.capitalize()} — {ph.plain(v)}"


_MM_INTRO = ("Here's a visual timeline of the trip (a Mermaid chart — it renders in GitHub, Notion and Obsidian):",
             "I've laid the itinerary out as a Gantt chart so you can see each day at a glance:")
_MM_OUTRO = ("Meal and sightseeing slots are suggestions; the flights are at their scheduled times.",
             "Paste the block into any Mermaid-enabled editor to see the chart.")


def mermaid_gantt(plan, task, ph):
    """A Mermaid gantt chart in a ```mermaid block (title, dateFormat YYYY-MM-DD HH:mm, axisFormat, a %% comment): per
    day "section Day 2 · Rockford" (or "· A → B"), then its tasks "title :meta" — the leg ("✈ Flight F1 A → B :crit,
    d1leg, 2022-03-16 15:40, 2022-03-16 17:04", the next date when it lands after midnight; "🚗 Self-drive A → B · 3 hours
    11 mins · $120 :d1leg, 2022-03-16 07:30, 191m" / "🚕 Taxi ..."), meals "Lunch — X (City)" and sights "Visit X"
    at suggested times with their lengths ("60m"); the stays either as "🛏 Overnight — X :d1n, 2022-03-16 21:00,
    2022-03-17 08:00" in each day or as multi-day bars "X :active, stay1, 2022-03-16 15:00, 2022-03-18 11:00" (check-in
    .. check-out) in a closing "section 🏨 Stays". Names are written raw (Mermaid users rarely escape them)."""
    r = ph.rng
    spans = r.random() < 0.5
    org, dest = _get(task, 'org'), _get(task, 'dest')
    out = [r.choice(_MM_INTRO), '', '```mermaid', 'gantt', f"    title {org} → {dest} · {len(plan)}-day trip",
           '    dateFormat YYYY-MM-DD HH:mm', '    axisFormat %a %d',
           '    %% meal and sightseeing times are suggestions; flights keep their scheduled times']
    for i, d in enumerate(plan):
        k, ds, day = d['days'], _fmt(task, i, 'iso'), _date(task, i)
        out.append(f"    section Day {k} · {_rt(d['current_city'])}")
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            if p['mode'] == 'flight':
                end = day + _DAY_SPAN if p['arr'] < p['dep'] else day
                out.append(f"    ✈ Flight {p['number']} {p['a']} → {p['b']} :crit, d{k}leg, {ds} {p['dep']}, {end.isoformat()} {p['arr']}")
            else:
                out.append(f"    {'🚕 Taxi' if p['mode'] == 'taxi' else '🚗 Self-drive'} {p['a']} → {p['b']} · {p['duration']} · "
                           f"${p['cost']} :d{k}leg, {ds} 07:30, {max(1, _minutes(p['duration']))}m")
        for j, (t, kind, v) in enumerate(_timed(d)):
            ln = 75 if kind == 'sight' else {'breakfast': 45, 'lunch': 60, 'dinner': 90}[kind]
            out.append(f"    {_mm_title(ph, kind, v)} :d{k}e{j}, {ds} {_hm(t)}, {ln}m")
        if not spans and d['accommodation'] != '-':
            out.append(f"    🛏 Overnight — {ph.plain(d['accommodation'])} :d{k}n, {ds} 21:00, {(day + _DAY_SPAN).isoformat()} 08:00")
    if spans:
        out.append('    section 🏨 Stays')
        for a, b, acc in _runs(plan):
            if acc != '-':
                out.append(f"    {ph.plain(acc)} :active, stay{a + 1}, {_fmt(task, a, 'iso')} 15:00, {(_date(task, b) + _DAY_SPAN).isoformat()} 11:00")
    return '\n'.join(out + ['```', '', r.choice(_MM_OUTRO)])


_WHY_MEAL = ("closed on that day of the week", "no table free at that hour", "a long detour from the rest of the day",
             "the reviews were poor")
_WHY_STAY = ("cheaper and closer to the sights", "the first one has no free rooms on those nights", "better reviews")
_WHY_SIGHT = ("dropped: not enough time that day", "dropped to keep the day relaxed")


def _revision_decoys(plan, rng, meal_n=(1, 1, 2)):
    """Decoys for a revised plan: {(day index, meal): name}, {(first, last day of a stay run): name} and {day index:
    (position among the sights, 'Name, City')}, names from the database the plan does not use."""
    used, meals, stays, sights = _used(plan), {}, {}, {}
    slots = [(i, m) for i, d in enumerate(plan) for m in _MEALS if d[m] != '-']
    for i, m in rng.sample(slots, min(len(slots), rng.choice(meal_n))):
        if (x := _decoy('restaurants', _name_city(plan[i][m])[1], used, rng)): used.add(x); meals[(i, m)] = x
    runs = [(a, b, acc) for a, b, acc in _runs(plan) if acc != '-']
    if runs and rng.random() < 0.5:
        a, b, acc = rng.choice(runs)
        if (x := _decoy('accommodations', _name_city(acc)[1], used, rng)): used.add(x); stays[(a, b)] = x
    days = [i for i, d in enumerate(plan) if _attractions(d['attraction'])]
    if days and rng.random() < 0.5:
        i = rng.choice(days)
        at = _attractions(plan[i]['attraction'])
        c = _name_city(at[0])[1]
        if (x := _decoy('attractions', c, used, rng)): sights[i] = (rng.randrange(len(at) + 1), f"{x}, {c}")
    return meals, stays, sights


def _stay_decoy(stays, i):
    return next(((a, b, x) for (a, b), x in stays.items() if a <= i <= b), None)


def _strike_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"flight {p['number']}, {p['a']} → {p['b']}, dep. {p['dep']} / arr. {p['arr']}"
    return f"{'taxi' if p['mode'] == 'taxi' else 'self-drive'}, {p['a']} → {p['b']}, ~{p['duration']}, ${p['cost']}"


_ST_INTRO = ("I went back over the plan against opening hours and prices and revised a few things — ~~struck~~ items are "
             "out, the one right after a strike is in:",
             "Updated itinerary below. Changes are marked inline: anything ~~crossed out~~ has been replaced or dropped.")
_ST_OUTRO = ("Everything else is as before. Want me to re-check the budget with the changes?", "Let me know if you want more changes!")


def strikethrough_revision(plan, task, ph):
    """A plan revised in the answer, changes marked inline with markdown strikethrough: day sections "## Day 2 ·
    Thursday, March 17 · Rockford" with "- **Travel:** flight F1, A → B, dep. 15:40 / arr. 17:04", meals in the drawn
    label, "- **Sights:** A ➜ B" (the drawn join), "- **Stay:** X" ("none (last day)"); one or two meals revised ("-
    Lunch: ~~Y (City)~~ X (City) — _closed on that day of the week_"), in some renderings a stay ("~~Y~~ X" on each
    night of its run) and a sight dropped inside the sights line ("A ➜ ~~Y~~ ➜ B — _dropped: not enough time that
    day_"): the struck items are DECOYS; an empty meal "_No dinner planned_" or left out; in some renderings a closing
    "**What changed:** Day 2 lunch: Y → X; Day 1 sights: dropped Y; nights of Day 1–2: Y → X"."""
    r = ph.rng
    meals, stays, sights = _revision_decoys(plan, r)
    say_none, summary = r.random() < 0.5, r.random() < 0.5
    out, changes = [r.choice(_ST_INTRO), ''], []
    for i, d in enumerate(plan):
        k = d['days']
        out.append(f"## Day {k} · {_fmt(task, i, 'long')} · {_rt(d['current_city'])}")
        if d['transportation'] != '-': out.append(f"- **Travel:** {_strike_leg(d['transportation'])}")
        for m in _MEALS:
            if m == 'lunch':
                items = [ph.venue(x) for x in _attractions(d['attraction'])]
                if i in sights:
                    pos, x = sights[i]
                    items.insert(pos, f"~~{ph.venue(x)}~~")
                    changes.append(f"Day {k} sights: dropped {_name_city(x)[0]}")
                if items: out.append("- **Sights:** " + ph.join.join(items) + (f" — _{r.choice(_WHY_SIGHT)}_" if i in sights else ''))
            if d[m] != '-':
                if (i, m) in meals:
                    c = _name_city(d[m])[1]
                    out.append(f"- {ph.meal_prefix(m.capitalize())}~~{ph.venue(f'{meals[(i, m)]}, {c}')}~~ {ph.venue(d[m])} — _{r.choice(_WHY_MEAL)}_")
                    changes.append(f"Day {k} {m}: {meals[(i, m)]} → {_name_city(d[m])[0]}")
                else: out.append(f"- {ph.meal(m.capitalize(), d[m])}")
            elif say_none: out.append(f"- _No {m} planned_")
        acc = d['accommodation']
        if acc == '-': out.append("- **Stay:** none (last day)")
        elif (sd := _stay_decoy(stays, i)):
            a, b, x = sd
            out.append(f"- **Stay:** ~~{ph.venue(f'{x}, {_name_city(acc)[1]}')}~~ {ph.venue(acc)}" + (f" — _{r.choice(_WHY_STAY)}_" if i == a else ''))
            if i == a: changes.append(f"{_nights(plan, a, b).lower()}: {x} → {_name_city(acc)[0]}")
        else: out.append(f"- **Stay:** {ph.venue(acc)}")
        out.append('')
    if summary and changes: out += ["**What changed:** " + '; '.join(changes) + '.', '']
    return '\n'.join(out + [r.choice(_ST_OUTRO)])


def _md_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"✈ {p['number']}, {p['a']} → {p['b']}, {p['dep']}–{p['arr']}"
    return f"{'🚕 taxi' if p['mode'] == 'taxi' else '🚗 self-drive'} {p['a']} → {p['b']}, {p['duration']}, ${p['cost']}"


def _diff_units(plan, task, ph, ch) -> list[tuple]:
    """[(old line | None, new line | None)] of the itinerary file before and after the changes `ch` ({('meal', i, m):
    name, ('stay', a, b): name, ('sight-', i): (position, 'Name, City') (in the old version only), ('sight+', i):
    position (in the new version only)})."""
    same = lambda s: (s, s)
    units = [same(f"# {_get(task, 'org')} → {_get(task, 'dest')} · {len(plan)}-day itinerary"), same('')]
    for i, d in enumerate(plan):
        units.append(same(f"## Day {d['days']} — {_fmt(task, i, 'iso')} — {_rt(d['current_city'])}"))
        if d['transportation'] != '-': units.append(same(f"- Travel: {_md_leg(d['transportation'])}"))
        for m in _MEALS:
            if m == 'lunch':
                items = [same(f"  - {ph.venue(x)}") for x in _attractions(d['attraction'])]
                if ('sight+', i) in ch: items[ch[('sight+', i)]] = (None, items[ch[('sight+', i)]][1])
                if ('sight-', i) in ch:
                    pos, x = ch[('sight-', i)]
                    items.insert(pos, (f"  - {ph.venue(x)}", None))
                if items: units += [same('- Sights:')] + items
            if d[m] == '-': units.append(same(f"- (no {m})")); continue
            new = f"- {ph.meal(m.capitalize(), d[m])}"
            x = ch.get(('meal', i, m))
            units.append((f"- {ph.meal(m.capitalize(), f'{x}, {_name_city(d[m])[1]}')}" if x else new, new))
        acc = d['accommodation']
        if acc == '-': units.append(same("- Hotel: none (last day)"))
        else:
            x = next((x for key, x in ch.items() if key[0] == 'stay' and key[1] <= i <= key[2]), None)
            new = f"- Hotel: {ph.venue(acc)}"
            units.append((f"- Hotel: {ph.venue(f'{x}, {_name_city(acc)[1]}')}" if x else new, new))
        units.append(same(''))
    return units


def _hunk(body: list[str]) -> str:
    return f"@@ -1,{sum(l[:1] in ' -' for l in body)} +1,{sum(l[:1] in ' +' for l in body)} @@"


_DF_INTRO = ("Done — I swapped the things you flagged. Here's the change as a diff against the itinerary I sent before "
             "(`-` = removed, `+` = added, everything else unchanged):",
             "Here's the updated plan as a patch on the previous version:")
_DF_OUTRO = ("Lines without a marker are unchanged from the previous version.", "Apply it, or just read the `+` and unmarked lines.")


def unified_diff(plan, task, ph):
    """A revised plan given as a unified diff against the previous version, in a ```diff block: in some renderings a git
    header ("diff --git a/trip/itinerary.md b/trip/itinerary.md", "index 3f2a9c1..8b41d07 100644"), then "--- a/..." /
    "+++ b/..." and ONE full-context hunk "@@ -1,40 +1,41 @@" over the whole file: "# A → B · 3-day itinerary", per day
    "## Day 2 — 2022-03-17 — Rockford", "- Travel: ✈ F1, A → B, 15:40–17:04" / "- Travel: 🚗 self-drive A → B, 3 hours 11
    mins, $120", every meal in the drawn label or "- (no breakfast)", "- Sights:" with one "  - X" per sight, "- Hotel:
    X" / "none (last day)". One to three changes: a meal replaced ("-- Lunch: Y" then "+- Lunch: X"), a sight removed
    (its '-' line only), a sight added (its '+' line only), a hotel replaced on each night of its run; the '-' lines are
    DECOYS."""
    r = ph.rng
    meals, stays, sights = _revision_decoys(plan, r, (1, 2))
    ch = {('meal', i, m): x for (i, m), x in meals.items()}
    ch.update({('stay', a, b): x for (a, b), x in stays.items()})
    ch.update({('sight-', i): v for i, v in sights.items()})
    multi = [i for i, d in enumerate(plan) if len(_attractions(d['attraction'])) > 1 and i not in sights]
    if multi and r.random() < 0.4:
        i = r.choice(multi)
        ch[('sight+', i)] = r.randrange(len(_attractions(plan[i]['attraction'])))
    body = []
    for o, n in _diff_units(plan, task, ph, ch):
        if o == n: body.append(' ' + o); continue
        if o is not None: body.append('-' + o)
        if n is not None: body.append('+' + n)
    head = ['diff --git a/trip/itinerary.md b/trip/itinerary.md', 'index 3f2a9c1..8b41d07 100644'] if r.random() < 0.5 else []
    head += ['--- a/trip/itinerary.md', '+++ b/trip/itinerary.md', _hunk(body)]
    return '\n'.join([r.choice(_DF_INTRO), '', '```diff'] + head + body + ['```', '', r.choice(_DF_OUTRO)])


_CJK = {
    'ja': dict(labels=('移動', '朝食', '観光', '昼食', '夕食', '宿泊'), colon='：', none='なし', none_stay='なし（最終日・帰路）',
               units={'day': '日', 'hour': '時間', 'min': '分'}, usep='', paren=('（', '）'), comma_in='（所在地：{c}）',
               joins={'; next, ': '；次に', ' and then ': '、それから'}, sep='｜',
               flight='フライト {n}（{a} {dep}発 → {b} {arr}着）', road='{how}（{a} → {b}、約{dur}、{cost}ドル）',
               how={'taxi': 'タクシー', 'drive': '自家用車'},
               fre=r'フライト (\S+)（(.+) (\d\d:\d\d)発 → (.+) (\d\d:\d\d)着）', rre=r'(タクシー|自家用車)（(.+) → (.+)、約(.+)、(\d+)ドル）',
               intro=("ご希望の旅程をまとめました。", "旅行プランはこちらです（1日ごと）："), outro="良い旅を！"),
    'zh': dict(labels=('交通', '早餐', '景点', '午餐', '晚餐', '住宿'), colon='：', none='无', none_stay='无（返程日）',
               units={'day': '天', 'hour': '小时', 'min': '分钟'}, usep='', paren=('（', '）'), comma_in='（位于{c}）',
               joins={'; next, ': '；然后', ' and then ': '，然后'}, sep='｜',
               flight='航班 {n}（{a} {dep} 出发 → {b} {arr} 到达）', road='{how}（{a} → {b}，约{dur}，{cost}美元）',
               how={'taxi': '出租车', 'drive': '自驾'},
               fre=r'航班 (\S+)（(.+) (\d\d:\d\d) 出发 → (.+) (\d\d:\d\d) 到达）', rre=r'(出租车|自驾)（(.+) → (.+)，约(.+)，(\d+)美元）',
               intro=("以下是为您安排的行程：", "好的！这是按天整理的旅行计划："), outro="祝您旅途愉快！"),
    'ko': dict(labels=('이동', '아침', '관광', '점심', '저녁', '숙소'), colon=': ', none='없음', none_stay='없음 (마지막 날)',
               units={'day': '일', 'hour': '시간', 'min': '분'}, usep=' ', paren=(' (', ')'), comma_in=' (위치: {c})',
               joins={'; next, ': '; 다음으로 ', ' and then ': ', 그다음 '}, sep=' | ',
               flight='항공편 {n} ({a} {dep} 출발 → {b} {arr} 도착)', road='{how} ({a} → {b}, 약 {dur}, ${cost})',
               how={'taxi': '택시', 'drive': '자가용'},
               fre=r'항공편 (\S+) \((.+) (\d\d:\d\d) 출발 → (.+) (\d\d:\d\d) 도착\)', rre=r'(택시|자가용) \((.+) → (.+), 약 (.+), \$(\d+)\)',
               intro=("요청하신 여행 일정입니다:", "네! 날짜별 여행 계획은 다음과 같습니다:"), outro="즐거운 여행 되세요!"),
}
_CJK_WD = {'ja': '月火水木金土日', 'zh': '一二三四五六日', 'ko': '월화수목금토일'}


def _chead(lg, k, task, i) -> str:
    "The day head up to the route: '### 2日目 — 2022年3月17日（木）' | '### 第2天 — 2022年3月17日（星期四）' | '### 2일차 — ...'."
    d, w = _date(task, i), _CJK_WD[lg][_date(task, i).weekday()]
    return {'ja': f"### {k}日目 — {d.year}年{d.month}月{d.day}日（{w}）", 'zh': f"### 第{k}天 — {d.year}年{d.month}月{d.day}日（星期{w}）",
            'ko': f"### {k}일차 — {d.year}년 {d.month}월 {d.day}일 ({w})"}[lg]


def _cdur(lg, s) -> str:
    L = _CJK[lg]
    return L['usep'].join(f"{n}{L['units'][u]}" for n, u in _dur_key(s))


def _uncdur(lg, s) -> str:
    "A translated duration back to English words ('3 hours 11 mins'), checked to be written as `_cdur` writes it."
    L = _CJK[lg]
    back = {w: u for u, w in L['units'].items()}
    parts = re.findall(r'(\d+)(' + '|'.join(sorted(map(re.escape, back), key=len, reverse=True)) + ')', s)
    if L['usep'].join(f"{n}{w}" for n, w in parts) != s: raise ValueError(f"duration {s!r}")
    return ' '.join(f"{n} {back[w]}" for n, w in parts)


def _cvenue(lg, ph, v) -> str:
    n, c = _name_city(v)
    L = _CJK[lg]
    o, e = L['paren']
    if c and ph.loc == 'paren_postal': return f"{n}{o}{c}, {_POSTAL_OF[c]}{e}" if c in _POSTAL_OF else f"{n}{o}{c}{e}"
    if c and ph.loc == 'italic_paren': return f"{n}{o}{c}{e}"
    if c and ph.loc == 'comma_in': return n + L['comma_in'].format(c=c)
    return ph.venue(v)


def _uncvenue(lg, ph, s) -> str:
    L = _CJK[lg]
    o, e = L['paren']
    if ph.loc in ('paren_postal', 'italic_paren'):
        m = re.fullmatch(f"(.+){re.escape(o)}([^（）()]+){re.escape(e)}", s, re.S)
        if not m: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        c, sep, st = m[2].rpartition(', ')
        if ph.loc == 'paren_postal' and sep and c in _POSTAL_OF and _POSTAL_OF[c] == st: return f"{m[1]}, {c}"
        if ph.loc == 'paren_postal' and m[2] in _POSTAL_OF: raise ValueError(f"venue {s!r} without its state")
        return f"{m[1]}, {m[2]}"
    if ph.loc == 'comma_in':
        pre, _, post = L['comma_in'].partition('{c}')
        m = re.fullmatch(f"(.+){re.escape(pre)}(.+){re.escape(post)}", s, re.S)
        if not m: raise ValueError(f"venue {s!r} not placed as {ph.loc}")
        return f"{m[1]}, {m[2]}"
    return s


def _cjoin(lg, ph) -> str: return _CJK[lg]['joins'].get(ph.join, ph.join)


def _cleg(lg, t) -> str:
    p, L = _leg_parts(t), _CJK[lg]
    if p['mode'] == 'flight': return L['flight'].format(n=p['number'], a=p['a'], b=p['b'], dep=p['dep'], arr=p['arr'])
    return L['road'].format(how=L['how'][p['mode']], a=p['a'], b=p['b'], dur=_cdur(lg, p['duration']), cost=p['cost'])


def cjk_labels(plan, task, ph):
    """The answer in Japanese, Simplified Chinese or Korean (drawn): day heads "### 2日目 — 2022年3月17日（木）｜Rockford" /
    "### 第2天 — 2022年3月17日（星期四）｜A → B" / "### 2일차 — 2022년 3월 17일 (목) | Rockford", then six bullets with
    bold labels, every slot stated (なし / 无 / 없음 when empty; the last night なし（最終日・帰路）/ 无（返程日）/ 없음 (마지막
    날)): 移動 / 交通 / 이동 (flights "フライト F1（A 15:40発 → B 17:04着）", "航班 F1（A 15:40 出发 → B 17:04 到达）", "항공편 F1
    (A 15:40 출발 → B 17:04 도착)"; road legs "自家用車（A → B、約3時間11分、120ドル）", "自驾（A → B，约3小时11分钟，120美元）",
    "자가용 (A → B, 약 3시간 11분, $120)", taxis タクシー / 出租车 / 택시), 朝食 / 早餐 / 아침, 観光 / 景点 / 관광, 昼食 / 午餐 /
    점심, 夕食 / 晚餐 / 저녁, 宿泊 / 住宿 / 숙소; full-width colons and brackets in ja / zh ('X（City, ST）',
    'X（所在地：City）', 'X（位于City）', 'X (위치: City)'), joins translated ('；次に', '、それから', '；然后', '，然后'); names
    and cities verbatim (in English)."""
    r = ph.rng
    lg = r.choice(('ja', 'zh', 'ko'))
    L = _CJK[lg]
    lab = lambda k: f"- **{L['labels'][k]}**{L['colon']}"
    out = [r.choice(L['intro']), '']
    for i, d in enumerate(plan):
        out.append(_chead(lg, d['days'], task, i) + L['sep'] + _rt(d['current_city']))
        out.append(lab(0) + (_cleg(lg, d['transportation']) if d['transportation'] != '-' else L['none']))
        for k, m in ((1, 'breakfast'), (2, 'attraction'), (3, 'lunch'), (4, 'dinner')):
            if m == 'attraction':
                at = _attractions(d['attraction'])
                out.append(lab(k) + (_cjoin(lg, ph).join(_cvenue(lg, ph, x) for x in at) if at else L['none']))
            else: out.append(lab(k) + (_cvenue(lg, ph, d[m]) if d[m] != '-' else L['none']))
        out += [lab(5) + (_cvenue(lg, ph, d['accommodation']) if d['accommodation'] != '-' else L['none_stay']), '']
    return '\n'.join(out + [L['outro']])


_WHY_KEEP = ("it is on the way to the afternoon's sights", "it fits the budget better", "it has the better reviews")
_WHY_SKIP = ("the day is already full", "it needs more time than the day allows")
_FAQ_INTRO = "Here's your {n}-day trip from {org} to {dest}, answered the way people usually ask about it:"
_FAQ_OUTRO = ("Anything else you'd like to know?", "Ask away if something is unclear!")


def _faq_leg(t: str) -> str:
    p = _leg_parts(t)
    if p['mode'] == 'flight': return f"flight {p['number']} from {p['a']} to {p['b']}, departing {p['dep']} and landing {p['arr']}."
    return f"{'a taxi' if p['mode'] == 'taxi' else 'self-drive'} from {p['a']} to {p['b']}, about {p['duration']}, ${p['cost']}."


def faq_answers(plan, task, ph):
    """The plan as an FAQ, one "### ❓ question" per topic with bullets per day: "Where are we each day?" ("- Day 2 (Thu 17
    Mar): in Rockford" / "from A to B"), "How do we get around?" ("- Day 1: flight F1 from A to B, departing 15:40 and
    landing 17:04."; the days without a leg said or left out), "Where do we sleep?" ("- Nights of Day 1–2: X", "- Night
    of Day 3: no hotel — the trip ends."), "What are we eating?" ("- Day 1: Lunch stop: X · Dinner stop: Y (no
    breakfast)" in the drawn label, "nothing booked"), "What will we see?" (the drawn join, "nothing planned."); then one
    to three follow-ups about DECOYS answered with a clear no ("### ❓ Could we have lunch at Y on Day 2 instead?" / "No
    — Y is not in the plan; lunch on Day 2 stays at X (...).", "### ❓ Should we add Y?" / "Not this time — Y is not in
    the plan (...).", "### ❓ What about staying at Y?" / "I compared it, but Y is not booked; you stay at X (...).")."""
    r = ph.rng
    meals, stays, sights = _revision_decoys(plan, r, (1,))
    all_legs = r.random() < 0.5
    out = [_FAQ_INTRO.format(n=len(plan), org=_get(task, 'org'), dest=_get(task, 'dest')), '', '### ❓ Where are we each day?']
    for i, d in enumerate(plan):
        a, b = _cities(d['current_city'])
        out.append(f"- Day {d['days']} ({_fmt(task, i, 'dm')}): " + (f"from {a} to {b}" if a != b else f"in {a}"))
    out += ['', '### ❓ How do we get around?']
    for d in plan:
        if d['transportation'] != '-': out.append(f"- Day {d['days']}: {_faq_leg(d['transportation'])}")
        elif all_legs: out.append(f"- Day {d['days']}: no long-distance travel.")
    out += ['', '### ❓ Where do we sleep?']
    for a, b, acc in _runs(plan):
        out.append(f"- {_nights(plan, a, b)}: " + (ph.venue(acc) if acc != '-' else
                                                   'no hotel' + (' — the trip ends.' if b == len(plan) - 1 else '.')))
    out += ['', '### ❓ What are we eating?']
    for d in plan:
        ms, none = [ph.meal(m.capitalize(), d[m]) for m in _MEALS if d[m] != '-'], [m for m in _MEALS if d[m] == '-']
        out.append(f"- Day {d['days']}: " + (' · '.join(ms) + (f" (no {', no '.join(none)})" if none else '') if ms else 'nothing booked'))
    out += ['', '### ❓ What will we see?']
    for d in plan:
        at = _attractions(d['attraction'])
        out.append(f"- Day {d['days']}: " + (ph.items(at) if at else 'nothing planned.'))
    for (i, m), x in meals.items():
        k = plan[i]['days']
        out += ['', f"### ❓ Could we have {m} at {x} on Day {k} instead?",
                f"No — {x} is not in the plan; {m} on Day {k} stays at {_name_city(plan[i][m])[0]} ({r.choice(_WHY_KEEP)})."]
    for i, (_, x) in sights.items():
        out += ['', f"### ❓ Should we add {_name_city(x)[0]}?", f"Not this time — {_name_city(x)[0]} is not in the plan ({r.choice(_WHY_SKIP)})."]
    for (a, b), x in stays.items():
        out += ['', f"### ❓ What about staying at {x}?",
                f"I compared it, but {x} is not booked; you stay at {_name_city(plan[a]['accommodation'])[0]} ({r.choice(_WHY_STAY)})."]
    return '\n'.join(out + ['', r.choice(_FAQ_OUTRO)])


_DT_EMOJI = {'breakfast': '🍳', 'lunch': '🥪', 'dinner': '🍽️'}
_DT_INTRO = ("Here's the itinerary — tap a day to expand it:", "I've collapsed each day so the plan stays readable; click to open:")
_DT_OUTRO = ("Happy travels! 🧳", "Want me to add costs to each day?")


def details_collapsible(plan, task, ph):
    """One HTML <details> block per day, as assistants emit for long answers ("<details open>" on Day 1 in some
    renderings): "<summary><b>Day 2 · Thu, Mar 17 · Rockford</b> · 🛏 X</summary>" (the night's stay in the summary line
    in most renderings, "· 🏁 no hotel, heading home" on the last day; else a "- 🛏 X" bullet in the body), a blank line,
    emoji bullets — "- ✈️ Flight F1: A → B · 15:40 → 17:04" / "- 🚗 Self-drive: A → B · 3 hours 11 mins · $120" / "- 🚕
    Taxi: ...", "- 🍳 Breakfast stop: X" (the drawn meal label), "- 📍 A ➜ B" (the drawn join), "- 🥪 ...", "- 🍽️ ..."
    (an empty meal left out) — and "</details>"."""
    r = ph.rng
    in_summary, open_first = r.random() < 0.7, r.random() < 0.5
    out = [r.choice(_DT_INTRO), '']
    for i, d in enumerate(plan):
        acc = d['accommodation']
        stay = f"🛏 {ph.venue(acc)}" if acc != '-' else '🏁 no hotel, heading home'
        summ = f"<b>Day {d['days']} · {_fmt(task, i, 'mon')} · {_rt(d['current_city'])}</b>" + (f" · {stay}" if in_summary else '')
        out += ['<details open>' if i == 0 and open_first else '<details>', f"<summary>{summ}</summary>", '']
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            out.append(f"- ✈️ Flight {p['number']}: {p['a']} → {p['b']} · {p['dep']} → {p['arr']}" if p['mode'] == 'flight' else
                       f"- {'🚕 Taxi' if p['mode'] == 'taxi' else '🚗 Self-drive'}: {p['a']} → {p['b']} · {p['duration']} · ${p['cost']}")
        for m in _MEALS:
            if m == 'lunch' and (at := _attractions(d['attraction'])): out.append(f"- 📍 {ph.items(at)}")
            if d[m] != '-': out.append(f"- {_DT_EMOJI[m]} {ph.meal(m.capitalize(), d[m])}")
        if not in_summary: out.append(f"- {stay}")
        out += ['', '</details>', '']
    return '\n'.join(out + [r.choice(_DT_OUTRO)])


_GS_INTRO = ("Here's the whole trip as one numbered list of steps, in order — tick them off as you go:",
             "Step-by-step plan (numbered across the whole trip):")
_GS_OUTRO = ("🎉 That's it — safe travels!", "That's everything. Enjoy!")


def global_steps(plan, task, ph):
    """The whole trip as ONE numbered list of steps, numbered across the days: each day opens with "**Day 2 (Thu 3/17)**
    — all day in Rockford" / "— travel day: A → B"; then "**Day 3, morning** — 🧳 Check out of X" where a stay ended the
    night before, the leg and the meals and sights in time order ("**Day 1, 15:40** — ✈️ Fly A → B on F1 (lands
    17:04)", "**Day 3, 07:30** — 🚗 Drive yourself A → B (3 hours 11 mins, $120)" / "🚕 Take a taxi ...", "**Day 1,
    12:30** — Lunch stop: X" in the drawn label, "**Day 1, 09:30** — Visit X"), and "**Day 1, night** — 🏨 Check in at X
    (2 nights)" on the first night of a stay: the stay is stated only by check-in (with its nights) and check-out."""
    r = ph.rng
    runs = [(a, b, acc) for a, b, acc in _runs(plan) if acc != '-']
    checkin = {a: (b, acc) for a, b, acc in runs}
    checkout = {b + 1: acc for a, b, acc in runs if b + 1 < len(plan)}
    steps = []
    for i, d in enumerate(plan):
        k = d['days']
        a, b = _cities(d['current_city'])
        steps.append(f"**Day {k} ({_fmt(task, i, 'short')})** — " + (f"travel day: {a} → {b}" if a != b else f"all day in {a}"))
        if i in checkout: steps.append(f"**Day {k}, morning** — 🧳 Check out of {ph.venue(checkout[i])}")
        timed = []
        if d['transportation'] != '-':
            p = _leg_parts(d['transportation'])
            if p['mode'] == 'flight':
                h, m = map(int, p['dep'].split(':'))
                timed.append((h * 60 + m, p['dep'], f"✈️ Fly {p['a']} → {p['b']} on {p['number']} (lands {p['arr']})"))
            else:
                timed.append((450, '07:30', f"{'🚕 Take a taxi' if p['mode'] == 'taxi' else '🚗 Drive yourself'} {p['a']} → {p['b']} "
                                            f"({p['duration']}, ${p['cost']})"))
        timed += [(t, _hm(t), f"Visit {ph.venue(v)}" if kind == 'sight' else ph.meal(kind.capitalize(), v)) for t, kind, v in _timed(d)]
        steps += [f"**Day {k}, {hm}** — {s}" for _, hm, s in sorted(timed, key=lambda x: x[0])]
        if i in checkin:
            n = checkin[i][0] - i + 1
            steps.append(f"**Day {k}, night** — 🏨 Check in at {ph.venue(checkin[i][1])} ({n} night{'s' * (n > 1)})")
    return '\n'.join([r.choice(_GS_INTRO), ''] + [f"{j}. {s}" for j, s in enumerate(steps, 1)] + ['', r.choice(_GS_OUTRO)])


HELDOUT9_LAYOUTS = {f.__name__: f for f in (latex_doc, mermaid_gantt, strikethrough_revision, unified_diff, cjk_labels,
                                             faq_answers, details_collapsible, global_steps)}
"""Held-out part v9 (layouts and `HELDOUT9_PHRASES`, rendered with `Phr9`): sealed, scored once before any tuning."""


def _phr(name, t, j, p): return Phr9(HELDOUT9_PHRASES, random.Random(f"heldout9:{name}:{t.idx}:{j}"), p)


def renderings9(plans=None, layouts=None):
    "`[(layout, kind, task, plan, text)]`, seeded as tools/layouts.py seeds a part: `heldout9:{layout}:{task idx}:{j}`."
    out = []
    for j, (kind, t, p) in enumerate(plans or known_plans()):
        for name, f in HELDOUT9_LAYOUTS.items():
            if layouts and name not in layouts: continue
            out.append((name, kind, t, p, f(p, t, _phr(name, t, j, p))))
    return out

# ----------------------------------------------------------------------------------------------------------- self-check
# Each layout has its own parser below, written for the layout (not a general reader): each rendering is read back into
# the plan's own values — the route as current_city ('from A to B' | 'A'), the leg as its parts (flight number, cities,
# times; or mode, cities, duration, cost), each meal and the stay as 'Name, City' or '-', the sights as ['Name, City',
# ...] — and compared with the plan EXACTLY (`_cmp` of layouts_v8). Decoys (struck items, '-' lines, refused
# alternatives) are resolved as the text says.


# latex_doc ------------------------------------------------------------------------------------------------------------
def _tex_leg_item(s):
    if (q := re.fullmatch(r'Flight (\S+) from (.+) to (.+), (\d\d:\d\d)--(\d\d:\d\d)', s)):
        return ('flight', q[1], _untex(q[2]), _untex(q[3]), q[4], q[5])
    if (q := re.fullmatch(r'(Taxi|Self-drive) from (.+) to (.+) \((.+), \\\$(\d+)\)', s)):
        return _road_key('taxi' if q[1] == 'Taxi' else 'drive', _untex(q[2]), _untex(q[3]), q[4], q[5])
    raise ValueError(f"leg {s!r}")


def _tex_row(g, c, errs, k):
    if len(c) != 4: errs.append(f"day {k}: row {c}"); return
    t, what, where, city = c
    if what.startswith('Flight '):
        q, (a, b) = re.fullmatch(r'(\d\d:\d\d)--(\d\d:\d\d)', t), _two(where, _TEXARROW)
        _put(g, 'leg', ('flight', what[7:], _untex(a), _untex(b), q[1], q[2]), errs)
    elif (q := re.fullmatch(r'(Taxi|Self-drive), (.+), \\\$(\d+)', what)):
        a, b = _two(where, _TEXARROW)
        _put(g, 'leg', _road_key('taxi' if q[1] == 'Taxi' else 'drive', _untex(a), _untex(b), q[2], q[3]), errs)
    elif what in ('Breakfast', 'Lunch', 'Dinner'): _put(g, what.lower(), f"{_untex(where)}, {_untex(city)}", errs, f"day {k}: ")
    elif what == 'Sightseeing': g['attraction'].append(f"{_untex(where)}, {_untex(city)}")
    elif what == 'Overnight':
        if where != '\\textit{none (last day)}': _put(g, 'accommodation', f"{_untex(where)}, {_untex(city)}", errs)
    else: errs.append(f"day {k}: row {c}")


def _read_latex(text, task, plan, ph):
    errs, days, saids = [], [], []
    m = re.search(r'```(?:latex|tex)\n(.*?)\n```', text, re.S)
    if not m: return [], ['no latex block']
    ix = _dates(task, len(plan), 'tex')
    skip = set(_TEX_HEAD) | {'', '\\begin{itemize}', '\\end{itemize}', '\\bottomrule', '\\end{tabular}', '\\end{document}'}
    for sec in re.split(r'^\\section\*\{', m[1], flags=re.M)[1:]:
        head, _, body = sec.partition('\n')
        h = re.fullmatch(r'Day (\d+) --- (.+?): (.+)\}', head)
        if not h: errs.append(f"head {head!r}"); continue
        k = int(h[1])
        if k != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"day {k} dated {h[2]}")
        g = _blank(_back(h[3], _TEXARROW, _untex))
        days.append(g); saids.append([])
        for ln in body.split('\n'):
            s = ln.strip()
            if s in skip: continue
            if not s.startswith('\\item '):
                if s.endswith(' \\\\'): _tex_row(g, s[:-3].split(' & '), errs, k)
                else: errs.append(f"day {k}: line {s!r}")
                continue
            it = s[6:]
            if it.startswith('\\textbf{Travel:} '): _put(g, 'leg', _tex_leg_item(it[17:]), errs)
            elif it.startswith('\\textbf{Sightseeing:} '):
                if g['attraction']: errs.append(f"day {k}: sights twice")
                g['attraction'] = [_untvenue(ph, x) for x in it[22:].split(ph.join)]
            elif it.startswith('\\textbf{Overnight:} '):
                if it[20:] != 'none --- last day, heading home': _put(g, 'accommodation', _untvenue(ph, it[20:]), errs)
            elif (q := re.fullmatch(r'\\textit\{No (breakfast|lunch|dinner) planned\.\}', it)): _said(saids[-1], q[1], errs, f"day {k}: ")
            elif (mm := next((x for x in _MEALS if it.startswith(_tmeal(ph, x.capitalize()))), None)):
                _said(saids[-1], mm, errs, f"day {k}: ")
                _put(g, mm, _untvenue(ph, it[len(_tmeal(ph, mm.capitalize())):]), errs, f"day {k}: ")
            else: errs.append(f"day {k}: item {it!r}")
    if '\\textit{No ' in text: _all_said(saids, errs)
    return days, errs


# mermaid_gantt --------------------------------------------------------------------------------------------------------
def _read_mermaid(text, task, plan, ph):
    errs, days = [], []
    m = re.search(r'```mermaid\ngantt\n(.*?)\n```', text, re.S)
    if not m: return [], ['no mermaid gantt block']
    ix = _dates(task, len(plan), 'iso')
    sec = None
    for ln in m[1].split('\n'):
        s = ln.strip()
        if s.startswith('%%') or (sec is None and s.startswith(('title ', 'dateFormat ', 'axisFormat '))): continue
        if s.startswith('section '):
            if (h := re.fullmatch(r'section Day (\d+) · (.+)', s)):
                if int(h[1]) != len(days) + 1: errs.append(f"section {s!r} in place {len(days) + 1}")
                days.append(_blank(_back(h[2]))); sec = 'day'
            elif s == 'section 🏨 Stays': sec = 'stays'
            else: errs.append(f"section {s!r}")
            continue
        title, sep, meta = s.rpartition(' :')
        if sec is None or not sep: errs.append(f"line {s!r}"); continue
        if sec == 'stays':
            q = re.fullmatch(r'active, stay\d+, (\S+) 15:00, (\S+) 11:00', meta)
            if not q: errs.append(f"stay {s!r}"); continue
            d0, d1 = datetime.date.fromisoformat(q[1]), datetime.date.fromisoformat(q[2])
            if d1 <= d0: errs.append(f"stay {s!r} of no night")
            while d0 < d1:
                i = ix.get(d0.isoformat())
                if i is None or i >= len(days): errs.append(f"stay {title!r} on {d0} outside the trip")
                else: _put(days[i], 'accommodation', _unvenue(ph, title, True), errs, f"night {i + 1}: ")
                d0 += _DAY_SPAN
            continue
        k, g = len(days), days[-1]
        when = re.match(r'(?:crit, |)d\d+\w+, (\S+) (\d\d:\d\d), ', meta)
        if not when or ix.get(when[1]) != k - 1: errs.append(f"day {k}: task {s!r} not on its day"); continue
        if (q := re.fullmatch(r'✈ Flight (\S+) (.+) → (.+)', title)):
            w = re.fullmatch(r'crit, d\d+leg, (\S+) (\d\d:\d\d), (\S+) (\d\d:\d\d)', meta)
            if not w or datetime.date.fromisoformat(w[3]) != _date(task, k - 1) + _DAY_SPAN * (w[4] < w[2]):
                errs.append(f"flight {s!r}"); continue
            _put(g, 'leg', ('flight', q[1], q[2], q[3], w[2], w[4]), errs)
        elif (q := re.fullmatch(r'(🚕 Taxi|🚗 Self-drive) (.+) → (.+) · (.+) · \$(\d+)', title)):
            _put(g, 'leg', _leg_back(q, '🚕 Taxi'), errs)
        elif title.startswith('Visit '): g['attraction'].append(_unvenue(ph, title[6:], True))
        elif (q := re.fullmatch(r'(Breakfast|Lunch|Dinner) — (.+)', title)): _put(g, q[1].lower(), _unvenue(ph, q[2], True), errs, f"day {k}: ")
        elif title.startswith('🛏 Overnight — '): _put(g, 'accommodation', _unvenue(ph, title[len('🛏 Overnight — '):], True), errs)
        else: errs.append(f"day {k}: task {s!r}")
    return days, errs


# strikethrough_revision -----------------------------------------------------------------------------------------------
def _unstrike(v: str, errs: list, where: str) -> str:
    "The kept part of '~~Y~~ X' (or of a plain X); a strike that keeps nothing is an error."
    if (m := re.fullmatch(r'~~(.+?)~~ (.+)', v)):
        if '~~' in m[2] or m[1] == m[2]: errs.append(f"{where}strike {v!r}")
        return m[2]
    if '~~' in v: errs.append(f"{where}strike {v!r}")
    return v


def _read_strike(text, task, plan, ph):
    errs, days, saids = [], [], []
    ix = _dates(task, len(plan), 'long')
    for ln in text.splitlines():
        if ln.startswith('## Day '):
            h = re.fullmatch(r'## Day (\d+) · (.+?) · (.+)', ln)
            if not h or int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}"); continue
            days.append(_blank(_back(h[3]))); saids.append([])
            continue
        if not ln.strip() or ln in _ST_INTRO or ln in _ST_OUTRO or ln.startswith('**What changed:** '): continue
        if not days or not ln.startswith('- '): errs.append(f"line {ln!r}"); continue
        g, k, s = days[-1], len(days), ln[2:]
        note = re.search(r' — _[^_]+_$', s)
        if note: s = s[:note.start()]
        if s.startswith('**Travel:** '):
            v = s[12:]
            if (q := re.fullmatch(r'flight (\S+), (.+) → (.+), dep\. (\d\d:\d\d) / arr\. (\d\d:\d\d)', v)): _put(g, 'leg', ('flight', *q.groups()), errs)
            elif (q := re.fullmatch(r'(taxi|self-drive), (.+) → (.+), ~(.+), \$(\d+)', v)): _put(g, 'leg', _leg_back(q, 'taxi'), errs)
            else: errs.append(f"day {k}: leg {v!r}")
        elif s.startswith('**Sights:** '):
            if g['attraction']: errs.append(f"day {k}: sights twice")
            items = s[12:].split(ph.join)
            live = [x for x in items if not (x.startswith('~~') and x.endswith('~~'))]
            if (len(live) < len(items)) != bool(note) or any('~~' in x for x in live): errs.append(f"day {k}: sights {s!r}")
            g['attraction'] = [_unvenue(ph, x) for x in live]
        elif s.startswith('**Stay:** '):
            v = _unstrike(s[10:], errs, f"day {k}: ")
            if v != 'none (last day)': _put(g, 'accommodation', _unvenue(ph, v), errs)
        elif (q := re.fullmatch(r'_No (breakfast|lunch|dinner) planned_', s)): _said(saids[-1], q[1], errs, f"day {k}: ")
        elif (mm := _unmeal(ph, s)):
            _said(saids[-1], mm[0], errs, f"day {k}: ")
            v = _unstrike(mm[1], errs, f"day {k}: ")
            if (v != mm[1]) != bool(note): errs.append(f"day {k}: a strike without its reason, or a reason without a strike: {ln!r}")
            _put(g, mm[0], _unvenue(ph, v), errs, f"day {k}: ")
        else: errs.append(f"day {k}: line {ln!r}")
    if '\n- _No ' in text: _all_said(saids, errs)
    return days, errs


# unified_diff ---------------------------------------------------------------------------------------------------------
def _diff_body(text) -> tuple[list[str], str]:
    "(the hunk's lines, its header) of the ```diff block."
    m = re.search(r'```diff\n(.*?)\n```', text, re.S)
    if not m: raise ValueError('no diff block')
    lines = m[1].split('\n')
    k = next(i for i, l in enumerate(lines) if l.startswith('@@ '))
    if lines[k - 2:k] != ['--- a/trip/itinerary.md', '+++ b/trip/itinerary.md']: raise ValueError('no file header')
    return lines[k + 1:], lines[k]


def _read_diff(text, task, plan, ph):
    errs, days, saids = [], [], []
    body, head = _diff_body(text)
    if head != _hunk(body): errs.append(f"hunk {head!r} for {_hunk(body)!r}")
    if any(l[:1] not in (' ', '-', '+') for l in body): errs.append('a line without its marker')
    ix = _dates(task, len(plan), 'iso')
    sub = None
    for ln in (l[1:] for l in body if l[:1] in ' +'):
        if ln.startswith('## Day '):
            h = re.fullmatch(r'## Day (\d+) — (\S+) — (.+)', ln)
            if not h or int(h[1]) != len(days) + 1 or ix.get(h[2]) != len(days): errs.append(f"head {ln!r}"); continue
            days.append(_blank(_back(h[3]))); saids.append([]); sub = None
            continue
        if not days:
            if ln.startswith('# ') or not ln: continue
            errs.append(f"line {ln!r}"); continue
        g, k = days[-1], len(days)
        if sub == 'sights' and ln.startswith('  - '): g['attraction'].append(_unvenue(ph, ln[4:])); continue
        if sub == 'sights' and not g['attraction']: errs.append(f"day {k}: no sight under 'Sights:'")
        sub = None
        if not ln: continue
        if ln.startswith('- Travel: '):
            v = ln[10:]
            if (q := re.fullmatch(r'✈ (\S+), (.+) → (.+), (\d\d:\d\d)–(\d\d:\d\d)', v)): _put(g, 'leg', ('flight', *q.groups()), errs)
            elif (q := re.fullmatch(r'(🚕 taxi|🚗 self-drive) (.+) → (.+), (.+), \$(\d+)', v)): _put(g, 'leg', _leg_back(q, '🚕 taxi'), errs)
            else: errs.append(f"day {k}: leg {v!r}")
        elif ln == '- Sights:':
            if g['attraction']: errs.append(f"day {k}: sights twice")
            sub = 'sights'
        elif ln.startswith('- Hotel: '):
            if ln[9:] != 'none (last day)': _put(g, 'accommodation', _unvenue(ph, ln[9:]), errs)
        elif (q := re.fullmatch(r'- \(no (breakfast|lunch|dinner)\)', ln)): _said(saids[-1], q[1], errs, f"day {k}: ")
        elif ln.startswith('- ') and (mm := _unmeal(ph, ln[2:])):
            _said(saids[-1], mm[0], errs, f"day {k}: ")
            _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
        else: errs.append(f"day {k}: line {ln!r}")
    _all_said(saids, errs)
    return days, errs


# cjk_labels -----------------------------------------------------------------------------------------------------------
def _read_cjk(text, task, plan, ph):
    lg = next((lg for lg in _CJK if _chead(lg, 1, task, 0) + _CJK[lg]['sep'] in text), None)
    if lg is None: return [], ['language not found']
    L, errs, days, seen = _CJK[lg], [], [], []
    labels = {f"- **{w}**{L['colon']}": k for k, w in zip(('leg', 'breakfast', 'attraction', 'lunch', 'dinner', 'accommodation'), L['labels'])}
    for ln in text.splitlines():
        if ln.startswith('### '):
            want = _chead(lg, len(days) + 1, task, len(days)) + L['sep'] if len(days) < len(plan) else None
            if not want or not ln.startswith(want): errs.append(f"head {ln!r}"); continue
            days.append(_blank(_back(ln[len(want):]))); seen.append([])
            continue
        if not ln.strip() or ln in L['intro'] or ln == L['outro']: continue
        hit = [(p, k) for p, k in labels.items() if ln.startswith(p)]
        if not days or len(hit) != 1: errs.append(f"line {ln!r}"); continue
        (p, key), g, v = hit[0], days[-1], ln[len(hit[0][0]):]
        seen[-1].append(key)
        if v == L['none'] or (key == 'accommodation' and v == L['none_stay']): continue
        if key == 'leg':
            if (q := re.fullmatch(L['fre'], v)): g['leg'] = ('flight', q[1], q[2], q[4], q[3], q[5])
            elif (q := re.fullmatch(L['rre'], v)):
                g['leg'] = _road_key('taxi' if q[1] == L['how']['taxi'] else 'drive', q[2], q[3], _uncdur(lg, q[4]), q[5])
            else: errs.append(f"leg {v!r}")
        elif key == 'attraction': g['attraction'] = [_uncvenue(lg, ph, x) for x in v.split(_cjoin(lg, ph))]
        else: g[key] = _uncvenue(lg, ph, v)
    for k, s in enumerate(seen, 1):
        if s != ['leg', 'breakfast', 'attraction', 'lunch', 'dinner', 'accommodation']: errs.append(f"day {k}: labels {s}")
    return days, errs


# faq_answers ----------------------------------------------------------------------------------------------------------
def _read_faq(text, task, plan, ph):
    errs, days, saids, swaps = [], [], [], []
    ix = _dates(task, len(plan), 'dm')
    for o in _FAQ_OUTRO:
        if text.endswith('\n' + o): text = text[:-len(o) - 1]
    secs = re.split(r'^### ❓ ', text, flags=re.M)
    if secs[0].strip() != _FAQ_INTRO.format(n=len(plan), org=_get(task, 'org'), dest=_get(task, 'dest')): errs.append('intro')
    day = lambda s: days[int(s) - 1] if 1 <= int(s) <= len(days) else None
    for sec in secs[1:]:
        q, _, body = sec.partition('\n')
        lines = [l for l in body.split('\n') if l.strip()]
        if q == 'Where are we each day?':
            for l in lines:
                m = re.fullmatch(r'- Day (\d+) \((.+?)\): (?:from (.+) to (.+)|in (.+))', l)
                if not m or int(m[1]) != len(days) + 1 or ix.get(m[2]) != len(days): errs.append(f"route {l!r}"); continue
                days.append(_blank(_cc(m[3], m[4]) if m[3] else m[5])); saids.append([])
            continue
        if not days: errs.append(f"section {q!r} before the routes"); continue
        for l in lines if q in ('How do we get around?', 'What are we eating?', 'What will we see?') else ():
            m = re.fullmatch(r'- Day (\d+): (.+)', l)
            if not m or day(m[1]) is None: errs.append(f"{q} {l!r}"); continue
            g, k, v = day(m[1]), int(m[1]), m[2]
            if q == 'How do we get around?':
                if v == 'no long-distance travel.': continue
                if (w := re.fullmatch(r'flight (\S+) from (.+) to (.+), departing (\d\d:\d\d) and landing (\d\d:\d\d)\.', v)):
                    _put(g, 'leg', ('flight', *w.groups()), errs)
                elif (w := re.fullmatch(r'(a taxi|self-drive) from (.+) to (.+), about (.+), \$(\d+)\.', v)): _put(g, 'leg', _leg_back(w, 'a taxi'), errs)
                else: errs.append(f"day {k}: leg {v!r}")
            elif q == 'What are we eating?':
                if saids[k - 1]: errs.append(f"day {k}: meals twice")
                if v == 'nothing booked': saids[k - 1] += list(_MEALS); continue
                none = re.search(r' \(no ([a-z, ]+)\)$', v)
                if none: v = v[:none.start()]; saids[k - 1] += none[1].split(', no ')
                for x in v.split(' · '):
                    if not (mm := _unmeal(ph, x)): errs.append(f"day {k}: meal {x!r}"); continue
                    _said(saids[k - 1], mm[0], errs, f"day {k}: ")
                    _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
            else:
                if g['attraction']: errs.append(f"day {k}: sights twice")
                if v != 'nothing planned.': g['attraction'] = _unitems(ph, v)
        if q == 'Where do we sleep?':
            for l in lines:
                m = re.fullmatch(r'- Nights? of Day (\d+)(?:–(\d+))?: (.+)', l)
                if not m or day(m[1]) is None or day(m[2] or m[1]) is None or int(m[2] or m[1]) < int(m[1]): errs.append(f"stay {l!r}"); continue
                if m[3] in ('no hotel — the trip ends.', 'no hotel.'): continue
                for k in range(int(m[1]), int(m[2] or m[1]) + 1): _put(days[k - 1], 'accommodation', _unvenue(ph, m[3]), errs, f"night {k}: ")
        elif (m := re.fullmatch(r'Could we have (breakfast|lunch|dinner) at (.+) on Day (\d+) instead\?', q)):
            a = re.fullmatch(r'No — (.+) is not in the plan; (\w+) on Day (\d+) stays at (.+) \((.+)\)\.', lines[0] if len(lines) == 1 else '')
            if a and (a[1], a[2], a[3]) == (m[2], m[1], m[3]): swaps.append(('keep', m[1], int(m[3]), a[4]))
            elif len(lines) == 1 and (a := re.fullmatch(r'Yes — (.+) replaces (.+)\.', lines[0])): swaps.append(('swap', a[1], a[2]))
            else: errs.append(f"answer to {q!r}: {lines}")
        elif (m := re.fullmatch(r'Should we add (.+)\?', q)):
            a = re.fullmatch(r'Not this time — (.+) is not in the plan \((.+)\)\.', lines[0] if len(lines) == 1 else '')
            if not a or a[1] != m[1]: errs.append(f"answer to {q!r}: {lines}")
        elif (m := re.fullmatch(r'What about staying at (.+)\?', q)):
            a = re.fullmatch(r'I compared it, but (.+) is not booked; you stay at (.+) \((.+)\)\.', lines[0] if len(lines) == 1 else '')
            if a and a[1] == m[1]: swaps.append(('keep', 'accommodation', None, a[2]))
            elif len(lines) == 1 and (a := re.fullmatch(r'Yes — (.+) replaces (.+)\.', lines[0])): swaps.append(('swap', a[1], a[2]))
            else: errs.append(f"answer to {q!r}: {lines}")
        elif q not in ('How do we get around?', 'What are we eating?', 'What will we see?'): errs.append(f"question {q!r}")
    for s in swaps:
        if s[0] == 'keep':
            names = {_name_city(g[s[1]])[0] for g in ([day(s[2])] if s[2] else days) if g and g[s[1]] != '-'}
            if s[3] not in names: errs.append(f"kept {s[3]!r} is not the plan's {s[1]}")
            continue
        for g in days:
            for key in (*_MEALS, 'accommodation'):
                if g[key] != '-' and _name_city(g[key])[0] == s[2]: g[key] = f"{s[1]}, {_name_city(g[key])[1]}"
    _all_said(saids, errs)
    return days, errs


# details_collapsible --------------------------------------------------------------------------------------------------
def _read_details(text, task, plan, ph):
    errs, days = [], []
    ix = _dates(task, len(plan), 'mon')
    blocks = re.split(r'^<details(?: open)?>\n', text, flags=re.M)
    if blocks[0].strip() not in _DT_INTRO: errs.append('intro')
    for blk in blocks[1:]:
        body, sep, rest = blk.partition('\n</details>\n')
        if not sep or rest.strip() not in ('', *_DT_OUTRO): errs.append('block not closed'); continue
        summ, _, body = body.partition('\n')
        m = re.fullmatch(r'<summary><b>Day (\d+) · (.+?) · (.+?)</b>(?: · (.+))?</summary>', summ)
        if not m or int(m[1]) != len(days) + 1 or ix.get(m[2]) != len(days): errs.append(f"summary {summ!r}"); continue
        g, k = _blank(_back(m[3])), int(m[1])
        days.append(g)
        stays = [m[4]] if m[4] else []
        for ln in body.split('\n'):
            if not ln: continue
            if (q := re.fullmatch(r'- ✈️ Flight (\S+): (.+) → (.+) · (\d\d:\d\d) → (\d\d:\d\d)', ln)): _put(g, 'leg', ('flight', *q.groups()), errs)
            elif (q := re.fullmatch(r'- (🚕 Taxi|🚗 Self-drive): (.+) → (.+) · (.+) · \$(\d+)', ln)): _put(g, 'leg', _leg_back(q, '🚕 Taxi'), errs)
            elif ln.startswith('- 📍 '):
                if g['attraction']: errs.append(f"day {k}: sights twice")
                g['attraction'] = _unitems(ph, ln[4:])
            elif ln.startswith(('- 🛏 ', '- 🏁 ')): stays.append(ln[2:])
            elif (mm := next((x for x in _MEALS if ln.startswith(f"- {_DT_EMOJI[x]} {ph.meal_prefix(x.capitalize())}")), None)):
                _put(g, mm, _unvenue(ph, ln[len(f"- {_DT_EMOJI[mm]} {ph.meal_prefix(mm.capitalize())}"):]), errs, f"day {k}: ")
            else: errs.append(f"day {k}: line {ln!r}")
        if len(stays) != 1: errs.append(f"day {k}: stays {stays}"); continue
        if stays[0].startswith('🛏 '): g['accommodation'] = _unvenue(ph, stays[0][2:])
        elif stays[0] != '🏁 no hotel, heading home': errs.append(f"day {k}: stay {stays[0]!r}")
    return days, errs


# global_steps ---------------------------------------------------------------------------------------------------------
def _read_steps(text, task, plan, ph):
    errs, days, ins, outs, n = [], [], [], [], 0
    ix = _dates(task, len(plan), 'short')
    for ln in text.splitlines():
        if not re.match(r'\d+\. ', ln):
            if ln.strip() and ln not in _GS_INTRO and ln not in _GS_OUTRO: errs.append(f"line {ln!r}")
            continue
        m = re.fullmatch(r'(\d+)\. \*\*Day (\d+)(?: \(([^)]*)\)|, (morning|night|\d\d:\d\d))\*\* — (.+)', ln)
        n += 1
        if not m or int(m[1]) != n: errs.append(f"step {ln!r} (step {n})"); continue
        k, s, when = int(m[2]), m[5], m[4]
        if m[3] is not None:
            if k != len(days) + 1 or ix.get(m[3]) != len(days): errs.append(f"day {k} dated {m[3]}"); continue
            if (q := re.fullmatch(r'travel day: (.+) → (.+)', s)): days.append(_blank(_cc(q[1], q[2])))
            elif s.startswith('all day in '): days.append(_blank(s[11:]))
            else: errs.append(f"day {k}: {s!r}")
            continue
        if k != len(days): errs.append(f"step {ln!r} outside its day"); continue
        g = days[-1]
        if when == 'morning':
            if (q := re.fullmatch(r'🧳 Check out of (.+)', s)): outs.append((k, _unvenue(ph, q[1])))
            else: errs.append(f"day {k}: {s!r}")
        elif when == 'night':
            if (q := re.fullmatch(r'🏨 Check in at (.+) \((\d+) nights?\)', s)): ins.append((k, _unvenue(ph, q[1]), int(q[2])))
            else: errs.append(f"day {k}: {s!r}")
        elif (q := re.fullmatch(r'✈️ Fly (.+) → (.+) on (\S+) \(lands (\d\d:\d\d)\)', s)): _put(g, 'leg', ('flight', q[3], q[1], q[2], when, q[4]), errs)
        elif (q := re.fullmatch(r'(🚕 Take a taxi|🚗 Drive yourself) (.+) → (.+) \((.+), \$(\d+)\)', s)) and when == '07:30':
            _put(g, 'leg', _leg_back(q, '🚕 Take a taxi'), errs)
        elif s.startswith('Visit '): g['attraction'].append(_unvenue(ph, s[6:]))
        elif (mm := _unmeal(ph, s)): _put(g, mm[0], _unvenue(ph, mm[1]), errs, f"day {k}: ")
        else: errs.append(f"day {k}: {s!r}")
    for k, v, nights in ins:
        for j in range(k, k + nights):
            if j > len(days): errs.append(f"night of day {j} after the trip"); break
            _put(days[j - 1], 'accommodation', v, errs, f"night {j}: ")
        if k + nights <= len(days):
            if (k + nights, v) in outs: outs.remove((k + nights, v))
            else: errs.append(f"no check-out of {v!r} on day {k + nights}")
    if outs: errs.append(f"check-outs without a check-in: {outs}")
    return days, errs


_READERS = {'latex_doc': _read_latex, 'mermaid_gantt': _read_mermaid, 'strikethrough_revision': _read_strike,
            'unified_diff': _read_diff, 'cjk_labels': _read_cjk, 'faq_answers': _read_faq,
            'details_collapsible': _read_details, 'global_steps': _read_steps}


def _check_one(name, task, plan, text, ph) -> list[str]:
    "Errors of one rendering (empty = it states exactly the plan, as far as this reader-free check can tell)."
    errs = []
    plan_text = ' '.join(str(v) for d in plan for v in d.values())
    for bad in (r'\bNone\b', r'\bnan\b', r'\bnull\b') + (('[{}]',) if name != 'latex_doc' else ()):
        if re.search(bad, text) and not re.search(bad, plan_text): errs.append(f"{bad!r} in the text")
    try:
        got, e = _READERS[name](text, task, plan, ph)
        return errs + e + _cmp(plan, got)
    except (IndexError, KeyError, ValueError, TypeError, AttributeError, AssertionError, StopIteration) as e:
        return errs + [f"does not parse back: {e!r}"]

# ---------------------------------------------------------------------------------------------------------- corruptions
def _relabel(name, ph, text):
    "(lunch marker, dinner marker) of a layout: the first lunch made a dinner."
    if name == 'latex_doc':
        return (' & Lunch & ', ' & Dinner & ') if ' & Lunch & ' in text else (f"\\item {_tmeal(ph, 'Lunch')}", f"\\item {_tmeal(ph, 'Dinner')}")
    if name == 'mermaid_gantt': return '\n    Lunch — ', '\n    Dinner — '
    if name == 'strikethrough_revision': return f"\n- {ph.meal_prefix('Lunch')}", f"\n- {ph.meal_prefix('Dinner')}"
    if name == 'unified_diff': return f"\n - {ph.meal_prefix('Lunch')}", f"\n - {ph.meal_prefix('Dinner')}"
    if name == 'cjk_labels':
        L = next(L for L in _CJK.values() if f"- **{L['labels'][3]}**{L['colon']}" in text)
        return f"- **{L['labels'][3]}**", f"- **{L['labels'][4]}**"
    if name == 'faq_answers': return ph.meal_prefix('Lunch'), ph.meal_prefix('Dinner')
    if name == 'details_collapsible': return f"- 🥪 {ph.meal_prefix('Lunch')}", f"- 🍽️ {ph.meal_prefix('Dinner')}"
    return f"— {ph.meal_prefix('Lunch')}", f"— {ph.meal_prefix('Dinner')}"


def _rehunk(text):
    "The ```diff block with its hunk header recounted (for corruptions that add or remove lines)."
    body, head = _diff_body(text)
    return text.replace('\n' + head + '\n', '\n' + _hunk(body) + '\n', 1)


_DAY_HEAD = {'latex_doc': r'\\section\*\{Day \d+ ', 'mermaid_gantt': r'    section ', 'strikethrough_revision': r'## Day \d+ ',
             'cjk_labels': r'### ', 'details_collapsible': r'<details'}


def _drop_day(name, text, task, k=1):
    "The text without day k (0-based): its lines removed."
    n = str(k + 1)
    if name == 'faq_answers': return re.sub(rf'^- Day {n}\b.*\n', '', text, flags=re.M)
    if name == 'global_steps': return re.sub(rf'^\d+\. \*\*Day {n}[ ,].*\n', '', text, flags=re.M)
    if name == 'unified_diff':
        out, skip = [], False
        for ln in text.split('\n'):
            if re.match(r'[ +-]## Day \d+ ', ln): skip = ln[1:].startswith(f"## Day {n} ")
            out.append(ln) if not skip or not ln or ln[0] not in ' +-' or ln.startswith(('---', '+++')) else None
        return _rehunk('\n'.join(out))
    out, skip, d = [], False, -1
    for ln in text.split('\n'):
        if re.match(_DAY_HEAD[name], ln):
            is_day = name != 'mermaid_gantt' or ln.startswith('    section Day ')
            d += is_day
            skip = is_day and d == k
        if not skip: out.append(ln)
    return '\n'.join(out)


def _decoy_promotions(name, plan, text):
    "[(what, text)]: a decoy of the layout taken for the plan."
    out = []
    if name == 'strikethrough_revision':
        m = next((m for m in re.finditer(r'~~([^~\n]+)~~ ([^~\n]+?) — _', text)
                  if not text[text.rfind('\n', 0, m.start()) + 1:].startswith('- **Sights:** ')), None)
        if m: out.append(("struck and kept swapped", text[:m.start()] + f"~~{m[2]}~~ {m[1]} — _" + text[m.end():]))
        if (m := re.search(r'^- \*\*Sights:\*\* .*~~.*$', text, re.M)):
            out.append(("struck sight restored", text[:m.start()] + m[0].replace('~~', '') + text[m.end():]))
    if name == 'unified_diff':
        lines = text.split('\n')
        k = next((i for i, l in enumerate(lines) if l.startswith('-') and not l.startswith('---')), None)
        if k is not None:
            if lines[k + 1].startswith('+') and not lines[k + 1].startswith('+++'):
                lines[k], lines[k + 1] = '+' + lines[k][1:], '-' + lines[k + 1][1:]
                out.append(("removed and added lines swapped", '\n'.join(lines)))
            else:
                lines[k] = ' ' + lines[k][1:]
                out.append(("removed line kept", _rehunk('\n'.join(lines))))
    if name == 'faq_answers':
        for pat in (r'No — (.+) is not in the plan; \w+ on Day \d+ stays at (.+) \(.+\)\.', r'I compared it, but (.+) is not booked; you stay at (.+) \(.+\)\.'):
            if (m := re.search(pat, text)): out.append(("a refused swap accepted", text[:m.start()] + f"Yes — {m[1]} replaces {m[2]}." + text[m.end():]))
    return out


def _time_shift(name, plan, text):
    "The first flight's departure moved a minute, in the line that states the flight."
    fl = [_leg_parts(d['transportation']) for d in plan if d['transportation'].startswith('Flight')]
    if not fl: return None
    dep, num = fl[0]['dep'], fl[0]['number']
    h, m = map(int, dep.split(':'))
    new = f"{h:02d}:{(m + 1) % 60:02d}" if m < 59 else f"{h:02d}:{m - 1:02d}"
    lines = text.split('\n')
    for j, ln in enumerate(lines):
        if num in ln and dep in ln and not (name == 'unified_diff' and ln.startswith('-')):
            lines[j] = ln.replace(dep, new, 1)
            return '\n'.join(lines)
    return None


def _longer_stay(name, text):
    "A stay made one night longer (global_steps: its check-in; mermaid_gantt: its bar)."
    if name == 'global_steps' and (m := re.search(r'\((\d+) nights?\)', text)):
        return text[:m.start()] + f"({int(m[1]) + 1} nights)" + text[m.end():]
    if name == 'mermaid_gantt' and (m := re.search(r':active, stay\d+, \S+ 15:00, (\S+) 11:00', text)):
        d1 = datetime.date.fromisoformat(m[1]) + _DAY_SPAN
        return text[:m.start(1)] + d1.isoformat() + text[m.end(1):]
    return None


def mutations(name, plan, text, task, ph):
    """[(kind, what, corrupted text)]: a name deleted, two days' lunches swapped, a day's lunch and dinner swapped, a
    flight renumbered, sights of two days swapped, two stays swapped, a lunch label made dinner, day 2 dropped, a flight's
    departure moved; per layout a decoy promoted (a strike swapped or undone, a '-' line kept or swapped with its '+', a
    refused swap accepted) and a stay made a night longer (global_steps, mermaid_gantt)."""
    out = _common_mutations(plan, text)
    a, b = _relabel(name, ph, text)
    if a in text: out.append(('a lunch labelled dinner', '', text.replace(a, b, 1)))
    out.append(('a day dropped', 'day 2', _drop_day(name, text, task, 1)))
    if (s := _time_shift(name, plan, text)): out.append(("a flight's departure moved", '', s))
    out += [('decoy promoted', w, s) for w, s in _decoy_promotions(name, plan, text)]
    if (s := _longer_stay(name, text)): out.append(("a stay made a night longer", '', s))
    return [x for x in out if x[2] != text]


_HAS_DECOY = {'strikethrough_revision': lambda t: '~~' in t, 'unified_diff': lambda t: bool(re.search(r'^-(?!--)', t, re.M)),
              'faq_answers': lambda t: ' is not in the plan' in t or ' is not booked' in t}


def selfcheck(plans=None, mutate_every: int = 1) -> int:
    "The part's self-check (`layouts.selfcheck_part`): failures + missed corruptions."
    return selfcheck_part(HELDOUT9_LAYOUTS, _phr, _check_one, mutations,
                          lambda lay, text: lay in _HAS_DECOY and _HAS_DECOY[lay](text), plans, mutate_every)


if __name__ == '__main__':
    part_cli(__doc__, HELDOUT9_LAYOUTS, _phr, selfcheck)
