"""The configuration: `Config` and one strict section per table of the TOML file."""

import typing as _typing

from ragguard._exports import lazy_exports as _lazy_exports
from ragguard.config.calibration import CalibrationConfig, FittedCalibration
from ragguard.config.exporters import ExportConfig, LangfuseConfig, PhoenixConfig
from ragguard.config.judge import JudgeConfig
from ragguard.config.sections import (
    AnswerConfig,
    Config,
    ConfigLike,
    ImageConfig,
    LimitsConfig,
    LiveConfig,
    MediaConfig,
    MultilingualConfig,
    RelevanceConfig,
    ScorerConfig,
    SpanConfig,
    SupportConfig,
)
from ragguard.config.serve import ServeConfig

if _typing.TYPE_CHECKING:
    from ragguard.config.file import validate_config
    from ragguard.config.judge import JudgeCombination

__all__ = [
    "AnswerConfig",
    "CalibrationConfig",
    "Config",
    "ConfigLike",
    "ExportConfig",
    "FittedCalibration",
    "ImageConfig",
    "JudgeCombination",
    "JudgeConfig",
    "LangfuseConfig",
    "LimitsConfig",
    "LiveConfig",
    "MediaConfig",
    "MultilingualConfig",
    "PhoenixConfig",
    "RelevanceConfig",
    "ScorerConfig",
    "ServeConfig",
    "SpanConfig",
    "SupportConfig",
    "validate_config",
]

__getattr__, __dir__ = _lazy_exports(__name__, __file__, __all__)
