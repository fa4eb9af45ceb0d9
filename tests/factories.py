"""factory_boy factories for the usual rows."""

import datetime

import factory
from django.contrib.auth import get_user_model

from club.models import Club, Evening, Member, Table


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "correct horse battery")

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    currency = "USD"
    is_public = True

    @factory.post_generation
    def secretaries(obj, create, extracted, **kwargs):
        if create and extracted:
            obj.secretaries.add(*extracted)


class MemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Member

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class EveningFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Evening

    club = factory.SubFactory(ClubFactory)
    date = factory.LazyFunction(lambda: datetime.date(1888, 11, 21))
    ruleset = "euchre-somerset-1888"
    stake = "0.25"


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    evening = factory.SubFactory(EveningFactory)
    club = factory.SelfAttribute("evening.club")
    number = factory.Sequence(lambda n: n + 1)
