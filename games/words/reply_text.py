"""The new text of an emailed reply, cut from the email it quotes.

Our emails carry a marker line at their top ("Write your reply above this line",
after the email's first words in its text part), so a reply is cut there first,
with the quote header the person's client wrote just above it. Without the marker
(deleted, or a client that quotes nothing of ours), the reply is cut at the first
quote header of Gmail, Outlook, Apple Mail or Thunderbird, in English or Spanish,
or at a signature. The common libraries
for this (talon, email-reply-parser, mail-parser-reply) miss most Spanish headers
("escribió:", "De: … Enviado:") and read no HTML or a little, hence this small
reader. tests/words/reply_corpus holds the replies it must read; its report
(tests/words/reply_corpus_report.py) gives the pass rates, the libraries' too.

Pure Python on purpose: it runs on any bytes a stranger mails us, so every pattern
is anchored to one line (or two, for a wrapped header) and the work is linear.
"""

import re
from html.parser import HTMLParser

from games.words.user_text import folded

# The marker line, in each language our emails are written in. The emails decorate
# it ("——— … ———"); any decoration, case, quoting or wrapping still matches.
REPLY_MARKERS = {
    "en": "Write your reply above this line",
    "es": "Escribe tu respuesta encima de esta línea",
}

# Header lines longer than this are not headers (and keep the regexes cheap).
_MAX_HEADER = 400
# An attribution line: "On <date>, <someone> wrote:" / "El <date>, <someone> escribió:".
_ATTRIBUTIONS = (("on ", ("wrote:", "wrote :")), ("el ", ("escribió:", "escribio:", "escribió :")))
# Any other language's attribution, recognised only right above our marker: a line
# ending in ":" that names an address or a time ("Le 24 nov. à 18:02, X a écrit :").
_ADDRESS_OR_TIME = re.compile(r"@|\d:\d\d")
# Outlook quotes no line with ">"; it writes a block of fields instead.
_FROM_FIELD = re.compile(r"^(?:from|de)\s?:\s", re.IGNORECASE)
_DATE_FIELD = re.compile(r"^(?:sent|date|enviado(?: el)?|fecha)\s?:\s", re.IGNORECASE)
_SEPARATOR_WORDS = frozenset(
    {"original message", "mensaje original", "forwarded message", "mensaje reenviado"}
)
# What phones and Outlook add under the text: the rest is not the person's.
_DEVICE_SIGNATURE = re.compile(
    r"^(?:sent from|sent with|enviado desde|enviado con|get outlook for|obtener outlook para)\s",
    re.IGNORECASE,
)
_QUOTE_PREFIX = re.compile(r"^(?:\s*>)+\s?")
_DECORATION = "-—–_=#*~·• \t"
# Spaces that clients put for plain ones (no-break, narrow no-break in Apple's
# "6:02 PM", figure, thin), and invisible characters that only get in the way.
_SPACES = str.maketrans(
    {"\u00a0": " ", "\u202f": " ", "\u2007": " ", "\u2009": " ", "\u200b": None, "\ufeff": None}
)


def new_text(text: str, html: str | None = None) -> str:
    """The text a person wrote in a reply: the plain-text part if it has any,
    else the HTML part made text; without the quoted email, the client's quote
    header and signature. Line breaks are kept; the result is stripped.
    Written above the quote as most clients have it, or else under and among
    the quoted lines, as old hands of play-by-email do."""
    if not (text or "").strip() and html:
        text = html_to_text(html)
    lines = normalize(text or "").split("\n")
    return _tidy(_above_the_quote(lines)) or _tidy(_below_the_quote(lines))


def _above_the_quote(lines: list[str]) -> list[str]:
    lines = lines[: _cut_at_marker(lines)]
    return lines[: _first_quote_or_signature(lines)]


