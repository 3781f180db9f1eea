"""Benchmark: `star.evaluator` vs a pandas-scan evaluator in the style of the reference implementations.

The baseline runs the same check logic (protocol `official`) but answers every database lookup the way the reference
evaluators (OSU-NLP-Group/TravelPlanner `evaluation/`, Agent-STAR `Inference/eval*.py`) do: a pandas boolean mask over
the whole table per lookup (`Name.astype(str).str.contains(re.escape(name)) & (City == city)`, flight and distance
masks), no caching. Ours answers from dictionaries built once per database (`EvalIndex`), with a per-lookup cache.
Both run on the 455 fixture plans of tests/fixtures/travelplanner/evaluator_verdicts.jsonl.gz, one run each; the
verdicts are checked to be identical. Usage: `python bench/evaluator.py`
"""
import gzip, json, re, time
from pathlib import Path

from star.evaluator import EvalIndex, Restaurant, Stay, default_db, evaluate_plan, strip_state

FIX = Path(__file__).resolve().parents[1]/'tests'/'fixtures'/'travelplanner'/'evaluator_verdicts.jsonl.gz'


class _Rows:
    "A filtered frame seen as a sequence: `len()` and `[0]` (the first row, as the references read `.values[0]`)."
    def __init__(self, df, make): self.df, self.make = df, make
    def __len__(self): return len(self.df)
    def __bool__(self): return len(self.df) > 0
    def __getitem__(self, i): return self.make(self.df.iloc[i])


class PandasScanIndex:
    "Reference-style lookups: one boolean mask over the full table per call (same interface as `EvalIndex`)."
    def __init__(self, db):
        self.flights = db.flights.dropna()[['Flight Number', 'Price', 'DepTime', 'ArrTime', 'ActualElapsedTime',
                                            'FlightDate', 'OriginCityName', 'DestCityName', 'Distance']]
        self.restaurants = db.restaurants.dropna()[['Name', 'Average Cost', 'Cuisines', 'Aggregate Rating', 'City']]
        self.attractions = db.attractions.dropna()[['Name', 'Latitude', 'Longitude', 'Address', 'Phone', 'Website', 'City']]
        self.accommodations = db.accommodations.dropna()[['NAME', 'price', 'room type', 'house_rules', 'minimum nights',
                                                          'maximum occupancy', 'review rate number', 'city']]
        self.distance = db.distance
        self.city_state = EvalIndex(db).city_state

    def find(self, table, name, city):
        if table == 'restaurants':
            d = self.restaurants
            res = d[(d['Name'].astype(str).str.contains(re.escape(name))) & (d['City'] == city)]
            return _Rows(res, lambda r: Restaurant(r['Name'], r['Average Cost'], r['Cuisines']))
        if table == 'attractions':
            d = self.attractions
            res = d[(d['Name'].astype(str).str.contains(re.escape(name))) & (d['City'] == city)]
            return _Rows(res, lambda r: r['Name'])
        d = self.accommodations
        res = d[(d['NAME'].astype(str).str.contains(re.escape(name))) & (d['city'] == city)]
        return _Rows(res, lambda r: Stay(r['NAME'], r['price'], r['room type'], r['house_rules'], r['minimum nights'],
                                         r['maximum occupancy']))

    def has_flight(self, number, origin, dest):
        f = self.flights
        return len(f[(f['Flight Number'] == number) & (f['OriginCityName'] == origin) & (f['DestCityName'] == dest)]) > 0

    def flight_price(self, number):
        res = self.flights[self.flights['Flight Number'] == number]
        return res['Price'].values[0] if len(res) else None

    def road_cost(self, origin, dest, driving):
        d = self.distance
        res = d[(d['origin'] == strip_state(origin)) & (d['destination'] == strip_state(dest))]
        if not len(res): return None
        dur, dist = res['duration'].values[0], res['distance'].values[0]
        if not isinstance(dur, str) or not isinstance(dist, str) or 'day' in dur: return None
        km = float(dist.replace('km', '').replace(',', ''))
        return int(km * 0.05) if driving else int(km)


def main():
    recs = [json.loads(line) for line in gzip.open(FIX, 'rt')]
    db = default_db()
    import star.evaluator as ev

    t0 = time.perf_counter(); ix = EvalIndex(db); t_build = time.perf_counter() - t0
    ev._INDEXES[id(db)] = (db, ix)
    t0 = time.perf_counter(); ours = [evaluate_plan(r['query'], r['plan'], 'official', db) for r in recs]
    t_cold = time.perf_counter() - t0
    t0 = time.perf_counter(); [evaluate_plan(r['query'], r['plan'], 'official', db) for r in recs]
    t_warm = time.perf_counter() - t0

    ev._INDEXES[id(db)] = (db, PandasScanIndex(db))
    try:
        t0 = time.perf_counter(); base = [evaluate_plan(r['query'], r['plan'], 'official', db) for r in recs]
        t_base = time.perf_counter() - t0
    finally: ev._INDEXES[id(db)] = (db, ix)

    assert [(o.commonsense, o.hard) for o in ours] == [(b.commonsense, b.hard) for b in base], 'verdicts differ'
    n = len(recs)
    print(f"plans: {n} (official protocol, one run each)")
    print(f"index build (once per database): {t_build * 1e3:.0f} ms")
    print(f"pandas-scan baseline: {n / t_base:10.1f} plans/s  ({t_base:.2f} s)")
    print(f"star.evaluator cold:  {n / t_cold:10.1f} plans/s  ({t_cold:.3f} s)  ratio {t_base / t_cold:.0f}x")
    print(f"star.evaluator warm:  {n / t_warm:10.1f} plans/s  ({t_warm:.3f} s)  ratio {t_base / t_warm:.0f}x")


if __name__ == '__main__': main()
