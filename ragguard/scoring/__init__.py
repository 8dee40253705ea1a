"""The models and scorers, in rooms by concern, bottom first: ``lexical`` (tokens, stems, word
lists), ``interface`` (claims, evidence, the scorer protocols), ``checks`` (typed
contradiction checks), ``encoders`` (sentence encoders and their loading), ``lite`` (the lite
heads, their scorers and their training recipe), ``hub`` (scorers on hub models) and
``wiring`` (the factory, language routing, the score cache). Import from a room; this package
itself exports nothing, so importing one room never loads the others."""

from __future__ import annotations

__all__: list[str] = []
