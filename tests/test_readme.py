"""The README says what the code does: it is the render of `nbs/index.ipynb` (nbdev's front page), at most 1,200
words; its Quick look runs and prints exactly the lines it shows; CI runs its test command. The row counts of
`star/data/README.md` ("Packaged data and provenance", moved out of the README in issue 35) are the packaged tables'
real row counts (not file line counts)."""
import contextlib, io, os, re, subprocess, sys
from pathlib import Path

import pandas as pd

from star.paths import data_path
from star.sandbox import TravelDB
from star.tasks import load_tasks

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
DATA_README = (ROOT / "star" / "data" / "README.md").read_text()
sys.path.insert(0, str(ROOT / "tools"))
from readme import rendered  # noqa: E402
from readme_commands import named  # noqa: E402


def _section(title: str) -> str:
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end > 0 else None]


def test_readme_is_the_render_of_the_index_notebook():
    "README.md is `python tools/readme.py`'s render of nbs/index.ipynb, byte for byte: edit the notebook, then render."
    assert README == rendered(), "README.md differs from nbs/index.ipynb: run `python tools/readme.py`"


def test_readme_is_short():
    "At most 1,200 words, counted as `wc -w` counts them (runs of non-whitespace), and the first screen says it all."
    assert len(README.split()) <= 1200, f"README.md has {len(README.split())} words (limit 1,200)"
    first = README[:README.index("\n## ")]         # the title and the block before the first section
    for cmd in (named(README, "install"), named(README, "test"), "papermill nbs/rl.ipynb runs/rl_quick.ipynb -p quick True",
                "star rl --dry-run --scale 3B", "accelerate launch --config_file configs/accelerate/zero3_8gpu.yaml -m star.rl scale=3B"):
        assert cmd in first, cmd


def test_readme_links_resolve():
    "Every relative link of the README names a file of this repository (where the moved sections went)."
    links = re.findall(r"\]\(([^)#]+)\)", README)
    assert len(links) >= 6
    for link in links:
        if "://" not in link: assert (ROOT / link).exists(), link


def test_quick_look_runs_and_prints_what_it_shows():
    "Each ```python block of the Quick look, run in order, prints exactly the ``` block that follows it."
    blocks = re.findall(r"```python\n(.*?)```\n\n```\n(.*?)```", _section("Quick look"), re.S)
    assert len(blocks) == 2
    ns = {}
    for code, shown in blocks:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf): exec(compile(code, "README Quick look", "exec"), ns)
        assert buf.getvalue() == shown
    assert "evaluate_plan(" in "".join(c for c, _ in blocks)   # it scores a plan, not only imports the evaluator


def test_data_row_counts_are_real():
    row = next(l for l in DATA_README.splitlines() if l.startswith("| `travelplanner/database/*.csv.gz`"))
    db = TravelDB.load()
    for label, n in [("accommodations", len(db.accommodations)), ("attractions", len(db.attractions)),
                     ("restaurants", len(db.restaurants)), ("distance matrix", len(db.distance))]:
        assert f"{label} {n:,}" in row, label
    assert f"{len(db.accommodations.dropna()):,} rows once the tools drop" in row
    db_dir = data_path("travelplanner", "database")
    lines = lambda f: len([l for l in (db_dir / f).read_text().split("\n") if l.strip()])
    assert f"`citySet_with_states.txt` {lines('citySet_with_states.txt')} cities" in row
    assert f"`citySet.txt` {lines('citySet.txt')}" in row and f"`stateSet.txt` {lines('stateSet.txt')} entries" in row
    flights = next(l for l in DATA_README.splitlines() if l.startswith("| `travelplanner/database/flights_subset.csv.gz`"))
    assert f"({len(db.flights):,} rows)" in flights
    val = load_tasks("validation")
    assert len(val) == 180 and pd.Series([t.level for t in val]).value_counts().to_dict() == {"easy": 60, "medium": 60, "hard": 60}
    assert len(load_tasks("train")) == 45


def test_weight_packages_are_explained():
    from star.models import QWEN25_CODER_05B_GGUF as src
    text = DATA_README
    assert f"`{src.dist_prefix}1` … `{src.dist_prefix}{src.n_parts}`" in text and f"{src.size:,} bytes" in text
    assert src.sha256.startswith(text.split("SHA-256 (`")[1][:8]) and src.filename in text


def _ci_tests_section(fail: str | None, tmp: Path) -> subprocess.CompletedProcess:
    """Runs the tests section of `.ci/run` (from its "== tests" line to the end) under the script's own shell options,
    with `nbdev-test`, `pytest` and `python` (the temp-dir check) stubbed: `fail` names the one that fails. Its
    `mktemp -d` runs for real, inside `tmp`."""
    text = (ROOT / ".ci" / "run").read_text()
    opts = re.search(r"^set -[euo pipefail ]+$", text, re.M).group(0)
    body = text[text.index('echo "== tests'):]
    helper = re.search(r"^run_measured\(\) \{\n.*?^\}\n", text, re.S | re.M).group(0)   # the section calls it
    stubs = "".join(f'{name}() {{ echo "ran {name}"; return {3 if name == fail else 0}; }}\n'
                    for name in ("nbdev-test", "pytest", "python"))
    env = {k: v for k, v in os.environ.items() if k != "STAR_COSTS_DIR"}   # commands run bare, unmeasured
    return subprocess.run(["bash", "-c", f"{opts}\nstart=$(date +%s)\n{helper}{stubs}{body}"], capture_output=True,
                          text=True, env={**env, "TMPDIR": str(tmp)})


def test_ci_runs_the_readme_test_command_and_stops_at_a_failure(tmp_path):
    "CI runs the README's test command, and any failing step (including the temp-dir check) fails CI."
    cmd = named(README, "test")
    ok = _ci_tests_section(None, tmp_path)
    assert ok.returncode == 0 and "CI finished" in ok.stdout, ok.stdout + ok.stderr
    ran = [line.split()[1] for line in ok.stdout.splitlines() if line.startswith("ran ")]
    assert [r for r in ran if r != "python"] == [c.strip() for c in cmd.split("&&")], (ran, cmd)
    for step in ("nbdev-test", "python", "pytest"):                 # `python`: tools/tmp_left.py found a leak
        p = _ci_tests_section(step, tmp_path)
        assert p.returncode != 0 and "CI finished" not in p.stdout, (step, p.stdout)
