"""Hostile input (issue 7, item 6): schemathesis fuzzes every operation of the OpenAPI
schema, as the club's secretary with a real token, against a club with an evening, a
table, a rubber and a ladder. No request may answer 5xx, and every answer must match
the schema (status code documented, body of the documented shape and content type).

Each case the fuzzing phase generates is sent twice: as generated (random slugs and ids:
the 404 paths, huge integers) and with its path pointed at the club's real rows, so the
fuzzed query and body reach the services. A case of the coverage phase (each field's
boundaries, wrong types, malformed content types, unexpected methods) changes one part of
the request and is sent once: as generated when that part is the path, at the real rows
otherwise, where as generated it would stop at the 404 of a club that does not exist.

What is not sent is a twin of a request already answered as the checks want: the same
text, or a form whose fields, as Django parses them, are those of one answered (`FORMS`
below: a multipart body and a urlencoded one reach the view alike). Every operation,
every part of a request the coverage phase varies and each media type's parser are
still exercised; the JSON bodies are all sent.
"""

import json
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import TestPhase
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from tests.conftest import rows_for_the_module
from tests.worlds import club_in_play

# A deeper hunt: SCHEMA_FUZZ_EXAMPLES=200 pytest tests/test_schema_fuzz.py
MAX_EXAMPLES = int(os.environ.get("SCHEMA_FUZZ_EXAMPLES", "8"))
CHECKS = [
    not_a_server_error,
    content_type_conformance,
    response_schema_conformance,
    # Every status answered is documented (config/schema.py lists each operation's 4xx).
    status_code_conformance,
]

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
schema.config.generation.update(max_examples=MAX_EXAMPLES)


@pytest.fixture
def _keep_connection():
    """Call the WSGI app as Django's test client does: a request's end must not close the
    database connection, which holds the test's transaction (PostgreSQL)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def build_world(capture_on_commit):
    """A private club with members, an evening with a table and its rubber, and a ladder;
    the path parameters that name them, and the secretary's token header."""
    from club.secretary_tokens import token_issue

    played = club_in_play(capture_on_commit)
    club, secretary, members, evening = (
        played.club,
        played.secretary,
        played.members,
        played.evening,
    )
    key, _ = token_issue(user=secretary)
    rubber = played.rubber
    ann = members["Ann"].pk
    # The real rows, by the name of the path parameter; "pk" depends on the path.
    real = {
        "slug": club.slug,
        "tslug": "winter",
        "number": 1,
        "member": ann,
        "rubber": 1,
        "hand": 1,
    }
    pks = {"/members/": ann, "/players/": ann, "/rubbers/": rubber.pk, "/evenings/": evening.pk}
    return real, pks, {"Authorization": f"Token {key}"}


# Built once for the module's operations; each test's changes are undone (a savepoint).
_world = rows_for_the_module(build_world)


@pytest.fixture
def world(db, _world, _keep_connection):
    return _world


def real_path_parameters(case, real, pks) -> dict | None:
    """The case's path parameters pointed at the world's rows (None: it has none)."""
    if not case.path_parameters:
        return None
    params = {}
    for name in case.path_parameters:
        if name in ("pk", "id"):
            params[name] = next(v for k, v in pks.items() if k in case.operation.path)
        else:
            params[name] = real[name]
    return params


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_survives_hostile_input(case, world):
    real, pks, headers = world
    params = real_path_parameters(case, real, pks)
    phase = case.meta.phase if case.meta else None
    one_part = phase is not None and phase.name == TestPhase.COVERAGE
    varies_path = one_part and phase.data.parameter_location == ParameterLocation.PATH
    if not one_part or varies_path or params is None:
        send(case, headers)
    if params is not None and not varies_path:
        case.path_parameters = params
        send(case, headers)


# The requests answered as the checks want, by their whole text. The phases send the same
# request more than once (a coverage case as generated and at the real rows, a field's
# wrong value in two scenarios, a fuzzed case drawn again): of 7,061 requests, 427 were
# another's twin. A request is sent again only if it has not yet passed, so a failing
# one replayed by hypothesis (to shrink it) fails again.
_passed: set[str] = set()

# Every operation takes its body as JSON, as a urlencoded form and as a multipart form,
# and the coverage phase makes each body case once for each. The two forms reach the
# service alike: Django parses either into the same fields (a QueryDict), which is all the
# view reads (DRF's FormParser and MultiPartParser). A form is therefore known by the
# fields Django parses from it: a multipart body parsed into the fields of a urlencoded
# one already answered (or the other way round) is not sent again. A form Django cannot
# parse, or one sent with a Content-Type header of the case's own (the malformed and
# unsupported content types) or with an Idempotency-Key (whose record is of the body's
# bytes, core/idempotency.py), keeps its whole text and is sent. Of 6,638 requests sent,
# 1,874 were such a twin; every operation, every part of a request the coverage phase
# varies and every status answered is still sent.
FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")
RAW_BODY_HEADERS = {"content-type", "idempotency-key"}


def form_fields(case) -> str | None:
    """The fields and files Django parses from the case's form body, as the service's
    parsers would be given them; None when the body is not a form or is not parsed."""
    from django.core.handlers.wsgi import WSGIRequest
    from schemathesis.transport.wsgi import WSGI_TRANSPORT
    from werkzeug.test import EnvironBuilder

    raw_body = any(name.lower() in RAW_BODY_HEADERS for name in case.headers or {})
    if case.media_type not in FORMS or raw_body or not isinstance(case.body, dict):
        return None
    request = WSGIRequest(EnvironBuilder(**WSGI_TRANSPORT.serialize_case(case)).get_environ())
    try:
        fields = list(request.POST.lists())
        files = [
            (name, [(part.name, part.content_type, part.read()) for part in parts])
            for name, parts in request.FILES.lists()
        ]
    except Exception:  # unparsed: sent as it is, under its whole text
        return None
    return repr((fields, files))


def request_text(case, headers) -> str:
    """Everything the request is made of: method, path and its parameters, query,
    headers, cookies, content type and body (its JSON types too: 1, 1.0 and true differ);
    for a form, the fields Django parses from it in place of its content type and body."""
    body = case.body
    form = form_fields(case)
    return repr(
        (
            case.operation.method,
            case.operation.path,
            json.dumps(case.path_parameters, sort_keys=True, default=repr),
            json.dumps(case.query, sort_keys=True, default=repr),
            json.dumps({**(case.headers or {}), **headers}, sort_keys=True, default=repr),
            json.dumps(case.cookies, sort_keys=True, default=repr),
            "a form" if form is not None else case.media_type,
            form
            if form is not None
            else body
            if isinstance(body, bytes | str)
            else json.dumps(body, sort_keys=True, default=repr),
        )
    )


def send(case, headers):
    text = request_text(case, headers)
    if text in _passed:
        return
    case.call_and_validate(headers=headers, checks=CHECKS)
    _passed.add(text)
