"""What an invitation's link and a join link let their holder do, and no more: an
invitation answers once and never leads to a seat; the join link takes at most the
free seats, is paced per lobby, client and address, counts in the organizer's daily
cap and answers alike for any address; bad posts change nothing; names refuse
invisible characters; titles hold no markup; each invitee's controls name them."""

import html
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.core import lobbies, sign_in
from games.models import Invitation, Lobby, OutboxEmail
from tests.support.lobby_forms import NEW_GAME, ORIGIN, signed_in
from tests.support.mailplay import deliver_pending

pytestmark = pytest.mark.django_db


def create(**changes) -> Lobby:
    response = signed_in("alice@example.org").post("/new/", {**NEW_GAME, **changes}, **ORIGIN)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Lobby.objects.latest("pk")


def invitation_path(address: str) -> str:
    deliver_pending()
    [message] = [m for m in mail.outbox if m.to == [address]][-1:]
    return re.search(r"http://testserver(/invitation/[^/\s]+/)", message.body)[1]


def answer(path: str, client: Client, answer="accept", name="Bob"):
    data = {"answer": answer, "name": name, "timezone": "UTC", "language": "en"}
    return client.post(path, data, **ORIGIN)


def who(client: Client) -> str | None:
    """The address the client is signed in as, if any."""
    user = client.get("/").wsgi_request.user
    return user.email if user.is_authenticated else None


def join(lobby: Lobby, address: str, ip="203.0.113.7", name=None, client=None):
    data = {"name": name or address.split("@")[0].title(), "email": address, "timezone": "UTC"}
    client = client or Client(REMOTE_ADDR=ip)
    return client.post(f"/join/{lobby.join_token}/", data, **ORIGIN)


def join_emails() -> int:
    asked = Invitation.objects.filter(via=Invitation.Via.LINK).values_list("pk", flat=True)
    return OutboxEmail.objects.filter(kind="invitation", params__invitation__in=list(asked)).count()


# --- an invitation's link answers once ------------------------------------------------


def test_an_invitation_link_accepts_once_and_signs_in_only_then():
    create()
    path = invitation_path("bob@example.org")
    bob = Client()
    assert answer(path, bob).status_code == 302 and who(bob) == "bob@example.org"
    # The email forwarded, or read again: the link says it was answered, and signs
    # nobody in, whatever is posted to it.
    holder = Client()
    page = holder.get(path)
    text = page.content.decode()
    assert page.status_code == 200 and "You are in" in text and ">Sign in</a>" in text
    assert 'name="answer"' not in text
    for again in ("accept", "decline", ""):
        repeated = answer(path, holder, answer=again, name="Mallory")
        assert repeated.status_code == 200 and who(holder) is None
    bob_now = Invitation.objects.get(email="bob@example.org")
    assert bob_now.status == "accepted" and bob_now.name == "Bob"


def test_a_declined_invitation_cannot_then_be_accepted():
    create()
    path = invitation_path("bob@example.org")
    assert answer(path, Client(), answer="decline").status_code == 302
    later = Client()
    page = answer(path, later)
    assert page.status_code == 200 and "You declined" in page.content.decode()
    assert Invitation.objects.get(email="bob@example.org").status == "declined"
    assert who(later) is None


def test_an_invitation_link_stops_at_the_start_and_never_leads_to_a_seat():
    lobby = create(players="3")
    bob_path, carol_path = invitation_path("bob@example.org"), invitation_path("carol@example.org")
    answer(bob_path, Client())
    answer(carol_path, Client(), name="Carol")
    lobbies.start(lobby.pk)
    for path in (bob_path, carol_path):
        holder = Client()
        for response in (holder.get(path), answer(path, holder)):
            text = response.content.decode()
            assert response.status_code == 410 and "This game has started" in text
            assert "/play/" not in text and who(holder) is None


def test_an_unanswered_invitation_stops_at_the_start_and_when_withdrawn():
    lobby = create(players="3", invitees="bob@example.org\ncarol@example.org")
    bob = invitation_path("bob@example.org")
    organizer = signed_in("alice@example.org")
    carol = Invitation.objects.get(email="carol@example.org")
    organizer.post(
        f"/new/{lobby.pk}/action/", {"action": "remove", "invitation": carol.pk}, **ORIGIN
    )
    holder = Client()
    withdrawn = answer(invitation_path("carol@example.org"), holder, name="Carol")
    assert withdrawn.status_code == 410 and who(holder) is None
    for name in ("Dan", "Erin"):  # seated without Bob
        Invitation.objects.create(
            lobby=lobby, email=f"{name}@example.org", name=name, via="email", status="accepted"
        )
    lobbies.start(lobby.pk)
    late = answer(bob, holder)
    assert late.status_code == 410 and who(holder) is None
    assert Invitation.objects.get(email="bob@example.org").status == "declined"


