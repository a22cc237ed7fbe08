# docexec: network
# docexec: timeout=120
import json
import subprocess
import sys
from pathlib import Path

# a training script as torchrun runs it: no rank, size or address in the code
Path("train.py").write_text("""
import json, os
import torch, torch.distributed as dist
dist.init_process_group("gloo")  # env://: reads what torchrun set
total = torch.tensor([dist.get_rank()])
dist.all_reduce(total)  # 0 + 1
keys = ["RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR"]
with open(f"rank{os.environ['RANK']}.json", "w") as out:  # a file each
    json.dump({**{k: os.environ[k] for k in keys}, "sum": total.item(),
               "MASTER_PORT set": "MASTER_PORT" in os.environ}, out)
dist.destroy_process_group()
""")
# --8<-- [start:gist]
command = [sys.executable, "-m", "torch.distributed.run",  # = torchrun
           "--standalone", "--nproc-per-node=2", "train.py"]
subprocess.run(command, capture_output=True, check=True)
ranks = [json.loads(Path(f"rank{r}.json").read_text()) for r in (0, 1)]
assert [r["RANK"] for r in ranks] == ["0", "1"]  # one process per rank
assert {r["WORLD_SIZE"] for r in ranks} == {"2"}
assert {r["sum"] for r in ranks} == {1}  # they found each other
assert all(r["MASTER_PORT set"] for r in ranks)  # (a free port: not printed)
# --8<-- [end:gist]
for rank in ranks:
    print(rank)

# the same launcher across machines: the options each node is started with
from torch.distributed.run import get_args_parser  # noqa: E402

options = {o for a in get_args_parser()._actions for o in a.option_strings}
assert {"--nnodes", "--node-rank", "--rdzv-endpoint"} <= options
print("torchrun also takes --nnodes, --node-rank and --rdzv-endpoint")
