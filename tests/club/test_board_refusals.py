"""The secretary's board refuses a stale board and a wrong table in words, naming what
was wrong as every other refusal does (club.board_refusals): a board another device moved
the evening on from says so, with what happened since it was loaded and by whom, and that
nothing was done; a table not chosen, or not the evening's, is named by its number beside
the evening's tables. Nothing changes either way."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from club import evenings
from club.models import Evening
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

FOUR = {"Ann": "JH", "Bob": "AH", "Cora": "KH", "Dan": "QH"}


def act(evening, **event):
    return evenings.evening_act(evening_id=evening.pk, event=event)


@pytest.fixture
def seated(evening):
    """Table 1 seated (N-S Ann & Bob against E-W Cora & Dan), Edith a candidate."""
    for name in FOUR:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    act(evening, type="cut", cards=FOUR)
    act(evening, type="arrive", player="Edith")
    return evening


@pytest.fixture
def board(client, secretary):
    client.force_login(secretary)
    return client


def version(evening) -> int:
    return Evening.objects.get(pk=evening.pk).version


def post(client, evening, **data):
    return client.post(reverse("evening-board-action", args=[evening.pk]), data)


def refusal(answer) -> tuple[str, str]:
    """The board's refusal as the secretary reads it, and its field for scripts."""
    page = answer.content.decode()
    alert = page[page.index('data-testid="refusal"') :].split("</div>", 1)[0]
    field = re.search(r'data-field="([^"]*)"', alert)
    words = html.unescape(re.sub(r"<[^>]+>", "", alert.split(">", 1)[1]))
    return " ".join(words.split()), field.group(1) if field else ""


def test_a_board_out_of_date_says_what_another_device_did_and_that_nothing_was_done(board, seated):
    loaded = version(seated)  # the board as the secretary loaded it
    table = seated.tables.get(number=1)
    phone = Client().post(f"/t/{table.token}/hand/", {"makers": "NS", "tricks": "3"})
    assert phone.status_code == 200  # meanwhile table 1's phone records a hand
    answer = post(board, seated, type="claim", player="Edith", table="1", version=str(loaded))
    assert refusal(answer) == (
        "Not done. The board was out of date: since you loaded it, another device changed "
        "the evening (A hand is recorded at table 1 (rubber 1), by table 1's phone). Nothing "
        "was done: the board now shows the evening as it is; look again, and do it again if "
        "it is still wanted.",
        "version",
    )
    seated.refresh_from_db()
    assert seated.version == loaded + 1  # the hand's, and nothing more
    assert seated.state["tables"][0]["claims"] == []
    assert "X-Live-Done" not in answer  # the board keeps what was typed
    # The board shown is the evening as it now is: another claim from it is carried out.
    page = answer.content.decode()
    assert f'data-version="{loaded + 1}"' in page
    again = post(board, seated, type="claim", player="Edith", table="1", version=str(loaded + 1))
    assert "Not done." not in again.content.decode()
    assert Evening.objects.get(pk=seated.pk).state["tables"][0]["claims"] == ["Edith"]


