from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # Modules that register something when imported: the system checks, the ESP's
        # tracking and inbound signals, the admin's pages and the Celery tasks.
        from games.core import timer_tasks  # noqa: F401
        from games.mail import inbound, send_tasks, settings_checks, tracking  # noqa: F401
        from games.organizer import admin, lobby_admin  # noqa: F401
