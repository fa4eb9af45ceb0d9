"""API views for the other side's confirmation of a hand (club/confirmations.py).

The table's link confirms or disputes its own table's hands; the club's secretary
settles a disputed hand, with a reason (law 5, ruling E9). Thin: validate, call a
service, answer. The 4xx each answers are listed by config/schema.py: 400 (the field
and the law), 401, 403 (another table's hand, not the secretary), 404, 409.
"""

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from club import confirmations
from club.permissions import manages_club, table_of_request
from core.inputs import BodyInput
from core.text import REASON_MAX, BoundedCharField, TextField


class ConfirmationOutput(serializers.Serializer):
    """A hand's confirmation: its state, who recorded it, who may answer, both versions."""

    state = serializers.ChoiceField(choices=["unconfirmed", "confirmed", "disputed", "settled"])
    recorded_by = serializers.CharField(help_text='"NS", "EW", or (Call-Ace) the maker')
    confirmers = serializers.ListField(child=serializers.CharField())
    answered_by = serializers.CharField(allow_null=True)
    recorded_version = serializers.JSONField()
    disputed_version = serializers.JSONField(allow_null=True)
    settled_version = serializers.JSONField(allow_null=True)
    settled_by = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_null=True)


class ConfirmInput(BodyInput):
    by = BoundedCharField(
        max_length=80,
        words="The side that answers",
        help_text='the side that answers, "NS" or "EW" (Call-Ace: a player other than the maker)',
    )


class DisputeInput(ConfirmInput):
    hand = serializers.DictField(help_text="the hand as this side says it was played")


class SettleInput(BodyInput):
    reason = TextField(max_length=REASON_MAX, multiline=True)
    accept = serializers.ChoiceField(
        choices=["disputed", "recorded"],
        default="disputed",
        help_text="which side's version stands (ignored when `hand` is given)",
    )
    hand = serializers.DictField(
        required=False, help_text="the secretary's own finding, in the scoresheet's shape"
    )


def _table_rubber(request, slug: str, pk: int):
    """The rubber, read as the scoring API reads it (a private club's link sees only its
    own table's), answered for by its own table's link or the secretary."""
    from scoring.api import _rubber  # scoring.api shows ConfirmationOutput

    return _rubber(request, slug, pk, to_write=True)


class HandConfirmView(APIView):
    """The other side confirms a hand recorded at its table."""

    @extend_schema(request=ConfirmInput, responses=ConfirmationOutput)
    def post(self, request, slug, pk, number):
        rubber = _table_rubber(request, slug, pk)
        data = ConfirmInput(data=request.data)
        data.is_valid(raise_exception=True)
        confirmation = confirmations.hand_confirm(
            rubber_id=rubber.pk,
            number=number,
            by=data.validated_data["by"],
            table=table_of_request(request),
        )
        return Response(confirmations.confirmation_as_dict(confirmation))


class HandDisputeView(APIView):
    """The other side disputes a hand recorded at its table, with its own version; the
    hand counts as recorded until the secretary settles it."""

    @extend_schema(request=DisputeInput, responses=ConfirmationOutput)
    def post(self, request, slug, pk, number):
        rubber = _table_rubber(request, slug, pk)
        data = DisputeInput(data=request.data)
        data.is_valid(raise_exception=True)
        confirmation = confirmations.hand_dispute(
            rubber_id=rubber.pk,
            number=number,
            by=data.validated_data["by"],
            data=data.validated_data["hand"],
            table=table_of_request(request),
        )
        return Response(confirmations.confirmation_as_dict(confirmation))


class HandSettleView(APIView):
    """The secretary settles a disputed hand, with a reason (law 5, ruling E9): a
    correction to the version that stands, or the hand upheld as recorded."""

    @extend_schema(request=SettleInput, responses=ConfirmationOutput)
    def post(self, request, slug, pk, number):
        from scoring.api import _rubber

        rubber = _rubber(request, slug, pk, to_write=True)
        if not manages_club(request, rubber.club):
            if not request.user.is_authenticated and request.auth is None:
                raise exceptions.NotAuthenticated()
            raise exceptions.PermissionDenied("Only the club's secretary settles a dispute.")
        data = SettleInput(data=request.data)
        data.is_valid(raise_exception=True)
        confirmation = confirmations.hand_settle(
            rubber_id=rubber.pk,
            number=number,
            reason=data.validated_data["reason"],
            accept=data.validated_data["accept"],
            data=data.validated_data.get("hand"),
            user=request.user,
        )
        return Response(confirmations.confirmation_as_dict(confirmation))
