"""Reusable answers of Day 9 (debugging): non-finite finders, the overfit-one-batch check, hook
monitors and attributions. Import them from their modules, e.g. ``from torchguide.debug.hooks import ...``."""
