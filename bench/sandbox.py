"""Sandbox speed: star.sandbox vs the reference approach, side by side, one run.

The reference tools (Agent-STAR `Inference/tools/*.py`) read each CSV with `pd.read_csv`, drop rows with any empty
cell, and answer every call with boolean masks over the whole table. `RefTools` below re-implements that approach
minimally (same reads, same masks, same rendering) as the baseline; its outputs are checked against ours.

1. Embedded DB: every direct call of tests/fixtures/travelplanner/tool_observations.jsonl.gz, timed one by one
   (`--reps` rounds); per-call median for each implementation and the ratio.
2. Synthetic full-size flights: a seeded random table with the official schema and size (3,827,361 rows,
   unnamed index column, written to a temp dir): load time of both (ours also with its parquet cache) and the
   per-call median of SearchFlight on `--n-flight-calls` existing (origin, destination, date) keys.

Usage: python bench/sandbox.py [--reps 5] [--n-flight-calls 40] [--rows 3827361]
"""
import argparse, datetime, gzip, json, os, shutil, statistics, tempfile, time, warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from star.sandbox import EMBEDDED_DB_DIR, Sandbox, TravelDB

ROOT = Path(__file__).resolve().parents[1]


class RefTools:
    "The reference approach: pandas read_csv + dropna at load, boolean masks + itertuples at every call."
    def __init__(self, flights_csv, db_dir=EMBEDDED_DB_DIR):
        self.fl = pd.read_csv(flights_csv).dropna()[['Flight Number', 'Price', 'DepTime', 'ArrTime', 'ActualElapsedTime',
                                                      'FlightDate', 'OriginCityName', 'DestCityName', 'Distance']]
        if db_dir is None: return
        self.acc = pd.read_csv(db_dir / 'clean_accommodations_2022.csv.gz').dropna()[
            ['NAME', 'price', 'room type', 'house_rules', 'minimum nights', 'maximum occupancy', 'review rate number', 'city']]
        self.res = pd.read_csv(db_dir / 'clean_restaurant_2022.csv.gz').dropna()[['Name', 'Average Cost', 'Cuisines', 'Aggregate Rating', 'City']]
        self.att = pd.read_csv(db_dir / 'attractions.csv.gz').dropna()[['Name', 'Latitude', 'Longitude', 'Address', 'Phone', 'Website', 'City']]
        self.dist = pd.read_csv(db_dir / 'distance.csv.gz')
        self.states = {}
        for line in (db_dir / 'citySet_with_states.txt').read_text().strip().split('\n'):
            c, s = line.split('\t'); self.states.setdefault(s, []).append(c)

    def call(self, tool, a):
        try: return getattr(self, tool)(a)
        except Exception as e: return f'Tool calling error: {e}'

    def SearchFlight(self, a):
        if 'departure' not in a or 'destination' not in a or 'date' not in a:
            return 'Invalid parameters. Please provide departure, destination and date.'
        dep, dest, date = a['departure'], a['destination'], a['date']
        d = self.fl[self.fl['OriginCityName'] == dep]
        d = d[d['DestCityName'] == dest]
        d = d[d['FlightDate'] == date]
        if len(d) == 0: return f'There is no available flight from {dep} to {dest} on {date}. Please rethink your flight search and try again.'
        rows = [f'{i + 1}. [{r[0]}] ${r[1]}. Departure: {r[2]}, Arrival: {r[3]}, Actual Elapsed Time: {r[4]}, Distance: {r[8]} miles\n'
                for i, r in enumerate(d.itertuples(index=False))]
        return f'A SearchFlight for {dep} to {dest} on {date} found the following {len(d)} flights:\n' + '\n'.join(rows)

    def _city(self, data, col, a, header, noun, fmt):
        if 'city' not in a: return 'Invalid parameters. Please provide city.'
        d = data[data[col] == a['city']]
        if len(d) == 0: return f"There is no {noun} in {a['city']}. Please rethink your {noun} search and try again."
        rows = [fmt(i + 1, r) for i, r in enumerate(d.itertuples(index=False))]
        return header.format(a['city'], len(rows)) + '\n'.join(rows)

    def SearchAccommodation(self, a):
        return self._city(self.acc, 'city', a, 'A SearchAccommodation for {} found the following {} accommodations:\n', 'accommodation',
                          lambda i, r: f'{i}. [{r[0]}] ${r[1]}. Room Type: {r[2]}, House Rules: {r[3]}, Minimum Nights: {r[4]}, Maximum Occupancy: {r[5]}, Review Rate Number: {r[6]}\n')

    def SearchRestaurant(self, a):
        return self._city(self.res, 'City', a, 'A SearchRestaurant for city {} found the following {} restaurants:\n', 'restaurant',
                          lambda i, r: f'{i}. [{r[0]}] Avg. Cost ${r[1]}. Cuisines: {r[2]}. Rating: {r[3]}\n')

    def SearchAttraction(self, a):
        return self._city(self.att, 'City', a, 'A SearchAttraction for city {} found the following {} attractions:\n', 'attraction',
                          lambda i, r: f'{i}. [{r[0]}]({r[5]}) Address: {r[3]}. Contact: {r[4]}\n')

    def SearchCity(self, a):
        if 'state' not in a: return 'Invalid parameters. Please provide state.'
        c = self.states.get(a['state'], [])
        if not c: return f"There is no city in {a['state']}. Please rethink your city search and try again."
        return f"A SearchCity for state {a['state']} found the following {len(c)} cities:\n" + ', '.join(c)

    def GoogleDistanceMatrix(self, a):
        if 'departure' not in a or 'destination' not in a: return 'Invalid parameters. Please provide departure, destination and mode.'
        o, d, mode = a['departure'], a['destination'], a.get('mode', 'driving')
        f = self.dist[(self.dist['origin'] == o) & (self.dist['destination'] == d)]
        if not len(f): return 'No valid information found. Please rethink your distance search and try again.'
        dur, dist = f['duration'].values[0], f['distance'].values[0]
        if pd.isna(dur) or pd.isna(dist): return f'Sorry, we cannot find the distance between {o} and {d}.'
        km = float(dist.replace('km', '').replace(',', '').strip())
        cost = int(km * 0.05) if 'driving' in mode else int(km)
        if 'day' in dur: return 'The required time exceeds a single day, we cannot provide the cost. Please consider an alternative transportation instead.'
        return f'A GoogleDistanceMatrix found the following information:\n{mode}, from {o} to {d}, duration: {dur}, distance: {dist}, cost: ${cost}'


