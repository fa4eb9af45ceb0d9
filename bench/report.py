"""The benchmark's table of figures: each figure beside its target and its verdict, as
`bench/run.py` prints it and writes it into BENCHMARKS.md (docs/benchmarks.md says what
each figure means)."""

from __future__ import annotations

import time
from pathlib import Path

#: The capacity step's limit: the last table count whose p99 stays under it held.
CAPACITY_P99 = 0.250


#: The Redis hash in which bench/wsgi.py counts each kind of request's CPU.
BENCH_CPU_KEY = "bench-cpu"


def request_cpu(raw: dict) -> dict[str, dict[str, float]]:
    """bench/wsgi.py's hash as {kind: {"n": requests, "ms": gunicorn's CPU milliseconds
    each, "pg_ms": its PostgreSQL backend's}}."""
    fields = {k.decode() if isinstance(k, bytes) else k: float(v) for k, v in raw.items()}
    kinds = {name.split(":")[0] for name in fields}
    each = {kind: max(1, fields.get(f"{kind}:n", 0)) for kind in kinds}
    return {
        kind: {
            "n": int(fields.get(f"{kind}:n", 0)),
            "ms": 1000 * fields.get(f"{kind}:cpu", 0) / each[kind],
            "pg_ms": 1000 * fields.get(f"{kind}:pg", 0) / each[kind],
        }
        for kind in sorted(kinds)
    }


def settled_hash(cache, key: str, *, at_least: dict[str, int], most: float = 10.0) -> dict:
    """The Redis hash `key` once bench/wsgi.py's processes have added the figures of the
    requests the load made: read until each of `at_least`'s kinds has counted at least its
    requests (`<kind>:n`), for at most `most` seconds. Each process adds its figures every
    0.2 s, but on a loaded machine its thread comes late (a fixed wait of 0.5 s once
    missed every recorded hand's figures)."""
    deadline = time.monotonic() + most
    while True:
        raw = cache.hgetall(key)
        counted = request_cpu(raw)
        if time.monotonic() >= deadline or all(
            counted.get(kind, {}).get("n", 0) >= n for kind, n in at_least.items()
        ):
            return raw
        time.sleep(0.1)


BY_PROCESS = "postgres by process"


#: The requests a recorded hand is charged with: its own, and the rubbers its tables start.
RECORDING = ("record", "start")


def recorded_hand_cpu(by_kind: dict, used: dict[str, float], hands: int) -> dict[str, float]:
    """The CPU milliseconds one recorded hand costs, all processes together: gunicorn's
    threads serving the hands and the rubbers they start, the PostgreSQL backends serving
    those requests (bench/wsgi.py reads each request's backend), the worker's
    recalculations and the backends serving the worker. The reader's requests and their
    statements are not counted (the issue's "recording apart from the reader").
    `BY_PROCESS` keeps PostgreSQL's CPU by the process its backends served, all
    requests together, to check the per-request figures against."""
    if not hands:
        return {}
    own = {name: k for name, k in by_kind.items() if name in RECORDING}
    figures = {
        "gunicorn": sum(k["ms"] * k["n"] for k in own.values()) / hands,
        "celery": 1000 * used.get("celery", 0) / hands,
        "postgres": (
            sum(k["pg_ms"] * k["n"] for k in own.values()) / hands
            + 1000 * used.get("postgres:celery", 0) / hands
        ),
    }
    figures["total"] = sum(figures.values())
    figures[BY_PROCESS] = {
        k.removeprefix("postgres:"): 1000 * v / hands
        for k, v in sorted(used.items())
        if k.startswith("postgres")
    }
    return figures


def ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 1000:,.1f} ms"


def seconds(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f} s"


def per(used: dict[str, float], digits: int = 1) -> str:
    """CPU milliseconds by kind of process: "gunicorn 31.2 ms, celery 20.1 ms, ..."."""
    return ", ".join(f"{kind} {value:.{digits}f} ms" for kind, value in used.items() if value)


def verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


