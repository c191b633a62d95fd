"""The type stubs (python/guandan_fast/_core.pyi) against the built extension.

* ``python -m mypy.stubtest guandan_fast._core`` compares every name,
  signature, property and class flag of the stubs with the runtime module;
  tests/stubtest_allowlist.txt lists the few PyO3 artifacts it may ignore.
* ``python -m mypy --strict`` checks tests/typing_sample.py (typical uses of the
  API) and the stub file itself, so the stubs are usable and strict-clean.

The stubs are read from the source tree (``MYPYPATH=python``) and compared
with the installed extension, so an edited stub is checked without a rebuild.
Both checks are skipped, with the reason, when mypy is not installed.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "python"
STUB = SOURCE / "guandan_fast" / "_core.pyi"
ALLOWLIST = Path(__file__).resolve().parent / "stubtest_allowlist.txt"
SAMPLE = Path(__file__).resolve().parent / "typing_sample.py"

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mypy") is None,
    reason="mypy is not installed (pip install '.[test]' or 'mypy>=1.10') - the stub checks need it",
)


def run_mypy(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Runs ``python -m <args>`` in `tmp_path` (an empty mypy config there, no user config)."""
    (tmp_path / "none.ini").write_text("[mypy]\n")
    env = dict(os.environ)
    env["MYPYPATH"] = str(SOURCE)
    env.pop("PYTHONPATH", None)
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_stubtest(tmp_path: Path) -> None:
    assert STUB.is_file(), STUB
    r = run_mypy(
        ["mypy.stubtest", "guandan_fast._core", "--allowlist", str(ALLOWLIST), "--mypy-config-file", str(tmp_path / "none.ini")],
        tmp_path,
    )
    assert r.returncode == 0, f"stubtest failed:\n{r.stdout}\n{r.stderr}"


def test_mypy_strict_on_sample_usage(tmp_path: Path) -> None:
    r = run_mypy(
        [
            "mypy",
            "--strict",
            "--follow-imports=silent",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--config-file",
            str(tmp_path / "none.ini"),
            str(SAMPLE),
            str(STUB),
        ],
        tmp_path,
    )
    assert r.returncode == 0, f"mypy --strict failed:\n{r.stdout}\n{r.stderr}"
