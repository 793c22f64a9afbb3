"""Scoring presets: frozen preset objects, the built-ins, validation (game-format.md, "Preset")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .contracts import Contract, contract_to_dict, is_int, parse_contract
from .doubles import Doubling
from .errors import ScoringError, join

DECKS = (52, 32)
CHOOSERS = ("declarer", "dealer", "fixed")
ROTATIONS = ("run", "round")
TARGETS = ("any", "declarer")
UNDOUBLED = ("play", "split")
MAX_CONTRACTS = 9
MAX_NAME = 60


@dataclass(frozen=True)
class Preset:
    """A complete scoring preset. ``contracts`` in preset order (the order of play when
    ``chooser`` is ``fixed``); ``deck`` 52 or 32 cards; ``rotation`` ``run`` or ``round``;
    ``undoubled_negative`` ``play`` or ``split``; ``default_players`` 0 or 4 names."""

    id: str
    name: str
    contracts: tuple[Contract, ...]
    deck: int = 52
    chooser: str = "declarer"
    rotation: str = "run"
    doubling: Doubling = field(default_factory=Doubling)
    undoubled_negative: str = "play"
    default_players: tuple[str, ...] = ()

    @property
    def tricks(self) -> int:
        """Tricks per deal (and hearts in the deck): deck ÷ 4."""
        return self.deck // 4

    @property
    def round_count(self) -> int:
        """Rounds in a whole game: 4 × the number of contracts (barbu-rules.md)."""
        return 4 * len(self.contracts)

    @property
    def contract_ids(self) -> tuple[str, ...]:
        """The contract ids in preset order."""
        return tuple(c.id for c in self.contracts)

    def contract(self, contract_id: str) -> Contract:
        """The preset's contract ``contract_id``; raises ``KeyError`` if it has none."""
        for c in self.contracts:
            if c.id == contract_id:
                return c
        raise KeyError(contract_id)

    def run_total(self) -> int:
        """Points of one declarer's run (every contract once): 0 for a balanced preset."""
        return sum(c.total(self.deck) for c in self.contracts)


def _tournament() -> Preset:
    return parse_preset({
        "id": "tournament",
        "name": "Tournament Barbu",
        "deck": 52,
        "chooser": "declarer",
        "rotation": "run",
        "contracts": [
            {"id": "no-tricks", "per_trick": -2},
            {"id": "no-queens", "per_queen": -6},
            {"id": "no-last-two", "penultimate": -10, "last": -20},
            {"id": "no-hearts", "per_heart": -2, "ace": -6},
            {"id": "no-king-of-hearts", "king": -20},
            {"id": "trumps", "per_trick": 5},
            {"id": "domino", "places": [45, 20, 5, -5]},
        ],
        "doubling": {"enabled": True, "target": "any", "auto_redouble": False,
                     "single": 1, "mutual": 2, "quota": 2, "quota_penalty": 0},
        "undoubled_negative": "play",
        "default_players": [],
    }, "preset")


def _choice(obj: dict, key: str, choices: tuple, default: Any, path: str) -> Any:
    value = obj.get(key, default)
    if value not in choices:
        raise ScoringError(join(path, key), f"must be one of {', '.join(map(str, choices))}")
    return value


def _int(obj: dict, key: str, default: int, path: str, minimum: int | None = None) -> int:
    value = obj.get(key, default)
    if not is_int(value):
        raise ScoringError(join(path, key), "must be a whole number")
    if minimum is not None and value < minimum:
        raise ScoringError(join(path, key), f"must be at least {minimum}")
    return value


def parse_doubling(obj: Any, path: str) -> Doubling:
    """Validate a preset's ``doubling`` object; missing fields take the tournament values.
    Raises :class:`ScoringError` naming the field."""
    if not isinstance(obj, dict):
        raise ScoringError(path, "must be an object")
    known = {"enabled", "target", "auto_redouble", "single", "mutual", "quota", "quota_penalty"}
    for key in obj:
        if key not in known:
            raise ScoringError(join(path, key), "unknown doubling setting")
    for key in ("enabled", "auto_redouble"):
        if key in obj and not isinstance(obj[key], bool):
            raise ScoringError(join(path, key), "must be true or false")
    return Doubling(
        enabled=obj.get("enabled", True),
        target=_choice(obj, "target", TARGETS, "any", path),
        auto_redouble=obj.get("auto_redouble", False),
        single=_int(obj, "single", 1, path, 0),
        mutual=_int(obj, "mutual", 2, path, 0),
        quota=_int(obj, "quota", 2, path, 0),
        quota_penalty=_int(obj, "quota_penalty", 0, path, 0),
    )


