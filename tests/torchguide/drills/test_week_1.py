"""Week 1's drills keep the drill contract."""

from drill_contract import (  # noqa: F401 (collected here, parametrized by DRILLS)
    test_a_wrong_solution_fails_with_its_message,
    test_each_drill_has_two_wrong_solutions,
    test_the_reference_solution_on_the_page_passes,
    test_the_stub_fails_as_not_written_yet,
)

from torchguide.drills import week_1

DRILLS = week_1.DRILLS


def test_the_counted_training_bytes_are_what_a_real_adam_step_allocates():
    """The checker counts, since creating an optimizer costs seconds of imports; here, against a
    real step, for every model, dtype and amsgrad its cases can draw."""
    import itertools

    import torch

    for name, dtype, amsgrad in itertools.product(
        week_1.MODELS, (torch.float32, torch.float64, torch.bfloat16, torch.float16), (False, True)
    ):
        counted = week_1._counted_bytes(week_1._bytes_case(name, dtype, amsgrad).args[0], amsgrad)
        measured = week_1._measured_bytes(week_1._bytes_case(name, dtype, amsgrad).args[0], amsgrad)
        assert counted == measured, (name, dtype, amsgrad)
