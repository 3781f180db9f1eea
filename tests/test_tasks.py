"""Tasks: TravelPlanner records, embedded splits, HF loaders (offline error), difficulty mixes and subsets.

Mixes are tested on the real validation split (60/60/60) and on pools made by replicating real tasks with
distinct ids and query text (the synthetic generator provides real pools later).
"""
import gzip, json, os, subprocess, sys, time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from star.tasks import (CONSTRAINT_KEYS, LEVELS, DatasetUnavailable, Task, describe_tasks, example_plans,
                        level_counts, load_agent_star_tasks, load_hf_tasks, load_jsonl_tasks, load_tasks,
                        make_mix, mix_counts, quantity_subsets, save_jsonl_tasks, split_pools)

ROOT = Path(__file__).resolve().parents[1]
QUERIES = ROOT / "star/data/travelplanner/queries"


@pytest.fixture(scope="module")
def val(): return load_tasks("validation")


@pytest.fixture(scope="module")
def train(): return load_tasks("train")


def replicate(tasks, copies):
    return [replace(t, idx=c * len(tasks) + t.idx, split="replica", id=f"replica-{c}-{t.id}",
                    query=f"{t.query} [copy {c}]") for c in range(copies) for t in tasks]


@pytest.fixture(scope="module")
def pool(val): return replicate(val, 60)  # 3,600 per level


# ---------------------------------------------------------------- records
def test_hf_style_rows_parse_like_the_raw_file(val):
    raw = [json.loads(l) for l in gzip.open(QUERIES / "validation180.jsonl.gz", "rt")]
    assert isinstance(raw[0]["date"], str) and isinstance(raw[0]["local_constraint"], str)
    for r, t in zip(raw, val):
        assert t.date == eval(r["date"]) and t.local_constraint == eval(r["local_constraint"])
        assert (t.org, t.dest, t.days, t.budget, t.level, t.query) == (r["org"], r["dest"], r["days"], r["budget"],
                                                                       r["level"], r["query"])
        assert t.source == r["_source"]
    t = val[100]
    assert t.id == "validation-100" and t.split == "validation"
    assert isinstance(t.reference_information, list) and t.reference_information[0]["Description"].startswith("Attractions")


def test_roundtrip_dict_literal_strings_and_json(val, train):
    for t in (val[0], val[150], train[7]):
        assert Task.from_dict(t.to_dict()) == t
        lit = t.to_dict(literal_strings=True)
        assert isinstance(lit["date"], str) and isinstance(lit["local_constraint"], str)
        assert Task.from_dict(lit) == t
        assert json.loads(json.dumps(t.to_dict())) == t.to_dict()


def test_from_dict_errors_and_defaults(val):
    d = val[0].to_dict()
    with pytest.raises(ValueError, match="level"): Task.from_dict(d | {"level": "expert"})
    with pytest.raises(KeyError, match="query"): Task.from_dict({k: v for k, v in d.items() if k != "query"})
    # a row with partial local_constraint (e.g. a synthetic row without 'transportation') gets all four keys
    d2 = d | {"local_constraint": "{'house rule': 'pets', 'cuisine': None, 'room type': None}", "generated_model": "x"}
    t = Task.from_dict(d2)
    assert list(t.local_constraint) == list(CONSTRAINT_KEYS) and t.constraints == ["house rule"]
    assert t.extra["generated_model"] == "x"


def test_embedded_splits(val, train):
    assert len(val) == 180 and level_counts(val) == {"easy": 60, "medium": 60, "hard": 60}
    assert len(train) == 45 and level_counts(train) == {"easy": 15, "medium": 15, "hard": 15}
    assert [t.idx for t in val] == list(range(180))
    assert sum(t.reference_information is not None for t in val) == 123
    assert all(t.reference_information for t in train)
    # the official annotated plans are padded with {} to 7 days
    assert all(len(t.annotated_plan) == 7 and len([d for d in t.annotated_plan if d]) == t.days for t in train)
    assert train[0].annotated_plan[0]["current_city"] == "from St. Petersburg to Rockford"
    with pytest.raises(ValueError, match="unknown split"): load_tasks("dev")


