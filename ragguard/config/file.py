"""Reading a config file with errors a user can act on: the file's name on every message,
the setting by its dotted name, and the nearest valid name for a misspelt key, instead of
a raw parser or validation error."""

from __future__ import annotations

import difflib
import tomllib
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from ragguard.errors import ConfigError

ModelT = TypeVar("ModelT", bound=BaseModel)


def read_config_file(model: type[ModelT], path: Path) -> ModelT:
    """``model`` validated from a TOML (or ``.json``) file; ConfigError on any fault of it."""
    if path.is_dir():
        raise ConfigError(f"{path} is a directory: a config is a TOML or JSON file")
    try:
        if path.suffix == ".json":
            return model.model_validate_json(path.read_bytes())
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except ValidationError as error:
        raise ConfigError(f"{path}: {_problems(model, error)}") from None
    return validate_config(model, data, str(path))


def validate_config(model: type[ModelT], data: object, source: str) -> ModelT:
    """``model`` validated from ``data`` (a dict: a config given in Python, ``wrap()``'s
    keywords); a ConfigError naming ``source``, each setting, and the nearest valid name
    of a misspelt one, as a config file gets."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ConfigError(f"{source}: {_problems(model, error)}") from None


def _problems(model: type[BaseModel], error: ValidationError) -> str:
    return "; ".join(_problem(model, issue) for issue in error.errors(include_url=False))


def _problem(model: type[BaseModel], issue: object) -> str:
    details = dict(issue)  # type: ignore[call-overload]
    location = [str(part) for part in details["loc"]]
    key = ".".join(location) or "(the file)"
    if details["type"] != "extra_forbidden":
        return f"{key}: {details['msg']}"
    section = _section(model, location[:-1])
    known = list(section.model_fields) if section is not None else []
    close = difflib.get_close_matches(location[-1], known, n=1, cutoff=0.6)
    where = "section" if isinstance(details.get("input"), dict) else "setting"
    hint = f"; did you mean `{'.'.join([*location[:-1], close[0]])}`?" if close else ""
    return f"unknown {where} `{key}`{hint}"


def _section(model: type[BaseModel], path: list[str]) -> type[BaseModel] | None:
    """The model class a dotted location inside ``model`` names, if it is a section."""
    current: type[BaseModel] = model
    for name in path:
        field = current.model_fields.get(name)
        annotation = field.annotation if field is not None else None
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return None
        current = annotation
    return current
