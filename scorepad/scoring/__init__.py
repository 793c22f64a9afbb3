"""The Barbu scoring engine: pure Python (stdlib only), no Flask or SQLAlchemy.

Modules: :mod:`.contracts` (raw scoring), :mod:`.doubles` (legality and settlement),
:mod:`.presets` (presets and built-ins), :mod:`.game` (schedule, results, standings),
:mod:`.document` (the game document of shared/spec/game-format.md), :mod:`.seating` (a
club night's tables), :mod:`.seating_draw` (their draw), :mod:`.night` (a club night's
document and leaderboard).
"""

from .document import FORMAT, export_game, parse_game, parse_round
from .errors import IllegalDouble, MissingPart, ScheduleError, ScoringError, ScoringErrors, each_error
from .game import Game, Round, Scores, score
from .night import (
    EVENT_FORMAT,
    MAX_EVENT_PLAYERS,
    MAX_SESSIONS,
    RANKINGS,
    STALE_AFTER,
    Adjustment,
    Entry,
    EventSpec,
    TableResult,
    is_stale,
    leaderboard,
    parse_event,
    session_on,
)
from .presets import BUILTIN, Preset, parse_preset, preset_to_dict
from .seating import (
    Seating,
    Session,
    Table,
    parse_seating,
    repeat_count,
    seating_to_list,
    sit_out_counts,
    swap_players,
)
from .seating_draw import draw_seating

__all__ = [
    "BUILTIN",
    "EVENT_FORMAT",
    "FORMAT",
    "MAX_EVENT_PLAYERS",
    "MAX_SESSIONS",
    "RANKINGS",
    "STALE_AFTER",
    "Adjustment",
    "Entry",
    "EventSpec",
    "Game",
    "IllegalDouble",
    "MissingPart",
    "Preset",
    "Round",
    "ScheduleError",
    "Scores",
    "ScoringError",
    "ScoringErrors",
    "each_error",
    "Seating",
    "Session",
    "Table",
    "TableResult",
    "draw_seating",
    "export_game",
    "is_stale",
    "leaderboard",
    "parse_event",
    "parse_game",
    "parse_preset",
    "parse_round",
    "parse_seating",
    "preset_to_dict",
    "repeat_count",
    "score",
    "seating_to_list",
    "session_on",
    "sit_out_counts",
    "swap_players",
]
