"""Reading an emailed reply: the new text, cut from the quoted email at our marker
line, else at the quote headers of Gmail, Outlook, Apple Mail and Thunderbird in
English and Spanish, else at a signature; HTML made text when it is the only part.
The corpus (tests/words/reply_corpus/) holds replies as each client writes them."""

import time

import hypothesis
import pytest
from hypothesis import strategies as st

from games.words.reply_text import REPLY_MARKERS, html_to_text, new_text, normalize
from tests.words.reply_corpus_report import cases, report, run

CORPUS = cases()
QUOTE = "> Alice, it's your move.\n> Reply with one of: no offer"


# --- the corpus -------------------------------------------------------------------------


@pytest.mark.parametrize("case", CORPUS, ids=[case.name for case in CORPUS])
def test_corpus_case(case):
    assert run(case, lambda text, html: new_text(text, html)) == case.expected


CLIENTS = {
    "gmail": ("gmail-web", "gmail-android", "gmail-ios"),
    "outlook": ("outlook-desktop", "outlook-web", "outlook-ios"),
    "apple": ("apple-macos", "apple-ios"),
    "thunderbird": ("thunderbird",),
}


def test_the_corpus_covers_every_client_in_both_languages():
    covered = {(case.client, case.language, case.format) for case in CORPUS}
    for family, clients in CLIENTS.items():
        for language in ("en", "es"):
            assert all((client, language, "text") in covered for client in clients)
            assert any((client, language, "html") in covered for client in clients), family
    assert len(CORPUS) >= 40


def test_the_report_gives_pass_rates_per_client_and_language():
    text = report()
    assert text.startswith(f"ours: {len(CORPUS)}/{len(CORPUS)} cases")
    assert "thunderbird" in text and "\n    es " in text


# --- our marker -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "marker",
    [
        "——— Write your reply above this line ———",
        "## Write your reply above this line ##",
        "-- write your reply above this line --",
        "=== WRITE YOUR REPLY ABOVE THIS LINE ===",
        "Write  your reply above this line",
        "— Escribe tu respuesta encima de esta línea —",
        "## ESCRIBE TU RESPUESTA ENCIMA DE ESTA LINEA ##",  # accent lost on the way
    ],
)
def test_the_marker_matches_whatever_its_decoration_and_case(marker):
    assert new_text(f"no offer\n\n{marker}\n\nYour hand: 1 apples") == "no offer"
    assert new_text(f"no offer\n\n> {marker}\n> Your hand: 1 apples") == "no offer"


def test_the_marker_constants_are_the_lines_the_emails_carry():
    assert REPLY_MARKERS == {
        "en": "Write your reply above this line",
        "es": "Escribe tu respuesta encima de esta línea",
    }


def test_a_marker_wrapped_over_two_quoted_lines():
    body = "pass Bob\n\n>> — Write your reply above\n>> this line —\n>> Your hand: 1 apples"
    assert new_text(body) == "pass Bob"


def test_the_client_header_above_the_marker_goes_too_in_any_language():
    body = (
        "pass Bob\n\nAm 24.11.2026 um 18:02 schrieb Sheriff <play+k@x.org>:\n\n"
        "> — Write your reply above this line —\n> hand"
    )
    assert new_text(body) == "pass Bob"


def test_a_line_of_the_person_right_above_the_marker_stays():
    assert new_text("pass Bob\nthanks all\n> — Write your reply above this line —") == (
        "pass Bob\nthanks all"
    )


def test_a_reply_is_cut_at_our_first_line_that_ends_with_the_marker():
    """The text part opens with what the email asks (the mail app's preview), then
    the marker, on one line: quoted, unquoted or wrapped, the reply ends there."""
    ours = "Your move: decide the bags — by Mon 23 Nov, 21:00 your time"
    marker = "— Write your reply above this line —"
    for quoted in (
        f"> {ours} {marker}\n> Your move — Clock",
        f"{ours} {marker}\nYour move — Clock",
        f"> {ours} — Write your reply\n> above this line —\n> Your move — Clock",
        "> Te toca: decide — Escribe tu respuesta encima de esta línea —\n> Te toca",
    ):
        assert new_text(f"pass Bob\n\n{quoted}") == "pass Bob", quoted


def test_a_sentence_ending_in_the_marker_words_without_a_dash_stays():
    body = "pass Bob\nTell me where to write your reply above this line"
    assert new_text(body) == body


def test_text_that_mentions_the_marker_in_a_sentence_is_not_the_marker():
    body = "Where do I write your reply above this line thing?\npass Bob"
    assert new_text(body) == body


