"""Day 9's debugging drills keep the drill contract."""

from drill_contract import (  # noqa: F401 (collected here, parametrized by DRILLS)
    test_a_wrong_solution_fails_with_its_message,
    test_each_drill_has_two_wrong_solutions,
    test_the_reference_solution_on_the_page_passes,
    test_the_stub_fails_as_not_written_yet,
)

from torchguide.drills import debugging

DRILLS = debugging.DRILLS


def test_the_counted_flops_are_what_flop_counter_mode_counts():
    """The checker counts from the layers' settings, since FlopCounterMode costs seconds of imports;
    here, against FlopCounterMode on the named cases and a hundred generated ones."""
    from hypothesis import HealthCheck, given, settings

    for case in debugging._flops_named():
        assert debugging._counted_flops(*case.args) == debugging._forward_flops(*case.args), case.where

    @settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(debugging._flops_generated())
    def same_count(case):
        assert debugging._counted_flops(*case.args) == debugging._forward_flops(*case.args), case.where

    same_count()
