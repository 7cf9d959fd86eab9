"""A small Django app for tests/python/test_django.py: the models an ordinary
project starts with (foreign keys, unique and indexed fields, dates, decimals,
booleans, JSON), migrated and queried through the ORM against litewire."""
