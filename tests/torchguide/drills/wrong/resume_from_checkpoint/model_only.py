# expect: the new optimizer does not hold the old one's state
# The mistake: the checkpoint of a model for inference, used to resume training: the optimizer
# starts its moments and step counts again.
import torch


def resume(model, optimizer, scheduler, path, build):
    torch.save(model.state_dict(), path)
    model, optimizer, scheduler = build()
    model.load_state_dict(torch.load(path))
    return model, optimizer, scheduler
