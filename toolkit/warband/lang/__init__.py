"""The rules language: rules text to a checked, immutable Ruleset."""
