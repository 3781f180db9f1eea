"""Memory and speed of reading a wiki-18-layout corpus: star.qa.JsonlCorpus (byte offsets, rows read on demand) vs
loading every row as a Python dict (`star.qa.load_corpus`, what Search-R1's server does with `datasets`' Arrow table
instead), side by side, one run.

A seeded synthetic corpus in Search-R1's `wiki-18.jsonl` layout (`{"id", "contents": '"Title"\\ntext'}`, ~100-word
passages, ~520 bytes a row) is written to a temp dir. Each reader runs in its own child process, which reports its
peak RSS above the RSS it had after imports (`resource.getrusage`), the time to open the corpus, and the time per row
of `--reads` random rows. JsonlCorpus is measured cold (offsets scanned and cached) and warm (cache read). The last
lines scale the measured bytes per passage to wiki-18's 21,015,324 passages.

Usage: python bench/qa_corpus.py [--rows 300000] [--reads 20000]
"""
import argparse, json, os, random, subprocess, sys, tempfile, textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIKI18 = 21_015_324

CHILD = textwrap.dedent("""
    import json, random, resource, sys, time
    from star.qa import JsonlCorpus, load_corpus
    path, how, reads = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter()
    corpus = JsonlCorpus(path) if how.startswith("lazy") else load_corpus(path)
    open_s = time.perf_counter() - t
    idx = random.Random(0).sample(range(len(corpus)), min(reads, len(corpus)))
    t = time.perf_counter()
    n = sum(len(corpus[i]["contents"]) for i in idx)
    read_us = 1e6 * (time.perf_counter() - t) / len(idx)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0      # KiB on Linux
    print(json.dumps({"how": how, "rows": len(corpus), "open_s": open_s, "read_us": read_us, "peak_mib": peak / 1024}))
""")

WORDS = ("the of and in to a was is for on as by with he that at from his it an were are which this also be has or "
         "had first one their its new after who they two her she been other when there all during into school time may "
         "years more most only over city some world would where later up such used many can state about national out "
         "known university united then made").split()


def write_corpus(path: Path, rows: int, seed: int = 0) -> int:
    rng = random.Random(seed)
    with open(path, "w") as f:
        for i in range(rows):
            title = " ".join(rng.choice(WORDS).title() for _ in range(rng.randint(1, 4)))
            text = " ".join(rng.choice(WORDS) for _ in range(100))
            f.write(json.dumps({"id": str(i + 1), "contents": f'"{title}"\n{text}'}) + "\n")
    return path.stat().st_size


def child(path, how, reads):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", CHILD, str(path), how, str(reads)], capture_output=True, text=True,
                         env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=300_000)
    ap.add_argument("--reads", type=int, default=20_000)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "wiki-18.jsonl"
        size = write_corpus(path, a.rows)
        print(f"synthetic corpus: {a.rows:,} rows, {size / 2**20:.0f} MiB ({size / a.rows:.0f} bytes a row)")
        res = [child(path, "lazy (cold: scan + cache)", a.reads), child(path, "lazy (warm: cached offsets)", a.reads),
               child(path, "dicts (load_corpus)", a.reads)]
    for r in res:
        print(f"{r['how']:<28} open {r['open_s']:7.2f} s   read {r['read_us']:6.1f} us/row   "
              f"peak RSS +{r['peak_mib']:8.1f} MiB   ({2**20 * r['peak_mib'] / a.rows:7.1f} bytes/passage)")
    lazy, dicts = res[1], res[2]
    print(f"memory ratio dicts / lazy (warm): {dicts['peak_mib'] / max(lazy['peak_mib'], 1e-9):.0f}x")
    for r in (lazy, dicts):
        print(f"scaled to wiki-18 ({WIKI18:,} passages): {r['how']:<28} ~{r['peak_mib'] / a.rows * WIKI18 / 1024:6.1f} GiB")


if __name__ == "__main__":
    main()
