"""Statistics of sparring records and their Markdown tables: pure functions
of the record lines `guandan-fast serve --record` writes (and of the
server's log), used by benches/sparring.py. See benches/README.md
("Sparring") for what each column means."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import re
import statistics
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Optional

import guandan_fast as gf
from guandan_fast.arena import wilson_interval
from guandan_fast.platform import action_from_code, platform_rules, replay


def ours_team(line: dict[str, Any]) -> int:
    """The team (0: seats 0/2, 1: seats 1/3) of the built-in bots of a record line."""
    teams = {int(seat) % 2 for seat, name in line["seats"].items() if str(name).startswith("bot ")}
    if len(teams) != 1:
        raise ValueError(f"the seats {line['seats']} do not hold built-in bots on exactly one team")
    return teams.pop()


def ours_policy(line: dict[str, Any]) -> str:
    """The policy of the built-in bots of a record line."""
    names = {str(name)[4:] for name in line["seats"].values() if str(name).startswith("bot ")}
    if len(names) != 1:
        raise ValueError(f"the seats {line['seats']} do not hold one policy of built-in bots")
    return names.pop()


def deal_rows(line: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per finished deal of a record line (its game replayed, from its
    ``start`` when it has one): ``level`` played, finishing ``order``,
    ``winner`` team (of the first out), ``double`` (the team that finished
    first and second, or None), ``gain`` (levels the winner went up),
    ``attempt`` (the team that played at its own A, or None), ``tries``
    (that team's failed attempts before the deal: 0 on a first attempt;
    None when no team played at its A), ``passed`` (that attempt passed A:
    not so when a deal limit ended the game on levels), ``drop`` (a team at
    A fell back after its last failed attempt),
    ``after`` (the finishing order whose tribute began the deal: the
    deal before, or the start's; None for a game's first deal) and
    ``chance`` (team 0's chance of winning the game before and after the
    deal by `gf.win_chance`, 1 or 0 once A is passed: a deal limit that
    ends the game on levels does not count)."""
    rows = []
    start = line.get("start")
    levels, declarer = (tuple(start["levels"]), start["declarer"]) if start else (("2", "2"), None)
    a_fails = tuple(start["a_fails"]) if start else (0, 0)
    after = list(start["after"]) if start and start.get("after") is not None else None
    game = replay(line)

    def chance(levels: Any, a_fails: Any, declarer: Optional[int], after: Optional[list[int]]) -> float:
        # A start may give a tribute that the declarer did not earn: the model then counts none.
        tribute = after if declarer is not None and after is not None and after[0] % 2 == declarer else None
        return gf.win_chance(levels=levels, a_fails=a_fails, declarer=declarer, after=tribute, rules=game.rules)

    before = chance(levels, a_fails, declarer, after)
    for d in game.deals:
        order = list(d["finish_order"])
        at_a = declarer is not None and d["level"] == "A" and levels[declarer] == "A"
        passed = at_a and not d["a_failed"]
        end = float(d["winner"] == 0) if passed else chance(d["levels"], d["a_fails"], d["declarer"], order)
        rows.append({
            "level": d["level"],
            "order": order,
            "winner": d["winner"],
            "double": d["winner"] if order[0] % 2 == order[1] % 2 else None,
            "gain": d["gain"],
            "attempt": declarer if at_a else None,
            "tries": a_fails[declarer] if at_a and declarer is not None else None,
            "passed": passed,
            "drop": bool(d["a_reset"]),
            "after": after,
            "chance": (before, end),
        })
        levels, a_fails, declarer, after, before = d["levels"], tuple(d["a_fails"]), d["declarer"], order, end
    return rows


def game_summary(line: dict[str, Any]) -> dict[str, Any]:
    """A finished game of a record line seen from our bots: ``ours`` (their
    team), ``winner`` (a team, None for a draw), its deal rows and the moves
    the server's fallback policy made for a client that did not answer; its
    ``seed`` and ``play`` (a digest of every action, to tell identical games)."""
    return {
        "ours": ours_team(line),
        "seed": line["seed"],
        "winner": line["winner"],
        "deals": deal_rows(line),
        "play": hashlib.sha256(json.dumps(line["deals"], sort_keys=True).encode()).hexdigest(),
        "fallbacks": sum(len(a) > 2 for d in line["deals"] for a in d["actions"]),
    }


