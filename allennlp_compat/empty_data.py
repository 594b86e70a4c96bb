"""
A data file that gives no instance stops the run there, naming the file and the reader.

AllenNLP 2.10.1 reads an empty (or wholly unrecognised) training file without a word, builds an
empty vocabulary, and fails much later and far from the cause: the NER model's CRF with "invalid
number of tags: 0", other models with shape errors. We wrap `DatasetReader.read` so that a file
read whole in one process that gives no instance raises a `ConfigurationError` at the end of the
read. A process that reads only its share of a file (distributed training, data-loader workers)
may rightly get none, so it is not checked.
"""

from typing import Iterator

from allennlp.common import util
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance

_read_everything = DatasetReader.read


def read(self: DatasetReader, file_path) -> Iterator[Instance]:
    count = 0
    for instance in _read_everything(self, file_path):
        count += 1
        yield instance
    if count == 0 and self._worker_info is None and not util.is_distributed():
        raise ConfigurationError(
            f"{file_path}: no instances: the file is empty, or holds nothing the "
            f"{type(self).__name__} reader takes (check the path and the data format)"
        )


DatasetReader.read = read
