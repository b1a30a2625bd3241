"""Whole games played only through the emails each player receives: read the
link out of the latest email, open the page, fill in one of its forms, post
it — bribes, demands, a third-party deal, passes and inspections — until
everyone holds the score sheet. Along the way: no email or page depends on
anything its seat may not see, and mail scanners opening every link change
nothing."""

import random
import re
from unittest import mock

import pytest
from django.core import mail
from django.test import Client

from games.core import game_setup
from games.engine import CARD_TYPES, awaiting, project_log
from games.engine.invariants import hidden_perturbation
from games.mail import emails
from games.models import Game, GameEvent
from tests.support.mailplay import deliver_pending, forms_in, html_of, inbox, seat_link

pytestmark = pytest.mark.django_db

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


def play_through_email(
    players_count: int,
    edition: int,
    seed: str,
    rnd_seed: int,
    black_market: bool = False,
    languages=(),
    watch=None,
):
    """Play a whole game through the emails. ``languages``: each seat's, in seat
    order (default English); ``watch(game)`` is called after every move."""
    specs = [
        game_setup.PlayerSpec(
            n,
            f"{n.lower()}@example.org",
            "Europe/Paris",
            language=languages[i] if i < len(languages) else "en",
        )
        for i, n in enumerate(NAMES[:players_count])
    ]
    config = {"edition": edition, "royal_goods": True, "black_market": black_market}
    game = game_setup.create_game(name="By mail", players=specs, config=config, seed=seed)
    rnd = random.Random(rnd_seed)
    deliver_pending()
    players = [Player(game, i, rnd) for i in range(players_count)]
    steps = 0
    while Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE:
        steps += 1
        assert steps < 3000, "the game did not finish"
        game.refresh_from_db()
        round_no = game.state["round"]
        moved = False
        for player in rnd.sample(players, len(players)):
            if player.mails and player.act(round_no):
                moved = True
                deliver_pending()
                if watch:
                    watch(Game.objects.get(pk=game.pk))
                if steps % 7 == 0:
                    _, html = player.page()
                    assert_page_hides_other_seats(player, html)
                    assert_nothing_hidden_shapes_the_page(player, rnd)
                    game.refresh_from_db()
                    assert_nothing_hidden_shapes_the_mail(game, rnd)
                break
        state = Game.objects.get(pk=game.pk).engine_state()
        assert moved, f"nobody could move in {state.phase.kind}; awaited: {awaiting(state)}"
    deliver_pending()
    return Game.objects.get(pk=game.pk), players


@pytest.mark.parametrize(
    ("players_count", "edition"), [(4, 2), (3, 1)], ids=["4p-2nd-edition", "3p-1st-edition"]
)
def test_a_whole_game_played_through_the_emails(players_count, edition):
    game, players = play_through_email(players_count, edition, seed="5e" * 32, rnd_seed=11)

    state = game.engine_state()
    assert state.is_over() and state.round == game.engine_config.rounds
    kinds = [e.type for e in GameEvent.objects.filter(game=game)]
    for needed in ("deal_made", "bag_passed", "bag_inspected", "offer_made"):
        assert needed in kinds, f"the game never had a {needed}"
    deals = [e.data for e in GameEvent.objects.filter(game=game, type="offer_made")]
    third_party = [
        d
        for d in deals
        if any(a["bag"] != d["offer"]["payer"] for a in d["offer"]["terms"]["sheriff"])
    ]
    assert third_party, "no third-party offer was made"
    for player in players:  # everyone got the reveal and the score sheet
        last = player.mails[-1]
        assert "The game is over" in last.body and "SCORES" in last.body
        assert state.seed in last.body
        assert_threads_tell_moves_from_news(game, player.mails)


# The most emails one conversation of a seat may hold (the whole game was one
# conversation of over a hundred: a reader could not tell what asked a move).
MAX_THREAD = 12
PREHEADER = re.compile(r'<div style="display:none;max-height:0;overflow:hidden;">([^<]*)</div>')


