"""Fixtures for stored rubbers: a club roster, an evening, a table and its phone."""

import pytest

# Django is imported inside the fixtures: the pure rule sets' tests below (tests/scoring/rules)
# run without it (`pytest -p no:django`).

NAMES = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace"]


@pytest.fixture
def roster(club):
    from tests.factories import MemberFactory

    return {name: MemberFactory(club=club, name=name) for name in NAMES}


@pytest.fixture
def evening(club):
    from tests.factories import EveningFactory

    return EveningFactory(club=club, stake="0.25")


@pytest.fixture
def table(evening):
    from tests.factories import TableFactory

    return TableFactory(evening=evening, number=1)


@pytest.fixture
def table_api(table):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table.token}")
    return client


PAIRS = {"NS": ["Ann", "Cora"], "EW": ["Bob", "Dan"]}


def euchre(makers="NS", tricks=3, alone=False, **extra):
    """A Euchre hand in the scoresheet's shape."""
    return {"makers": makers, "tricks": tricks, "alone": alone, **extra}
