"""Text that should never be stored (issue 11, section 1): one normalisation and validation
of every text field, refused with its path. Every example of the issue is a test here, with
other variants of each kind."""

import pytest

from scorepad.scoring import BUILTIN, ScoringError, parse_game, parse_preset, preset_to_dict
from scorepad.scoring.text import clean_name, clean_text, name_key, refuse_lone_surrogates, stored_text

PLAYERS = ["Anne", "Beth", "Cath", "Diana"]


def game(**fields):
    return {"players": list(PLAYERS), "first_declarer": 0, "preset": "tournament", **fields}


def seat(index, name):
    """The four players with seat ``index`` named ``name``."""
    players = list(PLAYERS)
    players[index] = name
    return players


def refusal(doc, **kwargs):
    with pytest.raises(ScoringError) as caught:
        parse_game(doc, **kwargs)
    return caught.value.path, caught.value.message


def name(value):
    return clean_name(value, "players[0]", 40, empty_message="the name is empty", too_long_message="too long")


# -- the examples -----------------------------------------------------------------


def test_a_line_break_in_a_title_is_refused():
    assert refusal(game(title="Thursday\nTable 2")) == ("title", "the text contains a line break; keep it on one line")


def test_a_line_break_in_a_player_name_is_refused():
    assert refusal(game(players=seat(0, "Anne\nMarie"))) == (
        "players[0]",
        "the text contains a line break; keep it on one line",
    )


@pytest.mark.parametrize(
    ("char", "code"),
    [("\x1b", "U+001B"), ("\x07", "U+0007"), ("\t", "U+0009"), ("\x00", "U+0000")],
    ids=["ESC", "BEL", "TAB", "NUL"],
)
def test_a_control_character_in_a_title_or_name_is_refused_and_named(char, code):
    message = f"the text contains an invisible control character ({code})"
    assert refusal(game(title=f"Thursday{char}Table 2")) == ("title", message)
    assert refusal(game(players=seat(2, f"Ca{char}th"))) == ("players[2]", message)


def test_a_carriage_return_is_a_line_break():
    assert refusal(game(players=seat(1, "Be\rth"))) == (
        "players[1]",
        "the text contains a line break; keep it on one line",
    )


def test_a_lone_surrogate_is_refused():
    assert refusal(game(players=seat(0, "A\ud800nne"))) == (
        "players[0]",
        "the text contains a broken character (U+D800) that cannot be stored",
    )


def test_a_zero_width_space_is_not_a_name():
    assert refusal(game(players=seat(3, "\u200b"))) == ("players[3]", "the name has no visible characters")


def test_anne_and_anne_with_a_zero_width_space_are_one_player():
    path, message = refusal(game(players=["Anne", "Beth", "Anne\u200b", "Diana"]))
    assert path == "players[2]"
    assert message == "Anne\u200b is already playing; give each player a different name"


# -- other variants of each kind ------------------------------------------------------------


@pytest.mark.parametrize(
    "char",
    ["\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x1e", "\x85", "\u2028", "\u2029"],
    ids=["LF", "CR", "CRLF", "VT", "FF", "FS", "RS", "NEL", "LINE-SEP", "PARA-SEP"],
)
def test_every_line_break_is_refused_inside_a_name(char):
    with pytest.raises(ScoringError, match="line break"):
        name(f"Anne{char}Marie")


@pytest.mark.parametrize(
    ("char", "code"),
    [
        ("\x01", "U+0001"),
        ("\x08", "U+0008"),
        ("\x7f", "U+007F"),  # DEL
        ("\x9b", "U+009B"),  # C1 control sequence introducer
        ("\u202e", "U+202E"),  # right-to-left override: reverses what follows
        ("\u2066", "U+2066"),  # left-to-right isolate, never closed
    ],
)
def test_other_control_characters_are_refused_with_their_code(char, code):
    with pytest.raises(ScoringError) as caught:
        name(f"An{char}ne")
    assert caught.value.message == f"the text contains an invisible control character ({code})"


