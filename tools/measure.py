"""What a command costs, measured: `python tools/measure.py --out results/costs/NAME.json [--dirs D ...] -- CMD ...`.

Runs CMD (no shell) and records its wall time, the peak resident memory of its whole process tree (the sum over the
command and every descendant -- papermill's kernel, nbdev-test's workers, vLLM's engine -- sampled every 0.5 s from
/proc), and the bytes it left in each of `--dirs` (e.g. `runs`, `~/.cache/star`, `$TMPDIR`), with the machine, the
commit and whether the tree was clean. The README's cost statements quote these records (tests/test_costs.py keeps
them equal). Linux only (/proc). Exit status: the command's.
"""
from __future__ import annotations

import argparse, json, os, platform, subprocess, sys, threading, time
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = os.sysconf("SC_PAGE_SIZE")


def _children() -> dict[int, list[int]]:
    "{pid: [child pids]} of every process visible in /proc."
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit(): continue
        try: stat = Path(f"/proc/{d}/stat").read_text()
        except OSError: continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        kids.setdefault(ppid, []).append(int(d))
    return kids


def tree_rss(pid: int) -> int:
    "Resident bytes of `pid` and all its descendants (0 for processes that ended meanwhile)."
    kids, total, todo = _children(), 0, [pid]
    while todo:
        p = todo.pop()
        todo.extend(kids.get(p, []))
        try: total += int(Path(f"/proc/{p}/statm").read_text().split()[1]) * PAGE
        except (OSError, IndexError, ValueError): pass
    return total


@contextmanager
def peak_rss(pid: int, interval: float = 0.5, on_sample=None):
    """While the block runs, sample `tree_rss(pid)` every `interval` s on a thread (and pass each to `on_sample`);
    yields a one-item list that holds the peak in bytes, final when the block ends."""
    peak, stop = [0], threading.Event()
    def sample():
        while not stop.is_set():
            rss = tree_rss(pid)
            peak[0] = max(peak[0], rss)
            if on_sample: on_sample(rss)
            stop.wait(interval)
    th = threading.Thread(target=sample, daemon=True); th.start()
    try: yield peak
    finally: stop.set(); th.join()


def du(path: Path) -> int:
    "Bytes of the regular files under `path` (symlinks not followed); 0 if it does not exist."
    if not path.exists(): return 0
    if path.is_file(): return path.stat().st_size
    n = 0
    for root, _, files in os.walk(path):
        for f in files:
            p = Path(root) / f
            try:
                if not p.is_symlink(): n += p.stat().st_size
            except OSError: pass
    return n


def git_state() -> dict:
    def g(*a):
        p = subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True)
        return p.stdout.strip() if p.returncode == 0 else None
    status = g("status", "--porcelain", "--untracked-files=no")
    return dict(commit=g("rev-parse", "HEAD"), dirty=bool(status) if status is not None else None)


def measure(cmd: list[str], dirs: list[str], interval: float = 0.5, series: Path | None = None) -> dict:
    """Run `cmd`; return the record (see the module docstring). With `series`, also a line of `seconds GiB` there every
    5 s (the tree's memory over time: which phase of a run holds the peak)."""
    paths = {d: Path(os.path.expandvars(os.path.expanduser(d))) for d in dirs}
    before = {d: du(p) for d, p in paths.items()}
    git = git_state()                       # the tree the command starts from
    load = os.getloadavg()[0]
    t0 = time.time()
    proc = subprocess.Popen(cmd)
    out, last = (open(series, "w") if series else None), [-5.0]
    def log(rss):
        if out and time.time() - t0 - last[0] >= 5:
            last[0] = time.time() - t0; out.write(f"{last[0]:.0f} {rss / 2**30:.2f}\n"); out.flush()
    with peak_rss(proc.pid, interval, log) as peak:
        rc = proc.wait()
    if out: out.close()
    wall = time.time() - t0
    return dict(command=" ".join(cmd), returncode=rc, wall_s=round(wall, 1), wall_min=round(wall / 60, 1),
                peak_rss_gib=round(peak[0] / 2**30, 2),
                disk_added_gb={d: round((du(p) - before[d]) / 1e9, 3) for d, p in paths.items()},
                load_at_start=round(load, 2), cores=os.cpu_count(), machine=platform.machine(), cpu=_cpu_model(),
                cpu_capability=_cpu_capability(), **({"env": env} if (env := _path_env()) else {}), date=datetime.now(timezone.utc).strftime("%Y-%m-%d"), **git)


def _cpu_model() -> str | None:
    "The CPU's model name (/proc/cpuinfo), as a record names the machine it ran on."
    try: return next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except (OSError, StopIteration): return None


# What forces a compute path other than the CPU's own (an AVX2-only CPU's float32 path measured on a bf16 CPU): kept in
# the record when set, so the record says how its row was made.
PATH_ENV = ("STAR_DTYPE", "ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA")


def _path_env() -> dict:
    return {k: os.environ[k] for k in PATH_ENV if os.environ.get(k)}


def _cpu_capability():
    try:
        import torch
        return torch.backends.cpu.get_cpu_capability()
    except Exception: return None


# The README's cost table (between `<!-- costs -->` and `<!-- /costs -->`): one row per record of results/costs/.
COST_ROWS = [("install.json", "the install line, in a fresh virtual environment (pip's cache warm)"),
             ("nbdev_test.json", "`nbdev-test`"),
             ("pytest.json", "`pytest`"),
             ("quick_run.json", "the quick run: `papermill nbs/rl.ipynb runs/rl_quick.ipynb -p quick True`"),
             ("quick_run_avx2.json", "the quick run on the float32 path an AVX2-only CPU takes (AVX2 kernels only)")]


FOLDERS = {"$VENV": "the virtual environment", "$TMPDIR": "the temp folder",
           "$STAR_CACHE": "STAR's cache (`~/.cache/star`)"}


def _disk(rec: dict) -> str:
    left = [(d, gb) for d, gb in rec["disk_added_gb"].items() if gb >= 0.05]
    return ", ".join(f"{gb:.1f} GB in {FOLDERS.get(d, f'`{d}`')}" for d, gb in left) or "nothing"


def cost_table(folder: Path = ROOT / "results" / "costs") -> str:
    "The README's cost table, rendered from the records in `folder` (a missing record: no row)."
    rows = ["| command | time | peak memory (all its processes) | disk it leaves | load average at start |",
            "|---|---|---|---|---|"]
    for name, label in COST_ROWS:
        p = folder / name
        if not p.exists(): continue
        r = json.loads(p.read_text())
        rows.append(f"| {label} | {r['wall_min']:.1f} min | {r['peak_rss_gib']:.1f} GiB | {_disk(r)} | "
                    f"{r['load_at_start']:.1f} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--table"]: print(cost_table()); return 0
    if "--" not in argv: sys.exit("usage: tools/measure.py --out FILE [--dirs D ...] -- CMD ...  |  tools/measure.py --table")
    i = argv.index("--")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--dirs", nargs="*", default=["runs"])
    ap.add_argument("--series", type=Path, default=None, help="also write `seconds GiB` every 5 s to this file")
    a = ap.parse_args(argv[:i])
    rec = measure(argv[i + 1:], a.dirs, series=a.series)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(rec, indent=1) + "\n")
    print(json.dumps(rec, indent=1))
    return rec["returncode"]


if __name__ == "__main__": sys.exit(main())
