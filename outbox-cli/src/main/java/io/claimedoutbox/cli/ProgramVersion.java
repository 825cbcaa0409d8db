package io.claimedoutbox.cli;

import picocli.CommandLine.IVersionProvider;

/** The program's version, from the jar's manifest (set by the build), for {@code --version} and reports. */
final class ProgramVersion implements IVersionProvider {

  /** @return for example {@code Claimed Outbox 0.1.0}; {@code Claimed Outbox (development build)} outside the jar */
  static String text() {
    String version = ProgramVersion.class.getPackage().getImplementationVersion();
    return "Claimed Outbox " + (version == null ? "(development build)" : version);
  }

  @Override
  public String[] getVersion() {
    return new String[] {text()};
  }
}
