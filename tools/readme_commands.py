"""The shell commands the README gives, as CI and the tests read them: `python tools/readme_commands.py install`
prints the install line, `... test` the test command, `... all` every command of every ```bash block (one per line,
comments and blank lines dropped). CI runs exactly these (`.ci/run`); tests/test_readme_commands.py runs the cheap
ones in a fresh copy of the repository."""
import re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def bash_blocks(text: str) -> list[str]:
    "The bodies of the README's ```bash blocks, in order."
    return re.findall(r"^```bash\n(.*?)^```", text, re.S | re.M)


def commands(text: str) -> list[str]:
    "Every command line of every ```bash block: `# ...` comments (whole-line and trailing) and blank lines dropped."
    out = []
    for block in bash_blocks(text):
        for line in block.splitlines():
            line = re.sub(r"\s+#\s.*$", "", line).strip()   # a trailing comment: whitespace, `#`, whitespace
            if line and not line.startswith("#"): out.append(line)
    return out


def named(text: str, name: str) -> str:
    """The README's `install` line (the command that starts with `pip install torch`) or its `test` command (the one
    that starts with `nbdev-test`). Raises LookupError unless exactly one command matches."""
    start = {"install": "pip install torch", "test": "nbdev-test"}[name]
    hits = [c for c in commands(text) if c.startswith(start)]
    if len(hits) != 1: raise LookupError(f"README: {len(hits)} commands start with {start!r}, expected 1")
    return hits[0]


if __name__ == "__main__":
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    print("\n".join(commands(text)) if what == "all" else named(text, what))
