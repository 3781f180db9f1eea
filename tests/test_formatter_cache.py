"""The LLM formatter's reply cache (issue 33): entries are written through unique temporary files and renamed into
place (8 threads formatting one text used to fail the fixed-name rename 5 times in 30), and a damaged entry is a miss
-- asked again and rewritten -- never an exception out of `format_plan`."""
import json, threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from star.formatter import fake_formatter_server, format_plan, llm_formatter, render_plan
from star.tasks import load_tasks

GOLD = [d for d in load_tasks("train")[0].annotated_plan if d]
REPLY = "```json\n" + json.dumps([{**d, "day": d["days"]} for d in GOLD]) + "\n```"
TEXT = render_plan(GOLD) + "\nEnjoy the trip!"      # not canonical: `formatter='llm'` sends it to the LLM


@pytest.fixture
def endpoint():
    url, srv = fake_formatter_server(REPLY)
    yield url, srv
    srv.shutdown(); srv.server_close()


def test_eight_threads_format_one_text_thirty_times(endpoint, tmp_path):
    url, srv = endpoint
    llm = llm_formatter(url, "m", api_key_env=None, cache_dir=tmp_path)
    errors, start = [], threading.Barrier(8)
    def one(query):
        start.wait()                                          # all 8 at once, on the same cache entry
        try: return format_plan(TEXT, query, formatter="llm", llm=llm)
        except Exception as e: errors.append(e); raise
    for round_ in range(30):
        with ThreadPoolExecutor(8) as ex: fps = list(ex.map(one, [f"query {round_}"] * 8))
        assert [fp.formatter for fp in fps] == ["llm"] * 8, [fp.reason for fp in fps]
        assert all(fp.plan == fps[0].plan for fp in fps)
    assert errors == []
    assert len(list(tmp_path.glob("*.json"))) == 30 and [p for p in tmp_path.iterdir() if p.suffix != ".json"] == []


@pytest.mark.parametrize("damage", ["{", "[1, 2]", "{\"model\": \"m\"}", "{\"content\": [1]}", "{\"content\": \"no plan\"}",
                                    "", "[" * 100_000])
def test_a_damaged_entry_is_a_miss_and_is_rewritten(endpoint, tmp_path, damage):
    url, srv = endpoint
    llm = llm_formatter(url, "m", api_key_env=None, cache_dir=tmp_path)
    plan = format_plan(TEXT, "q", formatter="llm", llm=llm).plan
    entry = next(tmp_path.glob("*.json"))
    entry.write_text(damage)
    fp = format_plan(TEXT, "q", formatter="llm", llm=llm)          # used to raise (JSONDecodeError, KeyError, TypeError)
    assert (fp.formatter, fp.plan, len(srv.requests)) == ("llm", plan, 2)
    assert json.loads(entry.read_text())["content"] == REPLY       # rewritten
    assert format_plan(TEXT, "q", formatter="llm", llm=llm).plan == plan and len(srv.requests) == 2   # a hit again
