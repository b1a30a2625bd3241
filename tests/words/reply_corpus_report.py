"""The reply corpus (tests/words/reply_corpus/): reading its cases, and its pass
rate per client and language, for games.words.reply_text or a library to compare:

    .venv/bin/python -m tests.words.reply_corpus_report
    python -m tests.words.reply_corpus_report --reader talon   # where talon is installed

A case file has a header of "key: value" lines (client, language, format: text or
html, optionally line-ends: crlf and a note), then "--- body ---" and "--- expected ---"
sections. Stdlib only, so a throwaway environment with a library can run it.
"""

import argparse
import collections
import dataclasses
import pathlib
import re
import sys
from collections.abc import Callable

CORPUS = pathlib.Path(__file__).with_name("reply_corpus")
BODY, EXPECTED = "--- body ---\n", "--- expected ---\n"


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    client: str
    language: str
    format: str  # "text" or "html"
    body: str
    expected: str
    note: str = ""


def read_case(path: pathlib.Path) -> Case:
    raw = path.read_text(encoding="utf-8")
    head, rest = raw.split(BODY, 1)
    body, expected = rest.split(EXPECTED, 1)
    fields = dict(line.split(": ", 1) for line in head.splitlines() if line)
    body = body.removesuffix("\n")
    if fields.get("line-ends") == "crlf":
        body = body.replace("\n", "\r\n")
    return Case(
        name=path.stem,
        client=fields["client"],
        language=fields["language"],
        format=fields["format"],
        body=body,
        expected=expected.removesuffix("\n"),
        note=fields.get("note", ""),
    )


def cases(folder: pathlib.Path = CORPUS) -> list[Case]:
    return [read_case(path) for path in sorted(folder.glob("*.txt"))]


def tidy(text: str) -> str:
    """A reader's output compared the way ours is made: trailing spaces, runs of
    blank lines and the ends do not count."""
    lines = "\n".join(line.rstrip() for line in text.replace("\u00a0", " ").splitlines())
    return re.sub(r"\n{3,}", "\n\n", lines).strip()


# --- the readers compared: (text, html) -> new text --------------------------------------


def _ours(text: str, html: str | None) -> str:
    from games.words.reply_text import new_text

    return new_text(text, html)


def _email_reply_parser(text: str, html: str | None) -> str:
    from email_reply_parser import EmailReplyParser  # no HTML reader: given the HTML as is

    return EmailReplyParser.parse_reply(text or html or "")


def _mail_parser_reply(text: str, html: str | None) -> str:
    from mailparser_reply import EmailReplyParser  # no HTML reader: given the HTML as is

    return EmailReplyParser(languages=["en", "es"]).parse_reply(text=text or html or "")


def _talon(text: str, html: str | None) -> str:
    import talon
    from talon import quotations

    talon.init()
    if text:
        return quotations.extract_from_plain(text)
    from html2text import html2text

    return html2text(quotations.extract_from_html(html or ""))


READERS: dict[str, Callable[[str, str | None], str]] = {
    "ours": _ours,
    "email-reply-parser": _email_reply_parser,
    "mail-parser-reply": _mail_parser_reply,
    "talon": _talon,
}


def run(case: Case, reader: Callable[[str, str | None], str]) -> str:
    text, html = ("", case.body) if case.format == "html" else (case.body, None)
    return reader(text, html)


def loose(text: str) -> list[str]:
    """The non-blank lines: html2text, which talon's HTML needs, spaces paragraphs."""
    return [line for line in tidy(text).splitlines() if line]


def report(
    reader_name: str = "ours", folder: pathlib.Path = CORPUS, blank_lines: bool = True
) -> str:
    """One line per client and per language: passed/total, and the failures."""
    reader = READERS[reader_name]
    same = (lambda a, b: tidy(a) == b) if blank_lines else (lambda a, b: loose(a) == loose(b))
    tables: dict[str, dict[str, list[int]]] = {
        title: collections.defaultdict(lambda: [0, 0])
        for title in ("client and language", "format", "language")
    }
    failures = []
    for case in cases(folder):
        try:
            passed = same(run(case, reader), case.expected)
        except Exception:  # a library that crashes fails the case
            passed = False
        for title, key in (
            ("client and language", f"{case.client} {case.language}"),
            ("format", case.format),
            ("language", case.language),
        ):
            tables[title][key][0] += passed
            tables[title][key][1] += 1
        if not passed:
            failures.append(case.name)
    passed, total = (sum(column) for column in zip(*tables["format"].values(), strict=True))
    rule = "" if blank_lines else " (blank lines ignored)"
    lines = [f"{reader_name}: {passed}/{total} cases{rule}"]
    for title, table in tables.items():
        lines.append(f"  by {title}:")
        lines += [f"    {key:<20} {n:>3}/{t:<3}" for key, (n, t) in sorted(table.items())]
    if failures:
        lines.append("  failed: " + ", ".join(failures))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reader", choices=sorted(READERS), default="ours")
    parser.add_argument("--corpus", type=pathlib.Path, default=CORPUS)
    parser.add_argument("--ignore-blank-lines", action="store_true")
    options = parser.parse_args(argv)
    print(report(options.reader, options.corpus, blank_lines=not options.ignore_blank_lines))


if __name__ == "__main__":
    sys.exit(main())
