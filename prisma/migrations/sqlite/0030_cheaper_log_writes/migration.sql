-- Nothing to change on SQLite. PostgreSQL's 0030 computes the same search words and hour counts
-- with less work per log; SQLite's FTS5 `ascii` tokenizer (0025_log_search) already lower-cases
-- ASCII letters only, and its hour-count triggers (0029_log_hours) are plain statements. The
-- folder keeps both engines' migrations numbered alike.
SELECT 1;
