# expect: for 4 strings ['é', '日本', '', 'a'] your StringArray raised UnicodeDecodeError
# The mistake: offsets from len(s), which counts characters; the buffer holds bytes, two or three per non-ASCII character.
import numpy as np


class StringArray:
    def __init__(self, strings):
        self.buffer = np.frombuffer("".join(strings).encode("utf-8"), dtype=np.uint8)
        self.offsets = np.cumsum([0] + [len(s) for s in strings], dtype=np.int64)

    def __len__(self):
        return len(self.offsets) - 1

    def __getitem__(self, i):
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        i %= len(self)
        return self.buffer[self.offsets[i] : self.offsets[i + 1]].tobytes().decode("utf-8")
