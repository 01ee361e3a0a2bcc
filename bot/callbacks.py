"""Callback data factories; each packs within Telegram's 64-byte limit."""

from __future__ import annotations

import uuid

from aiogram.filters.callback_data import CallbackData


class AgeCallback(CallbackData, prefix="age"):
    adult: bool


class VoteCallback(CallbackData, prefix="v"):
    vote: int  # +1 or -1
    wine: str  # uuid hex, 32 characters

    @property
    def wine_id(self) -> uuid.UUID:
        return uuid.UUID(hex=self.wine)


class SimilarCallback(CallbackData, prefix="s"):
    wine: str

    @property
    def wine_id(self) -> uuid.UUID:
        return uuid.UUID(hex=self.wine)


class ForgetCallback(CallbackData, prefix="fg"):
    confirmed: bool


class ProfileResetCallback(CallbackData, prefix="pr"):
    confirm: bool


class QuizCallback(CallbackData, prefix="qz"):
    """One tap in the taste quiz: the question's index and the answer (or a control word)."""

    step: int
    value: str  # an answer from core.taste's choices, or "skip" / "stop"


class ProfilePartResetCallback(CallbackData, prefix="prp"):
    part: str  # "quiz" or "votes"


class FavouriteCallback(CallbackData, prefix="fav"):
    """«⭐ В избранное» under a card (add) or «✖» in /favorites (remove)."""

    add: bool
    wine: str

    @property
    def wine_id(self) -> uuid.UUID:
        return uuid.UUID(hex=self.wine)