def test_many_changes_since_are_counted_and_the_latest_named(board, seated):
    loaded = version(seated)
    silas = UserFactory(username="silas", first_name="Silas", last_name="Wegg")
    seated.club.secretaries.add(silas)
    other = Client()  # a second secretary, at another device
    other.force_login(silas)
    for name in ("Frank", "Grace", "Hugh", "Ida"):
        assert "Not done." not in post(other, seated, type="arrive", player=name).content.decode()
    answer = post(board, seated, type="undo", version=str(loaded))
    words, field = refusal(answer)
    assert field == "version"
    assert words.startswith(
        "Not done. The board was out of date: since you loaded it, other devices changed the "
        "evening 4 times (Grace arrives, by Silas Wegg; Hugh arrives, by Silas Wegg; Ida "
        "arrives, by Silas Wegg; and 1 before them). Nothing was done"
    )
    assert Evening.objects.get(pk=seated.pk).state["present"][-1] == "Ida"  # not undone


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"type": "new_link", "table": "9"},
         "The table: there is no table 9 this evening; this evening's one table is table 1."),
        ({"type": "break_up", "table": "9"},
         "The table: there is no table 9 this evening; this evening's one table is table 1."),
        ({"type": "claim", "player": "Edith", "table": ""},
         "The table: choose one by its number; this evening's one table is table 1."),
        ({"type": "leave", "player": "Ann"},
         "The table: choose one by its number; this evening's one table is table 1."),
        ({"type": "close_sitting", "table": ""},
         "The table: choose one by its number; this evening's one table is table 1."),
        ({"type": "leave", "player": "Ann", "table": "x"},
         "The table: give a whole number, nothing below nought, in the digits 0 to 9, at "
         "most 9 of them."),
    ],
)  # fmt: skip
def test_a_table_not_the_evenings_is_named_by_its_number(board, seated, form, said):
    loaded = version(seated)
    token = seated.tables.get(number=1).token
    answer = post(board, seated, **form, version=str(loaded))
    assert refusal(answer) == (f"Not done. {said}", "table")
    after = Evening.objects.get(pk=seated.pk)
    assert after.version == loaded and after.tables.get(number=1).token == token


def test_a_table_of_the_evening_keeps_its_own_refusal(board, seated):
    """A refusal of a table the evening has names it already: it is not rewritten."""
    answer = post(board, seated, type="change_table", player="Ann", table="1", version="")
    assert refusal(answer) == (
        "Not done. Law 20 / ruling T8: Ann already belongs to table 1.",
        "table",
    )


def test_a_version_not_written_in_digits_is_named_in_words(board, seated):
    loaded = version(seated)
    answer = post(board, seated, type="break_up", table="1", version="٣")
    assert refusal(answer) == (
        "Not done. The board's version of the evening: give a whole number, nothing below "
        "nought, in the digits 0 to 9, at most 9 of them.",
        "version",
    )
    after = Evening.objects.get(pk=seated.pk)
    assert after.version == loaded and [t["number"] for t in after.state["tables"]] == [1]


def test_the_dealers_chosen_cards_too_long_are_refused_with_the_verb_agreeing(board, seated):
    """Ruling T12: the dealer's choice of cards, past 120 characters, was refused with "The
    cards the dealer chose is 120 characters at most"; the plural words take "are"
    (core.text.Plural), and nothing is recorded."""
    before = version(seated)
    answer = post(
        board, seated, type="dealer_choice", table="1", seat="N", cards="x" * 200,
        version=str(before),
    )  # fmt: skip
    words, field = refusal(answer)
    assert "The cards the dealer chose are 120 characters at most; this one has 200." in words
    assert field == "cards"
    assert version(seated) == before
    answer = post(
        board, seated, type="dealer_choice", table="1", seat="N", counters="\u202e" + "x",
        version=str(before),
    )  # fmt: skip
    words, field = refusal(answer)
    assert "The counters the dealer chose hold a character that reverses" in words
    assert field == "counters"
    assert version(seated) == before


#: The board's refusal of a field of each kind, as the secretary reads it: a number (the
#: table, the board's version), a text (a name: empty, too long) and a choice (the dealer's
#: seat, ruling T12; the rule set of a new evening).
@pytest.mark.parametrize(
    ("form", "said", "field"),
    [
        ({"type": "claim", "player": "Edith", "table": "1.5"},
         "The table: give a whole number, nothing below nought, in the digits 0 to 9, at "
         "most 9 of them.", "table"),
        ({"type": "new_link", "table": "x"},
         "The table: give a whole number, nothing below nought, in the digits 0 to 9, at "
         "most 9 of them.", "table"),
        ({"type": "undo", "reason": "wrong", "version": "-1"},
         "The board's version of the evening: give a whole number, nothing below nought, in "
         "the digits 0 to 9, at most 9 of them.", "version"),
        ({"type": "arrive", "player": "x" * 81},
         "The player's name is 80 characters at most; this one has 81.", "player"),
        ({"type": "claim", "player": "", "table": "1"},
         "A claim of admission needs the player's name.", "player"),
        ({"type": "close_sitting", "table": "1"},
         "A rubber ends when it is won, not when it is closed (ruling E1); only a Call-Ace "
         "sitting is closed, and settled (ruling C5).", ""),
        ({"type": "dealer_choice", "table": "1", "seat": "Q"},
         "Law 11 / ruling T12: the dealer's seat is north, east, south or west: N, E, S or "
         "W.",
         "seat"),
    ],
)  # fmt: skip
def test_each_kind_of_field_is_refused_in_one_sentence(board, seated, form, said, field):
    """After its field's name and a colon, a refusal goes on in lower case as one sentence
    (core.echo.after_label, as the tables' phones say it), never "The table: Give ...";
    one the evening's laws word without its full stop ends with one on the board."""
    loaded = version(seated)
    form.setdefault("version", str(loaded))
    answer = post(board, seated, **form)
    assert refusal(answer) == (f"Not done. {said}", field)
    assert version(seated) == loaded  # nothing done


