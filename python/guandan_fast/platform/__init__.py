"""An open server and client for the competition platform's websocket
protocol (docs/platform.md): `Referee` plays a match as the platform does,
messages in and messages out, without sockets; `Server` puts it behind
websockets for four seats; `Client` connects any guandan_fast bot to a
platform server. The websocket parts need the ``platform`` extra
(``websockets``), imported only when a server or client runs."""

from guandan_fast.platform.client import Client, PolicyBot
from guandan_fast.platform.codes import ProtocolError, action_code, action_from_code, card_code, card_from_code
from guandan_fast.platform.record import read_record, replay
from guandan_fast.platform.referee import Ask, Log, Record, Referee, Send
from guandan_fast.platform.rules import DRAW_DROPS, PLATFORM_RULES, platform_rules
from guandan_fast.platform.seating import parse_bots
from guandan_fast.platform.server import Server

__all__ = [
    "DRAW_DROPS",
    "PLATFORM_RULES",
    "Ask",
    "Client",
    "Log",
    "PolicyBot",
    "ProtocolError",
    "Record",
    "Referee",
    "Send",
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
