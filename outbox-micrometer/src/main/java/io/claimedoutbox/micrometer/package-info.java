/**
 * <b>API.</b> Micrometer observation of a store: counts and timings of every transition by outcome, backlog
 * gauges, warnings for attempts that were not applied.
 */
package io.claimedoutbox.micrometer;
