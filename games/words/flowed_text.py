"""Plain text sent as ``format=flowed`` (RFC 3676), joined back into the lines the
person wrote.

Thunderbird, Apple Mail and some phones wrap a long line at about 72 columns and
mark each break they made with a space at the end of the line (a soft break): a
long command or sentence would otherwise reach us cut in pieces. Neither the
standard library's email package nor anymail undoes this, hence this reader.
Pure Python, one pass over the lines: it runs on any text a stranger mails us.
"""

SIGNATURE_SEPARATOR = "-- "


def unflow(text: str, delsp: bool = False) -> str:
    """The text with every soft break joined: a line ending in a space goes on
    with the next line of the same quote depth. ``delsp`` (DelSp=yes) drops that
    space, which the sender added only to mark the break. Space-stuffing is
    removed; a quoted line keeps its depth, written as that many ">" and a space;
    the signature separator "-- " stays a line of its own. Line ends become "\\n"."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    paragraph: list[str] = []  # the pieces of the logical line being joined
    depth = 0
    for line in lines:
        line_depth, content = _quote_depth(line)
        if paragraph and line_depth != depth:
            out.append(_written(depth, paragraph))  # a soft break cannot cross depths
            paragraph = []
        depth = line_depth
        if content.startswith(" "):
            content = content[1:]  # space-stuffing
        if content == SIGNATURE_SEPARATOR or not content.endswith(" "):
            # A fixed line (or the separator, never joined): the paragraph ends here.
            if paragraph and content == SIGNATURE_SEPARATOR:
                out.append(_written(depth, paragraph))
                paragraph = []
            paragraph.append(content)
            out.append(_written(depth, paragraph))
            paragraph = []
        else:
            paragraph.append(content[:-1] if delsp else content)
    if paragraph:  # the text ended on a soft break
        out.append(_written(depth, paragraph))
    return "\n".join(out)


def _quote_depth(line: str) -> tuple[int, str]:
    """How many ">" start the line, and the rest of it."""
    content = line.lstrip(">")
    return len(line) - len(content), content


def _written(depth: int, pieces: list[str]) -> str:
    content = "".join(pieces)
    if not depth:
        return content
    return ">" * depth + (" " + content if content else "")
