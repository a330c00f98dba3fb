"""Matches, frames, strokes, events and the ladder will live here."""
