from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # Modules that register something when imported: the system checks, the ESP's
        # tracking and inbound signals, the admin's pages and the Celery tasks (which a
        # worker's autodiscovery finds too, but the web process queues them by name).
        from games import tasks  # noqa: F401
        from games.mail import inbound, settings_checks, tracking  # noqa: F401
        from games.organizer import admin, lobby_admin, push_admin  # noqa: F401
        from games.push import settings_checks as push_checks  # noqa: F401
