"""The one settings module, read from the environment (django-environ).

A laptop run needs no variables at all: SQLite in the project folder, Celery
tasks run eagerly in-process, an in-memory cache. `DJANGO_ENV=production`
turns on the production posture (no DEBUG, secure cookies, HSTS, a real
SECRET_KEY required) and `manage.py check --deploy` is clean there.

Variables:
    DJANGO_ENV            "development" (default), "production" or "test"
    SECRET_KEY            required in production
    DEBUG                 default True in development, False in production
    ALLOWED_HOSTS         comma-separated
    CSRF_TRUSTED_ORIGINS  comma-separated, with scheme
    PUBLIC_BASE_URL       the address phones reach the service at, e.g. http://192.168.1.5:8000
                          or https://club.example.org: the tables' links and QR codes use it
                          (default: the address the page was opened at)
    DATABASE_URL          default sqlite:///<project>/db.sqlite3; postgres://... for PostgreSQL
    REDIS_URL             unset: tasks run eagerly, cache in memory;
                          set: Redis is the Celery broker and the cache
    DB_CONN_MAX_AGE       seconds to keep database connections (default 60)
    DB_PREPARED_STATEMENTS  PostgreSQL: server-side binding and prepared statements
                          (default true; false behind PgBouncer < 1.21 in transaction mode)
    THROTTLE_ANON, THROTTLE_USER, THROTTLE_LOGIN, THROTTLE_SCORESHEET
                          API rates ("600/min"); the last per caller of the scoresheet endpoint
    THROTTLE_PUBLIC       public pages rendered afresh per client address ("120/min"; a
                          copy served from a cache is not counted)
    SECURE_SSL_REDIRECT   production only, default True (turn off behind a TLS proxy
                          that already redirects)
    TRUSTED_PROXY_COUNT   how many proxies of ours stand in front (default 0: the
                          connection's address is the client's; X-Forwarded-For and, in
                          production, X-Forwarded-Proto ignored)
    LOGIN_FAILURE_LIMIT   wrong passwords for one account from one address before it is
                          locked out there (default 5)
    LOGIN_LOCKOUT_MINUTES how long that lockout lasts (default 15)
    API_TOKEN_DAYS        days an API token (POST /api/v1/auth/token/) lives from the login
                          that gave it, used or not (default 30); it ends sooner when logged
                          out or when the account's password changes (club/secretary_tokens.py)
    API_TOKENS_PER_ACCOUNT  live API tokens an account holds at most (default 50): a login
                          past it ends the account's oldest
"""

import os
import re
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import environ
import pghistory.config

from config.cores import usable_cores

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# A .env file is a convenience for developers; the environment always wins.
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DJANGO_ENV = env.str("DJANGO_ENV", default="development")
PRODUCTION = DJANGO_ENV == "production"

_DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
if PRODUCTION:
    # Refuse to start without a real key: a guessable key would let anyone
    # forge sessions and password-reset links.
    SECRET_KEY = env.str("SECRET_KEY", default="")
    if len(SECRET_KEY) < 50 or SECRET_KEY == _DEV_SECRET_KEY or len(set(SECRET_KEY)) < 5:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            "DJANGO_ENV=production needs SECRET_KEY: at least 50 characters, not the "
            "development key (python -c 'import secrets; print(secrets.token_urlsafe(64))')."
        )
else:
    SECRET_KEY = env.str("SECRET_KEY", default=_DEV_SECRET_KEY)

