"""What reading a warband file gives, whichever reader read it: the fast one (yamlfast.py) or
ruamel.yaml's (yamlload.py). Apart from both, so that the fast reader loads no ruamel.yaml."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ruamel.yaml.comments import CommentedMap

    from warband.diagnostics import Diagnostic


@dataclass(frozen=True)
class Loaded:
    """A warband file as read: its data, its diagnostics and its text."""

    data: CommentedMap | None  # the top-level mapping (round-trip data), None when unusable
    diagnostics: tuple[Diagnostic, ...]
    text: str | None  # decoded text, for rendering excerpts
