"""Guards on the notebooks themselves: they are the source of truth, so their structure is tested.

* every library chapter (`nbs/NN_*.ipynb`) declares the module it exports and that module exists in `star/`;
* every run notebook (papermill) has exactly one cell tagged `parameters`, and `nbdev-clean` keeps that tag;
* notebooks carry only the python3 kernelspec (no stray metadata);
* library chapters are committed with the deterministic outputs of their cheap cells (`tools/doc_outputs.py`), which
  `nbdev-clean` keeps, and re-running the tool changes no byte.
"""
import ast, copy, json, os, re, subprocess, sys, tempfile, tomllib
from pathlib import Path

import pytest
from nbdev.clean import clean_nb

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT / "nbs"
LIB_NBS = sorted(p for p in NBS.glob("[0-9][0-9]*_*.ipynb"))
# Run notebooks are parameterised by papermill; each one listed here must exist and keep its `parameters` tag.
RUN_NBS = sorted(p for p in NBS.glob("*.ipynb") if not p.name[0].isdigit() and p.name != "index.ipynb")


def _nb(p): return json.loads(p.read_text())
def _src(c): return "".join(c["source"]) if isinstance(c["source"], list) else c["source"]


def test_pyproject_keeps_tags():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["nbdev"]
    assert cfg["allowed_cell_metadata_keys"] == ["tags"]
    assert set(cfg["tst_flags"].split()) >= {"slow", "gpu"}
    assert not (ROOT / "settings.ini").exists(), "nbdev 3 refuses settings.ini"


def test_there_are_library_chapters():
    names = {p.stem for p in LIB_NBS}
    assert {"00_sandbox", "02_evaluator"} <= names


@pytest.mark.parametrize("nb_path", LIB_NBS, ids=lambda p: p.stem)
def test_library_chapter_exports_its_module(nb_path):
    cells = _nb(nb_path)["cells"]
    m = [re.search(r"^#\|\s*default_exp\s+(\S+)", _src(c), re.M) for c in cells if c["cell_type"] == "code"]
    mods = [x.group(1) for x in m if x]
    assert len(mods) == 1, f"{nb_path.name}: expected one `#| default_exp`, got {mods}"
    assert (ROOT / "star" / (mods[0].replace(".", "/") + ".py")).exists(), f"star/{mods[0]}.py missing: run nbdev-export"
    assert any(c["cell_type"] == "markdown" for c in cells), "a chapter needs prose"
    assert any("test_eq" in _src(c) or "test_" in _src(c) for c in cells if c["cell_type"] == "code"), \
        f"{nb_path.name}: chapters demonstrate and check each function (fastcore.test)"


@pytest.mark.parametrize("nb_path", LIB_NBS + RUN_NBS + [NBS / "index.ipynb"], ids=lambda p: p.stem)
def test_kernelspec_only(nb_path):
    md = _nb(nb_path)["metadata"]
    assert md.get("kernelspec", {}).get("name") == "python3"
    assert set(md) <= {"kernelspec", "jekyll", "jupytext", "doc", "widgets", "nbdev"}


