"""Reading the metrics page as Prometheus would, and what an action changed on it."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from bot.runtime.metrics import exposition

Page = dict[str, float]


def read() -> Page:
    """Every sample of the page now, named like `name{label=value,...}` (labels sorted);
    the `_created` timestamps left out, they are no count."""
    page: Page = {}
    for family in text_string_to_metric_families(exposition().decode("utf-8")):
        for sample in family.samples:
            if sample.name.endswith("_created"):
                continue
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            page[f"{sample.name}{{{labels}}}"] = sample.value
    return page


def changes(*, before: Page, after: Page) -> Page:
    """The samples that moved, by how much (the registry is the process's: tests share it)."""
    return {
        name: value - before.get(name, 0.0)
        for name, value in after.items()
        if value != before.get(name, 0.0)
    }


def totals(*, moved: Page) -> Page:
    """The counters among the changes."""
    return {name: value for name, value in moved.items() if "_total{" in name}


def observations(*, moved: Page, name: str, platform: str) -> float:
    """How many observations a histogram took for one platform (0 when none)."""
    return moved.get(f"{name}_count{{platform={platform}}}", 0.0)


def observed(*, before: Page, after: Page, name: str, platform: str) -> float:
    """The value of the one observation a histogram took for a platform, checked against the
    page: exactly one was taken, and the buckets that counted it are exactly those at or
    above it (so the sum is no stray number)."""
    moved = changes(before=before, after=after)
    assert observations(moved=moved, name=name, platform=platform) == 1, moved
    value = moved.get(f"{name}_sum{{platform={platform}}}", 0.0)
    prefix, suffix = f"{name}_bucket{{le=", f",platform={platform}}}"
    bounds = {
        float(sample[len(prefix) : -len(suffix)]): sample
        for sample in after
        if sample.startswith(prefix) and sample.endswith(suffix)
    }
    assert bounds, after
    counted = {bound for bound, sample in bounds.items() if moved.get(sample) == 1}
    assert counted == {bound for bound in bounds if bound >= value}, (value, counted)
    return value


LAG = "paperclub_event_lag_seconds"
SEARCH = "paperclub_search_seconds"
LATE = 200.0  # seconds: far past the lag histogram's 120 s bucket, inside its 300 s one


class Samples:
    """The sample names of one platform's counters, as read() names them."""

    def __init__(self, *, platform: str) -> None:
        """For `platform` (slack, discord, console)."""
        self.platform = platform

    def posts(self, outcome: str) -> str:
        """The post counter's sample for an outcome."""
        return f"paperclub_posts_total{{outcome={outcome},platform={self.platform}}}"

    def votes(self, source: str) -> str:
        """The vote counter's sample for a source."""
        return f"paperclub_votes_total{{platform={self.platform},source={source}}}"

    def comments(self, action: str) -> str:
        """The comment counter's sample for an action."""
        return f"paperclub_comments_total{{action={action},platform={self.platform}}}"

    def errors(self, code: str) -> str:
        """The API error counter's sample for a code."""
        return f"paperclub_chat_api_errors_total{{code={code},platform={self.platform}}}"
