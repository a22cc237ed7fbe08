# expect: your StringArray holds 6500 bytes of arrays for 187 bytes of UTF-8 text (bytes and offsets need at most 475)
# The mistake: a fixed-width NumPy string array; no objects, but every string is padded to the longest, 4 bytes a character.
import numpy as np


class StringArray:
    def __init__(self, strings):
        self.strings = np.array(strings, dtype=str)

    def __len__(self):
        return len(self.strings)

    def __getitem__(self, i):
        return str(self.strings[i])
