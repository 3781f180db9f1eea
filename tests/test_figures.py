"""The paper's tables and figures (`star.figures`, notebooks in `nbs/figures/`, outputs in `figures/`).

* every artefact of the paper the issue lists has exactly one notebook, which calls its builder, and the notebooks
  are committed executed (`tools/doc_outputs.py`): the table (markdown) or the plot (PNG) shows on GitHub, and
  `nbdev-clean` keeps it byte for byte (python3 kernelspec only, no execution counts) — `tests/test_notebooks.py`
  globs `nbs/*.ipynb` only;
* building twice writes the same bytes, and the committed `figures/` equal a fresh build from `results/`;
* runs that are missing read *missing* / "no runs yet"; a record that exists fills exactly its cell.
"""
import json, re, shutil, tomllib
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

from star.figures import ARTEFACTS, build_all, fig1, fig7, parse_run, table1, table8, table8_field
from star.results import QA_DATASETS, new_record, paper_table, save_record

ROOT = Path(__file__).resolve().parents[1]
RESULTS, FIGURES, FIG_NBS, ABL = ROOT / "results", ROOT / "figures", ROOT / "nbs" / "figures", ROOT / "ablations"
PAPER_ARTEFACTS = {"Table 1", "Table 2", "Table 3", "Table 4", "Table 8", "Table 9",
                   "Figure 1", "Figure 4", "Figure 5", "Figure 6", "Figure 7", "Figure 8", "Figure 9", "Figure 10"}
RENDERED_WITH = "3.11.2"   # matplotlib that rendered the committed PNG/SVG (other versions may rasterise differently)


def _nb(p): return json.loads(p.read_text())
def _src(c): return "".join(c["source"]) if isinstance(c["source"], list) else c["source"]


def test_one_notebook_per_paper_artefact():
    assert set(ARTEFACTS) == PAPER_ARTEFACTS
    stems = {stem for _, stem in ARTEFACTS.values()}
    assert len(stems) == len(ARTEFACTS)
    nbs = {p.stem for p in FIG_NBS.glob("*.ipynb")}
    assert nbs == stems | {"00_figures"}, f"unexpected or missing figure notebooks: {nbs ^ (stems | {'00_figures'})}"
    for art, (builder, stem) in ARTEFACTS.items():
        code = "\n".join(_src(c) for c in _nb(FIG_NBS / f"{stem}.ipynb")["cells"] if c["cell_type"] == "code")
        assert re.search(rf"\b{builder.__name__}\(res\)", code), f"{stem}.ipynb must build {art} with {builder.__name__}(res)"
        prose = " ".join(_src(c) for c in _nb(FIG_NBS / f"{stem}.ipynb")["cells"] if c["cell_type"] == "markdown")
        assert art in prose and "In the paper" in prose and "Ours" in prose


def test_library_chapter_exports_figures():
    cells = _nb(FIG_NBS / "00_figures.ipynb")["cells"]
    mods = [m.group(1) for c in cells if c["cell_type"] == "code" for m in [re.search(r"^#\|\s*default_exp\s+(\S+)", _src(c), re.M)] if m]
    assert mods == ["figures"] and (ROOT / "star" / "figures.py").exists()


