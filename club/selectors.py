"""Reads: which clubs a user may see and act for. Every view scopes through here."""

from django.db.models import Q, QuerySet

from club.models import Club, Member


def clubs_visible_to(*, user) -> QuerySet[Club]:
    """Public clubs, plus private ones the user is secretary or director of (staff see all)."""
    clubs = Club.objects.all()
    if user is not None and user.is_authenticated:
        if user.is_staff:
            return clubs
        return clubs.filter(Q(is_public=True) | Q(secretaries=user) | Q(directors=user)).distinct()
    return clubs.filter(is_public=True)


def clubs_managed_by(*, user) -> QuerySet[Club]:
    """Clubs the user may change: those he is secretary of (staff: all)."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_staff:
        return Club.objects.all()
    return Club.objects.filter(secretaries=user)


def club_is_managed_by(*, club: Club, user) -> bool:
    """True when the user is this club's secretary or staff."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or club.secretaries.filter(pk=user.pk).exists()


def clubs_directed_by(*, user) -> QuerySet[Club]:
    """Clubs whose tournaments the user may run: as a secretary or a director (staff: all)."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_staff:
        return Club.objects.all()
    return Club.objects.filter(Q(secretaries=user) | Q(directors=user)).distinct()


def club_is_directed_by(*, club: Club, user) -> bool:
    """True when the user may run this club's tournaments (secretary, director or staff)."""
    if user is None or not user.is_authenticated:
        return False
    return (
        user.is_staff
        or club.secretaries.filter(pk=user.pk).exists()
        or club.directors.filter(pk=user.pk).exists()
    )


def members_of(*, club: Club) -> QuerySet[Member]:
    """The club's roster, by name."""
    return club.members.order_by("name")