DEBUG = env.bool("DEBUG", default=not PRODUCTION and DJANGO_ENV != "test")
ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS", default=[] if PRODUCTION else ["127.0.0.1", "localhost", "testserver"]
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# The tables' phone links and QR codes point here when set (club.phone_links): a board opened
# at 127.0.0.1 must not print codes of an address no phone can open. `quickstart --lan` sets
# it to the machine's address on the local network when it is not configured.
PUBLIC_BASE_URL = env.str("PUBLIC_BASE_URL", default="").rstrip("/")
if PUBLIC_BASE_URL and not re.fullmatch(r"https?://[^/\s?#@]+", PUBLIC_BASE_URL):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        f"PUBLIC_BASE_URL={PUBLIC_BASE_URL!r}: give the scheme and host (and port) phones open, "
        "nothing after them, e.g. http://192.168.1.5:8000 or https://club.example.org."
    )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    # DRF's own token table is no longer read (club.ApiToken replaced it; the migration
    # club 0011 carried its tokens over): installed for that migration's history only.
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files, no CDN
    "django_filters",  # query filters (the standings' ?player=); its form in the browsable API
    "pgtrigger",
    "pghistory",  # audit history by database triggers (PostgreSQL)
    "axes",  # locks out repeated failed logins on every login door
    "core",
    "club",
    "scoring",
    "tournaments",
]

MIDDLEWARE = [
    # First: a header value with a control character is refused before anything reads it
    # (Django's own server, quickstart's, passes a NUL through to the database).
    "config.headers.RefuseControlCharacters",
    "django.middleware.security.SecurityMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Outside the audit context: the idempotency record is not audited, so its two
    # writes a request need no context set (core/audit.py).
    "core.idempotency.IdempotencyMiddleware",
    "core.audit.AuditMiddleware",
    # Last, as django-axes requires: turns a login refused for a lockout into its page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The laptop's server answers each request in a thread of its own, each on its own
    # connection: phones at the tables record hands at once. A transaction takes the write
    # lock as it begins (BEGIN IMMEDIATE) and waits up to 20 s for another writer (the busy
    # timeout) rather than failing with "database is locked": begun as a reader (Django's
    # default) and turning writer while another wrote, it failed at once, the wait not
    # applying (Django's notes on SQLite). With WAL, pages and polls read while a hand is
    # written, never waiting for it (beside db.sqlite3 while it is open: its -wal and -shm).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20, transaction_mode="IMMEDIATE", init_command="PRAGMA journal_mode=WAL"
    )
    # The tests' database is a file of the test process's own too, in memory-backed /dev/shm
    # where there is one, else the system's temporary folder; Django removes it after. In
    # memory (Django's default, a shared cache) the live server's threads and the test's own
    # conflicted at once, the timeout not applying ("database table is locked"), or shared
    # one connection, each breaking the other's transaction (tests/club/test_phones_at_once.py).
    _shm = Path("/dev/shm")
    _scratch = _shm if _shm.is_dir() and os.access(_shm, os.W_OK) else Path(tempfile.gettempdir())
    DATABASES["default"]["TEST"] = {"NAME": str(_scratch / f"cardclub-test-{os.getpid()}.sqlite3")}
IS_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")
if IS_POSTGRES and env.bool("DB_PREPARED_STATEMENTS", default=True):
    # Parameters bound by the server (the extended protocol, not the query text with its
    # values quoted in), and a statement run twice on a connection prepared by psycopg,
    # so that PostgreSQL parses and plans the ORM's queries once a connection rather than
    # each time: on a recorded hand's path that was a quarter of PostgreSQL's CPU
    # (BENCHMARKS.md). The audit context is set once a transaction for it (core/audit.py).
    # Off behind a pooler that cannot keep prepared statements (PgBouncer before 1.21
    # in transaction mode).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=2
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The audit history's tables (core.audit) are read by the row they record (pgh_obj) and
# by context, never by the foreign keys they copy from it (a hand's rubber, its recorder):
# those copies are not indexed, which saved each recorded hand's history row two index
# entries and make_season's load a million of each (docs/benchmarks.md).
PGHISTORY_FOREIGN_KEY_FIELD = pghistory.config.ForeignKey(db_index=False)
PGHISTORY_CONTEXT_FIELD = pghistory.config.ContextForeignKey(db_index=True)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: it refuses a locked-out account before the password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "secretary-home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Request bodies are capped: no legitimate scoresheet or evening log comes near this.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=2 * 1024 * 1024)
# ... and take no files, which that cap does not cover (config/uploads.py).
FILE_UPLOAD_HANDLERS = ["config.uploads.NoFiles"]

