# expect: your StringArray keeps a list in self.strings: reading its items writes their reference counts
# The mistake the page explains: a list of str, whose objects every worker copies as it reads them.
class StringArray:
    def __init__(self, strings):
        self.strings = list(strings)

    def __len__(self):
        return len(self.strings)

    def __getitem__(self, i):
        return self.strings[i]