@pytest.mark.parametrize("nb_path", RUN_NBS, ids=lambda p: p.stem)
def test_run_notebook_has_one_parameters_cell(nb_path):
    tagged = [c for c in _nb(nb_path)["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1, f"{nb_path.name}: papermill needs exactly one cell tagged `parameters`"
    assert tagged[0]["cell_type"] == "code"


def test_nbdev_clean_keeps_parameters_tag():
    "The configured clean (allowed_cell_metadata_keys=['tags']) keeps papermill's tag and drops other metadata."
    nb = {"cells": [{"cell_type": "code", "execution_count": 3, "id": "a1", "outputs": [], "source": "scale = '0.5B'",
                     "metadata": {"tags": ["parameters"], "scrolled": True}}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                       "language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["nbdev"]
    kept = copy.deepcopy(nb)
    clean_nb(kept, allowed_cell_metadata_keys=cfg["allowed_cell_metadata_keys"])
    assert kept["cells"][0]["metadata"] == {"tags": ["parameters"]}
    dropped = copy.deepcopy(nb)
    clean_nb(dropped)  # without the setting the tag would be lost: the guard above matters
    assert "tags" not in dropped["cells"][0]["metadata"]


# ---- library chapters are committed with the outputs of their cheap cells (tools/doc_outputs.py)
# Chapters whose outputs are not committed yet; the tool is applied to them after the lead's merge, then they leave
# this set. Every other chapter (new ones included) is checked.
DOC_PENDING = set()   # every chapter is committed with the outputs of its cheap cells
DOC_NBS = LIB_NBS + [NBS / "index.ipynb"]
_SHOW_CALLS = {"print", "display", "show_doc"}


def _skipped(c, flags) -> bool:
    "Whether nbdev-test (and the tool) skip this code cell: a `tst_flags` flag or `#| eval: false`."
    lines = [l[2:].strip() for l in _src(c).splitlines() if l.startswith("#|")]
    return any(l.split(":")[0].split()[0] in flags for l in lines if l) or any(re.fullmatch(r"eval:\s*false", l, re.I) for l in lines)


def _should_show(c) -> bool:
    "A cheap cell that visibly prints: a top-level print/display/show_doc call, or a final bare expression (not a call)."
    code = "\n".join(l for l in _src(c).splitlines() if not l.startswith("#|"))
    if not code.strip() or code.rstrip().endswith(";") or any(l.lstrip().startswith(("%", "!")) for l in code.splitlines()):
        return False
    try: body = ast.parse(code).body
    except SyntaxError: return False
    calls = [n.value.func.id for n in body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
             and isinstance(n.value.func, ast.Name)]
    return bool(set(calls) & _SHOW_CALLS) or bool(body) and isinstance(body[-1], ast.Expr) and not isinstance(body[-1].value, ast.Call)


def _text_outputs(c) -> str:
    out = []
    for o in c.get("outputs", []):
        if "text" in o: out.append("".join(o["text"]))
        for k, v in o.get("data", {}).items():
            if k.startswith("text/"): out.append("".join(v))
    return "\n".join(out)


@pytest.mark.parametrize("nb_path", DOC_NBS, ids=lambda p: p.stem)
def test_chapter_is_committed_with_its_outputs(nb_path):
    if nb_path.stem in DOC_PENDING: pytest.skip(f"{nb_path.name}: outputs pending (python tools/doc_outputs.py {nb_path.relative_to(ROOT)})")
    flags = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["nbdev"]["tst_flags"].split())
    code = [(i, c) for i, c in enumerate(_nb(nb_path)["cells"]) if c["cell_type"] == "code"]
    run = [(i, c) for i, c in code if not _skipped(c, flags)]
    fix = f"run `python tools/doc_outputs.py {nb_path.relative_to(ROOT)}`"
    missing = [i for i, c in run if _should_show(c) and not c.get("outputs")]
    assert not missing, f"{nb_path.name}: cells {missing} print something but carry no output: {fix}"
    assert any(c.get("outputs") for _, c in run), f"{nb_path.name}: no outputs at all: {fix}"
    stale = [i for i, c in code if _skipped(c, flags) and c.get("outputs")]
    assert not stale, f"{nb_path.name}: cells {stale} are not run by nbdev-test (flags / eval: false) but carry outputs"
    for i, c in run:
        for o in c.get("outputs", []):
            assert o["output_type"] != "error", f"{nb_path.name} cell {i}: an error output"
            assert not (o["output_type"] == "stream" and o.get("name") == "stderr"), f"{nb_path.name} cell {i}: stderr output"
            assert "application/vnd.jupyter.widget-view+json" not in o.get("data", {}), f"{nb_path.name} cell {i}: a widget"
        text = _text_outputs(c)
        for machine in {str(ROOT), str(Path.home()) + "/", tempfile.gettempdir() + "/"}:
            assert machine not in text, f"{nb_path.name} cell {i}: output names this machine's {machine!r}: {fix}"
        assert not re.search(r"\b0x[0-9a-fA-F]{6,}\b", text), f"{nb_path.name} cell {i}: a memory address in the output"


@pytest.mark.parametrize("nb_path", [p for p in DOC_NBS if p.stem not in DOC_PENDING], ids=lambda p: p.stem)
def test_nbdev_clean_keeps_the_outputs(nb_path):
    "The committed chapter is already what `nbdev-clean` writes (same settings): cleaning changes no byte, outputs stay."
    from fastcore.nbio import nb2str, read_nb
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["nbdev"]
    nb = read_nb(nb_path)
    clean_nb(nb, allowed_metadata_keys=cfg.get("allowed_metadata_keys") or None,
             allowed_cell_metadata_keys=cfg["allowed_cell_metadata_keys"], clean_ids=cfg.get("clean_ids", True))
    assert nb2str(nb) == nb_path.read_text(encoding="utf-8")


@pytest.mark.parametrize("stem", ["00_paths", "14_cli"])
def test_doc_outputs_tool_is_deterministic(stem):
    "Re-running tools/doc_outputs.py on a chapter reproduces the committed notebook byte for byte."
    p = subprocess.run([sys.executable, str(ROOT / "tools" / "doc_outputs.py"), "--check", f"nbs/{stem}.ipynb"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr[-3000:]
    assert "up to date" in p.stdout


def test_checkpoint_demos_leave_nothing_in_tmp():
    """The chapter that trains and damages the most demo runs cleans up after itself: every run it writes lives under
    one `TemporaryDirectory` that its last cell removes. (Before: each `nbdev-test` of 17_checkpoints left 675 MB in
    28 folders of the system temp dir; hundreds piled up across sessions and filled the disk.) Run as the whole suite
    runs it, in a worker process (`--n-workers 1`): a worker exits without running finalizers, so a folder left to
    `TemporaryDirectory`'s finalizer survives there, while a lone notebook tested in-process is cleaned at exit."""
    # a short temp dir of its own: multiprocessing's socket (`<TMPDIR>/pymp-*/listener-*`) must fit AF_UNIX's 107
    # characters, which pytest's tmp_path under a pytest-xdist worker (`.../popen-gw0/<test name>0`) does not
    with tempfile.TemporaryDirectory(prefix="ck") as d:
        tmp = Path(d)
        env = {**os.environ, "TMPDIR": d}   # no rendezvous left by earlier runs here: tests/conftest.py
        p = subprocess.run(["nbdev-test", "nbs/17_checkpoints.ipynb", "--n-workers", "1"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
        left = [f for f in tmp.rglob("*") if f.is_file() and not f.relative_to(tmp).parts[0].startswith("torchinductor")]
        assert sum(f.stat().st_size for f in left) < 1_000_000, sorted(str(f.relative_to(tmp)) for f in left)[:20]


def test_tmp_left_counts_leaks_not_kept_caches(tmp_path):
    "tools/tmp_left.py (CI's temp-dir check) fails on files left behind, not on torch.compile's cache or a socket/FIFO."
    run = lambda *a: subprocess.run([sys.executable, str(ROOT / "tools" / "tmp_left.py"), str(tmp_path), *a],
                                    capture_output=True, text=True)
    (tmp_path / "torchinductor_root").mkdir(); (tmp_path / "torchinductor_root" / "k.so").write_bytes(b"x" * 3_000_000)
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "star-abc" / "tmpq").mkdir(parents=True); (tmp_path / "star-abc" / "tmpq" / "w").write_bytes(b"x" * 600_000)
    p = run()
    assert p.returncode == 0 and "0.600 MB" in p.stdout, p.stdout
    (tmp_path / "left.bin").write_bytes(b"x" * 500_000)
    p = run()
    assert p.returncode == 1 and "1.100 MB" in p.stdout and "star-abc" in p.stdout, p.stdout
    assert run("--max-mb", "2").returncode == 0
