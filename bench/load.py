"""The load generator: tables' phones posting hands, and a reader watching the standings.

    python bench/load.py --plan PLAN.json --url http://127.0.0.1:8000 --seconds 60 --out OUT.json

`--url` may name several servers, comma-separated (several gunicorn instances against
the one database): the tables are dealt among them in turn. `--clients N` uses the
plan's first N tables only. The result names each table's rubber at the end
(`final`), so that a later run can carry on from it with the same tables.

Run by `bench/run.py` as a process of its own (never inside the server's), with the
standard library only: one thread per table posts Euchre hands to its own rubber with
the table's token (each table from its own address, as phones on a club's wifi would
be), starting the next rubber through the secretary's API when one is won; one more
thread polls the public standings fragment (with its ETag, as the page's htmx does)
and notes when each player's points change. A hand is shown when the points of a
player who scored on it reach the running total the posting table expects; the
freshness of a hand is that moment less the hand's own `recorded_at`, taken inside
the recording transaction just before its commit (so it is never flattered).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import resource
import threading
import time
import uuid
from datetime import datetime
from urllib.parse import urlsplit

ROW = re.compile(r'/players/(\d+)/">[^<]*</a></td>\s*((?:<td class="num">[^<]*</td>\s*)*)')
CELL = re.compile(r'<td class="num">([^<]*)</td>')
VERSION = re.compile(r'data-version="(\d+)"')
PAGES = re.compile(r"Page \d+ of (\d+)")


def euchre_hand(rng: random.Random) -> dict:
    """A raw Euchre hand, any of which is valid while the rubber is in progress."""
    data = {
        "makers": rng.choice(("NS", "EW")),
        "alone": rng.random() < 0.08,
        "tricks": rng.choice((0, 1, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5)),
    }
    if rng.random() < 0.02:
        data["revokes"] = [rng.choice(("NS", "EW"))]
    return data


class Http:
    """One keep-alive connection (reopened whenever the server closes it)."""

    def __init__(self, url: str, timeout: float = 10.0):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body=None, headers=None):
        """(status, headers, body bytes); the connection is dropped after any failure."""
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        data = json.dumps(body).encode() if body is not None else None
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        try:
            self.conn.request(method, path, body=data, headers=all_headers)
            response = self.conn.getresponse()
            payload = response.read()
        except Exception:
            self.conn.close()
            self.conn = None
            raise
        if response.will_close:
            self.conn.close()
            self.conn = None
        return response.status, response, payload


class Table(threading.Thread):
    """A table's phone: posts a hand, waits `think` seconds, posts the next."""

    def __init__(self, index: int, plan: dict, client: dict, url: str, stop_at: float,
                 think: float, seed: int):  # fmt: skip
        super().__init__(name=f"table-{client['table']}", daemon=True)
        self.plan = plan
        self.client = client
        self.http = Http(url)
        self.stop_at = stop_at
        self.think = think
        self.rng = random.Random(seed * 1000 + index)
        self.headers = {
            "Authorization": f"Table {client['token']}",
            "X-Forwarded-For": f"10.{index // 250}.{index % 250}.{1 + index % 200}",
        }
        self.rubber = client["rubber"]
        self.players = client["players"]
        self.member_ids = client["member_ids"]
        self.totals: dict[str, int] = {}  # member id -> points scored in this run
        self.hands: list[dict] = []  # one per 201: rubber, number, data, latency, freshness key
        self.errors: list[dict] = []
        self.starts: list[float] = []
        self.next_number: int | None = None  # the hand's number in its rubber, as the phone sends
        self.last_ms = 0.0  # the last answer's time inside the application (bench/wsgi.py)

    def post(self, path: str, body: dict, headers: dict) -> tuple[int, bytes]:
        """POST with an Idempotency-Key, as the phone does, retrying with the same key
        after a failed connection or a 409 that says to retry (the first attempt still
        running, a lock not granted in time)."""
        headers = {**headers, "Idempotency-Key": str(uuid.uuid4())}
        for attempt in range(3):
            try:
                status, response, payload = self.http.request("POST", path, body, headers)
            except Exception as exc:
                self.errors.append({"what": path, "error": repr(exc), "attempt": attempt})
                time.sleep(0.2)
                continue
            self.last_ms = float(response.getheader("X-Bench-Ms") or 0)
            if status != 409 or not response.getheader("Retry-After") or attempt == 2:
                return status, payload
            time.sleep(0.2)
        raise ConnectionError(f"no answer from {path} after three attempts")

    def run(self) -> None:
        self._resync(wait=0)  # the rubber's next hand (a plan's tables carry on between loads)
        # The tables do not all send their first hand at one instant: each starts at its
        # own moment within the first `think` seconds, as the tables of a room do.
        self.pause(self.think * self.rng.random())
        while time.time() < self.stop_at:
            if self.one_hand() and self.think:
                self.pause(self.think * self.rng.uniform(0.5, 1.5))

    def pause(self, seconds: float) -> None:
        """Wait `seconds`, or until the load ends if that comes first: a table whose next
        hand would come after the end stops at the end, so that the load lasts its seconds
        (and its hands a second are over them), not its seconds and a last table's think."""
        time.sleep(max(0.0, min(seconds, self.stop_at - time.time())))

    def one_hand(self) -> bool:
        """Post the table's next hand, as the phone does; True when it was recorded (a
        refusal is noted in `errors` and the table learns the rubber's state again)."""
        data = euchre_hand(self.rng)
        path = f"/api/v1/clubs/{self.plan['club']}/rubbers/{self.rubber}/hands/"
        # The phone's body: the hand, and the number it is meant to have, so that a
        # hand whose answer was lost is refused (409), never recorded twice.
        body = {"hand": data}
        if self.next_number is not None:
            body["expected_number"] = self.next_number
        t0 = time.perf_counter()
        try:
            status, payload = self.post(path, body, self.headers)
        except ConnectionError:
            self._resync()
            return False
        latency = time.perf_counter() - t0
        if status != 201:
            text = payload[:300].decode(errors="replace")
            self.errors.append({"what": "hand", "status": status, "body": text})
            self._resync()
            return False
        answer = json.loads(payload)
        self._accepted(data, answer, latency)
        self.next_number = answer["number"] + 1
        if answer["rubber"]["status"] == "complete":
            self._next_rubber()
        return True

    def _accepted(self, data: dict, body: dict, latency: float) -> None:
        watch = None
        for side in ("NS", "EW"):
            points = body["points"][side]
            for name in self.players[side]:
                member = str(self.member_ids[name])
                self.totals[member] = self.totals.get(member, 0) + points
                if points > 0 and watch is None:
                    watch = (member, self.totals[member])
        recorded = datetime.fromisoformat(body["recorded_at"]).timestamp()
        self.hands.append({
            "rubber": self.rubber, "number": body["number"], "data": data,
            "latency": latency, "recorded_at": recorded, "watch": watch,
            "server_ms": self.last_ms,
        })  # fmt: skip

    def _next_rubber(self) -> None:
        order = [n for side in ("NS", "EW") for n in self.players[side]]
        self.rng.shuffle(order)
        self.players = {"NS": order[:2], "EW": order[2:]}
        body = {
            "ruleset": "euchre-somerset-1888",
            "players": self.players,
            "evening": self.plan["evening"],
            "table": self.client["table"],
        }
        headers = {"Authorization": f"Token {self.plan['secretary_token']}"}
        t0 = time.perf_counter()
        path = f"/api/v1/clubs/{self.plan['club']}/rubbers/"
        try:
            status, payload = self.post(path, body, headers)
        except ConnectionError as exc:
            self.errors.append({"what": "start", "error": repr(exc)})
            return
        self.starts.append(time.perf_counter() - t0)
        if status != 201:
            self.errors.append({"what": "start", "status": status, "body": payload[:300].decode()})
            return
        self.rubber = json.loads(payload)["id"]
        self.next_number = 1

    def _resync(self, wait: float = 0.2) -> None:
        """Learn from the server the rubber's next hand, and whether it is over (after a
        failure, and before the first hand)."""
        time.sleep(wait)
        path = f"/api/v1/clubs/{self.plan['club']}/rubbers/{self.rubber}/"
        try:
            status, _, payload = self.http.request("GET", path, None, self.headers)
            if status == 200:
                rubber = json.loads(payload)
                self.next_number = len(rubber["hands"]) + 1  # hands are numbered 1, 2, ...
                if rubber["status"] == "complete":
                    self._next_rubber()
        except Exception as exc:
            self.errors.append({"what": "resync", "error": repr(exc)})


