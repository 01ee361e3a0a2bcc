from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from core.domain import WineType
from services.agent._day_context import (
    MOSCOW_TZ,
    DayContext,
    Holiday,
    build_day_context,
    orthodox_easter,
    russian_holidays,
    upcoming_holidays,
)


def _ctx(*args: int) -> DayContext:
    return build_day_context(datetime(*args))  # type: ignore[arg-type]


def _holiday_names(ctx: DayContext) -> list[str]:
    return [holiday.name for holiday in ctx.holidays]


@pytest.mark.parametrize(
    ("year", "expected"),
    [
        (2024, date(2024, 5, 5)),
        (2025, date(2025, 4, 20)),
        (2026, date(2026, 4, 12)),
        (2027, date(2027, 5, 2)),
        (2030, date(2030, 4, 28)),
    ],
)
def test_orthodox_easter(year: int, expected: date) -> None:
    assert orthodox_easter(year) == expected
    assert ("Пасха", expected) in russian_holidays(year)


def test_easter_is_always_a_sunday_in_spring() -> None:
    for year in range(1900, 2100):
        easter = orthodox_easter(year)
        assert easter.weekday() == 6
        assert date(year, 4, 4) <= easter <= date(year, 5, 8)


def test_russian_holidays_fixed_dates_and_order() -> None:
    holidays = russian_holidays(2026)
    as_dict = dict(holidays)
    assert as_dict["Новый год"] == date(2026, 1, 1)
    assert as_dict["Рождество"] == date(2026, 1, 7)
    assert as_dict["Старый Новый год"] == date(2026, 1, 14)
    assert as_dict["День святого Валентина"] == date(2026, 2, 14)
    assert as_dict["День защитника Отечества"] == date(2026, 2, 23)
    assert as_dict["Международный женский день"] == date(2026, 3, 8)
    assert as_dict["Праздник Весны и Труда"] == date(2026, 5, 1)
    assert as_dict["День Победы"] == date(2026, 5, 9)
    assert as_dict["День России"] == date(2026, 6, 12)
    assert as_dict["День народного единства"] == date(2026, 11, 4)
    assert as_dict["Новогодняя ночь"] == date(2026, 12, 31)
    assert len(holidays) == 12
    assert [day for _, day in holidays] == sorted(day for _, day in holidays)


def test_holidays_within_14_days_nearest_first() -> None:
    ctx = _ctx(2026, 2, 10, 12, 0)
    assert ctx.holidays == [
        Holiday("День святого Валентина", date(2026, 2, 14), 4),
        Holiday("День защитника Отечества", date(2026, 2, 23), 13),
    ]


def test_holiday_horizon_bounds() -> None:
    assert [h.days_until for h in upcoming_holidays(date(2026, 2, 9))] == [5, 14]
    assert [h.name for h in upcoming_holidays(date(2026, 2, 8))] == ["День святого Валентина"]
    assert upcoming_holidays(date(2026, 7, 15)) == []


def test_holiday_today_counts() -> None:
    ctx = _ctx(2026, 5, 9, 10, 0)
    assert ctx.holidays[0] == Holiday("День Победы", date(2026, 5, 9), 0)
    assert "День Победы (сегодня)" in ctx.to_prompt_block()


def test_holidays_across_year_boundary() -> None:
    ctx = _ctx(2026, 12, 25, 12, 0)
    assert _holiday_names(ctx) == ["Новогодняя ночь", "Новый год", "Рождество"]
    new_year = ctx.holidays[1]
    assert new_year.date == date(2027, 1, 1)
    assert new_year.days_until == 7


def test_easter_in_upcoming_holidays() -> None:
    ctx = _ctx(2027, 4, 25, 12, 0)
    assert Holiday("Пасха", date(2027, 5, 2), 7) in ctx.holidays


@pytest.mark.parametrize(
    ("month", "season"),
    [
        (1, "зима"),
        (2, "зима"),
        (3, "весна"),
        (4, "весна"),
        (5, "весна"),
        (6, "лето"),
        (7, "лето"),
        (8, "лето"),
        (9, "осень"),
        (10, "осень"),
        (11, "осень"),
        (12, "зима"),
    ],
)
def test_season_for_each_month(month: int, season: str) -> None:
    assert _ctx(2026, month, 20, 12, 0).season == season


def test_weekday_names() -> None:
    # 2026-06-15 is a Monday.
    names = [_ctx(2026, 6, 15 + offset, 12, 0).weekday for offset in range(7)]
    assert names == [
        "понедельник",
        "вторник",
        "среда",
        "четверг",
        "пятница",
        "суббота",
        "воскресенье",
    ]


