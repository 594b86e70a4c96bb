"""Named counters that a metric sums over every worker of a distributed training."""
from collections import Counter
from typing import Dict, List

import torch.distributed as dist
from allennlp.common.util import is_distributed


def gathered_counts(counts: Dict[str, Counter]) -> Dict[str, Counter]:
    """`counts` summed over all workers in distributed training; `counts` itself otherwise."""
    if not is_distributed():
        return counts
    every_worker: List[Dict[str, Counter]] = [{} for _ in range(dist.get_world_size())]
    dist.all_gather_object(every_worker, counts)
    return {name: sum((worker[name] for worker in every_worker), Counter()) for name in counts}
