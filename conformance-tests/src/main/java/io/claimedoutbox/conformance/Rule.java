package io.claimedoutbox.conformance;

import io.claimedoutbox.port.OperationArguments;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.UndecodableEntryException;
import io.claimedoutbox.port.spi.StoreTimeClock;
import io.claimedoutbox.port.spi.LostAcknowledgement;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import java.util.Locale;

/**
 * The numbered rules of the conformance suite. Every test is named after exactly one rule (its
 * method name starts with the rule id), and every failure message names the rule and says what to
 * check. The module's README lists the same rules; a test keeps the two in step.
 */
public enum Rule {
  A1(Level.REQUIRED, "An appended message is stored PENDING at revision 1 and read back unchanged",
      "the mapping of every field (payload bytes, headers, ordering key, instants to the millisecond)"),
  A2(Level.REQUIRED, "appendAll stores a batch in order, each entry with its own id",
      "that the batch is written in one transaction and the result keeps the input order"),
  A3(Level.REQUIRED, "delete removes a row whatever its status and says whether there was one",
      "that delete reports the affected row count, not success"),
  A4(Level.REQUIRED, "find of an unknown id is empty",
      "that a missing row maps to Optional.empty(), not to an exception or a made-up entry"),
  A5(Level.REQUIRED, "Every call is heard by the store's listeners once, with its answer: an append, a claim, every"
      + " transition of a batch, a find, a delete; a rejected argument reaches none, a closed registration hears"
      + " nothing more",
      "that the store extends KernelOutboxStore (io.claimedoutbox.port.spi), or runs each public call through"
      + " StoreListeners"),

