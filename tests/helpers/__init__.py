"""
What the tests share that is not a fixture (the fixtures are in tests/conftest.py): the repository
and the `allennlp` command (`repository`), and the tiny data files the tests write, by task.
Nothing here is a test.
"""
