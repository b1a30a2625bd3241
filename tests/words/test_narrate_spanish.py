"""The game log in Spanish.

Random legal games of every kind are narrated for every seat and a spectator, in
English and in Spanish: every line renders in both, with every placeholder filled,
and the same events have a line in both. With the compiled Spanish catalogue, no
line is left in English, and the main lines read as a Spanish player expects: the
reader addressed as "tú", verbs agreeing with "you", another player, or several.
"""

from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from games.engine import GameConfig, project_event
from games.words.narrate import (
    DEADLINE_EXTENDED,
    GAME_CANCELLED,
    GAME_PAUSED,
    GAME_RESUMED,
    LINK_RESENT,
    PAUSED_ITSELF,
    SEAT_REPLACED,
    Narrator,
    cards,
    coded_note,
    deal_parties,
    idle_for,
    listed,
    outcome_lines,
    pile_name,
    terms_parts,
)
from tests.words.narrated_tables import (
    ANN,
    BEN,
    CID,
    DEE,
    EVE,
    FAY,
    NAMES,
    Table,
    black_market_step,
    deal,
    play,
    six_player_inspection,
)

LANGUAGES = ("en", "es")
CATALOGUE = Path(settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES" / "django.mo"

GAMES = [
    GameConfig(players=3, edition=1),
    GameConfig(players=4, edition=1, royal_goods=True),
    GameConfig(players=5, edition=2, black_market=True),
    GameConfig(players=4, edition=2, seven_card_hand=True, remove_ten=True),
    GameConfig(players=6, edition=2, black_market=True),
    GameConfig(players=6, edition=2, royal_goods=True),
]

# Round 1 of six players (tests.words.narrated_tables.six_player_inspection): Cid's
# offer to both Deputies, Ann's joint demand from Dee, Dee and Eve inspected, Ben's
# demand from Fay, then the deadline: Ann has not called Fay's bag.
ROUND = [
    ("make_offer", {"seat": CID, "to": "deputies", "terms": deal(5, **{"pass": CID})}),
    ("accept_offer", {"seat": ANN, "offer": 1, "revision": 1}),
    ("accept_offer", {"seat": BEN, "offer": 1, "revision": 1}),
    ("make_offer", {"seat": ANN, "to": DEE, "joint": True, "terms": deal(1, **{"pass": DEE})}),
    ("pass_bag", {"seat": ANN, "bag": DEE}),
    ("inspect_bag", {"seat": BEN, "bag": DEE}),
    ("inspect_bag", {"seat": ANN, "bag": EVE}),
    ("inspect_bag", {"seat": BEN, "bag": EVE}),
    ("make_offer", {"seat": BEN, "to": FAY, "terms": deal(2, **{"pass": FAY})}),
    ("accept_offer", {"seat": FAY, "offer": 3, "revision": 1}),
    ("timeout", {}),
]


@pytest.fixture(scope="module")
def narrated() -> list:
    """[(viewer, projected event, {language: line})] for every event of every game."""
    rows = []
    for number, config in enumerate(GAMES):
        state, events = play(config, 100 + number)
        for viewer in [*range(config.players), None]:
            narrator = Narrator.of_game(NAMES[: config.players], viewer, config)
            for event in events:
                projected = project_event(state, event, viewer)
                lines = {}
                for language in LANGUAGES:
                    with translation.override(language):
                        lines[language] = narrator.line(projected)
                rows.append((viewer, projected, lines))
    return rows


def spanish_catalogue():
    if not CATALOGUE.exists():
        pytest.skip("no compiled Spanish catalogue (locale/es/LC_MESSAGES/django.mo)")


# --- structure: always ------------------------------------------------------------------


def test_every_line_renders_in_both_languages_with_its_placeholders_filled(narrated):
    bad = [
        (language, line)
        for _, _, lines in narrated
        for language, line in lines.items()
        if line is not None and ("%(" in line or "%)" in line or "{" in line or "None" in line)
    ]
    assert bad[:5] == []


def test_the_same_events_have_a_line_in_both_languages(narrated):
    uneven = [
        projected
        for _, projected, lines in narrated
        if (lines["en"] is None) != (lines["es"] is None)
    ]
    assert uneven[:5] == []


def test_the_outcome_lines_and_the_terms_render_in_both_languages(narrated):
    table = six_player_inspection()
    for command, fields in [*ROUND[:3], ("timeout", {})]:
        table.do(command, **fields)
    terms = {"gold": 3, "stand_goods": [], "bag_goods": {"apples": 1}, "promise": "", "sheriff": []}
    terms["sheriff"] = [
        {"bag": CID, "action": "pass"},
        {"bag": DEE, "action": "inspect", "pile": 1},
    ]
    for language in LANGUAGES:
        with translation.override(language):
            for viewer in (ANN, CID, EVE, None):
                assert outcome_lines(table.projected(viewer), NAMES, viewer, table.state.config)
            for deputies in (None, [ANN], [ANN, BEN]):
                parts = terms_parts(terms, NAMES, CID, deputies=deputies)
                texts = [*parts["gives"], *parts["does"], parts["who"], parts["paid_to"]]
                assert all(text and "%(" not in text for text in texts), texts
            said = [
                idle_for(1),
                idle_for(3),
                cards(1),
                cards(2),
                pile_name(1, 2),
                listed(["a", "b", "c"]),
                *deal_parties(NAMES, ANN, [ANN]),
            ]
            assert all(text and "%(" not in text for text in said), said


def test_a_coded_note_is_read_from_its_code_and_params_not_from_its_english_text():
    stored = "The game paused itself: nobody moved for 3 phases in a row."
    with translation.override("en"):
        assert coded_note(PAUSED_ITSELF, {"phases": 3}) == stored
        assert coded_note(PAUSED_ITSELF, {"phases": 1}) == (
            "The game paused itself: nobody moved for a whole phase."
        )
        replaced = coded_note(SEAT_REPLACED, {"new": "Bea", "seat": 2, "old": "Ben"})
        assert replaced == "Bea takes over seat 2 from Ben."
    assert coded_note("no_such_note", {}) is None


# --- the Spanish wording: with the compiled catalogue -----------------------------------


def test_no_spanish_line_is_left_in_english(narrated):
    spanish_catalogue()
    same = [lines["en"] for _, _, lines in narrated if lines["en"] and lines["en"] == lines["es"]]
    assert same[:5] == []


def spanish_lines(table: Table, viewer) -> list:
    with translation.override("es"):
        return table.lines(viewer)


def test_a_six_player_round_in_spanish():
    spanish_catalogue()
    table = six_player_inspection()
    for command, fields in ROUND:
        table.do(command, **fields)

    cid = spanish_lines(table, CID)
    for line in [
        "Oferta n.º 1: ofreces 5 monedas de oro para el Botín, a cambio de que los dos "
        "alguaciles se comprometan a dejar pasar tu Saco.",
        "Ann acepta la oferta n.º 1 (revisión 1): con una aceptación más, habrá trato.",
        "¡Trato hecho! Se aceptó la oferta n.º 1 (revisión 1): pagas al Botín, y el trato "
        "obliga a los dos alguaciles.",
        "Pagaste 5 monedas de oro al Botín según lo acordado en un trato.",
        "Ann decide sobre tu Saco: dejar pasar (trato n.º 1).",
        "Los alguaciles dejan pasar tu Saco (trato n.º 1).",
        "Exigencia n.º 2: Ann exige a Dee 1 moneda de oro para el Botín, a cambio de que los dos "
        "alguaciles se comprometan a dejar pasar el Saco de Dee.",
        "Exigencia n.º 2 caducada.",
        "Ben decide sobre el Saco de Dee: registrar.",
        "Ben pagó 4 monedas de oro a Dee por registrar un Saco sin mentiras.",
        "Eve pagó 4 monedas de oro al Botín por la multa.",
        "¡Trato hecho! Se aceptó la exigencia n.º 3 (revisión 1): Fay paga a Ben.",
        "Se acabó el tiempo para Ann: las decisiones no tomadas cuentan como “dejar pasar” "
        "(tiempo agotado).",
        "Ann y Ben se reparten el Botín: 4 monedas de oro cada uno y la moneda sobrante sale "
        "de la partida.",
        "Ann recibió 4 monedas de oro del Botín.",
        "La moneda sobrante del Botín sale de la partida.",
    ]:
        assert line in cid
    joined = "\n".join(cid)
    assert "Ben registra el Saco de Dee en solitario: Dee dijo la verdad (" in joined
    assert "Ann y Ben registran juntos el Saco de Eve: Eve mintió (declaró " in joined

    ben = spanish_lines(table, BEN)
    assert "Exigencia n.º 3: exiges a Fay 2 monedas de oro por dejar pasar el Saco de Fay." in ben
    assert "Ann y tú registráis juntos el Saco de Eve: " in "\n".join(ben)
    assert (
        "Ann y tú os repartís el Botín: 4 monedas de oro cada uno y la moneda sobrante sale "
        "de la partida." in ben
    )
    assert "Recibiste 4 monedas de oro del Botín." in ben
    assert "Dee te pagó 4 monedas de oro por registrar un Saco sin mentiras." not in ben
    ann = spanish_lines(table, ANN)
    assert "Aceptas la oferta n.º 1 (revisión 1): con una aceptación más, habrá trato." in ann
    assert "Decides sobre el Saco de Dee: dejar pasar." in ann
    assert (
        "Se te acabó el tiempo: las decisiones no tomadas cuentan como “dejar pasar” "
        "(tiempo agotado)." in ann
    )
    assert "Empieza la ronda 2. Los alguaciles son Cid y Eve." in ann
    assert "Empieza la ronda 2. Los alguaciles sois tú y Eve." in cid
    dee = spanish_lines(table, DEE)
    assert "Exigencia n.º 2: Ann te exige 1 moneda de oro para el Botín, a cambio de que " in (
        "\n".join(dee)
    )
    assert "Ben te pagó 4 monedas de oro por registrar un Saco sin mentiras." in dee


def test_the_organizer_moving_the_game_on_in_spanish():
    spanish_catalogue()
    table = six_player_inspection()
    table.do("pass_bag", seat=ANN, bag=CID)
    table.do("timeout", by="organizer")
    assert (
        "El organizador hizo avanzar la partida: las decisiones que Ben y tú no habíais "
        "tomado cuentan como “dejar pasar” (la jugada por defecto)." in spanish_lines(table, ANN)
    )
    table = black_market_step()
    table.do("decline_black_market", seat=1)
    assert spanish_lines(table, 1)[-1] == "Decidiste no reclamar nada en el Mercado Negro."
    assert "Mercado Negro: Ben, Cid y tú aún podéis reclamar una carta." in spanish_lines(table, 3)
    assert "Mercado Negro: Ben, Cid y Dee aún pueden reclamar una carta." in spanish_lines(table, 0)
    table.do("timeout", by="organizer")
    assert (
        "El organizador hizo avanzar la partida: Cid y tú no hicisteis ninguna reclamación en "
        "el Mercado Negro (la jugada por defecto)." in spanish_lines(table, 3)
    )


def test_the_game_pause_note_in_spanish():
    spanish_catalogue()
    narrator = Narrator(NAMES[:3], 1, piles=1)
    note = {"type": "noted", "by": "game", "code": PAUSED_ITSELF}
    with translation.override("es"):
        text = "The game paused itself: nobody moved for 3 phases in a row."
        assert narrator.line({**note, "text": text, "params": {"phases": 3}}) == (
            "La partida se ha pausado sola: nadie ha jugado durante 3 fases seguidas."
        )
        text = "The game paused itself: nobody moved for a whole phase."
        assert narrator.line({**note, "text": text, "params": {"phases": 1}}) == (
            "La partida se ha pausado sola: nadie ha jugado durante una fase entera."
        )
        assert narrator.line({"type": "noted", "text": "Hola"}) == "Nota del organizador: Hola"


def test_a_replaced_player_note_in_spanish_from_its_code():
    spanish_catalogue()
    narrator = Narrator(NAMES[:3], 1, piles=1)
    params = {"new": "Bea", "seat": 2, "old": "Ben"}
    note = {"type": "noted", "text": "Bea takes over seat 2 from Ben."}
    with translation.override("es"):
        assert narrator.line({**note, "code": SEAT_REPLACED, "params": params}) == (
            "Nota del organizador: Bea ocupa el asiento 2 en lugar de Ben."
        )


def test_a_note_stored_before_notes_had_a_code_is_shown_as_stored():
    """Old games hold notes with their English text alone: shown as they were written."""
    spanish_catalogue()
    narrator = Narrator(NAMES[:3], 1, piles=1)
    paused = "The game paused itself: nobody moved for 3 phases in a row."
    with translation.override("es"):
        assert narrator.line({"type": "noted", "by": "game", "text": paused}) == paused
        replaced = {"type": "noted", "text": "Bea takes over seat 2 from Ben."}
        assert narrator.line(replaced) == "Nota del organizador: Bea takes over seat 2 from Ben."
        unknown = {"type": "noted", "by": "game", "text": "Later.", "code": "new", "params": {}}
        assert narrator.line(unknown) == "Later."  # a code this server does not know yet


def test_the_organizers_controls_are_noted_in_the_readers_language():
    """Each control's note is read from its code (games.core.controls), not from the
    English text it stores for the records."""
    spanish_catalogue()
    narrator = Narrator(NAMES[:3], 1, piles=1)
    notes = [
        ({"code": GAME_PAUSED}, "Nota del organizador: La partida está en pausa."),
        ({"code": GAME_RESUMED}, "Nota del organizador: La partida se reanuda."),
        ({"code": GAME_CANCELLED}, "Nota del organizador: El organizador ha cancelado la partida."),
        (
            {"code": DEADLINE_EXTENDED, "params": {"until": "2026-11-27T05:45:00+00:00"}},
            "Nota del organizador: El plazo se amplía hasta el vie 27 nov, 05:45 UTC.",
        ),
        (
            {"code": LINK_RESENT, "params": {"name": "Ben"}},
            "Nota del organizador: El organizador ha vuelto a enviar su enlace a Ben.",
        ),
    ]
    for coded, spanish in notes:
        note = {"type": "noted", "text": "English, for the records", "params": {}, **coded}
        with translation.override("es"):
            assert narrator.line(note) == spanish
        with translation.override("en"):
            assert "English" not in narrator.line(note)
