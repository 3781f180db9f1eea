#!/usr/bin/env python
"""How dense a chapter reads, per notebook (the measures of issue 35, item 5, beside fastcore / claudette):

    python tools/nb_density.py nbs/02_evaluator.ipynb nbs/03_rewards.ipynb     # one row per notebook
    python tools/nb_density.py --all                                           # nbs/*.ipynb and nbs/figures/*.ipynb
    python tools/nb_density.py --split nbs/02_evaluator.ipynb                  # rewrite `a; b` lines as two lines

Columns: code cells, their line count median / p90 / max (directive lines `#|` excluded), `;`-joined lines (found
with `tokenize`, so a `;` inside a string or a comment does not count), words per markdown cell (mean), exported
public functions, how many of them carry docments on every parameter (fastcore style: a `# comment` after each
parameter in the signature), and the share of exports followed by a demo cell with an output.

`--split` rewrites each line of code cells that joins statements with `;` into one line per statement at the same
indentation; `if x: a; b` (any one-line compound statement but `def` / `class`) becomes the header and its statements
indented below it. A cell whose rewrite would not parse is left as it was.
"""
from __future__ import annotations

import argparse, ast, io, json, statistics, sys, tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cells(nb_path) -> list[dict]:
    return json.loads(Path(nb_path).read_text())["cells"]


def _src(cell) -> str:
    s = cell["source"]
    return "".join(s) if isinstance(s, list) else s


def _body_lines(src: str) -> list[str]:
    "Lines of a code cell that count: not blank, not an nbdev directive."
    return [l for l in src.splitlines() if l.strip() and not l.lstrip().startswith("#|")]


def _tokens(src: str):
    "Tokens of `src`, or [] when it is not Python (a cell magic, a shell line)."
    try: return list(tokenize.generate_tokens(io.StringIO(src).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError): return []


def semicolon_lines(src: str) -> list[int]:
    """1-based line numbers of `src` where a `;` operator (not in a string or comment) joins two statements; a
    trailing `;` (IPython's 'show no output') joins nothing and does not count."""
    toks = [t for t in _tokens(src) if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT)]
    return sorted({t.start[0] for t, nxt in zip(toks, toks[1:]) if t.type == tokenize.OP and t.string == ";"
                   and nxt.type not in (tokenize.NEWLINE, tokenize.ENDMARKER)})


_HEADERS = {"if", "elif", "else", "for", "while", "with", "try", "except", "finally", "async"}


def _splittable(line: str, toks) -> tuple[int | None, list[int]] | None:
    """(column of a compound header's `:` or None, columns of the top-level `;`) of a one-line statement list, or
    None when the line has nothing to split (or is a one-line `def` / `class`, or leaves brackets open)."""
    depth, cols, first, colon = 0, [], None, None
    for t in toks:
        if t.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT): continue
        if first is None: first = t.string
        if t.type == tokenize.OP and t.string in "([{": depth += 1
        elif t.type == tokenize.OP and t.string in ")]}": depth -= 1
        elif t.type == tokenize.OP and t.string == ":" and depth == 0 and colon is None and first in _HEADERS | {
                "def", "class"}:
            if first in ("def", "class"): return None
            colon = t.start[1]
        elif t.type == tokenize.OP and t.string == ";" and depth == 0: cols.append(t.start[1])
    return (colon, cols) if cols and depth == 0 else None


def split_semicolons(src: str) -> str:
    "`src` with every splittable `a; b` line written as `a` and `b` on their own lines, same indentation."
    toks = _tokens(src)
    if not toks: return src
    lines = src.splitlines(keepends=True)
    by_line: dict[int, list] = {}
    for t in toks: by_line.setdefault(t.start[0], []).append(t)
    multi = {n for t in toks if t.start[0] != t.end[0] for n in range(t.start[0] + 1, t.end[0] + 1)}
    out = []
    for i, line in enumerate(lines, 1):
        toks_i = [t for t in by_line.get(i, []) if t.end[0] == i]
        cols = None if i in multi or len(toks_i) != len(by_line.get(i, [])) else _splittable(line, toks_i)
        if not cols: out.append(line); continue
        colon, cols = cols
        indent = line[:len(line) - len(line.lstrip())]
        end = "\n" if line.endswith("\n") else ""
        body, parts, prev = line.rstrip("\n"), [], colon + 1 if colon is not None else 0
        for c in cols: parts.append(body[prev:c]); prev = c + 1
        parts.append(body[prev:])
        trailing = not parts[-1].split("#")[0].strip()   # `a; b;`: keep the last `;` (IPython shows no output)
        parts = [p.strip() for p in parts if p.strip()]
        if trailing and len(parts) == 1 and colon is None: out.append(line); continue
        if trailing: parts[-1] += ";"
        if colon is not None:   # `if x: a; b` -> the header, then its statements one level deeper
            out.append(body[:colon + 1] + "\n")
            indent += "    "
        out.append("\n".join((indent + p) for p in parts) + end)
    new = "".join(out)
    try: ast.parse(new)
    except SyntaxError: return src
    return new


