"""Fixtures for stored rubbers: a club roster, an evening, a table and its phone."""

import pytest
from rest_framework.test import APIClient

from tests.factories import EveningFactory, MemberFactory, TableFactory

NAMES = ["Ann", "Bob", "Cora", "Dan", "Edith", "Frank", "Grace"]


@pytest.fixture
def roster(club):
    return {name: MemberFactory(club=club, name=name) for name in NAMES}


@pytest.fixture
def evening(club):
    return EveningFactory(club=club, stake="0.25")


@pytest.fixture
def table(evening):
    return TableFactory(evening=evening, number=1)


@pytest.fixture
def table_api(table):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table.token}")
    return client


PAIRS = {"NS": ["Ann", "Cora"], "EW": ["Bob", "Dan"]}


def euchre(makers="NS", tricks=3, alone=False, **extra):
    """A Euchre hand in the scoresheet's shape."""
    return {"makers": makers, "tricks": tricks, "alone": alone, **extra}
