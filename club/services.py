"""Writes for clubs, members and tables' phone links. Keyword-only, type-hinted, one
transaction each."""

from django.db import IntegrityError, transaction
from django.utils import timezone

from club.models import Club, Member, PhoneLink, Table, new_table_token
from core.audit import audit_context
from core.db import lock_one
from core.errors import Conflict, UserError
from core.moments import moment_version
from core.quoted import quoted
from core.text import TITLE_MAX, clean_name, clean_text, name_key, name_skeleton


@transaction.atomic
def club_create(*, name: str, slug: str, currency: str, is_public: bool, secretary) -> Club:
    """Create a club with its first secretary."""
    name = clean_text(
        name, field="name", max_length=TITLE_MAX, label="The club's name", required=True
    )
    if Club.objects.filter(slug=slug).exists():
        raise UserError(f"A club with the address {quoted(slug)} exists already.", field="slug")
    club = Club.objects.create(name=name, slug=slug, currency=currency, is_public=is_public)
    if secretary is not None:
        club.secretaries.add(secretary)
    return club


def member_named(
    *, club: Club, name: str, new_player: bool = False, field: str = "name", exclude=None
) -> Member | None:
    """The member of the club a name means, or None for a new player.

    Names match ignoring case and spaces ("ann" is Ann: never a second Ann). A name
    that only looks like a member's (letters from another script, full-width forms:
    the same confusable skeleton) is refused with the question "Ann is a member: is
    this Ann, or a new player?", unless the caller says it is a new player.
    `name` is cleaned already (`core.text.clean_name`).
    """
    key, skeleton = name_key(name), name_skeleton(name)
    members = club.members.exclude(pk=exclude.pk) if exclude is not None else club.members.all()
    near = None
    for member in members.only("pk", "name"):
        if member.name == name:
            return member
        if name_key(member.name) == key:
            return member
        if near is None and name_skeleton(member.name) == skeleton:
            near = member
    if near is not None and not new_player:
        raise UserError(
            f"{near.name} is a member: is this {near.name}, or a new player?",
            field=field,
            code="near_duplicate",
            details={"member": near.name, "member_id": near.pk, "confirm": "new_player"},
        )
    return None


def member_create(
    *, club: Club, name: str, is_guest: bool = False, new_player: bool = False
) -> Member:
    """Add a player to the club's roster. Names are unique in a club, ignoring case and
    spaces; a name that looks like a member's needs `new_player` (see `member_named`)."""
    name = clean_name(name, label="The member's name")
    if member_named(club=club, name=name, new_player=new_player) is not None:
        raise UserError(f"{name} is on the club's roster already.", field="name")
    try:
        with transaction.atomic():
            return Member.objects.create(club=club, name=name, is_guest=is_guest)
    except IntegrityError as exc:  # a concurrent request added the same name first
        raise UserError(f"{name} is on the club's roster already.", field="name") from exc


def member_update(
    *,
    member: Member,
    name: str | None = None,
    is_guest: bool | None = None,
    new_player: bool = False,
) -> Member:
    """Rename a member or change his guest status."""
    if name is not None:
        name = clean_name(name, label="The member's name")
        other = member_named(club=member.club, name=name, new_player=new_player, exclude=member)
        if other is not None:
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


def phone_link_version(link: PhoneLink) -> str:
    """The version of a table's phone link as a page shows it (the board's, the director's):
    when its token was issued, to the microsecond. A form that renews the link sends it
    back (`seen`), so a second post of the same form finds the link renewed already."""
    return moment_version(link.link_issued_at)


def _check_link_seen(link: PhoneLink, seen: str | None) -> None:
    """Refuse a fresh link asked for a link the page no longer shows (a double tap, a form
    posted again after Back, a retry after a dropped answer, or another secretary's fresh
    link meanwhile): the card just printed would die unnoticed. Nothing is written."""
    if seen is None or seen == phone_link_version(link):
        return
    at = timezone.localtime(link.link_issued_at).strftime("%H:%M")
    if link.replaced_token:
        what = f"Table {link.number}'s link was renewed already at {at}, after this page was drawn"
    else:
        what = f"Table {link.number}'s link, issued at {at}, is not the one this page showed"
    raise Conflict(
        f"{what}: it was not renewed again. The page now shows the link in force: print "
        "its card, or ask for a fresh link again if that one too is lost.",
        field="link",
        code="link_renewed",
        details={"issued_at": link.link_issued_at.isoformat()},
    )


def phone_link_renew(link: PhoneLink, *, user=None, seen: str | None = None) -> None:
    """Give a table's phone link, locked by the caller, a fresh token: the old one dies at
    once (a phone still holding it is told the link was replaced), and the new one's age
    counts from now. Kept by the audit triggers (who, when, the old and new token), for an
    evening's table and a progressive's alike. `seen`, the link's version as the page
    showed it (`phone_link_version`; the board and the director's page always send it, the
    API may not): a link renewed since is refused (`_check_link_seen`), nothing written."""
    _check_link_seen(link, seen)
    link.replaced_token = link.token
    link.token = new_table_token()
    link.link_issued_at = timezone.now()
    who = user.username if user is not None and user.is_authenticated else None
    with audit_context(user=who, reason=f"a fresh phone link for table {link.number}"):
        link.save(update_fields=["token", "replaced_token", "link_issued_at"])


@transaction.atomic
def table_renew_link(*, table_id: int, user=None, seen: str | None = None) -> Table:
    """Issue a fresh phone link for a table (a lost or copied card): the old token dies at
    once, and the new one lives as long as the club's `table_link_hours` allow from now
    or the evening's day (`phone_link_renew`). `seen`: the link's version the board showed;
    a link renewed since is refused (a form posted twice renews once)."""
    table = lock_one(
        Table.objects.select_related("evening", "club").filter(pk=table_id), what="table"
    )
    phone_link_renew(table, user=user, seen=seen)
    return table
