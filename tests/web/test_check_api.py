"""POST /api/games/doudizhu/check (qipai.games.doudizhu.check): why a selection can or cannot be played."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from qipai.games.doudizhu import check as webapi
from qipai.host.settings import Settings
from qipai.server.app import Guard, game_routes


def check(**body: Any) -> dict[str, Any]:
    return webapi.check(body)


def test_reasons() -> None:
    assert check(cards="", preset="classic")["reason"] == "empty"
    r = check(cards="3345", preset="classic")
    assert (r["valid"], r["reason"]) == (False, "invalid")
    r = check(cards="3456 7", options={"preset": "classic", "stake": 10})
    assert r["valid"] and r["reason"] is None and r["readings"][0]["kind"] == "straight"
    assert check(cards="55", preset="classic", last="66")["reason"] == "too_low"
    assert check(cards="77", preset="classic", last="66")["beats"] is True
    assert check(cards="555", preset="classic", last="66")["reason"] == "wrong_kind"
    assert check(cards="5555", preset="classic", last="66")["beats"] is True
    assert check(cards="5555", preset="classic", last="BR")["reason"] == "too_low"
    # suits and tens written out are read as ranks
    assert check(cards="10H 10S", preset="classic", last="9S 9D")["beats"] is True
    # the rules decide: no triple with a single kicker in four-player games, BBRR is the rocket with two decks
    assert check(cards="3334", preset="four_player")["reason"] == "invalid"
    assert check(cards="BBRR", preset="four_player", last="88888888")["beats"] is True
    # an ambiguous last play is read as its kind says
    r = check(cards="444555666777", preset="classic", last="333444555666", last_kind="plane")
    assert r["beats"] is True and [x["kind"] for x in r["readings"] if x["beats"]] == ["plane"]


def test_bad_bodies() -> None:
    with pytest.raises(webapi.CheckError):
        check(cards="33", preset="nonsense")
    with pytest.raises(webapi.CheckError):
        check(cards="33", preset="classic", last="34")
    assert check(cards="XX", preset="classic")["reason"] == "invalid"


async def test_endpoint() -> None:
    app = Guard(Starlette(routes=game_routes(Settings())), allowed_origins=())
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        r = await c.post("/api/games/doudizhu/check", json={"cards": "33", "options": {"preset": "jj"}, "last": "44"})
        assert r.status_code == 200 and r.json()["reason"] == "too_low"
        r = await c.post("/api/games/doudizhu/check", content=b"[1]", headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
        r = await c.post("/api/games/doudizhu/check", json={"cards": 3})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        # not JSON, or from another site: refused before the route (CSRF)
        url = "/api/games/doudizhu/check"
        r = await c.post(url, content=b'{"cards": "33"}', headers={"Content-Type": "text/plain"})
        assert r.status_code == 415 and r.json()["error"]["code"] == "not_json"
        r = await c.post(url, json={"cards": "33"}, headers={"Origin": "http://evil.example"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin"
        assert r.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
