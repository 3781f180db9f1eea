"""Architecture and chapter statistics of a STAR tree (issue 20's numbers): python arch_stats.py <repo root>"""
import ast, json, re, statistics as st, sys
from pathlib import Path

root = Path(sys.argv[1])
pkg = root / "star"
mods = sorted(p.stem for p in pkg.glob("*.py") if p.stem not in ("__init__", "_modidx"))


def star_imports(tree, top_only):
    out = []
    for node in ast.walk(tree) if not top_only else tree.body:
        if isinstance(node, ast.ImportFrom):
            m = node.module or ""
            if node.level == 1: out.append(m.split(".")[0])
            elif m.startswith("star."): out.append(m.split(".")[1])
            elif m == "star": out += [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            out += [a.name.split(".")[1] for a in node.names if a.name.startswith("star.")]
    return [m for m in out if m in mods]


graph, inner = {}, 0
for m in mods:
    tree = ast.parse((pkg / f"{m}.py").read_text())
    top = set(star_imports(tree, True))
    allm = star_imports(tree, False)
    inner += len(allm) - len([x for x in allm if x in top]) if False else 0
    # count imports of star modules inside function bodies
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner += len(star_imports(ast.Module(body=node.body, type_ignores=[]), False)) if False else 0
    graph[m] = set(allm) - {m}
# in-function imports: imports not at module top level
def count_inner(m):
    tree = ast.parse((pkg / f"{m}.py").read_text())
    top_nodes = set(id(n) for n in tree.body)
    n = 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top_nodes:
            n += len(star_imports(ast.Module(body=[node], type_ignores=[]), False))
    return n
inner = sum(count_inner(m) for m in mods)

# cycles (strongly connected components with > 1 node)
index, low, stack, on, sccs, i = {}, {}, [], set(), [], [0]
def strong(v):
    index[v] = low[v] = i[0]; i[0] += 1; stack.append(v); on.add(v)
    for w in graph[v]:
        if w not in index: strong(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: sccs.append(sorted(comp))
for v in mods:
    if v not in index: strong(v)
# layers (longest path to a leaf), on the condensation if cycles
layer = {}
def lay(v, seen=()):
    if v in layer: return layer[v]
    if v in seen: return 0
    layer[v] = 0 if not graph[v] else 1 + max(lay(w, seen + (v,)) for w in graph[v])
    return layer[v]
for v in mods: lay(v)

# chapters
nbs = sorted((root / "nbs").glob("[0-9][0-9]*_*.ipynb")) + [root / "nbs" / "figures" / "00_figures.ipynb"]
lines, md_words, exp_total, exp_shown, big50, big80, doc_lens = [], [], 0, 0, 0, 0, []
for p in nbs:
    cells = json.loads(p.read_text())["cells"]
    for k, c in enumerate(cells):
        src = "".join(c["source"])
        if c["cell_type"] == "markdown":
            md_words.append(len(src.split())); continue
        n = len([l for l in src.splitlines() if l.strip()])
        if src.startswith("#| default_exp") or src.startswith("#| hide"): continue
        lines.append(n); big50 += n >= 50; big80 += n > 80
        if "#| export" in src:
            exp_total += 1
            for c2 in cells[k + 1:]:
                s2 = "".join(c2["source"])
                if c2["cell_type"] == "code" and "#| export" in s2: break
                if c2["cell_type"] == "code" and c2.get("outputs"): exp_shown += 1; break
for m in mods:
    for node in ast.walk(ast.parse((pkg / f"{m}.py").read_text())):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            d = ast.get_docstring(node)
            if d: doc_lens.append(len(d))
q = lambda xs, p: sorted(xs)[min(len(xs) - 1, int(p * len(xs)))]
print(json.dumps({
    "modules": len(mods), "layers": 1 + max(layer.values()), "cycles": sccs,
    "star_imports_inside_functions": inner,
    "edges": {m: sorted(graph[m]) for m in mods},
    "layer_of": {m: layer[m] for m in mods},
    "code_cell_lines_median_p90_max": [st.median(lines), q(lines, 0.9), max(lines)],
    "cells_ge_50": big50, "cells_gt_80": big80, "code_cells": len(lines),
    "exports_shown_before_next_export": f"{exp_shown}/{exp_total} = {exp_shown / max(1, exp_total):.0%}",
    "markdown_words_mean": round(st.mean(md_words), 1),
    "docstring_chars_median_max": [st.median(doc_lens), max(doc_lens)],
    "rl_py_lines": len((pkg / "rl.py").read_text().splitlines()),
}, indent=1))
