# docexec: timeout=60
from pathlib import Path

import torch
from torch.utils.tensorboard import SummaryWriter
from torchguide.debug.toyvision import (
    CLASS_NAMES,
    bar_images,
    train_tiny_cnn,
)

SEED = torch.initial_seed()
train, test = bar_images(600, seed=SEED), bar_images(300, seed=SEED + 1)
model = train_tiny_cnn(train.images, train.labels)
with torch.no_grad():
    embeddings = model.embed(test.images)  # (300, 32)

# --8<-- [start:gist]
with SummaryWriter("runs/bars") as writer:
    writer.add_embedding(
        embeddings,
        metadata=[CLASS_NAMES[c] for c in test.labels],  # colour by class
        label_img=test.images,  # each point shows its image
        tag="tiny_cnn_embedding",
    )
# --8<-- [end:gist]

run = Path("runs/bars")
written = sorted(str(p.relative_to(run)) for p in run.rglob("*.*")
                 if "events" not in p.name)
print("written for the projector:", *written, sep="\n  ")
# --8<-- [start:gist]
folder = next(run.glob("*/tiny_cnn_embedding"))
rows = (folder / "tensors.tsv").read_text().splitlines()
assert len(rows) == 300 and len(rows[0].split("\t")) == 32
# --8<-- [end:gist]
assert (folder / "metadata.tsv").read_text().split()[:2] == [
    CLASS_NAMES[test.labels[0]], CLASS_NAMES[test.labels[1]]]
print(f"tensors.tsv: {len(rows)} rows of {len(rows[0].split())} numbers")
