#!/usr/bin/env python
"""Store the outputs of a library chapter's cheap cells in the notebook, deterministically.

    python tools/doc_outputs.py nbs/00_sandbox.ipynb [nbs/01_tasks.ipynb ...]     # execute, write the outputs
    python tools/doc_outputs.py --check nbs/00_paths.ipynb                         # execute, compare, write nothing

A chapter read on GitHub shows what its demonstrations print only if the notebook is committed with outputs. This
tool executes a notebook the way `nbdev-test` does (execnb's `CaptureShell`, working directory `nbs/`, `IN_TEST=1`,
the cells flagged by `tst_flags` in `pyproject.toml` -- `notest slow gpu` -- and `#| eval: false` cells skipped)
and writes back the outputs of the cells it ran, made deterministic so that re-running it changes no byte:

* the cells it skips have no outputs (their result is told in prose), nor do markdown cells;
* stderr streams (warnings, progress bars) and widget outputs (tqdm's `IProgress`) are dropped;
* the repository's absolute path becomes relative, the home folder `~`, temporary folders `<tmp>` (with the
  `mkdtemp` folders inside them), memory addresses `0x…`; execution counts are cleared;
* the interpreter runs with `PYTHONHASHSEED=0` (set printing order), `COLUMNS=120` (argparse help width), tqdm
  disabled and the HF libraries offline.

Timings have no place in a cell's output: `--check` runs the notebook and compares with the committed outputs
(exit 1 and the differing cells listed), which is how a cell printing a time or another unstable value is found.
The notebook is finally cleaned with the project's `nbdev-clean` settings, so `nbdev-clean` keeps it unchanged.
"""
from __future__ import annotations

import argparse, copy, json, os, re, subprocess, sys, tempfile, tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {"PYTHONHASHSEED": "0", "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
       "TOKENIZERS_PARALLELISM": "false", "IN_TEST": "1", "TQDM_DISABLE": "1",
       "COLUMNS": "120"}
WIDGET = "application/vnd.jupyter.widget-view+json"


def nbdev_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["nbdev"]


def _scrubbers():
    "(pattern, replacement) pairs applied to every text output, in order (plain substring or linear regex)."
    home, tmp = str(Path.home()), tempfile.gettempdir().rstrip("/")
    return [(str(ROOT) + "/", ""), (str(ROOT), "."),
            # a folder made in the temp dir, and the `mkdtemp` folders (tmp + 8 random characters) made inside it
            (re.compile(re.escape(tmp) + r"/[^\s'\"/)\]]+(?:/tmp[a-z0-9_]{8}(?![a-z0-9_]))*"), "<tmp>"),
            (home + "/", "~/"),
            (re.compile(r"\b0x[0-9a-fA-F]{6,}\b"), "0x…")]


def scrub_text(text: str, rules=None) -> str:
    "`text` with the machine-specific parts replaced (see the module docstring)."
    for pat, rep in rules or _scrubbers():
        text = text.replace(pat, rep) if isinstance(pat, str) else pat.sub(rep, text)
    return text


def _text(v) -> str: return "".join(v) if isinstance(v, list) else v


def clean_outputs(outputs: list) -> list:
    "Deterministic copies of a cell's outputs: no stderr, no widgets, scrubbed text, no execution counts."
    rules, out = _scrubbers(), []
    for o in outputs:
        o = json.loads(json.dumps(o, default=lambda x: dict(x)))            # plain dicts (execnb gives AttrDicts)
        kind = o.get("output_type")
        if kind == "stream":
            if o.get("name") != "stdout": continue
            o["text"] = scrub_text(_text(o["text"]), rules)
            if not o["text"]: continue
        elif kind in ("display_data", "execute_result"):
            data = o.get("data", {})
            if WIDGET in data: continue
            for k in list(data):
                if k.startswith("text/"):
                    data[k] = scrub_text(_text(data[k]), rules)
            o["metadata"] = {}
            o.pop("transient", None)
            if kind == "execute_result": o["execution_count"] = None
        elif kind == "error":
            raise RuntimeError(f"a cell raised {o.get('ename')}: {o.get('evalue')}")
        out.append(o)
    # consecutive stdout streams become one (their split depends on flush timing)
    merged = []
    for o in out:
        if merged and o["output_type"] == "stream" and merged[-1]["output_type"] == "stream":
            merged[-1]["text"] = _text(merged[-1]["text"]) + _text(o["text"])
        else: merged.append(o)
    for o in merged:
        if o["output_type"] == "stream": o["text"] = _text(o["text"]).splitlines(keepends=True)
        for k, v in o.get("data", {}).items():
            if k.startswith("text/") and isinstance(v, str): o["data"][k] = v.splitlines(keepends=True)
    return merged


