"""The SQLAlchemy edge: schema, engine, store and full-text search per dialect."""
