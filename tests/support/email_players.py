"""Players who play a whole game through their emails only: each reads the link out
of their latest email, opens the page, fills in one of its forms and posts it, while
the emails and pages are checked to depend on nothing their seat may not see. The
play-by-email tests, the language tests (tests/words) and the organizer's admin and
page (tests/organizer: ``VOLATILE``, and an organizer who plays) use them."""

import random
import re
from unittest import mock

from django.db import transaction
from django.test import Client
from django.urls import reverse

from games.core import bot_turns, game_setup
from games.engine import CARD_TYPES, awaiting, project_log
from games.engine.invariants import hidden_perturbation
from games.mail import emails
from games.models import Game, GameEvent, TalkMessage
from tests.support.mailplay import deliver_pending, forms_in, inbox, seat_link

NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank"]
VOLATILE = re.compile(r'name="(csrfmiddlewaretoken|key)" value="[^"]*"')
SIGNED_LINK = re.compile(r"/play/[^/\s\"]+/")  # signatures carry a timestamp


def same_but_for_links(rendered: dict) -> tuple:
    return tuple(SIGNED_LINK.sub("/play/LINK/", rendered[part]) for part in ("text", "html"))


class Player:
    """One person with a mailbox and a browser."""

    def __init__(self, game: Game, index: int, rnd: random.Random):
        self.game, self.index, self.rnd = game, index, rnd
        self.seat = game.seats.get(index=index)
        self.client = Client()
        self.offered_in_round = None

    @property
    def mails(self) -> list:
        return inbox(self.seat.email)

    def page(self) -> tuple[str, str]:
        path = seat_link(self.mails[-1])  # always the link of the latest email
        response = self.client.get(path)
        assert response.status_code == 200
        return path, response.content.decode()

    def talk(self, text: str, to: int | None = None) -> int:
        """Say ``text`` at the table (or to the seat ``to`` alone), through the page's
        talk form; the status."""
        path, _html = self.page()
        data = {"text": text, "to": "" if to is None else str(to)}
        return self.client.post(path + "talk/", data).status_code

    def act(self, round_no: int) -> bool:
        """Make one move if the page offers a useful one; True if something was posted."""
        path, html = self.page()
        forms = {}
        for form in forms_in(html):
            forms.setdefault(form.move, []).append(form)
        choice = self.choose(forms, round_no)
        if choice is None:
            return False
        if "decide" in choice:  # a pass or inspect: its button opens the confirmation
            page = self.client.get(path, choice).content.decode()
            [confirm] = [f for f in forms_in(page) if f.fields.get("confirm") == "yes"]
            choice = self.fill(confirm)
        before = Game.objects.get(pk=self.game.pk).version
        response = self.client.post(path, choice, follow=True)
        assert response.status_code == 200
        return Game.objects.get(pk=self.game.pk).version != before

    # --- a simple but varied way of playing --------------------------------------
    def choose(self, forms: dict, round_no: int):
        rnd = self.rnd
        if "set_aside" in forms:
            form = forms["set_aside"][0]
            cards = self.traded() or self.some(form.checkboxes.get("cards", []), 0, 2)
            return self.fill(form, cards=cards)
        if "market_turn" in forms:
            form = forms["market_turn"][0]
            cards = self.some(form.checkboxes.get("cards", []), 0, 2)
            take = 1 if cards and rnd.random() < 0.5 else 0
            return self.fill(
                form,
                cards=cards,
                from_pile_0=str(take),
                from_pile_1="0",
                pile=rnd.choice(form.radios["pile"]),
                top=cards[-1] if cards else "",
            )
        if "load_bag" in forms:
            form = forms["load_bag"][0]
            cards = self.smuggled() or self.some(form.checkboxes["cards"], 1, 3)
            return self.fill(
                form, cards=cards, declared=rnd.choice([v for v in form.selects["declared"] if v])
            )
        if "claim_black_market" in forms and rnd.random() < 0.8:
            form = forms["claim_black_market"][0]
            return self.fill(form, kind=rnd.choice(form.radios["kind"]))
        if "decline_black_market" in forms and "make_offer" not in forms:
            return self.fill(forms["decline_black_market"][0])
        if "accept_offer" in forms and rnd.random() < 0.7:
            return self.fill(forms["accept_offer"][0])
        decide = [f for f in forms.get("", []) if "decide" in f.fields]
        is_sheriff = Game.objects.get(pk=self.game.pk).engine_state().is_inspector(self.index)
        if "make_offer" in forms and self.offered_in_round != round_no and rnd.random() < 0.6:
            self.offered_in_round = round_no
            return self.offer(forms["make_offer"], is_sheriff)
        if "say_no_offer" in forms:
            return self.fill(forms["say_no_offer"][0])
        if decide:
            passes = [f for f in decide if f.fields["decide"] == "pass"]
            if passes and self.lenient() and rnd.random() < 0.75:
                return self.fill(rnd.choice(passes))  # smuggled goods reach the stands
            return self.fill(rnd.choice(decide))
        return None

    def offer(self, offer_forms: list, is_sheriff: bool) -> dict:
        form = self.rnd.choice(offer_forms)
        bags = sorted(int(n.split("_")[1]) for n in form.selects if n.startswith("action_"))
        actions = {f"action_{b}": "" for b in bags}
        payer = int(form.fields["to"]) if is_sheriff else self.index
        if payer in bags:
            actions[f"action_{payer}"] = "pass"
        others = [b for b in bags if b != payer]
        if not is_sheriff and others and self.rnd.random() < 0.5:  # a third-party deal
            actions[f"action_{self.rnd.choice(others)}"] = "inspect"
        if not any(actions.values()):
            actions[f"action_{bags[0]}"] = "inspect"
        if "joint" in form.checkboxes and self.rnd.random() < 0.5:  # a Deputy asks for both
            actions["joint"] = "yes"
        return self.fill(form, gold=str(self.rnd.randint(0, 3)), promise="Deal?", **actions)

    def lenient(self) -> bool:
        """Black Market games: inspectors mostly let bags pass, so that claims happen."""
        return Game.objects.get(pk=self.game.pk).engine_config.black_market

    def traded(self) -> list:
        """Black Market games: trade every card but contraband, for more contraband."""
        state = Game.objects.get(pk=self.game.pk).engine_state()
        if not state.config.black_market:
            return []
        hand = state.hand(self.index)
        return [str(c) for c in hand if state.type_of(c) not in ("pepper", "mead", "silk")][:5]

    def smuggled(self) -> list:
        """Black Market games: often a bag of the contraband kind this player holds
        most of, so that claims happen (the player reads only their own hand)."""
        state = Game.objects.get(pk=self.game.pk).engine_state()
        if not state.config.black_market or self.rnd.random() < 0.3:
            return []
        kinds = ("pepper", "mead", "silk")
        held = {k: [str(c) for c in state.hand(self.index) if state.type_of(c) == k] for k in kinds}
        on_stand = {k: sum(state.type_of(c) == k for c in state.stand(self.index)) for k in kinds}
        # The kind closest to three on the stand once this bag passes.
        best = max(kinds, key=lambda k: (bool(held[k]), len(held[k]) + on_stand[k]))
        return held[best][:5]

    def some(self, values: list, low: int, high: int) -> list:
        high = min(high, len(values))
        return self.rnd.sample(values, self.rnd.randint(min(low, high), high))

    @staticmethod
    def fill(form, **values) -> dict:
        data = {**form.fields}
        for name, options in form.selects.items():
            data.setdefault(name, options[0] if options else "")
        for name, options in form.radios.items():
            data.setdefault(name, options[0])
        data.update(values)
        return data


