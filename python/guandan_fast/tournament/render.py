"""A tournament result shown: standings and bracket as JSON, a rich tree and
table for the terminal, and an SVG picture of the bracket (or standings)."""

from __future__ import annotations

import json
from typing import IO, Any, Iterable, Optional
from xml.sax.saxutils import escape

from rich import box
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from guandan_fast.tournament.event import TournamentResult

__all__ = ["bracket_svg", "bracket_tree", "standings_table", "to_json", "write_json"]

#: The standings figures shown, by format (beyond place, entrant and unit).
_COLUMNS = {
    "knockout": [("eliminated", "out in"), ("levels", "levels, last tie")],
    "qualify_final": [("qualifying_place", "qual."), ("passed_a", "passed A"), ("deals", "deals to A"), ("level", "level")],
    "race": [("passed_a", "passed A"), ("deals", "deals to A"), ("level", "level"), ("played", "deals played")],
    "round_robin": [("points", "points"), ("played", "played"), ("games_for", "games +"), ("games_against", "games -")],
    "swiss": [("score", "score"), ("buchholz", "Buchholz"), ("games_for", "games +"), ("games_against", "games -"), ("bye", "bye")],
}
#: Figures shown only when some entrant has one (an event's levels reported at the deal limit).
_OPTIONAL = {"levels"}


def _columns(result: TournamentResult) -> list[tuple[str, str]]:
    """The standings figures of `result` to show: its format's, less the optional ones nobody has."""
    return [(k, label) for k, label in _COLUMNS[result.format] if k not in _OPTIONAL or any(s.get(k) is not None for s in result.standings)]


def to_json(result: TournamentResult, records: bool = False) -> str:
    """Standings, bracket and matches as JSON text (`TournamentResult.to_json`)."""
    return json.dumps(result.to_dict(records), ensure_ascii=False, indent=1)


def write_json(result: TournamentResult, out: IO[str], matches: Optional[Iterable[str]] = None) -> None:
    """Writes `to_json` of `result` (and a newline) to `out`; with `matches` (one
    JSON line per match, in order, as ``dict(stage, a, b, **r.to_dict(True))``)
    those lines stand for the matches, so that their games need not be in memory."""
    if matches is None:
        out.write(to_json(result) + "\n")
        return
    head = result.to_dict()
    del head["matches"]  # the last key: the document is the head, then the matches copied in
    out.write(json.dumps(head, ensure_ascii=False, indent=1)[:-2] + ',\n "matches": [')
    for k, line in enumerate(matches):
        out.write(("," if k else "") + "\n  " + line.rstrip("\n"))
    out.write("\n ]\n}\n")


def _cell(v: Any) -> str:
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else ""
    if isinstance(v, (list, tuple)):
        return "–".join(map(str, v))
    return str(v)


def standings_table(result: TournamentResult) -> Table:
    """The standings as a rich table."""
    t = Table(title=f"{result.format} (seed {result.seed}): standings", title_justify="left", box=box.SIMPLE_HEAD)
    cols = _columns(result)
    t.add_column("place", justify="right")
    t.add_column("entrant", no_wrap=True)
    t.add_column("unit")
    for _, label in cols:
        t.add_column(label, justify="right")
    for s in result.standings:
        style = "bold green" if s["place"] == 1 else None
        t.add_row(_cell(s["place"]), s["entrant"], _cell(s.get("unit")), *(_cell(s.get(k)) for k, _ in cols), style=style)
    return t


def _ending(tie: dict[str, Any]) -> Optional[str]:
    """How a tie that was not played out ended: the ending, the levels at the
    deal limit, how a tie was broken and the deals (None for one played out)."""
    if not tie.get("ending") or tie["ending"] == "played":
        return None
    text = tie["ending"].replace("_", " ")
    if tie.get("levels"):
        levels = "–".join(tie["levels"])
        text = f"levels {levels}" if tie["ending"] == "levels" else f"{text} at levels {levels}"
    if tie.get("tie_break"):
        text += f" ({tie['tie_break'].replace('_', ' ')})"
    return text if tie.get("deals") is None else f"{text} after {tie['deals']} deals"


def _tie_text(tie: dict[str, Any], stage: str) -> Text:
    t = Text(f"{stage}: ", style="dim")
    if tie.get("bye"):
        t.append(tie["winner"] or "–", style="bold")
        t.append(" (bye)", style="dim")
        return t
    if "games" not in tie:  # an event of people: a tie still to play
        t.append(f"{tie['a'] or '?'} – {tie['b'] or '?'}")
        t.append("  (to play)" if tie["a"] and tie["b"] else "", style="dim")
        return t
    for k, side in enumerate(("a", "b")):
        name = tie[side]
        t.append(name, style="bold green" if name == tie["winner"] else "")
        if k == 0:
            t.append(f" {tie['games'][0]}–{tie['games'][1]} ")
    ending = _ending(tie)
    if ending is not None:
        t.append(f"  [{ending}]", style="yellow")
    for p in tie.get("penalties", ()):
        t.append(f"  [penalty: {p['kind'].replace('_', ' ')} ({p['team']})]", style="red")
    return t


