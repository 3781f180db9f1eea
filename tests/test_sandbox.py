"""The sandbox against the reference tools (Agent-STAR `Inference/tools/*.py`, `react_agent.py`).

Golden outputs: tests/fixtures/travelplanner/tool_observations.jsonl.gz (README.md next to it), produced by the
unmodified reference code on Python 3.11.7 / pandas 2.3.3 / numpy 1.26.4 on our packaged database. Our sandbox
reproduces pandas 2.3 comparison semantics itself, so the installed pandas version does not matter; only the
Python version changes a few exception texts (see `_version_skip`).
"""
import gzip, json, os, pickle, subprocess, sys, warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pytest

import star.sandbox

from star.sandbox import (EMBEDDED_DB_DIR, TOOL_NAMES, TOOLS_BLOCK, Sandbox, TravelDB, failure_message,
                          parse_tool_call, tool_schemas, wrap_response)

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = [json.loads(l) for l in gzip.open(ROOT / 'tests/fixtures/travelplanner/tool_observations.jsonl.gz')]
DIRECT = [r for r in FIXTURES if r.get('via') is None]
LOOP = [r for r in FIXTURES if r.get('via') == 'react_agent']


@pytest.fixture(scope='module')
def sb(): return Sandbox()


def _version_skip(r):
    "Lines whose exception text depends on the Python version (fixtures README, 'Version sensitivity')."
    obs = r['observation'] or ''
    if sys.version_info < (3, 11) and 'string indices must be integers' in obs:
        pytest.skip("Python < 3.11 drops \", not 'str'\" from 'string indices must be integers'")
    if sys.version_info >= (3, 13) and r['case'] == 'react:malformed_trailing_comma':
        pytest.skip('Python >= 3.13 json reports "Illegal trailing comma before end of object"')


def _id(r): return f"{r['tool']}|{r['case']}|{json.dumps(r['arguments'])[:60]}"


def test_fixture_counts():
    assert len(FIXTURES) == 532 and len(DIRECT) == 500 and len(LOOP) == 32


@pytest.mark.parametrize('r', DIRECT, ids=[_id(r) for r in DIRECT])
def test_direct_call_matches_reference(sb, r):
    _version_skip(r)
    assert sb.call(r['tool'], r['arguments']) == r['observation']


@pytest.mark.parametrize('r', LOOP, ids=[r['case'] for r in LOOP])
def test_react_step_matches_reference(sb, r):
    _version_skip(r)
    assert sb.react_step(r['llm_response']) == r['observation']


def test_react_nan_literal_goes_to_tool(sb):
    r = next(r for r in LOOP if r['case'].startswith('react:nan_literal'))
    call = parse_tool_call(r['llm_response'])
    assert call.name == 'SearchAccommodation' and call.arguments['city'] != call.arguments['city']  # a float NaN


def test_tools_block_and_schemas():
    packaged = json.loads((ROOT / 'star/data/travelplanner/tool_schemas.json').read_text())
    assert TOOLS_BLOCK == packaged['tools_block'] and len(TOOLS_BLOCK) == 2804
    assert tool_schemas() == packaged['tools']
    assert tuple(t['name'] for t in tool_schemas()) == TOOL_NAMES


# ---------------------------------------------------------------- failure injection (paper Sec. 4.6)
CALL = '<tool_call>{"name": "SearchCity", "arguments": {"state": "Texas"}}</tool_call>'
FAIL = failure_message('SearchCity')


def _pattern(s, n):
    return [s.react_step(CALL) == FAIL for _ in range(n)]


def test_failure_message_is_the_papers():
    assert FAIL == '<tool_response> Error: Current tool SearchCity is not available. </tool_response>'


@pytest.mark.parametrize('p', [0.01, 0.05, 0.1])
def test_failure_rate(p):
    n = 20_000
    k = sum(_pattern(Sandbox(failure_rate=p, seed=123), n))
    sd = (n * p * (1 - p)) ** 0.5
    assert abs(k - n * p) < 5 * sd, (k, n * p)


def test_failure_seeding():
    assert _pattern(Sandbox(failure_rate=0.1, seed=5), 500) == _pattern(Sandbox(failure_rate=0.1, seed=5), 500)
    assert _pattern(Sandbox(failure_rate=0.1, seed=5), 500) != _pattern(Sandbox(failure_rate=0.1, seed=6), 500)


def test_failure_off_by_default_and_call_never_fails(sb):
    assert not any(_pattern(Sandbox(), 300))
    s = Sandbox(failure_rate=1.0, seed=0)
    assert s.call('SearchCity', {'state': 'Texas'}).startswith('A SearchCity for state Texas')
    assert s.react_step(CALL) == FAIL


