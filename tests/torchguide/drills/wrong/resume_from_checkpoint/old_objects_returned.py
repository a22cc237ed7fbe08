# expect: returned objects that build() did not make
# The mistake: the state saved and loaded back into the objects that saved it; a fresh process
# has no old objects to return.
import torch


def resume(model, optimizer, scheduler, path, build):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, path)
    build()
    checkpoint = torch.load(path)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    return model, optimizer, scheduler
