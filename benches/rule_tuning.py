"""Sparring of a policy with the rule policy's or the focused search's
parameters set, one run per setting, each later setting compared with the
first on the same deals.

Needs the extension built with the ``tuning`` feature (``maturin develop
--release -F python,tuning``; the ``python`` feature is named too, since
features given on the command line replace the ones ``pyproject.toml``
sets), under which ``search::tuning::param`` reads
``GUANDAN_RULE_PARAMS`` (``name=value,...``): the rule policy's constants
(``rust/search/choosers/rule_based.rs``), the race of the focused search
(``rounds``, and ``drop_z``, ``keep_z`` in hundredths of a standard error)
and the model of its weighted worlds (``infer_cards``: the decisions read
are those taken with at most this many cards; ``infer_eps``: ε in
hundredths).
Each setting is one ``benches/sparring.py`` run of ``--ours`` with that
variable set (the server's built-in bots inherit it), its records in a
folder of its own under ``--records``; the arguments after ``--`` go to
sparring.py as they are. Then every later setting's games are compared
with the first's on the same seeds and seats (``sparring_stats.paired``), most
telling on single deals (``--serve-arg=--max-deals=1``).

    python benches/rule_tuning.py --setting "" --setting race=1 -- \\
        --field benches/field --against ai1,ai4 --matches 8 --games-per-match 5
    python benches/rule_tuning.py --ours best --setting "" --setting keep_z=0 -- \\
        --field benches/field --against ai2 --matches 10 --games-per-match 10 --serve-arg=--max-deals=1
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import sparring  # noqa: E402
import sparring_stats  # noqa: E402


def folder_name(setting: str) -> str:
    """The records folder of a setting (``default`` for none)."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", setting) or "default"


def compare(records: Path, settings: list[str]) -> list[dict[str, object]]:
    """Each later setting's games against the first's on the same deals,
    pair folder by pair folder (`sparring_stats.paired`, with ``policy`` naming
    the setting, ``base`` the first and ``entrant``)."""
    base = records / folder_name(settings[0])
    out: list[dict[str, object]] = []
    for setting in settings[1:]:
        for folder in sorted(p for p in (records / folder_name(setting)).iterdir() if p.is_dir()):
            if not (base / folder.name).is_dir():
                continue
            c = sparring_stats.paired(sparring.pair_games(base / folder.name), sparring.pair_games(folder))
            entrant = sparring.read_attempts(folder)[0]["entrant"]
            c.update(policy=setting or "defaults", base=settings[0] or "defaults", entrant=entrant)
            out.append(c)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--setting", action="append", default=[], help="a GUANDAN_RULE_PARAMS value (repeatable; '' = the defaults)")
    ap.add_argument("--ours", default="rule", help="the policy played under each setting (default rule)")
    ap.add_argument("--report", action="store_true", help="play nothing; compare the settings' records")
    ap.add_argument("--records", type=Path, default=HERE / "sparring-records" / "tuning", help="folder of the settings' records")
    ap.add_argument("rest", nargs=argparse.REMAINDER, help="-- then sparring.py's arguments")
    a = ap.parse_args()
    rest = a.rest[1:] if a.rest[:1] == ["--"] else a.rest
    settings = a.setting or [""]
    for setting in [] if a.report else settings:
        env = dict(os.environ, GUANDAN_RULE_PARAMS=setting)
        records = a.records / folder_name(setting)
        print(f"== {setting or 'defaults'}", flush=True)
        cmd = [sys.executable, str(HERE / "sparring.py"), "--ours", a.ours, "--records", str(records), *rest]
        subprocess.run(cmd, env=env, check=True)
    comparisons = compare(a.records, settings)
    if comparisons:
        print(sparring_stats.paired_markdown(comparisons))


if __name__ == "__main__":
    main()
