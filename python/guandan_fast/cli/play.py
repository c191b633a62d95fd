"""``guandan-fast play``: a person plays one seat in the terminal against bots,
deal by deal until the match ends or they quit.

Moves are chosen by number from the list of legal moves, or by typing the
cards (``3s 4s 5d 6c 7h``, ``10♥``); bad input gets a one-line message and a
new prompt, never a traceback. Ctrl-D (end of input) leaves like ``quit``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Sequence, Union

from rich.columns import Columns
from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

import guandan_fast as gf
from guandan_fast.bots import Bot
from guandan_fast.models import is_model_name
from guandan_fast.cli.options import (
    MODEL_HELP,
    POLICY_HELP,
    CliError,
    add_rules_arguments,
    bounded_int,
    check_policy,
    model_bot,
    non_negative_float,
    rules_from_args,
    seed_int,
)
from guandan_fast.cli.text import CardPrinter, InputError, make_console, match_actions, parse_move_text, unicode_ok

if TYPE_CHECKING:
    from guandan_fast.cli.options import Subparsers

__all__ = ["PlaySession", "add_parser", "make_bot", "run_play"]

Action = Union[gf.Combo, gf.Pass, gf.Tribute, gf.Return]
Ask = Callable[[str], str]

#: Above this many legal moves, the list is summarised by kind (``l KIND`` lists one kind).
LONG_LIST = 150
PLACES = ("1st", "2nd", "3rd", "4th")

HELP = """\
Type one of:
  a number         the move with that number in the list (0 = pass)
  cards            the cards to play, like 3s 4s 5d 6c 7h (or 3♠ 4♠ ..., 10h or Th);
                   when they can be played several ways you are asked which,
                   or name it first: Straight(3) 2h 3c 4d 5s 6h
  p, pass          pass
  l, list [KIND]   the legal moves again (l pair: only the pairs)
  t, table         the table and your hand again
  hint             what a Monte Carlo player would choose
  penalty TEAM KIND [SEAT]
                   a referee's decision against team 0 or 1 (docs/rules.md §10):
                   minus_two, back_to_two, opponents_up, hidden_card,
                   out_of_turn, illegal_signal or forfeit (also between deals)
  h, help          this help
  q, quit          leave (Ctrl-D too)