def assert_threads_tell_moves_from_news(game: Game, mails: list) -> None:
    """Every email asking a move says so first in its subject; news never does; one
    subject per conversation (Gmail splits a conversation whose subject changes,
    Apple Mail and Outlook follow References), and no conversation grows long."""
    threads: dict = {}
    for message in mails:
        # The first line a mail app shows of it (the preheader) says what it asks.
        asks = PREHEADER.search(html_of(message)).group(1).startswith("Your move:")
        assert message.subject.startswith("Your move: ") == asks, (message.subject, message.body)
        assert game.name in message.subject
        root = message.extra_headers["References"]
        assert message.extra_headers["In-Reply-To"] == root
        threads.setdefault(root, []).append(message.subject)
    for subjects in threads.values():
        assert len(set(subjects)) == 1, subjects
        assert len(subjects) <= MAX_THREAD, (len(subjects), subjects[0])
    assert mails[-1].subject.startswith("Game over: ")


@pytest.mark.parametrize(
    ("players_count", "black_market", "needed"),
    [
        (6, False, ("deputy_decided", "deal_made", "booty_shared", "bag_inspected")),
        (4, True, ("black_market_claimed", "deal_made", "bag_inspected")),
        (6, True, ("deputy_decided", "booty_shared", "black_market_claimed")),
    ],
    ids=["6p-deputies", "4p-black-market", "6p-black-market"],
)
def test_the_new_rules_played_through_the_emails(players_count, black_market, needed):
    game, players = play_through_email(
        players_count, 2, seed="6d" * 32, rnd_seed=5, black_market=black_market
    )

    state = game.engine_state()
    assert state.is_over() and state.round == game.engine_config.rounds
    kinds = {e.type for e in GameEvent.objects.filter(game=game)}
    for event in needed:
        assert event in kinds, f"the game never had a {event}"
    for player in players:  # everyone got the reveal and the score sheet
        last = player.mails[-1]
        assert "The game is over" in last.body and "SCORES" in last.body
        assert state.seed in last.body
    if black_market:  # the claims show on the score sheet
        claimant = next(seat for seat, claimed in enumerate(state.claims) if claimed)
        assert "Black Market" in players[claimant].mails[-1].body


def four_player_game(name: str, seed: str) -> Game:
    players = [game_setup.PlayerSpec(n, f"{n.lower()}@example.org") for n in NAMES[:4]]
    return game_setup.create_game(name=name, players=players, config={"edition": 2}, seed=seed)


def test_emails_are_personal_and_threaded():
    game = four_player_game("Threads", "77" * 32)
    deliver_pending()
    sent = mail.outbox
    assert len(sent) == 4 and all(len(m.to) == 1 for m in sent)  # one per recipient
    bodies = {m.to[0]: m.body for m in sent}
    assert len(set(bodies.values())) == 4  # never a shared body
    for message in sent:
        # The Sheriff waits while the merchants choose their cards.
        seat = game.seats.get(email=message.to[0])
        sheriff = seat.index == game.engine_state().sheriff
        subject = "News: Threads, round 1" if sheriff else "Your move: Threads, round 1"
        assert html_of(message) and message.subject == subject
        assert message.extra_headers["Message-ID"] != message.extra_headers["In-Reply-To"]
        # Each merchant's own hand is in its email, counted by kind ("2 Chickens").
        state = game.engine_state()
        seat = game.seats.get(email=message.to[0])
        hand = [state.type_of(card_id) for card_id in state.hand(seat.index)]
        for kind in set(hand):
            assert CARD_TYPES[kind].counted(hand.count(kind)) in message.body


def test_mail_scanners_opening_every_link_change_nothing():
    game = four_player_game("Scanners", "99" * 32)
    deliver_pending()
    before = (Game.objects.get(pk=game.pk).state, GameEvent.objects.filter(game=game).count())
    scanner = Client()
    for message in mail.outbox:
        for url in set(re.findall(r"https?://[^\s\"'<>]+", message.body + html_of(message))):
            path = url.replace("http://testserver", "")
            scanner.get(path)
            scanner.head(path)
    after = (Game.objects.get(pk=game.pk).state, GameEvent.objects.filter(game=game).count())
    assert after == before
