#!/usr/bin/env python
"""Regenerates the golden files of tests/golden/ from fixed seeds.

    python scripts/regen_golden.py            # rewrite every golden file
    python scripts/regen_golden.py --check    # exit 1 and print a diff if any file would change

The golden files pin the engine's observable behaviour in plain text that
diffs well in review:

- ``tests/golden/perft.txt``: legal-move counts (total, per kind, per bomb
  size, per number of wildcards used) of seeded 27-card hands, leading and
  following a variety of tops, in both listing modes;
- ``tests/golden/deals.txt``: the four hands of ``deal(seed)`` and the first
  leader and ``position()`` of ``Game(seed=seed)``, seeds 0..49;
- ``tests/golden/action_index.txt``: the action space, one line per index
  (index, description, fields), so a network's output layer trained on one
  version stays valid on the next;
- ``tests/golden/danzero567.txt``: the rows of `danzero_actions` (DanZero's
  567-value network input) at decisions of seeded games, in both card orders;
- ``tests/golden/playthroughs/*.txt``: whole matches under several rule
  variants, driven by a fixed deterministic policy, every decision recorded.

Everything here is deterministic: the engine's own seeded deals and
``random.Random`` seeded with ints or strings (stable across Python versions).
tests/test_golden.py imports this module and compares what it generates with
the files, so a change of engine behaviour shows as a failing test, and a
deliberate one is accepted by rerunning this script and reviewing the diff.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import random
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Mapping

import guandan_fast as gf

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
PLAYTHROUGH_DIR = GOLDEN / "playthroughs"

# --------------------------------------------------------------------------
# perft.txt
# --------------------------------------------------------------------------

#: Levels of the perft hands; for each level one hand with 0, 1 and 2 wildcards.
PERFT_LEVELS = ("2", "7", "T", "A")
PERFT_WILDCARDS = (0, 1, 2)
#: Top categories, in file order: a kind, or "BombN" for an N-card same-rank bomb.
TOP_CATEGORIES = (
    "Single", "Pair", "Triple", "FullHouse", "Straight", "Tube", "Plate",
    "Bomb4", "Bomb5", "Bomb6", "Bomb7", "Bomb8", "Bomb9", "Bomb10",
    "StraightFlush", "JokerBomb",
)
#: Categories that must occur as a top somewhere in the file (generation fails otherwise).
REQUIRED_TOPS = tuple(c for c in TOP_CATEGORIES if c not in ("Bomb9", "Bomb10", "JokerBomb"))
Mode = Literal["cards", "pattern"]
MODES: tuple[Mode, ...] = ("cards", "pattern")
FULL_DECK = gf.Hand.from_counts([2] * 54)  # both decks: 108 cards


def perft_hands() -> list[tuple[int, int, str, gf.Hand]]:
    """(seed, seat, level, hand) for every level and wildcard count: the first
    seeded hand (seeds in order, seats 0..3 within a seed) with exactly that
    many wildcards at that level, each (seed, seat) used at most once."""
    out = []
    used: set[tuple[int, int]] = set()
    for level in PERFT_LEVELS:
        for wc in PERFT_WILDCARDS:
            seed = 0
            while True:
                hands = gf.deal(seed)
                hit = [s for s in range(4) if (seed, s) not in used and hands[s].wildcards(level) == wc]
                if hit:
                    used.add((seed, hit[0]))
                    out.append((seed, hit[0], level, hands[hit[0]]))
                    break
                seed += 1
    return out


def top_category(m: gf.Combo) -> str:
    return f"Bomb{m.size}" if m.kind == "Bomb" else m.kind


def perft_tops(seed: int, seat: int, level: str, hand: gf.Hand) -> list[gf.Combo]:
    """One top per category the other three seats could hold between them
    (a pattern-mode play of the 81 cards not in `hand`), in TOP_CATEGORIES
    order: a rank drawn uniformly among the ranks available, then one play of
    that rank (3 times in 4 among those using the fewest wildcards), with a
    per-position string seed."""
    others = gf.legal_moves(FULL_DECK - hand, level, mode="pattern")
    by_cat: dict[str, list[gf.Combo]] = {}
    for m in others:
        by_cat.setdefault(top_category(m), []).append(m)
    tops = []
    for cat in TOP_CATEGORIES:
        cands = by_cat.get(cat)
        if not cands:
            continue
        rng = random.Random(f"perft/{seed}/{seat}/{level}/{cat}")
        rank = rng.choice(sorted({m.rank_code for m in cands}))
        same = [m for m in cands if m.rank_code == rank]
        if rng.random() < 0.75:  # mostly the plainest top of that rank, sometimes any (wildcards used)
            fewest = min(m.wildcard_count for m in same)
            same = [m for m in same if m.wildcard_count == fewest]
        tops.append(rng.choice(same))
    return tops


def top_text(top: gf.Combo | None) -> str:
    """`kind rank : cards` (the cards in face-index order), or `-` when leading."""
    if top is None:
        return "-"
    return f"{top.kind} {top.rank} : {top.cards}"


def move_counts(hand: gf.Hand, level: str, top: gf.Combo | None, mode: Mode) -> str:
    """`total N | per kind | bombs by size | by wildcards used`, checked against count_moves."""
    a = gf.legal_moves_array(hand, level, top, mode=mode)
    total = len(a["kind"])
    n = gf.count_moves(hand, level, top, mode=mode)
    if n != total:
        raise AssertionError(f"count_moves {n} != len(legal_moves_array) {total} for {hand} {level} {top} {mode}")
    return counts_text(zip(a["kind"].tolist(), a["size"].tolist(), a["wildcards"].tolist()))


def counts_text(moves: Iterable[tuple[int, int, int]]) -> str:
    """The counts part of a perft line from (kind code, size, wildcards used) per move."""
    rows = list(moves)
    total = len(rows)
    kinds = Counter(k for k, _, _ in rows)
    bomb = gf.KINDS.index("Bomb")
    sizes = Counter(s for k, s, _ in rows if k == bomb)
    wild = Counter(w for _, _, w in rows)
    per_kind = " ".join(f"{name}={kinds[i]}" for i, name in enumerate(gf.KINDS))
    per_size = " ".join(f"{s}:{sizes[s]}" for s in sorted(sizes)) or "-"
    per_wild = " ".join(f"{w}:{wild[w]}" for w in range(3))
    return f"total {total} | {per_kind} | bomb sizes {per_size} | wildcards used {per_wild}"


def perft_text() -> str:
    lines = [
        "# guandan_fast perft: legal-move counts of fixed positions.",
        "# Generated by scripts/regen_golden.py -- do not edit; rerun it and review the diff.",
        "#",
        "# Hands: gf.deal(seed)[seat], for each level in " + ", ".join(PERFT_LEVELS)
        + " the first (seed, seat) holding exactly 0, 1 and 2 wildcards.",
        "# Tops: for each category (" + ", ".join(TOP_CATEGORIES) + "),",
        "# one pattern-mode play of the 81 cards not in the hand (what the other seats could hold),",
        "# drawn with random.Random('perft/<seed>/<seat>/<level>/<category>'): a rank uniformly among those available,",
        "# then a play of that rank (3 times in 4 among those using the fewest wildcards); categories with no play are skipped.",
        "# Counts: gf.legal_moves_array(hand, level, top, mode) (and count_moves, which must agree):",
        "# total, per kind (KINDS order), same-rank bombs by size, moves by number of wildcards used.",
        "#",
        "# id | seed/seat | hand | level | wildcards | top (kind rank : cards, - = leading) | mode | counts",
    ]
    seen: set[str] = set()
    pid = 0
    for seed, seat, level, hand in perft_hands():
        lines.append("")
        tops: list[gf.Combo | None] = [None]
        tops += perft_tops(seed, seat, level, hand)
        for top in tops:
            if top is not None:
                seen.add(top_category(top))
                # The top as written must rebuild to the same declaration.
                again = gf.Combo(top.cards, top.kind, top.rank, level=level)
                if again != top:
                    raise AssertionError(f"{top!r} does not round-trip through its text: {again!r}")
            for mode in MODES:
                pid += 1
                lines.append(
                    f"p{pid:03d} | {seed}/{seat} | {hand} | {level} | {hand.wildcards(level)}"
                    f" | {top_text(top)} | {mode} | {move_counts(hand, level, top, mode)}"
                )
    missing = [c for c in REQUIRED_TOPS if c not in seen]
    if missing:
        raise AssertionError(f"perft: no top of {missing}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# deals.txt
# --------------------------------------------------------------------------

DEAL_SEEDS = range(50)


def deals_text() -> str:
    lines = [
        "# guandan_fast deals: seed -> the four hands of gf.deal(seed) (cards in face-index order),",
        "# and the first deal of gf.Game(seed=seed): its first leader and position() string.",
        "# Generated by scripts/regen_golden.py -- do not edit; rerun it and review the diff.",
    ]
    for seed in DEAL_SEEDS:
        hands = gf.deal(seed)
        g = gf.Game(seed=seed)
        lines.append("")
        lines.append(f"seed {seed}")
        for s, h in enumerate(hands):
            lines.append(f"  hand {s}: {h}")
        same = "yes" if tuple(g.dealt) == tuple(hands) else "NO"
        lines.append(f"  Game.dealt == deal(seed): {same}")
        lines.append(f"  leader {g.leader}  current_player {g.current_player}  phase {g.phase}  level {g.level}")
        lines.append(f"  position {g.position()}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# playthroughs/*.txt
# --------------------------------------------------------------------------

#: Settlement keys in documented order (docs/api.md, settle_deal).
RESULT_KEYS = ("winner", "partner_place", "gain", "a_failed", "a_reset", "levels", "a_fails", "declarer", "game_winner")


@dataclass(frozen=True)
class Playthrough:
    name: str
    seed: int
    rules_kwargs: dict
    description: str
    max_deals: int | None = None  # record only the first N deals (None: the whole match)

    @property
    def rules(self) -> gf.Rules:
        return gf.Rules(**self.rules_kwargs)

    @property
    def path(self) -> Path:
        return PLAYTHROUGH_DIR / f"{self.name}.txt"


# Seeds chosen (once, by trying seeds 1..40) so that between them the
# recordings contain single, double and resisted tributes, a failed attempt
# at A, and a best-of-3 match that goes to a third game.
PLAYTHROUGHS = (
    Playthrough("default", 6, {}, "default rules"),
    Playthrough("best_of_3", 14, {"best_of": 3}, "Rules(best_of=3)"),
    Playthrough(
        "double_down_upgrade_4_2_1", 12, {"a_pass": "double_down", "upgrade": {2: 4, 3: 2, 4: 1}},
        "Rules(a_pass='double_down', upgrade={2: 4, 3: 2, 4: 1})",
    ),
    Playthrough(
        "any_return_unlimited_a", 16, {"return_max_rank": None, "a_max_attempts": None},
        "Rules(return_max_rank=None, a_max_attempts=None)",
    ),
)


def fmt(v: object) -> str:
    """Plain text of a result value: ranks/levels as text, tuples as a,b."""
    if isinstance(v, (tuple, list)):
        return "(" + ",".join(fmt(x) for x in v) + ")"
    return str(v)


def tribute_text(t: Mapping[str, Any] | None) -> str:
    if t is None:
        return "none (first deal of a game)"
    tributes = " ".join(f"{g}->{r}:{c}" for g, r, c in t["tributes"]) or "-"
    returns = " ".join(f"{r}->{g}:{c}" for r, g, c in t["returns"]) or "-"
    givers = ",".join(str(s) for s in t["givers"]) or "-"
    return f"{t['kind']} givers {givers} tributes {tributes} returns {returns} leader {t['leader']}"


def playthrough_text(pt: Playthrough) -> str:
    return record_playthrough(pt)[0]


def record_playthrough(pt: Playthrough) -> tuple[str, gf.Game]:
    """The text of a playthrough and the game at its end."""
    rules = pt.rules
    g = gf.Game(rules=rules, seed=pt.seed)
    rng = random.Random(pt.seed)
    cap = "the whole match" if pt.max_deals is None else f"only the first {pt.max_deals} deals (the match goes on after)"
    lines = [
        f"# guandan_fast playthrough '{pt.name}': {pt.description}, gf.Game(rules, seed={pt.seed}).",
        "# Generated by scripts/regen_golden.py -- do not edit; rerun it and review the diff.",
        f"# rules: {rules!r}",
        f"# policy: rng = random.Random({pt.seed}); at each decision acts = game.legal_actions('pattern'),",
        "#   k = rng.randrange(len(acts)), apply acts[k]; after a deal (or game) ends, game.next_deal().",
        f"# recorded: {cap}.",
        "# decision lines: <action no.> seat <s> <phase> n=<legal actions> k=<index> <repr(action)>",
    ]
    n_actions = 0
    deals = 0
    in_deal = False
    while True:
        phase = g.phase
        if phase in ("deal_over", "game_over", "match_over"):
            if in_deal:
                r: Mapping[str, Any] = g.last_result or {}
                lines.append(f"deal over: finish {fmt(g.finish_order)} -> phase {phase}")
                lines.append("  result " + " ".join(f"{k}={fmt(r[k])}" for k in RESULT_KEYS))
                lines.append(
                    f"  levels {fmt(g.levels)} a_fails {fmt(g.a_fails)} games_won {fmt(g.games_won)}"
                    f" game_winners {fmt(g.game_winners)}"
                )
                deals += 1
                in_deal = False
            if phase == "match_over" or (pt.max_deals is not None and deals >= pt.max_deals):
                break
            g.next_deal()
            continue
        if not in_deal:
            in_deal = True
            lines.append("")
            lines.append(
                f"== game {g.game_number} deal {g.deal_number} (deal {deals} of the match): level {g.level},"
                f" levels {fmt(g.levels)}, a_fails {fmt(g.a_fails)}, declarer {g.declarer}, phase {phase}"
            )
            for s, h in enumerate(g.dealt):
                lines.append(f"  dealt {s}: {h}")
            lines.append(f"  position {g.position()}")
            if phase == "play":
                lines.append(f"  play starts: leader {g.leader}, tribute {tribute_text(g.tribute)}")
        acts = g.legal_actions("pattern")
        if not acts:
            raise AssertionError(f"no legal action in phase {phase} at {g.position()}")
        k = rng.randrange(len(acts))
        n_actions += 1
        lines.append(f"{n_actions:05d} seat {g.current_player} {phase} n={len(acts)} k={k} {acts[k]!r}")
        g.apply(acts[k])
        if phase != "play" and g.phase == "play":
            lines.append(f"  play starts: leader {g.leader}, tribute {tribute_text(g.tribute)}")
    lines.append("")
    lines.append(
        f"== end: {deals} deals, {n_actions} actions, phase {g.phase}, games_won {fmt(g.games_won)},"
        f" game_winners {fmt(g.game_winners)}"
    )
    lines.append(f"  position {g.position()}")
    return "\n".join(lines) + "\n", g


# --------------------------------------------------------------------------
# action_index.txt
# --------------------------------------------------------------------------

RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "BJ", "RJ")


def action_index_line(i: int) -> str:
    """One index: `index | description | fields`."""
    f = gf.actions.fields(i)
    if f["type"] == "play":
        naturals = f["naturals"]
        assert isinstance(naturals, list)
        nat = " ".join(f"{RANK_NAMES[r]}x{n}" for r, n in enumerate(naturals) if n) or "-"
        fields = (
            f"play kind={f['kind']} rank={f['rank']} size={f['size']} suit={f['suit'] or '-'}"
            f" wildcards={f['wildcards']} naturals={nat}"
        )
    elif f["type"] == "pass":
        fields = "pass"
    else:
        fields = f"{f['type']} card={f['card']}"
    return f"{i} | {gf.actions.describe(i)} | {fields}"


def action_index_text() -> str:
    head = f"# action space: {gf.actions.SIZE} indices (index | description | fields)"
    return "\n".join([head] + [action_index_line(i) for i in range(gf.actions.SIZE)]) + "\n"


# --------------------------------------------------------------------------
# danzero567.txt
# --------------------------------------------------------------------------

DANZERO_SEEDS = (3, 8)
#: Every how many play decisions one is recorded, in the first DANZERO_DEALS deals of each seed.
DANZERO_EVERY = 13
DANZERO_DEALS = 3


def nonzero_text(v: Any) -> str:
    """`column:value` of the nonzero entries of a vector."""
    return " ".join(f"{i}:{fmt(float(v[i]))}" for i in range(len(v)) if v[i] != 0) or "-"


def danzero567_text() -> str:
    """Seeded games driven by the greedy policy; at every DANZERO_EVERY-th play
    decision the state part (shared by the rows) and each row's action part,
    rank-major, then the suit-major action part of each row."""
    lines = [
        "# danzero_actions rows: per recorded decision, the 513 state values (nonzero column:value),",
        "# then per legal action index its 54 action columns, rank-major and suit-major.",
        "# Generated by scripts/regen_golden.py -- do not edit; rerun it and review the diff.",
    ]
    for seed in DANZERO_SEEDS:
        g = gf.Game(seed=seed)
        k = deals = 0
        while g.phase != "match_over":
            if g.phase in ("deal_over", "game_over"):
                deals += 1
                if deals == DANZERO_DEALS:
                    break
                g.next_deal()
                continue
            if g.phase == "play":
                k += 1
                if k % DANZERO_EVERY == 0:
                    rank = gf.danzero_actions(g)
                    suit = gf.danzero_actions(g, card_order="suit-major")
                    index = g.legal_action_indices()
                    lines.append("")
                    lines.append(f"seed {seed} decision {k} deal {g.deal_number} seat {g.current_player}: {len(index)} actions")
                    lines.append(f"  state {nonzero_text(rank[0, :gf.DANZERO_SIZE])}")
                    lines.append(f"  suit-major state {nonzero_text(suit[0, :gf.DANZERO_SIZE])}")
                    for i, r, s in zip(index, rank, suit):
                        a, b = nonzero_text(r[gf.DANZERO_SIZE:]), nonzero_text(s[gf.DANZERO_SIZE:])
                        lines.append(f"  {i} rank-major {a} | suit-major {b}")
            g.apply(gf.policy_action(g, "greedy"))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------

def golden_files() -> dict[Path, Callable[[], str]]:
    """Every golden file and the function that generates its text."""
    files: dict[Path, Callable[[], str]] = {
        GOLDEN / "perft.txt": perft_text,
        GOLDEN / "deals.txt": deals_text,
        GOLDEN / "action_index.txt": action_index_text,
        GOLDEN / "danzero567.txt": danzero567_text,
    }
    for pt in PLAYTHROUGHS:
        files[pt.path] = functools.partial(playthrough_text, pt)
    return files


def first_difference(expected: str, actual: str) -> str | None:
    """`None` when equal, else a description of the first differing line."""
    if expected == actual:
        return None
    a, b = expected.splitlines(), actual.splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"first difference at line {i + 1}:\n  golden: {x}\n  engine: {y}"
    if len(a) != len(b):
        i = min(len(a), len(b))
        extra = ("golden", a[i]) if len(a) > len(b) else ("engine", b[i])
        return f"golden has {len(a)} lines, engine {len(b)}; first extra line {i + 1} ({extra[0]}): {extra[1]}"
    return "the texts differ in line endings or a trailing newline"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 with a diff if a file would change")
    args = ap.parse_args(argv)
    files = golden_files()
    changed = []
    for path, make in files.items():
        new = make()
        rel = path.relative_to(ROOT).as_posix()
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        if old == new:
            continue
        changed.append(rel)
        if args.check:
            diff = difflib.unified_diff(
                (old or "").splitlines(keepends=True), new.splitlines(keepends=True),
                fromfile=f"a/{rel}", tofile=f"b/{rel}", n=1,
            )
            out = list(diff)
            sys.stdout.writelines(out[:200])
            if len(out) > 200:
                print(f"... ({len(out) - 200} more diff lines)")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(new, encoding="utf-8", newline="\n")
    stale = sorted(p for p in PLAYTHROUGH_DIR.glob("*.txt") if p not in files) if PLAYTHROUGH_DIR.is_dir() else []
    for p in stale:
        print(f"stale golden file (no generator): {p.relative_to(ROOT).as_posix()}")
    if args.check:
        if changed or stale:
            print(f"golden files out of date: {', '.join(changed) or '-'}; run python scripts/regen_golden.py")
            return 1
        print(f"{len(files)} golden files up to date")
        return 0
    print(f"{len(files)} golden files, {len(changed)} rewritten: {', '.join(changed) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
