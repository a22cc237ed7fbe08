import torch
from torch.utils.data import DataLoader
from torchguide.data.collate import collate_padded_sequences

# token ids of different lengths (one of them empty), and a label each
lengths = [5, 2, 0, 3]
dataset = [(torch.randint(1, 100, (n,)), n % 2) for n in lengths]

# --8<-- [start:gist]
loader = DataLoader(dataset, batch_size=4, collate_fn=collate_padded_sequences)
batch = next(iter(loader))

assert batch.sequences.shape == (4, 5)
assert batch.lengths.tolist() == lengths
assert batch.sequences[~batch.mask].eq(0).all()  # padding is 0 and masked
# --8<-- [end:gist]

# the mask lets a model ignore the padding: a masked mean over the padded
# embeddings equals the mean over each sequence's real tokens
embed = torch.nn.Embedding(100, 8)
# --8<-- [start:gist]
vectors = embed(batch.sequences)
m = batch.mask.unsqueeze(-1)
pooled = (vectors * m).sum(1) / m.sum(1).clamp(min=1)
for i, (tokens, _) in enumerate(dataset):
    if len(tokens):
        assert torch.allclose(pooled[i], embed(tokens).mean(0))
# --8<-- [end:gist]

print("sequences:\n", batch.sequences)
print("mask:\n", batch.mask.int())
print("lengths:", batch.lengths.tolist(), "| labels:", batch.labels.tolist())
