#!/usr/bin/env python
"""README.md is rendered from `nbs/index.ipynb`, nbdev's convention for the front page (`readme_nb`).

    python tools/readme.py            # write README.md from nbs/index.ipynb
    python tools/readme.py --check    # exit 1 when README.md differs from the render (tests/test_readme.py runs it)

nbdev's own `nbdev-readme` renders through Quarto, which this project does not install; this renderer is the same
projection without it: markdown cells as written, code cells as ```python blocks followed by their committed text
outputs (stdout, `text/plain` results; `python tools/doc_outputs.py nbs/index.ipynb` stores them) in plain ```
blocks; `#|` directive lines are dropped, and cells marked `#| hide` are left out. Edit the notebook, never README.md.
"""
from __future__ import annotations

import json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INDEX, README = ROOT / "nbs" / "index.ipynb", ROOT / "README.md"


def _src(cell: dict) -> str:
    s = cell["source"]
    return "".join(s) if isinstance(s, list) else s


def _outputs(cell: dict) -> str:
    "The text a code cell showed: stdout streams and `text/plain` results, in order (stderr never: doc_outputs drops it)."
    out = []
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream" and o.get("name") == "stdout": out.append("".join(o["text"]))
        elif "text/plain" in o.get("data", {}): out.append("".join(o["data"]["text/plain"]) + "\n")
    return "".join(out)


def render(nb: dict) -> str:
    """README text of the notebook `nb` (parsed JSON): its cells in order, separated by one blank line, ending in one
    newline. Raises ValueError on a cell type other than markdown or code (a raw cell has no place on the front page)."""
    parts = []
    for c in nb["cells"]:
        lines = _src(c).splitlines()
        directives = {l[2:].strip().split(":")[0].split()[0] for l in lines if l.startswith("#|") and l[2:].strip()}
        body = "\n".join(l for l in lines if not l.startswith("#|")).strip("\n")
        if "hide" in directives or not body.strip(): continue
        if c["cell_type"] == "markdown": parts.append(body)
        elif c["cell_type"] == "code":
            parts.append(f"```python\n{body}\n```")
            if out := _outputs(c): parts.append(f"```\n{out.rstrip(chr(10))}\n```")
        else: raise ValueError(f"nbs/index.ipynb: a {c['cell_type']} cell cannot be rendered into the README")
    return "\n\n".join(parts) + "\n"


def rendered() -> str:
    "The README that `nbs/index.ipynb` renders to."
    return render(json.loads(INDEX.read_text(encoding="utf-8")))


if __name__ == "__main__":
    text = rendered()
    if "--check" in sys.argv[1:]:
        if README.read_text(encoding="utf-8") != text:
            sys.exit("README.md differs from nbs/index.ipynb: run `python tools/readme.py` (edit the notebook, not README.md)")
    else: README.write_text(text, encoding="utf-8")
