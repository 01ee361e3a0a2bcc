import json
from tests.agent_fixtures import *
from tests.fakes.openai_server import *
from services.sommelier import UserContext

async def test_proto(seeded):
    async with fake_openai() as server:
        def answer(body):
            ids = ids_in(catalog_lines(body))
            return reply(formatted_answer([(i, why_for(i)) for i in ids[:3]]))
        server.script(error(400), responder(answer))
        async with sommelier_service(seeded, agent_settings(server.base_url)) as svc:
            rec = await svc.generate_response(UserContext(), "белое до 1500", [])
        print(rec.path, rec.llm_calls, rec.tools_called, rec.fallback_reason, [(w.name, w.price_rub) for w in rec.wines])
        print(server.requests[1].keys(), len(catalog_lines(server.requests[1])))
        print("\n".join(catalog_lines(server.requests[1])))
        print(server.errors)
