package io.claimedoutbox.adapter.jpa;

/**
 * A transaction the caller holds, as an append joins it: JDBC work on its connection, and a report of
 * how it ended once it has.
 */
interface JoinedTransaction {

  /** Runs {@code work} on the transaction's connection, inside it. */
  void run(JdbcAccess.Work<?> work);

  /** Runs {@code committed} after a commit, {@code notCommitted} after anything else. */
  void onCompletion(Runnable committed, Runnable notCommitted);
}