def line_positions(line: dict[str, Any]) -> Iterator[tuple[gf.Game, int, Any]]:
    """(game, seat, recorded action) for every action of a record line's game,
    replayed from its start: the game stands just before the action (it moves
    on after the next item is asked for)."""
    game = replay({**line, "deals": []})
    for deal in line["deals"]:
        for seat, code, *_ in deal["actions"]:
            if game.phase in ("deal_over", "game_over"):
                game.next_deal()
            action = action_from_code(code, deal["level"], game.rules)
            yield game, seat, action
            game.apply(action)


#: Lead kinds the style table names; the other kinds are counted as "other".
STYLE_KINDS = ("Single", "Pair", "FullHouse", "Straight")
#: An opponent holding this many cards or fewer after its winning play is "short" in the style table.
STYLE_SHORT = 8


@dataclass
class _Style:
    """`play_style`'s tallies of one side."""
    deals: int = 0
    leads: int = 0
    bombs: int = 0
    kinds: dict[str, int] = field(default_factory=lambda: dict.fromkeys((*STYLE_KINDS, "other"), 0))
    #: Facing an opponent's play, it holding more cards than STYLE_SHORT / at most that: decisions, passes, beats, bombs.
    facing: dict[str, list[int]] = field(default_factory=lambda: {"facing_long": [0, 0, 0, 0], "facing_short": [0, 0, 0, 0]})
    #: The partner's play holds the trick: decisions, plays over it.
    over_partner: list[int] = field(default_factory=lambda: [0, 0])

    def report(self) -> dict[str, Any]:
        def share(k: int, n: int) -> Optional[float]:
            return k / n if n else None

        return {
            "deals": self.deals,
            "leads": share(self.leads, self.deals),
            "bombs": share(self.bombs, self.deals),
            "lead_kinds": {k: share(v, self.leads) for k, v in self.kinds.items()},
            **{key: {"n": f[0], "pass": share(f[1], f[0]), "beat": share(f[2], f[0]), "bomb": share(f[3], f[0])}
               for key, f in self.facing.items()},
            "over_partner": {"n": self.over_partner[0], "rate": share(self.over_partner[1], self.over_partner[0])},
        }


