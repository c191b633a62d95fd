"""What the web tests share: records made by the engine's own referee and
tournaments, and a person's simple strategy at a table."""

from __future__ import annotations

import json
from typing import Any

import guandan_fast as gf
from guandan_fast.platform import Ask, Record, Referee
from guandan_fast.web.table import Table


def platform_record(games: int = 1, seed: int = 4) -> str:
    """A ``serve --record`` file's text: seat 0 a client that plays the last listed action, three greedy bots."""
    ref = Referee({0: "north"}, bots={1: "greedy", 2: "greedy", 3: "greedy"}, games=games, seed=seed)
    events = ref.start()
    lines: list[dict[str, Any]] = []
    while True:
        lines += [e.line for e in events if isinstance(e, Record)]
        if ref.over:
            break
        if ref.bot is not None:
            events = ref.play_bot()
        else:
            act = [e for e in events if isinstance(e, Ask)][-1].message
            events = ref.receive(ref.awaiting, {"actIndex": act["indexRange"]})
    return "".join(json.dumps(line) + "\n" for line in lines)


def resisted_record() -> str:
    """A game record (``gr1 ...``) of two deals whose second one opens with a resisted
    tribute (抗贡): the last seat out of the first deal is dealt both red jokers."""
    g = gf.Game(seed=2)
    while g.phase == "play":
        g.apply(gf.policy_action(g, "greedy", seed=1))
    last = g.finish_order[3]
    hands = [list(h) for h in gf.deal(9)]
    joker = gf.Card("RJ")
    for s in range(4):
        while s != last and joker in hands[s]:
            swap = next(c for c in hands[last] if c.rank not in ("RJ", "BJ"))
            hands[s].remove(joker)
            hands[last].remove(swap)
            hands[s].append(swap)
            hands[last].append(joker)
    g.next_deal(hands=[gf.Hand(h) for h in hands])
    assert g.tribute is not None and g.tribute["kind"] == "resisted"
    for _ in range(4):
        g.apply(gf.policy_action(g, "greedy", seed=1))
    return g.__reduce__()[1][1]


def tournament_json(records: bool = True) -> str:
    """A small tournament's JSON, with every game's record when `records`."""
    r = gf.Tournament(["greedy", "random", "random"], max_deals=3, seed=3).run(keep_games=records)
    return r.to_json(records=records)


def play_simply(table: Table, *, deals: int = 1) -> None:
    """Plays the people's seats until `deals` deals are over: pass when
    following, lead the lowest card, give the first card allowed."""
    done = 0
    while True:
        g = table.game
        if g.phase in ("deal_over", "game_over", "match_over"):
            done += 1
            if done >= deals or g.phase == "match_over":
                return
            table.next_deal()
            continue
        if table.bot is not None:
            assert table.apply_bot(table.decide_bot())
            continue
        v = table.view()
        choices = v["choices"]
        if choices["kind"] in ("tribute", "return"):
            table.receive({"type": "play", "cards": [choices["cards"][0]]})
        elif choices["can_pass"]:
            table.receive({"type": "pass"})
        else:
            table.receive({"type": "play", "cards": [v["seats"][v["viewer"]]["hand"][0]["c"]]})


def tribute_seed(limit: int = 60) -> tuple[int, Table]:
    """The first seed below `limit` at which `play_simply`'s first deal leaves
    seat 0 (against three greedy bots) to pay tribute or return a card in the
    second, and that table there (AssertionError when there is none)."""
    for seed in range(limit):
        t = Table({1: "greedy", 2: "greedy", 3: "greedy"}, seed=seed)
        play_simply(t)
        if t.game.phase != "deal_over":
            continue
        t.next_deal()
        while t.bot is not None and t.game.phase in ("tribute", "return"):
            t.apply_bot(t.decide_bot())
        if t.game.phase in ("tribute", "return") and t.game.current_player == 0:
            return seed, t
    raise AssertionError(f"no seed below {limit} gives seat 0 a tribute or a return")


class LiveMatch:
    """A platform match (seat 0 a client playing its last listed action, three
    greedy bots) stepped by hand, each step shown to `live` as a server would."""

    def __init__(self, live: Any, seed: int = 4) -> None:
        self.live = live
        self.ref = Referee({0: "north"}, bots={1: "greedy", 2: "greedy", 3: "greedy"}, seed=seed)
        self.events = self.ref.start()
        live.update(self.ref)

    def step(self, steps: int = 1) -> None:
        ref = self.ref
        for _ in range(steps):
            if ref.over:
                return
            if ref.bot is not None:
                self.events = ref.play_bot()
            else:
                act = [e for e in self.events if isinstance(e, Ask)][-1].message
                self.events = ref.receive(ref.awaiting, {"actIndex": act["indexRange"]})
            self.live.update(ref)


def referee_steps(live: Any, steps: int) -> Any:
    """The referee of a `LiveMatch` after its first `steps` steps."""
    m = LiveMatch(live)
    m.step(steps)
    return m.ref
