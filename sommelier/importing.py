"""`sommelier import` and `sommelier orders`: the CLI faces of the catalog's and the orders'
imports."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.errors import CatalogFileError, OrderFileError
from core.settings import Settings
from services.app.catalog.importer import import_catalog, load_mapping
from services.app.container import build_services
from services.app.orders.fields import load_order_mapping
from services.app.runtime import open_runtime
from services.llm.embeddings import EmbeddingService


async def run_import(args: argparse.Namespace, settings: Settings) -> int:
    mapping = load_mapping(Path(args.mapping)) if args.mapping else None
    async with open_runtime(settings) as rt:
        await rt.ensure_ready()
        try:
            report = await import_catalog(
                rt.maintenance_sessions,
                args.source,
                fmt=args.format,
                sync=args.sync,
                dry_run=args.dry_run,
                strict=args.strict,
                mapping=mapping,
            )
        except CatalogFileError as exc:
            if args.json:
                problems = [
                    getattr(p, "as_dict", lambda p=p: {"problem": str(p)})() for p in exc.problems
                ]
                print(json.dumps({"error": exc.summary, "skipped": problems}, ensure_ascii=False))
                return 1
            raise
        if report.applied and (report.inserted or report.updated):
            await _embed_changed(rt.maintenance_sessions, settings)
    if args.json:
        print(json.dumps(report.as_dict(), ensure_ascii=False), flush=True)
    else:
        print(report.summary(), flush=True)
        for problem in report.skipped[:50]:
            print(f"  skipped {problem}", flush=True)
        if len(report.skipped) > 50:
            print(f"  … and {len(report.skipped) - 50} more problems", flush=True)
    return 0


async def _embed_changed(sessions: object, settings: Settings) -> None:
    """Changed rows lost their vector on update; compute the missing ones when a key is set."""
    service = EmbeddingService(settings)
    if not service.available:
        return
    try:
        await service.embed_catalog(sessions)  # type: ignore[arg-type]
    except Exception as exc:  # the import itself is committed; embedding can be re-run
        print(f"sommelier: embedding after the import failed: {exc}", file=sys.stderr)
    finally:
        await service.close()


async def run_orders(args: argparse.Namespace, settings: Settings) -> int:
    """The shop's orders from a file or URL: checked, upserted by order id, attributed."""
    mapping = load_order_mapping(Path(args.mapping)) if args.mapping else None
    async with open_runtime(settings) as rt:
        await rt.ensure_ready()
        services = build_services(rt)
        try:
            report = await services.orders.import_source(
                args.source, mapping=mapping, dry_run=args.dry_run
            )
        except OrderFileError as exc:
            if args.json:
                problems = [getattr(p, "as_dict", lambda p=p: str(p))() for p in exc.problems]
                print(json.dumps({"error": exc.summary, "problems": problems}, ensure_ascii=False))
                return 1
            raise
        finally:
            await services.close()
    if args.json:
        print(json.dumps(report.as_dict(), ensure_ascii=False), flush=True)
        return 0
    print(report.summary(), flush=True)
    for problem in report.problems[:50]:
        print(f"  {problem}", flush=True)
    if len(report.problems) > 50:
        print(f"  … and {len(report.problems) - 50} more problems", flush=True)
    return 0
