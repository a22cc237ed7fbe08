"""The data-loading drills (Day 6) keep the drill contract."""

from drill_contract import (  # noqa: F401 (collected here, parametrized by DRILLS)
    test_a_wrong_solution_fails_with_its_message,
    test_each_drill_has_two_wrong_solutions,
    test_the_reference_solution_on_the_page_passes,
    test_the_stub_fails_as_not_written_yet,
)

from torchguide.drills import data_loading

DRILLS = data_loading.DRILLS