Cards: rank 2-9, T, J, Q, K, A, then suit s h c d (♠ ♥ ♣ ♦); jokers BJ (small), RJ (big).
Wildcards (逢人配): the two hearts of the level rank, shown in magenta; each
stands for any non-joker card in a combination."""


def add_parser(sub: Subparsers) -> None:
    """Adds the ``play`` sub-command."""
    p = sub.add_parser(
        "play", help="play one seat in the terminal against bots",
        description="Play Guandan in the terminal: you hold one seat, bots the other three. "
        "Choose moves by number or by typing the cards; h for help, q or Ctrl-D to leave.",
    )
    p.add_argument("--seat", type=bounded_int(0, 3), default=0, metavar="SEAT", help="your seat (default 0; your partner is seat+2)")
    p.add_argument("--bots", default="mc:200", metavar="POLICY[,POLICY,POLICY]",
                   help="the bots: one policy for all three or three for the other seats in order (default mc:200); " + POLICY_HELP + "; " + MODEL_HELP)
    p.add_argument("--seed", type=seed_int, help="seed of the deals (default: a random one, printed)")
    p.add_argument("--cards", action="store_true", help="number every card-level move (default: one per pattern)")
    p.add_argument("--ascii", action="store_true", help="suit letters instead of ♠ ♥ ♣ ♦")
    p.add_argument("--delay", type=non_negative_float, default=0.0, metavar="SECONDS", help="pause after each bot move (default 0)")
    add_rules_arguments(p)
    p.set_defaults(func=run_play)


def make_bot(spec: str, seed: int) -> Bot:
    """A bot for a policy name: random, greedy, rule (`RuleBot`), mc[:N] (`MCBot`, greedy rollouts), mc-random[:N], a search (`SearchBot`), a model (onnx:PATH `OnnxBot`, puct:PATH `ModelSearch`)."""
    if is_model_name(spec):
        return model_bot(spec, seed)
    name = check_policy(spec)  # the engine's own name: mc and mc-random carry their playouts
    if name == "random":
        return gf.RandomBot(seed)
    if name == "greedy":
        return gf.GreedyBot()
    if name == "rule":
        return gf.RuleBot()
    head, _, n = name.partition(":")
    if head not in ("mc", "mc-random") or not n.isdigit():
        return gf.SearchBot(name, seed=seed)
    return gf.MCBot(int(n), seed=seed, rollout="random" if head == "mc-random" else "greedy")


def _stdin_ask(console: Console) -> Ask:
    echo = not sys.stdin.isatty()

    def ask(prompt: str) -> str:
        console.print(Text(prompt, style="bold"), end="")
        line = input()
        if echo:  # scripted input: show it, so the transcript reads like a session
            console.print(line, markup=False)
        return line

    return ask


class PlaySession:
    """One person (seat `human`) against `bots` (the other seats) in `game`."""

    def __init__(
        self,
        game: gf.Game,
        human: int,
        bots: dict[int, Bot],
        names: dict[int, str],
        *,
        console: Console,
        ask: Ask,
        printer: CardPrinter,
        mode: Literal["cards", "pattern"] = "pattern",
        delay: float = 0.0,
        hint_seed: int = 0,
    ) -> None:
        self.game = game
        self.human = human
        self.bots = bots
        self.names = names
        self.out = console
        self.ask = ask
        self.p = printer
        self.mode = mode
        self.delay = delay
        self.hint_seed = hint_seed
        self.trick: dict[int, Action] = {}
        self.announced_deal = -1

    # ------------------------------------------------------------ helpers

    def say(self, *parts: Union[str, Text], style: str = "") -> None:
        t = Text(style=style)
        for part in parts:
            t.append_text(part) if isinstance(part, Text) else t.append(part)
        self.out.print(t)

    def who(self, seat: int) -> str:
        if seat == self.human:
            return "you"
        rel = "partner" if seat == (self.human + 2) % 4 else "opponent"
        return f"seat {seat} ({rel}, {self.names[seat]})"

    def _team_word(self, team: int) -> str:
        return "your team's" if team == self.human % 2 else "the opponents'"

    # ------------------------------------------------------------ the loop

    def run(self) -> int:
        """Plays until the match is over or the person quits; returns the exit status (0)."""
        g = self.game
        while True:
            if g.phase in ("tribute", "return", "play"):
                self._announce_deal()
                seat = g.current_player
                assert seat is not None
                if seat == self.human:
                    if not self._human_turn():
                        self._goodbye()
                        return 0
                else:
                    self._apply(seat, self.bots[seat].act(g))
                    if self.delay:
                        time.sleep(self.delay)
            elif g.phase == "match_over":
                self._match_over()
                return 0
            else:  # deal_over, game_over
                try:
                    line = self.ask("Enter: next deal · q: quit > ")
                except EOFError:
                    self.out.print()
                    self._goodbye()
                    return 0
                if line.strip().lower() in ("q", "quit", "exit"):
                    self._goodbye()
                    return 0
                if line.strip().lower().split()[:1] == ["penalty"]:
                    self._penalty(line)
                    continue
                g.next_deal()

    def _announce_deal(self) -> None:
        g = self.game
        key = g.game_number * 100_000 + g.deal_number
        if key == self.announced_deal:
            return
        self.announced_deal = key
        self.trick = {}
        team = g.declarer
        whose = "" if team is None else f" ({self._team_word(team)} level)"
        self.out.print(Rule(f"Game {g.game_number + 1} · deal {g.deal_number + 1} · level {g.level}{whose}"))
        you, them = g.levels[self.human % 2], g.levels[1 - self.human % 2]
        self.say(f"Levels: your team {you}, opponents {them}. You are seat {self.human}; your partner is seat {(self.human + 2) % 4}.")
        if g.tribute is not None and g.tribute["kind"] == "resisted":
            self.say("No tribute: resisted (抗贡) with both big jokers. ", f"Seat {g.current_player} leads.")
        elif g.phase == "tribute":
            givers = g.tribute["givers"] if g.tribute else []
            who = " and ".join(self.who(s) for s in givers)
            self.say(f"Tribute (进贡) first: {who} {'pays' if len(givers) == 1 and givers[0] != self.human else 'pay'} a highest card.")
        elif g.phase == "play":
            self.say(f"Seat {g.current_player} leads.")

    def _apply(self, seat: int, action: Action) -> None:
        g = self.game
        top_seat = g.top_seat
        out_before = list(g.finish_order)
        phase = g.phase
        g.apply(action)
        if phase == "play":
            self.trick[seat] = action
            if g.top is None:  # the trick is over: the next one starts empty
                self.trick = {}
        if isinstance(action, gf.Tribute):
            self.say(f"  {self.who(seat)} {'pay' if seat == self.human else 'pays'} tribute ", self.p.card(action.card))
        elif isinstance(action, gf.Return):
            returns = g.tribute["returns"] if g.tribute is not None else []
            giver = next((gv for rc, gv, _ in returns if rc == seat), None)
            verb = "return" if seat == self.human else "returns"
            self.say(f"  {self.who(seat)} {verb} ", self.p.card(action.card), f" to seat {giver}" if giver is not None else "")
        else:
            self.say(f"  {self.who(seat)}: ", self.p.action(action))
        if phase == "tribute" and g.phase != "tribute" and g.tribute is not None:
            for giver, receiver, card in g.tribute["tributes"]:
                self.say(f"  tribute: seat {giver} → seat {receiver}: ", self.p.card(card))
        for s in g.finish_order[len(out_before):]:
            place = g.finish_order.index(s)
            self.say(f"  {self.who(s).capitalize()} {'are' if s == self.human else 'is'} out — {PLACES[place]}.", style="bold")
        if g.phase == "play" and phase == "play" and g.top is None and top_seat is not None:
            lead = g.current_player
            note = " (接风: the lead passes to the partner)" if top_seat in g.finish_order and lead != top_seat else ""
            if lead == top_seat:
                self.say(f"  — {self.who(top_seat)} won the trick and lead{'' if lead == self.human else 's'}", style="dim")
            else:
                leads = f"{self.who(lead) if lead is not None else '?'} lead{'' if lead == self.human else 's'}"
                self.say(f"  — {self.who(top_seat)} won the trick; {leads}{note}", style="dim")
        if phase in ("tribute", "return") and g.phase == "play":
            self.say(f"  {self.who(g.current_player or 0).capitalize()} lead{'s' if g.current_player != self.human else ''}.")
        if g.phase in ("deal_over", "game_over", "match_over"):
            self._deal_over()

    def _deal_over(self) -> None:
        g = self.game
        r = g.last_result
        order = ", ".join(f"{PLACES[i]} {self.who(s)}" for i, s in enumerate(g.finish_order))
        self.out.print(Rule("Deal over"))
        self.say(f"Finishing order: {order}.")
        if r is not None:
            win = "Your team wins" if r["winner"] == self.human % 2 else "The opponents win"
            you, them = r["levels"][self.human % 2], r["levels"][1 - self.human % 2]
            gain = f" (+{r['gain']} level{'s' if r['gain'] != 1 else ''})" if r["gain"] else ""
            self.say(f"{win} the deal{gain}. Levels: your team {you}, opponents {them}.", style="bold")
            if r["a_failed"]:
                self.say("The attempt at A failed" + (" and the team drops back." if r["a_reset"] else "."))
            if r["game_winner"] is not None:
                who = "Your team" if r["game_winner"] == self.human % 2 else "The opponents"
                won = g.games_won[self.human % 2], g.games_won[1 - self.human % 2]
                self.say(f"{who} win the game! Games: your team {won[0]}, opponents {won[1]}.", style="bold")

    def _match_over(self) -> None:
        g = self.game
        mine, theirs = g.games_won[self.human % 2], g.games_won[1 - self.human % 2]
        self.out.print(Rule("Match over"))
        self.say(f"{'You win' if mine > theirs else 'You lose'} the match {mine}:{theirs}.", style="bold")

    def _goodbye(self) -> None:
        g = self.game
        you, them = g.levels[self.human % 2], g.levels[1 - self.human % 2]
        self.say(f"Bye. Stopped in game {g.game_number + 1}, deal {g.deal_number + 1}; levels: your team {you}, opponents {them}.")

    # ------------------------------------------------------------ the person's turn

    def show_table(self) -> None:
        g = self.game
        t = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
        t.add_column("seat")
        t.add_column("player")
        t.add_column("cards", justify="right")
        t.add_column("this trick")
        for s in range(4):
            if s in g.finish_order:
                now: Text = Text(f"out ({PLACES[g.finish_order.index(s)]})", style="dim")
            elif s in self.trick:
                now = self.p.action(self.trick[s])
                if s == g.top_seat and g.top is not None:
                    now.append("  ← to beat", style="bold")
            else:
                now = Text("")
            marker = "▶ " if s == g.current_player else "  "
            player = "you" if s == self.human else ("partner, " if s == (self.human + 2) % 4 else "") + self.names[s]
            t.add_row(marker + str(s), player, str(g.hand_sizes[s]), now)
        self.out.print(t)
        hand = g.hands[self.human]
        wild = hand.wildcards(g.level)
        head = f"Your hand ({len(hand)} cards"
        head += f", {wild} wildcard{'s' if wild != 1 else ''} {self.p.card(gf.Card(g.level + 'h')).plain}" if wild else ""
        self.say(head + "): ", self.p.hand(hand, g.level))

    def _numbered(self, actions: Sequence[Action]) -> list[tuple[int, Action]]:
        """(number, action): PASS is 0, the others 1, 2, ... in list order."""
        out: list[tuple[int, Action]] = []
        k = 1
        for a in actions:
            if a == gf.PASS:
                out.append((0, a))
            else:
                out.append((k, a))
                k += 1
        return out

    def show_moves(self, numbered: list[tuple[int, Action]], kind: Optional[str] = None) -> None:
        g = self.game
        items = numbered
        if kind is not None:
            items = [(k, a) for k, a in numbered if isinstance(a, gf.Combo) and a.kind.lower() == kind.lower()]
            if not items:
                self.say(f"No legal {kind} now.")
                return
        if g.phase == "tribute":
            self.say("Pay tribute (进贡): give one of these cards.", style="bold")
        elif g.phase == "return":
            self.say("Return a card (还贡) to the tribute payer: give one of these.", style="bold")
        elif kind is None:
            self.say("You lead." if g.top is None else "Beat it or pass.", style="bold")
        if kind is None and len(items) > LONG_LIST:
            self._summarise(items)
            return
        cells = [Text(f"{k:>{len(str(len(numbered)))}} ").append_text(self.p.action(a)) for k, a in items]
        self.out.print(Columns(cells, padding=(0, 3), column_first=True))

    def _summarise(self, numbered: list[tuple[int, Action]]) -> None:
        spans: dict[str, list[int]] = {}
        for k, a in numbered:
            name = a.kind if isinstance(a, gf.Combo) else "pass"
            spans.setdefault(name, []).append(k)
        parts = [f"{name} {ks[0]}–{ks[-1]}" if len(ks) > 1 else f"{name} {ks[0]}" for name, ks in spans.items()]
        self.say(f"{len(numbered)} legal moves: " + ", ".join(parts) + ".")
        self.say("Type `l KIND` to list one kind (l pair, l straight, ...), or type the cards you want to play.")

    def _human_turn(self) -> bool:
        """Reads commands until a move is made (True) or the person leaves (False)."""
        g = self.game
        actions = self.p.display_order(g.legal_actions(self.mode), g.level)
        numbered = self._numbered(actions)
        by_number = dict(numbered)
        self.show_table()
        self.show_moves(numbered)
        while True:
            try:
                line = self.ask("Your move (number, cards, p = pass, h = help, q = quit) > ")
            except EOFError:
                self.out.print()
                return False
            cmd = line.strip()
            low = cmd.lower()
            if not cmd:
                continue
            if low in ("q", "quit", "exit"):
                return False
            if low in ("h", "help", "?"):
                self.out.print(HELP, markup=False)
                continue
            if low in ("t", "table", "s", "show"):
                self.show_table()
                continue
            if low.split()[0] in ("l", "list", "m", "moves"):
                words = low.split()
                self.show_moves(numbered, None if len(words) == 1 or words[1] == "all" else words[1])
                continue
            if low == "hint":
                self._hint()
                continue
            if low.split()[0] == "penalty":
                if self._penalty(low):
                    return True
                continue
            if cmd.isdigit():
                k = int(cmd)
                if k not in by_number:
                    top = max(by_number) if by_number else 0
                    if k == 0:
                        self.say("You cannot pass: you lead this trick.", style="red")
                    elif top == 0:
                        self.say("You can only pass here: type 0 or p.", style="red")
                    else:
                        self.say(f"No move numbered {k}: choose {'0–' if 0 in by_number else '1–'}{top}.", style="red")
                    continue
                self._apply(self.human, by_number[k])
                return True
            try:
                found = match_actions(g, parse_move_text(cmd), self.p)
            except (InputError, gf.GuandanError) as e:
                self._complain(str(e))
                continue
            chosen = found[0] if len(found) == 1 else self._which(found)
            if chosen is None:
                continue
            try:
                self._apply(self.human, chosen)
            except gf.GuandanError as e:  # not expected: match_actions gives legal actions only
                self._complain(str(e))
                continue
            return True

    def _penalty(self, line: str) -> bool:
        """Applies ``penalty TEAM KIND [SEAT]`` as the referee's decision; False (and a
        message) when it is not one or cannot apply."""
        words = line.split()[1:]
        if len(words) not in (2, 3) or not all(w.isdigit() for w in words[:1] + words[2:]):
            self._complain("Type penalty TEAM KIND [SEAT], like penalty 1 minus_two")
            return False
        try:
            kind: Any = words[1]  # any text: the engine names the kinds it takes when it refuses one
            self.game.penalize(int(words[0]), kind, seat=int(words[2]) if len(words) == 3 else None)
        except gf.GuandanError as e:
            self._complain(str(e))
            return False
        g, team = self.game, int(words[0])
        side = "your team" if team == self.human % 2 else "the opponents"
        self.say(f"Referee: {words[1].replace('_', ' ')} against team {team} ({side}). "
                 f"Levels {g.levels[0]}–{g.levels[1]}, now {g.phase.replace('_', ' ')}.", style="bold yellow")
        return True

    def _complain(self, message: str) -> None:
        message = message.rstrip(".")
        self.say(message[:1].upper() + message[1:] + ".", style="red")

    def _which(self, found: list[Action]) -> Optional[Action]:
        """Asks which declaration; None when cancelled. EOF leaves the question (and the next prompt sees EOF too)."""
        self.say("These cards can be played several ways:")
        for i, a in enumerate(found, 1):
            self.say(f"  {i}) ", self.p.action(a))
        while True:
            try:
                line = self.ask(f"Which one (1–{len(found)}, Enter to cancel)? > ").strip()
            except EOFError:
                self.out.print()
                return None
            if not line:
                return None
            if line.isdigit() and 1 <= int(line) <= len(found):
                return found[int(line) - 1]
            self.say(f"Type a number from 1 to {len(found)}, or Enter to cancel.", style="red")

    def _hint(self) -> None:
        g = self.game
        if g.phase != "play":
            self.say("Hint: ", self.p.action(gf.policy_action(g, "greedy")), " (the greedy choice)")
            return
        self.hint_seed += 1
        e = gf.evaluate(g, playouts=100, seed=self.hint_seed, policy="greedy")
        order = sorted(range(len(e["actions"])), key=lambda i: -e["mean"][i])[:3]
        self.say("Hint (Monte Carlo, 100 greedy playouts per move; mean level change, win chance):")
        for i in order:
            self.say("  ", self.p.action(e["actions"][i]), f"   {e['mean'][i]:+.2f}, {e['win_prob'][i]:.0%}")


def run_play(args: argparse.Namespace, ask: Optional[Ask] = None) -> int:
    rules = rules_from_args(args)
    specs = [s for s in args.bots.split(",") if s]
    if len(specs) == 1:
        specs *= 3
    if len(specs) != 3:
        raise CliError(f"--bots takes one policy for all three bots or three (for the other seats in order), not {len(specs)}")
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    human = args.seat
    others = [s for s in range(4) if s != human]
    bots = {s: make_bot(spec, seed + s) for s, spec in zip(others, specs)}
    names = dict(zip(others, specs))
    console = make_console()
    game = gf.Game(rules, seed=seed)
    printer = CardPrinter(unicode=unicode_ok() and not args.ascii)
    console.print(
        Text(f"Guandan (掼蛋) — you are seat {human}, against {', '.join(f'{s}: {n}' for s, n in names.items())}. "
             f"Seed {seed} (replay with --seed {seed}). Type h for help.", style="bold")
    )
    session = PlaySession(
        game, human, bots, names,
        console=console, ask=ask or _stdin_ask(console), printer=printer,
        mode="cards" if args.cards else "pattern", delay=args.delay, hint_seed=seed,
    )
    return session.run()
