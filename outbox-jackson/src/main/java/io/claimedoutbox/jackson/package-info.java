/**
 * <b>API.</b> JSON payloads through Jackson: append an object, receive it typed in the handler.
 */
package io.claimedoutbox.jackson;
