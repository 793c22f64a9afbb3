"""The Alembic migrations build the same schema as the models, and upgrading a database
that already holds games keeps every game and round, scored the same — on SQLite, and on
PostgreSQL when TEST_DATABASE_URL names one."""

import hashlib
import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade

from scorepad import create_app
from scorepad.config import TestConfig
from scorepad.extensions import db
from scorepad.models import StoredGame
from scorepad.scoring import BUILTIN, export_game, preset_to_dict
from scorepad.scoring.trust import replay
from scorepad.services import confirmation, games, history
from scorepad.tokens import new_token

from .conftest import database_uri
from .test_tokens_at_rest import every_value

FIRST_REVISION = "7a5c3c6cacf7"  # games and rounds
BEFORE_DIGESTS_ONLY = "f6b8d0e2a4c7"  # the last revision that stored tokens in clear
EXAMPLES = Path(__file__).parent / "data" / "examples"


@pytest.fixture
def empty_app(tmp_path):
    """The app on a database with no table at all (not even alembic_version)."""

    class Config(TestConfig):
        SQLALCHEMY_DATABASE_URI = database_uri(tmp_path)

    def drop_everything():
        db.session.remove()
        everything = sa.MetaData()
        everything.reflect(db.engine)
        everything.drop_all(db.engine)

    app = create_app(Config)
    with app.app_context():
        drop_everything()
    yield app
    with app.app_context():
        drop_everything()  # PostgreSQL: leave no alembic_version behind for the next test
        db.engine.dispose()


def test_upgrade_creates_the_tables_of_the_models(empty_app):
    with empty_app.app_context():
        upgrade()
        tables = set(sa.inspect(db.engine).get_table_names())
        assert {"games", "rounds", "alembic_version"} <= tables
        with db.engine.connect() as connection:
            # No difference left between the migrated schema and the models.
            assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []


def insert_at_first_revision(connection, example: dict, game_id: int) -> None:
    """One game and its rounds, as raw SQL of the first revision's schema (no ORM: the
    models describe the newest schema, not that one)."""
    game = example["game"]
    # The games table stores the whole preset object (a built-in's too).
    preset = game["preset"] if isinstance(game["preset"], dict) else preset_to_dict(BUILTIN[game["preset"]])
    connection.execute(
        sa.text(
            "INSERT INTO games (id, title, players, first_declarer, preset, edit_token, view_token, "
            "created_at, updated_at) "
            "VALUES (:id, :title, :players, :first, :preset, :edit, :view, :at, :at)"
        ),
        {
            "id": game_id,
            "title": game.get("title"),
            "players": json.dumps(game["players"]),
            "first": game["first_declarer"],
            "preset": json.dumps(preset),
            "edit": f"edit-{game_id:028d}",
            "view": f"view-{game_id:028d}",
            "at": "2026-11-01 20:00:00+00:00",
        },
    )
    for number, rnd in enumerate(game["rounds"], start=1):
        connection.execute(
            sa.text(
                "INSERT INTO rounds (game_id, number, contract, trump, start_rank, doubles, outcome, created_at) "
                "VALUES (:game, :number, :contract, :trump, :rank, :doubles, :outcome, :at)"
            ),
            {
                "game": game_id,
                "number": number,
                "contract": rnd["contract"],
                "trump": rnd.get("trump"),
                "rank": rnd.get("start_rank"),
                "doubles": json.dumps(rnd["doubles"]),
                "outcome": json.dumps(rnd["outcome"]) if "outcome" in rnd else None,
                "at": "2026-11-01 20:05:00+00:00",
            },
        )


