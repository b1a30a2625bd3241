from django.db import migrations, models


def clear_hand_out_marks(apps, schema_editor):
    # The old column marked when the beat handed a deadline out, not a lease: start
    # with every deadline unclaimed, for the deadline processes to claim.
    apps.get_model("games", "Game").objects.update(deadline_claimed_until=None)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0028_signin_join"),
    ]

    operations = [
        migrations.RenameField(
            model_name="game",
            old_name="advance_queued_at",
            new_name="deadline_claimed_until",
        ),
        migrations.AddField(
            model_name="game",
            name="deadline_claimed_by",
            field=models.CharField(blank=True, default="", editable=False, max_length=80),
        ),
        migrations.CreateModel(
            name="DeadlineProcess",
            fields=[
                ("holder", models.CharField(max_length=80, primary_key=True, serialize=False)),
                ("alive_until", models.DateTimeField()),
            ],
        ),
        migrations.RunPython(clear_hand_out_marks, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(
                    ("deadline_claimed_until", None),
                    ("paused_at", None),
                    ("phase_deadline__isnull", False),
                    ("status", "active"),
                ),
                fields=["phase_deadline", "id"],
                name="game_deadline_unclaimed",
            ),
        ),
    ]