@pytest.mark.parametrize(
    ("form", "said", "field"),
    [
        ({"stake": "a quarter"},
         "The stake: write it as an amount a point in the digits 0 to 9, with a point before "
         "the pence, such as 0.25, or 0 for an evening not played for money (ruling M1).",
         "stake"),
        ({"stake": "-0.25"},
         "The stake: it cannot be below nought: write 0 for an evening not played for money "
         "(ruling M1).", "stake"),
        ({"stake": "0.125"},
         "The stake: write it with at most two figures after the point, such as 0.25 "
         "(ruling M1).", "stake"),
        ({"stake": "12345678901"},
         "The stake: it is at most 9999999999.99 a point (ruling M1).", "stake"),
        ({"date": "21/11/1888"},
         "The date: write it as year-month-day in digits, such as 1888-11-21, a day the "
         "calendar has.", "date"),
        ({"date": "1888-02-30"},
         "The date: write it as year-month-day in digits, such as 1888-11-21, a day the "
         "calendar has.", "date"),
        ({"ruleset": "whist"}, 'The rule set: "whist" is not a valid choice.', "ruleset"),
        ({"title": "x" * 121},
         "The evening's title is 120 characters at most; this one has 121.", "title"),
    ],
)  # fmt: skip
def test_a_new_evening_refused_says_its_field_and_why_in_one_sentence(
    board, club, form, said, field
):
    """The form that opens the evening names its field before the refusal as the board
    does, and says what to write in the project's words: "The stake: write it as an amount
    ...", never the API's stock English ("A valid number is required.", "Date has wrong
    format. Use one of these formats instead: YYYY-MM-DD.")."""
    sent = {"club": str(club.pk), "title": "Tuesday", "stake": "0.25"}
    sent["ruleset"] = "euchre-somerset-1888"
    answer = board.post(reverse("secretary-home"), {**sent, **form})
    assert answer.status_code == 400
    words, named = refusal(answer)
    assert (words, named) == (f"Not opened. {said}", field)
    assert not club.evenings.exists()  # nothing opened


def test_a_board_out_of_date_by_your_own_first_tap_says_by_you(board, seated):
    """The same secretary's own first post (a double tap whose first answer was lost, or
    his phone beside the laptop) is not "another device": it is said to be his, from this
    board or another device, as either may be true."""
    loaded = version(seated)
    first = post(board, seated, type="claim", player="Edith", table="1", version=str(loaded))
    assert "Not done." not in first.content.decode()
    answer = post(board, seated, type="claim", player="Edith", table="1", version=str(loaded))
    words, field = refusal(answer)
    assert field == "version"
    assert words.startswith(
        "Not done. The board was out of date: since you loaded it, you changed the evening "
        "yourself, from this board or another device (Edith claims admission at table 1). "
        "Nothing was done"
    ), words
    assert "another device changed" not in words
    assert Evening.objects.get(pk=seated.pk).version == loaded + 1


