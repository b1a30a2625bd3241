"""Notes stored before notes carried a code: the two the log translates (a game that
paused itself, a replaced player) get their code and params, read once from their
English text, so the log never parses English back at run time."""

import re

from django.db import migrations

PAUSED = re.compile(
    r"The game paused itself: nobody moved for (?:(?P<n>[0-9]+) phases in a row|a whole phase)\."
)
REPLACED = re.compile(r"(?P<new>.+) takes over seat (?P<seat>[0-9]+) from (?P<old>.+)\.")


def coded(text: str) -> dict | None:
    if found := PAUSED.fullmatch(text):
        return {"code": "paused_itself", "params": {"phases": int(found["n"] or 1)}}
    if found := REPLACED.fullmatch(text):
        params = {"new": found["new"], "seat": int(found["seat"]), "old": found["old"]}
        return {"code": "seat_replaced", "params": params}
    return None


def add_codes(apps, schema_editor):
    GameEvent = apps.get_model("games", "GameEvent")
    notes = GameEvent.objects.filter(type="noted").iterator(chunk_size=500)
    for event in notes:
        if "code" in event.data or not isinstance(event.data.get("text"), str):
            continue
        if code := coded(event.data["text"]):
            event.data = {**event.data, **code}
            event.save(update_fields=["data"])


class Migration(migrations.Migration):
    dependencies = [("games", "0018_outbox_alert_params")]
    operations = [migrations.RunPython(add_codes, migrations.RunPython.noop)]
