"""The Barbu scoring engine: pure Python (stdlib only), no Flask or SQLAlchemy.

Modules: :mod:`.contracts` (raw scoring), :mod:`.doubles` (legality and settlement),
:mod:`.presets` (presets and built-ins), :mod:`.game` (schedule, results, standings),
:mod:`.document` (the game document of shared/spec/game-format.md).
"""

from .document import FORMAT, export_game, parse_game, parse_round
from .errors import IllegalDouble, MissingPart, ScheduleError, ScoringError
from .game import Game, Round, Scores, score
from .presets import BUILTIN, Preset, parse_preset, preset_to_dict

__all__ = [
    "BUILTIN",
    "FORMAT",
    "Game",
    "IllegalDouble",
    "MissingPart",
    "Preset",
    "Round",
    "ScheduleError",
    "Scores",
    "ScoringError",
    "export_game",
    "parse_game",
    "parse_preset",
    "parse_round",
    "preset_to_dict",
    "score",
]
