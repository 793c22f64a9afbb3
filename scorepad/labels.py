"""Translatable names of the game's things: contracts, suits, ranks, roles, outcome parts.

Module-level, so every string is a ``lazy_gettext`` proxy, translated when it is shown.
The engine speaks in ids (``no-king-of-hearts``, ``spades``, ``"J"``); these are the words
a person reads.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext

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

#: Short contract names for the narrow first column of the score table (a context of their
#: own: French says Domino here, Domino (Réussite) in full).
CONTRACTS_SHORT = {
    "no-tricks": lazy_pgettext("short contract name", "Tricks"),
    "no-queens": lazy_pgettext("short contract name", "Queens"),
    "no-last-two": lazy_pgettext("short contract name", "Last two"),
    "no-hearts": lazy_pgettext("short contract name", "Hearts"),
    "no-king-of-hearts": lazy_pgettext("short contract name", "Barbu"),
    "trumps": lazy_pgettext("short contract name", "Trumps"),
    "domino": lazy_pgettext("short contract name", "Domino"),
    "ravage-city": lazy_pgettext("short contract name", "Ravage"),
    "salade": lazy_pgettext("short contract name", "Salade"),
}

SUIT_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}

#: Suit names (a context of their own: German Herz, where the outcome part is Herzen).
SUITS = {
    "spades": lazy_pgettext("suit", "Spades"),
    "hearts": lazy_pgettext("suit", "Hearts"),
    "diamonds": lazy_pgettext("suit", "Diamonds"),
    "clubs": lazy_pgettext("suit", "Clubs"),
}

#: Rank names for screen readers and the round page; the chips show the short rank.
RANKS = {
    "2": "2",
    "3": "3",
    "4": "4",
    "5": "5",
    "6": "6",
    "7": "7",
    "8": "8",
    "9": "9",
    "10": "10",
    "J": _l("Jack"),
    "Q": _l("Queen"),
    "K": _l("King"),
    "A": _l("Ace"),
}

#: The letter of a court card or the ace as players of the language write it (French V D R A,
#: German B D K A, Dutch B V H A); the chips and the score table show it.
RANK_LETTERS = {
    "J": lazy_pgettext("rank letter", "J"),
    "Q": lazy_pgettext("rank letter", "Q"),
    "K": lazy_pgettext("rank letter", "K"),
    "A": lazy_pgettext("rank letter", "A"),
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
    "ravage-city": _l("Tournament with Ravage City"),
    "ravage-city-24": _l("Tournament with Ravage City −24"),
    "brader": _l("Mark Brader's scoring"),
    "kh15-domino40": _l("K♥ −15, Domino +40"),
    "domino30-kh15": _l("Domino +30, K♥ −15"),
    "dealer-chooses": _l("The dealer chooses"),
    "declarer-doubles-only": _l("Doubles on the declarer only"),
    "undoubled-not-played": _l("Undoubled negative not played"),
    "french-classic": _l("Older French form"),
    "french-32": _l("Tournament on 32 cards"),
    "no-domino": _l("Six contracts without Domino"),
    "no-trumps": _l("Six contracts without Trumps"),
}

#: A short description of each built-in preset (barbu-rules.md, "Variants").
PRESET_DESCRIPTIONS = {
    "tournament": _l(
        "The form bridge players play: seven contracts, each declarer declares each once, doubles and "
        "redoubles between any players. 28 rounds."
    ),
    "ravage-city": _l(
        "Tournament Barbu plus Ravage City: the most cards of one suit costs −36, "
        "shared when tied (−18, −12, −9). 32 rounds."
    ),
    "ravage-city-24": _l("Tournament Barbu plus Ravage City at −24 (ties −12, −8, −6). 32 rounds."),
    "brader": _l(
        "Mark Brader's values: Barbu −25, Fan Tan +40/+20/0/−20, hearts −4 and the ace −12, tricks −5, queens "
        "−15, Ravage City −36. 32 rounds."
    ),
    "kh15-domino40": _l("Tournament Barbu with the king of hearts at −15 and Domino paying +40/+20/+10/−10."),
    "domino30-kh15": _l("Tournament Barbu with Domino paying +30/+20/+10/0 and the king of hearts at −15."),
    "dealer-chooses": _l(
        "The dealer chooses the contract and declares; the player on the dealer's left leads (in Domino the "
        "dealer starts)."
    ),
    "declarer-doubles-only": _l(
        "Only the declarer may be doubled, and the declarer redoubles everyone who doubled, without a word."
    ),
    "undoubled-not-played": _l(
        "A negative contract nobody doubles is not played: each opponent takes a third of its points, the "
        "declarer the rest."
    ),
    "french-classic": _l(
        "The older French form: contracts in a fixed order, no doubling, Salade (every penalty at once) "
        "instead of Trumps, with Domino."
    ),
    "french-32": _l("Tournament Barbu on the old French 32-card deck (ace down to 7): 8 tricks a deal."),
    "no-domino": _l("The five negative contracts and Trumps, the traditional French six. 24 rounds."),
    "no-trumps": _l("The five negative contracts and Domino. 24 rounds."),
}

#: House rules of the built-in presets that change only the play, not the score.
PRESET_NOTES = {
    "tournament": [
        _l("In No King of Hearts, hearts may not be led unless the leader holds nothing else."),
        _l("In Trumps you must ruff and over-ruff when you cannot follow suit."),
        _l("In Domino the declarer names the starting rank and plays first; a player who cannot build passes."),
    ],
    "ravage-city": [
        _l("Ravage City is played without trumps; count each player's cards of every suit after the deal.")
    ],
    "ravage-city-24": [
        _l("Ravage City is played without trumps; count each player's cards of every suit after the deal.")
    ],
    "brader": [
        _l("Fan Tan is Domino by another name."),
        _l("Ravage City is played without trumps; count each player's cards of every suit after the deal."),
    ],
    "kh15-domino40": [_l("Some tables allow hearts to be led in No King of Hearts at any time.")],
    "domino30-kh15": [_l("Some tables play the ace low in Domino.")],
    "dealer-chooses": [_l("The player on the dealer's left leads, except in Domino, where the dealer starts.")],
    "declarer-doubles-only": [
        _l("Doubles are announced in turn, starting on the declarer's left; the declarer's redouble needs no words.")
    ],
    "undoubled-not-played": [_l("Announce doubles before anyone plays a card: with none, the cards are thrown in.")],
    "french-classic": [
        _l("Contracts come in the listed order, so nobody chooses."),
        _l("Domino is often started by the 7♦ or by any 7."),
        _l("Forced discards: you must throw the K♥ or a queen at the first chance."),
    ],
    "french-32": [_l("The deck runs from the ace down to the 7: 8 cards each, 8 hearts.")],
    "no-domino": [_l("Trumps without compulsory over-ruffing in some French houses.")],
    "no-trumps": [_l("In Domino the declarer names the starting rank and plays first.")],
}

#: The value fields of a contract (scorepad.scoring.contracts.VALUE_FIELDS), as the preset editor names them.
VALUE_FIELDS = {
    "per_trick": _l("Per trick"),
    "per_queen": _l("Per queen"),
    "penultimate": _l("12th trick (second to last)"),
    "last": _l("Last trick"),
    "per_heart": _l("Per heart"),
    "ace": _l("Ace of hearts"),
    "king": _l("King of hearts"),
    "penalty": _l("Penalty (divisible by 12)"),
    "places": _l("Finishing places"),
}

#: Who chooses the contract (preset ``chooser``).
CHOOSERS = {
    "declarer": _l("The declarer chooses"),
    "dealer": _l("The dealer chooses and declares"),
    "fixed": _l("Fixed order (the listed order, nobody chooses)"),
}

#: How the declarer's role moves (preset ``rotation``).
ROTATIONS = {
    "run": _l("A declarer keeps the role for a whole run"),
    "round": _l("The role moves left after every round"),
}

#: Who may be doubled (preset ``doubling.target``).
DOUBLE_TARGETS = {
    "any": _l("Anyone (the declarer only redoubles)"),
    "declarer": _l("Only the declarer"),
}

#: A negative contract nobody doubled (preset ``undoubled_negative``).
UNDOUBLED = {
    "play": _l("Played as usual"),
    "split": _l("Not played: each opponent takes a third of its points"),
}


def rank_letter(rank: str) -> str:
    """A starting rank as the chips and tables write it: the number, or the letter of a
    court card or the ace in the reader's language (``Q`` → German D, French D, Dutch V)."""
    return RANK_LETTERS.get(rank, rank)


def contract_name(contract_id: str) -> str:
    """The full name of a contract, or its id for one this module does not know."""
    return CONTRACTS.get(contract_id, contract_id)


def preset_name(preset) -> str:
    """A preset's name in the reader's language when it is a built-in one."""
    return PRESETS.get(preset.id, preset.name)


def preset_description(preset_id: str) -> str:
    """A built-in preset's description (empty for a saved preset)."""
    return PRESET_DESCRIPTIONS.get(preset_id, "")


def preset_notes(preset_id: str) -> list:
    """A built-in preset's play-only house-rule notes (empty for a saved preset)."""
    return list(PRESET_NOTES.get(preset_id, []))
