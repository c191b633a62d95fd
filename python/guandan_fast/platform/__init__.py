"""An open server and client for the competition platform's websocket
protocol (docs/platform.md): `Server` referees four seats exactly as the
platform does, `Client` connects any guandan_fast bot to a platform server.
Needs the ``platform`` extra (``websockets``), imported only when a server
or client runs."""

from guandan_fast.platform.client import Client, PolicyBot
from guandan_fast.platform.codes import ProtocolError, action_code, action_from_code, card_code, card_from_code
from guandan_fast.platform.record import read_record, replay
from guandan_fast.platform.server import DRAW_DROPS, PLATFORM_RULES, Server, parse_bots, platform_rules

__all__ = [
    "DRAW_DROPS",
    "PLATFORM_RULES",
    "Client",
    "PolicyBot",
    "ProtocolError",
    "Server",
    "action_code",
    "action_from_code",
    "card_code",
    "card_from_code",
    "parse_bots",
    "platform_rules",
    "read_record",
    "replay",
]
