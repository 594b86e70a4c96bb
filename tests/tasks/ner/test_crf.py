import itertools

import torch

from tasks.ner.crf import ConstrainedCrf

BIOUL_LABELS = dict(enumerate(["O", "B-PER", "I-PER", "L-PER", "U-PER", "B-LOC", "I-LOC", "L-LOC", "U-LOC"]))


def _allowed(path):
    """BIOUL, written out independently of the code under test: inside an entity (after B or I)
    only I or L of the same type may follow; outside, only O, B or U may, and the path may end."""
    inside = None
    for tag in (BIOUL_LABELS[index] for index in path):
        prefix, entity_type = tag[0], tag[2:]
        if inside is not None:
            if prefix not in "IL" or entity_type != inside:
                return False
        elif prefix not in "OBU":
            return False
        inside = entity_type if prefix in "BI" else None
    return inside is None


def test_viterbi_never_decodes_an_invalid_transition():
    torch.manual_seed(0)
    crf = ConstrainedCrf(BIOUL_LABELS, "BIOUL")
    with torch.no_grad():  # learned scores that favour the forbidden transitions
        crf.free_transitions.fill_(5.0)
        crf.free_start_transitions.fill_(5.0)
        crf.free_end_transitions.fill_(5.0)
    emissions = torch.randn(64, 7, len(BIOUL_LABELS)) * 10
    lengths = torch.randint(1, 8, (64,))
    mask = torch.arange(7)[None, :] < lengths[:, None]
    paths = crf.decode(emissions, mask)
    assert [len(path) for path in paths] == lengths.tolist()
    assert all(_allowed(path) for path in paths)


def test_invalid_paths_carry_no_probability_mass():
    crf = ConstrainedCrf(BIOUL_LABELS, "BIOUL")
    emissions = torch.randn(1, 3, len(BIOUL_LABELS))
    all_paths = list(itertools.product(range(len(BIOUL_LABELS)), repeat=3))
    valid = [path for path in all_paths if _allowed(path)]
    assert 0 < len(valid) < len(all_paths)
    mask = torch.ones(1, 3, dtype=torch.bool)  # pytorch-crf's default mask is uint8, deprecated in torch 2
    log_likelihoods = torch.stack([crf(emissions, torch.tensor([path]), mask) for path in valid])
    assert torch.isclose(torch.logsumexp(log_likelihoods, 0), torch.tensor(0.0), atol=1e-4)
    invalid_path = torch.tensor([[0, 2, 3]])  # O -> I-PER
    assert crf(emissions, invalid_path, mask) < -1000


def test_learned_scores_are_the_only_parameters_and_survive_a_state_dict_round_trip():
    crf = ConstrainedCrf(BIOUL_LABELS, "BIOUL")
    assert sorted(name for name, _ in crf.named_parameters()) == [
        "free_end_transitions",
        "free_start_transitions",
        "free_transitions",
    ]
    copy = ConstrainedCrf(BIOUL_LABELS, "BIOUL")
    copy.load_state_dict(crf.state_dict())
    assert torch.equal(copy.transitions, crf.transitions)
    assert crf.transitions[0, 2] == -10000.0  # O -> I-PER is fixed
    assert crf.transitions[1, 2] == crf.free_transitions[1, 2]  # B-PER -> I-PER is learned
