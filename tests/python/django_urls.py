"""The admin's URLs, for the settings in django_settings.py."""

from django.contrib import admin
from django.urls import path

urlpatterns = [path("admin/", admin.site.urls)]
