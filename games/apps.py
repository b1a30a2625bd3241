from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # Modules that register something when imported: the system checks, the ESP's
        # tracking signal, the admin's pages and the Celery timer_tasks.
        from games.mail import settings_checks, tracking  # noqa: F401
        from games.organizer import admin  # noqa: F401
