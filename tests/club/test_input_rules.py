"""One set of input rules at every door (core/text.py): the API, the HTML forms, the
evening's actions and a replayed log refuse the same text for the same reasons, match
names to the roster the same way, and take only the documented keys of an action."""

import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse

from club import evening_log, evenings, recording, services
from club.models import Cut, Evening, EveningEvent, Member
from config.api import UserError
from core.text import NAME_MAX, REASON_MAX, clean_name, name_key, name_skeleton
from tests.factories import MemberFactory
from tests.worlds import assert_replayed

HUGE = "A" * 100_000
FULL_WIDTH_ANN = "\uff21\uff4e\uff4e"  # "Ann" in full-width letters
CYRILLIC_ANN = "\u0410nn"  # a Cyrillic capital A, then Latin "nn"
SIX = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank"]
MARCH, THREE = {"makers": "NS", "tricks": 5}, {"makers": "NS", "tricks": 3}


@pytest.fixture
def ann(club):
    return MemberFactory(club=club, name="Ann")


def act(evening, **event):
    return evenings.evening_act(evening_id=evening.pk, event=event)


def present(evening):
    evening.refresh_from_db()
    return evenings.evening_summary(evening=evening)["present"]


def error_of(response):
    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert len(response.content) < 2_000  # the refused text is never echoed back
    return response.json()["error"]


# --- the rules themselves -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("An\x00n", "control character (U+0000)"),
        ("An\x1fn", "control character (U+001F)"),
        ("An\x85n", "control character (U+0085)"),
        ("\u202eAnn", "direction of text (U+202E)"),
        ("Ann\u2066", "direction of text (U+2066)"),
        ("A\u200bnn", "zero-width character (U+200B)"),
        ("A\u200dnn", "zero-width character (U+200D)"),
        ("\ufeffAnn", "zero-width character (U+FEFF)"),
        ("An\ud800n", "unpaired surrogate"),
    ],
)
def test_a_name_with_control_bidi_or_invisible_characters_is_refused(text, what):
    with pytest.raises(UserError) as error:
        clean_name(text, field="player", label="The player's name")
    assert error.value.message.startswith("The player's name holds ")
    assert what in error.value.message
    assert error.value.field == "player"


def test_names_are_normalised_and_matched_ignoring_case_and_spaces():
    assert clean_name(f"  {FULL_WIDTH_ANN}   Smith ", label="The name") == "Ann Smith"
    assert name_key("A nn") == name_key("ANN") == name_key(FULL_WIDTH_ANN) == "ann"
    # Look-alike letters from another script share the skeleton, not the key.
    assert name_key(CYRILLIC_ANN) != name_key("Ann")
    assert name_skeleton(CYRILLIC_ANN) == name_skeleton("Ann") == name_skeleton("\u0391NN")
    assert name_skeleton("Bob") != name_skeleton("Ann")
    with pytest.raises(UserError) as error:
        clean_name("x" * (NAME_MAX + 1), label="The member's name")
    assert error.value.message == "The member's name is 80 characters at most; this one has 81."
    assert error.value.details == {"max_length": 80, "length": 81}


# --- the API --------------------------------------------------------------------------------


def test_the_api_refuses_a_huge_name_with_400_naming_the_field(secretary_api, club, evening):
    events = reverse("api-evening-events", args=[club.slug, evening.pk])
    error = error_of(secretary_api.post(events, {"type": "arrive", "player": HUGE}, format="json"))
    assert error["field"] == "player"
    assert error["message"] == "The player's name is 80 characters at most; this one has 100,000."
    error = error_of(secretary_api.post(reverse("api-members", args=[club.slug]), {"name": HUGE}))
    assert error["field"] == "name"
    assert error["message"] == "The member's name is 80 characters at most; this one has 100,000."
    assert not Member.objects.filter(club=club).exists()
    assert Evening.objects.get(pk=evening.pk).version == 0


def test_the_api_refuses_a_huge_or_hidden_reason(secretary_api, club, evening):
    evenings.evening_close(evening_id=evening.pk)
    reopen = reverse("api-evening-reopen", args=[club.slug, evening.pk])
    error = error_of(secretary_api.post(reopen, {"reason": "x" * (REASON_MAX + 1)}, format="json"))
    assert error["field"] == "reason"
    assert error["message"] == "The reason is 500 characters at most; this one has 501."
    error = error_of(secretary_api.post(reopen, {"reason": "typo\u202e"}, format="json"))
    assert error["field"] == "reason" and "U+202E" in error["message"]
    assert Evening.objects.get(pk=evening.pk).status == "closed"


