"""API views for clubs, members and accounts. Thin: validate, call a service, answer."""

from decimal import Decimal

from django.contrib.auth import authenticate, get_user_model, logout
from django.contrib.auth.signals import user_logged_in
from django.db.models import ProtectedError
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from club import secretary_tokens, selectors_public, services
from club.api_evenings import NO_STORE
from club.models import ApiToken, Club, Member
from club.permissions import club_for_request, table_of_request
from club.selectors import clubs_managed_by, clubs_visible_to, members_of, rubbers_hidden_from
from config.api import LoginLockedOut, Pagination, UserError, paginated
from config.ratelimit import lockout_message, lockout_minutes
from config.throttles import PUBLIC_READ_THROTTLES, LoginRateThrottle
from core.inputs import BodyInput, NoBodyInput, WholeNumberField
from core.quoted import quoted
from core.text import BoundedCharField, BoundedSlugField, NameField, TextField

CENT = Decimal("0.01")


class ClubOutput(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["slug", "name", "currency", "is_public", "table_link_hours", "confirm_hands"]


class ClubCreateInput(BodyInput):
    name = TextField(words="The club's name")
    slug = BoundedSlugField(max_length=60, words="The club's address")
    currency = serializers.RegexField(r"^[A-Z]{3}$", default="USD")
    is_public = serializers.BooleanField(default=True)
    secretary = serializers.CharField(required=False, help_text="username of the secretary")


class ClubListView(APIView):
    """Clubs the caller may see; staff may create one with its first secretary."""

    pagination_class = Pagination  # documents the paginated shape in the schema

    @extend_schema(responses=ClubOutput(many=True))
    def get(self, request):
        return paginated(request, self, clubs_visible_to(user=request.user), ClubOutput)

    @extend_schema(request=ClubCreateInput, responses={201: ClubOutput})
    def post(self, request):
        if not (request.user.is_authenticated and request.user.is_staff):
            raise exceptions.PermissionDenied("Only staff may create a club.")
        data = ClubCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        secretary = request.user
        if username := data.validated_data.pop("secretary", None):
            secretary = get_user_model().objects.filter(username=username).first()
            if secretary is None:
                raise UserError(f"No user named {quoted(username)}.", field="secretary")
        club = services.club_create(**data.validated_data, secretary=secretary)
        return Response(ClubOutput(club).data, status=status.HTTP_201_CREATED)


class ClubUpdateInput(BodyInput):
    name = TextField(required=False, words="The club's name")
    currency = serializers.RegexField(r"^[A-Z]{3}$", required=False)
    is_public = serializers.BooleanField(required=False)
    table_link_hours = WholeNumberField(
        min_value=1,
        max_value=168,
        required=False,
        help_text="hours a table's phone link lives after the end of its evening's day",
    )
    confirm_hands = serializers.BooleanField(
        required=False,
        help_text="a hand recorded at a table waits for the other side to confirm it",
    )


class ClubDetailView(APIView):
    """One club; its secretary may rename it or change its visibility."""

    @extend_schema(responses=ClubOutput)
    def get(self, request, slug):
        # A table's link reads its own club's name and currency, as its card shows them.
        return Response(ClubOutput(club_for_request(request, slug, for_table=True)).data)

    @extend_schema(request=ClubUpdateInput, responses=ClubOutput)
    def patch(self, request, slug):
        club = club_for_request(request, slug, write=True)
        data = ClubUpdateInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        for key, value in data.validated_data.items():
            setattr(club, key, value)
        club.save()
        return Response(ClubOutput(club).data)


class MemberOutput(serializers.ModelSerializer):
    class Meta:
        model = Member
        fields = ["id", "name", "is_guest"]


class MemberInput(BodyInput):
    name = NameField(words="The member's name")
    is_guest = serializers.BooleanField(default=False)
    new_player = serializers.BooleanField(
        default=False,
        help_text="the name looks like a member's, and this is a new player all the same",
    )


class MemberListView(APIView):
    """A club's roster; the secretary adds members and guests. A guest entered only at
    progressives whose standings are not public is listed only to the club's
    secretaries, directors and staff, until he plays at an evening or a public
    tournament (docs/security.md)."""

    pagination_class = Pagination  # documents the paginated shape in the schema

    @extend_schema(responses=MemberOutput(many=True))
    def get(self, request, slug):
        club = club_for_request(request, slug)
        hidden = rubbers_hidden_from(club=club, user=request.user)
        return paginated(request, self, members_of(club=club, hidden=hidden), MemberOutput)

    @extend_schema(request=MemberInput, responses={201: MemberOutput})
    def post(self, request, slug):
        club = club_for_request(request, slug, write=True)
        data = MemberInput(data=request.data)
        data.is_valid(raise_exception=True)
        member = services.member_create(club=club, **data.validated_data)
        return Response(MemberOutput(member).data, status=status.HTTP_201_CREATED)


class MemberDetailView(APIView):
    """One member of a club (a guest the roster does not list to the caller is 404, as
    no member is: docs/security.md)."""

    def get_member(self, request, slug, pk, *, write=False) -> Member:
        club = club_for_request(request, slug, write=write)
        hidden = rubbers_hidden_from(club=club, user=request.user)
        return get_object_or_404(members_of(club=club, hidden=hidden), pk=pk)

    @extend_schema(responses=MemberOutput)
    def get(self, request, slug, pk):
        return Response(MemberOutput(self.get_member(request, slug, pk)).data)

    @extend_schema(request=MemberInput(partial=True), responses=MemberOutput)
    def patch(self, request, slug, pk):
        member = self.get_member(request, slug, pk, write=True)
        data = MemberInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        member = services.member_update(member=member, **data.validated_data)
        return Response(MemberOutput(member).data)

    @extend_schema(responses={204: None})
    def delete(self, request, slug, pk):
        member = self.get_member(request, slug, pk, write=True)
        NoBodyInput.refuse_any_key(request)
        try:
            member.delete()
        except ProtectedError as exc:
            raise UserError(
                f"{member.name} has played at the club; the record of that play is kept.",
                code="protected",
            ) from exc
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenInput(BodyInput):
    # No longer than a login name can be (the login form's field has the same bound):
    # django-axes writes a failed one into a column of 255 characters, and a longer one
    # was a 500 on PostgreSQL.
    username = BoundedCharField(
        max_length=get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD).max_length,
        words="The login name",
    )
    password = serializers.CharField(style={"input_type": "password"})