def test_user_jsonl_roundtrip(tmp_path, train):
    for name in ("a.jsonl", "b.jsonl.gz"):
        p = save_jsonl_tasks(train, tmp_path / name)
        assert load_jsonl_tasks(p, split="train") == train
    assert load_jsonl_tasks(tmp_path / "a.jsonl")[3].split == "train"  # the row's own split is kept
    raw = tmp_path / "mine.jsonl"  # HF-style rows without split/idx: file stem and line number
    raw.write_text("".join(json.dumps({k: v for k, v in t.to_dict(literal_strings=True).items()
                                       if k not in ("split", "idx", "id")}) + "\n" for t in train[:4]))
    got = load_jsonl_tasks(raw)
    assert [(t.split, t.idx, t.id) for t in got][3] == ("mine", 3, "mine-3") and got[2].query == train[2].query


def test_example_plans_aligned_by_query_text(val):
    ex = example_plans()
    raw = [json.loads(l) for l in gzip.open(QUERIES / "validation180_example_plans.jsonl.gz", "rt")]
    assert [r["idx"] for r in raw] == list(range(1, 181))  # the file is 1-based
    assert [e["idx"] for e in ex] == [t.idx for t in val] == list(range(180))
    assert all(e["query"] == t.query for e, t in zip(ex, val))
    assert sum(e["plan"] is None for e in ex) == 19
    assert ex[0]["plan"][0]["current_city"] == "from Washington to Myrtle Beach" and val[0].dest == "Myrtle Beach"


def test_level_statistics_on_validation(val):
    d = describe_tasks(val)
    assert d.loc["easy", "n_constraints"] == {0: 60} and d.loc["easy", "people"] == "1-1"
    assert d.loc["medium", "n_constraints"] == {1: 60}
    assert d.loc["hard", "n_constraints"] == {3: 60}
    assert (d.loc["medium", "cuisine"], d.loc["medium", "house rule"], d.loc["medium", "room type"]) == (22, 20, 18)
    assert d.loc["hard", "transportation"] == 51
    assert all(d.loc[l, "days"] == {3: 20, 5: 20, 7: 20} for l in LEVELS)


# ---------------------------------------------------------------- offline hub loaders
def _offline_env():
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    return env


@pytest.mark.parametrize("call", ["load_hf_tasks('test')", "load_tasks('test')",
                                  "load_agent_star_tasks('mixed_1k')", "load_tasks('agent_star:hard_1k')"])
def test_remote_loaders_fail_clearly_offline(call, tmp_path):
    code = (f"from star.tasks import *\ntry:\n    {call}\nexcept DatasetUnavailable as e:\n    print('UNAVAILABLE', e)")
    env = _offline_env() | {"HF_HOME": str(tmp_path / "hf")}  # empty cache: nothing to fall back on
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "UNAVAILABLE" in out.stdout and "load_jsonl_tasks" in out.stdout


def test_agent_star_unknown_name():
    with pytest.raises(KeyError, match="unknown Agent-STAR set"): load_agent_star_tasks("mixed_2k")


# ---------------------------------------------------------------- mixes
def test_mix_counts():
    assert mix_counts(1000) == {"easy": 400, "medium": 300, "hard": 300}
    assert [mix_counts(n) for n in (100, 200, 500, 2000)] == [
        {"easy": 40, "medium": 30, "hard": 30}, {"easy": 80, "medium": 60, "hard": 60},
        {"easy": 200, "medium": 150, "hard": 150}, {"easy": 800, "medium": 600, "hard": 600}]
    assert mix_counts(7, (1, 1, 1)) == {"easy": 3, "medium": 2, "hard": 2}
    assert mix_counts(1000, (0, 0, 1)) == {"easy": 0, "medium": 0, "hard": 1000}
    for bad in [(1, 1), (0, 0, 0), (-1, 1, 1)]:
        with pytest.raises(ValueError): mix_counts(10, bad)


