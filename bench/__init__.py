"""Benchmarks: catalog scale, search, agent overhead, prompt economy and concurrent chats.

Run with `sommelier bench [--quick]` (or `python -m bench`); results are appended to
BENCHMARKS.md in the current directory. The harness uses the fake OpenAI and Telegram servers of
the `fakes` package, so it runs from any install, editable or not.
"""
