"""Match benchmark: a scheduled 打立出局 → 定局积分 → 瑞士移位 match of bots through a real ``qipai serve``.

The benchmark spawns a server (SQLite in a temp folder unless ``--database-url``), creates an ``at_time`` match
as operator (``POST /api/admin/matches``) with three stages sized from ``--entrants`` (999 in the issue):

* 打立出局 (``dali``) down to about ``entrants / 4`` (a multiple of 9; levels rise every ``entrants / 3``
  settled deals, so every entrant plays about one deal per level, and the forced finish ends the stage),
* 定局积分 (``fixed``, ``carry: sqrt 10/1``, snake seating): 2 deals, cut to a third, 2 deals, a third again go on,
* 瑞士移位 (``swiss``): 3 rounds of 2 deals,

registers ``--humans`` real WebSocket clients (guests) as human entrants and fills the field with bot entrants
(``POST …/bots``).  The humans play their seats like slow humans (``--think`` seconds, ±50 %, a random legal
action); the bot entrants' seats are played by the server's seat bot.  Besides the match, ``--probe-tables``
private tables of three such clients (``bench/load.py``'s clients) play all along, so the server's latency is
measured in every stage even after the human entrants are out.

It reports

* the wall time of every stage (from the ``stage_started`` to the ``stage_over`` / ``match_over`` notices a
  human entrant receives), with its tables and deals (from the server's database),
* the gaps players wait between tables: for every entrant, from the end of the last deal of one of its tables
  to the start of the first deal of its next table (from the ``table_formed`` notices and the stored deals),
  the largest overall and by kind (``queue``: between 打立 tables; ``round``: between rounds, including the
  configured ``round_gap_s``; ``stage``: between stages, including ``stage_gap_s``), and how long the director
  took to seat a round once its gap was over,
* the action latency: for every action a client sends, the time to the ``state`` broadcast it caused (as
  ``bench/load.py``), p50/p99/max overall and per stage, for match seats and probe tables, and the server's own
  ``/api/health`` figures (event-loop lag, journal commits) sampled every ``--health-every`` seconds,
* the machine's load average and the CPU the server used per stage.

    python bench/matches.py --entrants 99                 # a few minutes on two cores
    python bench/matches.py --entrants 999 --json out.json
    python bench/matches.py --entrants 12 --level-deals 2 --think 0.05 --round-gap 0 --stage-gap 0   # seconds
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import BenchClient, Stats, free_port, pct, spawn_server

ADMIN = "bench-matches-admin"


# ---------------------------------------------------------------------------------------------- the match
def sizes(entrants: int) -> tuple[int, int, int]:
    """The fields of the 定局积分 stage, its cut, and the Swiss final for ``entrants`` (999 → 243, 81, 27).

    >>> sizes(999), sizes(99), sizes(12)
    ((243, 81, 27), (27, 9, 6), (9, 6, 6))
    """
    if entrants < 12:
        raise SystemExit("--entrants: at least 12 (the 打立 stage needs more entrants than it keeps)")
    a1 = min(9 * max(1, round(entrants / 37)), 3 * ((entrants - 1) // 3))
    a2 = min(a1, max(6, 3 * round(a1 / 9)))
    a3 = min(a2, max(6, 3 * round(a2 / 9)))
    return a1, a2, a3


def definition(a: argparse.Namespace) -> dict[str, Any]:
    a1, a2, a3 = sizes(a.entrants)
    host: dict[str, Any] = {}
    if a.bot:
        host["bot"] = a.bot
    dali: dict[str, Any] = {"format": "dali", "advance": a1,
                            "level_step": {"deals": a.level_deals or max(1, a.entrants // 3)}}
    if a.levels:
        dali["levels"] = [int(x) for x in a.levels.split(",")]
    return {
        "name": f"bench{a.entrants}", "game": "ddz3", "round_gap_s": a.round_gap, "stage_gap_s": a.stage_gap,
        "entry": {"start": "at_time", "min_entrants": 9, "max_entrants": a.entrants, "fee": 0},
        "stages": [
            dali,
            {"format": "fixed", "carry": "sqrt 10/1", "seating": "snake", "advance": a3,
             "rounds": [{"deals": a.fixed_deals, "advance": a2}, {"deals": a.fixed_deals}]},
            {"format": "swiss", "rounds": a.swiss_rounds, "deals": a.swiss_deals},
        ],
        **({"host": host} if host else {}),
    }


# ---------------------------------------------------------------------------------------------- clients
@dataclass
class Notices:
    """What the match told its players, with the time each notice arrived (``time.time()``)."""

    events: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    standings: dict[str, Any] | None = None
    over: asyncio.Event = field(default_factory=asyncio.Event)


class MatchClient(BenchClient):
    """A human entrant: plays whatever match table it is seated at (``joined`` + ``snapshot``, then ``state``),
    timing each of its actions to the ``state`` broadcast it caused; keeps the match's notices."""

    def __init__(self, base: str, think: float, rng: random.Random, stats: Stats, measuring: asyncio.Event,
                 notices: Notices, clock: list[tuple[float, float]]) -> None:
        super().__init__(base, think, rng, stats, measuring)
        self.notices = notices
        self.timed = clock
        """(wall time sent, latency) of every timed action."""
        self.sent: dict[tuple[str, int, int], tuple[float, float]] = {}

    async def run(self, stop: asyncio.Event) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                m = json.loads(raw)
                self.stats.messages += 1
                t = m["type"]
                st = m.get("state") if t == "snapshot" else m if t == "state" else None
                if t == "state":
                    got = self.sent.pop((m["table"], m["deal"], m["version"] - 1), None)
                    if got is not None:
                        self.stats.latencies.append(now - got[1])
                        self.stats.actions += 1
                        self.timed.append((got[0], now - got[1]))
                elif t == "match_event":
                    self.notices.events.append((time.time(), m["event"]))
                    if m["event"]["type"] in ("match_over", "match_cancelled"):
                        self.notices.over.set()
                elif t == "match_standings":
                    self.notices.standings = m
                elif t == "deal_over":
                    self.stats.deals += 1
                elif t == "error":
                    self.stats.errors[m["code"]] = self.stats.errors.get(m["code"], 0) + 1
                if (isinstance(st, dict) and st.get("your_turn") and st.get("legal")
                        and not st["autoplay"][st["you"]] and not stop.is_set()):
                    if self.acting is not None:
                        self.acting.cancel()
                    self.acting = asyncio.create_task(self.act(st))
        except Exception:
            pass

    def mark_sent(self, st: dict[str, Any]) -> None:
        """(The same random play as :class:`BenchClient`; its time kept by table, with the wall clock.)"""
        self.sent[(st["table"], st["deal"], st["version"])] = (time.time(), time.perf_counter())