def test_a_correction_reason_is_capped(secretary_api, club, evening):
    for name in SIX[:4]:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    act(evening, type="cut", cards={"Ann": "JH", "Bob": "AH", "Cora": "KH", "Dan": "QH"})
    recording.hand_record(evening_id=evening.pk, table_number=1, data=MARCH)
    url = reverse("api-table-hand", args=[club.slug, evening.pk, 1, 1, 1])
    body = {"hand": THREE, "reason": "x" * 100_000}
    error = error_of(secretary_api.put(url, body, format="json"))
    assert error["field"] == "reason"


def test_a_tournament_name_follows_the_same_rules(secretary_api, club):
    url = reverse("api-tournaments", args=[club.slug])
    body = {"name": "Spring\u202e ladder", "slug": "spring", "kind": "ladder"}
    error = error_of(secretary_api.post(url, body, format="json"))
    assert error["field"] == "name" and "U+202E" in error["message"]
    assert (
        secretary_api.post(url, {**body, "name": "Spring  ladder "}, format="json").json()["name"]
        == "Spring ladder"
    )


def test_the_roster_asks_about_a_look_alike_name(secretary_api, club, ann):
    url = reverse("api-members", args=[club.slug])
    error = error_of(secretary_api.post(url, {"name": "ann"}))
    assert error["field"] == "name" and "roster already" in error["message"]
    error = error_of(secretary_api.post(url, {"name": CYRILLIC_ANN}))
    assert error["code"] == "near_duplicate"
    assert error["message"] == "Ann is a member: is this Ann, or a new player?"
    created = secretary_api.post(url, {"name": CYRILLIC_ANN, "new_player": True})
    assert created.status_code == 201 and created.json()["name"] == CYRILLIC_ANN


# --- the evening's actions ------------------------------------------------------------------


def test_ann_arriving_as_ann_in_any_case_or_width_is_the_member_ann(club, evening, ann):
    act(evening, type="arrive", player="ann")
    assert present(evening) == ["Ann"]
    act(evening, type="depart", player="Ann")
    act(evening, type="arrive", player=FULL_WIDTH_ANN)
    assert present(evening) == ["Ann"]
    assert list(Member.objects.filter(club=club).values_list("name", flat=True)) == ["Ann"]
    assert all(e.data["player"] == "Ann" for e in EveningEvent.objects.filter(type="arrive"))


def test_a_look_alike_arrival_is_asked_about_and_may_be_confirmed(club, evening, ann):
    with pytest.raises(UserError) as error:
        act(evening, type="arrive", player=CYRILLIC_ANN)
    assert error.value.message == "Ann is a member: is this Ann, or a new player?"
    assert error.value.field == "player" and error.value.code == "near_duplicate"
    assert present(evening) == [] and Member.objects.filter(club=club).count() == 1

    act(evening, type="arrive", player=CYRILLIC_ANN, new_player=True)
    assert present(evening) == [CYRILLIC_ANN]
    assert Member.objects.filter(club=club, name=CYRILLIC_ANN, is_guest=True).exists()


@pytest.mark.parametrize("bad", ["Ann\x00", "\u202eAnn", "A\u200bnn", HUGE])
def test_an_arrival_with_a_bad_name_is_refused_and_nothing_is_logged(club, evening, bad):
    with pytest.raises(UserError) as error:
        act(evening, type="arrive", player=bad)
    assert error.value.field == "player"
    assert len(error.value.message) < 200
    assert Evening.objects.get(pk=evening.pk).version == 0
    assert not Member.objects.filter(club=club).exists()


def test_an_action_takes_only_its_documented_keys(club, evening):
    with pytest.raises(UserError) as error:
        act(evening, type="arrive", player="Ann", colour="red")
    assert error.value.field == "colour" and error.value.code == "unknown_key"
    assert "'arrive' takes new_player, player" in error.value.message
    with pytest.raises(UserError) as error:
        act(evening, type="form_table", table=3)
    assert error.value.field == "table"
    assert Evening.objects.get(pk=evening.pk).version == 0


