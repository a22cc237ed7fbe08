import torch

# "meta" plays the accelerator: it has shapes and dtypes but no data,
# so this CPU-only example fails exactly where a GPU run would
model = torch.nn.Linear(3, 2).to("meta")
batch_x = torch.randn(4, 3)  # the batch still lives on the CPU

try:
    model(batch_x)
except RuntimeError as e:
    message = str(e)
assert message == "Tensor on device meta is not on the expected device cpu!"
print("RuntimeError:", message)

batch_x = batch_x.to("meta")  # the fix: move every input the model reads
assert model(batch_x).device.type == "meta"
print("after moving the batch:", model(batch_x).device)
