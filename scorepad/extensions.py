"""Flask extensions, created unbound here and bound to the app in create_app."""

from flask_babel import Babel
from flask_compress import Compress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
csrf = CSRFProtect()
migrate = Migrate()
babel = Babel()
compress = Compress()  # gzip/brotli for HTML, CSS, JS and JSON
