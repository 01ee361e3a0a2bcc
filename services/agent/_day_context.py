"""Calendar context of "today" for the sommelier: weekday, season, time of day, holidays.

Pure functions over a datetime, so the LLM prompt and proactive picks can mention the
occasion ("скоро Новый год", "пятничный вечер") without any I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from core.domain import WINE_TYPE_RU, WineType

MOSCOW_TZ = ZoneInfo("Europe/Moscow")
HOLIDAY_HORIZON_DAYS = 14

WEEKDAYS_RU: tuple[str, ...] = (
    "понедельник",
    "вторник",
    "среда",
    "четверг",
    "пятница",
    "суббота",
    "воскресенье",
)

MONTHS_GENITIVE_RU: tuple[str, ...] = (
    "января",
    "февраля",
    "марта",
    "апреля",
    "мая",
    "июня",
    "июля",
    "августа",
    "сентября",
    "октября",
    "ноября",
    "декабря",
)

NEW_YEAR = "Новый год"
NEW_YEAR_EVE = "Новогодняя ночь"
CHRISTMAS = "Рождество"
OLD_NEW_YEAR = "Старый Новый год"
VALENTINES_DAY = "День святого Валентина"
DEFENDER_DAY = "День защитника Отечества"
WOMENS_DAY = "Международный женский день"
EASTER = "Пасха"
LABOUR_DAY = "Праздник Весны и Труда"
VICTORY_DAY = "День Победы"
RUSSIA_DAY = "День России"
UNITY_DAY = "День народного единства"

# Fixed-date holidays as (name, month, day); Easter is computed per year.
_FIXED_HOLIDAYS: tuple[tuple[str, int, int], ...] = (
    (NEW_YEAR, 1, 1),
    (CHRISTMAS, 1, 7),
    (OLD_NEW_YEAR, 1, 14),
    (VALENTINES_DAY, 2, 14),
    (DEFENDER_DAY, 2, 23),
    (WOMENS_DAY, 3, 8),
    (LABOUR_DAY, 5, 1),
    (VICTORY_DAY, 5, 9),
    (RUSSIA_DAY, 6, 12),
    (UNITY_DAY, 11, 4),
    (NEW_YEAR_EVE, 12, 31),
)

_FESTIVE = (WineType.sparkling, WineType.rose)

# Holidays without an entry here give no wine hint; the season decides instead.
_HOLIDAY_WINES: dict[str, tuple[WineType, ...]] = {
    NEW_YEAR: _FESTIVE,
    NEW_YEAR_EVE: _FESTIVE,
    OLD_NEW_YEAR: (WineType.sparkling,),
    CHRISTMAS: (WineType.red, WineType.dessert),
    VALENTINES_DAY: _FESTIVE,
    WOMENS_DAY: _FESTIVE,
    DEFENDER_DAY: (WineType.red, WineType.fortified),
    EASTER: (WineType.red, WineType.dessert),
    LABOUR_DAY: (WineType.rose, WineType.white),
    VICTORY_DAY: (WineType.red,),
}

WINTER, SPRING, SUMMER, AUTUMN = "зима", "весна", "лето", "осень"

_SEASON_BY_MONTH: dict[int, str] = {
    12: WINTER,
    1: WINTER,
    2: WINTER,
    3: SPRING,
    4: SPRING,
    5: SPRING,
    6: SUMMER,
    7: SUMMER,
    8: SUMMER,
    9: AUTUMN,
    10: AUTUMN,
    11: AUTUMN,
}

_SEASON_WINES: dict[str, tuple[WineType, ...]] = {
    WINTER: (WineType.red, WineType.fortified),
    SPRING: (WineType.white, WineType.rose),
    SUMMER: (WineType.rose, WineType.white, WineType.sparkling),
    AUTUMN: (WineType.red, WineType.white),
}

_SEASON_HINTS: dict[str, str] = {
    WINTER: "зима: насыщенные красные, крепленые",
    SPRING: "весна: свежие белые, розовые",
    SUMMER: "лето: розовые, легкие белые, игристые",
    AUTUMN: "осень: красные, выдержанные белые",
}

MORNING, DAYTIME, EVENING, NIGHT = "утро", "день", "вечер", "ночь"
FRIDAY, SATURDAY = 4, 5
EVENING_START_HOUR = 17


@dataclass(frozen=True)
class Holiday:
    name: str
    date: date
    days_until: int

    def when_ru(self) -> str:
        if self.days_until == 0:
            return "сегодня"
        if self.days_until == 1:
            return "завтра"
        return f"через {self.days_until} дн."


@dataclass(frozen=True)
class DayContext:
    now: datetime
    weekday: str
    season: str
    time_of_day: str
    holidays: list[Holiday] = field(default_factory=list)
    is_weekend: bool = False
    is_friday_evening: bool = False

    def to_prompt_block(self) -> str:
        """Compact Russian block for the system prompt, e.g.

        «Сегодня: суббота, 19 декабря 2026, вечер, зима. Скоро: Новый год (через 13 дн.).»
        """
        today = f"{self.now.day} {MONTHS_GENITIVE_RU[self.now.month - 1]} {self.now.year}"
        block = f"Сегодня: {self.weekday}, {today}, {self.time_of_day}, {self.season}."
        if self.holidays:
            upcoming = ", ".join(f"{h.name} ({h.when_ru()})" for h in self.holidays)
            block += f" Скоро: {upcoming}."
        return block

    def occasion_hints(self) -> list[str]:
        hints = [_holiday_hint(holiday) for holiday in self.holidays]
        if self.is_friday_evening:
            hints.append("пятничный вечер")
        if self.is_weekend:
            hints.append("выходные")
        hints.append(_SEASON_HINTS[self.season])
        return hints

    def suggested_wine_types(self) -> list[WineType]:
        candidates: list[WineType] = []
        for holiday in self.holidays:
            candidates.extend(_HOLIDAY_WINES.get(holiday.name, ()))
        candidates.extend(_SEASON_WINES[self.season])
        return list(dict.fromkeys(candidates))


def _holiday_hint(holiday: Holiday) -> str:
    wines = _HOLIDAY_WINES.get(holiday.name)
    if not wines:
        return f"{holiday.name}: праздничный стол"
    return f"{holiday.name}: " + ", ".join(WINE_TYPE_RU[wine] for wine in wines)


def orthodox_easter(year: int) -> date:
    """Orthodox Easter (Gregorian date) via the Meeus Julian algorithm."""
    a, b, c = year % 4, year % 7, year % 19
    d = (19 * c + 15) % 30
    e = (2 * a + 4 * b - d + 34) % 7
    month, day = divmod(d + e + 114, 31)
    julian = date(year, month, day + 1)
    # Julian-to-Gregorian offset for March-May: 13 days in 1900-2099, general beyond that.
    offset = year // 100 - year // 400 - 2
    return julian + timedelta(days=offset)


def russian_holidays(year: int) -> list[tuple[str, date]]:
    """Holidays of the given year in calendar order."""
    holidays = [(name, date(year, month, day)) for name, month, day in _FIXED_HOLIDAYS]
    holidays.append((EASTER, orthodox_easter(year)))
    return sorted(holidays, key=lambda item: item[1])


def upcoming_holidays(today: date, horizon_days: int = HOLIDAY_HORIZON_DAYS) -> list[Holiday]:
    """Holidays from today up to horizon_days ahead, nearest first; crosses the year boundary."""
    found: list[Holiday] = []
    for year in (today.year, today.year + 1):
        for name, day in russian_holidays(year):
            days_until = (day - today).days
            if 0 <= days_until <= horizon_days:
                found.append(Holiday(name=name, date=day, days_until=days_until))
    return sorted(found, key=lambda holiday: holiday.days_until)


def season_of(month: int) -> str:
    return _SEASON_BY_MONTH[month]


def time_of_day(hour: int) -> str:
    if 5 <= hour <= 11:
        return MORNING
    if 12 <= hour <= 16:
        return DAYTIME
    if 17 <= hour <= 22:
        return EVENING
    return NIGHT


def _localize(now: datetime | None, tz: ZoneInfo) -> datetime:
    if now is None:
        return datetime.now(tz)
    if now.tzinfo is None:
        return now.replace(tzinfo=tz)
    return now.astimezone(tz)


def build_day_context(now: datetime | None = None, tz: ZoneInfo = MOSCOW_TZ) -> DayContext:
    """Context for `now` (default: current time); naive datetimes are taken as `tz` local time."""
    local = _localize(now, tz)
    weekday = local.weekday()
    return DayContext(
        now=local,
        weekday=WEEKDAYS_RU[weekday],
        season=season_of(local.month),
        time_of_day=time_of_day(local.hour),
        holidays=upcoming_holidays(local.date()),
        is_weekend=weekday >= SATURDAY,
        is_friday_evening=weekday == FRIDAY and local.hour >= EVENING_START_HOUR,
    )
