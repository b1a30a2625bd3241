"""A new VAPID key pair for Web Push (games/push/vapid.py), printed as the environment
takes it. Changing the keys of a running site ends every device's subscription: the
push services refuse pushes signed by another key than the one a device subscribed
with, until the app is opened again on it (docs/operations.md, Web Push)."""

from django.core.management.base import BaseCommand

from games.push import vapid


class Command(BaseCommand):
    help = (
        "Print a new VAPID key pair for Web Push as WEBPUSH_VAPID_* lines for the "
        "environment (add WEBPUSH_VAPID_CONTACT yourself)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--contact",
            default="mailto:you@example.org",
            help="the WEBPUSH_VAPID_CONTACT line to print with them (mailto: or https://)",
        )

    def handle(self, *args, **options):
        private, public = vapid.new_pair()
        self.stdout.write(f"WEBPUSH_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"WEBPUSH_VAPID_CONTACT={options['contact']}")
