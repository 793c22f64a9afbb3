"""Translatable names of the game's things: contracts, suits, ranks, roles, outcome parts.

Module-level, so every string is a ``lazy_gettext`` proxy, translated when it is shown.
The engine speaks in ids (``no-king-of-hearts``, ``spades``, ``"J"``); these are the words
a person reads.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

#: Full contract names (barbu-rules.md, "The contracts").
CONTRACTS = {
    "no-tricks": _l("No Tricks"),
    "no-queens": _l("No Queens"),
    "no-last-two": _l("No Last Two"),
    "no-hearts": _l("No Hearts"),
    "no-king-of-hearts": _l("No King of Hearts (Barbu)"),
    "trumps": _l("Trumps"),
    "domino": _l("Domino"),
    "ravage-city": _l("Ravage City"),
    "salade": _l("Salade"),
}

#: Short contract names for the narrow first column of the score table.
CONTRACTS_SHORT = {
    "no-tricks": _l("Tricks"),
    "no-queens": _l("Queens"),
    "no-last-two": _l("Last two"),
    "no-hearts": _l("Hearts"),
    "no-king-of-hearts": _l("Barbu"),
    "trumps": _l("Trumps"),
    "domino": _l("Domino"),
    "ravage-city": _l("Ravage"),
    "salade": _l("Salade"),
}

SUIT_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}

SUITS = {
    "spades": _l("Spades"),
    "hearts": _l("Hearts"),
    "diamonds": _l("Diamonds"),
    "clubs": _l("Clubs"),
}

#: Rank names for screen readers and the round page; the chips show the short rank.
RANKS = {
    "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "10": "10",
    "J": _l("Jack"),
    "Q": _l("Queen"),
    "K": _l("King"),
    "A": _l("Ace"),
}

ROLES = {
    "declarer": _l("declares"),
    "dealer": _l("deals"),
    "cutter": _l("cuts"),
    "leader": _l("leads"),
}

#: Places in the domino finishing order, first out first.
PLACES = (_l("1st out"), _l("2nd out"), _l("3rd out"), _l("4th out"))

#: The outcome parts of a round, as the scorer's form and the round page name them.
OUTCOME_PARTS = {
    "tricks": _l("Tricks"),
    "queens": _l("Queens"),
    "hearts": _l("Hearts"),
    "ace": _l("Ace of hearts ♥A"),
    "king": _l("King of hearts ♥K"),
    "penultimate": _l("12th trick (second to last)"),
    "last": _l("Last trick"),
    "order": _l("Finishing order"),
    "most": _l("Most cards of one suit"),
}

#: Questions for the "who took it" groups of the round form.
WHO_TOOK = {
    "ace": _l("Who took the ace of hearts (♥A)?"),
    "king": _l("Who took the king of hearts (♥K)?"),
    "penultimate": _l("Who took the second-to-last trick?"),
    "last": _l("Who took the last trick?"),
}

#: Built-in preset names (the engine's names are English).
PRESETS = {
    "tournament": _l("Tournament Barbu"),
}


def contract_name(contract_id: str) -> str:
    """The full name of a contract, or its id for one this module does not know."""
    return CONTRACTS.get(contract_id, contract_id)


def preset_name(preset) -> str:
    """A preset's name in the reader's language when it is a built-in one."""
    return PRESETS.get(preset.id, preset.name)
