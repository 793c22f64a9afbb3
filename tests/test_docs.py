"""The documentation a clone carries (issue 13): every relative link in README.md, docs/*.md
and bench/README.md leads to a file of the repository (and an anchor to a heading of that
file), and none sends the reader to ../shared, which a clone does not have."""

import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A Markdown link's target: [text](target) or [text](target "title"); images too.
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def links(path: Path) -> list[str]:
    """The link targets of a Markdown file, outside its code blocks."""
    return LINK.findall(FENCE.sub("", path.read_text(encoding="utf-8")))


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(m) for m in re.findall(r"^#{1,6}\s+(.+?)\s*#*$", text, re.M)}


def tracked(path: Path) -> bool:
    """True when git tracks ``path`` (a file, or a folder holding tracked files)."""
    relative = path.relative_to(ROOT).as_posix() or "."
    listed = subprocess.run(
        ["git", "ls-files", "--", relative], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    return bool(listed.stdout.strip())


def test_the_documents_exist():
    names = {p.relative_to(ROOT).as_posix() for p in DOCS}
    assert {"README.md", "bench/README.md", "docs/game-format.md", "docs/rules.md", "docs/api.md"} <= names


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves_to_a_file_of_the_repository(doc):
    checked = 0
    for target in links(doc):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        path = (doc.parent / unquote(file_part)).resolve() if file_part else doc
        assert path.is_relative_to(ROOT), f"{doc.name}: {target} leads out of the repository"
        assert path.exists(), f"{doc.name}: {target} does not exist"
        assert tracked(path), f"{doc.name}: {target} is not in the repository (git does not track it)"
        if anchor:
            assert path.suffix == ".md" and anchor in anchors(path), f"{doc.name}: no heading #{anchor} in {path.name}"
        checked += 1
    assert checked or doc != ROOT / "README.md"


@pytest.mark.parametrize(
    "doc", [*DOCS, ROOT / "scorepad" / "openapi.json"], ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_no_document_sends_the_reader_to_shared(doc):
    text = doc.read_text(encoding="utf-8")
    assert "../shared" not in text
    assert "shared/spec" not in text and "shared/examples" not in text


def test_the_readme_links_every_document_in_docs():
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in links(ROOT / "README.md")}
    for doc in (ROOT / "docs").glob("*.md"):
        assert doc.resolve() in linked, f"README.md does not point to {doc.relative_to(ROOT)}"


def test_the_readme_documents_serving_the_phones():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("make run HOST=0.0.0.0", "make test", "PUBLIC_URL", "TRUSTED_HOSTS"):
        assert name in text


def test_the_game_format_names_every_field_of_the_document():
    """The public field names (the game document's, the preset's, the round's, the results')
    appear in docs/game-format.md, written as code."""
    text = (ROOT / "docs" / "game-format.md").read_text(encoding="utf-8")
    fields = [
        *("format", "title", "date", "timezone", "players", "first_declarer", "preset", "rounds"),
        *("id", "name", "deck", "chooser", "rotation", "contracts", "doubling", "undoubled_negative"),
        *("default_players", "enabled", "target", "auto_redouble", "single", "mutual", "quota", "quota_penalty"),
        *("per_trick", "per_queen", "penultimate", "last", "per_heart", "ace", "king", "places", "penalty"),
        *("contract", "declarer", "trump", "start_rank", "doubles", "outcome", "tricks", "queens", "hearts"),
        *("order", "most", "number", "result", "raw", "total", "running", "played", "standings", "totals"),
        *("quota_penalties", "final", "rank", "complete", "rounds_played", "rounds_total", "quota_given"),
        *("next", "dealer", "contracts_left", "no-tricks", "no-queens", "no-last-two", "no-hearts"),
        *("no-king-of-hearts", "trumps", "domino", "ravage-city", "salade"),
    ]
    missing = [f for f in fields if f"`{f}`" not in text and f'"{f}"' not in text]
    assert missing == []


# Folders the app or the tests make when they run (never in a clone).
GENERATED = ("tests/screenshots/", "static/gen/", "instance/")


def named_paths(path: Path) -> list[str]:
    """The repository paths a document names as code (`scorepad/web/hosts.py`): those under
    one of the repository's folders, without a placeholder (`<token>`) or a wildcard."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    top = r"^(scorepad|static|templates|tests|bench|docs|migrations|translations|\.ci)/"
    return [m for m in re.findall(r"`([^`\s]+)`", text) if re.match(top, m) and not re.search(r"[<>*…]", m)]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_path_a_document_names_is_in_the_repository(doc):
    for name in named_paths(doc):
        if name.startswith(GENERATED):
            continue
        assert tracked(ROOT / name), f"{doc.relative_to(ROOT)} names {name}, which the repository does not have"
