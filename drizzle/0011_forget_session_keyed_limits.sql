-- Rate-limit counters were keyed on raw session tokens (orders, uploads, exports): forget them all. They are
-- counters of the current minute, worth nothing after it; the new keys name a user id or an address.
DELETE FROM "rate_limit_hits";
