"""Create a demo game if there is none like it in play, and print its links.

The default is the four-player game ``make run`` creates; ``--players`` and
``--black-market`` ask for another one, which gets a name of its own, so that
each kind of demo is created once and found again while it is in play. Once it
is over (finished or cancelled), the next run starts a fresh one; ``--new``
starts a fresh one at once."""

from django.conf import settings
from django.core.management.base import BaseCommand

from games.core import game_setup, links
from games.models import Game

DEMO_NAME = "Demo game"
DEMO_PLAYERS = [
    game_setup.PlayerSpec("Alice", "alice@example.org", "Europe/London"),
    game_setup.PlayerSpec("Bob", "bob@example.org", "America/New_York"),
    game_setup.PlayerSpec("Carol", "carol@example.org", "Asia/Tokyo"),
    game_setup.PlayerSpec("Dave", "dave@example.org", "Australia/Sydney"),
    game_setup.PlayerSpec("Eve", "eve@example.org", "America/Sao_Paulo"),
    game_setup.PlayerSpec("Frank", "frank@example.org", "Africa/Nairobi"),
]
DEFAULT_PLAYERS = 4


def demo_name(players: int, black_market: bool) -> str:
    """'Demo game', or 'Demo game (6 players, Black Market)' for another kind of demo."""
    extras = [f"{players} players"] if players != DEFAULT_PLAYERS else []
    extras += ["Black Market"] if black_market else []
    return f"{DEMO_NAME} ({', '.join(extras)})" if extras else DEMO_NAME


class Command(BaseCommand):
    help = (
        "Create a demo game (four players unless told otherwise) if there is none like it "
        "in play (--new: in any case), and print the players' links."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--players",
            type=int,
            choices=range(3, len(DEMO_PLAYERS) + 1),
            default=DEFAULT_PLAYERS,
            help="3 to 6 (default 4; 6 plays the Deputies rules, adding Eve and Frank)",
        )
        parser.add_argument(
            "--black-market",
            action="store_true",
            help="play with the Black Market and its provisional values",
        )
        parser.add_argument(
            "--new",
            action="store_true",
            help="start a fresh demo game even if one like it is still in play",
        )

    def handle(self, *args, **options):
        players, black_market = options["players"], options["black_market"]
        name = demo_name(players, black_market)
        game = None
        if not options["new"]:
            # The newest one still in play: a finished demo is no place to start.
            in_play = Game.objects.filter(name=name, status=Game.Status.ACTIVE)
            game = in_play.order_by("-pk").first()
        if game is None:
            game = game_setup.create_game(
                name=name,
                players=DEMO_PLAYERS[:players],
                config={"edition": 2, "black_market": black_market},
            )
            self.stdout.write(self.style.SUCCESS(f"Created '{name}' (game {game.pk})."))
        else:
            self.stdout.write(f"'{name}' exists (game {game.pk}).")
        for seat in game.seats.all():
            self.stdout.write(f"  {seat.name}: {links.seat_url(seat)}")
        if settings.DEV_MAILBOX:
            self.stdout.write(f"Dev mailbox (every email sent): {settings.SITE_URL}/dev/mail/")
