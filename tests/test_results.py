"""Run records (star.results): strict canonical writing (an explicit folder; replacing a git-tracked record warns),
tolerant reading that names every bad file, the tolerant JSON-lines reader, the paper's CSVs, the paper-vs-ours
table with explicit `missing` markers, and byte-deterministic tables and figures."""
import gzip, json, math, os, re, subprocess, time, warnings
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from star.results import (CONFIG_KEYS, CURVE_KEYS, KINDS, METRICS, PAPER_METRICS, QA_DATASETS, CommittedRecordWarning,
                          UnreadableRecordWarning, coverage, figure_bytes, find_secrets, git_tracked, load_curves,
                          load_records, markdown_table, new_record, paper_metrics, paper_table, paper_tables,
                          read_jsonl, read_record, record_columns, record_json, save_figure, save_record, save_table,
                          run_seconds, scan_records, side_by_side, write_atomic)

ROOT = Path(__file__).resolve().parents[1]
PAPER = ROOT / "results" / "paper"


@pytest.fixture(scope="module")
def real_metrics():
    "Evaluator metrics of the first 30 packaged validation example plans under both protocols (a real eval)."
    from star.evaluator import evaluate_dataset
    from star.tasks import example_plans, load_tasks
    val = load_tasks("validation")[:30]
    plans = [p.get("plan") if isinstance(p, dict) else p for p in example_plans()[:30]]
    return {proto: evaluate_dataset(val, plans, proto) for proto in ("official", "agent_star")}


def _rec(real_metrics, run="eval-example-plans", **kw):
    return new_record(run, "eval", config={"scale": "reference", "data": "validation", "seed": 0},
                      validation=real_metrics, qa={d: 10.0 + i / 3 for i, d in enumerate(QA_DATASETS)},
                      curve=[{"step": s, "reward": s / 7, "success": np.float32(0.25)} for s in range(3)],
                      duration_s=12.3456789, **kw)


def test_new_record_meta(real_metrics):
    r = _rec(real_metrics)
    assert set(r["meta"]) == {"created", "git_commit", "dirty", "machine", "duration_s"}
    assert r["meta"]["dirty"] == (r["meta"]["git_commit"] or "").endswith("+dirty")
    assert r["meta"]["created"].endswith("+00:00") and len(r["meta"]["created"]) == 25
    assert r["meta"]["git_commit"] is None or len(r["meta"]["git_commit"].split("+")[0]) == 40
    assert "Python" in r["meta"]["machine"]
    with pytest.raises(ValueError, match="unknown kind"): new_record("x", "training")
    with pytest.raises(ValueError, match="bad run name"): new_record("a/b", "rl")


def test_save_record_is_canonical_and_atomic(tmp_path, real_metrics):
    r = _rec(real_metrics)
    p = save_record(r, tmp_path)
    assert p == tmp_path / "eval-example-plans.json"
    text = p.read_text()
    d = json.loads(text)
    assert list(d) == ["run", "kind", "config", "curve", "validation", "qa", "meta"]
    assert list(d["config"]) == sorted(d["config"])
    assert d["meta"]["duration_s"] == 1.2345679e1 and d["curve"][1]["reward"] == round(1 / 7, 6)
    assert d["curve"][0]["success"] == 0.25 and isinstance(d["curve"][0]["step"], int)
    # same record -> same bytes; the identical file is not rewritten
    m0 = p.stat().st_mtime_ns
    time.sleep(0.01)
    assert save_record(json.loads(text), tmp_path).read_text() == text
    assert p.stat().st_mtime_ns == m0
    # insertion order of the input does not matter
    shuffled = {k: r[k] for k in reversed(list(r))}
    shuffled["config"] = dict(reversed(list(r["config"].items())))
    assert record_json(shuffled) == text
    assert [x.name for x in tmp_path.iterdir()] == ["eval-example-plans.json"]
    # NaN / inf become null
    r2 = {**r, "run": "nan-run", "validation": {"official": {"final_pass": float("nan"), "hard_micro": float("inf")}}}
    assert json.loads(save_record(r2, tmp_path).read_text())["validation"]["official"] == {"final_pass": None, "hard_micro": None}
    with pytest.raises(TypeError): record_json({**r, "config": {"obj": object()}})


@pytest.mark.parametrize("bad", [{"api_key": "x"}, {"OPENAI_API_KEY": "x"}, {"hf_token": "x"}, {"token": "x"},
                                 {"nested": {"password": "x"}}, {"note": "sk-proj-abcdefghijklmnopqrstu"},
                                 {"list": ["ok", "hf_abcdefghijklmnopqrstuvwxyz0123"]}, {"Authorization": "Bearer x"}])
