"""Running the bot in production: the health and metrics server, the metrics themselves, and the lease that keeps
two processes on one database from both acting (docs/hosting.md)."""
