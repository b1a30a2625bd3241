import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0025_archive"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rematch",
            field=models.OneToOneField(
                blank=True,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="rematch_of",
                to="games.game",
            ),
        ),
    ]
