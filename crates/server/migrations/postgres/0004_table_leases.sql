-- Each table's lease: the node that serves it, the epoch of its claim (one more at each
-- claim, never reset), and when the lease runs out (Unix milliseconds). Every write for a
-- table carries the epoch of its writer's lease and is refused when it is not this one.
-- No foreign key: a table is claimed before its first row is saved.
CREATE TABLE table_leases (
    table_id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
