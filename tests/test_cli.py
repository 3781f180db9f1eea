"""The ablation files (ablations/*.yaml) and the runner (star.cli): every file parses, every job sets only declared
parameters of its run notebook, names are unique, deterministic and shared across experiments with identical
parameters, --dry-run prints the plan, done jobs are skipped (fake executor), Fig. 5 keeps about 155 updates."""
import ast, json, math, re
from pathlib import Path

import pytest
import yaml

from star.cli import NOTEBOOKS, Job, ablate, collect, job_name, load_ablation, main, select_jobs

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "ablations").glob("*.yaml"))
EXPECTED = {"table1_reward_shaping", "table3_difficulty", "fig5_data_quantity", "table4_algorithms", "fig6_failure", "offline",
            "probe"}


def _declared(nb: Path) -> set:
    "Names assigned in the papermill `parameters` cell of a run notebook."
    cell = next(c for c in json.loads(nb.read_text())["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    return {t.id for n in ast.parse(src).body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}


def test_one_file_per_experiment():
    assert {f.stem for f in FILES} == EXPECTED
    assert all(load_ablation(f).experiment == f.stem for f in FILES)


@pytest.mark.parametrize("f", FILES, ids=lambda p: p.stem)
def test_jobs_use_declared_parameters_and_derived_names(f):
    ab = load_ablation(f)
    assert ab.jobs and ab.artefact and ab.description
    raw = yaml.safe_load(f.read_text())["jobs"]
    names = [j.name for j in ab.jobs]
    assert len(set(names)) == len(names)
    for j, r in zip(ab.jobs, raw):
        assert set(j.parameters) <= set(NOTEBOOKS[j.notebook][1]), (j.name, set(j.parameters) - set(NOTEBOOKS[j.notebook][1]))
        assert r["name"] == j.name == job_name(j.notebook, j.parameters)          # deterministic: a function of the parameters
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+-]*", j.name)
        assert all(n in names[:names.index(j.name)] for n in j.needs)              # dependencies listed first
    assert load_ablation(f).jobs == ab.jobs                                          # parsing twice: the same plan


@pytest.mark.parametrize("key", ["rl", "sft"])
def test_declared_names_match_the_run_notebooks(key):
    path, names = NOTEBOOKS[key]
    nb = ROOT / path
    if not nb.exists(): pytest.skip(f"{path} not written yet")
    missing = set(names) - _declared(nb)
    assert not missing, f"{path} lacks parameters {missing}"


def test_evaluate_notebook_parameters():
    nb = ROOT / NOTEBOOKS["evaluate"][0]
    if not nb.exists(): pytest.skip("nbs/evaluate.ipynb not written yet")
    assert {"checkpoint", "split", "protocol", "n", "out_dir"} <= _declared(nb)


def test_rl_names_are_the_rl_notebooks_names():
    rl = pytest.importorskip("star.rl")
    for f in FILES:
        for j in load_ablation(f).jobs:
            if j.notebook != "rl": continue
            p = j.parameters
            if (p.get("extra") or {}).get("run_name"):   # an explicit name (the probe's guard run)
                assert j.name == p["extra"]["run_name"]; continue
            assert j.name == rl.default_run_name(p["scale"], p["algorithm"], p["reward"], p["data"], p["n_train"],
                                                 float(p["failure_rate"]), p["seed"])


def test_shared_runs_are_identical_across_experiments():
    df = collect(FILES, results=ROOT / "results", root=ROOT)       # raises if one name had two parameter sets
    shared = df.set_index("name").experiments.to_dict()
    assert "table1_reward_shaping" in shared["rl_3B_grpo_curriculum_mixed1000_f0_s0"]
    assert {"table3_difficulty", "fig5_data_quantity"} <= set(shared["rl_3B_grpo_curriculum_mixed1000_f0_s0"].split(","))
    assert set(shared["rl_3B_grpo_macro_mixed1000_f0_s0"].split(",")) >= {"table1_reward_shaping", "table4_algorithms", "fig6_failure"}
    assert set(shared["rl_7B_grpo_sum_mixed1000_f0_s0"].split(",")) >= {"table1_reward_shaping", "table4_algorithms"}


def test_paper_grids():
    jobs = {f.stem: load_ablation(f).jobs for f in FILES}
    rl = lambda e: [j.parameters for j in jobs[e] if j.notebook == "rl"]
    t1 = rl("table1_reward_shaping")
    assert sorted((p["scale"], p["reward"]) for p in t1) == sorted((s, r) for s in ("1.5B", "3B", "7B")
                                                                   for r in ("sum", "macro", "success", "curriculum"))
    ev = [j.parameters for j in jobs["table1_reward_shaping"] if j.notebook == "evaluate"]
    assert {"1.5B", "3B", "7B", "runs/sft_1.5B", "runs/sft_3B", "runs/sft_7B"} <= {p["checkpoint"] for p in ev}  # Base, SFT rows
    assert {p["split"] for p in ev} == {"test", "qa"}
    assert sorted(p["data"] for p in rl("table3_difficulty")) == ["easy", "hard", "medium", "mixed"]
    t4 = rl("table4_algorithms")
    assert sorted((p["scale"], p["algorithm"], p["reward"]) for p in t4) == sorted(
        (s, a, "sum" if s == "7B" else "macro") for s in ("1.5B", "3B", "7B") for a in ("grpo", "dapo", "arpo"))
    assert sorted(p["failure_rate"] for p in rl("fig6_failure")) == [0.0, 0.01, 0.05, 0.1]
    assert all((p["scale"], p["reward"]) == ("3B", "macro") for p in rl("fig6_failure"))
    assert {p["scale"] for p in rl("offline")} == {"tiny", "0.5B"}
    assert {p["data"] for p in rl("probe")} == {"probe"}          # the learning probe: not a paper grid
    # the paper's recipe: batch 32, G = 8, lr 2e-6, 60 tool calls, from SFT, evaluated on test with the official evaluator
    for e in EXPECTED - {"offline", "probe"}:
        for p in rl(e): assert (p["batch_size"], p["group_size"], p["lr"], p["tool_budget"], p["init"]) == (32, 8, 2e-6, 60, "sft")


def test_fig5_runs_have_about_155_updates():
    runs = [j.parameters for j in load_ablation(ROOT / "ablations" / "fig5_data_quantity.yaml").jobs if j.notebook == "rl"]
    assert sorted(p["n_train"] for p in runs) == [100, 200, 500, 1000, 2000]
    for p in runs:
        steps = p["epochs"] * p["n_train"] / p["batch_size"]
        assert steps >= 155 and min(steps, p["max_steps"]) == 155, p     # steps = epochs x n / 32, capped at 155
        assert (p["epochs"] - 1) * p["n_train"] / p["batch_size"] < 155   # the fewest whole epochs that reach 155
    assert [p["epochs"] for p in sorted(runs, key=lambda p: p["n_train"])] == [50, 25, 10, 5, 3]


def _tiny_yaml(tmp_path):
    (tmp_path / "results").mkdir(); (tmp_path / "nbs").mkdir(); (tmp_path / "pyproject.toml").write_text("")
    f = tmp_path / "exp.yaml"
    f.write_text(yaml.safe_dump({"experiment": "exp", "artefact": "Table X", "description": "d",
        "defaults": {"rl": {"data": "mixed", "n_train": 8, "failure_rate": 0.0, "seed": 0, "results_dir": "results"},
                     "evaluate": {"split": "validation", "protocol": "official", "n": 5}},
        "jobs": [{"notebook": "sft", "parameters": {"scale": "tiny"}},
                 {"notebook": "rl", "parameters": {"scale": "tiny", "reward": "macro", "algorithm": "grpo"}, "needs": ["sft_tiny"]},
                 {"notebook": "rl", "parameters": {"scale": "tiny", "reward": "sum", "algorithm": "grpo"}, "needs": ["sft_tiny"]},
                 {"notebook": "evaluate", "parameters": {"checkpoint": "runs/rl/rl_tiny_grpo_sum_mixed8_f0_s0"},
                  "needs": ["rl_tiny_grpo_sum_mixed8_f0_s0"]}]}))
    return f


def test_dry_run_prints_the_plan(tmp_path, capsys, monkeypatch):
    f = _tiny_yaml(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["ablate", str(f), "--dry-run", "--select", "reward=sum"]) == 0
    out = capsys.readouterr().out
    assert "# exp (Table X): 2 jobs, 0 done" in out
    assert "  0 todo  sft_tiny  papermill nbs/sft.ipynb runs/papermill/sft_tiny.ipynb -p scale tiny" in out
    assert "  1 todo  rl_tiny_grpo_sum_mixed8_f0_s0  papermill nbs/rl.ipynb" in out and "-p reward sum" in out
    assert "macro" not in out and not list((tmp_path / "results").iterdir())
    assert main(["ablate", str(f), "--dry-run", "--select", "notebook=evaluate", "--no-needs"]) == 0
    assert "1 jobs" in capsys.readouterr().out


def test_skip_if_done_with_a_fake_executor(tmp_path):
    f = _tiny_yaml(tmp_path)
    ran = []
    def fake(job: Job, root):
        ran.append(job.name)
        if job.name != "rl_tiny_grpo_macro_mixed8_f0_s0":          # this one "forgets" to write its record
            (Path(root) / "results" / f"{job.name}.json").write_text("{}")
    quiet = lambda *a: None
    st = ablate(f, ["name=sft_tiny"], root=tmp_path, executor=fake, out=quiet)
    assert ran == ["sft_tiny"] and [s["status"] for s in st] == ["ran"]
    st = ablate(f, root=tmp_path, executor=fake, out=quiet)
    assert ran == ["sft_tiny", "rl_tiny_grpo_macro_mixed8_f0_s0", "rl_tiny_grpo_sum_mixed8_f0_s0", "eval_validation_rl_tiny_grpo_sum_mixed8_f0_s0"]
    assert [s["status"] for s in st] == ["done", "ran-no-record", "ran", "ran"]
    ran.clear()
    st = ablate(f, root=tmp_path, executor=fake, out=quiet)                 # only the job without a record runs again
    assert ran == ["rl_tiny_grpo_macro_mixed8_f0_s0"] and [s["status"] for s in st].count("done") == 3
    # --index picks one job of the selection (Slurm arrays)
    ran.clear()
    st = ablate(f, ["notebook=rl"], root=tmp_path, executor=fake, out=quiet, index=0)
    assert [s["name"] for s in st] == ["rl_tiny_grpo_macro_mixed8_f0_s0"]
    with pytest.raises(IndexError): ablate(f, ["notebook=rl"], root=tmp_path, executor=fake, out=quiet, index=5)


def test_failed_job_blocks_its_dependants(tmp_path):
    f = _tiny_yaml(tmp_path)
    def boom(job, root):
        if job.notebook == "sft": raise RuntimeError("cell failed")
        (Path(root) / "results" / f"{job.name}.json").write_text("{}")
    st = ablate(f, root=tmp_path, executor=boom, out=lambda *a: None)
    assert [s["status"] for s in st] == ["failed", "blocked", "blocked", "blocked"]


def test_selection_adds_needed_jobs_unless_done(tmp_path):
    f = _tiny_yaml(tmp_path)
    jobs = load_ablation(f).jobs
    assert [j.name for j in select_jobs(jobs, ["notebook=evaluate"], results=tmp_path / "results")] == [
        "sft_tiny", "rl_tiny_grpo_sum_mixed8_f0_s0", "eval_validation_rl_tiny_grpo_sum_mixed8_f0_s0"]
    (tmp_path / "results" / "rl_tiny_grpo_sum_mixed8_f0_s0.json").write_text("{}")
    assert [j.name for j in select_jobs(jobs, ["notebook=evaluate"], results=tmp_path / "results")] == [
        "eval_validation_rl_tiny_grpo_sum_mixed8_f0_s0"]
    assert [j.name for j in select_jobs(jobs, ["reward=sum,macro"], with_needs=False)] == [
        "rl_tiny_grpo_macro_mixed8_f0_s0", "rl_tiny_grpo_sum_mixed8_f0_s0"]
    with pytest.raises(ValueError): select_jobs(jobs, ["reward"])


@pytest.mark.parametrize("bad, msg", [
    ({"notebook": "rl", "parameters": {"scale": "3B", "reward": "sum", "algorithm": "grpo", "data": "mixed", "n_train": 1, "temperature": 1.0}}, "not declared"),
    ({"notebook": "train", "parameters": {}}, "unknown notebook"),
    ({"notebook": "sft", "name": "sft_other", "parameters": {"scale": "3B"}}, "derived"),
    ({"notebook": "sft", "parameters": {"scale": "3B"}, "needs": ["sft_7B"]}, "not listed before"),
])
def test_invalid_files_are_rejected(tmp_path, bad, msg):
    f = tmp_path / "bad.yaml"
    f.write_text(yaml.safe_dump({"experiment": "bad", "jobs": [bad]}))
    with pytest.raises(ValueError, match=msg): load_ablation(f)
    f.write_text(yaml.safe_dump({"experiment": "dup", "jobs": [{"notebook": "sft", "parameters": {"scale": "3B"}}] * 2}))
    with pytest.raises(ValueError, match="duplicate"): load_ablation(f)


def test_collect_command(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["collect", "ablations/fig6_failure.yaml", "--results", "results"]) == 0
    out = capsys.readouterr().out
    assert "rl_3B_grpo_f" not in out and "rl_3B_grpo_macro_mixed1000_f10_s0" in out and out.strip().endswith("missing")
