"""Sparring of the rule policy with its parameters set, one run per setting.

Needs the extension built with the ``tuning`` feature (``maturin develop
--release -F tuning``), under which ``rule_based::param`` reads
``GUANDAN_RULE_PARAMS`` (``name=value,...``). Each setting is one
``benches/sparring.py`` run with that variable set (the server's built-in
bots inherit it), its records in a folder of its own under ``--records``;
the arguments after ``--`` go to sparring.py as they are.

    python benches/rule_tuning.py --setting "" --setting race=1 -- \\
        --field benches/field --against ai1,ai4 --matches 8 --games-per-match 5
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def folder_name(setting: str) -> str:
    """The records folder of a setting (``default`` for none)."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", setting) or "default"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--setting", action="append", default=[], help="a GUANDAN_RULE_PARAMS value (repeatable; '' = the defaults)")
    ap.add_argument("--records", type=Path, default=HERE / "sparring-records" / "tuning", help="folder of the settings' records")
    ap.add_argument("rest", nargs=argparse.REMAINDER, help="-- then sparring.py's arguments")
    a = ap.parse_args()
    rest = a.rest[1:] if a.rest[:1] == ["--"] else a.rest
    for setting in a.setting or [""]:
        env = dict(os.environ, GUANDAN_RULE_PARAMS=setting)
        records = a.records / folder_name(setting)
        print(f"== {setting or 'defaults'}", flush=True)
        cmd = [sys.executable, str(HERE / "sparring.py"), "--ours", "rule", "--records", str(records), *rest]
        subprocess.run(cmd, env=env, check=True)


if __name__ == "__main__":
    main()
