-- Rate-limit counters are worth nothing after a crash (a window of at most a minute): unlogged, a hit writes no WAL
-- and its commit waits for no flush, so counting a request costs far less than the request it guards.
ALTER TABLE "rate_limit_hits" SET UNLOGGED;
