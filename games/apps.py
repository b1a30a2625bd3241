from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from games import tracking  # noqa: F401  (connects the ESP's tracking webhooks)
