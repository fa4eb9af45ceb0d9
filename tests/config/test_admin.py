"""The Django admin has a page for every model of the service."""

import pytest
from django.apps import apps
from django.contrib import admin


@pytest.mark.parametrize("app", ["club", "scoring", "tournaments"])
def test_every_model_is_in_the_admin(app):
    missing = [
        m.__name__ for m in apps.get_app_config(app).get_models() if not admin.site.is_registered(m)
    ]
    assert missing == []


def test_admin_pages_load_for_staff(admin_client, club):
    for model in ["club/club", "club/eveningevent", "scoring/rubber", "tournaments/tournament"]:
        assert admin_client.get(f"/admin/{model}/").status_code == 200
