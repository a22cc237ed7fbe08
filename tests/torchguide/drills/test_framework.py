"""The checker: counts, messages, stopping at an unwritten stub, determinism, untouched inputs."""

from __future__ import annotations

import torch

from torchguide.drills import all_drills, get
from torchguide.drills.framework import PROPERTY_SETTINGS, Case, Mismatch, check, expect_tensor


def test_hypothesis_settings_are_deterministic_and_stated():
    assert PROPERTY_SETTINGS.derandomize and PROPERTY_SETTINGS.deadline is None
    assert PROPERTY_SETTINGS.database is None  # no .hypothesis folder in the reader's directory
    assert PROPERTY_SETTINGS.max_examples == 20


def test_the_same_cases_run_every_time():
    drill = get("contiguous_from_strides")
    assert check(drill, drill.reference).passed == check(drill, drill.reference).passed


def test_a_generated_failure_is_shrunk_and_reported_as_generated():
    drill = get("contiguous_from_strides")

    def wrong_for_four_dimensions(shape, strides):
        return not drill.reference(shape, strides) if len(shape) == 4 else drill.reference(shape, strides)

    report = check(drill, wrong_for_four_dimensions)
    assert report.generated_failed and len(report.failures) == 1
    assert report.failures[0].startswith("for shape (0, 0, 0, 0)")  # the smallest four-dimensional case
    assert report.summary().startswith("contiguous_from_strides: a generated case failed after")


def test_an_unwritten_stub_stops_the_check_at_once():
    def stub(batch):
        raise NotImplementedError

    report = check(get("pad_collate"), stub)
    assert report.failures == ["pad_collate is not written yet (it raises NotImplementedError)"]


def test_a_function_that_writes_into_its_input_fails():
    def scaled_in_place(logits, targets):
        return torch.nn.functional.binary_cross_entropy_with_logits(
            logits.mul_(1.0), targets.clamp_(0.5, 0.5)
        )

    report = check(get("stable_bce_with_logits"), scaled_in_place)
    assert "your bce_with_logits changed its argument targets; leave it as it was" in report.failures[0]


def test_expect_tensor_says_shape_dtype_then_values():
    case = Case("for x", ())
    messages = []
    for got in (torch.zeros(3), torch.zeros(2, dtype=torch.int64), torch.tensor([0.0, 1.5]), [0.0, 1.0]):
        try:
            expect_tensor(case, "result", got, torch.tensor([0.0, 1.0]))
        except Mismatch as error:
            messages.append(str(error))
    assert messages == [
        "for x your result has shape (3,); expected (2,)",
        "for x your result has dtype torch.int64; expected torch.float32",
        "for x your result is [0.0, 1.5]; expected [0.0, 1.0]",
        "for x your result is a list; expected a tensor",
    ]


def test_every_drill_names_a_question_on_its_page_and_has_its_snippets(tmp_path):
    from drill_files import ROOT

    for drill in all_drills().values():
        page = (ROOT / "docs" / f"{drill.page}.md").read_text()
        assert f"{{ #{drill.question} }}" in page, (
            f"{drill.id}: no question #{drill.question} on {drill.page}"
        )
        if drill.lab:  # a lab's task: its stub and check are cells of the lab
            assert f'check_here("{drill.id}"' in (ROOT / drill.lab).read_text(), drill.id
        else:
            assert (ROOT / drill.stub_path).is_file() and (ROOT / drill.solution_path).is_file()


def test_a_function_that_cleans_nan_out_of_its_input_in_place_fails():
    def scrubbed_first(pieces):
        found = next((name for name, tensor in pieces.items() if not torch.isfinite(tensor).all()), None)
        for tensor in pieces.values():
            tensor.nan_to_num_()  # NaN and inf become numbers: the caller's tensors are changed
        return found

    report = check(get("first_nonfinite_piece"), scrubbed_first)
    assert any("changed its argument" in failure for failure in report.failures), report.failures
