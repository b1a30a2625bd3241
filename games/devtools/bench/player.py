"""The benchmark's way of playing: the simplest legal move a seat page offers,
read from its forms as a browser would (set nothing aside, load one card and
declare the first good offered, say "no offer", let every bag pass).

``next_step(html)`` is what a client does next on that page: a POST of a move
form, a GET that opens a confirmation (the Sheriff's "Let pass…"), or nothing."""

from dataclasses import dataclass

from games.devtools.form_reader import Form, forms_of


@dataclass(frozen=True)
class Step:
    method: str  # "get" or "post"
    data: dict  # the form's fields as the browser sends them (lists for repeated names)


def next_step(html: str) -> Step | None:
    by_move: dict[str, list[Form]] = {}
    for form in forms_of(html):
        by_move.setdefault(form.move or "", []).append(form)
    if "set_aside" in by_move:
        return _post(by_move["set_aside"][0])
    if "market_turn" in by_move:  # 1st edition: draw from the deck, discard nothing
        form = by_move["market_turn"][0]
        return _post(form, from_pile_0="0", from_pile_1="0", pile=_first(form, "pile"), top="")
    if "load_bag" in by_move:
        form = by_move["load_bag"][0]
        cards = [v for n, v, t, _ in form.fields if n == "cards" and t == "checkbox"][:1]
        declared = next(v for v in form.options.get("declared", []) if v)
        return _post(form, cards=cards, declared=declared)
    if "decline_black_market" in by_move:
        return _post(by_move["decline_black_market"][0])
    if "say_no_offer" in by_move:
        return _post(by_move["say_no_offer"][0])
    confirm = [f for forms in by_move.values() for f in forms if f.value("confirm") == "yes"]
    if confirm:
        return _post(confirm[0])
    passes = [f for f in by_move.get("", []) if f.value("decide") == "pass"]
    if passes:
        return Step("get", _sent(passes[0]))
    return None


def _first(form: Form, name: str) -> str:
    return next((v for n, v, _, _ in form.fields if n == name), "")


def _sent(form: Form) -> dict:
    """What the browser sends of a form as it stands: hidden and preset fields,
    ticked boxes, selected options."""
    data: dict = {}
    for name, value, kind, checked in form.fields:
        if not name or kind == "submit" or (kind in ("checkbox", "radio") and not checked):
            continue
        data.setdefault(name, []).append(value)
    return {n: v[0] if len(v) == 1 else v for n, v in data.items()}


def _post(form: Form, **chosen) -> Step:
    return Step("post", {**_sent(form), **chosen})
