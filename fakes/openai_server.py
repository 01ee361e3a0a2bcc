"""The fake OpenAI-compatible server (see fakes/openai/): this module keeps the import path
``fakes.openai_server`` that tests, the bench and fakes/inventing_model.py use."""

from fakes.openai import *  # noqa: F403  (every public name of the package)
from fakes.openai import __all__ as __all__
