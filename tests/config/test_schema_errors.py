"""The OpenAPI schema documents every 4xx an operation can answer, in the one error shape
(issue 12, section 5; config/schema.py), and Django's own 400 and 404 under /api/ answer
in that shape too (config.api.bad_request, not_found)."""

import pytest
from drf_spectacular.generators import SchemaGenerator

ERROR_REF = "#/components/schemas/Error"
WRITE = {"400", "401", "403", "404", "409", "415", "422", "429"}


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def errors_of(schema, path: str, method: str) -> dict[str, str]:
    """The operation's 4xx, each with the schema its JSON body refers to."""
    responses = schema["paths"][path][method]["responses"]
    return {
        code: response["content"]["application/json"]["schema"].get("$ref")
        for code, response in responses.items()
        if code.startswith("4")
    }


@pytest.mark.parametrize(
    ("path", "method", "expected"),
    [
        # Recording a hand: a bad hand (400), a table's token at another table or a late
        # correction (403), stale version or lock (409), Idempotency-Key reused (422).
        ("/api/v1/clubs/{slug}/evenings/{id}/tables/{number}/hands/", "post", WRITE),
        ("/api/v1/clubs/{slug}/rubbers/{id}/hands/", "post", WRITE),
        ("/api/v1/clubs/{slug}/rubbers/{id}/hands/{number}/", "put", WRITE),
        # A write that takes no body refuses one it cannot read (core.inputs.NoBodyInput).
        ("/api/v1/clubs/{slug}/members/{id}/", "delete", WRITE),
        # Reading a club's rows: no body to refuse, nothing to conflict with.
        ("/api/v1/clubs/{slug}/evenings/{id}/ledger.csv", "get", {"401", "403", "404", "429"}),
        # A paginated list answers 404 for a page past its last.
        ("/api/v1/clubs/", "get", {"401", "404", "429"}),
        ("/api/v1/rulesets/", "get", {"401", "429"}),
        # The login: a wrong password is 401, and it has its own throttle.
        ("/api/v1/auth/token/", "post", {"400", "401", "409", "415", "422", "429"}),
        # The logout takes no body (415 for one it cannot read); a table's link is refused.
        ("/api/v1/auth/logout/", "post", {"400", "401", "403", "409", "415", "422", "429"}),
        # Closing an evening reads what happened to each rubber in play (club.closing).
        ("/api/v1/clubs/{slug}/evenings/{id}/close/", "post", WRITE),
        # A view that documented its 400 without a body gets the error shape.
        ("/api/v1/scoresheets/score", "post", {"400", "401", "403", "409", "415", "422", "429"}),
    ],
)
def test_each_operation_lists_its_errors_in_the_error_shape(schema, path, method, expected):
    errors = errors_of(schema, path, method)
    assert set(errors) == expected
    assert set(errors.values()) == {ERROR_REF}


def test_the_error_component_is_the_one_error_shape(schema):
    components = schema["components"]["schemas"]
    assert components["Error"]["properties"]["error"]["$ref"] == (
        "#/components/schemas/ErrorDetail"
    )
    detail = components["ErrorDetail"]
    assert set(detail["properties"]) == {"code", "message", "field", "law", "details"}
    assert detail["properties"]["field"]["nullable"] is True
    assert detail["properties"]["law"]["nullable"] is True


def test_every_operation_documents_its_errors(schema):
    for path, operations in schema["paths"].items():
        for method in operations:
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            errors = errors_of(schema, path, method)
            assert {"401", "429"} <= set(errors), (method, path)
            if "{" in path:
                assert "404" in errors, (method, path)


def test_a_path_no_pattern_matches_is_a_404_in_the_error_shape(api, db):
    response = api.get("/api/v1/clubs/not%20a%20slug/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not_found"
    # Outside the API, the page stays a page.
    assert "text/html" in api.get("/clubs/not%20a%20slug/").get("Content-Type")


def test_a_body_too_large_is_a_400_in_the_error_shape(secretary_api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    response = secretary_api.post(
        "/api/v1/clubs/somerset/members/",
        {"name": "x" * 200},
        format="json",
        HTTP_IDEMPOTENCY_KEY="big-body",
    )
    assert response.status_code == 400
    body = response.json()["error"]
    assert body["code"] == "invalid"
    assert "DATA_UPLOAD_MAX_MEMORY_SIZE" in body["message"]


@pytest.mark.parametrize("path", ["/api/v1/scoresheets/score", "/accounts/login/"])
def test_a_file_is_refused_before_any_of_it_is_kept(db, client, settings, tmp_path, path):
    """No form or operation takes a file, and DATA_UPLOAD_MAX_MEMORY_SIZE does not cap
    one: a file part, even to an anonymous door, was streamed to a temporary file whatever
    its size. It is refused as it starts (config/uploads.py): 400, nothing on disk."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 0  # Django's own handlers would write it to disk
    big = SimpleUploadedFile("sheet.json", b"x" * 300_000)
    response = client.post(path, {"ruleset": "euchre-somerset-1888", "sheet": big})
    assert response.status_code == 400
    if path.startswith("/api/"):
        assert "takes no files" in response.json()["error"]["message"]
    assert list(tmp_path.iterdir()) == []
