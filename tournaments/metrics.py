"""The standings metrics, each one class instance registered once, and ranking by a
director's precedence list.

A metric is its key, its title, a description (shown in the API's schema and its standings,
and on the standings page), how it is computed, and which way is better: registered in
``METRICS``, as Tabbycat registers its metric annotators. Everything that lists metrics reads
this registry: the SQL totals (`tournaments.services.compute_totals` builds its aggregate from
each metric's `computed`), the ranking (here and in SQL), the API's choices and schema, the
standings' columns and headings.

Each metric but head-to-head is a column of `TournamentTotal` that SQL computes from the
players' seats (`scoring.rollup`); head-to-head only means something among players tied on
everything before it and is computed for those groups alone. Ranking is pure: rows in, ranked
rows out, ties kept as (rank, tied) and shown as "=3". Nothing here imports Django.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from core.quoted import quoted


@dataclass(frozen=True)
class SeatSum:
    """The sum, over the player's seats in the counted rubbers, of a seat's column (see
    `scoring.rollup`); ``or_zero``: nothing counted sums to 0, not to nothing."""

    column: str
    or_zero: bool = False

    def __str__(self) -> str:
        return f"the sum of `{self.column}` over the player's seats in the counted rubbers"


@dataclass(frozen=True)
class SeatCount:
    """How many of the player's seats in the counted rubbers have ``flag`` set."""

    flag: str

    def __str__(self) -> str:
        return f"the number of the player's seats in the counted rubbers with `{self.flag}`"


@dataclass(frozen=True)
class AmongTied:
    """Computed only among the players tied on every metric before it (head-to-head)."""

    def __str__(self) -> str:
        return (
            "among players tied on every metric before it: the tables each won less those "
            "he lost against the others of his group (a finished rubber, or a round of fixed "
            "deals once it is over: ruling P1)"
        )


@dataclass(frozen=True)
class Metric:
    """A standings metric: its key, title, description, how it is computed, and whether
    more is better."""

    key: str
    title: str
    description: str
    computed: SeatSum | SeatCount | AmongTied
    higher_is_better: bool = True
    #: The games (`scoring.rules.games` kinds) it can ever be more than nothing at; empty:
    #: every game. Outside them it is refused in words, `never` saying why.
    games: frozenset[str] = frozenset()
    never: str = ""
    never_law: str = ""
    #: Counted only of rubbers played out: nothing at a progressive of fixed deals, whose
    #: rounds are won on points (ruling P1).
    rubbers_only: bool = False

    @property
    def column(self) -> bool:
        """Whether SQL keeps it as a column of the totals (all but head-to-head)."""
        return not isinstance(self.computed, AmongTied)

    def as_dict(self) -> dict:
        """The metric as the API shows it."""
        return {
            "key": self.key,
            "title": self.title,
            "description": self.description,
            "higher_is_better": self.higher_is_better,
        }


METRICS: dict[str, Metric] = {
    m.key: m
    for m in [
        Metric(
            "points",
            "Points won",
            "every point scored on the player's hands",
            SeatSum("points"),
        ),
        Metric(
            "net_rubber_points",
            "Net rubber points",
            "rubber values won less rubber values lost (rulings E4, B7)",
            SeatSum("rubber_points", or_zero=True),
            rubbers_only=True,
        ),
        Metric(
            "rubbers_won",
            "Rubbers won",
            "rubbers his side won (a Call-Ace sitting is neither won nor lost)",
            SeatCount("won"),
            games=frozenset({"euchre", "bridge"}),
            never="a Call-Ace sitting is neither won nor lost",
            rubbers_only=True,
        ),
        Metric(
            "rounds_won",
            "Rounds won",
            "rounds of a progressive at which his side won the table: the rubber, or with a "
            "fixed number of deals the most points, a level round going on until one side is "
            "ahead (ruling P1); at a ladder, the rubbers his side won",
            SeatCount("round_won"),
        ),
        Metric(
            "games_won",
            "Games won",
            "games his side won (Euchre, Bridge)",
            SeatSum("games_won"),
            games=frozenset({"euchre", "bridge"}),
            never="a Call-Ace sitting is not played in games",
        ),
        Metric(
            "marches",
            "Marches",
            "hands in which his side (or he, alone) took all five tricks",
            SeatSum("marches"),
            games=frozenset({"euchre", "call_ace"}),
            never="a march is Euchre's five tricks, and Bridge has none",
        ),
        Metric(
            "lone_hands",
            "Lone hands made",
            "lone hands his side played that scored (laws 3 and 45)",
            SeatSum("lone_hands"),
            games=frozenset({"euchre", "call_ace"}),
            never="a lone hand is Euchre's (laws 3 and 45), and Bridge has none",
        ),
        Metric(
            "euchres",
            "Euchres suffered",
            "hands in which he was among the makers euchred; fewer is better",
            SeatSum("euchres"),
            higher_is_better=False,
            games=frozenset({"euchre", "call_ace"}),
            never="a euchre is Euchre's, and Bridge has none",
        ),
        Metric(
            "honours",
            "Bridge honours",
            "honours scored above the line, chicane counted as the rubber's score counts it: "
            "added to his side's honours, or taken from them when the adversaries are void "
            "of trumps (rulings B3, B4)",
            SeatSum("honours"),
            games=frozenset({"bridge"}),
            never="only Bridge scores honours (rulings B3, B4)",
            never_law="rulings B3, B4",
        ),
        Metric(
            "head_to_head",
            "Head-to-head",
            "among tied players: rubbers (at fixed deals, rounds: ruling P1) won less those "
            "lost against each other",
            AmongTied(),
        ),
        Metric(
            "stake_won",
            "Stake won",
            "money won at the stake per point: each rubber's value, or a round of fixed "
            "deals' difference in points, times the stake (rulings M1, P2)",
            SeatSum("stake_won"),
        ),
    ]
}