def play_style(lines: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """How each side (``ours``, ``theirs``) played the deals of record lines,
    every game replayed: ``deals``; ``leads`` and ``bombs`` per deal; the
    share of leads of each of `STYLE_KINDS` and ``other``; facing an
    opponent's winning play (``facing_long``: the opponent holds more than
    `STYLE_SHORT` cards after it, ``facing_short``: at most that many), how
    many such decisions (``n``) and the share of passes, plain beats and
    bombs; ``over_partner``: how many times the partner's play held the trick
    (``n``) and the share of those played over."""
    sides = {"ours": _Style(), "theirs": _Style()}
    for line in lines:
        if "deals" not in line:
            continue
        ours = ours_team(line)
        for st in sides.values():
            st.deals += len(line["deals"])
        for game, seat, action in line_positions(line):
            if game.phase != "play":
                continue
            st = sides["ours" if seat % 2 == ours else "theirs"]
            combo = action if isinstance(action, gf.Combo) else None
            bomb = combo is not None and combo.is_bomb
            st.bombs += bomb
            holder = game.top_seat
            if game.top is None or holder is None:
                st.leads += 1
                kind = str(combo.kind) if combo is not None else "other"
                st.kinds[kind if kind in st.kinds else "other"] += 1
            elif holder % 2 == seat % 2:
                st.over_partner[0] += 1
                st.over_partner[1] += combo is not None
            else:
                f = st.facing["facing_short" if game.hand_sizes[holder] <= STYLE_SHORT else "facing_long"]
                f[0] += 1
                f[1 if combo is None else 3 if bomb else 2] += 1
    return {side: st.report() for side, st in sides.items()}


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson_interval(k, n) if n else (0.0, 1.0)
    return {"k": k, "n": n, "rate": k / n if n else None, "ci95": [lo, hi]}


def attempt_counts(attempts: list[dict[str, Any]]) -> dict[str, int]:
    """What became of deal rows that are attempts at A: ``attempts``,
    ``passed``, and how the others failed: ``lost`` (the deal lost, and
    ``lost_double`` to a 双上 of the other team) or ``won_short`` (won
    without passing, the partner too late)."""
    lost = [r for r in attempts if r["winner"] != r["attempt"]]
    return {"attempts": len(attempts), "passed": sum(r["passed"] for r in attempts), "lost": len(lost),
            "lost_double": sum(r["double"] is not None for r in lost),
            "won_short": sum(r["winner"] == r["attempt"] and not r["passed"] for r in attempts)}


def summarize(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The statistics of a pair over `games` (`game_summary` dicts), from our side:
    games and deals won (with 95% Wilson intervals), 双上 per deal of each
    side, levels gained per deal, attempts at A, how many passed and how
    the others failed, drops from A, deals per game and games won in each
    seating."""
    out: dict[str, Any] = {}
    won = sum(g["winner"] == g["ours"] for g in games)
    draws = sum(g["winner"] is None for g in games)
    out["games"] = {**_rate(won, len(games)), "draws": draws}
    out["by_seats"] = {
        seats: _rate(sum(g["winner"] == t for g in games if g["ours"] == t), sum(g["ours"] == t for g in games))
        for t, seats in ((0, "0/2"), (1, "1/3"))
    }
    rows = [(g["ours"], r) for g in games for r in g["deals"]]
    n = len(rows)
    out["deals"] = _rate(sum(r["winner"] == t for t, r in rows), n)
    for side, mine in (("ours", True), ("theirs", False)):
        def of(t: int, team: Optional[int], mine: bool = mine) -> bool:
            return team is not None and (team == t) == mine

        attempts = [r for t, r in rows if of(t, r["attempt"])]
        out[side] = {
            "double": _rate(sum(of(t, r["double"]) for t, r in rows), n),
            "levels_per_deal": sum(r["gain"] for t, r in rows if of(t, r["winner"])) / n if n else None,
            **{f"a_{k}": v for k, v in attempt_counts(attempts).items()},
            "a_drops": sum(r["drop"] for r in attempts),
        }
    out["deals_per_game"] = n / len(games) if games else None
    out["fallbacks"] = sum(g["fallbacks"] for g in games)
    return out


#: Where a deal is played, for `implied_games`: at our A, at theirs, anywhere else.
CONTEXTS = ("ours_a", "theirs_a", "other")
#: The tribute a deal begins with, for `implied_games`: none (a game's first
#: deal), a single or double one to our team, a single or double one to theirs.
TRIBUTES = ("first", "ours_1", "ours_2", "theirs_1", "theirs_2")


def _outcome_order(first: int, place: int) -> list[int]:
    """A finishing order in which seat `first` (0 or 1) goes out first and its partner in `place` (2..4)."""
    rest = [first + 1, (first + 3) % 4]
    order = [first, *rest]
    order.insert(place - 1, first + 2)
    return order


def _outcome(order: list[int], ours: int) -> tuple[int, int]:
    """A finishing order as `implied_games` draws it: (0 when our team went
    out first, 1 when theirs did; the place 2..4 of the first one's partner)."""
    return int(order[0] % 2 != ours), order.index((order[0] + 2) % 4) + 1


def _tribute(outcome: tuple[int, int]) -> str:
    """The `TRIBUTES` context of the deal after one that ended in `outcome` (`_outcome`)."""
    first, place = outcome
    return f"{'theirs' if first else 'ours'}_{2 if place == 2 else 1}"


def deal_context(r: dict[str, Any], ours: int) -> tuple[str, str]:
    """Where a deal row was played (`CONTEXTS`) and the tribute it began with (`TRIBUTES`), from team `ours`'s side."""
    c = "other" if r["attempt"] is None else ("ours_a" if r["attempt"] == ours else "theirs_a")
    prev = r.get("after")
    return c, "first" if prev is None else _tribute(_outcome(prev, ours))


#: The groups of deals `chance_by_context` adds up, by (context, tribute): the
#: first deals, the others by who received the tribute, and the deals at either A.
CHANCE_GROUPS = ("first", "to_ours", "to_theirs", "ours_a", "theirs_a")


def chance_gained(r: dict[str, Any], ours: int) -> float:
    """Team `ours`'s chance of the game gained in deal row `r` (its ``chance`` is team 0's)."""
    before, after = (float(x) for x in r["chance"])
    return after - before if ours == 0 else before - after


def _chance_group(c: str, t: str) -> str:
    if c != "other":
        return c
    return "first" if t == "first" else ("to_ours" if t.startswith("ours") else "to_theirs")


def chance_by_context(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Where our team's chance of winning the game (`deal_rows`' ``chance``,
    by `gf.win_chance`) was gained and lost over `games` (`game_summary`
    dicts), by `CHANCE_GROUPS`: per group the deals (``n``), the mean gained
    per deal with its 95% interval (normal) and the total per game
    (``per_game``). The model counts a deal even for the rule policy against
    itself, so a group above 0 is where our team played better than that;
    over whole games the groups add up to the share of games won less the
    chance at the start (0.5)."""
    gained: dict[str, list[float]] = {k: [] for k in CHANCE_GROUPS}
    for g in games:
        for r in g["deals"]:
            gained[_chance_group(*deal_context(r, g["ours"]))].append(chance_gained(r, g["ours"]))
    out: dict[str, Any] = {"games": len(games)}
    for k, xs in gained.items():
        m = statistics.fmean(xs) if xs else None
        se = statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("inf")
        out[k] = {"n": len(xs), "mean": m, "ci95": None if m is None else [m - 1.96 * se, m + 1.96 * se],
                  "per_game": sum(xs) / len(games) if games else None}
    return out


#: How an attempt at A began, for `a_by_start`: the first attempt or a later
#: one (the platform's last), after a double tribute to the declarers (they
#: finished first and second), a single one, or none (a start without a
#: finishing order before it). Anti-tribute counts as the tribute that was due.
A_STARTS = ("first_double", "first_single", "first_none", "later_double", "later_single", "later_none")


def a_start(r: dict[str, Any]) -> str:
    """The `A_STARTS` group of a deal row that is an attempt at A."""
    prev = r.get("after")
    tribute = "none" if prev is None else ("double" if prev[0] % 2 == prev[1] % 2 else "single")
    return f"{'first' if not r.get('tries') else 'later'}_{tribute}"


def a_by_start(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Attempts at A over `games` (`game_summary` dicts) by how they began
    (`A_STARTS`), each side's apart (``ours``, ``theirs``): ``attempts``,
    ``passed``, ``lost`` (the deal lost, ``lost_double`` to a 双上 of the
    other team) and ``won_short`` (won without passing), so that the
    attempts of whole games compare with single deals started the same way."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {(side, k): [] for side in ("ours", "theirs") for k in A_STARTS}
    for g in games:
        for r in g["deals"]:
            if r["attempt"] is not None:
                groups["ours" if r["attempt"] == g["ours"] else "theirs", a_start(r)].append(r)
    return {side: {k: attempt_counts(groups[side, k]) for k in A_STARTS} for side in ("ours", "theirs")}


def implied_games(games: list[dict[str, Any]], *, rules: Optional[gf.Rules] = None, n: int = 20_000,
                  seed: int = 0) -> Optional[dict[str, float]]:
    """The share of games our team would win if every deal ended as one of
    the deals of `games` (`game_summary` dicts) did in the same context: one
    of six outcomes (which team went out first, its partner 2nd, 3rd or
    4th) drawn at the rates seen where the deal is played (`CONTEXTS`) and
    after the tribute it begins with (`TRIBUTES`, which the deal before
    decides: a team that received the tribute wins more of the next deals,
    and drawing every deal at the same rates misses it), the levels settled
    by `rules` (the platform's by default), `n` games from 2 and 2, a game
    not over after 500 deals counted as not won. A context never seen takes
    the rates of the deals played there after any tribute, then those after
    that tribute anywhere, then those of all deals (anti-tribute is not
    told apart: its deals count under the tribute that was due).
    ``rate`` is that share; ``a_as_others``, the same with the deals at
    either A at the rates of the other deals after the same tribute (what
    play at A costs or gains); None when `games` has no deals."""
    Counts = dict[tuple[int, int], int]
    counts: dict[tuple[str, str], Counts] = {}
    for g in games:
        for r in g["deals"]:
            c, t = deal_context(r, g["ours"])
            key = _outcome(r["order"], g["ours"])
            table = counts.setdefault((c, t), {})
            table[key] = table.get(key, 0) + 1

    def pooled(keep: Any) -> Counts:
        out: Counts = {}
        for k, table in counts.items():
            if keep(*k):
                for o, v in table.items():
                    out[o] = out.get(o, 0) + v
        return out

    everything = pooled(lambda c, t: True)
    if not everything:
        return None

    def rates(c: str, t: str) -> Counts:
        return (counts.get((c, t)) or pooled(lambda c2, t2: c2 == c) or pooled(lambda c2, t2: t2 == t)
                or everything)

    rules = rules or platform_rules()
    # The level state after each (state, outcome), settled once: the states are few and the games many.
    State = tuple[tuple[str, str], tuple[int, int], Optional[int]]
    settled: dict[tuple[State, int, int], tuple[Optional[int], State]] = {}

    def settle(state: State, first: int, place: int) -> tuple[Optional[int], State]:
        key = (state, first, place)
        if key not in settled:
            levels, fails, declarer = state
            s = gf.settle_deal(_outcome_order(first, place), levels=levels, a_fails=fails, declarer=declarer, rules=rules)
            settled[key] = (s["game_winner"], (s["levels"], s["a_fails"], s["declarer"]))
        return settled[key]

    def share(table: dict[tuple[str, str], Counts]) -> float:
        rng = random.Random(seed)
        draws = {k: (list(t), list(itertools.accumulate(t.values()))) for k, t in table.items()}
        won = 0
        for _ in range(n):
            state: State = (("2", "2"), (0, 0), None)
            tribute = "first"
            for _deal in range(500):
                levels, _, declarer = state
                at_a = declarer is not None and levels[declarer] == "A"
                c = "other" if not at_a else ("ours_a" if declarer == 0 else "theirs_a")
                keys, cum = draws[(c, tribute)]
                first, place = rng.choices(keys, cum_weights=cum)[0]
                winner, state = settle(state, first, place)
                if winner is not None:
                    won += winner == 0
                    break
                tribute = _tribute((first, place))
        return won / n

    seen = {(c, t): rates(c, t) for c in CONTEXTS for t in TRIBUTES}
    return {"rate": share(seen), "a_as_others": share({(c, t): seen[("other", t)] for c in CONTEXTS for t in TRIBUTES})}


def paired(base: list[dict[str, Any]], other: list[dict[str, Any]]) -> dict[str, Any]:
    """`other`'s games (`game_summary` dicts) against `base`'s on the same
    deals: the games of both with the same seed and our team on the same
    seats, how many were played identically, how many each won where the
    other did not, and the mean difference (other minus base) in games won,
    in the share of deals won per game, in ``levels`` (the levels our team
    gained less theirs, per deal: a 双上 counts 3, a win with our partner
    last 1), in ``a_net`` (A passed by ours less A passed by theirs, per
    game: on single deals started at A, the attempts made good or
    stopped) and in ``chance`` (our team's chance of winning the game,
    by `gf.win_chance`, gained per deal: it weighs each deal's outcome by
    what it is worth where it was played), with their 95% intervals
    (normal, over the paired games)."""
    def key(g: dict[str, Any]) -> tuple[int, int]:
        return g["seed"], g["ours"]

    mine = {key(g): g for g in base}
    pairs = [(mine[key(g)], g) for g in other if key(g) in mine]

    def diff(score: Any) -> dict[str, Any]:
        xs = [score(o) - score(b) for b, o in pairs]
        if not xs:
            return {"mean": None, "ci95": None}
        m = statistics.fmean(xs)
        se = statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("inf")
        return {"mean": m, "ci95": [m - 1.96 * se, m + 1.96 * se]}

    def won(g: dict[str, Any]) -> int:
        return int(g["winner"] == g["ours"])

    def deal_share(g: dict[str, Any]) -> float:
        return sum(r["winner"] == g["ours"] for r in g["deals"]) / len(g["deals"]) if g["deals"] else 0.0

    def levels(g: dict[str, Any]) -> float:
        net = sum(r["gain"] if r["winner"] == g["ours"] else -r["gain"] for r in g["deals"])
        return net / len(g["deals"]) if g["deals"] else 0.0

    def a_net(g: dict[str, Any]) -> int:
        return sum((1 if r["attempt"] == g["ours"] else -1) for r in g["deals"] if r["attempt"] is not None and r["passed"])

    def chance(g: dict[str, Any]) -> float:
        return sum(chance_gained(r, g["ours"]) for r in g["deals"]) / len(g["deals"]) if g["deals"] else 0.0

    return {
        "n": len(pairs),
        "identical": sum(b["play"] == o["play"] for b, o in pairs),
        "only_base_won": sum(won(b) > won(o) for b, o in pairs),
        "only_other_won": sum(won(o) > won(b) for b, o in pairs),
        "games": diff(won),
        "deal_share": diff(deal_share),
        "levels": diff(levels),
        "a_net": diff(a_net),
        "chance": diff(chance),
    }


_INVALID = re.compile(r"^seat (\d) \(.*\): invalid reply ", re.MULTILINE)
_TIMEOUT = re.compile(r"^seat (\d) \(.*\): no valid reply in ", re.MULTILINE)
_UNASKED = re.compile(r"^seat (\d) \(.*\): ignored a message sent unasked", re.MULTILINE)


def log_faults(text: str) -> dict[str, int]:
    """The clients' faults in a server log: invalid replies, replies that did
    not come in time (the fallback moved) and messages sent unasked."""
    return {"bad_replies": len(_INVALID.findall(text)), "timeouts": len(_TIMEOUT.findall(text)),
            "unasked": len(_UNASKED.findall(text))}


def start_failure(lines: list[dict[str, Any]], seat: int) -> bool:
    """Whether a match's record shows it stopped at its start by the client on
    `seat` (the last to connect): aborted in its first game, by that seat,
    before that seat's first move. (ws4py's ``connect()`` parses the bytes
    that follow the handshake while its reader thread starts, so the last
    client, which the first messages reach at once, now and then breaks there.)"""
    if not lines or lines[-1]["type"] != "aborted" or lines[-1]["games"] != 0:
        return False
    if not str(lines[-1]["reason"]).startswith(f"seat {seat} "):
        return False
    return not any(a[0] == seat for line in lines[:-1] for d in line.get("deals", []) for a in d["actions"])


# ---------------------------------------------------------------- the table


def _pct(r: dict[str, Any]) -> str:
    if not r["n"]:
        return "—"
    return f"{r['k']}/{r['n']} = {r['rate']:.0%} ({r['ci95'][0]:.0%}–{r['ci95'][1]:.0%})"


def markdown(reports: list[dict[str, Any]]) -> str:
    """The Markdown table of pair reports."""
    head = ("| ours | vs | games won (95% CI) | deals won (95% CI) | games implied by the deals (A as the others)"
            " | 双上 ours / theirs | levels/deal ours / theirs"
            " | A passed/attempts ours / theirs | A failed: deal lost (to a 双上) / won short, ours / theirs"
            " | deals/game | ms/decision | bad replies / timeouts / aborted / retried |")
    rows = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for r in reports:
        o, t = r["ours"], r["theirs"]
        dbl = " / ".join(f"{x['double']['rate']:.0%}" if x["double"]["n"] else "—" for x in (o, t))
        lvl = " / ".join(f"{x['levels_per_deal']:.2f}" if x["levels_per_deal"] is not None else "—" for x in (o, t))
        a = f"{o['a_passed']}/{o['a_attempts']} / {t['a_passed']}/{t['a_attempts']}"
        failed = " / ".join(f"{x['a_lost']} ({x['a_lost_double']}) / {x['a_won_short']}" for x in (o, t))
        dpg = f"{r['deals_per_game']:.1f}" if r["deals_per_game"] is not None else "—"
        ms = f"{r['decision']['mean_ms']:.1f}" if r["decision"]["mean_ms"] is not None else "—"
        faults = (f"{r['faults']['bad_replies']} / {r['faults']['timeouts']} /"
                  f" {r['statuses']['aborted'] + r['statuses']['timeout']} / {r['statuses']['connect-crash']}")
        draws = f", {r['games']['draws']} drawn" if r["games"]["draws"] else ""
        imp = r.get("implied")
        implied = f"{imp['rate']:.0%} ({imp['a_as_others']:.0%})" if imp else "—"
        rows.append(f"| {r['policy']} | {r['entrant']} | {_pct(r['games'])}{draws} | {_pct(r['deals'])} | {implied} | {dbl} | {lvl}"
                    f" | {a} | {failed} | {dpg} | {ms} | {faults} |")
    return "\n".join(rows)


def style_markdown(reports: list[dict[str, Any]]) -> str:
    """The Markdown table of how each side played (`play_style`, the ``style`` of pair reports)."""
    short = STYLE_SHORT
    head = ("| ours | vs | side | leads/deal | leads: single / pair / full house / straight / other | bombs/deal"
            f" | facing an opponent's play, it holding > {short} cards: pass / beat / bomb"
            f" | the same, ≤ {short} cards | over the partner's play |")
    rows = [head, "|" + "---|" * head.count(" | ") + "---|"]

    def pc(x: Optional[float]) -> str:
        return "—" if x is None else f"{x:.0%}"

    def num(x: Optional[float]) -> str:
        return "—" if x is None else f"{x:.2f}"

    for r in reports:
        for side in ("ours", "theirs"):
            st = r["style"][side]
            kinds = " / ".join(pc(st["lead_kinds"][k]) for k in (*STYLE_KINDS, "other"))
            facing = [" / ".join(pc(st[key][x]) for x in ("pass", "beat", "bomb")) for key in ("facing_long", "facing_short")]
            name = r["policy"] if side == "ours" else r["entrant"]
            rows.append(f"| {r['policy']} | {r['entrant']} | {name} | {num(st['leads'])} | {kinds} | {num(st['bombs'])}"
                        f" | {facing[0]} | {facing[1]} | {pc(st['over_partner']['rate'])} |")
    return "\n".join(rows)


def _interval(d: dict[str, Any], scale: float = 100.0, digits: int = 1) -> str:
    if d["mean"] is None:
        return "—"
    lo, hi = d["ci95"]
    return f"{d['mean'] * scale:+.{digits}f} ({lo * scale:+.{digits}f} to {hi * scale:+.{digits}f})"


def chance_markdown(reports: list[dict[str, Any]]) -> str:
    """The Markdown table of where each pair's chance of the game was gained
    (`chance_by_context` in each report's ``chance``): points of a game per game, and per deal."""
    names = {"first": "first deals", "to_ours": "tribute to us, not at A", "to_theirs": "tribute to them, not at A",
             "ours_a": "at our A", "theirs_a": "at their A"}
    head = ("| ours | vs | games | " + " | ".join(f"{names[k]}: per game, per deal (95% CI)" for k in CHANCE_GROUPS)
            + " | all: per game |")
    rows = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for r in reports:
        c = r["chance"]
        cells = []
        for k in CHANCE_GROUPS:
            d = c[k]
            cells.append("—" if d["mean"] is None else f"{d['per_game'] * 100:+.1f}, {_interval(d, 100.0, 2)}")
        total = sum(c[k]["per_game"] or 0.0 for k in CHANCE_GROUPS)
        rows.append(f"| {r['policy']} | {r['entrant']} | {c['games']} | " + " | ".join(cells) + f" | {total * 100:+.1f} |")
    return "\n".join(rows)


def a_start_markdown(reports: list[dict[str, Any]]) -> str:
    """The Markdown table of each pair's attempts at A by how they began
    (`a_by_start` in each report's ``a_by_start``): passed/attempts, and in
    brackets the deals lost (to a 双上) and won short."""
    names = {"first_double": "first attempt, after a double tribute", "first_single": "first, after a single",
             "first_none": "first, no tribute", "later_double": "later, after a double", "later_single": "later, after a single",
             "later_none": "later, no tribute"}
    head = "| ours | vs | side | " + " | ".join(names[k] for k in A_STARTS) + " |"
    rows = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for r in reports:
        for side in ("ours", "theirs"):
            cells = []
            for k in A_STARTS:
                c = r["a_by_start"][side][k]
                cells.append("—" if not c["attempts"] else
                             f"{c['passed']}/{c['attempts']} ({c['lost']} ({c['lost_double']}) / {c['won_short']})")
            name = r["policy"] if side == "ours" else r["entrant"]
            rows.append(f"| {r['policy']} | {r['entrant']} | {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def paired_markdown(comparisons: list[dict[str, Any]]) -> str:
    """The Markdown table of paired comparisons (`paired` dicts with
    ``policy``, ``base`` and ``entrant``)."""
    head = ("| ours | against the games of | vs | paired games | played identically | won by ours only / by the other only"
            " | games won, difference in points (95% CI) | share of deals won, difference in points (95% CI)"
            " | levels gained by ours less by theirs, difference per deal (95% CI)"
            " | A passed by ours less by theirs, difference per game (95% CI)"
            " | chance of the game gained by ours per deal, difference in points (95% CI) |")
    rows = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for c in comparisons:
        rows.append(f"| {c['policy']} | {c['base']} | {c['entrant']} | {c['n']} | {c['identical']} |"
                    f" {c['only_other_won']} / {c['only_base_won']} | {_interval(c['games'])} | {_interval(c['deal_share'])}"
                    f" | {_interval(c['levels'], 1.0, 2)} | {_interval(c['a_net'], 1.0)} | {_interval(c['chance'], 100.0, 1)} |")
    return "\n".join(rows)
