"""Scoring presets: frozen preset objects, the built-ins, validation (game-format.md, "Preset")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .contracts import SEATS, Contract, check_range, contract_to_dict, is_int, parse_contract
from .doubles import Doubling
from .errors import N_, ScoringError, join
from .text import clean_name, clean_names, refuse_lone_surrogates

DECKS = (52, 32)
CHOOSERS = ("declarer", "dealer", "fixed")
ROTATIONS = ("run", "round")
TARGETS = ("any", "declarer")
UNDOUBLED = ("play", "split")
MAX_CONTRACTS = 9
MAX_NAME = 60
MAX_PLAYER = 40  # characters of a player's name (a game's players, a preset's default players)


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
        """Rounds in a whole game: 4 × the number of contracts (:func:`rounds_in_game`)."""
        return rounds_in_game(len(self.contracts))

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

    def game_total(self) -> int:
        """Points of a whole game, all four players' totals together: each seat declares one
        run (barbu-rules.md "Table and schedule"), so 4 × :meth:`run_total`; 0 for a balanced
        preset."""
        return SEATS * self.run_total()


def rounds_in_game(contracts: int) -> int:
    """Rounds in a whole game of ``contracts`` contracts (a count, 0 or more): each of the 4
    players declares every contract once (barbu-rules.md "Table and schedule"), so 4 ×
    ``contracts``: 28 for the tournament's 7, 8 for 2."""
    return SEATS * contracts


def run_total_of(totals: Sequence[int | None]) -> int | None:
    """One declarer's run (every contract once) from each contract's ``totals`` (points; None
    for a contract whose total is not known yet, as while its values are being typed): their
    sum, or None while one is unknown or with no contract at all."""
    if not totals or any(total is None for total in totals):
        return None
    return sum(total for total in totals if total is not None)


#: Every contract kind's default values in points (barbu-rules.md "The contracts"): the
#: tournament's, Ravage City −36, Salade every tournament penalty at once. Built-ins and the
#: preset editor start from these; read only (copy before changing).
CONTRACT_DEFAULTS: dict[str, dict[str, Any]] = {
    "no-tricks": {"per_trick": -2},
    "no-queens": {"per_queen": -6},
    "no-last-two": {"penultimate": -10, "last": -20},
    "no-hearts": {"per_heart": -2, "ace": -6},
    "no-king-of-hearts": {"king": -20},
    "trumps": {"per_trick": 5},
    "domino": {"places": [45, 20, 5, -5]},
    "ravage-city": {"penalty": -36},
    "salade": {
        "per_trick": -2,
        "per_queen": -6,
        "penultimate": -10,
        "last": -20,
        "per_heart": -2,
        "ace": -6,
        "king": -20,
    },
}
NEGATIVE_IDS = ("no-tricks", "no-queens", "no-last-two", "no-hearts", "no-king-of-hearts")
TOURNAMENT_IDS = (*NEGATIVE_IDS, "trumps", "domino")
#: The tournament's seven contracts as preset contract objects, in preset order.
TOURNAMENT_CONTRACTS: tuple[dict[str, Any], ...] = tuple(
    {"id": cid, **CONTRACT_DEFAULTS[cid]} for cid in TOURNAMENT_IDS
)
#: The tournament's doubling rules, every preset's default (game-format.md ``doubling``).
DEFAULT_DOUBLING = Doubling()


def doubling_to_dict(doubling: Doubling) -> dict[str, Any]:
    """A preset's ``doubling`` object (game-format.md) of ``doubling``."""
    d = doubling
    return {
        "enabled": d.enabled,
        "target": d.target,
        "auto_redouble": d.auto_redouble,
        "single": d.single,
        "mutual": d.mutual,
        "quota": d.quota,
        "quota_penalty": d.quota_penalty,
    }


def _tournament_with(preset_id: str, name: str, contracts=None, doubling=None, **settings: Any) -> dict[str, Any]:
    """The tournament preset object with some settings replaced (a built-in's source)."""
    return {
        "id": preset_id,
        "name": name,
        "deck": 52,
        "chooser": "declarer",
        "rotation": "run",
        "contracts": [dict(c) for c in (contracts or TOURNAMENT_CONTRACTS)],
        "doubling": {**doubling_to_dict(DEFAULT_DOUBLING), **(doubling or {})},
        "undoubled_negative": "play",
        "default_players": [],
        **settings,
    }


