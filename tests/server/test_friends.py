"""好友: friend requests, the friends list with where each friend sits, unfriending, and invitations to a private
table, over real HTTP and WebSocket connections."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from server_helpers import Client, StartServer, private_table


async def delete(c: Client, user_id: int, status: int = 200) -> dict:
    return dict(await c.post(f"/api/friends/{user_id}/remove", status=status))


async def refused(c: Client, path: str, body: dict | None, status: int, code: str) -> dict:
    async with c.api() as h:
        r = await h.post(path, json=body if body is not None else {})
    assert r.status_code == status, (path, r.status_code, r.text)
    assert r.json()["error"]["code"] == code, r.text
    return dict(r.json())


async def test_request_accept_list_invite_and_unfriend(start_server: StartServer) -> None:
    server = await start_server()
    ann, bob = await Client.register(server, "ann"), await Client.register(server, "Bob")
    await bob.connect()
    made = await ann.post("/api/friends", {"name": "bob"}, status=201)  # any case
    assert made["state"] == "requested" and made["user"]["id"] == bob.user["id"]
    note = await bob.wait_for(lambda m: m["type"] == "friend")
    assert note["event"] == "request" and note["user"] == {"id": ann.user["id"], "name": "ann"}
    assert (await ann.post("/api/friends", {"name": "Bob"}, status=201))["state"] == "requested"  # asked before
    lists = await bob.get("/api/friends")
    assert lists["friends"] == [] and [u["name"] for u in lists["incoming"]] == ["ann"]
    assert [u["name"] for u in (await ann.get("/api/friends"))["outgoing"]] == ["Bob"]

    await ann.connect()
    since = ann.mark()
    assert (await bob.post(f"/api/friends/{ann.user['id']}/accept"))["state"] == "friends"
    told = await ann.wait_for(lambda m: m["type"] == "friend", since=since)
    assert told["event"] == "accepted" and told["user"]["name"] == "Bob"
    # accepting again changes nothing and tells her nothing more (no way to flood her with notices)
    assert (await bob.post(f"/api/friends/{ann.user['id']}/accept"))["state"] == "friends"
    mine = await ann.get("/api/friends")
    assert mine["incoming"] == [] and mine["outgoing"] == []
    assert mine["friends"] == [{"id": bob.user["id"], "name": "Bob", "online": True, "table": None, "watchable": False}]

    # an invitation needs a private table with a free seat; the friend joins with the code he is sent
    await refused(ann, f"/api/friends/{bob.user['id']}/invite", None, 409, "not_at_table")
    made_table = await ann.post("/api/tables", {"room": "classic-1"})
    since = bob.mark()
    assert (await ann.post(f"/api/friends/{bob.user['id']}/invite"))["table"] == made_table["table"]
    inv = await bob.wait_for(lambda m: m["type"] == "friend" and m["event"] == "invite", since=since)
    assert inv["invite_code"] == made_table["invite_code"] and inv["table"] == made_table["table"]
    assert inv["game"] == "doudizhu" and inv["room"] == "classic-1"
    joined = await bob.post("/api/tables/join", {"invite": inv["invite_code"]})
    assert joined["table"] == made_table["table"]
    seen = (await ann.get("/api/friends"))["friends"][0]
    assert seen["table"] == made_table["table"] and seen["online"] and not seen["watchable"]  # private: by invite

    # a friend offline is not invited (the message would reach nobody): the error gives the code to send him
    cy = await Client.register(server, "cy")
    await ann.post("/api/friends", {"name": "cy"}, status=201)
    await cy.post(f"/api/friends/{ann.user['id']}/accept")
    off = await refused(ann, f"/api/friends/{cy.user['id']}/invite", None, 409, "friend_offline")
    assert off["error"]["params"] == {"user": cy.user["id"], "invite_code": made_table["invite_code"]}
    await cy.connect()
    since = cy.mark()
    assert (await ann.post(f"/api/friends/{cy.user['id']}/invite"))["invited"] == cy.user["id"]
    assert (await cy.wait_for(lambda m: m["type"] == "friend" and m["event"] == "invite", since=since))["table"] \
        == made_table["table"]
    await cy.close()

    since = ann.mark()
    assert (await delete(bob, ann.user["id"]))["removed"] == ann.user["id"]
    gone = await ann.wait_for(lambda m: m["type"] == "friend", since=since)
    assert gone["event"] == "removed" and gone["user"]["id"] == bob.user["id"]
    assert [m["event"] for m in ann.msgs if m["type"] == "friend"] == ["accepted", "accepted", "removed"]  # (bob, cy)
    assert [u["name"] for u in (await ann.get("/api/friends"))["friends"]] == ["cy"]
    await refused(ann, f"/api/friends/{bob.user['id']}/invite", None, 404, "not_friends")
    await delete(bob, ann.user["id"], status=404)
    for c in (ann, bob):
        await c.close()


async def test_asking_back_makes_friends(start_server: StartServer) -> None:
    server = await start_server()
    ann, bob = await Client.register(server, "ann"), await Client.register(server, "bob")
    await ann.post("/api/friends", {"name": "bob"}, status=201)
    back = await bob.post("/api/friends", {"name": "ann"})
    assert back["state"] == "accepted"
    assert [u["name"] for u in (await ann.get("/api/friends"))["friends"]] == ["bob"]
    assert (await ann.post("/api/friends", {"name": "bob"}))["state"] == "friends"
    seated = await ann.post("/api/quick-match", {"room": "classic-1"})  # a public table: friends may watch it
    seen = (await bob.get("/api/friends"))["friends"][0]
    assert seen["table"] == seated["table"] and seen["watchable"] and seen["online"]
    # declining: the request's receiver removes it
    cy = await Client.register(server, "cy")
    await cy.post("/api/friends", {"name": "ann"}, status=201)
    await delete(ann, cy.user["id"])
    assert (await cy.get("/api/friends"))["outgoing"] == []
    await refused(ann, f"/api/friends/{cy.user['id']}/accept", None, 404, "no_request")


async def test_bad_friend_requests_are_refused_clearly(start_server: StartServer) -> None:
    server = await start_server()
    ann = await Client.register(server, "ann")
    guest = await Client.guest(server)
    await refused(ann, "/api/friends", {"name": "nobody-here"}, 404, "unknown_user")
    await refused(ann, "/api/friends", {"name": "ann"}, 400, "bad_request")
    await refused(ann, "/api/friends", {"name": 7}, 400, "bad_field")
    await refused(ann, "/api/friends", {"name": "x", "extra": 1}, 400, "bad_field")
    await refused(ann, "/api/friends", {"name": guest.user["name"]}, 409, "guest_account")
    await refused(guest, "/api/friends", {"name": "ann"}, 403, "guest_account")
    await refused(ann, "/api/friends", {"name": "x" * 10_000}, 404, "unknown_user")
    async with ann.api() as h:
        assert (await h.post("/api/friends/abc/accept", json={})).status_code == 400
        assert (await h.post(f"/api/friends/{2**70}/invite", json={})).json()["error"]["code"] == "not_friends"
    async with httpx.AsyncClient(base_url=server.http) as h:  # no session
        assert (await h.get("/api/friends")).status_code == 401
    # a flood of requests is cut off
    names = [f"p{i}" for i in range(14)]
    for n in names:
        await Client.register(server, n)
    codes = []
    async with ann.api() as h:
        for n in names:
            codes.append((await h.post("/api/friends", json={"name": n})).status_code)
    assert codes[:10] == [201] * 10 and 429 in codes[10:]


async def test_people_played_with_lately_are_offered(start_server: StartServer) -> None:
    """最近同桌: after a deal together, each is offered the other (not the bot, not a guest); asked, he is not."""
    server = await start_server(bot_delay=0.05)
    (ann, bob), _ = await private_table(server, "classic-1", ["ann", "bob"], {}, bots=True)
    assert (await ann.get("/api/friends"))["recent"] == []
    await asyncio.gather(ann.play_until_over(), bob.play_until_over())
    assert (await ann.get("/api/friends"))["recent"] == [{"id": bob.user["id"], "name": "bob"}]
    assert (await bob.get("/api/friends"))["recent"] == [{"id": ann.user["id"], "name": "ann"}]
    assert (await bob.get("/api/friends?recent=0"))["recent"] == []  # the lobby's poll asks for none
    await ann.post("/api/friends", {"name": "bob"}, status=201)
    assert (await ann.get("/api/friends"))["recent"] == []
    assert (await bob.get("/api/friends"))["recent"] == []  # he has her request instead
    for c in (ann, bob):
        await c.close()


async def test_a_blocked_player_cannot_ask_again(start_server: StartServer) -> None:
    """拉黑: a friendship ends and the blocked player is told only that it did; his requests are refused until the
    block is lifted; removing the friendship from his side does not lift it; asking him lifts it."""
    server = await start_server()
    ann, bob = await Client.register(server, "ann"), await Client.register(server, "bob")
    await ann.post("/api/friends", {"name": "bob"}, status=201)
    await bob.post(f"/api/friends/{ann.user['id']}/accept")
    await ann.connect()
    since = ann.mark()
    assert (await bob.post(f"/api/friends/{ann.user['id']}/block"))["blocked"] == ann.user["id"]
    told = await ann.wait_for(lambda m: m["type"] == "friend", since=since)
    assert told["event"] == "removed"
    lists = await bob.get("/api/friends")
    assert lists["friends"] == [] and lists["blocked"] == [{"id": ann.user["id"], "name": "ann"}]
    assert (await ann.get("/api/friends"))["friends"] == []
    refusal = await refused(ann, "/api/friends", {"name": "bob"}, 403, "blocked")
    assert refusal["error"]["params"]["name"] == "bob"
    await delete(ann, bob.user["id"], status=404)  # nothing of hers to remove, and the block stays
    await refused(ann, "/api/friends", {"name": "bob"}, 403, "blocked")
    assert (await bob.get("/api/friends"))["incoming"] == []
    # unblocking lets her ask again; asking her lifts a block too
    await bob.post(f"/api/friends/{ann.user['id']}/unblock")
    await refused(bob, f"/api/friends/{ann.user['id']}/unblock", None, 404, "not_blocked")
    assert (await ann.post("/api/friends", {"name": "bob"}, status=201))["state"] == "requested"
    await bob.post(f"/api/friends/{ann.user['id']}/block")
    assert (await bob.get("/api/friends"))["incoming"] == []  # her request went with the block
    assert (await bob.post("/api/friends", {"name": "ann"}, status=201))["state"] == "requested"
    assert (await bob.get("/api/friends"))["blocked"] == []
    await refused(bob, f"/api/friends/{bob.user['id']}/block", None, 400, "bad_request")
    await refused(bob, "/api/friends/999999/block", None, 404, "unknown_user")
    await ann.close()


async def test_a_player_is_found_by_name(start_server: StartServer) -> None:
    server = await start_server()
    ann, _ = await Client.register(server, "ann"), await Client.register(server, "Bob")
    found = (await ann.get("/api/users?name=BOB"))["user"]
    assert found["name"] == "Bob" and found["is_guest"] is False and isinstance(found["id"], int)
    async with ann.api() as h:
        r = await h.get("/api/users", params={"name": "nobody-here"})
        assert r.status_code == 404 and r.json()["error"]["params"]["name"] == "nobody-here"
        assert (await h.get("/api/users")).json()["error"]["code"] == "missing_field"
        assert (await h.get("/api/users", params={"name": "x" * 5000})).status_code == 404
    async with httpx.AsyncClient(base_url=server.http) as h:
        assert (await h.get("/api/users", params={"name": "ann"})).status_code == 401


async def test_a_blocked_players_chat_does_not_reach_who_blocked_him(start_server: StartServer) -> None:
    """拉黑 mutes his quick chat at the server: the one who blocked him gets none of it, the others at the table
    (and he himself) do; unblocking lets it through again."""
    server = await start_server()
    (ann, bob, cat), table = await private_table(server, "classic-1", ["ann", "bob", "cat"], {})
    await ann.post(f"/api/friends/{bob.user['id']}/block")

    async def says(c: Client, phrase: str) -> None:
        marks = {x.user["id"]: x.mark() for x in (ann, bob, cat)}
        await c.send({"type": "chat", "table": table, "phrase": phrase})
        for x in (bob, cat):  # bob's own chat comes back to him, cat hears it
            got = await x.wait_for(lambda m: m["type"] == "chat" and m["phrase"] == phrase,
                                   since=marks[x.user["id"]])
            assert got["table"] == table
        await cat.send({"type": "chat", "table": table, "phrase": "emote:flower"})  # then one ann may hear
        await ann.wait_for(lambda m: m["type"] == "chat" and m["phrase"] == "emote:flower", since=marks[ann.user["id"]])
        heard[phrase] = [m["phrase"] for m in ann.msgs[marks[ann.user["id"]]:] if m["type"] == "chat"]

    heard: dict[str, list[str]] = {}
    await says(bob, "hurry")
    assert heard["hurry"] == ["emote:flower"]  # bob's 快点 never reached her
    await ann.post(f"/api/friends/{bob.user['id']}/unblock")
    await says(bob, "thanks")
    assert heard["thanks"] == ["thanks", "emote:flower"]
    for x in (ann, bob, cat):
        await x.close()


async def test_the_cap_holds_for_acceptances_and_for_requests_sent_at_once(start_server: StartServer,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """At most ``FRIENDS_MAX`` friends and requests sent: accepting a request past it is refused as asking is
    (it was let through), and requests sent at the same moment cannot pass it together (each was checked before
    any was written)."""
    from qipai.server import api

    monkeypatch.setattr(api, "FRIENDS_MAX", 3)
    server = await start_server()
    ann = await Client.register(server, "ann")
    others = [await Client.register(server, f"p{i}") for i in range(8)]
    for o in others[:4]:  # four ask her: requests she received do not count
        await o.post("/api/friends", {"name": "ann"}, status=201)
    for o in others[:3]:
        await ann.post(f"/api/friends/{o.user['id']}/accept")
    err = await refused(ann, f"/api/friends/{others[3].user['id']}/accept", None, 409, "too_many_friends")
    assert err["error"]["params"] == {"max": 3}
    await refused(ann, "/api/friends", {"name": "p3"}, 409, "too_many_friends")  # asking back is the same
    lists = await ann.get("/api/friends")
    assert len(lists["friends"]) == 3 and [u["name"] for u in lists["incoming"]] == ["p3"]  # nothing written

    # room for one more: five requests at once, one goes through
    await delete(ann, others[0].user["id"])
    async with ann.api() as h:
        answers = await asyncio.gather(*(h.post("/api/friends", json={"name": o.user["name"]})
                                         for o in others[4:]))
    codes = sorted(r.status_code for r in answers)
    assert codes == [201, 409, 409, 409], [r.text for r in answers]
    lists = await ann.get("/api/friends")
    assert len(lists["friends"]) + len(lists["outgoing"]) == 3


async def test_a_hash_and_digits_that_are_not_ascii_name_nobody(start_server: StartServer) -> None:
    """``#<id>`` finds an account by its id; ``#²`` or ``#٣`` (digits to ``str.isdigit``, not to ``int``) crashed
    the lookup with a 500, or found user 3."""
    server = await start_server()
    ann, bob = await Client.register(server, "ann"), await Client.register(server, "bob")
    for name in ("#²", "#①", f"#{chr(0x660 + bob.user['id'])}"):
        async with ann.api() as h:
            r = await h.get("/api/users", params={"name": name})
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_user", (name, r.text)
        await refused(ann, "/api/friends", {"name": name}, 404, "unknown_user")
    assert (await ann.get("/api/friends"))["outgoing"] == []
    found = await ann.get(f"/api/users?name=%23{bob.user['id']}")
    assert found["user"]["id"] == bob.user["id"]


async def test_writes_about_one_pair_at_once_leave_both_lists_agreeing(start_server: StartServer) -> None:
    """Two writes about the same two players sent together each read the pair's rows before the other wrote
    (PostgreSQL): an acceptance racing the asker's withdrawal failed with a 500 (the row it accepted was deleted
    under it) or left a one-sided friendship (he listed her as a friend, she did not list him), and two players
    asking each other at once were both left with an open request, not friends.  Each write now locks both
    players' rows first, so the writes about a pair take turns."""
    server = await start_server()

    def ids(lists: dict, key: str) -> list[int]:
        return [u["id"] for u in lists[key]]

    for i in range(6):
        ann, bob = await Client.register(server, f"ann{i}"), await Client.register(server, f"bob{i}")
        async with ann.api() as ha, bob.api() as hb:
            await ha.get("/api/health"), await hb.get("/api/health")  # connections open: the writes arrive together
            if i % 3 == 0:  # asking each other at once: friends, whichever comes first
                r1, r2 = await asyncio.gather(ha.post("/api/friends", json={"name": bob.user["name"]}),
                                              hb.post("/api/friends", json={"name": ann.user["name"]}))
                assert sorted(r.json()["state"] for r in (r1, r2)) == ["accepted", "requested"], (r1.text, r2.text)
            else:  # he accepts as she withdraws (or as he declines himself, from another window)
                await ha.post("/api/friends", json={"name": bob.user["name"]})
                withdraw = ha if i % 3 == 1 else hb
                other = bob.user["id"] if withdraw is ha else ann.user["id"]
                r1, r2 = await asyncio.gather(hb.post(f"/api/friends/{ann.user['id']}/accept", json={}),
                                              withdraw.post(f"/api/friends/{other}/remove", json={}))
                assert r1.status_code in (200, 404) and r2.status_code in (200, 404), (r1.text, r2.text)
            la, lb = (await ha.get("/api/friends")).json(), (await hb.get("/api/friends")).json()
        assert (ids(la, "friends") == [bob.user["id"]]) == (ids(lb, "friends") == [ann.user["id"]]), (i, la, lb)
        if i % 3 == 0:
            assert ids(la, "friends") == [bob.user["id"]], (i, la, lb)
        # nothing half-done: no request is left open between friends, nor after a withdrawal
        assert ids(la, "incoming") == ids(la, "outgoing") == ids(lb, "incoming") == ids(lb, "outgoing") == []
