"""The base of every config section: unknown keys are errors, attribute docstrings describe."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    """A config section: a misspelt key fails loudly, and each setting's docstring is its
    description (the configuration reference is generated from them)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)
