"""The Alembic migrations build the same schema as the models, on a real SQLite file."""

import sqlalchemy as sa
from flask_migrate import upgrade
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from scorepad import create_app
from scorepad.config import TestConfig
from scorepad.extensions import db


def test_upgrade_creates_the_tables_of_the_models(tmp_path):
    class Config(TestConfig):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{tmp_path / 'migrated.sqlite3'}"

    app = create_app(Config)
    with app.app_context():
        upgrade()
        tables = set(sa.inspect(db.engine).get_table_names())
        assert {"games", "rounds", "alembic_version"} <= tables
        with db.engine.connect() as connection:
            # No difference left between the migrated schema and the models.
            assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
        db.engine.dispose()