def test_what_only_the_service_sets_cannot_be_sent(club, evening):
    for name in SIX[:4]:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    cards = {"Ann": "JH", "Bob": "AH", "Cora": "KH", "Dan": "QH"}
    for extra, field in (({"drawn": True}, "drawn"), ({"purpose": "cut-out"}, "purpose")):
        with pytest.raises(UserError) as error:
            act(evening, type="cut", cards=cards, **extra)
        assert error.value.field == field
    act(evening, type="cut", cards=cards)
    assert not Cut.objects.get(evening=evening).drawn_by_service
    with pytest.raises(UserError) as error:
        act(evening, type="rubber_end", table=1, automatic=True)
    assert error.value.field == "automatic"
    assert not EveningEvent.objects.filter(evening=evening, automatic=True).exists()


def test_the_api_refuses_unknown_and_service_keys_too(secretary_api, club, evening):
    events = reverse("api-evening-events", args=[club.slug, evening.pk])
    body = {"type": "rubber_end", "table": 1, "automatic": True}
    assert error_of(secretary_api.post(events, body, format="json"))["field"] == "automatic"
    body = {"type": "arrive", "player": "Ann", "entered_by": "me"}
    assert error_of(secretary_api.post(events, body, format="json"))["field"] == "entered_by"


def test_a_replayed_log_keeps_working_with_drawn_cuts_and_automatic_ends(club, evening, tmp_path):
    for name in SIX:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    while evenings.evening_summary(evening=Evening.objects.get(pk=evening.pk))["pending_cuts"]:
        act(evening, type="cut", draw=True)
    for hand in [MARCH, MARCH, THREE] * 3:  # N-S win the rubber: its end is automatic
        recording.hand_record(evening_id=evening.pk, table_number=1, data=hand)
    evenings.evening_close(evening_id=evening.pk)
    evenings.evening_reopen(evening_id=evening.pk, reason="  a hand\r\nwas missed ")
    log = evening_log.evening_export(evening=evening)
    assert any(e.get("automatic") for e in log["events"])
    assert any(e.get("drawn") for e in log["events"])
    assert log["events"][-1] == {"type": "reopen", "reason": "a hand\nwas missed"}
    before = evenings.evening_summary(evening=Evening.objects.get(pk=evening.pk))

    Evening.objects.all().delete()
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(log))
    out = io.StringIO()
    call_command("replay_evening", str(path), stdout=out)
    replayed = json.loads(out.getvalue())
    assert_replayed(replayed, before, ("present", "tables", "pending_cuts", "rubbers", "ledger"))
    again = Evening.objects.get()
    # The cuts the service drew are still marked so (ruling T10) after the replay.
    assert evening_log.evening_export(evening=again)["events"] == log["events"]
    assert Cut.objects.filter(evening=again, drawn_by_service=True).exists()


def test_a_log_with_a_bad_name_or_key_is_refused_where_it_is_wrong(club):
    log = {
        "format": evening_log.LOG_FORMAT,
        "club": {"name": "Somerset Club", "slug": club.slug},
        "evening": {"date": "1888-11-21", "ruleset": "euchre-somerset-1888"},
        "events": [{"type": "arrive", "player": "Ann"}, {"type": "arrive", "player": "Bob\x00"}],
    }
    with pytest.raises(UserError) as error:
        evening_log.evening_replay(log=log)
    assert error.value.field == "events[1].player"
    log["events"][1] = {"type": "arrive", "player": "Bob", "seat": "N"}
    with pytest.raises(UserError) as error:
        evening_log.evening_replay(log=log)
    assert error.value.field == "events[1].seat"


# --- the HTML forms -------------------------------------------------------------------------


def board_post(client, evening, **data):
    return client.post(reverse("evening-board-action", args=[evening.pk]), data)


def test_the_board_refuses_a_huge_name_without_echoing_it(client, secretary, club, evening):
    client.force_login(secretary)
    response = board_post(client, evening, type="arrive", player=HUGE)
    assert response.status_code == 200
    assert b"The player&#x27;s name is 80 characters at most; this one has 100,000." in (
        response.content
    )
    assert HUGE[:200].encode() not in response.content
    assert Evening.objects.get(pk=evening.pk).version == 0


