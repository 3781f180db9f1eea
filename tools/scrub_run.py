#!/usr/bin/env python
"""Commit an executed run notebook (papermill output) as a record of what a run printed, scrubbed of this machine:

    python tools/scrub_run.py runs/rl_quick.ipynb results/notebooks/rl_quick.ipynb --commit 1e8715c

The output keeps the cells, their stdout and figures; it drops what changes from run to run or names the machine:
stderr streams and progress widgets (as `tools/doc_outputs.py`), papermill's timestamps and durations, execution
counts, the repository's absolute path (made relative), other absolute paths (`<path>`), and the timings printed by
the run (`137.5 s/step`, `elapsed 2:18`, `ETA 0:21`, `in 178.4 s`, a `rollout_seconds` column: `…`). A first
markdown cell says which commit and command made it. Figures are kept as drawn (a panel may plot seconds per step).
"""
from __future__ import annotations

import argparse, json, re, sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doc_outputs import clean_outputs, scrub_text  # noqa: E402

TIMINGS = [(re.compile(r"\d+(?:\.\d+)? s/step"), "… s/step"),
           (re.compile(r"elapsed \d+(?::\d+)+"), "elapsed …"),
           (re.compile(r"ETA \d+(?::\d+)+"), "ETA …"),
           (re.compile(r"\bin \d+(?:\.\d+)? s\b"), "in … s"),
           (re.compile(r"(\})[ \t]+\d+\.\d+[ \t]*$", re.M), r"\1 …")]   # the rollout_seconds column after terminations


def rules(repo: Path) -> list:
    root = str(repo.resolve())
    return [(root + "/", ""), (root, "."), (re.compile(r"(?<![\w.])/(?:work|home|tmp|root|usr)/[^\s'\")\]]+"), "<path>"),
            *TIMINGS]


def scrub(nb: dict, repo: Path, note: str) -> dict:
    rs = rules(repo)
    nb = json.loads(json.dumps(nb))
    for c in nb["cells"]:
        c["metadata"] = {k: v for k, v in c.get("metadata", {}).items() if k == "tags" and v}
        if c["cell_type"] != "code": continue
        c["execution_count"] = None
        for o in c.get("outputs", []):
            if o.get("output_type") == "stream":
                t = o["text"]
                o["text"] = scrub_text("".join(t) if isinstance(t, list) else t, rs)
            for k, v in o.get("data", {}).items():
                if k.startswith("text/"): o["data"][k] = scrub_text("".join(v) if isinstance(v, list) else v, rs)
        c["outputs"] = clean_outputs(c.get("outputs", []))
    pm = nb["metadata"].pop("papermill", {})
    nb["metadata"] = {k: v for k, v in nb["metadata"].items() if k in ("kernelspec", "language_info")}
    nb["metadata"].get("language_info", {}).pop("version", None)
    params = " ".join(f"-p {k} {v}" for k, v in pm.get("parameters", {}).items())
    head = (f"**A record, not a chapter.** `papermill {pm.get('input_path', '?')} {pm.get('output_path', '?')} {params}`"
            f"{note}, executed and scrubbed by `tools/scrub_run.py` (no stderr, paths or timings). "
            f"Re-run the command for a fresh one; this copy is not executed by tests.")
    nb["cells"].insert(0, {"cell_type": "markdown", "id": "scrubbed", "metadata": {}, "source": [head]})
    return nb


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", type=Path, help="the executed notebook (e.g. runs/rl_quick.ipynb)")
    ap.add_argument("dst", type=Path, help="where to write the scrubbed copy")
    ap.add_argument("--repo", type=Path, help="the clone it ran in (default: the folder above the notebook's runs/)")
    ap.add_argument("--commit", help="the commit it ran at, named in the first cell")
    a = ap.parse_args(argv)
    repo = a.repo or a.src.resolve().parent.parent
    note = f" at commit {a.commit}" if a.commit else ""
    nb = scrub(json.loads(a.src.read_text(encoding="utf-8")), repo, note)
    a.dst.parent.mkdir(parents=True, exist_ok=True)
    a.dst.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{a.dst}: {sum(c['cell_type'] == 'code' for c in nb['cells'])} code cells, "
          f"{sum(len(c.get('outputs', [])) for c in nb['cells'])} outputs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
