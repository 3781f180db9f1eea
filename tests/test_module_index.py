"""The module index names every module (issue 35). `nbdev-export` writes it twice -- the `Modules:` list of the package
docstring (`star/__init__.py`) and `nbs/llms.txt` -- from the module docstrings, and lists a module only when its
docstring says more than the chapter's one-paragraph summary (nbdev's `_substantive`: more than 3 lines). Each chapter
therefore carries its module docs: the summary under its title and a `#| export` markdown cell after it (nbdev's
"front block": where to start). A new chapter without that cell drops out of the index, which these tests catch."""
import ast, json, re, tomllib
from pathlib import Path

from nbdev.config import pkg_llms, pkg_mdoc

ROOT = Path(__file__).resolve().parents[1]
STAR = ROOT / "star"
MODULES = sorted(".".join(("star", *p.relative_to(STAR).with_suffix("").parts)) for p in STAR.rglob("*.py")
                 if not p.name.startswith("_"))


def _listed(text: str) -> dict[str, str]:
    "Module -> its purpose, from the `- `star.x`: purpose` (docstring) or `- [star.x](url): purpose` (llms.txt) lines."
    return {m.group(1): m.group(2).strip() for m in re.finditer(r"^- (?:`|\[)(star[\w.]*)(?:`|\]\([^)]*\)):(.*)$", text, re.M)}


def test_there_are_modules():
    assert len(MODULES) >= 20 and "star.evaluator" in MODULES and "star.sandbox" in MODULES


def test_package_docstring_lists_every_module():
    doc = ast.get_docstring(ast.parse((STAR / "__init__.py").read_text()))
    listed = _listed(doc.split("\nModules:\n", 1)[1])
    assert sorted(listed) == MODULES, {"missing": sorted(set(MODULES) - set(listed)), "stale": sorted(set(listed) - set(MODULES))}
    assert all(len(p.split()) >= 5 for p in listed.values()), listed      # a purpose, not a bare name


def test_llms_txt_lists_every_module():
    listed = _listed((ROOT / "nbs" / "llms.txt").read_text())
    assert sorted(listed) == MODULES, {"missing": sorted(set(MODULES) - set(listed)), "stale": sorted(set(listed) - set(MODULES))}


def test_index_is_what_nbdev_generates():
    "Both files are nbdev's own output for the current notebooks' modules (no hand edits; `nbdev-export` rewrites them)."
    desc = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["description"]
    kw = dict(path=STAR, desc=desc, index_nb=ROOT / "nbs" / "index.ipynb")
    assert ast.get_docstring(ast.parse((STAR / "__init__.py").read_text()), clean=False) == pkg_mdoc(**kw)
    assert (ROOT / "nbs" / "llms.txt").read_text() == pkg_llms(**kw)


def test_every_chapter_has_module_docs():
    "Each chapter that exports a module has a `#| export` markdown cell (its module docs), so nbdev lists the module."
    nbs = sorted((ROOT / "nbs").glob("[0-9]*.ipynb")) + sorted((ROOT / "nbs" / "figures").glob("[0-9]*.ipynb"))
    lacking = []
    for nb in nbs:
        cells = json.loads(nb.read_text())["cells"]
        src = ["".join(c["source"]) for c in cells]
        if not any(re.search(r"^#\|\s*default_exp\s", s, re.M) for s, c in zip(src, cells) if c["cell_type"] == "code"): continue
        if not any(c["cell_type"] == "markdown" and s.startswith("#| export\n") for s, c in zip(src, cells)): lacking.append(nb.name)
    assert not lacking, f"add a `#| export` markdown cell after the title of {lacking} (nbdev module docs), then nbdev-export"