_QUIET = {"test_eq", "test_ne", "test_fail", "test_close", "test_is", "test_warns", "test_stdout", "print", "display"}


def _cut_ok(node) -> bool:
    "A statement after which a cell may end without showing anything new: not a bare expression, or a quiet call."
    if not isinstance(node, ast.Expr): return True
    v = node.value
    return isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in _QUIET


def split_code_cell(src: str, most: int = 6) -> list[str]:
    """A demo cell's source cut into pieces of about `most` lines at top-level statement boundaries after which
    nothing new would be displayed (`_cut_ok`); [src] for a cell with `#|` directives or one that does not parse."""
    if any(l.lstrip().startswith("#|") for l in src.splitlines()): return [src]
    try: tree = ast.parse(src)
    except SyntaxError: return [src]
    lines = src.splitlines(keepends=True)
    if len(_body_lines(src)) <= most or len(tree.body) < 2: return [src]
    starts = [n.lineno - 1 for n in tree.body]
    for k in range(1, len(starts)):   # comment lines directly above a statement belong to it
        while starts[k] > (tree.body[k - 1].end_lineno or 0) and lines[starts[k] - 1].lstrip().startswith("#"): starts[k] -= 1
    starts[0] = 0
    pieces, cur = [], 0
    for k in range(1, len(tree.body)):
        size = len(_body_lines("".join(lines[starts[cur]:starts[k]])))
        if size >= most and _cut_ok(tree.body[k - 1]):
            pieces.append("".join(lines[starts[cur]:starts[k]])); cur = k
    pieces.append("".join(lines[starts[cur]:]))
    return [p.strip("\n") + "\n" for p in pieces if p.strip()]


def split_markdown_cell(src: str) -> list[str]:
    """Prose cut at paragraph breaks (blank lines) outside code fences, lists and tables; a heading stays with the
    paragraph after it, and a paragraph ending in ':' with what follows it."""
    paras, cur, fence = [], [], False
    for line in src.splitlines(keepends=True):
        if line.lstrip().startswith("```"): fence = not fence
        if not line.strip() and not fence:
            if cur: paras.append("".join(cur)); cur = []
            continue
        cur.append(line)
    if cur: paras.append("".join(cur))
    out = []
    for p in paras:
        block = p.lstrip().startswith(("* ", "- ", "|", "    ", "1. ", ">")) or p.lstrip()[:2].rstrip(".").isdigit()
        glue = out and (out[-1].lstrip().startswith("#") and "\n" not in out[-1].strip()
                        or out[-1].rstrip().endswith(":") or block)
        if glue: out[-1] = out[-1].rstrip("\n") + "\n\n" + p
        else: out.append(p)
    return [o.strip("\n") for o in out]


def split_cells(nb_path, most: int = 6) -> tuple[int, int]:
    "Rewrite `nb_path` with its long demo cells and multi-paragraph prose cells cut (outputs of cut cells dropped)."
    import hashlib
    nb = json.loads(Path(nb_path).read_text())
    out, n_code, n_md = [], 0, 0
    for c in nb["cells"]:
        s = _src(c)
        parts = (split_code_cell(s, most) if c["cell_type"] == "code" and not s.startswith("#| export")
                 else split_markdown_cell(s) if c["cell_type"] == "markdown" else [s])
        if len(parts) < 2: out.append(c); continue
        n_code += c["cell_type"] == "code"
        n_md += c["cell_type"] == "markdown"
        for k, p in enumerate(parts):
            d = json.loads(json.dumps(c))
            d["source"] = p.splitlines(keepends=True)
            if k: d["id"] = hashlib.sha1(f"{c.get('id')}-{k}".encode()).hexdigest()[:8]
            if "outputs" in d: d["outputs"] = []
            out.append(d)
    nb["cells"] = out
    Path(nb_path).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    return n_code, n_md


