"""Runs no one can corrupt (issue 33): a resume with other settings stops before any model loads, naming each
difference (RL and SFT: the optimizer, the precision, the data, the starting weights, the package versions); a
checkpoint counts only with its completion marker and every file the marker lists; one run per run folder."""
import dataclasses, json, os, shutil, subprocess, sys, time
from pathlib import Path

import pytest

from star.checkpoints import RunMismatchError
from star.rl_config import resolve_config

ROOT = Path(__file__).resolve().parents[1]
ENV = {k: v for k, v in os.environ.items() if k not in ("MASTER_PORT", "MASTER_ADDR")}


class Loaded(AssertionError):
    "Raised by the stand-in of `load_model`: a check meant to run before any model loads did not."


@pytest.fixture
def no_model_load(monkeypatch):
    "Make any model load fail loudly (the checks of a resume must come first)."
    import star.rl, star.sft
    def load(*a, **k): raise Loaded("a model was loaded before the run's settings were checked")
    monkeypatch.setattr(star.rl, "load_model", load)
    monkeypatch.setattr(star.sft, "load_model", load)


# ------------------------------------------------------------------ 1. run_params.json: an RL resume with other settings
@pytest.fixture(scope="module")
def rl_run(tmp_path_factory):
    "A finished 2-step tiny RL run (HF generate), a checkpoint after each step; its folder is copied by each test."
    from star.rl import train_rl
    from star.tasks import load_tasks
    out = tmp_path_factory.mktemp("rl") / "run"
    cfg = resolve_config(scale="tiny", use_vllm=False, max_steps=2, n_train=2, batch_size=1, group_size=2, n_val=0,
                         max_new_tokens_per_turn=12, tool_budget=2, out_dir=str(out), results_dir=None)
    train_rl(cfg, load_tasks("train")[:2], [])
    return cfg


