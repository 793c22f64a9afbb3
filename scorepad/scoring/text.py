"""Every text a scorer types, normalised and checked in one place: player names (a game's
``players``, a preset's ``default_players``), titles, preset ids, names and notes.

The rules (game-format.md "Errors"):

- the text is NFC-normalised and trimmed, and its length is counted after that (an "é"
  typed as e + combining accent is one character, as on screen); nothing else is changed;
- it may not hold a lone surrogate (a broken UTF-16 half, which no page or file can
  encode), a control character (Unicode category Cc: NUL, TAB, CR, LF, BEL, ESC, DEL,
  U+0085 ...), a line or paragraph separator (U+2028, U+2029), or an explicit text-direction
  control (U+202A-U+202E, U+2066-U+2069: one left open reverses whatever is printed after
  the name). Multi-line notes keep their line breaks, written ``\\n`` (a form's CR LF is read
  as one);
- it must show something: a name of only spaces, format characters (U+200B, U+FEFF),
  fillers (U+3164, U+2800) or combining marks has no visible character and is refused;
- two players are the same person when their :func:`name_key` is equal ("Anne" and
  "ANNE\\u200b").

Each refusal is a :class:`~.errors.ScoringError` naming the field's path and the problem.

Documents read back from the database were checked when they were written, by the rules of
that day; ``stored=True`` reads them without refusing anything, only making their text safe
to show and to encode (:func:`stored_text`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from .errors import N_, ScoringError, join, refuse_all

#: Characters that end a line (``str.splitlines``): LF, VT, FF, CR, FS, GS, RS, NEL, U+2028, U+2029.
LINE_BREAKS = frozenset("\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029")
#: Explicit direction controls: embeddings and overrides (U+202A-U+202E) and isolates
#: (U+2066-U+2069). The marks U+200E and U+200F stay allowed: they need no closing.
DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, Unicode 15.1):
#: characters a font draws as nothing, whatever their category (U+3164 HANGUL FILLER is a letter).
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: Symbols drawn as an empty space: BRAILLE PATTERN BLANK.
BLANKS = frozenset("\u2800")

#: What :func:`stored_text` replaces in text read back from the database.
_STORED_SURROGATES = re.compile("[\ud800-\udfff]")
_STORED_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
_STORED_CONTROLS_MULTILINE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]+")

BROKEN = N_("the text contains a broken character (%(code)s) that cannot be stored")
INVISIBLE_TEXT = N_("the text has no visible characters")
INVISIBLE_NAME = N_("the name has no visible characters")
DUPLICATE_NAME = N_("%(name)s is already playing; give each player a different name")


def code_point(char: str) -> str:
    """The character's code point as Unicode writes it: ``U+001B``."""
    return f"U+{ord(char):04X}"


def is_ignorable(char: str) -> bool:
    """True for a default-ignorable character (see :data:`DEFAULT_IGNORABLE`), which shows nothing."""
    cp = ord(char)
    return any(low <= cp <= high for low, high in DEFAULT_IGNORABLE)


def is_visible(char: str) -> bool:
    """True for a character that shows something on its own: a letter, digit, punctuation
    mark or symbol (categories L, N, P, S) that is neither default-ignorable nor a blank.
    Spaces, format characters (Cf), combining marks alone (M) and controls are not."""
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANKS and not is_ignorable(char)


def check_surrogates(text: str, path: str) -> None:
    """Raise :class:`ScoringError` at ``path`` naming the first lone surrogate of ``text``."""
    for char in text:
        if "\ud800" <= char <= "\udfff":
            raise ScoringError(path, BROKEN, code=code_point(char))


def check_characters(text: str, path: str, *, multiline: bool = False) -> None:
    """Refuse ``text`` if it holds a character that must never be stored (see the module's
    rules); ``multiline`` allows ``\\n``. Raises :class:`ScoringError` at ``path`` naming the
    first such character: a lone surrogate, a line break, a control character."""
    check_surrogates(text, path)
    for char in text:
        category = unicodedata.category(char)
        if multiline and char == "\n":
            continue
        if char in LINE_BREAKS and not multiline:
            raise ScoringError(path, N_("the text contains a line break; keep it on one line"))
        if category in ("Cc", "Zl", "Zp") or char in DIRECTION_CONTROLS:
            raise ScoringError(
                path, N_("the text contains an invisible control character (%(code)s)"), code=code_point(char)
            )