def test_failures_only_on_executed_calls():
    "Parse errors and unknown tools neither fail nor consume a draw: the known-call pattern is unchanged."
    a = Sandbox(failure_rate=0.3, seed=9)
    b = Sandbox(failure_rate=0.3, seed=9)
    pa_, pb = [], []
    for i in range(300):
        pa_.append(a.react_step(CALL) == FAIL)
        assert b.react_step('<tool_call>{"name": "NoSuchTool", "arguments": {}}</tool_call>').startswith('<tool_response>\nTool NoSuchTool')
        assert b.react_step('<tool_call>{oops}</tool_call>').startswith('<tool_response>\nError calling tool:')
        assert b.react_step('<answer>x</answer>') is None
        pb.append(b.react_step(CALL) == FAIL)
    assert pa_ == pb and b.n_calls == 300 and b.n_failures == sum(pb)


def test_failure_applies_to_known_tool_with_bad_arguments():
    s = Sandbox(failure_rate=1.0, seed=0)
    assert s.react_step('<tool_call>{"name": "SearchFlight", "arguments": null}</tool_call>') == failure_message('SearchFlight')


# ---------------------------------------------------------------- pickling and threads
def test_pickle_by_reference():
    s = Sandbox(failure_rate=0.2, seed=3)
    _pattern(s, 17)
    blob = pickle.dumps(s)
    assert len(blob) < 10_000                      # the DB is not in the pickle
    s2 = pickle.loads(blob)
    assert s2.db is s.db is TravelDB.load()
    assert _pattern(s2, 200) == _pattern(s, 200)   # continues the same failure sequence
    assert pickle.loads(pickle.dumps(s.db)) is s.db


def test_threads_share_one_db(sb):
    serial = [sb.call(r['tool'], r['arguments']) for r in DIRECT]
    with ThreadPoolExecutor(8) as ex:
        parallel = list(ex.map(lambda r: sb.call(r['tool'], r['arguments']), DIRECT * 4))
    assert parallel == serial * 4


def test_threads_failure_counts():
    s = Sandbox(failure_rate=0.5, seed=1)
    with ThreadPoolExecutor(8) as ex:
        outs = list(ex.map(lambda _: s.react_step(CALL), range(4000)))
    assert s.n_calls == 4000 and s.n_failures == outs.count(FAIL)
    assert set(outs) == {FAIL, wrap_response(s.call('SearchCity', {'state': 'Texas'}))}


# ---------------------------------------------------------------- loading other databases
def _write_official(root: Path, with_index=True, missing=()):
    "The embedded tables written in the official TravelPlanner layout (plain CSVs, unnamed index column on flights)."
    layout = {'flights': 'flights/clean_Flights_2022.csv', 'accommodations': 'accommodations/clean_accommodations_2022.csv',
              'restaurants': 'restaurants/clean_restaurant_2022.csv', 'attractions': 'attractions/attractions.csv',
              'distance': 'googleDistanceMatrix/distance.csv'}
    src = {'flights': 'flights_subset.csv.gz', 'accommodations': 'clean_accommodations_2022.csv.gz',
           'restaurants': 'clean_restaurant_2022.csv.gz', 'attractions': 'attractions.csv.gz', 'distance': 'distance.csv.gz'}
    for table, rel in layout.items():
        if table in missing: continue
        df = pd.read_csv(EMBEDDED_DB_DIR / src[table])
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        df.to_csv(root / rel, index=(table == 'flights' and with_index))
    (root / 'background').mkdir(exist_ok=True)
    (root / 'background/citySet_with_states.txt').write_text((EMBEDDED_DB_DIR / 'citySet_with_states.txt').read_text())
    return root


@pytest.fixture(scope='module')
def official_dir(tmp_path_factory): return _write_official(tmp_path_factory.mktemp('official'))


def test_official_layout_matches_fixtures(official_dir, sb):
    db = TravelDB(official_dir)
    assert db.sources['flights'] == official_dir / 'flights/clean_Flights_2022.csv'
    assert list(db.flights.columns)[0] == 'Unnamed: 0'           # as pd.read_csv names the unnamed index column
    s = Sandbox(db)
    for r in DIRECT:
        assert s.call(r['tool'], r['arguments']) == sb.call(r['tool'], r['arguments']), r['case']


def test_raw_frames_are_read_csv(official_dir):
    db = TravelDB.load(official_dir)
    for name, rel in [('flights', 'flights/clean_Flights_2022.csv'), ('distance', 'googleDistanceMatrix/distance.csv'),
                      ('accommodations', 'accommodations/clean_accommodations_2022.csv')]:
        pd.testing.assert_frame_equal(getattr(db, name), pd.read_csv(official_dir / rel))
    assert db.city_state[:2] == [('San Diego', 'California'), ('Pellston', 'Michigan')]


