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