def per_call(fn, calls, reps):
    "Median seconds per call over `reps` rounds of timing each call separately."
    ts = []
    for _ in range(reps):
        for c in calls:
            t = time.perf_counter(); fn(c); ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def synthetic_flights(path: Path, n: int, seed: int = 0):
    "Random flights with the official schema (unnamed index column first), March-May 2022, cities of the city set."
    rng = np.random.default_rng(seed)
    cities = np.array([l.split('\t')[0] for l in (EMBEDDED_DB_DIR / 'citySet_with_states.txt').read_text().strip().split('\n')], dtype=object)
    o = rng.integers(0, len(cities), n); d = (o + rng.integers(1, len(cities), n)) % len(cities)
    days = np.array([(datetime.date(2022, 3, 1) + datetime.timedelta(int(k))).isoformat() for k in range(92)], dtype=object)
    hm = np.array([f'{m // 60:02d}:{m % 60:02d}' for m in range(1440)], dtype=object)
    el = np.array([f'{m // 60} hours {m % 60} minutes' for m in range(720)], dtype=object)
    dist = np.array([f'{x}.0' for x in range(5000)], dtype=object)
    dep, dur = rng.integers(0, 1440, n), rng.integers(25, 720, n)
    t = pa.table({'': np.arange(n), 'Flight Number': pa.array(np.char.add('F', np.arange(3_000_000, 3_000_000 + n).astype(str))),
                  'Price': rng.integers(20, 2000, n), 'DepTime': hm[dep], 'ArrTime': hm[(dep + dur) % 1440],
                  'ActualElapsedTime': el[dur], 'FlightDate': days[rng.integers(0, 92, n)],
                  'OriginCityName': cities[o], 'DestCityName': cities[d], 'Distance': dist[rng.integers(30, 5000, n)]})
    pacsv.write_csv(t, path, pacsv.WriteOptions(quoting_style='needed'))
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--reps', type=int, default=5)
    ap.add_argument('--n-flight-calls', type=int, default=40)
    ap.add_argument('--rows', type=int, default=3_827_361)
    args = ap.parse_args()
    rows = []

    # 1. embedded DB, all fixture direct calls
    fx = [json.loads(l) for l in gzip.open(ROOT / 'tests/fixtures/travelplanner/tool_observations.jsonl.gz')]
    direct = [(r['tool'], r['arguments']) for r in fx if r.get('via') is None]
    t = time.perf_counter(); ref = RefTools(EMBEDDED_DB_DIR / 'flights_subset.csv.gz'); ref_load = time.perf_counter() - t
    t = time.perf_counter(); db = TravelDB(EMBEDDED_DB_DIR); ours_load = time.perf_counter() - t
    sb = Sandbox(db)
    same = sum(ref.call(*c) == sb.call(*c) for c in direct)
    m_ref = per_call(lambda c: ref.call(*c), direct, args.reps)
    m_ours = per_call(lambda c: sb.call(*c), direct, args.reps)
    rows.append(('embedded DB: load (all 6 tools)', ref_load, ours_load))
    rows.append((f'embedded DB: per call, {len(direct)} fixture calls', m_ref, m_ours))
    print(f'outputs identical to the reference approach on {same}/{len(direct)} fixture calls '
          f'(the rest: dict-valued arguments, where the installed pandas {pd.__version__} differs from 2.3)')

    # 2. synthetic full-size flights table
    tmp = Path(tempfile.mkdtemp(prefix='star-bench-'))
    try:
        (tmp / 'flights').mkdir()
        f = tmp / 'flights' / 'clean_Flights_2022.csv'
        t = time.perf_counter(); tab = synthetic_flights(f, args.rows); gen = time.perf_counter() - t
        print(f'synthetic flights: {args.rows:,} rows, {f.stat().st_size / 1e6:.0f} MB, generated in {gen:.1f} s')
        for name in ['clean_accommodations_2022.csv.gz', 'clean_restaurant_2022.csv.gz', 'attractions.csv.gz',
                     'distance.csv.gz', 'citySet_with_states.txt']:
            shutil.copy(EMBEDDED_DB_DIR / name, tmp / name)
        rng = np.random.default_rng(1)
        idx = rng.choice(args.rows, args.n_flight_calls, replace=False)
        keys = tab.select(['OriginCityName', 'DestCityName', 'FlightDate']).take(idx).to_pylist()
        calls = [{'departure': k['OriginCityName'], 'destination': k['DestCityName'], 'date': k['FlightDate']} for k in keys]
        del tab
        t = time.perf_counter(); ref = RefTools(f, db_dir=None); ref_load = time.perf_counter() - t
        m_ref = per_call(lambda c: ref.SearchFlight(c), calls, 1)
        ref_out = [ref.SearchFlight(c) for c in calls]
        del ref
        t = time.perf_counter(); big = TravelDB(tmp); ours_load = time.perf_counter() - t
        sbig = Sandbox(big)
        same = sum(sbig.call('SearchFlight', c) == o for c, o in zip(calls, ref_out))
        big._flight_index.cache.clear()
        m_ours_cold = per_call(lambda c: sbig.call('SearchFlight', c), calls, 1)
        m_ours = per_call(lambda c: sbig.call('SearchFlight', c), calls, args.reps)
        del big, sbig
        cache = tmp / 'cache'
        TravelDB(tmp, cache_dir=cache)
        t = time.perf_counter(); TravelDB(tmp, cache_dir=cache); cached_load = time.perf_counter() - t
        rows.append((f'{args.rows / 1e6:.1f}M flights: load (ours: all 6 tables)', ref_load, ours_load))
        rows.append((f'{args.rows / 1e6:.1f}M flights: load, ours from parquet cache', ref_load, cached_load))
        rows.append((f'{args.rows / 1e6:.1f}M flights: SearchFlight per call, first call of a key', m_ref, m_ours_cold))
        rows.append((f'{args.rows / 1e6:.1f}M flights: SearchFlight per call, repeated', m_ref, m_ours))
        print(f'SearchFlight outputs identical on the synthetic table: {same}/{len(calls)}')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print(f'pandas {pd.__version__}, pyarrow {pa.__version__}; load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores')
    w = max(len(r[0]) for r in rows)
    print(f"\n{'measure':<{w}}  {'reference approach':>18}  {'star.sandbox':>12}  {'ratio':>9}")
    for name, a, b in rows:
        r = a / b
        print(f'{name:<{w}}  {fmt(a):>18}  {fmt(b):>12}  {r:>8.{0 if r >= 10 else 2}f}x')


def fmt(s):
    return f'{s:.2f} s' if s >= 1 else f'{s * 1e3:.2f} ms' if s >= 1e-3 else f'{s * 1e6:.1f} us'


if __name__ == '__main__':
    warnings.simplefilter('ignore')
    main()
