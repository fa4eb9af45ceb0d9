"""Writes for clubs and members. Keyword-only, type-hinted, one transaction each."""

from django.db import IntegrityError, transaction

from club.models import Club, Member
from core.errors import UserError


@transaction.atomic
def club_create(*, name: str, slug: str, currency: str, is_public: bool, secretary) -> Club:
    """Create a club with its first secretary."""
    if Club.objects.filter(slug=slug).exists():
        raise UserError(f"A club with the address {slug!r} exists already.", field="slug")
    club = Club.objects.create(name=name, slug=slug, currency=currency, is_public=is_public)
    if secretary is not None:
        club.secretaries.add(secretary)
    return club


def member_create(*, club: Club, name: str, is_guest: bool = False) -> Member:
    """Add a player to the club's roster; names are unique in a club, ignoring case."""
    name = name.strip()
    if not name:
        raise UserError("A member needs a name.", field="name")
    if club.members.filter(name__iexact=name).exists():
        raise UserError(f"{name} is on the club's roster already.", field="name")
    try:
        with transaction.atomic():
            return Member.objects.create(club=club, name=name, is_guest=is_guest)
    except IntegrityError as exc:  # a concurrent request added the same name first
        raise UserError(f"{name} is on the club's roster already.", field="name") from exc


def member_update(
    *, member: Member, name: str | None = None, is_guest: bool | None = None
) -> Member:
    """Rename a member or change his guest status."""
    if name is not None:
        name = name.strip()
        if not name:
            raise UserError("A member needs a name.", field="name")
        if member.club.members.filter(name__iexact=name).exclude(pk=member.pk).exists():
            raise UserError(f"{name} is on the club's roster already.", field="name")
        member.name = name
    if is_guest is not None:
        member.is_guest = is_guest
    try:
        with transaction.atomic():
            member.save()
    except IntegrityError as exc:
        raise UserError(f"{name} is on the club's roster already.", field="name") from exc
    return member
