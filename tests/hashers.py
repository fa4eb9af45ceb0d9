"""Password hashers for the tests of a re-hash (tests/club/test_api_tokens.py): Django's
PBKDF2 at a handful of iterations, about as fast as tests/conftest.py's MD5, at two
strengths. Listing MoreIterations where FewIterations was is Django's upgrade of the
iterations: the same algorithm, and every hash made before `must_update`."""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class FewIterations(PBKDF2PasswordHasher):
    iterations = 2


class MoreIterations(PBKDF2PasswordHasher):
    iterations = 3