def bracket_tree(result: TournamentResult) -> Tree:
    """The bracket as a rich tree, the final at the root (knockout), or the
    final and the qualifying order (qualify_final), or the standings' top (others)."""
    root = Tree(Text(f"🏆 {result.winner}", style="bold yellow"))
    b = result.bracket
    if result.format == "knockout" and b is not None:
        rounds = b["rounds"]
        names = {len(rounds) - 1: "final", len(rounds) - 2: "semi-final", len(rounds) - 3: "quarter-final"}

        def add(node: Tree, r: int, i: int) -> None:
            tie = rounds[r][i]
            child = node.add(_tie_text(tie, names.get(r, f"round of {2 ** (len(rounds) - r)}")))
            if r > 0:  # byes are first-round ties only
                add(child, r - 1, 2 * i)
                add(child, r - 1, 2 * i + 1)

        add(root, len(rounds) - 1, 0)
        if b.get("third_place"):
            root.add(_tie_text(b["third_place"], "third place"))
    elif result.format == "qualify_final" and b is not None:
        root.add(_tie_text(b, "final"))
        q = root.add(Text("qualifying", style="dim"))
        for s in sorted(result.standings, key=lambda s: s["qualifying_place"]):
            q.add(f"{s['qualifying_place']}. {s['entrant']}  level {s['level']}" + (f", passed A in {s['deals']} deals" if s["passed_a"] else ""))
    else:
        for s in result.standings[:8]:
            root.add(f"{s['place']}. {s['entrant']}")
    return root


# ---------------------------------------------------------------- SVG

_W, _H, _GAP, _PAD = 190, 26, 46, 24
_STYLE = (
    "<style>"
    "text{font-family:'Segoe UI',Helvetica,Arial,sans-serif;font-size:13px;fill:#1f2933}"
    ".title{font-size:17px;font-weight:600}.sub{font-size:11px;fill:#7b8794}"
    ".win{font-weight:600}.lose{fill:#7b8794}.bye{fill:#9aa5b1;font-style:italic}"
    ".score{font-size:12px;font-weight:600;fill:#3e4c59}.note{font-size:10px;fill:#c2410c}"
    ".round{font-size:11px;fill:#52606d;text-transform:uppercase;letter-spacing:1px}"
    "</style>"
)


def _row(x: float, y: float, name: Optional[str], cls: str, score: str, fill: str) -> str:
    shown = escape(name) if name is not None else "bye"
    return (
        f'<rect x="{x}" y="{y}" width="{_W}" height="{_H}" fill="{fill}" stroke="#cbd2d9"/>'
        f'<text x="{x + 8}" y="{y + 17}" class="{cls}">{shown}</text>'
        f'<text x="{x + _W - 8}" y="{y + 17}" class="score" text-anchor="end">{score}</text>'
    )


def _tie_svg(x: float, cy: float, tie: dict[str, Any]) -> str:
    out = []
    for k, side in enumerate(("a", "b")):
        name = tie.get(side)
        y = cy - _H + k * _H
        if name is None:
            out.append(_row(x, y, None if tie.get("bye") else "–", "bye", "", "#f5f7fa"))
            continue
        won = name == tie.get("winner")
        score = str(tie["games"][k]) if "games" in tie else ""
        out.append(_row(x, y, name, "win" if won else "lose", score, "#e3f9e5" if won else "#ffffff"))
    ending = _ending(tie)
    if ending is not None:
        out.append(f'<text x="{x + _W}" y="{cy + _H + 12}" class="note" text-anchor="end">{escape(ending)}</text>')
    return "".join(out)


