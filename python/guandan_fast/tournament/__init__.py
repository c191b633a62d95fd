"""Tournaments for bots as the rule books run them: knockout, qualify_final, race,
round_robin and swiss; seeded, reproducible, played natively in parallel.
See docs/tournaments.md."""

from guandan_fast.distributed.backends import LocalBackend
from guandan_fast.tournament.draw import Draw, bracket_size, draw_bracket, draw_tables
from guandan_fast.tournament.event import Entrant, Tournament, TournamentResult
from guandan_fast.tournament.formats import FORMATS
from guandan_fast.tournament.match import MatchResult, MatchSpec, game_from_record, play_match, play_matches, play_on

__all__ = [
    "FORMATS",
    "Draw",
    "Entrant",
    "LocalBackend",
    "MatchResult",
    "MatchSpec",
    "Tournament",
    "TournamentResult",
    "bracket_size",
    "draw_bracket",
    "draw_tables",
    "game_from_record",
    "play_match",
    "play_matches",
    "play_on",
]