def test_upgrading_from_the_first_revision_keeps_every_game_and_its_scores(empty_app):
    examples = [json.loads(path.read_text()) for path in sorted(EXAMPLES.glob("*.json"))]
    assert len(examples) >= 4
    with empty_app.app_context():
        upgrade(revision=FIRST_REVISION)
        with db.engine.begin() as connection:
            for game_id, example in enumerate(examples, start=1):
                insert_at_first_revision(connection, example, game_id)
        upgrade()  # to head, whatever revisions come after the first
        with db.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
        for game_id, example in enumerate(examples, start=1):
            stored = db.session.get(StoredGame, game_id)
            assert stored.players == example["game"]["players"]
            # The lookup digests were computed from the tokens already there: old links still work.
            assert stored.view_digest == hashlib.sha256(f"view-{game_id:028d}".encode()).hexdigest()
            assert games.find_by_token(f"view-{game_id:028d}") == (stored, False)
            assert games.find_by_token(f"edit-{game_id:028d}") == (stored, True)
            # The edit token's holder sees the game's own (random) view token again: unsealed with it.
            assert stored.view_token == f"view-{game_id:028d}"
            assert [r.number for r in stored.rounds] == list(range(1, len(example["game"]["rounds"]) + 1))
            export = export_game(stored.to_game())
            expected = example["expected"]
            assert [r["result"]["total"] for r in export["rounds"]] == [
                r["result"]["total"] for r in expected["rounds"]
            ]
            assert export["standings"]["final"] == expected["standings"]["final"]
            # Issue 15: its history starts with its rounds as they were, all provisional, so that
            # replaying the history gives them; it has no confirm token until its scorer page opens.
            entries = history.history_export(stored)
            assert [(e["action"], e["round"], e["by"]) for e in entries] == [("import", None, "scorer")]
            recorded = [
                {k: r[k] for k in ("contract", "trump", "start_rank", "doubles", "outcome") if k in r}
                for r in example["game"]["rounds"]
            ]
            assert [dict(r.round) for r in replay(entries)] == recorded
            assert {r.status for r in stored.rounds} == {"provisional"} and stored.confirmation == "optional"
            assert stored.confirm_digest is None
            confirm = games.confirm_token_of(stored, f"edit-{game_id:028d}")
            assert confirmation.find_witness(confirm) == stored


@pytest.mark.parametrize(
    "created_at, day",
    [
        ("2026-11-01 20:00:00+00:00", "2026-11-01"),
        ("2026-12-04 00:30:00+00:00", "2026-12-04"),  # 19:30 in New York: UTC, as these games showed until now
        ("2026-12-03 19:30:00-05:00", "2026-12-04"),
    ],
)
def test_games_stored_before_dates_are_dated_by_their_creation_in_utc(empty_app, created_at, day):
    example = json.loads((EXAMPLES / "tournament-full.json").read_text())
    with empty_app.app_context():
        upgrade(revision=FIRST_REVISION)
        with db.engine.begin() as connection:
            insert_at_first_revision(connection, example, 1)
            connection.execute(sa.text("UPDATE games SET created_at = :at"), {"at": created_at})
        upgrade()
        stored = db.session.get(StoredGame, 1)
        assert (stored.date.isoformat(), stored.timezone) == (day, None)
        assert export_game(stored.to_game())["date"] == day


def test_an_old_games_edit_and_view_links_and_an_old_presets_edit_token_work_after_the_upgrade(empty_app):
    """Tokens stored in clear before issue 12 ("At rest") leave the database, and every link
    already shared keeps working: the view token on boards and printed QR codes too."""
    edit, view, preset_token = new_token(), new_token(), new_token()
    example = json.loads((EXAMPLES / "tournament-full.json").read_text())
    with empty_app.app_context():
        upgrade(revision="509373c53846")  # saved presets
        with db.engine.begin() as connection:
            insert_at_first_revision(connection, example, 1)
            connection.execute(
                sa.text("UPDATE games SET edit_token = :edit, view_token = :view"), {"edit": edit, "view": view}
            )
            connection.execute(
                sa.text(
                    "INSERT INTO presets (id, public_id, name, preset, notes, edit_token, created_at, updated_at) "
                    "VALUES (1, 'house', 'House', :preset, '', :token, :at, :at)"
                ),
                {
                    "preset": json.dumps(preset_to_dict(BUILTIN["tournament"])),
                    "token": preset_token,
                    "at": "2026-11-01",
                },
            )
        upgrade()
        values = every_value(empty_app)
        assert not [token for token in (edit, view, preset_token) for value in values if token in value]
        db.session.remove()
    client = empty_app.test_client()
    scorer = client.get(f"/g/{edit}").get_data(as_text=True)
    assert f'href="/b/{view}"' in scorer and f'href="/s/{view}"' in scorer
    assert f'data-copy="http://localhost/b/{view}"' in client.get(f"/b/share/{edit}").get_data(as_text=True)
    assert client.get(f"/b/{edit}").headers["Location"] == f"/b/{view}"
    board = client.get(f"/b/{view}")
    assert board.status_code == 200 and edit not in board.get_data(as_text=True)
    for token in (edit, view):
        answer = client.get("/api/v1/games/1", headers={"Authorization": f"Bearer {token}"})
        assert answer.get_json()["standings"]["final"] == example["expected"]["standings"]["final"]
    renamed = {**preset_to_dict(BUILTIN["tournament"]), "name": "Renamed"}
    put = [
        client.put("/api/v1/presets/house", json=renamed, headers={"Authorization": f"Bearer {token}"})
        for token in (view, preset_token)
    ]
    assert [answer.status_code for answer in put] == [403, 200]
    assert put[1].get_json()["preset"]["name"] == "Renamed"


