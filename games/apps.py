from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from games import checks, tracking  # noqa: F401  (the system checks; the ESP's webhooks)
