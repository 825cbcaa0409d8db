package io.claimedoutbox.micrometer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** An SLF4J logger that keeps every line, so tests can assert what was logged at which level. */
final class CapturingLogger extends LegacyAbstractLogger {

  private static final long serialVersionUID = 1L;

  record Line(Level level, String message) {}

  final List<Line> lines = new CopyOnWriteArrayList<>();

  CapturingLogger() {
    this.name = "captured";
  }

  List<String> at(Level level) {
    return lines.stream().filter(line -> line.level() == level).map(Line::message).toList();
  }

  @Override
  protected String getFullyQualifiedCallerName() {
    return null;
  }

  @Override
  protected void handleNormalizedLoggingCall(
      Level level, Marker marker, String pattern, Object[] arguments, Throwable throwable) {
    lines.add(new Line(level, MessageFormatter.basicArrayFormat(pattern, arguments)));
  }

  @Override
  public boolean isTraceEnabled() {
    return true;
  }

  @Override
  public boolean isDebugEnabled() {
    return true;
  }

  @Override
  public boolean isInfoEnabled() {
    return true;
  }

  @Override
  public boolean isWarnEnabled() {
    return true;
  }

  @Override
  public boolean isErrorEnabled() {
    return true;
  }
}