def _knockout_svg(result: TournamentResult) -> str:
    b = result.bracket
    assert b is not None
    rounds = b["rounds"]
    first = len(rounds[0])
    unit = 2 * _H + 18  # vertical room of one first-round tie
    top = _PAD + 72
    height = top + first * unit + (3 * _H + 30 if b.get("third_place") else 0) + _PAD
    width = _PAD * 2 + (len(rounds) + 1) * (_W + _GAP)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">', _STYLE]
    parts.append(f'<rect width="{width}" height="{height}" fill="#fbfcfd"/>')
    parts.append(f'<text x="{_PAD}" y="{_PAD + 14}" class="title">Knockout · {len(result.entrants)} entrants · seed {result.seed}</text>')
    parts.append(f'<text x="{_PAD}" y="{_PAD + 32}" class="sub">bracket of {b["size"]}; winners in green, games won at the right</text>')
    total = len(rounds)
    for r, ties in enumerate(rounds):
        x = _PAD + r * (_W + _GAP)
        label = {total - 1: "final", total - 2: "semi-finals", total - 3: "quarter-finals"}.get(r, f"round of {2 ** (total - r)}")
        parts.append(f'<text x="{x}" y="{top - 12}" class="round">{label}</text>')
        span = unit * 2**r
        for i, tie in enumerate(ties):
            cy = top + (i + 0.5) * span
            parts.append(_tie_svg(x, cy, tie))
            if r + 1 < total:
                nx = x + _W + _GAP
                ny = top + (i // 2 + 0.5) * span * 2 + (-_H / 2 if i % 2 == 0 else _H / 2)
                mx = x + _W + _GAP / 2
                parts.append(f'<path d="M{x + _W} {cy} H{mx} V{ny} H{nx}" fill="none" stroke="#9aa5b1" stroke-width="1.5"/>')
    # The champion.
    x = _PAD + total * (_W + _GAP)
    cy = top + first * unit / 2
    parts.append(f'<path d="M{x - _GAP} {cy} H{x}" stroke="#9aa5b1" stroke-width="1.5"/>')
    parts.append(f'<rect x="{x}" y="{cy - _H}" width="{_W}" height="{2 * _H}" rx="8" fill="#fff3c4" stroke="#f0b429" stroke-width="2"/>')
    parts.append(f'<text x="{x + _W / 2}" y="{cy - 4}" text-anchor="middle" class="round">champion</text>')
    parts.append(f'<text x="{x + _W / 2}" y="{cy + 15}" text-anchor="middle" class="win">{escape(result.winner)}</text>')
    if b.get("third_place"):
        tp = b["third_place"]
        y = top + first * unit + 30
        x = _PAD + (total - 1) * (_W + _GAP)
        parts.append(f'<text x="{x}" y="{y - 8}" class="round">third place</text>')
        parts.append(_tie_svg(x, y + _H, tp))
    parts.append("</svg>")
    return "".join(parts)


def _standings_svg(result: TournamentResult) -> str:
    cols = _columns(result)
    widths = [56, 200, 90] + [100] * len(cols)
    top = _PAD + 72
    extra = 3 * _H + 20 if result.format == "qualify_final" and result.bracket else 0
    width = _PAD * 2 + sum(widths)
    height = top + (len(result.standings) + 1) * _H + extra + _PAD
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">', _STYLE]
    parts.append(f'<rect width="{width}" height="{height}" fill="#fbfcfd"/>')
    title = result.format.replace("_", " ").title()
    parts.append(f'<text x="{_PAD}" y="{_PAD + 14}" class="title">{escape(title)} · {len(result.entrants)} entrants · seed {result.seed}</text>')
    parts.append(f'<text x="{_PAD}" y="{_PAD + 32}" class="sub">winner: {escape(result.winner)}</text>')
    y = top
    if extra and result.bracket is not None:
        parts.append(f'<text x="{_PAD}" y="{y - 8}" class="round">final</text>')
        parts.append(_tie_svg(_PAD, y + _H, result.bracket))
        y += extra
    heads = ["place", "entrant", "unit"] + [label for _, label in cols]
    x = _PAD
    for w, h in zip(widths, heads):
        parts.append(f'<text x="{x + 6}" y="{y + 17}" class="round">{escape(h)}</text>')
        x += w
    for k, s in enumerate(result.standings):
        y += _H
        fill = "#e3f9e5" if s["place"] == 1 else ("#ffffff" if k % 2 else "#f5f7fa")
        parts.append(f'<rect x="{_PAD}" y="{y}" width="{sum(widths)}" height="{_H}" fill="{fill}"/>')
        cells = [str(s["place"]), s["entrant"], _cell(s.get("unit"))] + [_cell(s.get(key)) for key, _ in cols]
        x = _PAD
        for w, c in zip(widths, cells):
            parts.append(f'<text x="{x + 6}" y="{y + 17}" class="{"win" if s["place"] == 1 else ""}">{escape(c)}</text>')
            x += w
    parts.append("</svg>")
    return "".join(parts)


def bracket_svg(result: TournamentResult) -> str:
    """An SVG picture: the bracket of a knockout, the final and standings of the other formats."""
    return _knockout_svg(result) if result.format == "knockout" and result.bracket else _standings_svg(result)
