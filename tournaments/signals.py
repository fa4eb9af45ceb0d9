"""Cache invalidation for the public standings pages (tournaments/views.py).

The crowd's pages find a tournament by its club's and its own slugs through a cached
lookup that remembers only public tournaments of public clubs. Whatever changes that
(a club or a tournament made private, renamed or deleted, by the API, a service or
the admin) drops the lookups of that club's tournaments once the change commits: under
the addresses they had before the change as well as after it. A save that changed an
address and made the club (or tournament) private at once, or moved a tournament to a
private club, in the admin, dropped only the new address's lookup: the old address went
on serving the private standings to the crowd for PUBLIC_SECONDS
(tests/test_attack_caches.py).

A tournament, a round or a round's table changed also has the club's player pages
rendered again (club/player_cache.py): their places, and what of their play is public.
"""

from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from club.models import Club
from club.player_cache import club_changed as players_pages_changed
from tournaments.models import Round, RoundTable, Tournament
from tournaments.pagecache import forget

# Where the instance being saved was found before its save (its old addresses), kept on it.
_BEFORE = "_public_addresses_before"


def _saves_field(update_fields, *names: str) -> bool:
    return update_fields is None or any(name in update_fields for name in names)


@receiver(pre_save, sender=Club)
def club_saving(sender, instance: Club, update_fields=None, **kwargs) -> None:
    if instance.pk is not None and _saves_field(update_fields, "slug"):
        before = Club.objects.filter(pk=instance.pk).values_list("slug", flat=True).first()
        setattr(instance, _BEFORE, before)


@receiver([post_save, post_delete], sender=Club)
def club_changed(sender, instance: Club, **kwargs) -> None:
    slugs = list(Tournament.objects.filter(club=instance).values_list("slug", flat=True))
    forget(instance.slug, slugs)
    before = instance.__dict__.pop(_BEFORE, None)
    if before and before != instance.slug:
        forget(before, slugs)


@receiver(pre_save, sender=Tournament)
def tournament_saving(sender, instance: Tournament, update_fields=None, **kwargs) -> None:
    if instance.pk is not None and _saves_field(update_fields, "slug", "club"):
        before = Tournament.objects.filter(pk=instance.pk).values_list("club__slug", "slug").first()
        setattr(instance, _BEFORE, before)


@receiver([post_save, post_delete], sender=Tournament)
def tournament_changed(sender, instance: Tournament, **kwargs) -> None:
    club_slug = Club.objects.filter(pk=instance.club_id).values_list("slug", flat=True).first()
    forget(club_slug or "", [instance.slug])
    before = instance.__dict__.pop(_BEFORE, None)
    if before and before != (club_slug, instance.slug):
        forget(before[0], [before[1]])


@receiver([post_save, post_delete], sender=Tournament)
@receiver([post_save, post_delete], sender=Round)
@receiver([post_save, post_delete], sender=RoundTable)
def tournament_play_changed(sender, instance, **kwargs) -> None:
    """A tournament, a round or a round's table changed: its name, a rubber's place, or
    whether its play is public (a private progressive's rubbers are kept from the public's
    player pages): the club's player pages are rendered again (club/player_cache.py)."""
    if sender is Tournament:
        players_pages_changed(instance.club_id)
        return
    # A round is read by its tournament, a table by its round: a row deleted is found no more.
    clubs = (
        Tournament.objects.filter(pk=instance.tournament_id)
        if sender is Round
        else Tournament.objects.filter(rounds=instance.round_id)
    )
    players_pages_changed(clubs.values_list("club_id", flat=True).first())
