# docexec: timeout=120
import os
import re

import torch
import torch._inductor.config
from torch._dynamo.backends.common import aot_autograd
from torch._functorch.aot_autograd import make_boxed_func
from torch._inductor.utils import run_and_get_code

# keep Inductor's on-disk cache inside the working directory
os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.abspath("inductor_cache")
# compile in this process: a pool of compile workers takes longer to start
# than this one kernel takes to compile
torch._inductor.config.compile_threads = 1
# Inductor sizes its OpenMP loops to torch's thread count: ask for two, as
# on any multi-core machine (with one thread it writes a serial loop)
torch.set_num_threads(2)


# --8<-- [start:gist]
def f(x):
    return (x.sin() * 2 + 1).relu()  # 4 ops, 3 temporaries in eager mode
# --8<-- [end:gist]


x = torch.randn(1 << 20)
# --8<-- [start:gist]
compiled = torch.compile(f)  # default backend: "inductor"
out, (code,) = run_and_get_code(compiled, x)  # source Inductor generated

torch.testing.assert_close(out, f(x))
kernels = sorted(set(re.findall(r"\bcpp_fused_\w+", code)))
assert kernels == ["cpp_fused_add_mul_relu_sin_0"]  # one fused C++ kernel
assert 'extern "C"' in code and "at::vec::Vectorized" in code  # SIMD C++
assert "#pragma omp" in code  # OpenMP threads for the big loop
# --8<-- [end:gist]
assert "triton" not in code.lower()  # Triton is the GPU code generator

# AOTAutograd gives backward a graph of its own, compiled like forward
compiled_graphs = []


def record(name):
    def compiler(graph_module, example_inputs):
        compiled_graphs.append(name)
        return make_boxed_func(graph_module.forward)
    return compiler


backend = aot_autograd(fw_compiler=record("forward"),
                       bw_compiler=record("backward"))
xg = x[:8].clone().requires_grad_()
# --8<-- [start:gist]
torch.compile(f, backend=backend)(xg).sum().backward()
assert compiled_graphs == ["forward", "backward"]
# --8<-- [end:gist]

print("kernels generated for f on CPU:", kernels)
print("C++ source:", 'extern "C"' in code,
      "| vectorized:", "Vectorized" in code,
      "| OpenMP:", "#pragma omp" in code,
      "| Triton:", "triton" in code.lower())
print("graphs compiled for f with requires_grad input:", compiled_graphs)
