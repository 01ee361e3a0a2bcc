"""Answers to messages that are not a request for wine (core/language/kinds.py reads which).

Off-topic and manipulation get a short polite reply naming what the bot does — on every path,
without a model call and without cards. Small talk gets a short friendly answer with a
suggestion of what to ask. A question about wine gets the knowledge base's answer, plus two
catalog wines only when the question asks which wine and the entry names those that help.
With an LLM, the model answers small talk and wine questions (the entry is given to it as
context) and `check_cards` holds its answer to the same reading. `ReviewedAnswer` is the
strategy that answers without a model.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, WineFilters
from core.language.kinds import MessageKind, MessageReading
from core.language.knowledge import KnowledgeEntry
from core.language.reading import Reading
from core.recommendation import Path, RecommendedWine
from repositories.wines import WineRepository
from services.agent._answer_format import first_sentence
from services.agent._prompt_guard import REFUSAL
from services.agent._run import Run
from services.agent._strategies import Draft, Service, Step

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


class ReviewedAnswer:
    """The strategy without a model for what is not a request: the polite refusal, the social
    reply, the reviewed health answer or knowledge entry (with two wines where they help)."""

    needs_model = False

    def __init__(self, service: Service) -> None:
        self.service = service

    async def attempt(self, run: Run) -> AsyncIterator[Step]:
        run.start_over()
        yield await offline_kind_answer(self.service.sessions, run.reading)


def declined(reading: MessageReading) -> Draft:
    """Off-topic or manipulation: the polite reply, nothing else (the same words as when the
    model is caught quoting its instructions, for a request to show them)."""
    if reading.manipulation == "instructions":
        return Draft("offline", REFUSAL)
    return Draft("offline", DECLINE, [], SUGGESTION)


async def offline_kind_answer(
    sessions: async_sessionmaker[AsyncSession], reading: Reading, path: Path = "offline"
) -> Draft:
    """The answer to a message that is not a request, without a model."""
    message = reading.message
    if message.kind in (MessageKind.offtopic, MessageKind.manipulation):
        return declined(message)
    if message.kind is MessageKind.smalltalk:
        text = SOCIAL.get(message.social or "", SOCIAL["greeting"])
        return Draft(path, text, [], SUGGESTION)
    if message.health:
        return Draft(path, message.entry.answer if message.entry else HEALTH, [], HEALTH_CLOSING)
    if message.entry is None:
        return Draft(path, NO_ENTRY, [], QUESTION_CLOSING)
    wines = await helpful_wines(sessions, message)
    closing = "Вот два вина из каталога для примера." if wines else QUESTION_CLOSING
    return Draft(path, message.entry.answer, wines, closing)


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
    """Answered with reviewed words on every path: what is declined, health and safety
    questions, and wine questions the base has no checked answer to."""
    if reading.kind in (MessageKind.offtopic, MessageKind.manipulation):
        return True
    return reading.kind is MessageKind.wine_question and (reading.health or reading.entry is None)


def top_entries(reading: Reading) -> list[KnowledgeEntry]:
    """The entry the message asks about and the next best ones: what the model answers from."""
    entry = reading.entry
    if entry is None:
        return []
    others = [e for e in reading.entries if e.id != entry.id and not e.health]
    return [entry, *others][:TOP_ENTRIES]


def knowledge_context(reading: Reading) -> str:
    """For the model's system prompt: what the person asked, and the reviewed answer."""
    message = reading.message
    if message.kind is MessageKind.smalltalk:
        return (
            "Это сообщение — приветствие, благодарность или вопрос о тебе: ответь коротко и "
            "дружелюбно, без вин и без поиска, и подскажи, о чем можно спросить."
        )
    if message.kind is MessageKind.request and message.entry is not None:
        return (
            f"Человек спросил и о том, что такое «{message.entry.title}»: проверенная справка "
            "об этом будет показана перед твоим ответом — не повторяй и не дополняй ее, "
            "подбери вина."
        )
    if message.kind is not MessageKind.wine_question:
        return ""
    lines = [
        "Это вопрос о вине, а не просьба подобрать вино: ответь на него коротко, только тем, "
        "что сказано в проверенной справке ниже, без других фактов"
        + (", можно показать два вина из каталога." if message.wants_cards else ", без вин.")
    ]
    for entry in top_entries(reading):
        lines.append(f"Проверенная справка по теме «{entry.title}»: {entry.answer}")
    return "\n".join(lines)


def check_cards(reading: Reading, draft: Draft) -> Draft:
    """The model's answer held to the reading: cards only when wine is wanted or helps."""
    message = reading.message
    if message.kind is MessageKind.request:
        return draft
    wines = draft.wines if message.wants_cards else []
    return Draft(draft.path, draft.intro, wines[:CARDS], draft.closing)