# --- Redis: broker and cache ------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
_test_process = os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL and _test_process.startswith("gw") and "pytest" in sys.modules:
    # Tests run side by side (pytest -n): each test process empties its Redis database
    # before every test (tests/conftest.py), so each has its own: the URL's number plus
    # one plus the process's (gw0: 1, gw1: 2 for redis://.../0), for its cache and
    # broker. The processes a test starts (a Celery worker, gunicorn) import no pytest
    # and take the URL they are given (tests/worker.py hands them this one).
    _parts = urlsplit(REDIS_URL)
    _number = int(_parts.path.strip("/") or 0) + 1 + int(_test_process.removeprefix("gw"))
    REDIS_URL = urlunsplit(_parts._replace(path=f"/{_number}"))

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="cardclub"),
            "OPTIONS": {
                "SOCKET_CONNECT_TIMEOUT": 1,
                "SOCKET_TIMEOUT": 1,
                # Redis down: the cache misses and pages are built from the database;
                # recording hands never depends on it.
                "IGNORE_EXCEPTIONS": True,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery ---------------------------------------------------------------------------
# Without a broker the same task code runs eagerly, in-process (the embedded default).
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# Late acknowledgement: a task whose worker dies is delivered again, so every task
# must be idempotent (they take ids and recompute from committed state).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# One worker process a core this process may use (config/cores.py), not one for each of
# the host's cores (Celery's default): each holds a PostgreSQL connection.
CELERY_WORKER_CONCURRENCY = env.int("CELERY_WORKER_CONCURRENCY", default=usable_cores())
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=300)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=360)
# Redelivery of an unacknowledged task happens after the visibility timeout; every
# retry back-off (config.celery.ClubTask) and time limit is kept well below it, so a
# task is never run twice at once merely because it was slow.
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=3600)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    # How often a worker looks for tasks a dead worker took and never acknowledged.
    "unacked_restore_interval": env.int("CELERY_UNACKED_RESTORE_INTERVAL", default=10),
    "unacked_restore_throttle": env.int("CELERY_UNACKED_RESTORE_THROTTLE", default=10),
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# With the broker down, sending a task fails fast instead of holding up the request
# that recorded a hand; the outbox sweep sends it when the broker is back.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
# Tasks a worker process runs on one database connection before Celery closes it
# (config/celery.py: broken or aged connections are closed sooner, as in a request).
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000)
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# A recalculation waits this long after the first change, gathering a burst of hands
# into one (public standings must still show a hand within two seconds).
STANDINGS_DEBOUNCE_SECONDS = env.float("STANDINGS_DEBOUNCE_SECONDS", default=0.3)
# A deployment (or a test's own worker) may give its tasks a queue of their own.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
CELERY_BEAT_SCHEDULE = {
    "worker-heartbeat": {"task": "club.tasks.worker_heartbeat", "schedule": 60.0},
    # The outbox sweep: changes recorded while the broker was down are recalculated.
    "standings-sweep": {"task": "tournaments.tasks.sweep_standings", "schedule": 30.0},
    # Refusals' answers are kept ten minutes (core.idempotency.REFUSALS_KEPT_FOR): gone
    # within fifteen.
    "idempotency-purge": {"task": "club.tasks.purge_idempotency_records", "schedule": 300.0},
}
# --- Client address and logins ----------------------------------------------------------
# The number of proxies of ours in front of the service (config/clientaddr.py): the
# client's address is read that far back in X-Forwarded-For, and no further.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
if TRUSTED_PROXY_COUNT < 0:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT is a number of proxies: 0 or more.")
# django-axes: an account is locked out from one address after this many wrong
# passwords (the login form, the API's token endpoint and the admin alike). Keyed on the
# pair, so a stranger cannot lock the secretary out from his own address; guessing
# across many accounts from one address is held back by the login throttle instead.
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_LOCKOUT_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "config.clientaddr.counted_address"  # IPv6: its /64
AXES_LOCKOUT_CALLABLE = "config.ratelimit.lockout_response"
AXES_USERNAME_CALLABLE = "config.ratelimit.axes_username"  # cut to what its records hold
AXES_VERBOSE = False  # no banner on every manage.py command; lockouts are still logged
# An API token lives this many days from the login that gave it, however often it is used
# (counting from the last use would write on every request); logging out and a password
# change end it sooner (club/secretary_tokens.py).
API_TOKEN_DAYS = env.int("API_TOKEN_DAYS", default=30)
if not 1 <= API_TOKEN_DAYS <= 3650:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("API_TOKEN_DAYS is a number of days from 1 to 3650.")
# Live tokens an account holds at most: a script logging in on every run, or a stolen
# password used from many places, cannot pile them up; a login past it ends the oldest.
API_TOKENS_PER_ACCOUNT = env.int("API_TOKENS_PER_ACCOUNT", default=50)
if API_TOKENS_PER_ACCOUNT < 1:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("API_TOKENS_PER_ACCOUNT is a number of tokens: 1 or more.")

