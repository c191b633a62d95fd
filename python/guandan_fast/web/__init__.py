"""The web table (``guandan-fast web``, the ``web`` extra): a page to play a
seat against the built-in bots, to step through recorded matches, and to
see the engine's Monte Carlo evaluation of a position (docs/web.md).

The sans-IO parts — the table (table.py), the records (records.py), the
views the page draws (views.py) and the chunked hint (hints.py) — need only
the engine; `create_app` (app.py) builds the Starlette app around them and is
imported, with Starlette, only when called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from guandan_fast.web.app import Settings

__all__ = ["create_app"]


def create_app(settings: Settings | None = None) -> Starlette:
    """The web table's ASGI app (imports Starlette: the ``web`` extra)."""
    from guandan_fast.web.app import create_app as make

    return make(settings)


def __getattr__(name: str) -> Any:
    if name == "Settings":
        from guandan_fast.web.app import Settings

        return Settings
    raise AttributeError(f"module 'guandan_fast.web' has no attribute {name!r}")
