/**
 * <b>example.</b> A Spring Boot orders service using the starter as an application would: it touches only the
 * port's API and the starter's beans.
 */
package io.claimedoutbox.sample;
