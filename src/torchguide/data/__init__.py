"""Reusable answers of Day 6 (data engineering): collate functions, samplers, worker helpers and
datasets. Import them from their modules, e.g. ``from torchguide.data.collate import ...``."""