def test_a_board_out_of_date_by_you_and_others_names_each(board, seated, secretary):
    loaded = version(seated)
    silas = UserFactory(username="silas", first_name="Silas", last_name="Wegg")
    seated.club.secretaries.add(silas)
    other = Client()
    other.force_login(silas)
    mine = Client()  # the same secretary's phone
    mine.force_login(secretary)
    assert "Not done." not in post(other, seated, type="arrive", player="Frank").content.decode()
    assert "Not done." not in post(mine, seated, type="arrive", player="Grace").content.decode()
    words, field = refusal(post(board, seated, type="undo", version=str(loaded)))
    assert field == "version"
    assert words.startswith(
        "Not done. The board was out of date: since you loaded it, the evening was changed "
        "2 times, by you (from this board or another device) and by others (Frank arrives, "
        "by Silas Wegg; Grace arrives, by you). Nothing was done"
    ), words


@pytest.fixture
def to_cut(evening):
    """Table 1 formed of Ann, Bob, Cora and Dan, their cut for seats not yet entered."""
    for name in FOUR:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    return evening


def test_the_cut_sent_empty_keeps_its_examples_typed_by_letter(board, to_cut):
    """Ruling T1: a card is typed by its suit's symbol or its letter; the refusal's examples
    of both were shown as "J♠ or J♠, 10♥ or 10♥" (every code turned into a symbol)."""
    loaded = version(to_cut)
    words, field = refusal(post(board, to_cut, type="cut", table="1", version=str(loaded)))
    assert "rank then suit (e.g. J♠ or JS, 10♥ or 10H)" in words, words
    assert field == "cards"


def test_a_card_named_in_a_cut_refusal_is_still_shown_by_its_symbol(board, to_cut):
    """Ruling T1: Euchre's pack has no two (law 8); the card refused is shown as people
    read it, the example of how to type one by its letter."""
    loaded = version(to_cut)
    cards = {f"card-{name}": card for name, card in FOUR.items()} | {"card-Ann": "2h"}
    words, _ = refusal(post(board, to_cut, type="cut", table="1", version=str(loaded), **cards))
    assert "2♥" in words and "2H" not in words, words


def test_call_ace_throws_malformed_keep_the_example_typed_by_letter(board, club):
    """Call-Ace law 1: the throws' example typed by letter read "(or 9♠, J♦)"."""
    evening = evenings.evening_open(
        club=club, date="1905-03-01", ruleset="call-ace-foster-1905", stake=1
    )
    for name in ["Ann", "Bob", "Cora", "Dan"]:
        act(evening, type="arrive", player=name)
    act(evening, type="form_table")
    loaded = version(evening)
    answer = post(board, evening, type="deal_jack", table="1", throws="Ann", version=str(loaded))
    words, field = refusal(answer)
    assert "(9♠ or 9S)" in words and '"Ann 9♠, Bob J♦"' in words, words
    assert field == "throws"


#: What Python's Decimal reads as an amount though it is not written in the digits 0 to 9
#: and a point, as every form that asks for a stake says it is: "1e3" opened an evening at
#: 1000.00 a point.
NOT_DIGITS_AND_A_POINT = ["1e3", "1E2", "NaN", "Infinity", "1_000"]


@pytest.mark.parametrize("stake", NOT_DIGITS_AND_A_POINT)
def test_a_stake_not_in_digits_and_a_point_opens_no_evening(board, club, secretary_api, stake):
    """Ruling M1: at the secretary's form and at the API alike (core.inputs.AmountField)."""
    sent = {"club": str(club.pk), "ruleset": "euchre-somerset-1888", "stake": stake}
    answer = board.post(reverse("secretary-home"), sent)
    assert answer.status_code == 400
    words, field = refusal(answer)
    assert words.startswith("Not opened. The stake: write it"), words
    assert "in the digits 0 to 9, with a point before the pence, such as 0.25" in words
    assert words.endswith("(ruling M1).") and field == "stake"
    body = {"date": "1888-11-21", "ruleset": "euchre-somerset-1888", "stake": stake}
    api = secretary_api.post(f"/api/v1/clubs/{club.slug}/evenings/", body, format="json")
    assert api.status_code == 400
    error = api.json()["error"]
    assert error["field"] == "stake", error
    # "NaN" and "Infinity" too: they had DRF's own "A valid number is required."
    assert "in the digits 0 to 9" in error["message"] and "ruling M1" in error["message"], error
    assert not club.evenings.exists()