def _rows(r: dict, args) -> list[tuple[str, str, str, str]]:
    """(figure, measured, target, verdict) for each step that ran."""
    s = r["sizes"]
    rows = []
    if season := r.get("season"):
        rows.append((
            f"make_season ({s['hands']:,} hands)",
            f"{season['seconds']:.0f} s wall, {season['cpu']:.0f} s CPU ({season['timings']})",
            "< 120 s", verdict(season["seconds"] < 120),
        ))  # fmt: skip
    if st := r.get("standings"):
        rows += [
            ("Full recalculation of the season's standings",
             f"{st['full']:.2f} s = {st['ratio']:.2f} x the SQL baseline "
             f"({st['baseline']:.2f} s; {st['hands']:,} hands, {st['players']:,} players)",
             "<= 3 x baseline", verdict(st["ratio"] <= 3)),
            ("Peak memory of the recalculating process",
             f"{st['peak_rss_mb']:.0f} MB (Django loaded: {st['rss_before_mb']:.0f} MB)",
             "< 300 MB", verdict(st["peak_rss_mb"] < 300)),
        ]  # fmt: skip
    if inc := r.get("incremental"):
        rows.append((
            "Incremental recalculation after one hand (worker time)",
            f"median {ms(inc['median'])}, p95 {ms(inc['p95'])} ({inc['samples']} samples; "
            f"CPU {ms(inc['cpu_median'])}; recording the hand {ms(inc['record_median'])})",
            "median <= 10 ms", verdict(inc["median"] <= 0.010),
        ))  # fmt: skip
    if rec := r.get("record"):
        clean = not (rec["errors"] or rec["lost"] or rec["doubled"] or rec["changed"])
        fast = rec["p99"] is not None and rec["p99"] < 0.100
        rows.append((
            f"Recording: {s['clients']} tables for {s['record']} s, each waiting "
            f"{args.think} s between hands",
            f"{rec['per_second']:.1f} hands/s; p50 {ms(rec['p50'])}, p99 {ms(rec['p99'])}, "
            f"max {ms(rec['max'])} (in the application: p50 {ms(rec.get('server_p50'))}, "
            f"p99 {ms(rec.get('server_p99'))}); {rec['errors']} errors; {rec['accepted']} got 201, "
            f"{rec['stored']} stored, {rec['lost']} lost, {rec['doubled']} doubled",
            "p99 < 100 ms, no error, none lost or doubled", verdict(clean and fast),
        ))  # fmt: skip
        own = rec.get("cpu_ms_recorded_hand") or {}
        kinds = rec.get("request_cpu") or {}
        rows.append((
            "CPU per recorded hand, all processes (that load)",
            f"{own.get('total', 0):.1f} ms: "
            f"{per({k: v for k, v in own.items() if k not in ('total', BY_PROCESS)})} "
            "(postgres: the backends of the recording's requests and of the worker; all "
            f"backends by the process they served, the reader's statements in gunicorn's: "
            f"{per(own.get(BY_PROCESS) or {})}); each process's whole "
            f"CPU over the hands: {per(rec['cpu_ms_per_hand'])}; gunicorn CPU per request by "
            "kind (and its PostgreSQL backend's): " + ", ".join(
                f"{kind} {k['ms']:.2f} ms ({k.get('pg_ms', 0):.2f} ms) x {k['n']:,}"
                for kind, k in kinds.items()
            ),
            "<= 8 ms", verdict(bool(own) and own["total"] <= 8),
        ))  # fmt: skip
    if fr := r.get("freshness"):
        rows.append((
            "Freshness: commit to public standings, under that load",
            f"p50 {seconds(fr['p50'])}, p95 {seconds(fr['p95'])}, max {seconds(fr['max'])} "
            f"({fr['measured']} hands; {fr['unseen']} never shown)",
            "p95 < 1 s", verdict(fr["p95"] is not None and fr["p95"] < 1),
        ))  # fmt: skip
    if (c := r.get("consistency")) is not None:
        wrong = c["wrong"]
        detail = "; ".join(
            f"player {w['member']}: {w['hands_stored']} hands counted of {w['hands']}"
            for w in wrong[:4]
        )
        rows.append((
            "Standings after the load agree with the stored hands (outbox empty)",
            f"{c['players'] - len(wrong):,} of {c['players']:,} players right"
            + (f"; {detail}" if wrong else "") + f"; {c['waiting']} changes still waiting",
            "all", verdict(not wrong and not c["waiting"]),
        ))  # fmt: skip
    if (trivial := r.get("trivial")) and (page := r.get("page")):
        ratio = page["rps"] / trivial["rps"] if trivial["rps"] else 0
        fast = page["p99"] is not None and page["p99"] < 0.050
        rows += [
            ("Trivial Django view (same gunicorn)",
             f"{trivial['rps']:,.0f} req/s, p99 {ms(trivial['p99'])}; CPU per request: "
             f"{per(trivial['cpu_ms_per_request'], 2)}", "(reference)", ""),
            (f"Public standings page, cached (page 1: 100 of {page['rows']:,} players, "
             f"{page['bytes'] / 1024:,.0f} KB)",
             f"{page['rps']:,.0f} req/s = {ratio:.2f} x trivial, p99 {ms(page['p99'])}; "
             f"errors: {page['errors']}; CPU per request: {per(page['cpu_ms_per_request'], 2)}",
             ">= 0.5 x trivial, p99 < 50 ms", verdict(ratio >= 0.5 and fast)),
            ("Public standings page, uncached (rendered from the database)",
             f"median {ms(r['uncached']['median'])}, max {ms(r['uncached']['max'])}",
             "(printed)", ""),
        ]  # fmt: skip
    if mixed := r.get("mixed"):
        rec, page = mixed["record"], mixed["page"]
        alone, page_alone = r.get("record") or {}, r.get("page") or {}
        rows.append((
            f"Mixed: {rec['tables']} tables recording while wrk reads the cached standings "
            f"page ({args.connections} connections), {s['record']} s",
            f"recording {rec['per_second']:.1f} hands/s, p50 {ms(rec['p50'])}, p99 "
            f"{ms(rec['p99'])} (alone: p99 {ms(alone.get('p99'))}); {rec['errors']} errors, "
            f"{rec['lost']} lost, {rec['doubled']} doubled; page {page['rps']:,.0f} req/s, "
            f"p99 {ms(page['p99'])} (alone: {page_alone.get('rps', 0):,.0f} req/s, p99 "
            f"{ms(page_alone.get('p99'))}); errors: {page['errors']}",
            "(printed beside the figures alone); none lost or doubled",
            "" if rec["clean"] else "**missed**",
        ))  # fmt: skip
    if cap := r.get("capacity"):
        trail = ", ".join(
            f"{step['tables']}: {ms(step['p99'])}" + ("" if step["held"] else " (failed)")
            for step in cap["steps"]
        )
        tried = cap["steps"][-1]["tables"] if cap["steps"] else 0
        held = f"{cap['held']} tables held" if cap["held"] else "no table count held"
        if not cap["limit_found"]:
            held += f" (the most tried, {tried}; raise --capacity-max)"
        rows.append((
            f"Capacity: tables each recording a hand every {args.think} s, added "
            f"{s['capacity_step']} at a time for {s['capacity_seconds']} s each, until the "
            f"p99 passes {CAPACITY_P99 * 1000:.0f} ms",
            f"{held}; p99 at each count: {trail}",
            ">= 100 tables on 2 cores", verdict(cap["held"] >= 100),
        ))  # fmt: skip
    if hosts := r.get("hosts"):
        one, two = hosts["one"], hosts["two"]
        scale = two["per_second"] / one["per_second"] if one["per_second"] else 0
        rows.append((
            f"Two gunicorn instances, one database: {two['tables']} tables (think "
            f"{hosts['think']} s) for {s['hosts_seconds']} s against one, then dealt "
            "between two",
            f"one: {one['per_second']:.1f} hands/s, p99 {ms(one['p99'])}; two: "
            f"{two['per_second']:.1f} hands/s = {scale:.2f} x, p99 {ms(two['p99'])}; "
            f"at these tables over the whole run: {two['accepted']} got 201, {two['stored']} "
            f"stored, {two['lost']} lost, {two['doubled']} doubled, {two['changed']} changed; "
            f"{one['errors']} + "
            f"{two['errors']} errors",
            "(printed); none lost or doubled",
            verdict(one["clean"] and two["clean"]),
        ))  # fmt: skip
    if engine := r.get("engine"):
        euchre = engine.get("euchre apply", 0)
        others = ", ".join(f"{k} {v:,}" for k, v in engine.items() if k != "euchre apply")
        rows.append((
            "Scoring engine, Euchre apply, one core", f"{euchre:,} hands/s; {others}",
            ">= 100,000 hands/s", verdict(euchre >= 100_000),
        ))  # fmt: skip
    return rows