  C1(Level.REQUIRED, "claimDue picks only due entries: PENDING and FAILED whose time has come,"
      + " CLAIMED whose lease expired; never terminal ones",
      "the due-time column or index: PENDING uses the available time, FAILED the retry time,"
          + " CLAIMED the lease end, terminal rows have none"),
  C2(Level.REQUIRED, "claimDue hands out the oldest due entries first",
      "the ORDER BY / sort of the due query: ascending due time, then id"),
  C3(Level.REQUIRED, "claimDue never returns more claims than asked for",
      "the LIMIT of the due query"),
  C4(Level.REQUIRED, "A claim stores owner, token, lease and attempt at the next revision;"
      + " the claim's snapshot equals the stored row",
      "that the claim is written before it is returned and the snapshot is the written entry"),
  C5(Level.REQUIRED, "Re-claiming an expired lease mints a new token with a larger generation and"
      + " counts an attempt",
      "that a claim always takes ClaimToken.following(stored generation), never reuses a token"),
  C6(Level.REQUIRED, "While a lease is live no other worker can claim the entry",
      "that the due query compares the lease end with the injected clock's now"),
  C7(Level.OPTIONAL, "Rows locked by another transaction are skipped, never waited for",
      "FOR UPDATE SKIP LOCKED (or the store's equivalent) in the claim query"),
  C8(Level.REQUIRED, "A holder whose lease expired but was not re-claimed can still finish (APPLIED)",
      "that the fence compares owner and token only; lease expiry alone never makes a claim stale"),
  C9(Level.REQUIRED, "save keeps the token and extends the lease; others wait for the new lease",
      "that save writes the new lease end into the due time as well"),
  C10(Level.REQUIRED, "failed releases the claim; the entry is due again at its retry time, not before",
      "that failed clears the owner and sets the due time to the retry time"),
  C11(Level.REQUIRED, "Expired leases and pending or failed entries compete by due time alone: a lease that"
      + " ended earlier is claimed before an entry that became available later, and the other way round",
      "that the due query orders CLAIMED rows by lease end and the others by available or retry time in one"
          + " ordering"),
  C12(Level.OPTIONAL, "On store time, a worker whose own clock runs an hour ahead cannot take a lease another"
      + " worker holds live, while the same worker on its own clock would",
      "that the store-time option replaces the injected clock everywhere: claims, leases and update times"),
  C13(Level.REQUIRED, "A claim with a payload limit takes due entries in due order while their payloads fit the"
      + " limit, the first due entry whatever its size; a limit that is not positive is rejected naming it",
      "that the claim sums payload sizes in due order (SQL: a running sum over the rows the due query read, before"
          + " it reads the payloads; Redis: each hash's payload length as the peek script reads it) and stops at the"
          + " first entry that does not fit"),
  C14(Level.OPTIONAL, "Store time moves with the server's clock: two claims on store time a moment apart take claim"
      + " times about that moment apart, near the server's time, while the worker's own clock jumps an hour",
      "that the store-time clock counts forward between its reads of the server (StoreTimeClock) and never reads"
          + " the injected clock (requires FixtureCapability.STORE_TIME)"),
  C15(Level.OPTIONAL, "On store time, what transitions write comes from the server's clock too: a renewal's lease end"
      + " and update time, a failure's and a delivery's update time; a retry time is stored as asked",
      "that the store-time option replaces the injected clock in the transition path as well as in claims"
          + " (requires FixtureCapability.STORE_TIME)"),
  C16(Level.OPTIONAL, "claimAppended claims entries handed to it as appended exactly as a claim would, and only"
      + " those still at their appended revision and due: one another worker claimed first, one not yet available and"
      + " one with an ordering key are left out; the claim is the stored entry and its delivery is APPLIED; bad"
      + " arguments are rejected naming them",
      "the compare-and-set on the appended revision (no due query) and the candidate filter (AppendedClaims); requires"
          + " StoreCapability.CLAIM_APPENDED, others report it skipped"),
  C17(Level.OPTIONAL, "An append offers each due entry without an ordering key to the store's commit listeners; one a"
      + " listener takes is stored and returned claimed by it (generation 1, attempt 1), reported committed as written,"
      + " and fenced like any claim: nobody else claims it within its lease, after it another worker does, and the"
      + " first holder's delivery is then STALE_CLAIM; an entry nobody takes stays pending; entries taken on append"
      + " and delivered by their holder never stand before a later entry in the due query",
      "that the append writes what CommitSignal.claimOnAppend returned and reports those entries (committed or"
          + " notCommitted); requires StoreCapability.CLAIM_ON_APPEND, others report it skipped"),
  O1(Level.REQUIRED, "Entries of one ordering key are claimed one at a time, in append order: while the first"
      + " is pending or claimed no later one of its key is handed out; other keys and unkeyed entries are not held back",
      "that the due query passes over an entry while an earlier entry of its key is not yet delivered or"
          + " dead-lettered"),
  O2(Level.REQUIRED, "A failed entry holds its key until it is delivered or dead-lettered; a dead letter releases"
      + " the key to the next entry",
      "that FAILED counts as not finished for the key, and DEAD_LETTERED as finished"),
  O3(Level.REQUIRED, "An expired lease keeps the order: the first entry is claimed again, never its successor",
      "that a CLAIMED entry holds its key whatever its lease"),
  O4(Level.REQUIRED, "Held-back entries never hide claimable ones: behind 50 entries of two keys whose first"
      + " entries are in flight or failed, a claim of 2 takes an unkeyed entry and a third key's first; a failed"
      + " first entry whose retry falls after its key's later entries is claimed when the retry is due",
      "that a claim reads past held-back entries until it has enough or nothing is due, instead of stopping"
          + " after a fixed window of the due order"),

  O5(Level.OPTIONAL, "claimNextOfKey hands out only the key's first unfinished entry, and only when claimDue would:"
      + " nothing while it is held or waits for its retry, a newer token on a re-claim, the next entry once it is"
      + " delivered, nothing for an unknown key; claimNextOfKeys does the same for each of several keys at once",
      "the lookup of the key's first unfinished entry (one index probe) and the same due check and compare-and-set"
          + " as a claim; requires StoreCapability.CLAIM_BY_KEY, others report it skipped"),
  O6(Level.REQUIRED, "Oldest due first across keys: behind 100 held-back entries of a key in flight, claims of 2"
      + " take the claimable entries (first of other keys, and unkeyed ones) two at a time in append order",
      "that a claim which finds the heads of keys and the unkeyed entries by separate ways still takes the oldest due"
          + " of them all, not the first found of each"),

  E1(Level.REQUIRED, "Ids, ordering keys and worker ids that differ only in case, an accent or a trailing space are"
      + " different values: find of a look-alike id is empty, each look-alike key is its own key (in a due claim and"
      + " in a claim by key), a claim whose owner"
      + " differs only in case is STALE_CLAIM and writes nothing",
      "the collation of the id, ordering key and owner columns (binary, without pad space: MariaDB's default"
          + " utf8mb4_general_ci is neither) and that filters compare with = on them, not with a case-folding function"),
  E2(Level.OPTIONAL, "Dead letters by topic and requeueAll by topic match the topic exactly: 'orders', 'ORDERS',"
      + " 'ordérs' and 'orders ' are four topics",
      "the collation of the topic column and the dead-letter query's filter (requires OutboxOperations)"),

