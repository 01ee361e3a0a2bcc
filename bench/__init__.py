"""Benchmarks: catalog scale, search, agent overhead, prompt economy and concurrent chats.

Run with `sommelier bench [--quick]` (or `python -m bench`) in the repository checkout; each
run's report is a file of its own in bench/runs/ (BENCHMARKS.md links it). The harness uses the
fake OpenAI and Telegram servers of `fakes/`. Neither package is in the wheel: `make` puts the
checkout on its virtualenv's path (docs/benchmarks.md).
"""
