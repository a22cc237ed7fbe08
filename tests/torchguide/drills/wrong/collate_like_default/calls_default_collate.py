# expect: your collate calls torch.utils.data._utils.collate.default_collate; the drill asks you to write it
# The mistake: calling the very function the drill asks to write.
from torch.utils.data import default_collate as torch_collate


def collate(batch):
    return torch_collate(batch)
