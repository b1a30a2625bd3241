from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0026_rematch"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="standing",
            field=models.JSONField(default=dict, editable=False),
        ),
    ]
