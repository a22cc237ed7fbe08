# expect: for 3 strings ['cat.jpg', 'dog.jpg', 'bird.jpg'] array[-3] is 'dog.jpg'; expected 'cat.jpg'
# The mistake: indexing the offsets with i as given; a negative i reads offsets from the wrong end.
import numpy as np


class StringArray:
    def __init__(self, strings):
        encoded = [s.encode("utf-8") for s in strings]
        self.buffer = np.frombuffer(b"".join(encoded), dtype=np.uint8)
        self.offsets = np.cumsum([0] + [len(b) for b in encoded], dtype=np.int64)

    def __len__(self):
        return len(self.offsets) - 1

    def __getitem__(self, i):
        return self.buffer[self.offsets[i] : self.offsets[i + 1]].tobytes().decode("utf-8")
