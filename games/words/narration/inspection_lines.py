"""The log's lines for the inspection: bags let pass or opened, a Deputy's
calls, a bag shown as proof (honor among thieves), the Booty shared."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.words.narration.narrator_base import NarratorBase
from games.words.narration.phrases import (
    cards_each,
    counted,
    gold_each,
    goods,
    listed,
    offer_numbers,
    pile_name,
)

# Sentences with one player as the subject, each as (the reader, another player).
DEPUTY_DECIDED = {  # by whether a deal made the call
    True: (
        gettext_lazy("You call %(bag)s: %(decision)s (deal #%(deal)d)."),
        gettext_lazy("%(who)s calls %(bag)s: %(decision)s (deal #%(deal)d)."),
    ),
    False: (
        gettext_lazy("You call %(bag)s: %(decision)s."),
        gettext_lazy("%(who)s calls %(bag)s: %(decision)s."),
    ),
}
CALLS = {  # a Deputy's call on a bag, after "calls Ann's bag:"
    "inspect": pgettext_lazy("a Deputy's call on a bag", "inspect"),
    "let pass": pgettext_lazy("a Deputy's call on a bag", "let pass"),
}

# Honor among thieves: a bag shown as proof, told to its merchant (True) and to the
# rest of the table (False), who do not read its cards.
BAG_SHOWN_TO_THE_SHERIFF = {
    True: gettext_lazy(
        "You show the Sheriff the cards of your bag, proof that the goods you promised in "
        "deal %(deals)s are not there: %(cards)s."
    ),
    False: gettext_lazy(
        "%(who)s shows the Sheriff the cards of their bag, proof that the goods promised in "
        "deal %(deals)s are not there."
    ),
}
BAG_SHOWN_TO_DEPUTIES = {
    True: gettext_lazy(
        "You show %(whom)s the cards of your bag, proof that the goods you promised in "
        "deal %(deals)s are not there: %(cards)s."
    ),
    False: gettext_lazy(
        "%(who)s shows %(whom)s the cards of their bag, proof that the goods promised in "
        "deal %(deals)s are not there."
    ),
}


class InspectionLines(NarratorBase):
    """The Sheriff's or the Deputies' decisions and what they show."""

    def _deputy_decided(self, e):
        call = "inspect" if e["decision"] == "inspect" else "let pass"
        return self.by(
            e["deputy"],
            *DEPUTY_DECIDED[bool(e["deal"])],
            bag=self.bag(e["bag"]),
            decision=str(CALLS[call]),
            deal=e["deal"],
        )

    def _bag_passed(self, e):
        values = {"bag": self.bag(e["seat"]), "deal": e["deal"]}
        if self.deputies:
            if e["deal"]:
                return _("The Deputies let %(bag)s pass (deal #%(deal)d).") % values
            return _("The Deputies let %(bag)s pass.") % values
        if e["deal"]:
            return _("The Sheriff lets %(bag)s pass (deal #%(deal)d).") % values
        return _("The Sheriff lets %(bag)s pass.") % values

    def _bag_inspected(self, e):
        found = goods(e["contents"]) or _("nothing")
        if e["honest"]:
            verdict = self.by(
                e["seat"],
                _("you were honest (%(found)s)"),
                _("%(who)s was honest (%(found)s)"),
                found=found,
            )
        else:
            verdict = self.by(
                e["seat"],
                _("you were lying (declared %(declared)s, carried %(found)s)"),
                _("%(who)s was lying (declared %(declared)s, carried %(found)s)"),
                found=found,
                declared=counted(len(e["contents"]), e["declared"]),
            )
        return f"{self.inspection(e)}: {verdict}."

    def _bag_goods_shown(self, e):
        """Honor among thieves: a merchant short of promised bag goods shows their bag
        to whoever was promised them; only those (and the merchant) read its cards."""
        values = {"deals": offer_numbers(e["deals"]), "who": self.names[e["payer"]]}
        if "cards" in e:
            values["cards"] = goods([c["type"] for c in e["cards"]])
        if self.viewer in e["to"]:
            text = _(
                "%(who)s shows you the cards of their bag, proof that the goods promised in "
                "deal %(deals)s are not there: %(cards)s."
            )
            return text % values
        mine = e["payer"] == self.viewer
        if not self.deputies:
            return str(BAG_SHOWN_TO_THE_SHERIFF[mine]) % values
        whom = listed([self.names[s] for s in e["to"]])
        return str(BAG_SHOWN_TO_DEPUTIES[mine]) % {**values, "whom": whom}

    def inspection(self, e) -> str:
        """'The Sheriff inspects Ann's bag'; six players: 'Ann inspects your bag alone',
        'Ann and you inspect Cid's bag together'."""
        bag = self.bag(e["seat"])
        if "by" not in e:
            return _("The Sheriff inspects %(bag)s") % {"bag": bag}
        return self.forms(
            e["by"],
            {
                "you": _("You inspect %(bag)s alone"),
                "one": _("%(who)s inspects %(bag)s alone"),
                "several": _("%(who)s inspect %(bag)s together"),
                "several_with_you": pgettext(
                    "several players, you among them", "%(who)s inspect %(bag)s together"
                ),
            },
            bag=bag,
        )

    def _booty_shared(self, e):
        n = len(e["goods"][0])
        coin = _("the odd coin leaves the game") if e["gold_out"] else ""
        card = _("the odd card goes onto %(pile)s") % {"pile": pile_name(0, self.piles)}
        shares = [
            listed([part for part in (gold_each(e["gold"]) if e["gold"] else "", coin) if part]),
            listed(
                [
                    part
                    for part in (cards_each(n) if n else "", card if e["discarded"] else "")
                    if part
                ]
            ),
        ]
        values = {"who": self.subjects(e["deputies"]), "shares": "; ".join(s for s in shares if s)}
        if self.viewer in e["deputies"]:
            text = pgettext(
                "several players, you among them", "%(who)s share the Booty: %(shares)s."
            )
            return text % values
        return _("%(who)s share the Booty: %(shares)s.") % values