  M1(Level.OPTIONAL, "countByStatus counts every status exactly, and oldestDueAge is the wait of the earliest"
      + " due entry: none while nothing is due, a pending entry from its available time, an expired claim from"
      + " its lease end, never a live claim",
      "the store's OutboxOperations: counts grouped by the stored status, the age from the due time on the store's"
          + " clock (a store without OutboxOperations reports M1-M5 skipped)"),
  M2(Level.OPTIONAL, "deadLetters lists only dead-lettered entries, in id order, by topic when asked, a page"
      + " at a time after the last id of the previous page; a walk over the pages ends (bounded: one that does not fails)",
      "the dead-letter query's filter on status and topic, its order by id and the id it starts after"),
  M3(Level.OPTIONAL, "requeue puts a dead letter back, due now, with a raised claim generation: the old holder's"
      + " transition is STALE_CLAIM and writes nothing; a non-dead entry is NOT_DEAD_LETTERED and untouched; a"
      + " missing one MISSING",
      "that the requeue is one conditional write on the dead-lettered status that raises the claim generation"),
  M4(Level.OPTIONAL, "A requeued entry with an ordering key holds its key again: later entries of the key wait"
      + " until it is finished; requeueAll by topic requeues that topic's dead letters only, over several pages with"
      + " other topics' dead letters sorting before, between and after them",
      "that the requeue puts a keyed entry back in its key's order (an index of unfinished entries per key)"),
  M5(Level.OPTIONAL, "purgeFinished deletes finished entries older than the age, oldest first, at most a batch;"
      + " never an unfinished one however old (pending, claimed, failed, long overdue), a recent or a requeued one;"
      + " countPurgeable counts what it would delete; purgeAll repeats until a batch comes back short",
      "the purge's filter (finished status, last write before now minus the age), its order and its limit"),
  M6(Level.OPTIONAL, "The operations reject bad arguments (null query or id, negative age, batch size 0 or above"
      + " the maximum) naming the argument, before any I/O: nothing is deleted or requeued",
      "that the store extends KernelOutboxStoreWithOperations (io.claimedoutbox.port.spi), or runs"
          + " OperationArguments first in every operation"),

  T1(Level.REQUIRED, "APPLIED carries the entry exactly as written: next revision, this write's"
      + " stamp, the new status, equal to the stored row",
      "that the result is built from the written row and the compare-and-set committed"),
  T2(Level.REQUIRED, "MISSING when the row is gone before the call: the result carries the caller's"
      + " snapshot, nothing is written",
      "that a missing row is decided first and never becomes a made-up durable entry"),
  T3(Level.REQUIRED, "TERMINAL when the row is already delivered or dead-lettered: the durable entry,"
      + " nothing written",
      "that terminal status is checked before owner and token"),
  T4(Level.REQUIRED, "STALE_CLAIM when another worker re-claimed the entry: the durable entry,"
      + " nothing written",
      "that the fence compares both owner and token with the stored claim before writing"),
  T5(Level.REQUIRED, "STALE_CLAIM for every old claim once the row was released (empty owner)",
      "that an empty stored owner never matches, even when the token generation does"),
  T6(Level.REQUIRED, "The same worker's older claim is STALE_CLAIM after it re-claims the entry",
      "that the fence compares the token, not only the owner"),
  T7(Level.REQUIRED, "CONCURRENCY_LOST with the refreshed winner when another claim landed between"
      + " evaluation and write",
      "that the write is a compare-and-set on the revision read at evaluation, and a lost one"
          + " re-reads the row; requires the store to call FixtureContext.writeHook()"),
  T8(Level.REQUIRED, "CONCURRENCY_LOST (not TERMINAL, never APPLIED) when a terminal write landed"
      + " between evaluation and write",
      "that a lost compare-and-set is classified from the re-read row as CONCURRENCY_LOST even when"
          + " the winner is terminal"),
  T9(Level.REQUIRED, "MISSING with the caller's snapshot when the row was deleted between evaluation"
      + " and write",
      "that a lost compare-and-set whose re-read finds no row reports MISSING"),
  T10(Level.REQUIRED, "A terminal entry never changes again: every transition is TERMINAL and no"
      + " claim hands it out",
      "that terminal rows have no due time and the fence checks terminal status first"),

