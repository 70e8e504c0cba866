"""The process's one HTTP server: Slack's requests in HTTP mode, /healthz and /metrics."""
