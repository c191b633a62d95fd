"""The docstrings of the type stubs (python/guandan_fast/_core.pyi) are the
Rust docs of the compiled extension, so the two cannot drift.

Every class, function, method and property of the stub that exists in
``guandan_fast._core`` with a ``__doc__`` of its own has that text as its
docstring (compared after ``inspect.cleandoc``); an object without one in the
extension may keep a docstring written in the stub. Signatures are
tests/test_stubs.py's (mypy.stubtest).

After changing a Rust doc comment, rebuild and regenerate the stub's
docstrings with ``python tests/test_stub_docs.py``; this test then has nothing
to change.
"""

from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path
from typing import Any, Iterator

import guandan_fast._core as core

STUB = Path(__file__).resolve().parent.parent / "python" / "guandan_fast" / "_core.pyi"


def runtime_doc(owner: Any, name: str) -> str | None:
    """The extension's own docstring of `owner.name` (None when it has none,
    or only one it inherits from Python's object model)."""
    if name.startswith("__") and name.endswith("__"):
        return None
    obj = getattr(owner, name, None)
    if obj is None:
        return None
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    if isinstance(obj, type) and doc == type.__doc__:
        return None
    return inspect.cleandoc(doc)


def documented(body: list[ast.stmt], owner: Any) -> Iterator[tuple[ast.FunctionDef | ast.ClassDef, str | None]]:
    """Each class and function of the stub `body` with the extension's
    docstring of it (recursing into classes)."""
    for node in body:
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) or owner is None or not hasattr(owner, node.name):
            continue
        yield node, runtime_doc(owner, node.name)
        if isinstance(node, ast.ClassDef):
            yield from documented(node.body, getattr(owner, node.name))


def literal(doc: str, indent: str) -> str:
    """`doc` as the stub writes a docstring: triple quotes, lines after the first indented."""
    text = doc.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return '"""' + ("\n" + indent).join(text.split("\n")).replace("\n" + indent + "\n", "\n\n") + '"""'


def regenerated(source: str) -> str:
    """`source` (the stub) with every docstring the extension has put in place."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def at(lineno: int, col: int) -> int:
        """The index in `source` of a node position (ast columns count UTF-8 bytes)."""
        return starts[lineno - 1] + len(lines[lineno - 1].encode("utf-8")[:col].decode("utf-8"))

    edits: list[tuple[int, int, str]] = []
    for node, doc in documented(ast.parse(source).body, core):
        if doc is None:
            continue
        first = node.body[0]
        has_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
        indent = " " * (node.col_offset + 4)
        if has_doc:
            if ast.get_docstring(node) == doc:
                continue
            assert first.end_lineno is not None and first.end_col_offset is not None
            begin, end = at(first.lineno, first.col_offset), at(first.end_lineno, first.end_col_offset)
            edits.append((begin, end, literal(doc, indent)))
        else:
            # `def f(...) -> T: ...` on one line: the docstring replaces the `...`.
            assert first.end_lineno is not None and first.end_col_offset is not None
            begin, end = at(first.lineno, first.col_offset), at(first.end_lineno, first.end_col_offset)
            if source[begin:end] != "...":
                raise AssertionError(f"{node.name}: cannot place a docstring before {source[begin:end]!r}")
            edits.append((begin, end, "\n" + indent + literal(doc, indent)))
    for begin, end, text in sorted(edits, reverse=True):
        source = source[:begin] + text + source[end:]
    return source


def test_every_stub_docstring_is_the_extensions() -> None:
    source = STUB.read_text(encoding="utf-8")
    new = regenerated(source)
    if new != source:
        changed = [
            node.name
            for node, doc in documented(ast.parse(source).body, core)
            if doc is not None and ast.get_docstring(node) != doc
        ]
        raise AssertionError(f"stub docstrings differ from the extension's ({', '.join(changed)}); run python tests/test_stub_docs.py")


def test_the_regenerated_stub_reads_back_the_same_docstrings() -> None:
    new = regenerated(STUB.read_text(encoding="utf-8"))
    for node, doc in documented(ast.parse(new).body, core):
        if doc is not None:
            assert ast.get_docstring(node) == doc, node.name


if __name__ == "__main__":
    text = STUB.read_text(encoding="utf-8")
    out = regenerated(text)
    STUB.write_text(out, encoding="utf-8")
    print(f"{STUB}: {'updated' if out != text else 'nothing to change'}", file=sys.stderr)
