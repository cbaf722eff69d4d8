"""The security review's findings, each proved against a real server (SQLite; none depends on the storage) or,
for the match seeds, against the functions the director deals with."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from server_helpers import Client, LiveServer

MASK = (1 << 64) - 1


# ------------------------------------------------------------------------------ 1. match seeds run backwards
def _unxorshift(z: int, s: int) -> int:
    x = z
    for _ in range(64 // s):
        x = z ^ (x >> s)
    return x & MASK


def _splitmix_state(out: int) -> int:
    """The SplitMix64 state (after its increment) whose output is ``out``."""
    z = _unxorshift(out, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z = _unxorshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    return _unxorshift(z, 30)


def _fnv(label: str) -> int:
    h = 0xCBF29CE484222325
    for b in label.encode():
        h = ((h ^ b) * 0x100000001B3) & MASK
    return h


def _seed_before(out: int, label: str) -> int:
    """The seed ``derive(seed, label)`` made ``out`` from."""
    return ((_splitmix_state(out) - 0x9E3779B97F4A7C15) & MASK) ^ _fnv(label)


def test_a_match_deals_seed_gives_away_no_deal_to_come() -> None:
    """A finished deal's seed is in its record for everybody signed in (``/api/deals/{id}``, match deals being
    public).  The tournament core makes seeds with SplitMix64, which runs backwards: from one deal's seed an
    entrant had the table's seed, then the match's, then every hand still to be dealt at every table."""
    from qipai.host.matchplay import deal_seed
    from qipai.tournaments import TableAssignment
    from qipai.tournaments.events import derive

    match_seed = 0x1234_5678_9ABC_DEF0 & ((1 << 63) - 1)

    def table(key: str) -> TableAssignment:
        return TableAssignment(key, 0, 0, 1, ("x", "y", "z"), ("x", "y", "z"), ("x", "y", "z"), 3, 10, None,
                               (1000, 1000, 1000), derive(match_seed, f"table:{key}"))

    mine, other = table("1.1.1"), table("1.1.2")
    seen = deal_seed(mine, 1)  # what the first deal's record shows
    guesses = set()
    for top in range(4):  # the record keeps 62 of the 64 bits
        table_seed = _seed_before(seen | (top << 62), "deal:1")
        m = _seed_before(table_seed, "table:1.1.1")
        guesses.add(derive(derive(m, "table:1.1.2"), "deal:1") & ((1 << 62) - 1))
        guesses.add(derive(table_seed, "deal:2") & ((1 << 62) - 1))
    assert deal_seed(other, 1) not in guesses, "another table's hand follows from this deal's seed"
    assert deal_seed(mine, 2) not in guesses, "this table's next hand follows from this deal's seed"
    # still one seed per deal, the same every time (a restart deals the same)
    assert deal_seed(mine, 1) == seen != deal_seed(mine, 2) and 0 <= seen < 1 << 62


# ------------------------------------------------------------------------------ 2. bodies read to the end first
async def _raw_post(server: LiveServer, path: str, head: str, first: bytes) -> bytes:
    """Send a request's head and the first part of its body, then read what comes back (within 5 s)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        writer.write(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                     f"Content-Type: application/json\r\n{head}\r\n".encode() + first)
        await writer.drain()
        return await asyncio.wait_for(reader.read(4096), 5)
    finally:
        writer.close()


async def test_a_huge_body_is_refused_before_it_is_read(start: Any) -> None:
    """A body over the limit was read to its end (into memory) before it was measured: a client announcing
    or streaming gigabytes held the server's memory for as long as it liked."""
    server = await start()
    for path in ("/api/login", "/api/games/doudizhu/check"):
        answer = await _raw_post(server, path, "Content-Length: 2000000000\r\n", b"{" + b" " * 65536)
        assert answer.startswith(b"HTTP/1.1 413"), (path, answer[:200])
        chunk = b"%x\r\n%s\r\n" % (32768, b" " * 32768)
        answer = await _raw_post(server, path, "Transfer-Encoding: chunked\r\n", chunk * 4)
        assert answer.startswith(b"HTTP/1.1 413"), (path, answer[:200])
    async with httpx.AsyncClient(base_url=server.http) as h:  # bodies within the limit as before
        r = await h.post("/api/guest", json={})
        assert r.status_code == 201
        r = await h.post("/api/login", content=json.dumps({"name": "nobody", "password": "x" * 12}),
                         headers={"Content-Type": "application/json"})
        assert r.status_code == 401