# A write past its rate (a table's phone's, the API's) is refused before its
# Idempotency-Key's record is claimed, so a throttled write costs none (core.idempotency).
IDEMPOTENCY_RATE_CHECK = "config.ratelimit.write_refused"

# --- REST framework -----------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "club.auth.SecretaryTokenAuthentication",
        "club.auth.TableTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Views check their club's permissions themselves (club.permissions); this one only
    # names the caller in the audit history.
    "DEFAULT_PERMISSION_CLASSES": ["core.audit.RecordWho"],
    # JSON bodies nested deeper than core.inputs.MAX_JSON_DEPTH are refused unparsed.
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "config.api.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "config.schema.ErrorResponsesAutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        # DRF's own, with the client's address from config/clientaddr.py.
        "config.throttles.AnonRateThrottle",
        "config.throttles.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("THROTTLE_ANON", default="600/min"),
        "user": env.str("THROTTLE_USER", default="6000/min"),
        "login": env.str("THROTTLE_LOGIN", default="10/min"),
        # The anonymous scoresheet endpoint: each call scores up to MAX_SHEET_HANDS hands.
        "scoresheet": env.str("THROTTLE_SCORESHEET", default="30/min"),
        # A public page rendered afresh (a player's page, a standings page, an evening's
        # results no kept copy answers), per client address (config.ratelimit.public_render).
        "public": env.str("THROTTLE_PUBLIC", default="120/min"),
    },
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Card club API",
    "DESCRIPTION": (
        "Clubs, evenings, tables and hands scored under the laws of Euchre (Somerset Club, "
        "1888), Call-Ace Euchre (Foster, 1905) and Bridge (Elwell, 1907). Errors share one "
        'shape: {"error": {"code", "message", "field", "law", "details"}}, the component Error; '
        "every operation lists the 4xx it can answer (config/schema.py). Writes need the "
        "club's secretary; the tournaments' endpoints also take its tournament directors. "
        "What the tournaments' endpoints do, the director's pages do too "
        # In code spans, the club's slug and the tournament's id in braces: the docs page
        # renders this as Markdown, which took "<slug>" and "<id>" for HTML tags and showed
        # "/secretary/clubs//tournaments/new/".
        "(`/secretary/clubs/{slug}/tournaments/new/`, `/secretary/tournaments/{id}/`)."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "SideEnum": ["NS", "EW"],
        "RulesetEnum": "scoring.models.RULESET_CHOICES",
    },
    "COMPONENT_SPLIT_REQUEST": True,
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}

# --- Production posture -----------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the board's htmx requests read it to send X-CSRFToken
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
CSP_ENABLED = env.bool("CSP_ENABLED", default=PRODUCTION)
if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    # X-Forwarded-Proto is believed only from a proxy of ours (TRUSTED_PROXY_COUNT), as
    # X-Forwarded-For is: with none in front, the caller writes it, and "https" over plain
    # HTTP would pass the redirect and be taken as a secure request.
    if TRUSTED_PROXY_COUNT:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # /healthz answers the load balancer over plain HTTP inside the network.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
