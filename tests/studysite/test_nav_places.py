from studysite.curriculum import Place, page_topics, places

NAV = [
    {"Home": "index.md"},
    {
        "Phase 1 — Foundations": [
            {
                "Week 1 — The Engine": [
                    {
                        "Day 1 — Tensors": [
                            "week-1/day-1/index.md",
                            {"Memory and views": "week-1/day-1/views.md"},
                        ]
                    },
                    {"Autograd": "week-1/autograd.md"},
                ]
            },
            {"Practice": "practice.md"},
        ]
    },
]
TITLES = {
    "index.md": "Home",
    "week-1/day-1/index.md": "Day 1 — Tensors",
    "week-1/day-1/views.md": "Day 1 — Memory, views and strides",
    "week-1/autograd.md": "Autograd and backpropagation",
    "practice.md": "Practice",
    "unlisted.md": "A page the navigation leaves out",
}


def test_a_pages_place_is_its_sections_and_title_in_the_navigation():
    found = places(NAV, TITLES, {"week-1/autograd.md": ("autograd", "training")})
    week = ("Phase 1 — Foundations", "Week 1 — The Engine")
    assert found["week-1/day-1/views.md"].path == (*week, "Day 1 — Tensors", "Memory and views")
    assert found["week-1/day-1/index.md"].path == (*week, "Day 1 — Tensors")  # the section's own page
    assert found["week-1/autograd.md"] == Place(week, "Autograd", ("autograd", "training"))
    assert found["unlisted.md"].path == ("A page the navigation leaves out",)
    assert found["index.md"].path == ("Home",)


def test_the_numbered_units_of_a_place():
    place = places(NAV, TITLES, {})["week-1/day-1/views.md"]
    assert place.numbered() == {"phase": 1, "week": 1, "day": 1}
    assert places(NAV, TITLES, {})["practice.md"].numbered() == {"phase": 1}


def test_without_a_navigation_each_page_stands_under_its_title():
    found = places(None, TITLES, {})
    assert found["week-1/day-1/views.md"] == Place((), "Day 1 — Memory, views and strides")


def test_a_pages_topics_are_its_front_matter_tags():
    assert page_topics("---\ntags: [data loading, GPU]\n---\n# Page\n") == ("data loading", "GPU")
    assert page_topics("# No front matter\n") == ()
    assert page_topics("---\ntags: memory\n---\n# One tag, not in a list\n") == ("memory",)
