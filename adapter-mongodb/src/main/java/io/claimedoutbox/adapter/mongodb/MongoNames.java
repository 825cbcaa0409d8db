package io.claimedoutbox.adapter.mongodb;

import io.claimedoutbox.domain.Arguments;
import java.util.regex.Pattern;

/** Validation of database and collection names, before any I/O. */
final class MongoNames {

  private static final Pattern DATABASE_FORBIDDEN = Pattern.compile("[/\\\\. \"$*<>:|?\\x00]");
  private static final int MAX_DATABASE_LENGTH = 63;
  private static final int MAX_COLLECTION_LENGTH = 120;

  private MongoNames() {}

  static String database(String name) {
    Arguments.requireText(name, "databaseName", MAX_DATABASE_LENGTH);
    if (DATABASE_FORBIDDEN.matcher(name).find()) {
      throw new IllegalArgumentException(
          "databaseName must not contain / \\ . space \" $ * < > : | ? or NUL, was '" + name + "'");
    }
    return name;
  }

  static String collection(String name) {
    Arguments.requireText(name, "collectionName", MAX_COLLECTION_LENGTH);
    if (name.contains("$") || name.contains("\0") || name.startsWith("system.")) {
      throw new IllegalArgumentException(
          "collectionName must not contain $ or NUL nor start with 'system.', was '" + name + "'");
    }
    return name;
  }
}
