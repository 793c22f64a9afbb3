"""The witness's forms on the confirm page: a round's Confirm button and its Dispute form."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField

from .common import strip


class ConfirmForm(FlaskForm):
    """A round's Confirm button: its CSRF token and ``digest``, the
    :func:`scorepad.services.rounds.round_digest` of the round the page showed."""

    digest = HiddenField()


class DisputeForm(ConfirmForm):
    """A round's Dispute form: the digest as :class:`ConfirmForm`'s, and what is wrong (``note``,
    trimmed; it may be empty)."""

    note = StringField(_l("What is wrong?"), filters=[strip])