def execute(path: Path) -> dict[str, list]:
    "{cell id: raw outputs} of the code cells `nbdev-test` would run in `path` (the others are absent)."
    from execnb.shell import CaptureShell
    from fastcore.foundation import working_directory
    from nbdev.process import NBProcessor
    from nbdev.test import _skip_cell
    nb = NBProcessor(path, rm_directives=False, process=True).nb
    skip = _skip_cell(nb, nbdev_config().get("tst_flags", "").split())
    shell = CaptureShell(path)
    ran = {}
    with working_directory(path.parent):
        for cell in nb.cells:
            if skip(cell): continue
            shell.cell(cell)
            if shell.exc: raise RuntimeError(f"{path.name}: cell {cell.get('id')} failed:\n{shell.prettytb(fname=path)}")
            ran[cell.id] = list(cell.get("outputs") or [])
    return ran


def rendered(path: Path) -> str:
    "The notebook text with fresh deterministic outputs (cleaned as `nbdev-clean` does); nothing written."
    from fastcore.nbio import nb2str, read_nb
    from nbdev.clean import clean_nb
    raw = json.loads(path.read_text(encoding="utf-8"))
    ran = execute(path)
    for c in raw["cells"]:
        if c["cell_type"] != "code": continue
        c["outputs"] = clean_outputs(ran[c["id"]]) if c.get("id") in ran else []
        c["execution_count"] = None
    cfg = nbdev_config()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d) / path.name
        tmp.write_text(json.dumps(raw), encoding="utf-8")
        nb = read_nb(tmp)
    clean_nb(nb, allowed_metadata_keys=cfg.get("allowed_metadata_keys") or None,
             allowed_cell_metadata_keys=cfg.get("allowed_cell_metadata_keys") or None, clean_ids=cfg.get("clean_ids", True))
    return nb2str(nb)


def changed_cells(old: str, new: str) -> list[str]:
    "Ids of the code cells whose outputs differ between two versions of a notebook's text."
    a, b = (json.loads(x)["cells"] for x in (old, new))
    return [x.get("id", str(i)) for i, (x, y) in enumerate(zip(a, b)) if x.get("outputs") != y.get("outputs")]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("notebooks", nargs="+", type=Path, help="library notebooks (nbs/NN_*.ipynb, nbs/index.ipynb)")
    ap.add_argument("--check", action="store_true", help="compare fresh outputs with the committed ones; write nothing")
    args = ap.parse_args(argv)
    if os.environ.get("PYTHONHASHSEED") != "0" or os.environ.get("_STAR_DOC_OUTPUTS") != "1":
        env = {**os.environ, **ENV, "_STAR_DOC_OUTPUTS": "1",
               "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
        return subprocess.run([sys.executable, __file__, *(argv if argv is not None else sys.argv[1:])], env=env).returncode
    bad = 0
    for p in args.notebooks:
        p = p.resolve()
        old = p.read_text(encoding="utf-8")
        new = rendered(p)
        n = sum(bool(c.get("outputs")) for c in json.loads(new)["cells"])
        if args.check:
            diff = changed_cells(old, new) if old != new else []
            if old != new:
                bad += 1
                print(f"{p.relative_to(ROOT)}: outputs differ from a fresh run in cells {diff or '(formatting)'}")
            else: print(f"{p.relative_to(ROOT)}: up to date ({n} cells with outputs)")
        else:
            if old != new: p.write_text(new, encoding="utf-8")
            print(f"{p.relative_to(ROOT)}: {n} cells with outputs{'' if old != new else ' (unchanged)'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
