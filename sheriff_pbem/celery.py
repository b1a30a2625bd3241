"""The Celery app. Settings come from Django settings under the CELERY_ prefix."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheriff_pbem.settings")

app = Celery("sheriff_pbem")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
