"""tools/nb_density.py: the chapter-density measures (issue 35, item 5) and its mechanical rewrites."""
import ast, json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from nb_density import exports, measure, semicolon_lines, split_code_cell, split_semicolons  # noqa: E402


def test_semicolons_are_found_by_token_not_by_text():
    src = "a = 1; b = 2\ns = 'x; y'  # c; d\nplt.plot(x);\nif a: b; c\n"
    assert semicolon_lines(src) == [1, 4]          # in a string, a comment or trailing (no output): not a join


def test_split_keeps_the_program():
    src = ("def f(x):\n    y = x; z = y  # keep\n    if y: print(y); print(z)\n    return z\n"
           "s = '''a;\nb'''; t = 1\nplt.plot([1]);\n")
    new = split_semicolons(src)
    assert ast.dump(ast.parse(new)) == ast.dump(ast.parse(src))
    assert len(semicolon_lines(new)) == 1          # the line a multi-line string ends on is left as it was
    assert "    if y:\n        print(y)\n        print(z)\n" in new and new.endswith("plt.plot([1]);\n")


def test_docments_and_demo_cells():
    src = "def f(\n    a:int, # what a is\n    b=2,   # what b is\n): pass\ndef g(a, b): pass\ndef _h(a): pass\n"
    assert exports(src) == [("f", True), ("g", False)]
    cut = split_code_cell("x = 1\ny = 2\nz = 3\nprint(x)\nw = 4\nv = 5\nu = 6\nx\n", most=3)
    assert cut[0] == "x = 1\ny = 2\nz = 3\n" and "".join(cut).replace("\n", "") == "x = 1y = 2z = 3print(x)w = 4v = 5u = 6x"
    assert split_code_cell("#| export\na = 1\nb = 2\nc = 3\nd = 4\n", most=2) == ["#| export\na = 1\nb = 2\nc = 3\nd = 4\n"]


def test_measures_a_chapter():
    m = measure(ROOT / "nbs" / "03_rewards.ipynb")
    assert m["semicolon_lines"] == 0 and m["median"] <= 6 and m["public_fns"] == m["docmented"] > 0
    assert 0 < m["exports_with_demo_output"] <= m["exports"]
