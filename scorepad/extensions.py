"""Flask extensions, created unbound here and bound to the app in create_app."""

from typing import TYPE_CHECKING

from flask_babel import Babel
from flask_compress import Compress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """The declarative base of the ORM tables (scorepad.models), as ``db.Model``."""


db = SQLAlchemy(model_class=Base)
# The base class of the ORM tables. Flask-SQLAlchemy builds db.Model at run time (Base with its
# mixins: table names, binds); a type checker cannot take an attribute as a base class
# (python/mypy#8603), so it is shown Base, which declares everything the tables' columns need.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
csrf = CSRFProtect()
migrate = Migrate()
babel = Babel()
compress = Compress()  # gzip/brotli for HTML, CSS, JS and JSON
