"""Import a shop's catalog (YML feed, CSV/XLSX export, our JSON) into the wines table."""

from services.app.catalog.importer.apply import ImportReport, import_catalog
from services.app.catalog.importer.formats import FORMATS, Format
from services.app.catalog.importer.mapping import load_mapping

__all__ = ["FORMATS", "Format", "ImportReport", "import_catalog", "load_mapping"]
