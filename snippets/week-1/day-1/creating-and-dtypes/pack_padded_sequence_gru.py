import torch
from torch import nn
from torch.nn.utils.rnn import (
    pack_padded_sequence,
    pad_packed_sequence,
    pad_sequence,
)

seqs = [torch.randn(1, 2), torch.randn(3, 2), torch.randn(2, 2)]
lengths = torch.tensor([1, 3, 2])  # NOT sorted by length
padded = pad_sequence(seqs, batch_first=True)  # (3, 3, 2)
rnn = nn.GRU(2, 4, batch_first=True)

try:
    pack_padded_sequence(padded, lengths, batch_first=True)
    raise AssertionError("expected a RuntimeError")
except RuntimeError as e:
    assert "must be sorted in decreasing order" in str(e)
    print("enforce_sorted=True (default):", str(e).split(".")[0])

# --8<-- [start:gist]
packed = pack_padded_sequence(padded, lengths, batch_first=True,
                              enforce_sorted=False)
_, h_packed = rnn(packed)
_, h_padded = rnn(padded)  # pads fed through the RNN as if they were data
alone = torch.stack([rnn(s[None])[1][0, 0] for s in seqs])

# Packing: each sequence's final state is the state at ITS last real step
assert torch.allclose(h_packed[0], alone, atol=1e-6)
assert not torch.allclose(h_padded[0][0], alone[0], atol=1e-3)
# ...and the RNN processes only real steps: 6 rows, not 3 * 3 = 9
assert packed.data.shape[0] == int(lengths.sum()) == 6
# --8<-- [end:gist]
print("rows the GRU processed:", packed.data.shape[0],
      "| padded batch x time:", padded.shape[0] * padded.shape[1])
print("batch_sizes per time step:", packed.batch_sizes.tolist())
print("final state matches running each sequence alone:")
print("  packed:", torch.allclose(h_packed[0], alone, atol=1e-6))
print("  padded:", torch.allclose(h_padded[0], alone, atol=1e-6))

out, out_lengths = pad_packed_sequence(rnn(packed)[0], batch_first=True)
assert out_lengths.tolist() == [1, 3, 2] and (out[0, 1:] == 0).all()
print("unpacked output shape:", tuple(out.shape), "lengths:",
      out_lengths.tolist())
