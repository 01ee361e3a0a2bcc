"""The shop's own picks as the owner manages them: boost and bury rules listed, added, deleted,
loaded from and written to a file, and how the boosted wines did against the rest.

The rules only re-order wines that already fit a request (core/shop_picks.py; applied by the
agent on every path). The comparison splits the wines active in the period by what the rules
in force at some time in it say of them now: boosted, buried, or neither."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.shop_picks import PickRule, make_rule
from repositories import shop_picks as q
from services.agent import shop_today
from services.app.console.reports import ConsoleService, Window
from services.app.database import Database
from services.app.picks.rules_file import COLUMNS, Format, format_rules, parse_rules

ACTION_NAMES = {"boost": "Поднять", "bury": "Опустить"}
FIELD_NAMES = {
    "wine": "Вино",
    "producer": "Производитель",
    "country": "Страна",
    "tag": "Метка",
    "margin": "Маржа от, %",
}
GROUP_NAMES = {"boost": "Поднятые", "bury": "Опущенные", "none": "Остальные"}
METRICS = ("shown", "up", "down", "clicks", "orders")


@dataclass(frozen=True)
class RuleRow:
    rule: PickRule
    wines: int  # wines on sale it names now
    active: bool  # in force today
    wine_name: str | None = None  # a `wine` rule: the wine's name, when it names one


class ShopRules:
    def __init__(self, database: Database, console: ConsoleService) -> None:
        self._database = database
        self._console = console

    async def rules(self) -> list[RuleRow]:
        today = shop_today()
        rows = []
        async with self._database.single() as s:
            for rule in await q.list_rules(s):
                named = await q.wines_named(s, rule)
                name = None
                if rule.field == "wine" and len(named) == 1:
                    name = (await q.wine_names(s, named)).get(named[0])
                rows.append(RuleRow(rule, len(named), rule.active_on(today), name))
        return rows

    async def add(self, fields: dict[str, Any], admin_id: int | None = None) -> PickRule:
        """A rule from the console's form (`PickRuleError` says what is wrong)."""
        rule = make_rule(*(fields.get(k) for k in COLUMNS))
        async with self._database.sessions() as s:
            (rule_id,) = await q.add_rules(s, [rule], admin_id)
            await s.commit()
        return PickRule(**{**rule.__dict__, "id": rule_id})

    async def delete(self, rule_id: int) -> bool:
        async with self._database.sessions() as s:
            deleted = await q.delete_rule(s, rule_id)
            await s.commit()
        return deleted

    async def replace_from(self, text: str, fmt: Format) -> int:
        """Every rule of the file in place of the ones in force, in one transaction; a bad
        file changes nothing (`PickRuleError` lists its bad rows)."""
        return await self.replace(parse_rules(text, fmt))

    async def replace(self, rules: list[PickRule]) -> int:
        async with self._database.sessions() as s:
            await q.delete_all_rules(s)
            await q.add_rules(s, rules)
            await s.commit()
        return len(rules)

    async def export(self, fmt: Format) -> str:
        async with self._database.single() as s:
            return format_rules(await q.list_rules(s), fmt)

    async def compare(self, w: Window) -> dict[str, list[dict[str, Any]]]:
        """Boosted, buried and other wines (the rules that were in force at some time in the
        period, as they name wines now): shows, 👍, 👎, clicks and orders; and per rule."""
        await self._console.refresh()
        async with self._database.single() as s:
            rules = [
                r for r in await q.list_rules(s) if r.overlaps(w.current.first, w.current.last)
            ]
            picks = await q.resolve_rules(s, rules)
            activity = await q.wine_activity(s, w.current)
            named = {r.id: set(await q.wines_named(s, r)) for r in rules}
        by_wine = {row["wine_id"]: row for row in activity}
        groups = {name: _totals(GROUP_NAMES[name]) for name in GROUP_NAMES}
        for wine_id, row in by_wine.items():
            standing = ("boost", "none", "bury")[picks.standing(wine_id)]
            _add(groups[standing], row)
        per_rule = []
        for rule in rules:
            totals = _totals(
                f"{ACTION_NAMES[rule.action]}: {FIELD_NAMES[rule.field]} = {rule.value}"
            )
            totals["wines"] = len(named[rule.id])
            for wine_id in named[rule.id]:
                if wine_id in by_wine:
                    _add(totals, by_wine[wine_id], count_wine=False)
            per_rule.append(_rates(totals))
        return {
            "groups": [_rates(groups[name]) for name in GROUP_NAMES],
            "rules": per_rule,
        }


def rule_label(rule: PickRule) -> str:
    return f"{ACTION_NAMES[rule.action]}: {FIELD_NAMES[rule.field]} = {rule.value}"


def _totals(label: str) -> dict[str, Any]:
    return {"group": label, "wines": 0} | dict.fromkeys(METRICS, 0)


def _add(totals: dict[str, Any], row: dict[str, Any], count_wine: bool = True) -> None:
    if count_wine:
        totals["wines"] += 1
    for key in METRICS:
        totals[key] += int(row[key])


def _rates(totals: dict[str, Any]) -> dict[str, Any]:
    shown = totals["shown"]
    totals["click_rate"] = round(100 * totals["clicks"] / shown, 1) if shown else None
    totals["up_rate"] = round(100 * totals["up"] / shown, 1) if shown else None
    return totals
