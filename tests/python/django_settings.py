"""Django settings for tests/python/test_django.py: the postgresql backend
(psycopg 3) pointed at the litewire server under test (LITEWIRE_PG_HOST,
LITEWIRE_PG_PORT), the built-in apps the admin needs, and django_shop."""

import os

SECRET_KEY = "litewire-tests"
USE_TZ = True
TIME_ZONE = "UTC"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django_shop",
]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "HOST": os.environ.get("LITEWIRE_PG_HOST", "127.0.0.1"),
        "PORT": os.environ.get("LITEWIRE_PG_PORT", "5432"),
        "NAME": "litewire",
        "USER": "postgres",
        "PASSWORD": "",
        # litewire has no SQL cursors (DECLARE ... CURSOR): QuerySet.iterator()
        # fetches in chunks from a client-side cursor instead.
        "DISABLE_SERVER_SIDE_CURSORS": True,
    }
}
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]
ROOT_URLCONF = "django_urls"
ALLOWED_HOSTS = ["testserver"]
STATIC_URL = "/static/"
