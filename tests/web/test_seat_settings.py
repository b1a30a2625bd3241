"""A player's own settings behind their signed link, the emails each notification
setting sends, and the one-click unsubscribe (RFC 8058)."""

from urllib.parse import urlparse

import pytest
from django.test import Client

from games.core import notifications
from games.core.links import settings_url, unsubscribe_url
from games.engine import actions
from games.models import Seat
from tests.support.fixtures_pages import start_game

pytestmark = pytest.mark.django_db


def path(url: str) -> str:
    return urlparse(url).path


@pytest.fixture
def game():
    return start_game()


def seat(game, index=1) -> Seat:
    return game.seats.get(index=index)


def form(**changes) -> dict:
    data = {
        "name": "Ben",
        "timezone": "UTC",
        "language": "en",
        "notify": "results",
        "digest_hour": "",
    }
    return {**data, **changes}


def test_the_settings_page_shows_and_a_get_changes_nothing(game):
    before = list(Seat.objects.values())
    response = Client().get(path(settings_url(seat(game))))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="timezone"' in html and 'list="zones"' in html and "Europe/Madrid" in html
    assert list(Seat.objects.values()) == before


def test_a_player_changes_name_zone_language_and_mail(game):
    client = Client(enforce_csrf_checks=False)
    response = client.post(
        path(settings_url(seat(game))),
        form(
            name="Benito", timezone="Europe/Madrid", language="es", notify="turn", digest_hour="8"
        ),
        follow=True,
    )
    assert response.status_code == 200
    ben = seat(game)
    assert (ben.name, ben.timezone, ben.language, ben.notify, ben.digest_hour) == (
        "Benito",
        "Europe/Madrid",
        "es",
        "turn",
        8,
    )


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"name": "ann"}, "That name reads like “Ann”, another player’s name at this table"),
        ({"name": "Ben\x07"}, "one line of plain text"),
        ({"timezone": "Mars/Olympus"}, "Choose a time zone from the list"),
        ({"language": "xx"}, "Select a valid choice"),
        ({"notify": "never"}, "Select a valid choice"),
        ({"digest_hour": "25"}, "Select a valid choice"),
        ({"digest_hour": "\uff11"}, "Select a valid choice"),
    ],
)
def test_a_refused_setting_says_why_and_changes_nothing(game, changes, said):
    before = list(Seat.objects.values())
    response = Client().post(path(settings_url(seat(game))), form(**changes))
    assert response.status_code == 200
    assert said in response.content.decode()
    assert list(Seat.objects.values()) == before


def test_one_click_unsubscribe_mutes_the_optional_mail_and_a_get_does_not(game):
    url = path(unsubscribe_url(seat(game)))
    assert Client().get(url).status_code == 200
    assert seat(game).notify == Seat.Notify.TURN_AND_RESULTS
    # What a mail app sends (RFC 8058): a POST with this body, no cookie, no CSRF token.
    response = Client(enforce_csrf_checks=True).post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert seat(game).notify == Seat.Notify.TURN_ONLY


def test_a_bad_link_to_the_settings_is_refused(game):
    assert Client().get("/play/nonsense/settings/").status_code in (400, 403, 404)
    assert Client().post("/play/nonsense/unsubscribe/").status_code in (400, 403, 404)


KINDS = ("your_move", "decide", "reminder", "round_over", "deal", "offer", "start")


@pytest.mark.parametrize(
    ("notify", "kinds"),
    [
        ("all", set(KINDS)),
        ("results", set(KINDS) - {"offer"}),
        # Ben must act in the market: the round's end doubles as his your-move email.
        ("turn", {"your_move", "decide", "reminder", "start", "round_over"}),
    ],
)
def test_each_notification_setting_sends_its_emails_and_always_those_asking_a_move(
    game, notify, kinds
):
    state = game.engine_state()
    ben = seat(game)
    assert actions(state)[ben.index]["must_act"]
    ben.notify = notify
    assert {kind for kind in KINDS if notifications.wanted(ben, kind, state)} == kinds


