"""Guards on the notebooks themselves: they are the source of truth, so their structure is tested.

* every library chapter (`nbs/NN_*.ipynb`) declares the module it exports and that module exists in `star/`;
* every run notebook (papermill) has exactly one cell tagged `parameters`, and `nbdev-clean` keeps that tag;
* notebooks carry only the python3 kernelspec (no stray metadata).
"""
import copy, json, re, tomllib
from pathlib import Path

import pytest
from nbdev.clean import clean_nb

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT / "nbs"
LIB_NBS = sorted(p for p in NBS.glob("[0-9][0-9]_*.ipynb"))
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
