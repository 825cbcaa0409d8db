package io.claimedoutbox.benchmarks;

import io.namastack.outbox.Outbox;
import io.namastack.outbox.handler.OutboxTypedHandler;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * namastack-outbox 1.6.0 as its quickstart wires it, for the benchmarks: the JDBC starter's
 * auto-configuration in a Spring Boot context (Boot 4.0.6, the version it is built on) over the
 * benchmark's pool, with one typed handler bean; records are scheduled with {@code
 * outbox.schedule(payload, key)} inside a Spring transaction.
 */
public final class NamastackContext implements AutoCloseable {

  /** The payload namastack serializes with Jackson; public for the mapper. */
  public record EntryPayload(long sequence) {}

  /** The handler bean: calls what the benchmark gave it for every record. */
  public static final class Handler implements OutboxTypedHandler<EntryPayload> {
    private final Consumer<Long> handled;

    Handler(Consumer<Long> handled) {
      this.handled = handled;
    }

    @Override
    public void handle(EntryPayload payload, io.namastack.outbox.handler.OutboxRecordMetadata metadata) {
      handled.accept(payload.sequence());
    }
  }

  /** The application: the benchmark's pool and handler; everything else is auto-configured. */
  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class Application {
    // handed over from start(): Spring instantiates this class itself
    static DataSource dataSource;
    static Handler handler;

    /** The benchmark's pool, which outlives the context. */
    @Bean(destroyMethod = "")
    DataSource dataSource() {
      return dataSource;
    }

    @Bean
    Handler benchmarkHandler() {
      return handler;
    }
  }

  private final ConfigurableApplicationContext context;
  private final Outbox outbox;
  private final TransactionTemplate transactions;

  private NamastackContext(ConfigurableApplicationContext context) {
    this.context = context;
    this.outbox = context.getBean(Outbox.class);
    this.transactions = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
  }

  /**
   * Starts a context.
   *
   * @param dataSource the pool; not closed with the context
   * @param settings {@code namastack.outbox.*} properties; empty for its defaults
   * @param handled called with each record's sequence, on namastack's threads
   * @return the running context
   */
  public static synchronized NamastackContext start(DataSource dataSource, Map<String, Object> settings,
      Consumer<Long> handled) {
    Application.dataSource = dataSource;
    Application.handler = new Handler(handled);
    Map<String, Object> properties = new LinkedHashMap<>(settings);
    properties.put("spring.main.banner-mode", "off");
    properties.put("logging.level.io.namastack", "warn");
    return new NamastackContext(new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
        .properties(properties).logStartupInfo(false).run());
  }

  /** @return the outbox records are scheduled through, inside {@link #transactions()} */
  public Outbox outbox() {
    return outbox;
  }

  /** @return transactions on the context's transaction manager */
  public TransactionTemplate transactions() {
    return transactions;
  }

  @Override
  public void close() {
    context.close();
  }
}
