"""The transaction coordinator (KIP-98): transactional ids, their state in ``__transaction_state``,
and the COMMIT/ABORT markers it writes to every partition of a transaction."""
