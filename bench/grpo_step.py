"""Benchmark: one GRPO step on CPU, in parts, each side by side with its reference in one run.

* `--part rollout` (`bench/_grpo_rollout.py`): the multi-turn rollout loop (`star.agent.rollout_batch` on vLLM,
  continuous batching) against plain vLLM `generate` on the same engine, prompts and seeds at equal sequences in flight;
* `--part update`: the GRPO update against plain TRL `GRPOTrainer` on the same rollouts (`bench/_grpo_update.py`).

Each part prints the machine (CPU capability, compute dtype), tokens/s and the ratio, and writes the same with
`--json PATH` (keys `ratio`, `tokens_per_s`, `fraction_of_peak`). Usage:
`python bench/grpo_step.py --part rollout [--model 0.5B] [--tasks 1] [--group-size 8] [--turns 2] [--json out.json]`
(`--part rollout --help` for its options).
"""
import argparse, importlib, sys
from pathlib import Path

PARTS = {"rollout": "_grpo_rollout", "update": "_grpo_update"}   # part -> module in bench/ with main(argv)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], add_help=False)
    ap.add_argument("--part", choices=sorted(PARTS), required=True)
    args, rest = ap.parse_known_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try: part = importlib.import_module(PARTS[args.part])
    except ModuleNotFoundError as e:
        if e.name != PARTS[args.part]: raise
        raise SystemExit(f"--part {args.part}: bench/{PARTS[args.part]}.py is not in this tree") from None
    part.main(rest)


if __name__ == "__main__":
    main()
