# expect: torch's random state is not the one at the checkpoint
# The mistake: every state_dict saved, the random generator's state not: the batches and dropout
# masks after resuming are other ones.
import torch


def resume(model, optimizer, scheduler, path, build):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict()}, path)
    model, optimizer, scheduler = build()
    checkpoint = torch.load(path)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    scheduler.load_state_dict(checkpoint["scheduler"])
    return model, optimizer, scheduler
