# expect: the restored model holds NaN: what you restored was the old model's own tensors
# The mistake: the state_dicts kept in a variable rather than saved: state_dict() returns the
# model's own tensors, not copies, and they go with the old process.
import torch


def resume(model, optimizer, scheduler, path, build):
    checkpoint = {"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                  "scheduler": scheduler.state_dict(), "rng": torch.get_rng_state()}
    model, optimizer, scheduler = build()
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    scheduler.load_state_dict(checkpoint["scheduler"])
    torch.set_rng_state(checkpoint["rng"])
    return model, optimizer, scheduler