def test_credentials_are_refused(tmp_path, real_metrics, bad):
    r = _rec(real_metrics); r["config"].update(bad)
    with pytest.raises(ValueError, match="credential"): save_record(r, tmp_path)
    assert not list(tmp_path.iterdir())


def test_token_counts_are_not_credentials():
    assert find_secrets({"max_new_tokens": 512, "avg_tokens": 10300.0, "tokens": 3, "tokenizer": "Qwen/Qwen2.5-3B",
                         "api_key_env": None}) == ["api_key_env"]
    assert find_secrets({"curve": [{"response_length": 100}], "note": "skip-this"}) == []


def test_write_atomic_cleans_up_on_error(tmp_path):
    class Boom(bytes):
        pass
    write_atomic(tmp_path / "a.txt", "hello")
    assert (tmp_path / "a.txt").read_text() == "hello"
    with pytest.raises(TypeError): write_atomic(tmp_path / "b.txt", 3.5)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_tolerant_reading(tmp_path, real_metrics):
    save_record(_rec(real_metrics), tmp_path)
    (tmp_path / "partial.json").write_text(json.dumps({"run": "partial", "kind": "rl", "config": {"reward": "sum"},
                                                       "curve": [{"step": 3}], "qa": {"nq": {"em": 5.0, "f1": 9.0}}}))
    (tmp_path / "garbage.json").write_text("[1, 2")
    (tmp_path / "nokind.json").write_text("{}")
    (tmp_path / "paper").mkdir(); (tmp_path / "paper" / "x.json").write_text("{}")
    r = read_record(tmp_path / "partial.json")
    assert set(CONFIG_KEYS) <= set(r["config"]) and math.isnan(r["config"]["scale"])
    assert set(r["curve"][0]) == set(CURVE_KEYS) and math.isnan(r["curve"][0]["entropy"])
    assert all(math.isnan(r["validation"][p][m]) for p in ("official", "agent_star") for m in METRICS)
    assert r["qa"]["nq"] == 5.0 and math.isnan(r["qa"]["bamboogle"])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        df = load_records(tmp_path)
    assert len(w) == 2                                   # garbage.json and nokind.json
    assert df.run.tolist() == ["eval-example-plans", "partial"]
    assert df.columns.tolist()[:len(record_columns())] == record_columns()
    e = df.set_index("run").loc["eval-example-plans"]
    assert e["official.final_pass"] == pytest.approx(real_metrics["official"]["final_pass"], abs=1e-6)
    assert e["agent_star.commonsense_micro"] == pytest.approx(real_metrics["agent_star"]["commonsense_micro"], abs=1e-6)
    assert e["qa.avg"] == pytest.approx(np.mean([10.0 + i / 3 for i in range(7)]), abs=1e-5)
    assert math.isnan(df.set_index("run").loc["partial", "qa.avg"])
    assert load_records(tmp_path, kind="rl").run.tolist() == ["partial"]
    cv = load_curves(tmp_path, kind=None)
    assert cv.groupby("run").size().to_dict() == {"eval-example-plans": 3, "partial": 1}
    assert set(cv.reward_name.dropna()) == {"sum"}
    pm = paper_metrics(df)
    assert pm.loc[0, "success"] == pytest.approx(100 * real_metrics["official"]["final_pass"], abs=1e-4)
    assert load_records(tmp_path / "absent").empty
    assert coverage(["partial", "nope"], tmp_path).done.tolist() == [True, False]


def test_every_paper_table_reads():
    names = paper_tables(PAPER)
    assert names == sorted(p.stem for p in PAPER.glob("*.csv")) and len(names) == 8
    shapes = {n: paper_table(n, PAPER).shape for n in names}
    assert shapes["table1_reward_shaping"] == (18, 7) and shapes["table2_ood_qa"] == (21, 10)
    assert shapes["table4_algorithms"] == (9, 9) and shapes["table9_data_ood"] == (10, 9)
    t2 = paper_table("table2", PAPER)
    # the paper's Avg column is the mean of the seven datasets (to the paper's rounding: at most 0.09 off)
    assert np.allclose(t2[list(QA_DATASETS)].mean(axis=1), t2["avg"], atol=0.1)
    assert paper_table("table8", PAPER).avg_tool_calls.tolist() == [8.8, 8.4, 11.7, 9.2]
    with pytest.raises(FileNotFoundError): paper_table("table5", PAPER)
    with pytest.raises(FileNotFoundError): paper_table("table", PAPER)   # a prefix must end at "_"


