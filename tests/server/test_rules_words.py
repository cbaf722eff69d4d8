"""玩法说明 over HTTP: ``/api/rules/{game}`` gives a game's rules in words (the game's own, through the interface),
open without an account, for a preset (GET) or a table's own options (POST); what it cannot word is a clear 4xx."""

from __future__ import annotations

from typing import Any

import httpx

from qipai.core.explain import sections_json
from qipai.core.game import explain_rules
from qipai.core.registry import game_names, get_factory
from qipai.host.settings import Room

from server_helpers import Client, StartServer
from toygames import CountFactory


def text(answer: dict[str, Any]) -> str:
    return "\n".join(
        s["title"] + "\n" + "\n".join(i if isinstance(i, str) else "\n".join(i) for i in s["items"])
        for s in answer["sections"]
    )


async def test_every_games_rules_in_both_languages_without_an_account(start: StartServer) -> None:
    server = await start()
    async with httpx.AsyncClient(base_url=server.http) as h:  # (no session: the rules page is open to everyone)
        for game in game_names():
            f = get_factory(game)
            for preset in f.info.presets:
                for lang in ("zh", "en"):
                    r = await h.get(f"/api/rules/{game}", params={"preset": preset, "lang": lang})
                    assert r.status_code == 200, r.text
                    body = r.json()
                    assert body["game"] == game and body["lang"] == lang and body["preset"] == preset
                    assert body["options"] == f.options({"preset": preset})
                    assert body["sections"] == sections_json(explain_rules(f, {"preset": preset}, lang))
                    assert body["sections"], (game, preset)
        # defaults: the game's first preset, in Chinese
        r = await h.get("/api/rules/shengji")
        assert r.status_code == 200 and r.json()["preset"] == "four_deck" and r.json()["lang"] == "zh"
        assert "四副牌共 216 张" in text(r.json())


async def test_a_tables_own_options(start: StartServer) -> None:
    """A private table's options (a preset and what it sets) are worded as they are: POST them."""
    server = await start()
    async with httpx.AsyncClient(base_url=server.http) as h:
        r = await h.post(
            "/api/rules/shengji",
            json={"options": {"preset": "four_deck", "throws": False, "hand_limit": 8}, "lang": "en"},
        )
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["options"]["throws"] is False and body["options"]["hand_limit"] == 8
        ids = [s["id"] for s in body["sections"]]
        assert "throws" not in ids and "there are no throws at this table" in text(body)
        assert "At most 8 hands" in text(body)
        # a Dou Dizhu table without bombs or escape penalty says so; the lang may come in the query too
        r = await h.post(
            "/api/rules/doudizhu?lang=en",
            json={"options": {"preset": "chengdu", "escape_penalty": False, "kinds": ["single", "pair"]}},
        )
        assert r.status_code == 200, r.text
        words = text(r.json())
        assert "Escaping" not in words and "costs nothing extra" in words and "Bomb:" not in words
        assert "double (倒)" in words  # chengdu's doubling stays
        # no options at all: the game's first preset
        r = await h.post("/api/rules/mahjong", json={})
        assert r.status_code == 200 and r.json()["preset"] == "daqing" and r.json()["lang"] == "zh"


async def test_what_cannot_be_worded_is_a_clear_error(start: StartServer) -> None:
    server = await start()
    async with httpx.AsyncClient(base_url=server.http) as h:

        async def error(r: httpx.Response, status: int) -> dict[str, Any]:
            assert r.status_code == status, r.text
            err: dict[str, Any] = r.json()["error"]
            return err

        e = await error(await h.get("/api/rules/chess"), 404)
        assert e["code"] == "unknown_game" and e["params"]["game"] == "chess"
        e = await error(await h.get("/api/rules/doudizhu", params={"preset": "nope"}), 404)
        assert e["code"] == "unknown_preset" and "chengdu" in e["params"]["presets"]
        e = await error(await h.get("/api/rules/doudizhu", params={"lang": "fr"}), 400)
        assert e["code"] == "bad_field" and e["params"]["field"] == "lang"
        e = await error(await h.post("/api/rules/doudizhu", json={"options": {"players": 9}}), 400)
        assert e["code"] == "bad_options" and e["params"]["option"] == "players" and "players" in e["params"]["reason"]
        e = await error(await h.post("/api/rules/doudizhu", json={"options": {"preset": "nope"}}), 400)
        assert e["code"] == "bad_options" and "nope" in e["params"]["reason"]
        e = await error(await h.post("/api/rules/mahjong", json={"options": {"colour": "red"}}), 400)
        assert e["code"] == "bad_options"
        e = await error(await h.post("/api/rules/mahjong", json={"options": "daqing"}), 400)
        assert e["code"] == "bad_field" and e["params"]["field"] == "options"
        e = await error(await h.post("/api/rules/mahjong", json={"table": "T1"}), 400)
        assert e["code"] == "bad_field"
        e = await error(await h.post("/api/rules/mahjong", json={"lang": "de"}), 400)
        assert e["code"] == "bad_field" and e["params"]["field"] == "lang"
        # a POST from another site is refused like any state-changing request
        r = await h.post("/api/rules/mahjong", json={}, headers={"Origin": "https://evil.example"})
        assert r.status_code == 403


async def test_the_words_of_the_table_one_sits_at(start: StartServer) -> None:
    """A client words the rules of its table from the options its table view gives (a private table's own)."""
    server = await start()
    c = await Client.guest(server)
    made = await c.post("/api/tables", {"room": "daqing-1", "options": {"auto_hu": False}, "for_points": False})
    options = (await c.get(f"/api/tables/{made['table']}"))["options"]
    assert options["auto_hu"] is False
    answer = await c.post("/api/rules/mahjong", {"options": options, "lang": "en"})
    assert "you choose to win or pass" in text(answer) and "Automatic win" not in text(answer)


async def test_a_game_without_words_has_no_sections(start: StartServer) -> None:
    """The server knows games through the interface only: a game whose factory words nothing gives no sections."""
    server = await start(
        rooms=[Room("count-1", "count", {}, 1, 0, "counting")],
        games=lambda n: CountFactory if n == "count" else get_factory(n),
    )
    from qipai.core.registry import register, unregister

    register("count", CountFactory)
    try:
        async with httpx.AsyncClient(base_url=server.http) as h:
            r = await h.get("/api/rules/count")
            assert r.status_code == 200 and r.json()["sections"] == []
    finally:
        unregister("count")
