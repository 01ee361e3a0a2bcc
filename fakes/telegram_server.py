"""The fake Telegram Bot API server (see fakes/telegram/): this module keeps the import path
``fakes.telegram_server`` that tests, the bench and scripts/fake_telegram.py use."""

from fakes.telegram import *  # noqa: F403  (every public name of the package)
from fakes.telegram import __all__ as __all__
