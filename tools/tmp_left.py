"""What a test run left in its temp dir: `python tools/tmp_left.py DIR [--max-mb 1] [--keep NAME ...]`.

CI gives `nbdev-test` a fresh `TMPDIR`; anything the notebooks leave there is a leak that a user's `/tmp` accumulates
on every run (before this check: ~1 GB per `nbdev-test`, from demo runs left to `TemporaryDirectory`'s finalizer,
which nbdev's worker processes never run). Prints the top-level entries by size and exits 1 when their regular files
hold more than `--max-mb` MB. Not counted: caches that libraries keep there on purpose and reuse (`torchinductor_*`,
the compiled-kernel cache of `torch.compile`), and sockets/FIFOs (no bytes on disk). CI also runs it on `runs/`
(`--max-mb 0 --keep .gitignore`): the tests write their runs to temp folders, never into the repository.
"""
import argparse, sys
from pathlib import Path

KEPT_CACHES = ("torchinductor_",)


def sizes(root: Path, keep=()) -> dict[str, int]:
    """Bytes of regular files under each top-level entry of `root` (symlinks not followed), minus `KEPT_CACHES` and
    the entries named in `keep`."""
    out = {}
    for top in sorted(root.iterdir()):
        if top.name.startswith(KEPT_CACHES) or top.name in keep: continue
        files = [top] if not top.is_dir() or top.is_symlink() else list(top.rglob("*"))
        out[top.name] = sum(p.lstat().st_size for p in files if p.is_file() and not p.is_symlink())
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--max-mb", type=float, default=1.0)
    ap.add_argument("--keep", nargs="*", default=[], help="top-level names that are not counted (e.g. .gitignore)")
    a = ap.parse_args(argv)
    s = sizes(a.dir, set(a.keep))
    total = sum(s.values())
    for name, n in sorted(s.items(), key=lambda kv: -kv[1])[:15]: print(f"  {n / 1e6:10.3f} MB  {name}")
    print(f"left in {a.dir}: {len(s)} entries, {total / 1e6:.3f} MB (limit {a.max_mb} MB)")
    return int(total > a.max_mb * 1e6)


if __name__ == "__main__": sys.exit(main())
