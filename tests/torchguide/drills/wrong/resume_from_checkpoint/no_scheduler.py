# expect: the new scheduler starts its schedule again
# The mistake: model and optimizer saved, the scheduler forgotten: its step count starts at 0.
import torch


def resume(model, optimizer, scheduler, path, build):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "rng": torch.get_rng_state()}, path)
    model, optimizer, scheduler = build()
    checkpoint = torch.load(path)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    torch.set_rng_state(checkpoint["rng"])
    return model, optimizer, scheduler
