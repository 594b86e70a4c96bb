"""Pieces the task packages share."""