def _docmented(fn: ast.FunctionDef, src: str) -> bool:
    "Every parameter (self/cls, *args/**kwargs excluded) has a `#` comment on its line after it."
    args = [a for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs) if a.arg not in ("self", "cls")]
    if not args: return True
    lines = src.splitlines()
    return all("#" in lines[a.end_lineno - 1][a.end_col_offset:] for a in args)


def exports(src: str) -> list[tuple[str, bool]]:
    "(name, docmented) of the public functions defined at the top level of an exported cell."
    try: tree = ast.parse(src)
    except SyntaxError: return []
    return [(n.name, _docmented(n, src)) for n in tree.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and not n.name.startswith("_")]


def measure(nb_path) -> dict:
    cells = _cells(nb_path)
    code = [c for c in cells if c["cell_type"] == "code"]
    md = [c for c in cells if c["cell_type"] == "markdown"]
    sizes = sorted(len(_body_lines(_src(c))) for c in code) or [0]
    p90 = sizes[min(len(sizes) - 1, int(round(0.9 * (len(sizes) - 1))))]
    fns, exp_cells, demoed = [], 0, 0
    for i, c in enumerate(cells):
        s = _src(c)
        if c["cell_type"] != "code" or not any(l.strip().startswith(("#| export", "#|export")) for l in s.splitlines()):
            continue
        fns += exports(s)
        exp_cells += 1
        nxt = next((d for d in cells[i + 1:] if d["cell_type"] == "code"), None)
        if nxt is not None and "export" not in _src(nxt).split("\n", 1)[0] and nxt.get("outputs"): demoed += 1
    words = [len(_src(c).split()) for c in md]
    return {"notebook": str(Path(nb_path)), "code_cells": len(code), "median": statistics.median(sizes), "p90": p90,
            "max": sizes[-1], "semicolon_lines": sum(len(semicolon_lines(_src(c))) for c in code),
            "words_per_md": round(sum(words) / len(words), 1) if words else 0.0,
            "public_fns": len(fns), "docmented": sum(d for _, d in fns),
            "exports": exp_cells, "exports_with_demo_output": demoed}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("notebooks", nargs="*")
    ap.add_argument("--all", action="store_true", help="every notebook of nbs/ and nbs/figures/")
    ap.add_argument("--split", action="store_true", help="rewrite `a; b` lines of the notebooks' code cells")
    ap.add_argument("--split-cells", action="store_true",
                    help="cut long demo cells at statement boundaries and prose cells at paragraphs (refresh outputs after)")
    ap.add_argument("--json", action="store_true", help="one JSON object per notebook instead of a table")
    a = ap.parse_args(argv)
    paths = [Path(p) for p in a.notebooks]
    if a.all: paths += sorted((ROOT / "nbs").glob("*.ipynb")) + sorted((ROOT / "nbs" / "figures").glob("*.ipynb"))
    if a.split:
        for p in paths:
            nb = json.loads(p.read_text())
            for c in nb["cells"]:
                if c["cell_type"] == "code":
                    new = split_semicolons(_src(c))
                    if new != _src(c): c["source"] = new.splitlines(keepends=True)
            p.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
        return 0
    if a.split_cells:
        for p in paths: print(p, "cells cut (code, markdown):", split_cells(p))
        return 0
    rows = [measure(p) for p in paths]
    if a.json:
        for r in rows: print(json.dumps(r))
        return 0
    cols = list(rows[0]) if rows else []
    print(" | ".join(cols))
    for r in rows: print(" | ".join(str(r[c]) if c != "notebook" else Path(r[c]).name for c in cols))
    if len(rows) > 1:
        allsizes = []
        for p in paths: allsizes += [len(_body_lines(_src(c))) for c in _cells(p) if c["cell_type"] == "code"]
        print(f"all: code-cell lines median {statistics.median(allsizes)}, "
              f"{sum(r['semicolon_lines'] for r in rows)} ;-joined lines, "
              f"docments {sum(r['docmented'] for r in rows)} of {sum(r['public_fns'] for r in rows)} public functions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
