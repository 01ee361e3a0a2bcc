import json
from tests.agent_fixtures import *
from tests.fakes.openai_server import *
from services.sommelier import UserContext
from repositories.wines import WineRepository
from services.offline_recommender import offline_recommendation
from services.offline_parser import parse_query


async def test_proto(seeded):
    async with seeded.sessions() as s:
        repo = WineRepository(s)
        for name in [
            "Château Imaginaire Merlot 1982",
            "Несуществующее Мерло",
            "Domaine Fantôme Grand Cru",
            "Vino Inventato Rosso",
            "catena malbec",
            "Catena",
        ]:
            w = await repo.find_by_name(name)
            print(repr(name), "->", w and w.name)
    for q in [
        "розовое из Чили",
        "игристое из Грузии",
        "сладкое красное из Новой Зеландии до 1000",
        "белое к стейку до 700",
        "портвейн до 600",
    ]:
        intro, wines, closing = await offline_recommendation(seeded.sessions, q)
        print(
            q,
            parse_query(q).filters.model_dump(exclude_none=True),
            intro,
            [(w.name, w.wine_type, w.country, w.price_rub) for w in wines],
        )
    async with fake_openai() as server:
        server.script(
            raw_tool_calls(
                [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "search_wines", "arguments": {"wine_type": "white"}},
                    }
                ]
            ),
            reply("hi"),
        )
        async with sommelier_service(seeded, agent_settings(server.base_url)) as svc:
            rec = await svc.generate_response(UserContext(), "белое", [])
        print(rec.path, rec.llm_calls, rec.tools_called, rec.fallback_reason)
        for r in server.requests:
            print(json.dumps(r["messages"][1:], ensure_ascii=False)[:600])
        print(server.errors)
