"""The biLM behind ELMo: the model, its pretraining and fine-tuning, and the original weight format."""

from tasks.bilm.commands import ExportBilm
from tasks.bilm.finetune import FinetuneBilm
from tasks.bilm.model import BidirectionalLm