@pytest.mark.parametrize("char", ["\udfff", "\udc80", "\ud83c"], ids=["low", "low-escape", "high-of-an-emoji"])
def test_every_lone_surrogate_is_refused(char):
    with pytest.raises(ScoringError, match=r"broken character \(U\+D[89A-F][0-9A-F]{2}\)"):
        name(f"Anne{char}")


@pytest.mark.parametrize(
    "value",
    [
        "\ufeff",  # byte-order mark
        "\u200d",  # zero-width joiner
        "\u200b\u200c\u2060",  # zero-width space, non-joiner, word joiner
        "\u0301",  # a combining acute accent alone
        "\u0301\u0308",
        "\u3164",  # Hangul filler: a "letter" that shows nothing
        "\u2800",  # Braille blank
        "\u00ad",  # soft hyphen
        " \u200b \u00a0",  # spaces around an invisible character
    ],
)
def test_a_name_without_a_visible_character_is_refused(value):
    with pytest.raises(ScoringError) as caught:
        name(value)
    assert caught.value.message == "the name has no visible characters"


def test_a_title_without_a_visible_character_is_refused_not_dropped():
    assert refusal(game(title="\u200b")) == ("title", "the text has no visible characters")


@pytest.mark.parametrize(
    "value",
    [
        "Anne-Marie van der Westhuizen",
        "מרים",
        "سارا Ahmed",
        "Zoë",
        "李小龙",
        "🂡",
        "👩\u200d👩\u200d👧",  # a family emoji joined by zero-width joiners
        "\u200fמרים",  # a right-to-left mark needs no closing
        "O’Brien",
    ],
)
def test_names_in_any_script_are_accepted_as_typed(value):
    assert name(value) == value


def test_a_name_is_trimmed_and_nfc_normalised():
    assert name("  Zoe\u0308\t") == "Zoë"  # e + combining diaeresis, one character after NFC


def test_the_length_is_counted_after_nfc():
    decomposed = "e\u0301" * 40  # 80 code points, 40 characters "é"
    assert name(decomposed) == "é" * 40
    with pytest.raises(ScoringError, match="too long"):
        name("e\u0301" * 41)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Anne", "ANNE\u200b"),
        ("Anne", "\ufeffanne"),
        ("Anne", "An\u00adne"),  # soft hyphen
        ("Élodie", "E\u0301lodie"),  # NFC and NFD "É"
        ("Straße", "STRASSE"),
        ("Anne", "Ａｎｎｅ"),  # full-width letters
        ("Anne Marie", "anne  marie"),
        # Format characters outside the default-ignorable list (found by an adversarial run).
        ("Anne", "An\ufff9ne"),  # interlinear annotation anchor
        ("Anne", "Anne\ufffb"),
        ("Anne", "An\U00013430ne"),  # Egyptian hieroglyph joiner
        ("Anne", "\u0600Anne"),  # Arabic number sign
        ("Anne", "Anne\u2800"),  # a braille blank at the end: shows as a space
    ],
)
def test_names_that_look_the_same_have_one_key(first, second):
    assert name_key(first) == name_key(second)
    path, message = refusal(game(players=[first, "Beth", "Cath", second]))
    assert path == "players[3]" and "already playing" in message


@pytest.mark.parametrize(("first", "second"), [("Anne", "Ann"), ("Éva", "Eva"), ("Anne Marie", "AnneMarie")])
def test_different_names_have_different_keys(first, second):
    assert name_key(first) != name_key(second)


# -- notes: several lines -----------------------------------------------------------------------


def notes(value):
    return clean_text(value, "notes", 2000, too_long_message="too long", multiline=True)


def test_notes_keep_their_line_breaks_and_read_a_forms_crlf_as_one():
    assert notes("Aces high.\nNo talking.") == "Aces high.\nNo talking."
    assert notes("Aces high.\r\nNo talking.\r\n") == "Aces high.\nNo talking."
    assert notes("") == ""


@pytest.mark.parametrize(("char", "code"), [("\t", "U+0009"), ("\u2028", "U+2028"), ("\x1b", "U+001B")])
def test_notes_refuse_other_control_characters(char, code):
    with pytest.raises(ScoringError, match=rf"control character \({code.replace('+', '[+]')}\)"):
        notes(f"Aces high.{char}No talking.")


