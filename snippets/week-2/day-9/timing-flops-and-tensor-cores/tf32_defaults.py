import torch

matmul = torch.backends.cuda.matmul
# float32 matmuls: full float32 precision, so no Tensor Cores by default
assert torch.get_float32_matmul_precision() == "highest"
assert matmul.allow_tf32 is False
# float32 convolutions through cuDNN: TF32 (Tensor Cores) allowed by default
assert torch.backends.cudnn.allow_tf32 is True
assert torch.backends.cudnn.conv.fp32_precision == "tf32"
print("float32 matmul precision:", torch.get_float32_matmul_precision(),
      "| matmul TF32 allowed:", matmul.allow_tf32)
print("cuDNN convolution TF32 allowed:", torch.backends.cudnn.allow_tf32)

torch.set_float32_matmul_precision("high")  # opt in to TF32 for matmuls
assert matmul.allow_tf32 is True and matmul.fp32_precision == "tf32"
print('after set_float32_matmul_precision("high"): matmul TF32 allowed:',
      matmul.allow_tf32)