# ------------------------------------------------------------------------------ 3. invite codes swept
async def test_wrong_invite_codes_are_limited_per_address(start: Any) -> None:
    """An invite code is 30 bits and nothing limited looking codes up (``GET /api/invites/{code}``, ``join``):
    the open private tables' codes could be swept, and their tables joined or watched."""
    server = await start()
    host = await Client.register(server, "inviter")
    await host.connect()
    await host.send({"type": "create_table", "room": "classic-1", "id": 1})
    joined = await host.wait_for(lambda m: m["type"] == "joined")
    code = joined["invite_code"]
    prowler = await Client.register(server, "prowler")
    async with prowler.api() as h:
        codes = [(await h.get(f"/api/invites/ZZZZ{i:02d}")).status_code for i in range(30)]
        assert codes[0] == 404 and 429 in codes, codes
        r = await h.post("/api/tables/join", json={"invite": "ZZZZ99"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    await prowler.connect()
    mark = prowler.mark()
    await prowler.send({"type": "join", "invite": "ZZZZ98", "id": 2})
    await prowler.error("rate_limited", mark)
    await prowler.send({"type": "spectate", "table": joined["table"], "invite": "ZZZZ97", "id": 3})
    await prowler.error("rate_limited", mark)
    # another address with the right code: shown, joined (a right code never counts)
    other = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=server.http, transport=other,
                                 headers={"Authorization": f"Bearer {prowler.token}"}) as h:
        for _ in range(25):
            r = await h.get(f"/api/invites/{code}")
            assert r.status_code == 200, r.text
        r = await h.post("/api/tables/join", json={"invite": code})
        assert r.status_code == 200 and r.json()["table"] == joined["table"], r.text
    for c in (host, prowler):
        c.violations.clear()
        await c.close()


async def test_websockets_are_capped_per_account_and_per_address(start: Any) -> None:
    """One account (or one address) could open sockets until the server ran out of file descriptors: each
    may hold a set number, one more is refused with ``too_many_connections`` (close code 4429), and a socket
    closed makes room again."""
    server = await start(max_user_connections=2, max_address_connections=4)
    hog = await Client.register(server, "hog")
    a, b = Client(server, hog.token, hog.user), Client(server, hog.token, hog.user)
    await a.connect()
    await b.connect()
    headers = {"Authorization": f"Bearer {hog.token}"}
    async with connect(server.ws, additional_headers=headers) as ws:
        refused = json.loads(await ws.recv())
        assert refused["code"] == "too_many_connections" and "2 connections" in refused["message"]
        await ws.wait_closed()
        assert ws.close_code == 4429
    await b.close()
    c = await Client(server, hog.token, hog.user).connect()  # one closed: room for one again
    # the address: sockets still authenticating count too
    pending = [await connect(server.ws) for _ in range(2)]
    async with connect(server.ws) as ws:
        refused = json.loads(await ws.recv())
        assert refused["code"] == "too_many_connections" and "address" in refused["message"]
    for p in pending:
        await p.close()
    other = await Client.register(server, "neighbour")
    await other.connect()  # the pending ones closed: the address has room
    for x in (a, c, other):
        await x.close()


# ------------------------------------------------------------------------------ 4. cookies over https
async def test_the_session_cookie_is_secure_when_the_site_is_https(start: Any) -> None:
    """Behind an HTTPS proxy (or with an ``https:`` public URL) the session cookie went out without ``Secure``
    unless the operator also remembered ``--secure-cookies``: a single plain-http request then carried it."""
    server = await start(trusted_proxies=("127.0.0.1",))
    async with httpx.AsyncClient(base_url=server.http) as h:
        r = await h.post("/api/guest", json={})
        assert "secure" not in r.headers["set-cookie"].lower()  # plain http: the cookie must still work
        r = await h.post("/api/guest", json={}, headers={"X-Forwarded-Proto": "https"})
        cookie = r.headers["set-cookie"].lower()
        assert "; secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie, cookie
    await server.stop()
    server = await start(public_url="https://cards.example/")
    async with httpx.AsyncClient(base_url=server.http) as h:
        r = await h.post("/api/guest", json={})
        assert "; secure" in r.headers["set-cookie"].lower(), r.headers["set-cookie"]


# ------------------------------------------------------------------------------ 5. old password guessed
async def test_guessing_the_old_password_backs_off_as_log_ins_do(start: Any) -> None:
    """``POST /api/password`` checked the old password with no backoff: a stolen session could guess it (and
    then lock the owner out) at the address rate limit, past the log-in's backoff."""
    server = await start(login_backoff_after=3)
    c = await Client.register(server, "pw-owner", "right-pw")
    async with c.api() as h:
        for _ in range(3):
            r = await h.post("/api/password", json={"old": "wrong-pw", "new": "taken-over"})
            assert r.status_code == 401
        r = await h.post("/api/password", json={"old": "right-pw", "new": "taken-over"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "login_backoff", r.text
        # ... and so does a log-in from there (the same count)
        r = await h.post("/api/login", json={"name": "pw-owner", "password": "right-pw"})
        assert r.status_code == 429


# ------------------------------------------------------------------------------ 6. names passing for bots
async def test_names_the_client_shows_as_bots_or_guests_are_reserved(start: Any) -> None:
    """The Chinese client words a bot seat ``电脑1号`` and a guest ``游客0427``; a player could take those very
    names and pass for a bot (or a guest) at the table."""
    server = await start()
    async with httpx.AsyncClient(base_url=server.http) as h:
        for name in ("电脑1号", "電腦2號", "游客0427", "遊客1", "电脑"):
            r = await h.post("/api/register", json={"name": name, "password": "secret-pw"})
            assert r.status_code == 400 and r.json()["error"]["params"]["reason"] == "reserved", (name, r.text)
        r = await h.post("/api/register", json={"name": "小电脑迷", "password": "secret-pw"})
        assert r.status_code == 201, r.text


async def test_names_passing_for_the_servers_staff_are_refused(start: Any) -> None:
    """``官方客服``, ``系统消息``, ``Admin_Li`` (full-width ``ＡＤＭＩＮ``, Cyrillic ``ѕуѕтем`` too) were names anyone
    could take and then, in the chat or a friend request, pass for the operator's staff; the account saved from a
    guest is checked the same way.  A name merely near such a word is fine."""
    server = await start()
    async with httpx.AsyncClient(base_url=server.http) as h:
        for name in ("官方客服", "系统消息", "Admin_Li", "ＡＤＭＩＮ", "ѕуѕтем", "the.moderator", "管理員小王",
                     "QipaiOfficial", "SYSTEM-1"):
            r = await h.post("/api/register", json={"name": name, "password": "secret-pw"})
            assert r.status_code == 400 and r.json()["error"]["params"]["reason"] == "staff", (name, r.text)
        for name in ("小官迷", "admiral", "管家婆"):
            r = await h.post("/api/register", json={"name": name, "password": "secret-pw"})
            assert r.status_code == 201, (name, r.text)
        r = await h.post("/api/guest", json={})
        assert r.status_code in (200, 201), r.text
        r = await h.post("/api/account", json={"name": "客服001", "password": "secret-pw"})
        assert r.status_code == 400 and r.json()["error"]["params"]["reason"] == "staff", r.text


# ------------------------------------------------------------------------------ 7. admin token
async def test_an_admin_token_with_other_characters_is_refused_not_a_server_error(start: Any) -> None:
    server = await start(admin_token="s3cret-token")
    async with httpx.AsyncClient(base_url=server.http) as h:
        for got in (b"\xe9t\xe9", b"s3cret-tokeN", "ключ".encode()):
            r = await h.post("/api/admin/matches", json={"definition": {}}, headers={"X-Admin-Token": got})
            assert r.status_code == 403 and r.json()["error"]["code"] == "not_allowed", (got, r.status_code)


# ------------------------------------------------------------------------------ 8. relief paid once per request
async def test_relief_sent_many_times_at_once_is_paid_once(start: Any) -> None:
    """救济 was checked (below every room's minimum, none in the last day) apart from the grant: requests sent
    together each passed the check before the first grant was written, and each was paid — 30 requests, 30
    reliefs (15,000 points for a broke account, over and over)."""
    server = await start(guest_points=0, relief_points=500)
    c = await Client.guest(server)
    clients = [httpx.AsyncClient(base_url=server.http, headers={"Authorization": f"Bearer {c.token}"})
               for _ in range(20)]
    try:
        for h in clients:  # connections open, so the requests arrive together
            assert (await h.get("/api/health")).status_code == 200
        answers = await asyncio.gather(*[h.post("/api/relief", json={"game": "doudizhu"}) for h in clients])
        codes = sorted(r.status_code for r in answers)
        assert codes == [200] + [409] * 19, codes
        me = (await clients[0].get("/api/me")).json()
        assert me["games"]["doudizhu"]["points"] == 500, me["games"]["doudizhu"]
    finally:
        for h in clients:
            await h.aclose()
    check = await server.lobby.store.ledger_check("doudizhu")
    assert check["points"] == check["ledger"] and check.get("reason:relief") == 500, check


async def test_relief_due_is_said_for_every_game_and_not_after_it_is_paid(start: Any) -> None:
    """/api/me's ``relief_due`` said false for a game never played (relief opens its standing: it was due), and the
    browser, not reading it, offered 领取救济 again after a reload once it was paid (refused, 409)."""
    server = await start(guest_points=0, relief_points=500)
    c = await Client.guest(server)
    async with httpx.AsyncClient(base_url=server.http, headers={"Authorization": f"Bearer {c.token}"}) as h:
        games = (await h.get("/api/me")).json()["games"]
        assert all(g["relief_due"] for g in games.values()), games  # broke in every game, none played yet
        assert (await h.post("/api/relief", json={"game": "mahjong"})).status_code == 200
        games = (await h.get("/api/me")).json()["games"]
        assert games["mahjong"]["points"] == 500 and not games["mahjong"]["relief_due"], games["mahjong"]
        assert games["doudizhu"]["relief_due"], games["doudizhu"]
        assert (await h.post("/api/relief", json={"game": "mahjong"})).status_code == 409


# ------------------------------------------------------------------- 9. no easy points from chosen bots
async def test_a_table_for_points_keeps_the_rooms_autoplay_and_no_weaker_bots(start: Any) -> None:
    """A private table for points with ``autoplay_bot: hard`` and ``seat_bot: easy``: its creator turned
    auto-play on and won points without a move (1000 → 1053 in 23 deals). For points, auto-play is the room's own
    and the seats' bots the room's level or stronger; at a table for no points either may be chosen."""
    server = await start()
    u = await Client.register(server, "farmer1")
    async with u.api() as h:
        # (the strong auto-play also by the game's own option, with or without naming the bot it is)
        for body in ({"autoplay_bot": "hard"}, {"seat_bot": "easy"}, {"seat_bot": "random"},
                     {"options": {"autoplay": "smart"}},
                     {"options": {"autoplay": "smart"}, "autoplay_bot": "heuristic"}):
            r = await h.post("/api/tables", json={"room": "classic-1", **body})
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_options", r.text
            assert "for_points false" in r.json()["error"]["message"], r.text
        assert server.lobby._current(u.user["id"]) is None  # nothing was made
        r = await h.post("/api/tables", json={"room": "classic-1", "seat_bot": "hard"})  # stronger: fine
        assert r.status_code == 200, r.text
        assert (await h.post(f"/api/tables/{r.json()['table']}/leave", json={})).status_code == 200
        r = await h.post("/api/tables", json={"room": "classic-1", "options": {"autoplay": "passive"}})
        assert r.status_code == 200, r.text  # the room's own, said in so many words: fine
        assert (await h.post(f"/api/tables/{r.json()['table']}/leave", json={})).status_code == 200
        r = await h.post("/api/tables", json={"room": "classic-1", "for_points": False, "seat_bot": "easy",
                                              "autoplay_bot": "hard"})
        assert r.status_code == 200, r.text
        assert (await h.post(f"/api/tables/{r.json()['table']}/leave", json={})).status_code == 200
        r = await h.post("/api/tables", json={"room": "classic-1", "for_points": False,
                                              "options": {"autoplay": "smart"}})
        assert r.status_code == 200, r.text


# ------------------------------------------------------------------------------ checked and fine
async def test_what_was_checked_and_holds(start: Any) -> None:
    """Cross-site WebSockets, path traversal in the static files, the records of running and others' deals."""
    server = await start()
    c = await Client.guest(server)
    evil = {"Origin": "http://evil.example", "Cookie": f"qipai_session={c.token}"}
    with pytest.raises(InvalidStatus):  # refused before the handshake completes
        async with connect(server.ws, additional_headers=evil) as ws:
            await ws.recv()
    async with connect(server.ws, additional_headers={"Origin": server.http,
                                                      "Cookie": f"qipai_session={c.token}"}) as ws:
        assert json.loads(await ws.recv())["type"] == "welcome"
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    for path in ("/../../pyproject.toml", "/%2e%2e/%2e%2e/pyproject.toml", "/js/..%2f..%2fserver%2fapp.py",
                 "/..%5c..%5cserver%5capp.py"):
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert head.startswith(b"HTTP/1.1 404"), (path, head)
        length = int(next(x.split(b":")[1] for x in head.split(b"\r\n") if x.lower().startswith(b"content-length")))
        body = await reader.readexactly(length)
        assert b"[project]" not in body and b"create_app" not in body
    writer.close()
    # a deal still running: nobody (not even its players) reads its record; another's finished deal: refused
    a = await Client.guest(server)
    await a.connect()
    await a.send({"type": "quick_match", "room": "classic-1"})
    st = await a.wait_for(lambda m: m["type"] == "state")
    async with a.api() as h:
        for suffix in ("", "/replay", "/review"):
            r = await h.get(f"/api/deals/{st['deal']}{suffix}")
            assert r.status_code == 409 and r.json()["error"]["code"] == "deal_running", (suffix, r.text)
    await a.play_until_over()
    async with c.api() as h:
        for suffix in ("", "/replay", "/review"):
            r = await h.get(f"/api/deals/{st['deal']}{suffix}")
            assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_deal", (suffix, r.text)
    a.violations.clear()
    await a.close()
