# expect: raised UnpicklingError
# The mistake: torch.save(model) pickles the module's class by name; torch.load's default,
# weights_only=True, refuses to unpickle it.
import torch


def resume(model, optimizer, scheduler, path, build):
    torch.save({"model": model, "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(), "rng": torch.get_rng_state()}, path)
    _, optimizer, scheduler = build()
    checkpoint = torch.load(path)
    model = checkpoint["model"]
    optimizer.load_state_dict(checkpoint["optimizer"])
    scheduler.load_state_dict(checkpoint["scheduler"])
    torch.set_rng_state(checkpoint["rng"])
    return model, optimizer, scheduler
