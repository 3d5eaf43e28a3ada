"""The configuration: its sections and their documented keys (sections.py), read and checked once from
config.yaml and the environment (load.py), the shipped file and the README's table made from the keys'
own lines (docs.py)."""
from .load import ENV_OVERRIDES, SHIPPED_CONFIG, ConfigError, config_file, load_config, snapshot_file, user_config_file
from .sections import (BudgetConfig, Config, Example, Lines, LLMConfig, MemoryConfig, PersonaConfig, RecallConfig,
                       SessionConfig, SpeakersConfig, STTConfig, TTSConfig, VoiceConfig, WakeConfig)

__all__ = [
    "BudgetConfig", "Config", "ConfigError", "ENV_OVERRIDES", "Example", "LLMConfig", "Lines", "MemoryConfig",
    "PersonaConfig", "RecallConfig", "SHIPPED_CONFIG", "STTConfig", "SessionConfig", "SpeakersConfig", "TTSConfig", "VoiceConfig",
    "WakeConfig", "config_file", "load_config", "snapshot_file", "user_config_file",
]
