"""A stand-in Telegram for checking a deployment by hand (scripts/docker-check.sh): the
project's fake Bot API server on HOST:PORT, and one person who passes the 18+ gate and asks
a question. Prints what the bot sent and exits 0 once wine cards arrived, 1 otherwise.

    python scripts/fake_telegram.py --port 8081 --token 123456:CHECK --ask "белое к рыбе"
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from fakes.telegram_server import FakeTelegramServer, SentCall

CHAT = 4242


def _cards(calls: list[SentCall]) -> list[SentCall]:
    return [c for c in calls if "💰" in (c.visible_text or "")]


async def main(args: argparse.Namespace) -> int:
    tg = FakeTelegramServer(args.token)
    await tg.start(args.host, args.port)
    print(f"fake Telegram on {tg.base_url}", flush=True)
    try:
        await tg.wait_for(lambda calls: any(c.method == "getMe" for c in calls), args.timeout)
        tg.push_update(tg.message_update(CHAT, "/start"))
        await tg.wait_for(lambda _: bool(tg.sent(chat_id=CHAT)), args.timeout)
        gate = tg.sent(chat_id=CHAT)[-1]
        tg.push_update(tg.callback_update(CHAT, "age:1", message_id=gate.message_id or 0))
        await tg.wait_for(lambda _: len(_cards(tg.sent(chat_id=CHAT))) >= 3, args.timeout)
        before = len(tg.sent(chat_id=CHAT))
        tg.push_update(tg.message_update(CHAT, args.ask))
        await tg.wait_for(lambda _: len(_cards(tg.sent(chat_id=CHAT)[before:])) >= 1, args.timeout)
        await asyncio.sleep(1.0)
        for call in tg.sent(chat_id=CHAT)[before:]:
            print(f"bot → {call.method}: {(call.visible_text or '')[:120]!r}", flush=True)
        return 0
    except AssertionError as exc:
        print(f"no answer in time: {exc}", file=sys.stderr)
        return 1
    finally:
        if args.linger:
            await asyncio.sleep(args.linger)
        await tg.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--token", default="123456:DOCKER-CHECK")
    parser.add_argument("--ask", default="красное сухое к стейку до 2000")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--linger", type=float, default=0.0, help="seconds to serve afterwards")
    sys.exit(asyncio.run(main(parser.parse_args())))
