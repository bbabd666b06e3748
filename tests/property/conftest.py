"""Loads the property tests' hypothesis profile before any test module is imported (profiles.py)."""

from . import profiles  # noqa: F401  (registers and loads the profile)