def test_with_my_turn_only_the_sheriff_hears_of_a_round_end_only_when_asked_a_move(game):
    state = game.engine_state()
    sheriff = seat(game, state.sheriff)
    sheriff.notify = Seat.Notify.TURN_ONLY
    assert not actions(state)[sheriff.index]["must_act"]
    assert not notifications.wanted(sheriff, "round_over", state)


def test_a_daily_summary_goes_once_a_day_at_the_chosen_local_hour(game):
    from datetime import UTC, datetime

    from games.models import OutboxEmail

    now = datetime(2026, 11, 24, 7, 30, tzinfo=UTC)  # 08:30 in Madrid
    Seat.objects.filter(pk=seat(game).pk).update(timezone="Europe/Madrid", digest_hour=8)
    Seat.objects.filter(pk=seat(game, 2).pk).update(timezone="UTC", digest_hour=8)
    [digest] = notifications.record_digests(now)
    assert (digest.seat.index, digest.kind) == (1, "digest")
    assert notifications.record_digests(now) == []  # once a day
    assert OutboxEmail.objects.filter(kind="digest").count() == 1


def test_a_daily_summary_missed_at_its_hour_goes_later_that_day(game):
    """The beat was down at 08:00 Madrid: the summary goes at its next run, once."""
    from datetime import UTC, datetime

    Seat.objects.filter(pk=seat(game).pk).update(timezone="Europe/Madrid", digest_hour=8)
    assert notifications.record_digests(datetime(2026, 11, 24, 6, 55, tzinfo=UTC)) == []
    [late] = notifications.record_digests(datetime(2026, 11, 24, 10, 5, tzinfo=UTC))
    assert late.key.endswith("digest20261124")
    assert notifications.record_digests(datetime(2026, 11, 24, 22, 5, tzinfo=UTC)) == []


def test_every_game_email_carries_one_click_unsubscribe_and_auto_submitted(game):
    from tests.support.mailplay import deliver_pending, inbox

    deliver_pending()
    [message] = inbox(seat(game).email)
    headers = message.extra_headers
    assert headers["Auto-Submitted"] == "auto-generated"
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = headers["List-Unsubscribe"].strip("<>")
    assert url.startswith("http") and "/unsubscribe/" in url
    # The mail app's one-click POST (RFC 8058) to that very address.
    response = Client(enforce_csrf_checks=True).post(
        path(url), "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert seat(game).notify == Seat.Notify.TURN_ONLY


def test_every_email_and_the_table_link_to_the_settings(game):
    from tests.support.mailplay import deliver_pending, html_of, inbox

    deliver_pending()
    [message] = inbox(seat(game).email)
    link = path(settings_url(seat(game)))
    assert "/settings/" in message.body and "/settings/" in html_of(message)
    html = Client().get(link.removesuffix("settings/")).content.decode()
    assert 'href="' + link in html


def test_the_plain_text_says_every_word_the_html_shows(game):
    """For a mail app that shows no HTML: every kind of email, in both languages.
    (Not the hidden preview line, which repeats what the email says, nor the brand.)"""
    import html as markup
    import re

    from games.mail import emails
    from games.words import i18n
    from tests.support.email_kinds import KINDS

    preview = r'<div style="display:none[^>]*>.*?</div>'
    hidden = re.compile(preview + r"|<(style|head)[^>]*>.*?</\1>", re.S)

    def words(text: str) -> set:
        return set(re.findall(r"[^\W\d_]{3,}", text.lower())) - {"sheriff", "nottingham"}

    state = game.engine_state()
    for language in ("en", "es"):
        for reader in game.seats.all():
            reader.language = language
            with i18n.as_seat(reader):
                for kind in KINDS:
                    message = emails.render(game, reader, state, kind)
                    shown = re.sub(r"<[^>]+>", " ", hidden.sub(" ", message["html"]))
                    shown = markup.unescape(shown)
                    missing = words(shown) - words(message["text"])
                    assert not missing, (language, reader.index, kind, sorted(missing))