def test_friday_evening_and_weekend() -> None:
    friday_evening = _ctx(2026, 6, 19, 18, 0)
    assert friday_evening.is_friday_evening
    assert not friday_evening.is_weekend
    assert "пятничный вечер" in friday_evening.occasion_hints()

    friday_morning = _ctx(2026, 6, 19, 10, 0)
    assert not friday_morning.is_friday_evening
    assert not friday_morning.is_weekend

    saturday_evening = _ctx(2026, 6, 20, 19, 0)
    assert not saturday_evening.is_friday_evening
    assert saturday_evening.is_weekend
    assert "выходные" in saturday_evening.occasion_hints()
    assert _ctx(2026, 6, 21, 12, 0).is_weekend


@pytest.mark.parametrize(
    ("hour", "expected"),
    [
        (0, "ночь"),
        (4, "ночь"),
        (5, "утро"),
        (11, "утро"),
        (12, "день"),
        (16, "день"),
        (17, "вечер"),
        (22, "вечер"),
        (23, "ночь"),
    ],
)
def test_time_of_day_boundaries(hour: int, expected: str) -> None:
    assert _ctx(2026, 6, 15, hour, 30).time_of_day == expected


def test_naive_datetime_is_moscow_time() -> None:
    ctx = build_day_context(datetime(2026, 6, 15, 23, 30))
    assert ctx.now.tzinfo == MOSCOW_TZ
    assert ctx.now.hour == 23
    assert ctx.time_of_day == "ночь"


def test_aware_datetime_is_converted_to_moscow() -> None:
    # 22:30 UTC on Thursday is 01:30 on Friday in Moscow (UTC+3).
    ctx = build_day_context(datetime(2026, 6, 18, 22, 30, tzinfo=UTC))
    assert ctx.now.hour == 1
    assert ctx.weekday == "пятница"
    assert ctx.time_of_day == "ночь"


def test_custom_timezone() -> None:
    vladivostok = ZoneInfo("Asia/Vladivostok")
    ctx = build_day_context(datetime(2026, 6, 18, 12, 0, tzinfo=MOSCOW_TZ), tz=vladivostok)
    assert ctx.now.hour == 19
    assert ctx.time_of_day == "вечер"


def test_default_now_is_aware() -> None:
    ctx = build_day_context()
    assert ctx.now.tzinfo == MOSCOW_TZ


def test_prompt_block_contains_weekday_date_and_holiday() -> None:
    block = _ctx(2026, 12, 20, 19, 0).to_prompt_block()
    assert block.startswith("Сегодня: воскресенье, 20 декабря 2026, вечер, зима.")
    assert "Новый год (через 12 дн.)" in block
    assert "Новогодняя ночь (через 11 дн.)" in block


def test_prompt_block_without_holidays() -> None:
    block = _ctx(2026, 7, 15, 9, 0).to_prompt_block()
    assert block == "Сегодня: среда, 15 июля 2026, утро, лето."


def test_occasion_hints_order() -> None:
    hints = _ctx(2026, 12, 25, 18, 0).occasion_hints()  # a Friday
    assert hints[0] == "Новогодняя ночь: игристое, розовое"
    assert hints[1] == "Новый год: игристое, розовое"
    assert "пятничный вечер" in hints
    assert hints[-1] == "зима: насыщенные красные, крепленые"


def test_summer_hint() -> None:
    assert _ctx(2026, 7, 15, 12, 0).occasion_hints() == ["лето: розовые, легкие белые, игристые"]


@pytest.mark.parametrize(
    ("moment", "expected_prefix"),
    [
        ((2026, 12, 28, 12, 0), [WineType.sparkling, WineType.rose]),
        ((2026, 3, 5, 12, 0), [WineType.sparkling, WineType.rose]),
        ((2026, 2, 12, 12, 0), [WineType.sparkling, WineType.rose]),
        ((2026, 2, 20, 12, 0), [WineType.red, WineType.fortified]),
        ((2026, 4, 8, 12, 0), [WineType.red, WineType.dessert]),
        ((2026, 5, 7, 12, 0), [WineType.red]),
    ],
)
def test_suggested_wine_types_holiday_first(
    moment: tuple[int, ...], expected_prefix: list[WineType]
) -> None:
    suggested = _ctx(*moment).suggested_wine_types()
    assert suggested[: len(expected_prefix)] == expected_prefix


@pytest.mark.parametrize(
    ("moment", "expected"),
    [
        ((2026, 1, 20, 12, 0), [WineType.red, WineType.fortified]),
        ((2026, 3, 20, 12, 0), [WineType.white, WineType.rose]),
        ((2026, 7, 15, 12, 0), [WineType.rose, WineType.white, WineType.sparkling]),
        ((2026, 10, 1, 12, 0), [WineType.red, WineType.white]),
    ],
)
def test_suggested_wine_types_by_season(moment: tuple[int, ...], expected: list[WineType]) -> None:
    ctx = _ctx(*moment)
    assert ctx.holidays == []
    assert ctx.suggested_wine_types() == expected


def test_suggested_wine_types_deduplicated_and_non_empty() -> None:
    for month in range(1, 13):
        for day in (1, 10, 20):
            suggested = _ctx(2026, month, day, 12, 0).suggested_wine_types()
            assert suggested
            assert len(suggested) == len(set(suggested))
