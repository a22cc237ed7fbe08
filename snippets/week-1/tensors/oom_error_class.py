import torch

# The exception raised when the CUDA caching allocator cannot satisfy a
# request. It exists on every build, so code can catch it portably.
assert torch.cuda.OutOfMemoryError is torch.OutOfMemoryError
assert issubclass(torch.OutOfMemoryError, RuntimeError)
print(torch.OutOfMemoryError.__mro__[:3])
print("memory_summary:", callable(torch.cuda.memory_summary))
print("snapshot recorder:", callable(torch.cuda.memory._record_memory_history))