def test_the_downgrade_refuses_to_lose_the_tokens_of_stored_games_and_leaves_an_empty_database_as_before(
    empty_app, capsys
):
    with empty_app.app_context():
        upgrade()
        downgrade(revision=BEFORE_DIGESTS_ONLY)  # empty: nothing to lose
        assert {c["name"] for c in sa.inspect(db.engine).get_columns("games")} >= {"edit_token", "view_token"}
        upgrade()
        games.create_game(json.loads((EXAMPLES / "tournament-full.json").read_text())["game"])
        db.session.remove()
        with pytest.raises(SystemExit):  # flask db downgrade exits with status 1, saying why
            downgrade(revision=BEFORE_DIGESTS_ONLY)
        said = capsys.readouterr().err
        assert "keeps only digests of the tokens of its 1 games and presets" in said
        assert "Restore the backup taken before upgrading instead." in said
        # On SQLite (no transactional DDL in Alembic) the revisions above the refused one, such
        # as issue 13's undone round, have stepped down before it refused: upgrading again
        # brings the database back to the models, its game kept. (PostgreSQL rolled back all.)
        upgrade()
        with db.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
            assert connection.scalar(sa.select(sa.func.count()).select_from(sa.table("games"))) == 1


def test_every_migration_downgrades_one_step_at_a_time_to_an_empty_database_and_up_again(empty_app):
    """Each revision's downgrade runs (an empty database: nothing to lose), newest first, down
    to no table but Alembic's own; upgrading again builds the models' schema."""
    with empty_app.app_context():
        upgrade()
        script = ScriptDirectory(str(Path(__file__).parent.parent / "migrations"))
        revisions = [rev.revision for rev in script.walk_revisions()]  # newest first, one line of them
        assert len(script.get_heads()) == 1 and len(revisions) >= 15
        for revision in revisions:
            with db.engine.connect() as connection:
                assert MigrationContext.configure(connection).get_current_revision() == revision
            downgrade(revision="-1")
            db.session.remove()
        assert set(sa.inspect(db.engine).get_table_names()) <= {"alembic_version"}
        upgrade()
        with db.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []


def test_the_newest_migration_downgrades_with_a_club_its_game_and_night_stored(empty_app):
    """The clubs' migration steps down with a club, a club game of 28 rounds and a club night
    stored: the games and their rounds stay (the club columns go), and upgrading again builds the
    models' schema."""
    with empty_app.app_context():
        upgrade()
        client = empty_app.test_client()
        club = client.post("/api/v1/clubs", json={"name": "Down", "ladder": {}}).json
        admin = {"Authorization": f"Bearer {club['admin_token']}"}
        members = [
            client.post(f"/api/v1/clubs/{club['id']}/members", json={"name": n}, headers=admin).json["id"]
            for n in ("Anne", "Beth", "Cath", "Dirk")
        ]
        document = json.loads((EXAMPLES / "tournament-full.json").read_text())["game"]
        club_game = {**document, "players": ["Anne", "Beth", "Cath", "Dirk"], "club": club["id"], "members": members}
        joins = {"X-Club-Token": club["admin_token"]}
        assert client.post("/api/v1/games", json=club_game, headers=joins).status_code == 201
        night = {
            "format": "barbu-scorepad/event@1",
            "title": "Thursday",
            "players": ["Anne", "Beth", "Cath", "Dirk", "Eva", "Finn", "Gus", "Hal"],
            "sessions": 1,
            "preset": "tournament",
            "club": club["id"],
            "members": [*members, None, None, None, None],
        }
        assert client.post("/api/v1/events", json=night, headers=joins).status_code == 201
        db.session.remove()
        downgrade(revision="-1")
        with db.engine.connect() as connection:
            count = lambda table: connection.scalar(sa.select(sa.func.count()).select_from(sa.table(table)))  # noqa: E731
            assert (count("games"), count("rounds"), count("events")) == (
                3,
                28,
                1,
            )  # the game and the night's two tables
            assert "clubs" not in sa.inspect(connection).get_table_names()
        upgrade()
        with db.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
