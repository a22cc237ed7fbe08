def collate(batch):
    """What default_collate does with arrays, numbers and strings."""
    raise NotImplementedError
