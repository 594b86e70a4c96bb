"""Look inside a biLM's representations: contextual similarity, nearest neighbours in context, layer probes."""

from tasks.inspect.commands import ElmoIndex, ElmoNeighbours, ElmoProbe, ElmoSimilarity
