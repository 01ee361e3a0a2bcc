"""The text catalog's part for alerts (issue 43): `T` (services/app/texts.py) is built on it,
so every text is still read as `T.<name>`; apart only to keep texts.py within the module size
limit."""

from __future__ import annotations


class AlertTexts:
    # --- /favorites' bells, «Сообщить, когда появится», price drops, /alerts ------------------
    favourites_hint = (
        "Кнопки ниже убирают вино из избранного; 🔔 — сообщу, если цена снизится на "
        "{percent}% и больше (или когда вино снова появится в продаже)."
    )
    favourite_watch_button = "🔔 {name}"
    favourite_watching_button = "🔕 {name}"

    alert_offer_button = "🔔 Сообщить, когда появится"
    alert_offer = "Могу сообщить, когда это вино появится в магазине."
    alert_subscribed = "Сообщу, когда появится — /alerts"
    alert_already = "Уже жду его — /alerts"
    alert_in_stock = "Оно уже есть в магазине — спросите о нем."
    alert_unknown = "Не понимаю, о каком вине речь, — напишите его название."
    alert_price_on = "Сообщу, если цена снизится на {percent}% и больше — /alerts"
    alert_price_off = "Больше не слежу за ценой"
    alert_back = "🔔 <b>Появилось в магазине</b> — вы просили сообщить:"
    alert_name_back = "🔔 <b>Появилось в магазине</b> — вы спрашивали «{name}»:"
    alert_price_drop = "🔔 <b>Цена снизилась</b>: было {before}, стало {now}."
    alerts_title = "<b>🔔 Уведомления</b>"
    alerts_empty = (
        "Уведомлений нет. Когда вина нет в магазине, под ответом будет кнопка «🔔 Сообщить, "
        "когда появится»; за ценой избранного вина можно следить в /favorites."
    )
    alert_line_name = "{n}. Появится «{name}» — до {until}"
    alert_line_wine = "{n}. Снова в продаже «{name}» — до {until}"
    alert_line_price = "{n}. Цена «{name}» снизится (сейчас от {price}) — до {until}"
    alerts_hint = "Кнопки ниже отменяют уведомление."
    alert_cancel_button = "✖ {n}. {name}"
    alert_cancelled = "Уведомление отменено"
