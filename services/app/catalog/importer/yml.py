"""Yandex Market YML feeds (yml_catalog → shop → offers → offer), parsed with defusedxml:
a feed is untrusted input, so entity expansion, external entities and DTDs are refused."""

from __future__ import annotations

from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from core.errors import CatalogFileError
from services.app.catalog.importer.mapping import FieldMapper
from services.app.catalog.importer.rows import RawRow

_DIRECT = {
    "name": "name",
    "vendor": "producer",
    "model": "model",
    "url": "url",
    "price": "price_rub",
    "oldprice": "old_price_rub",
    "currencyId": "currency",
    "picture": "image_url",
    "description": "description",
    "country_of_origin": "country",
    "barcode": "barcode",
    "count": "stock",
}


def read_yml(data: bytes, mapper: FieldMapper) -> list[RawRow]:
    try:
        root = fromstring(data, forbid_dtd=True)
    except DefusedXmlException as exc:
        raise CatalogFileError(
            f"the feed uses XML features refused for safety ({type(exc).__name__}); "
            "nothing was written"
        ) from None
    except ParseError as exc:
        raise CatalogFileError(f"the feed is not well-formed XML: {exc}") from None
    if root.tag != "yml_catalog":
        raise CatalogFileError(f"not a YML feed: the root element is <{root.tag}>")
    offers = root.find("shop/offers")
    if offers is None:
        raise CatalogFileError("the YML feed has no shop/offers element")
    return [_row(i, offer, mapper) for i, offer in enumerate(offers.findall("offer"), start=1)]


def _text(element: Element) -> str:
    return "".join(element.itertext()).strip()


def _row(index: int, offer: Element, mapper: FieldMapper) -> RawRow:
    row = RawRow(row=index, id=(offer.get("id") or "").strip() or None)
    if row.id:
        row.fields["external_id"] = row.id
    if offer.get("available") is not None:
        row.fields["available"] = offer.get("available", "")
    for child in offer:
        if child.tag == "param":
            field = mapper.field(child.get("name", ""))
            if field is None:
                continue
            value = _text(child)
            unit = (child.get("unit") or "").strip()
            if unit and field in ("volume_l", "alcohol"):
                value = f"{value} {unit}"
            row.fields.setdefault(field, value)
        elif child.tag in _DIRECT:
            row.fields.setdefault(_DIRECT[child.tag], _text(child))
    if "name" not in row.fields and "model" in row.fields:
        # The vendor.model offer type: the wine's name is vendor + model.
        vendor = row.fields.get("producer", "")
        row.fields["name"] = f"{vendor} {row.fields['model']}".strip()
    return row
