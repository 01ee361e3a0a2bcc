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


class AlertCallback(CallbackData, prefix="al"):
    """«🔔 Сообщить, когда появится»: a wine asked for by name (`of` "n", `ref` the answer's
    fact id, whose row holds the name) or a wine shown earlier that sold out (`of` "w", `ref`
    the wine's id)."""

    of: str
    ref: str  # uuid hex, 32 characters

    @property
    def ref_id(self) -> uuid.UUID:
        return uuid.UUID(hex=self.ref)


class AlertCancelCallback(CallbackData, prefix="alx"):
    """«✖» in /alerts: cancels one subscription."""

    id: int


class PriceWatchCallback(CallbackData, prefix="pw"):
    """«🔔»/«🔕» in /favorites: a favourite's price drop alerts on or off."""

    on: bool
    wine: str

    @property
    def wine_id(self) -> uuid.UUID:
        return uuid.UUID(hex=self.wine)
