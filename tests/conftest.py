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


# ---- Per-test profile: STAR_TEST_PROFILE=file.jsonl pytest ... -----------------------------------------------------------
# One line a test: its wall time, the peak resident memory of its process tree while it ran (sampled every 0.25 s, /proc
# as tools/measure.py reads it) and what it still held when it ended -- where the suite's time and memory go, e.g. before
# splitting it over workers (pytest-xdist: the worker's name is kept when there is one).
_PROFILE = os.environ.get("STAR_TEST_PROFILE")
if _PROFILE:
    import json, sys, time
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    from measure import peak_rss, tree_rss

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        t0 = time.time()
        with peak_rss(os.getpid(), 0.25) as peak:
            yield
        with open(_PROFILE, "a") as f:
            f.write(json.dumps(dict(test=item.nodeid, s=round(time.time() - t0, 2), peak_gib=round(peak[0] / 2**30, 2),
                                    end_gib=round(tree_rss(os.getpid()) / 2**30, 2),
                                    worker=os.environ.get("PYTEST_XDIST_WORKER"))) + "\n")