  T11(Level.REQUIRED, "tryTransitionAll answers a mixed batch (applied, stale, terminal, missing) with"
      + " one result per element, in input order, each exactly what a single call would answer",
      "that the batch path decides every element on its own, with the same fence as the single call,"
          + " and returns the results in the order of the input"),
  T12(Level.REQUIRED, "A batch of one transition kind applies every element: each APPLIED with the"
      + " entry exactly as written, next revision, its own write stamp",
      "the batch statement or script: one write per element, each checked against its own claim"),
  T13(Level.REQUIRED, "tryTransitionAll rejects a batch with a null element or one entry twice,"
      + " naming the element, before any I/O: nothing of the batch is written",
      "that StoreArguments.checkTransitionAll runs before the first write"),
  T14(Level.REQUIRED, "A transition through the claim object of before the holder's own renewal: when the renewal"
      + " landed first, APPLIED on top of it (next revision, the renewal's fields kept), on every store; when it"
      + " lands between evaluation and write, CONCURRENCY_LOST with the renewed entry, nothing written over it",
      "that the write is conditioned on the revision it is computed from (the row read, or the one the atomic"
          + " step evaluates), never on the claim's snapshot alone, and that it raises that revision"),
  T15(Level.REQUIRED, "The same worker re-claiming the expired entry between evaluation and write:"
      + " CONCURRENCY_LOST with the new claim, never APPLIED under the old token",
      "that the compare-and-set covers the token generation, not only the owner"),

  K1(Level.REQUIRED, "Compatibility methods return exactly try…(…).entry() for every outcome and"
      + " never throw for a non-applied outcome",
      "that markClaim…/saveClaim delegate to the try… path (OutboxClaimOutcomeStore's defaults)"),

  B1(Level.REQUIRED, "claimDue rejects a null worker and a non-positive batch size or lease, and claimNextOfKeys"
      + " a null or blank key, naming the argument, writing nothing",
      "that StoreArguments.checkClaimDue and checkClaimNextOfKeys run before any I/O"),
  B2(Level.REQUIRED, "Transitions reject a null claim or request, naming the argument, writing nothing",
      "that StoreArguments.checkTransition runs before any I/O"),
  B3(Level.REQUIRED, "append rejects a null message, and appendAll a batch with a null element,"
      + " writing none of the batch",
      "that the whole batch is validated before the first write"),
  B4(Level.REQUIRED, "A claim whose snapshot belongs to another entry, or is not held under it,"
      + " cannot be built",
      "the Claim record's validation (domain)"),
  B5(Level.REQUIRED, "An undecodable row raises UndecodableEntryException naming the entry from find,"
      + " claimDue and transitions; it is never skipped or treated as missing",
      "the adapter's row decoding: catch decoding errors and name the entry"),
  B6(Level.OPTIONAL, "With the backend down, bad input is still rejected first (no I/O), and real calls"
      + " fail with OutboxStoreException",
      "argument checks before connecting, and translation of driver exceptions"),

  B7(Level.REQUIRED, "Limits are rejected before any I/O, naming the argument: a claim batch over"
      + " StoreArguments.MAX_BATCH, a lease or renewal over Instants.MAX_LEASE, a retry or available time"
      + " past the storable horizon, a transition batch over MAX_BATCH (of distinct entries); the largest allowed values"
      + " work",
      "StoreArguments.checkClaimDue / checkTransitionAll before any I/O, and that the store sizes its work"
          + " by what is due, not by what was asked"),
  B8(Level.REQUIRED, "Text no backend stores faithfully (NUL, unpaired surrogates) is rejected when a"
      + " message or worker id is built; any other text round-trips exactly; notes are stored with such"
      + " characters replaced by U+FFFD",
      "the column types and connection encoding (utf8mb4, not utf8; text, not bytes decoded with a"
          + " platform charset) and that notes are stored as StoredNotes.of makes them"),

  B9(Level.REQUIRED, "A claim batch that meets a damaged row fails whole, naming the row: nothing of the"
      + " batch is claimed, and a retry fails the same way",
      "that the claim decodes every candidate before it writes any (a read, then the write checked against"
          + " the revisions read)"),

