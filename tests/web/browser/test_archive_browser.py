"""The archive in a real headless browser: search and paging, a paper and its thread link,
the SVG charts, a phone's width, and a hostile title that must stay text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.archive_data import PRIVATE_COMMENT, SCRIPT, Seeded

Archive = tuple[str, Seeded]


def test_search_page_through_open_a_paper_and_its_thread(page: Any, archive: Archive) -> None:
    """Home, a search typed in the form, the next page, a paper, its thread link's href."""
    base, _ = archive
    page.goto(base + "/")
    assert page.locator("h1").inner_text() == "Latest posts"
    assert page.locator("ol.posts li").count() == 20
    page.fill("input[name=q]", "transformers")
    page.click("button[type=submit]")
    assert page.locator("#count").inner_text().startswith("32 found")
    first = page.locator("ol.posts li a.paper").all_inner_texts()
    assert len(first) == 10
    page.click("a[rel=next]")
    page.wait_for_url("**offset=10**")
    second = page.locator("ol.posts li a.paper").all_inner_texts()
    assert len(second) == 10 and not set(first) & set(second)
    page.locator("ol.posts li a.paper").first.click()
    page.wait_for_url("**/paper/**")
    assert page.locator("h1#title").inner_text() == second[0]
    paper_id = page.url.split("/paper/")[1].split("?")[0]
    twin = page.request.get(f"{base}/api/paper/{paper_id}").json()
    links = page.locator("a.thread")
    hrefs = [links.nth(n).get_attribute("href") for n in range(links.count())]
    # The thread is in Slack, outside loopback: its href is checked, never followed.
    assert hrefs == [post["permalink"] for post in twin["posts"]] and hrefs
    assert PRIVATE_COMMENT not in page.content()


def test_the_svg_charts_count_what_was_posted(page: Any, archive: Archive) -> None:
    """The weekly bars and the calendar add up to the posts the JSON twin counts; a paper's
    vote chart has a point per vote."""
    base, ids = archive
    total = page.request.get(base + "/api/").json()["total"]
    page.goto(base + "/charts/weeks.svg")
    assert page.locator("rect.bar").count() == 26 * 3
    posts = [
        int(v)
        for v in page.locator("rect.bar.posts").evaluate_all(
            "bars => bars.map(b => b.dataset.value)"
        )
    ]
    assert sum(posts) == total
    assert (
        "posts in the week of 2026-11-30" in page.locator("rect.bar.posts title").last.inner_html()
    )
    values = page.locator("rect.bar").evaluate_all("bars => bars.map(b => +b.dataset.value)")
    assert page.locator("text.peak").text_content() == str(max(values))  # the scale
    months = ["Jun 2026", "Jul", "Aug", "Sep", "Oct", "Nov"]  # 26 weeks back from Nov 30
    assert page.locator("text.tick").all_text_contents() == months
    page.goto(base + "/charts/calendar.svg")
    counts = page.locator("rect.day").evaluate_all("days => days.map(d => +d.dataset.count)")
    assert sum(counts) == total and page.locator("rect.day title").first.inner_html()
    assert page.locator("text.tick").all_text_contents() == months
    twin = page.request.get(f"{base}/api/paper/{ids.script_paper}").json()
    page.goto(f"{base}/charts/paper/{ids.script_paper}/votes.svg")
    assert page.locator("circle.vote").count() == len(twin["votes_over_time"]) > 0


def test_a_phone_width_scrolls_only_down(page: Any, archive: Archive) -> None:
    """At 375 px no page is wider than the screen, the 10,000-character abstract included."""
    base, ids = archive
    page.set_viewport_size({"width": 375, "height": 700})
    for path in (
        "/",
        "/search?q=transformers",
        f"/paper/{ids.long_paper}",
        f"/paper/{ids.script_paper}",
        "/top/year",
    ):
        page.goto(base + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, (path, width)


def test_a_script_title_is_text_and_runs_nothing(page: Any, archive: Archive) -> None:
    """A paper titled <script>alert(1)</script> shows those characters and opens no dialog."""
    base, ids = archive
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(f"{base}/paper/{ids.script_paper}")
    assert page.locator("h1#title").inner_text() == SCRIPT
    assert page.title().startswith(SCRIPT)
    page.goto(base + "/search?q=alert")
    assert SCRIPT in page.locator("ol.posts").inner_text()
    page.goto(base + "/top/year")
    assert page.locator("script").count() == 0 and dialogs == []


def test_the_home_page_renders_to_a_screenshot(page: Any, archive: Archive, tmp_path: Path) -> None:
    """The home page renders to a PNG (docs/archive.png itself comes from real-looking data:
    python -m bench.screenshot)."""
    base, _ = archive
    page.set_viewport_size({"width": 820, "height": 640})
    page.goto(base + "/")
    page.wait_for_load_state("load")
    target = tmp_path / "a.png"
    page.screenshot(path=str(target))
    assert target.stat().st_size > 10_000