def test_flat_layout_and_star_db_dir(tmp_path, monkeypatch, sb):
    flat = tmp_path / 'database'
    flat.mkdir()
    for name in ['clean_accommodations_2022.csv', 'clean_restaurant_2022.csv', 'attractions.csv', 'distance.csv']:
        pd.read_csv(EMBEDDED_DB_DIR / (name + '.gz')).to_csv(flat / name, index=False)
    pd.read_csv(EMBEDDED_DB_DIR / 'flights_subset.csv.gz').to_csv(flat / 'clean_Flights_2022.csv')
    (flat / 'background').mkdir()
    (flat / 'background/citySet_with_states.txt').write_text((EMBEDDED_DB_DIR / 'citySet_with_states.txt').read_text())
    monkeypatch.setenv('STAR_DB_DIR', str(flat))
    db = TravelDB()
    assert db.path == flat.resolve() and db.sources['flights'].name == 'clean_Flights_2022.csv'
    assert TravelDB.load() is db and Sandbox().db is db
    args = {'departure': 'Akron', 'destination': 'Tampa', 'date': '2022-03-28'}
    assert Sandbox().call('SearchFlight', args) == sb.call('SearchFlight', args)


def test_missing_table_falls_back_with_warning(tmp_path):
    root = _write_official(tmp_path, missing=('restaurants',))
    with pytest.warns(UserWarning, match='restaurants'):
        db = TravelDB(root)
    assert db.sources['restaurants'].parent == EMBEDDED_DB_DIR
    with pytest.raises(FileNotFoundError):
        TravelDB(tmp_path / 'nope')


@pytest.mark.parametrize('pandas3_reader', [True, False])
def test_float_price_when_a_price_is_missing(tmp_path, monkeypatch, pandas3_reader):
    "pandas reads an int column with an empty cell as float64; the reference then prints `$434.0`. Both readers."
    monkeypatch.setattr(star.sandbox, 'PANDAS3', pandas3_reader)
    root = _write_official(tmp_path)
    f = root / 'flights/clean_Flights_2022.csv'
    df = pd.read_csv(f, index_col=0)
    df.loc[df.index[0], 'Price'] = None
    df.to_csv(f)
    s = Sandbox(TravelDB(root))
    out = s.call('SearchFlight', {'departure': 'Akron', 'destination': 'Tampa', 'date': '2022-03-28'})
    assert '[F3620346] $434.0.' in out
    assert s.call('SearchFlight', {'departure': ['x'], 'destination': 'y', 'date': 'z'}).endswith('(1515,), (1,))')


def test_pyarrow_reader_matches_read_csv(official_dir, monkeypatch, sb):
    "The pandas-2 path (pyarrow CSV reader) gives the same raw frame and the same observations."
    monkeypatch.setattr(star.sandbox, 'PANDAS3', False)
    db = TravelDB(official_dir)
    pd.testing.assert_frame_equal(db.flights, pd.read_csv(official_dir / 'flights/clean_Flights_2022.csv'))
    s = Sandbox(db)
    for r in DIRECT:
        if r['tool'] == 'SearchFlight': assert s.call(r['tool'], r['arguments']) == r['observation'], r['case']


def test_parquet_cache(tmp_path, official_dir, sb):
    cache = tmp_path / 'cache'
    a = TravelDB(official_dir, cache_dir=cache)
    assert len(list(cache.glob('*.parquet'))) == 1
    b = TravelDB(official_dir, cache_dir=cache)
    pd.testing.assert_frame_equal(a.flights, b.flights)
    args = {'departure': 'Atlanta', 'destination': 'Knoxville', 'date': '2022-03-29'}
    assert Sandbox(b).call('SearchFlight', args) == sb.call('SearchFlight', args)


def test_from_hub_offline_raises_clearly(tmp_path):
    env = dict(os.environ, HF_HUB_OFFLINE='1', HF_HOME=str(tmp_path / 'hf'))
    code = ("from star.sandbox import TravelDB\n"
            "try:\n    TravelDB.from_hub()\nexcept RuntimeError as e:\n    print('RUNTIME', e)\n")
    out = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True, timeout=120)
    assert 'RUNTIME TravelDB.from_hub: could not download' in out.stdout, out.stdout + out.stderr
    assert 'xxwu/Agent-STAR-TravelDatabase' in out.stdout and 'STAR_DB_DIR' in out.stdout


def test_lazy_rendering_over_chunks_matches_prerendered():
    "Large tables render on demand from pyarrow chunks; the text must equal the pre-rendered one."
    import pyarrow as pa
    from star.sandbox import _FlightIndex, read_csv_arrow
    t = read_csv_arrow(EMBEDDED_DB_DIR / 'flights_subset.csv.gz')
    chunked = pa.concat_tables([t.slice(i, 97) for i in range(0, t.num_rows, 97)])
    assert chunked.column(0).num_chunks > 10
    eager = _FlightIndex(t)

    class Lazy(_FlightIndex): PRERENDER_MAX_ROWS = 0
    lazy = Lazy(chunked)
    assert lazy.py_cols is None and not lazy.cache
    keys = t.select(['OriginCityName', 'DestCityName', 'FlightDate']).to_pylist()
    for k in keys[::3]:
        args = (k['OriginCityName'], k['DestCityName'], k['FlightDate'])
        assert lazy.lookup(*args) == eager.lookup(*args)
    assert lazy.lookup('Akron', 'Tampa', '2022-03-29') is None
