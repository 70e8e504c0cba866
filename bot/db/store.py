"""ports.Store over SQLAlchemy: one instance per unit of work, offering every role's methods.

Each role is a standalone SQL class on the unit of work (bot/db/unit.py) implementing its port
(SqlActivity is ports.ActivityStore, ...). SqlStore holds the unit and offers each role's
methods as its own, one line each (unit.Offer); the unit makes a role object on first use, so a
vote pays for the activity role alone, and mypy checks SqlStore against ports.Store method by
method.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session

from bot.db.activity import SqlActivity
from bot.db.archive_pages import SqlArchivePages
from bot.db.delivered import DeliveredPosts
from bot.db.enrichment import SqlEnrichment
from bot.db.group_commit import WriteScope
from bot.db.group_history import SqlGroupHistory
from bot.db.home import SqlHome
from bot.db.lists import SqlLists
from bot.db.meeting_notices import SqlMeetingNotices
from bot.db.meeting_sessions import SqlSessions
from bot.db.meetings import SqlMeetings
from bot.db.names import SqlNames
from bot.db.papers import SqlPapers
from bot.db.polls import SqlPolls
from bot.db.posts import SqlPosts
from bot.db.presenters import SqlPresenters
from bot.db.ranking import SqlRanking
from bot.db.reconcile import SqlReconcile
from bot.db.reconcile_posts import SqlReconcilePosts
from bot.db.rotation import SqlRotation
from bot.db.search import SqlSearch
from bot.db.search_words import SqlWords
from bot.db.semantic import SqlSemantic
from bot.db.session_history import SqlSessionHistory
from bot.db.session_memory import SqlSessionMemory
from bot.db.session_polls import SqlSessionPolls
from bot.db.suggestions import SqlSuggestions
from bot.db.titles import SqlTitles
from bot.db.trays import SqlTrays
from bot.db.unit import Offer, Unit
from bot.db.watches import SqlWatches
from bot.db.workspaces import SqlWorkspaces
from bot.db.zotero import SqlZotero
from bot.db.zotero_link_changes import SqlZoteroLinkChanges


class SqlStore:
    """The Store of one unit of work; the unit of work commits or rolls back around it."""

    def __init__(
        self,
        *,
        session: Session | None = None,
        scope: WriteScope | None = None,
        opener: Callable[[], Session] | None = None,
        delivered: DeliveredPosts | None = None,
    ) -> None:
        """Bind to a session, a write scope or a session opener (see Unit); `delivered`: the
        database's memo of delivered posts, shared by its units of work."""
        self.unit = Unit(session=session, scope=scope, opener=opener, delivered=delivered)

    @property
    def session(self) -> Session:
        """The ORM session of this unit of work (a write scope opens it on first use)."""
        return self.unit.session

    @property
    def delivered(self) -> DeliveredPosts:
        """The database's memo of delivered posts (what post_by_id and post_by_message know)."""
        return self.unit.delivered

    @property
    def opened(self) -> Session | None:
        """The session an opener made, once something asked for it (else None)."""
        return self.unit.opened

    # Workspaces (ports.WorkspacesStore).
    workspaces = Offer(SqlWorkspaces, SqlWorkspaces.workspaces)
    workspace_id = Offer(SqlWorkspaces, SqlWorkspaces.workspace_id)
    move_papers = Offer(SqlWorkspaces, SqlWorkspaces.move_papers)
    queued_by_workspace = Offer(SqlWorkspaces, SqlWorkspaces.queued_by_workspace)
    # Papers, their queue and records (ports.PapersStore: paper_by_title is SqlTitles',
    # paper and set_paper_status SqlPosts'); reading lists (ports.ListsStore).
    known_keys = Offer(SqlPapers, SqlPapers.known_keys)
    max_position = Offer(SqlPapers, SqlPapers.max_position)
    insert_papers = Offer(SqlPapers, SqlPapers.insert_papers)
    queued = Offer(SqlPapers, SqlPapers.queued)
    count_queued = Offer(SqlPapers, SqlPapers.count_queued)
    paper_by_keys = Offer(SqlPapers, SqlPapers.paper_by_keys)
    queue_position = Offer(SqlPapers, SqlPapers.queue_position)
    post_views = Offer(SqlPapers, SqlPapers.post_views)
    paper_records = Offer(SqlPapers, SqlPapers.paper_records)
    paper_by_title = Offer(SqlTitles, SqlTitles.paper_by_title)
    reading_list = Offer(SqlLists, SqlLists.reading_list)
    list_name = Offer(SqlLists, SqlLists.list_name)
    # Channels, daily posts and weekly recaps (ports.ChannelsStore, PostsStore, RecapsStore).
    paper = Offer(SqlPosts, SqlPosts.paper)
    set_paper_status = Offer(SqlPosts, SqlPosts.set_paper_status)
    channels = Offer(SqlPosts, SqlPosts.channels)
    channel = Offer(SqlPosts, SqlPosts.channel)
    save_channel = Offer(SqlPosts, SqlPosts.save_channel)
    add_channel_if_missing = Offer(SqlPosts, SqlPosts.add_channel_if_missing)
    set_channel_flags = Offer(SqlPosts, SqlPosts.set_channel_flags)
    set_recap = Offer(SqlPosts, SqlPosts.set_recap)
    claim_recap = Offer(SqlPosts, SqlPosts.claim_recap)
    settle_recap = Offer(SqlPosts, SqlPosts.settle_recap)
    post_on = Offer(SqlPosts, SqlPosts.post_on)
    claim_post = Offer(SqlPosts, SqlPosts.claim_post)
    take_over = Offer(SqlPosts, SqlPosts.take_over)
    mark_posted = Offer(SqlPosts, SqlPosts.mark_posted)
    release_post = Offer(SqlPosts, SqlPosts.release_post)
    pending_posts = Offer(SqlPosts, SqlPosts.pending_posts)
    vote_count = Offer(SqlPosts, SqlPosts.vote_count)
    recap_before = Offer(SqlPosts, SqlPosts.recap_before)
    top_posts = Offer(SqlRanking, SqlRanking.top_posts)
    # What members do (ports.ActivityStore) and their own latest of it (ports.HomeStore).
    mark_event = Offer(SqlActivity, SqlActivity.mark_event)
    forget_event = Offer(SqlActivity, SqlActivity.forget_event)
    prune_events = Offer(SqlActivity, SqlActivity.prune_events)
    post_by_message = Offer(SqlActivity, SqlActivity.post_by_message)
    post_by_id = Offer(SqlActivity, SqlActivity.post_by_id)
    vote_of = Offer(SqlActivity, SqlActivity.vote_of)
    set_vote = Offer(SqlActivity, SqlActivity.set_vote)
    clear_vote = Offer(SqlActivity, SqlActivity.clear_vote)
    comment_at = Offer(SqlActivity, SqlActivity.comment_at)
    add_comment = Offer(SqlActivity, SqlActivity.add_comment)
    edit_comment = Offer(SqlActivity, SqlActivity.edit_comment)
    delete_comment = Offer(SqlActivity, SqlActivity.delete_comment)
    votes_by = Offer(SqlHome, SqlHome.votes_by)
    comments_by = Offer(SqlHome, SqlHome.comments_by)
    # Keyword search (ports.SearchStore) and enrichment (ports.EnrichmentStore).
    search = Offer(SqlSearch, SqlSearch.search)
    words_near = Offer(SqlWords, SqlWords.words_near)
    papers_to_enrich = Offer(SqlEnrichment, SqlEnrichment.papers_to_enrich)
    enrichment_state = Offer(SqlEnrichment, SqlEnrichment.enrichment_state)
    id_taken = Offer(SqlEnrichment, SqlEnrichment.id_taken)
    apply_enrichment = Offer(SqlEnrichment, SqlEnrichment.apply_enrichment)
    keep_candidates = Offer(SqlEnrichment, SqlEnrichment.keep_candidates)
    candidates_of = Offer(SqlEnrichment, SqlEnrichment.candidates_of)
    cached_answer = Offer(SqlEnrichment, SqlEnrichment.cached_answer)
    keep_answer = Offer(SqlEnrichment, SqlEnrichment.keep_answer)
    # The web archive (ports.ArchivePagesStore) and the semantic extra (ports.SemanticStore).
    public_posts = Offer(SqlArchivePages, SqlArchivePages.public_posts)
    public_paper = Offer(SqlArchivePages, SqlArchivePages.public_paper)
    public_posted_papers = Offer(SqlArchivePages, SqlArchivePages.public_posted_papers)
    public_channels = Offer(SqlArchivePages, SqlArchivePages.public_channels)
    public_weeks = Offer(SqlArchivePages, SqlArchivePages.public_weeks)
    public_vote_moments = Offer(SqlArchivePages, SqlArchivePages.public_vote_moments)
    public_post_days = Offer(SqlArchivePages, SqlArchivePages.public_post_days)
    record_names = Offer(SqlNames, SqlNames.record_names)
    names_in = Offer(SqlNames, SqlNames.names_in)
    names_wanted = Offer(SqlNames, SqlNames.names_wanted)
    search_run = Offer(SqlSemantic, SqlSemantic.search_run)
    vector_version = Offer(SqlSemantic, SqlSemantic.vector_version)
    newest_vector = Offer(SqlSemantic, SqlSemantic.newest_vector)
    vectors_after = Offer(SqlSemantic, SqlSemantic.vectors_after)
    papers_to_embed = Offer(SqlSemantic, SqlSemantic.papers_to_embed)
    count_to_embed = Offer(SqlSemantic, SqlSemantic.count_to_embed)
    save_vectors = Offer(SqlSemantic, SqlSemantic.save_vectors)
    read_papers = Offer(SqlSemantic, SqlSemantic.read_papers)
    set_pick_order = Offer(SqlSemantic, SqlSemantic.set_pick_order)
    pick_reason = Offer(SqlSemantic, SqlSemantic.pick_reason)
    set_pick_reason = Offer(SqlSemantic, SqlSemantic.set_pick_reason)
    # Reading back what was missed (ports.ReconcileStore).
    want_reconcile = Offer(SqlReconcile, SqlReconcile.want_reconcile)
    want_channel_reconciled = Offer(SqlReconcile, SqlReconcile.want_channel_reconciled)
    reconcile_due = Offer(SqlReconcile, SqlReconcile.reconcile_due)
    reconcile_holder = Offer(SqlReconcile, SqlReconcile.reconcile_holder)
    claim_reconcile = Offer(SqlReconcile, SqlReconcile.claim_reconcile)
    reconcile_progress = Offer(SqlReconcile, SqlReconcile.reconcile_progress)
    finish_reconcile = Offer(SqlReconcile, SqlReconcile.finish_reconcile)
    posts_to_reconcile = Offer(SqlReconcilePosts, SqlReconcilePosts.posts_to_reconcile)
    mark_reconciled = Offer(SqlReconcilePosts, SqlReconcilePosts.mark_reconciled)
    forget_gone_presence = Offer(SqlReconcilePosts, SqlReconcilePosts.forget_gone_presence)
    votes_on = Offer(SqlReconcilePosts, SqlReconcilePosts.votes_on)
    comments_on = Offer(SqlReconcilePosts, SqlReconcilePosts.comments_on)
    reconcile_status = Offer(SqlReconcile, SqlReconcile.reconcile_status)
    set_reconcile_window = Offer(SqlReconcile, SqlReconcile.set_reconcile_window)
    # Sources: watches, suggestions and trays (ports.SourcesStore).
    add_watch = Offer(SqlWatches, SqlWatches.add_watch)
    remove_watch = Offer(SqlWatches, SqlWatches.remove_watch)
    watches = Offer(SqlWatches, SqlWatches.watches)
    channels_watching = Offer(SqlWatches, SqlWatches.channels_watching)
    source_state = Offer(SqlWatches, SqlWatches.source_state)
    save_source_state = Offer(SqlWatches, SqlWatches.save_source_state)
    add_suggestions = Offer(SqlSuggestions, SqlSuggestions.add_suggestions)
    suggestions = Offer(SqlSuggestions, SqlSuggestions.suggestions)
    suggestion = Offer(SqlSuggestions, SqlSuggestions.suggestion)
    count_suggestions = Offer(SqlSuggestions, SqlSuggestions.count_suggestions)
    decide_suggestion = Offer(SqlSuggestions, SqlSuggestions.decide_suggestion)
    group_history = Offer(SqlGroupHistory, SqlGroupHistory.group_history)
    tray_on = Offer(SqlTrays, SqlTrays.tray_on)
    open_tray = Offer(SqlTrays, SqlTrays.open_tray)
    tray_posted = Offer(SqlTrays, SqlTrays.tray_posted)
    tray_refused = Offer(SqlTrays, SqlTrays.tray_refused)
    claim_tray = Offer(SqlTrays, SqlTrays.claim_tray)
    unposted_trays = Offer(SqlTrays, SqlTrays.unposted_trays)
    tray_of = Offer(SqlTrays, SqlTrays.tray_of)
    tray_settings = Offer(SqlTrays, SqlTrays.tray_settings)
    save_tray_settings = Offer(SqlTrays, SqlTrays.save_tray_settings)
    # Meetings: a channel's meeting, its sessions, notices and RSVPs (ports.MeetingsStore).
    meeting_plan = Offer(SqlMeetings, SqlMeetings.meeting_plan)
    save_meeting = Offer(SqlMeetings, SqlMeetings.save_meeting)
    drop_meeting = Offer(SqlMeetings, SqlMeetings.drop_meeting)
    add_change = Offer(SqlMeetings, SqlMeetings.add_change)
    drop_change = Offer(SqlMeetings, SqlMeetings.drop_change)
    meeting_channels = Offer(SqlMeetings, SqlMeetings.meeting_channels)
    session_records = Offer(SqlSessions, SqlSessions.session_records)
    session_record = Offer(SqlSessions, SqlSessions.session_record)
    add_session = Offer(SqlSessions, SqlSessions.add_session)
    change_session = Offer(SqlSessions, SqlSessions.change_session)
    platform_event_channels = Offer(SqlSessions, SqlSessions.platform_event_channels)
    note_platform_event = Offer(SqlSessions, SqlSessions.note_platform_event)
    open_notice = Offer(SqlMeetingNotices, SqlMeetingNotices.open_notice)
    claim_notice = Offer(SqlMeetingNotices, SqlMeetingNotices.claim_notice)
    notice_refused = Offer(SqlMeetingNotices, SqlMeetingNotices.notice_refused)
    notice_sent = Offer(SqlMeetingNotices, SqlMeetingNotices.notice_sent)
    unsent_notices = Offer(SqlMeetingNotices, SqlMeetingNotices.unsent_notices)
    notices_of = Offer(SqlMeetingNotices, SqlMeetingNotices.notices_of)
    set_rsvp = Offer(SqlMeetingNotices, SqlMeetingNotices.set_rsvp)
    rsvps = Offer(SqlMeetingNotices, SqlMeetingNotices.rsvps)
    # Polls: a channel's settings, nominations and ballots, each session's poll
    # (ports.PollsStore).
    poll_settings = Offer(SqlPolls, SqlPolls.poll_settings)
    save_poll_settings = Offer(SqlPolls, SqlPolls.save_poll_settings)
    nominate = Offer(SqlPolls, SqlPolls.nominate)
    nominations = Offer(SqlPolls, SqlPolls.nominations)
    cast_ballot = Offer(SqlPolls, SqlPolls.cast_ballot)
    ballots = Offer(SqlPolls, SqlPolls.ballots)
    session_poll = Offer(SqlSessionPolls, SqlSessionPolls.session_poll)
    open_poll = Offer(SqlSessionPolls, SqlSessionPolls.open_poll)
    close_poll = Offer(SqlSessionPolls, SqlSessionPolls.close_poll)
    chosen_paper = Offer(SqlSessionPolls, SqlSessionPolls.chosen_paper)
    release_choice = Offer(SqlSessionPolls, SqlSessionPolls.release_choice)
    # Presenters: a channel's rotation, each session's presenter, swaps
    # (ports.PresentersStore).
    rotation = Offer(SqlRotation, SqlRotation.rotation)
    join_rotation = Offer(SqlRotation, SqlRotation.join_rotation)
    leave_rotation = Offer(SqlRotation, SqlRotation.leave_rotation)
    set_away = Offer(SqlRotation, SqlRotation.set_away)
    presenters = Offer(SqlPresenters, SqlPresenters.presenters)
    presenter_of = Offer(SqlPresenters, SqlPresenters.presenter_of)
    assign_presenter = Offer(SqlPresenters, SqlPresenters.assign_presenter)
    presenter_told = Offer(SqlPresenters, SqlPresenters.presenter_told)
    ask_swap = Offer(SqlPresenters, SqlPresenters.ask_swap)
    swap = Offer(SqlPresenters, SqlPresenters.swap)
    decide_swap = Offer(SqlPresenters, SqlPresenters.decide_swap)
    # After a session: members' ratings and the links added (ports.SessionMemoryStore).
    rate_session = Offer(SqlSessionMemory, SqlSessionMemory.rate_session)
    ratings = Offer(SqlSessionMemory, SqlSessionMemory.ratings)
    rated_papers = Offer(SqlSessionMemory, SqlSessionMemory.rated_papers)
    add_session_link = Offer(SqlSessionMemory, SqlSessionMemory.add_session_link)
    session_links = Offer(SqlSessionMemory, SqlSessionMemory.session_links)
    # The club's record of its sessions, read at once (ports.SessionHistoryStore).
    session_history = Offer(SqlSessionHistory, SqlSessionHistory.session_history)
    # Zotero: each channel's link to a library, its posted papers, their copies there
    # (ports.ZoteroStore).
    zotero_link = Offer(SqlZotero, SqlZotero.zotero_link)
    zotero_links = Offer(SqlZotero, SqlZotero.zotero_links)
    save_zotero_link = Offer(SqlZotero, SqlZotero.save_zotero_link)
    save_zotero_sync = Offer(SqlZotero, SqlZotero.save_zotero_sync)
    plan_zotero_destination = Offer(SqlZotero, SqlZotero.plan_zotero_destination)
    remove_zotero_link = Offer(SqlZotero, SqlZotero.remove_zotero_link)
    lock_zotero_link = Offer(SqlZoteroLinkChanges, SqlZoteroLinkChanges.lock_zotero_link)
    pause_zotero_link = Offer(SqlZoteroLinkChanges, SqlZoteroLinkChanges.pause_zotero_link)
    clear_zotero_failing = Offer(SqlZoteroLinkChanges, SqlZoteroLinkChanges.clear_zotero_failing)
    posted_papers = Offer(SqlZotero, SqlZotero.posted_papers)
    zotero_copies = Offer(SqlZotero, SqlZotero.zotero_copies)
    plan_zotero_copies = Offer(SqlZotero, SqlZotero.plan_zotero_copies)
    save_zotero_copies = Offer(SqlZotero, SqlZotero.save_zotero_copies)
