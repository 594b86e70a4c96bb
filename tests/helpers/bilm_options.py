"""Options of tiny biLMs for the tests."""


def unclipped(options):
    """Options without cell and projection clipping (null, as AllenNLP reads them): the fused torch LSTM runs them."""
    options["lstm"].update(cell_clip=None, proj_clip=None)
    return options
