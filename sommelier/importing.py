"""`sommelier import`: the CLI face of services.app.catalog.importer."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.errors import CatalogFileError
from core.settings import Settings
from services.app.catalog.importer import import_catalog, load_mapping
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