def test_the_board_asks_about_a_look_alike_and_takes_the_answer(client, secretary, club, ann):
    client.force_login(secretary)
    evening = evenings.evening_open(
        club=club, date="1888-11-21", ruleset="euchre-somerset-1888", stake=Decimal("0")
    )
    response = board_post(client, evening, type="arrive", player="ann")
    assert present(evening) == ["Ann"]
    response = board_post(client, evening, type="arrive", player=CYRILLIC_ANN)
    page = response.content.decode()
    assert "Ann is a member: is this Ann, or a new player?" in page
    assert 'name="new_player"' in page and f'value="{CYRILLIC_ANN}"' in page
    board_post(client, evening, type="arrive", player=CYRILLIC_ANN, new_player="1")
    assert present(evening) == ["Ann", CYRILLIC_ANN]


def test_the_secretary_home_caps_an_evening_title(client, secretary, club):
    client.force_login(secretary)
    response = client.post(
        reverse("secretary-home"),
        {"club": club.pk, "ruleset": "euchre-somerset-1888", "stake": "0", "title": HUGE},
    )
    assert response.status_code == 400
    assert (
        "<strong>Not opened.</strong> The evening&#x27;s title is 120 characters at most; this "
        "one has 100,000."
    ) in response.content.decode()
    assert not Evening.objects.exists()


def test_the_tournament_director_enters_ann_as_the_member_ann(client, secretary, club, ann):
    from tournaments import services as tournament_services

    tournament = tournament_services.tournament_create(
        club=club, name="Whist drive", slug="drive", kind="progressive",
        ruleset="euchre-somerset-1888", movement="progressive",
    )  # fmt: skip
    client.force_login(secretary)
    url = reverse("tournament-director-act", args=[tournament.pk])
    client.post(url, {"action": "enter", "name": FULL_WIDTH_ANN})
    assert list(tournament.players.values_list("member__name", flat=True)) == ["Ann"]
    response = client.post(url, {"action": "enter", "name": CYRILLIC_ANN})
    assert "is this Ann, or a new player?" in response.content.decode()
    assert Member.objects.filter(club=club).count() == 1


def test_the_services_match_members_as_the_doors_do(club, ann):
    with pytest.raises(UserError, match="roster already"):
        services.member_create(club=club, name=" A  NN ")
    with pytest.raises(UserError, match="is this Ann, or a new player"):
        services.member_update(member=MemberFactory(club=club, name="Bob"), name=CYRILLIC_ANN)


@pytest.mark.django_db
@pytest.mark.parametrize("kind", [{}, ["arrive"], None, 7])
def test_an_action_whose_type_is_not_text_is_refused_on_its_field(evening, kind):
    """A replayed log is read by the same service: a type that is not text is a user error."""
    with pytest.raises(UserError) as caught:
        evenings.evening_act(evening_id=evening.pk, event={"type": kind})
    assert caught.value.field == "type"


ARABIC_QUARTER = "\u0660.\u0662\u0665"  # 0.25 in Arabic-Indic digits, which Decimal reads


def test_an_evenings_stake_in_other_digits_is_refused_at_both_doors(
    secretary_api, club, client, secretary
):
    """As a progressive's stake and a trick count are (core.inputs): Python's Decimal would
    read it as 0.25; the API and the secretary's page refuse it in words, opening nothing."""
    body = {"date": "1888-11-21", "ruleset": "euchre-somerset-1888", "stake": ARABIC_QUARTER}
    error = error_of(
        secretary_api.post(f"/api/v1/clubs/{club.slug}/evenings/", body, format="json")
    )
    assert error["field"] == "stake"
    assert "in the digits 0 to 9" in error["message"] and "ruling M1" in error["message"]
    client.force_login(secretary)
    page = client.post("/secretary/", {"club": club.pk, **body})
    assert page.status_code == 400
    assert "in the digits 0 to 9" in page.content.decode()
    assert not Evening.objects.filter(club=club, date="1888-11-21").exists()
    ok = {**body, "stake": "0.25"}
    assert (
        secretary_api.post(f"/api/v1/clubs/{club.slug}/evenings/", ok, format="json").status_code
        == 201
    )
