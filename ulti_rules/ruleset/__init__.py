"""Rules as data: the schema, the loader and the ladder checks."""
