"""Every text the interfaces show a person, in one place: the bot's, the web chat's and the
terminal's own Russian words, and the admin's (the agent answers in the user's language and
writes its own answers). A text two interfaces show alike is here once; where they word a
thing differently today (how long is too long), each wording is here under its own name.

The shop console's pages keep their headings in their templates and views (web/console/).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from services.app.alert_texts import AlertTexts

if TYPE_CHECKING:
    from services.app.turns.admission import Admitted


class T(AlertTexts):
    age_question = (
        "Здравствуйте! Я — Сомелье, бот-помощник в выборе вина.\n\n"
        "По закону информация об алкоголе доступна только совершеннолетним. "
        "Подтвердите, пожалуйста, что вам исполнилось 18 лет."
    )
    age_yes = "Мне есть 18 лет"
    age_no = "Мне нет 18"
    age_confirmed = "Спасибо! Возраст подтвержден."
    age_refused = "Извините, я могу общаться о вине только с совершеннолетними. Приходите позже!"
    age_required = "Сначала подтвердите, пожалуйста, что вам есть 18 лет."
    help = (
        "<b>Я — ваш персональный сомелье.</b>\n\n"
        "Подберу вино из каталога магазина к блюду, поводу и бюджету: три варианта с "
        "объяснением, почему они подходят. Под каждым вином есть кнопки 👍/👎 — по ним я "
        "запоминаю ваш вкус, — «Похожие» и «⭐ В избранное».\n\n"
        "<b>Примеры вопросов:</b>\n"
        "• что взять к стейку до 2000 ₽?\n"
        "• белое сухое к рыбе\n"
        "• игристое на Новый год от 3000 до 5000\n"
        "• легкое красное на пикник\n"
        "• чем отличается брют от экстра-брюта?\n"
        "• при какой температуре подавать шампанское?\n\n"
        "<b>Команды:</b>\n"
        "/start — начать сначала\n"
        "/profile — что я знаю о вашем вкусе\n"
        "/favorites — избранные вина\n"
        "/alerts — уведомления о винах (появилось, снизилась цена)\n"
        "/quiz — анкета вкуса (шесть коротких вопросов)\n"
        "/new — начать новый разговор\n"
        "/link КОД — связать с веб-чатом магазина\n"
        "/privacy — что я храню и как это удалить (/forget)\n"
        "/help — эта подсказка\n\n"
        "<b>В любом чате:</b> напишите @имя_бота и запрос — например, «белое к рыбе до 1500», "
        "а кнопка «Поделиться» под вином отправит его другу."
    )
    similar_button = "Похожие"
    favourite_button = "⭐ В избранное"
    shop_pick = "Выбор магазина"  # a card of a wine the shop's own rules boost
    favourite_button_kept = "⭐ В избранном"
    favourite_added = "Добавлено в избранное — /favorites"
    favourite_already = "Уже в избранном — /favorites"
    favourite_removed = "Убрано из избранного"
    favourite_remove_button = "✖ {name}"
    favourites_title = "<b>⭐ Избранное</b>"
    favourites_empty = (
        "В избранном пока пусто. Нажмите «⭐ В избранное» под карточкой вина — оно появится "
        "здесь, с ценой и наличием."
    )
    favourite_on_sale = "в наличии"
    favourite_gone = "нет в продаже"
    favourite_closest = "похожее в наличии: {name} — {price}"
    privacy = (
        "<b>Что я храню</b>\n"
        "• ваш Telegram id, имя и язык интерфейса, отметку о 18+;\n"
        "• разговоры со мной — {retention};\n"
        "• оценки 👍/👎, избранное, ответы анкеты вкуса и вкусовой профиль из них — пока вы их не "
        "удалите;\n"
        "• уведомления о винах (/alerts) — пока не сработают или не истекут;\n"
        "• служебные записи для порядка ответов и лимита сообщений — несколько дней;\n"
        "• для статистики магазина — условия ваших запросов (стиль, блюдо, страна, цена), "
        "какие вина я показал и переходы по «Купить»; сама формулировка запроса — {retention}. "
        "Магазин видит это без вашего id и имени.\n\n"
        "Фото, голосовые, файлы и сообщения групп, где меня позвали, не храню. "
        "/profile — сбросить вкусовой профиль, /forget — удалить всё, что я о вас храню."
    )
    retention_days = "{days} дней, потом удаляются"
    retention_forever = "пока вы их не удалите"
    forget_question = (
        "Удалить всё, что я о вас храню: разговоры, оценки, избранное, вкусовой профиль и "
        "служебные записи? Останется только анонимный счетчик ответов. Это нельзя отменить."
    )
    forget_yes = "Да, удалить"
    forget_no = "Нет, оставить"
    forget_kept = "Хорошо, ничего не удаляю."
    forget_done = "Готово, удалено: {what}. Чтобы начать заново, нажмите /start."
    forget_nothing = "Я ничего о вас не храню."
    profile_reset_button = "Сбросить профиль"
    profile_empty = (
        "Я пока ничего не знаю о вашем вкусе. Оценивайте вина кнопками 👍/👎 — "
        "и я начну учитывать ваши предпочтения."
    )
    profile_reset_done = "Профиль сброшен. Начнем с чистого листа!"
    new_conversation = "Начинаем новый разговор. О каком вине поговорим?"
    link_usage = (
        "Чтобы связать веб-чат магазина с этим чатом, нажмите в веб-чате «Связать с Telegram» "
        "и пришлите сюда код: /link КОД"
    )
    link_done = (
        "Готово: веб-чат связан с этим чатом. Ваши оценки, избранное и анкета вкуса теперь "
        "здесь, а веб-чат продолжит как вы."
    )
    link_same = "Этот веб-чат уже связан с вами."
    link_unknown = (
        "Код не подошел: он неверный, уже использован или устарел (код действует 15 минут). "
        "Получите новый в веб-чате."
    )
    too_long = (
        "Сообщение слишком длинное (больше {limit} символов). Сформулируйте, пожалуйста, короче."
    )
    rate_limited = "Вы пишете очень быстро 🙂 Подождите минуту, и я снова отвечу."
    only_text = (
        "Я понимаю текст, фото и голосовые. Напишите, пожалуйста, что вы ищете — например, "
        "«белое к рыбе»."
    )
    empty_text = "Напишите, пожалуйста, какое вино вы ищете."
    unknown_command = "Не знаю такой команды. /help — что я умею."
    answer_again = "Извините, ответ задержался — вот он."
    unavailable = "Сервис временно недоступен. Попробуйте, пожалуйста, через минуту."
    apology = "Извините, что-то пошло не так. Попробуйте еще раз чуть позже."
    vote_saved: ClassVar[dict[int, str]] = {
        1: "Запомнил: понравилось 👍",
        -1: "Запомнил: не понравилось 👎",
    }
    vote_same = "Оценка уже учтена"
    vote_changed = "Оценка изменена"
    wine_gone = "Этого вина больше нет в каталоге."
    buy_button = "Купить"
    out_of_stock = "Этого вина сейчас нет в наличии."
    out_of_stock_similar = "Этого вина сейчас нет в наличии — вот похожие."
    import_started = "Импортирую каталог…"
    import_done = "<b>Каталог обновлен.</b>"
    import_dry_done = "<b>Проверка (dry): ничего не записано.</b>"
    import_failed = "<b>Каталог не обновлен.</b>"
    import_usage = (
        "Пришлите файл каталога (CSV, XLSX, YML, JSON) с подписью /import, ответьте /import "
        "на такой файл или напишите /import URL. /import dry — только проверка."
    )
    thinking_status = "Подбираю вино…"

    # Inline mode, sharing and group chats (issue 20).
    share_button = "Поделиться"
    open_in_bot_button = "Открыть в боте"
    inline_hint_button = "Подобрать вино в чате с ботом"
    inline_nothing_button = "Ничего не нашлось — спросить в чате"
    inline_age_button = "Подтвердить 18+ в чате с ботом"
    inline_slow_down_button = "Слишком часто — подождите минуту"
    inline_picks_title = "Идеи на сегодня"
    inline_why_separator = " · "
    shared_wine_gone = "Этого вина уже нет в каталоге. Вот идеи на сегодня:"

    # The taste quiz (issue 20).
    quiz_title = "<b>Анкета вкуса</b> · вопрос {number} из {total}"
    quiz_skip = "Пропустить"
    quiz_stop = "Без анкеты"
    quiz_done = "<b>Анкета готова.</b> Учту: {what}. Пройти заново — /quiz, посмотреть — /profile."
    quiz_done_empty = "Анкета пропущена. Пройти ее можно в любой момент — /quiz."
    quiz_stopped = "Хорошо, без анкеты. Пройти ее можно в любой момент — /quiz."
    quiz_saved = "Записал"
    quiz_old = "Эта анкета уже закрыта. Начать заново — /quiz."
    quiz_questions: ClassVar[dict[str, str]] = {
        "colour": "Какое вино вы пьете чаще всего?",
        "sweetness": "Сухое или послаще?",
        "body": "Легкое или насыщенное, полнотелое?",
        "structure": "Что вам приятнее во вкусе?",
        "budget": "Сколько обычно тратите на бутылку на каждый день?",
        "foods": "Что вы чаще всего готовите? (необязательно)",
    }
    quiz_options: ClassVar[dict[str, list[tuple[str, str]]]] = {
        "colour": [
            ("red", "🍷 Красное"),
            ("white", "🥂 Белое"),
            ("rose", "🌸 Розовое"),
            ("sparkling", "🍾 Игристое"),
        ],
        "sweetness": [
            ("dry", "Сухое"),
            ("semi_dry", "Полусухое"),
            ("semi_sweet", "Полусладкое"),
            ("sweet", "Сладкое"),
        ],
        "body": [("light", "Легкое"), ("medium", "Среднее"), ("full", "Полнотелое")],
        "structure": [
            ("soft", "Мягкость"),
            ("tannic", "Терпкость, танины"),
            ("acidic", "Свежая кислотность"),
        ],
        "budget": [
            ("1000", "до 1 000 ₽"),
            ("2000", "до 2 000 ₽"),
            ("3500", "до 3 500 ₽"),
            ("6000", "до 6 000 ₽"),
        ],
        "foods": [
            ("meat", "Мясо"),
            ("fish", "Рыбу"),
            ("cheese", "Сыры"),
            ("pasta", "Пасту"),
            ("vegetables", "Овощи"),
            ("spicy", "Острое"),
        ],
    }
    profile_from_quiz = "📝 Из анкеты: {what}"
    profile_from_votes = "По вашим оценкам 👍/👎:"
    profile_reset_quiz_button = "Сбросить анкету"
    profile_reset_votes_button = "Сбросить оценки"
    profile_quiz_reset_done = "Ответы анкеты удалены. Пройти заново — /quiz."
    profile_votes_reset_done = "Оценки 👍/👎 удалены."

    # Group chats and guest mode (issue 20).
    group_header = "🍷 По запросу «{request}»:"
    group_header_any = "🍷 Идеи для стола:"
    group_nothing = (
        "В каталоге не нашлось вин под этот запрос. Попробуйте изменить бюджет или тип вина."
    )
    group_age_needed = (
        "Подбирать вино я могу только тем, кто подтвердил, что им есть 18 лет. "
        "Это займет секунду в личном чате со мной."
    )
    group_age_button = "Подтвердить 18+"
    group_result_title = "Подборка вин"
    group_age_title = "Нужно подтвердить 18+"
    # Photos and voice (issue 17).
    photo_off = (
        "Фото я сейчас не читаю. Напишите, пожалуйста, словами, что на нем: название вина "
        "с этикетки, блюдо или вина из карты — и я подберу."
    )
    photo_unreadable = (
        "Не получилось разобрать фото. Напишите, пожалуйста, словами, что на нем: название "
        "вина с этикетки, блюдо или вина из карты."
    )
    photo_nothing = (
        "Не вижу на фото ни этикетки, ни блюда, ни винной карты. Опишите, пожалуйста, "
        "словами, что вы ищете."
    )
    voice_off = (
        "Голосовые я сейчас не слушаю. Напишите, пожалуйста, текстом, что вы ищете — "
        "например, «красное к стейку до 2000»."
    )
    voice_unreadable = (
        "Не получилось распознать голосовое. Напишите, пожалуйста, текстом, что вы ищете."
    )
    voice_nothing = "Не расслышал ни слова. Повторите, пожалуйста, или напишите текстом."
    voice_too_long = (
        "Голосовое длиннее {limit} с — такие я не слушаю. Запишите покороче или напишите текстом."
    )
    voice_heard = "🎙 Услышал: «{text}»"
    photo_dish = "📷 На фото: {dish}. Подбираю вино к нему…"

    # --- Refusals of a message, as each interface words them ---------------------------------

    @classmethod
    def refusal(cls, admitted: Admitted) -> str:
        """The bot's reply to words that may not go on (empty, too long)."""
        if admitted.refusal == "too_long":
            return cls.too_long.format(limit=admitted.limit)
        return cls.empty_text

    web_too_long = "Сообщение слишком длинное: сократите его, пожалуйста, до {limit} символов."
    web_age_refused = "Извините, я могу общаться о вине только с совершеннолетними."
    web_not_from_page = "Запрос не со страницы чата."
    web_no_visitor = "Обновите страницу, пожалуйста: сессия чата не найдена."
    terminal_prompt = "\nвы › "
    terminal_too_long = "Пожалуйста, короче: до {limit} символов."
    terminal_goodbye = "\nДо встречи!"
    ask_empty = "sommelier: the question is empty"
    ask_too_long = "sommelier: the question is longer than {limit} characters"

    @staticmethod
    def terminal_greeting(*, llm: bool) -> str:
        mode = "с ИИ" if llm else "без ИИ (LLM_API_KEY не задан)"
        return f"Сомелье слушает ({mode}). Спросите о вине; пустая строка или Ctrl+D — выход."

    # --- Progress while the sommelier searches (bot drafts, web chat status) ----------------

    type_plural: ClassVar[dict[str, str]] = {
        "red": "красные",
        "white": "белые",
        "rose": "розовые",
        "sparkling": "игристые",
        "dessert": "десертные",
        "fortified": "крепленые",
    }
    sweetness_plural: ClassVar[dict[str, str]] = {
        "dry": "сухие",
        "semi_dry": "полусухие",
        "semi_sweet": "полусладкие",
        "sweet": "сладкие",
    }
    searching = "Ищу {what}"
    searching_wines = "вина"
    searching_described = "Ищу по описанию…"
    searching_described_as = "Ищу по описанию: «{query}»…"
    searching_grape = "из сорта {grape}"
    searching_country = "({country})"
    searching_dish = "к блюду «{dish}»"
    searching_budget = "до {amount} ₽"

    # --- «Похожие» ---------------------------------------------------------------------------
    similar_intro = "Похожие на «{name}»:"
    similar_closing = "Оцените их 👍/👎 — я запомню ваш вкус."
    similar_none_intro = "Больше похожих на «{name}» в каталоге нет — все уже показаны."
    similar_none_closing = "Попробуйте описать, чего хочется, своими словами."

    # --- The bot's menu of commands ----------------------------------------------------------
    commands: ClassVar[list[tuple[str, str]]] = [
        ("start", "Начать"),
        ("help", "Что умеет бот"),
        ("profile", "Мой вкусовой профиль"),
        ("favorites", "Избранные вина"),
        ("quiz", "Анкета вкуса"),
        ("new", "Новый разговор"),
        ("alerts", "Уведомления о винах"),
        ("privacy", "Что бот хранит и как удалить"),
    ]

    # --- /profile and /forget ------------------------------------------------------------------
    profile_title = "<b>Ваш вкусовой профиль</b>"
    profile_liked = "👍 Нравится: {what}"
    profile_grapes = "🍇 Любимые сорта: {what}"
    profile_countries = "🌍 Страны: {what}"
    profile_disliked = "👎 Не понравилось: {what}"
    profile_prices = "💰 Цены понравившихся вин: {low}–{high} ₽"
    forgotten_tables: ClassVar[dict[str, str]] = {
        "messages": "сообщения",
        "conversations": "разговоры",
        "feedback": "оценки",
        "quiz_answers": "ответы анкеты вкуса",
        "favourites": "избранное",
        "users": "профиль",
        "answers": "привязка ответов",
        "telegram_updates": "служебные записи",
        "rate_counters": "счетчики лимита",
        "visitors": "связь с веб-чатом",
        "answer_facts": "статистика запросов",
        "buy_clicks": "переходы «Купить»",
        "order_lines": "связь покупок с вами (покупки остаются без имени)",
        "alert_subscriptions": "уведомления о винах",
        "alerts_sent": "связь уведомлений с вами (их число остается без имени)",
    }

    # --- Admins: /seed, /backup, /embed, /stats, /import, /console -----------------------------
    seed_failed = "Каталог не обновлен:\n<pre>{error}</pre>"
    seed_done = (
        "Каталог обновлен: добавлено {inserted}, обновлено {updated}, без изменений "
        "{unchanged}. Всего вин: {total}."
    )
    backup_failed = "Резервная копия не сделана: {error}"
    backup_done = "Резервная копия готова: {path}\n{counts}"
    embed_off = "Эмбеддинги не настроены: задайте EMBEDDING_API_KEY."
    embed_started = "Считаю эмбеддинги…"
    embed_progress = "Эмбеддинги: {done}/{total}…"
    embed_failed = "Эмбеддинги не посчитаны: {error}"
    embed_done = "Готово: посчитано {embedded}, без актуального вектора {remaining}."
    stats = (
        "<b>Статистика</b>\n"
        "Пользователей: {users}\n"
        "Активных сегодня: {active_today}\n"
        "Сообщений сегодня: {messages_today}\n"
        "Ответы по путям: {paths}\n"
        "Время ответа: медиана {median}, p95 {p95}\n"
        "Обновлений в работе: {backlog}\n"
        "Отложено после сбоев: {parked}"
    )
    stats_parked = "\n• #{update_id}: {error}"
    stats_orders = (
        "\nЗаказы, последняя загрузка {when} ({source}): новых {inserted}, обновлено {updated}, "
        "отменено {cancelled}, пропущено строк {skipped}"
    )
    stats_orders_failed = "\nЗаказы, последняя загрузка {when} ({source}) не удалась: {error}"
    stats_orders_reason = "\n• {reason}"
    catalog_sync_failed = "Синхронизация каталога не удалась: {error}"
    catalog_sync_skipped = "Синхронизация каталога: пропущено строк {skipped}.\n{lines}"
    orders_sync_failed = "Загрузка заказов не удалась: {error}"
    orders_sync_skipped = "Загрузка заказов: пропущено строк {skipped}.\n{lines}"
    seconds = "{value:.1f} с"
    nothing = "—"
    import_format = "Формат: {format}, строк: {rows}"
    import_counts = "Добавлено: {inserted}, обновлено: {updated}, без изменений: {unchanged}"
    import_dropped = "Снято с продажи: {unavailable}, пропущено строк: {skipped}"
    import_more = "\n… и еще {more}"
    import_too_big = "файл больше 20 МБ — загрузите его по ссылке: /import URL"
    console_no_public_url = (
        "Консоль открывается на HTTP-сервере бота, а у него нет публичного адреса: "
        "задайте PUBLIC_URL (или запустите бота с WEBHOOK_URL)."
    )
    digest_sales = "Продажи с ботом: привел {led}, помог {assisted} (продаж: {sales})."
    digest_no_sales = "Продаж с ботом за неделю нет."
    console_link = (
        '<a href="{link}">Открыть консоль магазина</a>\n'
        "Ссылка одноразовая и действует {minutes} минут; не пересылайте ее."
    )
