"""Every command the README gives works in a fresh clone as written. Each command of every ```bash block is listed in
`HOW` below with how this test checks it -- run as written, run with a suffix that stops it after its configuration
(a run that would take minutes to hours), its parameters resolved (GPU-only launches), or covered elsewhere (named) --
and a README command missing from `HOW` fails the test. The runs happen in a fresh copy of the repository (its
tracked and untracked-not-ignored files, as `git clone` of this tree would give), never in this checkout."""
import os, shlex, shutil, subprocess, sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from readme_commands import commands  # noqa: E402

README = (ROOT / "README.md").read_text(encoding="utf-8")
STOP = " -p stop_after config"          # rl.ipynb: resolve, write config.json and the run plan, then stop
# command -> ("run", "") as written | ("run", suffix) | ("resolve", "") its RLRunConfig | ("elsewhere", where)
HOW = {
    'pip install torch==2.13.0 && pip install -e ".[dev,offline-model,cpu]" && pip uninstall -y torchvision torchaudio torchcodec':
        ("elsewhere", ".ci/run runs it in a fresh virtual environment"),
    "nbdev-test && pytest": ("elsewhere", ".ci/run runs it"),
    'pip install -e ".[dev,gpu]"': ("elsewhere", "tests/test_gpu_install.py (pytest -m pip_resolve)"),
    'pip install -e ".[dev,gpu,zero]"': ("elsewhere", "tests/test_gpu_install.py (pytest -m pip_resolve)"),
    "pip install flash-attn --no-build-isolation": ("elsewhere", "optional; a ~1 h CUDA source build"),
    "papermill nbs/rl.ipynb runs/rl_default.ipynb": ("run", STOP),
    "papermill nbs/rl.ipynb runs/rl_quick.ipynb -p quick True": ("run", STOP),
    "papermill nbs/sft.ipynb runs/sft_05B.ipynb -p scale 0.5B -p n_train 48 -p mix 1:0:0 -p max_steps -1":
        ("sft", "~75 min: its parameters are checked and runs/ exists"),
    "star rl --dry-run --scale 3B --gpu-memory-gb 79.2 --n-gpus 8": ("run", ""),
    "accelerate launch --config_file configs/accelerate/zero3_8gpu.yaml -m star.rl scale=3B use_vllm=True results_dir=results":
        ("resolve", ""),
    "papermill nbs/rl.ipynb runs/rl_3B_1gpu.ipynb -f configs/rl/3B_single_gpu.yaml": ("run", STOP),
    "python -m star.rl scale=0.5B data=probe results_dir=results": ("resolve", ""),
    "star rl --help": ("run", ""),
    "star synthesize --n-easy 100 --n-medium 100 --n-hard 100": ("run", " --dry-run"),
    "star sft --scale 0.5B --n-train 12 --mix 1:0:0 --max-steps -1": ("run", " --dry-run"),
    "star evaluate --checkpoint runs/sft_0.5B/final --scale 0.5B --n 4 --results-dir results":
        ("elsewhere", "needs runs/sft_0.5B/final, which the SFT command above writes; tests/test_cli.py checks its parameters"),
    "star ablate ablations/offline.yaml --select scale=tiny --dry-run": ("run", ""),
    "star collect --missing": ("run", ""),
}


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    "A fresh copy of this tree: tracked and untracked-not-ignored files only (no runs, no build outputs)."
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    dest = tmp_path_factory.mktemp("clone") / "star"
    for f in filter(None, files):
        src = ROOT / f
        if src.is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / f)
    return dest


def _env() -> dict:
    "A user's shell: no $STAR_RUNS_DIR (the tests' own), so runs land in the clone's runs/."
    env = {k: v for k, v in os.environ.items() if k not in ("STAR_RUNS_DIR", "PYTHONPATH")}
    return {**env, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}


def test_every_readme_command_is_checked():
    "A new README command needs a line in HOW (and so a check); a removed one leaves no stale line."
    cmds = commands(README)
    assert set(cmds) == set(HOW), {"unchecked": sorted(set(cmds) - set(HOW)), "stale": sorted(set(HOW) - set(cmds))}


def test_runs_folder_exists_in_a_fresh_clone(clone):
    "papermill does not create folders: `papermill nbs/x.ipynb runs/y.ipynb` needs runs/ in every clone."
    assert (clone / "runs").is_dir() and (clone / "runs" / ".gitignore").is_file()


@pytest.mark.parametrize("cmd", [c for c, (how, _) in HOW.items() if how == "run"])
def test_readme_command_runs_in_a_fresh_clone(clone, cmd):
    suffix = HOW[cmd][1]
    argv = shlex.split(cmd + suffix)
    exe = {"star": [sys.executable, "-m", "star.cli"], "papermill": [sys.executable, "-m", "papermill"]}[argv[0]]
    if argv[0] == "papermill": argv.insert(3, "--no-progress-bar")
    p = subprocess.run(exe + argv[1:], cwd=clone, env=_env(), capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, (cmd, p.stdout[-3000:], p.stderr[-3000:])
    if argv[0] == "papermill": assert (clone / argv[2]).is_file()        # the executed notebook, in the clone's runs/


def test_readme_rl_launches_resolve():
    "The GPU-only launches (`accelerate launch ... -m star.rl k=v`, `python -m star.rl k=v`) name valid parameters."
    from star.rl import parse_cli
    from star.rl_config import resolve_config
    for cmd, (how, _) in HOW.items():
        if how != "resolve": continue
        argv = shlex.split(cmd)
        args = argv[argv.index("star.rl") + 1:]
        cfg = resolve_config(**parse_cli(args))
        assert cfg.run_name and cfg.scale == parse_cli(args)["scale"], cmd
        if "--config_file" in argv: assert (ROOT / argv[argv.index("--config_file") + 1]).is_file(), cmd


def test_readme_sft_command_parameters_are_valid(clone):
    from star.cli import validate_parameters
    for cmd, (how, _) in HOW.items():
        if how != "sft": continue
        argv = shlex.split(cmd)
        params = {argv[i + 1]: argv[i + 2] for i, a in enumerate(argv) if a == "-p"}
        validate_parameters("sft", params, ROOT)
        assert (clone / Path(argv[2]).parent).is_dir() and (clone / argv[1]).is_file()