def assert_nothing_hidden_shapes_the_mail(game: Game, rnd: random.Random) -> None:
    """Every owed email, rendered again from a state that differs only in what
    its seat cannot see, is byte-identical: emails cannot leak."""
    state = game.engine_state()
    events = [e.data for e in GameEvent.objects.filter(game=game)]
    for seat in game.seats.all():
        seat.notified_seq = 0  # the whole log, not only the latest news
        other = hidden_perturbation(state, events, seat.index, rnd)
        for kind in ("your_move", "start", "round_over"):  # round_over: the round's story
            real = emails.render(game, seat, state, kind)
            fake = emails.render(game, seat, other, kind)
            assert same_but_for_links(real) == same_but_for_links(fake), kind
        assert project_log(state, events, seat.index) == project_log(other, events, seat.index)


def assert_nothing_hidden_shapes_the_page(player: Player, rnd: random.Random) -> None:
    """The seat's page, rendered from a state differing only in what the seat cannot
    see, is identical but for the one-time form keys and CSRF tokens."""
    game = Game.objects.get(pk=player.game.pk)
    state = game.engine_state()
    events = [e.data for e in GameEvent.objects.filter(game=game)]
    other = hidden_perturbation(state, events, player.index, rnd)
    player.page()  # shows and clears any pending flash message
    real = VOLATILE.sub("", player.page()[1])
    with mock.patch.object(Game, "engine_state", lambda self: other.clone()):
        fake = VOLATILE.sub("", player.page()[1])
    assert real == fake