class TokenOutput(serializers.Serializer):
    token = serializers.CharField(help_text="send it as 'Authorization: Token <token>'")
    expires = serializers.DateTimeField(
        help_text="when it ends of age (API_TOKEN_DAYS after this login), unless logged out "
        "or the account's password changes first"
    )


class TokenView(APIView):
    """Exchange a secretary's username and password for an API token of this login's own:
    behind the login throttle (per address) and django-axes' lockout (per account and
    address). It ends when logged out (`auth/logout/`), when the account's password
    changes, and at `expires` (club.secretary_tokens)."""

    authentication_classes = []
    throttle_classes = [LoginRateThrottle]

    def get_authenticate_header(self, request):
        return "Token"  # so a wrong password answers 401, not 403

    def throttled(self, request, wait):
        raise exceptions.Throttled(
            wait, detail="Too many login attempts from your address; wait and try again."
        )

    @extend_schema(request=TokenInput, responses=TokenOutput)
    def post(self, request):
        data = TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request, **data.validated_data)
        if user is None:
            # django-axes marks the request it locked out (this failure reached the
            # limit, or the account was locked already and the password went unread).
            if getattr(request, "axes_locked_out", False):
                raise LoginLockedOut(lockout_message(), retry_after=lockout_minutes() * 60)
            raise exceptions.AuthenticationFailed("Wrong username or password.")
        # A login like the form's: django-axes clears this account's failures here, and
        # Django records the last login.
        user_logged_in.send(sender=user.__class__, request=request, user=user)
        key, token = secretary_tokens.token_issue(user=user)
        # A bearer secret for API_TOKEN_DAYS, kept in no cache (RFC 6749 5.1), as a table's
        # link is (club.api_evenings.NO_STORE).
        return Response(
            TokenOutput({"token": key, "expires": secretary_tokens.token_expires(token)}).data,
            headers=NO_STORE,
        )


class LogoutView(APIView):
    """End the login this request is sent with: its token (`Authorization: Token`), which
    is then refused in words; the account's other logins keep theirs. Sent with a session
    (and its CSRF token), the session ends. A table's link is no login: the board's fresh
    link for the table is what ends it."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request):
        NoBodyInput.refuse_any_key(request)
        if isinstance(request.auth, ApiToken):
            secretary_tokens.token_logout(token=request.auth)
        elif table_of_request(request) is not None:
            raise exceptions.PermissionDenied(
                "A table's link is not a login to log out of; the secretary's board gives "
                "the table a fresh link, which ends this one."
            )
        elif request.user.is_authenticated:
            logout(request._request)  # Django's request, whose session is flushed
        else:
            raise exceptions.NotAuthenticated(
                "Nothing to log out of: send the token to end as 'Authorization: Token <key>'."
            )
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    """Who the caller is: a secretary (and his clubs), a table, or nobody."""

    @extend_schema(
        responses=inline_serializer(
            "Me",
            {
                "username": serializers.CharField(allow_null=True),
                "clubs": ClubOutput(many=True),
                "table": serializers.DictField(allow_null=True),
            },
        )
    )
    def get(self, request):
        table = table_of_request(request)
        return Response(
            {
                "username": request.user.username if request.user.is_authenticated else None,
                "clubs": ClubOutput(clubs_managed_by(user=request.user), many=True).data,
                "table": (
                    {"club": table.club.slug, "evening": table.evening_id, "number": table.number}
                    if table
                    else None
                ),
            }
        )


class PlayerRecordView(APIView):
    """A player's record at the club: his figures and his rubbers (the public page's data;
    a guest the roster does not list to the caller is 404: docs/security.md)."""

    throttle_classes = PUBLIC_READ_THROTTLES  # made afresh: THROTTLE_PUBLIC too

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, slug, pk):
        club = club_for_request(request, slug)
        hidden = rubbers_hidden_from(club=club, user=request.user)  # a private progressive's
        member = get_object_or_404(members_of(club=club, hidden=hidden), pk=pk)
        record = selectors_public.player_record(member=member, hidden=hidden)
        return Response(
            {
                "member": MemberOutput(member).data,
                "figures": {
                    **record["figures"],
                    "stake_won": str(Decimal(record["figures"]["stake_won"]).quantize(CENT)),
                },
                "rubbers": [
                    {
                        "rubber": seat.rubber_id,
                        "ruleset": seat.rubber.ruleset,
                        "evening": seat.rubber.evening_id,
                        "side": seat.side or None,
                        "status": seat.rubber.status,
                        "won": bool(seat.side) and seat.side == seat.rubber.winner,
                        "value": seat.rubber.value,
                    }
                    for seat in record["seats"]
                ],
            }
        )
