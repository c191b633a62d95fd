"""Every ```python example in README.md and docs/*.md runs.

Each fenced block is executed on its own, in a fresh namespace, with
guandan_fast importable; it may print. A block that raises (an ``assert``
included) fails its test, named after the file and the line of the fence.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def examples() -> list[tuple[str, int, str]]:
    out = []
    for path in DOC_FILES:
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append((path.relative_to(ROOT).as_posix(), line, m.group(1)))
    return out


EXAMPLES = examples()


def test_docs_have_examples() -> None:
    names = {name for name, _, _ in EXAMPLES}
    assert "README.md" in names
    for doc in ("docs/api.md", "docs/encodings.md", "docs/rules.md"):
        assert doc in names, f"{doc} has no ```python example"


@pytest.mark.parametrize("name,line,source", EXAMPLES, ids=[f"{n}:{ln}" for n, ln, _ in EXAMPLES])
def test_example_runs(name: str, line: int, source: str) -> None:
    # Line numbers in a traceback point into the Markdown file.
    code = compile("\n" * line + source, f"{ROOT / name}", "exec")
    namespace: dict[str, object] = {"__name__": "__docs__"}
    exec(code, namespace)
