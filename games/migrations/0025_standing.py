from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0024_inbound_replies"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="standing",
            field=models.JSONField(default=dict, editable=False),
        ),
    ]