  B10(Level.REQUIRED, "A transition batch that meets a damaged row fails naming it (UndecodableEntryException, or"
      + " as the cause); the damaged row is unchanged, and no other element is written silently: each is unchanged,"
      + " or its write stamp is one the failure reports (TransitionOutcomeUnknownException.sentWriteStamp)",
      "that the batch decodes before it writes, or writes in one transaction it rolls back, or reports the stamps of"
          + " the elements it wrote before it met the damaged row"),

  H1(Level.STOCHASTIC, "A randomized concurrent run (8 workers, 1,000 entries, half of them under 40 ordering"
      + " keys, leases expiring mid-work, deletions) keeps a consistent history: one APPLIED terminal write per"
      + " terminal entry, no two live claims, no write counted twice, nothing lost (no key left stuck), no"
      + " entry claimed or delivered before the earlier entry of its key was being finished; atomic stores never"
      + " report CONCURRENCY_LOST",
      "the claim query's locking and the transition compare-and-set under real concurrency"),

  F1(Level.OPTIONAL, "A transition whose connection is cut before any one of its requests answers an"
      + " outcome or throws OutboxStoreException (then nothing was written) or TransitionOutcomeUnknownException;"
      + " APPLIED only with its write stored; the next call on the same store works",
      "that every driver failure becomes one of the two documented exceptions and a pool replaces a broken"
          + " connection"),
  F2(Level.OPTIONAL, "A transition whose answer is lost after the server applied a request is told the truth:"
      + " APPLIED with the stored write when its write landed, never APPLIED when it did not",
      "that a lost acknowledgement is resolved by reading the entry again and comparing write stamps"
          + " (LostAcknowledgement), never guessed"),
  F3(Level.OPTIONAL, "A transition held on the wire with its answer lost, while another worker re-claims the"
      + " entry or it is deleted, never lands over the new state, never brings a deleted entry back, and is"
      + " never APPLIED",
      "that the write is conditioned on the claim (or the revision read), not only on the id"),
  F4(Level.OPTIONAL, "A claim batch whose answer is lost loses nothing: every entry is claimable again once"
      + " the lease ends, and any claim returned is the stored one",
      "that a claim writes the lease end as the due time, so an unanswered claim expires like any other"),
  F5(Level.OPTIONAL, "After every connection is cut (a server restart seen from the client) the first call"
      + " fails at most once, and every call after it (find, save, claim, append) works at its first try",
      "that a broken connection makes the store drop the pool's other idle connections (or check each before use)"
          + " and repeat a call that is safe to repeat on a fresh connection, instead of handing the broken ones out"
          + " one by one"),
  F6(Level.OPTIONAL, "A save held on the wire, whose answer is lost, while the holder's own other write takes the next"
      + " revision, is never APPLIED unless its own write is stored: the entry carries the other write or this one's"
      + " stamp, never a guess",
      "that a lost answer is resolved by the write stamp alone (LostAcknowledgement): a revision one above the base,"
          + " still held by the claim, is not proof that this write landed");

  private final Level level;
  private final String title;
  private final String hint;

  Rule(Level level, String title, String hint) {
    this.level = level;
    this.title = title;
    this.hint = hint;
  }

  /** @return whether every store must pass the rule, or only stores with a capability */
  public Level level() {
    return level;
  }

  /** @return what the rule demands, in one sentence */
  public String title() {
    return title;
  }

  /** @return where to look when the rule fails */
  public String hint() {
    return hint;
  }

  /** @return the rule as a test's display name, for example {@code T4 [required] STALE_CLAIM …} */
  public String displayName() {
    return name() + " [" + level.name().toLowerCase(Locale.ROOT) + "] " + title;
  }

  /**
   * A failure message for this rule.
   *
   * @param detail what was observed
   * @return a message naming the rule, the observation and the hint
   */
  public String violation(String detail) {
    return "Rule " + name() + " violated (" + title + "): " + detail
        + System.lineSeparator() + "  If this fails, check " + hint + ".";
  }

  /** Whether a rule binds every store, and how much a pass proves. */
  public enum Level {
    /** Every store must pass it. */
    REQUIRED,
    /** Only stores with the capability the rule names; others report it skipped with a reason. */
    OPTIONAL,
    /**
     * Every store must pass it, but it is a randomized run: a pass is evidence, not proof, and a
     * failure names the seed that replays its random choices ({@code -Doutbox.conformance.seed}).
     */
    STOCHASTIC
  }
}