def _revalued(values: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The tournament contracts with some contracts' values replaced, by contract id."""
    return [{**c, **values.get(c["id"], {})} for c in TOURNAMENT_CONTRACTS]


def _builtins() -> list[dict[str, Any]]:
    """The built-in presets (barbu-rules.md, "Variants"), as preset objects."""
    tournament = TOURNAMENT_CONTRACTS
    negatives = [c for c in tournament if c["id"] in NEGATIVE_IDS]
    by_id = {c["id"]: c for c in tournament}
    return [
        _tournament_with("tournament", "Tournament Barbu"),
        _tournament_with(
            "ravage-city",
            "Tournament with Ravage City",
            contracts=[*tournament, {"id": "ravage-city", **CONTRACT_DEFAULTS["ravage-city"]}],
        ),
        _tournament_with(
            "ravage-city-24",
            "Tournament with Ravage City −24",
            contracts=[*tournament, {"id": "ravage-city", "penalty": -24}],
        ),
        _tournament_with(
            "brader",
            "Mark Brader's scoring",
            contracts=[
                {"id": "no-tricks", "per_trick": -5},
                {"id": "no-queens", "per_queen": -15},
                {"id": "no-last-two", "penultimate": -10, "last": -20},
                {"id": "no-hearts", "per_heart": -4, "ace": -12},
                {"id": "no-king-of-hearts", "king": -25},
                {"id": "trumps", "per_trick": 5},
                {"id": "domino", "places": [40, 20, 0, -20]},
                {"id": "ravage-city", "penalty": -36},
            ],
        ),
        _tournament_with(
            "kh15-domino40",
            "K♥ −15, Domino +40",
            contracts=_revalued({"no-king-of-hearts": {"king": -15}, "domino": {"places": [40, 20, 10, -10]}}),
        ),
        _tournament_with(
            "domino30-kh15",
            "Domino +30, K♥ −15",
            contracts=_revalued({"no-king-of-hearts": {"king": -15}, "domino": {"places": [30, 20, 10, 0]}}),
        ),
        _tournament_with("dealer-chooses", "The dealer chooses", chooser="dealer"),
        _tournament_with(
            "declarer-doubles-only",
            "Doubles on the declarer only",
            doubling={"target": "declarer", "auto_redouble": True},
        ),
        _tournament_with("undoubled-not-played", "Undoubled negative not played", undoubled_negative="split"),
        _tournament_with(
            "french-classic",
            "Older French form",
            chooser="fixed",
            doubling={"enabled": False},
            contracts=[
                by_id["no-tricks"],
                by_id["no-hearts"],
                by_id["no-queens"],
                by_id["no-king-of-hearts"],
                by_id["no-last-two"],
                {"id": "salade", **CONTRACT_DEFAULTS["salade"]},
                by_id["domino"],
            ],
        ),
        _tournament_with("french-32", "Tournament on 32 cards", deck=32),
        _tournament_with("no-domino", "Six contracts without Domino", contracts=[*negatives, by_id["trumps"]]),
        _tournament_with("no-trumps", "Six contracts without Trumps", contracts=[*negatives, by_id["domino"]]),
    ]


def _choice(obj: dict, key: str, choices: tuple, default: Any, path: str) -> Any:
    value = obj.get(key, default)
    if value not in choices:
        raise ScoringError(join(path, key), N_("must be one of %(choices)s"), choices=", ".join(map(str, choices)))
    return value


def _int(obj: dict, key: str, default: int, path: str, stored: bool) -> int:
    """The whole number ``obj[key]`` (``default`` when absent) within :data:`RANGES` of ``key``."""
    value = obj.get(key, default)
    if not is_int(value):
        raise ScoringError(join(path, key), N_("must be a whole number"))
    return check_range(value, key, join(path, key), stored=stored)


def parse_doubling(obj: Any, path: str, *, stored: bool = False) -> Doubling:
    """Validate a preset's ``doubling`` object; missing fields take the tournament values.
    Raises :class:`ScoringError` naming the field: an unknown setting, ``enabled`` or
    ``auto_redouble`` not true or false, ``target`` not ``any`` or ``declarer``, a number not
    whole or out of its :data:`~.contracts.RANGES` (multipliers 0 to 10, quota 0 to 9)."""
    if not isinstance(obj, dict):
        raise ScoringError(path, N_("must be an object"))
    known = {"enabled", "target", "auto_redouble", "single", "mutual", "quota", "quota_penalty"}
    for key in obj:
        if key not in known:
            raise ScoringError(join(path, key), N_("unknown doubling setting"))
    for key in ("enabled", "auto_redouble"):
        if key in obj and not isinstance(obj[key], bool):
            raise ScoringError(join(path, key), N_("must be true or false"))
    default = DEFAULT_DOUBLING
    return Doubling(
        enabled=obj.get("enabled", default.enabled),
        target=_choice(obj, "target", TARGETS, default.target, path),
        auto_redouble=obj.get("auto_redouble", default.auto_redouble),
        single=_int(obj, "single", default.single, path, stored),
        mutual=_int(obj, "mutual", default.mutual, path, stored),
        quota=_int(obj, "quota", default.quota, path, stored),
        quota_penalty=_int(obj, "quota_penalty", default.quota_penalty, path, stored),
    )


def _text(value: Any, path: str, limit: int, empty: str, too_long: str, stored: bool) -> str:
    """A preset's id or name: a name by the rules of :mod:`.text`."""
    return clean_name(value, path, limit, empty_message=empty, too_long_message=too_long, stored=stored)


def parse_preset(obj: Any, path: str = "preset", *, stored: bool = False) -> Preset:
    """Validate a whole preset object (game-format.md, "Preset") and freeze it.

    ``id`` and ``contracts`` are required; other fields default to the tournament values.
    The id, the name and the default players are text by the rules of :mod:`.text`; the
    default players are four distinct names (:func:`~.text.name_key`) or none. ``stored``:
    read back from the database, its text is only made safe to show (see
    :func:`~.document.parse_game`) and its values are not bounded
    (:func:`~.contracts.check_range`). Raises :class:`ScoringError` with the path and
    problem: unknown field, deck not 52/32, no contracts or more than 9, a duplicate contract, a bad
    contract value, a bad id, name or default player.
    """
    if not isinstance(obj, dict):
        raise ScoringError(path, N_("a preset must be an object or the id of a known preset"))
    if not stored:
        refuse_lone_surrogates(obj, path)
    known = {
        "id",
        "name",
        "deck",
        "chooser",
        "rotation",
        "contracts",
        "doubling",
        "undoubled_negative",
        "default_players",
    }
    for key in obj:
        if key not in known:
            raise ScoringError(join(path, key), N_("unknown preset setting"))
    pid = _text(
        obj.get("id"),
        join(path, "id"),
        MAX_NAME,
        N_("the preset id must be a non-empty text"),
        N_("the preset id is longer than %(limit)d characters"),
        stored,
    )
    name = _text(
        obj.get("name", pid),
        join(path, "name"),
        MAX_NAME,
        N_("the preset name must be a non-empty text"),
        N_("the preset name is longer than %(limit)d characters"),
        stored,
    )
    deck = obj.get("deck", 52)
    if deck not in DECKS or not is_int(deck):
        raise ScoringError(join(path, "deck"), N_("the deck has 52 or 32 cards"))
    cpath = join(path, "contracts")
    raw_contracts = obj.get("contracts")
    if not isinstance(raw_contracts, list) or not raw_contracts:
        raise ScoringError(cpath, N_("a preset needs at least one contract"))
    if len(raw_contracts) > MAX_CONTRACTS:
        raise ScoringError(cpath, N_("a preset has at most %(limit)d contracts"), limit=MAX_CONTRACTS)
    contracts: list[Contract] = []
    for i, c in enumerate(raw_contracts):
        contract = parse_contract(c, join(cpath, i), stored=stored)
        if any(other.id == contract.id for other in contracts):
            raise ScoringError(join(join(cpath, i), "id"), N_("%(contract)s is listed twice"), contract=contract.id)
        contracts.append(contract)
    players = obj.get("default_players", [])
    ppath = join(path, "default_players")
    if not isinstance(players, list) or len(players) not in (0, 4):
        raise ScoringError(ppath, N_("give four default players or none"))
    players = clean_names(
        players,
        ppath,
        MAX_PLAYER,
        empty_message=N_("a player's name must be a non-empty text"),
        too_long_message=N_("a player's name is longer than %(limit)d characters"),
        stored=stored,
    )
    doubling = parse_doubling(obj.get("doubling", {}), join(path, "doubling"), stored=stored)
    undoubled = _choice(obj, "undoubled_negative", UNDOUBLED, "play", path)
    if undoubled == "split" and not doubling.enabled:
        raise ScoringError(
            join(path, "undoubled_negative"),
            N_("with doubling off every negative deal would be split and never played"),
        )
    return Preset(
        id=pid,
        name=name,
        contracts=tuple(contracts),
        deck=deck,
        chooser=_choice(obj, "chooser", CHOOSERS, "declarer", path),
        rotation=_choice(obj, "rotation", ROTATIONS, "run", path),
        doubling=doubling,
        undoubled_negative=undoubled,
        default_players=players,
    )


def preset_to_dict(preset: Preset) -> dict[str, Any]:
    """The whole preset object of game-format.md (what an export carries)."""
    return {
        "id": preset.id,
        "name": preset.name,
        "deck": preset.deck,
        "chooser": preset.chooser,
        "rotation": preset.rotation,
        "contracts": [contract_to_dict(c) for c in preset.contracts],
        "doubling": doubling_to_dict(preset.doubling),
        "undoubled_negative": preset.undoubled_negative,
        "default_players": list(preset.default_players),
    }


#: Built-in presets by id (read-only), the tournament first.
BUILTIN: dict[str, Preset] = {p.id: p for p in (parse_preset(obj) for obj in _builtins())}


def resolve_preset(
    obj: Any, path: str = "preset", saved: dict[str, Preset] | None = None, *, stored: bool = False
) -> Preset:
    """A preset from a game document's ``preset`` field: a built-in or saved id, or a
    whole object (``stored``: read back from the database, see :func:`parse_preset`).
    A saved preset named by a new document (not ``stored``) is checked again by today's
    rules, so a preset saved before a bound cannot start a game past it. Raises
    :class:`ScoringError` for an unknown id or an invalid object (the saved preset's
    problem at its place, e.g. ``preset.contracts[0].per_trick``)."""
    if isinstance(obj, str):
        found = BUILTIN.get(obj) or (saved or {}).get(obj)
        if found is None:
            raise ScoringError(
                path, N_("no preset called %(preset)r; built-in: %(known)s"), preset=obj, known=", ".join(BUILTIN)
            )
        if not stored and obj not in BUILTIN:
            parse_preset(preset_to_dict(found), path)
        return found
    return parse_preset(obj, path, stored=stored)
