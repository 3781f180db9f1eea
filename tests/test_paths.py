"""One data locator (`star.paths.data_path`) for every module, tested where ad-hoc lookups broke:

* a folder named `star/` in the working directory with `star` installed in editable mode (setuptools' import hook):
  `star` becomes a namespace package, and `importlib.resources.files('star')` points at a `MultiplexedPath` —
  reproduced first, then every data-reading module must work;
* `star` imported from a zip archive (zipimport) and from the wheel `pip wheel` builds (a wheel is a zip: imported
  directly, and installed with `pip install --target`): the packaged data must be found (extracted to a cache).

Each case runs in a fresh interpreter, with the installed editable finders of the machine removed so that only the
checkout under test is imported.
"""
import json, os, shutil, subprocess, sys, zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Imports `star` the way the case asks, then exercises every module that reads packaged data; prints a JSON summary.
PRELUDE = f"ROOT = {str(ROOT)!r}\n" + r"""
import sys, json, os
sys.meta_path[:] = [f for f in sys.meta_path if 'Editable' not in getattr(f, '__name__', type(f).__name__)]
# an editable install is a finder (setuptools' default) or a path entry naming the checkout (ours): drop both
sys.path[:] = [p for p in sys.path if '__editable__' not in p and (not p or os.path.abspath(p) != ROOT)]
"""
EDITABLE_HOOK = r"""
from importlib.machinery import PathFinder
from importlib.util import spec_from_file_location
class Editable:  # what setuptools' editable finder does: appended to sys.meta_path, maps 'star' and its children
    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if fullname == 'star': return spec_from_file_location('star', PKG + '/__init__.py')
        if fullname.startswith('star.') and fullname.count('.') == 1: return PathFinder.find_spec(fullname, [PKG])
sys.meta_path.append(Editable)
"""
CHECK = r"""
from star.sandbox import Sandbox, TOOLS_BLOCK
from star.tasks import load_tasks
from star.evaluator import evaluate_plan
from star.agent import system_prompt
from star.formatter import format_prompt_template
from star.models import TOKENIZER_DATA
from star.qa import load_qa, qa_system_prompt
from star.paths import data_path
import star.sandbox
train = load_tasks('train')
out = dict(
    module=star.sandbox.__file__,
    flight=Sandbox().call('SearchFlight', {'departure': 'Akron', 'destination': 'Tampa', 'date': '2022-03-28'}),
    tools_block=len(TOOLS_BLOCK), validation=len(load_tasks('validation')),
    gold_pass=sum(evaluate_plan(t, t.annotated_plan).success for t in train[:5]),
    prompt=len(system_prompt()), format_prompt=len(format_prompt_template()), qa_prompt=len(qa_system_prompt()),
    tokenizer=sorted(p.name for p in TOKENIZER_DATA.iterdir()), nq=len(load_qa('nq', n=3)),
    data=str(data_path('travelplanner', 'database')),
)
print('RESULT ' + json.dumps(out))
"""


def _run(code: str, cwd, env_extra=None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update({"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}, **(env_extra or {}))
    p = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    line = next(l for l in p.stdout.splitlines() if l.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


def _expect_everything_works(out: dict):
    assert out["flight"].startswith("A SearchFlight for Akron to Tampa on 2022-03-28 found the following 1 flights:\n1. [F3620346] $434.")
    assert out["tools_block"] == 2804 and out["validation"] == 180 and out["gold_pass"] == 5
    assert out["prompt"] == 5701 and out["format_prompt"] > 1000 and out["qa_prompt"] > 500
    assert {"tokenizer.json.gz", "tokenizer_config.json", "chat_template.jinja"} <= set(out["tokenizer"])
    assert out["nq"] == 3


@pytest.fixture
def star_folder(tmp_path):
    "A working directory holding a folder named `star/` (a clone's default folder name) with a script in it."
    (tmp_path / "star").mkdir()
    (tmp_path / "star" / "notes.py").write_text("print('not the package')\n")
    return tmp_path


def test_star_folder_in_the_working_directory(star_folder):
    pkg = f"PKG = {str(ROOT / 'star')!r}\n"
    # the reported failure, reproduced: the name `star` resolves to a namespace package, resources.files breaks
    before = _run(PRELUDE + pkg + EDITABLE_HOOK + r"""
import star, importlib.resources as r
from pathlib import Path
f = r.files('star')
print('RESULT ' + json.dumps(dict(kind=type(f).__name__, file=getattr(star, '__file__', None),
                                  exists=(Path(str(f)) / 'data' / 'travelplanner' / 'tool_schemas.json').exists())))
""", star_folder)
    assert before == {"kind": "MultiplexedPath", "file": None, "exists": False}
    # every module still finds its data
    out = _run(PRELUDE + pkg + EDITABLE_HOOK + CHECK, star_folder)
    _expect_everything_works(out)
    assert out["module"] == str(ROOT / "star" / "sandbox.py") and out["data"] == str(ROOT / "star" / "data" / "travelplanner" / "database")


def _zip_package(dest: Path) -> Path:
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted((ROOT / "star").rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts: z.write(p, p.relative_to(ROOT).as_posix())
    return dest


def test_zipimport(tmp_path, star_folder):
    archive = _zip_package(tmp_path / "star.zip")
    cache = tmp_path / "cache"
    out = _run(PRELUDE + f"sys.path.insert(0, {str(archive)!r})\n" + CHECK, star_folder, {"STAR_DATA_CACHE": str(cache)})
    _expect_everything_works(out)
    assert out["module"] == str(archive / "star" / "sandbox.py")
    data = Path(out["data"])
    assert data.is_dir() and data.is_relative_to(cache) and (data / "flights_subset.csv.gz").is_file()
    assert not list(cache.rglob(".*.tmp"))                          # no temporary file left behind


def test_wheel(tmp_path):
    "The wheel pip builds from this checkout carries the data; imported as a zip and installed with --target."
    src = tmp_path / "src"
    src.mkdir()
    for f in ("pyproject.toml", "README.md"): shutil.copy(ROOT / f, src / f)
    shutil.copytree(ROOT / "star", src / "star", ignore=shutil.ignore_patterns("__pycache__"))
    p = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                        str(tmp_path / "dist"), str(src)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("star-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "star/data/travelplanner/database/flights_subset.csv.gz" in names and "star/paths.py" in names
    out = _run(PRELUDE + f"sys.path.insert(0, {str(wheel)!r})\n" + CHECK, tmp_path, {"STAR_DATA_CACHE": str(tmp_path / "cache")})
    _expect_everything_works(out)
    assert out["module"] == str(wheel / "star" / "sandbox.py")
    p = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target",
                        str(tmp_path / "site"), str(wheel)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    out = _run(PRELUDE + f"sys.path.insert(0, {str(tmp_path / 'site')!r})\n" + CHECK, tmp_path)
    _expect_everything_works(out)
    assert out["data"] == str(tmp_path / "site" / "star" / "data" / "travelplanner" / "database")
