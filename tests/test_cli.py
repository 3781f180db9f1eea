"""The `star` command (star.cli) and the ablation files (ablations/*.yaml).

* run commands: `star synthesize | sft | rl | evaluate` take every papermill parameter of their notebook as an
  option (derived from the notebook: a parameter added there appears without touching the CLI), typed, with help;
  `star synthesize` really executes the notebook (papermill), streams its output and keeps the executed copy;
  `papermill --help-notebook` shows every parameter of every run notebook;
* ablations: every file parses, every job sets only declared parameters of its run notebook, names are unique,
  deterministic and shared across experiments with identical parameters, --dry-run prints the plan, done jobs are
  skipped (fake executor), Fig. 5 keeps about 155 updates;
* done = a readable record whose settings match the job; `collect` says why a job is not done and names every
  record it could not read; help on every option."""
import ast, json, math, re, shutil, subprocess, sys
from pathlib import Path

import pytest
import yaml

from star.cli import (CONFIGS, NOTEBOOKS, AblationError, Job, ablate, build_parser, collect, job_name, job_settings, load_ablation, main,
                      notebook_parameters, record_status, select_jobs)
from star.results import new_record, save_record
from star.cli import config_class, run_parameters, validate_parameters
from star.rl_config import RLRunConfig, field_docs, parse_run_args, resolve_config, run_params
from star.sft import check_parameters

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "ablations").glob("*.yaml"))
EXPECTED = {"cpu_scale", "cpu_scale_stable", "table1_reward_shaping", "table3_difficulty", "fig5_data_quantity", "table4_algorithms", "fig6_failure", "offline",
            "probe"}


