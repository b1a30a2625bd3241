"""The log's lines for bargaining: offers and demands made, agreed, revised,
withdrawn, refused or lapsed, and deals made."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.words.narration.narrator_base import NarratorBase
from games.words.narration.phrases import listed, nothing, offer_numbers, terms_parts

DEAL_MADE = {
    ("you", "other"): gettext_lazy(
        "Deal! Offer #%(offer)d (revision %(revision)d) was accepted: you pay %(to)s."
    ),
    ("you", "booty"): gettext_lazy(
        "Deal! Offer #%(offer)d (revision %(revision)d) was accepted: you pay the Booty, "
        "binding both Deputies."
    ),
    ("other", "you"): gettext_lazy(
        "Deal! Offer #%(offer)d (revision %(revision)d) was accepted: %(who)s pays you."
    ),
    ("other", "other"): gettext_lazy(
        "Deal! Offer #%(offer)d (revision %(revision)d) was accepted: %(who)s pays %(to)s."
    ),
    ("other", "booty"): gettext_lazy(
        "Deal! Offer #%(offer)d (revision %(revision)d) was accepted: %(who)s pays the Booty, "
        "binding both Deputies."
    ),
}
# The same, when the deal was a demand (the Sheriff's or a Deputy's terms).
DEMAND_DEAL_MADE = {
    ("you", "other"): gettext_lazy(
        "Deal! Demand #%(offer)d (revision %(revision)d) was accepted: you pay %(to)s."
    ),
    ("you", "booty"): gettext_lazy(
        "Deal! Demand #%(offer)d (revision %(revision)d) was accepted: you pay the Booty, "
        "binding both Deputies."
    ),
    ("other", "you"): gettext_lazy(
        "Deal! Demand #%(offer)d (revision %(revision)d) was accepted: %(who)s pays you."
    ),
    ("other", "other"): gettext_lazy(
        "Deal! Demand #%(offer)d (revision %(revision)d) was accepted: %(who)s pays %(to)s."
    ),
    ("other", "booty"): gettext_lazy(
        "Deal! Demand #%(offer)d (revision %(revision)d) was accepted: %(who)s pays the "
        "Booty, binding both Deputies."
    ),
}

# An offer or a demand, by its shape, who made it and whom it names besides
# (Narrator.parties): "who" made it, "to" whom, "terms" what it gives and asks.
OFFER_MADE = {
    # a game with a Sheriff: the terms say what the Sheriff will do
    ("demand", "you"): gettext_lazy("Demand #%(id)d: You demand — %(terms)s."),
    ("demand", "other"): gettext_lazy("Demand #%(id)d: %(who)s demands — %(terms)s."),
    ("offer", "you"): gettext_lazy("Offer #%(id)d: You offer — %(terms)s."),
    ("offer", "other"): gettext_lazy("Offer #%(id)d: %(who)s offers — %(terms)s."),
    # six players: a Deputy's demand from a merchant, a merchant's offer to one or both
    ("demand from", "you", "other"): gettext_lazy(
        "Demand #%(id)d: You demand from %(to)s %(terms)s."
    ),
    ("demand from", "other", "you"): gettext_lazy(
        "Demand #%(id)d: %(who)s demands from you %(terms)s."
    ),
    ("demand from", "other", "other"): gettext_lazy(
        "Demand #%(id)d: %(who)s demands from %(to)s %(terms)s."
    ),
    ("offer to", "you", "other"): gettext_lazy("Offer #%(id)d: You offer %(to)s %(terms)s."),
    ("offer to", "other", "you"): gettext_lazy("Offer #%(id)d: %(who)s offers you %(terms)s."),
    ("offer to", "other", "other"): gettext_lazy("Offer #%(id)d: %(who)s offers %(to)s %(terms)s."),
    ("offer to both", "you"): gettext_lazy("Offer #%(id)d: You offer %(terms)s."),
    ("offer to both", "other"): gettext_lazy("Offer #%(id)d: %(who)s offers %(terms)s."),
}


class DealLines(NarratorBase):
    """Offers, demands and deals: one ``_<event type>`` method per event."""

    def _offer_text(self, terms: dict) -> str:
        """What an offer gives and asks: '5 gold if the Sheriff will let your bag pass'."""
        parts = terms_parts(terms, self.names, self.viewer)
        if self.deputies:  # who is bound is said in the offer, not in its terms
            return self._deal_terms(parts, both=False)
        gives = parts["gives"]
        if parts["promise"]:
            gives = [*gives, _("a promise: “%(promise)s”") % {"promise": parts["promise"]}]
        text = _("%(gives)s if the Sheriff will %(does)s")
        return text % {"gives": " + ".join(gives) or nothing(), "does": listed(parts["does"])}

    def _deal_terms(self, parts: dict, *, both: bool) -> str:
        """Six players: '5 gold[, paid to the Booty, for both Deputies] to let Ann's bag
        pass[, with a promise: “…”]'; ``both``: the offer binds both Deputies."""
        values = {"gives": " + ".join(parts["gives"]), "does": listed(parts["does"])}
        if not both:
            values["gives"] = values["gives"] or nothing()
            text = _("%(gives)s to %(does)s") % values
        elif parts["gives"]:
            text = _("%(gives)s, paid to the Booty, for both Deputies to %(does)s") % values
        else:
            text = _("nothing for both Deputies to %(does)s") % values
        if not parts["promise"]:
            return text
        return _("%(terms)s, with a promise: “%(promise)s”") % {
            "terms": text,
            "promise": parts["promise"],
        }

    def _offer_made(self, e):
        o = e["offer"]
        demand = o["proposer"] != o["payer"]
        other = None  # whom the sentence names besides the proposer
        if "deputies" not in o:
            shape, terms = ("demand" if demand else "offer"), self._offer_text(o["terms"])
        else:
            parts = terms_parts(o["terms"], self.names, self.viewer, deputies=o["deputies"])
            terms = self._deal_terms(parts, both=len(o["deputies"]) > 1)
            if demand:  # a Deputy's demand
                shape, other = "demand from", o["payer"]
            elif len(o["deputies"]) == 1:  # a merchant's offer to one Deputy
                shape, other = "offer to", o["deputies"][0]
            else:
                shape = "offer to both"
        who, whom = self.parties(o["proposer"], other)
        text = OFFER_MADE[(shape, who) if other is None else (shape, who, whom)]
        return str(text) % {"id": o["id"], "terms": terms, **self.party_names(o["proposer"], other)}

    def _offer_agreed(self, e):
        return self.by(
            e["seat"],
            _(
                "You agree to offer #%(offer)d (revision %(revision)d): one more acceptance "
                "makes it a deal."
            ),
            _(
                "%(who)s agrees to offer #%(offer)d (revision %(revision)d): one more acceptance "
                "makes it a deal."
            ),
            offer=e["offer"],
            revision=e["revision"],
        )

    def _offer_revised(self, e):
        if e.get("demand"):
            text = _("Demand #%(offer)d revised (revision %(revision)d): %(terms)s.")
        else:
            text = _("Offer #%(offer)d revised (revision %(revision)d): %(terms)s.")
        return text % {
            "offer": e["offer"],
            "revision": e["revision"],
            "terms": self._offer_text(e["terms"]),
        }

    def _offer_withdrawn(self, e):
        n = len(e["offers"])
        if e.get("demand"):
            text = ngettext("Demand %(offers)s withdrawn.", "Demands %(offers)s withdrawn.", n)
        else:
            text = ngettext("Offer %(offers)s withdrawn.", "Offer %(offers)s withdrawn.", n)
        return text % {"offers": offer_numbers(e["offers"])}

    def _offer_refused(self, e):
        [number] = e["offers"]
        if e.get("demand"):
            forms = (_("You refuse demand #%(offer)d."), _("%(who)s refuses demand #%(offer)d."))
        else:
            forms = (_("You refuse offer #%(offer)d."), _("%(who)s refuses offer #%(offer)d."))
        return self.by(e["seat"], *forms, offer=number)

    def _offers_lapsed(self, e):
        demands = e.get("demands", [])
        offers = [o for o in e["offers"] if o not in demands]
        told = []
        if offers:
            n = len(offers)
            text = ngettext("Offer %(offers)s lapsed.", "Offer %(offers)s lapsed.", n)
            told.append(text % {"offers": offer_numbers(offers)})
        if demands:
            n = len(demands)
            text = ngettext("Demand %(offers)s lapsed.", "Demands %(offers)s lapsed.", n)
            told.append(text % {"offers": offer_numbers(demands)})
        return " ".join(told)

    def _no_offer_said(self, e):
        return self.by(
            e["seat"], _("You have no offer to make."), _("%(who)s has no offer to make.")
        )

    def _bargaining_ended(self, e):
        if self.deputies:
            return _("Bargaining time is over: the Deputies may now call every bag.")
        return _("Bargaining time is over: the Sheriff may now decide every bag.")

    def _deal_made(self, e):
        values = {"offer": e["offer"], "revision": e["revision"]}
        if "payee" not in e and e.get("demand"):
            return _("Deal! Demand #%(offer)d (revision %(revision)d) was accepted.") % values
        if "payee" not in e:
            return _("Deal! Offer #%(offer)d (revision %(revision)d) was accepted.") % values
        lines = DEMAND_DEAL_MADE if e.get("demand") else DEAL_MADE
        text = lines[self.parties(e["payer"], e["payee"])]
        return str(text) % {**values, **self.party_names(e["payer"], e["payee"])}
