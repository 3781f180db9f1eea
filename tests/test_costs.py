"""The cost table of the README ("Install and test") and of `bench/README.md` (where issue 35 moved how it is measured)
is the one `tools/measure.py --table` renders from the records in `results/costs/`, and those records are real
measurements: the command that ran, exit status 0, a clean tree at a named commit, and the README's own commands
(issue 30)."""
import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from measure import COST_ROWS, cost_table  # noqa: E402
from readme_commands import commands, named  # noqa: E402


def _block(doc="README.md"):
    m = re.search(r"<!-- costs -->\n(.*?)<!-- /costs -->", (ROOT / doc).read_text(), re.S)
    assert m, f"{doc} lost its <!-- costs --> block"
    return m.group(1).strip()


def test_readme_cost_table_is_the_records():
    for doc, fix in (("README.md", "nbs/index.ipynb, then `python tools/readme.py`"), ("bench/README.md", "bench/README.md")):
        assert _block(doc) == cost_table(), f"{doc}'s cost table differs from the records: paste `python tools/measure.py --table` into {fix}"


def test_every_row_has_a_record_of_a_clean_successful_run():
    for name, _ in COST_ROWS:
        rec = json.loads((ROOT / "results" / "costs" / name).read_text())
        assert rec["returncode"] == 0 and rec["dirty"] is False and re.fullmatch(r"[0-9a-f]{40}", rec["commit"]), name
        assert rec["wall_s"] > 0 and rec["peak_rss_gib"] > 0, name
        assert not any(k.startswith("/") for k in rec["disk_added_gb"]), f"{name} names a folder by an absolute path"


def test_the_records_measured_the_readmes_commands():
    text = (ROOT / "README.md").read_text()
    readme = " ".join(commands(text))
    for name in ("nbdev_test.json", "pytest.json", "quick_run.json", "quick_run_avx2.json"):
        cmd = json.loads((ROOT / "results" / "costs" / name).read_text())["command"].split(" -q")[0]
        assert cmd in readme, f"{name} measured `{cmd}`, which no README command runs"
    install = json.loads((ROOT / "results" / "costs" / "install.json").read_text())["command"]
    assert install.split("bash -c ", 1)[-1] == named(text, "install"), "install.json measured another install line"


def test_each_quick_run_row_ran_on_the_cpu_it_names():
    """The quick run is measured on both compute paths a CPU can take: the front row on a CPU with native bf16, the
    AVX2 row on the float32 path with AVX2 kernels (`star.models.dtype_choice`) -- on an AVX2-only CPU, or on a bf16 CPU
    held to AVX2 (torch's and oneDNN's kernels, `STAR_DTYPE=float32`), which its record then says (`env`)."""
    recs = {n: json.loads((ROOT / "results" / "costs" / n).read_text()) for n in ("quick_run.json", "quick_run_avx2.json")}
    assert {n: r["cpu_capability"] for n, r in recs.items()} == {"quick_run.json": "AVX512", "quick_run_avx2.json": "AVX2"}
    env = recs["quick_run_avx2.json"].get("env")
    assert env is None or env == {"STAR_DTYPE": "float32", "ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2"}, env
    assert all(r.get("cpu") for r in recs.values() if r["date"] >= "2026-12-06"), "a record names its CPU"


def test_first_screen_states_the_quick_runs_measured_cost():
    """The README's first code block says what the quick run costs on both compute paths, from its two records (minutes
    and peak GiB as `tools/measure.py --table` rounds them), and the RAM it needs: a laptop with that much keeps each
    measured peak under 75 % of its memory (issue 49)."""
    first = re.search(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), re.S).group(1).splitlines()
    i = next(i for i, l in enumerate(first) if l.startswith("# the quick run"))
    from itertools import takewhile
    line = " ".join(l.lstrip("# ") for l in takewhile(lambda l: l.startswith("#"), first[i:]))   # the comment above its command
    recs = [json.loads((ROOT / "results" / "costs" / n).read_text()) for n in ("quick_run.json", "quick_run_avx2.json")]
    for r in recs:
        assert f"{r['wall_min']:.1f} min and {r['peak_rss_gib']:.1f} GiB" in line, (line, r["wall_min"], r["peak_rss_gib"])
    ram = int(re.search(r"needs (\d+) GiB of RAM", line).group(1))
    assert max(r["peak_rss_gib"] for r in recs) <= 0.75 * ram, (line, ram)


def test_quick_run_plan_quotes_its_records():
    """What the quick run's plan prints before it starts (`CPU_COSTS`' 'quick' variant: expected minutes with its SFT,
    peak memory) is within 10 % of the quick run's measured records, on each compute path (issue 49)."""
    from star.rl_config import resolve_config, run_params
    from star.run import cpu_cost
    for path, name in (("bfloat16", "quick_run.json"), ("float32", "quick_run_avx2.json")):
        r = json.loads((ROOT / "results" / "costs" / name).read_text())
        c = cpu_cost(resolve_config(**{**run_params(dict(scale="0.5B", quick=True)), "dtype": path}), sft_missing=True)
        assert c["variant"] == "quick" and abs(c["peak_gib"] - r["peak_rss_gib"]) <= 0.1 * r["peak_rss_gib"], (path, c, r["peak_rss_gib"])
        assert abs(c["minutes"] - r["wall_min"]) <= 0.1 * r["wall_min"], (path, c["minutes"], r["wall_min"])