def test_side_by_side_marks_missing_runs(real_metrics):
    t1 = paper_table("table1", PAPER)
    ours = paper_metrics(pd.DataFrame([{"official." + k: v for k, v in real_metrics["official"].items()}]))
    ours["scale"], ours["method"] = "3B", "curriculum"
    extra = pd.DataFrame({"scale": ["0.5B"], "method": ["Macro"], "success": [3.0]})
    sbs = side_by_side(pd.concat([ours, extra]), t1, ["scale", "method"])
    assert len(sbs) == 19 and sbs.iloc[-1][["scale", "method", "success paper", "success ours"]].tolist() == ["0.5B", "Macro", "—", "3.0"]
    row = sbs[(sbs.scale == "3B") & (sbs.method == "Curriculum")].iloc[0]
    assert row["n_runs"] == 1 and row["success paper"] == "49.9"
    assert row["success ours"] == f"{100 * real_metrics['official']['final_pass']:.1f}"
    others = sbs[sbs.n_runs == 0]
    assert len(others) == 17 and (others[[c for c in sbs.columns if c.endswith(" ours")]] == "missing").all().all()
    assert list(sbs.columns) == ["scale", "method", "n_runs"] + [f"{m} {w}" for m in PAPER_METRICS for w in ("paper", "ours")]
    num = side_by_side(ours, t1, ["scale", "method"], numeric=True, extra_rows=False)
    assert len(num) == 18 and num["success ours"].isna().sum() == 17
    with pytest.raises(KeyError): side_by_side(ours, t1, ["algorithm"])


def _figure():
    import matplotlib; matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    t = paper_table("table4", PAPER)
    fig, ax = plt.subplots(figsize=(4, 3))
    for a, g in t.groupby("algorithm", sort=False): ax.plot(g.scale, g.success, "o-", label=a)
    ax.set_title("Table 4"); ax.legend(); fig.tight_layout()
    return fig


def test_figures_are_byte_deterministic(tmp_path):
    import matplotlib.pyplot as plt
    fig = _figure()
    a = [p.read_bytes() for p in save_figure(fig, tmp_path / "t4")]
    b = [p.read_bytes() for p in save_figure(fig, tmp_path / "t4")]
    fig2 = _figure()
    assert a == b == [figure_bytes(fig2, "png"), figure_bytes(fig2, "svg")]
    assert a[0][:8] == b"\x89PNG\r\n\x1a\n" and b"<svg" in a[1]
    assert b"Matplotlib" not in a[0] and b"<dc:date>" not in a[1] and b"Matplotlib" not in a[1]
    assert [p.name for p in save_figure(fig, tmp_path / "only.svg")] == ["only.svg"]
    with pytest.raises(ValueError): figure_bytes(fig, "jpg")
    plt.close("all")


def test_tables_are_byte_deterministic(tmp_path):
    df = pd.DataFrame({"method": ["Sum", "Mac|ro"], "success": [47.04, float("nan")], "n": [1, 2]})
    md, csv = save_table(df, tmp_path / "t", digits=1, title="Table X")
    first = (md.read_bytes(), csv.read_bytes())
    save_table(df.copy(), tmp_path / "t.csv", digits=1, title="Table X")
    assert (md.read_bytes(), csv.read_bytes()) == first
    assert md.read_text() == "# Table X\n\n| method | success | n |\n|---|---|---|\n| Sum | 47.0 | 1 |\n| Mac\\|ro |  | 2 |\n"
    assert csv.read_text() == "method,success,n\nSum,47.0,1\nMac|ro,,2\n"
    assert markdown_table(df).splitlines()[2] == "| Sum | 47.04 | 1 |"


def test_save_record_needs_a_folder_and_warns_on_a_committed_record(tmp_path, real_metrics, capsys):
    rec = _rec(real_metrics)
    with pytest.raises(TypeError): save_record(rec)                  # no default folder: publishing is explicit
    git = lambda *a: subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *a], cwd=tmp_path,
                                    check=True, capture_output=True)
    git("init", "-q")
    p = save_record(rec, tmp_path / "results")
    assert git_tracked(p) is None                                    # untracked: not a published record
    git("add", "results"); git("commit", "-qm", "publish")
    assert git_tracked(p) == "results/eval-example-plans.json"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        save_record(rec, tmp_path / "results")                       # identical bytes: silent
        save_record(_rec(real_metrics, run="other"), tmp_path / "results")   # a new file: silent
    with pytest.warns(CommittedRecordWarning, match=r"^replacing committed results/eval-example-plans.json"):
        save_record({**rec, "config": {**rec["config"], "seed": 1}}, tmp_path / "results")
    assert "WARNING: replacing committed results/eval-example-plans.json" in capsys.readouterr().err
    assert json.loads(p.read_text())["config"]["seed"] == 1          # it does replace it, loudly