@pytest.mark.parametrize("data", [{}, {"answer": ""}, {"answer": "\x00"}, {"name": "\x00"}])
def test_an_empty_or_odd_post_to_an_invitation_says_why_and_changes_nothing(data):
    create()
    path = invitation_path("bob@example.org")
    response = Client().post(path, data, **ORIGIN)
    assert response.status_code == 400 and "Not answered yet." in response.content.decode()
    assert Invitation.objects.get(email="bob@example.org").status == "invited"


def test_an_empty_post_to_a_join_link_says_why_and_changes_nothing():
    lobby = create()
    response = Client().post(f"/join/{lobby.join_token}/", {}, **ORIGIN)
    assert response.status_code == 400 and "Not sent." in response.content.decode()
    assert not Invitation.objects.filter(via=Invitation.Via.LINK).exists()


# --- the join link ------------------------------------------------------------------------


def test_thirty_join_posts_hold_at_most_the_free_seats(settings):
    # 6 seats: Alice's, Bob's and Carol's invitations leave 3 free.
    lobby = create(players="6")
    answers = {join(lobby, f"p{i}@example.net").status_code for i in range(30)}
    asked = Invitation.objects.filter(via=Invitation.Via.LINK)
    print(f"30 join posts, 3 free seats: {asked.count()} requests, {join_emails()} emails")
    assert asked.count() == 3 and join_emails() == 3
    assert lobbies.promised(lobby) == 6
    assert answers == {200, 400}  # the free seats asked for, then "try again later"
    refused = join(lobby, "late@example.net").content.decode()
    assert "Every seat is taken or promised" in refused


def test_the_join_link_is_paced_per_client_and_answers_alike(settings):
    settings.SIGN_IN_PER_CLIENT_HOURLY = 2
    lobby = create(players="6", invitees="")
    pages = [join(lobby, f"p{i}@example.net", name="Pat") for i in range(4)]
    bodies = {re.sub(r"p\d@example\.net", "ADDRESS", page.content.decode()) for page in pages}
    assert {page.status_code for page in pages} == {200} and len(bodies) == 1
    assert join_emails() == 2  # the client's pace: the rest were told the same, sent nothing
    assert join(lobby, "p9@example.net", ip="198.51.100.1").status_code == 200
    assert join_emails() == 3


def test_the_join_link_is_paced_per_lobby(settings):
    settings.JOIN_EMAILS_PER_LOBBY_HOURLY = 2
    lobby = create(players="6", invitees="")
    for i in range(2):
        assert join(lobby, f"p{i}@example.net", ip=f"198.51.100.{i}").status_code == 200
    refused = join(lobby, "p7@example.net", ip="198.51.100.7")
    assert refused.status_code == 400 and "try again later" in refused.content.decode()
    assert join_emails() == 2


def test_join_emails_count_toward_the_organizers_daily_cap(settings):
    settings.INVITATIONS_PER_ORGANIZER_DAILY = 3
    lobby = create(players="6")  # Bob's and Carol's invitations: 2 emails
    assert join(lobby, "dan@example.net").status_code == 200
    refused = join(lobby, "eve@example.net", ip="198.51.100.2")
    assert refused.status_code == 400 and join_emails() == 1
    with pytest.raises(lobbies.LobbyError, match="many invitations"):
        lobbies.invite(lobby.pk, "Fay", "fay@example.org")


def test_the_join_answer_is_the_same_for_a_known_an_unknown_and_an_opted_out_address():
    lobby = create(players="6")
    lobbies.never_invite("quiet@example.net")
    sign_in.ask("player@example.net", "elsewhere", "en")
    pages = [
        join(lobby, address, name="Pat", ip=f"198.51.100.{i}")
        for i, address in enumerate(
            ["bob@example.org", "new@example.net", "quiet@example.net", "player@example.net"]
        )
    ]
    bodies = {re.sub(r"\w+@example\.\w+", "ADDRESS", p.content.decode()) for p in pages}
    assert {p.status_code for p in pages} == {200} and len(bodies) == 1