def test_mix_on_validation_is_seeded_and_exact(val):
    m = make_mix(val, 150, seed=3)
    assert level_counts(m) == {"easy": 60, "medium": 45, "hard": 45}
    assert len({t.id for t in m}) == 150
    assert [t.id for t in make_mix(val, 150, seed=3)] == [t.id for t in m]
    assert [t.id for t in make_mix(val[::-1], 150, seed=3)] == [t.id for t in m]  # pool order does not matter
    assert {t.id for t in make_mix(val, 150, seed=4)} != {t.id for t in m}
    with pytest.raises(ValueError, match="easy: 60 distinct available, 61 requested"): make_mix(val, 152)
    assert level_counts(make_mix(val, 60, level="medium")) == {"easy": 0, "medium": 60, "hard": 0}
    with pytest.raises(ValueError, match="level"): make_mix(val, 10, level="expert")


def test_mix_deduplicates_queries_and_excludes(val):
    dup = val + [replace(t, id=f"dup-{t.idx}") for t in val]  # same query text, different ids
    assert len(make_mix(dup, 150, seed=0)) == 150
    with pytest.raises(ValueError, match="pool too small"): make_mix(dup, 183, ratio=(1, 1, 1))
    first = make_mix(val, 30, ratio=(1, 1, 1), seed=0)
    rest = make_mix(val, 150, ratio=(1, 1, 1), seed=0, exclude=first)
    assert {t.key for t in first}.isdisjoint({t.key for t in rest})
    assert len(make_mix(val, 15, ratio=(1, 1, 1), exclude=[t.query for t in first])) == 15  # strings work too


def test_paper_data_sets_on_replicated_pool(pool):
    sft, rl = split_pools(pool, n_sft=5000, n_rl=1000, seed=0)
    assert len(sft) == 5000 and level_counts(rl) == mix_counts(1000)
    assert {t.key for t in sft}.isdisjoint({t.key for t in rl})
    sub = quantity_subsets(pool, seed=0, exclude=sft)
    assert {k: level_counts(v) for k, v in sub.items()} == {k: mix_counts(k) for k in (100, 200, 500, 1000, 2000)}
    ids = {k: [t.id for t in v] for k, v in sub.items()}
    assert set(ids[100]) < set(ids[200]) < set(ids[500]) < set(ids[1000])
    assert ids[2000][:1000] == ids[1000] and len(set(ids[2000])) == 2000
    assert {t.key for t in sub[2000]}.isdisjoint({t.key for t in sft})
    again = quantity_subsets(pool, seed=0, exclude=sft)
    assert all([t.id for t in again[k]] == ids[k] for k in ids)
    other = quantity_subsets(pool, seed=1, exclude=sft)
    assert set(t.id for t in other[1000]) != set(ids[1000])
    easy_1k = make_mix(pool, 1000, level="easy", seed=0, exclude=sft + sub[1000])
    assert level_counts(easy_1k) == {"easy": 1000, "medium": 0, "hard": 0}
    assert {t.key for t in easy_1k}.isdisjoint({t.key for t in sft + sub[1000]})


def test_split_pools_errors(val):
    with pytest.raises(ValueError, match="pool too small"): split_pools(val, 170, 20, rl_ratio=None)
    with pytest.raises(ValueError, match="easy: 0 distinct available, 12 requested"):
        split_pools(val, 150, 30, sft_ratio=(4, 3, 3))  # the SFT draw takes all 60 easy queries
    sft, rl = split_pools(val, 90, 90, sft_ratio=(1, 1, 1), rl_ratio=(1, 1, 1), seed=2)
    assert level_counts(sft) == level_counts(rl) == {"easy": 30, "medium": 30, "hard": 30}
    assert {t.key for t in sft}.isdisjoint({t.key for t in rl})
