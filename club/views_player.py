"""The club's players, found by name, each leading to his record (issue #15)."""

from django.shortcuts import render

from club import selectors_player
from club.views import _visible_club
from core.inputs import search_text


def player_index(request, slug):
    """The club's players, alphabetically, or those whose name contains `?name=`."""
    club = _visible_club(request, slug)
    name = search_text(request.GET, "name", max_length=80)  # no NUL (core.inputs)
    players, count = selectors_player.players_named(club=club, user=request.user, name=name)
    return render(
        request,
        "club/players.html",
        {"club": club, "players": players, "count": count, "name": name},
    )
