"""The `sommelier` console command."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Awaitable, Callable
from importlib.machinery import PathFinder
from importlib.util import find_spec
from pathlib import Path

from core.errors import SettingsError, SommelierError
from core.settings import Settings, get_settings
from repositories.database import resolve_location
from repositories.migrations import migrate
from seeds.loader import DEFAULT_SEED_FILE, load_seed_file
from services.app.catalog.admin import catalog_size, seed_catalog
from services.app.ops.backup import backup, default_backup_path, restore
from services.app.runtime import open_runtime
from services.llm.embeddings import EmbeddingService
from sommelier import event_loop, terminal
from sommelier.health import check_health
from sommelier.logs import configure_logging
from sommelier.picks_file import add_picks_parser

Command = Callable[[argparse.Namespace, Settings], Awaitable[int]]


def _print(text: str) -> None:
    print(text, flush=True)


async def cmd_migrate(args: argparse.Namespace, settings: Settings) -> int:
    async with open_runtime(settings) as rt:
        revision = await migrate(rt.maintenance, args.revision, settings.embedding_dim)
    _print(f"database at revision {revision or 'base'}")
    return 0


async def cmd_seed(args: argparse.Namespace, settings: Settings) -> int:
    records = load_seed_file(Path(args.file))  # a bad file is refused before the database starts
    async with open_runtime(settings) as rt:
        report, total = await seed_catalog(rt.maintenance_sessions, records)
    _print(
        f"seeded {report.total} wines: {report.inserted} inserted, {report.updated} updated, "
        f"{report.unchanged} unchanged; catalog holds {total} wines"
    )
    return 0


async def cmd_import(args: argparse.Namespace, settings: Settings) -> int:
    from sommelier.importing import run_import

    return await run_import(args, settings)


async def cmd_orders(args: argparse.Namespace, settings: Settings) -> int:
    from sommelier.importing import run_orders

    return await run_orders(args, settings)


async def cmd_db_url(args: argparse.Namespace, settings: Settings) -> int:
    _print(resolve_location(settings).masked())
    return 0


async def cmd_catalog(args: argparse.Namespace, settings: Settings) -> int:
    async with open_runtime(settings) as rt:
        await rt.ensure_ready()
        total = await catalog_size(rt.sessions)
    _print(f"catalog holds {total} wines")
    return 0


async def cmd_ask(args: argparse.Namespace, settings: Settings) -> int:
    async with open_runtime(settings) as rt:
        return await terminal.ask(rt, args.text, args.json, args.user)


async def cmd_chat(args: argparse.Namespace, settings: Settings) -> int:
    async with open_runtime(settings) as rt:
        return await terminal.chat(rt)


async def cmd_embed(args: argparse.Namespace, settings: Settings) -> int:
    async with open_runtime(settings) as rt:
        await rt.ensure_ready()
        service = EmbeddingService(settings)
        if not service.available:
            print(
                "sommelier: set EMBEDDING_API_KEY (or LLM_API_KEY) to compute embeddings",
                file=sys.stderr,
            )
            return 2

        async def progress(done: int, total: int) -> None:
            _print(f"embedded {done}/{total}")

        try:
            report = await service.embed_catalog(rt.maintenance_sessions, args.batch_size, progress)
        finally:
            await service.close()
    _print(
        f"embedded {report.embedded} wines with {settings.embedding_model}; "
        f"{report.remaining} without a current vector"
    )
    return 0 if report.remaining == 0 else 1


async def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    """The bot (with the web chat when HTTP_PORT is set); without a token the web chat when
    HTTP_PORT is set (the HTTP API too only behind API_TOKEN), else the terminal chat."""
    from sommelier.serve import http_port_set, serve

    if settings.telegram_bot_token:
        return await cmd_bot(args, settings)
    if http_port_set(settings):
        return await serve(settings, api=bool(settings.api_token))
    return await cmd_chat(args, settings)


async def cmd_bot(args: argparse.Namespace, settings: Settings) -> int:
    from sommelier.serve import run_bot

    return await run_bot(settings)


async def cmd_bench(args: argparse.Namespace, settings: Settings) -> int:
    """Reached only through options before `bench` (e.g. `sommelier -v bench`)."""
    return _exec_bench("bench", [])


def _exec_bench(command: str, arguments: list[str]) -> int:
    """The benchmarks and the evaluation are programs of their own in the repository's `bench/`:
    hand the process over with its arguments. The wheel does not ship them, so from an
    installed wheel this says where they are instead of failing on an import."""
    module = "bench.eval" if command == "eval" else "bench"
    # `python -m` looks in the working directory first, then on the path.
    if find_spec("bench") is None and PathFinder.find_spec("bench", [os.getcwd()]) is None:
        print(
            f"sommelier: `sommelier {command}` needs the repository checkout: the benchmarks "
            "and the evaluation sets (bench/) are not part of the installed package. In a clone "
            f"of the repository, after `make test`, run `.venv/bin/sommelier {command}`.",
            file=sys.stderr,
        )
        return 2
    os.execv(sys.executable, [sys.executable, "-m", module, *arguments])


async def cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    """Reached only through options before `eval` (e.g. `sommelier -v eval`)."""
    return _exec_bench("eval", [])


async def cmd_backup(args: argparse.Namespace, settings: Settings) -> int:
    async with open_runtime(settings) as rt:
        await rt.ensure_ready()
        path = Path(args.path) if args.path else default_backup_path(settings.backups_path)
        report = await backup(rt, path)
    _print("backup written: " + "\n".join(report.lines()))
    return 0


async def cmd_restore(args: argparse.Namespace, settings: Settings) -> int:
    async with open_runtime(settings) as rt:
        report = await restore(rt, Path(args.path), force=args.force)
    _print("restored: " + "\n".join(report.lines()))
    return 0


async def cmd_health(args: argparse.Namespace, settings: Settings) -> int:
    ok, lines = await check_health(settings)
    _print(("healthy: " if ok else "unhealthy: ") + "; ".join(lines))
    return 0 if ok else 1


async def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from sommelier.serve import serve

    return await serve(settings, args.host, args.port)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sommelier", description="A wine sommelier bot.")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("migrate", help="upgrade the database schema (to head by default)")
    p.add_argument("--revision", default="head", help="target revision (e.g. head, base, 0001)")
    p.set_defaults(handler=cmd_migrate)

    p = sub.add_parser("seed", help="load (upsert) the wine catalog from a JSON file")
    p.add_argument("--file", default=str(DEFAULT_SEED_FILE), help="seed file (JSON array)")
    p.set_defaults(handler=cmd_seed)

    p = sub.add_parser("import", help="import a shop's catalog: YML feed, CSV/XLSX, JSON")
    p.add_argument("source", help="a file path or an http(s) URL")
    p.add_argument("--format", choices=["json", "csv", "xlsx", "yml"], default=None)
    p.add_argument("--sync", action="store_true", help="wines absent from the feed: unavailable")
    p.add_argument("--dry-run", action="store_true", help="check and report, write nothing")
    p.add_argument("--strict", action="store_true", help="any problem row: write nothing")
    p.add_argument("--mapping", help='JSON file {"their header": "our field"}')
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=cmd_import)

    p = sub.add_parser("orders", help="import the shop's orders: CSV/XLSX or JSON, file or URL")
    p.add_argument("source", help="a file path or an http(s) URL")
    p.add_argument("--mapping", help='JSON file {"their header": "our field"}')
    p.add_argument("--dry-run", action="store_true", help="check and report, write nothing")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=cmd_orders)
    add_picks_parser(sub)

    p = sub.add_parser("db-url", help="print the database URL in use (password masked)")
    p.set_defaults(handler=cmd_db_url)

    p = sub.add_parser("ask", help="answer one question")
    p.add_argument("text", help='the question, e.g. "красное сухое к стейку до 2000"')
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--user", type=int, default=None, help="Telegram id whose profile to use")
    p.set_defaults(handler=cmd_ask)

    p = sub.add_parser("chat", help="a conversation in the terminal")
    p.set_defaults(handler=cmd_chat)

    p = sub.add_parser("embed", help="compute missing or stale wine embeddings")
    p.add_argument("--batch-size", type=int, default=64)
    p.set_defaults(handler=cmd_embed)

    p = sub.add_parser("bot", help="run the Telegram bot (polling, or webhook with WEBHOOK_URL)")
    p.set_defaults(handler=cmd_bot)

    p = sub.add_parser("serve", help="the HTTP API (and the webhook when WEBHOOK_URL is set)")
    p.add_argument("--host", default=None, help="bind address (default HTTP_HOST)")
    p.add_argument("--port", type=int, default=None, help="port (default HTTP_PORT)")
    p.set_defaults(handler=cmd_serve)

    p = sub.add_parser("backup", help="a consistent dump of the whole database (custom format)")
    p.add_argument("path", nargs="?", help="the file (default BACKUP_DIR/sommelier-<time>.dump)")
    p.set_defaults(handler=cmd_backup)

    p = sub.add_parser("restore", help="restore a backup into an empty database, then migrate")
    p.add_argument("path", help="a file written by `sommelier backup`")
    p.add_argument("--force", action="store_true", help="replace a database that is not empty")
    p.set_defaults(handler=cmd_restore)

    p = sub.add_parser("health", help="exit 0 when the database and Telegram are reachable")
    p.set_defaults(handler=cmd_health)

    p = sub.add_parser(
        "run",
        help="the bot when TELEGRAM_BOT_TOKEN is set, else the web chat when HTTP_PORT is set, "
        "else the terminal chat",
    )
    p.set_defaults(handler=cmd_run)

    p = sub.add_parser("catalog", help="migrate, seed when empty and print the catalog size")
    p.set_defaults(handler=cmd_catalog)

    # Listed for --help only: `main` hands `sommelier bench …` to `python -m bench` untouched.
    p = sub.add_parser("bench", help="benchmarks and the chaos soak (`sommelier bench --help`)")
    p.set_defaults(handler=cmd_bench)
    # Listed for --help only: `main` hands `sommelier eval …` to `python -m bench.eval`.
    p = sub.add_parser(
        "eval", help="golden multi-turn dialogs, offline and agent paths (`sommelier eval --help`)"
    )
    p.set_defaults(handler=cmd_eval)
    return parser


def chat_log_file(args: argparse.Namespace, settings: Settings) -> Path | None:
    """The terminal chat shows only the conversation: its log goes to DATA_DIR/logs/chat.log
    (`-v` keeps it on the terminal, with debug lines)."""
    chat = args.handler is cmd_chat or (args.handler is cmd_run and not settings.telegram_bot_token)
    if not chat or args.verbose:
        return None
    return Path(settings.data_dir).expanduser() / "logs" / "chat.log"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["bench"], ["eval"]):
        return _exec_bench(argv[0], argv[1:])
    args = build_parser().parse_args(argv)
    try:
        settings = get_settings()
        log_file = chat_log_file(args, settings)
        configure_logging(settings.log_format, verbose=args.verbose, log_file=log_file)
        if log_file is not None:
            print(f"(журнал: {log_file})", file=sys.stderr)
        handler: Command = args.handler
        return event_loop.run(handler(args, settings), settings.event_loop)
    except SettingsError as exc:
        print(f"sommelier: {exc}", file=sys.stderr)
        return 2
    except SommelierError as exc:
        print(f"sommelier: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