def _below_the_quote(lines: list[str]) -> list[str]:
    """The person's lines among and under the ">" quoted ones, up to a signature.
    Not for Outlook, which quotes without ">": under its header is our email."""
    start = next((index for index, line in enumerate(lines) if _is_quoted(line)), len(lines))
    if any(_is_outlook_block(lines, index) for index in range(len(lines))):
        return []
    own = [line for line in lines[start:] if not _is_quoted(line)]
    own = own[: _cut_at_marker(own)]  # our own marker, left unquoted by the client
    return own[: _first_quote_or_signature(own)]


def _tidy(lines: list[str]) -> str:
    kept = [line for line in lines if not _is_quoted(line)]
    while kept and not kept[-1].strip(_DECORATION):
        kept.pop()  # blank lines, Outlook's "____" rule above its header
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


def normalize(text: str) -> str:
    """Plain line ends and spaces, no trailing whitespace on any line."""
    return "\n".join(line.rstrip() for line in text.translate(_SPACES).splitlines())


def _unquoted(line: str) -> str:
    return _QUOTE_PREFIX.sub("", line, count=1).strip()


def _is_quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _marker_key(text: str) -> str:
    """Letters and single spaces, lower case, without accents or decoration."""
    return " ".join(folded(text).strip(_DECORATION).split())


_MARKER_KEYS = frozenset(_marker_key(marker) for marker in REPLY_MARKERS.values())
_MARKER_WORDS = re.compile(r"reply|respuesta", re.IGNORECASE)


def _cut_at_marker(lines: list[str]) -> int:
    """Where the reply ends if it quotes our marker: at the quote header just
    above the marker, or at the marker itself; else at its end."""
    # A wrapped marker breaks between words, so one of its lines holds a key word:
    # looking for those first keeps a long reply fast.
    named = [len(line) <= _MAX_HEADER and _MARKER_WORDS.search(line) for line in lines]
    for index, line in enumerate(lines):
        if not (named[index] or (index + 1 < len(lines) and named[index + 1])):
            continue
        here = _unquoted(line)
        if index + 1 < len(lines) and len(lines[index + 1]) <= _MAX_HEADER:
            wrapped = here + " " + _unquoted(lines[index + 1])
        else:
            wrapped = here
        if _is_marker(here, wrapped):
            return _header_above(lines, index)
    return len(lines)


def _is_marker(here: str, wrapped: str) -> bool:
    """Does our marker start on the line ``here`` (``wrapped``: with the next line)?
    The marker alone, or after our email's first words and a dash on that line: the
    text part opens with what the email asks, which a mail app shows as the preview,
    then the marker ("Your move: … — Write your reply above this line —")."""
    if _marker_key(here) in _MARKER_KEYS or _marker_key(wrapped) in _MARKER_KEYS:
        return True
    for text in (here, wrapped):
        body = text.rstrip(_DECORATION)
        dash = body.rfind("—")
        if 0 <= dash < len(here) and _marker_key(body[dash + 1 :]) in _MARKER_KEYS:
            return True
    return False


def _header_above(lines: list[str], marker: int) -> int:
    """The first line of the client's quote header right above our marker (one
    or two lines, in any language), or the marker's own line if there is none."""
    end = marker
    while end > 0 and not _unquoted(lines[end - 1]):
        end -= 1  # blank lines and bare ">" between header and marker
    for start in (end - 2, end - 1):
        header = [_unquoted(line) for line in lines[max(start, 0) : end]]
        if start >= 0 and all(header) and _is_attribution(" ".join(header)):
            return start
    last = _unquoted(lines[end - 1]) if end > 0 else ""
    if last.endswith(":") and _ADDRESS_OR_TIME.search(last):
        # Another language's header; Gmail wraps a long one inside the address: "<".
        return end - 2 if end >= 2 and _unquoted(lines[end - 2]).endswith("<") else end - 1
    return marker


def _is_attribution(text: str) -> bool:
    """ "On …, … wrote:" or "El …, … escribió:", with a digit (the date), so that
    "On Tuesday Bob wrote:" typed by a person stays."""
    if len(text) > _MAX_HEADER:
        return False
    lowered = text.casefold()
    return any(
        lowered.startswith(start) and lowered.endswith(ends) for start, ends in _ATTRIBUTIONS
    ) and any(c.isdigit() for c in lowered)


