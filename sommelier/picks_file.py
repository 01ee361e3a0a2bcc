"""`sommelier picks import FILE` and `sommelier picks export`: the shop's boost and bury rules
as a file (docs/shop-picks.md), for scripts. An import replaces every rule in force, in one
transaction; a file with any bad rule changes nothing and names each bad one."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.errors import PickRuleError
from core.settings import Settings
from services.app.console.reports import ConsoleService
from services.app.database import Database
from services.app.picks.rules import ShopRules
from services.app.picks.rules_file import Format, parse_rules
from services.app.runtime import open_runtime


def add_picks_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("picks", help="the shop's boost and bury rules as a file (CSV or JSON)")
    picks = p.add_subparsers(dest="picks_command", required=True)
    q = picks.add_parser("import", help="replace every rule with the file's (CSV or JSON)")
    q.add_argument("file", help="the rules file; .json is JSON, anything else CSV")
    q.add_argument("--format", choices=["csv", "json"], default=None)
    q.set_defaults(handler=run_picks)
    q = picks.add_parser("export", help="print the rules (CSV by default)")
    q.add_argument("--format", choices=["csv", "json"], default="csv")
    q.add_argument("--output", help="write to this file instead of the terminal")
    q.set_defaults(handler=run_picks)


def _format(args: argparse.Namespace) -> Format:
    if args.format:
        return args.format  # type: ignore[no-any-return]
    return "json" if Path(args.file).suffix.lower() == ".json" else "csv"


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise PickRuleError(f"cannot read the rules file {path}: {exc}") from None


def _write(path: str, text: str) -> None:
    Path(path).write_text(text, encoding="utf-8")


async def run_picks(args: argparse.Namespace, settings: Settings) -> int:
    # A bad file is refused before the database starts.
    read = parse_rules(_read(args.file), _format(args)) if args.picks_command == "import" else []
    async with open_runtime(settings) as rt:
        await rt.ensure_ready()
        database = Database(rt.sessions)
        rules = ShopRules(database, ConsoleService(database, settings))
        if args.picks_command == "import":
            count = await rules.replace(read)
            print(f"{count} rule(s) in force (the previous ones replaced)", flush=True)
            return 0
        exported = await rules.export(args.format)
    if args.output:
        _write(args.output, exported)
    else:
        sys.stdout.write(exported)
        sys.stdout.flush()
    return 0
