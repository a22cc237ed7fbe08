# docexec: timeout=60
import torch
from torch import nn

torch.set_num_threads(1)  # tiny ops: threads only add overhead
SEED = torch.initial_seed()
g = torch.Generator().manual_seed(SEED)
x = torch.randn(2048, 20, generator=g)
score = x @ torch.randn(20, generator=g) + 2 * torch.sin(3 * x[:, 0])
y = (score + torch.randn(2048, generator=g) > 0).long()
x_train, y_train, x_test, y_test = x[:1024], y[:1024], x[1024:], y[1024:]
loss_fn = nn.CrossEntropyLoss()


def train(batch_size, steps, seed):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    done = 0
    while done < steps:  # epochs of shuffled batches
        for index in torch.randperm(1024).split(batch_size):
            opt.zero_grad()
            loss_fn(model(x_train[index]), y_train[index]).backward()
            opt.step()
            done += 1
            if done == steps:
                break
    with torch.no_grad():
        train_loss = loss_fn(model(x_train), y_train).item()
        test_acc = (model(x_test).argmax(1) == y_test).float().mean().item()
    return train_loss, test_acc


# --8<-- [start:gist]
runs = {  # name: (batch size, optimizer steps)
    "batch 16, 1 epoch": (16, 64),
    "batch 256, 1 epoch": (256, 4),
    "batch 256, 64 steps": (256, 64),
}
# --8<-- [end:gist]
results = {}
for name, (b, steps) in runs.items():
    per_seed = torch.tensor([train(b, steps, SEED + 1 + k) for k in range(3)])
    results[name] = per_seed.mean(0).tolist()  # mean over 3 seeds

# --8<-- [start:gist]
small, big_epochs, big_steps = results.values()
# same epochs: the large batch made 16 x fewer steps; its TRAINING loss is
# higher too, so it is under-trained, not just generalising worse
assert big_epochs[0] > 1.5 * small[0]
# same steps: trains as far, tests as well (81 seeds: never below)
assert big_steps[0] <= small[0]
assert big_steps[1] > small[1] - 0.02
# --8<-- [end:gist]

for name, (loss, acc) in results.items():
    print(f"{name:21} train loss {loss:.2f}  test accuracy {acc:.1%}")
