"""`allennlp demo`: trained models on a local web page, with a JSON API that answers as `allennlp predict`."""

from tasks.demo.commands import Demo
