"""The organizer's own page in the tests: its addresses, a person signed in by
email, and one control posted as the page's forms post it."""

from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games.models import Game


def page_url(game) -> str:
    return reverse("games:organize", args=[game.pk])


def control_url(game) -> str:
    return reverse("games:organize-control", args=[game.pk])


def signed_in(address: str, **headers) -> Client:
    """A browser signed in as ``address``, as games.core.sign_in makes a person."""
    people = get_user_model().objects
    person = people.filter(email=address).first() or people.create_user(address, address)
    client = Client(**headers)
    client.force_login(person)
    return client


def post(client, game, action, version=None, **fields):
    """One control as the page posts it, following a redirect back to the page:
    (the control's own status, its messages, the page the browser lands on)."""
    version = Game.objects.get(pk=game.pk).version if version is None else version
    data = {"action": action, "version": version, **fields}
    response = client.post(control_url(game), data, follow=True)
    status = response.redirect_chain[0][1] if response.redirect_chain else response.status_code
    return status, [str(m) for m in get_messages(response.wsgi_request)], response


def html(client, game) -> str:
    response = client.get(page_url(game))
    assert response.status_code == 200
    return response.content.decode()
