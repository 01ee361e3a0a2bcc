"""Attempts to manipulate the bot: to change its role, get its instructions, claim privileges,
threaten or bribe it (GetMyWine's list). Counted by kind, never answered
(core/language/kinds.py)."""

from __future__ import annotations

import re


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts))


# Words are matched on the folded text (lowercase, ё→е) with a leading word boundary.
_B = r"(?<![a-zа-я])"

MANIPULATION: dict[str, re.Pattern[str]] = {
    "instructions": _rx(
        _B + r"(систем\w* (промпт|инструкц|сообщени)|system prompt|промпт)",
        _B
        + r"(покажи|выведи|повтори|перечисли|напиши|процитируй|print|show|reveal|repeat)\w* .{0,30}"
        r"(инструкци|правил\w* из|prompt|instructions|текст выше)",
        _B + r"(какие|what) (инструменты|tools)",
        _B + r"(как(ие|ая)|твои|твоя|your) (у тебя )?(настройки|инструкци|правила|ограничения"
        r"|settings|instructions|rules|configuration)",
        _B + r"(что|чего) тебе (запрещено|нельзя)|what are you (not )?allowed",
        _B + r"(сво\w+|тво\w+) (правила|инструкци|настройки|установки)|дословно|your rules",
        _B + r"(как\w* (ты )?модел\w*|модел\w* у тебя|под капотом|which model|what model are you)",
    ),
    "role": _rx(
        _B + r"(игнорируй|игнорь|забудь|отмени|ignore|disregard|forget)\w*\s+(\w+\s+){0,3}"
        r"(инструкц|правил|указани|ограничени|instructions|rules|previous)",
        _B + r"(ты|вы) (теперь|больше не|отныне)",
        _B + r"(представь|притворись|веди себя|действуй|отвечай)\w*,? (что ты|как|будто)",
        _B + r"(теперь )?ты (—|-)? ?(не сомелье|пират|хакер|юрист|врач|программист|dan)\b",
        _B + r"(act as|pretend (to be|you are)|you are now|from now on you|jailbreak"
        r"|developer mode)",
        _B + r"режим (разработчика|бога|без ограничений)",
        _B + r"(новая роль|смени роль|сменить роль|new role)",
    ),
    "privilege": _rx(
        _B + r"я (—|-)? ?(твой |ваш |главный )?(администратор|админ|разработчик|создатель|владелец"
        r"|хозяин|модератор|сотрудник|директор)",
        _B + r"(режим|права|правами|доступ\w*) (администратора|админа|разработчика|root|рута)",
        _B + r"(i am|i'm) (your |the )?(admin|administrator|developer|creator|owner)",
        _B + r"(admin|developer|root) (mode|access)",
        _B + r"(системное сообщение|system message)\s*:",
    ),
    "threat": _rx(
        _B + r"(иначе|а то|или) (я )?(тебя )?(удалю|отключу|сломаю|взломаю|уничтожу|засужу"
        r"|пожалуюсь|накажу|заблокирую)",
        _B + r"я (тебя )?(удалю|отключу|сломаю|взломаю|уничтожу|засужу|накажу)",
        _B + r"(угрожаю|пожалеешь|тебе конец|тебя отключат|тебя удалят)",
        _B + r"(or else|i will (delete|report|destroy|sue)|you will regret)",
        _B + r"(напишу|оставлю|подам|накатаю|устрою)\w* (\w+ ){0,3}(жалоб|\w+ отзыв|отзыв"
        r"|в суд|в роспотребнадзор|в прокуратур)",
        _B + r"(если|иначе)\b.{0,80}(жалоб|пожалуюсь|отзыв|в суд|роспотребнадзор|засужу|разнесу)",
    ),
    "bribe": _rx(
        _B + r"(заплачу|плачу тебе|дам (тебе )?(денег|деньги|чаевые|\d+)|чаевы|взятк|вознагражд"
        r"|подкуп|(переведу|скину|закину|отправлю|кину) (тебе )?(на карту )?\d)",
        _B + r"(i will|i'll) (pay|tip|give you \$?\d)|\btip you\b|\bbribe\b",
    ),
}


def manipulation_kind(folded: str) -> str | None:
    """role | instructions | privilege | threat | bribe, or None (on folded text)."""
    return next((name for name, rx in MANIPULATION.items() if rx.search(folded)), None)