def refuse_lone_surrogates(obj: Any, path: str = "") -> None:
    """Refuse a JSON document (dicts, lists, strings, numbers) holding a lone surrogate in any
    string or field name, wherever it is: JSON's ``\\ud800`` escape is the only way one
    arrives, and no page, file or database can encode it, not even in a message that
    repeats the field's name. Raises :class:`ScoringError` at the string's path (for a field
    name, at its object's path). Walks without recursion, however deep the document; a
    path is spelled out only for the refusal."""
    # Each place is (its container's place, its key or index): building every path as a
    # string would cost the square of the depth.
    pending: list[tuple[Any, Any]] = [(obj, None)]
    while pending:
        value, place = pending.pop()
        if isinstance(value, str) and not _is_clean(value):
            check_surrogates(value, _spelled(path, place))
        elif isinstance(value, dict):
            for key in value:
                if not _is_clean(str(key)):
                    check_surrogates(str(key), _spelled(path, place))
            pending.extend((item, (place, str(key))) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            pending.extend((item, (place, i)) for i, item in reversed(list(enumerate(value))))


def _is_clean(text: str) -> bool:
    """True when ``text`` holds no lone surrogate (the UTF-8 encoder refuses one)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _spelled(path: str, place: Any) -> str:
    """The document path of a place of :func:`refuse_lone_surrogates`."""
    parts: list[str | int] = []
    while place is not None:
        place, part = place
        parts.append(part)
    for part in reversed(parts):
        path = join(path, part)
    return path


def stored_text(value: str, *, multiline: bool = False) -> str:
    """Text read back from the database, made safe to show and to encode: each lone
    surrogate becomes U+FFFD (the replacement character), each run of control characters
    and line separators one space (when ``multiline``, ``\\n`` is kept and CR LF read as
    ``\\n``), then the ends are trimmed. Only for documents written before these rules, never
    for input."""
    value = _STORED_SURROGATES.sub("\ufffd", value)
    if multiline:
        value = value.replace("\r\n", "\n")  # a form's line break, as stored before these rules
    controls = _STORED_CONTROLS_MULTILINE if multiline else _STORED_CONTROLS
    return controls.sub(" ", value).strip()


def clean_text(
    value: Any,
    path: str,
    limit: int,
    *,
    too_long_message: str,
    empty_message: str | None = None,
    invisible_message: str = INVISIBLE_TEXT,
    multiline: bool = False,
    stored: bool = False,
) -> str:
    """The text ``value`` NFC-normalised and trimmed (a form's CR LF read as ``\\n`` when
    ``multiline``), checked by the module's rules.

    ``empty_message``: the refusal of a text that is empty after trimming (also of a value
    that is not text); without it an empty text is allowed and ``""`` returned. ``limit``
    counts characters after NFC. ``stored``: the value was read back from the database and
    is only made safe to show (:func:`stored_text`). Raises :class:`ScoringError` at ``path``:
    not text, empty, a forbidden character (:func:`check_characters`), nothing visible
    (``invisible_message``), longer than ``limit`` (``too_long_message`` with ``limit``).
    """
    if not isinstance(value, str):
        raise ScoringError(path, empty_message or N_("must be text"))
    if stored:
        text = stored_text(value, multiline=multiline)
    else:
        text = unicodedata.normalize("NFC", value)
        if multiline:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        text = text.strip()
        check_characters(text, path, multiline=multiline)
    if not text:
        if empty_message is not None and not stored:
            raise ScoringError(path, empty_message)
        return ""
    if stored:
        return text
    if not any(is_visible(char) for char in text):
        raise ScoringError(path, invisible_message)
    if len(text) > limit:
        raise ScoringError(path, too_long_message, limit=limit)
    return text


def clean_name(
    value: Any, path: str, limit: int, *, empty_message: str, too_long_message: str, stored: bool = False
) -> str:
    """A name (a player's, a preset's): :func:`clean_text`, required, with the name's
    message for one without visible characters ("the name has no visible characters")."""
    return clean_text(
        value,
        path,
        limit,
        empty_message=empty_message,
        too_long_message=too_long_message,
        invisible_message=INVISIBLE_NAME,
        stored=stored,
    )


def name_key(name: str) -> str:
    """The identity of a player's name, for uniqueness: every format character (category Cf)
    and other default-ignorable character removed, blanks (:data:`BLANKS`) read as spaces,
    NFKC, case-folded, runs of spaces as one. "Anne", "ANNE", "Anne\\u200b" and "Ａｎｎｅ" (full-width) have one key.

    NFKC rather than NFC: compatibility forms (full-width letters, ligatures such as "ﬁ",
    superscript digits) look like their plain letters on the sheet, so on paper they would be
    one player; the name itself is stored as typed (NFC only)."""
    visible = "".join(
        " " if char in BLANKS else char
        for char in name
        if not (is_ignorable(char) or unicodedata.category(char) == "Cf")
    )
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", visible).casefold())
    return " ".join(folded.split())


def clean_names(
    values: Sequence[Any], path: str, limit: int, *, empty_message: str, too_long_message: str, stored: bool = False
) -> tuple[str, ...]:
    """Each of ``values`` by :func:`clean_name` at ``path[i]``, and no two with one
    :func:`name_key` (refused at the later one: "Anne is already playing ..."). Stored names
    are read as they are (:func:`stored_text`), without the uniqueness check. Every name is
    checked: one problem raises its :class:`ScoringError`, more raise
    :class:`~.errors.ScoringErrors` of them all, in seat order."""
    names: list[str] = []
    keys: set[str] = set()
    problems: list[ScoringError] = []
    for i, value in enumerate(values):
        ipath = join(path, i)
        try:
            name = clean_name(
                value, ipath, limit, empty_message=empty_message, too_long_message=too_long_message, stored=stored
            )
        except ScoringError as exc:
            problems.append(exc)
            continue
        key = name_key(name)
        if key in keys and not stored:
            problems.append(ScoringError(ipath, DUPLICATE_NAME, name=name))
        keys.add(key)
        names.append(name)
    refuse_all(problems)
    return tuple(names)
