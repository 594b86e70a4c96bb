"""The biLM behind ELMo: its original weight format (and, later, pretraining)."""