class Reader(threading.Thread):
    """Polls the public standings fragment, every page of it (a hundred players each),
    each with its own ETag as the page's htmx does, and notes each player's points over
    time."""

    def __init__(self, plan: dict, url: str, interval: float):
        super().__init__(name="standings-reader", daemon=True)
        self.http = Http(url)
        self.path = f"/clubs/{plan['club']}/tournaments/{plan['tournament']}/standings/"
        self.column = plan["points_column"]
        self.interval = interval
        self.etags: dict[int, str] = {}
        self.pages = 1
        self.seen: dict[str, list[tuple[float, int]]] = {}
        self.versions: list[tuple[float, int]] = []
        self.polls = self.changes = 0
        self.errors: list[str] = []
        self.stopped = threading.Event()

    def poll(self) -> None:
        page = 1
        while page <= self.pages:
            self.poll_page(page)
            page += 1

    def poll_page(self, page: int) -> None:
        etag = self.etags.get(page)
        headers = {"If-None-Match": etag} if etag else {}
        path = f"{self.path}?page={page}"
        status, response, payload = self.http.request("GET", path, None, headers)
        now = time.time()
        self.polls += 1
        if status == 304:
            return
        if status != 200:
            self.errors.append(f"{status}: {payload[:200]!r}")
            return
        self.etags[page] = response.getheader("ETag")
        html = payload.decode()
        self.changes += 1
        version = VERSION.search(html)
        if version:
            self.versions.append((now, int(version.group(1))))
        pages = PAGES.search(html)
        self.pages = int(pages.group(1)) if pages else 1
        for member, cells in ROW.findall(html):
            values = CELL.findall(cells)
            points = int(values[self.column])
            history = self.seen.setdefault(member, [])
            if not history or history[-1][1] != points:
                history.append((now, points))

    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                self.poll()
            except Exception as exc:
                self.errors.append(repr(exc))
            self.stopped.wait(self.interval)

    def shown_at(self, member: str, total: int) -> float | None:
        """When the standings first showed the player with at least these points."""
        for at, points in self.seen.get(member, []):
            if points >= total:
                return at
        return None


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plan", required=True)
    parser.add_argument("--url", required=True, help="a server, or several comma-separated")
    parser.add_argument("--clients", type=int, help="use the plan's first N tables only")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, default=0.5, help="seconds between hands")
    parser.add_argument("--poll", type=float, default=0.2, help="seconds between rounds")
    parser.add_argument("--settle", type=float, default=30, help="seconds to wait for the last")
    parser.add_argument("--seed", type=int, default=1888)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    with open(args.plan) as handle:
        plan = json.load(handle)

    urls = args.url.split(",")
    if args.clients is not None:
        plan["clients"] = plan["clients"][: args.clients]
    reader = Reader(plan, urls[0], args.poll)
    reader.poll()  # the standings before the first hand: each player's starting points
    base = {member: history[-1][1] for member, history in reader.seen.items()}
    reader.start()
    started = time.time()
    stop_at = started + args.seconds
    tables = [
        Table(i, plan, client, urls[i % len(urls)], stop_at, args.think, args.seed)
        for i, client in enumerate(plan["clients"])
    ]
    for table in tables:
        table.start()
    for table in tables:
        table.join(args.seconds + 60)
    finished = time.time()

    def wanted():
        for table in tables:
            for hand in table.hands:
                if hand["watch"]:
                    member, total = hand["watch"]
                    yield hand, member, base.get(member, 0) + total

    deadline = time.time() + args.settle
    while time.time() < deadline:
        if all(reader.shown_at(m, total) is not None for _, m, total in wanted()):
            break
        time.sleep(0.2)
    reader.stopped.set()
    reader.join(5)

    freshness, unseen = [], 0
    for hand, member, total in wanted():
        at = reader.shown_at(member, total)
        if at is None:
            unseen += 1
        else:
            freshness.append(at - hand["recorded_at"])
    result = {
        "seconds": finished - started,
        "clients": len(tables),
        "think": args.think,
        "accepted": [
            {"rubber": h["rubber"], "number": h["number"], "data": h["data"]}
            for t in tables
            for h in t.hands
        ],
        "latencies": [h["latency"] for t in tables for h in t.hands],
        "server_ms": [h["server_ms"] for t in tables for h in t.hands],
        "starts": [s for t in tables for s in t.starts],
        "errors": [e for t in tables for e in t.errors],
        "freshness": freshness,
        "unseen": unseen,
        "final": [
            {"table": t.client["table"], "rubber": t.rubber, "players": t.players} for t in tables
        ],
        "servers": len(urls),
        "unmeasured": sum(1 for t in tables for h in t.hands if not h["watch"]),
        "reader": {
            "polls": reader.polls,
            "changes": reader.changes,
            "versions": len(reader.versions),
            "errors": reader.errors[:20],
        },
    }
    # The load generator's own CPU (thirty tables' threads and the reader): it runs on the
    # same cores as the service, so the report shows it beside the service's.
    usage = resource.getrusage(resource.RUSAGE_SELF)
    result["cpu_seconds"] = usage.ru_utime + usage.ru_stime
    with open(args.out, "w") as handle:
        json.dump(result, handle)


if __name__ == "__main__":
    main()
