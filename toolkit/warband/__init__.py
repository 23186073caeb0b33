"""Warband toolkit: a rules language for skirmish wargames, and the tools around it."""

__version__ = "0.1.0"
