"""Club nights on the database (issue 14; club-format.md "Club night"): creating a night and
its tables' games, finding it by a token, its state (progress and leaderboard, computed by the
engine: scorepad.scoring.event), adjustments, closing and reopening. Views reach the tables
through this module and scorepad.services."""

from __future__ import annotations
