"""The biLM behind ELMo: the model, its pretraining, and the original weight format."""
from tasks.bilm.commands import ExportBilm
from tasks.bilm.model import BidirectionalLm
