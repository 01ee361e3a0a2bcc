"""Grounded prose while the answer streams: a sentence is shown only once it is complete and
what it claims is true of the wines the model was shown (_grounding.py reads the same way).

While streaming, the cards are not chosen yet and the full rows are not loaded: a sentence in
the intro or closing must be true of some wine the tools returned (or of the request), a
sentence under [WINE:<id>] of that wine as the tool showed it. Claims the tool result does not
carry (vintage, alcohol, ageing, awards…) wait for the final message, which the full check
decides; a sentence known to be false is never shown. The final message corrects the rest.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from decimal import Decimal
from typing import Any

from core.language.claims import read_sentence
from services.agent._grounding import Request, set_verdict
from services.agent._safety import allowed_prices, states_wrong_price
from services.agent._verdict import Verdict
from services.agent._wine_facts import Facts, brief_facts
from services.agent._wine_handles import handle

_MARKER = re.compile(r"\[\s*(INTRO|CLOSING|WINE\s*[:=#]?\s*([^\]\n]{1,200}))\s*\]", re.IGNORECASE)
# A sentence ends at its punctuation when a new sentence or a marker follows, or at a line end.
_END = re.compile(r"[.!?…]+(?=\s+[«\"(A-ZА-ЯЁ0-9\[])|\n")


class StreamGrounder:
    def __init__(self, briefs: Sequence[dict[str, Any]], request: Request) -> None:
        """`briefs`: the wines the tools showed the model (tools.wine_brief)."""
        self.facts: dict[str, Facts] = {}
        self.prices: dict[str, Decimal] = {}
        for brief in briefs:
            self.facts[handle(brief.get("id"))] = brief_facts(brief)
            self.prices[handle(brief.get("id"))] = Decimal(str(brief.get("price", 0)))
        self.request = request
        self.section: str | None = None  # None: intro or closing; else the wine's handle
        self.buffer = ""

    def feed(self, chunk: str) -> str:
        """What of the stream may be shown now: complete sentences that hold up."""
        self.buffer += chunk
        shown: list[str] = []
        while self.buffer:
            marker = _MARKER.search(self.buffer)
            end = _END.search(self.buffer)
            if marker is not None and (end is None or marker.start() <= end.start()):
                shown.append(self._sentence(self.buffer[: marker.start()]))
                shown.append(marker.group(0))
                self._enter(marker)
                self.buffer = self.buffer[marker.end() :]
                continue
            if end is None:
                break
            cut = end.end()
            shown.append(self._sentence(self.buffer[:cut]))
            self.buffer = self.buffer[cut:]
        return "".join(shown)

    def finish(self) -> str:
        rest, self.buffer = self.buffer, ""
        if "[" in rest:  # an unfinished marker
            rest = rest[: rest.index("[")]
        return self._sentence(rest)

    def _enter(self, marker: re.Match[str]) -> None:
        kind = marker.group(1).upper()
        self.section = handle(marker.group(2)) if kind.startswith("WINE") else None

    def _sentence(self, text: str) -> str:
        """`text` (one sentence with its spacing) when it may be shown, else ''."""
        if not text.strip():
            return text
        sentence = read_sentence(text.strip())
        if sentence.question:
            return text
        if self.section is None:
            shown = list(self.facts.values())
            prices: Collection[Decimal] = allowed_prices(
                list(self.prices.values()), self.request.asked
            )
            ok = all(
                set_verdict(sentence, c, shown, self.request) is Verdict.OK
                for c in sentence.claims
                if c.kind != "price"
            )
        else:
            facts = self.facts.get(self.section)
            if facts is None:
                return ""
            prices = allowed_prices([self.prices[self.section]], self.request.asked)
            ok = all(facts.check(c) is Verdict.OK for c in sentence.claims if c.kind != "price")
        if any(c.kind == "price" for c in sentence.claims):
            ok = ok and not states_wrong_price(sentence.text, prices)
        return text if ok else ""