@pytest.mark.parametrize("text, why", [
    ("[]", "not a run record (a JSON list, not an object)"),
    ('"x"', "not a run record (a JSON str, not an object)"),
    ('{"run": "x", "kind": "eval", "validation": {"official": [1]}}', "not a run record (AttributeError"),
    ('{"run": "x", "kind": "rl", "config": "scale=3B"}', "not a run record (ValueError"),
    ('{"run": "x", "kind": "rl", "curve": 3}', "not a run record (TypeError"),
    ('{"run": "x", "kind": "r', "not valid JSON"),
])
def test_bad_records_are_named(tmp_path, text, why):
    p = tmp_path / "bad.json"
    p.write_text(text)
    with pytest.raises(ValueError) as e: read_record(p)
    assert str(e.value).startswith(f"{p}: {why}")
    good, bad = scan_records(tmp_path)
    assert good == [] and bad == [(p, str(e.value).removeprefix(f"{p}: "))]
    with pytest.warns(UnreadableRecordWarning, match=re.escape(f"skipping {p}: {why}")):
        assert load_records(tmp_path).empty


def test_build_all_names_unreadable_records(tmp_path):
    "The figure builders skip a bad record with a warning naming it (it used to be a bare AttributeError, or silence)."
    import shutil
    from star.figures import build_all
    res = tmp_path / "results"
    shutil.copytree(ROOT / "results", res)
    (res / "broken.json").write_text("[]")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("default")
        paths = build_all(res, tmp_path / "figures", ROOT / "ablations")
    named = {str(x.message) for x in w if x.category is UnreadableRecordWarning}
    assert named == {f"skipping {res / 'broken.json'}: not a run record (a JSON list, not an object)"}
    assert len(paths) == 6 * 2 + 8 * 3


def test_read_jsonl_tolerates_a_truncated_last_line(tmp_path):
    p = tmp_path / "validation.jsonl"
    rows = [{"step": i, "metrics": {"final_pass": i / 10}} for i in range(5)]
    full = "".join(json.dumps(r) + "\n" for r in rows)
    p.write_text(full + full.splitlines()[0][:17])                    # a writer killed mid-line
    with pytest.warns(UserWarning, match="validation.jsonl: dropped a truncated last line 6"):
        assert read_jsonl(p) == rows
    p.write_text(full + "\n\n")
    assert read_jsonl(p) == rows                                      # blank lines are not rows
    p.write_text(full.replace('{"step": 2', '{"step": 2,', 1))        # a bad line before the last one: corruption
    with pytest.raises(ValueError, match="validation.jsonl, line 3"): read_jsonl(p)
    g = tmp_path / "rows.jsonl.gz"
    g.write_bytes(gzip.compress(full.encode()) [:-12])                # gzip trailer lost
    with pytest.warns(UserWarning, match="rows.jsonl.gz"):
        got = read_jsonl(g)
    assert got == rows[:len(got)] and len(got) >= 4
    assert read_jsonl(tmp_path / "none.jsonl", missing_ok=True) == []


def test_every_jsonl_reader_is_tolerant(tmp_path):
    "The package's JSON-lines readers (RL logs, tasks, SFT sets, QA files) all go through read_jsonl."
    from star.tasks import load_tasks, read_jsonl as tasks_read_jsonl, save_jsonl_tasks, load_jsonl_tasks
    from star.qa import read_json_records
    p = tmp_path / "rollout_stats.jsonl"
    p.write_text('{"step": 1, "reward": 0.0}\n{"step": 2, "rew')
    with pytest.warns(UserWarning, match="truncated"): assert read_jsonl(p, missing_ok=True) == [{"step": 1, "reward": 0.0}]
    assert read_jsonl(tmp_path / "absent.jsonl", missing_ok=True) == []
    with pytest.warns(UserWarning, match="truncated"): assert tasks_read_jsonl(p) == [{"step": 1, "reward": 0.0}]
    with pytest.warns(UserWarning, match="truncated"): assert read_json_records(p) == [{"step": 1, "reward": 0.0}]
    tasks = load_tasks("validation")[:3]
    t = save_jsonl_tasks(tasks, tmp_path / "tasks.jsonl")
    t.write_text(t.read_text() + '{"query": "A trip')
    with pytest.warns(UserWarning, match="truncated"):
        assert [x.query for x in load_jsonl_tasks(t)] == [x.query for x in tasks]


