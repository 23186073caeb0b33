"""Warband files: loading, schemas, army rules, validation, formatting, conversion, rosters."""
