import torch

# The exception raised when the CUDA caching allocator cannot satisfy a
# request. It exists on every build, so code can catch it portably.
assert torch.cuda.OutOfMemoryError is torch.OutOfMemoryError
assert issubclass(torch.OutOfMemoryError, RuntimeError)
print(torch.OutOfMemoryError.__mro__[:3])

# the allocator's counters and the snapshot recorder, present on every build
tools = [torch.cuda.memory_allocated, torch.cuda.memory_reserved,
         torch.cuda.memory_summary, torch.cuda.memory._record_memory_history]
assert all(callable(tool) for tool in tools)
print("callable:", ", ".join(tool.__name__ for tool in tools))
