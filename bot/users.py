"""Telegram user objects → the service's plain user record."""

from __future__ import annotations

from aiogram.types import User

from services.app.chat import TelegramUser


def telegram_user(user: User) -> TelegramUser:
    return TelegramUser(user.id, user.first_name, user.last_name, user.username, user.language_code)