def _first_quote_or_signature(lines: list[str]) -> int:
    """The first line that starts a quote header, an Outlook field block, an
    "Original Message" rule or a signature; the end if there is none."""
    for index, line in enumerate(lines):
        here = _unquoted(line)
        if not here or len(here) > _MAX_HEADER:
            continue
        if here == "--" or _DEVICE_SIGNATURE.match(here) or _is_separator(here):
            return index
        if _is_attribution(here) or _is_outlook_block(lines, index):
            return index
        if index + 1 < len(lines) and _is_attribution(here + " " + _unquoted(lines[index + 1])):
            return index  # a header the client wrapped over two lines
    return len(lines)


def _is_separator(text: str) -> bool:
    return text.startswith("--") and text.strip("- ").casefold() in _SEPARATOR_WORDS


def _is_outlook_block(lines: list[str], index: int) -> bool:
    """ "From: …" followed within three lines by "Sent: …" or "Date: …" (a plain
    part made from HTML can have them bold: "*From:*")."""
    if not _FROM_FIELD.match(lines[index].replace("*", "")):
        return False
    return any(_DATE_FIELD.match(line.replace("*", "")) for line in lines[index + 1 : index + 4])


# --- HTML ----------------------------------------------------------------------------

# Elements that start a line of their own.
_BLOCKS = frozenset(
    {"p", "div", "li", "tr", "table", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "pre"}
)
# Elements whose content is never text.
_HIDDEN = frozenset({"head", "style", "script", "title", "template"})
# Where clients start the quoted email: everything from there on is dropped.
# Gmail's gmail_quote, Outlook's divRplyFwdMsg (and the "appendonsend" mark and
# the new Outlook's container before it), Thunderbird's moz-cite-prefix, Yahoo's.
_QUOTE_STARTS = frozenset(
    {
        "gmail_quote",
        "divrplyfwdmsg",
        "appendonsend",
        "mail-editor-reference-message-container",
        "moz-cite-prefix",
        "yahoo_quoted",
    }
)


class _TextOfHtml(HTMLParser):
    """The visible text of an HTML part, blocks on lines of their own, without
    the quoted email (blockquotes, and everything after a client's quote start)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: str | None = None  # the tag whose content is being dropped
        self.depth = 0
        self.done = False
        self.line_has_text = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done:
            return
        if self.skipping:
            if tag == self.skipping:
                self.depth += 1
            return
        names = " ".join(f"{value or ''}" for key, value in attrs if key in ("class", "id"))
        if _QUOTE_STARTS.intersection(names.casefold().split()):
            self.done = True
        elif tag == "blockquote" or tag in _HIDDEN:
            self.skipping, self.depth = tag, 1
        elif tag == "br":
            self._add("\n")
        elif tag in _BLOCKS:
            self._line_break()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)  # "<br/>": nothing to close

    def handle_endtag(self, tag: str) -> None:
        if self.done:
            return
        if self.skipping:
            if tag == self.skipping:
                self.depth -= 1
                if self.depth == 0:
                    self.skipping = None
            return
        if tag in _BLOCKS:
            self._line_break()

    def handle_data(self, data: str) -> None:
        if not (self.done or self.skipping):
            # HTML's own whitespace is one space; a no-break space stays until normalize.
            self._add(re.sub(r"[ \t\r\n\f]+", " ", data))

    def _line_break(self) -> None:
        """A new line, unless the line is still empty: nested blocks make one break."""
        if self.line_has_text:
            self._add("\n")

    def _add(self, text: str) -> None:
        self.parts.append(text)
        if text == "\n":
            self.line_has_text = False
        elif text.strip(" "):
            self.line_has_text = True


def html_to_text(markup: str) -> str:
    """The visible text of an HTML body, without the quoted email it replies to."""
    parser = _TextOfHtml()
    try:
        parser.feed(markup)
        parser.close()
    except (AssertionError, ValueError):  # HTMLParser gives up on some broken markup
        pass
    lines = "".join(parser.parts).split("\n")
    return "\n".join(line.strip(" ") for line in lines).strip()