def _copy(cfg, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(cfg.out_dir, out)
    return dataclasses.replace(cfg, out_dir=str(out))


def test_rl_run_records_what_determines_its_weights(rl_run):
    p = json.loads((Path(rl_run.out_dir) / "run_params.json").read_text())
    assert p["config"]["lr"] == rl_run.lr and "max_steps" not in p["config"] and "out_dir" not in p["config"]
    assert (p["dtype"], p["param_dtype"]) == ("float32", "float32")
    assert {"learning_rate", "weight_decay", "optim", "adam_beta1", "max_grad_norm", "lr_scheduler_type", "seed"} <= set(p["trainer"])
    assert set(p["versions"]) == {"torch", "transformers", "trl"} and all(p["versions"].values())
    assert len(p["data"]["train_sha256"]) == 64 and p["data"]["n_train"] == 2
    assert p["init"] == {"source": "tiny", "fingerprint": None}


@pytest.mark.parametrize("change, named", [
    (dict(lr=0.5), "config.lr: 0.0001 -> 0.5"),
    (dict(dtype="bfloat16"), "dtype: 'float32' -> 'bfloat16'"),
    (dict(failure_rate=0.1), "config.failure_rate: 0.0 -> 0.1"),
    (dict(group_size=4), "config.group_size: 2 -> 4"),
    (dict(seed=1), "config.seed: 0 -> 1"),
])
def test_rl_resume_with_other_settings_stops_before_the_model_loads(rl_run, tmp_path, no_model_load, change, named):
    """A tiny RL run killed after checkpoint-1 and re-run with `lr=0.5` used to exit 0, its record saying 0.5 while
    1e-4 trained; now any difference is a `RunMismatchError` naming it, before anything loads or moves."""
    from star.rl import train_rl
    from star.tasks import load_tasks
    cfg = _copy(rl_run, tmp_path)
    shutil.rmtree(Path(cfg.out_dir) / "checkpoint-2")              # killed after checkpoint-1
    before = sorted(p.name for p in Path(cfg.out_dir).iterdir())
    with pytest.raises(RunMismatchError) as e:
        train_rl(dataclasses.replace(cfg, max_steps=3, **change), load_tasks("train")[:2], [])
    assert named in str(e.value) and str(cfg.out_dir) in str(e.value), str(e.value)
    assert sorted(p.name for p in Path(cfg.out_dir).iterdir()) == before        # nothing set aside, no log cut


def test_rl_resume_with_other_optimizer_data_or_versions_stops(rl_run, tmp_path, no_model_load, monkeypatch):
    from star.rl import train_rl
    from star.tasks import load_tasks
    import star.checkpoints
    cfg = _copy(rl_run, tmp_path)
    train = load_tasks("train")[:2]
    with pytest.raises(RunMismatchError, match=r"trainer.weight_decay: 0.01 -> 0.5"):
        train_rl(cfg, train, [], weight_decay=0.5)
    with pytest.raises(RunMismatchError, match=r"data.train_sha256: '[0-9a-f]{64}' -> '[0-9a-f]{64}'"):
        train_rl(cfg, load_tasks("train")[2:4], [])
    real = star.checkpoints.package_versions
    monkeypatch.setattr(star.checkpoints, "package_versions", lambda names: {**real(names), "trl": "0.0.1"})
    with pytest.raises(RunMismatchError, match=r"versions.trl: '[^']+' -> '0.0.1'"):
        train_rl(cfg, train, [])


def test_rl_checkpoint_past_max_steps_is_refused(rl_run, tmp_path, no_model_load):
    from star.rl import train_rl
    from star.tasks import load_tasks
    cfg = _copy(rl_run, tmp_path)
    with pytest.raises(RunMismatchError, match=r"\(checkpoint-2\) is past the 1 optimizer steps asked"):
        train_rl(dataclasses.replace(cfg, max_steps=1), load_tasks("train")[:2], [])


def test_rl_run_may_be_extended(rl_run, tmp_path):
    "Its length is not among the settings: a finished 2-step run goes on to 3 steps, resumed from checkpoint-2."
    from star.rl import train_rl
    from star.tasks import load_tasks
    cfg = _copy(rl_run, tmp_path)
    res = train_rl(dataclasses.replace(cfg, max_steps=3), load_tasks("train")[:2], [])
    assert res["resumed_from"].endswith("checkpoint-2") and res["steps"] == 3


# ------------------------------------------------------------------ 1. SFT: the precision and the optimizer are recorded and checked
@pytest.fixture(scope="module")
def sft_data():
    from star.sft import build_sft_dataset
    from star.tasks import load_tasks
    return build_sft_dataset(tasks=load_tasks("validation")[:2]).map(lambda r: {"messages": r["messages"][1:3]})

SFT_KW = dict(batch_size=2, learning_rate=3e-3, warmup_steps=0, lr_scheduler_type="constant", save_steps=1)


def test_sft_resume_with_other_dtype_or_weight_decay_stops(sft_data, tmp_path, monkeypatch):
    """A float32 SFT resumed in bfloat16, or with `weight_decay=0.5`, used to go on (the log said bf16 throughout,
    the weight decay was never recorded); both are now named before the model loads."""
    from star.sft import train_sft
    train_sft("tiny", sft_data, tmp_path, max_steps=2, dtype="float32", **SFT_KW)
    p = json.loads((tmp_path / "run_params.json").read_text())
    assert (p["dtype"], p["weight_decay"], p["optim"]) == ("float32", 0.0, "adamw_torch")
    assert set(p["versions"]) == {"torch", "transformers", "trl"}
    import star.sft
    monkeypatch.setattr(star.sft, "load_model", lambda *a, **k: (_ for _ in ()).throw(Loaded("model loaded")))
    with pytest.raises(RunMismatchError, match=r"dtype: 'float32' -> 'bfloat16'"):
        train_sft("tiny", sft_data, tmp_path, max_steps=3, dtype="bfloat16", **SFT_KW)
    with pytest.raises(RunMismatchError, match=r"weight_decay: 0.0 -> 0.5"):
        train_sft("tiny", sft_data, tmp_path, max_steps=3, dtype="float32", weight_decay=0.5, **SFT_KW)
    with pytest.raises(RunMismatchError, match=r"adam_beta2: 0.999 -> 0.95"):
        train_sft("tiny", sft_data, tmp_path, max_steps=3, dtype="float32", adam_beta2=0.95, **SFT_KW)


# ------------------------------------------------------------------ 3. one run per run folder
def test_two_runs_in_one_folder_cannot_both_run(tmp_path):
    """Two identical tiny RL runs started together in one folder used to both exit 0, with steps [0, 0, 1, 1] in the
    logs and twice the validation rows. Now the second stops at once, naming the first (pid, host, start time), and
    the first ends as a run alone would: each step logged once."""
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "star.rl", "scale=tiny", "use_vllm=False", "max_steps=2", "n_train=2", "batch_size=1",
           "group_size=2", "n_val=1", "max_new_tokens_per_turn=12", "tool_budget=2", "val_tool_budget=2", f"out_dir={out}"]
    env = {**ENV, "OMP_NUM_THREADS": "1"}
    first = subprocess.Popen(cmd, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 300
        while not (out / ".star_lock").exists() and first.poll() is None and time.time() < deadline: time.sleep(0.2)
        assert first.poll() is None, "the first run ended before the second started"
        t0 = time.time()
        second = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        took = time.time() - t0
        assert first.poll() is None, "the first run ended while the second ran: the test proves nothing"
        assert second.returncode != 0 and "RunLockedError" in second.stderr, second.stderr[-2000:]
        assert f"is in use by another run: pid {first.pid} on " in second.stderr, second.stderr[-2000:]
        _, err = first.communicate(timeout=600)
    finally:
        if first.poll() is None: first.kill()
    assert first.returncode == 0, err[-3000:]
    steps = lambda name: [json.loads(l)["step"] for l in (out / name).read_text().splitlines()]
    assert steps("rollout_stats.jsonl") == [0, 1] and steps("samples.jsonl") == [0, 1]
    assert steps("validation.jsonl") == [0, 1, 2]
    assert not (out / ".star_lock").exists()
    print(f"the second run stopped after {took:.1f} s (imports included)")


def test_lock_of_a_killed_run_is_taken_over(tmp_path):
    "A run killed while it holds its folder leaves its lock file: the next run takes it over, saying whose it was."
    from star.checkpoints import RunLockedError, run_lock
    d = tmp_path / "run"; d.mkdir()
    code = f"import time\nfrom star.checkpoints import run_lock\nwith run_lock({str(d)!r}): print('held', flush=True); time.sleep(600)"
    p = subprocess.Popen([sys.executable, "-c", code], env=ENV, stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "held"
        with pytest.raises(RunLockedError, match=f"pid {p.pid} on .*, started 20"):
            with run_lock(d): pass
    finally:
        p.kill(); p.wait()
    said = []
    with run_lock(d, log=said.append): assert (d / ".star_lock").exists()
    assert said and f"from pid {p.pid} on " in said[0] and "ended without releasing it" in said[0]
    assert not (d / ".star_lock").exists()


# ------------------------------------------------------------------ 8. a run folder that cannot be written: one line, before any model loads
def _mount(path, opts):
    "Mount a tmpfs at `path` with `opts`, or skip the test (needs root and a kernel that lets this process mount)."
    path.mkdir(parents=True, exist_ok=True)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(path)], capture_output=True, text=True)
    if p.returncode: pytest.skip(f"cannot mount a tmpfs here: {p.stderr.strip()}")
    return path

