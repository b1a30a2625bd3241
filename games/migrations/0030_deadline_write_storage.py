"""What a deadline writes, cheaper for PostgreSQL to store (bench_deadlines, issue 39):

- an event's and a seat's rows are found by game through their unique (game, seq) and
  (game, index) constraints, so their foreign keys need no index of their own: one
  index fewer to write for each event and each seat;
- the seats' rows leave room on their pages (fillfactor), so that counting a missed
  deadline or a move's seat write updates a row in place (a HOT update: no index
  written), as none of the columns they change is indexed.

The fillfactor is PostgreSQL's (nothing on SQLite), and applies to pages written from now on."""

import django.db.models.deletion
from django.db import migrations, models

SEAT_FILLFACTOR = "ALTER TABLE games_seat SET (fillfactor = 70)"
SEAT_FILLFACTOR_RESET = "ALTER TABLE games_seat RESET (fillfactor)"


def _on_postgresql(statement: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0029_deadline_claims"),
    ]

    operations = [
        migrations.AlterField(
            model_name="gameevent",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="events",
                to="games.game",
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seats",
                to="games.game",
            ),
        ),
        migrations.RunPython(
            _on_postgresql(SEAT_FILLFACTOR), _on_postgresql(SEAT_FILLFACTOR_RESET)
        ),
    ]
