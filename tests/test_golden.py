"""The engine against the golden files of tests/golden/.

Each golden file is regenerated in memory by scripts/regen_golden.py (same
seeds, same policy) and compared exactly with the file; a mismatch names the
first differing line. When a change of behaviour is intended, rerun
``python scripts/regen_golden.py`` and review the diff of tests/golden/.

Besides the exact comparisons:

- every perft line is self-describing: its hand, level and top (kind, rank,
  cards) as written rebuild the position and give the written counts;
- every recorded match replays (``Game.replay``) to the same final position;
- (slow) every perft count agrees with the pure-Python brute-force
  reference (tests/reference.py), so the golden numbers are right, not
  only stable.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import defaultdict
from pathlib import Path

import pytest

import guandan_fast as gf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))


def _load_regen():
    name = "regen_golden"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "regen_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


regen = _load_regen()
PERFT = regen.GOLDEN / "perft.txt"
DEALS = regen.GOLDEN / "deals.txt"


def assert_golden(path: Path, generated: str) -> None:
    rel = path.relative_to(ROOT).as_posix()
    assert path.is_file(), f"{rel} is missing; run python scripts/regen_golden.py"
    diff = regen.first_difference(path.read_text(encoding="utf-8"), generated)
    assert diff is None, f"{rel}: {diff}\n(if intended: python scripts/regen_golden.py, then review the diff)"


# --------------------------------------------------------------------------
# exact comparisons
# --------------------------------------------------------------------------

def test_perft() -> None:
    assert_golden(PERFT, regen.perft_text())


def test_deals() -> None:
    assert_golden(DEALS, regen.deals_text())


def test_action_index() -> None:
    assert_golden(regen.GOLDEN / "action_index.txt", regen.action_index_text())


def test_danzero567() -> None:
    assert_golden(regen.GOLDEN / "danzero567.txt", regen.danzero567_text())


@pytest.mark.parametrize("pt", regen.PLAYTHROUGHS, ids=[pt.name for pt in regen.PLAYTHROUGHS])
def test_playthrough(pt) -> None:
    text, game = regen.record_playthrough(pt)
    assert_golden(pt.path, text)
    again = gf.Game.replay(game.actions, seed=pt.seed, rules=pt.rules)
    assert again.position() == game.position()
    assert again.games_won == game.games_won and len(again.deals) == len(game.deals)


def test_no_stale_or_missing_files() -> None:
    expected = {pt.path for pt in regen.PLAYTHROUGHS}
    assert set(regen.PLAYTHROUGH_DIR.glob("*.txt")) == expected
    assert set(regen.golden_files()) == expected | {PERFT, DEALS, regen.GOLDEN / "action_index.txt", regen.GOLDEN / "danzero567.txt"}
    for path in regen.golden_files():
        assert path.stat().st_size < 2_000_000, path


def test_check_mode_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert regen.main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out


# --------------------------------------------------------------------------
# perft lines as data
# --------------------------------------------------------------------------

def perft_lines() -> list[dict]:
    """The position lines of perft.txt, parsed."""
    out = []
    for line in PERFT.read_text(encoding="utf-8").splitlines():
        if not line.startswith("p"):
            continue
        f = line.split(" | ")
        pid, _seed_seat, hand, level, wildcards, top, mode = f[:7]
        out.append({
            "id": pid, "hand": gf.Hand(hand), "level": level, "wildcards": int(wildcards),
            "top": top, "mode": mode, "counts": " | ".join(f[7:]), "line": line,
        })
    return out


def parse_top(text: str, level: str) -> gf.Combo | None:
    if text == "-":
        return None
    decl, cards = text.split(" : ")
    kind, rank = decl.split()
    return gf.Combo(cards, kind, rank, level=level)


def test_perft_coverage() -> None:
    lines = perft_lines()
    assert len(lines) >= 60
    assert {ln["wildcards"] for ln in lines} == {0, 1, 2}
    assert {ln["mode"] for ln in lines} == {"cards", "pattern"}
    assert all(len(ln["hand"]) == 27 for ln in lines)
    cats = {regen.top_category(t) for ln in lines if (t := parse_top(ln["top"], ln["level"])) is not None}
    for cat in ("Single", "Pair", "Triple", "FullHouse", "Straight", "Tube", "Plate",
                "Bomb4", "Bomb5", "Bomb6", "Bomb7", "Bomb8", "StraightFlush"):
        assert cat in cats, cat
    assert any(ln["top"] == "-" for ln in lines)


def test_perft_lines_are_self_describing() -> None:
    for ln in perft_lines():
        assert ln["hand"].wildcards(ln["level"]) == ln["wildcards"], ln["line"]
        top = parse_top(ln["top"], ln["level"])
        moves = gf.legal_moves(ln["hand"], ln["level"], top, mode=ln["mode"])
        got = regen.counts_text((m.kind_code, m.size, m.wildcard_count) for m in moves)
        assert got == ln["counts"], f"{ln['id']}: legal_moves gives {got}\n  golden line: {ln['line']}"


@pytest.mark.slow
def test_perft_matches_reference() -> None:
    import reference as ref

    groups: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for ln in perft_lines():
        groups[(str(ln["hand"]), ln["level"], ln["mode"])].append(ln)
    for (hand, level, mode), lines in groups.items():
        leading = ref.legal_moves(hand, level, None, mode)
        for ln in lines:
            top = parse_top(ln["top"], level)
            # Filtering the leading moves by `beats` is what ref.legal_moves does with a top.
            moves = leading if top is None else [m for m in leading if ref.beats(m, top, level)]
            got = regen.counts_text((gf.KINDS.index(m.kind), m.size, m.wildcards) for m in moves)
            assert got == ln["counts"], f"{ln['id']}: reference gives {got}\n  golden line: {ln['line']}"