def test_cpu_costs_quote_the_committed_records(monkeypatch):
    """What `run_plan` (and bench/README.md's cost table, `test_readme_cost_table_is_cpu_costs`) says a CPU run costs is what
    the committed records measured: for every RL record made from a clean tree on the 2-core CPU machine, `cpu_cost`
    of its own config on its compute path (with its SFT when the run trained it: its SFT record was made after the run
    began) is within 15 % of what the whole run took (`star.results.run_seconds`: every resumed segment counted); within
    30 % for a run of fewer than 8 steps, whose mean step time moves by up to a quarter with the episodes drawn (the
    CPU-scale Sum run's 16 steps took 11.8-26.5 min each; results/README.md, "The default offline run, measured")."""
    import star.rl as R
    from dataclasses import fields
    from star.rl_config import RLRunConfig, resolve_config
    monkeypatch.setattr(R, "on_cuda", lambda: False)
    names = {f.name for f in fields(RLRunConfig)}
    checked = []
    for p in sorted((ROOT / "results").glob("rl_*.json")):
        rec = json.loads(p.read_text())
        if rec.get("device") != "cpu" or "2 CPUs" not in rec["meta"].get("machine", "") or rec["meta"].get("dirty") is not False:
            continue   # a GPU run, another machine, or a record from a dirty tree (not evidence of today's code)
        cfg = resolve_config(**{k: v for k, v in rec["config"].items() if k in names and k not in ("out_dir", "results_dir", "dtype")},
                             dtype=rec["compute"]["dtype"])
        measured = run_seconds(rec) / 60
        t0 = datetime.fromisoformat(rec["meta"]["created"]) - timedelta(minutes=measured)
        init = _init_record(rec)   # its SFT, trained inside this run if made after it began
        sft_in_run = init is not None and datetime.fromisoformat(init["meta"]["created"]) >= t0
        cost = R.cpu_cost(cfg, sft_missing=sft_in_run)
        assert cost is not None, p.name
        tol = 0.15 if rec["steps"] >= 8 else 0.30
        assert abs(cost["minutes"] - measured) <= tol * measured, (p.name, cost, measured)
        checked.append(p.name)
    assert {"rl_0.5B_grpo_curriculum_easy8_f0_s0.json", "rl_0.5B_grpo_sum_easy16_f0_s0.json"} <= set(checked), checked


def _init_record(rec):
    """The committed SFT record an RL record names as its start: `results/<init>.json`, or, when that file holds another
    run of the same name (another weights fingerprint), `results/init/<init>-<fingerprint[:12]>.json`; None when the
    file it points to is missing."""
    p = ROOT / "results" / f"{rec.get('init')}.json"
    if p.is_file() and json.loads(p.read_text()).get("final_fingerprint") != rec.get("init_fingerprint"):
        p = ROOT / "results" / "init" / f"{rec.get('init')}-{str(rec.get('init_fingerprint'))[:12]}.json"
    return json.loads(p.read_text()) if p.is_file() else None


def test_committed_rl_records_name_a_committed_sft_record():
    """Every committed RL record names its starting weights by a committed SFT record (never by a path of the machine
    that ran it), with the same weights fingerprint, and both come from a clean tree."""
    import subprocess
    root = Path(__file__).resolve().parents[1]
    recs = sorted((root / "results").glob("rl_*.json"))
    assert recs
    shallow = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=root, capture_output=True, text=True).stdout.strip()
    for p in recs:
        rec = json.loads(p.read_text())
        s = _init_record(rec)   # an earlier or later SFT run of the same name: its record is kept by name and fingerprint
        assert s is not None, f"{p.name}: init {rec.get('init')!r} is not a committed record"
        assert s["kind"] == "sft" and s["final_model"] == rec["init_checkpoint"], p.name
        assert s["final_fingerprint"] and s["final_fingerprint"] == rec["init_fingerprint"], p.name
        for r in (rec, s):
            assert r["meta"]["dirty"] is False and not r["meta"]["git_commit"].endswith("+dirty"), r["run"]
            if shallow == "false":
                assert subprocess.run(["git", "cat-file", "-e", r["meta"]["git_commit"] + "^{commit}"], cwd=root).returncode == 0
