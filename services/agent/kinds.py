"""Answers to messages that are not a request for wine (core/language/kinds.py reads which).

Off-topic and manipulation get a short polite reply naming what the bot does — on every path,
without a model call and without cards. Small talk gets a short friendly answer with a
suggestion of what to ask. A question about wine gets the knowledge base's answer, plus two
catalog wines only when the question asks which wine and the entry names those that help.
With an LLM, the model answers small talk and wine questions (the entry is given to it as
context) and `check_cards` holds its answer to the same reading.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, WineFilters
from core.language.kinds import MessageKind, MessageReading
from core.language.knowledge import KnowledgeEntry, accepted, rank_knowledge
from core.recommendation import RecommendedWine
from repositories.wines import WineRepository
from services.agent.answer_format import first_sentence
from services.agent.guard import REFUSAL

WHAT_I_DO = (
    "подбираю вино из каталога магазина к блюду, поводу и бюджету и отвечаю на вопросы о вине — "
    "о сортах, регионах, подаче и хранении."
)
SUGGESTION = (
    "Спросите, например: «красное сухое к стейку до 2000», «что подарить начальнику?» или "
    "«при какой температуре подавать шампанское?»"
)
DECLINE = "С этим я не помогу: я сомелье — " + WHAT_I_DO
SOCIAL = {
    "greeting": "Здравствуйте! Я сомелье: " + WHAT_I_DO,
    "about": "Я — бот-сомелье: "
    + WHAT_I_DO
    + " Оценки 👍/👎 и ⭐ В избранное помогают мне узнать ваш вкус.",
    "help": "Я "
    + WHAT_I_DO
    + " Команды: /favorites — избранное, /profile — ваш вкус, /quiz — анкета вкуса, "
    "/new — новый разговор.",
    "thanks": "Пожалуйста! Рад помочь.",
    "how_are_you": "Спасибо, все хорошо — готов подобрать вино.",
    "bye": "Всего доброго! Возвращайтесь, когда понадобится вино.",
    "wishes": "Спасибо, и вас! Если к празднику нужно вино — подскажу.",
    "compliment": "Спасибо на добром слове! Рад помочь с вином.",
    "ack": "Хорошо! Если понадобится вино — напишите блюдо, повод или бюджет.",
}
NO_ENTRY = (
    "На этот вопрос о вине у меня нет проверенного ответа в справке. Я могу рассказать о "
    "танинах, кислотности, температуре подачи, декантации, хранении, бокалах, сортах и "
    "регионах — или подобрать вино."
)
QUESTION_CLOSING = "Хотите, подберу вино? Напишите блюдо, повод или бюджет."
HEALTH = (
    "Я не даю медицинских советов: как алкоголь сочетается с вашим здоровьем, лекарствами или "
    "состоянием, лучше спросить у врача. Вино продается только с 18 лет."
)
HEALTH_CLOSING = "А если понадобится вино к блюду или на праздник, я помогу выбрать."
TOP_ENTRIES = 3
CARDS = 2


def declined(reading: MessageReading) -> tuple[str, list[RecommendedWine], str]:
    """Off-topic or manipulation: the polite reply, nothing else (the same words as when the
    model is caught quoting its instructions, for a request to show them)."""
    if reading.manipulation == "instructions":
        return REFUSAL, [], ""
    return DECLINE, [], SUGGESTION


async def offline_kind_answer(
    sessions: async_sessionmaker[AsyncSession], reading: MessageReading
) -> tuple[str, list[RecommendedWine], str]:
    """(intro, wines, closing) for a message that is not a request, without a model."""
    if reading.kind in (MessageKind.offtopic, MessageKind.manipulation):
        return declined(reading)
    if reading.kind is MessageKind.smalltalk:
        text = SOCIAL.get(reading.social or "", SOCIAL["greeting"])
        return text, [], SUGGESTION
    if reading.health:
        return (reading.entry.answer if reading.entry else HEALTH), [], HEALTH_CLOSING
    if reading.entry is None:
        return NO_ENTRY, [], QUESTION_CLOSING
    wines = await helpful_wines(sessions, reading)
    closing = "Вот два вина из каталога для примера." if wines else QUESTION_CLOSING
    return reading.entry.answer, wines, closing


async def helpful_wines(
    sessions: async_sessionmaker[AsyncSession], reading: MessageReading
) -> list[RecommendedWine]:
    """Two catalog wines for a question that asks which wine, when its entry names them."""
    if not reading.wants_cards or reading.entry is None or not reading.entry.cards:
        return []
    filters = WineFilters.model_validate(reading.entry.cards)
    async with sessions() as session:
        found = await WineRepository(session).search(filters, limit=CARDS, order="price_asc")
    return [
        RecommendedWine.from_wine(
            w,
            f"{WINE_TYPE_RU[w.wine_type].capitalize()} {SWEETNESS_RU[w.sweetness]}. "
            + first_sentence(w.description),
        )
        for w in found
    ]


def fixed_answer(reading: MessageReading) -> bool:
    """Answered with reviewed words on every path: health and safety questions, and wine
    questions the base has no checked answer to."""
    return reading.kind is MessageKind.wine_question and (reading.health or reading.entry is None)


def top_entries(reading: MessageReading) -> list[KnowledgeEntry]:
    """The entry the message asks about and the next best ones: what the model answers from."""
    if reading.entry is None:
        return []
    ranked = [m.entry for m in rank_knowledge(reading.text) if accepted(m)]
    others = [e for e in ranked if e.id != reading.entry.id and not e.health]
    return [reading.entry, *others][:TOP_ENTRIES]


def knowledge_context(reading: MessageReading) -> str:
    """For the model's system prompt: what the person asked, and the reviewed answer."""
    if reading.kind is MessageKind.smalltalk:
        return (
            "Это сообщение — приветствие, благодарность или вопрос о тебе: ответь коротко и "
            "дружелюбно, без вин и без поиска, и подскажи, о чем можно спросить."
        )
    if reading.kind is MessageKind.request and reading.entry is not None:
        return (
            f"Человек спросил и о том, что такое «{reading.entry.title}»: проверенная справка "
            "об этом будет показана перед твоим ответом — не повторяй и не дополняй ее, "
            "подбери вина."
        )
    if reading.kind is not MessageKind.wine_question:
        return ""
    lines = [
        "Это вопрос о вине, а не просьба подобрать вино: ответь на него коротко, только тем, "
        "что сказано в проверенной справке ниже, без других фактов"
        + (", можно показать два вина из каталога." if reading.wants_cards else ", без вин.")
    ]
    for entry in top_entries(reading):
        lines.append(f"Проверенная справка по теме «{entry.title}»: {entry.answer}")
    return "\n".join(lines)


def check_cards(
    reading: MessageReading, result: tuple[str, list[RecommendedWine], str]
) -> tuple[str, list[RecommendedWine], str]:
    """The model's answer held to the reading: cards only when wine is wanted or helps."""
    intro, wines, closing = result
    if reading.kind is MessageKind.request:
        return result
    if not reading.wants_cards:
        wines = []
    return intro, wines[:CARDS], closing
