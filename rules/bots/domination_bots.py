"""Bots for domination (filled in by the heuristic-bot work)."""

from __future__ import annotations
