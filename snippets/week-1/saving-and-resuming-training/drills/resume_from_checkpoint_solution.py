import torch
from torchguide.drills import check_here


def resume(model, optimizer, scheduler, path, build):
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(),
                "rng": torch.get_rng_state()}, path)
    model, optimizer, scheduler = build()  # the fresh process
    checkpoint = torch.load(path)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    scheduler.load_state_dict(checkpoint["scheduler"])
    # last: building the model drew its initial weights from it
    torch.set_rng_state(checkpoint["rng"])
    return model, optimizer, scheduler


check_here("resume_from_checkpoint", resume)
