"""The API's keys: a token per seat, minted by the seat's player (games.core.api_tokens)."""

from django.db import models
from django.utils import timezone

from games.models.play import Game, Seat


class ApiToken(models.Model):
    """A key a program uses to play one seat. Only its SHA-256 is kept: the token is
    shown once, when minted. It works while the seat's links do: rotating them (a
    replaced player, links sent anew) or revoking it ends it."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="api_tokens")
    # The seat's game, kept beside it: a request finds the seat with its table in one
    # read (games.core.api_tokens.seat_of).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    # Its first characters, so that a player tells their tokens apart ("shf_Ab3d…").
    prefix = models.CharField(max_length=12, editable=False)
    label = models.CharField(max_length=40, blank=True)
    link_version = models.PositiveIntegerField(editable=False)  # the seat's, when minted
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        indexes = [models.Index(fields=["seat", "revoked_at"])]

    def __str__(self) -> str:
        return f"API token {self.prefix}… of seat {self.seat_id}"
