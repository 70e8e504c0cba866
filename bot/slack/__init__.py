"""The Slack edge: Bolt app, Block Kit builders, listeners, the Chat port over WebClient."""
