package io.claimedoutbox.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;

/** {@code outbox}: with no command it runs the race with its defaults, the main job. */
@Command(name = "outbox", mixinStandardHelpOptions = true, versionProvider = ProgramVersion.class,
    description = {"See how each outbox backend behaves under contention and how fast it is, on your own infrastructure.",
        "Without a command, runs `race` on embedded H2."},
    subcommands = {RaceCommand.class, CompareCommand.class, ConformanceCommand.class, BenchCommand.class,
        StatusCommand.class, DeadLettersCommand.class, RequeueCommand.class, PurgeCommand.class,
        HelpCommand.class})
final class OutboxCommand implements Callable<Integer> {

  @Mixin
  CommonOptions common;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(System.out);
    return 0;
  }
}
