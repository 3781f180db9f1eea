"""The import graph of the `star` package (`tools/arch_stats.py`): no module imports, directly or through others, a
module that imports it back -- a reader can take the modules in layer order, each one's real dependencies at its top."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _stats() -> dict:
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "arch_stats.py"), str(ROOT)], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


def test_no_import_cycle_among_star_modules():
    s = _stats()
    assert s["cycles"] == [], f"import cycles: {s['cycles']}"
    assert s["modules"] >= 20 and set(s["layer_of"]) == set(s["edges"])


def test_leaf_modules_stay_leaves():
    "The modules everything else builds on import no other `star` module."
    s = _stats()
    assert [m for m in ("paths", "results", "rewards", "endpoint") if s["edges"][m]] == []


def test_library_cells_stay_short():
    """Chapters read like fastcore's and claudette's (issue 20): no library code cell over 80 lines, the median under
    15 (`tools/arch_stats.py` counts the library chapters and the figures chapter)."""
    s = _stats()
    median, _, longest = s["code_cell_lines_median_p90_max"]
    assert s["cells_gt_80"] == 0, f"{s['cells_gt_80']} library code cells over 80 lines (longest {longest})"
    assert median < 15, median