@pytest.mark.parametrize("nb_path", sorted(FIG_NBS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_figure_notebook_is_committed_executed(nb_path):
    "Committed with the outputs of a clean run (`python tools/doc_outputs.py nbs/figures/<name>.ipynb`), nbdev-clean."
    from fastcore.nbio import nb2str, read_nb
    from nbdev.clean import clean_nb
    nb, fix = _nb(nb_path), f"run `python tools/doc_outputs.py {nb_path.relative_to(ROOT)}`"
    assert nb["metadata"].get("kernelspec", {}).get("name") == "python3"
    assert set(nb["metadata"]) <= {"kernelspec", "jekyll", "jupytext", "doc", "widgets", "nbdev"}
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    for c in nb["cells"]:
        assert set(c.get("metadata", {})) <= {"tags"}
    for c in code:
        assert c.get("execution_count") is None, "run nbdev-clean"
        for o in c.get("outputs", []):
            assert o["output_type"] != "error" and o.get("name") != "stderr", f"{nb_path.name}: an error output: {fix}"
    kinds = {k for o in code[-1].get("outputs", []) for k in o.get("data", {})}
    if nb_path.stem != "00_figures":   # the artefact itself is the last cell's output: its table or its plot
        want = "text/markdown" if nb_path.stem.startswith("table") else "image/png"
        assert want in kinds, f"{nb_path.name}: the last cell shows no {want}: {fix}"
    else: assert any(c.get("outputs") for c in code), f"{nb_path.name}: no outputs: {fix}"
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["nbdev"]
    clean = read_nb(nb_path)
    clean_nb(clean, allowed_metadata_keys=cfg.get("allowed_metadata_keys") or None,
             allowed_cell_metadata_keys=cfg["allowed_cell_metadata_keys"], clean_ids=cfg.get("clean_ids", True))
    assert nb2str(clean) == nb_path.read_text(encoding="utf-8"), "nbdev-clean would change it: run nbdev-clean"


def test_build_twice_same_bytes(tmp_path):
    a = build_all(RESULTS, tmp_path / "a", ABL)
    b = build_all(RESULTS, tmp_path / "b", ABL)
    assert [p.name for p in a] == [p.name for p in b] and len(a) == 6 * 2 + 8 * 3
    for p, q in zip(a, b): assert p.read_bytes() == q.read_bytes(), p.name
    # a second build into the same folder leaves every file untouched (write_atomic skips identical bytes)
    mtimes = {p: p.stat().st_mtime_ns for p in a}
    build_all(RESULTS, tmp_path / "a", ABL)
    assert {p: p.stat().st_mtime_ns for p in a} == mtimes
    svg = (tmp_path / "a" / "fig4_scale.svg").read_bytes()
    assert b"<dc:date>" not in svg and b"Matplotlib v" not in (tmp_path / "a" / "fig4_scale.png").read_bytes()


def test_committed_figures_equal_a_fresh_build(tmp_path):
    "Regenerate from results/ and compare with figures/: run the notebooks of nbs/figures/ after adding records."
    fresh = {p.name: p.read_bytes() for p in build_all(RESULTS, tmp_path, ABL)}
    committed = {p.name for p in FIGURES.iterdir() if p.is_file() and not p.name.startswith(".")}
    assert committed == set(fresh), f"figures/ differs in files: {committed ^ set(fresh)}"
    stale = [n for n, b in fresh.items() if n.endswith((".md", ".csv")) and (FIGURES / n).read_bytes() != b]
    assert not stale, f"stale tables/data in figures/ (re-run nbs/figures/): {stale}"
    if matplotlib.__version__ != RENDERED_WITH: pytest.skip(f"images rendered with matplotlib {RENDERED_WITH}")
    stale = [n for n, b in fresh.items() if n.endswith((".png", ".svg")) and (FIGURES / n).read_bytes() != b]
    assert not stale, f"stale images in figures/ (re-run nbs/figures/): {stale}"


@pytest.fixture
def scratch(tmp_path):
    "A results folder holding only the paper's CSVs."
    shutil.copytree(RESULTS / "paper", tmp_path / "results" / "paper")
    return tmp_path / "results"


def test_missing_runs_are_marked_not_invented(scratch, tmp_path):
    out = tmp_path / "out"
    build_all(scratch, out, ABL)
    t1 = pd.read_csv(out / "table1_reward_shaping.csv", dtype=str, keep_default_na=False)
    ours = [c for c in t1.columns if c.endswith(" ours")]
    assert len(t1) == 18 and (t1[ours] == "missing").all().all() and (t1.n_runs == "0").all()
    assert t1.record.str.startswith("eval_test_").all()
    assert "0 of 18 expected present" in (out / "table1_reward_shaping.md").read_text()
    t2 = pd.read_csv(out / "table2_ood_qa.csv", dtype=str, keep_default_na=False)
    assert (t2.loc[t2.method == "Search-R1", "record"] == "").all()            # the paper's baseline: never ours
    for stem in ("fig7_reward_curves", "fig8_scale_curves", "fig9_entropy", "fig10_algorithm_curves"):
        assert pd.read_csv(out / f"{stem}.csv").empty                           # no runs: nothing plotted
    f5 = pd.read_csv(out / "fig5_data_quantity.csv")
    assert f5["test_success paper"].isna().tolist() == [False, True, True, False, False]   # only plotted in the paper
    assert f5["test_success ours"].isna().all()


def test_a_record_fills_exactly_its_cell(scratch, tmp_path):
    m = {"n": 1000, "delivery_rate": 1.0, "commonsense_micro": 0.91, "commonsense_macro": 0.7, "hard_micro": 0.6,
         "hard_macro": 0.5, "final_pass": 0.45}
    for seed, fp in ((0, 0.45), (1, 0.55)):   # two seeds of 3B Macro average into one row
        save_record(new_record(f"eval_test_rl_3B_grpo_macro_mixed1000_f0_s{seed}", "eval",
                               validation={"official": {**m, "final_pass": fp}}), scratch)
    save_record(new_record("eval_validation_tiny", "eval", validation={"official": m}), scratch)
    save_record(new_record("rl_3B_grpo_macro_mixed1000_f0_s0", "rl",
                           curve=[{"step": s, "success": s / 10} for s in range(1, 4)]), scratch)
    t1 = pd.read_csv(table1(scratch, tmp_path, ABL)[0], dtype=str, keep_default_na=False)
    row = t1[(t1.scale == "3B") & (t1.method == "Macro")].iloc[0]
    assert (row.n_runs, row["success paper"], row["success ours"], row["cs_micro ours"]) == ("2", "48.2", "50.0", "91.0")
    assert (t1[~((t1.scale == "3B") & (t1.method == "Macro")) & t1.scale.isin(["1.5B", "3B", "7B"])]["success ours"] == "missing").all()
    extra = t1[t1.scale == "tiny (validation, CPU scale)"].iloc[0]                          # not a test number: its own row
    assert (extra.method, extra["success paper"], extra["success ours"]) == ("Base", "—", "45.0")
    f7 = pd.read_csv(fig7(scratch, tmp_path, ABL)[0])
    assert f7[["panel", "series", "step"]].values.tolist() == [["Qwen2.5-3B", "Macro", s] for s in (1, 2, 3)]


def test_table8_reads_the_record_field(scratch, tmp_path):
    stats = pd.DataFrame({"# Data Entries": [4], "Share (%)": [100.0], "Avg. Tool Calls": [9.5], "Avg. Tokens": [8000.0],
                          "Avg. Tokens of Planning": [1100.0]}, index=["All"])
    save_record(new_record("sft_0.5B", "sft", table8=table8_field(stats)), scratch)
    t8 = pd.read_csv(table8(scratch, tmp_path, ABL)[0], dtype=str, keep_default_na=False).set_index("level")
    assert t8.loc["all", ["trajectories paper", "trajectories ours", "avg_tool_calls ours"]].tolist() == ["1198", "4", "9.5"]
    assert t8.loc["easy", "avg_tool_calls paper"] == "8.8" and t8.loc["easy", "trajectories ours"] == "missing"


def test_fig1_states_only_stated_baselines(scratch, tmp_path):
    base = paper_table("fig1", RESULTS / "paper")
    assert base.set_index("model").test_success.dropna().to_dict() == {"Kimi-K2.5-1T": 11.8}
    assert (base.note[base.test_success.isna()].str.contains("not stated")).all()
    assert "fig1_baselines.csv" in (RESULTS / "paper" / "README.md").read_text()
    d = pd.read_csv(fig1(scratch, tmp_path, ABL)[0])
    star = d[d.group == "STAR"].set_index("label").paper.to_dict()
    assert star == {"STAR-1.5B": 37.5, "STAR-3B": 49.9, "STAR-7B": 62.8}   # App. D.5 recipe: Table 4 ARPO, Table 1 rows
    assert d[d.group != "LLM"].ours.isna().all()


def test_expected_records_are_ablation_jobs():
    """Every `record` a table names is a job of the ablation grid (so `star ablate` can make it) or, for a row only our
    CPU-scale runs fill, the committed record that fills it; Table 1's rows of ours all name theirs."""
    from star.cli import load_ablation
    jobs = {j.name for y in ABL.glob("*.yaml") for j in load_ablation(y).jobs}
    committed = {p.stem for p in RESULTS.glob("*.json")}
    for stem in ("table1_reward_shaping", "table2_ood_qa", "table3_difficulty", "table4_algorithms", "table9_data_ood"):
        t = pd.read_csv(FIGURES / f"{stem}.csv", dtype=str, keep_default_na=False)
        recs = {r for cell in t.record for r in cell.split("; ")} - {""}
        assert recs and recs <= jobs | committed, (stem, recs - jobs - committed)
        if stem == "table1_reward_shaping":
            cpu = t[t.scale.str.contains("CPU scale")]
            assert len(cpu) and (cpu.record != "").all(), cpu[["scale", "method", "record"]]
            held = cpu[cpu.scale.str.contains("held-out")]
            assert set(held.record) == {"rl_0.5B_grpo_sum_easy16_f0_s0"}, held.record.tolist()
    assert parse_run("eval_test_rl_7B_arpo_sum_mixed1000_f0_s0")["algorithm"] == "ARPO"


def test_cpu_scale_runs_are_drawn_as_ours(scratch, tmp_path):
    "Any RL record at a scale the paper did not train (a later, longer TravelPlanner run) lands in the 'ours, CPU scale' row."
    curve = [{"step": s, "reward": s / 20, "success": 0.0, "entropy": 0.1} for s in range(1, 17)]
    save_record(new_record("rl_0.5B_grpo_curriculum_easy64_f0_s0", "rl", curve=curve), scratch)
    f7 = pd.read_csv(fig7(scratch, tmp_path, ABL)[0])
    assert f7.panel.unique().tolist() == ["ours, 0.5B, CPU scale: training reward"]
    assert f7.step.tolist() == list(range(1, 17)) and (f7.series == "TravelPlanner, Curriculum (easy64, 16 steps)").all()
    assert f7.value.tolist() == [s / 20 for s in range(1, 17)]
    committed = pd.read_csv(FIGURES / "fig7_reward_curves.csv")   # the committed records: both CPU runs are drawn
    assert set(committed.run) == {p.stem for p in RESULTS.glob("rl_0.5B_*.json")}


def test_travelplanner_held_out_validation_in_fig7_fig8_and_table1(scratch, tmp_path):
    """A CPU-scale TravelPlanner RL record with held-out validation (issue 36): its commonsense micro per validated step
    is drawn in Figures 7 and 8, and Table 1 gets its step 0 as SFT and its last step as the reward, on their own rows.
    The metrics are the evaluator's on real plans: 32 3-day validation queries with the official example plans (the
    last step) and the same plans cut to their first day (step 0)."""
    from star.evaluator import evaluate_dataset
    from star.figures import fig8, rl_held_out_rows
    from star.rl import validation_tasks
    from star.tasks import example_plans
    tasks = validation_tasks(32, seed=0, days=(3,))
    plans = {e["idx"]: e["plan"] for e in example_plans()}
    whole = evaluate_dataset(tasks, [plans[t.idx] for t in tasks], "agent_star")
    cut = evaluate_dataset(tasks, [(plans[t.idx] or [])[:1] or None for t in tasks], "agent_star")
    assert cut["commonsense_micro"] < whole["commonsense_micro"]
    curve = [{"step": s, "reward": s / 40, "success": 0.0, "entropy": 0.1} for s in range(1, 17)]
    vals = [{"step": s, "checkpoint": f"runs/rl/x/checkpoint-{s}", "metrics": m} for s, m in ((4, cut), (8, cut), (16, whole))]
    save_record(new_record("rl_0.5B_grpo_sum_easy16_f0_s0", "rl", curve=curve, task_family="travelplanner",
                           config={"protocol": "agent_star", "trip_days": [3], "scale": "0.5B"},
                           validation_init={"agent_star": cut}, validation_checkpoints=vals), scratch)
    for build in (fig7, fig8):
        f = pd.read_csv(build(scratch, tmp_path, ABL)[0])
        ho = f[f.panel == "ours, 0.5B, CPU scale: held-out TravelPlanner queries"]
        assert ho.step.tolist() == [0, 4, 8, 16]
        assert ho.value.tolist() == pytest.approx([cut["commonsense_micro"]] * 3 + [whole["commonsense_micro"]])
    rows = rl_held_out_rows(scratch)
    assert rows.method.tolist() == ["SFT", "Sum"] and rows.stage.tolist() == ["sft", "rl"]
    t1 = pd.read_csv(table1(scratch, tmp_path, ABL)[0], dtype=str, keep_default_na=False)
    mine = t1[t1.scale == "0.5B (held-out 32 3-day validation queries, CPU scale)"].set_index("method")
    assert mine.loc["Sum", "cs_micro ours"] == f"{100 * whole['commonsense_micro']:.1f}"
    assert mine.loc["SFT", "success ours"] == f"{100 * cut['final_pass']:.1f}" and mine.loc["Sum", "cs_micro paper"] == "—"
    assert len(t1) == 18 + 2                                   # the paper's 18 rows, then ours at CPU scale