# --- the clients' quote headers ---------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        "On Tue, 24 Nov 2026 at 18:02, Sheriff <play+k@x.org> wrote:",
        "On Tue, Nov 24, 2026 at 6:02\u202fPM Sheriff <play+k@x.org> wrote:",
        "On 24 Nov 2026, at 18:02, Sheriff <play+k@x.org> wrote:",
        "On 24/11/2026 18:02, Sheriff wrote:",
        "El mar, 24 nov 2026 a las 18:02, Sheriff (<play+k@x.org>) escribió:",
        "El 24 nov 2026, a las 18:02, Sheriff <play+k@x.org> escribió:",
        "El 24/11/26 a las 18:02, Sheriff escribio:",
        "> On 24 Nov 2026, at 18:02, Sheriff <play+k@x.org> wrote:",
        "On Tue, Nov 24, 2026 at 6:02 PM Sheriff <\nplay+k@x.org> wrote:",
        "El mar, 24 nov 2026 a las 18:02, Sheriff (<\nplay+k@x.org>) escribió:",
    ],
)
def test_a_quote_header_cuts_the_reply(header):
    assert new_text(f"no offer\n\n{header}\n\n{QUOTE}\n\nunquoted tail") == "no offer"


@pytest.mark.parametrize(
    "block",
    [
        "From: Sheriff <play+k@x.org>\nSent: Tuesday, November 24, 2026 6:02 PM\nTo: A\nSubject: S",
        "De: Sheriff <play+k@x.org>\nEnviado: martes, 24 de noviembre de 2026 18:02\nPara: A",
        "De: Sheriff\nEnviado el: martes, 24 de noviembre de 2026 18:02\nPara: A\nAsunto: S",
        "From: Sheriff\nDate: Tuesday, 24 November 2026 at 18:02\nTo: A",
        "De: Sheriff\nFecha: martes, 24 de noviembre de 2026, 18:02\nPara: A",
        "*From:* Sheriff\n*Sent:* Tuesday, November 24, 2026 6:02 PM",
        "________________________________\nFrom: Sheriff\nSent: Tuesday",
        "-----Original Message-----\nYour hand",
        "-----Mensaje original-----\nTu mano",
        "---------- Forwarded message ---------\nYour hand",
    ],
)
def test_outlooks_field_block_and_rules_cut_the_reply(block):
    assert new_text(f"accept 2\n\n{block}\n\nYour hand: 1 apples") == "accept 2"


@pytest.mark.parametrize(
    "kept",
    [
        "On Tuesday Bob wrote: no offer",  # no digit, no colon at the end
        "On Tuesday Bob wrote:",  # no date
        "From: Carol, with love",  # no Sent: or Date: below
        "El martes Bob escribió:",
        "Carol, I pay > 3 gold",
    ],
)
def test_a_persons_own_lines_that_look_a_little_like_headers_stay(kept):
    assert new_text(f"{kept}\npass Bob") == f"{kept}\npass Bob"


def test_quoted_lines_are_dropped_and_the_persons_lines_between_them_kept():
    assert new_text("> Reply with pass or inspect\npass Bob\n>> older\ninspect Carol") == (
        "pass Bob\ninspect Carol"
    )


def test_a_reply_under_the_quote_is_read_when_nothing_is_above_it():
    assert new_text(f"On 24/11/2026 18:02, S wrote:\n{QUOTE}\n\npass Bob\n-- \nAlice") == "pass Bob"
    assert new_text(f"{QUOTE}\ninspect Carol\n> more quote\nsay: hi") == "inspect Carol\nsay: hi"


def test_the_text_above_the_quote_wins_over_the_text_under_it():
    assert new_text(f"pass Bob\n\nOn 24/11/2026 18:02, S wrote:\n{QUOTE}\nstray") == "pass Bob"


def test_under_outlooks_header_block_is_our_email_never_the_persons_text():
    body = "From: S\nSent: Tuesday, November 24, 2026\n\n> a client's quote\nYour hand: 1 apples"
    assert new_text(body) == ""


# --- signatures -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "signature",
    [
        "-- \nAlice Smith",
        "--\nAlice Smith",
        "Sent from my iPhone",
        "Sent from my Galaxy",
        "Sent with Proton Mail secure email.",
        "Enviado desde mi iPhone",
        "Enviado desde mi smartphone Samsung Galaxy.",
        "Get Outlook for Android<https://aka.ms/AAb9ysg>",
        "Obtener Outlook para iOS<https://aka.ms/o0ukef>",
    ],
)
def test_a_signature_and_what_follows_it_are_dropped(signature):
    assert new_text(f"pass Bob\ninspect Carol\n\n{signature}\n\n{QUOTE}") == (
        "pass Bob\ninspect Carol"
    )


# --- HTML -------------------------------------------------------------------------------


def test_html_blocks_and_breaks_become_lines():
    assert html_to_text("<div>pass Bob</div><div><br></div><div>inspect Carol</div>") == (
        "pass Bob\n\ninspect Carol"
    )
    assert html_to_text("<p>a</p>\n   <p>b<br>c</p>") == "a\nb\nc"
    assert html_to_text("<div><div><div>a</div></div></div><div>b</div>") == "a\nb"


def test_html_entities_and_spacing():
    assert new_text("", "<p>I  pay\n &gt; 3&nbsp;gold &amp; more</p>") == "I pay > 3 gold & more"


def test_html_heads_styles_and_scripts_are_not_text():
    markup = (
        "<html><head><title>T</title><style>p {x}</style></head><body>ok<script>x</script></body>"
    )
    assert new_text("", markup) == "ok"


