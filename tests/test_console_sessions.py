"""Who gets into the shop's console, tried from outside over the bot's HTTP server and the fake
Bot API: no other signed token passes for a session, a link and a session expire, an admin
taken out of ADMIN_IDS is out at once, a customer's /console gets no link, and a public server
keeps its metrics to itself."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

import aiohttp
from itsdangerous import URLSafeTimedSerializer

from services.app.console.access import ConsoleAccess
from services.app.runtime import Runtime
from services.app.signing import Signer, signing_key
from services.app.texts import T
from tests.bot_harness import ADMIN_ID
from tests.bot_helpers import adult, ask, cards
from tests.console_harness import (
    CUSTOMER,
    ConsoleStack,
    buy_link,
    console_link,
    console_stack,
    http_get,
)
from web.console.routes import LOGIN_PURPOSE

MINUTE = 60
HOUR = 3600


async def _session(link: str) -> str:
    """The session cookie a one-time link sets."""
    async with aiohttp.ClientSession() as http, http.get(link, allow_redirects=False) as r:
        assert r.status == 303, r.status
        return r.cookies["console"].value


async def _opens(stack: ConsoleStack, cookie: str) -> bool:
    """Whether this cookie, as the console's session, opens a page and a CSV."""
    statuses = {
        (await http_get(f"{stack.base}/console/{path}", cookies={"console": cookie}))[0]
        for path in ("overview", "unmet.csv?table=requests")
    }
    assert len(statuses) == 1 and statuses <= {200, 403}, statuses
    return statuses == {200}


def _signed_ago(stack: ConsoleStack, seconds: float) -> Signer:
    """The server's own signer, with a clock `seconds` in the past."""
    key = signing_key(stack.bot.settings)
    return Signer(key, clock=lambda: time.time() - seconds)


async def test_no_other_signed_token_passes_for_a_console_session(seeded: Runtime) -> None:
    async with console_stack(seeded) as stack:
        session = await _session(await console_link(stack))
        assert await _opens(stack, session)
        async with aiohttp.ClientSession() as http, http.get(f"{stack.base}/chat") as r:
            visitor = r.cookies["sommelier_visitor"].value  # what every /chat visitor gets
        link_token = parse_qs(urlsplit(await console_link(stack)).query)["t"][0]
        await adult(stack.bot, CUSTOMER)
        go = buy_link(cards(await ask(stack.bot, CUSTOMER, "белое сухое"))[0])
        assert go is not None
        master = signing_key(stack.bot.settings)  # the console's purpose, the shared key
        legacy = URLSafeTimedSerializer(master, salt=LOGIN_PURPOSE).dumps(ADMIN_ID)
        for name, token in (
            ("visitor cookie", visitor),
            ("one-time link", link_token),
            ("/go/ token", go.rsplit("/", 1)[1]),
            ("signed under the shared key", legacy),
        ):
            assert not await _opens(stack, token), name
        # Nor does the console's session pass for a web chat visitor.
        async with aiohttp.ClientSession() as http:
            http.cookie_jar.update_cookies({"sommelier_visitor": session})
            async with http.post(
                f"{stack.base}/chat/api/age", json={"adult": True}, headers={"Origin": stack.base}
            ) as r:
                assert r.status == 401 and (await r.json())["error"] == "visitor"


async def test_a_link_lasts_ten_minutes_and_a_session_twelve_hours(seeded: Runtime) -> None:
    async with console_stack(seeded) as stack:
        database = stack.bot.services.database

        def link_made(ago: float) -> str:
            access = ConsoleAccess(database, _signed_ago(stack, ago), stack.base)
            link = access.link(ADMIN_ID)
            assert link is not None
            return link

        stale = link_made(10 * MINUTE + 5)
        assert (await http_get(stale, allow_redirects=False))[0] == 403
        assert await _opens(stack, await _session(link_made(9 * MINUTE)))

        for ago, opens in ((12 * HOUR + 5, False), (12 * HOUR - 5 * MINUTE, True)):
            session = _signed_ago(stack, ago).sign(ADMIN_ID, LOGIN_PURPOSE)
            assert await _opens(stack, session) is opens, ago


async def test_an_admin_taken_out_of_admin_ids_loses_an_open_session(seeded: Runtime) -> None:
    async with console_stack(seeded) as stack:
        session = await _session(await console_link(stack))
        unused = (await console_link(stack)).removeprefix(stack.base)
        assert await _opens(stack, session)
    # Restarted (or another replica) with ADMIN_IDS that no longer name them; the same key.
    async with console_stack(seeded, admin_ids="900002") as stack:
        assert not await _opens(stack, session)
        assert (await http_get(stack.base + unused, allow_redirects=False))[0] == 403


async def test_a_customers_console_command_gets_no_link(seeded: Runtime) -> None:
    async with console_stack(seeded) as stack:
        await adult(stack.bot, CUSTOMER)
        replies = await ask(stack.bot, CUSTOMER, "/console")
        assert [r.visible_text for r in replies] == [T.unknown_command]
        assert "/console/login" not in str([r.params for r in replies])
        assert await console_link(stack)  # an admin, the same moment, gets one


async def test_metrics_stay_private_on_a_public_server_without_a_token(seeded: Runtime) -> None:
    async with console_stack(seeded) as stack:  # PUBLIC_URL set, no API_TOKEN
        status, body, _ = await http_get(f"{stack.base}/metrics")
        assert status == 404 and "sommelier_" not in body
    async with console_stack(seeded, public_url=None) as stack:  # a private server shows them
        status, body, _ = await http_get(f"{stack.base}/metrics")
        assert status == 200 and "sommelier_answers_total" in body