class TimedList(list[float]):
    """Latencies that also keep (wall time sent, latency) in ``sink`` (for the probe tables' clients)."""

    def __init__(self, sink: list[tuple[float, float]]) -> None:
        super().__init__()
        self.sink = sink

    def append(self, x: float) -> None:
        super().append(x)
        self.sink.append((time.time() - x, x))


# ---------------------------------------------------------------------------------------------- measuring
def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used (Linux ``/proc``; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
        return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def children_cpu(pid: int) -> float:
    """CPU seconds of ``pid``'s child processes (the server's bot workers)."""
    total = 0.0
    try:
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            with contextlib.suppress(OSError, IndexError, ValueError), open(f"/proc/{name}/stat") as f:
                parts = f.read().rsplit(")", 1)[1].split()
                if int(parts[1]) == pid:
                    total += proc_cpu(int(name))
    except OSError:
        pass
    return total


def ms(xs: list[float]) -> dict[str, Any]:
    return {"n": len(xs), "p50": round(pct(xs, 50) * 1000, 1) if xs else None,
            "p99": round(pct(xs, 99) * 1000, 1) if xs else None,
            "max": round(max(xs) * 1000, 1) if xs else None,
            "mean": round(statistics.fmean(xs) * 1000, 1) if xs else None}


def worst_db(samples: list[dict[str, Any]], book: str, top: int = 5) -> dict[str, float]:
    """From ``/api/health`` samples: the ``top`` kinds of transaction by their worst time in ``book``
    (``hold_ms`` or ``wait_ms``) over the samples, in ms."""
    worst: dict[str, float] = {}
    for h in samples:
        for kind, row in ((h.get("db") or {}).get(book) or {}).items():
            worst[kind] = max(worst.get(kind, 0.0), float(row.get("max") or 0.0))
    return dict(sorted(worst.items(), key=lambda kv: -kv[1])[:top])


def stamp(v: Any) -> float:
    """A stored timestamp (a ``datetime`` or its ISO text; naive ones are UTC) as epoch seconds."""
    if isinstance(v, str):
        v = datetime.fromisoformat(v)
    assert isinstance(v, datetime), v
    if v.tzinfo is None:
        from datetime import UTC

        v = v.replace(tzinfo=UTC)
    return v.timestamp()


async def stored_deals(url: str, match_id: str) -> dict[str, list[tuple[int, float, float | None, str]]]:
    """Table key → its deals (index, started, finished, status) as the server stored them."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    eng = create_async_engine(url)
    try:
        async with eng.connect() as c:
            rows = (await c.execute(text(
                "SELECT t.tags, d.deal_index, d.started_at, d.finished_at, d.status FROM deals d "
                "JOIN tables t ON t.id = d.table_id"))).all()
    finally:
        await eng.dispose()
    out: dict[str, list[tuple[int, float, float | None, str]]] = {}
    for tags, idx, started, finished, status in rows:
        tags = (json.loads(tags) if isinstance(tags, str) else tags) or {}
        if tags.get("match_id") != match_id:
            continue
        out.setdefault(str(tags["table_key"]), []).append(
            (int(idx), stamp(started), None if finished is None else stamp(finished), str(status)))
    for v in out.values():
        v.sort()
    return out


def gaps(formed: list[tuple[float, dict[str, Any]]], deals: dict[str, list[tuple[int, float, float | None, str]]],
         round_gap: int, stage_gap: int) -> dict[str, Any]:
    """Every entrant's waits between consecutive tables (see the module's docstring)."""
    span: dict[str, tuple[float, float]] = {}
    for key, ds in deals.items():
        ends = [f for _, _, f, _ in ds if f is not None]
        if ds and ends:
            span[key] = (min(s for _, s, _, _ in ds), max(ends))
    where: dict[str, list[dict[str, Any]]] = {}
    tables: dict[str, dict[str, Any]] = {}
    for _, ev in sorted(formed, key=lambda x: x[0]):
        a = ev["table"]
        tables[a["key"]] = a
        for e in a["entrants"]:
            where.setdefault(e, []).append(a)
    formed_at = {ev["table"]["key"]: t for t, ev in formed}
    kinds: dict[str, list[float]] = {"queue": [], "round": [], "stage": []}
    to_formed: dict[str, list[float]] = {"queue": [], "round": [], "stage": []}
    to_first: dict[str, list[float]] = {"queue": [], "round": [], "stage": []}
    worst: dict[str, Any] = {}
    for e, seq in where.items():
        for prev, nxt in itertools.pairwise(seq):
            if prev["key"] not in span or nxt["key"] not in span:
                continue
            g = span[nxt["key"]][0] - span[prev["key"]][1]
            kind = "stage" if nxt["stage"] != prev["stage"] else "queue" if nxt["round"] is None else "round"
            kinds[kind].append(g)
            to_formed[kind].append(formed_at[nxt["key"]] - span[prev["key"]][1])
            to_first[kind].append(span[nxt["key"]][0] - formed_at[nxt["key"]])
            if not worst or g > worst["gap_s"]:
                worst = {"gap_s": round(g, 3), "entrant": e, "from": prev["key"], "to": nxt["key"], "kind": kind}
    # how long after a round's last table ended (plus the configured gap) its next round's tables started
    ends: dict[tuple[int, int], float] = {}
    starts: dict[tuple[int, int], list[float]] = {}
    for key, a in tables.items():
        if a["round"] is None or key not in span:
            continue
        r = (int(a["stage"]), int(a["round"]))
        ends[r] = max(ends.get(r, 0.0), span[key][1])
        starts.setdefault(r, []).append(span[key][0])
    seat_lag: list[dict[str, Any]] = []
    order = sorted(starts)
    for prev, nxt in itertools.pairwise(order):
        want = round_gap if prev[0] == nxt[0] else stage_gap
        if prev[0] != nxt[0] and prev[0] + 1 != nxt[0]:
            continue
        seat_lag.append({"round": f"{nxt[0] + 1}.{nxt[1] + 1}", "tables": len(starts[nxt]),
                         "first_s": round(min(starts[nxt]) - ends[prev] - want, 3),
                         "last_s": round(max(starts[nxt]) - ends[prev] - want, 3)})
    return {
        "max_gap_s": worst.get("gap_s"),
        "worst": worst,
        "by_kind": {k: {"n": len(v), "p50_s": round(pct(v, 50), 3) if v else None,
                        "p99_s": round(pct(v, 99), 3) if v else None,
                        "max_s": round(max(v), 3) if v else None,
                        # the gap in two parts: until the players hear of their next table (the core's decision,
                        # after the director counted the deal), then until its first deal starts (opening it)
                        "to_formed_p50_s": round(pct(to_formed[k], 50), 3) if v else None,
                        "to_formed_max_s": round(max(to_formed[k]), 3) if v else None,
                        "formed_to_deal_p50_s": round(pct(to_first[k], 50), 3) if v else None,
                        "formed_to_deal_max_s": round(max(to_first[k]), 3) if v else None}
                    for k, v in kinds.items()},
        "configured": {"round_gap_s": round_gap, "stage_gap_s": stage_gap},
        "seating_after_gap": seat_lag,
    }


# ---------------------------------------------------------------------------------------------- the run
async def run(a: argparse.Namespace, base: str, db_url: str, server_pid: int | None) -> dict[str, Any]:
    rng = random.Random(a.seed)
    stats, probe_stats = Stats(), Stats()
    measuring = asyncio.Event()
    measuring.set()
    stop = asyncio.Event()
    notices = Notices()
    match_timed: list[tuple[float, float]] = []
    probe_timed: list[tuple[float, float]] = []
    probe_stats.latencies = TimedList(probe_timed)
    tasks: list[asyncio.Task[None]] = []
    health: list[tuple[float, dict[str, Any]]] = []
    load: list[tuple[float, tuple[float, float, float]]] = []
    cpu_marks: list[tuple[float, float, float]] = []
    admin = {"X-Admin-Token": ADMIN}

    async with httpx.AsyncClient(base_url=base, timeout=1200) as http:
        # the probe tables (private tables of three, as bench/load.py)
        probes: list[BenchClient] = []
        for _ in range(a.probe_tables):
            trio = [BenchClient(base, a.think, random.Random(rng.random()), probe_stats, measuring)
                    for _ in range(3)]
            for c in trio:
                await c.login(http)
            made = await trio[0].request({"type": "create_table", "room": "classic-1"}, "joined")
            for c in trio[1:]:
                await c.request({"type": "join", "invite": made["invite_code"]}, "joined")
            probes.extend(trio)
        t_created = time.time()
        start_at = int(t_created) + a.reg_lead
        r = await http.post("/api/admin/matches", headers=admin,
                            json={"definition": definition(a), "start_at": start_at})
        r.raise_for_status()
        mid = r.json()["id"]
        humans: list[MatchClient] = []
        for i in range(a.humans):
            c = MatchClient(base, a.think, random.Random(rng.random()), stats, measuring,
                            notices if i == 0 else Notices(), match_timed)
            await c.login(http)
            r = await http.post(f"/api/matches/{mid}/register", headers={"Authorization": f"Bearer {c.token}"},
                                json={})
            r.raise_for_status()
            humans.append(c)
        for c in [*humans, *probes]:
            tasks.append(asyncio.create_task(c.run(stop)))
        t_bots = time.perf_counter()
        left = a.entrants - a.humans
        while left > 0:  # the director holds the match while it registers them: it starts after the last
            n = min(left, 1000)
            r = await http.post(f"/api/admin/matches/{mid}/bots", headers=admin, json={"count": n})
            r.raise_for_status()
            left -= n
        bots_s = time.perf_counter() - t_bots

        async def sample() -> None:
            while True:
                with contextlib.suppress(httpx.HTTPError, ValueError):
                    health.append((time.time(), (await http.get("/api/health")).json()))
                load.append((time.time(), os.getloadavg()))
                if server_pid is not None:
                    cpu_marks.append((time.time(), proc_cpu(server_pid), children_cpu(server_pid)))
                await asyncio.sleep(a.health_every)

        sampler = asyncio.create_task(sample())
        try:
            await asyncio.wait_for(notices.over.wait(), a.timeout)
        except TimeoutError:
            evs = notices.events
            seen = [(round(t - t_created, 1), e["type"], e.get("stage")) for t, e in evs
                    if e["type"] in ("stage_started", "stage_over", "forced_finish")]
            st = notices.standings or {}
            left_in = sum(1 for r in st.get("standings", []) if r["status"] == "in")
            raise SystemExit(f"the match did not finish in {a.timeout} s (--timeout): stage notices {seen}, "
                             f"{sum(1 for _, e in evs if e['type'] == 'table_formed')} tables formed, "
                             f"{left_in} entrants still in") from None
        t_over = time.time()
        await asyncio.sleep(a.health_every + 0.1)  # one more sample after the end
        sampler.cancel()
        info = (await http.get(f"/api/matches/{mid}")).json()
        stop.set()
        for c in [*humans, *probes]:
            if c.ws is not None:
                with contextlib.suppress(Exception):
                    await c.ws.close()
        for t in tasks:
            t.cancel()

    evs = notices.events
    if info["phase"] != "finished":
        raise SystemExit(f"the match ended {info['phase']}: {[e for _, e in evs if e['type'] == 'match_cancelled']}")
    deals = await stored_deals(db_url, mid)
    started = {int(e["stage"]): t for t, e in evs if e["type"] == "stage_started"}
    ended = {int(e["stage"]): t for t, e in evs if e["type"] == "stage_over"}
    fmt = {int(e["stage"]): e["format"] for _, e in evs if e["type"] == "stage_started"}
    fields = {int(e["stage"]): len(e["field"]) for _, e in evs if e["type"] == "stage_started"}
    last = max(started)
    ended.setdefault(last, t_over)
    formed = [(t, e) for t, e in evs if e["type"] == "table_formed"]
    stages = []
    all_lat = [x for _, x in match_timed] + [x for _, x in probe_timed]
    for k in sorted(started):
        t0, t1 = started[k], ended.get(k, t_over)
        keys = {e["table"]["key"] for _, e in formed if int(e["table"]["stage"]) == k}
        n_deals = sum(1 for key in keys for d in deals.get(key, []) if d[3] == "over")
        hs = [h for t, h in health if t0 <= t <= t1 + a.health_every]
        lags = [h["loop_lag_ms"]["p99"] for h in hs if h.get("loop_lag_ms", {}).get("p99") is not None]
        commits = [h["journal_commit_ms"]["p99"] for h in hs if h.get("journal_commit_ms", {}).get("p99")]
        la = [v[0] for t, v in load if t0 <= t <= t1]
        cpu = [(t, s, b) for t, s, b in cpu_marks if t0 <= t <= t1 + a.health_every]
        row: dict[str, Any] = {
            "stage": k + 1, "format": fmt[k], "field": fields[k], "seconds": round(t1 - t0, 1),
            "tables": len(keys), "deals": n_deals,
            "deals_per_s": round(n_deals / (t1 - t0), 1) if t1 > t0 else None,
            "latency_ms": {"match": ms([x for t, x in match_timed if t0 <= t <= t1]),
                           "probe": ms([x for t, x in probe_timed if t0 <= t <= t1]),
                           "all": ms([x for t, x in match_timed + probe_timed if t0 <= t <= t1])},
            "server_loop_lag_p99_ms_max": max(lags) if lags else None,
            "server_journal_commit_p99_ms_max": max(commits) if commits else None,
            "load_avg_1m_max": round(max(la), 2) if la else None,
            "server_journal_wait_max_ms": max((h["journal_wait_ms"]["max"] for h in hs
                                               if h.get("journal_wait_ms", {}).get("max") is not None), default=None),
            # SQLite: which transactions held the database longest, and waited longest for it (worst sample)
            "db_hold_max_ms": worst_db(hs, "hold_ms"),
            "db_wait_max_ms": worst_db(hs, "wait_ms"),
        }
        if len(cpu) >= 2:
            dt = cpu[-1][0] - cpu[0][0]
            row["server_cpu_pct"] = round(100 * (cpu[-1][1] - cpu[0][1]) / dt, 1) if dt > 0 else None
            row["bot_workers_cpu_pct"] = round(100 * (cpu[-1][2] - cpu[0][2]) / dt, 1) if dt > 0 else None
        stages.append(row)
    rows = info["standings"]
    return {
        "entrants": a.entrants, "humans": a.humans, "probe_tables": a.probe_tables, "think_s": a.think,
        "sizes": list(sizes(a.entrants)), "match": mid,
        "registration_s": round(bots_s, 1),
        "start_delay_s": round(started[0] - t_created, 1) if 0 in started else None,
        "total_s": round(t_over - started[min(started)], 1),
        "stages": stages,
        "gaps": gaps(formed, deals, a.round_gap, a.stage_gap),
        "latency_ms": ms(all_lat),
        "latency_ms_match": ms([x for _, x in match_timed]),
        "latency_ms_probe": ms([x for _, x in probe_timed]),
        "p99_under_100ms": bool(all_lat) and pct(all_lat, 99) < 0.1,
        "errors": {k: stats.errors.get(k, 0) + probe_stats.errors.get(k, 0)
                   for k in set(stats.errors) | set(probe_stats.errors)},
        "human_deals": stats.deals,
        "final": {"places": len(rows), "top": [(r["place"], r["name"], r["points"]) for r in rows[:3]],
                  "humans_best_place": min((r["place"] for r in rows if not r["bot"]), default=None)},
        "server_health_end": health[-1][1] if health else None,
        "load_avg_1m_max": round(max(v[0] for _, v in load), 2) if load else None,
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entrants", type=int, default=99, help="the field (999 in the issue; at least 12)")
    ap.add_argument("--humans", type=int, default=6, help="human entrants: real WebSocket clients")
    ap.add_argument("--probe-tables", type=int, default=2,
                    help="private tables of three clients playing all along (latency in every stage)")
    ap.add_argument("--think", type=float, default=1.0, help="seconds a client thinks before acting (mean)")
    ap.add_argument("--bot", default="", help="the bot entrants' seat bot (default: the server's, heuristic)")
    ap.add_argument("--bot-delay", type=float, default=0.0, help="the server's --bot-delay")
    ap.add_argument("--next-deal-delay", type=float, default=1.0, help="the server's --next-deal-delay")
    ap.add_argument("--level-deals", type=int, default=0, help="打立 level step in deals (default entrants/3)")
    ap.add_argument("--levels", default="", help="打立 levels, e.g. 10,20,30,50,80,120,200,300 (the default)")
    ap.add_argument("--fixed-deals", type=int, default=2, help="deals per 定局积分 round")
    ap.add_argument("--swiss-rounds", type=int, default=3)
    ap.add_argument("--swiss-deals", type=int, default=2)
    ap.add_argument("--round-gap", type=int, default=3, help="round_gap_s of the match")
    ap.add_argument("--stage-gap", type=int, default=5, help="stage_gap_s of the match")
    ap.add_argument("--reg-lead", type=int, default=10,
                    help="the start time, seconds after creating the match (the humans register first; the bots' "
                    "registration then holds the match, so it starts after the last bot however long that takes)")
    ap.add_argument("--health-every", type=float, default=2.0)
    ap.add_argument("--timeout", type=float, default=3600.0, help="give up if the match is not over by then")
    ap.add_argument("--database-url", help="for the spawned server (default: SQLite in a temp folder)")
    ap.add_argument("--log", help="the server's log file (default: the terminal)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="also write the report to this file")
    a = ap.parse_args(argv)
    if not 0 <= a.humans <= a.entrants - 3:
        raise SystemExit("--humans: between 0 and entrants - 3")
    sizes(a.entrants)
    tmp = tempfile.TemporaryDirectory(prefix="qipai-bench-matches-")
    port = free_port()
    db_url = a.database_url or f"sqlite+aiosqlite:///{os.path.join(tmp.name, 'qipai.db')}"
    proc = spawn_server(port, tmp.name, db_url, [
        "--admin-token", ADMIN, "--bot-delay", str(a.bot_delay), "--next-deal-delay", str(a.next_deal_delay),
        "--log-level", "warning"], log=a.log)
    try:
        report = asyncio.run(run(a, f"http://127.0.0.1:{port}", db_url, proc.pid))
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        tmp.cleanup()
    report["command"] = "python bench/matches.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(json.dumps(report, indent=2, ensure_ascii=False))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=2, ensure_ascii=False)
    return report


if __name__ == "__main__":
    main()
