"""format=flowed text (RFC 3676) joined back into the lines the person wrote: soft
breaks (a line ending in a space) joined, with DelSp=yes without that space; the
space-stuffing removed; quoted lines joined only within the same quote depth; the
signature separator "-- " never joined; any text read without an error."""

import hypothesis
import pytest
from hypothesis import strategies as st

from games.words.flowed_text import unflow

# A talk line Thunderbird wraps at 72 columns, as it sends it (DelSp=no).
THUNDERBIRD = (
    "Carol, I will pay you 3 gold to let my bag through and I promise you \n"
    "a cheese from my stand next round if you do.\n"
)


def test_a_soft_break_joins_the_next_line_keeping_its_space():
    assert unflow(THUNDERBIRD) == (
        "Carol, I will pay you 3 gold to let my bag through and I promise you "
        "a cheese from my stand next round if you do.\n"
    )
    assert unflow("load 1 2 3 \ndeclare 3 \napples") == "load 1 2 3 declare 3 apples"


def test_fixed_lines_stay_as_they_are():
    text = "keep\nthanks, Ann\n\nOn Mon, 23 Nov 2026 at 18:00, Sheriff wrote:\n> Your move"
    assert unflow(text) == text


def test_delsp_drops_the_space_that_only_marked_the_break():
    assert unflow("set aside 1 \n2", delsp=True) == "set aside 12"
    assert unflow("Nottingh \nam", delsp=True) == "Nottingham"
    assert unflow("Nottingh \nam", delsp=False) == "Nottingh am"
    assert unflow("two  \nspaces", delsp=True) == "two spaces"  # only the last one


def test_space_stuffing_is_removed_once():
    assert unflow(" From the Sheriff\n >not a quote\n   three") == (
        "From the Sheriff\n>not a quote\n  three"
    )
    assert unflow("a \n b") == "a b"  # a stuffed continuation


def test_quoted_lines_join_within_their_depth_only():
    text = "keep\n> Ann, it is your \n> turn.\n>> an older \n>> quote\n> back to one \nnew text\n"
    assert unflow(text) == (
        "keep\n"
        "> Ann, it is your turn.\n"
        ">> an older quote\n"
        "> back to one \n"  # a soft break cannot cross depths: the line stays fixed
        "new text\n"
    )
    assert unflow(">a \n>b") == "> a b"  # the depth is written with a space after it
    assert unflow(">\n>>") == ">\n>>"


def test_a_line_flowing_into_a_quote_is_not_joined_with_it():
    assert unflow("see you \n> quoted") == "see you \n> quoted"


def test_the_signature_separator_is_never_joined():
    assert unflow("Thanks \n-- \nAnn \nof Sherwood") == "Thanks \n-- \nAnn of Sherwood"
    assert unflow("-- \nAnn", delsp=True) == "-- \nAnn"
    assert unflow("> -- \n> Ann") == "> -- \n> Ann"
    assert unflow(" -- \nAnn") == "-- \nAnn"  # stuffed: still the separator


def test_line_ends_and_the_edges():
    assert unflow("a \r\nb\r\nc \rd") == "a b\nc d"
    assert unflow("") == ""
    assert unflow("ends on a soft break ") == "ends on a soft break "
    assert unflow("\n\n") == "\n\n"


# --- properties ------------------------------------------------------------------------

# Lines as a person writes them: no line end, no trailing space; may start with
# anything, a space or a ">" included (the sender stuffs those).
LINES = st.lists(
    st.text(
        alphabet=st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)),
        max_size=120,
    ).map(lambda line: line.rstrip(" ")),
    max_size=8,
)


def flowed(lines: list, delsp: bool, rnd) -> str:
    """The lines as a sending client writes them: each cut at some spaces (or, with
    DelSp, anywhere) with a soft break, every piece stuffed when it needs it."""
    sent = []
    for line in lines:
        pieces, start = [], 0
        for end in range(1, len(line)):
            if (delsp or line[end - 1] == " ") and rnd.random() < 0.2:
                pieces.append(line[start:end] + (" " if delsp else ""))
                start = end
        pieces.append(line[start:])
        if any(piece == "-- " for piece in pieces):
            pieces = [line]  # a sender never breaks a line into the separator
        sent += [" " + p if p.startswith((" ", ">")) else p for p in pieces]
    return "\n".join(sent)


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(lines=LINES, delsp=st.booleans(), rnd=st.randoms(use_true_random=False))
def test_flowing_then_unflowing_gives_back_the_lines(lines, delsp, rnd):
    assert unflow(flowed(lines, delsp, rnd), delsp=delsp) == "\n".join(lines)


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(text=st.text(max_size=400), delsp=st.booleans())
def test_any_text_is_read_without_an_error(text, delsp):
    result = unflow(text, delsp=delsp)
    assert isinstance(result, str)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    assert result.count("\n") <= len(lines) - 1  # lines are only ever joined
    plain = all(not line.endswith(" ") and not line.startswith((" ", ">")) for line in lines)
    if plain:
        assert result == "\n".join(lines)  # text that is not flowed comes out as it went in


@pytest.mark.parametrize("delsp", [False, True])
def test_a_long_reply_is_read_in_linear_time(delsp):
    text = "word \n" * 50_000 + "end"
    assert unflow(text, delsp=delsp).endswith("word end" if not delsp else "wordend")
