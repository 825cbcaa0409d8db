package io.claimedoutbox.conformance;

/**
 * One row as the backend stores it, read by the fixture directly (not through the store under
 * test), so the suite can check that "nothing was written" and "exactly this was written".
 *
 * @param id the entry id
 * @param status the stored status name, for example {@code CLAIMED}
 * @param owner the stored owner, {@code null} when none
 * @param tokenGeneration the stored generation of the newest claim, 0 when never claimed
 * @param revision the stored revision
 * @param writeStamp the stored stamp of the last write, {@code null} when none
 */
public record RawEntryState(
    String id, String status, String owner, long tokenGeneration, long revision, String writeStamp) {}