@pytest.fixture
def tmpfs(tmp_path):
    mounted = []
    def mount(name, opts): mounted.append(_mount(tmp_path / name, opts)); return mounted[-1]
    yield mount
    for m in mounted: subprocess.run(["umount", "-l", str(m)], capture_output=True)


def test_a_read_only_run_folder_stops_before_the_model_loads(sft_data, tmpfs, no_model_load):
    """A read-only run folder used to surface as a raw EROFS traceback after the model loaded (and, for RL, after the
    first validation); now it is one `RunFolderError` naming the folder, before anything loads."""
    from star.checkpoints import RunFolderError
    from star.sft import train_sft
    ro = tmpfs("ro", "ro,size=1m")
    with pytest.raises(RunFolderError, match=f"cannot write to the run folder {ro}: Read-only file system"):
        train_sft("tiny", sft_data, ro, max_steps=1, **SFT_KW)
    with pytest.raises(RunFolderError, match=f"cannot create the run folder {ro / 'sft'}: Read-only file system"):
        train_sft("tiny", sft_data, ro / "sft", max_steps=1, **SFT_KW)


def test_a_full_disk_is_named(sft_data, tmpfs, no_model_load, monkeypatch):
    """A full disk used to surface as `basic_ios::clear: iostream error` from inside torch.save. Full to the last
    byte, the run stops at its first write, before the model loads; with room for the lock but not for a checkpoint,
    the save says which checkpoint could not be written and how much space is left."""
    from star.checkpoints import RunFolderError
    from star.sft import train_sft
    full = tmpfs("full", "size=64k")
    (full / "filler").write_bytes(b"\0" * 64 * 1024)            # not a byte left
    with pytest.raises(RunFolderError, match=f"cannot write to the run folder {full}: No space left on device"):
        train_sft("tiny", sft_data, full, max_steps=1, **SFT_KW)
    monkeypatch.undo()                                           # now the model may load
    small = tmpfs("small", "size=4m")                            # a tiny model's checkpoint is ~120 MB
    with pytest.raises(RunFolderError, match=f"cannot write the checkpoint {small / 'checkpoint-1'}: no space left on its device"):
        train_sft("tiny", sft_data, small, max_steps=1, **SFT_KW)


def test_an_unwritable_folder_without_a_mount(sft_data, tmp_path, no_model_load, monkeypatch):
    "The same errors where no tmpfs can be mounted: the lock's first write fails as a full or read-only device would."
    import errno
    from star.checkpoints import RunFolderError
    from star.sft import train_sft
    for code, text in ((errno.ENOSPC, "No space left on device"), (errno.EROFS, "Read-only file system")):
        def fail(*a, code=code): raise OSError(code, os.strerror(code))
        monkeypatch.setattr(os, "pwrite", fail)
        with pytest.raises(RunFolderError, match=f"cannot write to the run folder {tmp_path}: {text}"):
            train_sft("tiny", sft_data, tmp_path, max_steps=1, **SFT_KW)
        assert not (tmp_path / ".star_lock").exists()