def _declared(nb: Path) -> list:
    "Names assigned in the papermill `parameters` cell of a run notebook, in order."
    cell = next(c for c in json.loads(nb.read_text())["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    return [t.id for n in ast.parse(src).body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)]


def _record(job: Job, root, **over):
    "The record a run of `job` writes (kind and settings), as the notebooks do."
    kind = {"sft": "sft", "rl": "rl", "evaluate": "eval", "synthesize": "synthesis"}[job.notebook]
    save_record(new_record(job.name, kind, config=job_settings(job) | over), Path(root) / "results")


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
        declared = set(notebook_parameters(j.notebook))
        assert set(j.parameters) <= declared, (j.name, set(j.parameters) - declared)
        assert r["name"] == j.name == job_name(j.notebook, j.parameters)          # deterministic: a function of the parameters
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+-]*", j.name)
        assert all(n in names[:names.index(j.name)] for n in j.needs)              # dependencies listed first
    assert load_ablation(f).jobs == ab.jobs                                          # parsing twice: the same plan


@pytest.mark.parametrize("key", sorted(NOTEBOOKS))
def test_parameters_are_the_run_notebooks(key):
    "The CLI's parameters are papermill's inference of the notebook, which must see every assignment of the cell."
    ps = notebook_parameters(key, ROOT)
    assert list(ps) == _declared(ROOT / NOTEBOOKS[key])
    assert all(p.help for p in ps.values() if p.name not in ("n_medium", "n_hard", "seed")), \
        [p.name for p in ps.values() if not p.help]


@pytest.mark.parametrize("key", sorted(NOTEBOOKS))
def test_papermill_help_notebook_shows_every_parameter(key):
    "`papermill --help-notebook nbs/<run>.ipynb` lists every parameter (an `=` in a comment used to hide one)."
    p = subprocess.run([sys.executable, "-m", "papermill", "--help-notebook", str(ROOT / NOTEBOOKS[key])],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    shown = re.findall(r"^  (\w+): ", p.stdout, re.M)
    assert shown == _declared(ROOT / NOTEBOOKS[key]), set(_declared(ROOT / NOTEBOOKS[key])) ^ set(shown)
    assert "Unable to parse" not in p.stderr + p.stdout


def test_evaluate_notebook_parameters():
    assert {"checkpoint", "split", "protocol", "n", "out_dir", "results_dir", "base_url"} <= set(notebook_parameters("evaluate"))


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
    # TravelPlanner at CPU scale (issue 36): the 0.5B, G = 8, easy 3-day prompts, Sum and the Curriculum, 16 steps,
    # held-out validation on 32 queries every 4 steps at the training budget
    cs = rl("cpu_scale")
    assert sorted(p["reward"] for p in cs) == ["curriculum", "sum"]
    for p in cs:
        assert (p["scale"], p["data"], p["max_steps"], p["n_val"], p["init"]) == ("0.5B", "easy", 16, 32, "sft")
        assert p["extra"] == {"val_steps": 4, "val_max_context": 7168, "val_tool_budget": 15}
    # the paper's recipe: batch 32, G = 8, lr 2e-6, 60 tool calls, from SFT, evaluated on test with the official evaluator
    for e in EXPECTED - {"offline", "probe", "cpu_scale", "cpu_scale_stable"}:
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
            _record(job, root)
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
    with pytest.raises(AblationError, match="--index 5: the selection has 2 jobs"):
        ablate(f, ["notebook=rl"], root=tmp_path, executor=fake, out=quiet, index=5)


def test_failed_job_blocks_its_dependants(tmp_path):
    f = _tiny_yaml(tmp_path)
    def boom(job, root):
        if job.notebook == "sft": raise RuntimeError("cell failed")
        _record(job, root)
    st = ablate(f, root=tmp_path, executor=boom, out=lambda *a: None)
    assert [s["status"] for s in st] == ["failed", "blocked", "blocked", "blocked"]


def test_selection_adds_needed_jobs_unless_done(tmp_path):
    f = _tiny_yaml(tmp_path)
    jobs = load_ablation(f).jobs
    assert [j.name for j in select_jobs(jobs, ["notebook=evaluate"], results=tmp_path / "results")] == [
        "sft_tiny", "rl_tiny_grpo_sum_mixed8_f0_s0", "eval_validation_rl_tiny_grpo_sum_mixed8_f0_s0"]
    (tmp_path / "results" / "rl_tiny_grpo_sum_mixed8_f0_s0.json").write_text("{}")       # not a record: not done
    assert len(select_jobs(jobs, ["notebook=evaluate"], results=tmp_path / "results")) == 3
    _record(jobs[2], tmp_path)
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


def test_done_means_a_readable_record_with_the_jobs_settings(tmp_path):
    f = _tiny_yaml(tmp_path)
    jobs = {j.name: j for j in load_ablation(f).jobs}
    sft, rl = jobs["sft_tiny"], jobs["rl_tiny_grpo_sum_mixed8_f0_s0"]
    res = tmp_path / "results"
    assert record_status(sft, res) == ("missing", "")
    (res / "sft_tiny.json").write_text('{"run": "sft_tiny", "kind": "sft", "config": {"sca')       # killed mid-write
    st, why = record_status(sft, res)
    assert st == "unreadable" and why.startswith(str(res / "sft_tiny.json")) and "not valid JSON" in why
    (res / "sft_tiny.json").write_text("[]")                                                     # valid JSON, wrong shape
    assert record_status(sft, res)[1] == f"{res / 'sft_tiny.json'}: not a run record (a JSON list, not an object)"
    _record(sft, tmp_path, scale="0.5B")                                                         # another setting
    assert record_status(sft, res) == ("mismatch", "scale: '0.5B' recorded, 'tiny' asked")
    _record(sft, tmp_path)
    assert record_status(sft, res) == ("done", "")
    # RL records hold the resolved config: the job's None / 'auto' match the scale's default, anything else must be equal
    _record(rl, tmp_path, epochs=1, init="sft")
    assert record_status(rl, res) == ("done", "")
    rl2 = Job(rl.name, "rl", {**rl.parameters, "lr": "1e-5", "init": "auto", "epochs": None})
    _record(rl, tmp_path, lr=1e-05)
    assert record_status(rl2, res) == ("done", "")                                               # 1e-5 == '1e-5'
    _record(rl, tmp_path, lr=2e-05)
    assert record_status(rl2, res) == ("mismatch", "lr: 2e-05 recorded, '1e-5' asked")


def test_collect_names_what_it_could_not_read(tmp_path, capsys, monkeypatch):
    f = _tiny_yaml(tmp_path)
    jobs = load_ablation(f).jobs
    _record(jobs[0], tmp_path, scale="7B")                           # sft_tiny: other settings
    _record(jobs[1], tmp_path)                                       # rl macro: done
    (tmp_path / "results" / "rl_tiny_grpo_sum_mixed8_f0_s0.json").write_text('{"run": "rl_tiny_grpo_sum')   # truncated
    (tmp_path / "results" / "stray.json").write_text("[]")           # not a job's record, still named
    df = collect([f], root=tmp_path)
    assert df.status.tolist() == ["mismatch", "done", "unreadable", "missing"]
    monkeypatch.chdir(tmp_path)
    assert main(["collect", str(f)]) == 0
    out = capsys.readouterr().out
    assert "sft_tiny: mismatch: scale: '7B' recorded, 'tiny' asked" in out
    assert f"could not read {tmp_path / 'results' / 'stray.json'}: not a run record (a JSON list" in out
    assert f"could not read {tmp_path / 'results' / 'rl_tiny_grpo_sum_mixed8_f0_s0.json'}: not valid JSON" in out
    assert out.strip().endswith("1 done, 1 with other settings, 1 unreadable, 1 missing")
    # the same judgement decides what `ablate` runs
    ran = []
    ablate(f, root=tmp_path, executor=lambda job, root: (ran.append(job.name), _record(job, root)), out=lambda *a: None)
    assert ran == ["sft_tiny", "rl_tiny_grpo_sum_mixed8_f0_s0", "eval_validation_rl_tiny_grpo_sum_mixed8_f0_s0"]


def _options(parser, cmd):
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return sub.choices[cmd]


def test_options_follow_the_notebooks(tmp_path):
    "A parameter added to a run notebook is an option of its command at once, with its comment as help."
    (tmp_path / "nbs").mkdir(); (tmp_path / "pyproject.toml").write_text("")
    for rel in NOTEBOOKS.values(): shutil.copy(ROOT / rel, tmp_path / rel)
    nb = json.loads((tmp_path / NOTEBOOKS["synthesize"]).read_text())
    cell = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    cell["source"] = "".join(cell["source"]) + "\nnew_knob = 0.25    # a knob added later, 50% off\n"
    (tmp_path / NOTEBOOKS["synthesize"]).write_text(json.dumps(nb))
    p = _options(build_parser(tmp_path), "synthesize")
    h = " ".join(p.format_help().split())
    assert "--new-knob FLOAT, --new_knob FLOAT a knob added later, 50% off (default: 0.25)" in h, h
    assert p.parse_args(["--new_knob", "0.5"]).new_knob == 0.5 and "new_knob" not in vars(p.parse_args([]))
    assert "--new-knob" not in _options(build_parser(ROOT), "synthesize").format_help()


def test_help_on_every_option():
    ap = build_parser(ROOT)
    sub = next(a for a in ap._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, p in sub.choices.items():
        for a in p._actions:
            if a.dest != "help": assert a.help, (name, a.dest)
        assert p.description
    assert set(sub.choices) == {"synthesize", "sft", "rl", "evaluate", "ablate", "collect"}
    for name in NOTEBOOKS:                                            # every papermill parameter, with its comment
        h = " ".join(_options(ap, name).format_help().split())
        if name in CONFIGS: continue                                  # rl, sft, evaluate: the run parser's options (below)
        for prm in notebook_parameters(name, ROOT).values():
            assert f"--{prm.name.replace('_', '-')}" in h and (" ".join(prm.help.split()) in h), (name, prm.name)
    for name in CONFIGS:                                              # `star rl | sft | evaluate`: one option per field, with its comment
        h = " ".join(_options(ap, name).format_help().split())
        for k, doc in field_docs(config_class(name)).items():
            assert f"--{k}" in h and " ".join(doc.split())[:40] in h, (name, k)
    assert set(notebook_parameters("rl", ROOT)) <= set(field_docs(RLRunConfig)) | {"quick", "extra"}
    for name in ("sft", "evaluate"):                                  # the notebook's parameters are the fields, comments included
        assert {p.name: p.help for p in notebook_parameters(name, ROOT).values()} == field_docs(config_class(name)), name


def test_option_types():
    ap = build_parser(ROOT)
    a = ap.parse_args(["evaluate", "--checkpoint", "runs/sft_0.5B/final", "--n", "None", "--strict-format", "yes",
                       "--top-p", "0.9", "--max-workers", "2"])
    assert (a.checkpoint, a.n, a.strict_format, a.top_p, a.max_workers) == ("runs/sft_0.5B/final", None, True, 0.9, 2)
    a = ap.parse_args(["rl", "--extra", '{"max_new_tokens_per_turn": 256, "lora": False}', "--lr", "2e-6", "--n-train", "8"])
    assert (a.extra, a.lr, a.n_train) == ({"max_new_tokens_per_turn": 256, "lora": False}, 2e-6, 8)
    assert ap.parse_args(["sft", "--mix", "1:0:0"]).mix == "1:0:0"
    for bad in (["sft", "--max-steps", "two"], ["evaluate", "--diagnose", "maybe"], ["rl", "--extra", "[1]"]):
        with pytest.raises(SystemExit): ap.parse_args(bad)


def test_star_synthesize_runs_the_notebook(tmp_path, capfd, monkeypatch):
    "The real thing: papermill executes nbs/synthesize.ipynb, its output streams to the terminal, the copy is kept."
    monkeypatch.chdir(ROOT)
    out_nb = tmp_path / "synth.ipynb"
    rc = main(["synthesize", "--n-easy", "2", "--n-medium", "0", "--n-hard", "0", "--out-path", str(tmp_path / "pool.jsonl"),
               "--results-dir", str(tmp_path / "published"), "--output", str(out_nb)])
    out = capfd.readouterr().out
    assert rc == 0, out[-3000:]
    assert f"papermill nbs/synthesize.ipynb {out_nb} -p n_easy 2 -p n_medium 0 -p n_hard 0" in out
    assert "2 tasks in" in out and "easy   feasible" in out                     # the cells' prints, streamed
    assert f"executed notebook: {out_nb}" in out
    executed = json.loads(out_nb.read_text())
    assert any("2 tasks in" in "".join(o.get("text", "")) for c in executed["cells"] for o in c.get("outputs", []))
    rec = json.loads((tmp_path / "published" / "synthesis_pool.json").read_text())
    assert (rec["kind"], rec["config"]["n_easy"], rec["report"]["n_tasks"]) == ("synthesis", 2, 2)
    assert (tmp_path / "synthesis_pool.json").read_bytes() == (tmp_path / "published" / "synthesis_pool.json").read_bytes()


def test_a_failing_notebook_exits_1(tmp_path, capfd, monkeypatch):
    "Values the run accepts, a run that fails: a model folder whose config names a model but holds no weights."
    monkeypatch.chdir(ROOT)
    ck = tmp_path / "ck"; ck.mkdir(); (ck / "config.json").write_text('{"model_type": "qwen2"}')
    rc = main(["evaluate", "--checkpoint", str(ck), "--output", str(tmp_path / "bad.ipynb")])
    out, err = capfd.readouterr()
    assert "executed notebook" not in out and "stopped after" in out          # a failed run was not "executed"
    # one line naming the failed cell's exception (papermill's ename/evalue), not its traceback; the notebook is kept
    assert rc == 1 and "star evaluate: the notebook failed: OSError: " in err and "model.safetensors" in err, err
    assert "Traceback" not in err and (tmp_path / "bad.ipynb").exists()


# ------------------------------------------------------------------ issue 33: odd records, folders, clones, Ctrl-C, credentials
def _run(capsys, *argv):
    rc = main(list(argv))
    return rc, capsys.readouterr().err.strip()


def test_a_record_with_a_huge_integer_is_named_not_a_crash(tmp_path, capsys, monkeypatch):
    """A record whose setting is an integer beyond any float (> 1e308) made `star collect` and `star ablate --dry-run`
    raise OverflowError; now the job is one with other settings, the value named (cut), and both commands go on."""
    f = _tiny_yaml(tmp_path)
    rl = {j.name: j for j in load_ablation(f).jobs}["rl_tiny_grpo_sum_mixed8_f0_s0"]
    _record(rl, tmp_path, n_train=10 ** 400)
    monkeypatch.chdir(tmp_path)
    assert main(["collect", str(f)]) == 0
    out = capsys.readouterr().out
    assert "rl_tiny_grpo_sum_mixed8_f0_s0: mismatch: n_train: 10000000000" in out and "(401 characters) recorded, 8 asked" in out
    assert main(["ablate", str(f), "--dry-run"]) == 0
    assert "its record has other settings: n_train: 1000" in capsys.readouterr().out


@pytest.mark.parametrize("cmd", [["collect"], ["ablate", "--dry-run"]])
@pytest.mark.parametrize("results", ["resutls", "/nonexistent"])
def test_results_folder_must_exist(tmp_path, capsys, monkeypatch, cmd, results):
    "`--results resutls` (a typo) used to report every job as to do: a real run would redo finished work."
    f = _tiny_yaml(tmp_path)
    monkeypatch.chdir(tmp_path)
    rc, err = _run(capsys, cmd[0], str(f), *cmd[1:], "--results", results)
    assert rc == 2 and err.startswith(f"star {cmd[0]}: --results {results}: no such folder (") and "\n" not in err, err


@pytest.mark.parametrize("cmd", [["collect"], ["ablate", "ablations/offline.yaml", "--dry-run"]])
def test_ablate_and_collect_outside_a_clone(tmp_path, capsys, monkeypatch, cmd):
    monkeypatch.chdir(tmp_path)
    rc, err = _run(capsys, *cmd)
    assert rc == 2 and "\n" not in err and "Traceback" not in err, err
    assert err.startswith(f"star {cmd[0]}: run from a clone of the repository: no repository root (pyproject.toml + nbs/)"), err


def test_credentials_in_urls_are_never_printed(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    url = "https://alice:s3cret@api.example.com/v1?api_key=abc123&model=x"
    assert main(["evaluate", "--checkpoint", "teacher", "--formatter-base-url", url, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "s3cret" not in out and "abc123" not in out and "https://***@api.example.com/v1?api_key=***&model=x" in out


def _default_sigint():
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_prints_one_line(tmp_path):
    """Ctrl-C in the middle of a run notebook: `star` stops the kernel and says so in one line (exit 130); the kernel's
    log used to add a ZMQError traceback, and `star` still printed "executed notebook"."""
    import signal, threading, time
    cmd = [sys.executable, "-m", "star.cli", "synthesize", "--n-easy", "200000", "--n-medium", "0", "--n-hard", "0",
           "--out-path", str(tmp_path / "pool.jsonl"), "--output", str(tmp_path / "synth.ipynb")]
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)
    lines, err = [], []
    reader = threading.Thread(target=lambda: lines.extend(iter(p.stdout.readline, "")), daemon=True); reader.start()
    threading.Thread(target=lambda: err.append(p.stderr.read()), daemon=True).start()
    try:
        deadline = time.time() + 180
        while not any("trip_pools" in l or "Executing Cell 5" in l for l in lines) and time.time() < deadline and p.poll() is None:
            time.sleep(0.2)
        time.sleep(3)
        assert p.poll() is None, "".join(lines)[-2000:]
        p.send_signal(signal.SIGINT)
        p.wait(timeout=120)
    finally:
        if p.poll() is None: p.kill()
    reader.join(5); time.sleep(1)
    out, err = "".join(lines), "".join(err)
    assert p.returncode == 130, (out[-2000:], err[-2000:])
    assert "star synthesize: interrupted" in err and "Traceback" not in err and "ZMQError" not in err, err[-3000:]
    assert "executed notebook" not in out and "stopped after" in out


def test_one_configuration_by_every_route(tmp_path, monkeypatch):
    """`star rl` flags, `star rl --config` YAML, `python -m star.rl key=value`, `TrlParser` flags and the papermill
    namespace of nbs/rl.ipynb resolve to the same RLRunConfig."""
    from star.rl import parse_cli
    given = dict(scale="tiny", algorithm="dapo", reward="macro", n_train=8, lr=1e-5, trip_days="3,5", lora=True,
                 report_to="tensorboard", use_vllm=False)
    flags = [w for k, v in given.items() for w in (f"--{k.replace('_', '-')}", str(v))]
    (tmp_path / "run.yaml").write_text(yaml.safe_dump(given))
    namespace = {k: p.default for k, p in notebook_parameters("rl", ROOT).items()} | given      # papermill -p
    routes = {
        "star rl flags": run_params(run_parameters(build_parser(ROOT).parse_args(["rl", *flags]))),
        "star rl --config": run_params(run_parameters(build_parser(ROOT).parse_args(["rl", "--config", str(tmp_path / "run.yaml")]))),
        "python -m star.rl k=v": parse_cli([f"{k}={v}" for k, v in given.items()]),
        "TrlParser --config + flag": run_params(parse_run_args(["--config", str(tmp_path / "run.yaml"), "--lr", "1e-5"])),
        "papermill": run_params(namespace),
    }
    cfgs = {k: resolve_config(**p).to_dict() for k, p in routes.items()}
    want = cfgs["papermill"]
    assert (want["algorithm"], want["n_train"], want["trip_days"], want["report_to"]) == ("dapo", 8, (3, 5), "tensorboard")
    for k, c in cfgs.items(): assert c == want, (k, {f: (c[f], want[f]) for f in c if c[f] != want[f]})


ROUTES = {
    "sft": (dict(scale="0.5B", n_train=48, mix="1:0:0", max_steps=-1, lr=1e-4, batch_size=None, report_to="tensorboard",
                 allow_dirty=True, dtype="bf16"),
            ("max_steps", 0, "max_steps must be an integer >= 1 (or -1), got 0")),
    "evaluate": (dict(checkpoint="0.5B", split="qa", n=None, temperature=0.7, qa_datasets="nq,popqa", strict_format=True,
                      diagnose=False, dtype="bf16", retriever="e5", index_path="runs/x.index", nprobe=8),
                 ("top_p", 1.5, "top_p must be a finite number > 0 and <= 1, got 1.5")),
}


@pytest.mark.parametrize("run", sorted(ROUTES))
def test_sft_and_evaluate_configuration_by_every_route(run, tmp_path, capsys):
    """`star sft | evaluate` flags, their `--config` YAML (with a flag on top), TrlParser and the papermill namespace of
    nbs/<run>.ipynb give the same resolved config (SFTRunConfig, EvalRunConfig), explicit Nones included; a bad value
    by each route (flags, YAML, papermill, an ablation job) is the same ValueError naming the field."""
    given, (k, v, why) = ROUTES[run]
    cls, yml = config_class(run), tmp_path / "run.yaml"
    flags = [w for f, x in given.items() for w in (f"--{f.replace('_', '-')}", str(x))]
    yml.write_text(yaml.safe_dump(given))
    namespace = {n: p.default for n, p in notebook_parameters(run, ROOT).items()} | given          # papermill -p
    ap = build_parser(ROOT)
    routes = {
        f"star {run} flags": run_parameters(ap.parse_args([run, *flags])),
        f"star {run} --config": run_parameters(ap.parse_args([run, "--config", str(yml)])),
        f"star {run} --config + flag": run_parameters(ap.parse_args([run, "--config", str(yml), *flags[:2]])),
        "TrlParser --config": parse_run_args(["--config", str(yml)], cls),
        "papermill": check_parameters(namespace, set(), declared=cls),
    }
    cfgs = {r: cls(**p).to_dict() for r, p in routes.items()}
    want = cfgs["papermill"]
    assert want["dtype"] == "bfloat16" and all(want[f] is None for f, x in given.items() if x is None)
    if run == "evaluate": assert (want["qa_datasets"], want["diagnose"], want["nprobe"]) == (("nq", "popqa"), False, 8)
    for r, c in cfgs.items(): assert c == want, (r, {f: (c[f], want[f]) for f in c if c[f] != want[f]})
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump({**given, k: v}))
    for argv in ([run, f"--{k}", str(v), "--dry-run"], [run, "--config", str(tmp_path / "bad.yaml"), "--dry-run"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err == f"star {run}: ValueError: {why}\n", (argv, err)
    (tmp_path / "typo.yaml").write_text(yaml.safe_dump({**given, k + "x": v}))      # a key that is no field: named, status 2
    assert main([run, "--config", str(tmp_path / "typo.yaml"), "--dry-run"]) == 2 and f"'--{k}x'" in capsys.readouterr().err
    for route in (lambda: cls(**check_parameters({**namespace, k: v}, set(), declared=cls)),
                  lambda: validate_parameters(run, {k: v}, ROOT, paths=False)):
        with pytest.raises(ValueError) as e: route()
        assert str(e.value) == why


def test_configs_rl_yaml_load_through_the_parser():
    "Every configs/rl/*.yaml parses with the run parser (TrlParser `--config`) and resolves."
    files = sorted((ROOT / "configs" / "rl").glob("*.yaml"))
    assert files
    for f in files:
        p = parse_run_args(["--config", str(f)])
        assert resolve_config(**run_params(p), use_vllm=False).scale == p["scale"], f


def test_gpu_dry_run_describes_the_gpus_and_notes_the_scale(capsys, monkeypatch):
    """`star rl --dry-run --scale 3b --n-gpus 8` plans for 8 GPUs: their precision (bf16) and the time the GPU records
    in results/gpu/ give -- not this CPU's precision or its 2-core cost table; '3b' is read as '3B' and said so."""
    from star.models import on_cuda
    monkeypatch.chdir(ROOT)
    assert main(["rl", "--dry-run", "--scale", "3b", "--n-gpus", "8"]) == 0
    out = capsys.readouterr().out
    assert "note: scale '3b' read as '3B'" in out, out[-3000:]
    prec = next(l for l in out.splitlines() if l.startswith("precision: "))
    assert prec.startswith("precision: bfloat16 compute" + ("" if on_cuda() else " on the GPUs")), prec
    assert "AVX" not in prec and "cpu" not in prec.lower().replace("a machine without cuda", ""), prec
    cost = next(l for l in out.splitlines() if l.startswith("expected"))
    assert cost.startswith("expected time: a whole GPU run is not measured; from results/gpu/h100_2026-11-27 "
                           "(one NVIDIA H100 80GB HBM3"), cost
    assert "x 32 episodes per rank x 2.98 s (3B, 30,720 tokens)" in cost and "on 8 such GPUs" in cost, cost
    assert "2 cores" not in out and "CPU_COSTS" not in out


def test_run_help_shows_every_default():
    "`star <run> --help`: every option ends with the default the run takes (the notebook's literal where it has one)."
    ap = build_parser()
    sub = next(a for a in ap._actions if a.__class__.__name__ == "_SubParsersAction")
    for name in NOTEBOOKS:
        p = sub.choices[name]
        missing = [a.dest for a in p._actions if a.option_strings and a.dest != "help" and "(default:" not in (a.help or "")]
        assert not missing, (name, missing)
    h = " ".join(sub.choices["rl"].format_help().split())
    assert '--scale SCALE model scale: a key of star.models.REGISTRY' in h and '(default: "0.5B")' in h
    assert "--quick QUICK smoke size (QUICK): the learning probe, its SFT and 1 GRPO step; with a TravelPlanner --data, a 2-step SFT and 1 GRPO step (default: False)" in h


@pytest.mark.parametrize("argv, line", [
    (["rl", "--quik", "true"], "star rl: unknown option --quik (did you mean --quick?) (star rl --help lists the options)"),
    (["sft", "--n_trian", "4"], "star sft: unknown option --n_trian (did you mean --n-train?) (star sft --help lists the options)"),
    (["rl", "--quick", "maybe"], "star rl: argument --quick: Truthy value expected: got maybe"),
])
def test_option_typo_is_one_line_before_any_kernel(tmp_path, capfd, monkeypatch, argv, line):
    "A typo in an option or a value of the wrong type: one line naming the nearest option, status 2, no executed copy."
    monkeypatch.chdir(ROOT)
    out = tmp_path / "out.ipynb"
    try: rc = main([*argv, "--output", str(out)])
    except SystemExit as e: rc = e.code
    cap = capfd.readouterr()
    assert (rc, cap.err.count("\n"), cap.out) == (2, 1, "") and cap.err.startswith(line), cap
    assert cap.err.endswith(f"(star {argv[0]} --help lists the options)\n"), cap
    assert not out.exists() and not list(tmp_path.iterdir())


def test_kernel_channels_are_encrypted(tmp_path, capfd, monkeypatch):
    """A run's kernel starts on CurveZMQ-encrypted channels (`kernel_config`), so ipykernel has no "running over TCP
    without encryption" to warn about -- checked with the kernel's log at its default level (without `KERNEL_ARGS`)."""
    import nbformat, zmq
    import star.cli
    if not zmq.has("curve"): pytest.skip("this pyzmq has no CurveZMQ")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('ran', 6 * 7)")],
                                  metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nbformat.write(nb, tmp_path / "in.ipynb")
    monkeypatch.setattr(star.cli, "KERNEL_ARGS", [])
    star.cli.execute(tmp_path / "in.ipynb", tmp_path / "out.ipynb", {}, tmp_path)
    cap = capfd.readouterr()
    assert "ran 42" in cap.out and "without encryption" not in cap.err + cap.out, cap.err[-2000:]


def test_ctrl_c_before_the_kernel_is_one_line():
    """Ctrl-C early -- while `star` reads the notebooks' parameters or starts the kernel -- ends as a late one does: one
    line on stderr, status 130."""
    import signal, time
    p = subprocess.Popen([sys.executable, "-m", "star.cli", "rl", "--dry-run", "--scale", "tiny"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    try: out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None: p.kill()
    assert p.returncode == 130, (out[-2000:], err[-2000:])
    assert err.count("\n") == 1 and err.startswith("star rl: interrupted"), err[-3000:]
