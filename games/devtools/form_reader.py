"""A page's forms, read as a browser reads them: the page tests play through
them, and so does the load benchmark (games.devtools.bench) over HTTP."""

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Form:
    fields: list = field(default_factory=list)  # (name, value, type, checked)
    options: dict = field(default_factory=dict)  # select name -> [option values]
    method: str = "get"
    action: str = ""  # "" posts back to the page's own address

    def value(self, name: str):
        return next((v for n, v, _, _ in self.fields if n == name), None)

    def ticked(self, name: str) -> list:
        """Values of the checked boxes or radios called ``name``."""
        return [v for n, v, _, checked in self.fields if n == name and checked]

    @property
    def move(self) -> str:
        return self.value("move")

    def values(self, name: str) -> list:
        return [v for n, v, _, _ in self.fields if n == name]

    def hidden(self) -> dict:
        return {n: v for n, v, t, _ in self.fields if t == "hidden"}


class FormReader(HTMLParser):
    """Every <form> of a page with its inputs, textareas' text, and selects' options
    (a select's value is its selected option, "" when none is)."""

    def __init__(self):
        super().__init__()
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None
        self.textarea: int | None = None  # index of the textarea being read

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.current = Form(
                method=(a.get("method") or "get").lower(), action=a.get("action") or ""
            )
            self.forms.append(self.current)
        elif self.current is None:
            return
        elif tag in ("input", "textarea"):
            kind = a.get("type", "text") if tag == "input" else "textarea"
            self.current.fields.append((a.get("name"), a.get("value", ""), kind, "checked" in a))
            if tag == "textarea":
                self.textarea = len(self.current.fields) - 1
        elif tag == "select":
            self.select = a.get("name")
            self.current.fields.append((self.select, "", "select", False))
            self.current.options[self.select] = []
        elif tag == "option" and self.select:
            self.current.options[self.select].append(a.get("value", ""))
            if "selected" in a:
                self.current.fields[-1] = (self.select, a.get("value", ""), "select", True)

    def handle_data(self, data):
        if self.current is not None and self.textarea is not None:
            name, text, kind, checked = self.current.fields[self.textarea]
            self.current.fields[self.textarea] = (name, text + data, kind, checked)

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None


def forms_of(html: str) -> list[Form]:
    reader = FormReader()
    reader.feed(html)
    return reader.forms
