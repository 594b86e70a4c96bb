"""Fine-grained sentiment on the Stanford Sentiment Treebank, SST-5 (the ELMo paper's §A.8)."""

from tasks.sst.model import ElmoBcn
from tasks.sst.predictor import SentimentClassifierPredictor