# Figures shown beside the metrics in every row, and counted the same way, but not ranked by.
FIGURES: dict[str, Metric] = {
    m.key: m
    for m in [
        Metric(
            "hands",
            "Hands",
            "hands (Call-Ace: deals) he played in the counted rubbers; not ranked by",
            SeatSum("hands"),
        ),
        Metric(
            "rubbers_played",
            "Rubbers played",
            "finished rubbers (Call-Ace: sittings) he played; not ranked by",
            SeatCount("finished"),
        ),
    ]
}

DEFAULT_PRECEDENCE = ["net_rubber_points", "rubbers_won", "points", "head_to_head"]
# A progressive of fixed deals plays no rubber out, so its rubber metrics are all nothing:
# it is decided by the rounds its players won, each won by the side ahead on points when
# the round is over (ruling P1, docs/movements.md "Rounds won"), then by those points.
FIXED_DEALS_PRECEDENCE = ["rounds_won", "points", "head_to_head"]


def default_precedence(*, deals_per_round: int | None) -> list[str]:
    """The metrics a tournament is ranked by when its director chose none: a progressive
    of fixed deals (`deals_per_round`) by its rounds won, anything else by its rubbers."""
    return list(FIXED_DEALS_PRECEDENCE if deals_per_round else DEFAULT_PRECEDENCE)


def precedence_of(tournament) -> list[str]:
    """The metrics this tournament is ranked by: its director's that can still rank it, or
    the default for it. A saved metric that no longer can (its game or format changed, or
    it was saved before the lists offered only those that can: `no_longer_ranks`) is left
    out here, so the ranking, the version it publishes and every page and the API's
    `precedence` name the same list, before the director saves again."""
    kept = still_ranking(tournament, tournament.precedence or [])
    return kept or default_precedence(deals_per_round=tournament.deals_per_round)


def still_ranking(tournament, keys: Sequence[str]) -> list[str]:
    """Of a precedence list `keys` (saved, or a published version's), the known metrics
    that can still rank this tournament, in their order."""
    kind, fixed = _format_of(tournament)
    return [
        key
        for key in keys
        if key in METRICS and applies(METRICS[key], game=kind, fixed_deals=fixed)
    ]


def _format_of(tournament) -> tuple[str, bool]:
    """The tournament's game (a `scoring.rules.games` kind; blank: a ladder of any game)
    and whether its rounds are a fixed number of deals, as `applies` takes them."""
    from scoring.rules.games import GAMES

    game = GAMES.get(tournament.ruleset)
    return (game.kind if game else ""), bool(tournament.deals_per_round)


COLUMN_METRICS = [key for key, metric in METRICS.items() if metric.column]


class NeverApplies(ValueError):
    """A metric that can never decide this tournament: its game never scores it, or its
    rounds of fixed deals play no rubber out (ruling P1). `law` is the ruling to cite."""

    def __init__(self, message: str, law: str):
        super().__init__(message)
        self.law = law


def applies(metric: Metric, *, game: str = "", fixed_deals: bool = False) -> bool:
    """Whether the metric can ever be more than nothing at a tournament of this game (a
    `scoring.rules.games` kind; blank: a ladder of any game) and this format."""
    if fixed_deals and metric.rubbers_only:
        return False
    return not (game and metric.games and game not in metric.games)


def check_applies(
    precedence: list[str], *, game: str = "", game_name: str = "", fixed_deals: bool = False
) -> None:
    """Refuse in words (NeverApplies) the first metric of a valid precedence list that can
    never decide this tournament, naming those that can."""
    for key in precedence:
        metric = METRICS[key]
        if applies(metric, game=game, fixed_deals=fixed_deals):
            continue
        names = metric_names(game=game, fixed_deals=fixed_deals)
        if fixed_deals and metric.rubbers_only:
            raise NeverApplies(
                f"{metric.title} can never rank this tournament: its rounds are a fixed number "
                "of deals, no rubber is played out, and each round is won on points (ruling "
                f"P1). Rank it by {names}.",
                law="ruling P1",
            )
        raise NeverApplies(
            f"{metric.title} can never rank a tournament of {game_name or game}: "
            f"{metric.never}. Rank it by {names}.",
            law=metric.never_law,
        )


