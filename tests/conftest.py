"""Shared by every test file: the runs of the tests go to a temporary folder, never into the checkout's `runs/`, and
each test leaves the process's torch.distributed rendezvous as the session found it."""
import os, shutil, tempfile

import pytest

# Every relative `runs/...` path (default run folders, `in_repo`) resolves under $STAR_RUNS_DIR (star.paths.runs_root):
# a temporary folder for the whole session, inherited by every child process (papermill kernels, `python -m star.rl`,
# `accelerate launch`), removed at the end. Set here, at import, before any test or fixture resolves a path.
if not os.environ.get("STAR_RUNS_DIR"):
    _RUNS = tempfile.mkdtemp(prefix="star-test-runs-")
    os.environ["STAR_RUNS_DIR"] = _RUNS
else:
    _RUNS = None


def pytest_sessionfinish(session, exitstatus):
    if _RUNS is not None: shutil.rmtree(_RUNS, ignore_errors=True)

# The env:// rendezvous variables. A run made inside the pytest process (`train_rl` in tests/test_rl.py: TRL's
# colocated engine, `star.rl.ensure_master_port`) sets them here, and its process group can hold MASTER_PORT until the
# process ends. A child started by a later test (nbdev-test, test_faults' fork server, `python -m star.rl`) inherited
# them and failed with EADDRINUSE, or "MASTER_ADDR expected" -- in whichever file ran after test_rl.
RENDEZVOUS = ("MASTER_PORT", "MASTER_ADDR", "RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE")
_AT_START = {k: os.environ.get(k) for k in RENDEZVOUS}


@pytest.fixture(autouse=True)
def _rendezvous_env_as_found():
    "After each test: the rendezvous variables hold their values from the session's start (unset if they were)."
    yield
    for k, v in _AT_START.items():
        if v is None: os.environ.pop(k, None)
        else: os.environ[k] = v


# ---- Two workers on two cores (pytest-xdist, `-n auto` in pyproject's addopts) ----------------------------------------
# The suite is mostly start-up (imports, engines, kernels, subprocesses): one core's work at a time, so one process
# leaves half of a 2-core machine idle. Under xdist each worker gets its own share of the cores -- its process and
# every child it starts (vLLM's engine, papermill kernels, `accelerate launch` ranks) pinned there, with as many
# OpenMP threads and vLLM's CPU threads bound to the same cores -- so two workers never oversubscribe a core (OpenMP
# threads that share a core wait for each other at every layer). Set at import, before any test imports torch.
WORKER = os.environ.get("PYTEST_XDIST_WORKER")


def worker_cores(worker: str, n_workers: int, cpus: list[int]) -> list[int]:
    "The cores of xdist worker `worker` ('gw0', 'gw1', ...) of `n_workers`: every n-th of `cpus`, all where too few."
    i = int(worker.removeprefix("gw"))
    return cpus[i % n_workers::n_workers] if len(cpus) >= n_workers else cpus


if WORKER and hasattr(os, "sched_setaffinity"):
    _mine = worker_cores(WORKER, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")), sorted(os.sched_getaffinity(0)))
    os.sched_setaffinity(0, _mine)
    os.environ.update(OMP_NUM_THREADS=str(len(_mine)), MKL_NUM_THREADS=str(len(_mine)),
                      VLLM_CPU_OMP_THREADS_BIND=",".join(map(str, _mine)))


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: one worker per core, at most one per 10 GiB of memory and at most 2 -- measured: the suite's heaviest
    test holds ~8 GiB of its worker's processes (tests/README.md), the serialised `heavy` tests one at a time, so two
    workers stay under 75 % of a 24 GiB machine. `-n 0` runs everything in this process."""
    try: mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (ValueError, OSError): mem_gib = 16
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(2, cores, int(mem_gib // 10)))


# ---- Per-test profile: STAR_TEST_PROFILE=file.jsonl pytest ... -----------------------------------------------------------
# One line a test: its wall time and the peak resident memory of its worker's process tree while it ran (sampled every
# 0.25 s, /proc as tools/measure.py reads it). What the worker count and the `heavy` marks above are chosen from.
_PROFILE = os.environ.get("STAR_TEST_PROFILE")
if _PROFILE:
    import json, sys, threading, time
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    from measure import tree_rss

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        peak, stop, t0 = [0], threading.Event(), time.time()
        def sample():
            while not stop.is_set():
                peak[0] = max(peak[0], tree_rss(os.getpid())); stop.wait(0.25)
        th = threading.Thread(target=sample, daemon=True); th.start()
        yield
        stop.set(); th.join()
        with open(_PROFILE, "a") as f:
            f.write(json.dumps(dict(test=item.nodeid, s=round(time.time() - t0, 2), peak_gib=round(peak[0] / 2**30, 2),
                                    worker=WORKER)) + "\n")
