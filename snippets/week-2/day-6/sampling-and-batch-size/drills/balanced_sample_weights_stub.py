import torch


def sample_weights(labels: torch.Tensor) -> torch.Tensor:
    """One weight per sample that balances the classes present."""
    raise NotImplementedError