def report(r: dict, args) -> str:
    """The figures as a Markdown table, with the machine and the load it was under."""
    m, s = r["machine"], r["sizes"]
    loads = ", ".join(f"{k} {v}" for k, v in r["load"].items())
    command = " ".join(["python bench/run.py", *r["argv"]])
    lines = [
        "# Benchmarks",
        "",
        f"Run {m['date']} with `{command}` ({r['total_seconds'] / 60:.1f} minutes). "
        "How to run it and what each figure means: docs/benchmarks.md.",
        "",
        f"Machine: {m['cores']} cores ({m['cpu']}); Python {m['python']}, Django {m['django']}, "
        f"PostgreSQL {m['postgresql']}, Redis {m['redis']}; gunicorn {m['gunicorn']}; "
        f"wrk {args.connections} connections.",
        f"Season: {s['players']:,} players, {s['evenings']} evenings, {s['hands']:,} hands "
        f"(seed {args.seed}).",
        f"Load average (1, 5, 15 min) when each step began: {loads}; at the end "
        f"{m['load_at_end']}. Other work on the machine shares its two cores.",
        "",
        "| Figure | Measured | Target | |",
        "|---|---|---|---|",
        *[f"| {a} | {b} | {c} | {d} |" for a, b, c, d in _rows(r, args)],
        "",
    ]
    return "\n".join(lines)


BEGIN, END = "<!-- figures: written by bench/run.py -->", "<!-- end of figures -->"


def write_figures(path: Path, table: str) -> None:
    """Put the latest figures at the head of BENCHMARKS.md, between their markers; what
    follows them there (profiles, fixes, earlier figures kept by hand) stays."""
    text = path.read_text() if path.exists() else ""
    block = f"{BEGIN}\n{table}\n{END}"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = block + "\n" + text
    path.write_text(text)
