"""Telegram user objects → what the services know of a person."""

from __future__ import annotations

from aiogram.types import User

from services.app.people.people import UserDetails


def user_details(user: User) -> UserDetails:
    return UserDetails(user.id, user.first_name, user.last_name, user.username, user.language_code)