@pytest.mark.parametrize(
    "quote",
    [
        "<blockquote>old <blockquote>older</blockquote> old</blockquote>",
        '<blockquote type="cite">On 24 Nov 2026, at 18:02, S wrote:</blockquote>',
        '<div class="gmail_quote"><div class="gmail_attr">On …</div>quoted</div>',
        '<div id="divRplyFwdMsg"><b>From:</b> S</div><div>quoted body</div>',
        '<div id="appendonsend"></div><hr><div>quoted</div>',
        '<div class="moz-cite-prefix">On …</div><blockquote>q</blockquote>',
    ],
)
def test_the_quoted_email_in_html_is_dropped(quote):
    assert new_text("", f"<div>pass Bob</div>{quote}") == "pass Bob"


def test_the_text_part_is_read_when_it_has_text_else_the_html_part():
    assert new_text("pass Bob", "<p>inspect Carol</p>") == "pass Bob"
    assert new_text(" \r\n", "<p>inspect Carol</p>") == "inspect Carol"
    assert new_text("", None) == ""
    assert new_text("", "") == ""


def test_broken_html_gives_text_not_an_error():
    assert new_text("", "<div>pass Bob<blockquote>never closed") == "pass Bob"
    assert new_text("", "<p>a</b></i></p><![CDATA[x]]><!-- c -->b</div>").startswith("a")


# --- normalizing ------------------------------------------------------------------------


def test_line_ends_spaces_and_blank_lines_are_normalized():
    body = "\r\n\r\n pass\u00a0Bob  \r\n\r\n\r\n\r\ninspect\u202fCarol\t\rthen\u200b this\n\n"
    assert new_text(body) == "pass Bob\n\ninspect Carol\nthen this"
    assert normalize("a \r\nb\u00a0\rc") == "a\nb\nc"


def test_the_persons_line_breaks_and_indentation_are_kept():
    assert new_text("pass Bob\n\n  inspect Carol\nsay: good luck") == (
        "pass Bob\n\n  inspect Carol\nsay: good luck"
    )


# --- anything at all --------------------------------------------------------------------

LINE_PIECES = st.sampled_from(
    [
        "> ",
        ">",
        "-- ",
        "On 24 Nov 2026, Sheriff wrote:",
        "El 24 nov 2026, Sheriff escribió:",
        "From: S",
        "Sent: T",
        "Enviado desde mi iPhone",
        "— Write your reply above this line —",
        "esta línea —",
        "\u00a0",
        "\r\n",
        "\n",
        "pass Bob",
        "<",
        "@ 18:02:",
    ]
)


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(st.lists(st.one_of(LINE_PIECES, st.text(max_size=30)), max_size=40).map("".join))
@hypothesis.example("> \r\n— Write your reply above this line —")  # the marker under a quote
def test_any_text_gives_a_cleanup_of_its_own_lines(text):
    result = new_text(text)
    assert result == result.strip()
    own_lines = {line.strip() for line in normalize(text).split("\n")}
    assert {line.strip() for line in result.split("\n")} <= own_lines | {""}
    assert new_text(result) == result  # nothing left to cut


@hypothesis.settings(max_examples=200, deadline=None)
@hypothesis.given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [
                    "<div>",
                    "</div>",
                    "<br>",
                    "<blockquote>",
                    "</blockquote>",
                    '<p class="gmail_quote">',
                    "<style>",
                    "</style>",
                    "&nbsp;",
                    "&gt;",
                    "<!--",
                    "-->",
                    "<",
                    ">",
                    "&#",
                    "</p>",
                ]
            ),
            st.text(max_size=20),
        ),
        max_size=40,
    ).map("".join)
)
def test_any_html_gives_text_without_an_error(markup):
    result = new_text("", markup)
    assert new_text(result) == result  # plain text, nothing left to cut


MEGABYTE = 1_000_000


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("> " * (MEGABYTE // 2), None),
        (("> quoted line\n" * (MEGABYTE // 14)), None),
        (("On 1 " + "x" * 390 + "\n") * (MEGABYTE // 396), None),
        (("El 1 " + "@ " * 190 + ":\n") * (MEGABYTE // 386), None),
        ("a\n" * (MEGABYTE // 2), None),
        ("From: x\n" * (MEGABYTE // 8), None),
        ("— Write your reply\n" * (MEGABYTE // 20), None),
        ("x" * MEGABYTE, None),
        ("\u00a0\r" * (MEGABYTE // 2), None),
        ("", "<div> </div>" * (MEGABYTE // 12)),
        ("", "<blockquote>" * (MEGABYTE // 12)),
        ("", "<p>a<br>" * (MEGABYTE // 8)),
        ("", "<" * MEGABYTE),
    ],
    ids=lambda value: repr(value[:12]) if value else "none",
)
def test_a_megabyte_is_read_in_bounded_time(text, html):
    started = time.monotonic()
    new_text(text, html)
    assert time.monotonic() - started < 10
