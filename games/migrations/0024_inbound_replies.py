import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

import games.models


def give_reply_keys(apps, schema_editor):
    """A random reply key for each seat made before reply keys existed."""
    Seat = apps.get_model("games", "Seat")
    for seat in Seat.objects.filter(reply_key__isnull=True).only("pk"):
        Seat.objects.filter(pk=seat.pk).update(reply_key=games.models.new_reply_key())


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0023_talk_private_quotes_unread"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="reply_key",
            field=models.CharField(max_length=32, null=True, editable=False),
        ),
        migrations.RunPython(give_reply_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="seat",
            name="reply_key",
            field=models.CharField(
                default=games.models.new_reply_key, editable=False, max_length=32, unique=True
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="reply_from_anyone",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="seat",
            name="reply_refused_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="reply_held_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.CreateModel(
            name="InboundMessage",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("message_id", models.CharField(max_length=255, unique=True)),
                ("esp", models.CharField(blank=True, max_length=30)),
                ("received_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("from_address", models.CharField(blank=True, max_length=254)),
                (
                    "outcome",
                    models.CharField(
                        choices=[
                            ("talk_posted", "Posted to the talk"),
                            ("move_made", "A move made"),
                            ("refused", "Refused"),
                            ("held_sender", "Held: not the seat's address"),
                            ("ignored_automated", "Ignored: automated mail"),
                            ("duplicate", "Duplicate"),
                            ("unknown_key", "Unknown reply address"),
                        ],
                        max_length=20,
                    ),
                ),
                ("detail", models.CharField(blank=True, max_length=300)),
                ("text", models.TextField(blank=True)),
                (
                    "seat",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="inbound_messages",
                        to="games.seat",
                    ),
                ),
            ],
            options={"ordering": ["-received_at"]},
        ),
    ]