# -- presets --------------------------------------------------------------------------------------


def preset(**fields):
    return {**preset_to_dict(BUILTIN["tournament"]), "id": "house", **fields}


@pytest.mark.parametrize(
    ("fields", "path", "fragment"),
    [
        ({"name": "House\nrules"}, "preset.name", "line break"),
        ({"name": "\u200b"}, "preset.name", "no visible characters"),
        ({"name": "Hou\x1bse"}, "preset.name", "(U+001B)"),
        ({"id": "ho\x00use"}, "preset.id", "(U+0000)"),
        ({"default_players": ["Anne", "Beth", "Cath", "Di\nana"]}, "preset.default_players[3]", "line break"),
        ({"default_players": ["Anne", "\u200b", "Cath", "Diana"]}, "preset.default_players[1]", "no visible"),
        ({"default_players": ["Anne", "Beth", "ANNE\u200b", "Diana"]}, "preset.default_players[2]", "already playing"),
    ],
)
def test_a_presets_text_follows_the_same_rules(fields, path, fragment):
    with pytest.raises(ScoringError) as caught:
        parse_preset(preset(**fields))
    assert caught.value.path == path
    assert fragment in caught.value.message


# -- documents stored before these rules -----------------------------------------------------------


def test_stored_text_replaces_what_cannot_be_shown():
    assert stored_text("A\ud800nne") == "A\ufffdnne"
    assert stored_text("Thursday\nTable 2") == "Thursday Table 2"
    assert stored_text("Thursday\r\nTable\x1b2 ") == "Thursday Table 2"
    assert stored_text("Aces high.\r\nNo\ttalking.", multiline=True) == "Aces high.\nNo talking."


def test_a_stored_game_with_old_text_is_read_made_safe_to_show():
    legacy = game(
        title="Thursday\nTable 2",
        players=["A\ud800nne", "Beth\x1b", "\u200b", "BETH"],
        preset=preset(name="House\nrules", default_players=["Anne", "Anne", "\u2028", "D"]),
    )
    assert refusal(legacy)[0] == "players[0]"  # as input: refused (a lone surrogate is looked for first)
    read = parse_game(legacy, stored=True)
    assert read.title == "Thursday Table 2"
    assert read.players == ("A\ufffdnne", "Beth", "\u200b", "BETH")
    assert read.preset.name == "House rules"
    assert read.preset.default_players == ("Anne", "Anne", "", "D")


def test_stored_text_still_follows_every_other_rule():
    assert refusal(game(players=["Anne", "Beth", "Cath"]), stored=True) == (
        "players",
        "a game has exactly four players",
    )
    assert refusal(game(players=["Anne", "Beth", "Cath", 7]), stored=True)[0] == "players[3]"


# -- a lone surrogate anywhere in a document -------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "path", "code"),
    [
        ({"preset": "tourn\ud800ament"}, "preset", "U+D800"),  # an id, looked up before any other check
        ({"rounds": [{"contract": "no-\udc00tricks"}]}, "rounds[0].contract", "U+DC00"),
        ({"rounds": [{"contract": "trumps", "trump": "\ud800"}]}, "rounds[0].trump", "U+D800"),
        ({"\udbff": 1}, "", "U+DBFF"),  # a field's name: refused at its object
        ({"rounds": [{"\udfff": 1}]}, "rounds[0]", "U+DFFF"),
    ],
)
def test_a_lone_surrogate_is_refused_wherever_it_is(fields, path, code):
    assert refusal(game(**fields)) == (path, f"the text contains a broken character ({code}) that cannot be stored")


def test_a_lone_surrogate_is_found_however_deep_without_recursion():
    deep = "\ud800"
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(ScoringError) as caught:
        refuse_lone_surrogates({"x": deep})
    assert caught.value.path == "x" + "[0]" * 5000


def test_a_surrogate_pair_is_one_character_not_a_lone_surrogate():
    assert name("Anne 🂡") == "Anne 🂡"  # U+1F0A1, above the BMP: a pair in UTF-16, one code point here
