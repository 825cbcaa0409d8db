/**
 * <b>example.</b> The plain-Java quickstart: an application using the JPA adapter and the drain without Spring.
 */
package com.example.orders;
