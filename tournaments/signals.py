"""Cache invalidation for the public standings pages (tournaments/views.py).

The crowd's pages find a tournament by its club's and its own slugs through a cached
lookup that remembers only public tournaments of public clubs. Whatever changes that
(a club or a tournament made private, renamed or deleted, by the API, a service or
the admin) drops the lookups of that club's tournaments once the change commits.
"""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from club.models import Club
from tournaments.models import Tournament
from tournaments.pagecache import forget


@receiver([post_save, post_delete], sender=Club)
def club_changed(sender, instance: Club, **kwargs) -> None:
    forget(
        instance.slug, list(Tournament.objects.filter(club=instance).values_list("slug", flat=True))
    )


@receiver([post_save, post_delete], sender=Tournament)
def tournament_changed(sender, instance: Tournament, **kwargs) -> None:
    forget(
        Club.objects.filter(pk=instance.club_id).values_list("slug", flat=True).first() or "",
        [instance.slug],
    )
