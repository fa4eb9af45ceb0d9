"""Attacks, round three: what a refusal of a body tells anyone.

A JSON body holding a number of more than 4300 digits was refused with Python's own words,
which advise the operator's setting ("Exceeds the limit (4300 digits) for integer string
conversion: value has 5000 digits; use sys.set_int_max_str_digits() to increase the
limit"), to anyone at an address that takes no login (the scoresheet, the token). Now it
is refused in the project's words naming the field `body`, as a body nested too deep is.
"""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/v1/scoresheets/score", "/api/v1/auth/token/"])
def test_a_number_too_long_to_read_is_refused_in_words_without_pythons_advice(path):
    body = '{"username": "ann", "password": ' + "9" * 5000 + "}"
    answer = Client().post(path, body, content_type="application/json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert "sys." not in error["message"] and "set_int_max_str_digits" not in error["message"]
    assert error["field"] == "body" and error["code"] == "parse_error"
    assert error["message"] == (
        "The JSON body holds a number of more than 4300 digits, which no field takes."
    )
