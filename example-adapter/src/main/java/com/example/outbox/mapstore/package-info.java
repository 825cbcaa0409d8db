/**
 * <b>example.</b> An adapter written the way an adapter author outside the project would write one, on the SPI,
 * proved by the conformance suite.
 */
package com.example.outbox.mapstore;