def _text(value: Any, path: str, limit: int, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ScoringError(path, f"{what} must be a non-empty text")
    value = value.strip()
    if len(value) > limit:
        raise ScoringError(path, f"{what} is longer than {limit} characters")
    return value


def parse_preset(obj: Any, path: str = "preset") -> Preset:
    """Validate a whole preset object (game-format.md, "Preset") and freeze it.

    ``id`` and ``contracts`` are required; other fields default to the tournament values.
    Raises :class:`ScoringError` with the path and problem: unknown field, deck not 52/32,
    no contracts or more than 9, a duplicate contract, a bad contract value.
    """
    if not isinstance(obj, dict):
        raise ScoringError(path, "a preset must be an object or the id of a known preset")
    known = {"id", "name", "deck", "chooser", "rotation", "contracts", "doubling",
             "undoubled_negative", "default_players"}
    for key in obj:
        if key not in known:
            raise ScoringError(join(path, key), "unknown preset setting")
    pid = _text(obj.get("id"), join(path, "id"), MAX_NAME, "the preset id")
    name = _text(obj.get("name", pid), join(path, "name"), MAX_NAME, "the preset name")
    deck = obj.get("deck", 52)
    if deck not in DECKS or not is_int(deck):
        raise ScoringError(join(path, "deck"), "the deck has 52 or 32 cards")
    cpath = join(path, "contracts")
    raw_contracts = obj.get("contracts")
    if not isinstance(raw_contracts, list) or not raw_contracts:
        raise ScoringError(cpath, "a preset needs at least one contract")
    if len(raw_contracts) > MAX_CONTRACTS:
        raise ScoringError(cpath, f"a preset has at most {MAX_CONTRACTS} contracts")
    contracts: list[Contract] = []
    for i, c in enumerate(raw_contracts):
        contract = parse_contract(c, join(cpath, i))
        if any(other.id == contract.id for other in contracts):
            raise ScoringError(join(join(cpath, i), "id"), f"{contract.id} is listed twice")
        contracts.append(contract)
    players = obj.get("default_players", [])
    ppath = join(path, "default_players")
    if not isinstance(players, list) or len(players) not in (0, 4):
        raise ScoringError(ppath, "give four default players or none")
    players = [_text(p, join(ppath, i), 40, "a player's name") for i, p in enumerate(players)]
    doubling = parse_doubling(obj.get("doubling", {}), join(path, "doubling"))
    undoubled = _choice(obj, "undoubled_negative", UNDOUBLED, "play", path)
    if undoubled == "split" and not doubling.enabled:
        raise ScoringError(join(path, "undoubled_negative"),
                           "with doubling off every negative deal would be split and never played")
    return Preset(
        id=pid,
        name=name,
        contracts=tuple(contracts),
        deck=deck,
        chooser=_choice(obj, "chooser", CHOOSERS, "declarer", path),
        rotation=_choice(obj, "rotation", ROTATIONS, "run", path),
        doubling=doubling,
        undoubled_negative=undoubled,
        default_players=tuple(players),
    )


def preset_to_dict(preset: Preset) -> dict[str, Any]:
    """The whole preset object of game-format.md (what an export carries)."""
    d = preset.doubling
    return {
        "id": preset.id,
        "name": preset.name,
        "deck": preset.deck,
        "chooser": preset.chooser,
        "rotation": preset.rotation,
        "contracts": [contract_to_dict(c) for c in preset.contracts],
        "doubling": {"enabled": d.enabled, "target": d.target, "auto_redouble": d.auto_redouble,
                     "single": d.single, "mutual": d.mutual, "quota": d.quota,
                     "quota_penalty": d.quota_penalty},
        "undoubled_negative": preset.undoubled_negative,
        "default_players": list(preset.default_players),
    }


#: Built-in presets by id (read-only). Issue 4 adds the other variants.
BUILTIN: dict[str, Preset] = {p.id: p for p in (_tournament(),)}


def resolve_preset(obj: Any, path: str = "preset", saved: dict[str, Preset] | None = None) -> Preset:
    """A preset from a game document's ``preset`` field: a built-in or saved id, or a
    whole object. Raises :class:`ScoringError` for an unknown id or an invalid object."""
    if isinstance(obj, str):
        found = BUILTIN.get(obj) or (saved or {}).get(obj)
        if found is None:
            raise ScoringError(path, f"no preset called {obj!r}; built-in: {', '.join(BUILTIN)}")
        return found
    return parse_preset(obj, path)
