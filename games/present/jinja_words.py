"""Words translated once, when a template is compiled, instead of at every render.

A page printed about seventy words through Jinja's newstyle gettext, each a
context call, a catalogue lookup and a Markup; that was a quarter of the page's
rendering (issue "Speed": a page GET within 1.1× of its cost before the
restructure). So each language has its own compiled copy of every template
(games.present.jinja_env: an overlay of the environment per language), in which
a ``_()``, ``gettext()``, ``pgettext()`` or ``{% trans %}`` whose words are
constants is already translated: what it prints is the same as Jinja's own
newstyle function would print (escaped, and %-formatted with its variables,
even when there are none), which tests/present/test_jinja_words.py checks.

Plural forms (``ngettext``, ``{% trans count=... %}``) depend on a number known
only when rendering; they stay calls.
"""

from django.utils import translation
from jinja2 import nodes
from jinja2.visitor import NodeTransformer

# The call's name -> the catalogue lookup it makes, with its constant arguments.
LOOKUPS = {
    "_": translation.gettext,
    "gettext": translation.gettext,
    "pgettext": translation.pgettext,
}


class TranslatedWords(NodeTransformer):
    """Replaces, in a parsed template, each word lookup whose arguments are
    constants by its translation in the active language."""

    def visit_Call(self, node: nodes.Call) -> nodes.Node:
        node = self.generic_visit(node)
        lookup = _lookup(node)
        if lookup is None:
            return node
        words = lookup(*(arg.value for arg in node.args))
        if not node.kwargs:
            try:  # newstyle gettext formats even without variables ("100%%" prints "100%")
                words = words % {}
            except (KeyError, TypeError, ValueError):
                return node  # a catalogue's mistake: left to fail as it would at render
            return nodes.MarkSafeIfAutoescape(nodes.Const(words), lineno=node.lineno)
        # Markup's % escapes each value, as the newstyle function does.
        variables = [nodes.Pair(nodes.Const(kw.key), kw.value) for kw in node.kwargs]
        marked = nodes.MarkSafeIfAutoescape(nodes.Const(words), lineno=node.lineno)
        return nodes.Mod(marked, nodes.Dict(variables), lineno=node.lineno)


def _lookup(node: nodes.Call):
    """The catalogue lookup of a word call whose every argument is a constant string
    (and whose variables are named), else None."""
    if not isinstance(node.node, nodes.Name) or node.node.name not in LOOKUPS:
        return None
    if node.dyn_args is not None or node.dyn_kwargs is not None:
        return None
    if not all(isinstance(arg, nodes.Const) and isinstance(arg.value, str) for arg in node.args):
        return None
    expected = 2 if node.node.name == "pgettext" else 1
    return LOOKUPS[node.node.name] if len(node.args) == expected else None


def translated(template: nodes.Template, language: str) -> nodes.Template:
    with translation.override(language):
        return TranslatedWords().visit(template)
