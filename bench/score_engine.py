"""Benchmark the pure scoring engine on one core.

    python bench/score_engine.py [--hands 1000000] [--seed N]

Generates random valid hands (Euchre, Bridge, Call-Ace deals), scores them through each rule set
as rubbers (sittings for Call-Ace, closed every forty deals) and prints hands per second. The
hands are generated in batches outside the timed loop; the timed loop is ``apply`` and starting
the next rubber. Two more Euchre figures are printed: raw JSON hands checked by
``validate_hand`` before ``apply``, and hands whose explanation lines are built as well (they are
built lazily, on first access to ``HandResult.lines``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.rules.bridge import RULES as BRIDGE
from scoring.rules.bridge import BridgeHand
from scoring.rules.call_ace import RULES as CALL_ACE
from scoring.rules.call_ace import CallAceDeal
from scoring.rules.euchre import RULES as EUCHRE
from scoring.rules.euchre import EuchreHand

BATCH = 50_000
SIDES = ("NS", "EW")


def euchre_hands(rng: random.Random, count: int) -> list[EuchreHand]:
    """Random valid Euchre hands: lone hands, marches, euchres, the odd revoke and law 90."""
    out = []
    rand = rng.random
    for _ in range(count):
        makers = 0 if rand() < 0.5 else 1
        alone = rand() < 0.1
        tricks = rng.choice((0, 1, 2, 3, 3, 3, 4, 4, 4, 5, 5))
        r = rand()
        rev_ns = rev_ew = 0
        if r < 0.02:
            rev_ns = 1
        elif r < 0.04:
            rev_ew = 1
        law90 = (0 if rand() < 0.5 else 1) if rand() < 0.005 else -1
        law102 = alone and rand() < 0.02
        law50 = alone and rand() < 0.01
        out.append(EuchreHand(makers, alone, tricks, rev_ns, rev_ew, law90, law102, law50))
    return out


def bridge_hands(rng: random.Random, count: int, cap: int | None = None) -> list[BridgeHand]:
    """Random valid Bridge hands with consistent honours, chicane and revokes."""
    out = []
    trumps = ("S", "C", "D", "H", "NT")
    for _ in range(count):
        trump = rng.choice(trumps)
        declarer = rng.randrange(2)
        doubles = rng.choice((0, 0, 0, 0, 1, 1, 2))
        tricks_ns = rng.randint(0, 13)
        chicane = [0, 0]
        if trump == "NT":
            held = rng.choice((0, 3, 3, 4))
            side = rng.randrange(2) if held else -1
            in_one = rng.randint((held + 1) // 2, held) if held else 0
        else:
            held = rng.choice((3, 3, 3, 4, 4, 5))
            side = rng.randrange(2)
            in_one = rng.randint((held + 1) // 2, held)
            if rng.random() < 0.03:
                chicane[1 - side] = 1  # the side without the honours: always consistent
        revokes = [0, 0]
        if rng.random() < 0.01:
            revokes[rng.randrange(2)] = 1
        out.append(BridgeHand(declarer, trump, doubles, tricks_ns, side, held, in_one,
                              chicane[0], chicane[1], revokes[0], revokes[1]))
    return out


def call_ace_deals(rng: random.Random, count: int, n: int) -> list[CallAceDeal]:
    """Random valid Call-Ace deals for ``n`` players."""
    out = []
    for _ in range(count):
        maker = rng.randrange(n)
        alone = rng.random() < 0.15
        partner = -1
        if not alone and rng.random() < 0.9:
            partner = rng.choice([p for p in range(n) if p != maker])
        revoke = None
        r = rng.random()
        if r < 0.01:
            revoke = "makers"
        elif r < 0.02:
            revoke = "adversaries"
        tricks = rng.randint(0, 5)
        out.append(CallAceDeal(False, maker, partner, alone, tricks, revoke, (), ()))
    return out


def run(rules, batches, options, players=None, close_every=None) -> tuple[int, int, float]:
    """Score every hand of every batch as consecutive rubbers; return (hands, rubbers, seconds)."""
    apply = rules.apply
    start = rules.start
    state = start(options, players)
    hands = rubbers = 0
    elapsed = 0.0
    for batch in batches():
        t0 = time.perf_counter()
        if close_every is None:
            for hand in batch:
                state, _result = apply(state, hand)
                if state.complete:
                    rubbers += 1
                    state = start(options, players)
        else:
            for hand in batch:
                state, _result = apply(state, hand)
                if state.deals == close_every:
                    rubbers += 1
                    state = start(options, players)
        elapsed += time.perf_counter() - t0
        hands += len(batch)
    return hands, rubbers, elapsed


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments, run the three benchmarks and print the rates."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands per game")
    parser.add_argument("--seed", type=int, default=1888)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    total = args.hands

    def batched(make):
        def gen():
            left = total
            while left > 0:
                size = min(BATCH, left)
                left -= size
                yield make(size)
        return gen

    print(f"Python {sys.version.split()[0]}, one core, {total:,} hands per game, seed {args.seed}")

    t0 = time.perf_counter()
    hands, rubbers, secs = run(EUCHRE, batched(lambda k: euchre_hands(rng, k)), {})
    wall = time.perf_counter() - t0
    print(f"euchre   apply:             {hands / secs:12,.0f} hands/s  ({hands:,} hands, "
          f"{rubbers:,} rubbers, {secs:.2f} s)")
    print(f"euchre   generate + apply:  {hands / wall:12,.0f} hands/s  (random hands made "
          "in Python included)")

    # Raw JSON hands through validate_hand, and explanations built, on a tenth of the hands.
    sample = max(1, total // 10)
    raw = [h.as_dict() for h in euchre_hands(rng, sample)]
    state = EUCHRE.start({})
    t0 = time.perf_counter()
    for i, data in enumerate(raw):
        hand = EUCHRE.validate_hand(state, data, field_prefix=f"hands[{i}]")
        state, _result = EUCHRE.apply(state, hand)
        if state.complete:
            state = EUCHRE.start({})
    secs = time.perf_counter() - t0
    print(f"euchre   validate + apply:  {sample / secs:12,.0f} hands/s  ({sample:,} raw hands)")
    hands_list = euchre_hands(rng, sample)
    state = EUCHRE.start({})
    t0 = time.perf_counter()
    for hand in hands_list:
        state, result = EUCHRE.apply(state, hand)
        result.lines  # noqa: B018 - build the explanation, as a page showing it would
        if state.complete:
            state = EUCHRE.start({})
    secs = time.perf_counter() - t0
    print(f"euchre   apply + lines:     {sample / secs:12,.0f} hands/s  ({sample:,} hands)")

    options = BRIDGE.validate_options(None)
    hands, rubbers, secs = run(BRIDGE, batched(lambda k: bridge_hands(rng, k)), options)
    print(f"bridge   apply:             {hands / secs:12,.0f} hands/s  ({hands:,} hands, "
          f"{rubbers:,} rubbers, {secs:.2f} s)")

    for n in (4, 5, 7):
        hands, sittings, secs = run(
            CALL_ACE, batched(lambda k, n=n: call_ace_deals(rng, k, n)), {}, players=n,
            close_every=40,
        )
        print(f"call-ace apply ({n} players): {hands / secs:12,.0f} deals/s  ({hands:,} deals, "
              f"{sittings:,} sittings of 40, {secs:.2f} s)")


if __name__ == "__main__":
    main()
