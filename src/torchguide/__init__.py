"""torchguide: the reusable answers of PyTorch Foundations."""
