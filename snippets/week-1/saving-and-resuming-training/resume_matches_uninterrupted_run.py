import torch
from torch import nn

STEPS, SAVE_AT = 8, 4
PARTS = ("optimizer", "scheduler", "rng")


def build():
    model = nn.Sequential(nn.Linear(4, 16), nn.Dropout(0.2), nn.Linear(16, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 3, gamma=0.5)
    return model, optimizer, scheduler


def train(model, optimizer, scheduler, steps):
    for _ in range(steps):  # batches and dropout masks come from the RNG
        x, y = torch.randn(8, 4), torch.randn(8, 1)
        nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()
        scheduler.step()


def weights(model):
    return torch.cat([p.detach().flatten() for p in model.parameters()])


start = torch.get_rng_state()
model, optimizer, scheduler = build()
train(model, optimizer, scheduler, STEPS)
uninterrupted = weights(model)


def resumed(restore):
    torch.set_rng_state(start)
    model, optimizer, scheduler = build()
    train(model, optimizer, scheduler, SAVE_AT)
    # --8<-- [start:gist]
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(),
                "rng": torch.get_rng_state()}, "checkpoint.pt")
    # --8<-- [end:gist]
    torch.randn(1000)  # the process moves on, and its RNG with it
    # --8<-- [start:gist]
    checkpoint = torch.load("checkpoint.pt")
    model, optimizer, scheduler = build()  # a fresh model, then its state
    model.load_state_dict(checkpoint["model"])
    # --8<-- [end:gist]
    if "optimizer" in restore:
        optimizer.load_state_dict(checkpoint["optimizer"])
    if "scheduler" in restore:
        scheduler.load_state_dict(checkpoint["scheduler"])
    if "rng" in restore:
        torch.set_rng_state(checkpoint["rng"])
    train(model, optimizer, scheduler, STEPS - SAVE_AT)
    return weights(model)


# --8<-- [start:gist]
assert torch.equal(resumed(restore=PARTS), uninterrupted)  # bit for bit
# --8<-- [end:gist]
print("model + optimizer + scheduler + RNG restored: bit-exact:", True)
for missing in PARTS:
    drift = (resumed([p for p in PARTS if p != missing])
             - uninterrupted).abs().max().item()
    assert drift > 0
    print(f"without the {missing + ' state:':16} weights differ by up to "
          f"{drift:.1e}")
