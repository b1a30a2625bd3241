"""Create and start a game from the command line; the first emails go out."""

from django.core.management.base import BaseCommand, CommandError

from games import links, services
from games.engine import EngineError


class Command(BaseCommand):
    help = 'Create a game: --player "Name <email> [Time/Zone]" once per seat, clockwise.'

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True)
        parser.add_argument("--player", action="append", required=True, dest="players")
        parser.add_argument("--edition", type=int, choices=(1, 2), default=2)
        parser.add_argument("--first-sheriff", type=int, default=0)
        parser.add_argument("--royal", action="store_true", help="play with the Royal Goods")
        parser.add_argument("--seven-card-hand", action="store_true")
        parser.add_argument("--remove-ten", action="store_true")
        parser.add_argument("--seed", help="hex seed (default: a secret random one)")
        parser.add_argument("--organizer", default="", help="organizer's email")

    def handle(self, *args, **options):
        try:
            players = [services.parse_player(p) for p in options["players"]]
            game = services.create_game(
                name=options["name"],
                players=players,
                config={
                    "edition": options["edition"],
                    "first_sheriff": options["first_sheriff"],
                    "royal_goods": options["royal"],
                    "seven_card_hand": options["seven_card_hand"],
                    "remove_ten": options["remove_ten"],
                },
                seed=options["seed"],
                organizer_email=options["organizer"],
            )
        except (ValueError, EngineError) as error:
            raise CommandError(getattr(error, "message", str(error))) from None
        self.stdout.write(self.style.SUCCESS(f"Game {game.pk} '{game.name}' started."))
        for seat in game.seats.all():
            self.stdout.write(f"  {seat.name} <{seat.email}>: {links.seat_url(seat)}")