CARD_FIELDS = re.compile(r'name="(?:cards|stand_goods)" value="(\d+)"')


TABLE_LINK = re.compile(r'<p><a class="button primary" href="/play/[^"]+">[^<]*</a></p>')


def assert_no_archive_before_the_end(player: Player, path: str) -> None:
    """While the game is played, the seat's way into the game's archive answers what
    an address naming no game does (but for the link back to the seat's table), and
    its public switch changes nothing."""
    language = {"HTTP_ACCEPT_LANGUAGE": player.seat.language}
    answer = player.client.get(path + "archive/", **language)
    nowhere = Client().get("/archive/public/" + "x" * 32 + "/", **language)
    assert answer.status_code == nowhere.status_code == 404
    assert TABLE_LINK.sub("", answer.content.decode()) == nowhere.content.decode()
    switched = player.client.post(path + "archive/sharing/", {"sharing": "public"})
    assert switched.status_code == 404
    assert Game.objects.get(pk=player.game.pk).archive_token is None


def assert_page_hides_other_seats(player: Player, html: str) -> None:
    """Every card a seat's page lets it pick is its own or lies face up: no card of
    another seat's hand or closed bag, no face-down contraband of another seat."""
    state = Game.objects.get(pk=player.game.pk).engine_state()
    hidden = set()
    for other in range(state.players):
        if other != player.index:
            hidden.update(state.hand(other), state.bag(other))
            hidden.update(
                c for c in state.stand(other) if not CARD_TYPES[state.type_of(c)].is_legal
            )
    picked = {int(i) for i in CARD_FIELDS.findall(html)}
    assert not picked & hidden


def assert_nothing_hidden_shapes_the_organizer_page(client: Client, game: Game, rnd) -> str:
    """The organizer's page (``client`` signed in as the organizer, who may play a
    seat), rendered from a stored state differing in everything a spectator cannot
    see — every hand (their own too), every closed bag and its size, face-down
    goods, the deck's order, the seed — is identical but for the CSRF tokens; and
    it names no card and no seat link. Returns the page."""
    url = reverse("games:organize", args=[game.pk])
    state = game.engine_state()
    events = [e.data for e in GameEvent.objects.filter(game=game)]
    other = hidden_perturbation(state, events, None, rnd)
    real = VOLATILE.sub("", client.get(url).content.decode())
    with transaction.atomic():  # the other state as stored, for one page, then undone
        Game.objects.filter(pk=game.pk).update(state=other.to_dict())
        fake = VOLATILE.sub("", client.get(url).content.decode())
        transaction.set_rollback(True)
    assert real == fake
    assert not CARD_FIELDS.findall(real) and "/play/" not in real
    assert state.is_over() or state.seed not in real
    return real


