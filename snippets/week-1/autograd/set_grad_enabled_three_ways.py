import threading

import torch

x = torch.ones(2, requires_grad=True)


# 1. Context manager taking a flag: one code path for train and eval
# --8<-- [start:gist]
def step(is_train):
    with torch.set_grad_enabled(is_train):
        return (x * 2).requires_grad
# --8<-- [end:gist]


assert step(True) and not step(False)
assert torch.is_grad_enabled()  # the context manager lasted for its block
print("inside set_grad_enabled(True/False):", step(True), step(False))


# 2. Decorator
# --8<-- [start:gist]
@torch.set_grad_enabled(False)
def predict(t):
    return t * 2
# --8<-- [end:gist]


assert not predict(x).requires_grad and torch.is_grad_enabled()
print("decorated function output requires_grad:", predict(x).requires_grad)

# 3. Plain function call: switches grad mode until switched back ...
# --8<-- [start:gist]
torch.set_grad_enabled(False)
assert not (x * 2).requires_grad
# ... but only for THIS thread: grad mode is thread-local, not global
# --8<-- [end:gist]
seen = {}
worker = threading.Thread(
    target=lambda: seen.update(on=torch.is_grad_enabled())
)
worker.start()
worker.join()
torch.set_grad_enabled(True)
# --8<-- [start:gist]
assert seen["on"]
print("main thread after set_grad_enabled(False): grad enabled = False")
print("another thread at the same moment: grad enabled =", seen["on"])
# --8<-- [end:gist]