def test_a_seat_asked_for_is_confirmed_from_the_mailbox_without_asking_the_name_again():
    lobby = create()
    assert join(lobby, "dan@example.net", name="Dan").status_code == 200
    assert lobbies.taken(lobby) == 1  # nothing taken before the mailbox confirms
    path = invitation_path("dan@example.net")
    page = Client().get(path).content.decode()
    assert "Confirm your seat" in page and "invites you" not in page
    assert 'name="name"' not in page and "You asked for a seat at this table as" in page
    dan = Client()
    assert dan.post(path, {"answer": "accept"}, **ORIGIN).status_code == 302
    assert Invitation.objects.get(email="dan@example.net").status == "accepted"
    assert who(dan) == "dan@example.net"


def test_someone_signed_in_joins_at_once_and_only_once():
    lobby = create()
    dan = signed_in("dan@example.net")
    data = {"name": "Dan", "email": "dan@example.net", "timezone": "UTC"}
    assert dan.post(f"/join/{lobby.join_token}/", data, **ORIGIN).status_code == 302
    assert lobbies.taken(lobby) == 2 and join_emails() == 0
    again = dan.post(f"/join/{lobby.join_token}/", data, **ORIGIN)
    assert again.status_code == 400 and "a seat at this table already" in again.content.decode()


# --- names, titles, the lobby's controls ------------------------------------------------

LOOK_ALIKES = ["Bob\u3164", "Bob\uffa0", "Bob\u115f", "Bob\u034f", "Bob\u2800", "Bob\u200b"]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_an_invisible_letter_is_refused_in_every_lobby_name_field(name):
    organizer = signed_in("alice@example.org")
    refused = organizer.post("/new/", {**NEW_GAME, "my_name": name}, **ORIGIN)
    assert refused.status_code == 400 and not Lobby.objects.exists()
    lobby = create()
    action = f"/new/{lobby.pk}/action/"
    organizer.post(action, {"action": "invite", "invitee": f"{name} <x@example.org>"}, **ORIGIN)
    assert not Invitation.objects.filter(email="x@example.org").exists()
    assert join(lobby, "y@example.net", name=name).status_code == 400
    page = answer(invitation_path("carol@example.org"), Client(), name=name)
    assert page.status_code == 400
    assert Invitation.objects.get(email="carol@example.org").status == "invited"


def title_of(response) -> str:
    return re.search(r"<title>(.*?)</title>", response.content.decode(), re.S)[1]


def test_no_lobby_invitation_or_join_page_title_holds_markup():
    lobby = create(name="שלום <b>Friday</b>")
    path = invitation_path("bob@example.org")
    pages = [
        signed_in("alice@example.org").get(f"/new/{lobby.pk}/"),
        Client().get(path),
        Client().get(f"/join/{lobby.join_token}/"),
        join(lobby, "dan@example.net"),
        Client().post(f"/join/{lobby.join_token}/", {}, **ORIGIN),
    ]
    answer(path, Client())
    pages.append(Client().get(path))
    signed_in("alice@example.org").post(
        f"/new/{lobby.pk}/action/", {"action": "close_link"}, **ORIGIN
    )
    pages.append(Client().get(f"/join/{lobby.join_token}/"))
    for page in pages:
        title = title_of(page)
        assert "<" not in title and "bdi" not in title, title  # the text as it reads
        assert "Friday" in html.unescape(title) or "Sheriff" in title


def test_each_invitees_controls_on_the_lobby_name_them():
    lobby = create()
    Invitation.objects.filter(lobby=lobby).update(last_sent_at=timezone.now() - timedelta(hours=1))
    page = signed_in("alice@example.org").get(f"/new/{lobby.pk}/").content.decode()
    for name in ("Bob", "carol"):
        assert f'aria-label="Send again to {name}"' in page
        assert f'aria-label="Remove {name}"' in page
        assert f"Put someone else in this seat, instead of {name}" in page
        assert f'aria-label="Name and address, instead of {name}"' in page
        assert f'aria-label="Invite instead of {name}"' in page
    spanish = signed_in("alice@example.org").get(f"/new/{lobby.pk}/", HTTP_ACCEPT_LANGUAGE="es")
    assert 'aria-label="Quitar a Bob"' in spanish.content.decode()


def test_no_page_template_puts_markup_in_its_title():
    """Every page's title block: player text goes in as plain text (``isolated``),
    never through a filter that makes HTML (a title shows its tags as letters)."""
    from pathlib import Path

    pages = Path(__file__).resolve().parents[2] / "templates" / "pages"
    marking = re.compile(r"\|\s*(user_text|bdi|unlinked|safe)\b|<[a-z/]")
    for template in sorted(pages.glob("*.html")):
        block = re.search(r"{% block title %}(.*?){% endblock %}", template.read_text(), re.S)
        if block:
            assert not marking.search(block[1]), f"{template.name}: {block[1]}"