def assert_private_talk_stays_private(player: Player, html: str, secrets: list) -> None:
    """While the game runs, no private message between two other seats is on the
    seat's page or in any of its emails. ``secrets``: (author, reader, text)."""
    mails = [m.body for m in player.mails]
    for author, reader, text in secrets:
        if player.index not in (author, reader):
            assert text not in html
            assert not any(text in body for body in mails)


# What players say while they play (through their pages' talk form).
TABLE_TALK = [
    "Open Carol's bag and I'll pay you 5.",
    "My bag is all apples, Sheriff. Honest.\nWell, mostly.",
    "\u05e9\u05dc\u05d5\u05dd, Sheriff: let me pass.",
    "Inspect me and you'll regret it.",
]


def bots_turn(game: Game, rnd: random.Random) -> bool:
    """The bots' turn at the table if one is coming (its time forced to come); True
    if they moved."""
    due = Game.objects.values_list("bots_due_at", flat=True).get(pk=game.pk)
    if due is None:
        return False
    made = bot_turns.play(game.pk, now=due, rnd=rnd)
    deliver_pending()
    return made > 0


def play_through_email(
    players_count: int,
    edition: int,
    seed: str,
    rnd_seed: int,
    black_market: bool = False,
    languages=(),
    watch=None,
    organizer_email: str = "",
    bots=None,
):
    """Play a whole game through the emails. ``languages``: each seat's, in seat
    order (default English); ``watch(game)`` is called after every move. ``bots``:
    seat index -> level, for the seats bots play (their turns as the worker runs
    them, their time forced to come)."""
    bots = bots or {}
    specs = [
        game_setup.PlayerSpec(
            f"{n} (bot)" if i in bots else n,
            "" if i in bots else f"{n.lower()}@example.org",
            "Europe/Paris",
            language=languages[i] if i < len(languages) else "en",
            bot=bots.get(i, ""),
        )
        for i, n in enumerate(NAMES[:players_count])
    ]
    config = {"edition": edition, "royal_goods": True, "black_market": black_market}
    game = game_setup.create_game(
        name="By mail", players=specs, config=config, seed=seed, organizer_email=organizer_email
    )
    Game.objects.filter(pk=game.pk).update(talk_private=True)  # some talk is whispered
    rnd = random.Random(rnd_seed)
    secrets = []  # (author, reader, text) of each private message said
    deliver_pending()
    players = [Player(game, i, rnd) for i in range(players_count) if i not in bots]
    steps = 0
    while Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE:
        steps += 1
        assert steps < 3000, "the game did not finish"
        moved = bots_turn(game, rnd)
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        round_no = game.state["round"]
        for player in rnd.sample(players, len(players)):
            if player.mails and player.act(round_no):
                moved = True
                deliver_pending()
                if watch:
                    watch(Game.objects.get(pk=game.pk))
                if steps % 5 == 0:  # the table talks too: pages with talk hide as much
                    assert player.talk(TABLE_TALK[steps % len(TABLE_TALK)]) in (302, 400, 429)
                if steps % 5 == 2:  # and whispers, to one other seat
                    reader = rnd.choice([p.index for p in players if p is not player])
                    text = f"whisper-{steps}-{player.index}-to-{reader}"
                    if player.talk(text, to=reader) == 302:
                        secrets.append((player.index, reader, text))
                if steps % 7 == 0:
                    path, html = player.page()
                    if Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE:
                        assert_private_talk_stays_private(player, html, secrets)
                    assert_page_hides_other_seats(player, html)
                    assert_nothing_hidden_shapes_the_page(player, rnd)
                    if Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE:
                        assert_no_archive_before_the_end(player, path)
                    game.refresh_from_db()
                    assert_nothing_hidden_shapes_the_mail(game, rnd)
                break
        state = Game.objects.get(pk=game.pk).engine_state()
        assert moved, f"nobody could move in {state.phase.kind}; awaited: {awaiting(state)}"
    deliver_pending()
    assert TalkMessage.objects.filter(game=game).count() >= 3  # the pages checked held talk
    assert secrets  # and whispers that the third parties' pages and emails did not hold
    return Game.objects.get(pk=game.pk), players
