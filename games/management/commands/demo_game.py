"""Create the four-player demo game if there is none yet, and print its links."""

from django.conf import settings
from django.core.management.base import BaseCommand

from games import links, services
from games.models import Game

DEMO_NAME = "Demo game"
DEMO_PLAYERS = [
    services.PlayerSpec("Alice", "alice@example.org", "Europe/London"),
    services.PlayerSpec("Bob", "bob@example.org", "America/New_York"),
    services.PlayerSpec("Carol", "carol@example.org", "Asia/Tokyo"),
    services.PlayerSpec("Dave", "dave@example.org", "Australia/Sydney"),
]


class Command(BaseCommand):
    help = "Create a four-player demo game if none exists, and print the players' links."

    def handle(self, *args, **options):
        game = Game.objects.filter(name=DEMO_NAME).first()
        if game is None:
            game = services.create_game(name=DEMO_NAME, players=DEMO_PLAYERS, config={"edition": 2})
            self.stdout.write(self.style.SUCCESS(f"Created '{DEMO_NAME}' (game {game.pk})."))
        else:
            self.stdout.write(f"'{DEMO_NAME}' exists (game {game.pk}).")
        for seat in game.seats.all():
            self.stdout.write(f"  {seat.name}: {links.seat_url(seat)}")
        if settings.DEV_MAILBOX:
            self.stdout.write(f"Dev mailbox (every email sent): {settings.SITE_URL}/dev/mail/")
