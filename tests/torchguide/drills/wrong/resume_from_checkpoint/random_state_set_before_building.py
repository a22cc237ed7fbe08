# expect: torch's random state is not the one at the checkpoint
# The mistake: the checkpoint read and the random state set back first, then the new objects
# built: in the fresh process the generator is its own, and building the model draws from it.
import torch


def resume(model, optimizer, scheduler, path, build):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(), "rng": torch.get_rng_state()}, path)
    checkpoint = torch.load(path)
    torch.set_rng_state(checkpoint["rng"])
    model, optimizer, scheduler = build()
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    scheduler.load_state_dict(checkpoint["scheduler"])
    return model, optimizer, scheduler