def metric_names(*, game: str = "", fixed_deals: bool = False) -> str:
    """The metrics to rank by (those that can apply to this game and format), named in
    words as the director's lists name them."""
    titles = [
        metric.title.lower()
        for metric in METRICS.values()
        if applies(metric, game=game, fixed_deals=fixed_deals)
    ]
    return f"{', '.join(titles[:-1])} and {titles[-1]}"


def no_longer_ranks(tournament, keys: Sequence[str]) -> list[tuple[str, str]]:
    """Of a saved precedence list `keys`, the metrics that can no longer rank this
    tournament (saved before the lists offered only those that can, or its game or format
    changed since), each as (title, why in words with its ruling): everyone is equal on
    such a metric, so it decides no place, and the director's lists leave it out."""
    from scoring.rules.games import GAMES

    game = GAMES.get(tournament.ruleset)
    kind, fixed = _format_of(tournament)
    left_out = []
    for key in keys:
        metric = METRICS.get(key)
        if metric is None or applies(metric, game=kind, fixed_deals=fixed):
            continue
        if fixed and metric.rubbers_only:
            why = (
                "no longer ranks a progressive of fixed deals, whose rounds are won on "
                "points (ruling P1)"
            )
        else:
            why = f"no longer ranks a {game.name} tournament ({metric.never_law or metric.never})"
        left_out.append((metric.title, why))
    return left_out


def validate_precedence(precedence: Any, *, game: str = "", fixed_deals: bool = False) -> list[str]:
    """A list of distinct known metric keys; raise ValueError naming the bad one. The
    choices are named as the director's lists offer them for this game and format
    (`metric_names`, `applies`: as tournaments.forms.metric_choices)."""
    names = metric_names(game=game, fixed_deals=fixed_deals)
    if not isinstance(precedence, list) or not precedence:
        raise ValueError(
            f"Choose at least one metric to rank by, the one that decides most first, from {names}."
        )
    seen = set()
    for key in precedence:
        if not isinstance(key, str) or key not in METRICS:
            # Named in words, as the director's lists name them: a key is the API's word.
            raise ValueError(
                f"{quoted(str(key))} is none of the metrics to rank by: choose each from {names}."
            )
        if key in seen:
            # Named by its title, as the director chose it from the list ("Points won").
            raise ValueError(f"{METRICS[key].title} is listed twice: each metric ranks once.")
        seen.add(key)
    return list(precedence)


def _sort_value(metric: Metric, value) -> Any:
    value = Decimal(value) if isinstance(value, str) else value
    return -value if metric.higher_is_better else value


def rank(
    rows: Sequence[dict],
    precedence: Sequence[str],
    head_to_head: Callable[[list[int]], dict[int, int]] | None = None,
) -> list[dict]:
    """Rank rows ({"member", "name", "metrics": {...}}) by the precedence list.

    Players equal on every metric share a rank and are marked tied: two players
    equal at third are both (3, tied) and the next is fifth. Head-to-head is
    computed only for each group tied on the metrics before it, through the
    callback (member ids -> their head-to-head scores). Ties are broken by nothing
    else; names order tied players for display only.
    """
    rows = [dict(row, metrics=dict(row["metrics"])) for row in rows]

    def key_until(row, upto: int):
        return tuple(_sort_value(METRICS[k], row["metrics"][k]) for k in precedence[:upto])

    if "head_to_head" in precedence:
        position = list(precedence).index("head_to_head")
        groups: dict[tuple, list[dict]] = {}
        for row in rows:
            row["metrics"]["head_to_head"] = 0
            groups.setdefault(key_until(row, position), []).append(row)
        for group in groups.values():
            if len(group) > 1 and head_to_head is not None:
                scores = head_to_head([row["member"] for row in group])
                for row in group:
                    row["metrics"]["head_to_head"] = scores.get(row["member"], 0)

    full = len(precedence)
    rows.sort(key=lambda row: (key_until(row, full), row["name"].casefold()))
    ranked = []
    previous_key, previous_rank = None, 0
    for index, row in enumerate(rows, 1):
        key = key_until(row, full)
        current_rank = previous_rank if key == previous_key else index
        ranked.append({**row, "rank": current_rank})
        previous_key, previous_rank = key, current_rank
    counts: dict[int, int] = {}
    for row in ranked:
        counts[row["rank"]] = counts.get(row["rank"], 0) + 1
    for row in ranked:
        row["tied"] = counts[row["rank"]] > 1
        row["display_rank"] = f"={row['rank']}" if row["tied"] else str(row["rank"])
    return ranked
